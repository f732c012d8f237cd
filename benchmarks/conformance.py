"""The conformance run's cost: seeded games with every invariant checked after every move.

Runs :func:`tutor.play.conformance.run` on ``--games`` seeded games (seeds 0 onwards) of each
variant named (default: every preset, then the Nortenos slide options) at ``--players`` (or the
variant's most, if fewer), in this one process, and prints per variant the games, moves,
problems and CPU seconds, then the totals (CPU time beside wall). The exit code is 1 if any
run found a problem.

    python benchmarks/conformance.py --games 3
    python benchmarks/conformance.py --games 8 pagat karma bluff garfield guarducci tauko-hogni
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.play.conformance import run  # noqa: E402
from tutor.rules.variant import load_variant, preset_catalogue  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("variants", nargs="*", help="variant specs (default: every preset and the Nortenos slide options)")
    ap.add_argument("--games", type=int, default=3, help="seeded games per variant (seeds 0 onwards)")
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args(argv)
    specs = args.variants or sorted(preset_catalogue()) + ["nortenos+threes-slide", "nortenos+threes-slide+fours-reset"]
    cpu = wall = moves = problems = 0.0
    for spec in specs:
        v = load_variant(spec)
        players = min(max(args.players, v.min_players), v.max_players)
        c0, t0 = time.process_time(), time.perf_counter()
        report = run(v, players, list(range(args.games)))
        dt = time.process_time() - c0
        cpu += dt
        wall += time.perf_counter() - t0
        moves += report.moves
        problems += len(report.problems)
        print(f"{spec}, {players} players: {report.games} games, {report.moves} moves, {report.stalled} stalled, "
              f"{len(report.problems)} problems, {dt:.2f} s CPU")
        for p in report.problems[:3]:
            print(f"  {p}")
    print(f"total: {int(moves)} moves, {int(problems)} problems, {cpu:.2f} s CPU ({wall:.2f} s wall), "
          f"{moves / cpu:,.0f} checked moves per CPU second" if cpu > 0 else "total: nothing run")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
