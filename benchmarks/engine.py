"""Whole random games per second on one core: the simulator, or the checked engine.

Plays ``--games`` seeded games (seeds ``--seed`` onwards) of one variant with random bots
in this one process, and prints games and moves per second. Timing covers everything a
game costs: dealing, setup and play. By default the games go through ``tutor.play.sim`` (the
fast unchecked simulator; the engine if the simulator does not support the variant);
``--engine`` plays them through ``tutor.play.game.play_game`` for comparison. Both play the
same games (``tests/test_sim.py``), so the ``stalled`` counts agree.

    python benchmarks/engine.py --variant pagat --players 4 --games 2000 --json
    python benchmarks/engine.py --variant pagat --players 4 --games 100 --engine

Figures on a shared machine are noisy: ``--repeat N`` runs the batch N times and keeps
the fastest. ``moves_per_s`` is by the wall clock; ``moves_per_cpu_s`` divides by the CPU
time of this process alone, which other work on the machine disturbs less.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.play.game import BOTS, play_game  # noqa: E402
from tutor.play.sim import simulate_many, supports  # noqa: E402
from tutor.rules.variant import load_variant  # noqa: E402


def run(variant: str, players: int, games: int, seed: int, bot: str, engine: bool) -> dict[str, object]:
    v = load_variant(variant)
    path = "engine" if engine or not supports(v) else "sim"
    seeds = range(seed, seed + games)
    t0 = time.perf_counter()
    c0 = time.process_time()
    if path == "sim":
        results = simulate_many(v, players, seeds, bot)  # type: ignore[arg-type]
        moves = sum(r.turns for r in results)
        stalled = sum(r.stalled for r in results)
    else:
        moves = stalled = 0
        for s in seeds:
            g = play_game(v, players, s, [BOTS[bot]() for _ in range(players)])
            moves += g.turns
            stalled += g.stalled
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return {
        "games_per_s": round(games / dt, 2), "moves_per_s": round(moves / dt), "stalled": stalled,
        "variant": v.id, "players": players, "games": games, "moves": moves, "bot": bot,
        "path": path, "seconds": round(dt, 3), "cpu_seconds": round(cpu, 3),
        "moves_per_cpu_s": round(moves / cpu) if cpu > 0 else None,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="pagat", help="a variant spec (default pagat)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0, help="the first seed")
    ap.add_argument("--bot", choices=sorted(BOTS), default="random")
    ap.add_argument("--engine", action="store_true", help="time the checked engine (game.play_game)")
    ap.add_argument("--repeat", type=int, default=1, help="run the batch N times, keep the fastest")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    best: dict[str, object] | None = None
    for _ in range(max(1, args.repeat)):
        got = run(args.variant, args.players, args.games, args.seed, args.bot, args.engine)
        if best is None or got["moves_per_s"] > best["moves_per_s"]:  # type: ignore[operator]
            best = got
    assert best is not None
    if args.json:
        print(json.dumps(best))
    else:
        print(f"{best['variant']}, {best['players']} players, {best['bot']} bots, {best['path']}: "
              f"{best['games']} games, {best['moves']} moves in {best['seconds']} s = "
              f"{best['games_per_s']} games/s, {best['moves_per_s']:,} moves/s "
              f"({best['moves_per_cpu_s']:,} per CPU second); {best['stalled']} stalled")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
