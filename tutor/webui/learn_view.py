"""The Learn page's parts: the guided course, the quiz, the summary, the lessons, the rulebook and
the house rules sheet, each drawn for the variant in use.

The course and the quiz come from :mod:`tutor.teach.course` and :mod:`tutor.teach.quiz`; every
answer shown is the engine's, computed there. What is open lives in the URL: ``?part=`` (course,
quiz, glance, lessons, rules, sheet), ``?step=`` (the course step, from 1) and ``?seed=`` (the
quiz), each read strictly (:mod:`tutor.webui.params`) on the session's first run. They are
written by the buttons and tabs that move the learner (in their callbacks), never on a plain
run: "/" runs Learn on the way to another page, whose own ``step`` or ``seed`` must survive.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import streamlit as st

from tutor.core.cards import parse_card
from tutor.core.errors import TutorError, excerpt
from tutor.engine import check
from tutor.engine.words import move_words
from tutor.rules.variant import Variant, load_variant
from tutor.teach.course import END, Question, Step, WorkedGame, course, feedback, heading, said, worked_game
from tutor.teach.examples import Example, lessons
from tutor.teach.quiz import MAX_SEED, Marked, mark, quiz
from tutor.teach.rulebook import alternatives, rulebook
from tutor.teach.sheet import sheet_html, sheet_markdown
from tutor.teach.views import moves_to_try
from tutor.webui.cards import cards_html
from tutor.webui.matrix_view import show_matrix
from tutor.webui.params import int_param
from tutor.webui.safe import md
from tutor.webui.table_view import show_table
from tutor.webui.verdict_view import show_verdict

PARTS = {"course": "Course", "quiz": "Quiz", "glance": "At a glance", "lessons": "Lessons",
         "rules": "Rulebook", "sheet": "House rules sheet"}
K_PART, K_STEP, K_SEED, K_QUIZ = "learn_part", "learn_step", "learn_seed", "learn_quiz"
K_LESSON, K_TRY, K_ANSWER = "learn_lesson", "learn_try", "learn_answer"
K_CHECKED = "learn_checked"  # the questions answered this session: key -> the choices tapped
_RED_FACE = re.compile(r"((?:10|[2-9JQKA])[♥♦])")
# a long choice ("Play an 8 (8♣), then give 2♦ to B ...") wraps instead of being cut off on a phone
_CSS = """<style>
.st-key-learn_question [data-testid=stButtonGroup] button { height: auto; max-width: 100%; }
.st-key-learn_question [data-testid=stButtonGroup] button * { white-space: normal; overflow: visible;
  text-overflow: clip; text-align: left; }
</style>"""
_FACE = re.compile(r"((?:10|[2-9JQKA])[♣♦♥♠])")


# -- what is open -----------------------------------------------------------------------------


def open_part() -> str:
    """The part of Learn shown, as tabs; on the session's first run taken from ``?part=`` (an
    unknown value falls back to the course, with a one-line warning)."""
    if K_PART not in st.session_state:
        raw = st.query_params.get("part")
        if raw not in (None, "") and raw not in PARTS:
            st.warning(f"The link's part {md(excerpt(str(raw), 24))} is not one of {', '.join(PARTS)}; "
                       "showing the course.", icon=":material/link_off:")
        st.session_state[K_PART] = PARTS.get(str(raw), PARTS["course"])
    return st.session_state[K_PART]


def go(part: str, step: int | None = None) -> None:
    """Open a part of Learn (for buttons' callbacks): the course at ``step`` (from 1), or the quiz."""
    st.session_state[K_PART] = PARTS[part]
    if step is not None:
        st.session_state[K_STEP] = step
    if part == "quiz" and K_SEED not in st.session_state and "seed" not in st.query_params:
        st.session_state[K_SEED] = 1
    to_url()


def to_url() -> None:
    """Write what is open into the URL (from a callback): the part, and its step or quiz number."""
    part = slug(st.session_state.get(K_PART, PARTS["course"]))
    st.query_params["part"] = part
    owned = {"course": ("step", K_STEP), "quiz": ("seed", K_SEED)}
    for name, (param, key) in owned.items():
        if name == part and key in st.session_state:
            st.query_params[param] = str(st.session_state[key])
        elif name != part and param in st.query_params:
            del st.query_params[param]


def slug(label: str) -> str:
    return next(k for k, v in PARTS.items() if v == label)


# -- cached content ---------------------------------------------------------------------------


@st.cache_resource(max_entries=64, show_spinner=False)
def _course(spec: str) -> tuple[tuple[Step, ...], WorkedGame | None]:
    v = load_variant(spec)
    return tuple(course(v)), worked_game(v)


@st.cache_resource(max_entries=64, show_spinner="Dealing ten situations from real games…")
def _quiz(spec: str, seed: int) -> tuple[Question, ...]:
    return quiz(load_variant(spec), seed)


def course_of(v: Variant) -> tuple[tuple[Step, ...], WorkedGame | None]:
    if "@" in v.id:  # an uploaded fragment lives in this session only: not cached across sessions
        return tuple(course(v)), worked_game(v)
    return _course(v.id)


def quiz_of(v: Variant, seed: int) -> tuple[Question, ...]:
    return quiz(v, seed) if "@" in v.id else _quiz(v.id, seed)


# -- a question -------------------------------------------------------------------------------


def label_md(label: str) -> str:
    """A choice for a pill: words escaped, red suits in red."""
    parts = _FACE.split(label)
    return "".join((f":red[{p}]" if _RED_FACE.fullmatch(p) else p) if k % 2 else md(p) for k, p in enumerate(parts))


def _check(key: str) -> None:
    value = st.session_state.get(f"{key}|pick")
    tapped = [] if value is None else [value] if isinstance(value, str) else list(value)
    st.session_state.setdefault(K_CHECKED, {})[key] = tapped


def checked(key: str) -> bool:
    return key in st.session_state.get(K_CHECKED, {})


def picked(key: str) -> list[str]:
    """The choices tapped when the question was checked."""
    return list(st.session_state.get(K_CHECKED, {}).get(key, []))


def show_question(q: Question, v: Variant, key: str) -> bool:
    """The question first (the table, the prompt, choices to tap, Check), then the engine's answer
    and the table after the move. Returns whether it has been answered."""
    done = checked(key)
    if not done:
        show_table(q.table, v, seat=q.seat)
    labels = {c.key: c.label for c in q.choices}
    st.markdown(_CSS, unsafe_allow_html=True)
    st.container(key="learn_question").pills(f"**{md(q.prompt)}**", list(labels), selection_mode="multi" if q.multi else "single",
             format_func=lambda k: label_md(labels[k]), key=f"{key}|pick", disabled=done, persist_state="session")
    if not done:
        st.button("Check", type="primary", icon=":material/check:", on_click=_check, args=(key,),
                  key=f"{key}|check")
        return False
    fb = feedback(q, picked(key))
    text = f"**{md(fb.head)}** " + "  \n".join(md(line) for line in fb.lines)
    (st.success if fb.right else st.error)(text, icon=":material/check_circle:" if fb.right else ":material/cancel:")
    st.markdown(f"**After the move:** {md(said(q.player, q.move))}.")
    show_table(q.after, v, seat=q.seat)
    with st.expander("The table before the move"):
        show_table(q.table, v, seat=q.seat)
    return True


def show_rules_of(v: Variant, ids: tuple[str, ...]) -> None:
    """The rules a step teaches, each with its source, folded into one line (on a phone the
    citations would otherwise push the step's question off the screen)."""
    cites = []
    for fid in ids:
        try:
            f = v.fragment(fid)
        except KeyError:
            continue
        cites.append(f"{md(f.title)} — {md(f.source.cite())}")
    if cites:
        with st.expander(f"Where this comes from ({len(cites)} {'rule' if len(cites) == 1 else 'rules'})",
                         icon=":material/menu_book:"):
            for cite in cites:
                st.caption(cite)


# -- the course -------------------------------------------------------------------------------


def _course_step(n: int) -> int:
    """The open step, 1 to n (n + 1: the end); on the session's first run from ``?step=``."""
    if K_STEP not in st.session_state:
        st.session_state[K_STEP] = int_param("step", 1, 1, n + 1, "course step")
    step = min(max(int(st.session_state[K_STEP]), 1), n + 1)
    st.session_state[K_STEP] = step
    return step


def _to_step(k: int) -> None:
    go("course", k)


def show_course(v: Variant) -> None:
    try:
        steps, game = course_of(v)
    except TutorError as exc:
        st.info(f"No course can be written for this variant: {md(exc)}. The rulebook and the lessons still work.")
        return
    n = len(steps)
    k = _course_step(n)
    st.caption(md(heading(v)))
    st.progress(min(k, n) / n, text=f"Step {min(k, n)} of {n}" if k <= n else "Course done")
    if k > n:
        _show_end(v, game)
        return
    step = steps[k - 1]
    st.subheader(md(step.title))
    if step.cards:
        st.markdown(cards_html(step.cards, small=True), unsafe_allow_html=True)
    st.markdown(md(step.text))
    show_rules_of(v, step.rules)
    key = f"course|{v.id}|{step.id}"
    answered = show_question(step.question, v, key)
    row = st.container(horizontal=True, wrap=False, gap="small")
    row.button("Back", icon=":material/chevron_left:", on_click=_to_step, args=(k - 1,), disabled=k == 1,
               key="learn_back", width="stretch")
    row.button("Continue" if answered else "Skip", icon=":material/chevron_right:", icon_position="right",
               on_click=_to_step, args=(k + 1,), type="primary" if answered else "secondary",
               key="learn_next", width="stretch")


def _show_end(v: Variant, game: WorkedGame | None) -> None:
    st.success(f"**{md(END)}**", icon=":material/school:")
    row = st.container(horizontal=True, gap="small")
    row.button("Take the quiz", type="primary", icon=":material/quiz:", on_click=go, args=("quiz",),
               key="learn_to_quiz")
    row.button("Start the course again", icon=":material/replay:", on_click=_to_step, args=(1,),
               key="learn_again")
    if game is not None:
        st.link_button(f"Watch a whole game: {md(game.title)}", f"./games?game={game.id}&v={v.id}"
                       if "@" not in v.id else f"./games?game={game.id}", icon=":material/playing_cards:")
        st.caption(md(game.note()))


# -- the quiz ---------------------------------------------------------------------------------


def _quiz_state(v: Variant, seed: int) -> dict[str, object]:
    state = st.session_state.get(K_QUIZ)
    if not isinstance(state, dict) or state.get("of") != (v.id, seed):
        state = {"of": (v.id, seed), "at": 0}
        st.session_state[K_QUIZ] = state
    return state


def _quiz_at(k: int) -> None:
    st.session_state[K_QUIZ]["at"] = k


def _new_quiz(seed: int) -> None:
    st.session_state[K_SEED] = seed
    st.session_state.pop(K_QUIZ, None)
    to_url()


def show_quiz(v: Variant) -> None:
    if K_SEED not in st.session_state:
        st.session_state[K_SEED] = int_param("seed", 1, 1, MAX_SEED, "quiz number")
    seed = int(st.session_state[K_SEED])
    questions = quiz_of(v, seed)
    state = _quiz_state(v, seed)
    at = int(state["at"])  # type: ignore[call-overload]
    n = len(questions)
    keys = [f"quiz|{v.id}|{seed}|{k}" for k in range(n)]
    st.progress(min(at, n) / n, text=f"Question {at + 1} of {n}" if at < n else "Quiz done")
    if at >= n:
        _show_score(v, questions, keys, seed)
        return
    st.caption(f"Quiz {seed}: situations from games of {v.id}, shown as the player to move sees them.")
    answered = show_question(questions[at], v, keys[at])
    row = st.container(horizontal=True, wrap=False, gap="small")
    row.button("Back", icon=":material/chevron_left:", on_click=_quiz_at, args=(at - 1,), disabled=at == 0,
               key="quiz_back", width="stretch")
    row.button("Next question" if at + 1 < n else "See my score", icon=":material/chevron_right:",
               icon_position="right", on_click=_quiz_at, args=(at + 1,), disabled=not answered,
               type="primary", key="quiz_next", width="stretch")


def marks(v: Variant, questions: tuple[Question, ...], keys: list[str], steps: tuple[Step, ...]) -> list[Marked]:
    return [mark(q, picked(key) if checked(key) else None, steps) for q, key in zip(questions, keys, strict=True)]


def _show_score(v: Variant, questions: tuple[Question, ...], keys: list[str], seed: int) -> None:
    steps, _ = course_of(v)
    marked = marks(v, questions, keys, steps)
    right = sum(m.right for m in marked)
    (st.success if right >= 8 else st.info)(f"**You got {right} of {len(marked)} right.**", icon=":material/quiz:")
    for k, m in enumerate(marked):
        if m.right:
            continue
        with st.container(border=True):
            st.markdown(f"**Question {k + 1}.** {md(m.question.prompt)}")
            st.markdown(md(feedback(m.question, m.picked).head))
            try:
                f = v.fragment(m.rule)
                st.markdown(f"**The rule:** {md(f.title)}. {md(f.summary)}")
                st.caption(f"Source: {md(f.source.cite())}")
            except KeyError:
                pass
            step = steps[m.step]
            st.button(f"Review step {m.step + 1}: {md(step.title)}", icon=":material/school:", type="tertiary",
                      on_click=go, args=("course", m.step + 1), key=f"quiz_review_{k}")
    row = st.container(horizontal=True, gap="small")
    row.button("Another quiz", type="primary", icon=":material/refresh:", on_click=_new_quiz, args=(seed % MAX_SEED + 1,),
               key="quiz_another")
    row.button("This quiz again", icon=":material/replay:", on_click=_restart_quiz, args=(keys,), key="quiz_again")


def _restart_quiz(keys: list[str]) -> None:
    done = st.session_state.get(K_CHECKED, {})
    for key in keys:
        done.pop(key, None)
        st.session_state.pop(f"{key}|pick", None)
    st.session_state[K_QUIZ]["at"] = 0


# -- at a glance, rulebook, lessons, sheet ------------------------------------------------------

_CARD_OF_SLOT = {"2": "2S", "3": "3S", "4": "4S", "5": "5S", "7": "7S", "8": "8S", "9": "9S", "10": "10S",
                 "J": "JS", "red-jacks": "JH", "jokers": "JK", "four-of-a-kind": "QS"}


def show_glance(v: Variant) -> None:
    """One screen: the special cards as pictures with a line each, how this differs from pagat's
    main description, and what goes on what."""
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
            st.markdown("**Unlike pagat's main description:** " + " ".join(f"{md(f.summary)}" for f in differ))
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
    st.caption("Every worked example of this variant's rules: a table, a move to try (legal or not), "
               "and what the rules say.")
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
    c2.button("Next lesson", on_click=_next_lesson, args=(keys,), key="learn_next_lesson")
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
        if "@" in v.id:  # a user's own rule: its words are shown as written, never rendered as Markdown
            st.code(sheet_markdown(v), language="markdown", wrap_lines=True)
        else:
            st.markdown(sheet_markdown(v))


SHOW: dict[str, Callable[[Variant], None]] = {
    "course": show_course, "quiz": show_quiz, "glance": show_glance, "lessons": show_lessons,
    "rules": show_rulebook, "sheet": show_sheet,
}
