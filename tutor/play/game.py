"""Whole games: dealing from a seed, setup, bots, playing to the end, stalemates.

>>> result = play_game("pagat", players=3, seed=7)
>>> result.loser is not None or result.stalled
True
>>> play_game("pagat", players=3, seed=7).moves == result.moves  # seeded
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import repeat
from typing import ClassVar, Protocol

from tutor.core.cards import EMPTY, JOKER, JOKER_RANK, N_RANKS, UNKNOWN, claim_ranks, full_pack
from tutor.core.errors import TutorError
from tutor.core.moves import FLIP, PICKUP, PLACE, PLAY, READY, SWAP, Move
from tutor.core.reasons import Event
from tutor.core.table import Player, Table
from tutor.engine import FACE_UP, apply, position, position_of, remember
from tutor.engine.position import BURN, GAME_OVER, OUT, PICKED_UP, PICKUP_MOVE, Pick, Position, per_variant
from tutor.rules.variant import Variant, load_variant

NAMES = "ABCDEFGHIJ"


class Bot(Protocol):
    """Chooses a move from the legal ones. Sees the table only through ``view``."""

    name: str

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move: ...


def deal(
    v: Variant | str, players: int, seed: int, names: Sequence[str] | None = None, decks: int | None = None
) -> Table:
    """Shuffle and deal as the variant says; the table is left in the setup phase."""
    v = load_variant(v)
    names, decks, pack, need = _shuffled(v, players, seed, names, decks)
    seats = []
    for s in range(players):
        hand, up, down = _seat_cards(v, pack, players, s)
        seats.append(Player(names[s], tuple(hand), tuple(zip(up)), down))  # (zip: a face-up stack of each card)
    return Table(players=tuple(seats), stock=tuple(pack[need:]), decks=decks, setup=True,
                 ready=(False,) * players)


def _shuffled(v: Variant, players: int, seed: int, names: Sequence[str] | None,
              decks: int | None) -> tuple[list[str], int, list[int], int]:
    """:func:`deal`'s shuffle: the names, the packs, the shuffled cards and how many are dealt."""
    problem = v.players_problem(players)
    if problem:
        raise TutorError(problem)
    names = list(names or NAMES[:players])
    decks = decks or v.decks_for(players)
    key = (decks, v.jokers * decks)
    pack = list(_PACKS.get(key) or _PACKS.setdefault(key, tuple(full_pack(*key))))
    rng = _seeded(seed)
    _shuffle(rng, pack)
    need = players * (v.down + v.up + v.hand)
    if need > len(pack):
        raise TutorError(f"{v.id}: {players} players need {need} cards, the pack has {len(pack)}")
    return names, decks, pack, need


_PACKS: dict[tuple[int, int], tuple[int, ...]] = {}  # the full packs in order, by (decks, jokers)


def _seat_cards(v: Variant, pack: list[int], players: int,
                s: int) -> tuple[list[int], list[int], tuple[int, ...]]:
    """Seat s's hand (a sorted list), face-up cards (a stack each) and face-down cards dealt from
    the shuffled pack."""
    # one card at a time to each player, starting left of the dealer (seat 0): seat s gets every
    # players-th card of each zone's share of the pack, from the s-th
    down, up, hand = players * v.down, players * (v.down + v.up), players * (v.down + v.up + v.hand)
    held = pack[up + s:hand:players]
    held.sort()  # (in place: the slice is a new list; every game of bulk play deals here)
    return held, pack[down + s:up:players], tuple(pack[s:down:players])


def _started(v: Variant, players: int, seed: int, decks: int | None) -> tuple[Table, Position]:
    """``start(arrange(deal(v, players, seed, decks=decks), v), v)`` and a position of it to play
    on. Bulk play: the deal and the greedy arrangement are made seat by seat from the shuffled
    pack, straight into the position (no tables on the way); the table is made lazily, by that
    call, where it is read."""
    if v.setup == "stack":  # (Karma's stacks: through the tables)
        table = _start_table(v, players, seed, decks)
        return table, position(table, v)
    names, decks, pack, need = _shuffled(v, players, seed, None, decks)
    key = _keep_of(v).card_order.__getitem__  # (the keep order's key, made once a game)
    hands, ups, downs = [], [], []
    for s in range(players):
        dealt, up_cards, down = _seat_cards(v, pack, players, s)
        hand, up = _arranged(v, key, dealt, up_cards)
        hands.append(hand)
        ups.append(up)
        downs.append(down)
    pos = Position.dealt(v, decks, tuple(names), hands, tuple(ups), tuple(downs), tuple(pack[need:]))
    pos.end_setup()
    return Table.lazy((_start_table, v, players, seed, decks), None, pos.turn), pos


def _start_table(v: Variant, players: int, seed: int, decks: int | None) -> Table:
    """A game's started table, the greedy arrangement made (:func:`play_game`'s)."""
    return start(arrange(deal(v, players, seed, decks=decks), v), v)


def arrange(table: Table, v: Variant) -> Table:
    """Greedy setup: keep the best cards face up (specials, then high cards).

    With ``setup: choose`` the best ``setup_count`` hand cards are laid face up; with
    ``setup: stack`` (Karma) equal cards share a face-up stack and the hand is refilled,
    stacking further matches, until it holds the hand size again.
    """
    if v.setup == "stack":
        return _arrange_stacks(table, v)
    key = _keep_of(v).card_order.__getitem__
    players = []
    for p in table.players:
        hand, up = _arranged(v, key, p.hand, p.face_up_cards)
        players.append(Player(p.name, tuple(sorted(hand)), up, p.face_down, p.lost))
    return replace(table, players=tuple(players))


def _arranged(v: Variant, key: Callable[[int], int], hand: Sequence[int],
              ups: Sequence[int]) -> tuple[list[int], tuple[tuple[int, ...], ...]]:
    """:func:`arrange`'s choice for one seat (not Karma's stacks): its hand (in the keep order,
    not sorted: a table sorts it, a position's code does not need it) and face-up stacks, one
    card each, from the hand (sorted) and face-up cards dealt, by ``key``, each card's place in
    the keep order (the sort is stable: equal cards stay as dealt)."""
    pool = [*hand, *ups]
    pool.sort(key=key)  # (in place: the list is new; every game of bulk play arranges each seat here)
    cut = len(pool) - (v.setup_count if v.setup == "choose" else len(ups))
    up = []  # a stack of each card (a loop: zip's iterator costs more, for a few cards)
    for c in pool[cut:]:
        up.append((c,))
    del pool[cut:]
    return pool, tuple(up)


def _arrange_stacks(table: Table, v: Variant) -> Table:
    stock = list(table.stock)
    order = _keep_of(v).card_order
    players = []
    for p in table.players:
        pool = sorted(p.hand + p.face_up_cards, key=order.__getitem__, reverse=True)
        ranks: list[int] = []
        for c in pool:
            if c >> 2 not in ranks and len(ranks) < len(p.face_up):
                ranks.append(c >> 2)
        stacks = {r: [c for c in pool if c >> 2 == r] for r in ranks}
        hand = [c for c in pool if c >> 2 not in stacks]
        while len(hand) < v.refill and stock:
            c = stock.pop(0)
            if c >> 2 in stacks:
                stacks[c >> 2].append(c)
            else:
                hand.append(c)
        players.append(Player(p.name, tuple(sorted(hand)), tuple(tuple(sorted(stacks[r])) for r in ranks),
                              p.face_down, p.lost))
    return replace(table, players=tuple(players), stock=tuple(stock))


def start(table: Table, v: Variant) -> Table:
    """End the setup phase and hand the turn to the first player; the opening play is next."""
    # the started table keeps its position (the engine's questions, and the game, start from it):
    # the set-up table's, with the phase over, made once
    pos = Position.of(table, v)
    pos.end_setup()
    started = replace(table, setup=False, ready=(), opening=True, turn=pos.turn)
    remember(started, v, pos)
    return started


# -- bots ---------------------------------------------------------------------------
#
# A bot chooses among the legal moves. ``choose`` answers for an immutable table and the
# listed moves (the Play page, custom loops); ``act`` chooses and pushes on a position (the
# runner), counting and picking plays without listing them where the rules allow. The two
# make the same choice with the same random draws, so a seed gives one game either way.

Action = tuple[Move | tuple[int, ...] | None, Sequence[Event]]  # (a Move, the cards of a plain play, or None: a plain pickup; events)


def _pick(pos: Position, moves: Sequence[Move] | None, j: int) -> Move:
    return moves[j] if moves is not None else pos.nth_move(j)


def _inline_randbelow_agrees() -> bool:
    """The runner draws ``randrange(n)`` as CPython does (getrandbits and rejection), inline.
    Make sure that is still what this Python does; if not, it calls ``randrange``."""
    a, b = random.Random(2024), random.Random(2024)
    for n in list(range(1, 70)) * 3 + [1000, 4097, 65535]:
        k = n.bit_length()
        j = b.getrandbits(k)
        while j >= n:
            j = b.getrandbits(k)
        if a.randrange(n) != j:
            return False
    x, y = list(range(60)), list(range(60))  # and ``shuffle``, as :func:`_shuffle_inline` draws it
    a.shuffle(x)
    _shuffle_inline(b, y)
    return x == y


def _shuffle_inline(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)`` as CPython draws it (from the last place down, each swapped with a place
    drawn as ``randrange`` draws it), without a call a draw (a deal's 50-odd draws)."""
    getrandbits = rng.getrandbits
    for i, k in _SHUFFLE_STEPS.get(len(x)) or _shuffle_steps(len(x)):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _shuffle_steps(n: int) -> tuple[tuple[int, int], ...]:
    """The places :func:`_shuffle_inline` swaps into, from the last of n down, each with the bits
    its draw takes (kept per n: a deal's pack is one of a few sizes)."""
    got = _SHUFFLE_STEPS[n] = tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
    return got


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}
_INLINE_RANDBELOW = _inline_randbelow_agrees()
_BITS = tuple(n.bit_length() for n in range(4096))  # ``n.bit_length()`` by subscript, for the bulk loop
# the class whose draws RandomBot.choose makes inline (None where the inline draw does not agree):
# one class test at each choice, not a flag and a module's attribute read too
_INLINE_RANDOM = random.Random if _INLINE_RANDBELOW else None


def _seeded_agrees() -> bool:
    """:func:`_seeded` makes the generator ``random.Random(seed)`` makes, in this Python."""
    try:
        return all(_seeded_fast(s).getstate() == random.Random(s).getstate()  # (gauss_next too)
                   for s in (0, 1, 7920, -5, 2**40 + 3, 10**30))
    except Exception:  # (another Random: then random.Random(seed) itself)
        return False


def _seeded_fast(seed: int) -> random.Random:
    """``random.Random(seed)`` for an int ``seed``: the generator's C seeding alone, what
    ``Random.__init__`` and ``Random.seed`` come down to for an int (the same state, checked at
    import by :func:`_seeded_agrees`), without their Python steps (two a game in bulk play)."""
    rng = _NEW_RANDOM(random.Random)
    _SEED_RANDOM(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # (as Random.seed sets it)
    return rng


_NEW_RANDOM, _SEED_RANDOM = random.Random.__new__, random.Random.__mro__[1].seed  # type: ignore[attr-defined]
# ``random.Random(seed)`` for a game's int seed (its deal's and its bots' generators)
_seeded: Callable[[int], random.Random] = _seeded_fast if _seeded_agrees() else random.Random


def _randbelow_inline(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``, as CPython draws it, without its overhead."""
    try:  # (``n.bit_length()`` by subscript: a table read, not a method call; every move draws)
        k = _BITS[n]
    except IndexError:
        k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


def _randrange(rng: random.Random, n: int) -> int:
    return rng.randrange(n)


# ``rng.randrange(n)``: inline where that draws as this Python does (chosen once, not asked each draw)
_randbelow: Callable[[random.Random, int], int] = _randbelow_inline if _INLINE_RANDBELOW else _randrange


def _shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, inline where that draws as this Python does."""
    if _INLINE_RANDBELOW:
        _shuffle_inline(rng, x)
    else:
        rng.shuffle(x)


def _random_push(pos: Position, rng: random.Random, made: bool = True) -> Action:
    """``moves[rng.randrange(len(moves))]``, pushed, without listing where the position can count
    (where the moves are the plain game's, :meth:`Position.plain_now`, from the compiled tables
    :meth:`Position.counted` reads). ``made``: return a play with a swap as its move (else as
    its cards: bulk play keeps no move but a flip, and a swap's move is costly to make)."""
    R = pos.R
    if R.plain_mostly and pos.plain_now():
        top = pos.top
        counts = R.get_at[top](pos.subs[pos.turn])
        nplay = sum(counts)
        j = _randbelow(rng, nplay + pos.pickups(nplay))
        if j < nplay:
            got = pos.nth_counted(j, R.ranks_at[top], counts)
            assert got is not None
            return got[0], pos.push_cards(got[0], got[1])
        return None, pos.push(PICKUP_MOVE)
    if R.plain_runs:  # the plain game's plays and runs (each move asks: picked from numbers)
        counted = pos.plain_runs()
        if counted is not None:
            top, ranks, counts, nruns = counted
            nplay = sum(counts)
            n = nplay + nruns
            j = _randbelow(rng, n + pos.pickups(n))
            if j < nplay:
                got = pos.nth_counted(j, ranks, counts)
                assert got is not None
                return got[0], pos.push_cards(got[0], got[1])
            if j < n:
                run = pos.nth_run(j - nplay, top)
                assert run is not None
                return run, pos.push(run)
            return None, pos.push_pickup()
    if R.plain_swaps and pos.fast():  # the plays and their swaps (each move asks: no closure made)
        plays, apart, swaps = pos.swap_counts()
        nplay = plays + apart
        j = _randbelow(rng, nplay + pos.pickups(nplay))
        if j < nplay:
            return pos.push_swap_at(j, swaps, made)
        return None, pos.push_pickup()
    if R.bluff:  # (claims: counted, drawn and pushed by the engine in one go, see Position.push_bluff_drawn)
        pushed = pos.push_bluff_drawn(_randbelow, rng, made)
        if pushed is not None:
            return pushed
    if not pos.fast(combo=True):  # (the final-card combo's plays, where it is in reach, listed as others)
        moves = pos.moves()
        m = moves[rng.randrange(len(moves))]
        return m, pos.push(m)
    nplay, extra, npick, nth = pos.counted()
    return _push_nth(pos, _randbelow(rng, nplay + len(extra) + npick), nplay, extra, nth)


def _push_nth(pos: Position, j: int, nplay: int, extra: list[Move], nth: Callable[[int], Move | Pick | None]) -> Action:
    """Push the j-th listed move (a play if j < nplay, then ``extra``, then the pickup), without
    listing the plays (``nth`` and the rest: :meth:`Position.counted`)."""
    if j < nplay:
        got = nth(j)
        assert got is not None
        if isinstance(got, tuple):  # a plain play of the hand's cards
            return got[0], pos.push_cards(got[0], got[1])
        m = got  # (with swaps or claims, the plays' count holds them too)
    else:
        m = extra[j - nplay] if j - nplay < len(extra) else PICKUP_MOVE
    return m, pos.push(m)


@dataclass
class RandomBot:
    name: str = "random"

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        # (the draw of ``randrange``, without its overhead: the checked path chooses at every move;
        # :func:`_randbelow`, inline: a call the less)
        n = len(moves)
        if rng.__class__ is _INLINE_RANDOM:
            try:
                k = _BITS[n]
            except IndexError:  # (4,096 moves or more: no test of n at every choice)
                k = n.bit_length()
            j = rng.getrandbits(k)
            while j >= n:
                j = rng.getrandbits(k)
            return moves[j]
        return moves[rng.randrange(n)]

    def act(self, pos: Position, rng: random.Random) -> Action:
        return _random_push(pos, rng)


@dataclass
class PlayfulBot:
    """Random, but plays a card (when it can) far more often than it picks up."""

    name: str = "playful"
    play_rate: float = 0.9

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        plays = [m for m in moves if m.kind != PICKUP]
        if plays and rng.random() < self.play_rate:
            return plays[rng.randrange(len(plays))]
        return moves[rng.randrange(len(moves))]

    def act(self, pos: Position, rng: random.Random) -> Action:
        if not pos.fast():
            m = self.choose(pos.snapshot(), pos.v, pos.moves(), rng)
            return m, pos.push(m)
        nplay, extra, _, nth = pos.counted()
        if nplay + len(extra) and rng.random() < self.play_rate:  # every move but the pickup
            return _push_nth(pos, rng.randrange(nplay + len(extra)), nplay, extra, nth)
        return _random_push(pos, rng)


def _value(v: Variant, rank: int) -> tuple[int, int]:
    """How much a greedy player wants to keep a rank: specials last, then high cards."""
    special = (
        v.burn[rank] or v.transparent[rank] or v.cells[12][rank][1] == "ANYWHERE"
        or v.play_again[rank] or rank == JOKER_RANK
    )
    return (1 if special else 0, rank)


class _Keep:
    """The greedy bot's keep-order of one variant: each rank's value (and each card's, an unseen
    card's last, for the setup), and per effective top the ranks that may go on it, least
    valuable first."""

    __slots__ = ("value", "special", "keep_at", "card_order", "up_best")

    def __init__(self, v: Variant) -> None:
        self.value = tuple(_value(v, r) for r in range(N_RANKS))
        self.special = tuple(k[0] for k in self.value)  # 1 for a special rank (the value's first part)
        # each card's place in the keep order (an unseen card's last), an int: sorting by it sorts by
        # the values, as the setup does, without comparing tuples (a deal sorts each seat's cards)
        card_value = tuple(_value(v, c >> 2) for c in (*range(JOKER + 1), UNKNOWN))
        # (a list: its ``__getitem__`` is a quick key for ``sorted``, a tuple's a slot wrapper)
        self.card_order = list(map({k: i for i, k in enumerate(sorted(set(card_value)))}.__getitem__, card_value))
        self.keep_at = tuple(tuple(sorted((r for r in range(N_RANKS) if v.place[top][r]), key=self.value.__getitem__))
                             for top in range(EMPTY + 1))
        # the greedy choice among the plays from face up (Position.up_plays), by the plays' tuple:
        # id -> (the tuple, the choice, the face-up stacks it leaves)
        self.up_best: dict[int, tuple[tuple[Move, ...], Move, tuple[tuple[int, ...], ...]]] = {}


_KEEPS: dict[int, tuple[Variant, _Keep]] = {}


def _keep_of(v: Variant) -> _Keep:
    return per_variant(_KEEPS, v, _Keep)


def greedy_move(pos: Position, moves: Sequence[Move], keep: _Keep | None = None) -> Move:
    """The greedy choice among ``moves``: the lowest card that goes (all its copies), keeping
    specials (burners, resets, see-through cards) while a small pile is cheap to take, then
    the cheapest pickup, else the first move (a blind flip). The one greedy policy.
    ``keep``: the variant's :class:`_Keep`, where the caller has it (a game loop)."""
    value = (keep if keep is not None else _keep_of(pos.v)).value
    best: Move | None = None
    best_key: tuple[int, int, int, int] | None = None
    for m in moves:
        if m.kind == PLAY:
            rank = m.cards[0] >> 2
            lie = 0 if m.claim in (-1, rank) or claim_ranks(m.claim)[0] == rank else 1  # Bluff: tell the truth
            key = (lie, *value[rank], -len(m.cards))
            if best_key is None or key < best_key:
                best, best_key = m, key
    if best is not None:
        seat = pos.turn
        # a special is worth keeping when picking up a small pile is cheap
        if (best_key is not None and best_key[1] == 1 and pos.R.voluntary and pos.hand_n[seat]
                and pos.pile_n <= 2 and pos.hand_n[seat] <= pos.R.refill and pos.top_rank() != EMPTY):
            for m in moves:
                if m.kind == PICKUP:
                    return m
        return best
    pickups = [m for m in moves if m.kind == PICKUP]
    if pickups:
        return min(pickups, key=lambda m: value[m.cards[0] >> 2] if m.cards else (0, 0))
    return moves[0]  # flips


def _greedy_push(pos: Position, keep: _Keep | None = None) -> Action:
    """The greedy move, pushed: read off the play counts where the plays are the plain game's,
    else chosen among those listed (:func:`_greedy_listed`). ``keep``: the variant's
    :class:`_Keep`, where the caller has it (a game loop)."""
    R = pos.R
    if keep is None:
        keep = _keep_of(pos.v)
    if not (R.plain_plays and pos.fast()):
        return _greedy_listed(pos, keep)
    # the plays are counted: the lowest rank held that goes on the top (the most moves of a
    # rollout, made here rather than in a function of their own)
    seat = pos.turn
    subs = pos.subs[seat]
    top = pos.top
    for r in keep.keep_at[top]:
        if subs[r]:
            break
    else:
        return None, pos.push_pickup()
    if (keep.special[r] and R.voluntary and pos.pile_n and pos.pile_n <= 2
            and pos.hand_n[seat] <= R.refill and top != EMPTY):
        return None, pos.push_pickup()
    # every card of the rank: its multiset is the rank's field, and the rank has no play left
    C = pos.C
    sh = C.rsh[r]
    f = (pos.hands[seat] >> sh) & C.rm[r]
    cards = C.groups[r].get(f) or C.group(r, f)  # (made once: read without a call)
    return cards, pos.push_cards(cards, f << sh, None, 0)


def _greedy_listed(pos: Position, keep: _Keep) -> Action:
    """:func:`_greedy_push` where the plays are not counted: the greedy move among those listed
    (from face up, among the plays, chosen once for the same plays)."""
    ups = pos.up_plays()
    if ups:  # from face up, with plays: the best of them (the pickups after them are not taken)
        got = keep.up_best.get(id(ups))
        if got is None or got[0] is not ups:
            if len(keep.up_best) > 50_000:
                keep.up_best.clear()
            best = greedy_move(pos, ups, keep)
            got = keep.up_best[id(ups)] = (ups, best, pos.up_left(pos.turn, best.cards))
        return got[1], pos.push_up(got[1].cards, got[2])
    moves = pos.moves()
    # flips only (plays come first, pickups last): greedy_move's choice, the first
    m = moves[0] if moves[0].kind == FLIP == moves[-1].kind else greedy_move(pos, moves, keep)
    return m, pos.push(m)


@dataclass
class GreedyBot:
    """Plays its lowest card (all copies of it), keeps specials, picks up last."""

    name: str = "greedy"
    draws: ClassVar[bool] = False  # it never draws from the game's rng (see :func:`play_on`)

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        return greedy_move(position_of(table, v), moves)

    def act(self, pos: Position, rng: random.Random) -> Action:
        return _greedy_push(pos)


@dataclass
class EpsilonBot:
    """Greedy, except that with probability ``eps`` it makes a random legal move."""

    name: str = "epsilon"
    eps: float = 0.5

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        if rng.random() < self.eps:
            return moves[rng.randrange(len(moves))]
        return greedy_move(position_of(table, v), moves)

    def act(self, pos: Position, rng: random.Random) -> Action:
        if rng.random() < self.eps:
            return _random_push(pos, rng)
        return _greedy_push(pos)


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot, "playful": PlayfulBot, "epsilon": EpsilonBot, "greedy": GreedyBot,
}
_GREEDY_ONLY, _RANDOM_ONLY = frozenset((GreedyBot,)), frozenset((RandomBot,))  # (:func:`run`: bots of one kind)
_ACTING = frozenset(kind for kind in BOTS.values() if hasattr(kind, "act"))  # (:func:`run`: the kinds that act)


# -- the one game runner -------------------------------------------------------------


@dataclass
class GameResult:
    """One game: its start, moves (when recorded), outcome, and why it stalled if it did."""

    variant: str
    seed: int
    names: tuple[str, ...]
    start: Table  # after setup, before the first play (or where the game was taken up)
    moves: list[tuple[int, Move, tuple[str, ...]]] = field(default_factory=list)
    out_order: list[str] = field(default_factory=list)
    loser: str | None = None
    winner: str | None = None
    stalled: bool = False
    final: Table | None = None
    turns: int = 0
    stall_reason: str = ""  # why a stalled game was stopped, in words
    pickups: int = 0
    burns: int = 0
    flips: int = 0
    looped: bool = False  # stopped at a pickup into a position ``avoid`` names
    cut: bool = False  # stopped after ``cut`` moves: no outcome (see ``zones``)
    zones: tuple[tuple[tuple[int, ...], tuple[int, ...], int, bool], ...] | None = field(default=None, repr=False)
    stock_left: int = 0


class Circle:
    """The stall rule, in one place for every game loop: a game has gone round in a circle when
    the same position after a pickup comes round ``repeats`` times (no card burned, nobody out,
    every hand back to what it was), or when it runs past ``max_turns`` moves."""

    __slots__ = ("seen", "again", "repeats", "max_turns", "turns", "why")

    def __init__(self, repeats: int = 3, max_turns: int = 4000) -> None:
        # the positions counted, by their hands, each with the rest it was first counted with (the
        # stock's size, who is to move, the way play goes, the face-up and face-down cards); and
        # the positions counted again, whole (the hands and the rest), with their counts (see
        # :meth:`came_round`)
        self.seen: dict[tuple[object, ...], tuple[object, ...]] = {}
        self.again: dict[tuple[object, ...], int] = {}
        self.repeats = repeats
        self.max_turns = max_turns
        self.turns = 0
        self.why = ""

    def quiet_move(self) -> bool:
        """Count a move that set nothing off (no pickup); True once the game has stalled."""
        self.turns += 1
        return self.turns >= self.max_turns and self.ran_past()

    def ran_past(self) -> bool:
        """The game has run past ``max_turns`` moves: say so (True)."""
        self.why = f"it ran past {self.max_turns} moves"
        return True

    def came_round(self, pos: Position) -> bool:
        """Count the position after a pickup (not the move); True once it has come round
        ``repeats`` times. (A loop over tables passes each table's position: ``position_of``.)"""
        # most positions are new, and differ from every one before in their hands: counted by the
        # hands alone (a tuple made from the list at once: one C call, the one thing hashed), with
        # one look-up, and the rest (the stock's size, who is to move, the way play goes, and the
        # face-up and face-down cards, by reference: a push puts new tuples in place only where
        # they change) kept beside them, neither hashed nor compared; only where the hands come
        # round again (as they were) is the position counted whole, the rest compared with the
        # first kept for those hands (the count of each whole position the same as where the key
        # holds more: the first of those hands counted once, any other whole position from 0)
        rest = (len(pos.stock), pos.turn, pos.direction, pos.ups, pos.downs)
        key = tuple(pos.hands)
        first = self.seen.setdefault(key, rest)
        if first is rest:
            return False
        whole = (key, rest)
        again = self.again
        times = again[whole] = again.get(whole, 1 if first == rest else 0) + 1
        if times >= self.repeats:
            self.why = f"the same position after a pickup came round {times} times, so nobody gets out"
            return True
        return False

    def stalled_after(self, pos: Position, events: Sequence[str]) -> bool:
        """Count one move (``pos`` is the position after it); True once the game has stalled."""
        turns = self.turns = self.turns + 1
        if PICKED_UP in events and self.came_round(pos):
            return True
        return turns >= self.max_turns and self.ran_past()


def run(pos: Position, bots: Sequence[Bot], rng: random.Random, result: GameResult, *,
        max_turns: int = 4000, repeats: int = 3, record: bool = True, cut: int = 0,
        endgame: int | None = None, avoid: tuple[int, frozenset[SeatKey]] | None = None,
        on_move: Callable[[Table, Move, Table, list[str]], None] | None = None, zones: bool = True) -> GameResult:
    """Play ``pos`` on to its end with ``bots`` (one per seat), filling in ``result``.

    The game ends when the variant says; it is *stalled* (``stall_reason`` says why) when a
    position after a pickup comes round ``repeats`` times or after ``max_turns`` moves. With
    ``cut`` > 0 it stops after that many moves unless two players are left and the stock is
    gone (``cut``, and ``zones`` unless ``zones`` is False), and then after ``endgame`` more if that is not None. With ``avoid`` = (seat, keys) it stops, stalled and ``looped``,
    at a pickup into a position whose :func:`seat_key` for that seat is in ``keys``. Bots that
    act on the position (the four here) never see a table; others (and ``on_move``) get one.
    """
    v = pos.v
    circle = Circle(repeats, max_turns)
    # (the questions about the bots by C calls, not generators: a game of bulk play asks them once;
    # bots of this module's kinds all act, asked of others only)
    kinds = set(map(type, bots))
    acting = on_move is None and (kinds <= _ACTING or all(map(hasattr, bots, repeat("act"))))
    moves_rec = result.moves
    shown: Table | None = None  # the table of the position, where the bots are shown tables
    # greedy players all round (the search's rollouts): their move is :func:`_greedy_push`, called
    # here with the variant's keep-order read once
    keep = _keep_of(v) if acting and kinds <= _GREEDY_ONLY else None
    if (acting and not record and not cut and avoid is None and not pos.setup
            and kinds <= _RANDOM_ONLY):
        _run_random(pos, rng, circle, result)
    elif keep is not None and not record and not pos.setup:
        _run_greedy(pos, keep, circle, result, cut, endgame, avoid, zones)
    events: Sequence[Event]
    while not pos.over() and not result.stalled and not result.cut:
        if cut and circle.turns >= cut and _cut_off(pos, result, circle.turns, cut, endgame, zones):
            break
        seat = pos.turn
        if pos.setup:  # the greedy arrangement, move by move
            move = setup_choice(pos)
            events = pos.push(move)
            shown = None
            if record:
                moves_rec.append((seat, move, tuple(events)))
            circle.turns += 1
            continue
        if acting:
            if keep is not None:
                played, events = _greedy_push(pos, keep)
            else:
                played, events = bots[seat].act(pos, rng)  # type: ignore[attr-defined]
            if record:
                move = played if isinstance(played, Move) else Move(PICKUP) if played is None else Move(PLAY, played)
                moves_rec.append((seat, move, tuple(events)))
            elif isinstance(played, Move) and played.kind == FLIP:
                result.flips += 1
        else:
            before = shown if shown is not None else pos.snapshot()
            was = pos.copy()
            remember(before, v, was)  # the bots' and the hook's engine calls on ``before`` start from it
            move = bots[seat].choose(before, v, was.moves(), rng)
            events = pos.push(move)
            if record:
                moves_rec.append((seat, move, tuple(events)))
            shown = pos.snapshot((before, was))
            if on_move is not None:
                on_move(before, move, shown, list(map(str, events)))
        if not events:  # most moves: a play that sets nothing off
            if circle.quiet_move() and not pos.over():
                result.stalled = True
                result.stall_reason = circle.why
                break
            continue
        if _loud_move(pos, seat, events, circle, result, avoid):
            break
    result.turns = circle.turns
    if record:
        result.flips = sum(1 for _, m, _ in moves_rec if m.kind == FLIP)
    result.final = pos.snapshot() if record or on_move is not None else None
    if not result.stalled and not result.cut:
        _outcome(pos, result)
    return result


def _outcome(pos: Position, result: GameResult) -> None:
    """The loser or the winner of a game played to its end (a player may have lost at once:
    Nortenos' last 3)."""
    decided = pos.decided()
    name = pos.names[decided] if decided >= 0 else None
    if pos.v.goal == "loser":
        result.loser = name
    else:
        result.winner = name


def _cut_off(pos: Position, result: GameResult, turns: int, cut: int, endgame: int | None, zones: bool) -> bool:
    """:func:`run`'s cut, once ``turns`` >= ``cut``: unless two players are left and the stock
    is gone (then after ``endgame`` more, if that is not None), mark the result cut (with every
    seat's zones where ``zones``) and say True."""
    if not (pos.stock or pos.alive > 2 or (endgame is not None and turns >= cut + endgame)):
        return False
    result.cut = True
    if zones:
        result.zones = tuple((pos.hand(s), pos.up_cards(s), len(pos.downs[s]), pos.outs[s]) for s in range(pos.n))
    result.stock_left = len(pos.stock)
    return True


_LOUD = frozenset((BURN, OUT, PICKED_UP, GAME_OVER))  # the events a bulk loop's quiet move has none of


def _loud_move(pos: Position, seat: int, events: Sequence[Event], circle: Circle, result: GameResult,
               avoid: tuple[int, frozenset[SeatKey]] | None) -> bool:
    """:func:`run`'s bookkeeping after ``seat``'s move set something off (``events``): who went
    out, pickups and burns, the caller's ``avoid`` and the stall rule, the move counted. True
    when the game stops there, stalled."""
    if OUT in events:
        result.out_order.append(pos.names[seat])
    if PICKED_UP in events:
        result.pickups += 1
        if avoid is not None and avoided(pos, avoid):
            circle.turns += 1
            result.stalled = result.looped = True  # back round a circle the caller has been in
            result.stall_reason = "it came back round to a position the player has been in"
            return True
    if BURN in events:
        result.burns += 1
    if circle.stalled_after(pos, events) and not pos.over():
        result.stalled = True
        result.stall_reason = circle.why
        return True
    return False


def _run_greedy(pos: Position, keep: _Keep, circle: Circle, result: GameResult, cut: int, endgame: int | None,
                avoid: tuple[int, frozenset[SeatKey]] | None, zones: bool) -> None:
    """:func:`run`'s loop for greedy players all round, unrecorded (the search's rollouts): the
    same steps, cut and stall rule, with each move :func:`_greedy_push` and the bookkeeping in
    locals. It leaves the game over, stalled or cut (``run``'s loop then only finishes up).
    The greedy choice is :func:`_greedy_push`'s, the one greedy policy."""
    over = pos.over
    max_turns = circle.max_turns
    turns = circle.turns
    draw = Event.DRAW
    greedy_push = _greedy_push
    # (the game ends only with a move that sets something off, someone going out: over() is
    # asked at the start and after such moves, not after every quiet one)
    ended = over()
    while not ended:
        if cut and turns >= cut and _cut_off(pos, result, turns, cut, endgame, zones):
            break
        seat = pos.turn
        played, events = greedy_push(pos, keep)
        if type(played) is Move and played.kind == FLIP:
            result.flips += 1
        if not events or (len(events) == 1 and events[0] is draw):
            # most moves: a play that sets nothing off, or only a draw, which :func:`_loud_move`
            # has nothing to count for (Circle.quiet_move, inline)
            turns += 1
            if turns >= max_turns and circle.ran_past():
                result.stalled = True
                result.stall_reason = circle.why
                break
            continue
        circle.turns = turns
        stop = _loud_move(pos, seat, events, circle, result, avoid)
        turns = circle.turns
        if stop:
            break
        ended = over()
    circle.turns = turns


def _run_random(pos: Position, rng: random.Random, circle: Circle, result: GameResult) -> None:
    """:func:`run`'s loop for random bots, unrecorded (bulk play): each move counted and
    picked as :func:`_random_push` does, with only the bookkeeping bulk play needs. In the
    plain game a move from the hand is counted and picked here, from the engine's compiled
    tables (what :meth:`Position.counted` and :meth:`Position.nth_counted` read), and made by
    :meth:`Position.push_cards` (a play, told the count of plays it leaves) or
    :meth:`Position.push_pickup`; so too where runs follow the plays (Guarducci: counted by
    :meth:`Position.run_count`, the one picked made by :meth:`Position.nth_run` and ``push``);
    and where the plays are counted with their swaps (Tauko Hogni: counted by
    :meth:`Position.swap_counts`, the one picked made by :meth:`Position.push_swap_at`);
    every other move goes through :func:`_random_push`. Bluff has a loop of its own
    (:func:`_run_bluff`)."""
    over = pos.over
    if over():
        return
    if pos.R.bluff:
        _run_bluff(pos, rng, circle, result)
        return
    max_turns = circle.max_turns
    R, C = pos.R, pos.C
    hands, hand_n, subs = pos.hands, pos.hand_n, pos.subs
    unseen = C.csh[-1]  # the field of unseen cards in a hand
    # where the plays from the hand are the plain game's whenever it holds cards, past the opening,
    # but now and then (:meth:`Position.plain_now`, asked only then): plain_mostly, or the plain
    # game's and runs (``runs``: :meth:`Position.plain_runs`, Guarducci); and no unseen card
    # anywhere (none can come into a hand); and where the draw may be inline
    runs = R.plain_runs and R.reversal < 0  # (with a reversing card, through :func:`_random_push`)
    # or the plays counted with their swaps and nothing else comes now and then (Tauko Hogni:
    # :meth:`Position.fast` is then a hand held past the opening, its cards known)
    swaps = R.plain_swaps and not R.now_and_then
    apart = runs or swaps  # (moves counted apart from the plain game's plays: the runs, or plays with swaps)
    lean = (_INLINE_RANDBELOW and (R.plain_mostly or runs or swaps) and not any(h >> unseen for h in hands)
            and UNKNOWN not in (*pos.stock, *(c for d in pos.downs for c in d),
                                *(c for u in pos.ups for s in u for c in s),
                                *(c for laid in pos.pile for c in laid[0])))
    now_and_then, plain_then = R.now_and_then, R.plain_then  # (:meth:`Position.plain_now`, past its first tests)
    count_at, ranks_at = R.count_at, R.ranks_at
    # the pickups the player may choose where a pile lies, by whether some play is legal (none
    # without a pile: ``Rules.pickups_at``' first row, all 0, not read)
    piled = R.pickups_at[1]
    if swaps:  # (a play picked as the plain game's, where none swaps: from the ranks that go, by their key)
        ranks_at = R.swap_ranks
    free_two, free_with, run_count, nth_run, push = R.free_two, R.free_with_two, pos.run_count, pos.nth_run, pos.push
    moves = pos.moves
    played: Move | tuple[int, ...] | None
    lays, lays_of, rsh, rm = C.lays, C.lays_of, C.rsh, C.rm
    push_cards, push_pickup, came_round = pos.push_cards, pos.push_pickup, circle.came_round
    swap_counts, push_swap_at = pos.swap_counts, pos.push_swap_at
    getrandbits, bits = rng.getrandbits, _BITS
    turns = made = circle.turns  # the moves made (``turns``: with the one being made)
    picked = 0  # the pickups of the plain game, counted here
    ready = lean and not pos.opening  # (the opening lead is made as :func:`_random_push` makes it)
    for turns in range(made + 1, max_turns + 1):  # (one move a step, counted by the step)
        seat = pos.turn
        if ready and hand_n[seat] and (not now_and_then or plain_then(pos)):
            held = subs[seat]
            if apart:
                if runs:  # (:meth:`Position.plain_runs`' numbers: the plays, then the runs)
                    # (the joker's free play, with two players left and one on top: see top_rank; the
                    # rank on top is that of the pile's run)
                    top = pos.top if not free_two or pos.alive > 2 or not free_with[pos.run_r] else pos.top_rank()
                    nplay = count_at[top](held)
                    napart = run_count(top)
                else:  # each play and its swaps (:meth:`Position.swap_counts`), none a plain play:
                    # but where no play swaps (most moves), the plays, picked as the plain game's, from
                    # the ranks that go (``top``: their key)
                    nplay, napart, counted = swap_counts()
                    top = counted[0]
                n = nplay + napart
                if pos.pile_n:  # (:meth:`Position.pickups`)
                    n += piled[n and 1]
            else:
                top = pos.top
                nplay = count_at[top](held)
                n = nplay + piled[nplay and 1] if pos.pile_n else nplay  # (:meth:`Position.pickups`, as above)
            try:  # (``_randbelow``, inline)
                k = bits[n]
            except IndexError:
                k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            if j < nplay:  # the j-th play: :meth:`Position.nth_counted`
                for r in ranks_at[top]:
                    s = held[r]
                    if s:  # (most ranks the hand holds none of: one test)
                        if j < s:
                            break
                        j -= s
                f = (hands[seat] >> rsh[r]) & rm[r]
                try:
                    cards, val, count = lays[r][f][j]
                except KeyError:  # (the rank's plays from this group of cards, listed once)
                    cards, val, count = lays_of(r, f)[j]
                events = push_cards(cards, val, None, count)
                if not events or (BURN not in events and OUT not in events):
                    # most moves: a play that sets nothing off, or nothing :func:`_loud_move` counts
                    # (a draw, a reverse, a skip, a play again: a quiet move to the stall rule)
                    continue
            elif apart and j < nplay + napart:
                if runs:  # a run (pushed as any move: a run sets off what its cards do)
                    run = nth_run(j - nplay, top)
                    assert run is not None
                    events = push(run)
                else:  # the j-th play or swap
                    events = push_swap_at(j, counted, False)[1]  # (a swap's event left out: bulk play)
                    if not events:  # (most plays: nothing set off, as below)
                        continue
            else:  # a plain pickup sets off nothing but the pickup (and the same player's turn again)
                push_pickup()
                picked += 1
                if came_round(pos) and not over():
                    result.stalled = True
                    result.stall_reason = circle.why
                    break
                continue
        else:
            listed = moves() if lean and not hand_n[seat] else None
            if listed:  # from face up or face down: :func:`_random_push`'s pick from the list, without its dispatch
                played = listed[_randbelow(rng, len(listed))]
                events = push(played)
            else:
                played, events = _random_push(pos, rng, False)
            ready = lean and not pos.opening
            if isinstance(played, Move) and played.kind == FLIP:
                result.flips += 1
        if _LOUD.isdisjoint(events):
            # a move that set off nothing :func:`_loud_move` counts (none, or a draw, a swap, a reverse,
            # a skip, a play again): a quiet move to the stall rule, counted by the loop's step
            continue
        # a move that set something off: the bookkeeping and the stall rule, as :func:`run`'s
        circle.turns = turns - 1
        if _loud_move(pos, seat, events, circle, result, None) or GAME_OVER in events:
            break  # (GAME_OVER: the one event a move that ends the game always has)
    result.pickups += picked
    _bulk_end(pos, circle, result, turns)


def _run_bluff(pos: Position, rng: random.Random, circle: Circle, result: GameResult) -> None:
    """:func:`_run_random` in Bluff: each move counted, drawn and pushed by the engine in one go
    (:meth:`Position.push_bluff_drawn`; no move made for a play or a flip), with only the
    bookkeeping bulk play needs (never a plain pickup: a call takes the pile)."""
    max_turns = circle.max_turns
    push_drawn, draw = pos.push_bluff_drawn, _randbelow
    # the flips counted once, at the end, by the face-down cards gone (in Bluff a face-down card
    # leaves only by a flip, :meth:`Position._push_bluff`), not a test of each move
    downs = sum(map(len, pos.downs))
    turns = made = circle.turns  # the moves made (``turns``: with the one being made)
    for turns in range(made + 1, max_turns + 1):  # (one move a step, counted by the step)
        seat = pos.turn
        _, events = push_drawn(draw, rng, False) or _random_push(pos, rng, False)  # (None: listed)
        if not events or _LOUD.isdisjoint(events):
            continue  # a quiet move to the stall rule (nothing, a draw), counted by the loop's step
        if PICKED_UP not in events and OUT not in events:
            # a burn and nothing else :func:`_loud_move` counts (a game ends only with OUT): the burn
            # counted here, a quiet move to the stall rule (whose one rule then is the turn limit,
            # the loop's: see :func:`_bulk_end`)
            result.burns += 1
            continue
        # a move that set something off: the bookkeeping and the stall rule, as :func:`run`'s
        circle.turns = turns - 1
        if _loud_move(pos, seat, events, circle, result, None) or GAME_OVER in events:
            break  # (GAME_OVER: the one event a move that ends the game always has)
    result.flips += downs - sum(map(len, pos.downs))
    _bulk_end(pos, circle, result, turns)


def _bulk_end(pos: Position, circle: Circle, result: GameResult, turns: int) -> None:
    """The end of a bulk loop (:func:`_run_random`, :func:`_run_bluff`) after ``turns`` moves: the
    moves counted, and a game stopped by the turn limit on a quiet move marked as the stall rule
    says (a loud move's stop was marked by :func:`_loud_move`)."""
    circle.turns = turns
    if turns >= circle.max_turns and not result.stalled and not pos.over() and circle.ran_past():
        result.stalled = True
        result.stall_reason = circle.why


def play_from(v: Variant, table: Table, seed: int, bots: Sequence[Bot], *, max_turns: int = 4000,
              repeats: int = 3, record: bool = False, cut: int = 0, endgame: int | None = None,
              avoid: tuple[int, frozenset[SeatKey]] | None = None) -> GameResult:
    """Play on from ``table`` with seeded bots (the draws of :func:`play_game` from that table)."""
    rng = random.Random(seed * 7919 + 1)
    pos = position(table, v)
    result = GameResult(v.id, seed, pos.names, table)
    return run(pos, bots, rng, result, max_turns=max_turns, repeats=repeats, record=record, cut=cut,
               endgame=endgame, avoid=avoid)


def play_on(pos: Position, seed: int, bots: Sequence[Bot], *, max_turns: int = 4000, repeats: int = 3,
            cut: int = 0, endgame: int | None = None,
            avoid: tuple[int, frozenset[SeatKey]] | None = None) -> GameResult:
    """:func:`play_from` on a position the caller owns (it is pushed on): the same draws, the
    same game, with no table made (``start``, ``final`` and ``zones`` are left empty: where it
    stopped is the position itself; a search's rollouts)."""
    if not pos.setup and all(type(b) is GreedyBot for b in bots):
        return play_greedy(pos, seed, max_turns=max_turns, repeats=repeats, cut=cut, endgame=endgame, avoid=avoid)
    result = GameResult(pos.v.id, seed, pos.names, _NO_TABLE)
    # (seeding a generator costs more than a greedy move: not done for bots that never draw)
    rng = random.Random(seed * 7919 + 1) if any(getattr(b, "draws", True) for b in bots) else _NO_DRAWS
    return run(pos, bots, rng, result, max_turns=max_turns, repeats=repeats, record=False, cut=cut,
               endgame=endgame, avoid=avoid, zones=False)


def play_greedy(pos: Position, seed: int = 0, *, max_turns: int = 4000, repeats: int = 3, cut: int = 0,
                endgame: int | None = None, avoid: tuple[int, frozenset[SeatKey]] | None = None) -> GameResult:
    """:func:`play_on` with greedy players all round (a search's rollouts, past the setup):
    :func:`run`'s greedy loop, without its dispatch (greedy players never draw: ``seed`` is
    only recorded)."""
    result = GameResult(pos.v.id, seed, pos.names, _NO_TABLE)
    circle = Circle(repeats, max_turns)
    _run_greedy(pos, _keep_of(pos.v), circle, result, cut, endgame, avoid, False)
    result.turns = circle.turns
    if not result.stalled and not result.cut:
        _outcome(pos, result)
    return result


_NO_TABLE = Table(players=())
_NO_DRAWS = random.Random(0)  # the rng of a game whose bots never draw
SeatKey = tuple[object, ...]


def seat_key_of(hand: Sequence[int], hand_sizes: Sequence[int], face_up: Sequence[Sequence[int]],
                face_down: Sequence[int], stock: int, burned: int, turn: int, direction: int) -> SeatKey:
    """A position as one seat knows it, from its parts: the seat's own hand (any order),
    every hand's size, the face-up cards, the face-down counts, the stock and burned counts,
    whose turn and which way play goes."""
    return (tuple(sorted(hand)), tuple(hand_sizes), tuple(tuple(sorted(u)) for u in face_up),
            tuple(face_down), stock, burned, turn, direction)


def seat_key(table: Table, seat: int) -> SeatKey:
    """:func:`seat_key_of` a table, as ``seat`` knows it (nothing hidden from that seat).

    After a pickup, when it comes round again no card has burned or gone out and every
    hand is back to its size: the game has gone round in a circle (in a two-player game
    with no stock, the two hands are then the same cards as before)."""
    ps = table.players
    return seat_key_of(ps[seat].hand, [len(p.hand) for p in ps], [p.face_up_cards for p in ps],
                       [len(p.face_down) for p in ps], len(table.stock), len(table.burned),
                       table.turn, table.direction)


def seat_key_at(pos: Position, seat: int) -> SeatKey:
    """:func:`seat_key` of a position."""
    return seat_key_of(pos.hand(seat), pos.hand_n, [pos.up_cards(s) for s in range(pos.n)],
                       [len(d) for d in pos.downs], len(pos.stock), len(pos.burned), pos.turn, pos.direction)


_PUBLIC: dict[int, tuple[frozenset[SeatKey], frozenset[SeatKey] | None]] = {}


def avoided(pos: Position, avoid: tuple[int, frozenset[SeatKey]]) -> bool:
    """Is ``pos`` a position ``avoid`` = (seat, keys) names (``seat_key_at(pos, seat) in keys``)?
    The public counts are compared first: most positions differ there, and cost no decoding."""
    keys = avoid[1]
    got = _PUBLIC.get(id(keys))
    if got is None or got[0] is not keys:
        if len(_PUBLIC) > 64:
            _PUBLIC.clear()
        shaped = all(len(k) == 8 for k in keys)  # keys of :func:`seat_key_of`'s shape (a test may pass others)
        got = _PUBLIC[id(keys)] = (keys, frozenset((k[1], k[4], k[5], k[6], k[7]) for k in keys) if shaped else None)
    public = got[1]
    if public is not None and (tuple(pos.hand_n), len(pos.stock), len(pos.burned), pos.turn,
                               pos.direction) not in public:
        return False
    return seat_key_at(pos, avoid[0]) in keys


def play_game(
    v: Variant | str,
    players: int = 4,
    seed: int = 0,
    bots: Sequence[Bot] | None = None,
    *,
    max_turns: int = 4000,
    repeats: int = 3,
    decks: int | None = None,
    record: bool = True,
    on_move: Callable[[Table, Move, Table, list[str]], None] | None = None,
) -> GameResult:
    """Deal and play a whole game with bots; seeded, so the same seed gives the same game.

    A game ends when the variant says; it is declared *stalled* when a position after a
    pickup comes round ``repeats`` times, or after ``max_turns`` moves (``stall_reason``).
    ``record=False`` keeps only the outcome and counts (bulk play).
    """
    v = load_variant(v)
    bots = list(bots or [RandomBot() for _ in range(players)])
    if len(bots) != players:
        raise TutorError(f"{players} players need {players} bots, not {len(bots)}")
    rng = _seeded(seed * 7919 + 1)
    table, pos = _started(v, players, seed, decks)
    result = GameResult(v.id, seed, pos.names, table)
    return run(pos, bots, rng, result, max_turns=max_turns, repeats=repeats, record=record,
               on_move=on_move)


def setup_move(table: Table, v: Variant) -> Move:
    """The greedy player's next setup move, chosen among the moves the engine allows now: lay
    the most valuable hand card face up (``setup: choose``), or swap the hand card worth most
    for the face-up card worth least while that gains, else say ready."""
    return setup_choice(position(table, v))


def setup_choice(pos: Position) -> Move:
    """:func:`setup_move` on a position."""
    v = pos.v
    moves = pos.moves()
    places = [m for m in moves if m.kind == PLACE]
    if places:
        return max(places, key=lambda m: _value(v, m.cards[0] >> 2))
    best, gain = None, (0, 0)
    for m in moves:
        if m.kind == SWAP:
            h, u = _value(v, m.cards[0] >> 2), _value(v, m.cards[1] >> 2)
            if (h[0] - u[0], h[1] - u[1]) > gain:
                best, gain = m, (h[0] - u[0], h[1] - u[1])
    if best is not None:
        return best
    return next((m for m in moves if m.kind == READY), moves[0] if moves else Move(READY))


def setup_moves(table: Table, v: Variant) -> list[Move]:
    """The greedy player's whole setup, move by move, ending with ready (for records and lessons)."""
    out: list[Move] = []
    seat = table.turn
    while table.setup and table.turn == seat and len(out) < 40:
        m = setup_move(table, v)
        out.append(m)
        if m.kind == READY:
            break
        table, _ = apply(table, v, m)
    return out


__all__ = ["deal", "arrange", "start", "play_game", "play_from", "run", "GameResult", "RandomBot", "GreedyBot",
           "PlayfulBot", "EpsilonBot", "BOTS", "FACE_UP", "Circle", "greedy_move", "setup_move", "setup_moves"]
