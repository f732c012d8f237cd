"""The one engine: ``check``, ``legal_moves`` and ``apply`` over the immutable table.

The public names live here. :mod:`tutor.engine.position` is the engine itself (a mutable
position: the judge, the move generator, pushing moves); :mod:`tutor.engine.facade` asks it
about immutable tables and dresses the answers in words.
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
    opening_leader,
    position,
    position_of,
    remember,
    top_rank,
    top_run,
    winner,
    zone_of,
)
from tutor.engine.position import Position, claim_true, count_lie

__all__ = [
    "BURN", "DRAW", "FACE_DOWN", "FACE_UP", "GAME_OVER", "HAND", "NONE", "OUT", "PICKED_UP",
    "PLAY_AGAIN", "Position", "REVERSE", "SKIP", "IllegalMoveError", "Reason", "Top", "Verdict", "apply",
    "apply_unchecked", "check", "claim_true", "count_lie", "effective_top", "first_player", "game_over", "is_legal", "judge",
    "legal_moves", "loser", "opening_lead", "opening_leader", "position", "position_of", "remember", "top_rank", "top_run", "winner", "zone_of",
]
