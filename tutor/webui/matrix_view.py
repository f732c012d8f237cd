"""The "what can be played on what" grid and diagram (:mod:`tutor.rules.matrix`), drawn."""

from __future__ import annotations

import pandas as pd
import streamlit as st

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


def show_matrix(v: Variant, *, key: str) -> PlayMatrix:
    """The grid as a coloured table (rows: the card to beat; columns: the card played),
    its key, and one cell explained on request."""
    m = play_matrix(v)
    st.table(matrix_frame(m).style.map(_colour))
    tags = ", ".join(f"**{tag}** = `{fid}`" for fid, tag in m.tags.items())
    st.caption("✓ may be played · ✗ may not · ↓ see-through: the card beneath decides. "
               f"Each cell names the rule that decides it: {tags}.")
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
