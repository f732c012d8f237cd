"""The worked examples in each fragment's YAML: loading and judging them.

Each example is a small table, a move, and what the rules say: ``legal``, and
optionally the reason ``code``, the ``events`` and the ``next`` player. The
test suite runs every one; the app's lessons show them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tutor.core.errors import TutorError, excerpt
from tutor.core.moves import Move
from tutor.core.table import Table
from tutor.engine import Verdict, check
from tutor.rules.variant import (
    Fragment,
    Variant,
    build_variant,
    fragment_catalogue,
    load_table,
    load_variant,
    preset_catalogue,
)


@dataclass(frozen=True)
class Example:
    fragment: str
    index: int
    note: str
    variant: Variant
    table: Table
    move: Move
    expect: Mapping[str, Any]


def example_spec(frag: Fragment, ex: Mapping[str, Any]) -> str:
    """The variant an example is judged under: its own, or a preset that has the fragment."""
    if isinstance(ex.get("variant"), str):
        return str(ex["variant"])
    presets = preset_catalogue()
    for pid in ("pagat", "lancaster", *sorted(presets)):
        if pid in presets and frag.id in presets[pid].fragments:
            return pid
    return "+".join(["pagat", *frag.requires, frag.id])


def _example_variant(frag: Fragment, spec: str, where: str) -> Variant:
    """An example's variant from ids only: presets and fragments of the catalogue, and the
    fragment itself (an upload is used as given, never looked up by name or path)."""
    parts = [p.strip() for p in spec.split("+")]
    presets, catalogue = preset_catalogue(), fragment_catalogue()
    if not parts or parts[0] not in presets:
        raise TutorError(f"{where}: {excerpt(spec)}: an example's variant starts with a preset id "
                         f"({', '.join(sorted(presets))})")
    named: list[Fragment | str] = []
    for part in parts[1:]:
        if part == frag.id:
            named.append(frag)
        elif part in catalogue:
            named.append(part)
        else:
            raise TutorError(f"{where}: {excerpt(part)} is not a rule id (an example names only catalogue "
                             "presets and rules, and its own rule)")
    if frag.id not in catalogue and frag not in named:
        named.append(frag)  # an upload's example is played with the upload laid over its variant
    if all(isinstance(n, str) for n in named):
        return load_variant("+".join(parts))
    return build_variant(parts[0], named, where=where)


def load_example(frag: Fragment, k: int) -> Example:
    ex = frag.examples[k]
    where = f"{frag.path}: examples[{k}]"
    if not isinstance(ex, Mapping) or "table" not in ex or "move" not in ex or "legal" not in ex:
        raise TutorError(f"{where}: an example needs table, move and legal")
    v = _example_variant(frag, example_spec(frag, ex), f"{where}.variant")
    table = load_table(ex["table"], v, where=f"{where}.table")
    ready = ex.get("setup_ready")
    if ready:
        flags = [p.name in ready for p in table.players]
        table = replace(table, ready=tuple(flags))
    return Example(frag.id, k, str(ex.get("note", "")), v, table, Move.parse(ex["move"]), ex)


def judge_example(example: Example) -> tuple[Verdict, list[str]]:
    """Check the example; return the verdict and what disagrees with the YAML (empty if all agrees)."""
    verdict = check(example.table, example.variant, example.move)
    want = example.expect
    problems = []
    if verdict.legal != bool(want["legal"]):
        problems.append(f"legal is {verdict.legal}, the example says {want['legal']} ({verdict.reason})")
    if "code" in want and verdict.code.value != want["code"]:
        problems.append(f"code is {verdict.code.value}, the example says {want['code']}")
    if "events" in want and list(verdict.events) != list(want["events"] or []):
        problems.append(f"events are {list(verdict.events)}, the example says {want['events']}")
    if "next" in want and verdict.next_player != want["next"]:
        problems.append(f"next player is {verdict.next_player}, the example says {want['next']}")
    return verdict, problems


def lessons(v: Variant) -> list[Example]:
    """The worked examples of ``v``'s rules that mean the same under ``v``, each set up and
    judged under ``v`` (never under the fragment's home preset), in rulebook order, each
    table-and-move once.

    An example written for another variant is re-judged under ``v`` and kept only when the
    verdict, its code and events, and the next player all come out as the example says;
    a table that ``v`` cannot hold (cards, packs, players) is left out.
    """
    from tutor.teach.rulebook import rulebook

    out: list[Example] = []
    seen: set[tuple[str, str]] = set()
    for _, rules in rulebook(v):
        for rule in rules:
            f = rule.fragment
            for k, raw in enumerate(f.examples):
                try:
                    ex = load_example(f, k)
                    if ex.variant.id != v.id:
                        table = load_table(raw["table"], v, where=f"{f.path}: examples[{k}].table")
                        if raw.get("setup_ready"):
                            table = replace(table, ready=tuple(p.name in raw["setup_ready"] for p in table.players))
                        ex = Example(f.id, k, ex.note, v, table, ex.move, ex.expect)
                    if judge_example(ex)[1]:
                        continue  # means something else under v
                except TutorError:
                    continue
                key = (ex.table.to_yaml(), str(ex.move))
                if key not in seen:
                    seen.add(key)
                    out.append(ex)
    return out
