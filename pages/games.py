"""Sample games: annotated game records, stepped move by move (buttons, Left/Right keys, or a
click in the list of moves beside the table).

One compact card table shows the position after the move, with the move highlighted (the new
top play, a burned pile, the seat that took the pile); the seat at the bottom stays put. In a
seat's view the list holds only the moves made so far. The game, the move number and the seat
live in the URL (``?game=lancaster-eights&step=4&seat=B``): read when the page is first opened
in a session, written back on every run.
"""

from __future__ import annotations

import streamlit as st

from tutor.core.errors import TutorError, excerpt
from tutor.engine.words import move_words
from tutor.play.records import GameRecord, Step, record_catalogue
from tutor.tabletop.layout import change_marks
from tutor.webui.params import int_param
from tutor.webui.safe import md
from tutor.webui.state import current_variant
from tutor.webui.table_view import show_table
from tutor.webui.verdict_view import events_text, rule_lines

K_GAME, K_STEP, K_SEAT, K_LIST = "games_game", "games_step", "games_seat", "games_list"
ALL = "all"


def _go(step: int) -> None:
    st.session_state[K_STEP] = step


def _restart() -> None:
    st.session_state[K_STEP] = 0


def controls(n: int) -> int:
    """Start / back / next / end buttons, with keys, and a slider to jump; returns the step."""
    step = min(max(int(st.session_state.get(K_STEP, 0) or 0), 0), n)
    st.session_state[K_STEP] = step
    row = st.container(horizontal=True, wrap=False, gap="small")  # one row, on a phone too
    row.button("", icon=":material/first_page:", on_click=_go, args=(0,), disabled=step == 0,
               key="games_start", help="The start")
    row.button("", icon=":material/chevron_left:", on_click=_go, args=(step - 1,), disabled=step == 0,
               key="games_back", shortcut="Left", width="stretch", help="One move back (←)")
    row.button("Next", icon=":material/chevron_right:", on_click=_go, args=(step + 1,), disabled=step == n,
               key="games_next", shortcut="Right", type="primary", width="stretch", help="The next move (→)")
    row.button("", icon=":material/last_page:", on_click=_go, args=(n,), disabled=step == n,
               key="games_end", help="The end")
    return int(st.slider("Move", 0, n, key=K_STEP, persist_state="session",
                         help="0 is the position before the first move. Keys: ← and → step, Home and End jump."))


def choose_seat(rec: GameRecord) -> int | None:
    names = [p.name for p in rec.start.players]
    options = [ALL, *names]
    if st.session_state.get(K_SEAT) not in options:
        st.session_state[K_SEAT] = ALL
    choice = st.segmented_control("Show the table", options, key=K_SEAT, persist_state="session",
                                  format_func=lambda o: "All cards" if o == ALL else f"As {o} sees it")
    return None if choice in (None, ALL) else names.index(str(choice))


def show_start(rec: GameRecord, seat: int | None) -> None:
    st.markdown(rec.summary)
    if rec.discrepancies:
        st.info(f"**Where this record departs from its source:** {rec.discrepancies}")
    first = rec.steps[0] if rec.steps else None
    if first is None:
        st.markdown("**The starting position.**")
    elif seat is None or rec.start.players[seat].name == first.by:
        st.markdown(f"**The starting position.** Press **Next** (or →) to play the first move, "
                    f"{first.by}'s {move_words(first.move)}.")
    else:  # in another seat's view the leader's cards are hidden, so the lead is not named
        st.markdown(f"**The starting position.** Press **Next** (or →) to see {first.by} lead.")
    show_table(rec.start, rec.variant, seat=seat, key="games_table", compact=True, bottom=_bottom(seat))


def _bottom(seat: int | None) -> int:
    """The seat drawn at the bottom: the chosen one, else the first; it stays put as the game goes."""
    return 0 if seat is None else seat


def show_step(rec: GameRecord, step: Step, seat: int | None) -> None:
    v = rec.variant
    # another seat's Bluff play is seen as its count and claim, never its cards
    hidden = seat is not None and rec.start.players[seat].name != step.by
    st.markdown(f"#### Move {step.number} of {len(rec.steps)}: {step.by} — {move_words(step.move, hidden=hidden)}")
    st.markdown(step.note)
    verdict = step.verdict
    st.markdown(f"**The rules say:** {verdict.reason}  \n**What happens:** {events_text(verdict.events)}.  \n"
                f"**Next to move:** {verdict.next_player or 'nobody: the game is over'}")
    with st.expander("The rules behind this move", expanded=False):
        st.markdown("\n".join(rule_lines(v, tuple(dict.fromkeys(step.rules + verdict.rules)))))
    show_table(step.after, v, seat=seat, key="games_table", compact=True, bottom=_bottom(seat),
               changed=change_marks(step.before, step.after, verdict.events, step.move))
    with st.expander("The table before the move"):
        show_table(step.before, v, seat=seat, key="games_before", compact=True, bottom=_bottom(seat))


def _picked() -> None:
    st.session_state[K_STEP] = int(st.session_state.get(K_LIST) or 0)


def move_list(rec: GameRecord, step: int, seat: int | None) -> None:
    """Every move, a click opens it; in a seat's view only the moves made so far (the rest would
    name cards still hidden in hands)."""
    shown = rec.steps if seat is None else rec.steps[:step]
    title = "Moves" if seat is None else f"The moves so far ({len(shown)} of {len(rec.steps)})"
    labels = {0: "The deal"}
    for s in shown:
        hidden = seat is not None and rec.start.players[seat].name != s.by
        labels[s.number] = f"{s.number}. {s.by}: {move_words(s.move, hidden=hidden)}"
    st.session_state[K_LIST] = step
    with st.container(height=430, border=True):
        st.radio(title, list(labels), key=K_LIST, format_func=labels.__getitem__, on_change=_picked)
        if seat is not None and step < len(rec.steps):
            st.caption("Later moves are hidden in a seat's view: they would show cards that seat has not seen.")


def seed_from_url(ids: list[str]) -> None:
    """On the page's first run in a session, take the game and move from the link."""
    if K_GAME in st.session_state:
        return
    game = st.query_params.get("game", ids[0])
    if game not in ids:
        st.error(f"The link names a game {md(excerpt(game, 40))} that does not exist; showing {ids[0]!r}.")
        game = ids[0]
    st.session_state[K_GAME] = game
    st.session_state[K_STEP] = int_param("step", 0, 0, 10_000, "move number")
    seat = str(st.query_params.get("seat", ALL))
    st.session_state[K_SEAT] = seat if seat == ALL or (seat.isalnum() and len(seat) <= 20) else ALL


def main() -> None:
    current_variant()  # draws nothing new; a record carries its own variant
    st.title("Sample games")
    try:
        records = record_catalogue()
    except TutorError as exc:
        st.error(f"The sample games cannot be loaded: {exc}", icon=":material/block:")
        return
    ids = list(records)
    seed_from_url(ids)
    if st.session_state.get(K_GAME) not in ids:
        st.session_state[K_GAME] = ids[0]
    st.selectbox("Game", ids, key=K_GAME, on_change=_restart, persist_state="session",
                 format_func=lambda g: records[g].title)
    rec = records[st.session_state[K_GAME]]
    st.caption(f"Played under `{rec.variant.id}`, whatever the sidebar says: a record keeps its own rules.")
    step = controls(len(rec.steps))
    st.query_params["game"] = rec.id
    st.query_params["step"] = str(step)
    seat = choose_seat(rec)
    st.query_params["seat"] = "all" if seat is None else rec.start.players[seat].name
    main_col, list_col = st.columns([3, 2], gap="medium")
    with main_col:
        if step == 0:
            show_start(rec, seat)
        else:
            show_step(rec, rec.steps[step - 1], seat)
    with list_col:
        move_list(rec, step, seat)


main()
