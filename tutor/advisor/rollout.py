"""Rollouts: play a determinised position on with a cheap policy, then score it.

The search takes any :class:`Rollout` (a callable ``(table, variant, rng) ->
rewards per seat``), so a faster simulator can be swapped in without touching the
search. The default, :class:`PolicyRollout`, plays through the engine's own
``legal_moves`` and ``apply_unchecked`` with a policy (the greedy bot by default),
for at most ``cap`` moves, and scores the position it reaches with
:func:`tutor.advisor.evaluate.evaluate` (the true outcome if the game ended).

The cap is what makes the search affordable: the engine does about 16,000 moves a
second on this machine, so a full 4-player game (100-160 moves) per simulation
would allow about 150 simulations a second. A cap of a dozen moves (three rounds of
four players) plus the fitted evaluation keeps a simulation near a millisecond.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from tutor.advisor.evaluate import evaluate
from tutor.engine import apply_unchecked, game_over, legal_moves
from tutor.game import GreedyBot, setup_moves
from tutor.moves import Move
from tutor.table import Table
from tutor.variant import Variant


class Policy(Protocol):
    """Chooses a move (the shape of :class:`tutor.game.Bot`)."""

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move: ...


class Rollout(Protocol):
    def __call__(self, table: Table, v: Variant, rng: random.Random) -> list[float]: ...


class PolicyRollout:
    """Play on with ``policy`` for at most ``cap`` moves; score with the evaluation."""

    __slots__ = ("policy", "cap")

    def __init__(self, policy: Policy | None = None, cap: int = 12) -> None:
        self.policy: Policy = policy if policy is not None else GreedyBot()
        self.cap = cap

    def __call__(self, table: Table, v: Variant, rng: random.Random) -> list[float]:
        policy = self.policy
        for _ in range(self.cap):
            if game_over(table, v):
                break
            if table.setup:
                move = setup_moves(table, v)[0]  # arrange greedily, then ready
            else:
                moves = legal_moves(table, v)
                move = moves[0] if len(moves) == 1 else policy.choose(table, v, moves, rng)
            table, _ = apply_unchecked(table, v, move)
        return evaluate(table, v)
