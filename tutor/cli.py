"""The ``tutor`` command: check, moves, variants, play, rules.

Every unreadable or impossible input exits 2 with one line on stderr; a question
that was answered (legal or not) exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from tutor.core import safeyaml
from tutor.core.cards import card_str
from tutor.core.errors import TutorError
from tutor.core.moves import Move
from tutor.core.table import Table, load_table_file
from tutor.engine import check, game_over, legal_moves
from tutor.engine.words import unlisted_note
from tutor.play.game import BOTS, play_game
from tutor.rules.variant import Variant, fragment_catalogue, load_table, load_variant, preset_catalogue


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"tutor: {message}\n")


def _number(kind: type[int] | type[float], low: float, high: float) -> Callable[[str], Any]:
    """An argparse type: ASCII digits only, within [low, high] (no inf, nan or 5,000 digits)."""

    def read(text: str) -> int | float:
        word = text.strip()
        ok = word.isascii() and len(word) <= 20 and word.replace(".", "", kind is float).lstrip("-").isdigit()
        value = kind(word) if ok else None
        if value is None or not low <= value <= high:
            what = "a whole number" if kind is int else "a number"
            span = f"{low:,} to {high:,}" if kind is int else f"{low:g} to {high:g}"
            raise argparse.ArgumentTypeError(f"{word[:20]!r} is not {what} from {span}")
        return value

    return read


def _load(args: argparse.Namespace) -> tuple[Table, Variant]:
    raw = load_table_file(args.table)
    spec = args.variant or raw.get("variant") or "pagat"
    if not isinstance(spec, str):
        raise TutorError(f"{args.table}: variant: {spec!r} is not a variant spec")
    v = load_variant(spec)
    return load_table(raw, v, where=args.table), v


def cmd_check(args: argparse.Namespace) -> int:
    table, v = _load(args)
    move = Move.parse(args.move)
    verdict = check(table, v, move)
    if args.json:
        print(json.dumps(verdict.to_json()))
        return 0
    print(("LEGAL: " if verdict.legal else "ILLEGAL: ") + str(move))
    print(verdict.reason)
    print("rules: " + ", ".join(verdict.rules))
    if verdict.legal:
        print("events: " + (", ".join(verdict.events) or "none"))
        print("next: " + (verdict.next_player or "nobody (the game is over)"))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    table, v = _load(args)
    # the mover's moves, then what others may do out of turn ('slide 3C by B'): every legal move
    moves = [str(m) for m in legal_moves(table, v, out_of_turn=True)]
    if args.json:
        print(json.dumps({"moves": moves}))
    elif moves:
        print("\n".join(moves))
        note = unlisted_note(v)
        if note:
            print(f"({note})")
    else:
        print("no moves: the game is over" if game_over(table, v) else "no moves")
    return 0


# Rule sets the sources name without giving their rules: listed, not playable.
NAMED_ONLY = (
    {"name": "Twisted Shithead", "source": "pagat.com, Shithead, Variations",
     "note": "by Galbraith/Lewis/Constance/Mabely (1993), described by Paul JaYmes; nearly every card has a power"},
    {"name": "Reverse Shithead", "source": "pagat.com, Shithead, Variations",
     "note": "contributed by Andrew Duthie; a reverse phase where beating the previous play is compulsory"},
    {"name": "Shit-Boot", "source": "pagat.com, Shithead, Variations", "note": "an archived page only"},
    {"name": "Mukava", "source": "pagat.com, Shithead, Variations (Cristian Seres)",
     "note": "a Finnish version whose rules are on an archived Finnish page"},
    {"name": "Piina", "source": "pagat.com, Shithead, Variations (Cristian Seres)",
     "note": "a Finnish version whose rules are on an archived Finnish page"},
)


def cmd_variants(args: argparse.Namespace) -> int:
    presets = preset_catalogue()
    frags = fragment_catalogue()
    if args.json:
        data: dict[str, Any] = {
            "presets": [
                {"id": p.id, "title": p.title, "summary": p.summary, "fragments": list(p.fragments),
                 "options": list(p.options),
                 "not_modelled": [{"rule": what, "why": why} for what, why in p.not_modelled],
                 "source": p.source.cite(), "file": p.path}
                for p in presets.values()
            ],
            "fragments": [
                {"id": f.id, "slot": f.slot, "title": f.title, "summary": f.summary,
                 "source": f.source.cite(), "file": f.path}
                for f in frags.values()
            ],
            "named_only": [dict(n, status="named in the sources, rules not given") for n in NAMED_ONLY],
        }
        print(json.dumps(data, indent=1))
        return 0
    print("Presets:")
    for p in presets.values():
        print(f"  {p.id:16} {p.title}")
        if p.options:
            print(f"  {'':16} options: " + ", ".join(f"{p.id}+{fid}" for fid in p.options))
        for what, _why in p.not_modelled:
            print(f"  {'':16} not modelled: {what}")
    print("\nFragments, by slot:")
    for f in sorted(frags.values(), key=lambda f: (f.slot, f.id)):
        print(f"  {f.slot:15} {f.id:28} {f.summary}")
    print("\nNamed in the sources, rules not given:")
    for n in NAMED_ONLY:
        print(f"  {n['name']:20} {n['note']} ({n['source']})")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    v = load_variant(args.variant)
    if args.bot == "advisor":
        from tutor.advisor.api import AdvisorBot  # the search: slower, so only when asked

        bots: list[Any] = [AdvisorBot(iterations=150) for _ in range(args.players)]
    elif args.bot in BOTS:
        bots = [BOTS[args.bot]() for _ in range(args.players)]
    else:
        raise TutorError(f"--bot: {args.bot!r} is not a bot (bots: {', '.join(BOTS)}, advisor)")
    lines: list[str] = []

    def show(before: Table, move: Move, after: Table, events: list[str]) -> None:
        verdict = check(before, v, move)
        who = before.player.name
        extra = f"  [{', '.join(events)}]" if events else ""
        lines.append(f"{len(lines) + 1:4}. {who}: {move}{extra}  — {verdict.reason}")

    result = play_game(v, args.players, args.seed, bots, on_move=show)
    start = result.start
    print(f"{v.id}, {args.players} players, seed {args.seed}, {start.decks} pack(s)")
    for p in start.players:
        up = " ".join(card_str(s[0]) for s in p.face_up)
        hand = " ".join(card_str(c) for c in p.hand)
        print(f"  {p.name}: hand {hand} | face up {up} | {len(p.face_down)} face down")
    print(f"  {start.player.name} leads.\n")
    print("\n".join(lines))
    if result.stalled:
        print(f"\nStalled after {result.turns} moves: the game could not end ({result.stall_reason}).")
    elif result.loser:
        print(f"\n{result.loser} is the shithead. Out in order: {', '.join(result.out_order)}.")
    else:
        print(f"\n{result.winner} wins.")
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    from tutor.advisor import hint

    table, v = _load(args)
    if args.seconds is not None and not args.seconds > 0:
        raise TutorError(f"--seconds: {args.seconds!r} is not a positive number of seconds")
    if args.iterations is not None and args.iterations < 1:
        raise TutorError(f"--iterations: {args.iterations!r} is not a positive number of simulations")
    h = hint(table, v, seconds=args.seconds, iterations=args.iterations, seed=args.seed)
    print(json.dumps(h.to_json()) if args.json else h.text())
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from tutor.rules.schema import fragment_schema, preset_schema

    print(json.dumps(fragment_schema() if args.kind == "fragment" else preset_schema(), indent=1))
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tutor.rules.variant import (
        build_variant,
        is_variant_data,
        load_fragment_text,
        parse_yaml,
        preset_from_data,
        read_variant_file,
    )

    path = Path(args.file)
    text = safeyaml.read_text(path, args.file, TutorError)
    data = parse_yaml(text, args.file)
    if is_variant_data(data):  # a preset with fragments over it (the Rulebook builder's download)
        v = read_variant_file(args.file)
        print(f"{args.file}: variant {v.id!r}, {len(v.fragments)} fragments: OK")
        return 0
    if isinstance(data, dict) and "fragments" in data and "slot" not in data:
        preset = preset_from_data(data, args.file)
        v = build_variant(preset, [], where=args.file)
        print(f"{args.file}: preset {preset.id!r} with {len(v.fragments)} fragments: OK")
        return 0
    frag = load_fragment_text(text, args.file)
    print(f"{args.file}: fragment {frag.id!r} for slot {frag.slot!r}, {len(frag.powers)} power(s): OK")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from tutor.teach.rulebook import rulebook_markdown

    print(rulebook_markdown(load_variant(args.variant)))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from tutor.compare import compare

    def progress(done: int, total: int) -> None:
        print(f"\rplaying games: {done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    shown = sys.stderr.isatty() and not args.json
    result = compare(args.specs, games=args.games, seed=args.seed, players=args.players, bot=args.bot,
                     workers=args.workers, progress=progress if shown else None)
    print(json.dumps(result.to_json(), indent=1) if args.json else result.text())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tutor", description="The Shithead tutor: rules, checks and games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("check", help="is this move legal on this table?")
    p.add_argument("--table", required=True)
    p.add_argument("--move", required=True)
    p.add_argument("--variant")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("moves", help="every legal move on this table (the mover's, then slides out of turn)")
    p.add_argument("--table", required=True)
    p.add_argument("--variant")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_moves)
    p = sub.add_parser("variants", help="the presets and fragments")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_variants)
    p = sub.add_parser("play", help="a whole bot game, move by move")
    p.add_argument("--variant", default="pagat")
    p.add_argument("--players", type=_number(int, 2, 16), default=4)
    p.add_argument("--seed", type=_number(int, 0, 10**12), default=0)
    p.add_argument("--bot", default="greedy")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("hint", help="what the player to move should play, and why (the advisor)")
    p.add_argument("--table", required=True)
    p.add_argument("--variant")
    p.add_argument("--seconds", type=_number(float, 0.01, 60), help="time budget, up to 60 s (default 1 s unless --iterations)")
    p.add_argument("--iterations", type=_number(int, 1, 1_000_000), help="simulation budget (deterministic for a seed)")
    p.add_argument("--seed", type=_number(int, 0, 10**12), default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_hint)
    p = sub.add_parser("schema", help="the JSON Schema of fragment (or preset) files")
    p.add_argument("kind", nargs="?", default="fragment", choices=["fragment", "preset"])
    p.set_defaults(func=cmd_schema)
    p = sub.add_parser("validate", help="check a fragment file of your own")
    p.add_argument("file")
    p.set_defaults(func=cmd_validate)
    p = sub.add_parser("rules", help="the rulebook of a variant")
    p.add_argument("variant")
    p.set_defaults(func=cmd_rules)
    p = sub.add_parser("compare", help="two or more variants side by side: rules, verdicts, play")
    p.add_argument("specs", nargs="+", metavar="SPEC")
    p.add_argument("--games", type=_number(int, 1, 100_000),
                   help="games per variant, up to 100,000 (default 1000; 300 if only the engine plays it)")
    p.add_argument("--seed", type=_number(int, 0, 10**12), default=0)
    p.add_argument("--players", type=_number(int, 2, 16), help="default 4, or what all the variants allow")
    p.add_argument("--bot", default="greedy", help="the bots at every seat (random, playful, epsilon, greedy)")
    p.add_argument("--workers", type=_number(int, 1, max(1, min(8, os.cpu_count() or 1))),
                   help="processes playing the games, at most one per core (default: one per core)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_compare)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already reported in one line
        return int(exc.code or 0)
    try:
        return int(args.func(args))
    except TutorError as exc:
        print(f"tutor: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("tutor: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
