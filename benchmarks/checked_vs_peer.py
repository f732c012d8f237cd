"""The checked path against the peer engine (and another checkout of this project), side by side.

Runs, one process at a time and alternating for ``--rounds`` rounds: ``benchmarks/engine.py
--engine --seconds S --json`` in each checkout given (``--before DIR`` first, if given, then this
one), then the peer's random-play loop from ``../shared/tools/peer_speed.py`` (trachwo/
masters-of-shithead, 4 players, ``--seconds`` of play) with its moves also counted per CPU
second of its own process. Each plays for the same time, so the first use of tables weighs as
little in ours as in the peer's (``--games N``: N games of ours instead, a short run; a
checkout whose engine.py has no ``--seconds`` gets ``--games``). Prints moves per CPU second and per wall second of each, then the
ratios per round (the ratio holds on a busy machine where the absolute figures do not).

    python benchmarks/checked_vs_peer.py /work/peer/src --before /tmp/main-checkout --rounds 3
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT.parent / "shared" / "tools" / "peer_speed.py"


def peer_loop(src: str, seconds: float, tool: Path) -> str:
    """The peer tool's loop, also timing its own CPU."""
    if not tool.is_file():
        raise SystemExit(f"{tool}: no such file (give the shared peer_speed.py with --tool)")
    spec = importlib.util.spec_from_file_location("peer_speed", tool)
    assert spec is not None and spec.loader is not None
    peer_speed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peer_speed)
    code = str(peer_speed.PEER).format(src=src, secs=seconds, n=4)
    code = code.replace("t = time.time(); g = m = 0", "t = time.time(); c0 = time.process_time(); g = m = 0")
    code = code.replace('"moves_per_s": round(m / dt)}',
                        '"moves_per_s": round(m / dt), "moves_per_cpu_s": round(m / (time.process_time() - c0))}')
    if "moves_per_cpu_s" not in code or "c0 =" not in code:
        raise SystemExit(f"{tool}: its peer loop has changed; cannot time its CPU")
    return code


def run_json(cmd: list[str], cwd: str) -> tuple[int, int]:
    """Run ``cmd`` in ``cwd`` and read (moves per CPU second, per wall second) off its last line.
    Tried three times: the peer's own loop now and then stops on an error of its own."""
    for _ in range(3):
        out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                             env={"PYTHONPATH": cwd, "PATH": "/usr/bin:/bin"})
        if out.returncode == 0:
            got = json.loads(out.stdout.strip().splitlines()[-1])
            return int(got["moves_per_cpu_s"]), int(got["moves_per_s"])
    raise SystemExit(f"{' '.join(cmd[:2])} in {cwd} failed: {out.stderr.strip().splitlines()[-1:]}")


def _length(checkout: Path, games: int, seconds: float) -> list[str]:
    """How long a checkout's run plays: ``games`` games, else ``seconds`` (``--games 2000`` where
    its engine.py predates ``--seconds``)."""
    if games:
        return ["--games", str(games)]
    if "--seconds" not in (checkout / "benchmarks" / "engine.py").read_text():
        return ["--games", "2000"]
    return ["--seconds", str(seconds)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("peer_src", help="the peer's src directory (a checkout of trachwo/masters-of-shithead)")
    ap.add_argument("--before", help="another checkout of this project, run first in each round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=0,
                    help="our games per run (pagat, 4 players), in place of --seconds: a short run")
    ap.add_argument("--seconds", type=float, default=5, help="the peer's play per run, and ours unless --games")
    ap.add_argument("--tool", default=str(TOOL), help="the shared peer_speed.py (default: beside the project)")
    args = ap.parse_args(argv)
    ours = [sys.executable, "benchmarks/engine.py", "--engine", "--json"]
    runs = [(name, ours + _length(Path(cwd), args.games, args.seconds), cwd)
            for name, cwd in ([("before", args.before)] if args.before else []) + [("this", str(ROOT))]]
    runs.append(("peer", [sys.executable, "-c", peer_loop(args.peer_src, args.seconds, Path(args.tool))], args.peer_src))
    rows: dict[str, list[tuple[int, int]]] = {name: [] for name, _, _ in runs}
    for _ in range(args.rounds):
        for name, cmd, cwd in runs:
            cpu, wall = run_json(cmd, cwd)
            rows[name].append((cpu, wall))
            print(f"{name}: {cpu:,} moves per CPU second, {wall:,} per wall second", flush=True)
    for k in range(args.rounds):
        this, peer = rows["this"][k], rows["peer"][k]
        line = f"round {k + 1}: this/peer {this[0] / peer[0]:.2f} (CPU), {this[1] / peer[1]:.2f} (wall)"
        if args.before:
            before = rows["before"][k]
            line += f"; before/peer {before[0] / peer[0]:.2f} (CPU); this/before {this[0] / before[0]:.2f} (CPU)"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
