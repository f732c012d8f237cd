"""Where a table holds more copies of a card than its packs do.

:func:`tutor.core.table.table_from_dict` refuses such a table ("10D appears 2 times, but 1 pack
holds 1"). To say *where* the copies are and keep the table in view with the problem marked,
:func:`extra_copies` reads the same mapping with every pack the format allows, counts each card
against what the table's own packs hold (:func:`tutor.core.cards.full_pack`), and names the
places of each card that is over.

>>> raw = {"players": [{"name": "A", "hand": ["10D", "4C"]}, {"name": "B", "hand": 3}],
...        "pile": [{"by": "B", "cards": ["10D"]}], "turn": "A", "decks": 1}
>>> found = extra_copies(raw)
>>> found.message
"10♦ is there 2 times (in A's hand and on the pile, play 1 by B), but 1 pack holds 1. Take one out, or play with 2 packs."
>>> found.marks
['p0c0', 's0h1']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tutor.core.cards import JOKER, UNKNOWN, card_pretty, full_pack
from tutor.core.errors import TableError
from tutor.core.table import Table, table_from_dict
from tutor.engine.words import listing

MOST_PACKS = 8  # the table format's limit


@dataclass(frozen=True)
class Copies:
    """A table read leniently (every pack allowed), what is wrong, and the places to mark
    (as :func:`tutor.tabletop.layout.table_data` names them)."""

    table: Table
    message: str
    marks: list[str]
    packs_needed: int


def _places(table: Table) -> dict[int, list[tuple[str, str]]]:
    """Every known card's places: (mark, words)."""
    out: dict[int, list[tuple[str, str]]] = {}

    def add(card: int, mark: str, words: str) -> None:
        if card != UNKNOWN:
            out.setdefault(card, []).append((mark, words))

    for s, p in enumerate(table.players):
        for i, c in enumerate(p.hand):
            add(c, f"s{s}h{i}", f"in {p.name}'s hand")
        for i, c in enumerate(p.face_up_cards):
            add(c, f"s{s}u{i}", f"face up before {p.name}")
        for i, c in enumerate(p.face_down):
            add(c, f"s{s}d{i}", f"face down before {p.name}")
    for j, play in enumerate(table.pile):
        by = f" by {table.players[play.by].name}" if play.by >= 0 else ""
        for i, c in enumerate(play.cards):
            add(c, f"p{j}c{i}", f"on the pile, play {j + 1}{by}")
    for c in table.stock:
        add(c, "stock", "in the stock")
    for c in table.burned:
        add(c, "burned", "among the burned cards")
    return out


def extra_copies(raw: Mapping[str, Any], jokers_per_deck: int = 0) -> Copies | None:
    """The table with its extra copies found, or None when no card is over its packs (or the
    mapping has another problem, which :func:`table_from_dict` names as it is)."""
    decks = raw.get("decks", 1)
    if not isinstance(decks, int) or isinstance(decks, bool) or not 1 <= decks <= MOST_PACKS:
        return None
    try:
        table = table_from_dict({**raw, "decks": MOST_PACKS}, jokers_per_deck=max(jokers_per_deck, 1) * 4)
    except TableError:
        return None
    allowed = Counter(full_pack(decks, decks * jokers_per_deck))
    places = _places(table)
    over = sorted((c for c, ps in places.items() if len(ps) > allowed[c]), key=lambda c: -len(places[c]))
    if not over:
        return None
    packs = f"{decks} packs hold" if decks > 1 else "1 pack holds"
    bits, marks, need = [], [], decks
    for c in over:
        where = [w for _, w in places[c]]
        name = "jokers" if c == JOKER else card_pretty(c)
        bits.append(f"{name} is there {len(where)} times ({listing(_merge(where))}), but {packs} {allowed[c]}")
        marks += [m for m, _ in places[c]]
        per_pack = jokers_per_deck if c == JOKER else 1
        need = max(need, -(-len(where) // per_pack) if per_pack else MOST_PACKS + 1)
    fix = "Take one out" if len(over) == 1 and len(places[over[0]]) - allowed[over[0]] == 1 else "Take the extra ones out"
    if need <= MOST_PACKS:
        fix += f", or play with {need} packs"
    return Copies(table, "; ".join(bits) + ". " + fix + ".", sorted(set(marks)), need)


def _merge(where: list[str]) -> list[str]:
    """'in A's hand' twice is said once, with a count: 'twice in A's hand'."""
    counts = Counter(where)
    return [w if counts[w] == 1 else f"{'twice' if counts[w] == 2 else str(counts[w]) + ' times'} {w}"
            for w in dict.fromkeys(where)]
