"""Comparing variants (tutor.compare, ``tutor compare``): statistics checked by hand on rigged
games, the disagreement finder on the known pagat/Lancaster differences, the command line."""

from __future__ import annotations

import json
import os
import sys
import threading
import types
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tutor.cli import main
from tutor.compare import (
    EVENTS,
    LEGALITY,
    Disagreement,
    GameRecord,
    Job,
    Search,
    close_shared_pool,
    difference_grid,
    differing_fragments,
    engine_game,
    find_disagreements,
    judge_all,
    mean_difference,
    mean_interval,
    play_games,
    play_stats,
    proportion_difference,
    rotated_start,
    run_job,
    shared_pool,
    slot_rows,
    summarize,
    wilson,
)
from tutor.core.errors import CompareError
from tutor.core.moves import PICKUP, PLAY, Move
from tutor.core.share import decode_question
from tutor.core.table import Table, table_from_dict
from tutor.engine import check, effective_top
from tutor.play.game import GreedyBot, play_game
from tutor.rules.variant import Variant, load_variant

PAGAT, LANCASTER = load_variant("pagat"), load_variant("lancaster")
T = TypeVar("T")


def close(a: float, b: float, tol: float = 1e-3) -> bool:
    return abs(a - b) <= tol


# -- intervals, by hand ----------------------------------------------------------------


def test_wilson_interval_by_hand() -> None:
    # 5 of 10: centre 0.5, half-width 1.96 * sqrt(.025 + .0096) / 1.384 = 0.2634
    i = wilson(5, 10)
    assert (i.value, i.n) == (0.5, 10)
    assert close(i.low, 0.2366) and close(i.high, 0.7634)
    # 0 of 2: the interval runs from 0 to z² / (n + z²) = 3.8415 / 5.8415
    i = wilson(0, 2)
    assert i.low == 0.0 and close(i.high, 0.6576)
    assert wilson(0, 0).n == 0


def test_mean_interval_by_hand() -> None:
    # 1 2 3 4: mean 2.5, s = 1.2910, se = 0.6455, half-width 1.96 * 0.6455 = 1.2652
    i = mean_interval([1, 2, 3, 4])
    assert i.value == 2.5 and close(i.low, 1.2348) and close(i.high, 3.7652)
    assert mean_interval([]).n == 0


def test_differences_by_hand() -> None:
    a, b = mean_interval([1, 2, 3, 4]), mean_interval([3, 4, 5, 6])
    d = mean_difference(a, b)  # 2 ± 1.96 * sqrt(2) * 0.6455
    assert close(d.value, 2.0) and close(d.high - d.value, 1.7892)
    p = proportion_difference(wilson(5, 10), wilson(5, 10))  # Newcombe: ± sqrt(2) * 0.2634
    assert close(p.value, 0.0) and close(p.low, -0.3725) and close(p.high, 0.3725)


# -- rigged games: every figure worked out by hand ----------------------------------------------

# Pagat, two players, hands only, greedy bots. A: 5C 6C; B: 4D 10H KS.
#  1 A plays 5C (choice: 5 or 6)        A1 B3  A leads
#  2 B plays KS (choice: 10, K, pickup)  A1 B2
#  3 A must take the pile (no choice)    A3 B2  B leads: change 1
#  4 B plays 4D (choice: 4 or 10)        A3 B1
#  5 A plays 5C (choice)                 A2 B1
#  6 B takes the pile, keeping its 10 (choice: 10 or pickup)   A2 B3  A leads: change 2
#  7 A plays 6C (choice: 6 or K)         A1 B3
#  8 B takes the pile again (choice)     A1 B4
#  9 A plays KS, its last card (no choice): out, B is the shithead.
RIGGED_LONG = {"players": [{"name": "A", "hand": ["5C", "6C"]}, {"name": "B", "hand": ["4D", "10H", "KS"]}],
               "turn": "A"}
# A: 8C 10C; B: 9D KD; on the pile 6S 7S. A plays 8C, B plays 9D, A burns with 10C and is out.
RIGGED_BURN = {"players": [{"name": "A", "hand": ["8C", "10C"]}, {"name": "B", "hand": ["9D", "KD"]}],
               "pile": [["6S"], ["7S"]], "turn": "A"}


def _rigged(data: Mapping[str, Any]) -> GameRecord:
    table = table_from_dict(data)
    return engine_game(PAGAT, table, 0, [GreedyBot(), GreedyBot()], observe=True)


def test_rigged_games_give_the_figures_worked_out_by_hand() -> None:
    r = _rigged(RIGGED_LONG)
    assert (r.turns, r.pickups, r.burns, r.stalled, r.first, r.loser) == (9, 3, 0, False, 0, 1)
    assert (r.decisions, r.choices, r.lead_changes) == (9, 7, 2)
    r = _rigged(RIGGED_BURN)
    assert (r.turns, r.pickups, r.burns, r.first, r.loser) == (3, 0, 1, 0, 1)
    assert (r.decisions, r.choices, r.lead_changes) == (3, 3, 0)


def test_summary_of_rigged_games_by_hand() -> None:
    stalled = GameRecord(2, 4000, 900, 0, True, 1)
    s = summarize("pagat", 2, [_rigged(RIGGED_LONG), _rigged(RIGGED_BURN), stalled])
    m = s.metrics
    assert (s.games, s.finished, s.observed) == (3, 2, 2)
    # turns 9 and 3: mean 6, s = 4.2426, se = 3, half-width 5.8799 (the stalled game is left out)
    assert m["turns"].value == 6 and close(m["turns"].low, 0.1201) and close(m["turns"].high, 11.8799)
    # pickups 3 and 0: mean 1.5, se 1.5; burns 0 and 1: mean 0.5, se 0.5
    assert m["pickups"].value == 1.5 and close(m["pickups"].high, 4.4399)
    assert m["burns"].value == 0.5 and close(m["burns"].low, -0.4800)
    # the first player (A) never lost: 0 of 2; B lost both
    assert m["first_loses"].value == 0 and close(m["first_loses"].high, 0.6576)
    assert s.seat_loses[1].value == 1 and close(s.seat_loses[1].low, 0.3424)
    # one game of three stalled: Wilson centre 0.4269, half-width 0.3654
    assert close(m["stalled"].value, 1 / 3) and close(m["stalled"].low, 0.0615) and close(m["stalled"].high, 0.7924)
    # real choice 7/9 and 3/3 per game: mean 0.8889, se 0.1111
    assert close(m["real_choice"].value, 8 / 9) and close(m["real_choice"].low, 0.6711)
    # lead changes 2 and 0: mean 1, se 1
    assert m["lead_changes"].value == 1 and close(m["lead_changes"].low, -0.96)
    assert s.lengths == [9, 3]


# -- games: seats rotated, simulator and engine agree, chunking changes nothing --------------------


def test_rotation_zero_is_the_game_deal_and_rotation_moves_the_hands() -> None:
    assert rotated_start(PAGAT, 4, 5, 0) == play_game(PAGAT, 4, 5).start
    plain, turned = rotated_start(PAGAT, 4, 5, 0), rotated_start(PAGAT, 4, 5, 1)
    assert [p.name for p in turned.players] == ["A", "B", "C", "D"]
    assert turned.players[0].face_down == plain.players[1].face_down
    assert turned.players[3].face_down == plain.players[0].face_down


@pytest.mark.parametrize("v", [PAGAT, LANCASTER])
def test_the_fast_simulator_and_the_engine_play_the_same_rotated_games(v: Variant) -> None:
    fast = play_games(v, 3, 11, 0, 6, observe_below=0)
    slow = play_games(v, 3, 11, 0, 6, observe_below=6)
    assert [(r.turns, r.pickups, r.burns, r.loser, r.first, r.stalled) for r in fast] == \
           [(r.turns, r.pickups, r.burns, r.loser, r.first, r.stalled) for r in slow]
    assert all(r.observed for r in slow) and not any(r.observed for r in fast)


def test_results_do_not_depend_on_chunks_or_workers() -> None:
    a = play_stats([PAGAT, LANCASTER], games=24, seed=3, observe=6, workers=1, chunk=5)
    b = play_stats([PAGAT, LANCASTER], games=24, seed=3, observe=6, workers=2, chunk=100)
    assert a.to_json() == b.to_json()
    assert a.variants[0].games == 24 and a.variants[0].observed == 8  # whole rotations of 4 players


def test_games_round_up_to_whole_rotations_and_every_variant_plays_on_the_runner() -> None:
    s = play_stats([PAGAT, load_variant("karma")], games=5, players=3, observe=0, workers=1)
    assert [v.games for v in s.variants] == [6, 6]
    # karma (face-up stacks, once the engine's slow path) plays on the position like pagat
    assert all(not v.engine_only and v.observed == 0 for v in s.variants)


# -- the rules side by side ----------------------------------------------------------------


def test_slots_mark_what_differs() -> None:
    rows = {r.slot: r for r in slot_rows([PAGAT, LANCASTER])}
    assert rows["10"].differs and [c.fragment for c in rows["10"].cells if c] == [
        "tens-burn-anytime", "tens-burn-restricted"]
    assert rows["8"].cells[0] is None and rows["8"].cells[1] is not None
    assert not rows["four-of-a-kind"].differs
    assert "pagat.com" in (rows["10"].cells[0].source if rows["10"].cells[0] else "")


def test_a_variant_against_itself_differs_nowhere() -> None:
    for v in (PAGAT, LANCASTER):
        assert not any(r.differs for r in slot_rows([v, v]))
        assert difference_grid([v, v]) == []
        assert find_disagreements([v, v], games=3, max_positions=80) == []
    twice = play_stats([PAGAT, PAGAT], games=4, observe=4, workers=1)
    a, b = twice.variants
    assert (a.variant, b.variant, a.games, b.games) == ("pagat", "pagat (2)", 4, 4)
    assert a.metrics == b.metrics and twice.difference("turns", 1).value == 0


# -- where verdicts differ: pagat against Lancaster ------------------------------------------


@pytest.fixture(scope="module")
def found() -> list[Disagreement]:
    return find_disagreements([PAGAT, LANCASTER])


def _pick(found: list[Disagreement], kind: str, test: object) -> list[Disagreement]:
    return [d for d in found if d.kind == kind and test(d)]  # type: ignore[operator]


def _plays(d: Disagreement, rank: str) -> bool:
    from tutor.core.cards import rank_index

    return d.move.kind == PLAY and d.move.cards[0] >> 2 == rank_index(rank)


def test_finds_a_ten_on_a_court_card(found: list[Disagreement]) -> None:
    hits = _pick(found, LEGALITY, lambda d: _plays(d, "10") and d.verdicts[0].legal and not d.verdicts[1].legal
                 and effective_top(d.table, LANCASTER).rank >= 9)
    assert hits, [d.summary() for d in found]
    # a 10 on a jack is the same kind of difference: the finder keeps one example of it
    table = table_from_dict({"players": [{"name": "A", "hand": ["10C", "4D"]}, {"name": "B", "hand": ["5S"]}],
                             "pile": [["JH"]], "turn": "A"})
    got = judge_all(table, [PAGAT, LANCASTER], Move.parse("play 10C"), differing_fragments([PAGAT, LANCASTER]))
    assert got is not None and got.kind == LEGALITY
    assert any(judge_all(d.table, [PAGAT, LANCASTER], d.move, differing_fragments([PAGAT, LANCASTER])).key == got.key  # type: ignore[union-attr]
               for d in hits)


def test_finds_the_eights(found: list[Disagreement]) -> None:
    seen = _pick(found, LEGALITY, lambda d: "eights-transparent-reverse" in d.deciders[1])
    assert seen, "no play decided by looking through an 8"
    rev = _pick(found, EVENTS, lambda d: _plays(d, "8") and "reverse" in d.verdicts[1].events
                and "reverse" not in d.verdicts[0].events)
    assert rev and rev[0].verdicts[0].next_player != rev[0].verdicts[1].next_player


def test_finds_the_nines(found: list[Disagreement]) -> None:
    hits = _pick(found, LEGALITY, lambda d: "nines-lower" in d.deciders[1])
    assert any(d.verdicts[0].legal and d.verdicts[1].code.value == "OVER_LIMIT" for d in hits)


def test_finds_must_play(found: list[Disagreement]) -> None:
    hits = _pick(found, LEGALITY, lambda d: d.move.kind == PICKUP)
    assert hits and hits[0].verdicts[0].legal and hits[0].verdicts[1].code.value == "MUST_PLAY"


def test_finds_playing_again_after_a_two_and_after_a_pickup(found: list[Disagreement]) -> None:
    two = _pick(found, EVENTS, lambda d: _plays(d, "2") and "play_again" in d.verdicts[1].events
                and "play_again" not in d.verdicts[0].events)
    assert two and "twos-play-again" in two[0].deciders[1]
    pick = _pick(found, EVENTS, lambda d: d.move.kind == PICKUP and "play_again" in d.verdicts[1].events)
    assert pick and "after-pickup-same" in pick[0].deciders[1]
    assert pick[0].verdicts[0].next_player != pick[0].verdicts[1].next_player


def test_examples_are_small_and_their_links_reproduce_the_verdicts(found: list[Disagreement]) -> None:
    keys = [(d.kind, d.title(), tuple(x.legal for x in d.verdicts)) for d in found]
    assert len(keys) == len(set(keys)), "one example per kind of difference"
    for d in found:
        assert d.size <= 12, (d.summary(), d.size)
        q = decode_question(d.question())
        assert q.move == str(d.move)
        for v, verdict in zip((PAGAT, LANCASTER), d.verdicts, strict=True):
            table = table_from_dict(q.table, jokers_per_deck=v.jokers)
            assert isinstance(table, Table)
            assert check(table, v, q.move).to_json() == verdict.to_json()


# -- the command line ------------------------------------------------------------------------


def test_cli_compare_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "pagat", "lancaster", "--games", "8", "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [v["id"] for v in data["variants"]] == ["pagat", "lancaster"]
    assert any(s["slot"] == "10" and s["differs"] for s in data["slots"])
    d = data["disagreements"][0]
    assert set(d["verdicts"]) == {"pagat", "lancaster"} and d["move"] and "players" in d["table"]
    stats = data["stats"]["variants"]
    assert stats["pagat"]["games"] == 8 and stats["lancaster"]["turns"]["n"] > 0
    assert "NaN" not in json.dumps(data)


def test_cli_compare_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "pagat", "lancaster", "--games", "8", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    for heading in ("1. The rules", "2. What can be played", "3. Positions", "4. What it does to play"):
        assert heading in out
    assert "10 on a jack: pagat ✓ (tens-burn-anytime), lancaster ✗ (core)" in out


@pytest.mark.parametrize("argv", [["pagat"], ["pagat", "nope"], ["pagat", "lancaster", "--games", "0"],
                                  ["pagat", "west-kent", "--players", "5"], ["pagat", "lancaster", "--bot", "x"]])
def test_cli_compare_bad_input_exits_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def _under_a_fake_main(tmp_path: Path, work: Callable[[], T]) -> tuple[T, bool]:
    """Run ``work`` as under Streamlit: another thread alive and ``__main__`` a script that leaves
    a mark when run; returns what ``work`` gave and whether the script ran."""
    marker = tmp_path / "ran"
    script = tmp_path / "app.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    fake = types.ModuleType("__main__")
    fake.__file__ = str(script)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    real = sys.modules["__main__"]
    sys.modules["__main__"] = fake
    try:
        return work(), marker.exists()
    finally:
        sys.modules["__main__"] = real
        stop.set()


def test_workers_started_beside_other_threads_do_not_run_the_main_script(tmp_path: Path) -> None:
    """Under Streamlit (other threads; ``__main__`` is the app script) the pool uses forkserver,
    whose workers would re-run ``__main__`` by its path: they must not, and must agree."""
    got, ran = _under_a_fake_main(
        tmp_path, lambda: play_stats([PAGAT, LANCASTER], games=8, seed=1, observe=4, workers=2, chunk=4))
    assert not ran
    assert got.to_json() == play_stats([PAGAT, LANCASTER], games=8, seed=1, observe=4, workers=1).to_json()


# -- a comparison as one job: pool or here, a budget, what is kept when it stops ------------------


def _job(**kw: Any) -> Job:
    return Job([PAGAT, LANCASTER], games=16, seed=2, observe=4, chunk=4,
               search=Search((PAGAT, LANCASTER), games=2, seed=2, max_positions=40), **kw)


def test_a_job_gives_what_the_search_and_the_games_give_alone_here_and_in_a_pool() -> None:
    here = _job().run()
    pooled = run_job(_job(), workers=2)
    alone = play_stats([PAGAT, LANCASTER], games=16, seed=2, observe=4, workers=1)
    found = find_disagreements([PAGAT, LANCASTER], games=2, seed=2, max_positions=40)
    for job in (here, pooled):
        assert not job.stopped and job.search_complete and job.search_done() and job.games_done()
        stats = job.stats()
        assert stats is not None and stats.to_json() == alone.to_json()
        assert [d.to_json() for d in job.disagreements() or []] == [d.to_json() for d in found]
    assert found, "pagat and lancaster differ in two games' positions"


def test_a_job_out_of_time_stops_at_once_and_says_so() -> None:
    for pool in (None, shared_pool()):
        job = _job().run(pool, budget=0.0)
        assert job.stopped == "the time limit of 0 s"
        done = job.finished()
        assert done.stopped and not done.search_complete and done.found == []
        assert done.stats is not None and done.stats.games == 0
        assert "The games stopped at the time limit of 0 s, 0 of the 16 planned" in done.stats.note()


def test_games_stopped_early_are_cut_to_the_same_whole_rotations_in_every_variant() -> None:
    job = Job([PAGAT, LANCASTER], games=16, seed=2, observe=4, chunk=4).run()
    full = job.stats()
    assert full is not None and [s.games for s in full.variants] == [16, 16]
    # pagat played games 0-11 and 14 (a gap before it), lancaster 0-8: the first 9 games of
    # each without a gap, cut to the two whole rotations of 4 players they hold
    keep = {0: lambda i: i < 12 or i == 14, 1: lambda i: i < 9}
    job.results = {k: [r for r in rs if keep[k[0]](r.index)] for k, rs in job.results.items()}
    job.stopped = "your request"
    cut = job.stats()
    assert cut is not None and [s.games for s in cut.variants] == [8, 8] and cut.games == 8
    assert cut.note().startswith("The games stopped at your request, 8 of the 16 planned per variant")
    for c, f in zip(cut.variants, full.variants, strict=True):  # the first games of each, in order
        assert c.lengths == f.lengths[:c.finished]


def test_the_shared_pool_starts_its_workers_without_running_the_main_script(tmp_path: Path) -> None:
    close_shared_pool()  # so that this test starts the workers
    got, ran = _under_a_fake_main(tmp_path, lambda: _job().run(shared_pool()))
    assert not ran and not got.stopped


def _die(_: object) -> None:
    os._exit(1)  # a worker killed, as the out-of-memory killer would


def test_a_broken_pool_is_one_line_not_a_traceback() -> None:
    import multiprocessing

    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
    try:
        with pytest.raises(BrokenProcessPool):
            pool.submit(_die, None).result()
        with pytest.raises(CompareError, match="worker processes playing the games stopped"):
            _job().run(pool)
    finally:
        pool.shutdown()


def test_a_broken_shared_pool_is_started_afresh() -> None:
    close_shared_pool()
    pool = shared_pool()
    with pytest.raises(BrokenProcessPool):
        pool.submit(_die, None).result()
    with pytest.raises(CompareError):
        _job().run(pool)
    fresh = shared_pool()
    assert fresh is not pool and not _job().run(fresh).stopped
