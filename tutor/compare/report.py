"""A whole comparison (:func:`compare`): what ``tutor compare`` prints, as text or JSON."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tutor.compare.batch import Job, Progress, run_job
from tutor.compare.common import and_list, column_names, load_variants
from tutor.compare.disagreements import KIND_WORDS, Disagreement, Search, search_note
from tutor.compare.games import DEFAULT_BOT, fast
from tutor.compare.slots import GridDifference, SlotRow, difference_grid, grid_lines, slot_rows
from tutor.compare.stats import PlayStats
from tutor.core.cards import EMPTY, cards_str
from tutor.core.table import Table
from tutor.rules.matrix import rank_label
from tutor.rules.variant import Variant


def table_line(table: Table) -> str:
    """A position on one line: each player's zones, the pile (bottom to top), stock and turn."""
    players = []
    for p in table.players:
        zones = []
        if p.hand:
            zones.append("hand " + cards_str(p.hand))
        if p.face_up:
            zones.append("face up " + cards_str(p.face_up_cards))
        if p.face_down:
            zones.append("face down " + cards_str(p.face_down))
        players.append(f"{p.name}: " + (", ".join(zones) or "out"))
    pile = " | ".join(cards_str(pl.cards) for pl in table.pile) or "empty"
    bits = ["; ".join(players), f"pile (bottom to top): {pile}"]
    if table.stock:
        bits.append(f"stock {len(table.stock)}")
    if len(table.players) > 2 and table.direction != 1:
        bits.append("counterclockwise")
    bits.append(f"{table.player.name} to move")
    return "; ".join(bits)


@dataclass
class Comparison:
    variants: list[Variant]
    slots: list[SlotRow]
    grid: list[GridDifference]
    disagreements: list[Disagreement]
    stats: PlayStats | None
    search: str = ""  # where the positions come from (search_note)

    def to_json(self) -> dict[str, Any]:
        names = column_names(self.variants)
        return {
            "variants": [{"id": v.id, "column": n, "title": v.preset.title,
                          "simulator": "fast" if fast(v) else "engine"}
                         for v, n in zip(self.variants, names, strict=True)],
            "slots": [{"slot": r.slot, "differs": r.differs,
                       "fragments": {n: (c.to_json() if c else None) for n, c in zip(names, r.cells, strict=True)}}
                      for r in self.slots],
            "matrix_differences": [
                {"top": "empty" if d.top == EMPTY else rank_label(d.top), "card": rank_label(d.rank),
                 "marks": dict(zip(names, d.marks, strict=True)), "rules": dict(zip(names, d.rules, strict=True))}
                for d in self.grid],
            "disagreements": [d.to_json() for d in self.disagreements],
            "disagreements_note": self.search,
            "stats": self.stats.to_json() if self.stats else {},
        }

    def text(self, *, slot_title: Callable[[str], str] | None = None) -> str:
        """The comparison for a terminal."""
        names = column_names(self.variants)
        title = slot_title or (lambda slot: slot)
        width = max(len(n) for n in names)
        out = [f"Comparing {and_list(names)}", "", "1. The rules, slot by slot (≠: they differ)"]
        same = []
        for row in self.slots:
            if not row.differs:
                same.append(f"{title(row.slot)} ({row.cells[0].fragment if row.cells[0] else '-'})")
                continue
            out.append(f"≠ {title(row.slot)}")
            for n, c in zip(names, row.cells, strict=True):
                out.append(f"    {n:<{width}}  " + (f"{c.fragment}: {c.summary} [{c.source}]" if c else "(nothing)"))
        if same:
            out.append("= the same in all: " + ", ".join(same))
        out += ["", "2. What can be played on what: the cells that differ (✓ may, ✗ may not, ↓ see-through)"]
        out += [f"    {line}" for line in grid_lines(self.grid, names)] or [
            "    none: the same cards go on the same cards"]
        out += ["", "3. Positions where the verdicts differ (one per kind of difference, smallest found)"]
        if self.search:
            out.append(f"    {self.search}")
        if not self.disagreements:
            out.append("    none found")
        for k, d in enumerate(self.disagreements, 1):
            out.append(f"{k:>3}. [{KIND_WORDS[d.kind]}] {d.title()}")
            out.append(f"     {d.summary()}")
            out.append(f"     table: {table_line(d.table)}")
            for n, x in zip(names, d.verdicts, strict=True):
                out.append(f"     {n:<{width}}  {x.reason}")
        if self.stats is not None:
            out += ["", "4. What it does to play", *self.stats.text_lines(names)]
        return "\n".join(out)


def compare(specs: Sequence[str | Variant], *, games: int | None = None, seed: int = 0,
            players: int | None = None, bot: str = DEFAULT_BOT, workers: int | None = None,
            progress: Progress | None = None, stats: bool = True) -> Comparison:
    """Everything ``tutor compare`` prints: the slots, the matrix differences, the positions
    where verdicts differ and (with ``stats``) the games. With more than one worker the search
    for positions runs in the pool beside the games."""
    variants = load_variants(specs)
    job = Job(variants, games=games, seed=seed, players=players, bot=bot, search=Search(tuple(variants), seed=seed),
              play=stats)
    run_job(job, workers, progress)
    return Comparison(variants, slot_rows(variants), difference_grid(variants), job.disagreements() or [],
                      job.stats(), search_note(variants))
