"""Instructions a move, counted by callgrind: the engine's workloads, and the peer engine's.

Times on a shared 2-core machine move with its load; instruction counts do not. This runs one
workload of ``benchmarks/engine.py`` (its ``run``: deal, set up and play the games) under
``valgrind --tool=callgrind``, counting only inside it (the interpreter's start, the imports and
the first loading of the variants, some 3.7 billion instructions, are left out), and divides by
the moves made. The first use of the engine's tables is counted: a 5-game run of the checked path
pays more of it a move than a long one. Each run gets a clean environment (``env -i`` with PATH,
PYTHONHASHSEED=0, PYTHONPATH and a padding variable): counted with the shell's environment passed
on, one tree's count once moved by up to 9% between runs (the environment's size moves the memory
layout); ``--pads 1 700 2048`` counts at three paddings. ``--no-gc`` turns the cyclic garbage
collector off in every run.

With ``--peer PEER_SRC`` (a checkout of trachwo/masters-of-shithead's ``src``) the peer's own
random-play loop (4 players, seeded) is counted the same way, and each line says how many times
the peer's instructions a move this makes. Issue 11's targets are in moves a second, side by side
(``checked_vs_peer.py``, ``presets_vs_peer.py``, ``../shared/tools/peer_speed.py``): pagat's
runner 5 times the peer, every preset 2.5 times, the checked path 2 times. By the clock the peer
runs fewer instructions a second than this engine, so its ratio by time is higher than by
instructions (the checked path, 2026-11-28: 1.74 by instructions, 1.83-1.95 by CPU).
``--before DIR`` counts another checkout of this project too, in the same run.

    python benchmarks/instructions.py --peer /work/peer/src
    python benchmarks/instructions.py --workload tauko-hogni:60 --before /work/base10
    python benchmarks/instructions.py --all --moves 20000           # every preset, by moves
    python benchmarks/instructions.py --workload checked:5 --pads 1 700 2048

A workload is ``NAME:GAMES``: ``checked`` is pagat's checked path (``engine.py --engine``), any
other name a preset played by the runner. Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ("checked:5", "pagat:20", "tauko-hogni:60", "bluff:300")
TARGETS = {"checked": 2.0, "pagat": 5.0}  # times the peer; every other preset 2.5

# One workload of engine.py, its ``run`` called through itertools.starmap: callgrind counts only
# inside ``starmap_next`` (``--toggle-collect``), so the interpreter's start, the imports and the
# variants' loading are left out (the start alone is some 3.7 billion instructions). The engine
# calls no starmap of its own.
OURS = """
import gc, json, runpy, sys
from itertools import starmap
{gc}
sys.setrecursionlimit(10000)
eng = runpy.run_path("benchmarks/engine.py")
from tutor.rules.variant import load_variant
name, games, moves, checked = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
v = load_variant(name)
players = min(max(4, v.min_players), v.max_players)
got = list(starmap(eng["run"], [(name, players, games, 0, "random", checked, moves)]))[0]
print(json.dumps(got))
"""

# the peer's random play, as ../shared/tools/peer_speed.py runs it, for a number of games, seeded,
# counted the same way
PEER = """
import gc, json, random, sys
from itertools import starmap
{gc}
sys.path.insert(0, {src!r})
from shithead.game import Game
from shithead.state import State
from shithead.play import Play
from shithead.fup_table import FupTable, FUP_TABLE_FILE
from shithead import player as plr
random.seed(0)
fup = FupTable(); fup.load(FUP_TABLE_FILE, True)
def game(n):
    ps = [plr.ShitHappens(chr(65 + i), fup) for i in range(n)]
    st = State(ps, -1, Game.calc_nof_decks(n), ('No Secrets', False, False, ''))
    for p in (Play('SHUFFLE'), Play('BURN'), Play('DEALER', 0), Play('DEAL')):
        st = Game.next_state(st, p, None, None)
    a = 0
    while len(st.players) > 1 and a < 5000:
        st = Game.next_state(st, st.players[st.player].play(st), None, None); a += 1
    return a
def games(k):
    return sum(game(4) for _ in range(k))
print(json.dumps({{"moves": list(starmap(games, [({games},)]))[0]}}))
"""


def _count(argv: list[str], cwd: Path, pad: int, pythonpath: str) -> tuple[int, dict[str, object]]:
    """Instructions of one run under callgrind in a clean environment, and its last JSON line."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONPATH": pythonpath, "PADDING": "x" * pad}
        run = subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=starmap_next",
                              f"--callgrind-out-file={out}", *argv],
                             cwd=cwd, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"{' '.join(argv[:3])}... failed: {run.stderr.strip().splitlines()[-1:]}")
        text = out.read_text()
        m = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        if m is None:
            raise SystemExit(f"no total in callgrind's output for {argv}")
        lines = [ln for ln in run.stdout.splitlines() if ln.startswith("{")]
        return int(m.group(1)), (json.loads(lines[-1]) if lines else {})


def ours_per_move(tree: Path, name: str, games: int, moves: int, pad: int, gc: bool = True) -> tuple[float, int]:
    """Instructions a move of one workload in the checkout ``tree``, and the moves counted."""
    code = OURS.format(gc="" if gc else "gc.disable()")
    checked = name == "checked"
    total, got = _count([sys.executable, "-c", code, "pagat" if checked else name, str(games), str(moves),
                         "1" if checked else "0"], tree, pad, str(tree))
    n = int(got["moves"])  # type: ignore[call-overload]
    return total / n, n


def peer_per_move(src: Path, games: int, pad: int, gc: bool = True) -> tuple[float, int]:
    """Instructions a move of the peer's random play (``games`` games of 4 players)."""
    code = PEER.format(src=str(src), games=games, gc="" if gc else "gc.disable()")
    total, got = _count([sys.executable, "-c", code], src, pad, str(src))
    n = int(got["moves"])  # type: ignore[call-overload]
    return total / n, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--workload", action="append", help="NAME:GAMES (repeatable); default " + " ".join(DEFAULT))
    ap.add_argument("--all", action="store_true", help="every preset (by --moves), and the checked path")
    ap.add_argument("--moves", type=int, default=0, help="count each preset over games until this many moves")
    ap.add_argument("--before", help="another checkout of this project, counted too")
    ap.add_argument("--tree", default=str(ROOT), help="the checkout to count (default: this one)")
    ap.add_argument("--peer", help="the peer's src directory (trachwo/masters-of-shithead)")
    ap.add_argument("--peer-games", type=int, default=100, help="the peer's games (seeded; its games last about 400 moves, one in a hundred runs to its 5,000-move cap)")
    ap.add_argument("--pads", type=int, nargs="+", default=[1], help="environment paddings (bytes) to count at")
    ap.add_argument("--no-gc", action="store_true",
                    help="the cyclic garbage collector off in every run (ours and the peer's alike)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    if args.all:
        sys.path.insert(0, str(ROOT))
        from tutor.rules.variant import preset_catalogue
        work = [("checked", 5)] + [(p, 60) for p in sorted(preset_catalogue())]
    else:
        work = [(w.split(":")[0], int(w.split(":")[1]) if ":" in w else 20) for w in (args.workload or DEFAULT)]
    trees = ([("before", Path(args.before).resolve())] if args.before else []) + [("this", Path(args.tree).resolve())]
    for _, tree in trees:  # compiled first: the first run should not count the compiling
        subprocess.run([sys.executable, "-m", "compileall", "-q", "tutor", "benchmarks"], cwd=tree,
                       capture_output=True, check=False)
    peer = None
    if args.peer:
        peer, n = peer_per_move(Path(args.peer).resolve(), args.peer_games, args.pads[0], not args.no_gc)
        print(f"peer: {peer:,.0f} instructions a move ({n:,} moves, {args.peer_games} games)", flush=True)
    for name, games in work:
        moves = args.moves if args.moves and name != "checked" else 0
        for pad in args.pads:
            cells = []
            for label, tree in trees:
                per, n = ours_per_move(tree, name, games, moves, pad, not args.no_gc)
                cell = f"{label} {per:,.0f}"
                if peer:
                    cell += f" ({peer / per:.2f}x the peer; target {TARGETS.get(name, 2.5)})"
                cells.append(cell)
            size = f"{moves:,} moves" if moves else f"{games} games"
            print(f"{name} ({size}, pad {pad}, {n:,} moves): " + " | ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
