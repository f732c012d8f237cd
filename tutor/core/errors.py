"""The errors the tutor raises, all under one base class.

    TutorError                 anything the user gave us that we cannot use
    ├── NotationError          a card or a move that cannot be read
    ├── TableError             a table that cannot be read or is impossible
    ├── VariantError           a variant spec, fragment or preset that cannot be used
    ├── CompareError           variants that cannot be compared as asked
    ├── ShareError             a shared question (a link's ``q``) that cannot be read
    └── IllegalMoveError       ``apply`` given a move that ``check`` finds illegal

An illegal move is not an error: it is a :class:`tutor.engine.Verdict` with
``legal`` false. Every message is one line that says what is wrong and where,
quoting the input with ``!r``.
"""

from __future__ import annotations

MAX_MESSAGE = 500  # characters: a message quotes input in short excerpts, never whole


class TutorError(ValueError):
    """Base class of every error the tutor raises on bad input (one line, at most
    :data:`MAX_MESSAGE` characters)."""

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            msg = " ".join(args[0].split("\n"))
            args = (msg if len(msg) <= MAX_MESSAGE else msg[: MAX_MESSAGE - 1] + "…",)
        super().__init__(*args)


class NotationError(TutorError):
    """A card or move that cannot be read."""


class TableError(TutorError):
    """A table file that cannot be read, or describes an impossible position."""


class VariantError(TutorError):
    """A variant spec, fragment or preset that cannot be loaded or combined."""


class CompareError(TutorError):
    """Variants that cannot be compared as asked (too few, no common number of players...)."""


def excerpt(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for quoting user input in a message."""
    text = repr(value[: limit + 1]) if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ShareError(TutorError):
    """A shared question (a link's ``q`` parameter) that cannot be read."""


class IllegalMoveError(TutorError):
    """``apply`` was given a move that ``check`` finds illegal."""
