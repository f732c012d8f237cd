"""Every preset's random play through the runner, side by side with the peer engine.

For ``--rounds`` rounds, one process at a time: ``benchmarks/engine.py --all`` (every preset,
random bots, ``--players`` players or the nearest count a preset allows), then the peer's
random-play loop from ``../shared/tools/peer_speed.py`` (trachwo/masters-of-shithead), each
counted in moves per CPU second of its own process. Each preset plays games for ``--seconds``
CPU seconds, as long as the peer's loop plays (a fixed number of games would weigh a 50-move
Bluff game's start 25 times more than a 1,300-move pagat game's; a short run weighs the first use
of a preset's tables, which the peer's long run spreads thin). ``--moves N`` plays N moves a
preset instead: a short run, its first-use costs included. Prints, per preset, the range over
the rounds, the times the peer of the same round, and how many times slower than pagat it is
(issue 11: pagat at least 5 times the peer, and every preset within a factor 2 of that: at
least 2.5 times).

    python benchmarks/presets_vs_peer.py /work/peer/src --rounds 3
    python benchmarks/presets_vs_peer.py /work/peer/src --rounds 2 --moves 50000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from checked_vs_peer import TOOL, peer_loop, run_json  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _presets(games: int, moves: int, players: int, seconds: float) -> dict[str, int]:
    cmd = [sys.executable, "benchmarks/engine.py", "--all", "--games", str(games), "--moves", str(moves),
           "--players", str(players), "--seconds", str(seconds), "--json"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return {f"{r['variant']} ({r['players']} players)" if r["players"] != players else r["variant"]: r["moves_per_cpu_s"]
            for r in rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("peer_src", help="the peer's src directory (a checkout of trachwo/masters-of-shithead)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--moves", type=int, default=0,
                    help="moves per preset per round (at least), in place of --seconds: a short run, its "
                         "first-use costs included")
    ap.add_argument("--games", type=int, default=60, help="games per preset per round, with --moves 0 and --seconds 0")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=5,
                    help="the peer's play per round, and each preset's (CPU seconds) unless --moves")
    ap.add_argument("--tool", default=str(TOOL), help="the shared peer_speed.py (default: beside the project)")
    args = ap.parse_args(argv)
    peer_cmd = [sys.executable, "-c", peer_loop(args.peer_src, args.seconds, Path(args.tool))]
    ours: list[dict[str, int]] = []
    peers: list[int] = []
    for k in range(args.rounds):
        ours.append(_presets(args.games, args.moves, args.players, 0 if args.moves else args.seconds))
        peers.append(run_json(peer_cmd, args.peer_src)[0])
        print(f"round {k + 1}: pagat {ours[-1].get('pagat', 0):,}, peer {peers[-1]:,} moves per CPU second", flush=True)
    print(f"{'preset':28} {'moves per CPU second':>22} {'times the peer':>16} {'pagat / preset':>15}")
    for name in sorted(ours[0], key=lambda n: -min(r[n] for r in ours)):
        got = [r[name] for r in ours]
        times = [g / p for g, p in zip(got, peers, strict=True)]
        slower = [r["pagat"] / r[name] for r in ours if "pagat" in r]
        print(f"{name:28} {min(got):>10,}-{max(got):<11,} {min(times):>7.2f}-{max(times):<8.2f} "
              f"{min(slower, default=0):>6.2f}-{max(slower, default=0):.2f}")
    print(f"peer: {min(peers):,}-{max(peers):,} moves per CPU second")
    low = [name for name in ours[0] if min(r[name] / p for r, p in zip(ours, peers, strict=True)) < 2.5]
    print("at least 2.5 times the peer in every round: " + ("every preset" if not low else "all but " + ", ".join(sorted(low))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
