"""Comparing variants: what differs, where verdicts differ, and what that does to play.

Four answers, each plain data (the page and ``tutor compare`` only lay them out):

1. :func:`slot_rows`: the rules slot by slot, one fragment per variant, differing slots marked.
2. :func:`difference_grid`: the play-on matrices' disagreements (the matrices and diagrams
   themselves are :mod:`tutor.rules.matrix`'s).
3. :func:`find_disagreements`: positions from seeded games where the same move is legal in
   one variant and not in another, or is legal in all but sets off different events (a burn,
   a reversal, playing again, a draw) or hands the turn to a different player. One example
   per kind of difference, shrunk to the fewest cards that still show it.
4. :func:`play_stats`: the variants played by the same bots on the same deals, seats
   rotated, with 95% intervals; a process pool plays the games.

The modules, by layer (each imports only those above it in this list):

* :mod:`tutor.compare.common`: the variants asked for, column names, lists in words;
* :mod:`tutor.compare.slots`: the rules side by side (1 and 2);
* :mod:`tutor.compare.games`: one game at a time, deals with seats rotated; the only module
  that asks the engine and the game runner to play;
* :mod:`tutor.compare.stats`: what the games say (intervals from :mod:`tutor.core.stats`,
  shared with the advisor);
* :mod:`tutor.compare.disagreements`: where the verdicts differ (3);
* :mod:`tutor.compare.batch`: many games, here or in worker processes (4);
* :mod:`tutor.compare.report`: all of it, as ``tutor compare`` prints it.

>>> rows = slot_rows([load_variant("pagat"), load_variant("lancaster")])
>>> [r.slot for r in rows if r.differs][:3]
['deal', 'first-player', 'pickup-choice']
"""

from __future__ import annotations

from tutor.compare.batch import (
    DEFAULT_GAMES,
    DEFAULT_OBSERVE,
    ENGINE_GAMES,
    Finished,
    Job,
    Progress,
    close_shared_pool,
    common_players,
    play_stats,
    run_job,
    shared_pool,
)
from tutor.compare.common import column_names, load_variants
from tutor.compare.disagreements import (
    EVENTS,
    KIND_WORDS,
    LEGALITY,
    NEXT,
    Disagreement,
    Search,
    common_pack,
    differing_fragments,
    find_disagreements,
    judge_all,
    search_note,
)
from tutor.compare.games import (
    DEFAULT_BOT,
    MAX_TURNS,
    REPEATS,
    GameRecord,
    engine_game,
    fast,
    move_class,
    play_games,
    real_choice,
    rotated_start,
)
from tutor.compare.report import Comparison, compare, table_line
from tutor.compare.slots import (
    GridDifference,
    SlotCell,
    SlotRow,
    difference_frame,
    difference_grid,
    grid_lines,
    slot_frame,
    slot_rows,
)
from tutor.compare.stats import METRICS, PlayStats, VariantStats, histogram, length_bins, summarize
from tutor.core.errors import CompareError
from tutor.core.stats import Interval, mean_difference, mean_interval, proportion_difference, wilson
from tutor.rules.variant import load_variant

__all__ = [
    "DEFAULT_BOT", "DEFAULT_GAMES", "DEFAULT_OBSERVE", "ENGINE_GAMES", "EVENTS", "KIND_WORDS", "LEGALITY",
    "MAX_TURNS", "METRICS", "NEXT", "REPEATS", "CompareError", "Comparison", "Disagreement", "GameRecord",
    "GridDifference", "Finished", "Interval", "Job", "Search", "PlayStats", "Progress", "SlotCell", "SlotRow", "VariantStats",
    "close_shared_pool", "column_names", "common_pack", "common_players", "compare", "difference_frame", "difference_grid",
    "differing_fragments", "engine_game", "fast", "find_disagreements", "grid_lines", "histogram",
    "judge_all", "length_bins", "load_variant", "load_variants", "mean_difference", "mean_interval",
    "move_class", "play_games", "play_stats", "proportion_difference", "real_choice", "rotated_start", "run_job", "shared_pool",
    "search_note", "slot_frame", "slot_rows", "summarize", "table_line", "wilson",
]
