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


def _draws(n: int, k: int) -> list[tuple[int, int, int]]:
    """The draws of :func:`_sample_pooled` taking ``k`` of ``n``: (cards left, their bit length, the last one's place)."""
    return [(m, m.bit_length(), m - 1) for m in range(n, n - k, -1)]


def _sample_pooled(rng: random.Random, pool: Sequence[int], draws: Sequence[tuple[int, int, int]]) -> list[int]:
    """``rng.sample(pool, k)`` where it takes its pool method (:func:`_pooled`), as CPython
    draws it (``getrandbits`` and rejection), inline: the same cards for the same draws
    (``draws``: :func:`_draws` of ``len(pool)`` and ``k``)."""
    left = list(pool)
    getrandbits = rng.getrandbits
    out: list[int] = []
    append = out.append
    for m, b, last in draws:
        j = getrandbits(b)
        while j >= m:
            j = getrandbits(b)
        append(left[j])
        left[j] = left[last]
    return out


def _sample_agrees() -> bool:
    """Is :func:`_sample_pooled` still what this Python's ``sample`` does? If not, deals call ``sample``."""
    for seed in range(3):
        for n in (1, 2, 5, 9, 17, 21, 30, 40, 52, 60, 85):
            for k in sorted({0, 1, n // 2, n - 1, n} - {-1}):
                if _pooled(n, k) and (random.Random(seed).sample(range(n), k)
                                      != _sample_pooled(random.Random(seed), range(n), _draws(n, k))):
                    return False
    return True


_INLINE_SAMPLE = _sample_agrees()


class Determinizer:
    """Deals determinisations of one view; the pool is computed once."""

    __slots__ = ("view", "v", "pool", "slots", "base", "draws", "plan", "opening", "pile_unknown", "dealt")

    def __init__(self, view: PlayerView, v: Variant) -> None:
        self.view = view
        self.v = v
        self.pool: list[int] = view.unknown_pool(v)
        self.slots = view.unknown_slots()
        # ``sample``'s draws, inline (None: ``sample`` is called)
        self.draws = _draws(len(self.pool), self.slots) if _INLINE_SAMPLE and _pooled(len(self.pool), self.slots) \
            else None
        self.base: Position | None = None  # a position of one deal: what every deal shares
        # the seats with unseen cards: (seat, unseen hand cards, face-down cards), read once
        self.plan = [(i, s.hand_size - len(s.hand_known), s.face_down) for i, s in enumerate(view.seats)
                     if s.hand_size > len(s.hand_known) or s.face_down]
        self.opening = view.opening and not view.setup  # (a deal may contradict the lead the player sees)
        self.pile_unknown = view.pile_unknown > 0
        self.dealt: list[int] = []  # the cards of the last deal, in the order they were placed

    def deal_position(self, rng: random.Random) -> Position:
        """A deal of the unseen cards, dealt straight into a copy of one position (only the unseen
        parts are filled in). At the opening the seat to move is the leader, so a deal in which the
        engine would give the lead to someone else (a lower card dealt to another hand) contradicts
        what the player sees and is dealt again (at most 50 times; then the last)."""
        pos = self._deal_position(rng)
        if self.opening:
            for _ in range(50):
                if pos.moves() or pos.over():
                    break
                pos = self._deal_position(rng)
        return pos

    def _deal_position(self, rng: random.Random) -> Position:
        cards: list[int]
        if not self.slots:
            cards = []
        elif self.draws is not None:
            cards = _sample_pooled(rng, self.pool, self.draws)
        else:
            cards = rng.sample(self.pool, self.slots)
        self.dealt = cards
        return self.again(cards)

    def again(self, cards: list[int]) -> Position:
        """The position of a deal of ``cards`` to the unseen places, in order (a deal's
        :attr:`dealt` deals it again)."""
        base = self.base
        if base is None:
            base = self.base = Position.of(self._deal(random.Random(0)), self.v)
            # the template holds each hand's known cards only, and none of the cards a deal
            # places (its copies copy less): a deal puts them in
            for i, n, _ in self.plan:
                if n:
                    h = base.hands[i] = base.C.encode(self.view.seats[i].hand_known)
                    base.hand_n[i] -= n
                    base.subs[i] = base.C.subs(h)
                base.downs = base.downs[:i] + ((),) + base.downs[i + 1:]
            base.stock, base.burned = (), ()
        view = self.view
        pos = base.copy()
        k = 0
        downs = list(pos.downs)
        for i, n, down in self.plan:
            if n:
                pos.deal_into(i, cards[k:k + n])
                k += n
            downs[i] = tuple(cards[k:k + down])
            k += down
        pos.downs = tuple(downs)
        pos.stock = tuple(cards[k:k + view.stock])
        k += view.stock
        pos.burned = view.burned_known + tuple(cards[k:k + view.burned_unknown])
        k += view.burned_unknown
        if self.pile_unknown:
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
