"""Determinisation: deal the unseen cards of a view at random, consistently.

The unknown slots (other players' unseen hand cards, every face-down card, the
stock, unlisted burned cards) are filled from the pack less every card the view
places, uniformly at random: each consistent deal is equally likely. Zone sizes and
the cards known to be in a hand are kept; cards out of play stay out.

This is the "resampler" of OpenSpiel's ISMCTS. It does no inference from how the
others played (a player who picked up in a must-play variant had no card that
would go): the deal is uniform over what was *seen*, which keeps it honest and
fast; the search's statistics average over it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from tutor.advisor.view import PlayerView
from tutor.core.cards import UNKNOWN
from tutor.core.table import Play, Player, Table
from tutor.engine.position import Position
from tutor.rules.variant import Variant


def _pooled(n: int, k: int) -> bool:
    """Does ``random.Random.sample`` draw ``k`` of ``n`` by its pool method (CPython's rule: an
    n-length list smaller than a k-length set)?"""
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    return n <= setsize


def _sample_pooled(rng: random.Random, pool: Sequence[int], k: int) -> list[int]:
    """``rng.sample(pool, k)`` where it takes its pool method (:func:`_pooled`), as CPython
    draws it (``getrandbits`` and rejection), inline: the same cards for the same draws."""
    left = list(pool)
    n = len(left)
    getrandbits = rng.getrandbits
    out = []
    for m in range(n, n - k, -1):
        b = m.bit_length()
        j = getrandbits(b)
        while j >= m:
            j = getrandbits(b)
        out.append(left[j])
        left[j] = left[m - 1]
    return out


def _sample_agrees() -> bool:
    """Is :func:`_sample_pooled` still what this Python's ``sample`` does? If not, deals call ``sample``."""
    for seed in range(3):
        for n in (1, 2, 5, 9, 17, 21, 30, 40, 52, 60, 85):
            for k in sorted({0, 1, n // 2, n - 1, n} - {-1}):
                if _pooled(n, k) and (random.Random(seed).sample(range(n), k)
                                      != _sample_pooled(random.Random(seed), range(n), k)):
                    return False
    return True


_INLINE_SAMPLE = _sample_agrees()


class Determinizer:
    """Deals determinisations of one view; the pool is computed once."""

    __slots__ = ("view", "v", "pool", "slots", "base", "known", "inline")

    def __init__(self, view: PlayerView, v: Variant) -> None:
        self.view = view
        self.v = v
        self.pool: list[int] = view.unknown_pool(v)
        self.slots = view.unknown_slots()
        self.inline = _INLINE_SAMPLE and _pooled(len(self.pool), self.slots)  # (``sample``'s draws, inline)
        self.base: Position | None = None  # a position of one deal: what every deal shares
        self.known: list[int] = []  # each seat's known hand cards, as the position's multiset

    def deal_position(self, rng: random.Random) -> Position:
        """A deal of the unseen cards, dealt straight into a copy of one position (only the unseen
        parts are filled in). At the opening the seat to move is the leader, so a deal in which the
        engine would give the lead to someone else (a lower card dealt to another hand) contradicts
        what the player sees and is dealt again (at most 50 times; then the last)."""
        pos = self._deal_position(rng)
        if self.view.opening and not self.view.setup:
            for _ in range(50):
                if pos.moves() or pos.over():
                    break
                pos = self._deal_position(rng)
        return pos

    def _deal_position(self, rng: random.Random) -> Position:
        base = self.base
        if base is None:
            base = self.base = Position.of(self._deal(random.Random(0)), self.v)
            self.known = [base.C.encode(s.hand_known) for s in self.view.seats]
        view = self.view
        if not self.slots:
            cards = []
        elif self.inline:
            cards = _sample_pooled(rng, self.pool, self.slots)
        else:
            cards = rng.sample(self.pool, self.slots)
        pos = base.copy()
        C = pos.C
        k = 0
        hands, subs, downs = pos.hands, pos.subs, pos.downs
        for i, s in enumerate(view.seats):
            n = s.hand_size - len(s.hand_known)
            if n:
                h = hands[i] = self.known[i] + C.encode(cards[k:k + n])
                subs[i] = C.subs(h)
                k += n
            n = s.face_down
            downs[i] = tuple(cards[k:k + n])
            k += n
        pos.stock = cards[k:k + view.stock]
        k += view.stock
        pos.burned = view.burned_known + tuple(cards[k:k + view.burned_unknown])
        k += view.burned_unknown
        if view.pile_unknown:
            pile = []
            for pl in view.pile:
                if UNKNOWN in pl.cards:
                    n = len(pl.cards)
                    pile.append((tuple(cards[k:k + n]), pl.by, pl.claim))
                    k += n
                else:
                    pile.append((pl.cards, pl.by, pl.claim))
            pos.set_pile(pile)
        return pos

    def deal(self, rng: random.Random) -> Table:
        """A deal of the unseen cards, as a table: the snapshot of :meth:`deal_position`."""
        return self.deal_position(rng).snapshot()

    def _deal(self, rng: random.Random) -> Table:
        """A deal as a table, built field by field: the template :meth:`deal_position` copies."""
        view = self.view
        cards = rng.sample(self.pool, self.slots) if self.slots else []
        k = 0
        players = []
        for s in view.seats:
            n = s.hand_unknown
            hand = tuple(sorted(s.hand_known + tuple(cards[k:k + n]))) if n else s.hand_known
            k += n
            down = tuple(cards[k:k + s.face_down])
            k += s.face_down
            players.append(Player(s.name, hand, s.face_up, down, s.lost))
        stock = tuple(cards[k:k + view.stock])
        k += view.stock
        burned = view.burned_known + tuple(cards[k:k + view.burned_unknown])
        k += view.burned_unknown
        pile = view.pile
        if view.pile_unknown:
            plays = []
            for pl in pile:
                if UNKNOWN in pl.cards:
                    n = len(pl.cards)
                    pl = Play(tuple(cards[k:k + n]), pl.by, pl.claim)
                    k += n
                plays.append(pl)
            pile = tuple(plays)
        return Table(
            players=tuple(players), pile=pile, stock=stock, burned=burned, turn=view.turn,
            direction=view.direction, decks=view.decks, setup=view.setup, ready=view.ready,
            opening=view.opening,
        )


def determinize(view: PlayerView, v: Variant, rng: random.Random) -> Table:
    """One full table consistent with ``view``."""
    return Determinizer(view, v).deal(rng)


def consistent(view: PlayerView, table: Table, v: Variant) -> bool:
    """Does ``table`` agree with everything ``view`` knows? (for tests)"""
    from collections import Counter

    if len(table.players) != len(view.seats) or table.turn != view.turn or len(table.pile) != len(view.pile):
        return False
    for seen, real in zip(view.pile, table.pile, strict=True):
        if len(seen.cards) != len(real.cards) or any(
                c != UNKNOWN and c != r for c, r in zip(seen.cards, real.cards, strict=True)):
            return False
    for s, p in zip(view.seats, table.players, strict=True):
        if len(p.hand) != s.hand_size or len(p.face_down) != s.face_down or p.face_up != s.face_up:
            return False
        if Counter(s.hand_known) - Counter(p.hand):
            return False
    if len(table.stock) != view.stock:
        return False
    return not Counter(view.burned_known) - Counter(table.burned)


def deal_many(view: PlayerView, v: Variant, rng: random.Random, n: int) -> Sequence[Table]:
    d = Determinizer(view, v)
    return [d.deal(rng) for _ in range(n)]
