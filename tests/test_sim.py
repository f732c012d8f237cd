"""The simulator (tutor.play.sim) plays exactly the games tutor.play.game.play_game plays.

Checked and unchecked paths must agree (STYLE.md, habit 3): for every variant and bot
here, the simulator's game equals the engine's move for move (as strings), with the same
loser or winner, order of going out, turn count, stall, pickups, burns and flips. The
exotic variants below put every power the simulator claims to support in front of it.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from tutor.core.errors import TutorError, VariantError
from tutor.core.table import Table
from tutor.engine import apply_unchecked, game_over, legal_moves
from tutor.play import sim
from tutor.play.game import BOTS, EpsilonBot, GreedyBot, PlayfulBot, RandomBot, play_game, position_key
from tutor.play.sim import SimResult, SimUnsupported, simulate, simulate_many, supports
from tutor.rules import powers
from tutor.rules.variant import (
    Fragment,
    Variant,
    build_variant,
    fragment_catalogue,
    fragment_from_data,
    load_variant,
    preset_catalogue,
)

SOURCE = {"site": "tests", "section": "made up for the simulator tests"}


def _frag(fid: str, slot: str, *powers_: dict[str, object]) -> Fragment:
    return fragment_from_data(
        {"id": fid, "slot": slot, "title": fid, "summary": fid, "source": SOURCE,
         "powers": list(powers_)},
        f"tests/{fid}.yaml",
    )


def _exotic_a() -> Variant:
    """pagat with jokers (wild, transparent, alone self), skipping jacks, strict 7-or-lower
    sevens, unbeatable fours, fives only on low cards, three-of-a-kind burns and four of
    a kind anytime, the pile passing to the previous player, and a winner to find."""
    return build_variant("pagat", [
        _frag("t-jokers", "jokers", {"power": "jokers", "count": 1},
              {"power": "anywhere", "rank": "JK"}, {"power": "transparent", "rank": "JK", "alone": "self"}),
        _frag("t-jacks", "J", {"power": "skip", "rank": "J"}),
        _frag("t-sevens", "7", {"power": "anywhere", "rank": "7", "except": ["A"]},
              {"power": "next-lower", "rank": "7", "strict": True}),
        _frag("t-fours", "4", {"power": "unbeatable", "rank": "4", "except": ["2", "10"]},
              {"power": "play-again", "rank": "4"}),
        _frag("t-fives", "5", {"power": "only-on", "rank": "5", "on": ["3", "4", "5", "2"]}),
        _frag("t-fours-any", "four-of-a-kind", {"power": "four-burns", "count": 3},
              {"power": "four-anytime"}),
        "after-pickup-previous", "goal-winner",
    ], where="test")


def _exotic_b() -> Variant:
    """lancaster (two packs from four players) with two jokers a pack that reverse and skip
    two, queens that skip, plain face-up pickups, voluntary pickups, the pile passing back."""
    return build_variant("lancaster", [
        _frag("t-jokers-2", "jokers", {"power": "jokers", "count": 2},
              {"power": "anywhere", "rank": "JK"}, {"power": "reverse", "rank": "JK"},
              {"power": "skip", "rank": "JK", "count": 2}),
        _frag("t-queens", "J", {"power": "skip", "rank": "Q"}),
        "face-up-pickup-plain", "pickup-voluntary", "after-pickup-previous",
    ], where="test")


def _first_difference(g: SimResult, r: SimResult) -> str:
    gm, rm = g.move_strings(), r.move_strings()
    for k, (a, b) in enumerate(zip(gm, rm, strict=False)):
        if a != b:
            return f"move {k}: engine {a!r}, simulator {b!r} (before: {gm[max(0, k - 3):k]})"
    if len(gm) != len(rm):
        return f"engine {len(gm)} moves, simulator {len(rm)}"
    fields = [f.name for f in dataclasses.fields(SimResult)]
    return ", ".join(f"{f}: {getattr(g, f)!r} != {getattr(r, f)!r}" for f in fields
                     if getattr(g, f) != getattr(r, f))


def assert_same_game(v: Variant | str, players: int, seed: int, bot: str | list[object] = "random",
                     **kw: int) -> SimResult:
    v = load_variant(v)
    bots = [BOTS[bot]() for _ in range(players)] if isinstance(bot, str) else bot
    g = SimResult.from_game(play_game(v, players, seed, bots, **kw))  # type: ignore[arg-type]
    r = simulate(v, players, seed, bot, record=True, **kw)  # type: ignore[arg-type]
    assert r == g, f"{v.id}, {players} players, seed {seed}, {bot}: {_first_difference(g, r)}"
    return r


# -- the same games -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["pagat", "lancaster"])
def test_same_games_random(variant: str, players: int) -> None:
    """Random games, cut at 250 moves (the stall rule by turns agrees too)."""
    for seed in range(6):
        assert_same_game(variant, players, seed, "random", max_turns=250)


@pytest.mark.parametrize("variant", ["pagat", "lancaster"])
def test_same_whole_random_games(variant: str) -> None:
    """A few random games to the end, or to the default 4000-move cut."""
    for players, seed in ((4, 100), (3, 101), (2, 102)):
        assert_same_game(variant, players, seed, "random")


@pytest.mark.parametrize("bot", ["greedy", "epsilon", "playful"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["pagat", "lancaster"])
def test_same_games_other_bots(variant: str, players: int, bot: str) -> None:
    for seed in range(5 if bot == "greedy" else 3):
        assert_same_game(variant, players, seed, bot, max_turns=300)


def test_same_games_mixed_bots_and_bot_objects() -> None:
    bots: list[object] = [GreedyBot(), RandomBot(), PlayfulBot(play_rate=0.6), EpsilonBot(eps=0.2)]
    for seed in range(4):
        assert_same_game("pagat", 4, seed, bots, max_turns=300)
        assert_same_game("lancaster", 4, seed, bots, max_turns=300)


def test_same_stalls_by_repetition() -> None:
    """With repeats=2 many random games stall on a repeated position; they stall alike."""
    stalled = 0
    for seed in range(30):
        r = assert_same_game("pagat", 2, seed, "random", repeats=2, max_turns=600)
        stalled += r.stalled and r.turns < 600
    assert stalled > 0  # the repetition rule, not only the turn limit, was exercised


@pytest.mark.parametrize(
    "spec",
    [
        "pagat+eights-transparent-reverse+nines-lower+twos-play-again",
        "pagat+must-play-if-able+face-up-pickup-plain+after-pickup-same",
        "pagat+after-pickup-previous+goal-winner",
        "lancaster+twos-pass-on+tens-burn-anytime+pickup-voluntary+after-pickup-next",
        "lancaster+first-three-face-up+deal-3-3-3",
    ],
)
def test_same_games_other_variants(spec: str) -> None:
    for players in (2, 4):
        for seed in range(3):
            assert_same_game(spec, players, seed, "random", max_turns=300)
        assert_same_game(spec, players, 7, "greedy")


@pytest.mark.parametrize("make", [_exotic_a, _exotic_b])
def test_same_games_every_supported_power(make) -> None:  # type: ignore[no-untyped-def]
    v = make()
    assert supports(v)
    for players in (2, 3, 4):
        for seed in range(4):
            assert_same_game(v, players, seed, "random", max_turns=300)
        assert_same_game(v, players, 11, "greedy")
        assert_same_game(v, players, 12, "playful", max_turns=300)


def test_decks_argument() -> None:
    for seed in range(3):
        assert_same_game("pagat", 3, seed, "random", decks=2, max_turns=300)


# -- the whole catalogue: supports() must be honest -----------------------------------


@pytest.mark.parametrize("preset", sorted(preset_catalogue()))
def test_every_preset_agrees_or_is_refused(preset: str) -> None:
    v = load_variant(preset)
    for players in sorted({v.min_players, min(v.max_players, 5)}):
        if supports(v):
            for seed in range(3):
                assert_same_game(v, players, seed, "random", max_turns=200)
            assert_same_game(v, players, 3, "greedy", max_turns=200)
        else:
            with pytest.raises(SimUnsupported):
                simulate(v, players, 0)
            g = play_game(v, players, 0, [RandomBot() for _ in range(players)], max_turns=100)
            assert sim.play(v, players, 0, max_turns=100, record=True) == SimResult.from_game(g)


@pytest.mark.parametrize("base", ["pagat", "lancaster"])
def test_every_fragment_agrees_or_is_refused(base: str) -> None:
    """Each fragment of the catalogue laid over a preset: where the simulator accepts the
    variant, it plays the engine's games."""
    accepted = 0
    for fid in sorted(fragment_catalogue()):
        try:
            v = build_variant(base, [fid], where="test")
        except VariantError:
            continue  # needs another fragment, or conflicts with the preset
        if not supports(v):
            continue
        accepted += 1
        players = max(3, v.min_players)
        assert_same_game(v, players, 0, "random", max_turns=150)
        assert_same_game(v, players, 1, "playful", max_turns=150)
        assert_same_game(v, players, 2, "greedy", max_turns=150)
    assert accepted >= 10


# -- what the simulator cannot play ---------------------------------------------------


def test_unknown_power_is_not_supported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A power registered later (here a made-up one) makes supports() False, and play()
    falls back to the engine."""
    monkeypatch.setitem(powers.POWERS, "t-made-up", lambda rules, params, fid: None)
    monkeypatch.setitem(powers.SIGNATURES, "t-made-up", (frozenset({"rank"}), frozenset(), "test"))
    frag = _frag("t-made-up", "J", {"power": "t-made-up", "rank": "J"})
    v = build_variant("pagat", [frag], where="test")
    assert "t-made-up" in v.powers_used
    assert not supports(v)
    assert sim.unsupported_powers(v) == {"t-made-up"}
    with pytest.raises(SimUnsupported, match="t-made-up"):
        simulate(v, 4, 0)
    with pytest.raises(SimUnsupported):
        simulate_many(v, 4, range(3))
    g = play_game(v, 3, 5, [RandomBot() for _ in range(3)], max_turns=200)
    assert sim.play(v, 3, 5, max_turns=200, record=True) == SimResult.from_game(g)


def test_powers_used_beyond_the_list_is_not_supported() -> None:
    v = load_variant("pagat")
    assert supports(v) and supports("lancaster")
    odd = dataclasses.replace(v, powers_used=v.powers_used | {"t-made-up"})
    assert not supports(odd)
    assert sim.play(odd, 4, 1, max_turns=100).turns == play_game(v, 4, 1, max_turns=100).turns


def test_unknown_bots() -> None:
    class Sly(RandomBot):
        pass

    with pytest.raises(SimUnsupported):
        simulate("pagat", 2, 0, [Sly(), RandomBot()])
    with pytest.raises(TutorError, match="not a bot"):
        simulate("pagat", 2, 0, "clever")
    with pytest.raises(TutorError, match="3 players need 3 bots"):
        simulate("pagat", 3, 0, ["random", "greedy"])
    g = play_game("pagat", 2, 3, [Sly(), RandomBot()], max_turns=200)
    assert sim.play("pagat", 2, 3, [Sly(), RandomBot()], max_turns=200, record=True) == SimResult.from_game(g)


# -- the simulator's own checks --------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_card_created_or_lost(players: int) -> None:
    """After every move: the same cards in all, and every incremental count right."""
    for variant in ("pagat", "lancaster"):
        for seed in range(12):
            simulate(variant, players, seed, "random", audit=True, max_turns=300)
        for seed in range(8):
            simulate(variant, players, seed, "greedy", audit=True)
    for seed in range(4):
        simulate(_exotic_b(), players, seed, "random", audit=True, max_turns=300)


def test_audit_notices_a_lost_card() -> None:
    C = sim._code(1)
    hand = C.encode([0, 5, 9])
    total = C.encode([0, 5, 9, 20])
    with pytest.raises(AssertionError, match="cards changed"):
        sim._audit(C, total, [hand], [3], [C.subs(hand)], [[]], [[]], [], 0, 0, 0, 0)
    with pytest.raises(AssertionError, match="hand holds"):
        sim._audit(C, total, [hand], [4], [C.subs(hand)], [[]], [[20]], [], 0, 0, 0, 0)


def test_many_equals_one_by_one_and_is_seeded() -> None:
    many = simulate_many("lancaster", 3, range(5))
    assert many == [simulate("lancaster", 3, s) for s in range(5)]
    assert [r.seed for r in many] == list(range(5))


def test_result_moves() -> None:
    r = simulate("pagat", 3, 2, "greedy", record=True)
    assert r.loser is not None and r.loser in r.names and r.winner is None
    assert len(r.moves) == r.turns == len(r.move_strings())
    assert {m.kind for _, m in r.moves} <= {"play", "pickup", "flip"}
    with pytest.raises(TutorError, match="record=True"):
        simulate("pagat", 3, 2).moves  # noqa: B018


def _engine_play_on(v: Variant, table: Table, max_turns: int = 4000) -> tuple[int | None, list[str]]:
    """Greedy bots on from a mid-game table through the engine (no opening rule)."""
    bot, rng, turns = GreedyBot(), random.Random(0), 0
    seen: dict[tuple[object, ...], int] = {}
    out: list[str] = []
    while not game_over(table, v):
        if turns >= max_turns:
            return None, out
        turns += 1
        move = bot.choose(table, v, legal_moves(table, v), rng)
        after, events = apply_unchecked(table, v, move)
        out += [p.name for s, p in enumerate(after.players) if p.out and not table.players[s].out]
        table = after
        if "pickup" in events:
            key = position_key(table)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] >= 3:
                return None, out
    return turns, out


@pytest.mark.parametrize("variant", ["pagat", "lancaster", "smeghead"])
@pytest.mark.parametrize("players", [2, 4])
def test_play_on_from_the_middle_of_a_game(variant: str, players: int) -> None:
    """``play_on`` finishes a mid-game table as greedy engine bots would, with no opening rule."""
    v = load_variant(variant)
    for seed in range(12):
        g = play_game(v, players, seed, [GreedyBot() for _ in range(players)], max_turns=600)
        for cut in (1, 9, len(g.moves) // 2):
            if cut >= len(g.moves):
                continue
            before = g.start
            for _, m, _ in g.moves[:cut]:
                before, _ = apply_unchecked(before, v, m)
            turns, out = _engine_play_on(v, before)
            r = sim.play_on(v, before, seed)
            assert r.stalled == (turns is None), (seed, cut)
            assert list(r.out_order) == out, (seed, cut)
            if turns is not None:
                assert r.turns == turns


def test_play_on_refuses_what_it_cannot_play() -> None:
    v = load_variant("karma")
    t = play_game(v, 3, 1, [GreedyBot() for _ in range(3)], max_turns=5).start
    with pytest.raises(SimUnsupported):
        sim.play_on(v, t, 0)
