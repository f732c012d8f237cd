"""Play against bots: a whole game on a card table, your cards tapped to play, each move graded.

The deal (seed), the number of seats and the bots' strength live in the URL
(``?seed=3&seats=4&bot=greedy``), so a link deals the same game. Tap your cards and the table
offers only the legal moves they form (:mod:`tutor.tabletop.taps`); Pick up and Ready are
buttons. After each of your moves the advisor (:mod:`tutor.advisor`) searches the position you
were in, from what you could see, and grades your move; at the end the key moments open as
positions with the best move and the grade. Every search and the bots' autoplay run within a
wall-clock budget (:mod:`tutor.tabletop.session`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from tutor.advisor import Hint
from tutor.advisor.ismcts import Progress
from tutor.engine.words import move_words
from tutor.rules.variant import Variant
from tutor.tabletop.layout import change_marks, table_data
from tutor.tabletop.session import (
    BOTS,
    BUDGET,
    EFFORT,
    ME,
    Game,
    advance,
    allowed_moves,
    arrange,
    grade_turn,
    key_moments,
    new_game,
    play,
    result,
    search_hint,
)
from tutor.tabletop.taps import reason_for, second_person, takes, tap_data
from tutor.webui.card_table import card_table, trigger
from tutor.webui.params import int_param
from tutor.webui.state import current_variant
from tutor.webui.table_view import show_table

K_STATE, K_HINT, K_WHY, K_REVIEW = "play_state", "play_hint", "play_why", "play_review"
TABLE = "play_table"
GRADE_ICONS = {"best": "🌟", "good": "✅", "inaccuracy": "🟡", "mistake": "🟠", "blunder": "🔴", None: "❔"}
SETUP_WORDS = {
    "choose": "tap a hand card to lay it face up ({n} in all), then press Ready.",
    "swap": "tap a hand card, then a face-up card, to swap them; press Ready when you like your face-up cards.",
    "stack": "tap a hand card, then a face-up card, to swap them (equal cards may share a face-up stack); "
             "press Ready when done.",
}


def you(text: str) -> str:
    """The engine's sentences about the seat called You, made to agree ('You play again')."""
    return second_person(text)


def game() -> Game | None:
    g = st.session_state.get(K_STATE)
    return g if isinstance(g, Game) else None


# -- what the table and the buttons do (callbacks: they run before the page) -----------


def _on_table_move() -> None:
    g, text = game(), trigger(TABLE, "move")
    if g is not None and text and play(g, text):
        st.session_state.pop(K_WHY, None)


def _on_why() -> None:
    g, places = game(), trigger(TABLE, "why")
    if g is not None and places:
        why = st.session_state.setdefault(K_WHY, {})
        why[places] = you(reason_for(g.table, g.v, places.split()))


def _on_pick(key: str) -> None:
    g, text = game(), st.session_state.get(key)
    if g is not None and text:
        play(g, str(text))


def _on_arrange() -> None:
    g = game()
    if g is not None:
        arrange(g)


def _on_autoplay() -> None:
    g = game()
    if g is not None:
        g.autoplay = True


def _review(index: int | None) -> None:
    st.session_state[K_REVIEW] = index


# -- the advisor, in fragments with a progress bar ------------------------------------


def _bar(what: str, n: int) -> tuple[Any, Callable[[Progress], None]]:
    bar = st.progress(0.0, text=what)

    def show(p: Progress) -> None:
        bar.progress(p.fraction, text=f"{what} {p.iterations} of {n} simulations")

    return bar, show


def budget_note(g: Game, h: Hint, complete: bool) -> None:
    if not complete:
        st.caption(f"The advisor stopped at its time budget ({BUDGET[g.effort]:.0f} s) after {h.simulations} of "
                   f"{EFFORT[g.effort]:,} simulations, so its numbers are less sure than usual.")


@st.fragment
def grade_panel(g: Game, index: int) -> None:
    if index not in g.grades:
        bar, show = _bar("The advisor is weighing your move:", EFFORT[g.effort])
        grade_turn(g, index, show)
        bar.empty()
    graded = g.grades[index]
    gr, turn = graded.grade, g.turns[index]
    label = gr.label or "not graded"
    drop = f" (−{100 * gr.drop:.0f} points)" if gr.label not in (None, "best") and gr.drop >= 0.005 else ""
    st.markdown(f"{GRADE_ICONS.get(gr.label, '❔')} **Your move, {move_words(turn.move)}: {label}{drop}.** "
                f"{you(gr.reason)}")
    budget_note(g, graded.hint, graded.complete)
    with st.expander("The advisor's numbers for that position"):
        show_numbers(graded.hint)


def show_numbers(h: Hint) -> None:
    words = "win" if h.goal == "winner" else "not the shithead"
    rows = [{"move": a.label, f"chance {words}": f"{100 * a.score:.0f}%",
             "95% interval": f"{100 * a.low:.0f}–{100 * a.high:.0f}%", "simulations": a.simulations,
             "why": you(a.why)} for a in h.moves]
    st.dataframe(rows, hide_index=True, width="stretch")
    st.caption(f"{h.simulations} simulations from what {'you' if h.player == 'You' else h.player} could see. "
               f"{you(h.verdict)}")


def _ask_hint(key: tuple[int, int]) -> None:
    st.session_state[K_HINT + "_asked"] = key


def _more_hint() -> None:
    key, h, shown, complete = st.session_state[K_HINT]
    st.session_state[K_HINT] = (key, h, shown + 1, complete)


@st.fragment
def hint_panel(g: Game) -> None:
    key = (g.seed, len(g.turns))
    stored = st.session_state.get(K_HINT)
    if stored is None or stored[0] != key:
        if st.session_state.get(K_HINT + "_asked") != key:
            st.button("What would you play?", icon=":material/lightbulb:", key="play_hint_button",
                      on_click=_ask_hint, args=(key,),
                      help="The advisor searches this position from what you can see, then hints in steps.")
            return
        bar, show = _bar("The advisor is thinking:", EFFORT[g.effort])
        h, complete = search_hint(g, g.table, g.known, tuple(allowed_moves(g)), show)
        bar.empty()
        stored = (key, h, 1, complete)
        st.session_state[K_HINT] = stored
    _, h, shown, complete = stored
    if not h.steps:
        st.info(you(h.verdict))
        return
    titles = ("The idea", "The move", "The numbers")
    for i in range(min(shown, len(h.steps))):
        st.markdown(f"**{titles[i]}.** {you(h.steps[i])}")
    if shown < len(h.steps):
        st.button("Next step of the hint", key="play_hint_more", on_click=_more_hint)
    else:
        budget_note(g, h, complete)
        with st.expander("Every move"):
            show_numbers(h)


# -- the page -------------------------------------------------------------------------


def settings(v: Variant) -> None:
    top = max(v.min_players, min(6, v.max_players))
    with st.expander("New game", expanded=K_STATE not in st.session_state):
        with st.form("play_new"):
            c1, c2 = st.columns(2)
            seats = c1.slider("Players (you and the bots)", v.min_players, top,
                              int_param("seats", min(max(4, v.min_players), top), v.min_players, top,
                                        "number of players"), key="play_seats")
            seed = c2.number_input("Deal number", 0, 10**9, int_param("seed", 1, 0, 10**9, "deal number"),
                                   key="play_seed",
                                   help="The same number deals the same cards.")
            bot_default = st.query_params.get("bot", "greedy")
            bot = c1.selectbox("Bots", list(BOTS), format_func=BOTS.__getitem__, key="play_bot",
                               index=list(BOTS).index(bot_default) if bot_default in BOTS else 1)
            effort = c2.selectbox("Advisor effort (grades and hints)", list(EFFORT), index=0, key="play_effort",
                                  format_func=lambda e: f"{e}: {EFFORT[e]:,} simulations, at most {BUDGET[e]:.0f} s")
            if st.form_submit_button("Deal", type="primary", icon=":material/playing_cards:"):
                st.session_state[K_STATE] = new_game(v, int(seats), str(bot), str(effort), int(seed))
                for k in (K_HINT, K_WHY, K_REVIEW):
                    st.session_state.pop(k, None)
                st.query_params.update({"seed": str(int(seed)), "seats": str(int(seats)), "bot": str(bot)})
                st.rerun()  # draw the page again with "New game" folded, so the table is in view on a phone


def show_log(g: Game, since: int) -> None:
    lines = []
    for t in g.turns[since:]:
        if t.before.setup:
            continue
        who = t.before.players[t.seat].name
        # another seat's Bluff play is seen as its count and claim, never its cards
        lines.append(f"- **{who}**: {move_words(t.move, hidden=t.seat != ME)}. {you(t.reason)}")
    if lines:
        with st.expander(f"What happened since your last move ({len(lines)} moves)", expanded=True):
            st.markdown("\n".join(lines[-12:]))


def the_table(g: Game) -> None:
    """Your view of the table; on your turn the cards are tapped to play."""
    t = g.table
    last = g.turns[-1] if g.turns else None
    changed = change_marks(last.before, t, last.events) if last and not last.before.setup else None
    data = table_data(t, g.v, seat=ME, known=g.known.hands(), changed=changed)
    st.caption(data["caption"] + " Cards seen going into a hand (taken up from face up, or with a pile) are shown, with a yellow edge.")
    if g.my_turn:
        prompt = "Your move: tap your cards to play them."
        if t.setup:
            prompt = "Before play: " + SETUP_WORDS.get(g.v.setup, "the cards stay as dealt; press Ready.").format(
                n=g.v.setup_count)
        card_table(data, key=TABLE, mode="play", taps=tap_data(t, g.v, allowed_moves(g), words=you),
                   prompt=prompt, why_more=st.session_state.get(K_WHY, {}),
                   on_move=_on_table_move, on_why=_on_why)
    else:
        card_table(data, key=TABLE)


def controls(g: Game) -> None:
    row = st.container(horizontal=True, wrap=True, gap="small")
    if g.table.setup and g.my_turn:
        row.button("Arrange for me", key="play_arrange", on_click=_on_arrange, icon=":material/auto_fix_high:",
                   help="The greedy arrangement: your best cards face up, then Ready.")
    row.button("Let the greedy bot finish for me", key="play_auto", on_click=_on_autoplay,
               icon=":material/fast_forward:", help="Your remaining moves are played by the greedy bot, without grades.")
    if g.my_turn:
        moves = allowed_moves(g)
        with st.expander("Every legal move as a list (instead of tapping)"):
            words = {str(m): you(move_words(m)) for m in moves}
            pick = f"play_pick_{len(g.turns)}"
            st.selectbox("Your move", list(words), key=pick, format_func=words.__getitem__)
            st.button("Play it", key="play_go", type="primary", icon=":material/play_arrow:", on_click=_on_pick,
                      args=(pick,))
        if not g.table.setup:
            hint_panel(g)


def paused(g: Game) -> None:
    st.warning(f"The bots have played for {len(g.turns)} moves in all; the game pauses here so that the page "
               "stays quick. Press Keep going to let them play on.", icon=":material/pause_circle:")
    st.button("Keep going", key="play_keep_going", type="primary", icon=":material/play_arrow:")


def review(g: Game) -> None:
    """The end: the result, your grades, and the key moments to open (as chess.com's game review)."""
    kind, words = result(g)
    {"won": st.success, "safe": st.success, "lost": st.error, "stalled": st.warning}[kind](words)
    mine = [i for i in g.mine() if i in g.grades]
    labels = [g.grades[i].grade.label for i in mine]
    counts = {k: labels.count(k) for k in ("best", "good", "inaccuracy", "mistake", "blunder")}
    st.markdown("**Your moves:** " + ", ".join(f"{GRADE_ICONS[k]} {n} {k}" for k, n in counts.items() if n)
                if mine else "No move of yours was graded.")
    moments = key_moments(g)
    if moments:
        st.markdown("**Key moments** (open one to see the position, your move and the best one)")
        for i in moments:
            gr = g.grades[i].grade
            st.button(f"{GRADE_ICONS[gr.label]} Move {g.number(i)}: you played {move_words(g.turns[i].move)} "
                      f"({gr.label}, −{100 * gr.drop:.0f} points)", key=f"play_moment_{i}", on_click=_review,
                      args=(i,), width="stretch")
    elif mine:
        st.markdown("**Key moments:** no inaccuracy the advisor was sure of. Well played.")
    if mine:
        with st.expander("Every graded move of yours"):
            row = st.container(horizontal=True, wrap=True, gap="small")
            for i in mine:
                gr = g.grades[i].grade
                row.button(f"{GRADE_ICONS.get(gr.label, '❔')} {g.number(i)}. {g.turns[i].move}", key=f"play_rev_{i}",
                           on_click=_review, args=(i,), type="tertiary")
    opened = st.session_state.get(K_REVIEW)
    if isinstance(opened, int) and opened in g.grades:
        moment(g, opened)
    st.subheader("The table at the end")
    show_table(g.table, g.v, key="play_end")


def moment(g: Game, index: int) -> None:
    """One of your moves: the position as you saw it, what you played, the grade, the best move."""
    turn, graded = g.turns[index], g.grades[index]
    gr, h = graded.grade, graded.hint
    with st.container(border=True):
        st.markdown(f"#### Move {g.number(index)}: the position as you saw it")
        best = h.moves[0].move if h.moves else None
        glow = list(takes(turn.before, best)) if best is not None else []
        data = table_data(turn.before, g.v, seat=ME, known=turn.seen.hands())
        card_table(data, key=f"play_moment_table_{index}", glow=glow)
        st.markdown(f"{GRADE_ICONS.get(gr.label, '❔')} You played **{move_words(turn.move)}**: "
                    f"**{gr.label or 'not graded'}**. {you(gr.reason)}")
        if best is not None and not h.moves[0].covers(turn.move):  # another suit of the same rank is the same choice
            st.markdown(f"**The advisor's move:** {move_words(best)} (its cards glow on the table).")
        for title, step in zip(("The idea", "The move", "The numbers"), h.steps, strict=False):
            st.markdown(f"**{title}.** {you(step)}")
        with st.expander("Every move in that position"):
            show_numbers(h)
        st.button("Close", key="play_moment_close", on_click=_review, args=(None,))


def main() -> None:
    st.title("Play against bots")
    v = current_variant()
    st.caption(f"Rules: `{v.id}`. Your cards are shown; the bots' hands, every face-down card and the stock are "
               "hidden.")
    settings(v)
    g = game()
    if g is None:
        st.info("Choose the players and the bots, then press **Deal**.")
        return
    if g.v.id != v.id:
        st.info(f"This game is played with `{g.v.id}`; deal again to play `{v.id}`.")
    mine = g.mine()
    since = mine[-1] + 1 if mine else 0
    advance(g)
    graded = bool(mine) and (mine[-1] in g.grades or not g.autoplay)
    if g.paused or g.over:
        if graded:  # the review counts it: grade it first
            grade_panel(g, mine[-1])
        show_log(g, since)
        if g.paused:
            paused(g)
        else:
            review(g)
        return
    # the table first (on a phone it is what you look at), then the grade of your last move right
    # under it, searched once the table is on the screen; then the bots' moves since
    the_table(g)
    grade_box = st.container()
    controls(g)
    show_log(g, since)
    if graded:
        with grade_box:
            grade_panel(g, mine[-1])


main()
