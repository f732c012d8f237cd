"""What the app shows of a table: one seat's view, and moves a learner might try.

Pure functions over :class:`tutor.core.table.Table`; the pages draw their results.
Which moves are legal is never decided here: :func:`moves_to_try` lists the
moves worth asking about (legal or not) and the engine judges each one.
"""

from __future__ import annotations

from dataclasses import replace

from tutor.core.cards import UNKNOWN, rank_of
from tutor.core.moves import FLIP, PICKUP, PLAY, Move
from tutor.core.table import Table
from tutor.engine import legal_moves
from tutor.rules.variant import Variant


def seat_view(table: Table, seat: int) -> Table:
    """The table as the player in ``seat`` sees it: other hands, every face-down card
    and the stock become unseen cards; face-up cards and the pile stay visible."""
    players = []
    for s, p in enumerate(table.players):
        hand = p.hand if s == seat else (UNKNOWN,) * len(p.hand)
        players.append(replace(p, hand=hand, face_down=(UNKNOWN,) * len(p.face_down)))
    return replace(table, players=tuple(players), stock=(UNKNOWN,) * len(table.stock))


def moves_to_try(table: Table, v: Variant, extra: int = 6) -> list[Move]:
    """Moves worth asking about: every legal one, then up to ``extra`` others that a
    player might try (each card or set of equal cards held, a pickup, a blind flip)."""
    legal = legal_moves(table, v)
    out: list[Move] = list(legal)
    p = table.player
    cards = [c for c in (p.hand or p.face_up_cards) if c != UNKNOWN]
    by_rank: dict[int, list[int]] = {}
    for c in sorted(cards):
        by_rank.setdefault(rank_of(c), []).append(c)
    tries = [Move(PLAY, (group[0],)) for group in by_rank.values()]
    tries += [Move(PLAY, tuple(group)) for group in by_rank.values() if len(group) > 1]
    if p.hand and p.face_up_cards:
        tries.append(Move(PLAY, (p.face_up_cards[0],)))
    tries.append(Move(PICKUP))
    if p.face_down:
        tries.append(Move(FLIP, (), 1))
    for m in tries:
        if m not in out and len(out) < len(legal) + extra:
            out.append(m)
    return out
