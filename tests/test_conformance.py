"""The conformance run: thousands of seeded games per preset, every invariant after every move.

Games are spread over 2-5 players and 1-2 packs, and over two processes (this
machine has two cores). See tutor/conformance.py for what is checked.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from tutor.play.conformance import run
from tutor.rules.variant import load_variant

GAMES = 1500 * max(1, int(os.environ.get("TUTOR_CONFORMANCE_SCALE", "1") or 1))  # a preset's games (CI's size)


def _chunk(args: tuple[str, int, int, list[int]]) -> tuple[int, int, int, list[str]]:
    spec, players, decks, seeds = args
    report = run(spec, players, seeds, decks=decks, candidates_every=2)
    return report.games, report.moves, report.stalled, report.problems


def _jobs(spec: str, games: int) -> list[tuple[str, int, int, list[int]]]:
    v = load_variant(spec)
    jobs = []
    combos = [(n, d) for n in range(max(2, v.min_players), min(5, v.max_players) + 1) for d in (1, 2)]
    combos = [(n, max(d, v.decks_for(n))) for n, d in combos]
    per = games // len(combos) + 1
    for k, (n, d) in enumerate(combos):
        seeds = list(range(k * 100_000, k * 100_000 + per))
        half = len(seeds) // 2
        jobs += [(spec, n, d, seeds[:half]), (spec, n, d, seeds[half:])]
    return jobs


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["pagat", "lancaster"])
def test_conformance(spec: str) -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_chunk, _jobs(spec, GAMES)))
    games = sum(r[0] for r in results)
    problems = [p for r in results for p in r[3]]
    stalled = sum(r[2] for r in results)
    assert games >= GAMES
    assert not problems, "\n".join(problems[:10])
    # stalled games are allowed (random players can pick up forever) but must be rare
    assert stalled <= games * 0.05, f"{stalled} of {games} games stalled"
