"""A game on the Play page: the learner in seat 0 against bots, move by move (no Streamlit).

The game loop is :mod:`tutor.play.game`'s (deal, the bots, the greedy setup, the stall rule
:class:`~tutor.play.game.Circle`) and every move is the engine's; this module keeps what the page
needs around them: the turns played (with what everyone had seen before each, for the advisor),
the grades, and a wall-clock budget so that letting the bots play never holds the server.

>>> g = new_game("pagat", 3, "greedy", "quick", seed=4)
>>> g.table.setup, advance(g, seconds=5.0), g.table.turn == 0 or g.over
(True, True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tutor.advisor import AdvisorBot, Grade, Hint, KnownCards, grade, prepare
from tutor.advisor.api import answer
from tutor.advisor.ismcts import Progress
from tutor.core.moves import Move
from tutor.core.table import Table
from tutor.engine import apply_unchecked, check, game_over, legal_moves, loser, position_of, winner
from tutor.play.game import Bot, Circle, GreedyBot, RandomBot, deal, setup_move
from tutor.rules.variant import Variant, load_variant

NAMES = ("You", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
ME = 0  # the learner's seat
BOTS = {
    "random": "Random: any legal move",
    "greedy": "Greedy: its lowest card, specials kept",
    "advisor": "Advisor: a small search (150 simulations a move)",
}
EFFORT = {"quick": 300, "normal": 1000, "thorough": 3000}  # simulations a grade or hint
BUDGET = {"quick": 3.0, "normal": 6.0, "thorough": 12.0}  # ... and at most these seconds
ADVISOR_BOT_SIMULATIONS = 150
ADVISOR_BOT_SECONDS = 0.5  # a bot's move never takes longer
AUTOPLAY_SECONDS = 8.0  # the bots play at most this long in one request, then the page asks to go on
MAX_TURNS = 1500  # moves in one game: a game that runs longer has stalled


@dataclass
class Turn:
    seat: int
    before: Table
    move: Move
    events: tuple[str, ...]
    reason: str
    seen: KnownCards  # the cards seen going into hands and the positions after pickups, before the move
    allowed: tuple[Move, ...]
    after: Table | None = None


@dataclass
class Graded:
    grade: Grade
    hint: Hint
    complete: bool  # False: the search stopped at its time budget before its simulations


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
    grades: dict[int, Graded] = field(default_factory=dict)
    autoplay: bool = False
    paused: bool = False  # the bots' time budget ran out; the page offers to go on
    bots: dict[int, Bot] = field(default_factory=dict)
    circle: Circle = field(default_factory=lambda: Circle(max_turns=MAX_TURNS))
    stalled: bool = False  # gone round in a circle: ended, nobody lost

    @property
    def over(self) -> bool:
        return self.stalled or game_over(self.table, self.v)

    @property
    def my_turn(self) -> bool:
        return not self.over and self.table.turn == ME and not self.autoplay

    def mine(self) -> list[int]:
        """The indexes of the learner's moves (setup swaps left out)."""
        return [i for i, t in enumerate(self.turns) if t.seat == ME and not t.before.setup]

    def number(self, index: int) -> int:
        """The move's number in the game, counting every seat's moves after setup."""
        return sum(1 for t in self.turns[:index + 1] if not t.before.setup)


def new_game(v: Variant | str, seats: int, bot: str, effort: str, seed: int) -> Game:
    v = load_variant(v)
    table = deal(v, seats, seed, names=NAMES[:seats])
    return Game(v, seed, seats, bot, effort, table, KnownCards(seats))


def allowed_moves(g: Game) -> list[Move]:
    return legal_moves(g.table, g.v)  # the opening lead included: the engine's first-player rule


def apply_move(g: Game, move: Move, allowed: list[Move] | None = None) -> None:
    """Play ``move`` for the seat to move (checked against the legal moves when given)."""
    before = g.table
    if allowed is not None and move not in allowed:
        raise ValueError(f"{move} is not a legal move here")
    reason = check(before, g.v, move).reason
    after, events = apply_unchecked(before, g.v, move)
    g.turns.append(Turn(before.turn, before, move, tuple(events), reason, g.known.copy(),
                        tuple(allowed or ()), after))
    g.known.update(before, move, after, events)
    g.table = after
    if not before.setup and g.circle.stalled_after(position_of(after, g.v), events) and not game_over(after, g.v):
        g.stalled = True


def play(g: Game, text: str) -> bool:
    """The learner's move from its notation, if it is legal now; False (nothing played) if not."""
    if not g.my_turn:
        return False
    try:
        move = Move.parse(text)
    except ValueError:
        return False
    moves = allowed_moves(g)
    if move not in moves:
        return False
    apply_move(g, move, moves)
    return True


def arrange(g: Game) -> None:
    """The learner's setup done by the greedy arrangement, up to 'ready'."""
    while not g.over and g.table.setup and g.table.turn == ME:
        apply_move(g, setup_move(g.table, g.v))


def bot_for(g: Game, seat: int) -> Bot:
    """Each seat keeps its bot for the game (the advisor bot remembers where it has been)."""
    if seat not in g.bots:
        if g.bot == "advisor":
            g.bots[seat] = AdvisorBot(iterations=ADVISOR_BOT_SIMULATIONS, seconds=ADVISOR_BOT_SECONDS,
                                      known=g.known, name="advisor")
        else:
            g.bots[seat] = RandomBot() if g.bot == "random" else GreedyBot()
    return g.bots[seat]


def advance(g: Game, *, seconds: float = AUTOPLAY_SECONDS, clock: Callable[[], float] = time.monotonic) -> bool:
    """Let the bots move until it is the learner's turn or the game is over; True then. False when
    ``seconds`` ran out first (``g.paused`` is set; call again to go on)."""
    deadline = clock() + seconds
    g.paused = False
    while not g.over and (g.table.turn != ME or g.autoplay):  # ends: Circle stalls a game at MAX_TURNS
        if clock() > deadline:
            g.paused = True
            return False
        seat = g.table.turn
        if g.table.setup:
            apply_move(g, setup_move(g.table, g.v))
            continue
        moves = allowed_moves(g)
        rng = random.Random(g.seed * 100_003 + len(g.turns))
        bot = GreedyBot() if seat == ME else bot_for(g, seat)
        apply_move(g, moves[0] if len(moves) == 1 else bot.choose(g.table, g.v, moves, rng), moves)
    return True


def search_hint(g: Game, table: Table, seen: KnownCards, allowed: tuple[Move, ...],
                progress: Callable[[Progress], None] | None = None) -> tuple[Hint, bool]:
    """The advisor's hint for the seat to move in ``table`` (from what it could see), within the
    game's effort: its simulations or its seconds, whichever ends first. Also whether it ran
    all its simulations (False: it stopped at the time budget)."""
    n = EFFORT[g.effort]
    search = prepare(table, g.v, seed=g.seed, seen=seen, root_moves=allowed or None)
    search.run(iterations=n, seconds=BUDGET[g.effort], batch=max(50, n // 20), progress=progress)
    return answer(search, g.seed), search.iterations >= n or len(search.root_moves) <= 1


def grade_turn(g: Game, index: int, progress: Callable[[Progress], None] | None = None) -> Graded:
    """Grade the learner's move ``index`` (once; kept in ``g.grades``)."""
    if index not in g.grades:
        turn = g.turns[index]
        h, complete = search_hint(g, turn.before, turn.seen, turn.allowed, progress)
        g.grades[index] = Graded(grade(h, turn.move), h, complete)
    return g.grades[index]


WORSE = ("inaccuracy", "mistake", "blunder")


def key_moments(g: Game, most: int = 3) -> list[int]:
    """The learner's graded moves that gave away the most, worst first (inaccuracies and worse)."""
    bad = [i for i, gr in g.grades.items() if gr.grade.label in WORSE]
    return sorted(bad, key=lambda i: -g.grades[i].grade.drop)[:most]


def result(g: Game) -> tuple[str, str]:
    """How the game ended for the learner: (kind, words); kind is 'won', 'lost', 'safe' or 'stalled'."""
    t = g.table
    if g.stalled:
        why = g.circle.why or "it went round in a circle"  # (the stall rule says which of its two)
        return "stalled", f"The game ends here without a result after {g.circle.turns} moves: {why}."
    if g.v.goal == "winner":
        first = winner(t, g.v)
        if first == NAMES[ME]:
            return "won", "You won!"
        if t.players[ME].lost:
            return "lost", "Your last face-down card lost you the game at once."
        return "lost", f"{first} went out first and wins."
    shithead = loser(t, g.v)
    if shithead == NAMES[ME]:
        return "lost", "You are the shithead."
    return "safe", f"You are not the shithead: {shithead or 'nobody'} is."
