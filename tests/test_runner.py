"""The one game runner and the position it plays on.

The runner's bots act on the engine's mutable position (counting plays and picking the
n-th without listing them where the rules allow); given tables instead (the Play page, the
conformance run) the same bots choose from the listed moves. Both must make the same game.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tutor.core.cards import JOKER
from tutor.core.moves import PLAY, Move
from tutor.core.table import Table
from tutor.engine import legal_moves, position, position_of
from tutor.engine.position import Position, rules_of
from tutor.play.game import (
    BOTS,
    Circle,
    EpsilonBot,
    GreedyBot,
    PlayfulBot,
    RandomBot,
    _started,
    play_from,
    play_game,
)
from tutor.rules.variant import load_variant, preset_catalogue

PRESETS = sorted(preset_catalogue())


def _players(spec: str) -> int:
    v = load_variant(spec)
    return min(max(3, v.min_players), v.max_players)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_acting_on_the_position_plays_the_game_choosing_from_tables_plays(preset: str, bot: str) -> None:
    n = _players(preset)
    for seed in range(2):
        fast = play_game(preset, n, seed, [BOTS[bot]() for _ in range(n)], max_turns=300)
        seen: list[str] = []
        slow = play_game(preset, n, seed, [BOTS[bot]() for _ in range(n)], max_turns=300,
                         on_move=lambda b, m, a, e, seen=seen: seen.append(str(m)))  # tables every move
        assert [str(m) for _, m, _ in fast.moves] == seen == [str(m) for _, m, _ in slow.moves]
        assert (fast.loser, fast.winner, fast.stalled, fast.turns) == (slow.loser, slow.winner, slow.stalled,
                                                                        slow.turns)


@pytest.mark.parametrize("preset", PRESETS)
def test_counting_and_picking_agree_with_the_list(preset: str) -> None:
    v = load_variant(preset)
    n = _players(preset)
    checked = 0

    def on_move(before: Table, move: object, after: Table, events: list[str]) -> None:
        nonlocal checked
        pos = position(before, v)
        moves = legal_moves(before, v)
        assert pos.count_moves() == len(moves)
        for j in range(0, len(moves), max(1, len(moves) // 7)):
            assert pos.nth_move(j) == moves[j]
        checked += 1

    play_game(v, n, 4, [EpsilonBot(eps=0.6) for _ in range(n)], max_turns=200, on_move=on_move)
    assert checked > 20


@pytest.mark.parametrize("spec", ["tauko-hogni", "pagat", "lancaster", "karma", "bluff"])
def test_what_a_position_keeps_is_made_afresh_after_every_move(spec: str) -> None:
    # a position keeps each hand's count of plays per rank as moves change the hand (a swap
    # trades a card each way, with one pack without reading the hand: Position._swap_with), and
    # the seat that plays after each (Position.after: skips, goes back and passes over seats that
    # are out by it): after every move of a game they are what is counted afresh, the play counts
    # from the hand's cards, the seat after going round the table the way play goes
    v = load_variant(spec)
    seen = outs_seen = 0

    def on_move(before: Table, move: object, after: Table, events: list[str]) -> None:
        nonlocal seen, outs_seen
        pos = position_of(before, v)  # (the runner's own position, pushed on move by move)
        assert [pos.C.subs(h) for h in pos.hands] == pos.subs
        n, d = pos.n, pos.direction
        for s in range(n):
            t = (s + d) % n
            while pos.outs[t] and t != s:
                t = (t + d) % n
            assert pos.after[s] == t
        seen += "swap" in events
        outs_seen += sum(pos.outs) > 0

    for seed in range(4):
        play_game(v, 4, seed, [RandomBot() for _ in range(4)], max_turns=600, on_move=on_move)
    assert seen > 20 or spec != "tauko-hogni"
    assert outs_seen > 10 or spec == "bluff"  # (Bluff ends as the first player goes out)


def test_a_play_or_swap_pushed_at_once_is_the_listed_move_pushed() -> None:
    # random play with swaps (Tauko Hogni) makes the j-th play or swap at once (Position.push_swap_at:
    # its parts found there, the swap made by _swap_with) where a listed move goes through push
    # (Position._push_play, _do_swap, _swap_with): for every j, in positions of random games, the
    # same move, events, causes and position after it
    v = load_variant("tauko-hogni")
    seen: Counter[str] = Counter()

    def on_move(before: Table, move: object, after: Table, events: list[str]) -> None:
        pos = position(before, v)
        if not pos.fast():
            return
        plays, swaps, counts = pos.swap_counts()
        n = plays + swaps
        moves = legal_moves(before, v)
        for j in range(n):
            a, b = pos.copy(), pos.copy()
            pos._ups_swaps()  # (kept for these zones: a face-up swap of one pack's cards keeps them on)
            made, got = a.push_swap_at(j, counts)
            listed = moves[j]
            assert (made if isinstance(made, Move) else Move(PLAY, made)) == listed
            assert list(got) == list(b.push(listed)) and a.causes == b.causes
            assert a.snapshot() == b.snapshot()
            # the distinct face-up cards a swap may take, per seat and in all, and the cards
            # themselves in card order (Position._ups_swaps; kept on by _swap_with)
            cards = [tuple(sorted(set().union(*zone))) for zone in a.ups]
            takes = [len(c) for c in cards]
            assert a._ups_swaps()[1:4:2] == ((*takes, sum(takes)), tuple(cards))
            assert a._ups_swaps()[4] == tuple((t, -1, sum(takes) - t, 0) for t in takes)  # (swap_counts' per)
            if listed.give >= 0:  # (the kinds of swap met: each must come up)
                seen["blind" if listed.take < 0 else "own" if not listed.target else "other"] += 1
                seen["joker"] += JOKER in (listed.give, listed.take)

    for decks, seed in ((1, 0), (1, 1), (1, 2), (2, 0)):  # (two packs: hands read by decoding, not by bits)
        play_game(v, 4, seed, [EpsilonBot(eps=0.6) for _ in range(4)], max_turns=150, decks=decks, on_move=on_move)
    assert min(seen.values()) > 20, seen


def test_the_ranks_whose_plays_may_swap_are_read_off_their_key_s_bytes() -> None:
    # _swap_bits (ranks r by bit 4 * r + 3, read off the key's bytes by a table) and
    # Position._flag_ranks (swap_counts' flags: bit 8 * i + 5 for rank 2 * i, 8 * i + 6 for rank
    # 2 * i + 1, bit 0 for the ranks with a swap of their own, first) against the bits one by one
    from tutor.engine.position import _swap_bits

    pos = position(play_game("tauko-hogni", 4, 0, [RandomBot() for _ in range(4)], max_turns=1).final, "tauko-hogni")
    own = pos.R.swap_own_ranks
    assert own
    rng = random.Random(3)
    for _ in range(300):
        ranks = sorted(rng.sample(range(14), rng.randrange(15)))
        assert _swap_bits(sum(8 << 4 * r for r in ranks)) == tuple(ranks)
        flags = sum(1 << 8 * (r >> 1) + 5 + (r & 1) for r in ranks) | rng.randrange(2)
        first = own if flags & 1 else ()
        assert pos._flag_ranks(flags) == (*first, *(r for r in ranks if r not in first))


def test_the_n_th_card_read_off_a_hand_s_bits_is_the_n_th_decoded() -> None:
    # Code.nth_plain (one pack, no unseen card) against the hand decoded, on random hands with and
    # without jokers; several packs, or an unseen card, it leaves to the caller (None)
    pos = position(play_game("tauko-hogni", 4, 0, [RandomBot() for _ in range(4)], max_turns=1).final, "tauko-hogni")
    C = pos.C
    rng = random.Random(7)
    for _ in range(400):
        cards = rng.sample(range(52), rng.randrange(1, 20)) + [52] * rng.randrange(3)
        h = C.encode(cards)
        distinct = list(dict.fromkeys(C.decode(h)))
        assert [C.nth_plain(h, i) for i in range(len(distinct))] == distinct
    assert C.nth_plain(C.encode([3, -1]), 0) is None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_card_created_or_lost_and_the_game_is_seeded(players: int) -> None:
    for spec in ("pagat", "karma", "tauko-hogni"):
        v = load_variant(spec)
        if not v.min_players <= players <= v.max_players:
            continue
        start: list[Counter[int]] = []

        def on_move(before: Table, move: object, after: Table, events: list[str],
                    start: list[Counter[int]] = start, spec: str = spec) -> None:
            if not start:
                start.append(Counter(before.all_cards()))
            assert Counter(after.all_cards()) == start[0], (spec, move)

        g = play_game(v, players, 11, [PlayfulBot() for _ in range(players)], max_turns=400, on_move=on_move)
        again = play_game(v, players, 11, [PlayfulBot() for _ in range(players)], max_turns=400)
        assert [m for _, m, _ in g.moves] == [m for _, m, _ in again.moves]


def test_a_stalled_game_ends_and_says_why() -> None:
    stalled = [g for g in (play_game("pagat", 4, s, max_turns=4000, record=False) for s in range(12)) if g.stalled]
    assert stalled, "random pagat games go round in circles now and then"
    for g in stalled:
        assert g.loser is None and "came round 3 times" in g.stall_reason
    capped = play_game("pagat", 4, 0, max_turns=10)
    assert capped.stalled and capped.turns == 10 and capped.stall_reason == "it ran past 10 moves"


def test_the_stall_rule_counts_a_position_with_its_face_up_and_face_down_cards() -> None:
    # (Circle.came_round counts a position by its hands, keeping the rest it was first met with
    # beside it, its stock, turn, way of play and zones: the same hands with other zones, or
    # another turn, are another position)
    pos = _started(load_variant("pagat"), 3, 4, None)[1]
    circle = Circle(repeats=2)
    assert not circle.came_round(pos)
    ups = pos.ups
    other = tuple(reversed(ups))  # (the same hands, the face-up cards moved round the seats)
    assert other != ups
    pos.ups = other
    assert not circle.came_round(pos)  # a position of its own, met once
    pos.ups = tuple(tuple(s) for s in ups)  # the first again: equal zones, not the same tuples
    assert circle.came_round(pos)
    assert "came round 2 times" in circle.why
    pos.ups = other
    assert circle.came_round(pos)
    pos.turn = (pos.turn + 1) % pos.n  # another turn: a position never met
    assert not Circle(repeats=2).came_round(pos) and not circle.came_round(pos)


def test_play_from_a_table_cuts_and_counts() -> None:
    v = load_variant("lancaster")
    g = play_game(v, 4, 2, [GreedyBot() for _ in range(4)], max_turns=15)
    assert g.final is not None
    bots = [GreedyBot() for _ in range(4)]
    cut = play_from(v, g.final, 3, bots, cut=5)
    assert cut.cut and cut.turns == 5 and cut.loser is None and cut.zones is not None
    assert len(cut.zones) == 4
    whole = play_from(v, g.final, 3, bots)
    assert not whole.cut and (whole.loser is not None or whole.stalled)
    assert play_from(v, g.final, 3, bots).turns == whole.turns


def test_the_greedy_bot_is_one_policy_on_tables_and_positions() -> None:
    v = load_variant("pagat")
    rng = random.Random(0)
    g = play_game(v, 3, 5, [RandomBot() for _ in range(3)], max_turns=120)
    table = g.start
    for _, m, _ in g.moves:
        pos = position(table, v)
        played, _ = GreedyBot().act(pos, rng)
        want = GreedyBot().choose(table, v, legal_moves(table, v), rng)
        after = position(table, v)
        after.push(want)
        assert pos.snapshot() == after.snapshot(), (table, played, want)
        table = _apply(table, v, m)


def _apply(table: Table, v: object, m: object) -> Table:
    from tutor.engine import apply_unchecked

    return apply_unchecked(table, v, m)[0]  # type: ignore[arg-type]


def test_bluff_is_counted_and_pushed_as_listed() -> None:
    """Bluff's random play counts the moves, draws one and pushes it in one go
    (Position.push_bluff_drawn): as many moves as listed, and the same move, events and position
    as pushing the listed move."""
    v = load_variant("bluff")
    checked = 0

    def on_move(before: Table, move: object, after: Table, events: list[str]) -> None:
        nonlocal checked
        moves = legal_moves(before, v)
        for j in range(0, len(moves), max(1, len(moves) // 5)):
            a, b = position(before, v), position(before, v)
            counts: list[int] = []

            def draw(_: None, n: int, j: int = j, counts: list[int] = counts) -> int:
                counts.append(n)
                return j

            got = a.push_bluff_drawn(draw, None)
            assert got is not None and counts == [len(moves)]
            played, events_a = got
            assert played == moves[j] and events_a == b.push(moves[j])
            assert a.snapshot() == b.snapshot() and a.causes == b.causes
        checked += 1

    for seed in range(3):
        play_game(v, 4, seed, [RandomBot() for _ in range(4)], max_turns=200, on_move=on_move)
    assert checked > 60



_POSITION_FIELDS = ("hands", "hand_n", "subs", "ups", "downs", "pile", "pile_n", "top", "run_r", "run_n", "rev",
                    "claimed", "stock", "burned", "turn", "direction", "outs", "alive", "ended", "after", "opening",
                    "setup", "ready", "lost")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_bulk_start_is_the_started_table(preset: str) -> None:
    """A game's start in bulk play (tutor.play.game._started: the position made by Position.dealt
    with its hands coded card by card and an empty pile's fields set as _repile sets them) is the
    position of the table start(arrange(deal())) makes, field by field."""
    v = load_variant(preset)
    for players in sorted({v.min_players, _players(preset), v.max_players}):
        for seed in range(3):
            table, pos = _started(v, players, seed, None)
            fresh = Position.of(table, v)  # (the lazy table made in full: start(arrange(deal())))
            fresh.set_pile(fresh.pile)  # (:meth:`Position._repile`, whatever the pile)
            fresh.hands = list(map(fresh.C.encode, map(fresh.hand, range(players))))
            fresh.subs = list(map(fresh.C.subs, fresh.hands))
            for name in _POSITION_FIELDS:
                assert getattr(pos, name) == getattr(fresh, name), (name, players, seed)


def test_a_game_seeds_its_generators_as_random_random_does() -> None:
    """play_game's generators (its deal's and its bots') made by tutor.play.game._seeded, the C
    seeding alone where that agrees: the state random.Random(seed) has, and the same draws."""
    from tutor.play.game import _seeded, _seeded_agrees, _seeded_fast

    assert _seeded_agrees() == (_seeded is _seeded_fast)
    for seed in (0, 3, 7919 * 12 + 1, -40, 2**70):
        a, b = _seeded(seed), random.Random(seed)
        assert a.getstate() == b.getstate() and type(a) is random.Random
        assert [a.getrandbits(9) for _ in range(50)] == [b.getrandbits(9) for _ in range(50)]
        assert a.gauss(0, 1) == b.gauss(0, 1) and a.gauss(0, 1) == b.gauss(0, 1)


@pytest.mark.parametrize("spec", ["bluff", "bluff+deal-3-3-5"])
def test_bluff_bulk_play_counts_as_the_recorded_game(spec: str) -> None:
    """Bluff's bulk loop (tutor.play.game._run_bluff: the flips counted once, by the face-down cards
    gone) counts the flips, pickups and burns of the same game recorded move by move."""
    v = load_variant(spec)
    flips = 0
    for seed in range(40):
        bulk = play_game(v, 4, seed, [RandomBot() for _ in range(4)], record=False)
        rec = play_game(v, 4, seed, [RandomBot() for _ in range(4)])
        assert (bulk.flips, bulk.pickups, bulk.burns, bulk.turns, bulk.winner) == (
            rec.flips, rec.pickups, rec.burns, rec.turns, rec.winner), seed
        flips += bulk.flips
    assert flips > 40


@pytest.mark.parametrize("preset", PRESETS)
def test_the_plays_counted_on_each_top_are_the_plays_of_the_ranks_that_go(preset: str) -> None:
    # random play counts a hand's plays on the top by one expression made per top (Rules.count_at)
    R = rules_of(load_variant(preset))
    rng = random.Random(11)
    for _ in range(20):
        subs = [rng.choice((0, 0, 1, 3, 7, 15, 2, 40)) for _ in range(14)]
        for top, ranks in enumerate(R.ranks_at):
            assert R.count_at[top](subs) == sum(subs[r] for r in ranks)
        for key, ranks in enumerate(R.swap_ranks):  # (and per key of the swaps' tables, as swap_counts counts)
            assert R.swap_count[key](subs) == sum(subs[r] for r in ranks)
