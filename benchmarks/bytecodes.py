"""Where random play's time goes, by bytecodes: per function and per line, a move on average.

Plays ``--games`` seeded games (seeds 0 onwards, 4 players, random bots) of one variant through
the runner (``--checked``: the checked path, as ``engine.py --engine``) with CPython's opcode
tracing on, and prints the bytecodes run a move: in all, per function (with its calls a move),
then per line. Bytecodes are not instructions (a C call such as ``sum`` or ``int.to_bytes`` is
one bytecode and hundreds of instructions: ``instructions.py`` counts those), but they show
which steps a move pays for, deterministically and in seconds, where callgrind sees only the
interpreter's C functions. ``--lines QUALNAME`` lists one function's lines in order instead.

    python benchmarks/bytecodes.py --variant tauko-hogni --games 20
    python benchmarks/bytecodes.py --variant bluff --games 200 --lines Position.push_bluff_drawn
    python benchmarks/bytecodes.py --checked --games 5 --top 30
"""

from __future__ import annotations

import argparse
import linecache
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import checked_game  # noqa: E402

from tutor.core.errors import TutorError  # noqa: E402
from tutor.play.game import BOTS, play_game  # noqa: E402
from tutor.rules.variant import load_variant  # noqa: E402


def count(variant: str, games: int, checked: bool) -> tuple[int, Counter[tuple[str, str, int]], Counter[str]]:
    """The moves of ``games`` games, the bytecodes run per (function, file, line), and the calls per
    function."""
    v = load_variant(variant)
    players = min(max(4, v.min_players), v.max_players)

    def game(seed: int) -> int:
        if checked:
            return checked_game(v, players, seed, "random")[0]
        return play_game(v, players, seed, [BOTS["random"]() for _ in range(players)], record=False).turns

    game(10**6)  # (the engine's tables made before counting: a first game builds some)
    ops: Counter[tuple[str, str, int]] = Counter()
    calls: Counter[str] = Counter()

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        if event == "opcode":
            ops[code.co_qualname, code.co_filename, frame.f_lineno] += 1
        elif event == "call":
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
            calls[code.co_qualname] += 1
        return trace

    moves = 0
    sys.settrace(trace)
    try:
        for seed in range(games):
            moves += game(seed)
    finally:
        sys.settrace(None)
    return moves, ops, calls


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--variant", default="pagat", help="a variant spec (default pagat)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--checked", action="store_true", help="the checked path (legal_moves and check every move)")
    ap.add_argument("--top", type=int, default=40, help="how many functions and lines to list")
    ap.add_argument("--lines", metavar="QUALNAME", help="list this function's lines in order (e.g. Position.push_cards)")
    args = ap.parse_args(argv)
    try:
        moves, ops, calls = count(args.variant, max(1, args.games), args.checked)
    except TutorError as e:  # (a variant spec that does not load: one line, no traceback)
        print(f"bytecodes.py: {e}", file=sys.stderr)
        return 2
    if not moves:
        print("no moves made")
        return 1
    per_fn: Counter[str] = Counter()
    for (fn, _, _), n in ops.items():
        per_fn[fn] += n
    print(f"{args.variant}{' (checked path)' if args.checked else ''}: {moves:,} moves, "
          f"{sum(ops.values()) / moves:,.0f} bytecodes a move")
    if args.lines:
        print(f"-- {args.lines}: bytecodes a move, line")
        for (fn, path, line), n in sorted(ops.items(), key=lambda kv: kv[0][2] or 0):
            if fn == args.lines:
                print(f"{n / moves:8.2f}  {line or 0:5}  {linecache.getline(path, line or 0).strip()[:100]}")
        return 0
    print("-- per function: bytecodes a move, calls a move")
    for fn, n in per_fn.most_common(args.top):
        print(f"{n / moves:8.1f}  {calls[fn] / moves:6.3f}  {fn}")
    print("-- per line: bytecodes a move")
    for (fn, path, line), n in ops.most_common(args.top):
        print(f"{n / moves:8.1f}  {fn}:{line}  {linecache.getline(path, line or 0).strip()[:80]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
