"""Rollouts: play a determinised position on with a cheap policy, then score it.

The search takes any :class:`Rollout` (a callable ``(table, variant, rng) ->
rewards per seat``), so the policy can be swapped without touching the search. Both
rollouts here play through the one game runner (:func:`tutor.play.game.play_from`) on the
engine's mutable position, for every variant:

* :class:`SimRollout` (the search's default, with ``cut=12``) plays greedy moves (the one
  greedy policy, :class:`~tutor.play.game.GreedyBot`, which reads its move off the
  position's play counts without listing moves) for a dozen moves, three rounds of four
  players, and scores the position it reaches with the fitted
  :func:`tutor.advisor.evaluate.evaluate`; once only two players are left and the stock is
  gone it plays the game out to its true end.
* :class:`PolicyRollout`, the same with any policy (a bot), for at most ``cap`` moves and
  ``endgame`` more once two players are left without a stock.

The cut is what keeps a simulation cheap: scoring every position by a greedy game to its
end was weaker than the evaluation in 4-player pagat (the advisor the shithead in 15 of 80
games against 7 of 78, 300 simulations a move). In the two-player endgame the rollout is a
whole game, so a position the evaluation cannot judge (who wins a race of a few cards) is
played out; where greedy play goes round in circles the runner stalls and the rollout
scores the evaluation of its start.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from tutor.advisor.evaluate import evaluate, evaluate_position, evaluate_zones
from tutor.core.moves import Move
from tutor.core.table import Table
from tutor.engine import game_over
from tutor.engine.position import Position
from tutor.play.game import Bot, GameResult, GreedyBot, SeatKey, play_from, play_greedy, play_on, seat_key
from tutor.rules.variant import Variant


class Policy(Protocol):
    """Chooses a move (the shape of :class:`tutor.play.game.Bot`)."""

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move: ...


Avoid = tuple[int, frozenset[SeatKey]]  # (the observer's seat, positions after pickups it has been in)


class Rollout(Protocol):
    """Rewards per seat for a position. The search passes ``avoid`` (:data:`Avoid`) once
    the observer has positions after pickups behind it; a rollout may ignore it."""

    def __call__(self, table: Table, v: Variant, rng: random.Random, avoid: Avoid | None = None) -> list[float]: ...


def loop_rewards(players: int, seat: int) -> list[float]:
    """The rewards of a game brought back round a circle ``seat`` has been in: nothing for
    ``seat`` (a game that goes round for ever is not won, and a benchmark counts it as
    lost), all for the others, so the search also fears an opponent who can force the loop."""
    out = [1.0] * players
    out[seat] = 0.0
    return out


def looped(table: Table, events: Sequence[str], avoid: Avoid | None) -> bool:
    """Whether the move that gave ``events`` and ``table`` picked up into an ``avoid`` position."""
    return avoid is not None and "pickup" in events and seat_key(table, avoid[0]) in avoid[1]


Restart = Callable[[], Position]  # rebuilds the position a rollout started from


def _score_on(r: GameResult, start: Restart, end: Position, avoid: Avoid | None) -> list[float]:
    """:func:`_score` of a game played on from a position (``start`` rebuilds where it began;
    ``end``, where it stopped: where it was cut off, that is the position to evaluate)."""
    if r.looped and avoid is not None:
        return loop_rewards(end.n, avoid[0])
    if r.cut:
        return evaluate_position(end)
    if r.stalled:
        return evaluate_position(start())
    names = r.names
    if end.v.goal == "winner":
        return [1.0 if n == r.winner else 0.0 for n in names]
    return [0.0 if n == r.loser else 1.0 for n in names]


def _kept(pos: Position) -> Restart:
    """A :data:`Restart` that keeps a copy of ``pos`` as it is now."""
    kept = pos.copy()
    return lambda: kept


def _roll_on(pos: Position, rng: random.Random, bots: list[Bot], max_turns: int, cut: int, endgame: int | None,
             avoid: Avoid | None, start: Restart | None) -> list[float]:
    """Play ``pos`` on (it is pushed on) with ``bots``: the rewards, as the table path scores them.
    ``start`` rebuilds ``pos`` as it is now (a stalled game is scored by it; they are rare):
    without it, a copy is kept."""
    if start is None:
        start = _kept(pos)
    r = play_on(pos, rng.getrandbits(31), bots, max_turns=max_turns, cut=cut, endgame=endgame,
                avoid=avoid if avoid is not None and avoid[1] else None)
    return _score_on(r, start, pos, avoid)


def _score(r: GameResult, table: Table, v: Variant, avoid: Avoid | None) -> list[float]:
    """Rewards of a rollout's game: lost for the observer if it looped back into a known
    position; the evaluation where it was cut off (or of its start, if it stalled); else
    the outcome."""
    if r.looped and avoid is not None:
        return loop_rewards(len(table.players), avoid[0])
    if r.cut and r.zones is not None:
        return evaluate_zones(v, r.zones, r.stock_left)
    if r.stalled:
        return evaluate(table, v)
    names = r.names
    if v.goal == "winner":
        return [1.0 if n == r.winner else 0.0 for n in names]
    return [0.0 if n == r.loser else 1.0 for n in names]


class PolicyRollout:
    """Play on with ``policy`` for at most ``cap`` moves (``endgame`` more once two players are
    left without a stock); score with the evaluation."""

    __slots__ = ("policy", "cap", "endgame", "max_turns")

    def __init__(self, policy: Policy | None = None, cap: int = 12, endgame: int = 0, max_turns: int = 1000) -> None:
        self.policy: Policy = policy if policy is not None else GreedyBot()
        self.cap = cap
        self.endgame = endgame
        self.max_turns = max_turns

    def __call__(self, table: Table, v: Variant, rng: random.Random, avoid: Avoid | None = None) -> list[float]:
        if game_over(table, v):
            return evaluate(table, v)
        bots: list[Bot] = [self.policy] * len(table.players)  # type: ignore[list-item]
        r = play_from(v, table, rng.getrandbits(31), bots, max_turns=self.max_turns, cut=self.cap,
                      endgame=self.endgame, avoid=avoid if avoid is not None and avoid[1] else None)
        return _score(r, table, v, avoid)

    def on_position(self, pos: Position, rng: random.Random, avoid: Avoid | None = None,
                    start: Restart | None = None) -> list[float]:
        """The same rollout from a position the search owns (pushed on, never snapshotted;
        ``start`` rebuilds it, where the search can)."""
        if pos.over():
            return evaluate_position(pos)
        bots: list[Bot] = [self.policy] * pos.n  # type: ignore[list-item]
        return _roll_on(pos, rng, bots, self.max_turns, self.cap, self.endgame, avoid, start)


class SimRollout:
    """Play on with greedy players through the runner; score the end or the cut.

    With ``cut`` > 0 it stops after that many moves (unless two players are left without a
    stock) and the position is scored by the fitted evaluation; with ``cut=0`` every
    simulation is a whole game, scored by its true outcome under that policy.
    ``endgame_only`` plays whole games only once two players are left and the stock is gone,
    and hands every other position to ``fallback`` (the capped :class:`PolicyRollout`). A game
    the runner declares stalled (a position after a pickup coming round three times) is
    scored by the evaluation of the position the rollout started from; one that picks up
    into a position the observer has been in before (``avoid``) by :func:`loop_rewards`.
    """

    __slots__ = ("fallback", "max_turns", "endgame_only", "cut", "bot")

    def __init__(self, fallback: Rollout | None = None, max_turns: int = 1000, endgame_only: bool = False,
                 cut: int = 0) -> None:
        self.fallback: Rollout = fallback if fallback is not None else PolicyRollout()
        self.max_turns = max_turns
        self.endgame_only = endgame_only
        self.cut = cut
        self.bot = GreedyBot()

    def __call__(self, table: Table, v: Variant, rng: random.Random, avoid: Avoid | None = None) -> list[float]:
        if game_over(table, v):
            return evaluate(table, v)
        if self.endgame_only and (table.stock or sum(1 for p in table.players if not p.out) > 2):
            return self.fallback(table, v, rng, avoid)
        r = play_from(v, table, rng.getrandbits(31), [self.bot] * len(table.players), max_turns=self.max_turns,
                      cut=self.cut, avoid=avoid if avoid is not None and avoid[1] else None)
        return _score(r, table, v, avoid)

    def on_position(self, pos: Position, rng: random.Random, avoid: Avoid | None = None,
                    start: Restart | None = None) -> list[float]:
        """The same rollout from a position the search owns (pushed on, never snapshotted;
        ``start`` rebuilds it, where the search can)."""
        if pos.over():
            return evaluate_position(pos)
        if self.endgame_only and (pos.stock or pos.alive > 2):
            fallback = getattr(self.fallback, "on_position", None)
            if fallback is not None:
                return fallback(pos, rng, avoid, start)  # type: ignore[no-any-return]
            return self.fallback(pos.snapshot(), pos.v, rng, avoid)
        if start is None:
            start = _kept(pos)
        # (the seed :func:`_roll_on` draws for a game: greedy players never use it, but it is drawn,
        # so the search's draws stay the same)
        rng.getrandbits(31)
        r = play_greedy(pos, max_turns=self.max_turns, cut=self.cut, avoid=avoid if avoid is not None and avoid[1] else None)
        return _score_on(r, start, pos, avoid)
