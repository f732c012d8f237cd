"""A table as the card-table view draws it: plain data, ready for JSON.

:func:`table_data` turns a :class:`~tutor.core.table.Table` into the mapping the card-table
component (:mod:`tutor.webui.card_table`) draws: the seats in playing order with the viewer at
the bottom, each seat's hand, face-up cards on their face-down cards, the pile's last plays
with who played them, the stock and burned counts, whose turn and which way play goes.

What a seat may see is decided here, once: with ``seat=k`` other hands, every face-down card
and the stock are cards backs (:func:`tutor.teach.views.seat_view`), except the cards seen
going into a hand at a pickup (``known``, from :class:`tutor.advisor.KnownCards`), which are
shown as known; another seat's Bluff play stays face down with its claim. Names are passed as
data and written with ``textContent`` by the component, never as HTML.

>>> from tutor.core.cards import parse_card
>>> from tutor.core.table import table_from_dict
>>> t = table_from_dict({"players": [{"name": "A", "hand": ["7H"]}, {"name": "B", "hand": ["9C", "4D"]}],
...                      "pile": [{"by": "B", "cards": ["6C"]}], "turn": "A"})
>>> d = table_data(t, "pagat", seat=0, known={1: (parse_card("9C"),)})
>>> d["seats"][1]["hand"], d["seats"][1]["seen"]
(['9C', '??'], 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tutor.core.cards import (
    EMPTY,
    RANK_NAMES,
    RUN_CLAIM,
    UNKNOWN,
    card_str,
    claim_count,
    claim_str,
    rank_name,
    rank_plural,
)
from tutor.core.moves import Move
from tutor.core.table import CLOCKWISE, Table
from tutor.engine import effective_top, game_over, opening_lead
from tutor.engine.words import YOU, number, plural, said_as
from tutor.rules.matrix import a_rank
from tutor.rules.variant import Variant, load_variant
from tutor.teach.views import seat_view

__all__ = ["PILE_SHOWN", "change_marks", "describe", "seat_caption", "table_data", "to_beat"]

PILE_SHOWN = 5  # plays drawn on the pile; older ones are counted


def to_beat(table: Table, v: Variant) -> str:
    """The card the next play goes on, in words: 'a 6 (seen through the 8)'."""
    if not table.pile and table.setup:
        return "nothing yet: the first card is led once everyone has arranged their cards"
    if not table.pile:
        lead = opening_lead(table, v)
        if lead is not None:  # the first-player rule decides the opening lead, not the empty pile
            return f"nothing yet: this is the opening, and the lead must include {a_rank(lead)}"
        return "nothing: the pile is empty, so any card may start it"
    top = effective_top(table, v)
    if top.rank == EMPTY:
        return "nothing: only see-through cards are on the pile, so any card may follow"
    under = ""
    if top.looked_through:
        under = " (seen through the " + " and ".join(rank_name(r) for r in top.looked_through) + ")"
    if top.count > 1:  # Bluff: a claimed double or triple, answered by as many cards
        return f"{number(top.count)} {rank_plural(top.rank)}, claimed{under}"
    return f"{a_rank(top.rank)}{under}"


def describe(table: Table, v: Variant) -> str:
    """One line of plain text: whose turn, which way, what to beat."""
    if game_over(table, v):
        return "The game is over."
    way = "clockwise" if table.direction == CLOCKWISE else "counterclockwise"
    who = table.player.name
    return f"{who} to move; play goes {way}; the card to play on is {to_beat(table, v)}."


def seat_caption(table: Table, seat: int | None) -> str:
    """What the drawing shows, in words ('As you see it: ...', with 'you' for the seat called You)."""
    if seat is None:
        unseen = any(UNKNOWN in z for p in table.players for z in (p.hand, p.face_down, p.face_up_cards)) \
            or UNKNOWN in table.stock
        return ("Every card shown as written; a card back is a card nobody has seen." if unseen
                else "All cards shown (as nobody at the table could see them).")
    name = table.players[seat].name
    who = "you see" if name == YOU else f"{name} sees"
    return f"As {who} it: other hands, face-down cards and the stock are hidden."


def _codes(cards: Iterable[int]) -> list[str]:
    return [card_str(c) for c in cards]


def _hand_seen(hand: Sequence[int], known: Sequence[int]) -> tuple[list[str], int]:
    """Another seat's hand as the viewer knows it: the cards seen going in (only those really
    there), then backs."""
    left = Counter(c for c in hand if c != UNKNOWN)
    seen = []
    for c in known:
        if left[c] > 0:
            left[c] -= 1
            seen.append(c)
    return _codes(seen) + ["??"] * (len(hand) - len(seen)), len(seen)


def table_data(
    table: Table,
    v: Variant | str,
    *,
    seat: int | None = None,
    bottom: int | None = None,
    known: Mapping[int, Sequence[int]] | None = None,
    marks: Iterable[str] = (),
    changed: Mapping[str, Any] | None = None,
    over: bool | None = None,
) -> dict[str, Any]:
    """The card-table view's data.

    ``seat``: whose view (None: every card as written). ``bottom``: the seat drawn at the
    bottom (default: ``seat``, else the player to move). ``known``: cards seen going into each
    hand (seat view only). ``marks``: card places to mark as a problem (``'s0h2'`` seat 0's third
    hand card, ``'s1u0'`` face up, ``'s1d0'`` face down, ``'p3c0'`` a pile card, ``'stock'``).
    ``changed``: what the last move changed (:func:`change_marks`).
    """
    v = load_variant(v)
    shown = table if seat is None else seat_view(table, seat)
    finished = game_over(table, v) if over is None else over
    seats = []
    for s, p in enumerate(shown.players):
        real = table.players[s]
        if seat is not None and s != seat and known and known.get(s):
            hand, seen = _hand_seen(real.hand, known[s])
        else:
            hand, seen = _codes(p.hand), 0
        seats.append({
            "name": p.name,
            "you": seat == s,
            "out": real.out,
            "hand": hand,
            "seen": seen,
            "up": [_codes(stack) for stack in p.face_up],
            "down": _codes(p.face_down),
        })
    plays = list(enumerate(table.pile))[-PILE_SHOWN:]
    pile = []
    for i, play in plays:
        hidden = play.claim >= 0 and seat is not None and play.by != seat
        pile.append({
            "i": i,
            "by": table.players[play.by].name if play.by >= 0 else "",
            "cards": ["??"] * len(play.cards) if hidden else _codes(play.cards),
            "claim": ("" if play.claim < 0 else claim_str(play.claim) if play.claim >= RUN_CLAIM
                      else said_as(play.claim, len(play.cards)) if claim_count(play.claim, len(play.cards)) != len(play.cards)
                      else plural(play.claim) if len(play.cards) > 1 else RANK_NAMES[play.claim]),
        })
    return {
        "seats": seats,
        "bottom": (seat if seat is not None else table.turn) if bottom is None else bottom,
        "turn": None if finished else table.turn,
        "clockwise": table.direction == CLOCKWISE,
        "pile": pile,
        "earlier": max(0, len(table.pile) - PILE_SHOWN),
        "pile_cards": len(table.pile_cards),
        "top": "" if finished else to_beat(table, v),
        "stock": len(table.stock),
        "burned": len(table.burned),
        "setup": table.setup,
        "caption": seat_caption(table, seat),
        "line": describe(table, v) if not finished else "The game is over.",
        "marks": sorted(set(marks)),
        "changed": dict(changed or {}),
    }


def change_marks(before: Table, after: Table, events: Iterable[str] = (), move: Move | None = None) -> dict[str, Any]:
    """What a move changed, for the view to highlight: the seat that moved, the new top play,
    and whether the pile was burned or taken (from the move's events)."""
    events = set(events)
    grew = len(after.pile) > len(before.pile) or (bool(after.pile) and bool(before.pile)
                                                   and after.pile[-1] != before.pile[-1])
    out: dict[str, Any] = {"seat": before.turn, "play": len(after.pile) - 1 if after.pile and grew else -1}
    if "burn" in events:
        out["burned"] = True
    if "pickup" in events:
        out["took"] = True
    if move is not None:
        out["move"] = str(move)
    return out
