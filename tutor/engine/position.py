"""The one engine: a mutable position that moves are pushed onto.

A :class:`Position` holds a game as small mutable parts (python-chess's ``Board``, pgx's
state): each hand is one ``int``, a multiset of cards (card ``c`` owns ``w`` bits at
``c * w``, jokers and unseen cards the top bits), with per rank the number of distinct
plays that hand allows; the pile is a list; the face-up stacks, face-down cards, the stock, who
is out and who is ready are tuples (a copy shares them: a push puts a new one in place); the
effective top of the pile, the run of equal cards on top and the count of rank-reversing
cards are kept as the pile grows. Every rule is read from one compiled table per variant
(:class:`Rules`, built from the :class:`~tutor.rules.variant.Variant`).

The position answers every question the game asks, for every preset and fragment:

* :meth:`Position.judge` decides a move: a :class:`~tutor.core.reasons.Reason`, the
  fragments that decided, and typed context for the sentence;
* :meth:`Position.moves` lists the legal moves (in the order the contract's ``moves``
  prints them); :meth:`Position.count_moves` and :meth:`Position.nth_move` count them and
  pick one without listing them all where the rules allow (random bots);
* :meth:`Position.push` makes a move and returns its :class:`~tutor.core.reasons.Event`\\ s
  (``causes`` then holds the fragment behind each event); :meth:`Position.copy` is the
  cheap copy a search pushes on.

:mod:`tutor.engine.facade` wraps it for the immutable :class:`~tutor.core.table.Table`:
``Position.of(table, v)``, ask, :meth:`Position.snapshot`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import combinations
from math import comb
from operator import itemgetter
from typing import Literal, TypeVar, overload

from tutor.core.cards import (
    EMPTY,
    JOKER,
    JOKER_RANK,
    N_RANKS,
    RUN_CLAIM,
    SET_COUNTED,
    UNKNOWN,
    claim_count,
    claim_for,
    claim_ranks,
    claim_str,
    claim_top,
    is_red,
    run_claim,
)
from tutor.core.errors import TutorError
from tutor.core.moves import CALL, FLIP, GAMBLE, PICKUP, PLACE, PLAY, READY, SLIDE, SWAP, Kind, Move
from tutor.core.reasons import REASONS, Event, Reason, Top, Zone
from tutor.core.table import CLOCKWISE, Play, Player, Table
from tutor.rules.variant import Cell, Variant

HAND, FACE_UP, FACE_DOWN, NONE = Zone.HAND, Zone.FACE_UP, Zone.FACE_DOWN, Zone.NONE
BURN, REVERSE, SKIP, PLAY_AGAIN = Event.BURN, Event.REVERSE, Event.SKIP, Event.PLAY_AGAIN
PICKED_UP, DRAW, OUT, GAME_OVER = Event.PICKUP, Event.DRAW, Event.OUT, Event.GAME_OVER
SWAPPED, CAUGHT = Event.SWAP, Event.CAUGHT

Ctx = dict[str, object]
Judged = tuple[Reason, tuple[str, ...], Ctx]
Laid = tuple[tuple[int, ...], int, int]  # a play on the pile: (cards, by, claim)
Pick = tuple[tuple[int, ...], int]  # a play of the hand's cards: (cards, their multiset)
Cells = tuple[tuple[Cell, ...], ...]
BluffPlays = list[tuple[Sequence["_Claimed"], int]]  # see Position._bluff_plays
Said = tuple[list[list[int]], tuple[int, ...], int, list[int], dict[int, list[tuple[int, int, int]]], list[int], list[int]]  # see Position._claims
SwapForm = tuple[int, tuple[tuple[int, int, int], ...], tuple[tuple[int, tuple[str, str] | None, int, int], ...],
                 list[tuple[tuple[int, ...], int, int]]]  # see Position._swap_form
SwapCounts = tuple[int, list[int] | None, dict[int, SwapForm] | None, int, list[int]]  # see Position.swap_counts
UpsSeen = tuple[object, tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...],
                tuple[tuple[int, int, int, int], ...]]  # see Position._ups_swaps
SwapPart = tuple[tuple[tuple[int, ...], int, int], tuple[str, str] | None, int, int, int, int]  # see Position.push_swap_at
T = TypeVar("T")


# -- the variant, compiled ----------------------------------------------------------

BLUFF_CLAIMS, SWAPS, ANYTIME = 1, 2, 3  # how a variant's plays are counted beyond one lookup per rank
_SEES, _REVERSES = 1, 2  # what Position.push_cards asks further of a rank's play (bits of Rules.lay)


class Rules:
    """One variant's rules as tuples of ints and bools: what the position reads. Built once
    per variant from its :class:`~tutor.rules.variant.Variant` (:func:`rules_of`)."""

    __slots__ = ("v", "place", "cells", "cells_rev", "ranks_at", "nib_masks", "get_at", "count_at", "transparent", "alone_self",
                 "counts", "first_top", "burn", "reverse", "skip", "play_again", "effects", "free_with_two",
                 "four_burns", "four_anytime", "voluntary", "pick_fids", "pickups_at", "after", "adds", "combo", "winner",
                 "refill", "force", "force_once", "deflect", "reversal", "extras", "bluff", "plain", "plain_plays",
                 "origin", "setup", "setup_count", "setup_fid", "first_player", "first_fid", "burn_fid", "rev_fid",
                 "skip_fid", "again_fid", "four_fid", "draw_fid", "goal_fid", "after_fid", "transparent_skip",
                 "countable", "ranks_rev", "get_rev", "any_transparent", "counting", "swap_rules", "claims",
                 "resets", "see_skip", "lay", "four_at", "up_plays", "bluff_plays", "bluff_fid", "run_reach",
                 "run_spans", "run_masks", "more", "swap_forms", "lone_swaps", "swap_adds", "swap_tops", "swap_ranks",
                 "swap_count", "swap_none", "swap_nibs", "swap_own", "swap_flags", "swap_own_ranks", "swap_flagged",
                 "fours_at", "fours_rev", "free_two", "plain_mostly", "now_and_then", "plain_then", "lookup",
                 "plain_runs", "plain_swaps", "run_free", "fast_hand", "judged", "own_hand", "top_kept")

    def __init__(self, v: Variant) -> None:
        self.v = v
        self.place = v.place
        self.cells = v.cells
        self.cells_rev = v.cells_rev
        self.ranks_at = tuple(tuple(r for r in range(N_RANKS) if v.place[top][r]) for top in range(EMPTY + 1))
        # one pack: per top, the bits of a hand's fields of the ranks that may go on it (:meth:`Position.moves`)
        self.nib_masks = tuple(sum(15 << 4 * r for r in ranks) for ranks in self.ranks_at)
        self.get_at: tuple[Callable[[list[int]], tuple[int, ...]], ...] = tuple(
            _getter(ranks) for ranks in self.ranks_at)
        # per top, a hand's plays that may go on it, from its play counts (``subs``): random play
        # asks before every move (:func:`~tutor.play.game._run_random`), so each is one expression
        # made for its top (:func:`_adder`), not a getter's tuple added up
        self.count_at: tuple[Callable[[list[int]], int], ...] = tuple(_adder(ranks) for ranks in self.ranks_at)
        self.transparent = v.transparent
        self.alone_self = v.alone_self
        self.counts = v.counts
        # the effective top once a rank lies alone on the pile
        self.first_top = tuple(v.counts[r] if not v.transparent[r] else (r if v.alone_self[r] else EMPTY)
                               for r in range(N_RANKS))
        self.burn, self.reverse, self.skip, self.play_again = v.burn, v.reverse, v.skip, v.play_again
        self.effects = tuple(bool(v.burn[r] or v.reverse[r] or v.skip[r] or v.play_again[r]) for r in range(N_RANKS))
        self.free_with_two = v.free_with_two
        self.four_burns = v.four_burns or 0
        self.four_anytime = v.setting_origin("four_anytime")
        self.voluntary = v.voluntary_pickup
        self.pick_fids = (v.setting_origin("voluntary_pickup") or "core",)  # what decides a pickup by choice
        # how many pickups the player to move may choose, by [a pile lies][some play is legal]
        # (each 0 or 1): one whenever a pile lies where a player may pick up by choice, else
        # only with no play
        self.pickups_at = ((0, 0), (1, 1 if v.voluntary_pickup else 0))
        self.after = v.after_pickup
        self.adds = v.face_up_pickup_adds
        self.combo = v.final_card_combo
        self.winner = v.goal == "winner"
        self.refill = v.refill
        self.force, self.force_once, self.deflect = v.force, v.force_once, v.deflect
        self.reversal = v.reversal
        self.extras, self.bluff = v.extras, v.bluff
        # the moves that change the mover's hand alone (Position.pushed copies only its counts): none
        # in Bluff (one test of the move's kind, not a second of the variant, at every copy)
        self.own_hand = frozenset() if v.bluff else _OWN_HAND
        # the plain game: a play's legality is one lookup, so plays can be counted without listing
        self.plain = not (v.extras or v.bluff or self.four_anytime)
        # the plays are still the plain game's where the only extras act after a play (face-up
        # cards to the hand) or at the setup (stacks): one lookup at ``top``, plays and a pickup
        self.plain_plays = self.plain or not (
            v.bluff or self.four_anytime or v.reversal >= 0 or v.force >= 0 or v.runs or v.swaps or v.gamble
            or v.slide >= 0 or any(v.free_with_two))
        # and so too but now and then (:meth:`Position.plain_now`): while a forced pickup waits
        # (the superjoker, and the jacks that pass it on), with four of a kind or more of a rank
        # that may not go, the final-card combo within reach, a gamble or a slide to make (not
        # with runs: most hands hold one, and they are counted apart)
        self.plain_mostly = not (v.bluff or v.reversal >= 0 or v.swaps or v.runs or any(v.free_with_two))
        self.now_and_then = bool(v.force >= 0 or self.four_anytime or self.combo or v.gamble or v.slide >= 0)
        # the plays are the plain game's and runs, from every hand of known cards past the opening
        # (:meth:`Position.plain_runs`)
        self.plain_runs = bool(v.runs) and not (v.bluff or v.swaps or self.now_and_then)
        # then, are the moves the plain game's (:meth:`Position.plain_then`; random play asks before
        # most moves): where the variant has one such rule, a check of that one alone
        self.plain_then: Callable[[Position], bool] = _then_check(v, self)
        # beyond it, still one lookup per rank (with the matrix in force; four of a kind anytime
        # are the plays of four cards or more, a suffix of each rank's plays), so still countable;
        # runs are listed apart, after the plays
        # swaps: each play stands for itself and its swaps, which are counted, not listed
        # Bluff: each play of n cards stands for one move per rank it may be claimed as
        self.countable = not (v.swaps and self.four_anytime)
        # a play of one rank from the hand, once held, is judged by one cell of the play-on table
        # (no reversed table, free play, four of a kind anytime or final-card combo bears on it)
        self.lookup = not (v.extras or self.four_anytime)
        # the plays from the face-up cards, by the effective top and the face-up stacks, where
        # nothing else bears on them (no claims, swaps, runs, reversed table, four of a kind
        # anytime or Guarducci's joker): listed once (:meth:`Position.moves`)
        self.up_plays: dict[tuple[object, ...], tuple[Move, ...]] | None = None if (
            v.bluff or v.swaps or self.four_anytime or v.runs or v.reversal >= 0 or any(v.free_with_two)) else {}
        # how plays are counted: by rank (0), or with claims, swaps or four of a kind anytime
        self.counting = BLUFF_CLAIMS if v.bluff else SWAPS if v.swaps else ANYTIME if self.four_anytime else 0
        # the plays are counted with their swaps and nothing else (:meth:`Position.swap_counts`: Tauko Hogni)
        self.plain_swaps = self.counting == SWAPS and not (v.runs or v.gamble or v.slide >= 0)
        self.ranks_rev = tuple(tuple(r for r in range(N_RANKS) if v.place_rev[top][r]) for top in range(EMPTY + 1))
        self.get_rev: tuple[Callable[[list[int]], tuple[int, ...]], ...] = tuple(
            _getter(ranks) for ranks in self.ranks_rev)
        # four of a kind anytime: per top, the ranks that may not go but as four or more, and their getter
        self.fours_at = _fours_at(v.cells, bool(self.four_anytime))
        self.fours_rev = _fours_at(v.cells_rev, bool(self.four_anytime))
        self.origin = v.origin
        self.setup, self.setup_count = v.setup, v.setup_count
        self.setup_fid = v.setting_origin("setup") or "core"
        self.first_player = v.first_player
        self.first_fid = v.setting_origin("first_player") or "core"
        # the fragment behind each event, per rank where a rank's power sets it off
        self.burn_fid = tuple(o.get("burn", "") for o in v.origin)
        self.rev_fid = tuple(o.get("reverse", "") for o in v.origin)
        self.skip_fid = tuple(o.get("skip", "") for o in v.origin)
        self.again_fid = tuple(o.get("play_again", "") for o in v.origin)
        self.four_fid = v.setting_origin("four_burns")
        self.draw_fid = v.setting_origin("refill") or v.setting_origin("hand")
        self.goal_fid = v.setting_origin("goal") or "core"
        self.after_fid = v.setting_origin("after_pickup")
        self.transparent_skip = any(v.transparent) and any(v.skip)  # a see-through card may skip
        self.any_transparent = any(v.transparent)
        # where nothing is transparent, the judge's answer to a held play of one rank from the hand
        # (Position.judge), per kept top and rank, by number of cards: made once; read by the
        # play's first card (each card's entry its rank's row, the unseen card's, index -1, the
        # last rank's: as ``_RANK_OF`` reads it)
        by_rank: list[tuple[dict[int, Judged], ...]] = [tuple({} for _ in range(N_RANKS)) for _ in range(EMPTY + 1)]
        self.judged: tuple[tuple[dict[int, Judged], ...], ...] = tuple(
            tuple(map(rows.__getitem__, _RANK_OF)) for rows in by_rank)
        # per rank: may a see-through card of it skip (it shows what lies beneath)
        self.see_skip = tuple(self.transparent_skip and v.transparent[r] for r in range(N_RANKS))
        # a run this long on top burns (else a bound no run reaches, small enough to be compared
        # as a one-digit int)
        self.four_at = self.four_burns or 1 << 20
        # per rank, what laying it does to what is kept of the pile (Position.push_cards):
        # (the top it makes on a pile, -1: it leaves the top as it is; the top it makes alone;
        # how long a run of it on top sets nothing off by itself: shorter than four_at where it
        # has no power of its own (a see-through card that may skip: then unless what it shows
        # beneath skips, which push_cards asks), else none; and what push_cards asks further of few
        # ranks, as bits (0 for most: one test): _SEES may skip as a see-through card, _REVERSES
        # reverses the play-on table)
        self.lay = tuple((-1 if v.transparent[r] else v.counts[r], self.first_top[r],
                          self.four_at if not self.effects[r] else 0,
                          (_SEES if self.see_skip[r] else 0) | (_REVERSES if r == v.reversal else 0))
                         for r in range(N_RANKS))
        self.swap_rules: dict[tuple[int, int], tuple[str, str] | None] = {}
        self.claims: dict[tuple[int, int, int], Said] = {}  # Bluff: Position._claims
        self.bluff_fid = v.setting_origin("bluff")
        self.free_two = any(v.free_with_two)
        # the effective top (Position.top_rank) is always the top kept as the pile grows: no claims
        # stand for it, and no joker's free play (Position._free_with_two) makes it empty
        self.top_kept = not (v.bluff or self.free_two)
        # swaps: per pack width, per rank, Position._swap_form of each field
        self.swap_forms: dict[int, tuple[dict[int, SwapForm], ...]] = {}
        self.lone_swaps = tuple(bool(v.swaps) and self.swap_rule(r, 1) is not None for r in range(N_RANKS))
        # one pack: added to a hand's cards counted per rank (4 bits each, the jokers' last), sets bit
        # 3 of each rank with enough cards for a play that swaps (8 less the fewest cards such a play
        # has): per set of the swap rules that allow a swap now (bit i: _SWAP_HOWS[i]; 7: all)
        self.swap_adds = tuple(sum(next((8 - n for n in range(1, 8) if (rule := self.swap_rule(r, n)) is not None
                                         and on >> _SWAP_HOWS.index(rule[0]) & 1), 0) << 4 * r
                                   for r in range(N_RANKS)) if v.swaps else 0 for on in range(8))
        # and the same test made with the play count, from a hand's bytes (Position.swap_counts: one
        # translate for both, most moves): per set of swap rules, per byte (two ranks' fields) the two
        # ranks' plays added up (as ``_BYTE_PLAYS``: at most 30, bits 0 to 4), with bit 5 (the lower
        # rank's field) or 6 (the higher's) set where the field holds enough cards for a play that
        # swaps by a rule of plays of its size (the fewest of any rank with no swap of its own: one
        # table for every byte); and the fields of the ranks with a swap of their own in force (a card
        # of theirs held is enough: Tauko Hogni's 8). The two, or-ed, are the key of the ranks whose
        # plays may swap (Position._flag_ranks; a rank with a swap of its own may come up where it
        # has no swap: Position.swap_counts then counts its swaps, none)
        self.swap_own_ranks = tuple(r for r in range(N_RANKS) if (r, 0) in v.swaps)
        self.swap_own = tuple(sum(15 << 4 * r for r in self.swap_own_ranks if adds >> 4 * r & 15)
                              for adds in self.swap_adds)
        self.swap_flags = tuple(_swap_flags(max((adds >> 4 * r & 15 for r in range(N_RANKS) if r not in self.swap_own_ranks),
                                                default=0)) for adds in self.swap_adds) if v.swaps else ()
        # swaps (Position.swap_counts): per table (as played, reversed: by the reversing count, where
        # there is a reversing card) and top, by its key (the top, plus _SWAP_REV on the reversed
        # table), the ranks that may go, their getter, and with one pack their fields in a hand
        # (4 bits each, the jokers' last); and the ranks alone (random play picks a play from them
        # where none swaps) and the fields alone (each move asks)
        self.swap_tops = tuple(
            (ranks, get, sum(15 << 4 * r for r in ranks)) for table, gets in (
                (self.ranks_at, self.get_at),
                (self.ranks_rev, self.get_rev) if v.reversal >= 0 else (self.ranks_at, self.get_at))
            for ranks, get in zip(table, gets, strict=True))
        self.swap_ranks = tuple(ranks for ranks, _, _ in self.swap_tops)
        self.swap_nibs = tuple(nibs for _, _, nibs in self.swap_tops)
        self.swap_flagged: dict[int, tuple[int, ...]] = {}  # Position._flag_ranks, by their flags
        # and per key, the plays of the ranks that may go added up, as ``count_at`` per top (:func:`_adder`)
        self.swap_count: tuple[Callable[[list[int]], int], ...] = tuple(_adder(ranks) for ranks in self.swap_ranks)
        # and per key, what Position.swap_counts gives where no play swaps (made once)
        self.swap_none: tuple[SwapCounts, ...] = tuple((key, None, None, 0, _NO_PER) for key in range(len(self.swap_tops)))
        self.more = bool(v.gamble) or v.slide >= 0  # moves listed after the plays (Position._extra_moves)
        self.run_reach: dict[int, tuple[int, ...]] = {}  # runs: Position._run_reach
        self.run_spans: dict[int, tuple[tuple[int, int], ...]] = {}  # and Position._run_spans
        self.run_masks: dict[int, tuple[int, ...]] = {}  # Position._run_masks
        # may a card of a run give a free play (Guarducci's joker, with two players: never in a run)
        self.run_free = bool(v.extras) and any(v.free_with_two[:13])
        # the plays from the hand are counted, with no Bluff or forced pickup to ask about
        # (:meth:`Position.fast`)
        self.fast_hand = self.countable and not (v.bluff or v.force >= 0)
        self.bluff_plays: dict[object, tuple[BluffPlays, list[int], int]] = {}  # Bluff: Position._bluff_plays
        # per top rank: does some card reset the pile on it (Bluff: then any number may follow)
        self.resets = tuple(any(v.cells[top][r][1] == "RESET" for r in range(13)) for top in range(EMPTY + 1))

    def swap_rule(self, rank: int, n: int) -> tuple[str, str] | None:
        """The swap a play of ``n`` cards of ``rank`` sets off ((how, fragment)), or None: the
        rank's own swap, else the swap of plays of that size (Tauko Hogni: an 8; a pair)."""
        key = (rank, n)
        if key in self.swap_rules:
            return self.swap_rules[key]
        swaps = self.v.swaps
        got = self.swap_rules[key] = swaps.get((rank, 0)) or swaps.get((-1, n))
        return got


_SWAP_FLAGS: dict[int, bytes] = {}  # (_swap_flags, by the add)


def _swap_flags(least: int) -> bytes:
    """One of ``Rules.swap_flags``' tables, for the add that marks a field (0: none marks; made
    once per process, shared by the variants)."""
    got = _SWAP_FLAGS.get(least)
    if got is None:
        got = _SWAP_FLAGS[least] = bytes(
            _BYTE_PLAYS[b] | (32 if least and (b & 15).bit_count() + least >= 8 else 0)
            | (64 if least and (b >> 4).bit_count() + least >= 8 else 0) for b in range(256))
    return got


def _getter(ranks: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """``subs -> (subs[r] for r in ranks)`` as a tuple, at C speed."""
    if len(ranks) >= 2:
        return itemgetter(*ranks)
    if len(ranks) == 1:
        r = ranks[0]
        return lambda subs: (subs[r],)
    return lambda subs: ()


def _adder(ranks: tuple[int, ...]) -> Callable[[list[int]], int]:
    """``subs -> sum(subs[r] for r in ranks)``, as one expression for ``ranks``: where at most two
    ranks are left out, the sum of all less theirs (``sum`` of all 14 costs about as much as 8
    subscripts), else a subscript and an add per rank (an ``itemgetter``'s tuple added up costs
    twice as much; the function made by :data:`_ADD_RANKS` for their number)."""
    off = [r for r in range(N_RANKS) if r not in ranks]
    if not off:
        return sum
    if len(off) == 1:
        a = off[0]
        return lambda subs: sum(subs) - subs[a]
    if len(off) == 2:
        a, b = off
        return lambda subs: sum(subs) - subs[a] - subs[b]
    return _ADD_RANKS[len(ranks)](*ranks)


def _add_ranks(k: int) -> Callable[..., Callable[[list[int]], int]]:
    """The maker of ``subs -> subs[r0] + ... + subs[r(k-1)]`` for k ranks (given to it), one
    expression: made once at import for each number of ranks (by source text of names alone,
    compiled once: compiling costs as much as a hundred moves, so never per variant or per top)."""
    names = [f"r{i}" for i in range(k)]
    made: Callable[..., Callable[[list[int]], int]] = eval(
        f"lambda {', '.join(names)}: lambda subs: {' + '.join(f'subs[{r}]' for r in names) or '0'}", {})
    return made


_ADD_RANKS = tuple(_add_ranks(k) for k in range(N_RANKS - 2))  # (12 or more ranks: a sum less the rest)


def _fours_at(cells: Cells, anytime: bool) -> tuple[tuple[tuple[int, ...], Callable[[list[int]], tuple[int, ...]]], ...]:
    """Per top, the ranks that may not go on it but as four of a kind or more (where the variant
    says four of a kind go anytime: not on a forced pickup), and their getter."""
    out = []
    for row in cells:
        ranks = tuple(r for r in range(N_RANKS) if anytime and not row[r][0] and row[r][1] != "FORCED_PICKUP")
        out.append((ranks, _getter(ranks)))
    return tuple(out)


def _then_check(v: Variant, R: Rules) -> Callable[[Position], bool]:
    """:meth:`Position.plain_then`, or the one part of it where the variant has one such rule."""
    parts = [(v.force >= 0, Position._unforced), (bool(R.combo), Position._combo_far),
             (bool(R.four_anytime), Position._no_fours), (bool(v.gamble) or v.slide >= 0, Position.plain_then)]
    has = [check for on, check in parts if on]
    return has[0] if len(has) == 1 and R.plain_mostly else Position.plain_then


_RULES: dict[int, tuple[Variant, Rules]] = {}


def per_variant(cache: dict[int, tuple[Variant, T]], v: Variant, build: Callable[[Variant], T]) -> T:
    """``build(v)``, kept in ``cache`` while ``v`` lives (variants are cached by spec)."""
    got = cache.get(id(v))
    if got is None or got[0] is not v:
        if len(cache) > 512:
            cache.clear()
        got = cache[id(v)] = (v, build(v))
    return got[1]


def rules_of(v: Variant) -> Rules:
    """The compiled rules of ``v``."""
    return per_variant(_RULES, v, Rules)


# -- cards as multisets ---------------------------------------------------------------

_UNSEEN = JOKER + 1  # the field of unseen cards (``UNKNOWN`` is -1: index -1 is this last one)
# a one-pack hand's cards counted per rank (4 bits each) by adding bits in pairs, then pairs of pairs
# (Position.swap_counts)
# a one-pack hand's ranks as bytes, two ranks' fields a byte (each a nibble; the jokers' count, below
# 16, in the high nibble of the last): :meth:`Position.moves` (which reads the seven one by one)
_RANK_BYTES = (N_RANKS + 1) // 2
assert _RANK_BYTES == 7
_BYTE_BITS = tuple(tuple(b for b in range(8) if x >> b & 1) for x in range(256))  # the bits set in a byte
# the bits set in 13 bits (a quarter of the 52 cards' bits: Code.nth_plain)
_BITS13 = tuple(lo + hi for hi in (tuple(8 + b for b in bits) for bits in _BYTE_BITS[:32]) for lo in _BYTE_BITS)
# one pack: per byte of a hand (two ranks' fields) the two ranks' counts of plays, 2^k - 1 for k cards (Code.subs)
_BYTE_SUBS = tuple(((1 << (b & 15).bit_count()) - 1, (1 << (b >> 4).bit_count()) - 1) for b in range(256))

# one pack: per field of a rank's cards (4 bits, by suit), its non-empty sets of suits as bits, fewer
# suits first, then in the order ``combinations`` gives them (:meth:`Code.plays_of`'s order)
_SUIT_SETS = tuple(tuple(sorted((m for m in range(1, 16) if m & f == m), key=lambda m: (m.bit_count(), _BYTE_BITS[m])))
                   for f in range(16))
_ONE_PACK_PLAYS: list[Move | None] = [None] * (16 * JOKER_RANK)  # one pack: rank * 16 + its set of suits -> the play
_SUIT_BITS = 0x1_1111_1111_1111  # a one-pack hand's cards of one suit (suit 0; shifted by the suit)
_ODDS, _PAIRS = 0x5_5555_5555_5555, 0x3_3333_3333_3333
# the same from the hand's bytes: per byte (two ranks' fields) the two fields' numbers of cards; right
# for the jokers' field (its number, not a card a bit) while it holds at most one (below _TWO_JOKERS)
_BYTE_COUNTS = bytes((b & 15).bit_count() | (b >> 4).bit_count() << 4 for b in range(256))
_TWO_JOKERS = JOKER + 1
_TWO_JOKERS_AT = 1 << _TWO_JOKERS  # (a hand at least this holds two jokers or more, or unseen cards)
_FROM_BYTES = int.from_bytes
# one pack: per byte of a hand (two ranks' fields) the two ranks' plays added up (Position.swap_counts)
_BYTE_PLAYS = bytes(lo + hi for lo, hi in _BYTE_SUBS)
_BYTE_FLAGS = 0x60 * 0x01_0101_0101_0101  # (bits 5 and 6 of each of a hand's 7 bytes: Rules.swap_flags)
_BYTE_LOWS = 0x1F * 0x01_0101_0101_0101  # (and bits 0 to 4: the plays)
_EVEN_FLAGS, _ODD_FLAGS = _BYTE_FLAGS & _BYTE_FLAGS >> 1, _BYTE_FLAGS & _BYTE_FLAGS << 1  # (bit 5, bit 6: Position._flag_ranks)
_NIB_TOPS = sum(8 << 4 * r for r in range(N_RANKS))  # (bit 4 * r + 3 of each rank r's field: Position.swap_counts)
_SWAP_HOWS = ("own-face-up", "other-hand", "other-face-up")  # the swap rules, by place (Position._swaps_per)
_NO_PER = [0, 0, 0, 0]  # (never asked where nothing swaps)
# the last face-up zones (``Position.ups``, all seats') met by Position.swap_counts, by identity, and
# Position._ups_swaps of them, the swap rules they allow per seat, the cards a swap may take per seat
# and the swaps per card given they allow per seat (kept alive here, so no other object takes their id)
# (one tuple, read and replaced whole: no thread reads one zones' counts with another's zones)
_UPS_SEEN: UpsSeen = (None, (), (), (), ())
_SWAP_REV = (0, EMPTY + 1)  # by the reversing count's parity, added to the top: its key in Rules.swap_tops


class Code:
    """The multiset encoding of cards for a number of packs: per-card shifts and masks,
    per-rank tables of play counts, and caches of each rank's distinct plays."""

    __slots__ = ("w", "cv", "csh", "cm", "rsh", "rm", "subt", "tsm", "plays", "groups", "one", "plain_mask",
                 "play_moves", "play_firsts", "fours", "gones", "tallies", "distincts", "spread",
                 "sizes", "lays", "four_least", "fm", "byte_moves", "byte_firsts", "decks", "plain_max",
                 "one_pack", "halves")

    def __init__(self, decks: int) -> None:
        self.decks = decks
        w = self.w = max(1, decks.bit_length())
        # (tests made once, for the checked path's every move: ``w == 1`` (Position.moves), and per
        # rank ``w == 1 and r < JOKER_RANK`` (Position.push_cards; the last entry, index -1, for an
        # unseen card's rank -1))
        self.one_pack = w == 1
        self.halves = tuple(w == 1 and r < JOKER_RANK for r in range(N_RANKS)) + (w == 1,)
        one = self.one = (1 << w) - 1
        self.plain_mask = (1 << (JOKER * w)) - 1  # the 52 ordinary cards' fields
        big = (1 << 16) - 1  # jokers (all alike) and unseen cards own the top bits
        csh = [c * w for c in range(JOKER + 1)] + [JOKER * w + 16]
        self.csh = tuple(csh)
        # the largest multiset :meth:`nth_plain` reads off: one pack, no unseen card (-1: none)
        self.plain_max = (1 << csh[_UNSEEN]) - 1 if w == 1 else -1
        # (a list: subscripted as a tuple is, and its ``__getitem__`` a quick function for ``map``, a
        # tuple's a slot wrapper: a pile taken in, a hand encoded)
        self.cv = [1 << s for s in csh]
        self.cm = tuple(one if c < JOKER else big for c in range(_UNSEEN + 1))
        # per card its field of a multiset in place (nonzero where the card is held: one ``&``, not a
        # shift and a mask, for a hand's big int)
        self.fm = tuple(m << sh for m, sh in zip(self.cm, csh, strict=True))
        self.rsh = tuple(4 * r * w for r in range(13)) + (JOKER * w,)
        self.rm = ((1 << (4 * w)) - 1,) * 13 + (big,)
        counts = []
        four_least = 1 << 16  # the fewest plays a field of four cards or more allows
        for f in range(1 << (4 * w)):
            k = 1
            for s in range(4):
                k *= ((f >> (s * w)) & one) + 1
            counts.append(k - 1)
            if sum((f >> (s * w)) & one for s in range(4)) >= 4:
                four_least = min(four_least, k - 1)
        self.four_least = four_least
        self.subt: tuple[Sequence[int], ...] = (counts,) * 13 + (range(big + 1),)
        # per field of a rank, bit 16 * s for each suit s it holds a card of
        self.spread = tuple(sum(1 << (16 * s) for s in range(4) if (f >> (s * w)) & one) for f in range(1 << (4 * w)))
        self.tsm = tuple(zip(self.subt, self.rsh, self.rm, strict=True))
        self.plays: tuple[dict[int, list[tuple[tuple[int, ...], int]]], ...] = tuple({} for _ in range(N_RANKS))
        self.groups: tuple[dict[int, tuple[int, ...]], ...] = tuple({} for _ in range(N_RANKS))
        self.play_moves: tuple[dict[int, list[Move]], ...] = tuple({} for _ in range(N_RANKS))
        self.play_firsts: tuple[dict[int, list[Move]], ...] = tuple({} for _ in range(N_RANKS))
        # one pack: per byte of a hand's ranks (two ranks' fields, ``_RANK_BYTES``), by its value,
        # :meth:`moves_of` (:meth:`firsts_of`) of both its fields, the lower rank's first (filled as
        # they come up, :meth:`byte_plays`)
        self.byte_moves: tuple[list[tuple[Move, ...] | None], ...] = tuple([()] + [None] * 255 for _ in range(_RANK_BYTES))
        self.byte_firsts: tuple[list[tuple[Move, ...] | None], ...] = tuple([()] + [None] * 255 for _ in range(_RANK_BYTES))
        self.fours: tuple[dict[int, int], ...] = tuple({} for _ in range(N_RANKS))
        self.gones: tuple[dict[int, list[int]], ...] = tuple({} for _ in range(N_RANKS))
        self.tallies: tuple[dict[int, list[tuple[int, int, int]]], ...] = tuple({} for _ in range(N_RANKS))
        self.distincts: tuple[dict[int, int], ...] = tuple({} for _ in range(N_RANKS))
        self.sizes: tuple[dict[int, list[list[tuple[int, ...]]]], ...] = tuple({} for _ in range(N_RANKS))
        self.lays: tuple[dict[int, list[tuple[tuple[int, ...], int, int]]], ...] = tuple(
            {} for _ in range(N_RANKS))

    def encode(self, cards: Sequence[int]) -> int:
        return sum(map(self.cv.__getitem__, cards))

    def decode(self, value: int) -> tuple[int, ...]:
        """The cards of a multiset, sorted (unseen cards, -1, first)."""
        out: list[int] = [UNKNOWN] * ((value >> self.csh[_UNSEEN]) & self.cm[_UNSEEN])
        rest = value & self.plain_mask
        w = self.w
        if w == 1:
            while rest:
                low = rest & -rest
                out.append(low.bit_length() - 1)
                rest ^= low
        else:
            one = self.one
            while rest:
                c = ((rest & -rest).bit_length() - 1) // w
                field = one << (c * w)
                out += [c] * ((rest & field) >> (c * w))
                rest &= ~field
        jokers = (value >> self.csh[JOKER]) & self.cm[JOKER]
        if jokers:
            out += [JOKER] * jokers
        return tuple(out)

    def subs(self, hand: int) -> list[int]:
        """Per rank (the jokers last) the count of plays of its cards in the multiset ``hand``."""
        if self.w == 1:  # (one pack: two ranks' counts a byte, by subscript: every deal asks for each hand)
            b = _BYTE_SUBS
            jokers = 0
            if hand >= _JOKERS_AT:  # (a joker held, few hands: its count, then the 52 cards alone)
                jokers = hand >> JOKER & 0xFFFF
                hand &= _JOKERS_AT - 1
            # the 52 cards' fields as 7 bytes by one C call (small ints, not a big-int shift and mask a
            # byte; a taken pile asks too, :meth:`Position._give`), the last the ace's field alone
            b0, b1, b2, b3, b4, b5, b6 = hand.to_bytes(_RANK_BYTES, "little")
            return [*b[b0], *b[b1], *b[b2], *b[b3], *b[b4], *b[b5], b[b6][0], jokers]
        return [t[(hand >> s) & m] for t, s, m in self.tsm]

    def group(self, r: int, f: int) -> tuple[int, ...]:
        """The sorted cards of rank ``r`` whose field is ``f``."""
        got = self.groups[r].get(f)
        if got is None:
            got = self.groups[r][f] = self.decode(f << self.rsh[r])
        return got

    def four_from(self, r: int, f: int) -> int:
        """Where the plays of four cards or more begin among :meth:`plays_of` (they come last)."""
        got = self.fours[r].get(f)
        if got is None:
            lst = self.plays_of(r, f)
            got = self.fours[r][f] = next((i for i, (sub, _) in enumerate(lst) if len(sub) >= 4), len(lst))
        return got

    def by_size(self, r: int, f: int) -> list[list[tuple[int, ...]]]:
        """The plays of :meth:`plays_of` by their number of cards (index n: the plays of n cards)."""
        got = self.sizes[r].get(f)
        if got is None:
            lst = self.plays_of(r, f)
            got = self.sizes[r][f] = [[sub for sub, _ in lst if len(sub) == n] for n in range(len(lst[-1][0]) + 1)]
        return got

    def distinct(self, r: int, f: int) -> int:
        """How many different cards the group holds."""
        got = self.distincts[r].get(f)
        if got is None:
            got = self.distincts[r][f] = len(set(self.group(r, f)))
        return got

    def gone(self, r: int, f: int) -> list[int]:
        """Per play of :meth:`plays_of`, how many different cards it leaves none of in the group."""
        got = self.gones[r].get(f)
        if got is None:
            group = self.group(r, f)
            got = self.gones[r][f] = [sum(1 for c in set(sub) if group.count(c) == sub.count(c))
                                      for sub, _ in self.plays_of(r, f)]
        return got

    def swap_tally(self, r: int, f: int) -> list[tuple[int, int, int]]:
        """The plays of :meth:`plays_of` tallied by size: (cards played, how many such plays,
        the sum of their :meth:`gone`)."""
        got = self.tallies[r].get(f)
        if got is None:
            plays: Counter[int] = Counter()
            gone: Counter[int] = Counter()
            for (sub, _), g in zip(self.plays_of(r, f), self.gone(r, f), strict=True):
                plays[len(sub)] += 1
                gone[len(sub)] += g
            got = self.tallies[r][f] = [(n, k, gone[n]) for n, k in plays.items()]
        return got

    def moves_of(self, r: int, f: int) -> list[Move]:
        """The plays of :meth:`plays_of` as moves (made once: moves are values)."""
        got = self.play_moves[r].get(f)
        if got is None:
            if self.w == 1 and r < JOKER_RANK:
                # one pack: the field's sets of suits in that order, each play made once for every
                # field that holds it (made once per process: a Move costs far more than a look-up)
                got = []
                at = r << 4
                for m in _SUIT_SETS[f]:
                    move = _ONE_PACK_PLAYS[at + m]
                    if move is None:
                        move = _ONE_PACK_PLAYS[at + m] = Move(PLAY, tuple((r << 2) + s for s in _BYTE_BITS[m]))
                    got.append(move)
                self.play_moves[r][f] = got
            else:
                got = self.play_moves[r][f] = [Move(PLAY, sub) for sub, _ in self.plays_of(r, f)]
        return got

    def lays_of(self, r: int, f: int) -> list[tuple[tuple[int, ...], int, int]]:
        """:meth:`plays_of`, each play with the rank's count of plays the group leaves
        (``subs[r]`` once it is played: what :meth:`Position.push_cards` is told, not works out)."""
        got = self.lays[r].get(f)
        if got is None:
            sh, table = self.rsh[r], self.subt[r]
            got = self.lays[r][f] = [(sub, val, table[f - (val >> sh)]) for sub, val in self.plays_of(r, f)]
        return got

    def nth_plain(self, h: int, i: int) -> int | None:
        """With one pack and no unseen card in the multiset ``h``, its i-th card in card order,
        read off the bits (each card is a bit; the jokers, alike, come last); else None (the
        caller decodes it)."""
        if h > self.plain_max:  # (one compare: several packs, or an unseen card)
            return None
        # (the half of the 52 cards' bits that holds it, by counting bits, then the half of that: 26
        # bits, small ints from there on (one digit); then its 13 bits' table)
        plain = h & 0x3FF_FFFF
        n = plain.bit_count()
        if i >= n:
            i -= n
            plain = h >> 26 & 0x3FF_FFFF  # (the cards' bits 26 to 51: the jokers' field left out)
            at = 26
        else:
            at = 0
        low = plain & 0x1FFF
        n = low.bit_count()
        if i >= n:
            i -= n
            low = plain >> 13
            at += 13
        try:  # (no test: past the bits only where it is a joker, few and last)
            return at + _BITS13[low][i]
        except IndexError:
            return JOKER

    def byte_plays(self, b: bytes, alike: bool) -> list[Move]:
        """One pack: the plays of the ranks whose fields the bytes ``b`` hold (``_RANK_BYTES``, two
        ranks a byte): :meth:`moves_of` (``alike``: :meth:`firsts_of`) of each, in rank order, each
        byte's made once (:meth:`Position.moves` reads them off)."""
        tabs, make = (self.byte_firsts, self.firsts_of) if alike else (self.byte_moves, self.moves_of)
        if not alike and tabs[0][1] is None:
            # the first miss: every byte's plays made at once, for every value whose high field is
            # not the jokers' count (a game's hands run through most values, and one met first in
            # play costs :meth:`Position.moves` an exception and a call here): every play of a rank
            # is made anyway (made here, not with the code: a runner that never lists moves never pays)
            for i, tab in enumerate(tabs):
                lo = [tuple(make(2 * i, f)) for f in range(16)]
                hi = [tuple(make(2 * i + 1, f)) for f in range(16)] if 2 * i + 1 < JOKER_RANK else [()]
                tab[:len(hi) * 16] = [a + b for b in hi for a in lo]
        out: list[Move] = []
        for i, k in enumerate(b):
            got = tabs[i][k]
            if got is None:
                got = tabs[i][k] = (tuple(make(2 * i, k & 15)) if k & 15 else ()) + (
                    tuple(make(2 * i + 1, k >> 4)) if k >> 4 else ())
            out += got
        return out

    def firsts_of(self, r: int, f: int) -> list[Move]:
        """The first move of :meth:`moves_of` with each number of cards (made once)."""
        got = self.play_firsts[r].get(f)
        if got is None:
            sizes: dict[int, Move] = {}
            for m in self.moves_of(r, f):
                sizes.setdefault(len(m.cards), m)
            got = self.play_firsts[r][f] = list(sizes.values())
        return got

    def plays_of(self, r: int, f: int) -> list[tuple[tuple[int, ...], int]]:
        """The distinct plays from the group, in the order :meth:`Position.moves` lists them."""
        got = self.plays[r].get(f)
        if got is None:  # (one test where it is kept: most calls)
            if self.w == 1 and r < JOKER_RANK:
                # one pack: the field's sets of suits in that order (_SUIT_SETS), each a play, its code
                # the set's bits at the rank's field (no multisets to make: the first use of each of a
                # preset's 195 fields, a short run's cost)
                at, sh = r << 2, self.rsh[r]
                got = [(tuple(at + s for s in _BYTE_BITS[m]), m << sh) for m in _SUIT_SETS[f]]
            else:
                group = self.group(r, f)
                distinct = sorted(Counter(group).items())
                got = []
                cv = self.cv
                for n in range(1, len(group) + 1):
                    for sub in _multisets(distinct, n):  # each set of cards once: 32 sevens give 6,560, not 2**32
                        got.append((sub, sum(map(cv.__getitem__, sub))))
            self.plays[r][f] = got
        return got


_CODES: dict[int, Code] = {}


def code_for(decks: int) -> Code:
    got = _CODES.get(decks)
    if got is None:
        got = _CODES[decks] = Code(decks)
    return got


# -- the position -------------------------------------------------------------------

PICKUP_MOVE = Move(PICKUP)
CALL_MOVE = Move(CALL)
GAMBLE_MOVE = Move(GAMBLE)
_NO_CLAIM = (EMPTY, 0, 0)  # Bluff: the state of an empty (or destroyed) pile
# Bluff: claim_top of each claim (a run's up to RUN_CLAIM + 16 * 15 + 15), by subscript (each burn asks)
_CLAIM_TOPS = tuple(map(claim_top, range(RUN_CLAIM + 16 * 16)))
_NO_RUNS: list[int] = []  # Bluff: a hand's runs (their keys, Position._run_keys) where it holds none (never added to)
_new, _copy_list = object.__new__, list.copy  # (read once: a type's attribute is looked up at every call)
# each card's rank, ``c >> 2``, by subscript (a shift is not specialised, a subscript is): the
# unseen card (-1) is the last entry, its rank -1
# (a list: subscripted as a tuple is, and its ``__getitem__`` a quick function for ``map``, a tuple's
# a slot wrapper)
_RANK_OF = [*(c >> 2 for c in range(JOKER + 1)), UNKNOWN >> 2]
_RANK_BIT = [1 << r for r in _RANK_OF[:-1]] + [1 << 15]  # and its bit (the unseen card's, 15: a rank of its own)
_NO_CAUSES: list[str] = []  # the causes of a move with no events (never added to: a push starts a new list)
# one pack: per card taken up (by subscript: the unseen card, -1, the last), its rank's count of plays
# after it, by the count before: 2 * count + 1 for 2**k - 1 (k of the rank's 4 cards); a joker's count,
# their number, one more (a range: the jokers' field holds 16 bits); the unseen card's rank, -1, none:
# it reads the jokers' count and leaves it as it is (Position.push_pickup)
_TAKEN_STEP: tuple[Sequence[int], ...] = (tuple(2 * k + 1 for k in range(16)),) * JOKER + (range(1, 1 << 16 | 1), range(1 << 16 | 1))
# and per card, with its rank (``_RANK_OF``) and its value in a one-pack hand (``Code.cv``): one look-up a card
_TAKEN = tuple(zip(_RANK_OF, _TAKEN_STEP, code_for(1).cv, strict=True))
_PICKUP_EVENTS = (PICKED_UP,)  # the events of a plain pickup, as a move of its own
_PICKUP_CAUSES = [""]  # and their causes (never added to, as _NO_CAUSES)
_DRAW_EVENTS = (DRAW,)  # the events of a play that only draws, as a move of its own
_TOPS = tuple(Top(r, ()) for r in range(EMPTY + 1))
_PICKUP_OK = Reason.PICKUP_OK  # (an enum's member is slow to look up on its class)
_VOLUNTARY: Ctx = {"voluntary": True}  # the context of a pickup by choice (shared: read only)
_FLIPS = [Move(FLIP, (), i + 1) for i in range(16)]
_OWN_HAND = frozenset((PLAY, PICKUP, FLIP, GAMBLE))  # moves that change the mover's hand alone (outside Bluff, no swap)


class Position:
    """A game in progress, mutable. Build it with :meth:`of` (from a table) and read it back
    with :meth:`snapshot`; push moves, judge them, list or count them."""

    __slots__ = ("v", "R", "C", "names", "n", "hands", "hand_n", "subs", "ups", "downs", "pile",
                 "pile_n", "top", "run_r", "run_n", "rev", "stock", "burned", "turn", "direction",
                 "setup", "ready", "opening", "outs", "alive", "ended", "causes", "lost", "after", "claimed")

    v: Variant
    R: Rules
    C: Code
    names: tuple[str, ...]
    n: int
    hands: list[int]
    hand_n: list[int]
    subs: list[list[int]]
    ups: tuple[tuple[tuple[int, ...], ...], ...]  # per seat its face-up stacks (tuples: a copy shares them)
    downs: tuple[tuple[int, ...], ...]
    pile: list[Laid]
    pile_n: int
    top: int  # the effective top rank of the pile (not the joker's free play; in Bluff not kept as
    # the pile grows, nor the pile's run below: its claims stand for them, ``claimed``)
    run_r: int
    run_n: int
    rev: int  # rank-reversing cards in the pile
    stock: tuple[int, ...]  # top first (a tuple: a copy shares it; a draw puts a new one in place)
    burned: tuple[int, ...]
    turn: int
    direction: int
    setup: bool
    ready: tuple[bool, ...]  # (tuples, as the stock: shared by a copy)
    opening: bool
    outs: tuple[bool, ...]
    alive: int
    ended: bool  # the game is over (:meth:`over`), kept as the fields it turns on change
    causes: list[str]  # the fragment behind each event of the last push
    lost: int  # bit s: seat s has lost the game at once (a last down card that loses, Nortenos' 3)
    after: tuple[int, ...]  # the seat that plays after each seat, the way play goes, passing over those out
    claimed: tuple[int, int, int]  # Bluff: the claims on top of the pile (:meth:`_bluff_state`), kept as it changes

    # -- building and reading back -------------------------------------------------

    @classmethod
    def of(cls, table: Table, v: Variant) -> Position:
        """The position of ``table`` under ``v``."""
        players = table.players
        return cls._made(v, table.decks, tuple(p.name for p in players), [p.hand for p in players],
                         tuple(p.face_up for p in players), tuple(p.face_down for p in players),
                         [(pl.cards, pl.by, pl.claim) for pl in table.pile], table.stock, table.burned, table.turn,
                         table.direction, table.setup, table.ready, table.opening,
                         sum(1 << s for s, p in enumerate(players) if p.lost))

    @classmethod
    def dealt(cls, v: Variant, decks: int, names: tuple[str, ...], hands: Sequence[Sequence[int]],
              ups: tuple[tuple[tuple[int, ...], ...], ...], downs: tuple[tuple[int, ...], ...],
              stock: tuple[int, ...]) -> Position:
        """The position of a table just dealt, in the setup (:meth:`of` that table, made without it:
        a game's deal in bulk play): each seat's hand, face-up stacks and face-down cards, the stock."""
        C = code_for(decks)
        coded = None
        if C.w == 1:  # one pack (no card twice): each hand's code and play counts made card by card, a
            # deal's few cards costing less so than :meth:`Code.encode` and :meth:`Code.subs` (every
            # game of bulk play starts here)
            codes, counts = [], []
            for cards in hands:
                h = 0
                held = [0] * N_RANKS  # (per rank 2^k - 1 for its k cards, the jokers' count last)
                for c in cards:  # (each card taken in as push_pickup takes it: _TAKEN)
                    r, step, add = _TAKEN[c]
                    h += add
                    held[r] = step[held[r]]
                codes.append(h)
                counts.append(held)
            coded = codes, counts
        return cls._made(v, decks, names, hands, ups, downs, [], stock, (), 0, CLOCKWISE, True, (False,) * len(names),
                         False, 0, coded)

    @classmethod
    def _made(cls, v: Variant, decks: int, names: tuple[str, ...], hands: Sequence[Sequence[int]],
              ups: tuple[tuple[tuple[int, ...], ...], ...], downs: tuple[tuple[int, ...], ...], pile: list[Laid],
              stock: tuple[int, ...], burned: tuple[int, ...], turn: int, direction: int, setup: bool,
              ready: tuple[bool, ...], opening: bool, lost: int,
              coded: tuple[list[int], list[list[int]]] | None = None) -> Position:
        """:meth:`of` and :meth:`dealt`: a position of these fields (each seat's hand as its cards;
        ``coded``: their codes and play counts, where the caller made them)."""
        pos = _new(cls)
        pos.v = v
        pos.R = rules_of(v)
        C = pos.C = code_for(decks)
        pos.names = names
        n = pos.n = len(names)
        # (by C calls: every game of bulk play starts here, from :meth:`dealt`)
        if coded is None:
            pos.hands = list(map(C.encode, hands))
            pos.subs = list(map(C.subs, pos.hands))
        else:
            pos.hands, pos.subs = coded
        # each seat's number of cards in hand, and whether it is out (a loop: C iterators over a
        # few seats cost more)
        hand_n: list[int] = []
        outs: list[bool] = []
        for s in range(n):
            k = len(hands[s])
            hand_n.append(k)
            outs.append(not (k or ups[s] or downs[s]))
        pos.hand_n = hand_n
        pos.ups = ups
        pos.downs = downs
        pos.pile = pile
        pos.stock = stock
        pos.burned = burned
        pos.turn = turn
        pos.direction = direction
        pos.setup = setup
        pos.ready = ready
        pos.opening = opening
        pos.outs = tuple(outs)
        pos.after = _after(outs, direction)
        pos.alive = n - outs.count(True)
        pos.causes = []
        pos.lost = lost
        pos.ended = pos._finished()
        if pile:
            pos._repile()
        else:  # (a deal's: :meth:`_repile` of an empty pile, which leaves it as :meth:`_clear_pile` does)
            pos._clear_pile()
            pos.claimed = _NO_CLAIM
        return pos

    def copy(self) -> Position:
        """An independent copy (for a search to push on)."""
        return self.copy_for(None)

    def pushed(self, move: Move | None) -> tuple[Position, Sequence[Event]]:
        """A copy with ``move`` pushed on, one the player to move may make, and its events (as
        :meth:`push`), for a caller that never pushes on either position again (the engine's
        positions of tables; see :meth:`copy_for`). ``move`` None: an independent copy, and no
        events."""
        pos = self.copy_for(move)
        return pos, (pos.push(move) if move is not None else ())

    def copy_for(self, move: Move | None) -> Position:
        """A copy of this position made to push ``move`` on (one the player to move may make) and
        nothing else, for a caller that never pushes on either position again (:meth:`pushed`; the
        engine's facade makes one and pushes the move at every move, with no tuple made between):
        the copy shares with this position the parts that push does not change, where a play,
        pickup, flip or gamble outside Bluff (no swap) changes only the mover's hand among the
        hands' play counts (``subs``), and a pickup puts a new pile in place of the old. ``move``
        None: an independent copy (:meth:`copy`)."""
        # (one field a statement, lists by list.copy: no tuples or slices made on the way; the
        # class called, not object.__new__: a call the less)
        pos = Position()
        pos.v = self.v
        R = pos.R = self.R
        pos.C = self.C
        pos.names = self.names
        pos.n = self.n
        pos.hands = _copy_list(self.hands)
        pos.hand_n = _copy_list(self.hand_n)
        pos.ups = self.ups  # (tuples, shared, as the stock below)
        pos.downs = self.downs
        pos.pile_n = self.pile_n
        pos.top = self.top
        pos.run_r = self.run_r
        pos.run_n = self.run_n
        pos.rev = self.rev
        pos.stock = self.stock  # (the stock, who is ready and who is out are tuples: shared)
        pos.burned = self.burned
        pos.turn = self.turn
        pos.direction = self.direction
        pos.after = self.after
        pos.setup = self.setup
        pos.ready = self.ready
        pos.opening = self.opening
        pos.outs = self.outs
        pos.alive = self.alive
        pos.ended = self.ended
        pos.lost = self.lost
        pos.claimed = self.claimed
        if move is None:
            pos.subs = list(map(_copy_list, self.subs))
            pos.pile = _copy_list(self.pile)
            pos.causes = _NO_CAUSES  # (a push starts a list of its own)
            return pos
        if (kind := move.kind) not in R.own_hand or move.give >= 0:  # (R.own_hand: none in Bluff)
            pos.subs = list(map(_copy_list, self.subs))
            pos.pile = _copy_list(self.pile)
        else:
            subs = pos.subs = _copy_list(self.subs)
            subs[self.turn] = _copy_list(subs[self.turn])
            pos.pile = self.pile if kind == PICKUP else _copy_list(self.pile)
        return pos  # (push writes ``causes``)

    @property
    def decks(self) -> int:
        """The number of packs (the code's: not a field a copy writes)."""
        return self.C.decks

    def snapshot(self, like: tuple[Table, Position] | None = None) -> Table:
        """The immutable table of this position. ``like`` = (a table, its position) lends the
        parts that have not changed since (a player, the plays at the bottom of the pile)."""
        decode = self.C.decode
        if like is None:
            players = tuple(Player(self.names[s], decode(self.hands[s]), self.ups[s], self.downs[s])
                            for s in range(self.n))
            pile = tuple(Play(c, b, k) for c, b, k in self.pile)
        else:
            table, was = like
            old = table.players
            hands, ups, downs = self.hands, self.ups, self.downs
            w_hands, w_ups, w_downs = was.hands, was.ups, was.downs
            lst = []
            for s in range(self.n):
                if hands[s] == w_hands[s] and ups[s] == w_ups[s] and downs[s] == w_downs[s]:
                    lst.append(old[s])
                else:
                    lst.append(Player(self.names[s], decode(hands[s]), ups[s], downs[s]))
            players = tuple(lst)
            k = len(was.pile)
            if len(self.pile) >= k and self.pile[:k] == was.pile:
                pile = table.pile + tuple(Play(c, b, cl) for c, b, cl in self.pile[k:])
            else:
                pile = tuple(Play(c, b, cl) for c, b, cl in self.pile)
        if self.lost:  # (rare) who lost at once: a player once lost stays lost, and holds no cards
            players = tuple(Player(p.name, lost=True) if self.lost >> s & 1 else p for s, p in enumerate(players))
        return Table(players, pile, tuple(self.stock), self.burned, self.turn, self.direction,
                     self.decks, self.setup, tuple(self.ready), self.opening)

    def player(self, seat: int) -> Player:
        return Player(self.names[seat], self.C.decode(self.hands[seat]), self.ups[seat],
                      self.downs[seat], bool(self.lost >> seat & 1))

    def set_pile(self, pile: list[Laid]) -> None:
        """Lay ``pile`` down as the whole pile ((cards, by, claim) from the bottom up)."""
        self.pile = pile
        self._repile()

    def _repile(self) -> None:
        """Recompute what is kept of the pile (after a change other than a play on top)."""
        R = self.R
        cards = [c for laid in self.pile for c in laid[0]]
        self.pile_n = len(cards)
        self.top = _top_of(self.pile, R)[0]
        self.run_r, self.run_n = _run_of(self.pile)
        self.rev = sum(1 for c in cards if c >> 2 == R.reversal) if R.reversal >= 0 else 0
        self.claimed = self._claims_on_top() if R.bluff else _NO_CLAIM

    # -- cards in hand ------------------------------------------------------------

    def hand(self, seat: int) -> tuple[int, ...]:
        """The seat's hand, sorted."""
        return self.C.decode(self.hands[seat])

    def holds(self, seat: int, card: int) -> int:
        """How many copies of ``card`` the seat holds in hand."""
        C = self.C
        return (self.hands[seat] >> C.csh[card]) & C.cm[card]

    def _take(self, seat: int, card: int) -> None:
        C = self.C
        h = self.hands[seat] = self.hands[seat] - C.cv[card]
        self.hand_n[seat] -= 1
        if card >= 0:
            r = card >> 2
            self.subs[seat][r] = C.subt[r][(h >> C.rsh[r]) & C.rm[r]]

    def _give(self, seat: int, cards: Sequence[int]) -> None:
        C = self.C
        h = self.hands[seat]
        cv = C.cv
        subs = self.subs[seat]
        if len(cards) > 2 and C.w == 1:  # (a pile taken, one pack: the hand's counts made afresh, by
            # :meth:`Code.subs`, cost less than a rank's count made after each card)
            h += sum(map(cv.__getitem__, cards))
            subs[:] = C.subs(h)
        elif C.one_pack:  # (a card or two, one pack: each taken in as push_pickup takes it, _TAKEN)
            for c in cards:
                r, step, add = _TAKEN[c]
                h += add
                subs[r] = step[subs[r]]
        else:
            tsm = C.tsm
            for c in cards:  # (a rank's count made after each card of it: the last is right)
                h += cv[c]
                if c >= 0:
                    table, sh, m = tsm[c >> 2]
                    subs[c >> 2] = table[(h >> sh) & m]
        self.hands[seat] = h
        self.hand_n[seat] += len(cards)

    def deal_into(self, seat: int, cards: Sequence[int]) -> None:
        """Put dealt ``cards`` into the seat's hand (a search's deal of the unseen cards, into a
        copy of a position that holds the rest of the hand)."""
        self._give(seat, cards)

    def up_cards(self, seat: int) -> tuple[int, ...]:
        return tuple(c for s in self.ups[seat] for c in s)

    def zone(self, seat: int) -> Zone:
        """Where the seat plays from now."""
        if self.hand_n[seat]:
            return HAND
        if self.ups[seat]:
            return FACE_UP
        if self.downs[seat]:
            return FACE_DOWN
        return NONE

    def _is_out(self, seat: int) -> bool:
        return not self.hand_n[seat] and not self.ups[seat] and not self.downs[seat]

    def _mark(self, seat: int) -> None:
        """Bring the seat's out flag up to date, and whether the game is over (the seat may have
        gone out, or lost at once)."""
        out = self._is_out(seat)
        outs = self.outs
        if out != outs[seat]:
            self.outs = _put(outs, seat, out)
            self.alive += -1 if out else 1
            self.after = _after(self.outs, self.direction)
        self.ended = self._finished()

    # -- facts -------------------------------------------------------------------

    def over(self) -> bool:
        """Is the game over (never during setup)?"""
        return self.ended  # (asked several times a move: kept, :meth:`_finished`)

    def _finished(self) -> bool:
        """:meth:`over`, worked out: kept in ``ended`` where a seat goes out or loses, or the setup ends."""
        if self.setup:
            return False
        if self.lost:  # a player lost at once: a loser-finding game has its loser; else the rest play on
            if not self.R.winner:
                return True
            return self.alive < self.n - self.lost.bit_count() or self.alive <= 1
        return self.alive < self.n if self.R.winner else self.alive <= 1

    def decided(self) -> int:
        """Once the game is over, the seat it was played to find: the winner (goal winner: the first
        out who did not lose, or the last left in) or the loser (the one who lost at once, or the
        last with cards); -1 if there is none."""
        if not self.over():
            return -1
        outs, lost, winner = self.outs, self.lost, self.R.winner
        if winner:  # the first seat out that did not lose
            for s in range(self.n):
                if outs[s] and not lost >> s & 1:
                    return s
        elif lost:
            return (lost & -lost).bit_length() - 1
        # the seats left in: the first of them (where the goal is to win, only if it is the one)
        # (loops, not lists: every bulk game asks once, and a short game's end counts)
        first, left = -1, 0
        for s in range(self.n):
            if not outs[s]:
                left += 1
                if first < 0:
                    first = s
        return first if not winner or left == 1 else -1

    def top_rank(self) -> int:
        """The effective top rank the next play must answer (EMPTY for an empty pile)."""
        R = self.R
        if R.top_kept:  # (most variants: no claims, no joker's free play)
            return self.top
        if R.bluff:
            return self._bluff_state()[0]
        if self._free_with_two(self.pile):  # (a free play with two: ``Rules.free_two``)
            return EMPTY
        return self.top

    def effective_top(self) -> Top:
        return self._eff_top(self.pile)

    def _eff_top(self, pile: Sequence[Laid]) -> Top:
        R = self.R
        if R.bluff:
            top, count, _ = self._bluff_state()
            return Top(top, (), "", count)
        if R.extras and self._free_with_two(pile):
            return Top(EMPTY, (), R.origin[pile[-1][0][-1] >> 2]["free_with_two"])
        if pile is self.pile and not R.any_transparent:
            return _TOPS[self.top]  # nothing to look through: the top kept as the pile grows
        rank, looked = _top_of(pile, R)
        return Top(rank, looked)

    def _free_with_two(self, pile: Sequence[Laid]) -> bool:
        """Guarducci's joker with two players in the game: its player goes again with any card (not
        whoever moves after a joker whose player went out with it, leaving two)."""
        if not pile or not self.R.free_with_two[pile[-1][0][-1] >> 2]:
            return False
        return pile[-1][1] in (-1, self.turn) and self.alive == 2

    def _matrix(self) -> Cells:
        """The play-on table in force: reversed while an odd number of reversing cards lie in the pile."""
        R = self.R
        return R.cells_rev if R.reversal >= 0 and self.rev % 2 else R.cells

    def _deflects(self, card: int) -> bool:
        d = self.R.deflect
        if d is None or card >> 2 != d[0]:
            return False
        return d[1] == "any" or (d[1] == "red") == is_red(card)

    def forced(self) -> bool:
        """Is a forced pickup (a superjoker, perhaps passed on by red jacks) waiting?"""
        R = self.R
        if R.force < 0 or not self.pile:
            return False
        top = self.pile[-1][0][-1] >> 2
        if R.deflect is None or top != R.deflect[0]:  # (most piles: the top card decides)
            return top == R.force
        for laid in reversed(self.pile):
            for c in reversed(laid[0]):
                if self._deflects(c):
                    continue
                return c >> 2 == self.R.force
        return False

    def _bluff_state(self) -> tuple[int, int, int]:
        """Bluff: (claimed rank on top, cards the next play must be, cards of that claim in a row on
        top). A pile that a claimed 10 or four claimed of a kind has destroyed counts as empty, and a
        claimed 2 sets its value to 0 (pagat Variations, Bluffing: doubles and triples may follow).
        Kept as the pile changes (each move asks): read off the pile by :meth:`_claims_on_top`, then
        a play on top by :meth:`_claim_on`."""
        return self.claimed

    def _claims_on_top(self) -> tuple[int, int, int]:
        """:meth:`_bluff_state` read off the whole pile."""
        pile = self.pile
        if not pile:
            return _NO_CLAIM
        R = self.R
        cards, _, claim = pile[-1]
        if claim >= RUN_CLAIM:  # a run: the next play goes on its last card, a single
            rank = (claim - RUN_CLAIM) % 16
            return _NO_CLAIM if R.burn[rank] else (rank, 1, 1)
        rank = claim % SET_COUNTED if claim >= 0 else cards[0] >> 2
        if R.burn[rank]:
            return _NO_CLAIM
        run = 0  # (counted as claimed: a count may be a lie, and stands unless called)
        for c2, _, k2 in reversed(pile):
            if k2 >= RUN_CLAIM:  # a run below: only its last card can join four of a kind
                run += (k2 - RUN_CLAIM) % 16 == rank
                break
            if k2 < 0:
                if c2[0] >> 2 != rank:
                    break
                run += len(c2)
            elif k2 % SET_COUNTED != rank:
                break
            else:
                run += k2 // SET_COUNTED if k2 >= SET_COUNTED else len(c2)
        if R.four_burns and run >= R.four_burns:
            return _NO_CLAIM
        if R.resets[rank]:
            return rank, 0, run
        return rank, claim // SET_COUNTED if claim >= SET_COUNTED else len(cards), run

    def _claim_on(self, cards: tuple[int, ...], claim: int) -> None:
        """:meth:`_bluff_state` after ``cards`` claimed as ``claim`` went on top of the pile (on the
        claims kept: a pile the claims destroyed was taken out before the play, so the claims
        below are those of a pile that stands, or none)."""
        R = self.R
        if claim >= RUN_CLAIM:  # a run: the next play goes on its last card, a single
            rank = (claim - RUN_CLAIM) % 16
            self.claimed = _NO_CLAIM if R.burn[rank] else (rank, 1, 1)
            return
        rank = claim % SET_COUNTED if claim >= 0 else cards[0] >> 2
        self.claimed = _claims_after(R, self.claimed, rank, claim // SET_COUNTED if claim >= SET_COUNTED else len(cards))

    def _placement(self, cells: Cells, top: int, rank: int, n: int, zone: Zone) -> Cell:
        """May ``n`` cards of ``rank`` from ``zone`` go on the effective ``top``?"""
        cell = cells[top][rank]
        fid = self.R.four_anytime
        if fid and not cell[0] and n >= 4 and zone == HAND and cell[1] != "FORCED_PICKUP":
            return True, "FOUR_ANYTIME", (fid,)
        return cell

    def _next_seat(self, seat: int, direction: int, skip: int = 0) -> int:
        """The seat ``skip + 1`` seats on from ``seat`` going ``direction``, passing over the seats
        that are out (``seat`` itself, where all the others are out): a step a seat by the seat
        after each (:func:`_after`; the way play goes, kept as ``after``)."""
        after = self.after if direction == self.direction else _after(self.outs, direction)
        s = after[seat]
        while skip:
            s = after[s]
            skip -= 1
        return s

    # -- the opening --------------------------------------------------------------

    def opening_lead(self) -> int | None:
        """At the opening, the rank the first play must be (the lowest card that made its holder
        the leader, where the variant's first-player rule says so), else None."""
        if not self.opening or self.R.first_player != "lowest-card-leads" or self.R.bluff:
            return None  # (in Bluff the cards go down unseen: only the claim is judged)
        skip = self.v.never_leads  # (Nortenos' special 3s and 4s: the lowest ordinary card leads)
        ranks = [c >> 2 for c in self.hand(self.turn) if c != UNKNOWN and c >> 2 >= 1 and c >> 2 not in skip]
        return min(ranks) if ranks else None  # (a 2 never leads)

    def opening_leader(self) -> int | None:
        """At the opening, the seat the lowest-card rule makes the leader, when every hand is known
        (an unseen hand might hold a lower card: then None, and no seat is refused for it)."""
        if not self.opening or self.R.first_player != "lowest-card-leads" or self.R.bluff:
            return None
        if any(self.holds(s, UNKNOWN) for s in range(self.n)):
            return None
        return self.first_player()

    def first_player(self) -> int:
        """Who leads: the first 3 face up (then in hand), else the first 4, and so on."""
        rule = self.R.first_player
        if rule == "left-of-dealer":
            return 0
        hands = [self.hand(s) for s in range(self.n)]
        skip = self.v.never_leads if rule == "lowest-card-leads" else frozenset()
        for rank in range(1, 13):  # 3 up to ace; a 2 never decides
            if rank in skip:
                continue
            if rule == "first-three-face-up":
                width = max((len(u) for u in self.ups), default=0)
                for pos in range(width):
                    for s, up in enumerate(self.ups):
                        if pos < len(up) and any(c >> 2 == rank for c in up[pos]):
                            return s
            for s, h in enumerate(hands):
                if any(c >> 2 == rank for c in h):
                    return s
        return 0

    # -- the one judge --------------------------------------------------------------

    def judge(self, move: Move) -> Judged:
        """Decide a move: the reason code, the deciding fragments, and context for the sentence."""
        R = self.R
        seat = self.turn
        if R.lookup and not self.setup and not self.opening and move.claim < 0 and not self.ended:
            # (the checked path's common moves: a play of one rank from the hand, where one lookup
            # in the play-on table decides, or a pickup; as :meth:`_judge_all` decides them, without
            # the questions that cannot arise where no rule beyond the plain table is in force;
            # the hand must hold cards, which a play's held test asks: an empty hand's code is 0)
            kind = move.kind
            if kind == PLAY and move.give < 0:
                cards = move.cards
                n = len(cards)
                # (held? one test, no local stored)
                if (self.hands[seat] & self.C.fm[cards[0]]) if n == 1 else (
                        n and _held_alike(self.hands[seat], self.C, cards)):
                    if R.any_transparent:
                        return self._judge_cell(self._eff_top(self.pile), _RANK_OF[cards[0]], n)
                    # (the kept top is the effective top: the answer turns on it, the rank and the
                    # number of cards alone, so it is made once; its context is shared: read only;
                    # the rows by card, each card's its rank's: no rank looked up on the way)
                    row = R.judged[self.top][cards[0]]
                    try:
                        return row[n]  # (a dict's subscript is specialised, its get method is not)
                    except KeyError:  # (the first time)
                        got = row[n] = self._judge_cell(_TOPS[self.top], _RANK_OF[cards[0]], n)
                        return got
            elif kind == PICKUP and R.voluntary and self.pile and not move.cards and self.hand_n[seat]:
                return _PICKUP_OK, R.pick_fids, _VOLUNTARY
        return self._judge_all(move)

    def _judge_cell(self, top: Top, rank: int, n: int) -> Judged:
        """A held play of ``n`` cards of ``rank`` from the hand, where one cell of the play-on
        table decides, on the effective ``top``."""
        R = self.R
        ok, name, frags = R.cells[top.rank][rank]
        if top.looked_through:
            t_fid = R.origin[top.looked_through[0]].get("transparent")
            if t_fid:
                frags = frags + (t_fid,)
        return REASONS[name], frags, {"rank": rank, "top": top, "n": n}

    def _judge_all(self, move: Move) -> Judged:
        """:meth:`judge`, every question asked."""
        R = self.R
        seat = self.turn
        ctx: Ctx = {}
        if not self.setup and self.over():
            return Reason.GAME_OVER, ("core",), ctx
        kind = move.kind
        if self.setup:
            return self._judge_setup(seat, move, ctx)
        if kind == SLIDE and move.target and move.target != self.names[seat]:
            return self._judge_slide_by(move, ctx)
        if kind in (SWAP, READY, PLACE):
            return Reason.NOT_SETUP, ("core",), ctx
        if self.opening:
            leader = self.opening_leader()
            if leader is not None and leader != seat:
                ctx["leader"] = leader
                return Reason.NOT_LEADER, (R.first_fid,), ctx
            lead = self.opening_lead()
            if lead is not None and not (kind == PLAY and move.cards and all(c >> 2 == lead for c in move.cards)):
                ctx["rank"] = lead
                return Reason.OPENING, (R.first_fid,), ctx
        if R.bluff:
            return self._judge_bluff(seat, move, ctx)
        if move.claim >= 0 or kind == CALL:
            return Reason.CLAIM_NOT_HERE, ("core",), ctx
        zone = HAND if self.hand_n[seat] else self.zone(seat)
        forced = R.force >= 0 and self.forced()
        v = self.v
        if kind == PLAY:
            if forced:
                force_fid = R.origin[R.force]["force"]
                if all(self._deflects(c) for c in move.cards) and zone != FACE_DOWN:
                    deflect_fid = R.origin[R.deflect[0]]["deflect"] if R.deflect else force_fid
                    code, frags, ctx = self._judge_held(seat, zone, move.cards, ctx)
                    if code is not Reason.BEATS:
                        return code, frags, ctx
                    if move.give >= 0:
                        return self._judge_swap(seat, move, Reason.DEFLECT, (force_fid, deflect_fid), ctx)
                    return Reason.DEFLECT, (force_fid, deflect_fid), ctx
                return Reason.FORCED_PICKUP, (force_fid,), ctx
            return self._judge_play(seat, zone, move, ctx)
        if kind == FLIP:
            wrong = self._flip_wrong(seat, zone, move, ctx)
            if wrong is not None:
                return wrong, ("core",), ctx
            if forced:
                return Reason.FORCED_PICKUP, (R.origin[R.force]["force"],), ctx
            return Reason.FLIP_OK, ("core",), ctx
        if kind == GAMBLE:
            gfid = v.setting_origin("gamble")
            if not v.gamble or zone != HAND or not self.stock or forced:
                ctx["why"] = ("variant" if not v.gamble else "stock" if not self.stock
                              else "forced" if forced else "zone")
                return Reason.NO_GAMBLE, ((gfid,) if gfid else ("core",)), ctx
            return Reason.GAMBLE_OK, (gfid,), ctx
        if kind == SLIDE:
            sfid = v.setting_origin("slide")
            card = move.cards[0]
            held = self.holds(seat, card)
            if v.slide < 0 or card >> 2 != v.slide or not held or not self.pile or forced:
                ctx["why"] = ("variant" if v.slide < 0 else "rank" if card >> 2 != v.slide
                              else "held" if not held else "pile" if not self.pile else "forced")
                ctx["card"] = card
                return Reason.NO_SLIDE, ((sfid,) if sfid else ("core",)), ctx
            return Reason.SLIDE_OK, (sfid,), ctx
        return self._judge_pickup(seat, zone, forced, move, ctx)

    def _judge_slide_by(self, move: Move, ctx: Ctx) -> Judged:
        """A slide out of turn ('slide 3C by B'): any player still in the game may slide a card of the
        sliding rank from their hand under the pile while there is one, whoever's turn it is."""
        v = self.v
        sfid = v.setting_origin("slide")
        frags = (sfid,) if sfid else ("core",)
        card = ctx["card"] = move.cards[0]
        names = self.names
        by = names.index(move.target) if move.target in names else -1
        ctx["by"] = by
        why = ("who" if by < 0 else "variant" if v.slide < 0 or self.R.bluff else "rank" if card >> 2 != v.slide
               else "out" if self.outs[by] else "held" if not self.holds(by, card) else "pile" if not self.pile
               else "")
        if why:
            ctx["why"] = why
            return Reason.NO_SLIDE, frags, ctx
        return Reason.SLIDE_OK, frags, ctx

    def _judge_setup(self, seat: int, move: Move, ctx: Ctx) -> Judged:
        R = self.R
        fid = R.setup_fid
        if move.kind == SWAP and R.setup in ("swap", "stack"):
            h, u = move.cards
            if not self.holds(seat, h):
                ctx["card"] = h
                return Reason.NOT_HELD, (fid,), ctx
            if u not in self.up_cards(seat):
                ctx["card"] = u
                ctx["zone"] = FACE_UP
                return Reason.NOT_HELD, (fid,), ctx
            return Reason.SWAP_OK, (fid,), ctx
        if move.kind == PLACE and R.setup == "choose":
            if not self.holds(seat, move.cards[0]):
                ctx["card"] = move.cards[0]
                return Reason.NOT_HELD, (fid,), ctx
            if len(self.ups[seat]) >= R.setup_count:
                ctx["n"] = R.setup_count
                return Reason.SETUP_COUNT, (fid,), ctx
            return Reason.PLACE_OK, (fid,), ctx
        if move.kind == READY:
            if R.setup == "choose" and len(self.ups[seat]) != R.setup_count:
                ctx["n"] = R.setup_count
                return Reason.SETUP_COUNT, (fid,), ctx
            return Reason.READY_OK, (fid,), ctx
        return Reason.SETUP_ONLY, (fid,), ctx

    def _judge_pickup(self, seat: int, zone: Zone, forced: bool, move: Move, ctx: Ctx) -> Judged:
        R, v = self.R, self.v
        if not self.pile:
            return Reason.EMPTY_PILE, ("core",), ctx
        if forced:
            if move.cards:
                return Reason.PICKUP_WITH_NOT_HERE, (R.origin[R.force]["force"],), ctx
            return Reason.PICKUP_OK, (R.origin[R.force]["force"],), ctx
        if zone == FACE_DOWN:
            return Reason.MUST_FLIP, ("core",), ctx
        adds = R.adds
        fu_fid = v.setting_origin("face_up_pickup_adds") or "core"
        if zone == HAND and move.cards:
            return Reason.PICKUP_WITH_NOT_HERE, (fu_fid,), ctx
        if zone == FACE_UP:
            if adds and len(move.cards) != adds:
                return Reason.PICKUP_NEEDS_CARD, (fu_fid,), ctx
            if not adds and move.cards:
                return Reason.PICKUP_WITH_NOT_HERE, (fu_fid,), ctx
            up = Counter(self.up_cards(seat))
            for c, k in Counter(move.cards).items():
                if up[c] < k:
                    ctx["card"] = c
                    ctx["zone"] = FACE_UP
                    return Reason.NOT_HELD, (fu_fid,), ctx
        pick_fid = R.pick_fids[0]
        also = (fu_fid,) if zone == FACE_UP else ()
        if not R.voluntary:
            example = next(self._plays(), None)
            if example is not None:
                ctx["example"] = example
                return Reason.MUST_PLAY, (pick_fid,), ctx
            return Reason.PICKUP_OK, (pick_fid,) + also, ctx
        ctx["voluntary"] = True
        return Reason.PICKUP_OK, (pick_fid,) + also, ctx

    def _flip_wrong(self, seat: int, zone: Zone, move: Move, ctx: Ctx) -> Reason | None:
        """Why this blind flip cannot be made now, or None if it can."""
        if zone != FACE_DOWN:
            ctx["zone"] = zone
            return Reason.FLIP_NOT_YET
        if move.index > len(self.downs[seat]):
            ctx["n"] = len(self.downs[seat])
            return Reason.FLIP_RANGE
        return None

    def _judge_bluff(self, seat: int, move: Move, ctx: Ctx) -> Judged:
        """Bluff: a play names a rank (true or not); its form is judged, its truth only on a call."""
        R, v = self.R, self.v
        fid = v.setting_origin("bluff")
        zone = self.zone(seat)
        if move.kind == CALL:
            last = self.pile[-1] if self.pile else None
            if last is None or last[2] < 0 or last[1] == seat:
                return Reason.NO_CALL, (fid,), ctx
            return Reason.CALL_OK, (fid,), ctx
        if move.kind == PICKUP:
            return Reason.BLUFF_NO_PICKUP, (fid,), ctx
        if move.kind not in (PLAY, FLIP):
            return Reason.SETUP_ONLY if self.setup else Reason.NO_GAMBLE, (fid,), ctx
        if move.claim < 0:
            return Reason.NEEDS_CLAIM, (fid,), ctx
        if move.kind == FLIP and move.claim >= SET_COUNTED:  # (a count or a run: never on a flip)
            ctx["claim"] = claim_str(move.claim)
            return (Reason.NOT_A_RUN, (fid,), {**ctx, "why": "hand"}) if move.claim >= RUN_CLAIM else (
                Reason.COUNT, (fid,), {**ctx, "why": "hand"})
        if move.claim >= RUN_CLAIM:
            return self._judge_bluff_run(seat, zone, move, ctx)
        rank = claim_top(move.claim)
        if move.kind == FLIP:
            wrong = self._flip_wrong(seat, zone, move, ctx)
            if wrong is not None:
                return wrong, ("core",), ctx
            n = 1
        else:
            cards = move.cards
            n = claim_count(move.claim, len(cards))  # judged as claimed: the number said, true or not
            if cards and not _claimed_set(cards, n):  # (no cards: the check of what is held says so)
                ctx["why"], ctx["n"] = "hidden" if len(cards) > n else "", n
                return Reason.MIXED_RANKS, (fid,), ctx
            code, frags, ctx = self._judge_held(seat, zone, cards, ctx)
            if code is not Reason.BEATS:
                return code, frags, ctx
            if n != len(cards) and zone != HAND:
                ctx["why"], ctx["claim"] = "hand", claim_str(move.claim)
                return Reason.COUNT, (fid,), ctx
        top, count, run = self._bluff_state()
        ctx["rank"], ctx["top"], ctx["n"] = rank, Top(top, (), "", count), n
        four = R.four_burns or 4
        if n == four or (top == rank and run + n == four):
            ctx["quad"] = run if n < four else 0  # a quadruple: it goes on anything, like a 10
            return Reason.FOUR_ANYTIME, (fid, v.setting_origin("four_burns") or fid), ctx
        ok, name, frags = R.cells[top][rank]
        single_anywhere = n == 1 and name == "ANYWHERE"  # a lone 2 or 10 goes on anything, doubles included
        if (count and n != count and not single_anywhere) or n > 3:
            ctx["count"] = count
            return Reason.COUNT, (fid,), ctx
        return REASONS[name], (fid,) + frags, ctx

    def _run_start(self, state: tuple[int, int, int] | None = None) -> int:
        """Bluff: the first rank a run may be claimed from now (-1: no run may go): one higher
        than a single claimed 3 to king (or a run's last card) on top (pagat Variations, Bluffing:
        "as long as they are one higher than the previous card"). ``state``: :meth:`_bluff_state`,
        if at hand."""
        top, count, _ = state or self._bluff_state()
        return top + 1 if top != EMPTY and 1 <= top <= 11 and count == 1 else -1

    def _judge_bluff_run(self, seat: int, zone: Zone, move: Move, ctx: Ctx) -> Judged:
        """Bluff: a play claimed as a run of one suit (true or not; its truth only on a call)."""
        fid = self.v.setting_origin("bluff")
        ranks = claim_ranks(move.claim)
        ctx["claim"] = claim_str(move.claim)
        if move.kind == FLIP or zone != HAND:
            ctx["why"] = "hand"
            return Reason.NOT_A_RUN, (fid,), ctx
        code, frags, ctx = self._judge_held(seat, zone, move.cards, ctx)
        if code is not Reason.BEATS:
            return code, frags, ctx
        ctx["n"] = len(move.cards)
        if not _claimed_run(move.cards, len(ranks)):  # the claimed part's lie is in its ranks only
            ctx["why"] = "cards"
            return Reason.NOT_A_RUN, (fid,), ctx
        top = self._bluff_state()[0]
        ctx["top"] = Top(top, ())
        if self._run_start() != ranks[0]:
            ctx["why"] = "start"
            return Reason.NOT_A_RUN, (fid,), ctx
        return Reason.RUN, (fid,), ctx

    def _bluff_runs(self, seat: int, first: int, every: int = -1) -> list[Move]:
        """Bluff: every run the hand holds (one suit, consecutive, 3 to ace), each claimed as the
        run of its length that may go now (true or not), starting at rank ``first``
        (:meth:`_run_start`; -1: none may go): at most a few hundred moves. ``every``: the
        hand's :meth:`_suited`, if at hand."""
        return [_RUN_MOVES.get(key) or _run_move(key) for key in self._run_keys(seat, first, every)]

    def _run_keys(self, seat: int, first: int, every: int = -1) -> list[int]:
        """:meth:`_bluff_runs` as their keys (:func:`_run_move`), no move made: random play counts the
        runs and makes only the one drawn (a hand holds a few, seldom the one played)."""
        if first < 0 or not self.hand_n[seat]:
            return []
        if every < 0:
            every = self._suited(seat)
        every &= _THREE_UP  # (no 2 in a run)
        x = every & (every >> 1)  # the cards whose next rank of their suit is held too
        out: list[int] = []
        while x:  # each start, suit by suit and rank by rank (x's bits in order)
            low = x & -x
            x ^= low
            b = low.bit_length() - 1  # 16 * suit + the run's lowest rank
            k = 1  # the run's ranks above its lowest (past the ace: no bit, above _THREE_UP's)
            while every >> (b + k) & 1 and first + k <= 12:
                out.append(b << 8 | k << 4 | first)
                k += 1
        return out

    def _suited(self, seat: int) -> int:
        """The seat's hand as bit 16 * suit + rank for each card held (not jokers or unseen cards),
        for runs."""
        C = self.C
        h = self.hands[seat]
        if C.w == 1:  # one pack: three ranks at a time (each move from the hand asks)
            t = _suited3()
            return (t[h & 0xFFF] | t[(h >> 12) & 0xFFF] << 3 | t[(h >> 24) & 0xFFF] << 6
                    | t[(h >> 36) & 0xFFF] << 9 | t[(h >> 48) & 0xF] << 12)
        subs, rsh, rm, spread = self.subs[seat], C.rsh, C.rm, C.spread
        every = 0
        for r in range(13):
            if subs[r]:
                every |= spread[(h >> rsh[r]) & rm[r]] << r
        return every

    def _judge_held(self, seat: int, zone: Zone, cards: tuple[int, ...], ctx: Ctx) -> Judged:
        """Are the cards held where the player may play from now? (BEATS stands for yes.)"""
        if not cards:
            return Reason.NOT_HELD, ("core",), ctx
        if zone == FACE_DOWN:
            return Reason.MUST_FLIP, ("core",), ctx
        if zone == HAND:
            h, C = self.hands[seat], self.C
            csh, cm = C.csh, C.cm
            if len(cards) == 1:  # (the common play: one card, held or not)
                c = cards[0]
                short = [] if (h >> csh[c]) & cm[c] else [c]
            else:
                short = [c for c in cards if ((h >> csh[c]) & cm[c]) < cards.count(c)]
            if short:
                want = Counter(cards)
                short = list(dict.fromkeys(short))
                held = Counter(self.hand(seat))
                combo_fid = self.v.setting_origin("final_card_combo")
                up = Counter(self.up_cards(seat))
                from_up = want - held
                if (combo_fid and not self.stock and all(want[c] >= k for c, k in held.items())
                        and all(up[c] >= k for c, k in from_up.items())):
                    ctx["combo"] = combo_fid  # the whole hand, with matching face-up cards
                else:
                    ctx["card"] = short[0]
                    if up[short[0]] >= want[short[0]] - held[short[0]]:
                        return Reason.WRONG_ZONE, ("core",), ctx
                    return Reason.NOT_HELD, ("core",), ctx
        else:
            held = Counter(self.up_cards(seat))
            for c, k in Counter(cards).items():
                if held[c] < k:
                    ctx["card"] = c
                    ctx["zone"] = FACE_UP
                    return Reason.NOT_HELD, ("core",), ctx
        ups = self.ups[seat]
        if zone == FACE_UP and any(len(s) > 1 for s in ups) and not _whole_stacks(ups, cards):
            return Reason.WHOLE_STACK, (self.R.setup_fid,), ctx
        return Reason.BEATS, (), ctx

    def _judge_play(self, seat: int, zone: Zone, move: Move, ctx: Ctx) -> Judged:
        R = self.R
        cards = move.cards
        if not cards:
            return Reason.NOT_HELD, ("core",), ctx
        rank = cards[0] >> 2
        n = len(cards)
        mixed = n > 1 and (cards[-1] >> 2 != rank or (n > 2 and any(c >> 2 != rank for c in cards)))
        if mixed and not self.v.runs:
            ctx["cards"] = cards
            return Reason.MIXED_RANKS, ("core",), ctx
        if not mixed and zone == HAND and R.lookup and move.give < 0:
            # the common play, cards of one rank from the hand where a play goes by one lookup in the
            # play-on table: if they are held, the table's cell at the top decides (as below)
            h, C = self.hands[seat], self.C
            csh, cm = C.csh, C.cm
            c = cards[0]
            if (h >> csh[c]) & cm[c] if n == 1 else all(((h >> csh[c]) & cm[c]) >= cards.count(c) for c in cards):
                return self._judge_cell(self._eff_top(self.pile), rank, n)  # (``ctx`` is still empty here)
        code, frags, ctx = self._judge_held(seat, zone, cards, ctx)
        if code is not Reason.BEATS:
            return code, frags, ctx
        if mixed:
            code, frags, ctx = self._judge_run(cards, ctx)
        else:
            top = self._eff_top(self.pile)
            ctx["rank"], ctx["top"], ctx["n"] = rank, top, len(cards)
            cells = self._matrix() if R.extras else R.cells
            if cells is R.cells_rev:
                ctx["reversed"] = True
            ok, name, frags = self._placement(cells, top.rank, rank, len(cards), zone)
            if top.free and ok:
                name, frags = "RESET", (top.free,)
            if top.looked_through:
                t_fid = R.origin[top.looked_through[0]].get("transparent")
                if t_fid:
                    frags = frags + (t_fid,)
            code = REASONS[name]
        if "combo" in ctx:
            frags = frags + (str(ctx["combo"]),)
        if move.give >= 0 and code.legal:
            return self._judge_swap(seat, move, code, frags, ctx)
        return code, frags, ctx

    def _judge_run(self, cards: tuple[int, ...], ctx: Ctx) -> Judged:
        """A run: two or more cards of one suit in unbroken ascending order, each step legal."""
        v = self.v
        run_fid = v.setting_origin("runs")
        seq = sorted(cards, key=lambda c: c >> 2)
        ranks = [c >> 2 for c in seq]
        if (JOKER in cards or len({c & 3 for c in cards}) != 1 or len(cards) < v.runs
                or any(b != a + 1 for a, b in zip(ranks, ranks[1:], strict=False))):
            ctx["cards"] = cards
            return Reason.NOT_A_RUN, (run_fid,), ctx
        top = self._eff_top(self.pile)
        ctx["rank"], ctx["top"], ctx["n"] = ranks[0], top, 1
        k, step_top, cell = self._run_steps(ranks)
        if k < len(seq) and (not cell[0] or k < len(seq) - 1):  # (a card that burns goes only last)
            ctx["card"], ctx["step_top"] = seq[k], step_top
            return Reason.RUN_STEP, (run_fid,) + cell[2], ctx
        ctx["run"] = tuple(seq)
        return Reason.RUN, (run_fid,) + self._matrix()[top.rank][ranks[0]][2], ctx

    def _run_steps(self, ranks: Sequence[int]) -> tuple[int, int, Cell]:
        """A run's ranks (lowest first) laid card by card, as they come to lie on the pile: each
        must go on the top the card before leaves (the pile's own top first, the joker's free
        play included; see-through cards, a reversed table), and a card that burns goes only
        last. (k, top, cell): the first card that may not go, or that burns (the run must end
        there), the top it meets and its cell; k is ``len(ranks)`` when there is none."""
        R = self.R
        top = self.top_rank()
        base, rev, laid = self.top, self.rev, self.pile_n > 0  # the top kept as the pile grows
        cells = R.cells_rev if R.reversal >= 0 and rev % 2 else R.cells
        free = R.extras and self.alive == 2  # Guarducci's joker: a free play with two players
        cell = cells[top][ranks[0]]
        for k, r in enumerate(ranks):
            cell = cells[top][r]
            if not cell[0] or R.burn[r]:
                return k, top, cell
            base = (base if R.transparent[r] else R.counts[r]) if laid else R.first_top[r]
            laid = True
            if r == R.reversal:
                rev += 1
                cells = R.cells_rev if rev % 2 else R.cells
            top = EMPTY if free and R.free_with_two[r] else base
        return len(ranks), top, cell

    def _swap_rule(self, cards: tuple[int, ...]) -> tuple[str, str] | None:
        """The swap a play of these cards sets off ((how, fragment)), or None."""
        if not self.v.swaps or not cards or cards[0] >> 2 != cards[-1] >> 2:
            return None
        return self.R.swap_rule(cards[0] >> 2, len(cards))

    def _judge_swap(self, seat: int, move: Move, code: Reason, frags: tuple[str, ...], ctx: Ctx) -> Judged:
        rule = self._swap_rule(move.cards)
        if rule is None:
            return Reason.NO_SWAP, ("core",), ctx
        how, fid = rule
        rest = list(self.hand(seat))
        for c in move.cards:
            if c in rest:
                rest.remove(c)
        ctx["swap"] = how
        if move.give not in rest:
            ctx["card"] = move.give
            return Reason.BAD_SWAP, (fid,), ctx
        if how == "own-face-up":
            if move.target or move.take not in self.up_cards(seat):
                return Reason.BAD_SWAP, (fid,), ctx
            return code, frags + (fid,), ctx
        names = self.names
        if move.target not in names or move.target == names[seat] or self.outs[names.index(move.target)]:
            return Reason.BAD_SWAP, (fid,), ctx
        other = names.index(move.target)
        if how == "other-hand":
            if move.take >= 0 or not self.hand_n[other] or move.index > self.hand_n[other]:
                return Reason.BAD_SWAP, (fid,), ctx
        elif move.take not in self.up_cards(other):
            return Reason.BAD_SWAP, (fid,), ctx
        return code, frags + (fid,), ctx

    def is_legal(self, move: Move) -> bool:
        return self.judge(move)[0].legal

    # -- the move generator ---------------------------------------------------------

    def _plays(self) -> Iterator[Move]:
        """Every legal play (not pickups or flips) for the player to move.

        Asks the same questions as the judge: the placement table (reversed where a joker says
        so), whole face-up stacks, the final-card combo, runs, and the swaps a play allows.
        """
        R = self.R
        seat = self.turn
        zone = self.zone(seat)
        if zone == HAND:
            cards = self.hand(seat)
        elif zone == FACE_UP:
            cards = self.up_cards(seat)
        else:
            return
        top = self.top_rank()
        cells = self._matrix() if R.extras else R.cells
        ups = self.ups[seat]
        stacked = zone == FACE_UP and any(len(s) > 1 for s in ups)
        by_rank: dict[int, list[int]] = {}
        for c in cards:
            by_rank.setdefault(c >> 2, []).append(c)
        combo = zone == HAND and R.combo and not self.stock and len(by_rank) == 1
        swaps = bool(self.v.swaps) and zone == HAND  # (a swap gives a hand card: none from face up)
        anytime = bool(R.four_anytime)
        for rank, group in by_rank.items():
            seen: set[tuple[int, ...]] = set()
            if stacked:
                stacks = [s for s in ups if s[0] >> 2 == rank]
                subs = sorted({tuple(sorted(c for s in g for c in s))
                               for n in range(1, len(stacks) + 1) for g in combinations(stacks, n)},
                              key=lambda t: (len(t), t))
                for sub in subs:
                    if self._placement(cells, top, rank, len(sub), zone)[0]:
                        yield Move(PLAY, sub)
                continue
            if group[0] == UNKNOWN:
                continue  # cards nobody has seen are not played by name (check refuses them too)
            if not swaps and not anytime and len(set(group)) == len(group):
                # the common case: different cards, and a rank goes or not whatever the count
                if cells[top][rank][0]:
                    group.sort()
                    yield from _all_plays(tuple(group))
                    if combo:
                        yield from self._combos(seat, rank, group, cells, top, zone, seen)
                continue
            distinct = sorted(Counter(group).items())
            for n in range(1, len(group) + 1):
                if not self._placement(cells, top, rank, n, zone)[0]:
                    continue
                for sub in _multisets(distinct, n):  # each set of cards once: 32 sevens list 6,560, not 2**32
                    if sub not in seen:
                        seen.add(sub)
                        yield Move(PLAY, sub)
                        if swaps:
                            rule = self._swap_rule(sub)
                            if rule is not None:
                                yield from self._swap_moves(seat, sub, rule[0])
            if combo:
                yield from self._combos(seat, rank, group, cells, top, zone, seen)
        if self.v.runs:
            yield from self._runs(cards)

    def _runs(self, cards: Sequence[int]) -> list[Move]:
        """The legal runs among ``cards`` (listed after every other play; from the hand where
        the plays are counted, :meth:`_run_counts`)."""
        R = self.R
        out: list[Move] = []
        need = self.v.runs
        held = [0, 0, 0, 0]  # per suit, bit r + 1 for each rank r held
        for c in cards:
            if c != JOKER and c >= 0:  # (a card nobody has seen is not played by name: no run holds it)
                held[c & 3] |= 2 << (c >> 2)
        first: tuple[Cell, ...] | None = None
        for suit in range(4):
            x = held[suit]
            for _ in range(need - 1):  # is there a stretch of ``need`` ranks in a row at all?
                x &= x >> 1
            if not x:
                continue
            if first is None:
                # a run whose lowest card may not go on the pile is not legal: it is not judged
                first = (R.cells_rev if R.reversal >= 0 and self.rev % 2 else R.cells)[self._eff_top(self.pile).rank]
            ranks = [r - 1 for r in range(N_RANKS + 1) if held[suit] >> r & 1]
            for i, start in enumerate(ranks):
                if 0 <= start < N_RANKS and not first[start][0]:
                    continue
                last = start
                run_cards: tuple[int, ...] = (start * 4 + suit,)
                for r in ranks[i + 1:]:
                    if r != last + 1:
                        break
                    last = r
                    run_cards += (r * 4 + suit,)
                    if len(run_cards) >= need:
                        run = Move(PLAY, run_cards)
                        if self.judge(run)[0].legal:
                            out.append(run)
        return out

    def _run_reach(self, top: int) -> tuple[int, ...]:
        """Per rank s, how many cards of a run from s upwards (s, s + 1, ... to the ace) go, as
        :meth:`_run_steps` lays them on the pile as it is now. Kept per what the steps read (the
        top, the top kept as the pile grows, the table's direction, an empty pile, the joker's
        free play; ``top``: :meth:`top_rank`): every move from the hand counts its runs."""
        R = self.R
        key = self._run_key(top)
        got = R.run_reach.get(key)
        if got is None:
            reach = []
            for s in range(13):
                ranks = range(s, 13)
                k, _, cell = self._run_steps(ranks)
                reach.append(k + 1 if k < len(ranks) and cell[0] else k)  # (a card that burns ends the run)
            got = R.run_reach[key] = tuple(reach)
        return got

    def _run_key(self, top: int) -> int:
        """What :meth:`_run_steps` reads, as one int (the key of :meth:`_run_reach` and
        :meth:`_run_masks`): ``top`` (:meth:`top_rank`), the top kept as the pile grows, an empty
        pile, and where the variant has them the table's direction and the free play a card of a
        run may give."""
        R = self.R
        key = top << 5 | self.top << 1 | (self.pile_n > 0)
        if R.reversal >= 0:
            key |= (self.rev & 1) << 10
        if R.run_free and self.alive == 2:
            key |= 1 << 11
        return key

    def _run_spans(self, bits: int) -> tuple[tuple[int, int], ...]:
        """For the ranks ``bits`` of one suit held (13 bits), per rank that starts a run's length
        of ranks in a row (lowest first), how many ranks in a row it starts (kept per variant)."""
        got = self.R.run_spans.get(bits)
        if got is None:
            need = self.v.runs
            spans = []
            for s in range(13):
                t = bits >> s
                ones = (t ^ (t + 1)).bit_length() - 1  # the ranks held in a row from s
                if ones >= need:
                    spans.append((s, ones))
            got = self.R.run_spans[bits] = tuple(spans)
        return got

    def _run_counts(self, top: int) -> tuple[int, list[tuple[int, int, int]]]:
        """The runs from the hand of the player to move, where they are counted (:meth:`fast`: no
        opening, no forced pickup, the cards held; :meth:`judge` then asks only the steps): how
        many, and per first card in list order (suit, rank, how many lengths go, from the
        shortest); ``top``: :meth:`top_rank`."""
        every = self._suited(self.turn)
        need = self.v.runs
        x = every
        for _ in range(need - 1):  # the ranks that start a run's length in a row
            x &= x >> 1
        n = 0
        out: list[tuple[int, int, int]] = []
        if not x:
            return n, out
        reach = self._run_reach(top)
        spans = self.R.run_spans
        for suit in range(4):
            if x >> (16 * suit) & 0x1FFF:
                bits = every >> (16 * suit) & 0x1FFF
                got = spans.get(bits)
                if got is None:
                    got = self._run_spans(bits)
                for s, ones in got:
                    k = min(reach[s], ones) - need + 1
                    if k > 0:
                        n += k
                        out.append((suit, s, k))
        return n, out

    def run_count(self, top: int) -> int:
        """How many runs :meth:`_run_counts` finds, without listing them (every move from the hand
        asks). With one pack, read off the hand itself (card c is bit c = 4 * rank + suit, so a
        run's cards are bits 4 apart): per length, the first cards of the runs that long held, and
        of them those whose rank's reach (:meth:`_run_reach`) is as long (:meth:`_run_masks`)."""
        C = self.C
        if C.w != 1:
            return self._run_counts(top)[0]
        p = self.hands[self.turn] & C.plain_mask
        x = p & p >> 4
        need = self.v.runs
        if need > 2:
            for k in range(2, need):
                x &= p >> (4 * k)
        if not x:  # (many hands: no run)
            return 0
        masks = self.R.run_masks.get(self._run_key(top))
        if masks is None:
            masks = self._run_masks(top)
        n = 0
        for m in masks:
            n += (x & m).bit_count()
            x &= p >> (4 * need)  # the first cards of runs one longer
            if not x:
                break
            need += 1
        return n

    def _run_masks(self, top: int) -> tuple[int, ...]:
        """Per run length from the variant's shortest up, the cards (one pack) of the ranks from
        which a run that long goes now (:meth:`_run_reach`); kept per what the reach reads."""
        R = self.R
        key = self._run_key(top)
        got = R.run_masks.get(key)
        if got is None:
            reach = self._run_reach(top)
            got = R.run_masks[key] = tuple(sum(0xF << (4 * s) for s in range(13) if reach[s] >= k)
                                           for k in range(self.v.runs, 14))
        return got

    def _nth_run(self, j: int, nth: Callable[[int], Move | Pick | None], before: int, top: int) -> Move | Pick | None:
        """The j-th play where the runs follow ``before`` other plays (``nth``)."""
        return nth(j) if j < before else self.nth_run(j - before, top)

    def nth_run(self, j: int, top: int) -> Move | None:
        """The j-th run from the hand in list order (:meth:`_run_counts` on ``top``; None: past them):
        by suit, first card and length. With one pack, read off the hand's bits as
        :meth:`run_count` counts them."""
        need = self.v.runs
        C = self.C
        if C.w == 1:
            p = self.hands[self.turn] & C.plain_mask
            masks = self._run_masks(top)
            x = p
            for k in range(1, need):
                x &= p >> (4 * k)
            x &= masks[0]  # the first cards of the shortest runs that go
            for suit in range(4):
                firsts = x & (_SUIT_BITS << suit)
                while firsts:
                    low = firsts & -firsts
                    c = low.bit_length() - 1
                    n = need
                    while True:  # each length in turn, while the run is held and goes that long
                        if not j:
                            return Move(PLAY, tuple(range(c, c + 4 * n, 4)))
                        j -= 1
                        if n - need + 1 >= len(masks) or not (masks[n - need + 1] >> c & 1 and p >> (c + 4 * n) & 1):
                            break
                        n += 1
                    firsts ^= low
            return None
        for suit, s, k in self._run_counts(top)[1]:
            if j < k:
                return Move(PLAY, tuple(r * 4 + suit for r in range(s, s + need + j)))
            j -= k
        return None

    def _combos(self, seat: int, rank: int, group: Sequence[int], cells: Cells, top: int, zone: Zone,
                seen: set[tuple[int, ...]]) -> Iterator[Move]:
        """The final-card combo: the whole hand with face-up cards of its rank."""
        upc = sorted(c for c in self.up_cards(seat) if c >> 2 == rank)
        base = tuple(sorted(group))
        for n in range(1, len(upc) + 1):
            if not self._placement(cells, top, rank, len(base) + n, zone)[0]:
                continue
            for sub in combinations(upc, n):
                cards_ = tuple(sorted(base + sub))
                if cards_ not in seen:
                    seen.add(cards_)
                    yield Move(PLAY, cards_)

    def _swap_moves(self, seat: int, cards: tuple[int, ...], how: str) -> Iterator[Move]:
        rest = list(self.hand(seat))
        for c in cards:
            if c in rest:
                rest.remove(c)
        gives = sorted(set(rest))
        if how == "own-face-up":
            takes = _takes(self.ups[seat])
            for give in gives:
                for take in takes:
                    yield Move(PLAY, cards, give=give, take=take)
            return
        # the other seats (each once, not once per card given)
        others = [(self.names[q], self.hand_n[q], _takes(self.ups[q]) if how == "other-face-up" else ())
                  for q in range(self.n) if q != seat and not self.outs[q]]
        for give in gives:
            for name, n_hand, takes in others:
                if how == "other-hand" and n_hand:
                    yield Move(PLAY, cards, give=give, target=name)  # their first card, as 1 below
                    for k in range(1, n_hand + 1):  # the card taken blind, by its place in their hand
                        yield Move(PLAY, cards, index=k, give=give, target=name)
                elif how == "other-face-up":
                    for take in takes:
                        yield Move(PLAY, cards, give=give, take=take, target=name)

    def moves(self, alike: bool = False) -> list[Move]:
        """Every legal move for the player to move, plays first. ``alike``: of the plays of equal
        cards from the hand, only the first of each number of cards of a rank (for a caller to
        whom cards of one rank are alike: a search that ignores suits)."""
        R = self.R
        seat = self.turn
        # (the hand's code, read for the plays, asked first: 0 where the hand is empty, so its count
        # is not asked)
        if R.plain and (h := self.hands[seat]) and not self.setup and not self.opening and (
                not R.combo or self.stock) and not self.ended:  # (the variant first: most have no combo)
            # (the checked path's common case, and a search's: the plain game from the hand: the
            # plays of each rank that goes on the top, then the pickup, as below without the
            # questions that cannot arise)
            C = self.C
            if C.one_pack:
                # one pack: the hand's fields of the ranks that may go on the top, as its seven bytes
                # of two ranks each, each byte's plays read off (no loop: the plays of a byte's
                # every value are made once, Code.byte_plays)
                b0, b1, b2, b3, b4, b5, b6 = (h & R.nib_masks[self.top]).to_bytes(_RANK_BYTES, "little")
                t0, t1, t2, t3, t4, t5, t6 = C.byte_firsts if alike else C.byte_moves
                try:
                    moves = [*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6]]  # type: ignore[misc]
                except TypeError:  # (a byte's plays not made yet: None)
                    moves = C.byte_plays(bytes((b0, b1, b2, b3, b4, b5, b6)), alike)  # (no bytes kept for it)
            else:
                moves = []
                subs = self.subs[seat]
                rsh, rm, cache = C.rsh, C.rm, C.play_firsts if alike else C.play_moves
                for r in R.ranks_at[self.top]:
                    if subs[r]:
                        f = (h >> rsh[r]) & rm[r]
                        got = cache[r].get(f)
                        moves += got if got is not None else (C.firsts_of if alike else C.moves_of)(r, f)
            if self.pile_n and (not moves or R.voluntary):  # (:meth:`pickups`, its table read out)
                moves.append(PICKUP_MOVE)
            return moves
        return self._moves_all(alike)

    def _moves_all(self, alike: bool) -> list[Move]:
        """:meth:`moves`, every question asked (apart: its closures would cost the common case)."""
        R = self.R
        seat = self.turn
        if self.over():
            return []
        if self.setup:
            hand = self.hand(seat)
            if R.setup == "choose":
                if len(self.ups[seat]) < R.setup_count:
                    return [Move(PLACE, (c,)) for c in sorted(set(hand))]
                return [Move(READY)]
            if R.setup not in ("swap", "stack"):
                return [Move(READY)]  # the cards stay as dealt
            ups = sorted(set(self.up_cards(seat)))
            return [Move(SWAP, (h, u)) for h in sorted(set(hand)) for u in ups] + [Move(READY)]
        zone = HAND if self.hand_n[seat] else self.zone(seat)
        if R.bluff:
            return self._bluff_moves(seat, zone)
        if R.extras and R.force >= 0 and self.forced():
            moves = []
            for m in self._forced_plays(seat, zone):
                moves.append(m)
                rule = self._swap_rule(m.cards)
                if rule is not None:
                    moves += list(self._swap_moves(seat, m.cards, rule[0]))
            return moves + [PICKUP_MOVE]
        if zone == FACE_DOWN:
            return _FLIPS[:len(self.downs[seat])] if len(self.downs[seat]) <= len(_FLIPS) else [
                Move(FLIP, (), i + 1) for i in range(len(self.downs[seat]))]
        if zone == HAND and R.countable and not self.v.swaps and not (R.combo and not self.stock):
            # the common case: each rank that may go lists its plays, made once per multiset
            C = self.C
            h = self.hands[seat]
            subs = self.subs[seat]
            moves = []
            rsh, rm = C.rsh, C.rm
            cache, make = (C.play_firsts, C.firsts_of) if alike else (C.play_moves, C.moves_of)
            if R.four_anytime:
                cells = (self._matrix() if R.extras else R.cells)[self.top_rank()]
                for r in range(N_RANKS):
                    if subs[r]:
                        if cells[r][0]:
                            f = (h >> rsh[r]) & rm[r]
                            got = cache[r].get(f)
                            moves += got if got is not None else make(r, f)
                        elif cells[r][1] != "FORCED_PICKUP":  # four of a kind or more go anyway
                            f = (h >> rsh[r]) & rm[r]
                            moves += C.moves_of(r, f)[C.four_from(r, f):]
            else:  # only the ranks that may go on the top, as counted (:meth:`_play_ranks`)
                for r in self._play_ranks(self.top_rank())[0]:
                    if subs[r]:
                        f = (h >> rsh[r]) & rm[r]
                        got = cache[r].get(f)
                        moves += got if got is not None else make(r, f)
            if self.v.runs:
                moves += self._runs(self.hand(seat))
        elif zone == FACE_UP and R.up_plays is not None:
            moves = list(self._up_listed(R.up_plays, seat))
        else:
            moves = list(self._plays())
        if self.opening:
            leader = self.opening_leader()
            if leader is not None and leader != seat:
                return []  # another player leads the first play
            lead = self.opening_lead()
            if lead is not None:
                return [m for m in moves if m.kind == PLAY and all(c >> 2 == lead for c in m.cards)]
        v = self.v
        plays = len(moves)  # (every move listed so far is a play)
        if R.extras:
            if v.gamble and zone == HAND and self.stock:
                moves.append(Move(GAMBLE))
            if v.slide >= 0 and zone == HAND and self.pile:
                moves += [Move(SLIDE, (c,)) for c in sorted(set(self.hand(seat))) if c >> 2 == v.slide]
        if self.pickups(plays):
            if zone == FACE_UP and R.adds:
                moves += _pickups_with(self.ups[seat])
            else:
                moves.append(PICKUP_MOVE)
        return moves

    def _up_listed(self, cache: dict[tuple[object, ...], tuple[Move, ...]], seat: int) -> tuple[Move, ...]:
        """The plays from the seat's face-up cards on the top, listed once (``cache``: the
        compiled ``Rules.up_plays``)."""
        key = (self.top, *self.ups[seat])
        listed = cache.get(key)
        if listed is None:
            if len(cache) > 50_000:
                cache.clear()
            listed = cache[key] = tuple(self._plays())
        return listed

    def up_plays(self) -> tuple[Move, ...] | None:
        """Where :meth:`moves` lists the plays from the face-up cards once for each top and face-up
        stacks (the player to move plays from face up, past the opening, with no forced pickup
        waiting), those plays: the same tuple each time, the first moves of :meth:`moves`, which
        adds only pickups after them. None elsewhere. (A greedy player's choice among them is
        made once.)"""
        R = self.R
        cache = R.up_plays
        seat = self.turn
        if (cache is None or self.hand_n[seat] or not self.ups[seat] or self.setup or self.opening
                or (R.extras and R.force >= 0 and self.forced()) or self.over()):
            return None
        return self._up_listed(cache, seat)

    def out_of_turn(self) -> list[Move]:
        """The moves the other players may make now, out of turn, each naming its player: slides
        (threes-slide), seat by seat in the order of play from the player to move. Not in
        :meth:`moves`, which is the mover's own list (the runner's and the bots')."""
        v = self.v
        if v.slide < 0 or self.R.bluff or self.setup or not self.pile or self.over():
            return []
        out = []
        for k in range(1, self.n):
            seat = (self.turn + k * self.direction) % self.n
            if not self.outs[seat]:
                out += [Move(SLIDE, (c,), target=self.names[seat]) for c in sorted(set(self.hand(seat)))
                        if c >= 0 and c >> 2 == v.slide]
        return out

    def last_down(self, move: Move) -> tuple[int, str, tuple[str, ...]] | None:
        """A flip of the mover's last face-down card, where that card's rank decides the game at once
        (Nortenos' special threes and fours): (rank, "lose" or "win", the fragments); else None.
        None too while the card is unseen."""
        rules = self.v.last_down
        if not rules or move.kind != FLIP:
            return None
        downs = self.downs[self.turn]
        if len(downs) != 1 or move.index != 1 or downs[0] == UNKNOWN:
            return None
        rule = rules.get(downs[0] >> 2)
        return None if rule is None else (downs[0] >> 2, rule[0], rule[1])

    def _claims(self, state: tuple[int, int, int]) -> Said:
        """Bluff: per number of cards n (0 to 4), the ranks n cards may be claimed as in ``state``
        (:meth:`_bluff_state`), as :meth:`_judge_bluff` decides; how many per n; the first rank
        a run may be claimed from (:meth:`_run_start`); and with one pack, per play count of a
        rank in the hand (``subs``: 2^k - 1 for k cards), how many moves its plays make with their
        claims; and per rank and number of cards n, the state once n cards claimed as that rank go
        on a pile that stands (:func:`_claims_after`); and those moves per field of a rank's cards
        and per byte of a hand (two ranks' fields). Kept per variant: the answer depends on these
        three numbers only."""
        got = self.R.claims.get(state)
        if got is not None:
            return got
        top, count, run = state
        four = self.R.four_burns or 4
        cells = self.R.cells[top]
        oks = [r for r in range(13) if cells[r][0]]
        anywhere = [r for r in oks if cells[r][1] == "ANYWHERE"]  # (a lone 2 or 10 after doubles too)
        said: list[list[int]] = []
        for n in range(5):
            if n == four:  # four of a kind goes on anything
                said.append(list(range(13)))
                continue
            out = oks if n <= 3 and (not count or n == count) else anywhere if n == 1 else []
            if run + n == four and top < 13 and top not in out:  # (the claims on top made four)
                out = sorted([*out, top])
            said.append(list(out))
        lens = tuple(map(len, said))
        weights = [0] * 16
        for k in range(1, 5):
            weights[(1 << k) - 1] = sum(comb(k, n) * lens[n] for n in range(1, k + 1))
        after = _After(self.R, state)
        # one pack: the moves per field of a rank's cards (4 bits), and per two ranks' fields (a byte):
        # a field's by its number of cards, a byte's by its two fields' numbers (_BYTE_COUNTS, 16 * high
        # + low: a state's first use, a short run's cost, adds 80 pairs, not 256)
        by_nib = [weights[(1 << f.bit_count()) - 1] for f in range(16)]
        per = [weights[(1 << k) - 1] for k in range(5)] + [0] * 11  # (by number of cards)
        sums = [hi + lo for hi in per[:5] for lo in per]
        by_two = [sums[i] for i in _BYTE_COUNTS]
        got = self.R.claims[state] = (said, lens, self._run_start(state), weights, after, by_nib, by_two)
        return got

    def _bluff_plays(self, seat: int, zone: Zone) -> tuple[BluffPlays, list[int], int]:
        """Bluff: the plays in list order, by rank and number of cards n (1 to 4), as (plays, n),
        and per n how many plays there are; each play goes with every rank n cards may be claimed
        as (:meth:`_claims`). A play is its move claimed as each rank (:func:`_claimed`: from the
        hand or the face-up cards, its cards; face down, a flip). And from the hand, its
        :meth:`_suited` where it holds a run (for the runs; else 0). Kept per hand, per face-up
        cards and per number of face-down cards (each move asks)."""
        C = self.C
        if zone == FACE_DOWN:
            key: object = (zone, len(self.downs[seat]))
            got = self.R.bluff_plays.get(key)
            if got is not None:
                return got
            k = len(self.downs[seat])
            out: BluffPlays = [(tuple(_claimed(FLIP, (), i) for i in range(1, k + 1)), 1)]
        elif zone == HAND and not self.hands[seat] >> C.csh[_UNSEEN]:
            h = self.hands[seat]
            key = (h, C.w)
            got = self.R.bluff_plays.get(key)
            if got is not None:
                return got
            # from the play counts: each rank's plays by size, made once per multiset
            subs, rsh, rm = self.subs[seat], C.rsh, C.rm
            out = []
            for r in range(N_RANKS):
                if subs[r]:
                    sized = C.by_size(r, (h >> rsh[r]) & rm[r])
                    for n in range(1, min(5, len(sized))):
                        out.append((tuple(_claimed(PLAY, sub, 0) for sub in sized[n]), n))
        elif zone in (HAND, FACE_UP):
            if zone == HAND:
                cards = self.hand(seat)
                key = (zone, cards)
            else:
                key = (zone, *self.ups[seat])
            got = self.R.bluff_plays.get(key)
            if got is not None:
                return got
            if zone == FACE_UP:
                cards = self.up_cards(seat)
            by_rank: dict[int, list[int]] = {}
            for c in cards:
                by_rank.setdefault(c >> 2, []).append(c)
            ups = self.ups[seat]
            stacked = zone == FACE_UP and any(len(s) > 1 for s in ups)
            out = []
            for group in by_rank.values():
                if len(group) == 1 and not stacked:  # (most: a lone card of its rank, its one play)
                    out.append(([_claimed(PLAY, (group[0],), 0)], 1))
                    continue
                distinct = sorted(Counter(group).items())
                for n in range(1, min(4, len(group)) + 1):
                    subs_n = [_claimed(PLAY, sub, 0) for sub in _multisets(distinct, n)
                              if not stacked or _whole_stacks(ups, sub)]
                    if subs_n:
                        out.append((subs_n, n))
        else:
            return [], [0] * 5, 0
        sizes = [0] * 5
        for listed, n in out:
            sizes[n] += len(listed)
        every = 0
        if zone == HAND:
            every = self._suited(seat) & _THREE_UP  # (no 2 in a run)
            if not every & (every >> 1):  # no two cards of a suit in a row: no run
                every = 0
        if len(self.R.bluff_plays) > 50_000:
            self.R.bluff_plays.clear()
        got = self.R.bluff_plays[key] = (out, sizes, every)
        return got

    def _nth_bluff(self, j: int, plays_by: BluffPlays, said: list[list[int]]) -> Move | None:
        """Bluff: the j-th play or flip with its claim in list order, from :meth:`_bluff_plays`
        and :meth:`_claims` (None: past them)."""
        for plays, n in plays_by:
            ranks = said[n]
            k = len(plays) * len(ranks)
            if j < k:
                i, c = divmod(j, len(ranks))
                return plays[i][ranks[c]]
            j -= k
        return None

    def push_bluff_drawn(self, draw: Callable[[T, int], int], rng: T,
                         made: bool = True) -> tuple[Move | tuple[int, ...], Sequence[Event]] | None:
        """Bluff, for random play: count the listed moves (the plays with their claims counted, then
        the runs and the call listed, never a pickup), push the j-th, ``j = draw(rng, n)`` of the
        n (as ``push(moves()[j])``), and return it and its events, without listing; None, nothing
        drawn, where they must be listed (in the setup, a hand with unseen cards). ``made``: return
        a play from the hand or face up, or a flip, as its move (else as its cards: bulk play keeps no
        move)."""
        if self.setup:
            return None
        seat = self.turn
        # the claims' tables (:meth:`_claims`) and whether the seat may call the last play
        # (:meth:`_may_call`; the last play read once: a negative index is not a quick subscript):
        # every move asks, from wherever it plays
        state = self.claimed
        got = self.R.claims.get(state) or self._claims(state)
        pile = self.pile
        call = False
        if pile:
            last = pile[-1]
            call = last[2] >= 0 and last[1] != seat
        h = self.hands[seat]
        C = self.C
        if not h or C.w != 1 or h >= _JOKERS_AT:  # (a compare: no big int made, as by a shift)
            if not h and C.w == 1 and self.ups[seat]:  # from face up, one pack: counted (None: listed)
                pushed = self._push_bluff_up(seat, draw, rng, got, call, made)
                if pushed is not None:
                    return pushed
            return self._push_bluff_listed(seat, draw, rng, got, call, made)
        # a hand of one pack, no jokers (most moves): a rank's plays are the sets of its k cards, so
        # its play count says how many moves they make with their claims (nothing kept per hand:
        # most hands are seen once), read off the hand's fields by the claims' tables.
        # The play drawn is pushed here as :meth:`_push_bluff` pushes it (each move asks).
        said, _, first, _, after, by_nib, by_two = got
        # (the ranks held: one card each? A rank's play count is 2^k - 1 for its k cards, k or more:
        # the counts add up to the cards only where no rank holds two; one C call, no big-int steps)
        held = self.hand_n[seat]
        singles = sum(self.subs[seat]) == held
        if singles:  # no two cards of a rank (most hands): each card is one play, a single, with each
            # claim a single may make, in card order (its bits: rank by rank)
            ranks = said[1]
            per = len(ranks)  # (the moves of each card)
            nplay = held * per
        else:  # (a sum over the 13 ranks cost more than the rest of the move: two ranks a look-up)
            # (the hand's bytes by one C call, small ints: no big-int steps; the last byte is the ace's
            # field alone, no jokers here)
            b0, b1, b2, b3, b4, b5, b6 = h.to_bytes(_RANK_BYTES, "little")
            n0, n1, n2, n3, n4, n5 = by_two[b0], by_two[b1], by_two[b2], by_two[b3], by_two[b4], by_two[b5]
            nplay = n0 + n1 + n2 + n3 + n4 + n5 + by_nib[b6]
        # the runs, then the call, after the plays (counted: no list made for them, most moves have no
        # run; a run's move made only where drawn)
        runs = self._run_keys(seat, first) if first >= 0 and h & (h >> 4) & _RUN_PAIRS else _NO_RUNS
        nmoves = nplay + len(runs)
        if call:
            nmoves += 1
        j = draw(rng, nmoves)
        if j >= nplay:
            j -= nplay
            move = (_RUN_MOVES.get(runs[j]) or _run_move(runs[j])) if j < len(runs) else CALL_MOVE
            return move, self.push(move)
        if singles:  # the i-th card, claimed as the c-th rank a single may be
            i = j // per  # (not divmod: no call, no tuple)
            c = j - i * per
            b = h
            while i:
                b &= b - 1
                i -= 1
            val = b & -b
            cards = _ONE_CARD[val.bit_length() - 1]
            r = cards[0] >> 2  # (one name a statement: no tuple made)
            n = 1
            left = 0
            claim = ranks[c]
        else:
            r = 0  # the rank drawn: its two, then itself
            for k in (n0, n1, n2, n3, n4, n5):
                if j < k:
                    break
                j -= k
                r += 2
            f = (h >> 4 * r) & 15  # (one pack: a rank's cards are 4 bits, by suit)
            while j >= by_nib[f]:
                j -= by_nib[f]
                r += 1
                f = (h >> 4 * r) & 15
            lays = C.lays[r].get(f) or C.lays_of(r, f)  # (its plays by size: n cards from the at-th)
            for n, k, at in _SIZES_OF_FIELD[f]:
                ranks = said[n]
                if j < k * len(ranks):
                    i, c = divmod(j, len(ranks))
                    cards, val, left = lays[at + i]
                    claim = ranks[c]
                    break
                j -= k * len(ranks)
        self.hands[seat] = h - val  # (:meth:`_take`, inline, and the rank's play count left)
        self.hand_n[seat] = held - n
        self.subs[seat][r] = left
        self.causes = []
        events: list[Event] = []
        self._lay_claimed(seat, cards, claim, events, after[claim][n])
        self.opening = False
        return _claimed(PLAY, cards, 0)[claim] if made else cards, events

    def _push_bluff_listed(self, seat: int, draw: Callable[[T, int], int], rng: T, got: Said, call: bool,
                           made: bool) -> tuple[Move | tuple[int, ...], Sequence[Event]] | None:
        """:meth:`push_bluff_drawn` but from a hand of one pack and no jokers, past the setup, nor from
        the face-up cards that :meth:`_push_bluff_up` counts (``got``: the claims' tables,
        :meth:`_claims`; ``call``: may the seat call): from the face-down cards, else from the plays
        as listed (:meth:`_bluff_plays`)."""
        said, lens, first, _, after, _, _ = got
        if self.hand_n[seat]:
            if self.hands[seat] >> self.C.csh[_UNSEEN]:
                return None
            zone = HAND
        elif self.ups[seat]:  # (stacks: :meth:`_bluff_plays` lists their plays)
            zone = FACE_UP
        elif self.downs[seat]:  # a flip of each card claimed as each rank a single may be, then the call
            ranks = said[1]  # (:meth:`_bluff_plays`' list, without it: nothing to keep)
            per = len(ranks)
            nplay = len(self.downs[seat]) * per
            j = draw(rng, nplay + 1 if call else nplay)
            if j >= nplay:
                return CALL_MOVE, self.push(CALL_MOVE)
            i = j // per  # (not divmod: no call, no tuple)
            claim = ranks[j - i * per]
            # pushed as :meth:`_push_bluff` pushes a flip (each flip: no move made on the way): its card
            # out, laid with the claims after it, no refill
            cards = self._flip_out(seat, i)
            self.causes = []
            events: list[Event] = []
            self._lay_claimed(seat, cards, claim, events, after[claim][1], False)
            self.opening = False
            return _claimed(FLIP, (), i + 1)[claim] if made else cards, events
        else:
            return None
        plays_by, nplay, extra = self._bluff_listed(seat, zone, lens, first)
        if call:
            extra.append(CALL_MOVE)
        j = draw(rng, nplay + len(extra))
        move = extra[j - nplay] if j >= nplay else self._nth_bluff(j, plays_by, said)
        assert move is not None
        return move, self.push(move)

    def _push_bluff_up(self, seat: int, draw: Callable[[T, int], int], rng: T, claims: Said,
                       call: bool, made: bool) -> tuple[Move | tuple[int, ...], Sequence[Event]] | None:
        """:meth:`push_bluff_drawn` from the face-up cards, one pack, a card a stack (Bluff's deal):
        the plays counted by rank as :meth:`_bluff_plays` lists them (:func:`_up_groups`: a rank's
        k cards make one move per claim for each of their 2^k - 1 sets), the one drawn made and
        pushed; None where a stack holds more cards (then listed). (Each face-up play asks, and the
        face-up cards seldom come round again: the list is not kept.)"""
        ups = self.ups[seat]
        said, _, _, weights, after, _, _ = claims
        seen = 0  # the ranks met, a bit each (a loop: C calls over three stacks cost more)
        for stack in ups:
            bit = _RANK_BIT[stack[0]]
            if seen & bit or len(stack) != 1:
                seen = -1
                break
            seen |= bit
        if seen >= 0:  # a card a stack, no two of a rank (most): each card one play, a single, in the
            # stacks' order, with each claim a single may make (:func:`_up_groups`' groups, without them)
            ranks = said[1]
            per = len(ranks)
            nplay = len(ups) * per
            j = draw(rng, nplay + 1 if call else nplay)
            if j >= nplay:
                return CALL_MOVE, self.push(CALL_MOVE)
            i = j // per  # (not divmod: no call, no tuple)
            cards = ups[i]  # (its stack: the card)
            n, claim = 1, ranks[j - i * per]
            left = ups[:i] + ups[i + 1:]
        else:
            groups = _up_groups(ups)
            if groups is None:
                return None
            nplay = 0
            for g in groups:
                nplay += weights[(1 << len(g)) - 1]
            j = draw(rng, nplay + 1 if call else nplay)
            if j >= nplay:
                return CALL_MOVE, self.push(CALL_MOVE)
            for g in groups:
                f = (1 << len(g)) - 1
                if j < weights[f]:
                    break
                j -= weights[f]
            for n, k, _ in _SIZES_OF_FIELD[f]:  # (its plays by size, each the combinations of n cards)
                ranks = said[n]
                if j < k * len(ranks):
                    i, c = divmod(j, len(ranks))
                    cards = (g[i],) if n == 1 else list(combinations(g, n))[i]
                    claim = ranks[c]
                    break
                j -= k * len(ranks)
            left = self.up_left(seat, cards)
        # pushed as :meth:`_push_bluff` pushes a play from face up (each face-up move: no call on the way)
        self.ups = _put(self.ups, seat, left)
        self.causes = []
        events: list[Event] = []
        self._lay_claimed(seat, cards, claim, events, after[claim][n])
        self.opening = False
        return _claimed(PLAY, cards, 0)[claim] if made else cards, events

    def _bluff_listed(self, seat: int, zone: Zone, lens: tuple[int, ...], first: int) -> tuple[BluffPlays, int, list[Move]]:
        """Bluff: the seat's plays from ``zone`` as kept (:meth:`_bluff_plays`), how many moves they
        make with their claims (``lens``: per number of cards, the ranks that may be claimed), and
        the runs listed after them (claimed from ``first``)."""
        plays_by, sizes, every = self._bluff_plays(seat, zone)
        nplay = sizes[1] * lens[1] + sizes[2] * lens[2] + sizes[3] * lens[3] + sizes[4] * lens[4]
        return plays_by, nplay, self._bluff_runs(seat, first, every) if every else []

    def _may_call(self, seat: int) -> bool:
        """Bluff: may the seat call the last play (another player's claim)?"""
        pile = self.pile
        return bool(pile) and pile[-1][2] >= 0 and pile[-1][1] != seat

    def _bluff_counted(self) -> tuple[int, list[Move], int, Callable[[int], Move | None]]:
        """:meth:`counted` in Bluff: the plays (or flips) with their claims counted, then the runs
        and the call listed; never a pickup."""
        seat = self.turn
        said, lens, first, _, _, _, _ = self._claims(self.claimed)
        zone = HAND if self.hand_n[seat] else self.zone(seat)
        plays_by, nplay, extra = self._bluff_listed(seat, zone, lens, first)
        if self._may_call(seat):
            extra.append(CALL_MOVE)
        def nth(j: int) -> Move | None:  # (a closure: see :meth:`counted`)
            return self._nth_bluff(j, plays_by, said)
        return nplay, extra, 0, nth

    def _bluff_moves(self, seat: int, zone: Zone) -> list[Move]:
        said, _, first, _, _, _, _ = self._claims(self.claimed)
        moves: list[Move] = []
        for plays, n in self._bluff_plays(seat, zone)[0]:
            ranks = said[n]
            if ranks:
                for row in plays:
                    moves += [row[r] for r in ranks]
        if zone == HAND:
            moves += self._bluff_runs(seat, first)
        if self._may_call(seat):
            moves.append(CALL_MOVE)
        return moves

    def _forced_plays(self, seat: int, zone: Zone) -> list[Move]:
        if zone == FACE_DOWN:
            return []
        cards = self.hand(seat) if zone == HAND else self.up_cards(seat)
        deflect = sorted(c for c in cards if self._deflects(c))
        ups = self.ups[seat]
        out: list[Move] = []
        for n in range(1, len(deflect) + 1):
            for sub in sorted(set(combinations(deflect, n))):
                if zone == FACE_UP and any(len(s) > 1 for s in ups) and not _whole_stacks(ups, sub):
                    continue
                out.append(Move(PLAY, sub))
        return out

    # -- counting and picking plays without listing them -------------------------------

    def fast(self, combo: bool = False) -> bool:
        """Can :meth:`count_moves` and :meth:`nth_move` answer without listing? Yes where a play's
        legality is one lookup per rank (with the runs, swaps, claims or four of a kind anytime
        counted or listed apart), from the hand, past the opening, with no forced pickup waiting
        and the final-card combo out of reach; in Bluff from every zone (the opening changes
        nothing there) but a hand with unseen cards or face-up stacks. ``combo``: the caller takes
        :meth:`counted`'s other moves as plays, so the final-card combo within reach may be
        counted too (where plays are counted by rank alone, no runs: it is listed among them)."""
        R = self.R
        seat = self.turn
        if not R.fast_hand:  # (Bluff, a forced pickup to ask about, or plays not counted)
            if R.bluff:
                if self.setup:
                    return False
                if self.hand_n[seat]:
                    return not self.hands[seat] >> self.C.csh[_UNSEEN]
                if self.ups[seat]:
                    return not any(len(s) > 1 for s in self.ups[seat])
                return bool(self.downs[seat])
            if not R.countable or R.force >= 0 and self.forced():
                return False
        if not self.hand_n[seat] or self.opening or self.setup or self.hands[seat] >> self.C.csh[_UNSEEN]:
            return False
        if R.combo and not self.stock and not (combo and self._combo_counted()):
            subs = self.subs[seat]
            return len(subs) - subs.count(0) != 1
        return True

    def _combo_counted(self) -> bool:
        """Does :meth:`counted` list the final-card combo (plays counted by rank alone, no runs)?"""
        return not self.R.counting and not self.v.runs

    def plain_now(self) -> bool:
        """Where the plays are mostly the plain game's (``Rules.plain_mostly``), are the moves
        from the hand now exactly those: each play of every rank that goes on the kept top, then
        a pickup (no forced pickup waiting, no four of a kind or more of a rank that may not go,
        the final-card combo out of reach, no gamble or slide to make; the hand's cards known,
        past the opening)? Random play then counts and picks them from the compiled tables, as
        in the plain game."""
        seat = self.turn
        if not self.hand_n[seat] or self.opening or self.setup or self.hands[seat] >> self.C.csh[_UNSEEN]:
            return False
        R = self.R
        return not R.now_and_then or R.plain_then(self)

    def plain_then(self) -> bool:
        """:meth:`plain_now` where the player to move holds known cards, past the opening (the
        rules that act now and then: ``Rules.plain_then`` is this or one part of it)."""
        R, v = self.R, self.v
        if R.force >= 0 and self.forced():
            return False
        if R.combo and not self._combo_far():
            return False
        if R.four_anytime and self._anytime():
            return False
        if (v.gamble and self.stock) or (v.slide >= 0 and self.pile and self.subs[self.turn][v.slide]):
            return False  # (:meth:`_extra_moves`)
        return True

    def plain_runs(self) -> tuple[int, tuple[int, ...], tuple[int, ...], int] | None:
        """Where the plays are the plain game's and runs (``Rules.plain_runs``: Guarducci), from a
        hand of known cards past the opening: what :meth:`counted` counts, as numbers (random play
        picks from them with :meth:`nth_counted` and :meth:`nth_run`, with no closures made):
        the effective top, the ranks that may go on it, their play counts and how many runs go
        (after them). Else None."""
        seat = self.turn
        if not self.hand_n[seat] or self.opening or self.setup or self.hands[seat] >> self.C.csh[_UNSEEN]:
            return None
        R = self.R
        top = self.top if not R.free_two or self.alive > 2 else self.top_rank()  # (the joker's free play)
        if R.reversal >= 0 and self.rev % 2:
            return top, R.ranks_rev[top], R.get_rev[top](self.subs[seat]), self.run_count(top)
        return top, R.ranks_at[top], R.get_at[top](self.subs[seat]), self.run_count(top)

    def _unforced(self) -> bool:
        """``not self.forced()``, the top card read here first: most are neither the forcing card
        nor one that passes it on."""
        pile = self.pile
        if not pile:
            return True
        R = self.R
        top = pile[-1][0][-1] >> 2
        if top != R.force and (R.deflect is None or top != R.deflect[0]):
            return True
        return not self.forced()

    def _combo_far(self) -> bool:
        """Is the final-card combo out of reach (a stock to draw from, more than one rank in hand,
        or no face-up card of the hand's rank: then :meth:`_combos` has none to list)?"""
        if self.stock:
            return True
        seat = self.turn
        subs = self.subs[seat]
        if subs.count(0) != N_RANKS - 1:
            return True
        rank = subs.index(max(subs))  # (the one rank held; loops, not generators: quicker for so few)
        for s in self.ups[seat]:
            for c in s:
                if c >> 2 == rank:
                    return False
        return True

    def _no_fours(self) -> bool:
        """With four of a kind anytime, does the hand hold no play of four cards or more of a rank
        that may not go (:meth:`_anytime` empty)? Asked first of the play counts: a field with four
        cards has at least ``Code.four_least`` plays."""
        fours, getter = self.R.fours_at[self.top]
        if not fours or max(getter(self.subs[self.turn])) < self.C.four_least:
            return True
        return not self._anytime()

    def _play_ranks(self, top: int) -> tuple[tuple[int, ...], Callable[[list[int]], tuple[int, ...]]]:
        """The ranks that may go now on ``top`` (:meth:`top_rank`), and their getter over the play
        counts."""
        R = self.R
        if R.reversal >= 0 and self.rev % 2:
            return R.ranks_rev[top], R.get_rev[top]
        return R.ranks_at[top], R.get_at[top]

    def _anytime(self) -> list[tuple[int, int, int]]:
        """With four of a kind anytime, where a rank may not go: its plays of four cards or more
        (they come last among its plays), as (rank, the first of them, how many) for each rank
        that has some."""
        R, C = self.R, self.C
        seat = self.turn
        subs = self.subs[seat]
        top = self.top_rank()
        fours, getter = R.fours_rev[top] if R.reversal >= 0 and self.rev % 2 else R.fours_at[top]
        out = []
        if fours and max(getter(subs)) >= 4:  # (fewer than four plays: fewer than four cards)
            h = self.hands[seat]
            for r in fours:
                s = subs[r]
                if s >= 4:
                    k = C.four_from(r, (h >> C.rsh[r]) & C.rm[r])
                    if k < s:
                        out.append((r, k, s - k))
        return out

    def swap_counts(self) -> tuple[int, int, SwapCounts]:
        """Where the plays are counted with their swaps and nothing else (``Rules.plain_swaps``) and
        :meth:`fast`: what :meth:`counted` counts, on the effective top (the joker's free play, with
        two players left: see :meth:`top_rank`): the moves the plays stand for (each play itself
        and its swaps), as two numbers, the one or the other 0: where no play swaps, the plays, to
        be picked as the plain game's (from the ranks that go, by the key below), else the plays and
        their swaps, for :meth:`push_swap_at` (random play reads the two with no test); and what
        :meth:`nth_swap_play` walks (random play picks from it with no
        closure made): the key of the ranks that may go (``Rules.swap_ranks``), per rank the moves
        of its plays (plays and swaps: the hand's play counts, a copy, with each swap added), per
        rank whose plays swap its :meth:`_swap_form`, the number of distinct
        cards in hand, and per swap rule (by its place in ``_SWAP_HOWS``) the swaps per card given
        (:meth:`_swaps_per`), then 0 (a play with no swap, whose place is -1: no test for it where
        the plays are walked). Where no play swaps (most moves), the key's ``Rules.swap_none``: no
        per-rank moves (the hand's play counts are theirs) and None for the swaps (random play
        then picks a play as in the plain game)."""
        R = self.R
        seat = self.turn
        # (as :meth:`_play_ranks`, inline: each move asks)
        key = self.top + _SWAP_REV[self.rev & 1]
        if R.free_two and self.alive <= 2:
            key += self.top_rank() - self.top
        h = self.hands[seat]
        C = self.C
        # the plays that may go, and the ranks that may go whose plays may swap (bit 4 * r + 3 for
        # rank r): with enough cards for a play that swaps, where some player holds what it swaps with
        if C.one_pack:  # one pack: read off the hand's bits (each move asks; most ranks have no swap)
            # the swap rules that allow a swap now, by the face-up zones (own-face-up, other-face-up:
            # _swaps_per's; other-hand's taken as allowed: where no other hand holds cards, its swaps
            # per card are none, so its plays count no swap in the loop below): kept per seat for the
            # last zones met (_ups_swaps), so read at every move: a hand with a play that swaps only
            # by the rules in force is as dear to find as one with a play that may swap by any rule
            seen = _UPS_SEEN  # (read once: another thread may put its own zones in place)
            if seen[0] is not self.ups:
                seen = self._ups_swaps()
            on = seen[2][seat]
            # per rank that may go, its number of cards in its 4 bits (the jokers' field, from bit
            # JOKER, holds their number: ``swap_nibs`` leaves out the fields above, and those of the
            # ranks that may not go)
            held = h & R.swap_nibs[key]
            if h < _TWO_JOKERS_AT:  # (most hands: the fields of the ranks that may go, as the hand's 7
                # bytes, two ranks' fields a byte, their plays counted by a table at C speed, with a
                # bit a byte where a field may swap (``Rules.swap_flags``); big-endian both ways, the
                # default, no byte order passed: the same bytes)
                b = held.to_bytes(_RANK_BYTES)
                x = _FROM_BYTES(b.translate(R.swap_flags[on]))
                flags = x & _BYTE_FLAGS
                own = held & R.swap_own[on]  # (a card of a rank with a swap of its own)
                # (as the plain game counts them from the play counts; the bytes added up as the
                # int they make modulo 255, 256 being 1 modulo 255: at most 13 * 15 + 1 plays)
                if not (flags or own):  # (most moves: no play swaps; no flag or-ed in to find it)
                    return x % 255, 0, R.swap_none[key]
                if own:
                    flags += 1  # (bit 0: a rank with a swap of its own)
                n = (x & _BYTE_LOWS) % 255
                ranks = R.swap_flagged.get(flags) or self._flag_ranks(flags)
                h = held  # (a rank with a swap of its own that may not go: no field, no swap)
                # distinct cards in hand (a play may give any card it leaves one of): every card
                # once (one joker at most)
                distinct = self.hand_n[seat]
            else:  # (two jokers or more: bit by bit; a compare, no shift made)
                n = self._swap_plays(key)
                t = (h & _ODDS) + (h >> 1 & _ODDS)  # (the 52 cards' bits alone)
                t = ((t & _PAIRS) + (t >> 2 & _PAIRS) + (h >> JOKER << JOKER)) & R.swap_nibs[key]
                many = (t + R.swap_adds[on]) & _NIB_TOPS
                if not many:
                    return n, 0, R.swap_none[key]
                ranks = _SWAP_BITS.get(many) or _swap_bits(many)
                jokers = self.subs[seat][JOKER_RANK]  # (but the jokers, alike, count once)
                distinct = self.hand_n[seat] - (jokers - 1 if jokers > 1 else 0)
            per = [*seen[4][seat]]  # (_ups_swaps': other-hand's asked where a play asks)
            subs = self.subs[seat]
        else:
            n = self._swap_plays(key)
            subs = self.subs[seat]
            ranks = R.swap_ranks[key]
            many, distinct = self._swap_packs(ranks, R.swap_tops[key][1](subs))
            ranks = _SWAP_BITS.get(many) or _swap_bits(many)
            per = [-1, -1, -1, 0]
        swapping: dict[int, SwapForm] = {}
        try:  # (as below)
            forms = R.swap_forms[C.w]
        except KeyError:
            forms = self._swap_forms()
        rsh, rm = C.rsh, C.rm
        tally = subs.copy()  # per rank, its plays and their swaps
        added = 0
        for r in ranks:
            f = (h >> rsh[r]) & rm[r]
            try:  # (a subscript, no method called: a field met before, all but the first time)
                form = forms[r][f]
            except KeyError:
                form = self._swap_form(r, f)
            swaps = 0
            for how, k, gone in form[1]:
                p = per[how]
                if p < 0:
                    p = per[how] = self._swaps_per(seat, how)
                # a swap per card a play may give (the distinct cards it leaves one of) times
                # the swaps per card given
                swaps += (distinct * k - gone) * p
            if swaps:
                swapping[r] = form
                tally[r] += swaps
                added += swaps
        if not swapping:
            return n, 0, R.swap_none[key]
        return 0, n + added, (key, tally, swapping, distinct, per)

    def _flag_ranks(self, flags: int) -> tuple[int, ...]:
        """The ranks whose plays may swap, from :meth:`swap_counts`' flags (one pack,
        ``Rules.swap_flags``: bit 8 * i + 5 for rank 2 * i, 8 * i + 6 for rank 2 * i + 1, and bit 0
        where a card of a rank with a swap of its own in force is held: then each such rank, its
        swaps counted from the fields of the ranks that may go, none where it may not go): kept by
        value per variant (a move reads them with one look-up). Found as :func:`_swap_bits` finds
        its ranks, the bits moved to its places (8 * i + 5 to 8 * i + 3, 8 * i + 6 to 8 * i + 7:
        two shifts, no loop; its ranks kept by value for every variant), each rank with a swap of
        its own first."""
        R = self.R
        many = (flags & _EVEN_FLAGS) >> 2 | (flags & _ODD_FLAGS) << 1
        got = _SWAP_BITS.get(many) or _swap_bits(many)
        if flags & 1:
            own = R.swap_own_ranks
            got = own + tuple([r for r in got if r not in own])
        R.swap_flagged[flags] = got
        return got

    def _swap_plays(self, key: int) -> int:
        """The plays of the hand to move that may go, by :meth:`swap_counts`' key, as the plain
        game counts them (``Rules.count_at``: :func:`_adder`)."""
        return self.R.swap_count[key](self.subs[self.turn])

    def _ups_swaps(self) -> UpsSeen:
        """The face-up zones, then per seat the face-up cards a swap may take from its zone
        (:func:`_takes`), how many, and last all of them: what own-face-up and other-face-up allow
        per card given (:meth:`_swaps_per`); per seat, the swap rules they allow; and per seat the
        cards themselves (:meth:`push_swap_at` picks one: no zone hashed to find them); and per seat
        :meth:`swap_counts`' swaps per card given by rule as far as the zones tell them (own-face-up,
        other-hand's not known: -1, other-face-up, none: a list made of it at each move that may
        swap, no sum made there). Kept for the
        last zones met, by identity (``_UPS_SEEN``: a push puts new zones in place, and they stay as
        they are for many moves; each move asks; a swap of one pack's face-up card for a hand card
        keeps the counts, and :meth:`_swap_with` keeps them on, the cards of the zone it changes
        made anew from those it had). Returned whole, as kept (another thread may put its own in
        place at any step: read the global once)."""
        ups = self.ups
        global _UPS_SEEN
        seen = _UPS_SEEN
        if seen[0] is ups:
            return seen
        takes = []
        cards = []
        # (a zone that is the one in the same place of the last zones met, the same object, has
        # the cards kept for it: most pushes that put new zones in place change one zone)
        was: tuple[object, ...] = seen[0] if isinstance(seen[0], tuple) else ()
        kept = seen[3]
        if len(was) != len(ups):
            was, kept = (None,) * len(ups), ((),) * len(ups)
        for zone, old, got in zip(ups, was, kept, strict=True):  # (a loop, not a generator: quicker for so few)
            if zone is not old:
                got = (_TAKES.get(zone) or _takes(zone)) if zone else ()
            cards.append(got)
            takes.append(len(got))
        every = sum(takes)
        # and per seat, the swap rules they allow (:meth:`swap_counts`: bit i, _SWAP_HOWS[i];
        # other-hand's taken as allowed)
        rules = []
        per = []
        for own in takes:  # (a loop, as above)
            rules.append((1 if own else 0) + (4 if every - own else 0) + 2)
            per.append((own, -1, every - own, 0))
        takes.append(every)
        seen = _UPS_SEEN = ups, tuple(takes), tuple(rules), tuple(cards), tuple(per)
        return seen

    def _swap_packs(self, ranks: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, int]:
        """Several packs: :meth:`swap_counts`' ranks whose plays may swap (bit 4 * r + 3 for rank r:
        those with a play of two cards or more, or of one with a swap of its own), and the number of
        distinct cards in hand (apart, so that swap_counts makes no closure: each move asks)."""
        C = self.C
        h = self.hands[self.turn]
        subs = self.subs[self.turn]
        lone = self.R.lone_swaps
        many = sum(8 << 4 * r for r, held in zip(ranks, counts, strict=True) if held > 1 or (held and lone[r]))
        return many, sum(C.distinct(q, (h >> C.rsh[q]) & C.rm[q]) for q in range(N_RANKS) if subs[q])

    def _swap_forms(self) -> tuple[dict[int, SwapForm], ...]:
        """Per rank, the :meth:`_swap_form` of each field met so far, for this pack (kept per
        variant: each move asks)."""
        forms = self.R.swap_forms.get(self.C.w)
        if forms is None:
            forms = self.R.swap_forms[self.C.w] = tuple({} for _ in range(N_RANKS))
        return forms

    def _swap_form(self, r: int, f: int) -> SwapForm:
        """The plays of rank ``r`` from its field ``f`` as :meth:`swap_counts` counts them (kept in
        :meth:`_swap_forms`): how many; per swap rule that plays of some sizes set off (its place
        in ``_SWAP_HOWS``), how many such plays and the sum of their :meth:`Code.gone`; and the
        plays in order, in runs of plays with the same swap rule (:meth:`Rules.swap_rule`) and
        gone: (how many, the rule, the gone, the rule's place; -1: none) (with one pack, a run
        per size); and the plays themselves, :meth:`Code.lays_of` (:meth:`push_swap_at` picks from them:
        no field read off the hand again to find them). With one pack (no joker), all but the plays
        are those of the field of as many cards in the lowest suits (each card once: the same plays
        by size, each leaving none of its cards), made once per number of cards: a field first met
        costs its plays alone (no tally, no rule asked per play)."""
        C = self.C
        if C.w == 1 and r < JOKER_RANK:
            like = (1 << f.bit_count()) - 1
            if like != f:
                forms = self._swap_forms()[r]
                same = forms.get(like) or self._swap_form(r, like)
                form = forms[f] = same[0], same[1], same[2], C.lays_of(r, f)
                return form
        swapping: dict[int, list[int]] = {}
        total = 0
        for n, k, gone in self.C.swap_tally(r, f):
            total += k
            rule = self.R.swap_rule(r, n)
            if rule is not None:
                got = swapping.setdefault(_SWAP_HOWS.index(rule[0]), [0, 0])
                got[0] += k
                got[1] += gone
        plays: list[tuple[int, tuple[str, str] | None, int, int]] = []
        for (sub, _), g in zip(self.C.plays_of(r, f), self.C.gone(r, f), strict=True):
            rule = self.R.swap_rule(r, len(sub))
            if plays and plays[-1][1:3] == (rule, g):
                plays[-1] = (plays[-1][0] + 1, *plays[-1][1:])
            else:
                plays.append((1, rule, g, _SWAP_HOWS.index(rule[0]) if rule is not None else -1))
        form = total, tuple((how, k, g) for how, (k, g) in swapping.items()), tuple(plays), self.C.lays_of(r, f)
        self._swap_forms()[r][f] = form
        return form

    def _swaps_per(self, seat: int, how: int) -> int:
        """How many swaps a play whose swap rule is ``_SWAP_HOWS[how]`` allows per card given, as
        :meth:`_swap_moves` lists them: a face-up card of one's own, a card of each other hand
        by its place (or the first), a face-up card of each other player (the distinct cards of
        a face-up zone: :meth:`_ups_swaps`). A seat that is out holds no cards; :meth:`swap_counts`
        asks only where some seat holds what the rule swaps with."""
        if how == 1:  # other-hand: each other hand that holds cards, its cards and its first (at C speed)
            hand_n = self.hand_n
            held = hand_n[seat]
            return sum(hand_n) - held + len(hand_n) - hand_n.count(0) - (1 if held else 0)
        takes = self._ups_swaps()[1]
        return takes[seat] if how == 0 else takes[-1] - takes[seat]  # own-face-up, other-face-up

    def nth_swap_play(self, j: int, counts: SwapCounts) -> Move | Pick | None:
        """The j-th play or swap in list order, with swaps (None: past them), from
        :meth:`swap_counts`: a play with no swap as its cards and their multiset."""
        at = self._swap_at(j, counts)
        if at is None:
            return None
        (cards, val, _), rule, give, other, take, index = at
        if rule is None:
            return cards, val
        return _swap_move(cards, give, take, index, self.names[other] if other >= 0 else "")

    @overload
    def push_swap_at(self, j: int, counts: SwapCounts, move: bool = True,
                     parts: Literal[False] = False) -> tuple[Move | tuple[int, ...], Sequence[Event]]: ...

    @overload
    def push_swap_at(self, j: int, counts: SwapCounts, move: bool, parts: Literal[True]) -> SwapPart: ...

    def push_swap_at(self, j: int, counts: SwapCounts, move: bool = True,
                     parts: bool = False) -> tuple[Move | tuple[int, ...], Sequence[Event]] | SwapPart:
        """Random play with swaps: push the j-th play or swap in list order, each play followed by
        its swaps, as :meth:`_swap_moves` lists them (j below :meth:`swap_counts`'s count, just
        made), as ``push(nth_swap_play(j, counts))`` does; return it (a play with no swap, or any
        play where ``move`` is false: its cards) and its events (``move`` false, for bulk play: the
        play's alone, with its causes: no swap event or cause, which bulk play never reads). A swap
        is made here, then its cards laid (each move asks: no pass through :meth:`push`'s dispatch, the cards taken at
        once, no move made for bulk play, which does not keep it; the j-th found here, not by a
        call: random play picks a swap at almost one move in four).

        ``parts``: push nothing, and return the j-th's parts (:meth:`_swap_at` asks): the play (its
        cards, multiset and the rank's plays it leaves), and for a swap its rule
        (:meth:`Rules.swap_rule`; None: the play itself), the card given (the distinct cards the
        play leaves one of, in order: with one pack, read off the hand's bits) and where it takes
        from (the seats to take from in order, each with its share of :meth:`_swaps_per`): the
        other seat (-1: one's own face-up cards), the face-up card taken (-1: blind from a hand),
        the place of the card taken blind (0: their first)."""
        key, tally, swapping, distinct, per = counts
        seat = self.turn
        if tally is None:  # (no play swaps: the hand's play counts are the moves)
            tally = self.subs[seat]
        for r in self.R.swap_ranks[key]:  # the rank, and the place among its plays and swaps
            s = tally[r]
            if s:  # (many ranks the hand holds none of: one test)
                if j < s:
                    break
                j -= s
        form = swapping.get(r) if swapping is not None else None
        if form is None:  # (a rank whose plays do not swap)
            C = self.C
            f = (self.hands[seat] >> C.rsh[r]) & C.rm[r]
            play = (C.lays[r].get(f) or C.lays_of(r, f))[j]
            if parts:
                return play, None, -1, -1, -1, 0
            cards, val, count = play
            return cards, self.push_cards(cards, val, None, count)
        # the rank's plays in their :meth:`_swap_form`, in runs of plays with the same rule and gone,
        # with the distinct cards in hand and the swaps per card given by rule (:meth:`swap_counts`)
        at = 0  # the first play of the run
        for count, rule, ngone, how in form[2]:
            p = per[how]  # (0 where the play swaps nothing, its ``how`` -1)
            each = 1 + (distinct - ngone) * p  # a play, then its swaps
            if j >= count * each:
                j -= count * each
                at += count
                continue
            q = j // each  # (as divmod, without its call and its tuple)
            j -= q * each
            play = form[3][at + q]
            if not j or rule is None:  # (the play itself: no rule where j is 0)
                if parts:
                    return play, None, -1, -1, -1, 0
                cards, val, count = play
                return cards, self.push_cards(cards, val, None, count)
            j -= 1  # the card given, and the swap per card given (as divmod, as above)
            give_at = j // p
            k = j - give_at * p
            break
        else:
            raise AssertionError("a play past the count")
        C = self.C
        rest = self.hands[seat] - play[1]
        give = C.nth_plain(rest, give_at)
        if give is None:
            give = list(dict.fromkeys(C.decode(rest)))[give_at]
        index = 0
        if how != 1:  # a face-up card: per seat the cards a swap may take, as kept (:meth:`_ups_swaps`)
            seen = _UPS_SEEN  # (read once: another thread may put its own zones in place)
            if seen[0] is not self.ups:
                seen = self._ups_swaps()
            zones = seen[3]
        if not how:  # own-face-up
            other = -1
            take = zones[seat][k]
        else:
            outs, hand_n = self.outs, self.hand_n  # (read once, not at each seat)
            for other in range(self.n):
                if other == seat or outs[other]:
                    continue
                if how == 1:  # other-hand
                    n_hand = hand_n[other]
                    size = 1 + n_hand if n_hand else 0
                    if k < size:  # their first card, then each by its place in their hand
                        take, index = -1, k
                        break
                else:
                    takes = zones[other]
                    size = len(takes)
                    if k < size:
                        take = takes[k]
                        break
                k -= size
            else:
                raise AssertionError("a swap past the count")
        if parts:
            return play, rule, give, other, take, index
        cards, val, count = play
        # (a card the play leaves in hand; the play's count of plays left, as it is after the swap)
        if not move:  # bulk play: the play's own events and causes, the swap's left out (read by none)
            count = self._swap_with(seat, give, other, take, index, rule[1], None, r, count)
            return cards, self.push_cards(cards, val, None, count)  # (-1: push_cards works it out)
        self.causes = []
        events: list[Event] = []
        count = self._swap_with(seat, give, other, take, index, rule[1], events, r, count)
        self.push_cards(cards, val, events, count)
        return _swap_move(cards, give, take, index, self.names[other] if other >= 0 else ""), events

    def _swap_at(self, j: int, counts: SwapCounts) -> SwapPart | None:
        """The j-th play or swap in list order, from :meth:`swap_counts` (None: past them), as
        :meth:`push_swap_at` gives its parts."""
        key, tally, _, _, _ = counts
        if tally is None:  # (no play swaps: the hand's play counts are the moves)
            tally = self.subs[self.turn]
        if j >= sum(tally[r] for r in self.R.swap_ranks[key]):
            return None
        return self.push_swap_at(j, counts, True, True)

    def _extra_moves(self) -> list[Move]:
        """The moves listed after the plays (runs included) and before the pickup (a gamble,
        slides)."""
        v = self.v
        out: list[Move] = []
        if v.gamble and self.stock:
            out.append(GAMBLE_MOVE)
        if v.slide >= 0 and self.pile and self.subs[self.turn][v.slide]:
            out += [Move(SLIDE, (c,)) for c in sorted(set(self.hand(self.turn))) if c >> 2 == v.slide]
        return out

    def counts(self) -> tuple[int, int, int]:
        """(plays, other moves before the pickup, pickups) in the list (only where :meth:`fast`)."""
        nplay, extra, npick, _ = self.counted()
        return nplay, len(extra), npick

    def counted(self) -> tuple[int, list[Move], int, Callable[[int], Move | Pick | None]]:
        """:meth:`counts` with the other moves before the pickup listed (they are few: a gamble,
        slides, Bluff's runs and call), so a pick among them need not list them again, and
        ``nth(j)``: the j-th play (j below the plays' count, runs included) from the same count:
        a move, or where it is a plain play of the hand's cards (:meth:`push_cards`) its cards
        and their multiset."""
        R = self.R
        how = R.counting
        if how == BLUFF_CLAIMS:
            return self._bluff_counted()
        # (each move of a random player asks: the picks are closures, the cheapest to make and call)
        nth: Callable[[int], Move | Pick | None]
        # (the joker's free play, with two players left: see top_rank)
        top = self.top if not R.free_two or self.alive > 2 else self.top_rank()
        if how == SWAPS:
            plays, swaps, sc = self.swap_counts()
            nplay = plays + swaps

            def nth_swap(j: int) -> Move | Pick | None:
                return self.nth_swap_play(j, sc)
            nth = nth_swap
        else:
            ranks, getter = self._play_ranks(top)
            counts = getter(self.subs[self.turn])
            nplay = sum(counts)
            fours = self._anytime() if how == ANYTIME else None  # four of a kind or more of ranks that may not go
            if fours:
                nplay += sum(n for _, _, n in fours)

                def nth_four(j: int) -> Pick | None:
                    return self._nth_anytime(j, ranks, counts, fours)
                nth = nth_four
            else:
                def nth_play(j: int) -> Pick | None:
                    return self.nth_counted(j, ranks, counts)
                nth = nth_play
        if self.v.runs:  # the runs: plays too, after the others (listed only if one is picked)
            nruns = self.run_count(top)
            if nruns:
                nth = partial(self._nth_run, nth=nth, before=nplay, top=top)
                nplay += nruns
        extra = self._extra_moves() if R.more else []
        if R.combo and nplay and not self.stock and self._combo_counted():
            seat = self.turn
            if self.subs[seat].count(0) == N_RANKS - 1:
                # the final-card combo within reach (one rank in hand, and it goes): its plays are
                # listed after the others (:meth:`_plays`), as other moves: plays all the same
                group = self.hand(seat)
                cells = self._matrix() if R.extras else R.cells
                combos = list(self._combos(seat, group[0] >> 2, group, cells, top, HAND, set()))
                return nplay, combos + extra, self.pickups(nplay + len(combos)), nth
        return nplay, extra, self.pickups(nplay), nth

    def pickups(self, plays: int) -> int:
        """How many pickups the player to move may choose (1 or 0) when ``plays`` plays are legal:
        one whenever there is a pile, where the variant lets a player pick up by choice (pagat, Play
        of the Cards: a player may pick up rather than play), else only with no play."""
        return self.R.pickups_at[self.pile_n and 1][plays and 1]

    def count_moves(self) -> int:
        """``len(self.moves())``, without listing where :meth:`fast`."""
        if not self.fast():
            return len(self.moves())
        return sum(self.counts())

    def nth_move(self, j: int) -> Move:
        """``self.moves()[j]``, without listing where :meth:`fast`."""
        if not self.fast():
            return self.moves()[j]
        nplay, extra, _, nth = self.counted()
        if j < nplay:
            got = nth(j)
            assert got is not None
            return got if isinstance(got, Move) else Move(PLAY, got[0])
        j -= nplay
        return extra[j] if j < len(extra) else PICKUP_MOVE

    def _nth_anytime(self, j: int, ranks: tuple[int, ...], counts: tuple[int, ...],
                     fours: list[tuple[int, int, int]]) -> Pick | None:
        """:meth:`nth_counted` with four of a kind anytime: the ranks that go and their play counts,
        and :meth:`_anytime`'s plays of ranks that do not, in rank order."""
        every = sorted([(r, 0, s) for r, s in zip(ranks, counts, strict=True) if s] + fours)
        for r, k, s in every:
            if j < s:
                C = self.C
                return C.plays_of(r, (self.hands[self.turn] >> C.rsh[r]) & C.rm[r])[k + j]
            j -= s
        return None

    def nth_counted(self, j: int, ranks: tuple[int, ...], counts: tuple[int, ...]) -> tuple[tuple[int, ...], int] | None:
        """The cards and multiset of the j-th play (None: past the plays) where each rank that may
        go goes with all its plays, from those ranks and their play counts (:meth:`_play_ranks`;
        in the plain game, the compiled table's ``ranks_at`` and ``get_at`` at the top)."""
        for r, s in zip(ranks, counts, strict=True):
            if j < s:
                C = self.C
                f = (self.hands[self.turn] >> C.rsh[r]) & C.rm[r]
                lst = C.plays[r].get(f)
                if lst is None:
                    lst = C.plays_of(r, f)
                return lst[j]
            j -= s
        return None

    # -- pushing moves -------------------------------------------------------------------

    def push(self, move: Move) -> Sequence[Event]:
        """Make a move known to be legal; return its events (``causes`` holds their fragments)."""
        R = self.R
        seat = self.turn
        kind = move.kind
        if not R.bluff:
            # the common moves, equal cards from the hand and the plain pickup, as moves of their
            # own: push_cards and push_pickup write their events and causes (here, not in
            # _push_play: a call less for most moves; and no lists made for most, which set nothing
            # off but a draw)
            if kind == PLAY:
                cards = move.cards
                c = cards[0]
                # (an empty hand's code is 0: the held tests below find none there, so the hand's
                # count is not asked)
                if move.give < 0 and c >= 0:
                    C = self.C
                    h = self.hands[seat]
                    if len(cards) == 1:
                        if h & C.fm[c]:
                            return self.push_cards(cards, C.cv[c])  # (which ends the opening)
                    elif c >> 2 == cards[-1] >> 2:  # (first and last of a rank: equal cards, not a run)
                        val = _held_alike(h, C, cards)
                        if val:
                            return self.push_cards(cards, val)
            elif kind == PICKUP and not move.cards:
                return self.push_pickup()
        self.causes = []
        events: list[Event] = []
        if R.bluff and kind in (PLAY, FLIP, CALL):
            self._push_bluff(seat, move, events)
            self.opening = False
            return events
        if kind == PLAY:
            self._push_play(seat, move, events)
        elif kind == PICKUP:
            if move.cards:
                self._remove_up(seat, move.cards)
            self.push_pickup(move.cards, events)
        elif kind in (FLIP, GAMBLE):
            if kind == FLIP:
                i = move.index - 1
                downs = self.downs[seat]
                card = downs[i]
                if card == UNKNOWN:
                    raise TutorError(f"{self.names[seat]}'s face-down card {move.index} is unseen; name it to play it out")
                self.downs = _put(self.downs, seat, downs[:i] + downs[i + 1:])
                rule = self.v.last_down.get(card >> 2) if not self.downs[seat] else None
                if rule is not None:
                    self._push_last_down(seat, card, rule, events)
                    self.opening = False
                    return events
            else:
                card = self.stock[0]
                if card == UNKNOWN:
                    raise TutorError("the top card of the stock is unseen; name it to play it out")
                self.stock = self.stock[1:]
            if self._matrix()[self.top_rank()][card >> 2][0]:
                self.push_cards((card,), 0, events)  # (one card: what _lay does with it)
            else:
                self.push_pickup((card,), events)
        elif kind == SLIDE:
            if move.target and move.target != self.names[seat]:  # out of turn: the turn stays
                self._push_slide(self.names.index(move.target), move.cards[0], events, keep_turn=True)
            else:
                self._push_slide(seat, move.cards[0], events)
            return events
        elif kind == PLACE:
            card = move.cards[0]
            self._take(seat, card)
            self.ups = _put(self.ups, seat, self.ups[seat] + ((card,),))
            return events
        elif kind == SWAP:
            h, u = move.cards
            self._take(seat, h)
            self._give(seat, (u,))
            self.ups = _put(self.ups, seat, _replace_face_up(self.ups[seat], u, h))
            return events
        else:
            self._push_ready(seat)
            return events
        self.opening = False
        return events

    def _push_play(self, seat: int, move: Move, events: list[Event]) -> None:
        """A play :meth:`push` does not lay at once: with a swap, from face up or down, or the
        final-card combo (from the hand and then face up)."""
        cards = move.cards
        if self.hand_n[seat]:
            C = self.C
            rest = []
            for c in cards:
                if (self.hands[seat] >> C.csh[c]) & C.cm[c]:
                    self._take(seat, c)
                else:
                    rest.append(c)  # the final-card combo: the rest come from face up
            if rest:
                self._remove_up(seat, tuple(rest))
        else:
            self._remove_up(seat, cards)
        if move.give >= 0:
            self._do_swap(seat, move, events)
        if len(cards) > 1 and cards[0] >> 2 != cards[-1] >> 2:
            cards = tuple(sorted(cards, key=lambda c: c >> 2))  # a run lies in order, highest on top
        self._lay(seat, cards, events)

    def _remove_up(self, seat: int, take: Sequence[int]) -> None:
        ups = list(self.ups)  # (_put, inline: most plays from face up come here)
        ups[seat] = self.up_left(seat, take)
        self.ups = tuple(ups)

    def up_left(self, seat: int, take: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """The seat's face-up stacks once ``take`` (cards among them) are taken away."""
        ups = list(self.ups[seat])
        for c in take:
            for k, s in enumerate(ups):
                if c in s:
                    if len(s) == 1:
                        del ups[k]
                    else:
                        lst = list(s)
                        lst.remove(c)
                        ups[k] = tuple(lst)
                    break
        return tuple(ups)

    def push_up(self, cards: tuple[int, ...], left: tuple[tuple[int, ...], ...]) -> Sequence[Event]:
        """Play ``cards``, one of :meth:`up_plays`, from the face-up cards of the player to move,
        whose stacks are then ``left`` (:meth:`up_left`): what :meth:`push` does with that play,
        for a caller that chooses among those plays once (a greedy player, whose choice and the
        stacks it leaves are the same each time the plays are)."""
        self.ups = _put(self.ups, self.turn, left)
        return self.push_cards(cards, 0)

    def _lay(self, seat: int, cards: tuple[int, ...], events: list[Event]) -> None:
        """Put a play on the pile, do what its cards do, draw, and pass the turn (the played
        cards already taken from their zones). Equal cards: :meth:`push_cards`; a run here."""
        rank = cards[-1] >> 2
        if len(cards) == 1 or cards[0] >> 2 == rank:
            self.push_cards(cards, 0, events)
            return
        R = self.R
        n = len(cards)
        had_pile = self.pile_n > 0
        # a run: every card does what it does (the rank behind each power's event: its
        # fragment is looked up only if the event happens)
        flips = sum(1 for c in cards if R.reverse[c >> 2])
        skip = sum(R.skip[c >> 2] for c in cards)
        play_again = any(R.play_again[c >> 2] for c in cards)
        skip_r = next((c >> 2 for c in cards if R.skip[c >> 2]), rank)
        rev_r = next((c >> 2 for c in cards if R.reverse[c >> 2]), rank)
        again_r = next((c >> 2 for c in cards if R.play_again[c >> 2]), rank)
        self.pile.append((cards, seat, -1))
        top, run_r, run_n = self.top, self.run_r, self.run_n
        for k, c in enumerate(cards):
            r = c >> 2
            if not had_pile and k == 0:
                top = R.first_top[r]
                run_r, run_n = r, 1
            else:
                if not R.transparent[r]:
                    top = R.counts[r]
                if r == run_r:
                    run_n += 1
                else:
                    run_r, run_n = r, 1
            if r == R.reversal:
                self.rev += 1
        self.top, self.run_r, self.run_n = top, run_r, run_n
        self.pile_n += n
        self._settle(seat, rank, flips, skip, play_again, rev_r, again_r, skip_r, events)

    def _settle(self, seat: int, rank: int, flips: int, skip: int, play_again: bool, rev_r: int, again_r: int,
                skip_r: int, events: list[Event]) -> None:
        """After a play lies on the pile: burn, reverse, skip, play again, draw, go out, pass
        the turn (``flips``: reversing cards played; ``skip``: players to miss a turn; the
        ranks behind each power, for its fragment)."""
        R = self.R
        causes = self.causes
        burn = R.burn[rank]
        if burn:
            burn_fid = R.burn_fid[rank]
        elif R.four_burns and self.run_n >= R.four_burns:
            burn, burn_fid = True, R.four_fid
        if burn:
            events.append(BURN)
            causes.append(burn_fid)
            burned = list(self.burned)  # (a list added to play by play: quicker than a generator)
            for laid in self.pile:
                burned += laid[0]
            self.burned = tuple(burned)
            self._clear_pile()
        if flips & 1:
            events.append(REVERSE)
            causes.append(R.rev_fid[rev_r])
            self.direction = -self.direction
            self.after = _after(self.outs, self.direction)
        again = burn or play_again
        stock = self.stock
        hand_n = self.hand_n
        draw = min(R.refill - hand_n[seat], len(stock)) if stock else 0
        out = draw <= 0 and not hand_n[seat] and not self.ups[seat] and not self.downs[seat]
        if again and not out:
            skip = 0  # the player goes again: nobody misses a turn
        if skip:
            events.append(SKIP)
            causes.append(R.skip_fid[skip_r])
        if again and not out:
            events.append(PLAY_AGAIN)
            causes.append(R.again_fid[again_r] if play_again and not burn else burn_fid)
        if draw > 0:
            self._give(seat, stock[:draw])
            self.stock = stock = stock[draw:]
            events.append(DRAW)
            causes.append(R.draw_fid)
        if R.extras and self.v.face_up_to_hand and not hand_n[seat] and not stock and self.ups[seat]:
            self._give(seat, sorted(self.up_cards(seat)))
            self.ups = _put(self.ups, seat, ())
        if out:
            if not self._go_out(seat, events):
                self.turn = self._next_seat(seat, self.direction, skip)
        elif not again:
            if skip:
                self.turn = self._next_seat(seat, self.direction, skip)
            else:
                self.turn = self.after[seat]

    def _clear_pile(self) -> None:
        self.pile = []
        self.pile_n = 0
        self.top = EMPTY
        self.run_r, self.run_n = -1, 0
        self.rev = 0

    def push_pickup(self, extra: tuple[int, ...] = (), events: list[Event] | None = None) -> Sequence[Event]:
        """Take the pile, and ``extra`` (cards already taken from their zone: a face-up card the
        variant adds, a flipped card that does not go), into the hand of the player to move, and
        pass the turn as the variant says: the one place a pile is picked up (``push`` comes
        here). ``events``: the list to add the events to, within a push (None: a move of its own,
        the plain pickup, whose events are returned).

        A random game picks up about one move in four: the plain pickup is made here with the
        pile's cards added a play at a time, each play's ranks counted as it goes in."""
        seat = self.turn
        R = self.R
        pile = self.pile
        if R.force >= 0 and R.force_once and self.forced():
            taken = [c for laid in pile for c in laid[0]]
            taken += extra
            k = len(taken) - 1  # the forcing card leaves the game: the last taken (a loop, not a
            # generator: one would hold ``R`` in a cell, made at every pickup)
            while taken[k] >> 2 != R.force:
                k -= 1
            self.burned += (taken.pop(k),)
            self._clear_pile()
            self._give(seat, taken)
        else:  # the pile (and ``extra``) into the hand, as _give does, a play at a time
            C = self.C
            h = self.hands[seat]
            subs = self.subs[seat]
            n_taken = self.pile_n
            if extra:
                n_taken += len(extra)
                cv, tsm = C.cv, C.tsm
                for c in extra:
                    h += cv[c]
                    if c >= 0:
                        table, sh, m = tsm[c >> 2]
                        subs[c >> 2] = table[(h >> sh) & m]
            if C.one_pack:
                # one pack: k cards of a rank held make 2**k - 1 plays, so each card taken up makes
                # its rank's count 2 * count + 1, the jokers' count one more (their number), an unseen
                # card's rank (-1: the jokers' count) the same (_TAKEN_STEP, with the card's rank and
                # value: _TAKEN): small ints, no field shifted out of the hand, no test, all by subscript
                by_card = _TAKEN
                for laid in pile:
                    for c in laid[0]:
                        r, step, add = by_card[c]
                        h += add
                        subs[r] = step[subs[r]]
            else:
                # a rank's count is made again after each play holding it: the last is the right one
                cv, tsm = C.cv, C.tsm
                for laid in pile:
                    cards = laid[0]
                    c = cards[0]
                    if len(cards) == 1:  # (most plays)
                        h += cv[c]
                        if c >= 0:
                            r = _RANK_OF[c]
                            table, sh, m = tsm[r]
                            subs[r] = table[(h >> sh) & m]
                        continue
                    for c in cards:
                        h += cv[c]
                    r = cards[len(cards) - 1] >> 2
                    if r >= 0 and cards[0] >> 2 == r:  # equal cards (a run lies in rank order): one count
                        table, sh, m = tsm[r]
                        subs[r] = table[(h >> sh) & m]
                        continue
                    for c in cards:
                        if c >= 0:
                            table, sh, m = tsm[c >> 2]
                            subs[c >> 2] = table[(h >> sh) & m]
            self.hands[seat] = h
            self.hand_n[seat] += n_taken
            # the pile is gone (:meth:`_clear_pile`, inline)
            self.pile = []
            self.pile_n = 0
            self.top = EMPTY
            self.run_r = -1
            self.run_n = 0
            self.rev = 0
        outs = self.outs
        if outs[seat] or not self.hand_n[seat]:
            self._mark(seat)  # (holding cards, the seat is not out: nothing to bring up to date)
        self.opening = False
        after = R.after
        if after == "next":
            self.turn = self.after[seat]
            if events is None:  # (the lists of a plain pickup: made once, never added to)
                self.causes = _PICKUP_CAUSES
                return _PICKUP_EVENTS
            events.append(PICKED_UP)
            self.causes.append("")
            return events
        if events is None:
            events = []
            self.causes = []
        events.append(PICKED_UP)
        causes = self.causes
        causes.append("")
        if after == "same":
            events.append(PLAY_AGAIN)
            causes.append(R.after_fid)
            self.turn = seat
        else:  # "previous": back to who played last
            last_by = pile[-1][1] if pile else -1
            if last_by >= 0 and last_by != seat and not outs[last_by]:
                self.turn = last_by
            else:
                self.turn = self._next_seat(seat, -self.direction)
        return events

    def _go_out(self, seat: int, events: list[Event]) -> bool:
        """The seat has played its last card: it is out (event ``out``), and ``game_over`` follows
        when that ends the game. True if the game is over (the turn then stays where it is)."""
        self._mark(seat)
        events.append(OUT)
        self.causes.append("")
        if self.over():
            events.append(GAME_OVER)
            self.causes.append(self.R.goal_fid)
            return True
        return False

    def _push_slide(self, seat: int, card: int, events: list[Event], keep_turn: bool = False) -> None:
        R = self.R
        self._take(seat, card)
        stock = self.stock
        draw = min(R.refill - self.hand_n[seat], len(stock)) if stock else 0
        if draw > 0:
            self._give(seat, stock[:draw])
            self.stock = stock = stock[draw:]
            events.append(DRAW)
            self.causes.append(R.draw_fid)
        if self.v.face_up_to_hand and not self.hand_n[seat] and not stock and self.ups[seat]:
            self._give(seat, sorted(self.up_cards(seat)))
            self.ups = _put(self.ups, seat, ())
        self.pile.insert(0, ((card,), seat, -1))
        self._repile()
        if self._is_out(seat):  # the slid 3 was the last card: the slider is out like any player
            if not self._go_out(seat, events) and not keep_turn:
                self.turn = self._next_seat(seat, self.direction)

    def _push_last_down(self, seat: int, card: int, rule: tuple[str, tuple[str, ...]], events: list[Event]) -> None:
        """The seat's last face-down card decides the game for them at once (taken from the face-down
        cards already): "lose", or "win" (played if it goes, else laid aside; either way they are out)."""
        outcome, fids = rule
        if outcome == "win" and self._matrix()[self.top_rank()][card >> 2][0]:
            self._lay(seat, (card,), events)
            return
        self.burned += (card,)  # laid aside, out of play
        if outcome == "lose":
            self.lost |= 1 << seat
        self._mark(seat)
        if outcome == "win":
            events.append(OUT)
            self.causes.append(fids[0])
        if self.over():
            events.append(GAME_OVER)
            self.causes.append(fids[0] if outcome == "lose" else self.R.goal_fid)
        if outcome == "lose" or not self.over():  # (a table never rests on a player who has lost)
            self.turn = self._next_seat(seat, self.direction)

    def end_setup(self) -> None:
        """The setup is over (every player ready, or a game started from a dealt table): the first
        player leads, and the opening rule judges the lead."""
        self.setup, self.ready, self.opening = False, (), True
        self.ended = self._finished()
        self.turn = self.first_player()

    def _push_ready(self, seat: int) -> None:
        ready = list(self.ready or (False,) * self.n)
        ready[seat] = True
        if all(ready):
            self.end_setup()
            return
        self.ready = tuple(ready)
        nxt = (seat + 1) % self.n
        while ready[nxt]:
            nxt = (nxt + 1) % self.n
        self.turn = nxt

    def _burn_in_run(self, events: list[Event]) -> None:
        """Bluff: a claimed run with a 10 inside it, now played on (so it stands), destroys the
        pile under it and itself up to the 10; the cards after the 10 stay (pagat Variations,
        Bluffing: "Everything under the 10 (including the 10) is destroyed and only the J
        remains"). The run's cards stand for its ranks in the order they were laid."""
        R = self.R
        cards0, by0, claim0 = self.pile[-1]
        ranks0 = claim_ranks(claim0)
        cut = max((i for i, r in enumerate(ranks0[:-1]) if R.burn[r]), default=-1)
        if cut < 0:
            return
        rest = ranks0[cut + 1:]
        # cards hidden under the run go with what is under the 10; with fewer cards than ranks,
        # the cards stand for the lowest ranks, and a rank with no card leaves nothing
        kept = sorted(_claimed_part(cards0, claim0), key=lambda c: c >> 2)[cut + 1:]
        gone = list(cards0)
        for c in kept:
            gone.remove(c)
        self.burned += tuple(c for laid in self.pile[:-1] for c in laid[0]) + tuple(gone)
        self._clear_pile()
        if kept:
            self.pile.append((tuple(kept), by0, rest[0] if len(rest) == 1 else run_claim(rest[0], rest[-1])))
        events.append(BURN)
        self.causes.append(R.burn_fid[ranks0[cut]])

    def _bluff_burns(self, events: list[Event]) -> None:
        """Bluff: before a play goes on the pile, what the claims under it destroy: a run with a 10
        inside it, played on, (:meth:`_burn_in_run`), or all of it under a claimed 10 or four."""
        R = self.R
        pile = self.pile
        if pile[-1][2] >= RUN_CLAIM:
            self._burn_in_run(events)
            self._repile()
            pile = self.pile
        if pile and self.claimed[0] == EMPTY:  # the claimed 10 (or four) took the pile out
            cards0, _, claim0 = pile[-1]
            below = _CLAIM_TOPS[claim0] if claim0 >= 0 else cards0[0] >> 2
            burned = list(self.burned)  # (a list added to play by play: C iterators over a few plays cost more)
            for laid in pile:
                burned += laid[0]
            self.burned = tuple(burned)
            self._clear_pile()
            self.claimed = _NO_CLAIM
            events.append(BURN)
            self.causes.append(R.burn_fid[below] if R.burn[below] else R.four_fid or R.bluff_fid)

    def _push_bluff(self, seat: int, move: Move, events: list[Event], after: tuple[int, int, int] | None = None) -> None:
        """Bluff: push a claimed play, a flip or a call (``after``: the claims after a play or flip
        where nothing burns, if the caller knows them: :meth:`_lay_claimed`)."""
        kind = move.kind
        if kind == CALL:
            fid = self.R.bluff_fid
            cards, by, claim = self.pile[-1]
            honest = claim_true(cards, claim)
            taker = seat if honest else by
            if not honest:
                events.append(CAUGHT)
                self.causes.append(fid)
            taken: list[int] = []  # (a list added to play by play: C iterators over a few plays cost more)
            for laid in self.pile:
                taken += laid[0]
            self._clear_pile()
            self.claimed = _NO_CLAIM
            self._give(taker, taken)
            self._mark(taker)
            events.append(PICKED_UP)
            self.causes.append(fid)
            if honest:  # a wrong call costs the caller the pile and the turn
                self.turn = self._next_seat(seat, self.direction)
            else:
                events.append(PLAY_AGAIN)
                self.causes.append(fid)
                self.turn = seat
            return
        hand_n = self.hand_n
        if kind == FLIP:
            cards = self._flip_out(seat, move.index - 1)
        else:
            cards = move.cards
            if hand_n[seat]:  # (:meth:`_take`, inline: most moves take a card from the hand)
                C = self.C
                cv, subt, rsh, rm = C.cv, C.subt, C.rsh, C.rm
                h = self.hands[seat]
                for c in cards:
                    h -= cv[c]
                self.hands[seat] = h
                hand_n[seat] -= len(cards)
                subs = self.subs[seat]
                for c in cards:
                    if c >= 0:
                        r = c >> 2
                        subs[r] = subt[r][(h >> rsh[r]) & rm[r]]
            else:
                self._remove_up(seat, cards)
        claim = move.claim
        if SET_COUNTED <= claim < RUN_CLAIM:  # (a count said: a listed move's claim is a rank or a run)
            claim = claim_for(claim, len(cards))
        self._lay_claimed(seat, cards, claim, events, after, kind == PLAY)

    def _flip_out(self, seat: int, i: int) -> tuple[int, ...]:
        """Bluff: a flip's card, the seat's i-th face-down card (from 0), out of its zone."""
        downs = self.downs[seat]
        self.downs = _put(self.downs, seat, downs[:i] + downs[i + 1:])
        return (downs[i],)

    def _lay_claimed(self, seat: int, cards: tuple[int, ...], claim: int, events: list[Event],
                     after: tuple[int, int, int] | None, refill: bool = True) -> None:
        """Bluff: the steps of every play or flip, once its cards are out of their zone: what the
        claims under it destroy (:meth:`_bluff_burns`), the cards on the pile with their claim and
        the claims on top (``after``, where the caller knows them for a pile that stands, else
        :meth:`_claim_on`), the hand refilled from the stock after a play (``refill``; not after
        a flip), and the turn: the seat out, or on to the next."""
        pile = self.pile
        if pile and (self.claimed[0] == EMPTY or pile[-1][2] >= RUN_CLAIM):  # (the claims first: no
            # slow subscript where a burn waits)
            self._bluff_burns(events)  # (then the claims are those of what is left)
            pile = self.pile
            after = None
        pile.append((cards, seat, claim))
        self.pile_n += len(cards)
        if after is None:
            self._claim_on(cards, claim)
        else:
            self.claimed = after
        hand_n = self.hand_n
        stock = self.stock
        if stock and refill:
            d = self.R.refill - hand_n[seat]
            if d > 0:
                self._give(seat, stock[:d])
                self.stock = stock[d:]
                events.append(DRAW)
                self.causes.append(self.R.draw_fid)
        if hand_n[seat] or self.ups[seat] or self.downs[seat]:
            self.turn = self.after[seat]
        else:  # out
            self.turn = seat
            if not self._go_out(seat, events):
                self.turn = self._next_seat(seat, self.direction)

    def _do_swap(self, seat: int, move: Move, events: list[Event]) -> None:
        """The swap a play sets off: a hand card for a face-up card, or blind for another hand's card."""
        other = self.names.index(move.target) if move.target else -1
        rule = self._swap_rule(move.cards)
        self._swap_with(seat, move.give, other, move.take, move.index, rule[1] if rule else "", events)

    def _swap_with(self, seat: int, give: int, other: int, take: int, index: int, fid: str,
                   events: list[Event] | None, r: int = -1, count: int = -1) -> int:
        """The swap a play sets off, set off by the rule ``fid``, from its parts (:meth:`push_swap_at`):
        ``give`` from the seat's hand for the face-up card ``take`` of its own (``other`` < 0) or
        another's, or for the card of the other hand at ``index`` (blind: its first at 0), that
        hand's size the same. The one place a swap's cards change places (:meth:`_do_swap` and
        random play's :meth:`push_swap_at` come here): one call for all of it. ``r``, ``count``: the
        rank of the play the swap goes with and the rank's count of plays the play leaves the hand
        before the swap (:meth:`Code.lays_of`); returned as it is after the swap, where it is
        known without reading the hand (else -1: :meth:`push_cards` works it out). ``events``: the
        list to add the swap's event to, its cause to ``causes`` (None: neither, for bulk play)."""
        global _UPS_SEEN
        if events is not None:
            self.causes.append(fid)
            events.append(SWAPPED)
        C = self.C
        hands = self.hands
        if take >= 0:
            was = self.ups
            q = seat if other < 0 else other
            self.ups = now = _put(was, q, _replace_face_up(was[q], take, give, C.one_pack))
            into = take
        else:
            h = hands[other]
            at = index - 1 if index else 0  # (their first at 0, as at 1)
            got = C.nth_plain(h, at)
            into = got if got is not None else C.decode(h)[at]
        # the seat's hand gives ``give`` for ``into`` (:meth:`_take` and :meth:`_give` in one, the
        # hand's size the same); and a blind swap's other hand ``into`` for ``give``
        d = C.cv[into] - C.cv[give]  # (the change, made once: a hand is a big int)
        hands[seat] += d
        if take < 0:
            hands[other] -= d
        if C.w == 1 and give < JOKER and into < JOKER:
            # one pack, no joker: k cards of a rank make 2**k - 1 plays (as push_cards counts
            # them), halved (rounded down) with a card given, doubled and one more with a card
            # taken (small ints: no field read off the hands)
            # (and so the play's count, where the card given or taken is of its rank)
            subs = self.subs[seat]
            if give >= 0:
                g = give >> 2
                subs[g] >>= 1
                if g == r:
                    count >>= 1
            if into >= 0:
                g = into >> 2
                subs[g] += subs[g] + 1
                if g == r:
                    count += count + 1
            if take >= 0:
                seen = _UPS_SEEN  # (read once: another thread may put its own zones in place)
                if seen[0] is was:
                    # a face-up card for a hand card, neither a joker: the zone holds as many
                    # distinct cards as it did (each card once), so what :meth:`_ups_swaps`
                    # counts stays, kept for the new zones (random play asks at the next move);
                    # and the zone's cards a swap may take, the card given in the one taken's
                    # place, in card order (:func:`_takes`: no zone hashed, nothing missed)
                    zones = seen[3]
                    cards = list(zones[q])
                    cards[cards.index(take)] = give
                    cards.sort()
                    _UPS_SEEN = now, seen[1], seen[2], _put(zones, q, tuple(cards)), seen[4]
            else:
                subs = self.subs[other]
                if into >= 0:
                    subs[into >> 2] >>= 1
                if give >= 0:
                    g = give >> 2
                    subs[g] += subs[g] + 1
            return count
        # (several packs, or a joker: each changed rank's count read off the hand)
        tsm = C.tsm
        for s in (seat, other) if take < 0 else (seat,):
            h, subs = hands[s], self.subs[s]
            for c in (give, into):
                if c >= 0:
                    table, sh, m = tsm[c >> 2]
                    subs[c >> 2] = table[(h >> sh) & m]
        return -1

    # -- whole games --------------------------------------------------------------------

    def push_cards(self, cards: tuple[int, ...], val: int = -1, events: list[Event] | None = None,
                   count: int = -1) -> Sequence[Event]:
        """Lay equal cards on the pile, known to be legal, and do what they do: the one place
        a set of equal cards is played (a play from the hand, face up or face down alike: push
        comes here). ``val``: their multiset, to take from the hand of the player to move (-1:
        work it out; 0: the cards are already taken from their zone). ``events``: the list to
        add the events to, within a push (None: a move of its own, whose events are returned).
        ``count``: the rank's count of plays the hand is left with, where the caller has it
        (:meth:`Code.lays_of`; -1: work it out).

        Most plays set nothing off: they are made here with everything in locals, and a play
        that sets something off goes on to :meth:`_settle`."""
        seat = self.turn
        R = self.R
        n = len(cards)
        r = _RANK_OF[cards[0]]
        hand_n = self.hand_n
        if val:
            if count < 0:  # (the count is the cheaper to compare: val is a big int)
                hands = self.hands
                C = self.C
                if val < 0:
                    cv = C.cv
                    val = 0
                    for c in cards:
                        val += cv[c]
                if C.halves[r]:  # (C.w == 1 and r < JOKER_RANK)
                    # one pack: k cards of a rank held make 2**k - 1 plays, halved (rounded
                    # down) with each card played (small ints: no field shifted out of the hand)
                    hands[seat] -= val
                    count = self.subs[seat][r] >> n
                else:
                    h = hands[seat] = hands[seat] - val
                    table, sh, m = C.tsm[r]
                    count = table[(h >> sh) & m]
            else:
                self.hands[seat] -= val
            left = hand_n[seat] = hand_n[seat] - n
            self.subs[seat][r] = count
        else:
            left = hand_n[seat]
        pile_n = self.pile_n
        on_pile, alone, quiet, odd = R.lay[r]
        if odd:
            below = EMPTY
            if odd & _SEES and pile_n:
                # a see-through card shows the card beneath, and does what it does (a 3 on a 9 skips
                # too; a 3 on a 5 sets nothing off by itself)
                below = self.top_rank()
                if below != EMPTY and R.skip[below]:
                    quiet = 0
            if odd & _REVERSES:
                self.rev += n
        # lay the cards: the pile's top, run and reversing count follow
        self.pile.append((cards, seat, -1))
        if pile_n:
            if on_pile >= 0:
                self.top = on_pile
            run_n = self.run_n + n if r == self.run_r else n
        else:
            self.top = alone
            run_n = n
        self.run_r = r
        self.run_n = run_n
        self.pile_n = pile_n + n
        self.opening = False
        if run_n < quiet:  # nothing burns, reverses, skips or plays again
            stock = self.stock
            if left >= R.refill or not stock:
                if left or (self.ups[seat] or self.downs[seat]) and not self.v.face_up_to_hand:
                    # no draw, and the player is not out (from the hand, or with cards left face up
                    # or down: no face-up cards go to the hand)
                    self.turn = self.after[seat]
                    if events is None:  # a move of its own, with no events (and so no causes)
                        self.causes = _NO_CAUSES
                        return ()
                    return events
            else:  # only the draw, which leaves cards in hand (most plays while a stock lasts):
                # :meth:`_settle`'s draw, made here
                k = R.refill - left
                drawn = stock[:k]
                self.stock = stock[k:]
                self._give(seat, drawn)
                self.turn = self.after[seat]
                if events is None:
                    self.causes = [R.draw_fid]
                    return _DRAW_EVENTS
                events.append(DRAW)
                self.causes.append(R.draw_fid)
                return events
        if events is None:
            self.causes = []
            events = []
        skip = R.skip[r] * n
        skip_r = r
        if not skip and odd and below != EMPTY:  # (the card a see-through card shows, as above)
            skip, skip_r = R.skip[below], below
        self._settle(seat, r, n if R.reverse[r] else 0, skip, R.play_again[r], r, r, skip_r, events)
        return events


_SUITED3: list[tuple[int, ...]] = []
_THREE_UP = 0x1FFE * 0x0001_0001_0001_0001  # the 3 to the ace of each suit, in :meth:`Position._suited`
_JOKERS_AT = 1 << JOKER  # one pack: a hand this high or higher holds a joker (or an unseen card)
_RUN_PAIRS = (1 << 48) - (1 << 4)  # one pack: the 3s to the kings, held with the next rank of their suit: a run
# one pack: per field of a rank's cards (4 bits, by suit), per number of cards n its plays of n cards
# (:meth:`Code.plays_of`, by size: all sets of the cards held), (n, how many, where they begin)
_ONE_CARD: tuple[tuple[int, ...], ...] = tuple((c,) for c in range(JOKER))  # each card as a play of one card
_SIZES_OF_FIELD = tuple(tuple((n, comb(k, n), sum(comb(k, m) for m in range(1, n))) for n in range(1, k + 1))
                        for k in (f.bit_count() for f in range(16)))


def _suited3() -> tuple[int, ...]:
    """For one pack, per set of the cards of three ranks in a row (a 12-bit field of a hand, the
    lowest rank first), bit 16 * suit + rank (counted from the lowest) for each card: made once."""
    if not _SUITED3:  # (doubled card by card: the first game's moves wait for it)
        t = [0]
        for c in range(12):
            b = 1 << (16 * (c & 3) + (c >> 2))
            t += [x | b for x in t]
        _SUITED3.append(tuple(t))
    return _SUITED3[0]


_AFTERS: dict[tuple[tuple[bool, ...], int], tuple[int, ...]] = {}


# one pack: per play of two or more distinct ordinary cards of one rank, its code (a hand holds
# them all where it holds every bit of it): :func:`_held_alike`, without a loop over the cards
_ALIKE: dict[tuple[int, ...], int] = {}


def _held_alike(h: int, C: Code, cards: tuple[int, ...]) -> int:
    """The code of ``cards`` (two or more) where they are all of one rank and all in the multiset
    ``h``, else 0. (Position.judge asks it of a play from the hand, and Position.push makes the
    play with the code.)"""
    if C.one_pack:
        val = _ALIKE.get(cards)
        if val is None:
            val = _alike_code(cards)
        if val:
            return val if h & val == val else 0
    rank = cards[0] >> 2
    csh, cm = C.csh, C.cm
    for c in cards:
        if c >> 2 != rank or ((h >> csh[c]) & cm[c]) < cards.count(c):
            return 0
    return C.encode(cards)


def _alike_code(cards: tuple[int, ...]) -> int:
    """One pack: the code of ``cards`` where they are distinct ordinary cards (no joker, no unseen
    card) of one rank, kept in ``_ALIKE`` (at most 13 ranks' 11 plays of two cards or more, in
    each order their cards come in: 60 a rank); else 0."""
    rank = cards[0] >> 2
    code = 0
    for c in cards:
        if not 0 <= c < JOKER or c >> 2 != rank or code >> c & 1:
            return 0
        code |= 1 << c
    _ALIKE[cards] = code
    return code


def _put(t: tuple[T, ...], i: int, x: T) -> tuple[T, ...]:
    """``t`` with ``x`` at ``i`` (a position's tuples are shared by its copies: a push puts a new one in place)."""
    lst = list(t)  # (quicker than slicing around i)
    lst[i] = x
    return tuple(lst)


def _after(outs: Sequence[bool], direction: int) -> tuple[int, ...]:
    """The seat that plays after each seat, going ``direction`` and passing over the seats
    ``outs`` marks out (the seat itself, where all the others are out): made once for each."""
    key = (tuple(outs), direction)
    got = _AFTERS.get(key)
    if got is None:
        n = len(outs)
        nxt = []
        for s in range(n):
            t = (s + direction) % n
            while outs[t] and t != s:
                t = (t + direction) % n
            nxt.append(t)
        got = _AFTERS[key] = tuple(nxt)
    return got


_ALL_PLAYS: dict[tuple[int, ...], tuple[Move, ...]] = {}


def _all_plays(group: tuple[int, ...]) -> tuple[Move, ...]:
    """Every play of some of ``group`` (different cards of one rank, sorted), fewest cards first,
    in the order of ``combinations``: made once (moves are values; the face-up plays' common case)."""
    got = _ALL_PLAYS.get(group)
    if got is None:
        if len(_ALL_PLAYS) > 50_000:
            _ALL_PLAYS.clear()
        got = _ALL_PLAYS[group] = tuple(Move(PLAY, sub) for n in range(1, len(group) + 1)
                                        for sub in combinations(group, n))
    return got


_PICKUPS: dict[tuple[tuple[int, ...], ...], tuple[Move, ...]] = {}


def _pickups_with(ups: tuple[tuple[int, ...], ...]) -> tuple[Move, ...]:
    """A pickup with each face-up card of ``ups`` (the stacks), each card once, in card order:
    made once (moves are values; a search lists them again and again)."""
    got = _PICKUPS.get(ups)
    if got is None:
        if len(_PICKUPS) > 50_000:
            _PICKUPS.clear()
        got = _PICKUPS[ups] = tuple(Move(PICKUP, (c,)) for c in sorted({c for s in ups for c in s}))
    return got


class _Claimed(dict[int, Move]):
    """Bluff: one play or flip claimed as each rank: ``row[rank]``, the move, made when first
    asked for (most rows are asked for one rank or a few)."""

    __slots__ = ("kind", "cards", "index")

    def __init__(self, kind: Kind, cards: tuple[int, ...], index: int) -> None:
        super().__init__()
        self.kind, self.cards, self.index = kind, cards, index

    def __missing__(self, rank: int) -> Move:
        got = self[rank] = Move(self.kind, self.cards, self.index, claim=rank)
        return got


_CLAIMED: dict[tuple[Kind, tuple[int, ...], int], _Claimed] = {}
# Bluff: the run from a rank of a suit up k ranks, claimed from a rank, by its key (_run_move): at
# most 4 * 11 * 11 * 11 (Position._bluff_runs)
_RUN_MOVES: dict[int, Move] = {}


def _run_move(key: int) -> Move:
    """Bluff: the run of :meth:`Position._run_keys`' ``key``, 256 * (16 * suit + its lowest rank) + 16 *
    the ranks above it + the rank it is claimed from, made once (moves are values)."""
    b, k, first = key >> 8, key >> 4 & 15, key & 15
    lo, suit = b & 15, b >> 4
    cards = tuple(range(lo * 4 + suit, (lo + k) * 4 + suit + 1, 4))
    got = _RUN_MOVES[key] = _claimed(PLAY, cards, 0)[run_claim(first, first + k)]
    return got


def _claimed(kind: Kind, cards: tuple[int, ...], index: int) -> _Claimed:
    """Bluff: the move (``kind``, ``cards``, ``index``) claimed as each rank, each made once (moves are values)."""
    key = (kind, cards, index)
    got = _CLAIMED.get(key)
    if got is None:
        if len(_CLAIMED) > 50_000:
            _CLAIMED.clear()
        got = _CLAIMED[key] = _Claimed(kind, cards, index)
    return got



class _After(dict[int, list[tuple[int, int, int]]]):
    """Bluff: per claimed rank, :func:`_claims_after` claims ``state`` once 0 to 4 cards claimed as
    that rank go on the pile, a row made when first asked for (of :meth:`Position._claims`' table:
    the plays from a state claim a few of the 13 ranks, the other rows are not made)."""

    __slots__ = ("R", "state")

    def __init__(self, R: Rules, state: tuple[int, int, int]) -> None:
        super().__init__()
        self.R, self.state = R, state

    def __missing__(self, rank: int) -> list[tuple[int, int, int]]:
        got = self[rank] = [_claims_after(self.R, self.state, rank, n) for n in range(5)]
        return got


def _claims_after(R: Rules, claimed: tuple[int, int, int], rank: int, n: int) -> tuple[int, int, int]:
    """Bluff: :meth:`Position._bluff_state` once n cards claimed as ``rank`` go on claims ``claimed``
    (those of a pile that stands, or none)."""
    if R.burn[rank]:
        return _NO_CLAIM
    top, _, run = claimed
    run = run + n if top == rank else n
    if R.four_burns and run >= R.four_burns:
        return _NO_CLAIM
    return rank, 0 if R.resets[rank] else n, run

def _top_of(pile: Sequence[Laid], R: Rules) -> tuple[int, tuple[int, ...]]:
    """The first card from the top of the pile that is not transparent, and the ranks above it."""
    looked: list[int] = []
    transparent = R.transparent
    for laid in reversed(pile):
        for c in reversed(laid[0]):
            r = c >> 2
            if transparent[r]:
                looked.append(r)
                continue
            return R.counts[r], tuple(looked)
    if looked and R.alone_self[looked[-1]]:
        return looked[-1], tuple(looked[:-1])
    return EMPTY, tuple(looked)


def _run_of(pile: Sequence[Laid]) -> tuple[int, int]:
    """The rank on top of the pile and how many cards of it lie together there."""
    rank, n = -1, 0
    for laid in reversed(pile):
        for c in reversed(laid[0]):
            r = c >> 2
            if n == 0:
                rank = r
            elif r != rank:
                return rank, n
            n += 1
    return rank, n


def _true_run(cards: tuple[int, ...]) -> bool:
    """Bluff: are the cards a run: one suit, consecutive ranks from 3 up to the ace?"""
    ranks = sorted(c >> 2 for c in cards)
    return (len({c & 3 for c in cards}) == 1 and 1 <= ranks[0] and ranks[-1] <= 12
            and ranks == list(range(ranks[0], ranks[0] + len(ranks))))


def _claimed_part(cards: tuple[int, ...], claim: int) -> tuple[int, ...]:
    """Bluff: the cards of a play that stand for its claim, the rest hidden under them: for a
    claimed rank, the cards of the rank the play holds most of (the claimed rank first, on a
    tie), as many as claimed; for a run, the first run of its length among them (lowest first).
    All the cards if no more go down than claimed. (Which cards lie under does not depend on
    their order in the play or the table file.)"""
    ranks = claim_ranks(claim)
    k = claim_count(claim, len(cards))
    if len(cards) <= k:
        return cards
    if len(ranks) == 1:
        held = Counter(c >> 2 for c in cards)
        rank = max(held, key=lambda r: (held[r], r == ranks[0], -r))
        return tuple(c for c in cards if c >> 2 == rank)[:k]
    held_set = set(cards)
    for suit in range(4):
        for lo in range(1, 14 - k):
            run = tuple(r * 4 + suit for r in range(lo, lo + k))
            if all(c in held_set for c in run):
                return run
    return ()


def _claimed_set(cards: tuple[int, ...], n: int) -> bool:
    """Bluff: may ``cards`` go down claimed as ``n`` cards of a rank? The claimed part is cards
    of one rank, only its rank a lie (today's reading); cards beyond the n claimed are hidden
    under it and may be anything from the hand (pagat Variations, Bluffing: "Throw some more
    cards under them"); fewer than claimed are all of one rank."""
    held = Counter(c >> 2 for c in cards)
    return max(held.values()) >= n if len(cards) > n else len(held) == 1


def _claimed_run(cards: tuple[int, ...], k: int) -> bool:
    """Bluff: may ``cards`` go down claimed as a run of ``k`` ranks? Its claimed part is a real
    run of one suit (only the ranks a lie); cards beyond it are hidden under, anything."""
    if len(cards) <= k:
        return _true_run(cards)
    return bool(_claimed_part(cards, run_claim(1, k)))


def count_lie(move: Move) -> bool:
    """Bluff: does the play claim another number of cards than go down (a count said, 'as 7x2',
    or cards hidden under a run)? The listing's reading: such a play is legal by the judge when
    its claim is (``check``), but ``legal_moves`` does not list it (every part of the hand could
    hide under every play); it lists the plays whose count is their cards' own."""
    return move.kind == PLAY and move.claim >= 0 and claim_count(move.claim, len(move.cards)) != len(move.cards)


def claim_true(cards: Sequence[int], claim: int) -> bool:
    """Bluff, on a call: are the cards turned over exactly what was claimed, in rank and in
    number (a card hidden under a true claim makes it a lie: pagat Variations, Bluffing, "you
    have to take the pile (even if your run or double/triple is legit)")?"""
    if 0 <= claim < SET_COUNTED:  # a rank, as many as the cards (most calls): are they all of it
        # (a loop: no tuple of the ranks, no generator)
        for c in cards:
            if c >> 2 != claim:
                return False
        return True
    ranks = claim_ranks(claim)
    if len(cards) != claim_count(claim, len(cards)):
        return False
    if len(ranks) == 1:
        return all(c >> 2 == ranks[0] for c in cards)
    return len({c & 3 for c in cards}) == 1 and sorted(c >> 2 for c in cards) == list(ranks)


def _whole_stacks(ups: Sequence[tuple[int, ...]], cards: tuple[int, ...]) -> bool:
    """Are ``cards`` exactly the union of some of the player's face-up stacks?"""
    stacks = [s for s in ups if s[0] >> 2 == cards[0] >> 2]
    want = sorted(cards)
    for n in range(1, len(stacks) + 1):
        for group in combinations(stacks, n):
            if sorted(c for s in group for c in s) == want:
                return True
    return False


def _swap_move(cards: tuple[int, ...], give: int, take: int, index: int, target: str) -> Move:
    """A play with its swap, from the swap's parts (:meth:`Position.push_swap_at`)."""
    return Move(PLAY, cards, index=index, give=give, take=take, target=target)


_SWAP_BITS: dict[int, tuple[int, ...]] = {}  # (_swap_bits: bits 4 * r + 3 -> the ranks r)


# (_swap_bits: per byte of a key shifted down by 3, whose bits 0 and 4 are those of two ranks, 2 * i
# and 2 * i + 1 in byte i: the ranks each of its values 0 to 17 sets; the seven bytes' in a row)
_BYTE_SWAP_RANKS = tuple(tuple(r for r, bit in ((2 * i, 1), (2 * i + 1, 16)) if v & bit)
                         for i in range(_RANK_BYTES) for v in range(18))


def _swap_bits(many: int) -> tuple[int, ...]:
    """The ranks r whose bit 4 * r + 3 ``many`` sets, in order (:meth:`Position.swap_counts`' ranks
    whose plays may swap): kept by value (at most 2 ** 14, one per set of ranks), so that a move
    reads them with one look-up; found by the key's seven bytes, each byte's ranks from a table
    (no loop: a miss, at a set of ranks first met, costs a few bytecodes, not some 1,700
    instructions a rank bit by bit)."""
    b0, b1, b2, b3, b4, b5, b6 = (many >> 3).to_bytes(_RANK_BYTES, "little")
    t = _BYTE_SWAP_RANKS
    got = _SWAP_BITS[many] = (*t[b0], *t[18 + b1], *t[36 + b2], *t[54 + b3], *t[72 + b4], *t[90 + b5],
                              *t[108 + b6])
    return got


_TAKES: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}  # (_takes: a face-up zone -> what a swap may take)


def _takes(stacks: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The face-up cards a swap may take from a zone of stacks: each distinct card once, in card
    order (:meth:`Position._swap_moves` lists them; :meth:`Position._ups_swaps` keeps them per
    seat, :meth:`Position._swaps_per` counts them and :meth:`Position.push_swap_at` picks one).
    Kept by the zone's value: where the zones change, most of them stay as they were (at most
    4,096 kept; :meth:`Position._ups_swaps` looks in ``_TAKES`` first, and calls only where it
    misses)."""
    got = _TAKES.get(stacks)
    if got is None:
        if len(_TAKES) >= 4096:
            _TAKES.clear()
        got = _TAKES[stacks] = tuple(sorted(set().union(*stacks)))
    return got


def _replace_face_up(stacks: Sequence[tuple[int, ...]], old: int, new: int,
                     once: bool = False) -> tuple[tuple[int, ...], ...]:
    """``new`` takes ``old``'s place face up; out of a stack of several, it lies on its own.
    ``once``: each card is held once (one pack), so no other stack holds ``old``."""
    out = list(stacks)
    if once:
        try:  # (most zones: a card a stack; ``old`` alone, found at C speed)
            out[out.index((old,))] = (new,)
            return tuple(out)
        except ValueError:  # (in a stack of several)
            pass
    for k, s in enumerate(out):
        if old in s:
            if len(s) == 1:
                out[k] = (new,)
            else:
                lst = list(s)
                lst.remove(old)
                out[k] = tuple(lst)
                out.append((new,))
            break
    return tuple(out)


def _up_groups(ups: tuple[tuple[int, ...], ...]) -> list[list[int]] | None:
    """Bluff: face-up cards of one pack, a card a stack, by rank in the order :meth:`Position._bluff_plays`
    lists their plays (the ranks as they first come, each rank's cards sorted: the combinations of
    n of them in order are its plays of n cards); None if a stack holds more cards."""
    by_rank: dict[int, list[int]] = {}
    for stack in ups:
        if len(stack) != 1:
            return None
        c = stack[0]
        got = by_rank.get(c >> 2)
        if got is None:
            by_rank[c >> 2] = [c]
        else:
            got.append(c)
            got.sort()
    return list(by_rank.values())


def _multisets(distinct: list[tuple[int, int]], n: int) -> Iterator[tuple[int, ...]]:
    """The sub-multisets of size ``n`` of ``distinct`` ((card, copies) pairs, sorted), in the
    order ``combinations`` of the sorted cards would first give them."""
    if n == 0:
        yield ()
        return
    if all(k == 1 for _, k in distinct):  # all different: the plain combinations
        yield from combinations([c for c, _ in distinct], n)
        return
    if not distinct or sum(k for _, k in distinct) < n:
        return
    cards = [c for c, k in distinct for _ in range(k)]
    if len(cards) <= 10:  # few cards (a rank of two packs): their combinations, each once, at C speed
        yield from sorted(set(combinations(cards, n)))
        return
    (card, copies), rest = distinct[0], distinct[1:]
    for take in range(min(copies, n), -1, -1):
        for tail in _multisets(rest, n - take):
            yield (card,) * take + tail


def pile_top(table: Table, v: Variant) -> tuple[int, tuple[int, ...]]:
    """The effective top of a table's pile and the transparent ranks above it (no Bluff claims)."""
    return _top_of([(p.cards, p.by, p.claim) for p in table.pile], rules_of(v))


def pile_run(table: Table) -> tuple[int, int]:
    return _run_of([(p.cards, p.by, p.claim) for p in table.pile])


__all__ = ["Code", "Position", "Rules", "Top", "code_for", "per_variant", "pile_run", "pile_top", "rules_of"]
