"""The errors the tutor raises, all under one base class.

    TutorError                 anything the user gave us that we cannot use
    ├── NotationError          a card or a move that cannot be read
    ├── TableError             a table that cannot be read or is impossible
    └── VariantError           a variant spec, fragment or preset that cannot be used

An illegal move is not an error: it is a :class:`tutor.engine.Verdict` with
``legal`` false. Every message is one line that says what is wrong and where,
quoting the input with ``!r``.
"""

from __future__ import annotations


class TutorError(ValueError):
    """Base class of every error the tutor raises on bad input."""


class NotationError(TutorError):
    """A card or move that cannot be read."""


class TableError(TutorError):
    """A table file that cannot be read, or describes an impossible position."""


class VariantError(TutorError):
    """A variant spec, fragment or preset that cannot be loaded or combined."""
