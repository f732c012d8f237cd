"""Fast whole-game simulation: a mutable, unchecked twin of the engine for bulk play.

The engine's :class:`~tutor.core.table.Table` is immutable and every move goes through
``legal_moves`` and ``apply_unchecked``; that is right for checking and for the app, and
too slow for thousands of games. This module plays *the same games* as
:func:`tutor.play.game.play_game` with the bots of ``tutor.play.game.BOTS`` (random, playful, greedy,
epsilon; one kind for all seats or one per seat): the same deal, the same legal moves in
the same order, the same random draws, the same stall rules and the same outcome, on plain
mutable state. ``tests/test_sim.py`` asserts that, move for move, the way python-chess keeps
``push`` and ``push_san`` (OpenSpiel ``ApplyAction`` and ``ApplyActionWithLegalityCheck``) in step.

>>> r = simulate("pagat", 4, seed=3)
>>> from tutor.play.game import play_game
>>> g = play_game("pagat", 4, 3)
>>> (r.turns, r.loser, r.stalled) == (g.turns, g.loser, g.stalled)
True

Every rule comes from the compiled :class:`~tutor.rules.variant.Variant`: its ``place``,
``transparent``, ``alone_self``, ``burn``, ``reverse``, ``skip`` and ``play_again`` tables and
its settings are turned once per variant into tuples of ints and bools (:class:`_Rules`);
the loop reads nothing else. :func:`supports` is False when the variant uses a power this
module does not know, and the caller falls back to the engine (:func:`play` does that).

How it is fast:

* A hand is one ``int``, a multiset of cards: card ``c`` owns ``w`` bits at ``c * w``
  (``w`` = bits for the number of packs; jokers, all alike, own the top bits). Picking up
  the pile is ``hand += pile``; burning is ``burned += pile``; the stall key holds ints.
* Per seat, ``subs[rank]`` is the number of distinct plays of that rank the hand allows
  (``prod(copies + 1) - 1``: 2**k - 1 for k different cards). So the number of legal
  moves is a C-level sum over the ranks that may go on the effective top, and a random
  bot's draw is decoded into the one chosen play without building the others.
* The effective top, and the rank and length of the run on top, are kept as the pile
  grows, never recomputed from the pile.
* Moves are small tuples ``(kind, cards, index)``; :class:`~tutor.core.moves.Move` objects are
  made only when a record is asked for.

* A greedy choice in the hand phase is read off ``subs`` too: every copy of the first
  rank, in the bot's keep-order, that may go.

The face-up phase, the first move of a lowest-card-leads game, a hand that may end in the
final-card combo and a variant with four-of-a-kind-anytime take the general path
(:func:`_moves`), which builds the move list exactly as ``engine.legal_moves`` does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from operator import itemgetter
from typing import Any

from tutor.core.cards import EMPTY, JOKER, N_RANKS
from tutor.core.errors import TutorError
from tutor.core.moves import FLIP, PICKUP, PLAY, Move
from tutor.core.table import Table
from tutor.engine import opening_lead, top_rank, top_run
from tutor.play.game import (
    BOTS,
    EpsilonBot,
    GameResult,
    GreedyBot,
    PlayfulBot,
    RandomBot,
    SeatKey,
    _value,
    arrange,
    deal,
    play_game,
    seat_key_of,
    start,
)
from tutor.rules.variant import Variant, load_variant

__all__ = ["SUPPORTED_POWERS", "SimResult", "SimUnsupported", "play", "simulate", "simulate_many",
           "supports", "unsupported_powers"]

# The powers this module implements. A variant using any other power is not supported:
# a new power may change the game in ways the compiled tables below do not show.
SUPPORTED_POWERS = frozenset({
    "anywhere", "only-on", "reset", "next-lower", "unbeatable", "transparent",  # -> place, transparent
    "burn", "reverse", "skip", "play-again",  # -> per-rank tables
    "deal", "packs", "jokers", "players", "setup", "first-player",  # dealing: game.deal/arrange/start
    "pickup-choice", "after-pickup", "face-up-pickup", "final-card-combo", "four-burns",
    "four-anytime", "goal", "custom",
})
_AFTER = {"next": 0, "same": 1, "previous": 2}
_GOALS = ("loser", "winner")
_SETUPS = ("swap", "none", "choose")  # these change only the deal (game.arrange), not the play

# move kinds in the hot path
_PLAY, _PICKUP, _FLIP = 0, 1, 2
_KINDS = (PLAY, PICKUP, FLIP)


class SimUnsupported(TutorError):
    """The simulator cannot play this variant; use :func:`tutor.play.game.play_game`."""


def unsupported_powers(v: Variant | str) -> frozenset[str]:
    """The powers (or settings) of ``v`` the simulator does not implement."""
    v = load_variant(v)
    bad = set(v.powers_used - SUPPORTED_POWERS)
    if getattr(v, "extras", False):
        bad.add("extras")  # the engine's own flag for rules beyond the plain table
    if v.setup not in _SETUPS:
        bad.add(f"setup={v.setup}")
    if v.after_pickup not in _AFTER:
        bad.add(f"after-pickup={v.after_pickup}")
    if v.goal not in _GOALS:
        bad.add(f"goal={v.goal}")
    if v.face_up_pickup_adds not in (0, 1):
        bad.add(f"face-up-pickup={v.face_up_pickup_adds}")
    return frozenset(bad)


def supports(v: Variant | str) -> bool:
    """Can :func:`simulate` play ``v``? If not, play it with :func:`tutor.play.game.play_game`."""
    return not unsupported_powers(v)


# -- the variant, compiled for the loop -------------------------------------


class _Rules:
    """One variant's rules as tuples of ints and bools, for the loop. Built once per variant."""

    __slots__ = ("sig", "place", "ranks_at", "get_at", "keep_at", "special", "transparent",
                 "first_top", "burn", "reverse", "skip", "play_again", "four_burns", "voluntary",
                 "after", "adds", "combo", "winner", "refill", "four_anytime", "value")

    def __init__(self, v: Variant) -> None:
        self.sig = _signature(v)
        self.place = tuple(tuple(bool(x) for x in row) for row in v.place)
        ranks_at = []
        get_at = []
        for top in range(EMPTY + 1):
            ranks = tuple(r for r in range(N_RANKS) if v.place[top][r])
            ranks_at.append(ranks)
            get_at.append(_getter(ranks))
        self.ranks_at: tuple[tuple[int, ...], ...] = tuple(ranks_at)
        self.get_at: tuple[Callable[[list[int]], tuple[int, ...]], ...] = tuple(get_at)
        self.transparent = tuple(bool(x) for x in v.transparent)
        # the effective top after a rank is laid on an empty pile
        self.first_top = tuple(
            r if (not v.transparent[r] or v.alone_self[r]) else EMPTY for r in range(N_RANKS))
        self.burn = tuple(bool(x) for x in v.burn)
        self.reverse = tuple(bool(x) for x in v.reverse)
        self.skip = tuple(int(x) for x in v.skip)
        self.play_again = tuple(bool(x) for x in v.play_again)
        self.four_burns = int(v.four_burns or 0)
        self.voluntary = bool(v.voluntary_pickup)
        self.after = _AFTER[v.after_pickup]
        self.adds = int(v.face_up_pickup_adds)
        self.combo = bool(v.final_card_combo)
        self.winner = v.goal == "winner"
        self.refill = int(v.refill)  # the hand is drawn back up to this while the stock lasts
        self.four_anytime = bool(v.setting_origin("four_anytime"))
        self.value = tuple(_value(v, r) for r in range(N_RANKS))  # the greedy bot's keep-order
        # per effective top, the ranks that may go on it, in the order the greedy bot prefers
        self.keep_at = tuple(tuple(sorted(ranks, key=self.value.__getitem__)) for ranks in self.ranks_at)
        self.special = tuple(bool(self.value[r][0]) for r in range(N_RANKS))


def _getter(ranks: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """``subs -> (subs[r] for r in ranks)`` as a tuple, at C speed."""
    if len(ranks) >= 2:
        return itemgetter(*ranks)
    if len(ranks) == 1:
        r = ranks[0]
        return lambda subs: (subs[r],)
    return lambda subs: ()


def _signature(v: Variant) -> tuple[Any, ...]:
    return (v.place, v.transparent, v.alone_self, v.burn, v.reverse, v.skip, v.play_again,
            v.four_burns, v.voluntary_pickup, v.after_pickup, v.face_up_pickup_adds,
            v.final_card_combo, v.goal, v.refill, v.setting_origin("four_anytime"),
            tuple(_value(v, r) for r in range(N_RANKS)))


_RULES: dict[str, _Rules] = {}


def _rules(v: Variant) -> _Rules:
    """The compiled tables of ``v``, cached by variant id (rebuilt if the rules differ)."""
    got = _RULES.get(v.id)
    if got is None or got.sig != _signature(v):
        got = _RULES[v.id] = _Rules(v)
    return got


class _Code:
    """The multiset encoding of cards for a number of packs: per-card shifts and masks,
    per-rank tables of play counts, and caches of each rank's distinct plays."""

    __slots__ = ("w", "cv", "csh", "cm", "rsh", "rm", "subt", "tsm", "plays", "groups", "bitmasks")

    def __init__(self, decks: int) -> None:
        w = self.w = max(1, decks.bit_length())
        one = (1 << w) - 1
        big = (1 << 16) - 1  # jokers are alike and own the top bits
        self.cv = tuple(1 << (c * w) for c in range(JOKER + 1))
        self.csh = tuple(c * w for c in range(JOKER + 1))
        self.cm = tuple(one if c < JOKER else big for c in range(JOKER + 1))
        self.rsh = tuple(4 * r * w for r in range(13)) + (JOKER * w,)
        self.rm = ((1 << (4 * w)) - 1,) * 13 + (big,)
        counts = []
        for f in range(1 << (4 * w)):
            k = 1
            for s in range(4):
                k *= ((f >> (s * w)) & one) + 1
            counts.append(k - 1)
        self.subt: tuple[Sequence[int], ...] = (counts,) * 13 + (range(big + 1),)
        self.tsm = tuple(zip(self.subt, self.rsh, self.rm, strict=True))
        # rank -> field -> the distinct plays of that group, in engine order: (cards, value)
        self.plays: tuple[dict[int, list[tuple[tuple[int, ...], int]]], ...] = tuple(
            {} for _ in range(N_RANKS))
        self.groups: tuple[dict[int, tuple[int, ...]], ...] = tuple({} for _ in range(N_RANKS))
        # bit b of every ordinary card's field, for counting cards with popcounts
        self.bitmasks = tuple(sum(1 << (c * w + b) for c in range(JOKER)) for b in range(w))

    def encode(self, cards: Iterable[int]) -> int:
        cv = self.cv
        return sum(cv[c] for c in cards)

    def decode(self, value: int) -> list[int]:
        """The sorted cards of a multiset."""
        out: list[int] = []
        csh, cm = self.csh, self.cm
        for c in range(JOKER + 1):
            out += [c] * ((value >> csh[c]) & cm[c])
        return out

    def size(self, value: int) -> int:
        """How many cards a multiset holds."""
        n = value >> self.csh[JOKER]
        for b, mask in enumerate(self.bitmasks):
            n += (value & mask).bit_count() << b
        return n

    def subs(self, hand: int) -> list[int]:
        return [t[(hand >> s) & m] for t, s, m in self.tsm]

    def group(self, r: int, f: int) -> tuple[int, ...]:
        """The sorted cards of rank ``r`` whose field is ``f``."""
        got = self.groups[r].get(f)
        if got is None:
            got = self.groups[r][f] = tuple(self.decode(f << self.rsh[r]))
        return got

    def plays_of(self, r: int, f: int) -> list[tuple[tuple[int, ...], int]]:
        """The distinct plays from the group, in the order engine._plays yields them."""
        got = self.plays[r].get(f)
        if got is None:
            group = self.group(r, f)
            seen: set[tuple[int, ...]] = set()
            got = []
            cv = self.cv
            for n in range(1, len(group) + 1):
                for sub in combinations(group, n):
                    if sub not in seen:
                        seen.add(sub)
                        got.append((sub, sum(cv[c] for c in sub)))
            self.plays[r][f] = got
        return got


_CODES: dict[int, _Code] = {}


def _code(decks: int) -> _Code:
    got = _CODES.get(decks)
    if got is None:
        got = _CODES[decks] = _Code(decks)
    return got


# -- random draws ------------------------------------------------------------


def _inline_randbelow_agrees() -> bool:
    """The loop draws ``randrange(n)`` as CPython does (getrandbits and rejection), inline.
    Make sure that is still what this Python does; if not, the loop calls ``randrange``."""
    a, b = random.Random(2024), random.Random(2024)
    getrandbits = b.getrandbits
    for n in list(range(1, 70)) * 3 + [1000, 4097, 65535]:
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        if a.randrange(n) != j:
            return False
    return True


_INLINE_RANDBELOW = _inline_randbelow_agrees()


# -- results -----------------------------------------------------------------


@dataclass
class SimResult:
    """One simulated game. Seats are 0-based; names as :func:`tutor.play.game.deal` gives them."""

    variant: str
    seed: int
    names: tuple[str, ...]
    loser: str | None
    winner: str | None
    out_order: tuple[str, ...]
    turns: int
    stalled: bool
    pickups: int
    burns: int
    flips: int
    # (seat, kind, cards, flip index) per move, kind 0 play, 1 pickup, 2 flip; from the engine,
    # a move the simulator never makes (a slide, a gamble, a play with a swap) is (seat, Move)
    record: list[Any] | None = field(default=None, repr=False)
    # a game cut off by play_on(..., cut=N): per seat (hand, face-up cards, face-down count,
    # out), and the cards left in the stock; None for a game played to its end or stalled
    cut_zones: tuple[tuple[tuple[int, ...], tuple[int, ...], int, bool], ...] | None = field(default=None, repr=False)
    cut_stock: int = 0
    # play_on(..., avoid=(seat, keys)): stopped at a pickup that left a position in ``keys``
    looped: bool = False

    @property
    def moves(self) -> list[tuple[int, Move]]:
        """``(seat, Move)`` for every move (only when simulated with ``record=True``)."""
        if self.record is None:
            raise TutorError("simulate(..., record=True) keeps the moves; this game was not recorded")
        return [e if len(e) == 2 else (e[0], _move(e[1], e[2], e[3])) for e in self.record]

    def move_strings(self) -> list[str]:
        return [str(m) for _, m in self.moves]

    @staticmethod
    def from_game(g: GameResult) -> SimResult:
        """The same summary of a game played by the engine."""
        events = [e for _, _, evs in g.moves for e in evs]
        return SimResult(
            g.variant, g.seed, g.names, g.loser, g.winner, tuple(g.out_order), g.turns, g.stalled,
            events.count("pickup"), events.count("burn"), sum(1 for _, m, _ in g.moves if m.kind == FLIP),
            [_entry(seat, m) for seat, m, _ in g.moves],
        )


def _entry(seat: int, m: Move) -> tuple[Any, ...]:
    if m.kind in _KINDS and m == Move(m.kind, m.cards, m.index):
        return (seat, _KINDS.index(m.kind), m.cards, m.index)
    return (seat, m)


def _move(kind: int, cards: tuple[int, ...], index: int) -> Move:
    return Move(_KINDS[kind], cards, index)


# -- the public entry points ---------------------------------------------------

# A bot: a name from tutor.play.game.BOTS, or a bot object of the four kinds below (its own
# play_rate or eps are used), or one of those per seat.
BotSpec = str | RandomBot | PlayfulBot | GreedyBot | EpsilonBot | Sequence[Any]
_RANDOM, _PLAYFUL, _GREEDY, _EPSILON = 0, 1, 2, 3


def simulate(
    v: Variant | str,
    players: int = 4,
    seed: int = 0,
    bot: BotSpec = "random",
    *,
    max_turns: int = 4000,
    repeats: int = 3,
    decks: int | None = None,
    record: bool = False,
    audit: bool = False,
) -> SimResult:
    """Play one game as ``play_game(v, players, seed, bots, ...)`` would.

    ``bot`` is a name (``random``, ``playful``, ``greedy``, ``epsilon``), a bot object of
    those kinds, or one per seat. ``record`` keeps the moves (:attr:`SimResult.moves`);
    ``audit`` checks after every move that no card was created or lost and that the
    incremental counts are right (slow; for tests). Raises :class:`SimUnsupported` for a
    variant :func:`supports` refuses or a bot it does not know.
    """
    v = load_variant(v)
    _require(v)
    modes = _modes(bot, players)
    return _game(v, _rules(v), players, seed, modes, max_turns, repeats, decks, record, audit)


def simulate_many(
    v: Variant | str,
    players: int,
    seeds: Iterable[int],
    bot: BotSpec = "random",
    *,
    max_turns: int = 4000,
    repeats: int = 3,
    decks: int | None = None,
) -> list[SimResult]:
    """:func:`simulate` for many seeds, compiling the variant and the bots once."""
    v = load_variant(v)
    _require(v)
    rules = _rules(v)
    modes = _modes(bot, players)
    return [_game(v, rules, players, s, modes, max_turns, repeats, decks, False, False) for s in seeds]


def play(
    v: Variant | str,
    players: int = 4,
    seed: int = 0,
    bot: BotSpec = "random",
    *,
    max_turns: int = 4000,
    repeats: int = 3,
    decks: int | None = None,
    record: bool = False,
) -> SimResult:
    """:func:`simulate` where it can, else the engine's ``play_game``: the same result either way."""
    v = load_variant(v)
    try:
        if supports(v):
            return simulate(v, players, seed, bot, max_turns=max_turns, repeats=repeats,
                            decks=decks, record=record)
    except SimUnsupported:
        pass  # a bot the simulator does not know
    g = play_game(v, players, seed, _bot_objects(bot, players), max_turns=max_turns,
                  repeats=repeats, decks=decks)
    res = SimResult.from_game(g)
    if not record:
        res.record = None
    return res


def _require(v: Variant) -> None:
    bad = unsupported_powers(v)
    if bad:
        raise SimUnsupported(
            f"{v.id}: the simulator does not implement {', '.join(sorted(bad))}; "
            "use tutor.play.game.play_game (or tutor.play.sim.play, which falls back to it)")


def _bot_objects(bot: BotSpec, players: int) -> list[Any]:
    specs = [bot] * players if isinstance(bot, str) or not isinstance(bot, Sequence) else list(bot)
    if len(specs) != players:
        raise TutorError(f"{players} players need {players} bots, not {len(specs)}")
    out = []
    for b in specs:
        if isinstance(b, str):
            if b not in BOTS:
                raise TutorError(f"{b!r} is not a bot (bots: {', '.join(BOTS)})")
            b = BOTS[b]()
        out.append(b)
    return out


def _modes(bot: BotSpec, players: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Each seat's bot as (kind, parameter): the loop's view of the bots."""
    modes, params = [], []
    for b in _bot_objects(bot, players):
        kind = type(b)  # exactly these classes: a subclass may choose differently
        if kind is RandomBot:
            modes.append(_RANDOM)
            params.append(0.0)
        elif kind is PlayfulBot:
            modes.append(_PLAYFUL)
            params.append(float(b.play_rate))
        elif kind is GreedyBot:
            modes.append(_GREEDY)
            params.append(0.0)
        elif kind is EpsilonBot:
            modes.append(_EPSILON)
            params.append(float(b.eps))
        else:
            raise SimUnsupported(f"the simulator does not know the bot {b!r}; use tutor.play.game.play_game")
    return tuple(modes), tuple(params)


def simulate_table(v: Variant, table: Table, seed: int, bot: BotSpec = "random", *,
                   max_turns: int = 4000, repeats: int = 3) -> SimResult:
    """Play on from ``table`` (just after setup, as ``play_game`` starts) with seeded bots."""
    if any(len(stack) > 1 for p in table.players for stack in p.face_up):
        raise SimUnsupported(f"{v.id}: face-up stacks of more than one card; use tutor.play.game.play_game")
    return _run(v, _rules(v), _code(table.decks), table, seed, _modes(bot, len(table.players)),
                max_turns, repeats, False, False)


def play_on(v: Variant, table: Table, seed: int = 0, bot: BotSpec = "greedy", *,
            max_turns: int = 4000, repeats: int = 3, cut: int = 0,
            avoid: tuple[int, frozenset[SeatKey]] | None = None) -> SimResult:
    """Play on from ``table``, a position in the middle of a game, to the end.

    As :func:`simulate_table`, but the table is not the opening one: no opening rule (the
    lowest card leading) applies. This is the advisor's rollout. With ``cut`` > 0 the game
    stops after that many moves unless only two players are left and the stock is gone;
    a game cut off has ``cut_zones`` and ``cut_stock`` set and no loser. Raises
    :class:`SimUnsupported` for a variant :func:`supports` refuses, a table still in its
    setup phase, or face-up stacks.

    ``avoid`` is ``(seat, keys)``: the game stops, ``stalled`` and ``looped``, at a pickup
    that leaves a position whose :func:`tutor.play.game.seat_key` for ``seat`` is in ``keys``
    (a position that seat has been in before, in the game the rollout is part of).
    """
    _require(v)
    if table.setup:
        raise SimUnsupported(f"{v.id}: the table is still in its setup phase")
    if any(len(stack) > 1 for p in table.players for stack in p.face_up):
        raise SimUnsupported(f"{v.id}: face-up stacks of more than one card; use tutor.play.game.play_game")
    return _run(v, _rules(v), _code(table.decks), table, seed, _modes(bot, len(table.players)),
                max_turns, repeats, False, False, opening=False, cut=cut,
                avoid=avoid if avoid is not None and avoid[1] else None)


def _game(v: Variant, rules: _Rules, players: int, seed: int,
          modes: tuple[tuple[int, ...], tuple[float, ...]], max_turns: int, repeats: int,
          decks: int | None, record: bool, audit: bool) -> SimResult:
    table = start(arrange(deal(v, players, seed, decks=decks), v), v)
    if any(len(stack) > 1 for p in table.players for stack in p.face_up):
        raise SimUnsupported(f"{v.id}: face-up stacks of more than one card; use tutor.play.game.play_game")
    return _run(v, rules, _code(table.decks), table, seed, modes, max_turns, repeats, record, audit)


# -- the general move generator (engine order) ---------------------------------


def _moves(R: _Rules, C: _Code, hand: int, subs: list[int], fu: list[int], fd: list[int],
           top: int, pile_n: int, stock_left: int) -> list[tuple[int, tuple[int, ...], int]]:
    """Every legal move as ``(kind, cards, index)``, in ``engine.legal_moves`` order."""
    if hand:
        rsh, rm = C.rsh, C.rm
        groups = [(r, C.group(r, (hand >> rsh[r]) & rm[r])) for r in range(N_RANKS) if subs[r]]
    elif fu:
        by: dict[int, list[int]] = {}
        for c in fu:
            by.setdefault(c >> 2, []).append(c)
        groups = [(r, tuple(sorted(g))) for r, g in by.items()]
    else:
        return [(_FLIP, (), i + 1) for i in range(len(fd))]
    out: list[tuple[int, tuple[int, ...], int]] = []
    place = R.place[top]
    anytime = R.four_anytime and bool(hand)
    combo = bool(hand) and R.combo and not stock_left and len(groups) == 1
    for r, group in groups:
        seen: set[tuple[int, ...]] = set()
        k = len(group)
        for n in range(1, k + 1):
            if not (place[r] or (anytime and n >= 4)):
                continue
            for sub in combinations(group, n):
                if sub not in seen:
                    seen.add(sub)
                    out.append((_PLAY, sub, 0))
        if combo:
            ups = sorted(c for c in fu if c >> 2 == r)
            for n in range(1, len(ups) + 1):
                if not (place[r] or (anytime and k + n >= 4)):
                    continue
                for sub in combinations(ups, n):
                    cards = tuple(sorted(group + sub))
                    if cards not in seen:
                        seen.add(cards)
                        out.append((_PLAY, cards, 0))
    if pile_n and (R.voluntary or not out):
        if not hand and R.adds:
            out += [(_PICKUP, (c,), 0) for c in sorted(set(fu))]
        else:
            out.append((_PICKUP, (), 0))
    return out


def _greedy(R: _Rules, moves: list[tuple[int, tuple[int, ...], int]], hand: int, hand_n: int,
            pile_n: int, top: int) -> tuple[int, tuple[int, ...], int]:
    """GreedyBot.choose, on move tuples."""
    value = R.value
    best = None
    best_key: tuple[int, int, int] | None = None
    for m in moves:
        if m[0] == _PLAY:
            key = (*value[m[1][0] >> 2], -len(m[1]))
            if best_key is None or key < best_key:
                best, best_key = m, key
    if best is not None:
        if best_key is not None and best_key[0] == 1 and R.voluntary and hand:
            if pile_n <= 2 and hand_n <= R.refill and top != EMPTY:
                for m in moves:
                    if m[0] == _PICKUP:
                        return m
        return best
    pickups = [m for m in moves if m[0] == _PICKUP]
    if pickups:
        return min(pickups, key=lambda m: value[m[1][0] >> 2] if m[1] else (0, 0))
    return moves[0]


def _next_seat(out: list[bool], seat: int, direction: int, skip: int) -> int:
    """engine._next_seat on the out flags."""
    n = len(out)
    s = seat
    steps = skip + 1
    for _ in range(n * (skip + 2)):
        s = (s + direction) % n
        if not out[s]:
            steps -= 1
            if steps == 0:
                return s
    return seat


# -- the loop --------------------------------------------------------------------


def _run(v: Variant, R: _Rules, C: _Code, table: Table, seed: int,
         bots: tuple[tuple[int, ...], tuple[float, ...]], max_turns: int, repeats: int, record: bool,
         audit: bool, opening: bool = True, cut: int = 0,
         avoid: tuple[int, frozenset[SeatKey]] | None = None) -> SimResult:
    P = len(table.players)
    # state
    hands = [C.encode(p.hand) for p in table.players]
    hand_ns = [len(p.hand) for p in table.players]
    subs_all = [C.subs(h) for h in hands]
    fus = [list(p.face_up_cards) for p in table.players]
    fds = [list(p.face_down) for p in table.players]
    stock = list(table.stock)
    sp = 0  # cards drawn from the stock so far
    stock_left = len(stock)
    pile_val = C.encode(table.pile_cards)
    pile_n = len(table.pile_cards)
    top = top_rank(table, v)
    run_r, run_n = top_run(table)
    last_by = table.pile[-1].by if table.pile else -1
    pile_ranks = [c >> 2 for c in table.pile_cards]  # ranks laid since the pile was last empty
    burned_val = C.encode(table.burned)
    burned_n = len(table.burned)
    outf = [p.out for p in table.players]
    alive = P - sum(outf)
    turn = table.turn
    d = table.direction
    lead = opening_lead(replace(table, opening=True), v) if opening else None  # the engine's rule
    total0 = C.encode(table.all_cards()) if audit else 0

    rng = random.Random(seed * 7919 + 1)
    getrandbits = rng.getrandbits
    randrange = rng.randrange
    rand = rng.random
    modes, params = bots
    inline = _INLINE_RANDBELOW

    # tables
    place, ranks_at, get_at, keep_at, special = R.place, R.ranks_at, R.get_at, R.keep_at, R.special
    transparent, first_top = R.transparent, R.first_top
    burn_t, reverse_t, skip_t, again_t = R.burn, R.reverse, R.skip, R.play_again
    effects = tuple(burn_t[r] or reverse_t[r] or skip_t[r] > 0 or again_t[r] for r in range(N_RANKS))
    four_burns, voluntary, after, H, winner_goal = R.four_burns, R.voluntary, R.after, R.refill, R.winner
    fast = not R.four_anytime
    combo_var = R.combo
    cv, csh, cm, rsh, rm, subt = C.cv, C.csh, C.cm, C.rsh, C.rm, C.subt
    plays, plays_of = C.plays, C.plays_of

    rec: list[Any] | None = [] if record else None
    seen: dict[tuple[int, ...], int] = {}
    zones: dict[tuple[object, ...], int] = {}  # face-up and face-down contents -> a small int
    zones_id = -1  # that int for the present contents; -1 once they change
    out_order: list[int] = []
    turns = pickups = burns = flips = 0
    stalled = cut_off = looped = False

    while True:
        if turns >= max_turns:
            stalled = True
            break
        if cut and turns >= cut and (stock_left or alive > 2):
            cut_off = True  # for an evaluation (the endgame of two players is played out)
            break
        turns += 1
        seat = turn
        hand = hands[seat]
        subs = subs_all[seat]
        extra_val = extra_n = 0
        # -- choose a move, and take its cards from their zone ------------------------
        # The bots draw as tutor.play.game's do: EpsilonBot rng.random() first, then a random move
        # or the greedy one; PlayfulBot rng.random() when it has a play, then a random play or
        # a random move; RandomBot a random move. Plays come before pickups in the move list.
        mode = modes[seat]
        greedy = mode == _GREEDY or (mode == _EPSILON and not rand() < params[seat])
        if not hand or not fast or lead is not None:
            on_fast = False
        elif combo_var and not stock_left:
            on_fast = len(subs) - subs.count(0) != 1  # one rank left: the final-card combo may apply
        else:
            on_fast = True
        if on_fast and greedy:
            # the fast path: the hand phase, a greedy choice. GreedyBot plays every copy of the
            # first rank in its keep-order that may go, unless that is a special worth keeping
            # while the pile is small; then it picks up. No random draws.
            for r in keep_at[top]:
                if subs[r]:
                    break
            else:
                r = -1
            if r >= 0 and not (special[r] and voluntary and pile_n and pile_n <= 2
                               and hand_ns[seat] <= H and top != EMPTY):
                sh = rsh[r]
                f = (hand >> sh) & rm[r]
                cards = C.group(r, f)
                val = f << sh
                n = len(cards)
                hand -= val
                hands[seat] = hand
                hand_ns[seat] -= n
                subs[r] = 0
                kind = _PLAY
                if rec is not None:
                    rec.append((seat, _PLAY, cards, 0))
            else:
                kind = _PICKUP
                if rec is not None:
                    rec.append((seat, _PICKUP, (), 0))
        elif on_fast:
            # the fast path: the hand phase, a random choice
            vals = get_at[top](subs)
            nplay = sum(vals)
            n_all = nplay + 1 if pile_n and (voluntary or not nplay) else nplay
            if mode == _PLAYFUL and nplay and rand() < params[seat]:
                n_all = nplay
            if inline:
                k = n_all.bit_length()
                j = getrandbits(k)
                while j >= n_all:
                    j = getrandbits(k)
            else:
                j = randrange(n_all)
            if j < nplay:
                for r in ranks_at[top]:
                    s = subs[r]
                    if j < s:
                        break
                    j -= s
                sh = rsh[r]
                f = (hand >> sh) & rm[r]
                lst = plays[r].get(f)
                if lst is None:
                    lst = plays_of(r, f)
                cards, val = lst[j]
                n = len(cards)
                hand -= val
                hands[seat] = hand
                hand_ns[seat] -= n
                subs[r] = subt[r][(hand >> sh) & rm[r]]
                kind = _PLAY
                if rec is not None:
                    rec.append((seat, _PLAY, cards, 0))
            else:
                kind = _PICKUP
                if rec is not None:
                    rec.append((seat, _PICKUP, (), 0))
        elif hand or fus[seat] or lead is not None:
            # the general path: build the move list as the engine does
            fu = fus[seat]
            moves = _moves(R, C, hand, subs, fu, fds[seat], top, pile_n, stock_left)
            if lead is not None:
                moves = [m for m in moves if m[0] == _PLAY and m[1][0] >> 2 == lead] or moves
                lead = None
            if greedy:
                move = _greedy(R, moves, hand, hand_ns[seat], pile_n, top)
            else:
                n_all = len(moves)
                if mode == _PLAYFUL and moves[0][0] != _PICKUP and rand() < params[seat]:
                    n_all -= sum(1 for m in moves if m[0] == _PICKUP)
                if inline:
                    k = n_all.bit_length()
                    j = getrandbits(k)
                    while j >= n_all:
                        j = getrandbits(k)
                else:
                    j = randrange(n_all)
                move = moves[j]
            if rec is not None:
                rec.append((seat, *move))
            kind, cards, index = move
            if kind == _PLAY:
                r = cards[0] >> 2
                n = len(cards)
                val = 0
                for c in cards:
                    val += cv[c]
                if hand:
                    for c in cards:
                        if (hand >> csh[c]) & cm[c]:
                            hand -= cv[c]
                            hand_ns[seat] -= 1
                        else:  # the final-card combo: the rest come from face up
                            fu.remove(c)
                            zones_id = -1
                    hands[seat] = hand
                    subs[r] = subt[r][(hand >> rsh[r]) & rm[r]]
                else:
                    for c in cards:
                        fu.remove(c)
                    zones_id = -1
            elif kind == _PICKUP:
                for c in cards:  # a face-up card goes onto the pile first
                    fu.remove(c)
                    r = c >> 2
                    extra_val += cv[c]
                    extra_n += 1
                    zones_id = -1
            else:  # a flip, from the general path (greedy: always the first card)
                c = fds[seat].pop(index - 1)
                zones_id = -1
                flips += 1
                r = c >> 2
                if place[top][r]:
                    kind, cards, val, n = _PLAY, (c,), cv[c], 1
                else:
                    kind, extra_val, extra_n = _PICKUP, cv[c], 1
        else:
            # the face-down phase: GreedyBot flips the first card, the others a random one
            fd = fds[seat]
            n_all = len(fd)
            if greedy:
                j = 0
            else:
                if mode == _PLAYFUL:
                    rand()  # flips are plays, so PlayfulBot draws, and flips a random card either way
                if inline:
                    k = n_all.bit_length()
                    j = getrandbits(k)
                    while j >= n_all:
                        j = getrandbits(k)
                else:
                    j = randrange(n_all)
            if rec is not None:
                rec.append((seat, _FLIP, (), j + 1))
            c = fd.pop(j)
            zones_id = -1
            flips += 1
            r = c >> 2
            if place[top][r]:
                kind, cards, val, n = _PLAY, (c,), cv[c], 1
            else:
                kind, extra_val, extra_n = _PICKUP, cv[c], 1

        # -- apply it ----------------------------------------------------------------
        if kind == _PLAY:
            if pile_n:
                if not transparent[r]:
                    top = r
                if run_r == r:
                    run_n += n
                else:
                    run_r, run_n = r, n
            else:
                top = first_top[r]
                run_r, run_n = r, n
            pile_val += val
            pile_n += n
            pile_ranks.append(r)
            last_by = seat
            if effects[r]:  # the rank burns, reverses, skips or plays again
                again = again_t[r]
                if reverse_t[r] and n & 1:
                    d = -d
                skip = skip_t[r] * n
                burn = burn_t[r]
            else:
                again = burn = False
                skip = 0
            if not skip and transparent[r] and pile_n > n and top != EMPTY:
                skip = skip_t[top]  # a see-through card on a skipping card skips too, as the engine says
            if burn or (four_burns and run_n >= four_burns):
                burned_val += pile_val
                burned_n += pile_n
                pile_val = pile_n = 0
                pile_ranks = []
                top = EMPTY
                burns += 1
                again = True
            # finish the turn: draw up to the hand size, go out, pass the turn
            draw = 0
            if stock_left:
                draw = H - hand_ns[seat]
                if draw > stock_left:
                    draw = stock_left
                if draw > 0:
                    for c in stock[sp:sp + draw]:
                        hand += cv[c]
                        r = c >> 2
                        subs[r] = subt[r][(hand >> rsh[r]) & rm[r]]
                    hands[seat] = hand
                    hand_ns[seat] += draw
                    sp += draw
                    stock_left -= draw
            if draw <= 0 and not hand and not fus[seat] and not fds[seat]:
                outf[seat] = True
                alive -= 1
                out_order.append(seat)
                if (alive < P) if winner_goal else (alive <= 1):
                    if audit:
                        _audit(C, total0, hands, hand_ns, subs_all, fus, fds, stock[sp:], pile_val,
                               pile_n, burned_val, burned_n)
                    break
                turn = _next_seat(outf, seat, d, skip)
            elif again:
                turn = seat
            elif skip:
                turn = _next_seat(outf, seat, d, skip)
            else:
                turn = seat + d
                if turn == P:
                    turn = 0
                elif turn < 0:
                    turn = P - 1
                if outf[turn]:
                    turn = _next_seat(outf, seat, d, 0)
        else:
            pickups += 1
            hand += pile_val + extra_val
            hands[seat] = hand
            hand_ns[seat] += pile_n + extra_n
            if extra_n:
                pile_ranks.append(r)
            for r in pile_ranks:
                subs[r] = subt[r][(hand >> rsh[r]) & rm[r]]
            pile_ranks = []
            pile_val = pile_n = 0
            top = EMPTY
            if after == 1:  # same
                turn = seat
            elif after == 2 and last_by >= 0 and last_by != seat and not outf[last_by]:  # previous
                turn = last_by
            else:
                step = -d if after == 2 else d
                turn = seat + step
                if turn == P:
                    turn = 0
                elif turn < 0:
                    turn = P - 1
                if outf[turn]:
                    turn = _next_seat(outf, seat, step, 0)
            if avoid is not None and seat_key_of(C.decode(hands[avoid[0]]), hand_ns, fus, [len(f) for f in fds],
                                                 stock_left, burned_n, turn, d) in avoid[1]:
                stalled = looped = True  # back round a circle the caller has been in
                break
            if zones_id < 0:
                zkey = (tuple(map(tuple, fus)), tuple(map(tuple, fds)))
                zones_id = zones.setdefault(zkey, len(zones))
            key = (*hands, zones_id, stock_left, turn, d)
            times = seen.get(key, 0) + 1
            seen[key] = times
            if times >= repeats:
                stalled = True
                if audit:
                    _audit(C, total0, hands, hand_ns, subs_all, fus, fds, stock[sp:], pile_val,
                           pile_n, burned_val, burned_n)
                break
        if audit:
            _audit(C, total0, hands, hand_ns, subs_all, fus, fds, stock[sp:], pile_val, pile_n,
                   burned_val, burned_n)

    names = tuple(p.name for p in table.players)
    loser = winner = None
    if cut_off:  # where every card is, for the caller's evaluation
        zones_now = tuple((tuple(C.decode(hands[s])), tuple(fus[s]), len(fds[s]), outf[s]) for s in range(P))
        return SimResult(v.id, seed, names, None, None, tuple(names[s] for s in out_order), turns,
                         False, pickups, burns, flips, rec, zones_now, stock_left)
    if not stalled:
        if winner_goal:
            winner = names[out_order[0]] if out_order else None
        else:
            left = [names[s] for s in range(P) if not outf[s]]
            loser = left[0] if left else None
    return SimResult(v.id, seed, names, loser, winner, tuple(names[s] for s in out_order), turns,
                     stalled, pickups, burns, flips, rec, looped=looped)


def _audit(C: _Code, total0: int, hands: list[int], hand_ns: list[int], subs_all: list[list[int]],
           fus: list[list[int]], fds: list[list[int]], stock: list[int], pile_val: int, pile_n: int,
           burned_val: int, burned_n: int) -> None:
    """No card created or lost, and every incremental count matches what it counts."""
    total = pile_val + burned_val + C.encode(stock)
    for s, hand in enumerate(hands):
        total += hand + C.encode(fus[s]) + C.encode(fds[s])
        if C.size(hand) != hand_ns[s]:
            raise AssertionError(f"seat {s}: hand holds {C.size(hand)} cards, counted {hand_ns[s]}")
        if subs_all[s] != C.subs(hand):
            raise AssertionError(f"seat {s}: play counts {subs_all[s]} do not match the hand")
    if total != total0:
        raise AssertionError(f"cards changed: {C.decode(total)} != {C.decode(total0)}")
    if C.size(pile_val) != pile_n or C.size(burned_val) != burned_n:
        raise AssertionError("pile or burned count is off")
