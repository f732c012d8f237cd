"""What the app hands out about a variant: the house rules sheet and the variant file.

The sheet comes in two forms of the same text, both built from
:func:`tutor.teach.rulebook.rulebook` and the play-on grid of :mod:`tutor.rules.matrix`:
Markdown, and a self-contained HTML page laid out for printing on A4 or Letter.
The variant file (:func:`variant_yaml`) is what ``tutor --variant FILE`` reads.
"""

from __future__ import annotations

from html import escape
from typing import Any

import yaml

from tutor.rules.matrix import PlayMatrix, play_matrix
from tutor.rules.variant import Variant, fragment_to_data
from tutor.teach.rulebook import rulebook, rulebook_markdown

_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto;
       padding: 0 1em; color: #111; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; border-bottom: 1px solid #999; margin-top: 1.4em; }
p.rule { margin: 0.5em 0 0.1em; }
p.src { margin: 0 0 0.6em; font-size: 0.8em; color: #555; }
p.reading { margin: 0 0 0.6em 1em; font-size: 0.85em; font-style: italic; }
table.grid { border-collapse: collapse; font-family: Helvetica, Arial, sans-serif; font-size: 0.8em; }
table.grid th, table.grid td { border: 1px solid #999; padding: 2px 4px; text-align: center; }
td.yes { background: #e3f2e3; } td.no { background: #f8e0e0; } td.see { background: #eee; }
.key { font-size: 0.8em; color: #333; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } table.grid { break-inside: avoid; } }
"""


def sheet_markdown(v: Variant) -> str:
    """The rulebook in Markdown, followed by the play-on grid."""
    m = play_matrix(v)
    head = "| top of pile | " + " | ".join(m.column_labels()) + " |"
    rule = "| --- " * (len(m.ranks) + 1) + "|"
    rows = [f"| {label} | " + " | ".join(c.mark for c in row) + " |"
            for label, row in zip(m.row_labels(), m.cells, strict=True)]
    grid = ["", "## What can be played on what", "",
            "✓ may be played, ✗ may not, ↓ see-through (the card beneath decides).", "",
            head, rule, *rows, ""]
    return rulebook_markdown(v) + "\n".join(grid)


def sheet_html(v: Variant) -> str:
    """A printable, self-contained HTML page of the house rules."""
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>House rules: {escape(v.preset.title)} ({escape(v.id)})</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{escape(v.preset.title)}</h1>",
        f"<p>Variant <code>{escape(v.id)}</code>. {escape(v.preset.summary)}</p>",
    ]
    for old, new in v.replaced:
        parts.append(f"<p><em>This variant plays <code>{escape(new)}</code> instead of the preset's "
                     f"<code>{escape(old)}</code>.</em></p>")
    for title, rules in rulebook(v):
        if not rules:
            continue
        parts.append(f"<h2>{escape(title)}</h2>")
        for r in rules:
            f = r.fragment
            parts.append(f'<p class="rule"><strong>{escape(f.title)}.</strong> {escape(r.text)}</p>')
            if r.reading:
                parts.append(f'<p class="reading">Where the source is unclear: {escape(r.reading)}</p>')
            parts.append(f'<p class="src">Rule <code>{escape(f.id)}</code>; source: {escape(f.source.cite())}.</p>')
    parts.append("<h2>What can be played on what</h2>")
    parts.append(_grid_html(play_matrix(v)))
    for w in v.warnings:
        parts.append(f"<p><em>Note: {escape(w)}.</em></p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _grid_html(m: PlayMatrix) -> str:
    css = {"✓": "yes", "✗": "no", "↓": "see"}
    head = "".join(f"<th>{escape(c)}</th>" for c in m.column_labels())
    rows = []
    for label, row in zip(m.row_labels(), m.cells, strict=True):
        cells = "".join(f'<td class="{css[c.mark]}" title="{escape(m.label(c))}">{c.mark}</td>' for c in row)
        rows.append(f"<tr><th>{escape(label)}</th>{cells}</tr>")
    key = ('<p class="key">Rows: the card to beat (the top of the pile). Columns: the card played. '
           "✓ may be played, ✗ may not, ↓ see-through (the card beneath decides).</p>")
    return (f'<table class="grid"><tr><th>card played →</th>{head}</tr>'
            + "".join(rows) + "</table>" + key)


def variant_yaml(v: Variant) -> str:
    """The variant as a file ``load_variant`` reads (``tutor rules THIS-FILE.yaml``, ``tutor
    validate``, the Rulebook builder's upload): its preset and the fragments laid over it, a
    catalogue fragment by its id, a fragment of the user's own written out whole, so that the
    file alone is the variant."""
    items: list[Any] = []
    for part in v.id.split("+")[1:]:
        fid = part.split("@")[0]
        own = "@" in part and next((f for f in v.fragments if f.id == fid), None)
        items.append(fragment_to_data(own) if own else part)
    data = {"preset": v.preset.id, "fragments": items}
    lines = [f"# {v.preset.title}, with house rules: {v.id}",
             "# Use it with: tutor rules THIS-FILE.yaml  (or --variant THIS-FILE.yaml); check it with",
             "# tutor validate THIS-FILE.yaml; or load it on the Rulebook builder page."]
    lines.append(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100).rstrip())
    lines.append("# The rules, slot by slot:")
    lines += [f"#   {f.slot}: {f.id} ({f.title})" for f in v.fragments]
    return "\n".join(lines) + "\n"
