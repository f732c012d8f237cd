"""Reasons, events and zones: the engine's vocabulary as enums, at the bottom of the layers.

A :class:`Reason` is why a move is legal or not (``legal`` is derived from the code, so a
verdict's code and its legality can never disagree). An :class:`Event` is what a move sets
off, in the contract's words; events and zones are ``str`` enums, so they compare equal to
the contract's strings (``Event.BURN == "burn"``) and print as them.

>>> Reason.TOO_LOW.legal, Reason.BEATS.legal
(False, True)
>>> Event.BURN == "burn", str(Zone.FACE_UP)
(True, 'face_up')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


class Reason(Enum):
    """Why a move is legal or not. ``legal`` is derived from the code."""

    # legal
    EMPTY = "EMPTY"
    BEATS = "BEATS"
    MATCHES = "MATCHES"
    ANYWHERE = "ANYWHERE"
    RESET = "RESET"
    UNDER_LIMIT = "UNDER_LIMIT"
    UNBEATABLE_OK = "UNBEATABLE_OK"
    FOUR_ANYTIME = "FOUR_ANYTIME"
    PICKUP_OK = "PICKUP_OK"
    FLIP_OK = "FLIP_OK"
    SWAP_OK = "SWAP_OK"
    READY_OK = "READY_OK"
    PLACE_OK = "PLACE_OK"
    DEFLECT = "DEFLECT"
    RUN = "RUN"
    GAMBLE_OK = "GAMBLE_OK"
    SLIDE_OK = "SLIDE_OK"
    CALL_OK = "CALL_OK"
    # illegal
    TOO_LOW = "TOO_LOW"
    OVER_LIMIT = "OVER_LIMIT"
    NOT_ON = "NOT_ON"
    UNBEATABLE = "UNBEATABLE"
    MIXED_RANKS = "MIXED_RANKS"
    NOT_HELD = "NOT_HELD"
    WRONG_ZONE = "WRONG_ZONE"
    MUST_FLIP = "MUST_FLIP"
    EMPTY_PILE = "EMPTY_PILE"
    MUST_PLAY = "MUST_PLAY"
    PICKUP_NEEDS_CARD = "PICKUP_NEEDS_CARD"
    PICKUP_WITH_NOT_HERE = "PICKUP_WITH_NOT_HERE"
    FLIP_NOT_YET = "FLIP_NOT_YET"
    FLIP_RANGE = "FLIP_RANGE"
    SETUP_ONLY = "SETUP_ONLY"
    NOT_SETUP = "NOT_SETUP"
    GAME_OVER = "GAME_OVER"
    FORCED_PICKUP = "FORCED_PICKUP"
    NOT_A_RUN = "NOT_A_RUN"
    RUN_STEP = "RUN_STEP"
    NO_SWAP = "NO_SWAP"
    BAD_SWAP = "BAD_SWAP"
    NO_GAMBLE = "NO_GAMBLE"
    NO_SLIDE = "NO_SLIDE"
    WHOLE_STACK = "WHOLE_STACK"
    SETUP_COUNT = "SETUP_COUNT"
    OPENING = "OPENING"
    NOT_LEADER = "NOT_LEADER"
    NEEDS_CLAIM = "NEEDS_CLAIM"
    CLAIM_NOT_HERE = "CLAIM_NOT_HERE"
    COUNT = "COUNT"
    NO_CALL = "NO_CALL"
    BLUFF_NO_PICKUP = "BLUFF_NO_PICKUP"

    legal: bool  # set on each member below (an attribute: read on every move judged)


REASONS = {r.value: r for r in Reason}  # a placement cell's code -> its Reason
_LEGAL = frozenset({Reason.EMPTY, Reason.BEATS, Reason.MATCHES, Reason.ANYWHERE, Reason.RESET,
                    Reason.UNDER_LIMIT, Reason.UNBEATABLE_OK, Reason.FOUR_ANYTIME,
                    Reason.PICKUP_OK, Reason.FLIP_OK, Reason.SWAP_OK, Reason.READY_OK,
                    Reason.PLACE_OK, Reason.DEFLECT, Reason.RUN, Reason.GAMBLE_OK, Reason.SLIDE_OK,
                    Reason.CALL_OK})
for _r in Reason:
    _r.legal = _r in _LEGAL
del _r


class Event(StrEnum):
    """What a move sets off, in the contract's vocabulary (plus ``swap`` and ``caught``)."""

    BURN = "burn"
    REVERSE = "reverse"
    SKIP = "skip"
    PLAY_AGAIN = "play_again"
    PICKUP = "pickup"
    DRAW = "draw"
    OUT = "out"
    GAME_OVER = "game_over"
    SWAP = "swap"  # a swap a play set off (Tauko Hogni's 8, Gaz and Elf's pairs and triples)
    CAUGHT = "caught"  # Bluff: a called claim was a lie


class Zone(StrEnum):
    """Where a player plays from now: the hand, the face-up cards, the face-down cards, or none (out)."""

    HAND = "hand"
    FACE_UP = "face_up"
    FACE_DOWN = "face_down"
    NONE = "none"


@dataclass(frozen=True)
class Top:
    """What the next play must answer: the effective top rank, and what lies above it."""

    rank: int  # EMPTY for an empty pile (or only transparent cards on it)
    looked_through: tuple[int, ...]  # ranks of the transparent cards above it, top first
    free: str = ""  # the fragment that lets any card follow (Guarducci's joker with two players)
    count: int = 0  # Bluff: how many cards the next play must be (a claimed double or triple on top), else 0
