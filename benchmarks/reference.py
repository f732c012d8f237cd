"""The engine's answers, as digests: do two versions of the code give the same games, move
lists, verdicts, tables and hints?

A speed change must not change an answer. This plays a fixed set of seeded work and prints
one digest per group (and one over all of them):

* ``runner/...``: whole games of every preset (and every option the presets offer) at each
  player count, with each bot, recorded and not (:func:`tutor.play.game.play_game`): the
  outcome, counts, the moves and the final table when recorded;
* ``checked/...``: seeded games through the immutable table's API, the way the app and the
  conformance run use it: at every move the listed moves, the verdict (code, sentence,
  rules, events, next player) of the chosen move and of a few other moves, and the table
  after it written as its table file;
* ``advisor/...``: whole hints (best move, every choice's numbers and words) on middle-game
  tables, at a fixed number of simulations.

    python benchmarks/reference.py --save /tmp/ref-before.json      # on the old code
    python benchmarks/reference.py --against /tmp/ref-before.json   # on the new: lists what differs
    python benchmarks/reference.py --only checked --against ...     # one part

Exit status 1 when a group differs from ``--against``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.core.moves import FLIP, PICKUP, PLAY, Move  # noqa: E402
from tutor.core.table import Table  # noqa: E402
from tutor.engine import apply_unchecked, check, game_over, legal_moves, position_of  # noqa: E402
from tutor.play.game import BOTS, Circle, GreedyBot, arrange, deal, play_game, start  # noqa: E402
from tutor.rules.variant import Variant, load_variant, preset_catalogue  # noqa: E402


def _digest(items: Iterator[object]) -> str:
    h = hashlib.sha256()
    for item in items:
        h.update(repr(item).encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def _specs() -> list[str]:
    presets = sorted(preset_catalogue())
    options = sorted(f"{p.id}+{fid}" for p in preset_catalogue().values() for fid in p.options)
    return presets + options + ["nortenos+threes-slide+fours-reset"]


def _counts(v: Variant) -> list[int]:
    return sorted({max(v.min_players, 2), min(max(v.min_players, 3), v.max_players), min(4, v.max_players)})


def _game(result: object) -> Iterator[object]:
    r = result
    yield (r.turns, r.stalled, r.stall_reason, r.loser, r.winner, tuple(r.out_order), r.pickups,  # type: ignore[attr-defined]
           r.burns, r.flips, r.looped, r.cut)  # type: ignore[attr-defined]
    for seat, m, events in r.moves:  # type: ignore[attr-defined]
        yield seat, str(m), events
    if r.final is not None:  # type: ignore[attr-defined]
        yield r.final.to_dict()  # type: ignore[attr-defined]


def runner_groups(specs: list[str], seeds: int) -> Iterator[tuple[str, Callable[[], Iterator[object]]]]:
    for spec in specs:
        v = load_variant(spec)
        for n in _counts(v):
            for bot in sorted(BOTS):
                for record in (False, True):
                    def work(v: Variant = v, n: int = n, bot: str = bot, record: bool = record) -> Iterator[object]:
                        for seed in range(seeds if not record else max(1, seeds // 2)):
                            yield from _game(play_game(v, n, seed, [BOTS[bot]() for _ in range(n)], record=record))
                    yield f"runner/{spec}/{n}p/{bot}/{'recorded' if record else 'bulk'}", work


def _verdict(table: Table, v: Variant, m: Move) -> tuple[object, ...]:
    got = check(table, v, m)
    return str(m), got.code.value, got.reason, got.rules, got.events, got.next_player


def _others(table: Table, rng: random.Random) -> list[Move]:
    """A few moves to judge beside the chosen one, legal or not."""
    p = table.player
    out = [Move(PICKUP), Move(FLIP, (), 1)]
    cards = [c for c in p.hand + p.face_up_cards if c >= 0]
    if cards:
        c = rng.choice(cards)
        out.append(Move(PLAY, (c,)))
        out.append(Move(PLAY, tuple(sorted(d for d in cards if d >> 2 == c >> 2))))
    return out


def checked_groups(specs: list[str], seeds: int, max_moves: int = 400) -> Iterator[tuple[str, Callable[[], Iterator[object]]]]:
    for spec in specs:
        v = load_variant(spec)
        for n in _counts(v):
            def work(v: Variant = v, n: int = n) -> Iterator[object]:
                for seed in range(seeds):
                    rng = random.Random(seed * 7919 + 1)
                    side = random.Random(seed)
                    table = start(arrange(deal(v, n, seed), v), v)
                    bot = BOTS["epsilon"]()
                    circle = Circle()
                    for _ in range(max_moves):
                        if game_over(table, v):
                            break
                        moves = legal_moves(table, v)
                        yield tuple(map(str, moves))
                        move = bot.choose(table, v, moves, rng)
                        yield _verdict(table, v, move)
                        for m in _others(table, side):
                            yield _verdict(table, v, m)
                        table, events = apply_unchecked(table, v, move)
                        yield tuple(map(str, events)), table.to_dict()
                        if circle.stalled_after(position_of(table, v), events):
                            yield "stalled", circle.why
                            break
            yield f"checked/{spec}/{n}p", work


def _midgame(v: Variant, players: int, seed: int, plies: int) -> Table | None:
    t = start(arrange(deal(v, players, seed), v), v)
    rng = random.Random(seed)
    for _ in range(plies):
        if game_over(t, v):
            return None
        t, _ = apply_unchecked(t, v, GreedyBot().choose(t, v, legal_moves(t, v), rng))
    return None if game_over(t, v) or len(legal_moves(t, v)) < 2 else t


def advisor_groups(variants: list[str], tables: int, iterations: int) -> Iterator[tuple[str, Callable[[], Iterator[object]]]]:
    from tutor.advisor import hint

    for spec in variants:
        v = load_variant(spec)
        for plies in (8, 30):
            def work(v: Variant = v, plies: int = plies) -> Iterator[object]:
                got, seed = 0, 0
                while got < tables and seed < 200:
                    seed += 1
                    t = _midgame(v, 4 if v.max_players >= 4 else v.max_players, seed, plies)
                    if t is None:
                        continue
                    got += 1
                    h = hint(t, v, iterations=iterations, seed=seed).to_json()
                    h.pop("seconds")
                    yield seed, h
            yield f"advisor/{spec}/after-{plies}", work


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--only", choices=("runner", "checked", "advisor"), action="append",
                    help="only these parts (repeatable; default all)")
    ap.add_argument("--seeds", type=int, default=4, help="games per runner group (half when recorded)")
    ap.add_argument("--checked-seeds", type=int, default=2, help="games per checked group")
    ap.add_argument("--tables", type=int, default=2, help="tables per advisor group")
    ap.add_argument("--iterations", type=int, default=300, help="simulations per hint")
    ap.add_argument("--variant", action="append", help="only these specs (repeatable; default every preset and option)")
    ap.add_argument("--save", help="write the digests to this JSON file")
    ap.add_argument("--against", help="compare with digests saved by --save")
    ap.add_argument("--quiet", action="store_true", help="print only differences and the total")
    args = ap.parse_args(argv)
    parts = args.only or ["runner", "checked", "advisor"]
    specs = args.variant or _specs()
    groups: list[tuple[str, Callable[[], Iterator[object]]]] = []
    if "runner" in parts:
        groups += runner_groups(specs, args.seeds)
    if "checked" in parts:
        groups += checked_groups(specs, args.checked_seeds)
    if "advisor" in parts:
        groups += advisor_groups(args.variant or ["pagat", "lancaster", "karma", "bluff", "guarducci", "tauko-hogni"],
                                 args.tables, args.iterations)
    before = json.loads(Path(args.against).read_text()) if args.against else {}
    got: dict[str, str] = {}
    differ: list[str] = []
    t0, c0 = time.perf_counter(), time.process_time()
    for name, work in groups:
        got[name] = d = _digest(work())
        old = before.get(name)
        if old is not None and old != d:
            differ.append(name)
            print(f"DIFFERS {name}: {old} -> {d}", flush=True)
        elif not args.quiet:
            print(f"{name} {d}", flush=True)
    total = _digest(iter(sorted(got.items())))
    print(f"{len(got)} groups, digest {total}; {time.perf_counter() - t0:.1f} s wall, "
          f"{time.process_time() - c0:.1f} s CPU")
    if args.against:
        missing = sorted(set(before) - set(got)) if not (args.only or args.variant) else []
        print(f"against {args.against}: {len(differ)} differ, "
              f"{sum(1 for k in got if k in before) - len(differ)} same, {len(missing)} not run")
    if args.save:
        Path(args.save).write_text(json.dumps(got, indent=0, sort_keys=True))
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
