"""The rules side by side: slot by slot (:func:`slot_rows`), and the cells of the play-on
matrix where the variants differ (:func:`difference_grid`; the matrices and diagrams
themselves are :mod:`tutor.rules.matrix`'s).

>>> from tutor.rules.variant import load_variant
>>> rows = slot_rows([load_variant("pagat"), load_variant("lancaster")])
>>> [r.slot for r in rows if r.differs][:3]
['deal', 'first-player', 'pickup-choice']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.compare.common import column_names
from tutor.core.cards import EMPTY
from tutor.rules.matrix import a_rank, matrix_differences, play_matrix, rank_label
from tutor.rules.variant import SLOTS, Fragment, Variant

if TYPE_CHECKING:  # pandas is imported only when a frame is asked for
    import pandas as pd


@dataclass(frozen=True)
class SlotCell:
    """The fragment one variant has in one slot."""

    fragment: str
    title: str
    summary: str
    source: str

    @staticmethod
    def of(f: Fragment) -> SlotCell:
        return SlotCell(f.id, f.title, f.summary, f.source.cite())

    def text(self) -> str:
        return f"{self.summary} ({self.fragment}; {self.source})"

    def to_json(self) -> dict[str, str]:
        return {"id": self.fragment, "title": self.title, "summary": self.summary, "source": self.source}


@dataclass(frozen=True)
class SlotRow:
    slot: str
    cells: tuple[SlotCell | None, ...]  # one per variant; None where it has nothing in the slot

    @property
    def differs(self) -> bool:
        return len({c.fragment if c else None for c in self.cells}) > 1


def slot_rows(variants: Sequence[Variant]) -> list[SlotRow]:
    """A row per slot that any of the variants fills, in the rulebook's order."""
    rows = []
    for slot in SLOTS:
        cells = tuple(SlotCell.of(f) if (f := v.fragment_for_slot(slot)) else None for v in variants)
        if any(cells):
            rows.append(SlotRow(slot, cells))
    return rows


def slot_frame(variants: Sequence[Variant], *, titles: Callable[[str], str] | None = None,
               only_differences: bool = False) -> pd.DataFrame:
    """The slot table as a pandas frame: index the slot, a "differs" mark, a column per variant."""
    import pandas as pd

    names = column_names(variants)
    data = []
    index = []
    for row in slot_rows(variants):
        if only_differences and not row.differs:
            continue
        index.append(titles(row.slot) if titles else row.slot)
        item = {"differs": "≠" if row.differs else ""}
        for name, cell in zip(names, row.cells, strict=True):
            item[name] = cell.text() if cell else "—"
        data.append(item)
    frame = pd.DataFrame(data, index=index, columns=["differs", *names])
    frame.index.name = "rule"
    return frame


# -- what can be played on what -------------------------------------------------------------


@dataclass(frozen=True)
class GridDifference:
    top: int
    rank: int
    marks: tuple[str, ...]  # ✓ ✗ ↓ per variant
    rules: tuple[str, ...]  # the deciding fragment per variant

    def sentence(self, names: Sequence[str]) -> str:
        parts = [f"{n} {m} ({r})" for n, m, r in zip(names, self.marks, self.rules, strict=True)]
        return f"{rank_label(self.rank)} on {a_rank(self.top)}: " + ", ".join(parts)


def difference_grid(variants: Sequence[Variant]) -> list[GridDifference]:
    """The cells of the play-on matrix (card to beat × card played) where the variants differ."""
    out = []
    for d in matrix_differences(variants):
        marks = tuple(c.mark for c in d.cells)
        rules = tuple(next((f for f in c.rules if f != "core"), c.rules[0] if c.rules else "core")
                      for c in d.cells)
        out.append(GridDifference(d.top, d.rank, marks, rules))
    return out


def grid_lines(grid: Sequence[GridDifference], names: Sequence[str]) -> list[str]:
    """The differing cells as sentences, cells of one row that differ alike taken together:
    ``3, 4, 5 on an 8: pagat ✗ (core), lancaster ↓ (eights-transparent-reverse)``."""
    groups: dict[tuple[int, tuple[str, ...], tuple[str, ...]], list[int]] = {}
    for d in grid:
        groups.setdefault((d.top, d.marks, d.rules), []).append(d.rank)
    out = []
    for (top, marks, rules), ranks in groups.items():
        parts = [f"{n} {m} ({r})" for n, m, r in zip(names, marks, rules, strict=True)]
        out.append(f"{', '.join(rank_label(r) for r in ranks)} on {a_rank(top)}: " + ", ".join(parts))
    return out


def difference_frame(variants: Sequence[Variant]) -> pd.DataFrame:
    """The matrix of differences: rows the card to beat, columns the card played; a cell is
    empty where all agree, else each variant's mark (✓ may, ✗ may not, ↓ see-through) in order."""
    import pandas as pd

    m = play_matrix(variants[0])
    diffs = {(d.top, d.rank): " ".join(d.marks) for d in difference_grid(variants)}
    ranks = [r for r in m.ranks if all(r in play_matrix(v).ranks for v in variants)]
    tops = (EMPTY, *ranks)
    rows = [{rank_label(r): diffs.get((t, r), "") for r in ranks} for t in tops]
    frame = pd.DataFrame(rows, index=["empty pile" if t == EMPTY else f"on {rank_label(t)}" for t in tops])
    frame.index.name = "top of pile ↓ / card played →"
    return frame
