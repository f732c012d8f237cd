"""'The pile shows X, I hold Y': a table for a rule argument from a few words.

A rule argument at a table is nearly always about the top of the pile, the cards in one hand
and one play. :func:`quick_table` builds the rest: the other players with unseen hands and
face-down cards, your own face-down cards unseen, some stock, the packs of the variant, you to
move. Cards are written as in the contract (``7H``, ``10d``, ``Q♠``, ``JK``) or as a rank alone
(``7``, ``q``, ``10``): a rank alone gets a suit not used yet. On the pile, each card (or ``+``-
joined cards: ``7+7``) is one play, bottom first. The play may be cards or ranks from the hand
(``7 7``), ``pickup``, ``flip 1`` or anything else in the contract's notation.

>>> raw, move = quick_table("lancaster", pile="6 8", hand="7 7 K", play="7 7")
>>> raw["pile"], raw["players"][0]["hand"], move
([['6S'], ['8S']], ['7S', '7H', 'KS'], 'play 7H 7S')
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from tutor.core.cards import JOKER, RANK_NAMES, card_str, parse_card, rank_index
from tutor.core.errors import NotationError, TableError, excerpt
from tutor.core.moves import Move
from tutor.rules.variant import Variant, load_variant

YOU = "You"
OTHERS = ("B", "C", "D", "E", "F", "G", "H")
SUIT_ORDER = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs: the suit a rank alone gets first
MAX_TOKENS = 60


def _tokens(text: str, where: str) -> list[str]:
    words = [w for w in re.split(r"[\s,;]+", text.strip()) if w]
    if len(words) > MAX_TOKENS:
        raise TableError(f"{where}: at most {MAX_TOKENS} cards")
    return words


class _Pack:
    """The cards still free in the packs, to give a rank written alone a suit."""

    def __init__(self, decks: int, jokers: int) -> None:
        self.left: Counter[int] = Counter({c: decks for c in range(52)})
        self.left[JOKER] = jokers

    def take(self, word: str, where: str) -> int:
        try:
            card = parse_card(word)
        except NotationError:
            card = -1
        if card >= 0:
            self.left[card] -= 1  # a card written out is used as written (too many: the table says where)
            return card
        try:
            rank = rank_index(word)
        except NotationError:
            raise TableError(f"{where}: {excerpt(word, 12)} is neither a card (7H, 10D, QS) nor a rank "
                             "(7, 10, Q)") from None
        if rank == RANK_NAMES.index("JK"):
            self.left[JOKER] -= 1
            return JOKER
        for suit in SUIT_ORDER:
            card = rank * 4 + suit
            if self.left[card] > 0:
                self.left[card] -= 1
                return card
        raise TableError(f"{where}: no {RANK_NAMES[rank]} is left in the packs")


def quick_table(
    variant: Variant | str,
    *,
    pile: str = "",
    hand: str = "",
    face_up: str = "",
    play: str = "",
    players: int = 3,
    stock: int = 10,
) -> tuple[dict[str, Any], str]:
    """The table file's mapping and the move's notation ('' when no play is given).

    Raises :class:`TableError` (a card or rank it cannot read, too many of a rank) in one line.
    """
    v = load_variant(variant)
    problem = v.players_problem(players)
    if problem:
        raise TableError(f"players: {problem}")
    decks = v.decks_for(players)
    pack = _Pack(decks, decks * v.jokers)
    # the pile first, then the hand: a rank alone takes the first suit still free
    plays = []
    for word in _tokens(pile, "the pile"):
        plays.append([card_str(pack.take(w, "the pile")) for w in word.split("+") if w])
    mine = [pack.take(w, "your hand") for w in _tokens(hand, "your hand")]
    up = [card_str(pack.take(w, "your face-up cards")) for w in _tokens(face_up, "your face-up cards")]
    hidden = v.down or 3
    others = [{"name": OTHERS[i], "hand": v.hand or 3, "face_up": [], "face_down": hidden}
              for i in range(players - 1)]
    raw: dict[str, Any] = {
        "decks": decks,
        "players": [{"name": YOU, "hand": [card_str(c) for c in mine], "face_up": up, "face_down": hidden},
                    *others],
        "pile": plays,
        "stock": max(0, int(stock)),
        "turn": YOU,
        "direction": "clockwise",
    }
    return raw, _move(play, mine)


def _move(text: str, hand: list[int]) -> str:
    """The play as notation: ranks or cards from the hand ('7 7' -> 'play 7H 7S'), or a move
    written out ('pickup', 'flip 1', 'play 7H')."""
    text = text.strip()
    if not text:
        return ""
    first = text.split()[0].lower()
    if first in ("play", "flip", "pickup", "swap", "ready", "place", "gamble", "slide", "call"):
        return str(Move.parse(text))
    left = list(hand)
    cards = []
    for w in _tokens(text, "your play"):
        try:
            card = parse_card(w)
        except NotationError:
            try:
                rank = rank_index(w)
            except NotationError:
                raise TableError(f"your play: {excerpt(w, 12)} is neither a card nor a rank") from None
            card = next((c for c in left if (c >> 2) == rank), rank * 4 + SUIT_ORDER[0])
        if card in left:
            left.remove(card)
        cards.append(card)
    return str(Move.play(*cards))
