"""How strong is the advisor? Seat-rotated games against greedy bots.

Each deal is played once with the advisor in every seat (``--players`` games per
deal), the other seats greedy bots, so every seat and every deal count alike. The
advisor sees only its own view (with the cards seen going into hands). Prints the
advisor's loss rate (it is the shithead; in goal-winner variants: it does not win)
with a 95% Wilson interval, against chance (1 / players).

Targets (issue 5): at 1 second a move, at most 12% losses in 4-player games (chance
25%) and at least 75% wins in 2-player games, over at least 400 games.

    python benchmarks/advisor_strength.py --variant pagat --players 4 --games 400 --iterations 1000 --seconds 1
    python benchmarks/advisor_strength.py --variant lancaster --players 2 --games 40 --iterations 300
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.advisor import AdvisorBot, KnownCards  # noqa: E402
from tutor.advisor.rollout import PolicyRollout, SimRollout  # noqa: E402
from tutor.core.moves import Move  # noqa: E402
from tutor.core.stats import wilson_bounds  # noqa: E402
from tutor.core.table import Table  # noqa: E402
from tutor.play.game import Bot, GreedyBot, RandomBot, play_game  # noqa: E402
from tutor.rules.variant import Variant, load_variant  # noqa: E402


class _Timed:
    """A bot wrapper that counts the advisor's moves and time."""

    def __init__(self, bot: AdvisorBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves = 0
        self.seconds = 0.0

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        t0 = time.perf_counter()
        m = self.bot.choose(table, v, moves, rng)
        self.moves += 1
        self.seconds += time.perf_counter() - t0
        return m


def one_game(job: tuple[str, int, int, int, float | None, int | None, str, int, str, bool]) -> dict[str, object]:
    variant, players, deal_seed, seat, seconds, iterations, opponent, cap, rollout, early = job
    v = load_variant(variant)
    known = KnownCards(players)
    roll = {"sim": SimRollout(), "policy": PolicyRollout(), "endgame": SimRollout(endgame_only=True),
            "cut": SimRollout(cut=12)}[rollout]
    advisor = _Timed(AdvisorBot(iterations=iterations, seconds=seconds, known=known, rollout=roll,
                                until_decided=early))
    bots: list[Bot] = [GreedyBot() if opponent == "greedy" else RandomBot() for _ in range(players)]
    bots[seat] = advisor

    def on_move(before, move, after, events):  # type: ignore[no-untyped-def]
        known.update(before, move, after, events)

    r = play_game(v, players, deal_seed, bots, on_move=on_move, max_turns=cap)
    me = r.names[seat]
    lost = (r.loser == me) if v.goal == "loser" else (r.winner != me)
    return {"seat": seat, "deal": deal_seed, "stalled": r.stalled, "lost": bool(lost) and not r.stalled,
            "first_out": bool(r.out_order and r.out_order[0] == me), "moves": advisor.moves,
            "seconds": advisor.seconds, "turns": r.turns, "searches": advisor.bot.searches,
            "simulations": advisor.bot.simulations}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="pagat")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=400, help="games in all (rounded up to whole deals)")
    ap.add_argument("--seconds", type=float, default=None, help="advisor time per move")
    ap.add_argument("--iterations", type=int, default=None, help="advisor simulations per move")
    ap.add_argument("--opponent", choices=["greedy", "random"], default="greedy")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--max-turns", type=int, default=1500)
    ap.add_argument("--rollout", choices=["cut", "sim", "policy", "endgame"], default="cut",
                    help="cut (the default): 12 greedy moves through the runner, then the fitted evaluation, "
                         "whole games once two players are left without a stock; policy: capped at 12 moves "
                         "even then; endgame: policy, but whole games once two are left; "
                         "sim: whole greedy games")
    ap.add_argument("--full-budget", action="store_true",
                    help="spend the whole budget on every move (default: stop once the choice is clear)")
    ap.add_argument("--log", help="append each game's result to this file (JSON lines)")
    ap.add_argument("--resume", action="store_true", help="count the games already in --log and play the rest")
    ap.add_argument("--report", action="store_true", help="with --resume: only print the figures of the games in --log")
    args = ap.parse_args()
    if args.seconds is None and args.iterations is None:
        args.seconds = 1.0
    goal = load_variant(args.variant).goal  # before the run: the rules directory may change under a long run
    deals = math.ceil(args.games / args.players)
    jobs = [(args.variant, args.players, args.seed + d, s, args.seconds, args.iterations, args.opponent,
             args.max_turns, args.rollout, not args.full_budget) for d in range(deals) for s in range(args.players)]
    budget = " or ".join(([f"{args.iterations} simulations"] if args.iterations is not None else [])
                         + ([f"{args.seconds} s"] if args.seconds is not None else [])) + " a move"
    budget += f", {args.rollout} rollouts" + (", whole budget" if args.full_budget else ", stops when decided")
    print(f"{args.variant}, {args.players} players, advisor ({budget}) against {args.players - 1} "
          f"{args.opponent} bot(s); {len(jobs)} seat-rotated games, {args.workers} workers", flush=True)
    results: list[dict[str, object]] = []
    if args.resume and args.log and Path(args.log).exists():
        # go on from a log a run interrupted: its games count, and are not played again
        with open(args.log, encoding="utf-8") as f:
            results = [json.loads(line) for line in f if line.strip()]
        done_jobs = {(r["deal"], r["seat"]) for r in results}
        jobs = [j for j in jobs if (j[2], j[3]) not in done_jobs]
        if args.report:
            jobs = []
        print(f"  from {args.log}: {len(results)} games; {len(jobs)} to play", flush=True)
    t0 = time.perf_counter()
    with mp.Pool(min(args.workers, max(1, len(jobs)))) as pool:
        for i, r in enumerate(pool.imap_unordered(one_game, jobs), 1):
            results.append(r)
            if args.log:
                with open(args.log, "a", encoding="utf-8") as f:
                    f.write(json.dumps(r) + "\n")
            if i % max(1, len(jobs) // 20) == 0:
                lost = sum(1 for x in results if x["lost"])
                print(f"  {len(results)} games, {lost} lost, {time.perf_counter() - t0:.0f} s", flush=True)
    done = [r for r in results if not r["stalled"]]
    lost = sum(1 for r in done if r["lost"])
    lo, hi = wilson_bounds(lost / max(1, len(done)), len(done))
    moves = sum(int(r["moves"]) for r in results)  # type: ignore[call-overload]
    secs = sum(float(r["seconds"]) for r in results)  # type: ignore[arg-type]
    what = "the shithead" if goal == "loser" else "not the winner"
    print(f"advisor {what} in {lost}/{len(done)} games = {100 * lost / max(1, len(done)):.1f}% "
          f"(95% interval {100 * lo:.1f}% to {100 * hi:.1f}%); chance {100 / args.players:.0f}%")
    if args.players == 2:
        print(f"advisor wins {len(done) - lost}/{len(done)} = {100 * (len(done) - lost) / max(1, len(done)):.1f}% "
              f"(95% interval {100 * (1 - hi):.1f}% to {100 * (1 - lo):.1f}%)")
    stalled = [(r["deal"], r["seat"]) for r in results if r["stalled"]]
    if stalled:
        worst = lost + len(stalled)
        lo2, hi2 = wilson_bounds(worst / max(1, len(results)), len(results))
        print(f"counting the {len(stalled)} stalled games (deal, advisor seat: {stalled[:8]}) as losses: "
              f"{worst}/{len(results)} = {100 * worst / len(results):.1f}% ({100 * lo2:.1f}% to {100 * hi2:.1f}%)")
    searches = sum(int(r["searches"]) for r in results)  # type: ignore[call-overload]
    sims = sum(int(r["simulations"]) for r in results)  # type: ignore[call-overload]
    print(f"stalled games: {len(results) - len(done)}; advisor moves {moves} ({searches} with a choice to search), "
          f"{secs / max(1, moves):.3f} s per move, {secs / max(1, searches):.3f} s and "
          f"{sims / max(1, searches):.0f} simulations per searched move; wall {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
