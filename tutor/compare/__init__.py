"""Comparing variants: what differs, where verdicts differ, and what that does to play.

Four answers, each plain data (the page and ``tutor compare`` only lay them out):

1. :func:`slot_rows`: the rules slot by slot, one fragment per variant, differing slots marked.
2. :func:`difference_grid`: the play-on matrices' disagreements (the matrices and diagrams
   themselves are :mod:`tutor.rules.matrix`'s).
3. :func:`find_disagreements`: positions from seeded games where the same move is legal in
   one variant and not in another, or is legal in all but sets off different events (a burn,
   a reversal, playing again, a draw) or hands the turn to a different player. One example
   per kind of difference, shrunk to the fewest cards that still show it.
4. :func:`play_stats`: the variants played by the same bots on the same deals, seats
   rotated, with 95% intervals; a process pool plays the games.

How the statistics are computed (:func:`summarize`):

* Proportions (how often the first player loses, each seat loses, games stall) carry
  Wilson score intervals; a difference of two proportions carries Newcombe's hybrid score
  interval (his method 10), built from the two Wilson intervals.
* Means (turns, pickups and burns per game, lead changes, the share of decisions with a
  real choice) carry the normal approximation, mean ± 1.96 · s / √n, with s the sample
  standard deviation; a difference of two means carries ± 1.96 · √(se₁² + se₂²). With a
  thousand games the sampling distribution of a mean is close to normal; a bootstrap would
  give the same figures to the shown precision at many times the cost.
* Game length, pickups, burns and lead changes are over the games that finished; a stalled
  game (a position after a pickup came round three times, or 4000 moves) is counted in the
  stall rate only. Who loses is over the games that finished with a loser.
* "Real choice": a decision where the legal moves fall into more than one class, moves
  that differ only in suit (colour aside) or in which face-down card is turned being one
  class. The share is taken per game, then averaged over games.
* "Lead changes": after each move, the player still in the game with the fewest cards
  leads, if only one has that few (on a tie the lead stays where it was). A change is
  counted when someone else takes the lead from a leader who is still in the game.
* Both need every legal move of every position, which only the engine lists; where the
  fast simulator (:mod:`tutor.play.sim`) plays the games, the first ``observe`` games are played
  (the same games) through the engine as well, and these two figures come from them.

Seats rotated: game ``i`` uses the deal of seed ``seed + i // players`` with every hand
moved ``i % players`` seats on, so each deal is played once from each seat and seat effects
average out. The bots' random draws are seeded by the deal seed. A game's result depends on
its index only, never on how the games were split between worker processes.

>>> rows = slot_rows([load_variant("pagat"), load_variant("lancaster")])
>>> [r.slot for r in rows if r.differs][:3]
['deal', 'first-player', 'pickup-choice']
"""

from __future__ import annotations

import math
import os
import random
import sys
import threading
import types
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from tutor.core.cards import EMPTY, JOKER, cards_str, is_red
from tutor.core.errors import TutorError
from tutor.core.moves import FLIP, PICKUP, PLAY, Move
from tutor.core.share import encode_question
from tutor.core.table import Play, Player, Table
from tutor.engine import (
    DRAW,
    PICKED_UP,
    Verdict,
    apply_unchecked,
    check,
    game_over,
    is_legal,
    judge,
    legal_moves,
)
from tutor.play import sim
from tutor.play.game import BOTS, NAMES, Bot, Circle, arrange, deal, start
from tutor.rules.matrix import a_rank, matrix_differences, play_matrix, rank_label
from tutor.rules.variant import SLOTS, Fragment, Variant, load_variant

if TYPE_CHECKING:  # pandas is imported only when a frame is asked for
    import pandas as pd

Z95 = 1.959963984540054  # the two-sided 95% point of the standard normal
DEFAULT_GAMES = 1000
ENGINE_GAMES = 300  # default for a variant the fast simulator cannot play
DEFAULT_OBSERVE = 200  # games observed move by move through the engine
DEFAULT_BOT = "greedy"
MAX_TURNS = 4000
REPEATS = 3


class CompareError(TutorError):
    """Variants that cannot be compared as asked (too few, no common number of players...)."""


def load_variants(specs: Sequence[str | Variant]) -> list[Variant]:
    """The variants named, at least two; a spec that cannot be read raises VariantError."""
    if len(specs) < 2:
        raise CompareError("compare needs at least two variants (e.g. 'pagat lancaster')")
    return [load_variant(s) for s in specs]


def column_names(variants: Sequence[Variant]) -> list[str]:
    """One column name per variant: its id, numbered where the same variant comes twice."""
    seen: Counter[str] = Counter()
    out = []
    for v in variants:
        seen[v.id] += 1
        out.append(v.id if seen[v.id] == 1 else f"{v.id} ({seen[v.id]})")
    return out


# -- 1. the rules, slot by slot ---------------------------------------------------


@dataclass(frozen=True)
class SlotCell:
    """The fragment one variant has in one slot."""

    fragment: str
    title: str
    summary: str
    source: str

    @staticmethod
    def of(f: Fragment) -> SlotCell:
        return SlotCell(f.id, f.title, f.summary, f.source.cite())

    def text(self) -> str:
        return f"{self.summary} ({self.fragment}; {self.source})"

    def to_json(self) -> dict[str, str]:
        return {"id": self.fragment, "title": self.title, "summary": self.summary, "source": self.source}


@dataclass(frozen=True)
class SlotRow:
    slot: str
    cells: tuple[SlotCell | None, ...]  # one per variant; None where it has nothing in the slot

    @property
    def differs(self) -> bool:
        return len({c.fragment if c else None for c in self.cells}) > 1


def slot_rows(variants: Sequence[Variant]) -> list[SlotRow]:
    """A row per slot that any of the variants fills, in the rulebook's order."""
    rows = []
    for slot in SLOTS:
        cells = tuple(SlotCell.of(f) if (f := v.fragment_for_slot(slot)) else None for v in variants)
        if any(cells):
            rows.append(SlotRow(slot, cells))
    return rows


def slot_frame(variants: Sequence[Variant], *, titles: Callable[[str], str] | None = None,
               only_differences: bool = False) -> pd.DataFrame:
    """The slot table as a pandas frame: index the slot, a "differs" mark, a column per variant."""
    import pandas as pd

    names = column_names(variants)
    data = []
    index = []
    for row in slot_rows(variants):
        if only_differences and not row.differs:
            continue
        index.append(titles(row.slot) if titles else row.slot)
        item = {"differs": "≠" if row.differs else ""}
        for name, cell in zip(names, row.cells, strict=True):
            item[name] = cell.text() if cell else "—"
        data.append(item)
    frame = pd.DataFrame(data, index=index, columns=["differs", *names])
    frame.index.name = "rule"
    return frame


# -- 2. what can be played on what -------------------------------------------------


@dataclass(frozen=True)
class GridDifference:
    top: int
    rank: int
    marks: tuple[str, ...]  # ✓ ✗ ↓ per variant
    rules: tuple[str, ...]  # the deciding fragment per variant

    def sentence(self, names: Sequence[str]) -> str:
        parts = [f"{n} {m} ({r})" for n, m, r in zip(names, self.marks, self.rules, strict=True)]
        return f"{rank_label(self.rank)} on {a_rank(self.top)}: " + ", ".join(parts)


def difference_grid(variants: Sequence[Variant]) -> list[GridDifference]:
    """The cells of the play-on matrix (card to beat × card played) where the variants differ."""
    out = []
    for d in matrix_differences(variants):
        marks = tuple(c.mark for c in d.cells)
        rules = tuple(next((f for f in c.rules if f != "core"), c.rules[0] if c.rules else "core")
                      for c in d.cells)
        out.append(GridDifference(d.top, d.rank, marks, rules))
    return out


def grid_lines(grid: Sequence[GridDifference], names: Sequence[str]) -> list[str]:
    """The differing cells as sentences, cells of one row that differ alike taken together:
    ``3, 4, 5 on an 8: pagat ✗ (core), lancaster ↓ (eights-transparent-reverse)``."""
    groups: dict[tuple[int, tuple[str, ...], tuple[str, ...]], list[int]] = {}
    for d in grid:
        groups.setdefault((d.top, d.marks, d.rules), []).append(d.rank)
    out = []
    for (top, marks, rules), ranks in groups.items():
        parts = [f"{n} {m} ({r})" for n, m, r in zip(names, marks, rules, strict=True)]
        out.append(f"{', '.join(rank_label(r) for r in ranks)} on {a_rank(top)}: " + ", ".join(parts))
    return out


def difference_frame(variants: Sequence[Variant]) -> pd.DataFrame:
    """The matrix of differences: rows the card to beat, columns the card played; a cell is
    empty where all agree, else each variant's mark (✓ may, ✗ may not, ↓ see-through) in order."""
    import pandas as pd

    m = play_matrix(variants[0])
    diffs = {(d.top, d.rank): " ".join(d.marks) for d in difference_grid(variants)}
    ranks = [r for r in m.ranks if all(r in play_matrix(v).ranks for v in variants)]
    tops = (EMPTY, *ranks)
    rows = [{rank_label(r): diffs.get((t, r), "") for r in ranks} for t in tops]
    frame = pd.DataFrame(rows, index=["empty pile" if t == EMPTY else f"on {rank_label(t)}" for t in tops])
    frame.index.name = "top of pile ↓ / card played →"
    return frame


# -- playing games: deals with seats rotated, through the simulator or the engine ---------


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
        moved = tuple(Player(ps[k].name, *_zones(ps[(k + rotation) % players])) for k in range(players))
        table = replace(table, players=moved)
    return start(arrange(table, v), v)


def _zones(p: Player) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
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
    first = move_class(moves[0])
    return any(move_class(m) != first for m in moves[1:])


class _Lead:
    """Counts changes of the outright leader (fewest cards among those still in)."""

    __slots__ = ("leader", "changes")

    def __init__(self) -> None:
        self.leader = -1
        self.changes = 0

    def update(self, table: Table) -> None:
        counts = [(p.n_cards, s) for s, p in enumerate(table.players) if not p.out]
        if not counts:
            return
        low = min(counts)[0]
        at = [s for n, s in counts if n == low]
        if len(at) != 1 or at[0] == self.leader:
            return
        if self.leader >= 0 and not table.players[self.leader].out:
            self.changes += 1
        self.leader = at[0]


def engine_game(v: Variant, table: Table, seed: int, bots: Sequence[Bot], *, observe: bool = False,
                max_turns: int = MAX_TURNS, repeats: int = REPEATS, index: int = 0,
                on_position: Callable[[Table], None] | None = None) -> GameRecord:
    """Play a game from ``table`` through the engine, as :func:`tutor.play.game.play_game` plays it
    (the same bots' draws, lead rule and stall rules); with ``observe`` count real choices and
    lead changes. ``on_position`` sees every position before its move."""
    rng = random.Random(seed * 7919 + 1)
    first = table.turn
    turns = pickups = burns = decisions = choices = 0
    lead = _Lead()
    circle = Circle(repeats, max_turns)
    stalled = False
    out_order: list[int] = []
    while not game_over(table, v):
        moves = legal_moves(table, v)  # the opening lead is the engine's rule
        if on_position is not None:
            on_position(table)
        if observe:
            decisions += 1
            if real_choice(moves):
                choices += 1
        seat = table.turn
        move = bots[seat].choose(table, v, moves, rng)
        after, events = apply_unchecked(table, v, move)
        turns += 1
        for s, p in enumerate(after.players):
            if p.out and not table.players[s].out:
                out_order.append(s)
        pickups += events.count(PICKED_UP)
        burns += events.count("burn")
        table = after
        if observe:
            lead.update(table)
        if circle.stalled_after(table, events) and not game_over(table, v):
            stalled = True
            break
    rec = GameRecord(index, turns, pickups, burns, stalled, first)
    if not stalled:
        if v.goal == "loser":
            left = [s for s, p in enumerate(table.players) if not p.out]
            rec.loser = left[0] if left else -1
        elif out_order:
            rec.winner = out_order[0]
    if observe:
        rec.decisions, rec.choices, rec.lead_changes = decisions, choices, lead.changes
    return rec


def _bots(bot: str, players: int) -> list[Bot]:
    if bot not in BOTS:
        raise CompareError(f"{bot!r} is not a bot (bots: {', '.join(BOTS)})")
    return [BOTS[bot]() for _ in range(players)]


def fast(v: Variant, bot: str = DEFAULT_BOT) -> bool:
    """Does the fast simulator play ``v`` with this bot? (Else the engine does, more slowly.)"""
    return sim.supports(v) and bot in BOTS


def play_games(v: Variant, players: int, seed: int, start_index: int, stop_index: int, *,
               bot: str = DEFAULT_BOT, observe_below: int = 0) -> list[GameRecord]:
    """Games ``start_index`` to ``stop_index - 1`` of a comparison (see the module docstring):
    through the fast simulator where it can, observed through the engine below ``observe_below``."""
    bots = _bots(bot, players)
    use_sim = fast(v, bot)
    out = []
    for i in range(start_index, stop_index):
        deal_seed = seed + i // players
        table = rotated_start(v, players, deal_seed, i % players)
        observe = i < observe_below or not use_sim
        if not use_sim or observe or any(len(s) > 1 for p in table.players for s in p.face_up):
            out.append(engine_game(v, table, deal_seed, bots, observe=observe, index=i))
            continue
        r = sim.simulate_table(v, table, deal_seed, bot, max_turns=MAX_TURNS, repeats=REPEATS)
        rec = GameRecord(i, r.turns, r.pickups, r.burns, r.stalled, table.turn)
        if r.loser is not None:
            rec.loser = r.names.index(r.loser)
        if r.winner is not None:
            rec.winner = r.names.index(r.winner)
        out.append(rec)
    return out


def _task(args: tuple[int, Variant, int, int, int, int, str, int]) -> tuple[int, int, list[GameRecord]]:
    k, v, players, seed, lo, hi, bot, observe_below = args
    return k, lo, play_games(v, players, seed, lo, hi, bot=bot, observe_below=observe_below)


# -- statistics ----------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval; ``n`` is the number of observations behind it."""

    value: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        """Plain numbers; ``None`` where there was nothing to measure (JSON has no NaN)."""
        if self.n == 0:
            return {"value": None, "low": None, "high": None, "n": 0}
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}

    def text(self, digits: int = 1, percent: bool = False) -> str:
        if self.n == 0:
            return "n/a"
        k = 100.0 if percent else 1.0
        unit = "%" if percent else ""
        return f"{self.value * k:.{digits}f}{unit} [{self.low * k:.{digits}f}, {self.high * k:.{digits}f}]"


NO_DATA = Interval(math.nan, math.nan, math.nan, 0)


def wilson(k: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval for ``k`` successes in ``n`` trials.

    >>> i = wilson(5, 10)
    >>> round(i.low, 4), round(i.high, 4)
    (0.2366, 0.7634)
    """
    if n == 0:
        return NO_DATA
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean_interval(xs: Sequence[float], z: float = Z95) -> Interval:
    """The mean with the normal-approximation interval, mean ± z·s/√n (s: sample sd)."""
    n = len(xs)
    if n == 0:
        return NO_DATA
    m = sum(xs) / n
    if n == 1:
        return Interval(m, m, m, 1)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = z * math.sqrt(var / n)
    return Interval(m, m - half, m + half, n)


def mean_difference(a: Interval, b: Interval, z: float = Z95) -> Interval:
    """``b - a`` for two means from independent samples, each interval read back as its se."""
    if a.n == 0 or b.n == 0:
        return NO_DATA
    se_a, se_b = (a.high - a.value) / z, (b.high - b.value) / z
    d = b.value - a.value
    half = z * math.sqrt(se_a ** 2 + se_b ** 2)
    return Interval(d, d - half, d + half, min(a.n, b.n))


def proportion_difference(a: Interval, b: Interval) -> Interval:
    """``b - a`` for two proportions: Newcombe's hybrid score interval from their Wilson intervals."""
    if a.n == 0 or b.n == 0:
        return NO_DATA
    d = b.value - a.value
    low = d - math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    high = d + math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    return Interval(d, low, high, min(a.n, b.n))


# name, label, "mean" or "share", what it is over
METRICS: tuple[tuple[str, str, str], ...] = (
    ("turns", "Game length (moves)", "mean"),
    ("pickups", "Pickups per game", "mean"),
    ("burns", "Burns per game", "mean"),
    ("first_loses", "First player loses", "share"),
    ("stalled", "Stalled games", "share"),
    ("real_choice", "Decisions with a real choice", "share-mean"),
    ("lead_changes", "Lead changes per game", "mean"),
)


@dataclass
class VariantStats:
    """The figures for one variant (see the module docstring for what each is over)."""

    variant: str
    players: int
    games: int
    finished: int
    observed: int  # games observed move by move (real choice, lead changes)
    engine_only: bool  # played through the engine (slower) rather than the fast simulator
    metrics: dict[str, Interval]
    seat_loses: list[Interval]
    seat_wins: list[Interval]
    lengths: list[int] = field(repr=False)  # turns of each finished game, in game order

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players, "games": self.games, "finished": self.finished,
            "observed": self.observed, "simulator": "engine" if self.engine_only else "fast",
            **{name: self.metrics[name].to_json() for name, _, _ in METRICS},
            "seat_loses": [i.to_json() for i in self.seat_loses],
            "seat_wins": [i.to_json() for i in self.seat_wins],
        }


def summarize(vid: str, players: int, records: Sequence[GameRecord], *, engine_only: bool = False) -> VariantStats:
    """The statistics of a list of games (hand-checkable: see tests/test_compare.py)."""
    done = [r for r in records if not r.stalled]
    decided = [r for r in done if r.loser >= 0]
    won = [r for r in done if r.winner >= 0]
    watched = [r for r in records if r.observed]
    watched_done = [r for r in watched if not r.stalled]
    metrics = {
        "turns": mean_interval([r.turns for r in done]),
        "pickups": mean_interval([r.pickups for r in done]),
        "burns": mean_interval([r.burns for r in done]),
        "first_loses": wilson(sum(1 for r in decided if r.loser == r.first), len(decided)),
        "stalled": wilson(len(records) - len(done), len(records)),
        "real_choice": mean_interval([r.choices / r.decisions for r in watched if r.decisions]),
        "lead_changes": mean_interval([r.lead_changes for r in watched_done]),
    }
    seat_loses = [wilson(sum(1 for r in decided if r.loser == s), len(decided)) for s in range(players)]
    seat_wins = [wilson(sum(1 for r in won if r.winner == s), len(won)) for s in range(players)]
    return VariantStats(vid, players, len(records), len(done), len(watched), engine_only, metrics,
                        seat_loses, seat_wins, [r.turns for r in done])


@dataclass
class PlayStats:
    """The comparison of play: one :class:`VariantStats` per variant, the settings behind them."""

    variants: list[VariantStats]
    players: int
    games: int
    seed: int
    bot: str

    def difference(self, name: str, k: int) -> Interval:
        """Variant ``k`` minus the first variant, for one metric."""
        a, b = self.variants[0].metrics[name], self.variants[k].metrics[name]
        kind = next(kd for n, _, kd in METRICS if n == name)
        return proportion_difference(a, b) if kind == "share" else mean_difference(a, b)

    def note(self) -> str:
        """How the games were played, in a sentence or two."""
        counts = {s.games for s in self.variants}
        if len(counts) == 1:
            games = f"{self.games} games per variant"
        else:
            games = _and([f"{s.games} games of {s.variant}" for s in self.variants])
        bits = [f"{games}, {self.players} players, {self.bot} bots at every seat, deals from seed "
                f"{self.seed}, each deal played from every seat in turn."]
        watched = [f"the first {s.observed} games of {s.variant}" for s in self.variants
                   if not s.engine_only and s.observed < s.games]
        if watched:
            bits.append(f"Real choices and lead changes are counted on {_and(watched)}, played move by move "
                        "through the engine" + (" (on every game of the others)." if len(watched) < len(
                            self.variants) else "."))
        engine = [s.variant for s in self.variants if s.engine_only]
        if engine:
            bits.append(f"{_and(engine)}: played through the engine (slower; the fast simulator does "
                        "not know these rules).")
        bits.append("Intervals are 95%: Wilson for shares, normal approximation for means.")
        return " ".join(bits)

    def rows(self, names: Sequence[str]) -> list[tuple[str, list[str]]]:
        """Label and one text per variant for each figure, seats included; differences from the
        first variant in brackets after it."""
        out = []
        for name, label, kind in METRICS:
            pct = kind != "mean"
            cells = []
            for k, s in enumerate(self.variants):
                text = s.metrics[name].text(1, pct)
                if k and s.metrics[name].n and self.variants[0].metrics[name].n:
                    d = self.difference(name, k)
                    sign = "+" if d.value >= 0 else ""
                    text += f" (Δ {sign}{d.text(1, pct)})"
                cells.append(text)
            out.append((label, cells))
        for seat in range(self.players):
            out.append((f"Seat {NAMES[seat]} loses", [s.seat_loses[seat].text(1, True) for s in self.variants]))
        return out

    def text_lines(self, names: Sequence[str]) -> list[str]:
        rows = self.rows(names)
        lw = max(len(label) for label, _ in rows)
        cw = [max(len(n), *(len(cells[k]) for _, cells in rows)) for k, n in enumerate(names)]
        out = [f"    {self.note()}", "",
               ("    " + " " * lw + "  " + "  ".join(f"{n:<{w}}" for n, w in zip(names, cw, strict=True))).rstrip()]
        for label, cells in rows:
            out.append((f"    {label:<{lw}}  " + "  ".join(f"{c:<{w}}" for c, w in zip(cells, cw, strict=True))).rstrip())
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players, "games": self.games, "seed": self.seed, "bot": self.bot,
            "method": ("95% intervals: Wilson for proportions, Newcombe hybrid score for their "
                       "differences, normal approximation for means and their differences"),
            "variants": {s.variant: s.to_json() for s in self.variants},
            "differences": {
                s.variant: {name: self.difference(name, k).to_json() for name, _, _ in METRICS}
                for k, s in enumerate(self.variants) if k
            },
        }


def common_players(variants: Sequence[Variant], players: int | None = None) -> int:
    """The number of players to compare at: ``players`` if all allow it, else 4 or the nearest."""
    lo = max(v.min_players for v in variants)
    hi = min(v.max_players for v in variants)
    if players is not None:
        if not lo <= players <= hi:
            raise CompareError(f"--players: {players} is not allowed by all of "
                               f"{', '.join(v.id for v in variants)} (they share {lo} to {hi})")
        return players
    if lo > hi:
        raise CompareError(f"no number of players suits all of {', '.join(v.id for v in variants)}")
    return min(max(4, lo), hi)


def _pool_context() -> Any:
    """fork where it is safe (no other threads: the command line); else forkserver, whose server
    imports this module once so that each worker starts warm."""
    import multiprocessing as mp

    methods = mp.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return mp.get_context("fork")
    if "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["tutor.compare"])
        return ctx
    return mp.get_context("spawn")


@contextmanager
def _plain_main(ctx: Any) -> Iterator[None]:
    """Start workers (forkserver or spawn) while ``__main__`` is a bare module.

    Such workers re-run the parent's ``__main__`` script by its path before they take work;
    under Streamlit ``__main__`` is the app's script, which must not run in a worker. Every
    worker is started by the first submissions, so submit inside this block.
    """
    if ctx.get_start_method() == "fork":
        yield
        return
    with _MAIN_LOCK:
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            if main is not None:
                sys.modules["__main__"] = main


_MAIN_LOCK = threading.Lock()


Progress = Callable[[int, int], None]


_Task = tuple[int, Variant, int, int, int, int, str, int]  # variant's place, variant, players, seed, games lo-hi...


@dataclass
class _Plan:
    """Which games each variant plays, split into tasks for the workers."""

    variants: list[tuple[Variant, int]]  # variant, games (a whole number of rotations)
    players: int
    tasks: list[_Task]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.variants)


def _plan(variants: Sequence[Variant], games: int | None, seed: int, players: int | None, bot: str,
          observe: int, chunk: int, engine_games: int | None = None) -> _Plan:
    n_players = common_players(variants, players)
    _bots(bot, n_players)
    plans = []
    tasks: list[_Task] = []
    for k, v in enumerate(variants):
        if fast(v, bot):
            n = games if games is not None else DEFAULT_GAMES
        else:
            n = engine_games if engine_games is not None else games if games is not None else ENGINE_GAMES
        if n < 1:
            raise CompareError(f"--games: {n} is not a positive number of games")
        n = -(-n // n_players) * n_players
        seen = min(n, -(-observe // n_players) * n_players) if observe > 0 else 0
        plans.append((v, n))
        # observed games cost more: smaller tasks, so that the workers finish together
        small = max(n_players, chunk // 4 // n_players * n_players)
        edges = sorted({0, n, seen, *range(0, seen, small), *range(seen, n, chunk)})
        for lo, hi in zip(edges, edges[1:], strict=False):
            tasks.append((k, v, n_players, seed, lo, hi, bot, seen))
    # the slowest first (observed through the engine), so that no worker idles at the end
    order = sorted(range(len(tasks)), key=lambda j: (tasks[j][4] >= tasks[j][7], j))
    return _Plan(plans, n_players, [tasks[j] for j in order])


_Results = dict[tuple[int, int], list[GameRecord]]  # (variant's place, first game) -> games


def _collect(plan: _Plan, results: _Results, games: int | None, seed: int, bot: str) -> PlayStats:
    out = []
    names = column_names([v for v, _ in plan.variants])
    for k, ((v, _), name) in enumerate(zip(plan.variants, names, strict=True)):
        recs = sorted((r for (j, _), rs in results.items() if j == k for r in rs), key=lambda r: r.index)
        out.append(summarize(name, plan.players, recs, engine_only=not fast(v, bot)))
    return PlayStats(out, plan.players, max(n for _, n in plan.variants), seed, bot)


_Futures = set[Future[tuple[int, int, list[GameRecord]]]]


def _submit(plan: _Plan, pool: ProcessPoolExecutor) -> _Futures:
    return {pool.submit(_task, t) for t in plan.tasks}


def _gather(plan: _Plan, pending: _Futures, progress: Progress | None) -> _Results:
    results: _Results = {}
    done = 0
    if progress:
        progress(0, plan.total)
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        for fut in finished:
            k, lo, recs = fut.result()
            results[(k, lo)] = recs
            done += len(recs)
        if progress:
            progress(done, plan.total)
    return results


def _run_here(plan: _Plan, progress: Progress | None) -> _Results:
    results: _Results = {}
    done = 0
    if progress:
        progress(0, plan.total)
    for t in plan.tasks:
        k, lo, recs = _task(t)
        results[(k, lo)] = recs
        done += len(recs)
        if progress:
            progress(done, plan.total)
    return results


def _workers(workers: int | None) -> int:
    return workers if workers is not None else max(1, os.cpu_count() or 1)


def play_stats(
    variants: Sequence[Variant], *, games: int | None = None, seed: int = 0, players: int | None = None,
    bot: str = DEFAULT_BOT, observe: int = DEFAULT_OBSERVE, workers: int | None = None,
    progress: Progress | None = None, chunk: int = 100, engine_games: int | None = None,
) -> PlayStats:
    """Play every variant on the same deals (seats rotated) and summarize.

    ``games`` is per variant (default 1000), ``engine_games`` for a variant only the engine plays
    (default ``games``, or 300 when neither is given); both are rounded up to whole rotations. ``workers`` processes share the games (default: one per core; 1 plays
    them here). ``progress(done, total)`` is called as tasks finish. The result does not depend
    on ``workers`` or ``chunk``.
    """
    plan = _plan(variants, games, seed, players, bot, observe, chunk, engine_games)
    n = _workers(workers)
    if n <= 1 or len(plan.tasks) == 1:
        return _collect(plan, _run_here(plan, progress), games, seed, bot)
    ctx = _pool_context()
    with ProcessPoolExecutor(max_workers=min(n, len(plan.tasks)), mp_context=ctx) as pool:
        with _plain_main(ctx):
            pending = _submit(plan, pool)
        return _collect(plan, _gather(plan, pending, progress), games, seed, bot)


def histogram(values: Iterable[int], edges: Sequence[int]) -> list[int]:
    """Counts of ``values`` in ``[edges[k], edges[k+1])``; the last bin takes everything above."""
    counts = [0] * (len(edges) - 1)
    for x in values:
        k = 0
        while k + 1 < len(edges) - 1 and x >= edges[k + 1]:
            k += 1
        if x >= edges[0]:
            counts[k] += 1
    return counts


def length_bins(stats: Sequence[VariantStats], bins: int = 20) -> list[int]:
    """Round bin edges covering the game lengths of every variant (the top 1% folded in)."""
    lengths = sorted(x for s in stats for x in s.lengths)
    if not lengths:
        return [0, 1]
    hi = lengths[min(len(lengths) - 1, int(len(lengths) * 0.99))]
    step = max(1, _round_step((hi - lengths[0]) / bins))
    lo = lengths[0] // step * step
    return list(range(lo, hi + 2 * step, step))


def _round_step(x: float) -> int:
    if x <= 1:
        return 1
    mag = 10 ** int(math.log10(x))
    for m in (1, 2, 5, 10):
        if m * mag >= x:
            return int(m * mag)
    return int(10 * mag)


# -- 3. where verdicts differ ---------------------------------------------------------

LEGALITY, EVENTS, NEXT = "legality", "events", "next-player"
KIND_WORDS = {
    LEGALITY: "legal in one, not in another",
    EVENTS: "legal in all, but what happens differs",
    NEXT: "legal in all, but a different player moves next",
}


@dataclass(frozen=True)
class Disagreement:
    """A position and a move the variants judge differently."""

    kind: str
    table: Table
    move: Move
    variants: tuple[str, ...]  # column names (variant ids)
    verdicts: tuple[Verdict, ...]  # one per variant
    deciders: tuple[tuple[str, ...], ...]  # per variant: the fragments behind its answer

    @property
    def size(self) -> int:
        return len(self.table.all_cards())

    def title(self) -> str:
        """What decides, in a few words: the fragments that differ."""
        common = set.intersection(*(set(d) for d in self.deciders))
        parts = []
        for name, d in zip(self.variants, self.deciders, strict=True):
            own = [f for f in d if f not in common and f != "core"]
            parts.append(f"{name}: {', '.join(own) if own else 'the natural order'}")
        return "; ".join(parts)

    def summary(self) -> str:
        """One sentence: who says what."""
        move = f"'{self.move}'"
        vs = list(zip(self.variants, self.verdicts, strict=True))
        if self.kind == LEGALITY:
            yes = [n for n, x in vs if x.legal]
            no = [n for n, x in vs if not x.legal]
            return f"{move} is legal in {_and(yes)} but not in {_and(no)}."
        if self.kind == EVENTS:
            who = self.table.player.name
            bits = [f"in {n}, {_events_words(x.events, who)}" for n, x in vs]
            return f"{move} is legal in all; what follows differs: {'; '.join(bits)}."
        bits = [f"{x.next_player} in {n}" for n, x in vs]
        return f"{move} is legal in all, but the next to move differs: {', '.join(bits)}."

    def question(self) -> str:
        """The position and the move, packed for a link to the "Is this move legal?" page."""
        return encode_question(self.table.to_dict(), str(self.move))

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "summary": self.summary(), "decided_by": self.title(),
            "table": self.table.to_dict(), "move": str(self.move),
            "verdicts": {n: x.to_json() for n, x in zip(self.variants, self.verdicts, strict=True)},
            "question": self.question(),
        }


_EVENT_WORDS = {"burn": "the pile burns", "reverse": "play reverses", "skip": "the next player is skipped",
                "play_again": "{who} plays again", "pickup": "{who} takes the pile", "draw": "{who} draws",
                "out": "{who} is out", "game_over": "the game ends"}


def _events_words(events: Sequence[str], who: str) -> str:
    """Events in words: ``['pickup', 'play_again']`` -> 'B takes the pile, B plays again'."""
    if not events:
        return "nothing more happens"
    return ", ".join(_EVENT_WORDS.get(e, e).format(who=who) for e in events)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _event_origin(v: Variant, table: Table, move: Move, event: str) -> str:
    """The fragment behind an event that only some variants have."""
    rank = move.cards[0] >> 2 if move.kind == PLAY and move.cards else -1
    if move.kind == FLIP and move.index - 1 < len(table.player.face_down):
        rank = table.player.face_down[move.index - 1] >> 2
    if event == DRAW:
        return v.setting_origin("refill") or v.setting_origin("hand")
    if event == "play_again" and move.kind == PICKUP:
        return v.setting_origin("after_pickup")
    if event == "burn" and rank >= 0 and not v.burn[rank]:
        return v.setting_origin("four_burns")
    power = {"burn": "burn", "reverse": "reverse", "skip": "skip", "play_again": "play_again"}.get(event)
    if power and rank >= 0:
        return v.origin[rank].get(power, "")
    return ""


@dataclass(frozen=True)
class _Outcome:
    legal: bool
    events: tuple[str, ...]
    next_seat: int  # -1: the game is over


def _outcome(table: Table, v: Variant, move: Move) -> _Outcome:
    if not is_legal(table, v, move):
        return _Outcome(False, (), -1)
    after, events = apply_unchecked(table, v, move)
    return _Outcome(True, tuple(events), -1 if game_over(after, v) else after.turn)


# Events that follow from the position more than from a rule: a difference in them alone is
# shown (the hand refilled to a different size), but not when a rule's own event differs too.
_INCIDENTAL = frozenset({DRAW, "out", "game_over"})


@dataclass(frozen=True)
class _Judged:
    kind: str
    key: tuple[Any, ...]  # the kind of difference: examples with the same key show the same thing
    clear: bool  # the next player differs too (a clearer example)
    quiet: bool  # nobody goes out with the move (a clearer example)
    deciders: tuple[tuple[str, ...], ...]

    @property
    def rank(self) -> tuple[bool, bool]:
        return not self.clear, not self.quiet


def _judge_all(table: Table, variants: Sequence[Variant], move: Move,
               differing: frozenset[str]) -> _Judged | None:
    """How the variants' answers on ``move`` differ (None if they agree).

    ``differing`` are the fragments not in every variant: only they can make a difference,
    and the key names those that decided it.
    """
    outs = [_outcome(table, v, move) for v in variants]
    if len(set(outs)) <= 1:
        return None
    legal = tuple(o.legal for o in outs)
    quiet = not any("out" in o.events for o in outs)
    if len(set(legal)) > 1:
        judged = tuple(tuple(dict.fromkeys(judge(table, v, move)[1])) for v in variants)
        found = frozenset(f for d in judged for f in d if f in differing)
        key: tuple[Any, ...] = (LEGALITY, legal, found or frozenset(f for d in judged for f in d))
        return _Judged(LEGALITY, key, False, quiet, judged)
    common = set.intersection(*(set(o.events) for o in outs))
    shown = {e for o in outs for e in o.events} - common
    primary = shown - _INCIDENTAL or shown
    kind = EVENTS if shown else NEXT
    deciders = []
    for v in variants:
        origins = [o for e in sorted(primary) if (o := _event_origin(v, table, move, e))]
        deciders.append(tuple(dict.fromkeys(origins or check(table, v, move).rules)))
    found = frozenset(f for d in deciders for f in d if f in differing)
    key = (kind, frozenset(primary), found or frozenset(f for d in deciders for f in d))
    clear = len({o.next_seat for o in outs}) > 1 and all(o.next_seat >= 0 for o in outs)
    return _Judged(kind, key, clear, quiet, tuple(deciders))


def _comparable(table: Table, variants: Sequence[Variant]) -> bool:
    """Is the position possible in every variant (no jokers where a pack has none)?"""
    jokers = sum(1 for c in table.all_cards() if c == JOKER)
    return all(jokers <= table.decks * v.jokers for v in variants)


def common_pack(variants: Sequence[Variant]) -> int | None:
    """A number of players at which every variant deals from the same number of packs
    (positions are then possible in all of them): 3 if it suits, else the nearest; None if none."""
    lo = max(v.min_players for v in variants)
    hi = min(v.max_players for v in variants)
    for n in sorted(range(lo, hi + 1), key=lambda k: (abs(k - 3), k)):
        if len({v.decks_for(n) for v in variants}) == 1:
            return n
    return None


def search_note(variants: Sequence[Variant]) -> str:
    """Where the positions of :func:`find_disagreements` come from, and what it must leave out."""
    n = common_pack(variants)
    if n is None:
        return ("These variants never deal from the same number of packs at a number of players they "
                "share, so a position of one is not a position of the others: none is compared.")
    bits = [f"Positions from seeded {n}-player games of each variant, tried with every legal move of any."]
    without = [v.id for v in variants if v.jokers == 0]
    if without and len(without) < len(variants):
        bits.append(f"Positions holding a joker are left out ({_and(without)} has no jokers).")
    return " ".join(bits)


def find_disagreements(
    variants: Sequence[Variant], *, games: int = 6, seed: int = 0, players: int | None = None,
    bot: str = "playful", max_positions: int = 120, shrink: bool = True,
) -> list[Disagreement]:
    """Positions from seeded games of each variant where the verdicts on a move differ.

    Every position of ``games`` games of each variant (the first ``max_positions`` of each
    game) is tried with every legal move of any variant (one move per :func:`move_class`;
    flips, whose outcome is the placement of the turned card, are left out). Differences are
    kept one per kind (legality, events, next player) and deciding rules: the clearest (the
    next player differs too) and smallest table of each; with ``shrink`` each is then cut
    down, card by card, to the fewest cards that still show the same difference. Sorted by
    kind, then size. Positions are drawn at a number of players where all variants use the
    same packs (see :func:`common_pack`); if there is none, nothing is found.
    """
    n_players = players if players is not None else common_pack(variants)
    if n_players is None:
        return []
    differing = _differing(variants)
    best: dict[tuple[Any, ...], tuple[tuple[bool, bool, int], Table, Move]] = {}

    def visit(table: Table) -> None:
        if not _comparable(table, variants):
            return
        tried: set[tuple[object, ...]] = set()
        size = len(table.all_cards())
        for v in variants:
            for m in legal_moves(table, v):
                c = move_class(m)
                if m.kind == FLIP or c in tried:
                    continue
                tried.add(c)
                got = _judge_all(table, variants, m, differing)
                if got is None:
                    continue
                rank = (*got.rank, size)
                old = best.get(got.key)
                if old is None or rank < old[0]:
                    best[got.key] = (rank, table, m)

    bots = _bots(bot, n_players)
    for v in variants:
        for g in range(games):
            table = rotated_start(v, n_players, seed + g, 0)
            engine_game(v, table, seed + g, bots, on_position=visit, max_turns=max_positions)
    out: dict[tuple[str, str], Disagreement] = {}
    names = tuple(column_names(variants))
    for key in _simplest(best):
        (unclear, loud, _), table, move = best[key]
        if shrink:
            table, move = _shrink(table, move, variants, key, differing, keep=(unclear, loud))
        got = _judge_all(table, variants, move, differing)
        if got is None or got.key != key:  # cannot happen: shrinking keeps the key
            raise AssertionError(f"{key!r} lost while shrinking")
        verdicts = tuple(check(table, v, move) for v in variants)
        d = Disagreement(got.kind, table, move, names, verdicts, got.deciders)
        out.setdefault((str(move), _table_key(table)), d)  # two keys may shrink to one position
    kinds = (LEGALITY, EVENTS, NEXT)
    return sorted(out.values(), key=lambda d: (kinds.index(d.kind), d.size, d.title(), str(d.move)))


def _simplest(found: Iterable[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The keys whose deciding rules do not merely add to another's of the same kind and
    pattern (an 8 looked through on top of a 9's limit shows nothing the two alone do not)."""
    keys = list(found)
    return [k for k in keys if not any(o[:2] == k[:2] and o[2] < k[2] for o in keys)]


def _differing(variants: Sequence[Variant]) -> frozenset[str]:
    """The fragments some of the variants have and others lack."""
    sets = [frozenset(f.id for f in v.fragments) for v in variants]
    every = sets[0].intersection(*sets[1:])
    return sets[0].union(*sets[1:]) - every


def _table_key(table: Table) -> str:
    return repr(table.to_dict())


# -- shrinking an example -------------------------------------------------------------------


def _shrink(table: Table, move: Move, variants: Sequence[Variant], key: tuple[Any, ...],
            differing: frozenset[str], *, keep: tuple[bool, bool]) -> tuple[Table, Move]:
    """Remove what the difference does not need: players, plays, cards, one at a time,
    keeping the key and the example's clarity (``keep``: its :attr:`_Judged.rank`)."""

    def same(t: Table, m: Move) -> bool:
        if not _valid(t, variants):
            return False
        got = _judge_all(t, variants, m, differing)
        return got is not None and got.key == key and got.rank <= keep

    changed = True
    while changed:
        changed = False
        for t, m in _candidates(table, move):
            if same(t, m):
                table, move = t, m
                changed = True
                break
    return table, move


def _valid(t: Table, variants: Sequence[Variant]) -> bool:
    """A smaller table (cards only ever removed) that is still a game in progress."""
    return (len(t.players) >= 2 and not t.players[t.turn].out
            and sum(1 for p in t.players if not p.out) >= 2 and _comparable(t, variants))


def _candidates(table: Table, move: Move) -> Iterable[tuple[Table, Move]]:
    """Smaller versions of the position, biggest cuts first."""
    if table.burned:
        yield replace(table, burned=()), move
    if table.stock:
        yield replace(table, stock=()), move
        if len(table.stock) > 1:
            yield replace(table, stock=table.stock[: len(table.stock) // 2]), move
            yield replace(table, stock=table.stock[:-1]), move
    for s in range(len(table.players)):
        if s != table.turn:
            yield _drop_player(table, s), move
    for k in range(len(table.pile)):
        yield replace(table, pile=table.pile[:k] + table.pile[k + 1:]), move
    for k, play in enumerate(table.pile):
        if len(play.cards) > 1:
            for c in sorted(set(play.cards)):
                cards = list(play.cards)
                cards.remove(c)
                pile = table.pile[:k] + (Play(tuple(cards), play.by, play.claim),) + table.pile[k + 1:]
                yield replace(table, pile=pile), move
    keep = Counter(move.cards)
    for s, p in enumerate(table.players):
        mover = s == table.turn
        if not mover and p.n_cards <= 1:
            continue
        for j in range(len(p.face_down)):
            if mover and move.kind == FLIP and j == move.index - 1:
                continue
            m = move
            if mover and move.kind == FLIP and j < move.index - 1:
                m = replace(move, index=move.index - 1)
            yield table.with_player(s, replace(p, face_down=p.face_down[:j] + p.face_down[j + 1:])), m
        for c in sorted(set(p.face_up_cards)):
            if mover and keep[c] and Counter(p.face_up_cards)[c] + Counter(p.hand)[c] <= keep[c]:
                continue
            stacks = [list(st_) for st_ in p.face_up]
            for st_ in stacks:
                if c in st_:
                    st_.remove(c)
                    break
            up = tuple(tuple(st_) for st_ in stacks if st_)
            yield table.with_player(s, replace(p, face_up=up)), move
        for c in sorted(set(p.hand)):
            if mover and keep[c] and Counter(p.hand)[c] + Counter(p.face_up_cards)[c] <= keep[c]:
                continue
            hand = list(p.hand)
            hand.remove(c)
            yield table.with_player(s, replace(p, hand=tuple(hand))), move


def _drop_player(table: Table, s: int) -> Table:
    players = table.players[:s] + table.players[s + 1:]

    def seat(b: int) -> int:
        return -1 if b == s or b < 0 else (b - 1 if b > s else b)

    pile = tuple(Play(p.cards, seat(p.by), p.claim) for p in table.pile)
    return replace(table, players=players, pile=pile, turn=seat(table.turn))


# -- all of it -----------------------------------------------------------------------------


def table_line(table: Table) -> str:
    """A position on one line: each player's zones, the pile (bottom to top), stock and turn."""
    players = []
    for p in table.players:
        zones = []
        if p.hand:
            zones.append("hand " + cards_str(p.hand))
        if p.face_up:
            zones.append("face up " + cards_str(p.face_up_cards))
        if p.face_down:
            zones.append("face down " + cards_str(p.face_down))
        players.append(f"{p.name}: " + (", ".join(zones) or "out"))
    pile = " | ".join(cards_str(pl.cards) for pl in table.pile) or "empty"
    bits = ["; ".join(players), f"pile (bottom to top): {pile}"]
    if table.stock:
        bits.append(f"stock {len(table.stock)}")
    if len(table.players) > 2 and table.direction != 1:
        bits.append("counterclockwise")
    bits.append(f"{table.player.name} to move")
    return "; ".join(bits)


@dataclass
class Comparison:
    variants: list[Variant]
    slots: list[SlotRow]
    grid: list[GridDifference]
    disagreements: list[Disagreement]
    stats: PlayStats | None
    search: str = ""  # where the positions come from (search_note)

    def to_json(self) -> dict[str, Any]:
        names = column_names(self.variants)
        return {
            "variants": [{"id": v.id, "column": n, "title": v.preset.title,
                          "simulator": "fast" if sim.supports(v) else "engine"}
                         for v, n in zip(self.variants, names, strict=True)],
            "slots": [{"slot": r.slot, "differs": r.differs,
                       "fragments": {n: (c.to_json() if c else None) for n, c in zip(names, r.cells, strict=True)}}
                      for r in self.slots],
            "matrix_differences": [
                {"top": "empty" if d.top == EMPTY else rank_label(d.top), "card": rank_label(d.rank),
                 "marks": dict(zip(names, d.marks, strict=True)), "rules": dict(zip(names, d.rules, strict=True))}
                for d in self.grid],
            "disagreements": [d.to_json() for d in self.disagreements],
            "disagreements_note": self.search,
            "stats": self.stats.to_json() if self.stats else {},
        }

    def text(self, *, slot_title: Callable[[str], str] | None = None) -> str:
        """The comparison for a terminal."""
        names = column_names(self.variants)
        title = slot_title or (lambda slot: slot)
        width = max(len(n) for n in names)
        out = [f"Comparing {_and(names)}", "", "1. The rules, slot by slot (≠: they differ)"]
        same = []
        for row in self.slots:
            if not row.differs:
                same.append(f"{title(row.slot)} ({row.cells[0].fragment if row.cells[0] else '-'})")
                continue
            out.append(f"≠ {title(row.slot)}")
            for n, c in zip(names, row.cells, strict=True):
                out.append(f"    {n:<{width}}  " + (f"{c.fragment}: {c.summary} [{c.source}]" if c else "(nothing)"))
        if same:
            out.append("= the same in all: " + ", ".join(same))
        out += ["", "2. What can be played on what: the cells that differ (✓ may, ✗ may not, ↓ see-through)"]
        out += [f"    {line}" for line in grid_lines(self.grid, names)] or [
            "    none: the same cards go on the same cards"]
        out += ["", "3. Positions where the verdicts differ (one per kind of difference, smallest found)"]
        if self.search:
            out.append(f"    {self.search}")
        if not self.disagreements:
            out.append("    none found")
        for k, d in enumerate(self.disagreements, 1):
            out.append(f"{k:>3}. [{KIND_WORDS[d.kind]}] {d.title()}")
            out.append(f"     {d.summary()}")
            out.append(f"     table: {table_line(d.table)}")
            for n, x in zip(names, d.verdicts, strict=True):
                out.append(f"     {n:<{width}}  {x.reason}")
        if self.stats is not None:
            out += ["", "4. What it does to play", *self.stats.text_lines(names)]
        return "\n".join(out)


def _find_task(args: tuple[list[Variant], int]) -> list[Disagreement]:
    return find_disagreements(args[0], seed=args[1])


def compare(specs: Sequence[str | Variant], *, games: int | None = None, seed: int = 0,
            players: int | None = None, bot: str = DEFAULT_BOT, workers: int | None = None,
            progress: Progress | None = None, stats: bool = True) -> Comparison:
    """Everything ``tutor compare`` prints: the slots, the matrix differences, the positions
    where verdicts differ and (with ``stats``) the games. With more than one worker the search
    for positions runs in the pool beside the games."""
    variants = load_variants(specs)
    slots = slot_rows(variants)
    grid = difference_grid(variants)
    if not stats:
        return Comparison(variants, slots, grid, find_disagreements(variants, seed=seed), None,
                          search_note(variants))
    plan = _plan(variants, games, seed, players, bot, DEFAULT_OBSERVE, 100)
    n = _workers(workers)
    if n <= 1:
        found = find_disagreements(variants, seed=seed)
        ps = _collect(plan, _run_here(plan, progress), games, seed, bot)
    else:
        ctx = _pool_context()
        with ProcessPoolExecutor(max_workers=n, mp_context=ctx) as pool:
            with _plain_main(ctx):
                search = pool.submit(_find_task, (list(variants), seed))
                pending = _submit(plan, pool)
            ps = _collect(plan, _gather(plan, pending, progress), games, seed, bot)
            found = search.result()
    return Comparison(variants, slots, grid, found, ps, search_note(variants))


__all__ = ["Comparison", "Disagreement", "GameRecord", "Interval", "PlayStats", "SlotRow", "VariantStats",
           "compare", "difference_frame", "difference_grid", "engine_game", "find_disagreements",
           "load_variants", "mean_interval", "play_games", "play_stats", "rotated_start", "slot_frame",
           "slot_rows", "summarize", "wilson"]
