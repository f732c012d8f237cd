"""Moves as value objects, and their notation.

>>> Move.parse("play 7h 7s")
Move.parse('play 7H 7S')
>>> str(Move.parse("PICKUP with 5h"))
'pickup with 5H'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tutor.cards import card_str, parse_card
from tutor.errors import NotationError

Kind = Literal["play", "flip", "pickup", "swap", "ready"]
PLAY: Kind = "play"
FLIP: Kind = "flip"
PICKUP: Kind = "pickup"
SWAP: Kind = "swap"
READY: Kind = "ready"

_FORMS = (
    "'play CARD [CARD ...]', 'flip N', 'pickup', 'pickup with CARD [CARD ...]', "
    "'swap HANDCARD FACEUPCARD' or 'ready'"
)


@dataclass(frozen=True, slots=True)
class Move:
    """One move. ``cards`` are kept in the order written (play: sorted)."""

    kind: Kind
    cards: tuple[int, ...] = ()
    index: int = 0  # flip: 1-based position among the face-down cards

    @staticmethod
    def play(*cards: int) -> Move:
        return Move(PLAY, tuple(sorted(cards)))

    @staticmethod
    def parse(text: object) -> Move:
        """Read a move in the contract's notation; raise :class:`NotationError`."""
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a move: write one of {_FORMS}")
        words = text.replace(",", " ").split()
        if not words:
            raise NotationError(f"{text!r} is not a move: write one of {_FORMS}")
        verb = words[0].lower()
        rest = words[1:]
        if verb == "play":
            if not rest:
                raise NotationError(f"{text!r}: 'play' needs at least one card")
            return Move(PLAY, tuple(sorted(_cards(text, rest))))
        if verb == "flip":
            if len(rest) != 1 or not rest[0].isdigit() or int(rest[0]) < 1:
                raise NotationError(
                    f"{text!r}: write 'flip N' with N the face-down card's position, from 1"
                )
            return Move(FLIP, (), int(rest[0]))
        if verb == "pickup":
            if not rest:
                return Move(PICKUP)
            if rest[0].lower() != "with" or len(rest) < 2:
                raise NotationError(f"{text!r}: write 'pickup' or 'pickup with CARD'")
            return Move(PICKUP, tuple(sorted(_cards(text, rest[1:]))))
        if verb == "swap":
            if len(rest) != 2:
                raise NotationError(
                    f"{text!r}: write 'swap HANDCARD FACEUPCARD', two cards"
                )
            return Move(SWAP, _cards(text, rest))
        if verb == "ready":
            if rest:
                raise NotationError(f"{text!r}: 'ready' takes nothing after it")
            return Move(READY)
        raise NotationError(f"{text!r} is not a move: write one of {_FORMS}")

    def __str__(self) -> str:
        if self.kind == FLIP:
            return f"flip {self.index}"
        if self.kind == PICKUP:
            if self.cards:
                return "pickup with " + " ".join(card_str(c) for c in self.cards)
            return "pickup"
        if self.kind == READY:
            return "ready"
        return self.kind + " " + " ".join(card_str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def _cards(text: str, words: list[str]) -> tuple[int, ...]:
    out = []
    for w in words:
        try:
            out.append(parse_card(w))
        except NotationError:
            raise NotationError(f"{text!r}: {w!r} is not a card") from None
    return tuple(out)
