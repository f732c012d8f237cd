"""Cards drawn for people: rank and suit symbol, red or black, with a text alternative.

Each card is a small HTML box (``<span role="img" aria-label="seven of hearts">``),
sized to read on a phone; unseen cards are drawn as a card back labelled
"unseen card". The helpers return HTML strings; :func:`show_cards` writes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

import streamlit as st

from tutor.core.cards import JOKER, RANK_NAMES, UNKNOWN, card_pretty, card_str, is_red

_RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "jack", "queen", "king", "ace")
_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
_SUITS = ("♣", "♦", "♥", "♠")

CSS = """
<style>
.shc-row { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin: 2px 0 6px; }
.shc { display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
       width: 2.5rem; height: 3.4rem; border: 1px solid #777; border-radius: 6px; background: #fff;
       color: #111; font: 600 1.05rem/1.05 system-ui, -apple-system, "Segoe UI", sans-serif;
       box-shadow: 0 1px 2px rgba(0,0,0,.15); }
.shc .s { font-size: 1.3rem; }
.shc.red { color: #c62828; }
.shc.joker { color: #6a1b9a; font-size: .9rem; }
.shc.back { background: repeating-linear-gradient(45deg, #2c4f7c, #2c4f7c 4px, #3b6aa6 4px, #3b6aa6 8px);
            border-color: #1d3557; }
.shc.sm { width: 2rem; height: 2.7rem; font-size: .9rem; }
.shc.sm .s { font-size: 1.05rem; }
.shc-stack { display: inline-flex; gap: 0; }
.shc-stack .shc + .shc { margin-left: -1.2rem; }
.shc-count { font: 500 .9rem system-ui, sans-serif; color: #555; margin-left: 4px; }
.shc-zone { font: 600 .85rem system-ui, sans-serif; color: #444; min-width: 5.5rem; }
.shc-none { font: italic .85rem system-ui, sans-serif; color: #888; }
.shc-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
</style>
"""


def card_name(card: int) -> str:
    """The card in words, for screen readers: ``'seven of hearts'``, ``'joker'``."""
    if card == UNKNOWN:
        return "unseen card"
    if card == JOKER:
        return "joker"
    return f"{_RANK_WORDS[card >> 2]} of {_SUIT_WORDS[card & 3]}"


def card_label(card: int) -> str:
    """A card for a select box: symbol and notation, so typing ``7h`` finds ``7♥ (7H)``."""
    return f"{card_pretty(card)} ({card_str(card)})" if card not in (UNKNOWN, JOKER) else card_pretty(card)


def card_html(card: int, *, small: bool = False) -> str:
    size = " sm" if small else ""
    name = escape(card_name(card))
    if card == UNKNOWN:
        return f'<span class="shc back{size}" role="img" aria-label="{name}" title="{name}"></span>'
    if card == JOKER:
        return f'<span class="shc joker{size}" role="img" aria-label="joker" title="joker">JK<span class="s">★</span></span>'
    colour = " red" if is_red(card) else ""
    rank, suit = RANK_NAMES[card >> 2], _SUITS[card & 3]
    return (f'<span class="shc{colour}{size}" role="img" aria-label="{name}" title="{name}">'
            f'{rank}<span class="s">{suit}</span></span>')


def cards_html(cards: Iterable[int], *, small: bool = False, none: str = "none") -> str:
    """A row of cards; runs of unseen cards are drawn as one back and a count."""
    cards = list(cards)
    if not cards:
        return f'<span class="shc-none">{escape(none)}</span>'
    if all(c == UNKNOWN for c in cards):
        return card_html(UNKNOWN, small=small) + f'<span class="shc-count">× {len(cards)} unseen</span>'
    return "".join(card_html(c, small=small) for c in cards)


def stacks_html(stacks: Iterable[tuple[int, ...]], *, small: bool = False) -> str:
    """Face-up cards, where a stack of equal cards is drawn overlapping."""
    out = []
    for s in stacks:
        if len(s) == 1:
            out.append(card_html(s[0], small=small))
        else:
            out.append('<span class="shc-stack">' + "".join(card_html(c, small=small) for c in s) + "</span>")
    return "".join(out) or '<span class="shc-none">none</span>'


def zone_html(label: str, body: str) -> str:
    return f'<div class="shc-row"><span class="shc-zone">{escape(label)}</span>{body}</div>'


def show_cards(cards: Iterable[int], *, label: str = "", small: bool = False) -> None:
    body = cards_html(cards, small=small)
    st.markdown(zone_html(label, body) if label else f'<div class="shc-row">{body}</div>',
                unsafe_allow_html=True)


def inject_css() -> None:
    """Add the card styles to the page (once per run; app.py does it for every page)."""
    st.markdown(CSS, unsafe_allow_html=True)
