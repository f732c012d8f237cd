"""The one engine: ``check``, ``legal_moves`` and ``apply`` over the immutable table.

The public names live here; :mod:`tutor.engine.facade` holds the judge, the move
generator and the move applier.
"""

from tutor.engine.facade import (
    BURN,
    DRAW,
    FACE_DOWN,
    FACE_UP,
    GAME_OVER,
    HAND,
    NONE,
    OUT,
    PICKED_UP,
    PLAY_AGAIN,
    REVERSE,
    SKIP,
    IllegalMoveError,
    Reason,
    Top,
    Verdict,
    apply,
    apply_unchecked,
    check,
    effective_top,
    first_player,
    game_over,
    is_legal,
    judge,
    legal_moves,
    loser,
    opening_lead,
    top_rank,
    top_run,
    zone_of,
)

__all__ = [
    "BURN", "DRAW", "FACE_DOWN", "FACE_UP", "GAME_OVER", "HAND", "NONE", "OUT", "PICKED_UP",
    "PLAY_AGAIN", "REVERSE", "SKIP", "IllegalMoveError", "Reason", "Top", "Verdict", "apply",
    "apply_unchecked", "check", "effective_top", "first_player", "game_over", "is_legal", "judge",
    "legal_moves", "loser", "opening_lead", "top_rank", "top_run", "zone_of",
]
