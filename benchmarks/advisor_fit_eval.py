"""Fit the advisor's cut-off evaluation (tutor/advisor/evaluate.py) on greedy self-play.

Plays greedy games, records the features of every seat at every ``--every``-th
position, and fits a conditional logit for "this seat ends as the loser" by maximum
likelihood (Newton steps, numpy). Prints the weights, the log-loss against the
uniform guess, and a calibration table on held-out games.

    python benchmarks/advisor_fit_eval.py --games 300 --variants pagat lancaster
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from tutor.advisor.evaluate import FEATURES, WEIGHTS, features  # noqa: E402
from tutor.core.table import Table  # noqa: E402
from tutor.play.game import GreedyBot, play_game  # noqa: E402
from tutor.rules.variant import load_variant  # noqa: E402


def collect(variants: list[str], games: int, every: int, seed: int) -> list[tuple[np.ndarray, int]]:
    """Groups: (features of the seats in play, index of the loser among them)."""
    rng = random.Random(seed)
    out: list[tuple[np.ndarray, int]] = []
    for name in variants:
        v = load_variant(name)
        for g in range(games):
            n = rng.randint(max(2, v.min_players), min(6, v.max_players))
            positions: list[Table] = []

            def keep(before: Table, move: object, after: Table, events: list[str],
                     positions: list[Table] = positions) -> None:
                if len(positions) < 10_000 and rng.random() < 1.0 / every:
                    positions.append(before)

            res = play_game(v, n, seed * 100_000 + g, [GreedyBot() for _ in range(n)], on_move=keep)
            if res.stalled or res.loser is None:
                continue
            loser = res.names.index(res.loser)
            for t in positions:
                live = [s for s in range(n) if not t.players[s].out]
                if loser not in live or len(live) < 2:
                    continue
                x = np.array([features(t, v, s) for s in live], dtype=float)
                out.append((x, live.index(loser)))
    return out


def nll(w: np.ndarray, data: list[tuple[np.ndarray, int]]) -> float:
    total = 0.0
    for x, y in data:
        z = x @ w
        z -= z.max()
        total -= z[y] - math.log(np.exp(z).sum())
    return total / len(data)


def fit(data: list[tuple[np.ndarray, int]], steps: int = 30, ridge: float = 1e-3) -> np.ndarray:
    k = data[0][0].shape[1]
    w = np.zeros(k)
    for _ in range(steps):
        g = np.zeros(k)
        h = ridge * np.eye(k)
        for x, y in data:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mu = p @ x
            g += mu - x[y]
            d = x - mu
            h += (d * p[:, None]).T @ d
        g += ridge * w
        w -= np.linalg.solve(h, g)
    return w


def calibration(w: np.ndarray, data: list[tuple[np.ndarray, int]]) -> list[tuple[float, float, int]]:
    bins: list[list[float]] = [[0.0, 0.0, 0] for _ in range(10)]  # type: ignore[list-item]
    for x, y in data:
        z = x @ w
        p = np.exp(z - z.max())
        p /= p.sum()
        for i, q in enumerate(p):
            b = bins[min(9, int(q * 10))]
            b[0] += q
            b[1] += 1.0 if i == y else 0.0
            b[2] += 1
    return [(b[0] / b[2], b[1] / b[2], int(b[2])) for b in bins if b[2]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", nargs="+", default=["pagat", "lancaster"])
    ap.add_argument("--games", type=int, default=300, help="games per variant for fitting")
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    train = collect(args.variants, args.games, args.every, args.seed)
    test = collect(args.variants, max(50, args.games // 3), args.every, args.seed + 1)
    print(f"{len(train)} training positions, {len(test)} held out")
    w = fit(train)
    uniform = sum(math.log(len(x)) for x, _ in test) / len(test)
    print("features:", ", ".join(FEATURES))
    print("fitted:  ", "(" + ", ".join(f"{x:.3f}" for x in w) + ")")
    print(f"held-out log-loss: fitted {nll(w, test):.4f}, current WEIGHTS {nll(np.array(WEIGHTS), test):.4f}, "
          f"uniform {uniform:.4f}")
    print("calibration (predicted P(loser), observed, n):")
    for p, o, n in calibration(w, test):
        print(f"  {p:.3f}  {o:.3f}  {n}")


if __name__ == "__main__":
    main()
