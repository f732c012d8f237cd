"""Rollouts: play a determinised position on with a cheap policy, then score it.

The search takes any :class:`Rollout` (a callable ``(table, variant, rng) ->
rewards per seat``), so the simulator can be swapped without touching the search.

* :class:`SimRollout` (the search's default, with ``cut=12``) plays greedy moves in the
  fast simulator (:func:`tutor.play.sim.play_on`, the same moves as the greedy bot through the
  engine) for a dozen moves, three rounds of four players, and scores the position it
  reaches with the fitted :func:`tutor.advisor.evaluate.evaluate`; once only two players
  are left and the stock is gone it plays the game out to its true end. About half the
  cost of the same rollout through the engine (0.3-0.6 ms against 0.65-1.1 ms on this
  machine), so twice the simulations in a second. Where the simulator cannot play the
  position (a power it does not know, a setup phase, face-up stacks) it hands over to:
* :class:`PolicyRollout`, the same idea through the engine's own ``legal_moves`` and
  ``apply_unchecked`` with any policy (the greedy bot's idea, :class:`FastGreedy`, by
  default), which works for every variant.

The cut is what keeps a simulation near a millisecond: a whole 4-player game per
simulation through the engine would allow about 150 simulations a second. Whole games
in the simulator are cheap (0.2-0.5 ms), but scoring every position by a greedy game
to its end was weaker than the evaluation in 4-player pagat (the advisor the shithead
in 15 of 80 games against 7 of 78, 300 simulations a move). In the two-player endgame
the rollout is a whole game, so a position the evaluation cannot judge (who wins a
race of a few cards) is played out; where greedy play goes round in circles the
simulator stalls and the rollout scores the evaluation of its start.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from tutor.advisor.evaluate import evaluate, evaluate_zones, special_ranks
from tutor.core.cards import EMPTY
from tutor.core.moves import FLIP, PICKUP, PLAY, Move
from tutor.core.table import Table
from tutor.engine import apply_unchecked, effective_top, game_over, is_legal, legal_moves
from tutor.play import sim
from tutor.play.game import GreedyBot, SeatKey, seat_key, setup_move
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


class FastGreedy:
    """The greedy bot's idea without listing every legal move: a policy for rollouts.

    It plays all copies of its least valuable rank that goes (specials, the cards that
    burn, reset or are seen through, are kept for last), keeps a special by taking a
    small pile where the variant allows a voluntary pickup, and otherwise picks up or
    turns over the first face-down card. Each candidate is put to the engine's own judge
    (:func:`tutor.engine.is_legal`), so it never makes an illegal move; where the
    variant has extra kinds of move (swaps, bluffs, gambles, forced plays) or a candidate
    is refused, it falls back to ``legal_moves`` and :class:`~tutor.play.game.GreedyBot`.
    ``legal_moves`` lists every subset of equal cards, which in a two-pack game with
    big hands is most of a rollout's time.
    """

    __slots__ = ("fallback",)
    name = "fast-greedy"

    def __init__(self) -> None:
        self.fallback = GreedyBot()

    @staticmethod
    def plain(v: Variant) -> bool:
        return not (getattr(v, "extras", False) or getattr(v, "bluff", False) or getattr(v, "swaps", False))

    def move(self, table: Table, v: Variant) -> Move | None:
        """The greedy move, or None where the slow path must decide."""
        p = table.player
        if p.hand:
            cards, zone_hand = p.hand, True
        elif p.face_up:
            cards, zone_hand = p.face_up_cards, False
        elif p.face_down:
            return self._judged(table, v, Move(FLIP, (), 1))
        else:
            return None
        special = special_ranks(v)
        groups: dict[int, list[int]] = {}
        for c in cards:
            groups.setdefault(c >> 2, []).append(c)
        order = sorted(groups, key=lambda r: (r in special or v.play_again[r], r))
        for r in order:
            m = Move(PLAY, tuple(sorted(groups[r])))
            if not is_legal(table, v, m):
                if len(groups[r]) > 1 and is_legal(table, v, Move(PLAY, (min(groups[r]),))):
                    return None  # only some of the copies go: let the slow path choose
                continue
            if ((r in special or v.play_again[r]) and v.voluntary_pickup and zone_hand and table.pile
                    and sum(len(pl.cards) for pl in table.pile) <= 2 and len(p.hand) <= v.refill
                    and effective_top(table, v).rank != EMPTY):
                return self._judged(table, v, Move(PICKUP)) or m
            return m
        if not table.pile:
            return None
        if not zone_hand and v.face_up_pickup_adds:
            low = min(cards, key=lambda c: (c >> 2 in special, c >> 2))
            return self._judged(table, v, Move(PICKUP, (low,)))
        return self._judged(table, v, Move(PICKUP))

    @staticmethod
    def _judged(table: Table, v: Variant, m: Move) -> Move | None:
        return m if is_legal(table, v, m) else None

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        m = self.move(table, v) if self.plain(v) else None
        if m is not None and m in moves:
            return m
        return self.fallback.choose(table, v, moves, rng)


class PolicyRollout:
    """Play on with ``policy`` for at most ``cap`` moves; score with the evaluation."""

    __slots__ = ("policy", "cap", "endgame")

    def __init__(self, policy: Policy | None = None, cap: int = 12, endgame: int = 0) -> None:
        self.policy: Policy = policy if policy is not None else FastGreedy()
        self.cap = cap
        self.endgame = endgame  # more moves once two players are left and the stock is gone

    def __call__(self, table: Table, v: Variant, rng: random.Random, avoid: Avoid | None = None) -> list[float]:
        policy = self.policy
        fast = policy if isinstance(policy, FastGreedy) and FastGreedy.plain(v) else None
        cap, longer = self.cap, self.cap + self.endgame
        plies = 0
        while True:
            if game_over(table, v):
                break
            if plies >= cap:
                if plies >= longer or table.stock or sum(1 for p in table.players if not p.out) > 2:
                    break
            plies += 1
            move: Move | None = None
            if table.setup:
                move = setup_move(table, v)
            elif fast is not None:
                move = fast.move(table, v)
            if move is None:
                moves = legal_moves(table, v)
                move = moves[0] if len(moves) == 1 else policy.choose(table, v, moves, rng)
            table, events = apply_unchecked(table, v, move)
            if avoid is not None and looped(table, events, avoid):
                return loop_rewards(len(table.players), avoid[0])
        return evaluate(table, v)


class SimRollout:
    """Play on with greedy players in the fast simulator; score the end or the cut.

    :func:`tutor.play.sim.play_on` plays the same moves as the greedy bot through the engine
    (tests/test_sim.py checks that), on mutable state. With ``cut`` > 0 it stops after that
    many moves (unless two players are left without a stock) and the position is scored by
    the fitted evaluation; with ``cut=0`` every simulation is a whole game, scored by its
    true outcome under that policy (0.2-0.5 ms on this machine). ``endgame_only`` uses the
    simulator only once two players are left and the stock is gone. Where the simulator
    cannot play the position (a variant with a power it does not know, a setup phase,
    face-up stacks) it hands over to ``fallback``, the capped :class:`PolicyRollout`. A
    game the simulator declares stalled (a position after a pickup coming round three
    times) is scored by the evaluation of the position the rollout started from; one that
    picks up into a position the observer has been in before (``avoid``) by
    :func:`loop_rewards`.
    """

    __slots__ = ("fallback", "max_turns", "endgame_only", "cut", "_ok")

    def __init__(self, fallback: Rollout | None = None, max_turns: int = 1000, endgame_only: bool = False,
                 cut: int = 0) -> None:
        self.fallback: Rollout = fallback if fallback is not None else PolicyRollout()
        self.max_turns = max_turns
        self.endgame_only = endgame_only
        self.cut = cut
        self._ok: dict[str, bool] = {}

    def __call__(self, table: Table, v: Variant, rng: random.Random, avoid: Avoid | None = None) -> list[float]:
        ok = self._ok.get(v.id)
        if ok is None:
            ok = self._ok[v.id] = sim.supports(v)
        if (not ok or table.setup or game_over(table, v)
                or (self.endgame_only and (table.stock or sum(1 for p in table.players if not p.out) > 2))
                or any(len(s) > 1 for p in table.players for s in p.face_up)):
            return self.fallback(table, v, rng, avoid)
        r = sim.play_on(v, table, rng.getrandbits(31), "greedy", max_turns=self.max_turns, cut=self.cut,
                        avoid=avoid)
        if r.looped and avoid is not None:
            return loop_rewards(len(table.players), avoid[0])
        if r.stalled:
            return evaluate(table, v)
        if r.cut_zones is not None:
            return evaluate_zones(v, r.cut_zones, r.cut_stock)
        names = r.names
        if v.goal == "winner":
            return [1.0 if n == r.winner else 0.0 for n in names]
        return [0.0 if n == r.loser else 1.0 for n in names]
