"""Annotated game records (``rules/games/*.yaml``): loading and replaying them.

A record holds a starting table (the contract's table file, after the setup
swaps), the variant, and the moves in order, each with who makes it, a note in
plain words, the fragments it illustrates, and what should happen
(``expect: {events: [...], next: NAME}``). Replaying runs every move through
``check`` and ``apply``; a record whose narration the rules do not bear out is
refused with the step that fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tutor.core import safeyaml
from tutor.core.errors import TutorError
from tutor.core.moves import Move
from tutor.core.table import Table
from tutor.engine import Verdict, apply_unchecked, check
from tutor.rules.variant import GAMES_DIR, Variant, load_table, load_variant


@dataclass(frozen=True)
class Step:
    """One move of a record, with the tables before and after it."""

    number: int  # 1-based
    by: str
    move: Move
    note: str
    rules: tuple[str, ...]
    expect: Mapping[str, Any]
    before: Table
    after: Table
    verdict: Verdict


@dataclass(frozen=True)
class GameRecord:
    id: str
    title: str
    summary: str
    variant: Variant
    source: Mapping[str, Any]
    start: Table
    steps: tuple[Step, ...]
    path: str
    discrepancies: str = ""


def load_record(path: str | Path) -> GameRecord:
    """Load and replay a record; raise TutorError naming the first step the rules contradict."""
    p = Path(path)
    data = safeyaml.read_file(p, str(p), TutorError)
    return record_from_data(data, str(p))


def record_from_data(data: Any, where: str) -> GameRecord:
    if not isinstance(data, Mapping):
        raise TutorError(f"{where}: a game record is a mapping with id, variant, table, moves")
    for key in ("id", "title", "variant", "table", "moves"):
        if key not in data:
            raise TutorError(f"{where}: {key}: missing")
    v = load_variant(str(data["variant"]))
    raw_table = data["table"]
    table = load_table(raw_table, v, where=f"{where}: table")
    steps: list[Step] = []
    current = table
    for k, raw in enumerate(data["moves"] or []):
        at = f"{where}: moves[{k}]"
        if not isinstance(raw, Mapping) or "move" not in raw:
            raise TutorError(f"{at}: each move has 'move' (and 'by', 'note', 'rules', 'expect')")
        move = Move.parse(raw["move"])
        by = str(raw.get("by", current.player.name))
        if by != current.player.name:
            raise TutorError(f"{at}: the record says {by} moves, but it is {current.player.name}'s turn")
        verdict = check(current, v, move)
        if not verdict.legal:
            raise TutorError(f"{at}: {move} is not legal: {verdict.reason}")
        expect = raw.get("expect") or {}
        if "events" in expect and list(verdict.events) != list(expect["events"] or []):
            raise TutorError(f"{at}: events are {list(verdict.events)}, the record says {expect['events']}")
        if "next" in expect and verdict.next_player != expect["next"]:
            raise TutorError(f"{at}: next is {verdict.next_player}, the record says {expect['next']}")
        after, _ = apply_unchecked(current, v, move)
        steps.append(Step(k + 1, by, move, str(raw.get("note", "")).strip(),
                          tuple(raw.get("rules", []) or []), expect, current, after, verdict))
        current = after
    return GameRecord(
        id=str(data["id"]), title=str(data["title"]), summary=str(data.get("summary", "")).strip(),
        variant=v, source=data.get("source", {}) or {}, start=table, steps=tuple(steps), path=where,
        discrepancies=str(data.get("discrepancies", "") or "").strip(),
    )


@cache
def record_catalogue() -> dict[str, GameRecord]:
    """Every record under ``rules/games``, by id, the Lancaster example first."""
    out: dict[str, GameRecord] = {}
    paths = sorted(GAMES_DIR.glob("*.yaml"), key=lambda p: (p.stem != "lancaster-example", p.stem))
    for p in paths:
        rec = load_record(p)
        out[rec.id] = rec
    return out
