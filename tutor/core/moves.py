"""Moves as value objects, and their notation.

>>> Move.parse("play 7h 7s")
Move.parse('play 7H 7S')
>>> str(Move.parse("PICKUP with 5h"))
'pickup with 5H'
>>> Move.parse("slide 3c by B")
Move.parse('slide 3C by B')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tutor.core.cards import card_str, claim_for, claim_str, parse_card, parse_claim, rank_index
from tutor.core.errors import NotationError, excerpt

Kind = Literal["play", "flip", "pickup", "swap", "ready", "place", "gamble", "slide", "call"]
PLAY: Kind = "play"
FLIP: Kind = "flip"
PICKUP: Kind = "pickup"
SWAP: Kind = "swap"
READY: Kind = "ready"
PLACE: Kind = "place"
GAMBLE: Kind = "gamble"
SLIDE: Kind = "slide"
CALL: Kind = "call"

_FORMS = (
    "'play CARD [CARD ...]', 'flip N', 'pickup', 'pickup with CARD [CARD ...]', "
    "'swap HANDCARD FACEUPCARD', 'place CARD', 'ready', 'gamble', 'slide CARD [by PLAYER]', "
    "'play CARD ... as RANK' or 'call'"
)


@dataclass(frozen=True, slots=True)
class Move:
    """One move. ``cards`` are kept in the order written (play: sorted)."""

    kind: Kind
    cards: tuple[int, ...] = ()
    index: int = 0  # flip: 1-based position among the face-down cards; swap from a hand: position
    give: int = -1  # a swap after the play: the hand card given
    take: int = -1  # ... and the face-up card taken (-1: a blind card from a hand)
    target: str = ""  # ... from this player ("" for one's own face-up cards); slide: the slider ("": the mover)
    claim: int = -1  # bluff: the rank claimed for a face-down play

    @staticmethod
    def play(*cards: int) -> Move:
        return Move(PLAY, tuple(sorted(cards)))

    @staticmethod
    def parse(text: object) -> Move:
        """Read a move in the contract's notation; raise :class:`NotationError`."""
        if not isinstance(text, str):
            raise NotationError(f"{excerpt(text)} is not a move: write one of {_FORMS}")
        if len(text) > MAX_MOVE:
            raise NotationError(f"{excerpt(text)}: a move is at most {MAX_MOVE} characters")
        words = text.replace(",", " ").split()
        if not words:
            raise NotationError(f"{text!r} is not a move: write one of {_FORMS}")
        verb = words[0].lower()
        rest = words[1:]
        if verb == "play":
            if not rest:
                raise NotationError(f"{text!r}: 'play' needs at least one card")
            low = [w.lower() for w in rest]
            if len(rest) >= 3 and low[-2] == "as" and not _is_card(rest[-1]):
                # a bluff claim: 'play 7H as Q' ('AS' alone is the ace of spades)
                try:
                    claim = parse_claim(rest[-1])
                except NotationError as e:
                    if "-" in rest[-1] or "x" in rest[-1].lower():
                        raise NotationError(f"{text!r}: {e}") from None
                    raise NotationError(f"{text!r}: {rest[-1]!r} is not a rank") from None
                cards = tuple(sorted(_cards(text, rest[:-2])))
                return Move(PLAY, cards, claim=claim_for(claim, len(cards)))
            if "swap" in low:
                k = low.index("swap")
                cards = tuple(sorted(_cards(text, rest[:k])))
                return _swap_after(text, cards, rest[k + 1:])
            return Move(PLAY, tuple(sorted(_cards(text, rest))))
        if verb == "flip":
            claim = -1
            if len(rest) == 3 and rest[1].lower() == "as":
                try:
                    claim = rank_index(rest[2])
                except NotationError:
                    raise NotationError(f"{text!r}: {rest[2]!r} is not a rank") from None
                rest = rest[:1]
            n = _position(rest[0]) if len(rest) == 1 else None
            if n is None:
                raise NotationError(
                    f"{text!r}: write 'flip N' with N the face-down card's position, from 1"
                )
            return Move(FLIP, (), n, claim=claim)
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
        if verb in ("ready", "gamble", "call"):
            if rest:
                raise NotationError(f"{text!r}: {verb!r} takes nothing after it")
            return Move({"ready": READY, "gamble": GAMBLE, "call": CALL}[verb])
        if verb == "slide" and len(rest) == 3 and rest[1].lower() == "by":
            # out of turn: 'slide 3C by B' (Nortenos' threes slide whoever's turn it is)
            return Move(SLIDE, _cards(text, rest[:1]), target=rest[2])
        if verb in ("place", "slide"):
            if len(rest) != 1:
                raise NotationError(f"{text!r}: write '{verb} CARD'" + (" or 'slide CARD by PLAYER'" if verb == "slide" else ""))
            return Move(PLACE if verb == "place" else SLIDE, _cards(text, rest))
        raise NotationError(f"{text!r} is not a move: write one of {_FORMS}")

    def __str__(self) -> str:
        if self.kind == FLIP:
            return f"flip {self.index}" + (f" as {claim_str(self.claim)}" if self.claim >= 0 else "")
        if self.kind == PICKUP:
            if self.cards:
                return "pickup with " + " ".join(card_str(c) for c in self.cards)
            return "pickup"
        if self.kind in (READY, GAMBLE, CALL):
            return self.kind
        text = self.kind + " " + " ".join(card_str(c) for c in self.cards)
        if self.kind == SLIDE and self.target:
            return f"{text} by {self.target}"
        if self.claim >= 0:
            text += " as " + claim_str(self.claim)
        if self.give >= 0:
            text += " swap " + card_str(self.give)
            if self.take >= 0:
                text += " for " + card_str(self.take)
            if self.target:
                text += " from " + self.target
            if self.take < 0 and self.index:
                text += f" {self.index}"
        return text

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def _swap_after(text: str, cards: tuple[int, ...], words: list[str]) -> Move:
    """``swap 4H from C [N]`` (a blind card from C's hand), ``swap 4H for 9S [from C]`` (a face-up card)."""
    form = f"{text!r}: write '... swap HANDCARD from PLAYER [N]' or '... swap HANDCARD for FACEUPCARD [from PLAYER]'"
    if len(words) < 3:
        raise NotationError(form)
    give = _cards(text, words[:1])[0]
    how = words[1].lower()
    if how == "from":
        target = words[2]
        index = 0
        if len(words) == 4 and _position(words[3]) is not None:
            index = _position(words[3]) or 0
        elif len(words) != 3:
            raise NotationError(form)
        return Move(PLAY, cards, index=index, give=give, target=target)
    if how == "for":
        take = _cards(text, words[2:3])[0]
        if len(words) == 3:
            return Move(PLAY, cards, give=give, take=take)
        if len(words) == 5 and words[3].lower() == "from":
            return Move(PLAY, cards, give=give, take=take, target=words[4])
    raise NotationError(form)


MAX_MOVE = 400  # characters: sixty cards and more fit


def _position(word: str) -> int | None:
    """A 1-based position written in ASCII digits (at most three), or None."""
    if not (word.isascii() and word.isdigit()) or len(word) > 3 or int(word) < 1:
        return None
    return int(word)


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except NotationError:
        return False
    return True


def _cards(text: str, words: list[str]) -> tuple[int, ...]:
    out = []
    for w in words:
        try:
            out.append(parse_card(w))
        except NotationError:
            raise NotationError(f"{text!r}: {w!r} is not a card") from None
    return tuple(out)
