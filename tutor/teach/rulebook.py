"""The rulebook of a variant, written from its fragments.

Every fragment contributes its rule text (or its summary), under the section its
slot belongs to, with its source; where the fragment records a reading of an
unclear source, the reading is given too.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.rules.variant import Fragment, Variant, fragment_catalogue

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Cards and deal", ("deal", "packs")),
    ("Setup", ("setup", "first-player")),
    ("Play", ("core", "pickup-choice", "after-pickup", "mixed-plays", "runs-and-sets", "pairs", "triples",
              "stock")),
    ("Special cards", ("2", "10", "four-of-a-kind", "8", "7", "9", "5", "3", "4", "6", "J", "Q", "K", "A",
                       "red-jacks", "jokers")),
    ("Endgame", ("face-up-pickup", "phase-two")),
    ("Winning and losing", ("goal", "customs")),
)


@dataclass(frozen=True)
class Rule:
    fragment: Fragment
    text: str
    reading: str


def rulebook(v: Variant) -> list[tuple[str, list[Rule]]]:
    """The sections of the rulebook, each with its rules in slot order."""
    out: list[tuple[str, list[Rule]]] = []
    placed: set[str] = set()
    for title, slots in SECTIONS:
        rules = [Rule(f, f.text or f.summary, f.reading) for slot in slots
                 for f in v.fragments if f.slot == slot]
        placed.update(r.fragment.id for r in rules)
        out.append((title, rules))
    rest = [Rule(f, f.text or f.summary, f.reading) for f in v.fragments if f.id not in placed]
    if rest:
        out[2][1].extend(rest)
    return out


def alternatives(v: Variant) -> list[tuple[str, str, str]]:
    """What the preset's source offers beside this variant: (variant spec, title, summary) for each
    option fragment not already in use."""
    cat = fragment_catalogue()
    used = {f.id for f in v.fragments}
    return [(f"{v.preset.id}+{fid}", cat[fid].title, cat[fid].summary)
            for fid in v.preset.options if fid in cat and fid not in used]


def rulebook_markdown(v: Variant) -> str:
    lines = [f"# {v.preset.title}", "", f"Variant `{v.id}`. {v.preset.summary}", ""]
    for old, new in v.replaced:
        lines.append(f"*This variant replaces the preset's `{old}` with `{new}`.*")
    if v.replaced:
        lines.append("")
    for title, rules in rulebook(v):
        if not rules:
            continue
        lines += [f"## {title}", ""]
        for r in rules:
            f = r.fragment
            lines.append(f"**{f.title}.** {r.text}  ")
            lines.append(f"*Rule `{f.id}`; source: {f.source.cite()}.*")
            if r.reading:
                lines += ["", f"> Where the source is unclear: {r.reading}"]
            lines.append("")
    for w in v.warnings:
        lines.append(f"*Note: {w}.*")
    options = alternatives(v)
    if options:
        lines += ["", "## Options the source offers", ""]
        lines += [f"- **{title}** (`{spec}`): {summary}" for spec, title, summary in options]
    if v.preset.not_modelled:
        lines += ["", "## In the source but not modelled by the tutor", ""]
        lines += [f"- **{what}** {why}" for what, why in v.preset.not_modelled]
    return "\n".join(lines).rstrip() + "\n"
