"""JSON Schemas for fragment and preset files (``tutor schema``), and YAML line lookup.

The fragment schema is built from the registered powers, so an editor that knows
JSON Schema can complete and check a fragment file; the loader's own checks
(``tutor.rules.variant.fragment_from_data``) stay the authority.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from tutor.core import safeyaml
from tutor.rules.powers import SIGNATURES
from tutor.rules.variant import SLOTS

_SOURCE = {
    "type": "object",
    "required": ["site", "section"],
    "properties": {k: {"type": "string"} for k in ("site", "page", "section", "contributor")},
    "additionalProperties": False,
}


# A fragment to start from (the Rulebook builder offers it): a house rule for sixes.
RULE_TEMPLATE = """\
# A house rule of your own. Change the id, the slot (the card it is about: "2" to "10",
# "J", "Q", "K", "A", or a moment such as "after-pickup"), the words and the powers, then
# add the file on the Rulebook builder page (or: tutor rules pagat+my-rule.yaml).
id: sixes-skip
slot: "6"
title: Sixes make the next player miss a turn
summary: A 6 is played as usual; the player after you misses a turn.
source: {site: our table, section: house rules, contributor: us}
powers:
  - {power: skip, rank: "6"}
"""


def fragment_schema() -> dict[str, Any]:
    powers = []
    for name, (required, optional, doc) in sorted(SIGNATURES.items()):
        props: dict[str, Any] = {"power": {"const": name}}
        for key in sorted(required | optional):
            props[key] = {}
        powers.append({
            "type": "object", "description": doc, "required": ["power", *sorted(required)],
            "properties": props, "additionalProperties": False,
        })
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Shithead tutor rule fragment",
        "type": "object",
        "required": ["id", "slot", "title", "summary", "source", "powers"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9-]+$"},
            "slot": {"enum": list(SLOTS)},
            "title": {"type": "string"},
            "summary": {"type": "string", "description": "one line, for players"},
            "source": _SOURCE,
            "reading": {"type": "string", "description": "the choice made where the source is unclear"},
            "text": {"type": "string", "description": "the rule as the rulebook prints it"},
            "note": {"type": "string"},
            "requires": {"type": "array", "items": {"type": "string"}},
            "conflicts": {"type": "array", "items": {"type": "string"}},
            "implies": {"type": "array", "items": {"type": "string"}},
            "powers": {"type": "array", "items": {"oneOf": powers}},
            "examples": {"type": "array", "items": {
                "type": "object", "required": ["table", "move", "legal"],
                "properties": {"note": {"type": "string"}, "variant": {"type": "string"},
                               "table": {"type": "object"}, "move": {"type": "string"},
                               "legal": {"type": "boolean"}, "code": {"type": "string"},
                               "events": {"type": "array", "items": {"type": "string"}},
                               "next": {"type": ["string", "null"]},
                               "setup_ready": {"type": "array", "items": {"type": "string"}}},
            }},
        },
    }


def preset_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Shithead tutor preset",
        "type": "object",
        "required": ["id", "title", "summary", "source", "fragments"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9-]+$"},
            "title": {"type": "string"}, "summary": {"type": "string"}, "source": _SOURCE,
            "reading": {"type": "string"}, "note": {"type": "string"},
            "fragments": {"type": "array", "items": {"type": "string"}},
        },
    }


def key_lines(text: str) -> dict[str, int]:
    """Map each key path in a YAML document (``powers[2].rank``) to its 1-based line."""
    root = safeyaml.compose(text)
    out: dict[str, int] = {}

    def walk(node: yaml.Node, path: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for k, val in node.value:
                sub = f"{path}.{k.value}" if path else str(k.value)
                out.setdefault(sub, k.start_mark.line + 1)
                walk(val, sub)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                sub = f"{path}[{i}]"
                out.setdefault(sub, item.start_mark.line + 1)
                walk(item, sub)

    if root is not None:
        walk(root, "")
    return out


def locate(text: str, message: str) -> int | None:
    """The line of the most specific key path that an error message names, if any."""
    lines = key_lines(text)
    best: tuple[int, int] | None = None
    for path, line in lines.items():
        for form in (path, path.replace(".", ": ")):
            if re.search(r"(?<![\w.\[])" + re.escape(form) + r"(?![\w\[])", message):
                if best is None or len(path) > best[0]:
                    best = (len(path), line)
    return best[1] if best else None
