"""How fast is the advisor? Simulations per second and hint latency.

Middle-game tables are made by dealing a game and letting greedy bots play
``--plies`` moves. For each table it times a whole ``hint`` (search and
explanations) at 1,000 simulations, and counts the simulations one second buys.
The target (issue 5): a useful hint (at least 1,000 simulations) within 1 second
for a 4-player middle-game table.

    python benchmarks/advisor_speed.py --variant pagat lancaster --players 4 --tables 10
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", nargs="+", default=["pagat", "lancaster"])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--plies", type=int, default=30, help="greedy moves before the table is taken")
    ap.add_argument("--iterations", type=int, default=1000)
    args = ap.parse_args()
    print(f"{args.players} players, tables after {args.plies} greedy moves (those with 2+ legal moves)")
    for variant in args.variant:
        lat: list[float] = []
        cpu: list[float] = []
        rate: list[float] = []
        seed = 0
        while len(lat) < args.tables:
            seed += 1
            got = midgame(variant, args.players, seed, args.plies)
            if got is None:
                continue
            t, known = got
            t0, c0 = time.perf_counter(), time.process_time()
            hint(t, variant, iterations=args.iterations, seed=seed, seen=known)
            lat.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            h = hint(t, variant, seconds=1.0, seed=seed, seen=known)
            rate.append(h.simulations / h.seconds)
        print(f"{variant}: hint at {args.iterations} simulations takes {statistics.median(lat):.2f} s median "
              f"(min {min(lat):.2f}, max {max(lat):.2f}); {statistics.median(rate):.0f} simulations/s median "
              f"(min {min(rate):.0f}, max {max(rate):.0f}) over {len(lat)} tables; CPU time of the hint "
              f"{statistics.median(cpu):.2f} s median (max {max(cpu):.2f}), load average "
              f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
