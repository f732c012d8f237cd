"""How long ``tutor compare pagat lancaster --games 1000`` takes: wall clock and CPU.

Runs the command as a user would (``python -m tutor compare ...`` in a fresh process, so
that start-up, loading the rules, the search for disagreeing positions and the process
pool are all counted) and prints the wall-clock seconds and the CPU seconds of the
command and of its worker processes. The target is under 10 seconds of wall clock on a
two-core machine; CPU seconds are the steadier figure on a shared machine (the wall clock
is at the mercy of whatever else runs). ``--repeat N`` keeps the fastest of N runs.

    python benchmarks/compare.py
    python benchmarks/compare.py --specs pagat gultnieks --games 2000 --repeat 3 --json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_once(specs: list[str], games: int, seed: int, workers: int | None) -> dict[str, float]:
    cmd = [sys.executable, "-m", "tutor", "compare", *specs, "--games", str(games), "--seed", str(seed), "--json"]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"compare failed ({proc.returncode}): {proc.stderr.strip()}")
    data = json.loads(proc.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
            "disagreements": len(data["disagreements"]),
            "games": sum(v["games"] for v in data["stats"]["variants"].values())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--specs", nargs="+", default=["pagat", "lancaster"])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, help="default: the command's own (one per core)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    runs = [run_once(args.specs, args.games, args.seed, args.workers) for _ in range(max(1, args.repeat))]
    best = min(runs, key=lambda r: r["wall_seconds"])
    load = [round(x, 2) for x in os.getloadavg()]
    out: dict[str, object] = {"command": f"tutor compare {' '.join(args.specs)} --games {args.games} --seed {args.seed}",
           "cores": os.cpu_count(), "load_average": load, **best,
           "runs": runs if len(runs) > 1 else None}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['command']}: {best['wall_seconds']:.2f} s wall, {best['cpu_seconds']:.2f} s CPU "
              f"(command and workers) on {out['cores']} cores, load average {load[0]}; "
              f"{best['games']} games, {best['disagreements']} disagreeing positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
