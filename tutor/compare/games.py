"""Playing the games of a comparison: the deals with seats rotated, one game at a time.

Seats rotated: game ``i`` uses the deal of seed ``seed + i // players`` with every hand
moved ``i % players`` seats on, so each deal is played once from each seat and seat effects
average out. The bots' random draws are seeded by the deal seed. A game's result depends on
its index only, never on how the games were split between worker processes.

What compare asks of the engine and the game runner lives in one small section at the end
(:func:`play_one`, :func:`fast`, :func:`event_origin`) and in :func:`engine_game`, so that a
change of engine is a change of a few lines there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tutor.core.cards import JOKER, is_red
from tutor.core.errors import CompareError
from tutor.core.moves import FLIP, Move
from tutor.core.table import Player, Table
from tutor.engine import position
from tutor.play.game import BOTS, Bot, GameResult, arrange, deal, play_from, run, start
from tutor.rules.variant import Variant

DEFAULT_BOT = "greedy"
MAX_TURNS = 4000
REPEATS = 3


@dataclass
class GameRecord:
    """What one game gives the statistics. Seats are 0-based, in the rotated game."""

    index: int
    turns: int
    pickups: int
    burns: int
    stalled: bool
    first: int  # the seat that led
    loser: int = -1  # -1: none (stalled, or a variant where the first out wins)
    winner: int = -1
    decisions: int = -1  # the per-move figures, -1 unless the game was observed
    choices: int = -1
    lead_changes: int = -1

    @property
    def observed(self) -> bool:
        return self.decisions >= 0


def rotated_start(v: Variant, players: int, seed: int, rotation: int) -> Table:
    """The deal of ``seed`` with every hand moved ``rotation`` seats on, set up, first player found.

    Rotation 0 is exactly the table :func:`tutor.play.game.play_game` starts from.
    """
    table = deal(v, players, seed)
    if rotation % players:
        ps = table.players
        moved = tuple(Player(ps[k].name, *zones(ps[(k + rotation) % players])) for k in range(players))
        table = replace(table, players=moved)
    return start(arrange(table, v), v)


def zones(p: Player) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """A player's hand, face-up stacks and face-down cards."""
    return p.hand, p.face_up, p.face_down


def move_class(m: Move) -> tuple[object, ...]:
    """Moves of one class are the same decision: they differ only in suit (not colour),
    or in which face-down card is turned."""
    if m.kind == FLIP:
        return (FLIP, m.claim)
    return (m.kind, tuple(sorted((c >> 2, c != JOKER and is_red(c)) for c in m.cards)),
            m.claim, m.give >> 2 if m.give >= 0 else -1, m.take >> 2 if m.take >= 0 else -1, m.target)


def real_choice(moves: Sequence[Move]) -> bool:
    """Do the legal moves hold more than one :func:`move_class`?"""
    if len(moves) < 2:
        return False
    m0 = moves[0]
    ranks0 = sorted(c >> 2 for c in m0.cards)
    first: tuple[object, ...] | None = None
    for m in moves[1:]:
        if m.kind != m0.kind or (m.kind != FLIP and sorted(c >> 2 for c in m.cards) != ranks0):
            return True  # different kinds or ranks: different classes, whatever the rest
        if first is None:
            first = move_class(m0)
        if move_class(m) != first:
            return True
    return False


class LeadTracker:
    """Counts changes of the outright leader (fewest cards among those still in)."""

    __slots__ = ("leader", "changes")

    def __init__(self) -> None:
        self.leader = -1
        self.changes = 0

    def update(self, table: Table) -> None:
        leader, low, tie = -1, 1 << 30, False
        for s, p in enumerate(table.players):
            n = len(p.hand) + len(p.face_down) + sum(map(len, p.face_up))
            if n == 0:  # out
                continue
            if n < low:
                leader, low, tie = s, n, False
            elif n == low:
                tie = True
        if leader < 0 or tie or leader == self.leader:
            return
        if self.leader >= 0 and not table.players[self.leader].out:
            self.changes += 1
        self.leader = leader


def engine_game(v: Variant, table: Table, seed: int, bots: Sequence[Bot], *, observe: bool = False,
                max_turns: int = MAX_TURNS, repeats: int = REPEATS, index: int = 0,
                on_position: Callable[[Table], None] | None = None) -> GameRecord:
    """Play a game from ``table`` through the runner with every position shown as a table, as
    :func:`tutor.play.game.play_game` plays it (the same bots' draws, lead rule and stall rules);
    with ``observe`` count real choices and lead changes. ``on_position`` sees every position
    before its move."""
    lead = LeadTracker()
    seen = [0, 0]  # decisions, real choices

    class _Watch:
        __slots__ = ("bot", "name")

        def __init__(self, bot: Bot) -> None:
            self.bot = bot
            self.name = bot.name

        def choose(self, t: Table, w: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
            if on_position is not None:
                on_position(t)
            if observe:
                seen[0] += 1
                seen[1] += real_choice(moves)
            return self.bot.choose(t, w, moves, rng)

    def on_move(before: Table, move: Move, after: Table, events: list[str]) -> None:
        if observe:
            lead.update(after)

    result = GameResult(v.id, seed, tuple(p.name for p in table.players), table)
    r = run(position(table, v), [_Watch(b) for b in bots], random.Random(seed * 7919 + 1), result,
            max_turns=max_turns, repeats=repeats, record=False, on_move=on_move)
    rec = record_of(r, index, table.turn)
    if observe:
        rec.decisions, rec.choices, rec.lead_changes = seen[0], seen[1], lead.changes
    return rec


def record_of(r: GameResult, index: int, first: int) -> GameRecord:
    """A runner's game as the statistics take it (seats by their place in the rotated game)."""
    rec = GameRecord(index, r.turns, r.pickups, r.burns, r.stalled, first)
    if r.loser is not None:
        rec.loser = r.names.index(r.loser)
    elif r.winner is not None:
        rec.winner = r.names.index(r.winner)
    return rec


def make_bots(bot: str, players: int) -> list[Bot]:
    """One bot of the kind named for every seat."""
    if bot not in BOTS:
        raise CompareError(f"{bot!r} is not a bot (bots: {', '.join(BOTS)})")
    return [BOTS[bot]() for _ in range(players)]


def play_games(v: Variant, players: int, seed: int, start_index: int, stop_index: int, *,
               bot: str = DEFAULT_BOT, observe_below: int = 0) -> list[GameRecord]:
    """Games ``start_index`` to ``stop_index - 1`` of a comparison (see the module docstring),
    the games below ``observe_below`` observed move by move."""
    bots = make_bots(bot, players)
    out = []
    for i in range(start_index, stop_index):
        deal_seed = seed + i // players
        table = rotated_start(v, players, deal_seed, i % players)
        out.append(play_one(v, table, deal_seed, bot, bots, index=i, observe=i < observe_below))
    return out


# -- what compare asks of the engine and the game runner --------------------------------------


def fast(v: Variant, bot: str = DEFAULT_BOT) -> bool:
    """Does the runner play ``v`` with this bot on the engine's position, without tables? (Every
    variant does, with the four bots.)"""
    return bot in BOTS


def play_one(v: Variant, table: Table, deal_seed: int, bot: str, bots: Sequence[Bot], *, index: int,
             observe: bool) -> GameRecord:
    """One game from ``table``: through the runner on the engine's position, or with every position
    listed (as a table) where it is observed, or where the bot only chooses from lists."""
    if observe or not fast(v, bot):
        return engine_game(v, table, deal_seed, bots, observe=True, index=index)
    return record_of(play_from(v, table, deal_seed, bots, max_turns=MAX_TURNS, repeats=REPEATS), index, table.turn)


def event_origin(v: Variant, table: Table, move: Move, event: str) -> str:
    """The fragment behind an event of ``move`` (the engine names it as it makes the move)."""
    pos = position(table, v)
    events = pos.push(move)
    causes: dict[str, str] = dict(zip(events, pos.causes, strict=False))
    return causes.get(event, "")
