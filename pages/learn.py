"""Learn: the rulebook of the variant in use, lessons from the rules' worked examples,
and the house rules sheet to print."""

from __future__ import annotations

import streamlit as st

from tutor.core.cards import parse_card
from tutor.engine import check
from tutor.engine.words import move_words
from tutor.rules.variant import Variant, load_variant
from tutor.teach.examples import Example, lessons
from tutor.teach.rulebook import alternatives, rulebook
from tutor.teach.sheet import sheet_html, sheet_markdown
from tutor.teach.views import moves_to_try
from tutor.webui.cards import cards_html
from tutor.webui.matrix_view import show_matrix
from tutor.webui.safe import md
from tutor.webui.state import current_variant
from tutor.webui.table_view import show_table
from tutor.webui.verdict_view import show_verdict

K_LESSON, K_TRY, K_ANSWER = "learn_lesson", "learn_try", "learn_answer"


_CARD_OF_SLOT = {"2": "2S", "3": "3S", "4": "4S", "5": "5S", "7": "7S", "8": "8S", "9": "9S", "10": "10S",
                 "J": "JS", "red-jacks": "JH", "jokers": "JK", "four-of-a-kind": "QS"}


def show_glance(v: Variant) -> None:
    """One screen: the special cards as pictures with a line each, how this differs from pagat's
    main description, and what goes on what."""
    st.subheader("At a glance")
    st.markdown(f"**{md(v.preset.title)}.** {md(v.preset.summary)}")
    specials = [f for f in v.fragments if f.slot in _CARD_OF_SLOT]
    for f in specials:
        card = parse_card(_CARD_OF_SLOT[f.slot])
        cards = (card,) * 4 if f.slot == "four-of-a-kind" else (card,)
        c1, c2 = st.columns([1, 4], vertical_alignment="center")
        c1.markdown(cards_html(cards, small=True), unsafe_allow_html=True)
        c2.markdown(f"**{md(f.title)}.** {md(f.summary)}")
    if v.preset.id != "pagat":
        base = load_variant("pagat")
        differ = [f for f in v.fragments if f.id not in {g.id for g in base.fragments} and f.slot not in _CARD_OF_SLOT]
        if differ:
            st.markdown("**Unlike pagat's main description:** " + " ".join(
                f"{md(f.summary)}" for f in differ))
    with st.expander("What goes on what: the whole grid"):
        show_matrix(v, key="learn")


def show_rulebook(v: Variant) -> None:
    for old, new in v.replaced:
        st.markdown(f"*Here `{new}` replaces the rule set's `{old}`.*")
    readings: list[tuple[str, str]] = []
    for title, rules in rulebook(v):
        if not rules:
            continue
        st.subheader(title)
        for r in rules:
            f = r.fragment
            st.markdown(f"**{md(f.title)}.** {md(r.text)}")
            st.caption(f"Rule `{f.id}` · source: {md(f.source.cite())}")
            if r.reading:
                readings.append((f.title, r.reading))
    if readings:
        with st.expander(f"Where the sources are unclear, and the reading taken ({len(readings)})"):
            for title, reading in readings:
                st.markdown(f"**{md(title)}.** {md(reading)}")
    options = alternatives(v)
    if options:
        with st.expander(f"Options the source offers ({len(options)})"):
            for spec, title, summary in options:
                st.markdown(f"**{md(title)}** (`{spec}`): {md(summary)}")
    if v.preset.not_modelled:
        with st.expander(f"In the source but not modelled by the tutor ({len(v.preset.not_modelled)})"):
            for what, why in v.preset.not_modelled:
                st.markdown(f"**{md(what)}.** {md(why)}")


@st.cache_data(max_entries=64, show_spinner=False)
def _lessons(spec: str) -> list[Example]:
    return lessons(load_variant(spec))


def lesson_label(v: Variant, ex: Example, n: int, total: int) -> str:
    return f"{n} of {total}: {v.fragment(ex.fragment).title}"


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
    found = lessons(v) if "@" in v.id else _lessons(v.id)  # an upload is not cached across sessions
    if not found:
        st.info("The rules of this variant come with no worked examples that hold under it yet.")
        return
    keys = [f"{ex.fragment}#{ex.index}" for ex in found]
    by_key = dict(zip(keys, found, strict=True))
    if st.session_state.get(K_LESSON) not in keys:
        st.session_state[K_LESSON] = keys[0]
    key = st.selectbox("Lesson", keys, key=K_LESSON, on_change=_new_lesson,
                       format_func=lambda k: lesson_label(v, by_key[k], keys.index(k) + 1, len(keys)))
    ex = by_key[key]
    frag = v.fragment(ex.fragment)
    st.markdown(f"**{md(frag.title)}.** {md(frag.summary)}")
    show_table(ex.table, v)
    options = moves_to_try(ex.table, v)
    if ex.move not in options:
        options.insert(0, ex.move)
    labels = {str(m): m for m in options}
    if st.session_state.get(K_TRY) not in labels:
        st.session_state[K_TRY] = str(ex.move)
    st.radio(f"It is {ex.table.player.name}'s turn. Which move do you want to ask about? "
             "Illegal ones are worth asking about too.", list(labels), key=K_TRY,
             format_func=lambda s: move_words(labels[s]))
    c1, c2 = st.columns(2)
    c1.button("Ask the rules", type="primary", on_click=_ask, args=(key,), key="learn_ask")
    c2.button("Next lesson", on_click=_next_lesson, args=(keys,), key="learn_next")
    answer = st.session_state.get(K_ANSWER)
    if answer and answer[0] == key and answer[1] in labels:
        show_verdict(check(ex.table, v, labels[answer[1]]), v)
        st.info(f"**The point of this example:** {md(ex.note)}  \n**The rule says:** {md(frag.text or frag.summary)}")


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
    st.markdown("The variant chosen in the sidebar at a glance; then lessons (a table, a move to try, and what "
                "the rules say about it), the whole rulebook, and a sheet to print.")
    show_glance(v)
    lessons_tab, rules_tab, sheet_tab = st.tabs(["Lessons", "Rulebook", "House rules sheet"])
    with rules_tab:
        show_rulebook(v)
    with lessons_tab:
        show_lessons(v)
    with sheet_tab:
        show_sheet(v)


main()
