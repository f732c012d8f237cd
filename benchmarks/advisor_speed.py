"""How fast is the advisor? Simulations per CPU second and hint latency.

Middle-game tables are made by dealing a game and letting greedy bots play
``--plies`` moves. For each table it times a whole ``hint`` (search and
explanations) at 1,000 simulations, in CPU time beside wall time, and counts the
simulations one second of search buys. Targets: a useful hint (at least 1,000
simulations) within 1 second for a 4-player middle-game table (issue 5); 10,000
simulations a CPU second, a 1,000-simulation hint under 0.15 s of CPU (issue 11).

``--against DIR`` times the same tables with another checkout too (say a worktree of
``main``), table by table, alternating the two in fresh processes so both see the same
load, and prints the two side by side with their ratio.

    python benchmarks/advisor_speed.py --variant pagat lancaster karma --tables 5
    python benchmarks/advisor_speed.py --variant pagat lancaster karma --tables 5 --against /path/to/main
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
# a child of ``--against`` imports the other checkout's tutor (this file's timing code)
ROOT = Path(os.environ.get("ADVISOR_SPEED_ROOT", HERE)).resolve()
sys.path.insert(0, str(ROOT))

from tutor.advisor import KnownCards, hint  # noqa: E402
from tutor.core.table import Table  # noqa: E402
from tutor.engine import apply_unchecked, game_over, legal_moves  # noqa: E402
from tutor.play.game import GreedyBot, arrange, deal, start  # noqa: E402
from tutor.rules.variant import load_variant  # noqa: E402


def midgame(variant: str, players: int, seed: int, plies: int) -> tuple[Table, KnownCards] | None:
    v = load_variant(variant)
    t = start(arrange(deal(v, players, seed), v), v)
    known = KnownCards(players)
    rng = random.Random(seed)
    for _ in range(plies):
        if game_over(t, v):
            return None
        m = GreedyBot().choose(t, v, legal_moves(t, v), rng)
        after, events = apply_unchecked(t, v, m)
        known.update(t, m, after, events)
        t = after
    if game_over(t, v) or len(legal_moves(t, v)) < 2:
        return None
    return t, known


def seeds(variant: str, players: int, plies: int, tables: int) -> list[int]:
    """The seeds of the first ``tables`` middle-game tables (2+ legal moves)."""
    out: list[int] = []
    seed = 0
    while len(out) < tables:
        seed += 1
        if midgame(variant, players, seed, plies) is not None:
            out.append(seed)
    return out


def one(variant: str, players: int, seed: int, plies: int, iterations: int, second: bool,
        warm: bool = False) -> dict[str, float]:
    """Time the hints of one table: wall and CPU of the fixed-budget hint, and the simulations
    of a one-second hint (if ``second``); ``warm``: after a small hint of the same table."""
    got = midgame(variant, players, seed, plies)
    assert got is not None
    t, known = got
    if warm:  # a fresh process: fill the engine's caches first, as a long-running app has them
        hint(t, variant, iterations=50, seed=seed + 1, seen=known)
    t0, c0 = time.perf_counter(), time.process_time()
    h = hint(t, variant, iterations=iterations, seed=seed, seen=known)
    out = {"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "sims": float(h.simulations)}
    if second:
        h = hint(t, variant, seconds=1.0, seed=seed, seen=known)
        out["rate"] = h.simulations / h.seconds
    return out


def child(root: Path, args: argparse.Namespace, variant: str, seed: int) -> dict[str, float]:
    """:func:`one` in a fresh process of the checkout at ``root``."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", variant, str(seed),
           "--players", str(args.players), "--plies", str(args.plies), "--iterations", str(args.iterations)]
    env = dict(os.environ, ADVISOR_SPEED_ROOT=str(root))
    out = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def summary(name: str, rows: list[dict[str, float]], iterations: int) -> str:
    cpu = [r["cpu"] for r in rows]
    wall = [r["wall"] for r in rows]
    per_cpu = [r["sims"] / r["cpu"] for r in rows]
    text = (f"{name}: CPU time of a {iterations}-simulation hint {statistics.median(cpu):.3f} s median "
            f"(min {min(cpu):.3f}, max {max(cpu):.3f}), wall {statistics.median(wall):.3f} s; "
            f"{statistics.median(per_cpu):.0f} simulations a CPU second median "
            f"(min {min(per_cpu):.0f}, max {max(per_cpu):.0f})")
    if all("rate" in r for r in rows):
        rate = [r["rate"] for r in rows]
        text += f"; {statistics.median(rate):.0f} simulations in a second of search (wall) median"
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", nargs="+", default=["pagat", "lancaster"])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--plies", type=int, default=30, help="greedy moves before the table is taken")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--against", type=Path, help="another checkout to time on the same tables, alternating")
    ap.add_argument("--one", nargs=2, metavar=("VARIANT", "SEED"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        import tutor

        assert Path(tutor.__file__).resolve().is_relative_to(ROOT), (tutor.__file__, ROOT)
        print(json.dumps(one(args.one[0], args.players, int(args.one[1]), args.plies, args.iterations,
                             second=False, warm=True)))
        return
    print(f"{args.players} players, tables after {args.plies} greedy moves (those with 2+ legal moves)")
    for variant in args.variant:
        if args.against is None:
            rows = [one(variant, args.players, s, args.plies, args.iterations, second=True)
                    for s in seeds(variant, args.players, args.plies, args.tables)]
            print(f"{summary(variant, rows, args.iterations)}; {len(rows)} tables, load average "
                  f"{os.getloadavg()[0]:.1f}")
            continue
        old: list[dict[str, float]] = []
        new: list[dict[str, float]] = []
        for k, s in enumerate(seeds(variant, args.players, args.plies, args.tables)):
            pair = [(args.against.resolve(), old), (HERE, new)]
            for root, rows in (pair if k % 2 == 0 else pair[::-1]):  # who goes first alternates
                rows.append(child(root, args, variant, s))
        ratio = statistics.median(o["cpu"] / n["cpu"] for o, n in zip(old, new, strict=True))
        print(f"  {summary(variant + ' against', old, args.iterations)}")
        print(f"  {summary(variant + ' this', new, args.iterations)}")
        print(f"  {variant}: this checkout is {ratio:.2f} times as fast in CPU (median of the per-table "
              f"ratios, {len(new)} tables), load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
