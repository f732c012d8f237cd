"""Drawing a table: the card-table view (:mod:`tutor.webui.card_table`) used by every page.

``show_table(table, v, seat=None)`` draws every card ("all cards shown");
``seat=k`` draws what that player can see (:func:`tutor.teach.views.seat_view`), with the cards
seen going into hands at pickups (``known``) shown as known. A caption says what is shown, and
the table itself says whose turn it is, which way play goes and what the next play must beat.

:func:`table_html` is the same table as one block of HTML rows (for places that list several
small tables, e.g. Compare's positions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import streamlit as st

from tutor.core.cards import RUN_CLAIM, UNKNOWN, card_pretty, claim_str
from tutor.core.table import Table
from tutor.engine.words import said_as
from tutor.rules.variant import Variant
from tutor.tabletop.layout import describe, table_data, to_beat
from tutor.teach.views import seat_view
from tutor.webui.card_table import card_table
from tutor.webui.cards import card_html, cards_html, stacks_html, zone_html

__all__ = ["cards_text", "describe", "show_table", "table_html", "to_beat"]

PILE_SHOWN = 6  # plays drawn in table_html; older ones are counted


def _pile_html(table: Table, seat: int | None = None) -> str:
    """The pile's last plays; in a seat's view another player's Bluff play shows as card backs
    with its claim (its cards are face down)."""
    plays = list(table.pile)
    hidden = len(plays) - PILE_SHOWN
    rows = []
    if hidden > 0:
        rows.append(f'<span class="shc-none">{hidden} earlier plays below</span>')
        plays = plays[hidden:]
    for play in plays:
        who = table.players[play.by].name if play.by >= 0 else ""
        if play.claim >= 0 and seat is not None and play.by != seat:
            cards = "".join(card_html(UNKNOWN, small=True) for _ in play.cards)
        else:
            cards = "".join(card_html(c, small=True) for c in play.cards)
        if play.claim >= 0:
            said = (f"said {claim_str(play.claim)}" if play.claim >= RUN_CLAIM
                    else f"said {said_as(play.claim, len(play.cards))}")  # ('said two 7s': a count said)
            who = f"{who}, {said}" if who else said
        by = f'<span class="shc-count">{escape(who)}</span>' if who else ""
        rows.append(f'<span title="played by {escape(who or "someone")}">{cards}{by}</span>')
    body = " → ".join(rows) if rows else '<span class="shc-none">empty</span>'
    return zone_html("Pile (bottom → top)", body)


def table_html(table: Table, *, seat: int | None = None) -> str:
    shown = table if seat is None else seat_view(table, seat)
    parts = []
    for s, p in enumerate(shown.players):
        marks = []
        if s == table.turn:
            marks.append("▶ to move")
        if table.players[s].lost:
            marks.append("lost the game")
        elif table.players[s].out:
            marks.append("out")
        if seat == s:
            marks.append("you")
        head = f"<strong>{escape(p.name)}</strong>" + (f" · {escape(', '.join(marks))}" if marks else "")
        parts.append(f'<div style="margin-top:.5rem">{head}</div>')
        parts.append(zone_html(f"Hand ({len(p.hand)})", cards_html(p.hand)))
        parts.append(zone_html("Face up", stacks_html(p.face_up)))
        parts.append(zone_html("Face down", cards_html(p.face_down)))
    parts.append('<hr style="margin:.5rem 0">')
    parts.append(_pile_html(table, seat))
    stock = (f'<span class="shc-count">{len(table.stock)} card{"s" if len(table.stock) != 1 else ""}</span>'
             if table.stock else '<span class="shc-none">empty</span>')
    parts.append(zone_html("Stock", stock))  # a count, never the cards: nobody sees into the stock
    if table.burned:
        parts.append(zone_html("Burned", f'<span class="shc-count">{len(table.burned)} cards out of play</span>'))
    return "\n".join(parts)


def show_table(table: Table, v: Variant, *, seat: int | None = None, key: str | None = None,
               known: Mapping[int, Sequence[int]] | None = None, changed: Mapping[str, Any] | None = None,
               compact: bool = False, bottom: int | None = None) -> None:
    """Draw the table as a card table; ``seat=None`` shows every card, and says so.
    ``known``: cards seen going into hands at pickups (shown in a seat's view); ``changed``:
    what the last move changed (:func:`tutor.tabletop.layout.change_marks`), highlighted; ``bottom``:
    the seat drawn at the bottom (default: ``seat``, else the player to move)."""
    data = table_data(table, v, seat=seat, bottom=bottom, known=known, changed=changed)
    st.caption(data["caption"])  # names are letters, digits, spaces and . ' - (tutor.core.table)
    card_table(data, key=key, compact=compact)


def cards_text(cards: tuple[int, ...]) -> str:
    return " ".join(card_pretty(c) for c in cards)
