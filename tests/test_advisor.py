"""The advisor: what it may see, that its numbers are honest, and what it says.

Budgets are iteration counts (never time), so every hint here is deterministic.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from tutor.advisor import KnownCards, grade, hint, observe
from tutor.advisor.determinize import Determinizer, consistent
from tutor.advisor.ismcts import ISMCTS
from tutor.cli import main
from tutor.core.cards import UNKNOWN, parse_card
from tutor.core.errors import TableError
from tutor.core.moves import Move
from tutor.core.table import Table, table_from_dict
from tutor.engine import apply_unchecked, game_over, legal_moves
from tutor.play.game import GreedyBot, arrange, deal, start
from tutor.rules.variant import load_variant


def _table(data: dict[str, object], variant: str = "pagat") -> Table:
    v = load_variant(variant)
    return table_from_dict(data, decks=v.decks_for(len(data["players"])), jokers_per_deck=v.jokers)  # type: ignore[arg-type]


def _midgame(variant: str, players: int, seed: int, plies: int) -> tuple[Table, KnownCards]:
    """A greedy game stopped after ``plies`` moves, with the cards seen going into hands."""
    v = load_variant(variant)
    t = start(arrange(deal(v, players, seed), v), v)
    known = KnownCards(players)
    rng = random.Random(seed)
    bot = GreedyBot()
    for _ in range(plies):
        moves = legal_moves(t, v)
        if not moves:
            break
        m = bot.choose(t, v, moves, rng)
        after, events = apply_unchecked(t, v, m)
        known.update(t, m, after, events)
        t = after
    return t, known


def _redeal_hidden(t: Table, seat: int, known: KnownCards, seed: int) -> Table:
    """The same position for ``seat``, with every card it cannot see dealt differently."""
    seen = known.hands()
    hidden: list[int] = list(t.stock)
    for i, p in enumerate(t.players):
        hidden += p.face_down
        if i != seat:
            hidden += list((Counter(p.hand) - Counter(seen.get(i, ()))).elements())
    random.Random(seed).shuffle(hidden)
    k = 0
    players = []
    for i, p in enumerate(t.players):
        hand = p.hand
        if i != seat:
            n = len(p.hand) - len(seen.get(i, ()))
            hand = tuple(sorted(seen.get(i, ()) + tuple(hidden[k:k + n])))
            k += n
        down = tuple(hidden[k:k + len(p.face_down)])
        k += len(p.face_down)
        players.append(replace(p, hand=hand, face_down=down))
    return replace(t, players=tuple(players), stock=tuple(hidden[k:]))


# -- what the player may know ---------------------------------------------------


def test_the_view_hides_face_down_cards_the_stock_and_unseen_hand_cards() -> None:
    t = _table({"players": [{"name": "A", "hand": ["7H", "9C"], "face_up": ["KS"], "face_down": ["2C", "3C"]},
                            {"name": "B", "hand": ["QH", "JC", "JD"], "face_up": [], "face_down": 1}],
                "pile": [["5D"]], "stock": ["AS", "AH"], "turn": "A"})
    b = t.players[1]
    t = t.with_player(1, replace(b, hand=(parse_card("QH"), UNKNOWN, UNKNOWN)))  # one card seen of three
    view = observe(t)
    assert view.me.hand_known == tuple(sorted((parse_card("7H"), parse_card("9C"))))
    assert view.me.face_down == 2 and view.stock == 2
    assert view.seats[1].hand_known == (parse_card("QH"),)  # listed in the file: seen
    assert view.seats[1].hand_size == 3
    pool = view.unknown_pool(load_variant("pagat"))
    assert parse_card("2C") in pool and parse_card("AS") in pool  # unseen, even though listed
    assert parse_card("QH") not in pool and parse_card("5D") not in pool


def test_advice_needs_the_hand_of_the_player_to_move() -> None:
    t = _table({"players": [{"name": "A", "hand": 3}, {"name": "B", "hand": 3}], "turn": "A"})
    with pytest.raises(TableError):
        observe(t)


def test_a_pickup_is_public_and_a_played_card_leaves_the_known_hand() -> None:
    v = load_variant("pagat")
    t = _table({"players": [{"name": "A", "hand": ["3C", "4D"]}, {"name": "B", "hand": ["5C", "6C"]}],
                "pile": [["KS"], ["AH"]], "turn": "A"})
    known = KnownCards(2)
    after, events = apply_unchecked(t, v, Move.parse("pickup"))
    known.update(t, Move.parse("pickup"), after, events)
    assert Counter(known.hands()[0]) == Counter(map(parse_card, ["KS", "AH"]))
    after2, events2 = apply_unchecked(after, v, Move.parse("play 5C"))
    known.update(after, Move.parse("play 5C"), after2, events2)
    after3, events3 = apply_unchecked(after2, v, Move.parse("play AH"))
    known.update(after2, Move.parse("play AH"), after3, events3)
    assert known.hands()[0] == (parse_card("KS"),)
    assert observe(after3, 1, known).seats[0].hand_known == (parse_card("KS"),)


def test_determinisations_agree_with_the_view() -> None:
    v = load_variant("lancaster")
    t, known = _midgame("lancaster", 4, 11, 30)
    view = observe(t, t.turn, known)
    d = Determinizer(view, v)
    rng = random.Random(0)
    for _ in range(50):
        deal_ = d.deal(rng)
        assert consistent(view, deal_, v)
        assert Counter(deal_.all_cards()) - Counter(t.all_cards()) == Counter()  # no card from nowhere
        assert UNKNOWN not in deal_.all_cards()


def test_same_view_with_the_hidden_cards_dealt_differently_gives_the_same_hint() -> None:
    for variant, seed, plies in (("pagat", 3, 25), ("lancaster", 5, 40)):
        t, known = _midgame(variant, 4, seed, plies)
        other = _redeal_hidden(t, t.turn, known, seed=99)
        assert other != t
        assert observe(other, other.turn, known) == observe(t, t.turn, known)
        a = hint(t, variant, iterations=300, seed=7, seen=known).to_json()
        b = hint(other, variant, iterations=300, seed=7, seen=known).to_json()
        a.pop("seconds")
        b.pop("seconds")
        assert a == b


def test_the_same_seed_gives_the_same_hint() -> None:
    t, known = _midgame("pagat", 3, 8, 12)
    a = hint(t, "pagat", iterations=200, seed=3, seen=known).to_json()
    b = hint(t, "pagat", iterations=200, seed=3, seen=known).to_json()
    a.pop("seconds")
    b.pop("seconds")
    assert a == b


# -- calibration on positions whose answer is known ---------------------------------------


def test_a_burn_that_goes_out_wins_at_once_and_picking_up_instead_is_a_blunder() -> None:
    t = _table({"players": [{"name": "A", "hand": ["10H"]}, {"name": "B", "hand": 1}],
                "pile": [["KS"]], "turn": "A"})
    h = hint(t, "pagat", iterations=300, seed=1)
    assert str(h.best) == "play 10H"
    best = h.moves[0]
    assert best.score == 1.0 and best.low > 0.9
    assert "burns the pile" in best.why and "out" in best.why
    pickup = h.advice_for("pickup")
    assert pickup is not None and pickup.score < 0.05
    g = grade(h, "pickup")
    assert g.label == "blunder" and g.drop > 0.9
    assert grade(h, "play 10H").label == "best"
    assert not h.close and "better than the runner-up" in h.verdict


def test_a_forced_pickup_before_the_opponent_goes_out_is_scored_as_lost() -> None:
    t = _table({"players": [{"name": "A", "hand": ["3C", "4D"], "face_up": ["5C"]},
                            {"name": "B", "hand": ["AS"]}],
                "pile": [["KS"]], "stock": 0, "turn": "A"}, "lancaster")
    h = hint(t, "lancaster", iterations=200, seed=1)
    assert [str(a.move) for a in h.moves] == ["pickup"]
    assert h.moves[0].score < 0.02 and h.moves[0].high < 0.1
    assert "only legal move" in h.verdict


def test_a_blind_flip_is_scored_at_its_true_chance() -> None:
    # Every card but AS and 3C is burned: A's face-down card is one of them, B holds the other.
    # AS goes on the king and A is out (B loses); 3C does not, A takes the pile and B goes out.
    rest = [c for c in range(52) if c not in (parse_card("AS"), parse_card("3C"), parse_card("KH"))]
    from tutor.core.cards import card_str

    t = _table({"players": [{"name": "A", "hand": [], "face_up": [], "face_down": 1},
                            {"name": "B", "hand": 1}],
                "pile": [["KH"]], "burned": [card_str(c) for c in rest], "turn": "A"})
    h = hint(t, "pagat", iterations=800, seed=2)
    flip = h.moves[0]
    assert str(flip.move) == "flip 1"
    assert flip.low < 0.5 < flip.high
    assert abs(flip.score - 0.5) < 0.06
    assert "50%" in flip.why  # the chance that the flip goes, from the unseen cards


# -- what it says ------------------------------------------------------------------------


def test_a_nine_against_a_player_with_one_card_says_what_it_forces() -> None:
    t = _table({"players": [{"name": "A", "hand": ["9C", "KD", "4S", "5S"], "face_up": ["QC"], "face_down": 1},
                            {"name": "B", "hand": 1}],
                "pile": [["7H"]], "stock": 0, "turn": "A"}, "lancaster")
    h = hint(t, "lancaster", iterations=300, seed=1)
    nine = h.advice_for("play 9C")
    assert nine is not None
    assert "B has one card left; this 9 forces anything B plays to be a 9 or lower" in nine.why
    assert h.steps and len(h.steps) == 3 and str(h.best).lower() in h.steps[1].lower()


def test_equal_ranks_are_one_choice_and_listed_as_equivalent() -> None:
    t = _table({"players": [{"name": "A", "hand": ["7H", "7S", "KD"]}, {"name": "B", "hand": 3}],
                "pile": [["5D"]], "turn": "A"})
    h = hint(t, "pagat", iterations=200, seed=1)
    seven = h.advice_for("play 7S")
    assert seven is not None and {str(seven.move), *map(str, seven.equivalent)} == {"play 7H", "play 7S"}
    data = json.loads(json.dumps(h.to_json()))
    assert data["best"] == data["moves"][0]["move"]
    scores = [m["score"] for m in data["moves"]]
    assert all(m["low"] <= m["score"] <= m["high"] for m in data["moves"])
    assert scores == sorted(scores, reverse=True) or data["moves"][-1]["simulations"] < 8


@pytest.mark.parametrize("variant,players", [("pagat", 2), ("pagat", 5), ("lancaster", 3), ("lancaster", 6),
                                             ("pagat+goal-winner", 4)])
def test_every_player_count_and_variant_gets_a_legal_best_move(variant: str, players: int) -> None:
    v = load_variant(variant)
    t, known = _midgame(variant, players, 21, 3 * players)
    h = hint(t, v, iterations=60, seed=0, seen=known)
    assert h.best in legal_moves(t, v)
    assert h.simulations == 60
    assert sum(a.simulations for a in h.moves) == 60
    assert h.goal == v.goal


def test_setup_hints_work() -> None:
    v = load_variant("pagat")
    t = deal(v, 3, 4)
    h = hint(t, v, iterations=40, seed=0, seen={})
    assert h.best in legal_moves(t, v)


def test_the_search_is_anytime_and_reports_progress() -> None:
    t, known = _midgame("pagat", 4, 2, 20)
    search = ISMCTS(observe(t, t.turn, known), load_variant("pagat"), seed=1)
    seen: list[float] = []
    search.run(iterations=100, batch=25, progress=lambda p: seen.append(p.fraction))
    assert seen == [0.25, 0.5, 0.75, 1.0]
    search.run(iterations=50)
    assert search.iterations == 150 and search.root.visits == 150


# -- the command ------------------------------------------------------------------------


def test_tutor_hint_json(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.yaml"
    f.write_text("players:\n  - {name: A, hand: [10H, 4C], face_up: [KS], face_down: 1}\n"
                 "  - {name: B, hand: 3, face_up: [5C], face_down: 1}\npile: [[AS]]\nturn: A\n")
    assert main(["hint", "--table", str(f), "--iterations", "150", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"best", "simulations", "moves"}
    assert out["simulations"] == 150
    assert out["best"] == out["moves"][0]["move"]
    for m in out["moves"]:
        assert set(m) >= {"move", "score", "low", "high", "simulations", "why"}
        assert 0 <= m["low"] <= m["score"] <= m["high"] <= 1


@pytest.mark.parametrize("args,text", [
    (["--table", "missing.yaml"], "cannot read"),
    (["--iterations", "0"], "--iterations"),
    (["--seconds", "-2"], "--seconds"),
])
def test_tutor_hint_bad_input_exits_2_with_one_line(tmp_path, capsys, args, text) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.yaml"
    f.write_text("players:\n  - {name: A, hand: 2}\n  - {name: B, hand: 3}\nturn: A\n")
    full = ["hint", "--table", str(f), *args] if args[0] != "--table" else ["hint", *args]
    assert main(full) == 2
    err = capsys.readouterr().err
    assert text in err and err.count("\n") == 1 and "Traceback" not in err


def test_tutor_hint_unlisted_own_hand_exits_2(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.yaml"
    f.write_text("players:\n  - {name: A, hand: 2}\n  - {name: B, hand: 3}\nturn: A\n")
    assert main(["hint", "--table", str(f), "--iterations", "10"]) == 2
    assert "list the cards" in capsys.readouterr().err


@pytest.mark.parametrize("variant", ["pagat", "lancaster", "karma", "bluff"])
def test_the_greedy_bot_acts_on_the_position_as_it_chooses_from_the_list(variant: str) -> None:
    from tutor.engine import position
    from tutor.play.game import play_game

    v = load_variant(variant)
    bot = GreedyBot()
    checked = []

    def on_move(before: Table, move: Move, after: Table, events: list[str]) -> None:
        pos = position(before, v)
        played, acted = bot.act(pos, random.Random(0))  # reads the play counts where it can
        want = bot.choose(before, v, legal_moves(before, v), random.Random(0))
        if isinstance(played, Move):
            assert played == want, (before, played)
        else:
            assert (want.kind == "pickup" and played is None) or want.cards == played, (before, played, want)
        assert pos.snapshot() == apply_unchecked(before, v, want)[0]
        checked.append(played)

    for seed in range(6):
        play_game(v, 3, seed, [GreedyBot() for _ in range(3)], on_move=on_move)
    assert len(checked) > 100


def _presets() -> list[str]:
    from tutor.rules.variant import preset_catalogue

    return sorted(preset_catalogue())


@pytest.mark.parametrize("preset", _presets())
def test_every_preset_gets_a_hint_and_the_seen_cards_stay_true(preset: str) -> None:
    v = load_variant(preset)
    n = max(v.min_players, min(3, v.max_players))
    t = start(arrange(deal(v, n, 7), v), v)
    known = KnownCards(n)
    rng = random.Random(0)
    bot = GreedyBot()
    for _ in range(25):
        moves = legal_moves(t, v)
        if not moves:
            break
        m = bot.choose(t, v, moves, rng)
        after, events = apply_unchecked(t, v, m)
        known.update(t, m, after, events)
        t = after
        for s, cards in known.hands().items():  # the tracker never claims a card that is not there
            assert not Counter(cards) - Counter(t.players[s].hand), (preset, s, m)
    if legal_moves(t, v):
        h = hint(t, v, iterations=30, seed=0, seen=known)
        assert h.best in legal_moves(t, v)
        assert all(a.why for a in h.moves)


def test_cards_laid_face_down_with_a_claim_are_unseen() -> None:
    v = load_variant("bluff")
    t = _table({"players": [{"name": "A", "hand": ["7H", "9C", "KD"]}, {"name": "B", "hand": 3}],
                "pile": [{"by": "B", "cards": ["4S"], "claim": "Q"}], "turn": "A"}, "bluff")
    view = observe(t, 0, variant=v)
    assert view.pile[0].cards == (UNKNOWN,) and view.pile_unknown == 1
    assert parse_card("4S") in view.unknown_pool(v)
    other = replace(t, pile=(replace(t.pile[0], cards=(parse_card("QS"),)),))
    a = hint(t, v, iterations=120, seed=4).to_json()
    b = hint(other, v, iterations=120, seed=4).to_json()
    a.pop("seconds")
    b.pop("seconds")
    assert a == b


# -- the rollouts and the early stop -----------------------------------------------------


def test_the_endgame_rollout_plays_two_players_out_to_the_true_end() -> None:
    from tutor.advisor.rollout import PolicyRollout, SimRollout

    # No stock, two players: A burns the pile with the 10, leads the 4 and is out; B loses.
    t = _table({"players": [{"name": "A", "hand": ["10H", "4C"]}, {"name": "B", "hand": ["5S", "6S", "7S"]}],
                "pile": [["QD"], ["KH"], ["AS"]], "turn": "A"})
    v = load_variant("pagat")
    roll = SimRollout(endgame_only=True)
    assert roll(t, v, random.Random(1)) == [1.0, 0.0]
    # before the endgame (a stock) it is the capped rollout with its evaluation
    mid, _ = _midgame("pagat", 4, 3, 20)
    assert mid.stock
    assert roll(mid, v, random.Random(5)) == PolicyRollout()(mid, v, random.Random(5))


def test_the_sim_rollout_agrees_with_the_engine_and_falls_back_where_it_cannot_play() -> None:
    from tutor.advisor.rollout import SimRollout
    from tutor.play.game import play_game

    v = load_variant("pagat")
    for seed in range(5):
        t, _ = _midgame("pagat", 3, seed, 25)
        rewards = SimRollout()(t, v, random.Random(0))
        # the greedy engine bots from the same table
        table = t
        while not game_over(table, v):
            table, _ = apply_unchecked(table, v, GreedyBot().choose(table, v, legal_moves(table, v), random.Random(0)))
        assert rewards == [0.0 if not p.out else 1.0 for p in table.players]
    # cut after 12 moves: the evaluation of the table the engine's greedy bots reach in 12 moves
    # (or the outcome, where the game ends first or two players are left without a stock;
    # first out wins in a goal-winner game)
    from tutor.advisor.evaluate import evaluate

    for spec in ("pagat", "pagat+goal-winner"):
        w = load_variant(spec)
        for seed in range(6):
            t, _ = _midgame(spec, 4, seed, 10 + 8 * seed)
            table, n = t, 0
            while not game_over(table, w) and (n < 12 or (not table.stock and
                                                          sum(not p.out for p in table.players) <= 2)):
                table, _ = apply_unchecked(table, w, GreedyBot().choose(table, w, legal_moves(table, w),
                                                                         random.Random(0)))
                n += 1
            assert SimRollout(cut=12)(t, w, random.Random(0)) == pytest.approx(evaluate(table, w)), (spec, seed)
    # every variant plays through the one runner: karma's face-up stacks too
    karma = load_variant("karma")
    g = play_game(karma, 3, 1, [GreedyBot() for _ in range(3)], max_turns=30)
    assert g.final is not None
    table = g.final
    while not game_over(table, karma):
        table, _ = apply_unchecked(table, karma, GreedyBot().choose(table, karma, legal_moves(table, karma),
                                                                   random.Random(0)))
    assert SimRollout()(g.final, karma, random.Random(2)) == [0.0 if not p.out else 1.0 for p in table.players]


def test_the_search_stops_early_once_the_choice_is_clear_and_not_before() -> None:
    # A burn that goes out: after the least simulations the burn is certain and the pickup hopeless.
    t = _table({"players": [{"name": "A", "hand": ["10H", "4C"]}, {"name": "B", "hand": 1}],
                "pile": [["KS"]], "turn": "A"})
    v = load_variant("pagat")
    s = ISMCTS(observe(t, 0, {}, v), v, seed=1).run(iterations=3000, until_decided=True)
    assert s.decided() and 96 <= s.iterations < 600
    assert s.stats()[0].moves[0] == Move.parse("play 10H")
    # a coin flip between two alike choices is never decided
    t2, _ = _midgame("pagat", 4, 11, 30)
    s2 = ISMCTS(observe(t2, t2.turn, {}, v), v, seed=1)
    if len(s2.root_moves) > 1:
        s2.run(iterations=200, until_decided=True)
        stats = s2.stats()
        if s2.iterations < 200:  # it stopped: every other choice is far behind
            assert all(stats[0].mean - x.mean > 0.05 for x in stats[1:])
    # one choice needs no search
    t3 = _table({"players": [{"name": "A", "hand": ["4C", "4D"]}, {"name": "B", "hand": 1}],
                 "pile": [["KS"]], "turn": "A"})
    assert ISMCTS(observe(t3, 0, {}, v), v).decided()
    # without until_decided the whole budget is spent, deterministically
    a = ISMCTS(observe(t, 0, {}, v), v, seed=4).run(iterations=300)
    b = ISMCTS(observe(t, 0, {}, v), v, seed=4).run(iterations=300)
    assert a.iterations == 300 and a.stats() == b.stats()


def test_the_advisor_bot_skips_the_search_when_there_is_one_choice() -> None:
    from tutor.advisor import AdvisorBot

    v = load_variant("pagat")
    t = _table({"players": [{"name": "A", "hand": [], "face_up": [], "face_down": 3}, {"name": "B", "hand": 2}],
                "pile": [["KS"]], "turn": "A"})
    bot = AdvisorBot(iterations=200)
    m = bot.choose(t, v, legal_moves(t, v), random.Random(0))
    assert m.kind == "flip" and bot.searches == 0 and bot.simulations == 0


def test_the_advisor_bot_leaves_a_circle_by_trying_other_moves() -> None:
    from tutor.advisor import AdvisorBot
    from tutor.advisor.ismcts import move_key

    v = load_variant("pagat")
    t = _table({"players": [{"name": "A", "hand": ["4C", "6D", "9H"]}, {"name": "B", "hand": 3}],
                "pile": [["3S"]], "turn": "A"})
    moves = legal_moves(t, v)
    wide = AdvisorBot(iterations=100, loop_margin=1.0)
    keys = [move_key(wide.choose(t, v, moves, random.Random(0))) for _ in range(3)]
    assert len(set(keys)) == 3  # each time the same view comes round, another choice
    stubborn = AdvisorBot(iterations=100, loop_margin=0.0)
    assert len({move_key(stubborn.choose(t, v, moves, random.Random(0))) for _ in range(3)}) == 1


# -- positions after pickups: the advisor leaves a circle -----------------------------------


def _greedy_pickup(variant: str, players: int, seed: int) -> tuple[list[tuple[Table, Table, list[str]]], int, int]:
    """A greedy game's moves as (before, after, events), and the index of a pickup made by a
    seat other than the first, at least four moves after move ``i`` (returned too)."""
    from tutor.play.game import play_game

    v = load_variant(variant)
    steps: list[tuple[Table, Table, list[str]]] = []
    play_game(v, players, seed, [GreedyBot() for _ in range(players)],
              on_move=lambda b, m, a, e: steps.append((b, a, list(e))))
    j = next(j for j, (b, a, e) in enumerate(steps) if "pickup" in e and j >= 12)
    return steps, j - 4, j


def test_the_tracker_remembers_each_seat_s_positions_after_pickups_as_that_seat_knows_them() -> None:
    from tutor.play.game import play_game, seat_key

    v = load_variant("pagat")
    known = KnownCards(3)
    pickups: list[Table] = []

    def on_move(before, move, after, events):  # type: ignore[no-untyped-def]
        known.update(before, move, after, events)
        if "pickup" in events:
            pickups.append(after)

    play_game(v, 3, 4, [GreedyBot() for _ in range(3)], on_move=on_move)
    assert pickups
    for seat in range(3):
        assert known.loops(seat) == {seat_key(t, seat) for t in pickups}
        # a seat's keys hold its own hand and nobody else's
        for key in known.loops(seat):
            assert key[0] in {tuple(sorted(t.players[seat].hand)) for t in pickups}
    assert known.copy().loops(1) == known.loops(1)
    # the view carries them; a mapping of seen cards (a table file) has no history
    t = pickups[-1]
    assert observe(t, 0, known, v).loops == known.loops(0)
    assert observe(t, 0, known.hands(), v).loops == frozenset()


def test_the_runner_stops_at_a_pickup_into_a_position_to_avoid() -> None:
    from tutor.play.game import play_from, seat_key

    v = load_variant("pagat")
    steps, i, j = _greedy_pickup("pagat", 3, 2)
    start_t, target = steps[i][0], steps[j][1]
    seat = 0
    bots = [GreedyBot() for _ in range(3)]
    plain = play_from(v, start_t, 5, bots)
    avoided = play_from(v, start_t, 5, bots, avoid=(seat, frozenset({seat_key(target, seat)})))
    assert avoided.looped and avoided.stalled and avoided.loser is None
    assert avoided.turns == j - i + 1
    assert not plain.looped
    # a key that never comes up changes nothing; nor does an empty set
    other = play_from(v, start_t, 5, bots, avoid=(seat, frozenset({("nothing",)})))
    assert (other.loser, other.turns, other.looped) == (plain.loser, plain.turns, False)
    assert play_from(v, start_t, 5, bots, avoid=(seat, frozenset())).turns == plain.turns


@pytest.mark.parametrize("kind", ["sim", "policy"])
def test_a_rollout_that_picks_up_into_a_known_position_scores_as_lost(kind: str) -> None:
    from tutor.advisor.rollout import PolicyRollout, SimRollout, loop_rewards
    from tutor.play.game import seat_key

    v = load_variant("pagat")
    steps, i, j = _greedy_pickup("pagat", 3, 2)
    start_t, target = steps[i][0], steps[j][1]
    roll = SimRollout(cut=12) if kind == "sim" else PolicyRollout(GreedyBot(), cap=12)
    assert loop_rewards(3, 1) == [1.0, 0.0, 1.0]
    for seat in range(3):
        assert roll(start_t, v, random.Random(0), (seat, frozenset({seat_key(target, seat)}))) == loop_rewards(3, seat)
    plain = roll(start_t, v, random.Random(0))
    assert roll(start_t, v, random.Random(0), (0, frozenset({("nothing",)}))) == plain


def test_the_search_scores_a_pickup_back_into_a_known_position_as_lost_and_says_so() -> None:
    # Two players, no stock: A may play on the 8 or (pagat) pick the pile up. Once the
    # table after that pickup is a position A has been in, the pickup scores nothing.
    from tutor.play.game import seat_key

    v = load_variant("pagat")
    t = _table({"players": [{"name": "A", "hand": ["9C", "KD", "4H", "6S"], "face_up": ["QC", "3D"], "face_down": 2},
                            {"name": "B", "hand": 4, "face_up": ["JS", "5C"], "face_down": 2}],
                "pile": [["8H"]], "turn": "A"})
    pickup = Move.parse("pickup")
    after, _ = apply_unchecked(t, v, pickup)
    fresh = hint(observe(t, 0, {}, v), v, iterations=300, seed=3)
    circle = hint(replace(observe(t, 0, {}, v), loops=frozenset({seat_key(after, 0)})), v, iterations=300, seed=3)
    before = next(a for a in fresh.moves if a.move == pickup)
    looped = next(a for a in circle.moves if a.move == pickup)
    assert before.score > 0 and looped.score == 0.0
    assert "goes round in a circle" in looped.why and "circle" not in before.why
    assert circle.moves[0].move != pickup


def test_a_deal_at_the_opening_keeps_the_player_to_move_the_leader() -> None:
    # Lancaster, 2 players, deal 1001: B leads with 3C 3H; a deal that gives A a lower lead (3D)
    # contradicts what B sees (B is to move), and the search's rollout found no move there (IndexError)
    v = load_variant("lancaster")
    t = table_from_dict({"players": [{"name": "A", "hand": 4, "face_up": ["2H", "8S", "9H", "10D"], "face_down": 4},
                                     {"name": "B", "hand": ["3C", "3H", "4C", "6D"],
                                      "face_up": ["6C", "6S", "KH", "9D"], "face_down": 4}],
                         "stock": 24, "turn": "B", "phase": "opening"}, decks=1)
    view = observe(t, 1, {}, v)
    d = Determinizer(view, v)
    rng = random.Random(5)
    deals = [d.deal(rng) for _ in range(200)]
    assert all(legal_moves(x, v) for x in deals)
    raw = [d._deal(rng) for _ in range(200)]  # without the check, some deals give A the lead
    assert any(not legal_moves(x, v) for x in raw)
    h = hint(t, v, iterations=300, seed=1)
    assert h.best is not None


@pytest.mark.parametrize("variant", ["pagat", "karma", "bluff"])
def test_the_search_on_positions_deals_and_rolls_out_as_on_tables(variant: str) -> None:
    """The search deals straight into a position and rolls out on it: the same deal, and the
    same rewards, as dealing a table and rolling out from it with the same draws."""
    from tutor.advisor.rollout import PolicyRollout, SimRollout
    from tutor.engine import position

    v = load_variant(variant)
    for seed in (1, 2, 3):
        t, known = _midgame(variant, 4, seed, 20)
        if game_over(t, v):
            continue
        det = Determinizer(observe(t, seen=known, variant=v), v)
        for k in range(4):
            dealt = det.deal(random.Random(k))
            pos = det.deal_position(random.Random(k))
            assert pos.snapshot() == dealt
            for rollout in (SimRollout(cut=12), SimRollout(), PolicyRollout()):
                on_table = rollout(dealt, v, random.Random(k))
                assert rollout.on_position(position(dealt, v), random.Random(k)) == on_table
            assert pos.snapshot() == dealt  # (rolled out on copies)


@pytest.mark.parametrize("variant", ["pagat", "lancaster", "karma", "garfield", "nortenos"])
def test_the_search_lists_one_play_of_each_kind_where_suits_do_not_matter(variant: str) -> None:
    """Where suits do not matter the search lists the plays of equal cards once per rank and
    number of cards (``moves(alike=True)``): the same choices, each with the same first move,
    in the same order, as the whole listing."""
    from tutor.advisor.ismcts import move_key, suit_blind
    from tutor.engine import position
    from tutor.play.game import RandomBot, play_game

    def choices(moves: list[Move]) -> list[tuple[object, Move]]:
        first: dict[object, Move] = {}
        for m in moves:
            first.setdefault(move_key(m), m)
        return list(first.items())

    v = load_variant(variant)
    assert suit_blind(v)
    fewer = 0
    for seed in range(3):
        g = play_game(v, 4, seed, [RandomBot() for _ in range(4)])
        t = g.start
        for _, m, _ in g.moves:
            pos = position(t, v)
            alike, every = pos.moves(alike=True), pos.moves()
            assert choices(alike) == choices(every)
            fewer += len(alike) < len(every)
            t, _ = apply_unchecked(t, v, m)
    assert fewer > 10


@pytest.mark.parametrize("variant", ["pagat", "lancaster", "bluff"])
def test_a_rollout_is_handed_a_rebuild_of_where_it_starts(variant: str) -> None:
    """A rollout keeps no copy of where it started (only a stalled one is scored by it): the
    search hands it a rebuild, the deal dealt again with the tree's moves pushed on it, and
    that is the position the rollout was given."""
    from tutor.advisor.rollout import SimRollout

    class Checked(SimRollout):
        __slots__ = ("seen",)

        def on_position(self, pos, rng, avoid=None, start=None):  # type: ignore[no-untyped-def]
            assert start is not None
            was = pos.snapshot()
            rewards = super().on_position(pos, rng, avoid, start)
            assert start().snapshot() == was
            self.seen += 1
            return rewards

    v = load_variant(variant)
    t, known = _midgame(variant, 4, 3, 20)
    rollout = Checked(cut=12)
    rollout.seen = 0
    search = ISMCTS(observe(t, seen=known, variant=v), v, seed=2, rollout=rollout).run(iterations=60)
    plain = ISMCTS(observe(t, seen=known, variant=v), v, seed=2).run(iterations=60)
    assert rollout.seen > 30 and search.stats() == plain.stats()


@pytest.mark.parametrize(("variant", "players", "decks"), [("pagat", 4, None), ("pagat", 5, 2), ("karma", 3, None),
                                                           ("guarducci", 4, None), ("nortenos", 2, None)])
def test_the_evaluation_of_a_position_is_that_of_its_table(variant: str, players: int, decks: int | None) -> None:
    """The search's evaluation, read off the hands' codes (and kept by hand), gives the same
    numbers to the last bit as the evaluation of the position's table, and a fitted model's
    sense: a seat holding more than another, all else alike, is likelier to lose."""
    from tutor.advisor.evaluate import evaluate, evaluate_position, features
    from tutor.engine import position
    from tutor.play.game import RandomBot, play_game

    v = load_variant(variant)
    checked = 0
    for seed in range(4):
        g = play_game(v, players, seed, [RandomBot() for _ in range(players)], decks=decks)
        t = g.start
        for _, m, _ in g.moves:
            if not game_over(t, v):
                pos = position(t, v)
                assert evaluate_position(pos) == evaluate(t, v)
                assert evaluate_position(pos) == evaluate_position(pos)  # (the second time from the memo)
                checked += 1
            t, _ = apply_unchecked(t, v, m)
    assert checked > 100
    t = table_from_dict({"players": [{"name": "A", "hand": ["3C", "4D", "9S", "KH"]}, {"name": "B", "hand": ["3H"]}],
                         "pile": [["5S"]], "turn": "A"})
    assert features(t, v, 0)[0] == 4.0
    a, b = evaluate_position(position(t, v))
    assert a < b


def test_a_deal_draws_its_cards_as_sample_does() -> None:
    """The deal's inline draw (:func:`_sample_pooled`) is ``random.Random.sample`` on this
    Python wherever sample takes its pool method: the same seed, the same deal."""
    from tutor.advisor.determinize import _INLINE_SAMPLE, _draws, _pooled, _sample_pooled

    assert _INLINE_SAMPLE
    pool = list(range(3, 200, 3))
    for seed in range(20):
        for k in (7, 23, 40, len(pool)):
            assert _pooled(len(pool), k)
            assert _sample_pooled(random.Random(seed), pool, _draws(len(pool), k)) == random.Random(seed).sample(pool, k)
