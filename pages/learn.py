"""Learn: the rulebook of the variant in use, lessons from the rules' worked examples,
and the house rules sheet to print."""

from __future__ import annotations

import streamlit as st

from tutor.core.errors import TutorError
from tutor.core.moves import Move
from tutor.engine import check
from tutor.rules.variant import Variant
from tutor.teach.examples import Example, load_example
from tutor.teach.rulebook import rulebook
from tutor.teach.sheet import sheet_html, sheet_markdown
from tutor.teach.views import moves_to_try
from tutor.webui.state import current_variant
from tutor.webui.table_view import show_table
from tutor.webui.verdict_view import show_verdict

K_LESSON, K_TRY, K_ANSWER = "learn_lesson", "learn_try", "learn_answer"


def show_rulebook(v: Variant) -> None:
    st.markdown(f"**{v.preset.title}** (`{v.id}`). {v.preset.summary}")
    for old, new in v.replaced:
        st.markdown(f"*Here `{new}` replaces the rule set's `{old}`.*")
    for title, rules in rulebook(v):
        if not rules:
            continue
        st.subheader(title)
        for r in rules:
            f = r.fragment
            st.markdown(f"**{f.title}.** {r.text}")
            st.caption(f"Rule `{f.id}` · source: {f.source.cite()}")
            if r.reading:
                st.markdown(f"> *Where the source is unclear:* {r.reading}")


def lesson_keys(v: Variant) -> list[str]:
    return [f"{f.id}#{k}" for f in v.fragments for k in range(len(f.examples))]


def lesson(v: Variant, key: str) -> Example:
    fid, k = key.rsplit("#", 1)
    return load_example(v.fragment(fid), int(k))


def lesson_label(v: Variant, key: str) -> str:
    fid, k = key.rsplit("#", 1)
    f = v.fragment(fid)
    return f"{f.title} · example {int(k) + 1}"


def _ask(key: str) -> None:
    st.session_state[K_ANSWER] = (key, st.session_state.get(K_TRY))


def _new_lesson() -> None:
    """A new lesson starts with its own move picked and no answer shown."""
    st.session_state.pop(K_TRY, None)
    st.session_state.pop(K_ANSWER, None)


def _next_lesson(keys: list[str]) -> None:
    k = keys.index(st.session_state[K_LESSON]) if st.session_state.get(K_LESSON) in keys else -1
    st.session_state[K_LESSON] = keys[(k + 1) % len(keys)]
    _new_lesson()


def show_lessons(v: Variant) -> None:
    keys = lesson_keys(v)
    if not keys:
        st.info("The rules of this variant come with no worked examples yet.")
        return
    if st.session_state.get(K_LESSON) not in keys:
        st.session_state[K_LESSON] = keys[0]
    key = st.selectbox("Lesson", keys, key=K_LESSON, format_func=lambda k: lesson_label(v, k),
                       on_change=_new_lesson)
    try:
        ex = lesson(v, key)
    except TutorError as exc:
        st.error(f"This example cannot be shown: {exc}", icon=":material/block:")
        return
    frag = v.fragment(ex.fragment)
    st.markdown(f"**{frag.title}.** {frag.summary}")
    if ex.variant.id != v.id:
        st.caption(f"This example is played under `{ex.variant.id}`, the rules it was written for.")
    show_table(ex.table, ex.variant)
    options = [str(m) for m in moves_to_try(ex.table, ex.variant)]
    if str(ex.move) not in options:
        options.insert(0, str(ex.move))
    if st.session_state.get(K_TRY) not in options:
        st.session_state[K_TRY] = str(ex.move)
    st.radio(f"It is {ex.table.player.name}'s turn. Which move do you want to ask about? "
             "Illegal ones are worth asking about too.", options, key=K_TRY, horizontal=True)
    c1, c2 = st.columns(2)
    c1.button("Ask the rules", type="primary", on_click=_ask, args=(key,), key="learn_ask")
    c2.button("Next lesson", on_click=_next_lesson, args=(keys,), key="learn_next")
    answer = st.session_state.get(K_ANSWER)
    if answer and answer[0] == key and answer[1] in options:
        show_verdict(check(ex.table, ex.variant, Move.parse(answer[1])), ex.variant)
        st.info(f"**The point of this example:** {ex.note}  \n**The rule says:** {frag.text or frag.summary}")


def show_sheet(v: Variant) -> None:
    st.markdown("Take the rules to the table: the whole rulebook of this variant with its sources, "
                "and a grid of what can be played on what.")
    name = f"house-rules-{v.id.replace('@', '-')}"
    c1, c2 = st.columns(2)
    c1.download_button("House rules sheet (Markdown)", sheet_markdown(v), file_name=f"{name}.md",
                       mime="text/markdown", icon=":material/description:", key="learn_sheet_md")
    c2.download_button("Printable house rules (HTML)", sheet_html(v), file_name=f"{name}.html",
                       mime="text/html", icon=":material/print:", key="learn_sheet_html")
    with st.expander("Preview the sheet"):
        st.markdown(sheet_markdown(v))


def main() -> None:
    v = current_variant()
    st.title("Learn")
    st.markdown("The rules of the variant chosen in the sidebar, written out from its rules; then "
                "lessons: a table, a move to try, and what the rules say about it.")
    rules_tab, lessons_tab, sheet_tab = st.tabs(["Rulebook", "Lessons", "House rules sheet"])
    with rules_tab:
        show_rulebook(v)
    with lessons_tab:
        show_lessons(v)
    with sheet_tab:
        show_sheet(v)


main()
