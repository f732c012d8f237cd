"""How long comparing variants takes, and where the time goes: wall clock beside CPU time.

Three measurements (each can be skipped):

1. ``parts``: each part of a comparison played in this process, one after the other, with
   its CPU time: the search for disagreeing positions (each variant's games, then cutting the
   examples down), the games observed move by move through the engine, the games through the
   fast simulator, the statistics. This says where the time goes; CPU time does not depend
   on what else runs on the machine.
2. ``cli``: ``tutor compare SPECS --games N`` as a user runs it (a fresh process, start-up,
   loading the rules and the worker processes counted): wall clock, and the CPU time of the
   command and its workers.
3. ``browser`` (``--browser``): the Compare page in Chromium against ``streamlit run``: cold
   (a fresh server, the first comparison) and warm (the same link opened again), wall clock
   from opening the link to the figures on screen, and the CPU time the server and its worker
   processes spent meanwhile.

The wall clock is at the mercy of whatever else runs: the load average is printed beside it.
``--repeat N`` keeps the fastest of N runs of (2) and (3).

    python benchmarks/compare.py
    python benchmarks/compare.py --specs pagat gultnieks --games 2000 --repeat 3 --json
    python benchmarks/compare.py --browser --skip parts cli
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ui_latency import ARGS, CHROMIUM, server  # noqa: E402  (the same fresh server and browser)


def _timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def parts(specs: list[str], games: int, seed: int, observe: int | None = None) -> list[dict[str, Any]]:
    """Each part of the comparison, here, one after the other (see the module docstring)."""
    from tutor.compare import DEFAULT_OBSERVE, Search, common_players, load_variants, summarize
    from tutor.compare.batch import plan_games, run_task
    from tutor.compare.disagreements import chosen_keys, disagreement, merge_positions, search_positions

    variants, wall, cpu = _timed(lambda: load_variants(specs))
    rows = [{"part": "loading the rules", "wall_seconds": wall, "cpu_seconds": cpu}]
    search = Search(tuple(variants), seed=seed)
    found, wall, cpu = _timed(lambda: [search_positions(search, k)[0] for k in range(len(variants))])
    rows.append({"part": "search: every position of each variant's games", "wall_seconds": wall, "cpu_seconds": cpu})
    best = merge_positions(found)
    keys = chosen_keys(best)
    _, wall, cpu = _timed(lambda: [disagreement(variants, k, best[k]) for k in keys])
    rows.append({"part": f"search: cutting {len(keys)} examples down", "wall_seconds": wall, "cpu_seconds": cpu})
    plan = plan_games(variants, games, seed, None, "greedy", DEFAULT_OBSERVE if observe is None else observe, 100)
    observed = [t for t in plan.tasks if t[4] < t[7]]
    rest = [t for t in plan.tasks if t[4] >= t[7]]
    got, wall, cpu = _timed(lambda: [run_task(t) for t in observed])
    n_obs = sum(len(r) for _, _, r in got)
    rows.append({"part": f"{n_obs} games observed move by move (engine)", "wall_seconds": wall, "cpu_seconds": cpu})
    got2, wall, cpu = _timed(lambda: [run_task(t) for t in rest])
    n_rest = sum(len(r) for _, _, r in got2)
    rows.append({"part": f"{n_rest} other games (fast simulator where it can)", "wall_seconds": wall,
                 "cpu_seconds": cpu})
    players = common_players(variants)
    records = [r for _, _, rs in got + got2 for r in rs]
    _, wall, cpu = _timed(lambda: [summarize(v.id, players, records) for v in variants])
    rows.append({"part": "statistics", "wall_seconds": wall, "cpu_seconds": cpu})
    return [{**r, "wall_seconds": round(r["wall_seconds"], 3), "cpu_seconds": round(r["cpu_seconds"], 3)}
            for r in rows]


def cli(specs: list[str], games: int, seed: int, workers: int | None) -> dict[str, float]:
    """``tutor compare`` in a fresh process: wall clock, and CPU of the command and its workers."""
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


def tree_cpu(root: int) -> float:
    """CPU seconds of a process and every live process below it (from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[tuple[int, float]]] = {}
    own = 0.0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / tick
        if int(name) == root:
            own = cpu
        children.setdefault(int(fields[1]), []).append((int(name), cpu))

    def below(pid: int) -> float:
        return sum(cpu + below(kid) for kid, cpu in children.get(pid, []))

    return own + below(root)


def browser(specs: list[str], games: int, seed: int) -> dict[str, float]:
    """The Compare page in Chromium on a fresh server: cold, then the same link again (warm)."""
    from playwright.sync_api import expect, sync_playwright

    query = f"v={specs[0]}&with={','.join(specs[1:])}&games={games}&seed={seed}"
    out: dict[str, float] = {}
    with server() as (base, pid), sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = b.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{base}/learn")  # the server's first page, so that cold is the comparison alone
        page.wait_for_selector("[data-testid=stApp]")
        page.get_by_role("heading", name="Learn").wait_for(timeout=60_000)
        for label in ("cold", "warm"):
            c0, t0 = tree_cpu(pid), time.perf_counter()
            page.goto(f"{base}/compare?{query}")
            figures = page.locator("[data-testid=stTable]").filter(has_text="Game length (moves)")
            expect(figures).to_be_visible(timeout=180_000)
            page.get_by_text("Who loses, by seat").wait_for(timeout=60_000)
            out[f"{label}_wall_seconds"] = round(time.perf_counter() - t0, 2)
            out[f"{label}_server_cpu_seconds"] = round(tree_cpu(pid) - c0, 2)
        b.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--specs", nargs="+", default=["pagat", "lancaster"])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, help="the command's workers (default: its own, one per core)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--observe", type=int, help="games a variant observed through the engine in the parts "
                                                "(default: the command's 200; the page observes 100)")
    ap.add_argument("--browser", action="store_true", help="also time the page in Chromium")
    ap.add_argument("--skip", nargs="*", default=[], choices=["parts", "cli"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load = [round(x, 2) for x in os.getloadavg()]
    out: dict[str, Any] = {"command": f"tutor compare {' '.join(args.specs)} --games {args.games} --seed {args.seed}",
                           "cores": os.cpu_count(), "load_average": load}
    lines = [f"{out['command']}: on {out['cores']} cores, load average {load[0]} at the start"]
    if "parts" not in args.skip:
        out["parts"] = parts(args.specs, args.games, args.seed, args.observe)
        lines.append("  parts, one after the other in one process (wall / CPU seconds):")
        lines += [f"    {r['part']:<52} {r['wall_seconds']:7.2f} / {r['cpu_seconds']:.2f}" for r in out["parts"]]
        total = sum(r["cpu_seconds"] for r in out["parts"])
        lines.append(f"    {'in all':<52} {'':7}   {total:.2f} s CPU")
    if "cli" not in args.skip:
        runs = [cli(args.specs, args.games, args.seed, args.workers) for _ in range(max(1, args.repeat))]
        best = min(runs, key=lambda r: r["wall_seconds"])
        out["cli"] = {**best, "runs": runs if len(runs) > 1 else None}
        lines.append(f"  the command: {best['wall_seconds']:.2f} s wall, {best['cpu_seconds']:.2f} s CPU (command and "
                     f"workers), best of {len(runs)}; {best['games']} games, {best['disagreements']} disagreeing positions")
    if args.browser:
        runs_b = [browser(args.specs, args.games, args.seed) for _ in range(max(1, args.repeat))]
        best_b = min(runs_b, key=lambda r: r["cold_wall_seconds"])
        out["browser"] = {**best_b, "runs": runs_b if len(runs_b) > 1 else None}
        lines.append(f"  the page in Chromium: cold {best_b['cold_wall_seconds']:.2f} s wall "
                     f"({best_b['cold_server_cpu_seconds']:.2f} s server CPU), warm {best_b['warm_wall_seconds']:.2f} s "
                     f"wall ({best_b['warm_server_cpu_seconds']:.2f} s server CPU), best of {len(runs_b)}")
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    lines.append(f"  load average at the end: {out['load_average_after'][0]}")
    print(json.dumps(out) if args.json else "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
