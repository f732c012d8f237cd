"""The heuristic evaluation used where a rollout is cut off, and game outcomes.

A rollout that reaches the end of the game scores each seat by the goal: in a
``goal-loser`` game 1 for everyone but the shithead, in a ``goal-winner`` game 1
for the first player out. A rollout cut off at the turn cap is scored by a
*conditional logit* over the seats still in play:

    P(seat s ends as the loser) = exp(w . f(s)) / sum over seats t in play of exp(w . f(t))

with ``f`` a few features read off the table (cards in hand, face up and face down,
how hard the held cards are to play in this variant, special cards held). A seat's reward is ``1 - P(loser)``; in a winner-goal game
``P(first out) = softmax(-w . f)``. The weights were fitted by maximum likelihood
on positions from greedy self-play (pagat and lancaster, 2 to 6 players), with
``benchmarks/advisor_fit_eval.py``; they are not tuned per variant, but the
"hard to play" feature reads the variant's own placement table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from tutor.core.cards import EMPTY, N_RANKS
from tutor.core.table import Table
from tutor.engine import game_over, position_of
from tutor.engine.position import Position
from tutor.rules.variant import Variant

# Fitted by benchmarks/advisor_fit_eval.py --games 300 (15,634 positions; held-out log-loss
# 1.10 against 1.24 for a uniform guess; calibrated within a few points in every decile).
WEIGHTS: tuple[float, ...] = (-0.208, 0.045, 0.462, 0.353, 0.056, 0.576, 0.063)
FEATURES = ("hand", "face_up", "face_down", "hard", "specials", "log_hand", "hand_no_stock")


@lru_cache(maxsize=64)
def playability(v: Variant) -> tuple[float, ...]:
    """Per rank: the share of possible tops (every rank and the empty pile) it may go on."""
    tops = list(range(13)) + ([13] if v.jokers else []) + [EMPTY]
    return tuple(sum(1 for t in tops if v.place[t][r]) / len(tops) for r in range(N_RANKS))


@lru_cache(maxsize=64)
def special_ranks(v: Variant) -> frozenset[int]:
    """Ranks worth keeping: they go on (nearly) anything, burn, or look through."""
    play = playability(v)
    return frozenset(r for r in range(N_RANKS)
                     if v.burn[r] or v.transparent[r] or play[r] >= 0.9)


def features(table: Table, v: Variant, seat: int) -> tuple[float, ...]:
    p = table.players[seat]
    return _features(v, p.hand, [c for st in p.face_up for c in st], len(p.face_down), bool(table.stock))


def _features(v: Variant, hand: Sequence[int], face_up: Sequence[int], n_down: int,
              stock: bool) -> tuple[float, ...]:
    play = playability(v)
    special = special_ranks(v)
    hard = sum(1.0 - play[c >> 2] for c in hand) + sum(1.0 - play[c >> 2] for c in face_up)
    specials = sum(1 for c in hand if c >> 2 in special) + sum(1 for c in face_up if c >> 2 in special)
    n_hand = len(hand)
    return (float(n_hand), float(len(face_up)), float(n_down),
            hard, float(specials), math.log1p(n_hand), 0.0 if stock else float(n_hand))


def outcome(table: Table, v: Variant) -> list[float]:
    """Rewards of a finished game: 1 for everyone but the loser (or 1 for the winner)."""
    n = len(table.players)
    decided = position_of(table, v).decided()  # (a player may have lost at once: Nortenos' last 3)
    if v.goal == "winner":
        return [1.0 if s == decided else 0.0 for s in range(n)]
    return [0.0 if s == decided else 1.0 for s in range(n)]


def evaluate(table: Table, v: Variant, weights: Sequence[float] = WEIGHTS) -> list[float]:
    """Each seat's estimated reward: the outcome if the game is over, else the model's."""
    if game_over(table, v):
        return outcome(table, v)
    n = len(table.players)
    live = [s for s in range(n) if not table.players[s].out]
    return _model(v, n, {s: features(table, v, s) for s in live}, weights)


def evaluate_position(pos: Position, weights: Sequence[float] = WEIGHTS) -> list[float]:
    """:func:`evaluate` of the engine's position (the search's own, never snapshotted)."""
    v = pos.v
    n = pos.n
    if pos.over():
        decided = pos.decided()  # (a player may have lost at once: Nortenos' last 3)
        if v.goal == "winner":
            return [1.0 if s == decided else 0.0 for s in range(n)]
        return [0.0 if s == decided else 1.0 for s in range(n)]
    stock = bool(pos.stock)
    return _model(v, n, {s: _features(v, pos.hand(s), pos.up_cards(s), len(pos.downs[s]), stock)
                         for s in range(n) if not pos.outs[s]}, weights)


def evaluate_zones(v: Variant, zones: Sequence[tuple[Sequence[int], Sequence[int], int, bool]], stock: int,
                   weights: Sequence[float] = WEIGHTS) -> list[float]:
    """:func:`evaluate` for an unfinished game given as each seat's (hand, face-up cards,
    face-down count, out) and the stock's size (the runner's cut-off rollouts)."""
    return _model(v, len(zones), {s: _features(v, z[0], z[1], z[2], stock > 0)
                                  for s, z in enumerate(zones) if not z[3]}, weights)


def _model(v: Variant, n: int, feats: dict[int, tuple[float, ...]], weights: Sequence[float]) -> list[float]:
    sign = -1.0 if v.goal == "winner" else 1.0
    scores = {s: sign * sum(w * f for w, f in zip(weights, fs, strict=True)) for s, fs in feats.items()}
    top = max(scores.values())
    exps = {s: math.exp(x - top) for s, x in scores.items()}
    total = sum(exps.values())
    if v.goal == "winner":
        return [exps[s] / total if s in exps else 0.0 for s in range(n)]
    return [1.0 - exps[s] / total if s in exps else 1.0 for s in range(n)]
