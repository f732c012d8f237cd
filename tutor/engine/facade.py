"""The rules engine: ``legal_moves``, ``check`` and ``apply``.

One code path decides legality: :func:`_judge` answers for any move with a
:class:`Reason` and the fragments that decided; :func:`check` dresses that in a
sentence, and :func:`legal_moves` asks the same placement and zone questions
(:func:`_zone`, :func:`_placement`) for every candidate. The tests play thousands
of games asserting that the two agree.

``apply`` checks the move first; ``apply_unchecked`` is the fast path for search
and simulation, for moves that came from ``legal_moves``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import Enum
from itertools import combinations

from tutor.core.cards import EMPTY, JOKER, UNKNOWN, card_str, is_red, rank_plural
from tutor.core.errors import TutorError
from tutor.core.moves import CALL, FLIP, GAMBLE, PICKUP, PLACE, PLAY, READY, SLIDE, SWAP, Move
from tutor.core.table import Play, Player, Table
from tutor.engine.words import a, the, word
from tutor.rules.variant import Variant, load_variant

# Events, in the contract's vocabulary.
BURN, REVERSE, SKIP, PLAY_AGAIN, PICKED_UP, DRAW, OUT, GAME_OVER = (
    "burn", "reverse", "skip", "play_again", "pickup", "draw", "out", "game_over")

# Zones a player plays from.
HAND, FACE_UP, FACE_DOWN, NONE = "hand", "face_up", "face_down", "none"


class IllegalMoveError(TutorError):
    """``apply`` was given a move that ``check`` finds illegal."""


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

    @property
    def legal(self) -> bool:
        return self in _LEGAL


_REASONS = {r.value: r for r in Reason}
_LEGAL = frozenset({Reason.EMPTY, Reason.BEATS, Reason.MATCHES, Reason.ANYWHERE, Reason.RESET,
                    Reason.UNDER_LIMIT, Reason.UNBEATABLE_OK, Reason.FOUR_ANYTIME,
                    Reason.PICKUP_OK, Reason.FLIP_OK, Reason.SWAP_OK, Reason.READY_OK,
                    Reason.PLACE_OK, Reason.DEFLECT, Reason.RUN, Reason.GAMBLE_OK, Reason.SLIDE_OK,
                    Reason.CALL_OK})


@dataclass(frozen=True)
class Verdict:
    """The answer to "is this move legal?"."""

    move: Move
    code: Reason
    reason: str
    rules: tuple[str, ...]
    events: tuple[str, ...] = ()
    next_player: str | None = None

    @property
    def legal(self) -> bool:
        return self.code.legal

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "legal": self.legal, "move": str(self.move), "reason": self.reason,
            "rules": list(self.rules), "code": self.code.value,
        }
        if self.legal:
            out["events"] = list(self.events)
            out["next_player"] = self.next_player
        return out


# -- derived facts -------------------------------------------------------


@dataclass(frozen=True)
class Top:
    """What the next play must answer: the effective top rank, and what lies above it."""

    rank: int  # EMPTY for an empty pile (or only transparent cards on it)
    looked_through: tuple[int, ...]  # ranks of the transparent cards above it, top first
    free: str = ""  # the fragment that lets any card follow (Guarducci's joker with two players)


def effective_top(table: Table, v: Variant) -> Top:
    """The first card from the top of the pile that is not transparent (Bluff: the claim)."""
    if v.bluff:
        return Top(_bluff_top(table, v)[0], ())
    if v.extras and _free_with_two(table, v):
        return Top(EMPTY, (), v.origin[table.pile[-1].cards[-1] >> 2]["free_with_two"])
    looked: list[int] = []
    transparent = v.transparent
    for play in reversed(table.pile):
        for c in reversed(play.cards):
            r = c >> 2
            if transparent[r]:
                looked.append(r)
                continue
            return Top(v.counts[r], tuple(looked))
    if looked and v.alone_self[looked[-1]]:
        return Top(looked[-1], tuple(looked[:-1]))
    return Top(EMPTY, tuple(looked))


def _bluff_top(table: Table, v: Variant) -> tuple[int, int]:
    """Bluff: the claimed rank on top and how many cards the next play must be (0: one to four,
    the pile's "value of 0" after a 2, a destroyed pile or on an empty one)."""
    rank, count, _ = _bluff_state(table, v)
    return rank, count


def _bluff_state(table: Table, v: Variant) -> tuple[int, int, int]:
    """Bluff: (claimed rank on top, cards the next play must be, cards of that claim in a row on
    top). A pile that a claimed 10 or four claimed of a kind has destroyed counts as empty, and a
    claimed 2 sets its value to 0 (pagat Variations, Bluffing: doubles and triples may follow)."""
    if not table.pile:
        return EMPTY, 0, 0
    top = table.pile[-1]
    rank = top.claim if top.claim >= 0 else top.cards[0] >> 2
    if v.burn[rank]:
        return EMPTY, 0, 0
    run = 0
    for play in reversed(table.pile):
        r = play.claim if play.claim >= 0 else play.cards[0] >> 2
        if r != rank:
            break
        run += len(play.cards)
    if v.four_burns and run >= v.four_burns:
        return EMPTY, 0, 0
    if any(v.cells[rank][r][1] == "RESET" for r in range(13)):
        return rank, 0, run
    return rank, len(top.cards), run


def _count_words(count: object) -> str:
    """Bluff: how a play of ``count`` cards is called."""
    return {1: "a single card", 2: "a double", 3: "a triple"}.get(count if isinstance(count, int) else 0,
                                                                   f"{count} cards")


def _free_with_two(table: Table, v: Variant) -> bool:
    """Guarducci's joker with two players in the game: its player goes again with any card (not
    whoever moves after a joker whose player went out with it, leaving two)."""
    if not table.pile or not v.free_with_two[table.pile[-1].cards[-1] >> 2]:
        return False
    return table.pile[-1].by in (-1, table.turn) and sum(1 for p in table.players if not p.out) == 2


def _top_rank(table: Table, v: Variant) -> int:
    if v.bluff:
        return _bluff_top(table, v)[0]
    if v.extras and _free_with_two(table, v):
        return EMPTY
    transparent = v.transparent
    last = -1
    for play in reversed(table.pile):
        for c in reversed(play.cards):
            r = c >> 2
            if not transparent[r]:
                return v.counts[r]
            last = r
    if last >= 0 and v.alone_self[last]:
        return last
    return EMPTY


def top_run(table: Table) -> tuple[int, int]:
    """The rank on top of the pile and how many cards of it lie together there."""
    return _pile_run(table.pile)


def _pile_run(pile: tuple[Play, ...]) -> tuple[int, int]:
    rank, n = -1, 0
    for play in reversed(pile):
        for c in reversed(play.cards):
            r = c >> 2
            if n == 0:
                rank = r
            elif r != rank:
                return rank, n
            n += 1
    return rank, n


def game_over(table: Table, v: Variant) -> bool:
    return not table.setup and _over(table.players, v)


def loser(table: Table, v: Variant) -> str | None:
    """The shithead (last with cards) once a loser-finding game is over."""
    if v.goal != "loser" or not game_over(table, v):
        return None
    left = [p.name for p in table.players if not p.out]
    return left[0] if left else None


def _zone(p: Player) -> str:
    if p.hand:
        return HAND
    if p.face_up:
        return FACE_UP
    if p.face_down:
        return FACE_DOWN
    return NONE


def _matrix(table: Table, v: Variant) -> tuple[tuple[tuple[bool, str, tuple[str, ...]], ...], ...]:
    """The play-on table in force: reversed while an odd number of reversing cards lie in the pile."""
    if v.reversal >= 0:
        r = v.reversal
        if sum(1 for play in table.pile for c in play.cards if c >> 2 == r) % 2:
            return v.cells_rev
    return v.cells


def _deflects(v: Variant, card: int) -> bool:
    if v.deflect is None or card >> 2 != v.deflect[0]:
        return False
    colour = v.deflect[1]
    return colour == "any" or (colour == "red") == is_red(card)


def _forced(table: Table, v: Variant) -> bool:
    """Is a forced pickup (a superjoker, perhaps passed on by red jacks) waiting?"""
    if v.force < 0 or not table.pile:
        return False
    for play in reversed(table.pile):
        for c in reversed(play.cards):
            if _deflects(v, c):
                continue
            return c >> 2 == v.force
    return False


def _placement(
    cells: tuple[tuple[tuple[bool, str, tuple[str, ...]], ...], ...], v: Variant, top: int, rank: int, n: int,
    zone: str,
) -> tuple[bool, str, tuple[str, ...]]:
    """May ``n`` cards of ``rank`` from ``zone`` go on the effective ``top``?"""
    cell = cells[top][rank]
    if not cell[0] and n >= 4 and zone == HAND and v.setting_origin("four_anytime") and cell[1] != "FORCED_PICKUP":
        return True, "FOUR_ANYTIME", (v.setting_origin("four_anytime"),)
    return cell


def _stack_groups(p: Player, rank: int) -> list[tuple[int, ...]]:
    return [s for s in p.face_up if s[0] >> 2 == rank]


def _whole_stacks(p: Player, cards: tuple[int, ...]) -> bool:
    """Are ``cards`` exactly the union of some of the player's face-up stacks?"""
    stacks = _stack_groups(p, cards[0] >> 2)
    want = sorted(cards)
    for n in range(1, len(stacks) + 1):
        for group in combinations(stacks, n):
            if sorted(c for s in group for c in s) == want:
                return True
    return False


def _swap_rule(v: Variant, cards: tuple[int, ...]) -> tuple[str, str] | None:
    if not v.swaps or not cards or cards[0] >> 2 != cards[-1] >> 2:
        return None
    return v.swaps.get((cards[0] >> 2, 0)) or v.swaps.get((-1, len(cards)))


# -- the one judge ---------------------------------------------------------


def _judge(table: Table, v: Variant, move: Move) -> tuple[Reason, tuple[str, ...], dict[str, object]]:
    """Decide a move: the reason code, the deciding fragments, and context for the sentence."""
    ctx: dict[str, object] = {}
    if not table.setup and _over(table.players, v):
        return Reason.GAME_OVER, ("core",), ctx
    p = table.players[table.turn]
    if table.setup:
        setup_fid = v.setting_origin("setup") or "core"
        if move.kind == SWAP and v.setup in ("swap", "stack"):
            h, u = move.cards
            if h not in p.hand:
                ctx["card"] = h
                return Reason.NOT_HELD, (setup_fid,), ctx
            if u not in p.face_up_cards:
                ctx["card"] = u
                ctx["zone"] = FACE_UP
                return Reason.NOT_HELD, (setup_fid,), ctx
            return Reason.SWAP_OK, (setup_fid,), ctx
        if move.kind == PLACE and v.setup == "choose":
            if move.cards[0] not in p.hand:
                ctx["card"] = move.cards[0]
                return Reason.NOT_HELD, (setup_fid,), ctx
            if len(p.face_up) >= v.setup_count:
                ctx["n"] = v.setup_count
                return Reason.SETUP_COUNT, (setup_fid,), ctx
            return Reason.PLACE_OK, (setup_fid,), ctx
        if move.kind == READY:
            if v.setup == "choose" and len(p.face_up) != v.setup_count:
                ctx["n"] = v.setup_count
                return Reason.SETUP_COUNT, (setup_fid,), ctx
            return Reason.READY_OK, (setup_fid,), ctx
        return Reason.SETUP_ONLY, (setup_fid,), ctx
    if move.kind in (SWAP, READY, PLACE):
        return Reason.NOT_SETUP, ("core",), ctx
    if table.opening:
        leader = opening_leader(table, v)
        if leader is not None and leader != table.turn:
            ctx["leader"] = leader
            return Reason.NOT_LEADER, (v.setting_origin("first_player") or "core",), ctx
        lead = opening_lead(table, v)
        if lead is not None and not (move.kind == PLAY and move.cards and all(c >> 2 == lead for c in move.cards)):
            ctx["rank"] = lead
            return Reason.OPENING, (v.setting_origin("first_player") or "core",), ctx
    if v.bluff:
        return _judge_bluff(table, v, p, move, ctx)
    if move.claim >= 0 or move.kind == CALL:
        return Reason.CLAIM_NOT_HERE, ("core",), ctx

    zone = _zone(p)
    forced = v.force >= 0 and _forced(table, v)
    if move.kind == PLAY:
        if forced:
            force_fid = v.origin[v.force]["force"]
            if all(_deflects(v, c) for c in move.cards) and zone != FACE_DOWN:
                deflect_fid = v.origin[v.deflect[0]]["deflect"] if v.deflect else force_fid
                code, frags, ctx = _judge_held(table, v, p, zone, move.cards, ctx)
                if code is not Reason.BEATS:
                    return code, frags, ctx
                if move.give >= 0:
                    return _judge_swap(table, v, p, move, Reason.DEFLECT, (force_fid, deflect_fid), ctx)
                return Reason.DEFLECT, (force_fid, deflect_fid), ctx
            return Reason.FORCED_PICKUP, (force_fid,), ctx
        return _judge_play(table, v, p, zone, move, ctx)
    if move.kind == FLIP:
        wrong = _flip_wrong(p, zone, move, ctx)
        if wrong is not None:
            return wrong, ("core",), ctx
        if forced:
            return Reason.FORCED_PICKUP, (v.origin[v.force]["force"],), ctx
        return Reason.FLIP_OK, ("core",), ctx
    if move.kind == GAMBLE:
        gfid = v.setting_origin("gamble")
        if not v.gamble or zone != HAND or not table.stock or forced:
            ctx["why"] = ("variant" if not v.gamble else "stock" if not table.stock
                          else "forced" if forced else "zone")
            return Reason.NO_GAMBLE, ((gfid,) if gfid else ("core",)), ctx
        return Reason.GAMBLE_OK, (gfid,), ctx
    if move.kind == SLIDE:
        sfid = v.setting_origin("slide")
        card = move.cards[0]
        if v.slide < 0 or card >> 2 != v.slide or card not in p.hand or not table.pile or forced:
            ctx["why"] = ("variant" if v.slide < 0 else "rank" if card >> 2 != v.slide
                          else "held" if card not in p.hand else "pile" if not table.pile else "forced")
            ctx["card"] = card
            return Reason.NO_SLIDE, ((sfid,) if sfid else ("core",)), ctx
        return Reason.SLIDE_OK, (sfid,), ctx
    # pickup
    if not table.pile:
        return Reason.EMPTY_PILE, ("core",), ctx
    if forced:
        if move.cards:
            return Reason.PICKUP_WITH_NOT_HERE, (v.origin[v.force]["force"],), ctx
        return Reason.PICKUP_OK, (v.origin[v.force]["force"],), ctx
    if zone == FACE_DOWN:
        return Reason.MUST_FLIP, ("core",), ctx
    adds = v.face_up_pickup_adds
    fu_fid = v.setting_origin("face_up_pickup_adds") or "core"
    if zone == HAND and move.cards:
        return Reason.PICKUP_WITH_NOT_HERE, (fu_fid,), ctx
    if zone == FACE_UP:
        if adds and len(move.cards) != adds:
            return Reason.PICKUP_NEEDS_CARD, (fu_fid,), ctx
        if not adds and move.cards:
            return Reason.PICKUP_WITH_NOT_HERE, (fu_fid,), ctx
        for c, k in Counter(move.cards).items():
            if Counter(p.face_up_cards)[c] < k:
                ctx["card"] = c
                ctx["zone"] = FACE_UP
                return Reason.NOT_HELD, (fu_fid,), ctx
    pick_fid = v.setting_origin("voluntary_pickup") or "core"
    if not v.voluntary_pickup:
        example = _first_play(table, v)
        if example is not None:
            ctx["example"] = example
            return Reason.MUST_PLAY, (pick_fid,), ctx
        return Reason.PICKUP_OK, (pick_fid,) + ((fu_fid,) if zone == FACE_UP else ()), ctx
    ctx["voluntary"] = True
    return Reason.PICKUP_OK, (pick_fid,) + ((fu_fid,) if zone == FACE_UP else ()), ctx


def _flip_wrong(p: Player, zone: str, move: Move, ctx: dict[str, object]) -> Reason | None:
    """Why this blind flip cannot be made now, or None if it can."""
    if zone != FACE_DOWN:
        ctx["zone"] = zone
        return Reason.FLIP_NOT_YET
    if move.index > len(p.face_down):
        ctx["n"] = len(p.face_down)
        return Reason.FLIP_RANGE
    return None


def _judge_bluff(
    table: Table, v: Variant, p: Player, move: Move, ctx: dict[str, object]
) -> tuple[Reason, tuple[str, ...], dict[str, object]]:
    """Bluff: a play names a rank (true or not); its form is judged, its truth only on a call."""
    fid = v.setting_origin("bluff")
    zone = _zone(p)
    if move.kind == CALL:
        last = table.pile[-1] if table.pile else None
        if last is None or last.claim < 0 or last.by == table.turn:
            return Reason.NO_CALL, (fid,), ctx
        return Reason.CALL_OK, (fid,), ctx
    if move.kind == PICKUP:
        return Reason.BLUFF_NO_PICKUP, (fid,), ctx
    if move.kind not in (PLAY, FLIP):
        return Reason.SETUP_ONLY if table.setup else Reason.NO_GAMBLE, (fid,), ctx
    if move.claim < 0:
        return Reason.NEEDS_CLAIM, (fid,), ctx
    if move.kind == FLIP:
        wrong = _flip_wrong(p, zone, move, ctx)
        if wrong is not None:
            return wrong, ("core",), ctx
        n = 1
    else:
        cards = move.cards
        if any(c >> 2 != cards[0] >> 2 for c in cards):
            return Reason.MIXED_RANKS, (fid,), ctx
        code, frags, ctx = _judge_held(table, v, p, zone, cards, ctx)
        if code is not Reason.BEATS:
            return code, frags, ctx
        n = len(cards)
    top, count, run = _bluff_state(table, v)
    ctx["rank"], ctx["top"], ctx["n"] = move.claim, Top(top, ()), n
    four = v.four_burns or 4
    if n == four or (top == move.claim and run + n == four):
        ctx["quad"] = run if n < four else 0  # a quadruple: it goes on anything, like a 10
        return Reason.FOUR_ANYTIME, (fid, v.setting_origin("four_burns") or fid), ctx
    ok, name, frags = v.cells[top][move.claim]
    single_anywhere = n == 1 and name == "ANYWHERE"  # a lone 2 or 10 goes on anything, doubles included
    if (count and n != count and not single_anywhere) or n > 3:
        ctx["count"] = count
        return Reason.COUNT, (fid,), ctx
    return _REASONS[name], (fid,) + frags, ctx


def _judge_held(
    table: Table, v: Variant, p: Player, zone: str, cards: tuple[int, ...], ctx: dict[str, object]
) -> tuple[Reason, tuple[str, ...], dict[str, object]]:
    """Are the cards held where the player may play from now? (BEATS stands for yes.)"""
    if not cards:
        return Reason.NOT_HELD, ("core",), ctx
    if zone == FACE_DOWN:
        return Reason.MUST_FLIP, ("core",), ctx
    here = p.hand if zone == HAND else p.face_up_cards
    if (cards[0] in here) if len(cards) == 1 else all(here.count(c) >= cards.count(c) for c in set(cards)):
        pass  # the common case: the cards are held where they may be played from
    elif zone == HAND:
        held = Counter(p.hand)
        want = Counter(cards)
        short = [c for c in want if held[c] < want[c]]
        if short:
            combo_fid = v.setting_origin("final_card_combo")
            up = Counter(p.face_up_cards)
            from_up = want - held
            if (combo_fid and not table.stock and all(want[c] >= k for c, k in held.items())
                    and all(up[c] >= k for c, k in from_up.items())):
                ctx["combo"] = combo_fid  # the whole hand, with matching face-up cards
            else:
                ctx["card"] = short[0]
                if Counter(p.face_up_cards)[short[0]] >= want[short[0]] - held[short[0]]:
                    return Reason.WRONG_ZONE, ("core",), ctx
                return Reason.NOT_HELD, ("core",), ctx
    else:
        held = Counter(p.face_up_cards)
        for c, k in Counter(cards).items():
            if held[c] < k:
                ctx["card"] = c
                ctx["zone"] = FACE_UP
                return Reason.NOT_HELD, ("core",), ctx
    if zone == FACE_UP and any(len(s) > 1 for s in p.face_up) and not _whole_stacks(p, cards):
        return Reason.WHOLE_STACK, (v.setting_origin("setup") or "core",), ctx
    return Reason.BEATS, (), ctx


def _judge_play(
    table: Table, v: Variant, p: Player, zone: str, move: Move, ctx: dict[str, object]
) -> tuple[Reason, tuple[str, ...], dict[str, object]]:
    cards = move.cards
    if not cards:
        return Reason.NOT_HELD, ("core",), ctx
    rank = cards[0] >> 2
    mixed = len(cards) > 1 and any(c >> 2 != rank for c in cards)
    if mixed and not v.runs:
        ctx["cards"] = cards
        return Reason.MIXED_RANKS, ("core",), ctx
    code, frags, ctx = _judge_held(table, v, p, zone, cards, ctx)
    if code is not Reason.BEATS:
        return code, frags, ctx
    if mixed:
        code, frags, ctx = _judge_run(table, v, cards, ctx)
    else:
        top = effective_top(table, v)
        ctx["rank"], ctx["top"], ctx["n"] = rank, top, len(cards)
        cells = _matrix(table, v) if v.extras else v.cells
        if cells is v.cells_rev:
            ctx["reversed"] = True
        ok, name, frags = _placement(cells, v, top.rank, rank, len(cards), zone)
        if top.free and ok:
            name, frags = "RESET", (top.free,)
        if top.looked_through:
            t_fid = v.origin[top.looked_through[0]].get("transparent")
            if t_fid:
                frags = frags + (t_fid,)
        code = _REASONS[name]
    if "combo" in ctx:
        frags = frags + (str(ctx["combo"]),)
    if move.give >= 0 and code.legal:
        return _judge_swap(table, v, p, move, code, frags, ctx)
    return code, frags, ctx


def _judge_run(
    table: Table, v: Variant, cards: tuple[int, ...], ctx: dict[str, object]
) -> tuple[Reason, tuple[str, ...], dict[str, object]]:
    """A run: two or more cards of one suit in unbroken ascending order, each step legal."""
    run_fid = v.setting_origin("runs")
    seq = sorted(cards, key=lambda c: c >> 2)
    ranks = [c >> 2 for c in seq]
    if (JOKER in cards or len({c & 3 for c in cards}) != 1 or len(cards) < v.runs
            or any(b != a + 1 for a, b in zip(ranks, ranks[1:], strict=False))):
        ctx["cards"] = cards
        return Reason.NOT_A_RUN, (run_fid,), ctx
    pile = table.pile
    first_cell: tuple[bool, str, tuple[str, ...]] | None = None
    for k, c in enumerate(seq):
        step = replace(table, pile=pile)
        top = effective_top(step, v)
        ok, name, frags = _matrix(step, v)[top.rank][c >> 2]
        if first_cell is None:
            first_cell = (ok, name, frags)
            ctx["rank"], ctx["top"], ctx["n"] = c >> 2, top, 1
        if not ok or (v.burn[c >> 2] and k != len(seq) - 1):
            ctx["card"], ctx["step_top"] = c, top.rank
            return Reason.RUN_STEP, (run_fid,) + frags, ctx
        pile = pile + (Play((c,), table.turn),)
    ctx["run"] = tuple(seq)
    return Reason.RUN, (run_fid,) + (first_cell[2] if first_cell else ()), ctx


def _judge_swap(
    table: Table, v: Variant, p: Player, move: Move, code: Reason, frags: tuple[str, ...], ctx: dict[str, object]
) -> tuple[Reason, tuple[str, ...], dict[str, object]]:
    rule = _swap_rule(v, move.cards)
    if rule is None:
        return Reason.NO_SWAP, ("core",), ctx
    how, fid = rule
    rest = list(p.hand)
    for c in move.cards:
        if c in rest:
            rest.remove(c)
    ctx["swap"] = how
    if move.give not in rest:
        ctx["card"] = move.give
        return Reason.BAD_SWAP, (fid,), ctx
    if how == "own-face-up":
        if move.target or move.take not in p.face_up_cards:
            return Reason.BAD_SWAP, (fid,), ctx
        return code, frags + (fid,), ctx
    names = [q.name for q in table.players]
    if move.target not in names or move.target == p.name or table.players[names.index(move.target)].out:
        return Reason.BAD_SWAP, (fid,), ctx
    other = table.players[names.index(move.target)]
    if how == "other-hand":
        if move.take >= 0 or not other.hand or move.index > len(other.hand):
            return Reason.BAD_SWAP, (fid,), ctx
    elif move.take not in other.face_up_cards:
        return Reason.BAD_SWAP, (fid,), ctx
    return code, frags + (fid,), ctx


def _first_play(table: Table, v: Variant) -> Move | None:
    for m in _plays(table, v):
        return m
    return None


# -- the move generator -------------------------------------------------


def _plays(table: Table, v: Variant):  # type: ignore[no-untyped-def]
    """Every legal play (not pickups or flips) for the player to move.

    Asks the same questions as the judge: the placement table (reversed where a joker says
    so), whole face-up stacks, the final-card combo, runs, and the swaps a play allows.
    """
    p = table.player
    zone = _zone(p)
    if zone == HAND:
        cards = p.hand
    elif zone == FACE_UP:
        cards = p.face_up_cards
    else:
        return
    top = _top_rank(table, v)
    cells = _matrix(table, v) if v.extras else v.cells
    stacked = zone == FACE_UP and any(len(s) > 1 for s in p.face_up)
    by_rank: dict[int, list[int]] = {}
    for c in cards:
        by_rank.setdefault(c >> 2, []).append(c)
    combo = zone == HAND and v.final_card_combo and not table.stock and len(by_rank) == 1
    swaps = bool(v.swaps)
    for rank, group in by_rank.items():
        seen: set[tuple[int, ...]] = set()
        if stacked:
            stacks = _stack_groups(p, rank)
            subs = sorted({tuple(sorted(c for s in g for c in s))
                           for n in range(1, len(stacks) + 1) for g in combinations(stacks, n)},
                          key=lambda t: (len(t), t))
            for sub in subs:
                if _placement(cells, v, top, rank, len(sub), zone)[0]:
                    yield Move(PLAY, sub)
            continue
        if group[0] == UNKNOWN:
            continue  # cards nobody has seen are not played by name (check refuses them too)
        distinct = sorted(Counter(group).items())
        for n in range(1, len(group) + 1):
            if not _placement(cells, v, top, rank, n, zone)[0]:
                continue
            for sub in _multisets(distinct, n):  # each set of cards once: 32 sevens list 6,560, not 2**32
                if sub not in seen:
                    seen.add(sub)
                    yield Move(PLAY, sub)
                    if swaps:
                        rule = _swap_rule(v, sub)
                        if rule is not None:
                            yield from _swap_moves(table, v, p, sub, rule[0])
        if combo:
            ups = sorted(c for c in p.face_up_cards if c >> 2 == rank)
            base = tuple(sorted(group))
            for n in range(1, len(ups) + 1):
                if not _placement(cells, v, top, rank, len(base) + n, zone)[0]:
                    continue
                for sub in combinations(ups, n):
                    cards_ = tuple(sorted(base + sub))
                    if cards_ not in seen:
                        seen.add(cards_)
                        yield Move(PLAY, cards_)
    if v.runs:
        for suit in range(4):
            ranks = sorted({c >> 2 for c in cards if c != JOKER and c & 3 == suit})
            for i, start in enumerate(ranks):
                seq = [start]
                for r in ranks[i + 1:]:
                    if r != seq[-1] + 1:
                        break
                    seq.append(r)
                    if len(seq) >= v.runs:
                        run = Move(PLAY, tuple(r_ * 4 + suit for r_ in seq))
                        if _judge(table, v, run)[0].legal:
                            yield run


def _swap_moves(table: Table, v: Variant, p: Player, cards: tuple[int, ...], how: str):  # type: ignore[no-untyped-def]
    rest = list(p.hand)
    for c in cards:
        if c in rest:
            rest.remove(c)
    gives = sorted(set(rest))
    for give in gives:
        if how == "own-face-up":
            for take in sorted(set(p.face_up_cards)):
                yield Move(PLAY, cards, give=give, take=take)
            continue
        for q in table.players:
            if q.name == p.name or q.out:
                continue
            if how == "other-hand" and q.hand:
                yield Move(PLAY, cards, give=give, target=q.name)  # their first card, as 1 below
                for n in range(1, len(q.hand) + 1):  # the card taken blind, by its place in their hand
                    yield Move(PLAY, cards, index=n, give=give, target=q.name)
            elif how == "other-face-up":
                for take in sorted(set(q.face_up_cards)):
                    yield Move(PLAY, cards, give=give, take=take, target=q.name)


def legal_moves(table: Table, v: Variant | str) -> list[Move]:
    """Every legal move for the player to move, plays first."""
    v = load_variant(v)
    if game_over(table, v):
        return []
    p = table.player
    if table.setup:
        if v.setup == "choose":
            if len(p.face_up) < v.setup_count:
                return [Move(PLACE, (c,)) for c in sorted(set(p.hand))]
            return [Move(READY)]
        if v.setup not in ("swap", "stack"):
            return [Move(READY)]  # the cards stay as dealt
        out = [Move(SWAP, (h, u)) for h in sorted(set(p.hand)) for u in sorted(set(p.face_up_cards))]
        return out + [Move(READY)]
    zone = _zone(p)
    if v.bluff:
        return _bluff_moves(table, v, p, zone)
    if v.extras and v.force >= 0 and _forced(table, v):
        moves = []
        for m in _forced_plays(p, v, zone):
            moves.append(m)
            rule = _swap_rule(v, m.cards)
            if rule is not None:
                moves += list(_swap_moves(table, v, p, m.cards, rule[0]))
        return moves + [Move(PICKUP)]
    if zone == FACE_DOWN:
        return [Move(FLIP, (), i + 1) for i in range(len(p.face_down))]
    moves = list(_plays(table, v))
    lead = opening_lead(table, v) if table.opening else None
    leader = opening_leader(table, v) if table.opening else None
    if leader is not None and leader != table.turn:
        return []  # another player leads the first play
    if lead is not None:
        return [m for m in moves if m.kind == PLAY and all(c >> 2 == lead for c in m.cards)]
    if v.extras:
        if v.gamble and zone == HAND and table.stock:
            moves.append(Move(GAMBLE))
        if v.slide >= 0 and zone == HAND and table.pile:
            moves += [Move(SLIDE, (c,)) for c in sorted(set(p.hand)) if c >> 2 == v.slide]
    if table.pile and (v.voluntary_pickup or not any(m.kind == PLAY for m in moves)):
        if zone == FACE_UP and v.face_up_pickup_adds:
            moves += [Move(PICKUP, (c,)) for c in sorted(set(p.face_up_cards))]
        else:
            moves.append(Move(PICKUP))
    return moves


def _multisets(distinct: list[tuple[int, int]], n: int) -> Iterator[tuple[int, ...]]:
    """The sub-multisets of size ``n`` of ``distinct`` ((card, copies) pairs, sorted), in the
    order ``combinations`` of the sorted cards would first give them."""
    if n == 0:
        yield ()
        return
    if not distinct or sum(k for _, k in distinct) < n:
        return
    (card, copies), rest = distinct[0], distinct[1:]
    for take in range(min(copies, n), -1, -1):
        for tail in _multisets(rest, n - take):
            yield (card,) * take + tail


def _bluff_moves(table: Table, v: Variant, p: Player, zone: str) -> list[Move]:
    top, count, run = _bluff_state(table, v)
    four = v.four_burns or 4

    def claims(n: int) -> list[int]:  # the ranks n cards may be claimed as (as _judge_bluff decides)
        out = []
        for r in range(13):
            ok, name, _ = v.cells[top][r]
            if n == four or (r == top and run + n == four):
                out.append(r)
            elif ok and n <= 3 and (not count or n == count or (n == 1 and name == "ANYWHERE")):
                out.append(r)
        return out

    moves: list[Move] = []
    if zone == FACE_DOWN:
        moves = [Move(FLIP, (), i + 1, claim=r) for i in range(len(p.face_down)) for r in claims(1)]
    elif zone in (HAND, FACE_UP):
        cards = p.hand if zone == HAND else p.face_up_cards
        by_rank: dict[int, list[int]] = {}
        for c in cards:
            by_rank.setdefault(c >> 2, []).append(c)
        stacked = zone == FACE_UP and any(len(s) > 1 for s in p.face_up)
        for group in by_rank.values():
            for n in range(1, min(4, len(group)) + 1):
                said = claims(n)
                if not said:
                    continue
                for sub in _multisets(sorted(Counter(group).items()), n):
                    if not stacked or _whole_stacks(p, sub):
                        moves += [Move(PLAY, sub, claim=r) for r in said]
    if table.pile and table.pile[-1].claim >= 0 and table.pile[-1].by != table.turn:
        moves.append(Move(CALL))
    return moves


def _forced_plays(p: Player, v: Variant, zone: str) -> list[Move]:
    if zone == FACE_DOWN:
        return []
    cards = p.hand if zone == HAND else p.face_up_cards
    deflect = sorted(c for c in cards if _deflects(v, c))
    out: list[Move] = []
    for n in range(1, len(deflect) + 1):
        for sub in sorted(set(combinations(deflect, n))):
            if zone == FACE_UP and any(len(s) > 1 for s in p.face_up) and not _whole_stacks(p, sub):
                continue
            out.append(Move(PLAY, sub))
    return out


# -- applying moves ------------------------------------------------------


def _next_seat(players: tuple[Player, ...], seat: int, direction: int, skip: int = 0) -> int:
    n = len(players)
    s = seat
    steps = skip + 1
    for _ in range(n * (skip + 2)):
        s = (s + direction) % n
        if not players[s].out:
            steps -= 1
            if steps == 0:
                return s
    return seat


def _remove(cards: tuple[int, ...], take: tuple[int, ...]) -> tuple[int, ...]:
    out = list(cards)
    for c in take:
        out.remove(c)
    return tuple(out)


def _remove_face_up(stacks: tuple[tuple[int, ...], ...], take: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    out = [list(s) for s in stacks]
    for c in take:
        for s in out:
            if c in s:
                s.remove(c)
                break
    return tuple(tuple(s) for s in out if s)


def _over(players: tuple[Player, ...], v: Variant) -> bool:
    left = 0
    for p in players:
        if p.hand or p.face_up or p.face_down:
            left += 1
    return left < len(players) if v.goal == "winner" else left <= 1


def _lay(table: Table, v: Variant, seat: int, p: Player, cards: tuple[int, ...], events: list[str]) -> Table:
    """Put a play on the pile, do what its cards do, draw, and pass the turn.

    ``p`` is the mover with the played cards already taken from their zones.
    """
    pile = table.pile + (Play(cards, seat),)
    burned = table.burned
    direction = table.direction
    rank = cards[-1] >> 2
    n = len(cards)
    if cards[0] >> 2 == rank:
        flips = n if v.reverse[rank] else 0
        skip = v.skip[rank] * n
        play_again = v.play_again[rank]
        if v.transparent[rank] and not skip and table.pile:
            # a see-through card shows the card beneath, and what it does (a 3 on a 9 skips too)
            skip = v.skip[_top_rank(table, v)] if _top_rank(table, v) != EMPTY else 0
    else:  # a run: every card does what it does
        flips = sum(1 for c in cards if v.reverse[c >> 2])
        skip = sum(v.skip[c >> 2] for c in cards)
        play_again = any(v.play_again[c >> 2] for c in cards)
    burn = v.burn[rank]
    if not burn and v.four_burns:
        burn = _pile_run(pile)[1] >= v.four_burns  # the new play is on top: its rank's run
    if burn:
        events.append(BURN)
        burned = burned + tuple(c for play in pile for c in play.cards)
        pile = ()
    if flips % 2:
        events.append(REVERSE)
        direction = -direction
    again = burn or play_again
    stock = table.stock
    draw = min(v.refill - len(p.hand), len(stock)) if stock else 0
    out = draw <= 0 and not (p.hand or p.face_up or p.face_down)
    if again and not out:
        skip = 0  # the player goes again: nobody misses a turn
    if skip:
        events.append(SKIP)
    if again and not out:
        events.append(PLAY_AGAIN)
    if draw > 0:
        p = Player(p.name, tuple(sorted(p.hand + stock[:draw])), p.face_up, p.face_down)
        stock = stock[draw:]
        events.append(DRAW)
    if v.face_up_to_hand and not p.hand and not stock and p.face_up:
        p = Player(p.name, tuple(sorted(p.face_up_cards)), (), p.face_down)
    players = table.players[:seat] + (p,) + table.players[seat + 1:]
    turn = seat
    if out:
        events.append(OUT)
        if _over(players, v):
            events.append(GAME_OVER)
        else:
            turn = _next_seat(players, seat, direction, skip)
    elif not again:
        turn = _next_seat(players, seat, direction, skip)
    return Table(players, pile, stock, burned, turn, direction, table.decks, table.setup, table.ready)


def _pickup(table: Table, v: Variant, seat: int, p: Player, extra: tuple[int, ...], events: list[str]) -> Table:
    last_by = table.pile[-1].by if table.pile else -1
    taken = table.pile_cards + extra
    burned = table.burned
    if v.force >= 0 and v.force_once and _forced(table, v):
        gone = next(c for c in reversed(taken) if c >> 2 == v.force)  # the forcing card leaves the game
        rest = list(taken)
        rest.reverse()
        rest.remove(gone)
        rest.reverse()
        taken, burned = tuple(rest), burned + (gone,)
    p = Player(p.name, tuple(sorted(p.hand + taken)), p.face_up, p.face_down)
    players = table.players[:seat] + (p,) + table.players[seat + 1:]
    events.append(PICKED_UP)
    after = v.after_pickup
    if after == "same":
        events.append(PLAY_AGAIN)
        turn = seat
    elif after == "previous" and last_by >= 0 and last_by != seat and not players[last_by].out:
        turn = last_by
    elif after == "previous":
        turn = _next_seat(players, seat, -table.direction)
    else:
        turn = _next_seat(players, seat, table.direction)
    return Table(players, (), table.stock, burned, turn, table.direction, table.decks,
                 table.setup, table.ready)


def apply_unchecked(table: Table, v: Variant, move: Move) -> tuple[Table, list[str]]:
    """Apply a move known to be legal. The fast path for search and simulation."""
    after, events = _apply(table, v, move)
    if table.opening and after.opening:  # the first play has been made
        after = replace(after, opening=False)
    return after, events


def _apply(table: Table, v: Variant, move: Move) -> tuple[Table, list[str]]:
    seat = table.turn
    p = table.players[seat]
    events: list[str] = []
    kind = move.kind
    if v.bluff and kind in (PLAY, FLIP, CALL):
        return _apply_bluff(table, v, seat, p, move, events), events
    if kind == PLAY:
        cards = move.cards
        if p.hand:
            hand = list(p.hand)
            rest = []
            for c in cards:
                if c in hand:
                    hand.remove(c)
                else:
                    rest.append(c)  # the final-card combo: the rest come from face up
            face_up = _remove_face_up(p.face_up, tuple(rest)) if rest else p.face_up
            p = Player(p.name, tuple(hand), face_up, p.face_down)
        else:
            p = Player(p.name, p.hand, _remove_face_up(p.face_up, cards), p.face_down)
        if move.give >= 0:
            table, p = _do_swap(table, v, seat, p, move, events)
        if len(cards) > 1 and cards[0] >> 2 != cards[-1] >> 2:
            cards = tuple(sorted(cards, key=lambda c: c >> 2))  # a run lies in order, highest on top
        return _lay(table, v, seat, p, cards, events), events
    if kind == PICKUP:
        if move.cards:
            p = Player(p.name, p.hand, _remove_face_up(p.face_up, move.cards), p.face_down)
        return _pickup(table, v, seat, p, move.cards, events), events
    if kind in (FLIP, GAMBLE):
        if kind == FLIP:
            i = move.index - 1
            card = p.face_down[i]
            if card == UNKNOWN:
                raise TutorError(f"{p.name}'s face-down card {move.index} is unseen; name it to play it out")
            p = Player(p.name, p.hand, p.face_up, p.face_down[:i] + p.face_down[i + 1:])
        else:
            card = table.stock[0]
            if card == UNKNOWN:
                raise TutorError("the top card of the stock is unseen; name it to play it out")
            table = replace(table, stock=table.stock[1:])
        if _matrix(table, v)[_top_rank(table, v)][card >> 2][0]:
            return _lay(table, v, seat, p, (card,), events), events
        return _pickup(table, v, seat, p, (card,), events), events
    if kind == SLIDE:
        card = move.cards[0]
        hand = list(p.hand)
        hand.remove(card)
        stock = table.stock
        draw = min(v.refill - len(hand), len(stock)) if stock else 0
        if draw > 0:
            hand += stock[:draw]
            stock = stock[draw:]
            events.append(DRAW)
        p = Player(p.name, tuple(sorted(hand)), p.face_up, p.face_down)
        if v.face_up_to_hand and not p.hand and not stock and p.face_up:
            p = Player(p.name, tuple(sorted(p.face_up_cards)), (), p.face_down)
        table = replace(table.with_player(seat, p), pile=(Play((card,), seat),) + table.pile, stock=stock)
        return table, events
    if kind == PLACE:
        card = move.cards[0]
        p = Player(p.name, _remove(p.hand, (card,)), p.face_up + ((card,),), p.face_down)
        return table.with_player(seat, p), events
    if kind == SWAP:
        h, u = move.cards
        p = replace(p, hand=tuple(sorted(_remove(p.hand, (h,)) + (u,))), face_up=_replace_face_up(p.face_up, u, h))
        return table.with_player(seat, p), events
    # ready
    ready = list(table.ready or [False] * len(table.players))
    ready[seat] = True
    if all(ready):  # setup is over: the first player leads, and the opening rule judges the lead
        table = replace(table, setup=False, ready=(), opening=True)
        return replace(table, turn=first_player(table, v)), events
    nxt = (seat + 1) % len(ready)
    while ready[nxt]:
        nxt = (nxt + 1) % len(ready)
    return replace(table, ready=tuple(ready), turn=nxt), events


def _apply_bluff(table: Table, v: Variant, seat: int, p: Player, move: Move, events: list[str]) -> Table:
    if move.kind == CALL:
        top = table.pile[-1]
        honest = all(c >> 2 == top.claim for c in top.cards)
        taker = seat if honest else top.by
        if not honest:
            events.append("caught")
        q = table.players[taker]
        q = Player(q.name, tuple(sorted(q.hand + table.pile_cards)), q.face_up, q.face_down)
        players = table.players[:taker] + (q,) + table.players[taker + 1:]
        events.append(PICKED_UP)
        if honest:  # a wrong call costs the caller the pile and the turn
            turn = _next_seat(players, seat, table.direction)
        else:
            events.append(PLAY_AGAIN)
            turn = seat
        return Table(players, (), table.stock, table.burned, turn, table.direction, table.decks,
                     table.setup, table.ready)
    cards: tuple[int, ...]
    if move.kind == FLIP:
        i = move.index - 1
        cards = (p.face_down[i],)
        p = Player(p.name, p.hand, p.face_up, p.face_down[:i] + p.face_down[i + 1:])
    else:
        cards = move.cards
        if p.hand:
            p = Player(p.name, _remove(p.hand, cards), p.face_up, p.face_down)
        else:
            p = Player(p.name, p.hand, _remove_face_up(p.face_up, cards), p.face_down)
    pile, burned = table.pile, table.burned
    if pile and _bluff_top(table, v)[0] == EMPTY:  # the claimed 10 (or four) took the pile out
        burned = burned + table.pile_cards
        pile = ()
        events.append(BURN)
    table = replace(table, pile=pile + (Play(cards, seat, move.claim),), burned=burned)
    stock = table.stock
    draw = min(v.refill - len(p.hand), len(stock)) if stock and move.kind == PLAY else 0
    if draw > 0:
        p = Player(p.name, tuple(sorted(p.hand + stock[:draw])), p.face_up, p.face_down)
        stock = stock[draw:]
        events.append(DRAW)
    players = table.players[:seat] + (p,) + table.players[seat + 1:]
    table = Table(players, table.pile, stock, table.burned, seat, table.direction, table.decks,
                  table.setup, table.ready)
    if p.out:
        events.append(OUT)
        if _over(players, v):
            events.append(GAME_OVER)
            return table
    return replace(table, turn=_next_seat(players, seat, table.direction))


def _do_swap(table: Table, v: Variant, seat: int, p: Player, move: Move, events: list[str]) -> tuple[Table, Player]:
    """The swap a play sets off: a hand card for a face-up card, or blind for another hand's card."""
    give = move.give
    hand = list(p.hand)
    hand.remove(give)
    if not move.target:
        p = Player(p.name, tuple(sorted(hand + [move.take])),
                   _replace_face_up(p.face_up, move.take, give), p.face_down)
        events.append("swap")
        return table, p
    other_seat = next(i for i, q in enumerate(table.players) if q.name == move.target)
    other = table.players[other_seat]
    if move.take >= 0:
        other = Player(other.name, other.hand, _replace_face_up(other.face_up, move.take, give), other.face_down)
        got = move.take
    else:
        k = max(move.index, 1) - 1
        got = other.hand[k]
        rest = other.hand[:k] + other.hand[k + 1:]
        other = Player(other.name, tuple(sorted(rest + (give,))) if UNKNOWN not in rest else rest + (give,),
                       other.face_up, other.face_down)
    p = Player(p.name, tuple(sorted(hand + [got])), p.face_up, p.face_down)
    events.append("swap")
    return table.with_player(other_seat, other), p


def _replace_face_up(stacks: tuple[tuple[int, ...], ...], old: int, new: int) -> tuple[tuple[int, ...], ...]:
    """``new`` takes ``old``'s place face up; out of a stack of several, it lies on its own."""
    out = list(stacks)
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


def apply(table: Table, v: Variant | str, move: Move | str) -> tuple[Table, list[str]]:
    """Apply a move after checking it; raise :class:`IllegalMoveError` if illegal."""
    v = load_variant(v)
    if isinstance(move, str):
        move = Move.parse(move)
    code, _, _ = _judge(table, v, move)
    if not code.legal:
        raise IllegalMoveError(f"{str(move)!r} is not legal here: {check(table, v, move).reason}")
    return apply_unchecked(table, v, move)


def opening_lead(table: Table, v: Variant) -> int | None:
    """At the opening, the rank the first play must be (the lowest card that made its holder
    the leader, where the variant's first-player rule says so), else None."""
    if not table.opening or v.first_player != "lowest-card-leads" or v.bluff:
        return None  # (in Bluff the cards go down unseen: only the claim is judged)
    ranks = [c >> 2 for c in table.player.hand if c != UNKNOWN and c >> 2 >= 1]  # a 2 never leads
    return min(ranks) if ranks else None


def opening_leader(table: Table, v: Variant) -> int | None:
    """At the opening, the seat the lowest-card rule makes the leader, when every hand is known
    (an unseen hand might hold a lower card: then None, and no seat is refused for it)."""
    if not table.opening or v.first_player != "lowest-card-leads" or v.bluff:
        return None
    if any(UNKNOWN in p.hand for p in table.players):
        return None
    return first_player(table, v)


def first_player(table: Table, v: Variant) -> int:
    """Who leads: the first 3 face up (then in hand), else the first 4, and so on."""
    players = table.players
    if v.first_player == "left-of-dealer":
        return 0
    for rank in range(1, 13):  # 3 up to ace; a 2 never decides
        if v.first_player == "first-three-face-up":
            width = max((len(p.face_up) for p in players), default=0)
            for pos in range(width):
                for s, p in enumerate(players):
                    if pos < len(p.face_up) and any(c >> 2 == rank for c in p.face_up[pos]):
                        return s
        for s, p in enumerate(players):
            if any(c >> 2 == rank for c in p.hand):
                return s
    return 0


# -- check -----------------------------------------------------------------


def check(table: Table, v: Variant | str, move: Move | str) -> Verdict:
    """Is ``move`` legal for the player to move? With the reason and what follows."""
    v = load_variant(v)
    if isinstance(move, str):
        move = Move.parse(move)
    code, frags, ctx = _judge(table, v, move)
    frags = tuple(dict.fromkeys(frags))
    reason = _sentence(table, v, move, code, ctx)
    if not code.legal:
        return Verdict(move, code, reason, frags)
    p = table.player
    if (move.kind == FLIP and p.face_down[move.index - 1] == UNKNOWN) or (
            move.kind == GAMBLE and table.stock[0] == UNKNOWN):
        # the outcome turns on an unseen card: who moves next is the likeliest over what it may be
        return Verdict(move, code, reason, frags, (), _likely_next(table, v, move))
    after, events = apply_unchecked(table, v, move)
    nxt = None if game_over(after, v) else after.players[after.turn].name
    if move.kind in (FLIP, GAMBLE) and not v.bluff:
        # the rule that let the turned card stay (or not) decided the outcome too
        card = p.face_down[move.index - 1] if move.kind == FLIP else table.stock[0]
        frags = frags + _matrix(table, v)[_top_rank(table, v)][card >> 2][2]
    clause, more = _effects(table, v, move, events)
    if clause:
        reason = reason[:-1] + "; " + clause + "."
    return Verdict(move, code, reason, tuple(dict.fromkeys(frags + more)), tuple(events), nxt)


def _likely_next(table: Table, v: Variant, move: Move) -> str | None:
    """Who moves after turning an unseen card (a blind flip, or Egilsson's stock card): each rank
    it may be, weighted by how many of that rank nobody has seen; None only if the game ends."""
    seen = Counter(c >> 2 for c in table.all_cards() if c != UNKNOWN)
    tally: Counter[str | None] = Counter()
    p = table.player
    for r in range(13 + (1 if v.jokers else 0)):
        left = (v.jokers if r == 13 else 4) * table.decks - seen[r]
        if left <= 0:
            continue
        card = JOKER if r == 13 else r * 4
        if move.kind == FLIP:
            i = move.index - 1
            t = table.with_player(table.turn, replace(p, face_down=p.face_down[:i] + (card,) + p.face_down[i + 1:]))
        else:
            t = replace(table, stock=(card,) + table.stock[1:])
        after, _ = apply_unchecked(t, v, move)
        tally[None if game_over(after, v) else after.players[after.turn].name] += left
    return tally.most_common(1)[0][0] if tally else None


def _effects(table: Table, v: Variant, move: Move, events: list[str]) -> tuple[str, tuple[str, ...]]:
    """What a legal move sets off, in words, with the fragments behind it."""
    who = table.player.name
    bits: list[str] = []
    frags: list[str] = []
    if move.kind == PLAY:
        rank = move.cards[0] >> 2
    elif move.kind == FLIP and PICKED_UP not in events:
        rank = table.player.face_down[move.index - 1] >> 2
    else:
        rank = -1
    origin = v.origin[rank] if rank >= 0 else {}
    if BURN in events:
        if rank >= 0 and v.burn[rank]:
            bits.append(f"{the(rank)} burns the pile")
            frags.append(origin.get("burn", ""))
        else:
            bits.append("four of a kind together on top burn the pile")
            frags.append(v.setting_origin("four_burns"))
    if REVERSE in events:
        bits.append("the direction of play reverses")
        frags.append(origin.get("reverse", ""))
    if SKIP in events:
        bits.append("the next player misses a turn")
        frags.append(origin.get("skip", ""))
    if PICKED_UP in events and move.kind == FLIP:
        bits.append("it cannot go, so the pile is taken up with it")
    if PLAY_AGAIN in events:
        if PICKED_UP in events:
            frags.append(v.setting_origin("after_pickup"))
        elif rank >= 0 and v.play_again[rank] and BURN not in events:
            frags.append(origin["play_again"])
        bits.append(f"{who} plays again")
    elif PICKED_UP in events and v.after_pickup != "next":
        frags.append(v.setting_origin("after_pickup"))
    if OUT in events:
        bits.append(f"{who} has no cards left and is out")
    if GAME_OVER in events:
        bits.append("the game is over")
    return ", and ".join(bits) if len(bits) < 3 else ", ".join(bits[:-1]) + " and " + bits[-1], tuple(f for f in frags if f)


def judge(table: Table, v: Variant | str, move: Move | str) -> tuple[Reason, tuple[str, ...]]:
    """The reason code and deciding fragments, without the sentence or the move's outcome."""
    v = load_variant(v)
    if isinstance(move, str):
        move = Move.parse(move)
    code, frags, _ = _judge(table, v, move)
    return code, frags


def is_legal(table: Table, v: Variant | str, move: Move | str) -> bool:
    v = load_variant(v)
    if isinstance(move, str):
        move = Move.parse(move)
    return _judge(table, v, move)[0].legal


# -- sentences -------------------------------------------------------------


def _sentence(table: Table, v: Variant, move: Move, code: Reason, ctx: dict[str, object]) -> str:
    p = table.player
    who = p.name
    rank = ctx.get("rank")
    top = ctx.get("top")
    under = ""
    if isinstance(top, Top) and top.looked_through:
        seen = top.looked_through
        what = rank_plural(seen[0]) if len(seen) > 1 else word(seen[0])
        under = f" under the transparent {what}"
    if isinstance(rank, int):
        n = int(ctx.get("n", 1))  # type: ignore[call-overload]
        words = ("", "", "two", "three", "four", "five", "six", "seven", "eight")
        if n > 1:
            played, s_ = f"{words[n] if n < len(words) else n} {rank_plural(rank)}", ""
        else:
            played, s_ = a(rank), "s"
        cap = played[0].upper() + played[1:]
        t = top.rank if isinstance(top, Top) else EMPTY
        if ctx.get("reversed"):
            under += " (a joker has turned the ranking upside down, so lower cards beat higher)"
        if code is Reason.EMPTY:
            if under:
                return f"Only transparent cards are on the pile, so anything may follow: {played} is fine."
            return f"The pile is empty, so {played} may start it."
        if code is Reason.BEATS:
            return f"{cap} beat{s_} {the(t)}{under}."
        if code is Reason.MATCHES:
            return f"{cap} equal{s_} {the(t)}{under}, and an equal card may be played."
        if code is Reason.ANYWHERE:
            what = cap if n > 1 else a(rank).capitalize()
            return f"{what} may be played on any card, {the(t)}{under} included."
        if code is Reason.RESET and isinstance(top, Top) and top.free:
            return (f"With two players in the game, whoever plays a joker plays again at once with a card "
                    f"of any value: {played} is fine.")
        if code is Reason.RESET:
            return f"Any card may be played on {a(t)}{under}."
        if code is Reason.UNDER_LIMIT:
            return f"{the(t).capitalize()}{under} makes the next play {a(t)} or lower, and {played} {'is' if s_ else 'are'}."
        if code is Reason.UNBEATABLE_OK:
            return f"Only some cards may go on {a(t)}, and {played} {'is' if s_ else 'are'} allowed."
        if code is Reason.FOUR_ANYTIME and v.bluff:
            quad = ctx.get("quad")
            below = ("", "one", "two", "three")[quad] if isinstance(quad, int) and quad < 4 else str(quad)
            made = (f"with the {below} claimed below "
                    f"{'it makes' if n == 1 else 'they make'} four of a kind," if quad else "four laid at once make")
            return (f"Claimed as {rank_plural(rank)}, {made} a quadruple: like a 10, it goes on anything and "
                    "destroys the pile.")
        if code is Reason.FOUR_ANYTIME:
            return f"Four or more {rank_plural(rank)} from the hand may be played on any card."
        if code is Reason.TOO_LOW:
            return f"{cap} do{'es' if s_ else ''} not beat {the(t)}{under}."
        if code is Reason.OVER_LIMIT:
            return f"{the(t).capitalize()}{under} makes the next play {a(t)} or lower, and {played} {'is' if s_ else 'are'} higher."
        if code is Reason.NOT_ON:
            return f"In this variant {a(rank)} cannot be played on {a(t)}{under}."
        if code is Reason.UNBEATABLE:
            return f"Only the cards this variant allows may go on {a(t)}{under}, and {played} {'is' if s_ else 'are'} not among them."
    if code is Reason.MIXED_RANKS:
        return "Cards played together must all be of one rank."
    if code is Reason.NOT_HELD:
        c = ctx.get("card")
        where = "face up" if ctx.get("zone") == FACE_UP else "in hand"
        return f"{who} has no {card_str(c) if isinstance(c, int) else 'such card'} {where}."
    if code is Reason.WRONG_ZONE:
        return f"{who} still has cards in hand, so face-up cards cannot be played yet."
    if code is Reason.MUST_FLIP:
        return f"{who} has only face-down cards left, so must turn one over."
    if code is Reason.EMPTY_PILE:
        return "The pile is empty, so there is nothing to pick up: play a card to start it."
    if code is Reason.MUST_PLAY:
        ex = ctx.get("example")
        return f"{who} can play (for example '{ex}'), and in this variant you must play if you can."
    if code is Reason.PICKUP_NEEDS_CARD:
        return (f"Playing from the face-up cards, {who} must add one face-up card to the pile "
                "before taking it: write 'pickup with CARD'.")
    if code is Reason.PICKUP_WITH_NOT_HERE:
        if _zone(p) == HAND:
            return "'pickup with' is for the face-up phase; with cards in hand, just 'pickup'."
        return "In this variant a face-up pickup leaves the face-up cards in place: just 'pickup'."
    if code is Reason.PICKUP_OK:
        if ctx.get("voluntary"):
            return f"{who} may take the pile instead of playing, whether or not a card would go."
        return f"{who} has no card that can go on the pile, so takes it."
    if code is Reason.FLIP_OK:
        return (f"{who} plays blind: face-down card {move.index} is turned over; it stays if it "
                "can go on the pile, otherwise it is taken up with the pile.")
    if code is Reason.FLIP_NOT_YET:
        zone = "in hand" if ctx.get("zone") == HAND else "face up"
        return f"Face-down cards come last, and {who} still has cards {zone}."
    if code is Reason.FLIP_RANGE:
        return f"{who} has {ctx.get('n')} face-down cards, so there is no card {move.index}."
    if code is Reason.NOT_LEADER:
        leader = ctx.get("leader")
        lp = table.players[leader] if isinstance(leader, int) else None
        if lp is not None:
            low = min(c >> 2 for c in lp.hand if c >> 2 >= 1)
            return (f"It is {lp.name}'s lead, not {who}'s: {lp.name} is the first player holding "
                    f"{a(low)}, the lowest card in anyone's hand (2s do not count).")
        return f"It is not {who}'s lead."
    if code is Reason.OPENING:
        lead = ctx.get("rank")
        named = rank_plural(lead) if isinstance(lead, int) else "lowest cards"
        return (f"The first play of the game is the lowest card in the leader's hand: {who} leads with "
                f"{a(lead) if isinstance(lead, int) else 'it'} (one or more {named}, nothing else).")
    if code is Reason.SETUP_ONLY:
        if v.setup == "choose":
            return (f"Before play starts, each player lays {v.setup_count} hand cards face up ('place CARD'), "
                    "then says 'ready'.")
        if v.setup not in ("swap", "stack"):
            return "In this variant the cards stay as dealt: before play each player only says 'ready'."
        return "Before play starts, only swaps between hand and face-up cards (and 'ready') are allowed."
    if code is Reason.NOT_SETUP:
        return "Hand and face-up cards are swapped only before play starts."
    if code is Reason.SWAP_OK:
        return f"Before play, {who} may exchange a hand card with a face-up card."
    if code is Reason.READY_OK:
        return f"{who} has finished arranging the face-up cards."
    if code is Reason.GAME_OVER:
        return "The game is over: no more moves."
    return _more_sentences(table, v, move, code, ctx, who)


def _more_sentences(table: Table, v: Variant, move: Move, code: Reason, ctx: dict[str, object], who: str) -> str:
    """Sentences for the catalogue's rules beyond the plain game."""
    card = ctx.get("card")
    named = card_str(card) if isinstance(card, int) else "that card"
    texts = {
        Reason.PLACE_OK: f"Before play, {who} lays a hand card face up.",
        Reason.SETUP_COUNT: f"Each player lays exactly {ctx.get('n')} cards face up before play.",
        Reason.DEFLECT: "A red jack passes the forced pickup on: the next player must now take the pile or answer it.",
        Reason.FORCED_PICKUP: f"A superjoker lies on the pile: {who} must take the pile (only a red jack could pass it on).",
        Reason.RUN: f"A run in one suit, each card playable on the one before: {who} may lay it down at once.",
        Reason.NOT_A_RUN: "Cards of different ranks go together only as a run: consecutive, one suit, "
                          f"at least {v.runs or 2} cards.",
        Reason.RUN_STEP: f"The run breaks at {named}: it could not be played on the card before it.",
        Reason.NO_SWAP: "This play does not allow a swap.",
        Reason.BAD_SWAP: "That swap is not possible: give a card still in hand, and take one that is there to take.",
        Reason.GAMBLE_OK: (f"{who} turns over the top card of the stock instead of playing from the hand; "
                           "it is played if it can go, otherwise it is taken up with the pile."),
        Reason.NO_GAMBLE: {"variant": "This variant has no trying the stock's top card.",
                           "stock": "The stock is empty, so there is no card to try.",
                           "forced": f"{who} must take the pile.",
                           "zone": "The stock's top card may be tried only instead of a play from the hand."
                           }.get(str(ctx.get("why")), "That is not a move here."),
        Reason.SLIDE_OK: f"{who} slides {named} under the pile; it does not use up the turn.",
        Reason.NO_SLIDE: {"variant": "This variant has no sliding cards under the pile.",
                          "rank": f"Only {rank_plural(v.slide) if v.slide >= 0 else 'some cards'} slide under the pile.",
                          "held": f"{who} has no {named} in hand.",
                          "pile": "There is no pile to slide a card under.",
                          "forced": f"{who} must take the pile."}.get(str(ctx.get("why")), "No slide here."),
        Reason.WHOLE_STACK: "Equal face-up cards stacked together are played together, the whole stack.",
        Reason.NEEDS_CLAIM: "In Bluff every play names a rank: write 'play 7H as Q'.",
        Reason.CLAIM_NOT_HERE: "Claims and calls belong to Bluff; in this variant cards are played face up.",
        Reason.COUNT: (f"After {_count_words(ctx.get('count'))}, the next play must be {_count_words(ctx.get('count'))}"
                       " too, claimed equal or higher (or a lone 2 or 10, or four of a kind)."
                       if ctx.get("count") else "At most three cards go down at once, or four of a kind."),
        Reason.CALL_OK: f"{who} calls the last claim: the cards are turned over, and whoever was wrong takes the pile.",
        Reason.NO_CALL: "There is no claim of another player's on top of the pile to call.",
        Reason.BLUFF_NO_PICKUP: "In Bluff nobody simply takes the pile: play (truly or not), or call.",
    }
    fallback = "The rules allow this move." if code.legal else "The rules do not allow this move."
    return texts.get(code, fallback)


def top_rank(table: Table, v: Variant) -> int:
    """The effective top rank the next play must answer (EMPTY for an empty pile)."""
    return _top_rank(table, v)


def zone_of(p: Player) -> str:
    """The zone a player plays from now: hand, face up, face down, or none (out)."""
    return _zone(p)
