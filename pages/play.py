"""Play against bots: a whole game, your cards shown and the others hidden, each move graded.

The deal (seed), the number of seats and the bots' strength live in the URL
(``?seed=3&seats=4&bot=greedy``), so a link deals the same game. After each of your
moves the advisor (:mod:`tutor.advisor`) searches the position you were in, from
what you could see, and grades your move by how much it lowered your chance of not
being the shithead; the search runs in a fragment, with a progress bar.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import streamlit as st

from tutor.advisor import AdvisorBot, Grade, Hint, KnownCards, grade, prepare
from tutor.advisor.api import answer
from tutor.advisor.ismcts import Progress
from tutor.core.moves import Move
from tutor.core.table import Table
from tutor.engine import apply_unchecked, check, game_over, legal_moves
from tutor.engine.words import move_words
from tutor.play.game import Bot, Circle, GreedyBot, RandomBot, deal, setup_move
from tutor.rules.variant import Variant
from tutor.webui.params import int_param
from tutor.webui.state import current_variant
from tutor.webui.table_view import show_table

K_STATE, K_HINT = "play_state", "play_hint"
NAMES = ("You", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
BOTS = {
    "random": "Random: any legal move",
    "greedy": "Greedy: its lowest card, specials kept",
    "advisor": "Advisor: a small search (150 simulations a move)",
}
EFFORT = {"quick": 300, "normal": 1000, "thorough": 3000}
ADVISOR_BOT_SIMULATIONS = 150
GRADE_ICONS = {"best": "🌟", "good": "✅", "inaccuracy": "🟡", "mistake": "🟠", "blunder": "🔴", None: "❔"}


MAX_TURNS = 1500  # moves in one game: a game that runs longer has stalled (and a request stays short)

@dataclass
class Turn:
    seat: int
    before: Table
    move: Move
    events: tuple[str, ...]
    reason: str
    seen: KnownCards  # the cards seen going into hands and the positions after pickups, before the move
    allowed: tuple[Move, ...]


@dataclass
class Game:
    v: Variant
    seed: int
    seats: int
    bot: str
    effort: str
    table: Table
    known: KnownCards
    turns: list[Turn] = field(default_factory=list)
    grades: dict[int, tuple[Grade, Hint]] = field(default_factory=dict)
    autoplay: bool = False
    bots: dict[int, Bot] = field(default_factory=dict)
    circle: Circle = field(default_factory=lambda: Circle(max_turns=MAX_TURNS))
    stalled: bool = False  # gone round in a circle (tutor.play.game.Circle): ended, nobody lost

    @property
    def over(self) -> bool:
        return self.stalled or game_over(self.table, self.v)


def move_label(m: Move) -> str:
    return move_words(m)


def new_game(v: Variant, seats: int, bot: str, effort: str, seed: int) -> Game:
    table = deal(v, seats, seed, names=NAMES[:seats])
    return Game(v, seed, seats, bot, effort, table, KnownCards(seats))


def allowed_moves(g: Game) -> list[Move]:
    return legal_moves(g.table, g.v)  # the opening lead included: the engine's first-player rule


def apply_move(g: Game, move: Move, allowed: list[Move]) -> None:
    before = g.table
    reason = check(before, g.v, move).reason
    after, events = apply_unchecked(before, g.v, move)
    g.turns.append(Turn(before.turn, before, move, tuple(events), reason, g.known.copy(), tuple(allowed)))
    g.known.update(before, move, after, events)
    g.table = after
    if not before.setup and g.circle.stalled_after(after, events) and not game_over(after, g.v):
        g.stalled = True


def bot_for(g: Game, seat: int) -> Bot:
    """Each seat keeps its bot for the game (the advisor bot remembers where it has been)."""
    if seat not in g.bots:
        if g.bot == "advisor":
            g.bots[seat] = AdvisorBot(iterations=ADVISOR_BOT_SIMULATIONS, known=g.known, name="advisor")
        else:
            g.bots[seat] = RandomBot() if g.bot == "random" else GreedyBot()
    return g.bots[seat]


def advance(g: Game) -> None:
    """Let the bots move until it is your turn (or the game is over)."""
    while not g.over and (g.table.turn != 0 or g.autoplay):  # ends: Circle stalls a game at MAX_TURNS
        seat = g.table.turn
        if g.table.setup:
            apply_move(g, setup_move(g.table, g.v), [])
            continue
        moves = allowed_moves(g)
        rng = random.Random(g.seed * 100_003 + len(g.turns))
        bot = GreedyBot() if seat == 0 else bot_for(g, seat)
        apply_move(g, moves[0] if len(moves) == 1 else bot.choose(g.table, g.v, moves, rng), moves)


# -- the advisor, in fragments with a progress bar ------------------------------------


def search_hint(table: Table, g: Game, seen: KnownCards, allowed: tuple[Move, ...],
                what: str) -> Hint:
    bar = st.progress(0.0, text=what)
    search = prepare(table, g.v, seed=g.seed, seen=seen, root_moves=allowed or None)
    n = EFFORT[g.effort]
    def show(p: Progress) -> None:
        bar.progress(p.fraction, text=f"{what} {p.iterations} of {n} simulations")

    search.run(iterations=n, batch=max(50, n // 20), progress=show)
    bar.empty()
    return answer(search, g.seed)


@st.fragment
def grade_panel(g: Game, index: int) -> None:
    turn = g.turns[index]
    if index not in g.grades:
        h = search_hint(turn.before, g, turn.seen, turn.allowed, "The advisor is weighing your move:")
        g.grades[index] = (grade(h, turn.move), h)
    gr, h = g.grades[index]
    label = gr.label or "not graded"
    icon = GRADE_ICONS.get(gr.label, "❔")
    drop = f" (−{100 * gr.drop:.0f} points)" if gr.label not in (None, "best") and gr.drop >= 0.005 else ""
    st.markdown(f"{icon} **Your move, {move_label(turn.move)}: {label}{drop}.** {gr.reason}")
    with st.expander("The advisor's numbers for that position"):
        show_numbers(h)


def show_numbers(h: Hint) -> None:
    words = "win" if h.goal == "winner" else "not the shithead"
    rows = [{"move": str(a.move), f"chance {words}": f"{100 * a.score:.0f}%",
             "95% interval": f"{100 * a.low:.0f}–{100 * a.high:.0f}%", "simulations": a.simulations,
             "why": a.why} for a in h.moves]
    st.dataframe(rows, hide_index=True, width="stretch")
    st.caption(f"{h.simulations} simulations from what {h.player} could see. {h.verdict}")


def _ask_hint(key: tuple[int, int]) -> None:
    st.session_state[K_HINT + "_asked"] = key


def _more_hint() -> None:
    key, h, shown = st.session_state[K_HINT]
    st.session_state[K_HINT] = (key, h, shown + 1)


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
        h = search_hint(g.table, g, g.known, tuple(allowed_moves(g)), "The advisor is thinking:")
        stored = (key, h, 1)
        st.session_state[K_HINT] = stored
    _, h, shown = stored
    if not h.steps:
        st.info(h.verdict)
        return
    titles = ("The idea", "The move", "The numbers")
    for i in range(min(shown, len(h.steps))):
        st.markdown(f"**{titles[i]}.** {h.steps[i]}")
    if shown < len(h.steps):
        st.button("Next step of the hint", key="play_hint_more", on_click=_more_hint)
    else:
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
                                  format_func=lambda e: f"{e}: {EFFORT[e]:,} simulations")
            if st.form_submit_button("Deal", type="primary", icon=":material/playing_cards:"):
                st.session_state[K_STATE] = new_game(v, int(seats), str(bot), str(effort), int(seed))
                st.session_state.pop(K_HINT, None)
                st.query_params.update({"seed": str(int(seed)), "seats": str(int(seats)), "bot": str(bot)})


def show_log(g: Game, since: int) -> None:
    lines = []
    for t in g.turns[since:]:
        if t.before.setup:
            continue
        who = t.before.players[t.seat].name
        # another seat's Bluff play is seen as its count and claim, never its cards
        lines.append(f"- **{who}**: {move_words(t.move, hidden=t.seat != 0)}. {t.reason}")
    if lines:
        with st.expander(f"What happened since your last move ({len(lines)} moves)", expanded=True):
            st.markdown("\n".join(lines[-12:]))


def summary(g: Game) -> None:
    t = g.table
    if g.stalled:
        st.warning(f"The game went round in a circle after {g.circle.turns} moves (the same position after a "
                   "pickup came round three times, or the game ran past its move limit), so it ends without "
                   "a result.", icon=":material/autorenew:")
        return
    names = [p.name for p in t.players]
    left = [p.name for p in t.players if not p.out]
    if g.v.goal == "winner":
        out_first = next((n for n in names if t.players[names.index(n)].out), None)
        st.success("You won!") if out_first == "You" else st.error(f"{out_first} went out first and wins.")
    elif left == ["You"]:
        st.error("You are the shithead.")
    else:
        st.success(f"You are not the shithead: {left[0] if left else 'nobody'} is.")
    graded = [(i, g.grades[i][0]) for i in g.grades]
    counts = {k: sum(1 for _, gr in graded if gr.label == k) for k in ("best", "good", "inaccuracy", "mistake", "blunder")}
    st.markdown("**Your moves:** " + ", ".join(f"{GRADE_ICONS[k]} {n} {k}" for k, n in counts.items() if n)
                if graded else "No move of yours was graded.")
    key = sorted((x for x in graded if x[1].label in ("inaccuracy", "mistake", "blunder")), key=lambda x: -x[1].drop)
    if key:
        st.markdown("**Key moments**")
        for i, gr in key[:3]:
            turn = g.turns[i]
            number = sum(1 for t in g.turns[:i + 1] if not t.before.setup)
            st.markdown(f"- Move {number}: you played **{move_label(turn.move)}** ({gr.label}, "
                        f"−{100 * gr.drop:.0f} points). {gr.reason}")
    elif graded:
        st.markdown("**Key moments:** no inaccuracy the advisor was sure of. Well played.")


def main() -> None:
    st.title("Play against bots")
    v = current_variant()
    st.caption(f"Rules: `{v.id}`. Your cards are shown; the bots' hands, every face-down card and the stock are hidden.")
    settings(v)
    g: Game | None = st.session_state.get(K_STATE)
    if g is None:
        st.info("Choose the players and the bots, then press **Deal**.")
        return
    if g.v.id != v.id:
        st.info(f"This game is played with `{g.v.id}`; deal again to play `{v.id}`.")
    mine = [i for i, t in enumerate(g.turns) if t.seat == 0 and not t.before.setup]
    since = mine[-1] + 1 if mine else 0
    advance(g)
    last = mine[-1] if mine else None
    if last is not None and (last in g.grades or not g.autoplay):
        grade_panel(g, last)
    show_log(g, since)
    if g.over:
        show_table(g.table, g.v)
        summary(g)
        return
    show_table(g.table, g.v, seat=0)
    moves = allowed_moves(g)
    if g.table.setup:
        st.markdown("**Before play:** " + {
            "choose": f"lay {g.v.setup_count} hand cards face up, one at a time, then say you are ready.",
            "swap": "swap hand and face-up cards as you like, then say you are ready.",
            "stack": "swap hand and face-up cards (equal cards may share a face-up stack), then say you are ready.",
        }.get(g.v.setup, "the cards stay as dealt; say you are ready."))
    choice = st.radio("Your move", range(len(moves)), format_func=lambda k: move_label(moves[k]),
                      key=f"play_move_{len(g.turns)}")
    c1, c2, c3 = st.columns(3)
    if c1.button("Play", type="primary", icon=":material/play_arrow:", key="play_go"):
        apply_move(g, moves[int(choice or 0)], moves)
        st.rerun()
    if g.table.setup and c2.button("Arrange for me", key="play_arrange"):
        while g.table.setup and g.table.turn == 0:
            apply_move(g, setup_move(g.table, g.v), [])
        st.rerun()
    if c3.button("Let the greedy bot finish for me", key="play_auto",
                 help="Your remaining moves are played by the greedy bot, without grades."):
        g.autoplay = True
        st.rerun()
    if not g.table.setup:
        hint_panel(g)


main()
