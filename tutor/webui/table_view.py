"""Drawing a table: each seat's zones, the pile play by play, stock and burned cards.

``show_table(table, v, seat=None)`` draws every card ("all cards shown");
``seat=k`` draws what that player can see (:func:`tutor.teach.views.seat_view`).
The whole table is one HTML block, with a plain-text caption saying whose turn
it is and what the next play must beat.
"""

from __future__ import annotations

from html import escape

import streamlit as st

from tutor.core.cards import EMPTY, UNKNOWN, card_pretty, rank_name, rank_plural
from tutor.core.table import CLOCKWISE, Table
from tutor.engine import effective_top, game_over
from tutor.rules.matrix import a_rank
from tutor.rules.variant import Variant
from tutor.teach.views import seat_view
from tutor.webui.cards import card_html, cards_html, stacks_html, zone_html

PILE_SHOWN = 6  # plays drawn; older ones are counted


def to_beat(table: Table, v: Variant) -> str:
    """The card the next play goes on, in words: 'a 6 (seen through the 8)'."""
    if not table.pile:
        return "nothing: the pile is empty, so any card may start it"
    top = effective_top(table, v)
    if top.rank == EMPTY:
        return "nothing: only see-through cards are on the pile, so any card may follow"
    under = ""
    if top.looked_through:
        under = " (seen through the " + " and ".join(rank_name(r) for r in top.looked_through) + ")"
    return f"{a_rank(top.rank)}{under}"


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
            said = f"said {rank_plural(play.claim) if len(play.cards) > 1 else a_rank(play.claim)}"
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
        if table.players[s].out:
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


def describe(table: Table, v: Variant) -> str:
    """One line of plain text: whose turn, which way, what to beat."""
    if game_over(table, v):
        return "The game is over."
    way = "clockwise" if table.direction == CLOCKWISE else "counterclockwise"
    return f"{table.player.name} to move; play goes {way}; the card to play on is {to_beat(table, v)}."


def show_table(table: Table, v: Variant, *, seat: int | None = None) -> None:
    """Draw the table; ``seat=None`` shows every card, and says so."""
    if seat is None:
        unseen = any(UNKNOWN in z for p in table.players for z in (p.hand, p.face_down, p.face_up_cards)) \
            or UNKNOWN in table.stock
        st.caption("Every card shown as written; a card back is a card nobody has seen." if unseen
                   else "All cards shown (as nobody at the table could see them).")
    else:
        st.caption(f"As {table.players[seat].name} sees it: other hands, face-down cards and the stock are hidden.")
    st.markdown(table_html(table, seat=seat), unsafe_allow_html=True)
    st.markdown(describe(table, v))  # names are letters, digits, spaces and . ' - (tutor.core.table)


def cards_text(cards: tuple[int, ...]) -> str:
    return " ".join(card_pretty(c) for c in cards)
