"""Are the advisor's hints what a strong player would say? A fixed set of positions.

Each position in ``benchmarks/positions/`` is a table file (the contract's format, so
``tutor hint --table benchmarks/positions/p01.yaml`` reads it) written from the view of
the player to move in a seeded game: their own hand, every face-up card, the pile, the
burned cards, the cards seen going into other hands (a partly seen hand,
``hand: {seen: [...], unseen: N}``) and counts for everything unseen.
A few positions (p12, p13, p14, l11: each file's first line says so) are constructed by hand
for one fault of an earlier hint rather than taken from a game.
``benchmarks/positions/expected.yaml`` says, for each, the moves a strong player would
accept and the fact the explanation must state (as patterns the hint's text must match),
written from the rules and the game before the hint was run.

A hint passes when its best move is one of the accepted moves and its text (the three
steps and the best move's reason) matches every pattern of the fact.

    python benchmarks/hint_quality.py                      # every position, 2,000 simulations each
    python benchmarks/hint_quality.py --only p03 p07 -v    # some, with the hint's text
    python benchmarks/hint_quality.py make pagat 4 12 30 p99   # write a position: variant players seed ply name
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import yaml  # noqa: E402

from tutor.advisor import KnownCards, hint  # noqa: E402
from tutor.core.cards import card_str  # noqa: E402
from tutor.core.moves import Move  # noqa: E402
from tutor.core.table import CLOCKWISE, Table, load_table_file, table_from_dict  # noqa: E402
from tutor.engine import apply_unchecked, game_over, legal_moves  # noqa: E402
from tutor.play.game import GreedyBot, arrange, deal, start  # noqa: E402
from tutor.rules.variant import load_variant  # noqa: E402

HERE = Path(__file__).resolve().parent / "positions"


# -- making a position ------------------------------------------------------------------


def play_to(variant: str, players: int, seed: int, ply: int) -> tuple[Table, KnownCards]:
    """A greedy game (seeded) stopped before move ``ply``, with the cards seen going into hands."""
    v = load_variant(variant)
    t = start(arrange(deal(v, players, seed), v), v)
    known = KnownCards(players)
    rng = random.Random(seed)
    bot = GreedyBot()
    for _ in range(ply):
        if game_over(t, v):
            raise SystemExit(f"the game of seed {seed} is over before move {ply}")
        moves = legal_moves(t, v)
        m = bot.choose(t, v, moves, rng)
        after, events = apply_unchecked(t, v, m)
        known.update(t, m, after, events)
        t = after
    return t, known


def view_table(t: Table, known: KnownCards, variant: str) -> dict[str, Any]:
    """The table file of what the player to move sees (nothing hidden from them is written)."""
    seen = known.hands()
    players: list[dict[str, Any]] = []
    for i, p in enumerate(t.players):
        if i == t.turn:
            hand: Any = [card_str(c) for c in p.hand]
        else:
            cards = [card_str(c) for c in seen.get(i, ())]
            unseen = len(p.hand) - len(cards)
            hand = {"seen": cards, "unseen": unseen} if cards and unseen else (cards if cards else unseen)
        up = [card_str(s[0]) if len(s) == 1 else [card_str(c) for c in s] for s in p.face_up]
        players.append({"name": p.name, "hand": hand, "face_up": up, "face_down": len(p.face_down)})
    pile = [{"by": t.players[pl.by].name, "cards": [card_str(c) for c in pl.cards]} if pl.by >= 0
            else [card_str(c) for c in pl.cards] for pl in t.pile]
    return {"variant": variant, "decks": t.decks, "players": players, "pile": pile,
            "stock": len(t.stock), "burned": [card_str(c) for c in t.burned],
            "turn": t.players[t.turn].name,
            "direction": "clockwise" if t.direction == CLOCKWISE else "counterclockwise"}


def make(variant: str, players: int, seed: int, ply: int, name: str) -> Path:
    t, known = play_to(variant, players, seed, ply)
    data = view_table(t, known, variant)
    path = HERE / f"{name}.yaml"
    head = f"# {variant}, {players} players, seed {seed}, before move {ply} (greedy play), {data['turn']} to move\n"
    path.write_text(head + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=110),
                    encoding="utf-8")
    return path


# -- judging the hints ------------------------------------------------------------------


def load_position(name: str) -> tuple[Table, str]:
    raw = load_table_file(HERE / f"{name}.yaml")
    variant = str(raw.get("variant", "pagat"))
    v = load_variant(variant)
    table = table_from_dict({k: x for k, x in raw.items() if k != "variant"}, where=name,
                            decks=v.decks_for(len(raw["players"])), jokers_per_deck=v.jokers)
    return table, variant


def judge(name: str, spec: dict[str, Any], iterations: int, seed: int) -> dict[str, Any]:
    table, variant = load_position(name)
    t0 = time.perf_counter()
    h = hint(table, variant, iterations=iterations, seed=seed)
    secs = time.perf_counter() - t0
    accept = [Move.parse(m) for m in spec["accept"]]
    best = h.moves[0]
    move_ok = any(best.covers(m) for m in accept)
    text = "\n".join(h.steps) + "\n" + best.why
    missing = [p for p in spec["mention"] if not re.search(p, text, re.IGNORECASE)]
    return {"name": name, "best": str(h.best), "move_ok": move_ok, "fact_ok": not missing,
            "missing": missing, "text": h.text(), "seconds": secs}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "make":
        ap = argparse.ArgumentParser(description="write a position from a seeded greedy game")
        ap.add_argument("cmd")
        ap.add_argument("variant")
        ap.add_argument("players", type=int)
        ap.add_argument("seed", type=int)
        ap.add_argument("ply", type=int)
        ap.add_argument("name")
        a = ap.parse_args()
        print(make(a.variant, a.players, a.seed, a.ply, a.name).read_text())
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=2000, help="simulations per hint")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", help="the positions to run (default: all)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every hint")
    args = ap.parse_args()
    expected = yaml.safe_load((HERE / "expected.yaml").read_text(encoding="utf-8"))
    names = [n for n in expected if not args.only or n in args.only]
    passed = 0
    for n in names:
        spec = expected[n]
        r = judge(n, spec, args.iterations, args.seed)
        ok = r["move_ok"] and r["fact_ok"]
        passed += ok
        mark = "pass" if ok else "FAIL"
        why = [] if r["move_ok"] else [f"move {r['best']} not in {spec['accept']}"]
        why += [f"no mention of /{p}/" for p in r["missing"]]
        print(f"{n}  {mark}  best {r['best']:<16} {r['seconds']:.2f} s  {spec['phase']}: {spec['fact']}"
              + ("" if ok else "\n      " + "; ".join(why)), flush=True)
        if args.verbose or not ok:
            print("      " + r["text"].replace("\n", "\n      "))
    print(f"\n{passed} of {len(names)} hints pick an accepted move and state the fact "
          f"({args.iterations} simulations a hint, seed {args.seed})")


if __name__ == "__main__":
    main()
