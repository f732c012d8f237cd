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
from itertools import compress
from typing import cast

from tutor.core.cards import EMPTY, JOKER, N_RANKS
from tutor.core.table import Table
from tutor.engine import game_over, position_of
from tutor.engine.position import Code, Position
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
    """The features of one seat. The hand is summed rank by rank (its unseen cards last), then
    the face-up cards one by one: the order :func:`evaluate_position` adds them in, so every
    path gives the same numbers to the last bit."""
    hard_of, special_of = _ranks_of(v)
    counts = [0] * N_RANKS
    unseen = 0
    for c in hand:
        if c < 0:
            unseen += 1
        else:
            counts[c >> 2] += 1
    hard = 0.0
    specials = 0
    for r, k in enumerate(counts):
        if k:
            hard += k * hard_of[r]
            specials += k * special_of[r]
    if unseen:
        hard += unseen * hard_of[-1]
        specials += unseen * special_of[-1]
    for c in face_up:
        r = c >> 2
        hard += hard_of[r]
        specials += special_of[r]
    n_hand = len(hand)
    return (float(n_hand), float(len(face_up)), float(n_down),
            hard, float(specials), math.log1p(n_hand), 0.0 if stock else float(n_hand))


@lru_cache(maxsize=64)
def _ranks_of(v: Variant) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """Per rank: how hard it is to play (1 - :func:`playability`), and 1 if it is special."""
    special = special_ranks(v)
    return tuple(1.0 - p for p in playability(v)), tuple(1 if r in special else 0 for r in range(N_RANKS))


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
    """:func:`evaluate` of the engine's position (the search's own, never snapshotted).

    The features are read off the hands' multiset codes, rank by rank (no hand is decoded):
    the same numbers as :func:`features` of the position's table, summed in another order.
    """
    v = pos.v
    n = pos.n
    if pos.over():
        decided = pos.decided()  # (a player may have lost at once: Nortenos' last 3)
        if v.goal == "winner":
            return [1.0 if s == decided else 0.0 for s in range(n)]
        return [0.0 if s == decided else 1.0 for s in range(n)]
    weigh = _LAST[0]
    if weigh is None or weigh.v is not v or weigh.C is not pos.C:  # (a search asks of one variant
        weigh = _LAST[0] = _Weigh.of(v, pos.C)  # thousands of times)
    stock = bool(pos.stock)
    outs, hands, hand_n, subs, ups, downs = pos.outs, pos.hands, pos.hand_n, pos.subs, pos.ups, pos.downs
    w_hand, w_up, w_down, w_hard, w_special, w_log, w_nostock = weights
    if stock:
        w_nostock = 0.0
    hard_of, special_of, ranks, rsh, rm, count = weigh.hard, weigh.special, weigh.ranks, weigh.rsh, weigh.rm, weigh.count
    up_get, up_weigh = weigh.ups.get, weigh.up_weigh
    memo = weigh.memo
    memo_get = memo.get
    log1p = math.log1p
    scores: list[float | None] = []
    for s in range(n):
        if outs[s]:
            scores.append(None)
            continue
        h = hands[s]
        k = hand_n[s]
        got = memo_get(h)  # (hands come round again and again: the search's own hand above all)
        if got is None:
            hard = 0.0
            specials = 0
            sub = subs[s]
            for r in compress(ranks, sub):  # the ranks held
                c = count[r][(h >> rsh[r]) & rm[r]]
                hard += c * hard_of[r]
                specials += c * special_of[r]
            if h >> weigh.unseen_shift:  # (cards nobody has seen: as the decoded hand scores them)
                c = (h >> weigh.unseen_shift) & weigh.unseen_mask
                hard += c * hard_of[-1]
                specials += c * special_of[-1]
            if len(memo) > 20_000:
                memo.clear()
            memo[h] = (hard, specials)
        else:
            hard, specials = got
        up = up_get(ups[s])  # (face-up cards change seldom)
        if up is None:
            up = up_weigh(ups[s])
        for x in up[0]:  # (added card by card, in order: the same sum to the last bit)
            hard += x
        specials += up[1]
        n_up = up[2]
        scores.append(w_hand * k + w_up * n_up + w_down * len(downs[s]) + w_hard * hard + w_special * specials
                      + w_log * log1p(k) + w_nostock * k)
    return _softmax(v, scores)


class _Weigh:
    """Per variant and card code: each rank's hardness and speciality, and each rank field's
    card count, for :func:`evaluate_position`."""

    __slots__ = ("v", "C", "hard", "special", "hard_card", "special_card", "ranks", "rsh", "rm", "count",
                 "unseen_shift", "unseen_mask", "memo", "ups")

    _cache: dict[tuple[int, int], tuple[Variant, _Weigh]] = {}

    def __init__(self, v: Variant, C: Code) -> None:
        self.v, self.C = v, C
        self.hard, self.special = _ranks_of(v)
        # per card (face-up cards are known): its rank's
        self.hard_card = tuple(self.hard[c >> 2] for c in range(JOKER + 1))
        self.special_card = tuple(self.special[c >> 2] for c in range(JOKER + 1))
        w = C.w
        one = C.one
        plain = tuple(sum((f >> (i * w)) & one for i in range(4)) for f in range(1 << (4 * w)))
        self.ranks = range(len(C.rsh))
        self.rsh, self.rm = C.rsh, C.rm
        self.count = tuple(plain if r < JOKER >> 2 else range(C.rm[r] + 1) for r in self.ranks)  # by rank field
        self.unseen_shift = C.csh[-1]
        self.unseen_mask = C.cm[-1]
        self.memo: dict[int, tuple[float, int]] = {}  # a hand's code -> its (hard, specials)
        # a seat's face-up stacks -> their cards' hardness one by one, their specials and their number
        self.ups: dict[tuple[tuple[int, ...], ...], tuple[tuple[float, ...], int, int]] = {}

    def up_weigh(self, ups: tuple[tuple[int, ...], ...]) -> tuple[tuple[float, ...], int, int]:
        """:attr:`ups` of a seat's face-up stacks (kept)."""
        cards = [c for st in ups for c in st]
        got = (tuple(self.hard_card[c] for c in cards), sum(self.special_card[c] for c in cards), len(cards))
        if len(self.ups) > 20_000:
            self.ups.clear()
        self.ups[ups] = got
        return got

    @classmethod
    def of(cls, v: Variant, C: Code) -> _Weigh:
        key = (id(v), id(C))
        got = cls._cache.get(key)
        if got is None or got[0] is not v:
            if len(cls._cache) > 32:
                cls._cache.clear()
            got = cls._cache[key] = (v, cls(v, C))
        return got[1]


_LAST: list[_Weigh | None] = [None]  # the last variant's (:func:`evaluate_position`)


def evaluate_zones(v: Variant, zones: Sequence[tuple[Sequence[int], Sequence[int], int, bool]], stock: int,
                   weights: Sequence[float] = WEIGHTS) -> list[float]:
    """:func:`evaluate` for an unfinished game given as each seat's (hand, face-up cards,
    face-down count, out) and the stock's size (the runner's cut-off rollouts)."""
    return _model(v, len(zones), {s: _features(v, z[0], z[1], z[2], stock > 0)
                                  for s, z in enumerate(zones) if not z[3]}, weights)


def _model(v: Variant, n: int, feats: dict[int, tuple[float, ...]], weights: Sequence[float]) -> list[float]:
    return _softmax(v, [sum(w * f for w, f in zip(weights, feats[s], strict=True)) if s in feats else None
                        for s in range(n)])


def _softmax(v: Variant, scores: Sequence[float | None]) -> list[float]:
    """The conditional logit over the seats in play (``None``: out): each seat's reward."""
    exp = math.exp
    if v.goal == "winner":  # the first out: the lowest score most likely
        top = max([-x for x in scores if x is not None])
        exps = [exp(-x - top) if x is not None else 0.0 for x in scores]
        total = sum(exps)
        return [e / total for e in exps]
    if None not in scores:  # (every seat in play: most positions a search scores)
        live = cast("Sequence[float]", scores)
        top = max(live)
        exps = [exp(x - top) for x in live]
        total = sum(exps)
        return [1.0 - e / total for e in exps]
    top = max([x for x in scores if x is not None])
    exps = [exp(x - top) if x is not None else 0.0 for x in scores]
    total = sum(exps)
    return [1.0 - exps[s] / total if x is not None else 1.0 for s, x in enumerate(scores)]
