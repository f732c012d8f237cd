"""The "what can be played on what" grid and diagram (:mod:`tutor.rules.matrix`), drawn."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from tutor.compare.slots import GridDifference
from tutor.core.cards import EMPTY
from tutor.rules.matrix import (
    PlayMatrix,
    a_rank,
    explain_cell,
    matrix_differences,
    matrix_dot,
    play_matrix,
    rank_label,
    top_label,
)
from tutor.rules.variant import Variant
from tutor.webui.safe import html

_COLOURS = {"✓": "background-color: #dff0df; color: #1b5e20",
            "✗": "background-color: #f9e0e0; color: #b71c1c",
            "↓": "background-color: #eeeeee; color: #555555"}


def matrix_frame(m: PlayMatrix) -> pd.DataFrame:
    """Rows: the card to beat; columns: the card played; each cell a mark and a rule tag."""
    frame = pd.DataFrame(m.rows(), index=m.row_labels())
    frame.index.name = "top ↓ · card →"
    return frame


def _colour(value: str) -> str:
    return _COLOURS.get(value[:1], "")


def matrix_table(m: PlayMatrix) -> None:
    """The whole grid as a coloured table, and the key to its rule tags."""
    st.table(matrix_frame(m).style.map(_colour))
    tags = ", ".join(f"**{tag}** = `{fid}`" for fid, tag in m.tags.items())
    st.caption("✓ may be played · ✗ may not · ↓ see-through: the card beneath decides. "
               f"Each cell names the rule that decides it: {tags}.")


def show_matrix(v: Variant, *, key: str) -> PlayMatrix:
    """The grid as a coloured table (rows: the card to beat; columns: the card played),
    its key, and one cell explained on request."""
    m = play_matrix(v)
    matrix_table(m)
    c1, c2 = st.columns(2)
    top = c1.selectbox("Explain the cell: top of the pile", m.tops, format_func=top_label, key=f"{key}_top")
    rank = c2.selectbox("card played", m.ranks, format_func=lambda r: m.column_labels()[m.ranks.index(r)],
                        key=f"{key}_rank")
    st.markdown(explain_cell(v, top, rank))
    return m


def show_diagram(v: Variant) -> None:
    st.graphviz_chart(matrix_dot(v), alt=f"Diagram of what can be played on what in {v.id}")
    st.caption("Ranks stand from low (top) to high (bottom). Green arrows: a rule lets a card go where its rank alone "
               "would not; red dashed: a rule forbids it. Under a card: what it does to the next play.")


def show_changes(before: Variant, after: Variant, *, limit: int = 12) -> None:
    """What changed in the play-on grid from ``before`` to ``after``, one line per cell."""
    diffs = matrix_differences([before, after])
    st.markdown(f"**What can be played on what, compared with {before.id} as published**")
    if not diffs:
        st.caption("No change: the same cards go on the same cards.")
        return
    lines = []
    for d in diffs[:limit]:
        old, new = d.cells
        rule = new.rules[0] if new.rules else ""
        lines.append(f"- {rank_label(d.rank)} on {a_rank(d.top)}: {old.mark} → **{new.mark}** (`{rule}`)")
    if len(diffs) > limit:
        lines.append(f"- … and {len(diffs) - limit} more cells")
    st.markdown("\n".join(lines))


_MARK_STYLE = {"✓": "color:#1b5e20", "✗": "color:#b71c1c", "↓": "color:#555555"}


def differences_html(grid: Sequence[GridDifference], names: Sequence[str]) -> str:
    """The cells of the play-on grid where the variants differ, as a compact table that a phone
    shows whole: only the rows (card to beat) and columns (card played) holding a difference;
    each cell the variants' marks in order, one above the other (so that the table is as narrow
    for five variants as for two), coloured, the deciding rules in its tooltip."""
    tops = sorted({d.top for d in grid}, key=lambda t: (t != EMPTY, t))
    ranks = sorted({d.rank for d in grid})
    at = {(d.top, d.rank): d for d in grid}
    cell = "padding:0.1rem 0.25rem;border:1px solid #ddd;text-align:center;line-height:1.15"
    head = "".join(f'<th style="{cell};background:#f6f6f6">{html(rank_label(r))}</th>' for r in ranks)
    rows = []
    for t in tops:
        tds = []
        for r in ranks:
            d = at.get((t, r))
            if d is None:
                tds.append(f'<td style="{cell};color:#bbb">·</td>')
                continue
            marks = "<br>".join(f'<span style="{_MARK_STYLE.get(m, "")}">{html(m)}</span>' for m in d.marks)
            tip = html(d.sentence(names))
            tds.append(f'<td style="{cell};background:#fff4d6;font-weight:600" title="{tip}">{marks}</td>')
        label = "empty" if t == EMPTY else f"on {rank_label(t)}"
        rows.append(f'<tr><th style="{cell};background:#f6f6f6;text-align:left;white-space:nowrap">{html(label)}</th>'
                    f'{"".join(tds)}</tr>')
    corner = f'<th style="{cell};background:#f6f6f6;font-weight:400;font-size:0.75rem">top ↓<br>card →</th>'
    return ('<div style="overflow-x:auto;max-width:100%"><table style="border-collapse:collapse;font-size:0.9rem;'
            f'margin-bottom:0.5rem"><tr>{corner}{head}</tr>{"".join(rows)}</table></div>')
