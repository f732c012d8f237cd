"""Whole random games per second on one core, through the one engine.

Plays ``--games`` seeded games (seeds ``--seed`` onwards) of one variant (or ``--all``: every
preset) with random bots in this one process, and prints games and moves per second. Timing
covers everything a game costs: dealing, setup and play. By default the games go through the
runner (:func:`tutor.play.game.play_game` with ``record=False``: the bots count and pick plays
on the engine's mutable position); ``--engine`` times the *checked* path instead, the way the
app and the conformance run use the engine: at every move ``legal_moves`` and ``check`` on the
immutable table, then ``apply_unchecked``. Both play the same games, so the ``stalled`` counts
agree.

    python benchmarks/engine.py --variant pagat --players 4 --games 2000 --json
    python benchmarks/engine.py --variant pagat --players 4 --games 100 --engine
    python benchmarks/engine.py --all --players 4 --games 300
    python benchmarks/engine.py --all --players 4 --moves 100000
    python benchmarks/engine.py --all --players 4 --seconds 5

``--moves N`` plays games (seeds ``--seed`` onwards) until at least N moves are made, for each
preset: a Bluff game lasts about 50 moves and a pagat one about 1,300, so a fixed number of
games weighs a short game's start and the first use of a preset's tables 25 times more.
``--seconds S`` plays games for S CPU seconds of the process per preset, as the peer's loop plays
for a set time: the first use of a preset's tables (its first games, about 7% slower in Tauko Hogni
and Bluff than the same games again) is then a small part of the run, as it is of the peer's.

Figures on a shared machine are noisy: ``--repeat N`` runs the batch N times and keeps
the fastest. ``moves_per_s`` is by the wall clock; ``moves_per_cpu_s`` divides by the CPU
time of this process alone, which other work on the machine disturbs less.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.engine import apply_unchecked, check, game_over, legal_moves, position_of  # noqa: E402
from tutor.play.game import BOTS, Circle, arrange, deal, play_game, start  # noqa: E402
from tutor.rules.variant import load_variant, preset_catalogue  # noqa: E402


def checked_game(v: object, players: int, seed: int, bot: str) -> tuple[int, bool]:
    """One game the way the app plays it: the move list and the verdict at every move."""
    rng = random.Random(seed * 7919 + 1)
    table = start(arrange(deal(v, players, seed), v), v)  # type: ignore[arg-type]
    bots = [BOTS[bot]() for _ in range(players)]
    circle = Circle()
    while not game_over(table, v):  # type: ignore[arg-type]
        moves = legal_moves(table, v)  # type: ignore[arg-type]
        move = bots[table.turn].choose(table, v, moves, rng)  # type: ignore[arg-type]
        check(table, v, move)  # type: ignore[arg-type]
        table, events = apply_unchecked(table, v, move)  # type: ignore[arg-type]
        if circle.stalled_after(position_of(table, v), events) and not game_over(table, v):  # type: ignore[arg-type]
            return circle.turns, True
    return circle.turns, False


def run(variant: str, players: int, games: int, seed: int, bot: str, engine: bool,
        min_moves: int = 0, seconds: float = 0.0) -> dict[str, object]:
    """``games`` games from ``seed`` on; with ``min_moves``, as many as it takes to make that many
    moves; with ``seconds``, as many as start within that much CPU time of this process (as the
    peer's loop in ``../shared/tools/peer_speed.py`` plays games for a set time)."""
    v = load_variant(variant)
    path = "checked" if engine else "runner"
    moves = stalled = 0
    s = seed
    t0 = time.perf_counter()
    c0 = time.process_time()
    while ((time.process_time() - c0 < seconds) if seconds else
           (moves < min_moves) if min_moves else (s < seed + games)):
        if engine:
            turns, st = checked_game(v, players, s, bot)
        else:
            g = play_game(v, players, s, [BOTS[bot]() for _ in range(players)], record=False)
            turns, st = g.turns, g.stalled
        moves += turns
        stalled += st
        s += 1
    games = s - seed
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return {
        "games_per_s": round(games / dt, 2), "moves_per_s": round(moves / dt), "stalled": stalled,
        "variant": v.id, "players": players, "games": games, "moves": moves, "bot": bot,
        "path": path, "seconds": round(dt, 3), "cpu_seconds": round(cpu, 3),
        "moves_per_cpu_s": round(moves / cpu) if cpu > 0 else None,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--variant", default="pagat", help="a variant spec (default pagat)")
    ap.add_argument("--all", action="store_true", help="every preset, one line each")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--moves", type=int, default=0,
                    help="play games until at least this many moves (in place of --games)")
    ap.add_argument("--seconds", type=float, default=0,
                    help="play games for this many CPU seconds per preset (in place of --games and --moves)")
    ap.add_argument("--seed", type=int, default=0, help="the first seed")
    ap.add_argument("--bot", choices=sorted(BOTS), default="random")
    ap.add_argument("--engine", action="store_true", help="time the checked path (legal_moves and check every move)")
    ap.add_argument("--repeat", type=int, default=1, help="run the batch N times, keep the fastest")
    ap.add_argument("--json", action="store_true", help="print one JSON object (a line per preset with --all)")
    args = ap.parse_args(argv)
    specs = sorted(preset_catalogue()) if args.all else [args.variant]
    for spec in specs:
        v = load_variant(spec)
        players = min(max(args.players, v.min_players), v.max_players)
        best: dict[str, object] | None = None
        for _ in range(max(1, args.repeat)):
            got = run(spec, players, args.games, args.seed, args.bot, args.engine, args.moves, args.seconds)
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
