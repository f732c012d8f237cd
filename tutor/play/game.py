"""Whole games: dealing from a seed, setup, bots, playing to the end, stalemates.

>>> result = play_game("pagat", players=3, seed=7)
>>> result.loser is not None or result.stalled
True
>>> play_game("pagat", players=3, seed=7).moves == result.moves  # seeded
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from tutor.core.cards import EMPTY, JOKER_RANK, full_pack
from tutor.core.errors import TutorError
from tutor.core.moves import PICKUP, PLACE, PLAY, READY, SWAP, Move
from tutor.core.table import Player, Table
from tutor.engine import (
    FACE_UP,
    HAND,
    PICKED_UP,
    apply,
    apply_unchecked,
    first_player,
    game_over,
    legal_moves,
    top_rank,
    zone_of,
)
from tutor.rules.variant import Variant, load_variant

NAMES = "ABCDEFGHIJ"


class Bot(Protocol):
    """Chooses a move from the legal ones. Sees the table only through ``view``."""

    name: str

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move: ...


def deal(
    v: Variant | str, players: int, seed: int, names: Sequence[str] | None = None, decks: int | None = None
) -> Table:
    """Shuffle and deal as the variant says; the table is left in the setup phase."""
    v = load_variant(v)
    problem = v.players_problem(players)
    if problem:
        raise TutorError(problem)
    names = list(names or NAMES[:players])
    decks = decks or v.decks_for(players)
    pack = full_pack(decks, v.jokers * decks)
    rng = random.Random(seed)
    rng.shuffle(pack)
    need = players * (v.down + v.up + v.hand)
    if need > len(pack):
        raise TutorError(f"{v.id}: {players} players need {need} cards, the pack has {len(pack)}")
    # one card at a time to each player, starting left of the dealer (seat 0)
    k = 0
    rows: list[list[list[int]]] = [[[], [], []] for _ in range(players)]
    for zone, size in enumerate((v.down, v.up, v.hand)):
        for _ in range(size):
            for s in range(players):
                rows[s][zone].append(pack[k])
                k += 1
    seats = tuple(
        Player(names[s], tuple(sorted(r[2])), tuple((c,) for c in r[1]), tuple(r[0]))
        for s, r in enumerate(rows)
    )
    return Table(players=seats, stock=tuple(pack[k:]), decks=decks, setup=True,
                 ready=tuple(False for _ in seats))


def _value(v: Variant, rank: int) -> tuple[int, int]:
    """How much a greedy player wants to keep a rank: specials last, then high cards."""
    special = (
        v.burn[rank] or v.transparent[rank] or v.cells[12][rank][1] == "ANYWHERE"
        or v.play_again[rank] or rank == JOKER_RANK
    )
    return (1 if special else 0, rank)


def arrange(table: Table, v: Variant) -> Table:
    """Greedy setup: keep the best cards face up (specials, then high cards).

    With ``setup: choose`` the best ``setup_count`` hand cards are laid face up; with
    ``setup: stack`` (Karma) equal cards share a face-up stack and the hand is refilled,
    stacking further matches, until it holds the hand size again.
    """
    if v.setup == "stack":
        return _arrange_stacks(table, v)
    players = []
    for p in table.players:
        pool = sorted(p.hand + p.face_up_cards, key=lambda c: _value(v, c >> 2))
        n_up = v.setup_count if v.setup == "choose" else len(p.face_up_cards)
        hand, up = pool[: len(pool) - n_up], pool[len(pool) - n_up:]
        players.append(replace(p, hand=tuple(sorted(hand)), face_up=tuple((c,) for c in up)))
    return replace(table, players=tuple(players))


def _arrange_stacks(table: Table, v: Variant) -> Table:
    stock = list(table.stock)
    players = []
    for p in table.players:
        pool = sorted(p.hand + p.face_up_cards, key=lambda c: _value(v, c >> 2), reverse=True)
        ranks: list[int] = []
        for c in pool:
            if c >> 2 not in ranks and len(ranks) < len(p.face_up):
                ranks.append(c >> 2)
        stacks = {r: [c for c in pool if c >> 2 == r] for r in ranks}
        hand = [c for c in pool if c >> 2 not in stacks]
        while len(hand) < v.refill and stock:
            c = stock.pop(0)
            if c >> 2 in stacks:
                stacks[c >> 2].append(c)
            else:
                hand.append(c)
        players.append(replace(p, hand=tuple(sorted(hand)),
                               face_up=tuple(tuple(sorted(stacks[r])) for r in ranks)))
    return replace(table, players=tuple(players), stock=tuple(stock))


def start(table: Table, v: Variant) -> Table:
    """End the setup phase and hand the turn to the first player; the opening play is next."""
    table = replace(table, setup=False, ready=(), opening=True)
    return replace(table, turn=first_player(table, v))


@dataclass
class RandomBot:
    name: str = "random"

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        return moves[rng.randrange(len(moves))]


@dataclass
class PlayfulBot:
    """Random, but plays a card (when it can) far more often than it picks up."""

    name: str = "playful"
    play_rate: float = 0.9

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        plays = [m for m in moves if m.kind != PICKUP]
        if plays and rng.random() < self.play_rate:
            return plays[rng.randrange(len(plays))]
        return moves[rng.randrange(len(moves))]


@dataclass
class GreedyBot:
    """Plays its lowest card (all copies of it), keeps specials, picks up last."""

    name: str = "greedy"

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        best: Move | None = None
        best_key: tuple[int, int, int, int] | None = None
        for m in moves:
            if m.kind == PLAY:
                rank = m.cards[0] >> 2
                lie = 0 if m.claim in (-1, rank) else 1  # Bluff: tell the truth when it goes
                key = (lie, *_value(v, rank), -len(m.cards))
                if best_key is None or key < best_key:
                    best, best_key = m, key
        if best is not None:
            p = table.player
            # a special is worth keeping when picking up a small pile is cheap
            if best_key is not None and best_key[1] == 1 and v.voluntary_pickup and zone_of(p) == HAND:
                if len(table.pile_cards) <= 2 and len(p.hand) <= v.refill and top_rank(table, v) != EMPTY:
                    for m in moves:
                        if m.kind == PICKUP:
                            return m
            return best
        pickups = [m for m in moves if m.kind == PICKUP]
        if pickups:
            return min(pickups, key=lambda m: _value(v, m.cards[0] >> 2) if m.cards else (0, 0))
        return moves[0]  # flips


@dataclass
class EpsilonBot:
    """Greedy, except that with probability ``eps`` it makes a random legal move."""

    name: str = "epsilon"
    eps: float = 0.5

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        if rng.random() < self.eps:
            return moves[rng.randrange(len(moves))]
        return GreedyBot().choose(table, v, moves, rng)


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot, "playful": PlayfulBot, "epsilon": EpsilonBot, "greedy": GreedyBot,
}


@dataclass
class GameResult:
    variant: str
    seed: int
    names: tuple[str, ...]
    start: Table  # after setup, before the first play
    moves: list[tuple[int, Move, tuple[str, ...]]] = field(default_factory=list)
    out_order: list[str] = field(default_factory=list)
    loser: str | None = None
    winner: str | None = None
    stalled: bool = False
    final: Table | None = None

    @property
    def turns(self) -> int:
        return len(self.moves)


def position_key(table: Table) -> tuple[object, ...]:
    return (table.players, table.pile, len(table.stock), table.turn, table.direction)


class Circle:
    """The stall rule, in one place for every game loop: a game has gone round in a circle when
    the same position after a pickup comes round ``repeats`` times (no card burned, nobody out,
    every hand back to what it was), or when it runs past ``max_turns`` moves."""

    __slots__ = ("seen", "repeats", "max_turns", "turns")

    def __init__(self, repeats: int = 3, max_turns: int = 4000) -> None:
        self.seen: dict[tuple[object, ...], int] = {}
        self.repeats = repeats
        self.max_turns = max_turns
        self.turns = 0

    def stalled_after(self, table: Table, events: Sequence[str]) -> bool:
        """Count one move (``table`` is the position after it); True once the game has stalled."""
        self.turns += 1
        if PICKED_UP in events:
            key = position_key(table)
            self.seen[key] = self.seen.get(key, 0) + 1
            if self.seen[key] >= self.repeats:
                return True
        return self.turns >= self.max_turns


SeatKey = tuple[object, ...]


def seat_key_of(hand: Sequence[int], hand_sizes: Sequence[int], face_up: Sequence[Sequence[int]],
                face_down: Sequence[int], stock: int, burned: int, turn: int, direction: int) -> SeatKey:
    """A position as one seat knows it, from its parts: the seat's own hand (any order),
    every hand's size, the face-up cards, the face-down counts, the stock and burned counts,
    whose turn and which way play goes. The simulator builds it from its own state."""
    return (tuple(sorted(hand)), tuple(hand_sizes), tuple(tuple(sorted(u)) for u in face_up),
            tuple(face_down), stock, burned, turn, direction)


def seat_key(table: Table, seat: int) -> SeatKey:
    """:func:`seat_key_of` a table, as ``seat`` knows it (nothing hidden from that seat).

    After a pickup, when it comes round again no card has burned or gone out and every
    hand is back to its size: the game has gone round in a circle (in a two-player game
    with no stock, the two hands are then the same cards as before)."""
    ps = table.players
    return seat_key_of(ps[seat].hand, [len(p.hand) for p in ps], [p.face_up_cards for p in ps],
                       [len(p.face_down) for p in ps], len(table.stock), len(table.burned),
                       table.turn, table.direction)


def play_game(
    v: Variant | str,
    players: int = 4,
    seed: int = 0,
    bots: Sequence[Bot] | None = None,
    *,
    max_turns: int = 4000,
    repeats: int = 3,
    decks: int | None = None,
    on_move: Callable[[Table, Move, Table, list[str]], None] | None = None,
) -> GameResult:
    """Deal and play a whole game with bots; seeded, so the same seed gives the same game.

    A game ends when the variant says; it is declared *stalled* when a position after a
    pickup comes round ``repeats`` times, or after ``max_turns`` moves.
    """
    v = load_variant(v)
    bots = list(bots or [RandomBot() for _ in range(players)])
    if len(bots) != players:
        raise TutorError(f"{players} players need {players} bots, not {len(bots)}")
    rng = random.Random(seed * 7919 + 1)
    table = start(arrange(deal(v, players, seed, decks=decks), v), v)
    result = GameResult(v.id, seed, tuple(p.name for p in table.players), table)
    circle = Circle(repeats, max_turns)
    while not game_over(table, v):
        moves = legal_moves(table, v)  # at the opening, only the leads the first-player rule allows
        seat = table.turn
        move = bots[seat].choose(table, v, moves, rng)
        after, events = apply_unchecked(table, v, move)
        result.moves.append((seat, move, tuple(events)))
        if on_move is not None:
            on_move(table, move, after, events)
        for s, p in enumerate(after.players):
            if p.out and not table.players[s].out:
                result.out_order.append(p.name)
        table = after
        if circle.stalled_after(table, events) and not game_over(table, v):
            result.stalled = True
            break
    result.final = table
    if not result.stalled:
        left = [p.name for p in table.players if not p.out]
        if v.goal == "loser":
            result.loser = left[0] if left else None
        else:
            result.winner = result.out_order[0] if result.out_order else None
    return result


def setup_move(table: Table, v: Variant) -> Move:
    """The greedy player's next setup move, chosen among the moves the engine allows now: lay
    the most valuable hand card face up (``setup: choose``), or swap the hand card worth most
    for the face-up card worth least while that gains, else say ready."""
    moves = legal_moves(table, v)
    places = [m for m in moves if m.kind == PLACE]
    if places:
        return max(places, key=lambda m: _value(v, m.cards[0] >> 2))
    best, gain = None, (0, 0)
    for m in moves:
        if m.kind == SWAP:
            h, u = _value(v, m.cards[0] >> 2), _value(v, m.cards[1] >> 2)
            if (h[0] - u[0], h[1] - u[1]) > gain:
                best, gain = m, (h[0] - u[0], h[1] - u[1])
    if best is not None:
        return best
    return next((m for m in moves if m.kind == READY), moves[0] if moves else Move(READY))


def setup_moves(table: Table, v: Variant) -> list[Move]:
    """The greedy player's whole setup, move by move, ending with ready (for records and lessons)."""
    out: list[Move] = []
    seat = table.turn
    while table.setup and table.turn == seat and len(out) < 40:
        m = setup_move(table, v)
        out.append(m)
        if m.kind == READY:
            break
        table, _ = apply(table, v, m)
    return out


__all__ = ["deal", "arrange", "start", "play_game", "GameResult", "RandomBot", "GreedyBot",
           "BOTS", "FACE_UP", "setup_move", "setup_moves"]
