"""The statistics of a comparison's games: one :class:`VariantStats` per variant, and the
differences from the first variant (:class:`PlayStats`).

The intervals themselves are :mod:`tutor.core.stats`'s (shared with the advisor):

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
  class (:func:`tutor.compare.games.move_class`). The share is taken per game, then
  averaged over games.
* "Lead changes": after each move, the player still in the game with the fewest cards
  leads, if only one has that few (on a tie the lead stays where it was). A change is
  counted when someone else takes the lead from a leader who is still in the game.
* Both need every legal move of every position; the runner (:func:`tutor.play.game.play_from`)
  plays most games on the engine's position without listing moves, so the first ``observe``
  games are played (the same games) with every position listed, and these two figures come
  from them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tutor.compare.common import and_list
from tutor.compare.games import GameRecord
from tutor.core.stats import Interval, mean_difference, mean_interval, proportion_difference, wilson
from tutor.play.game import NAMES

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
    engine_only: bool  # every position listed (a bot that only chooses from lists): slower
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
    stopped: str = ""  # why the games stopped before the end ("" if they did not)
    planned: int = 0  # games per variant planned, when they stopped before the end

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
            games = and_list([f"{s.games} games of {s.variant}" for s in self.variants])
        bits = []
        if self.stopped:
            bits.append(f"The games stopped at {self.stopped}, {self.games:,} of the {self.planned:,} planned per "
                        "variant played by then: the figures are from those.")
        bits += [f"{games}, {self.players} players, {self.bot} bots at every seat, deals from seed "
                f"{self.seed}, each deal played from every seat in turn."]
        watched = [f"the first {s.observed} games of {s.variant}" for s in self.variants
                   if not s.engine_only and s.observed < s.games]
        if watched:
            bits.append(f"Real choices and lead changes are counted on {and_list(watched)}, played move by move "
                        "through the engine" + (" (on every game of the others)." if len(watched) < len(
                            self.variants) else "."))
        engine = [s.variant for s in self.variants if s.engine_only]
        if engine:
            bits.append(f"{and_list(engine)}: every position listed as a table (slower: the bot only "
                        "chooses from lists).")
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
    step = max(1, round_step((hi - lengths[0]) / bins))
    lo = lengths[0] // step * step
    return list(range(lo, hi + 2 * step, step))


def round_step(x: float) -> int:
    """The round number (1, 2 or 5 times a power of ten) at or above ``x``."""
    if x <= 1:
        return 1
    mag = 10 ** int(math.log10(x))
    for m in (1, 2, 5, 10):
        if m * mag >= x:
            return int(m * mag)
    return int(10 * mag)
