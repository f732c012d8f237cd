"""What can be played on what: a variant's placement table as plain data.

The variant already holds the answer for every pair of ranks (``Variant.cells``:
legal, reason code, deciding fragments). This module lays it out for people: a
grid of "card played" against "top of the pile", short labels naming the rule
that decides each cell, a sentence for any one cell, the differences between two
variants, and a Graphviz diagram that draws only what departs from the natural
order. Nothing here decides a rule; it only reads ``cells``.

>>> from tutor.rules.variant import load_variant
>>> m = play_matrix(load_variant("lancaster"))
>>> m.cell(RANKS_BY_NAME["K"], RANKS_BY_NAME["9"]).legal   # a 9 on a king
True
>>> m.cell(RANKS_BY_NAME["9"], RANKS_BY_NAME["K"]).code    # a king on a 9
'OVER_LIMIT'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tutor.core.cards import EMPTY, JOKER_RANK, RANK_NAMES
from tutor.rules.variant import Variant

RANKS_BY_NAME = {name: i for i, name in enumerate(RANK_NAMES)}
SEE_THROUGH = "SEE_THROUGH"

# The reason codes of a cell, in words for the grid.
CODE_WORDS = {
    "EMPTY": "anything starts a pile",
    "BEATS": "beats it",
    "MATCHES": "equals it",
    "ANYWHERE": "goes on anything",
    "RESET": "anything may follow it",
    "UNDER_LIMIT": "low enough for its limit",
    "OVER_LIMIT": "too high for its limit",
    "NOT_ON": "not allowed on it",
    "UNBEATABLE": "cannot beat it",
    "UNBEATABLE_OK": "one of the few allowed on it",
    "TOO_LOW": "too low",
    SEE_THROUGH: "see-through: the card below decides",
}
_ROW_RULES = {"RESET", "UNDER_LIMIT", "OVER_LIMIT", "UNBEATABLE", "UNBEATABLE_OK"}


@dataclass(frozen=True)
class MatrixCell:
    """May ``rank`` be played when ``top`` is the card to beat?"""

    top: int
    rank: int
    legal: bool
    code: str
    rules: tuple[str, ...]

    @property
    def mark(self) -> str:
        if self.code == SEE_THROUGH:
            return "↓"
        return "✓" if self.legal else "✗"


@dataclass(frozen=True)
class PlayMatrix:
    """The grid for one variant: ``tops`` are rows, ``ranks`` are columns."""

    variant_id: str
    tops: tuple[int, ...]
    ranks: tuple[int, ...]
    cells: tuple[tuple[MatrixCell, ...], ...]  # [row][column]
    tags: dict[str, str]  # fragment id -> short tag used in the grid
    see_through: frozenset[int]

    def cell(self, top: int, rank: int) -> MatrixCell:
        return self.cells[self.tops.index(top)][self.ranks.index(rank)]

    def label(self, cell: MatrixCell) -> str:
        """The grid text: a mark and the tag of the rule that decides, e.g. ``✓ twos``."""
        deciding = [f for f in cell.rules if f != "core"] or list(cell.rules)
        return f"{cell.mark} {self.tags.get(deciding[0], deciding[0])}" if deciding else cell.mark

    def rows(self) -> list[dict[str, str]]:
        """One mapping per row, column name -> label: ready for ``pandas.DataFrame``."""
        return [{rank_label(c.rank): self.label(c) for c in row} for row in self.cells]

    def row_labels(self) -> list[str]:
        return [top_label(t, t in self.see_through) for t in self.tops]

    def column_labels(self) -> list[str]:
        return [rank_label(r) for r in self.ranks]


def rank_label(rank: int) -> str:
    return "joker" if rank == JOKER_RANK else RANK_NAMES[rank]


def a_rank(rank: int) -> str:
    """A rank with its article, as a sentence needs it: 'a 6', 'an 8', 'an ace', 'an empty pile'."""
    if rank == EMPTY:
        return "an empty pile"
    word = {9: "jack", 10: "queen", 11: "king", 12: "ace", 13: "joker"}.get(rank, RANK_NAMES[rank])
    return ("an " if word in ("8", "ace") else "a ") + word


def top_label(top: int, see_through: bool = False) -> str:
    if top == EMPTY:
        return "empty pile"
    return f"on {rank_label(top)}" + (" (see-through)" if see_through else "")


def shown_ranks(v: Variant) -> tuple[int, ...]:
    """The ranks a game of this variant has: 2 to ace, and the joker if the pack has one."""
    has_joker = v.jokers > 0 or bool(v.origin[JOKER_RANK])
    return tuple(range(13)) + ((JOKER_RANK,) if has_joker else ())


def short_tags(ids: Iterable[str]) -> dict[str, str]:
    """A short tag per fragment: the first word of its id (``twos-play-again`` -> ``twos``).

    Where two fragments share a first word, both keep their whole id.
    """
    ids = list(dict.fromkeys(ids))
    first = {fid: fid.split("-")[0] for fid in ids}
    counts: dict[str, int] = {}
    for word in first.values():
        counts[word] = counts.get(word, 0) + 1
    return {fid: (word if counts[word] == 1 else fid) for fid, word in first.items()}


def play_matrix(v: Variant) -> PlayMatrix:
    """Lay out ``v.cells`` as rows (the card to beat, the empty pile first) and columns."""
    ranks = shown_ranks(v)
    tops = (EMPTY, *ranks)
    see_through = frozenset(r for r in ranks if v.transparent[r] and not v.alone_self[r])
    rows = []
    for top in tops:
        row = []
        for rank in ranks:
            if top in see_through:
                fid = v.origin[top].get("transparent", "core")
                row.append(MatrixCell(top, rank, True, SEE_THROUGH, (fid,)))
                continue
            legal, code, frags = v.cells[top][rank]
            row.append(MatrixCell(top, rank, legal, code, tuple(frags)))
        rows.append(tuple(row))
    deciding = [f for row in rows for c in row for f in c.rules]
    return PlayMatrix(v.id, tops, ranks, tuple(rows), short_tags(deciding), see_through)


def explain_cell(v: Variant, top: int, rank: int) -> str:
    """One sentence for one cell, naming the rule: what the grid's tag stands for."""
    cell = play_matrix(v).cell(top, rank)
    card, where = a_rank(rank), a_rank(top)
    verdict = "may" if cell.legal else "may not"
    if cell.code == SEE_THROUGH:
        return (f"{where[0].upper()}{where[1:]} is see-through in {v.id}: the card beneath it decides "
                f"what {card} may go on ({_rule_names(v, cell.rules)}).")
    return (f"In {v.id}, {card} {verdict} be played on {where}: {CODE_WORDS.get(cell.code, cell.code)} "
            f"({_rule_names(v, cell.rules)}).")


def _rule_names(v: Variant, ids: Iterable[str]) -> str:
    out = []
    for fid in ids:
        try:
            out.append(f"{v.fragment(fid).title}, rule {fid}")
        except KeyError:
            out.append(f"rule {fid}")
    return "; ".join(out)


@dataclass(frozen=True)
class CellDifference:
    top: int
    rank: int
    cells: tuple[MatrixCell, ...]  # one per variant compared, in order


def matrix_differences(variants: Iterable[Variant]) -> list[CellDifference]:
    """The cells where the variants disagree on legality (for comparing variants)."""
    mats = [play_matrix(v) for v in variants]
    if not mats:
        return []
    ranks = [r for r in mats[0].ranks if all(r in m.ranks for m in mats)]
    out = []
    for top in (EMPTY, *ranks):
        for rank in ranks:
            cells = tuple(m.cell(top, rank) for m in mats)
            if len({c.legal for c in cells if c.code != SEE_THROUGH}) > 1 or \
                    len({c.code == SEE_THROUGH for c in cells}) > 1:
                out.append(CellDifference(top, rank, cells))
    return out


# -- the diagram -------------------------------------------------------------


def _natural(top: int, rank: int) -> bool:
    return top == EMPTY or (rank != JOKER_RANK and top != JOKER_RANK and rank >= top)


def _row_rule(m: PlayMatrix, top: int) -> str:
    """What a card does to the play after it, in a few words ('' if nothing special)."""
    row = m.cells[m.tops.index(top)]
    codes = {c.code for c in row}
    if top in m.see_through:
        return "see-through"
    if not codes & _ROW_RULES:
        return ""
    if codes <= {"RESET", "ANYWHERE"}:
        return "anything may follow"
    allowed = [rank_label(c.rank) for c in row if c.legal]
    if codes & {"UNDER_LIMIT", "OVER_LIMIT"}:
        return f"next: {rank_label(top)} or lower"
    return "next: only " + ", ".join(allowed)


def _goes_anywhere(m: PlayMatrix, rank: int) -> bool:
    col = [m.cell(t, rank) for t in m.tops if t != EMPTY and t not in m.see_through]
    return bool(col) and all(c.code in ("ANYWHERE", "NOT_ON") or c.code in _ROW_RULES for c in col) \
        and any(c.code == "ANYWHERE" for c in col)


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def matrix_dot(v: Variant) -> str:
    """Graphviz DOT source: the natural order, and every rule that departs from it.

    Ranks stand in a chain from low (top) to high (bottom). A rank that goes on
    anything hangs off an "any card" node; what a card does to the next play is
    written under it; every other departure is an edge of its own, green where a
    rule allows a play the order would not, red and dashed where a rule forbids one.
    """
    m = play_matrix(v)
    lines = [
        "digraph playon {",
        '  graph [rankdir=TB, bgcolor="transparent", fontname="Helvetica", nodesep=0.3, ranksep=0.25];',
        '  node [shape=box, style="rounded,filled", fillcolor="white", fontname="Helvetica", fontsize=12,'
        ' height=0.3, margin="0.1,0.03"];',
        '  edge [fontname="Helvetica", fontsize=10, color="#888888"];',
    ]
    natural = [r for r in m.ranks if r != JOKER_RANK]
    for r in m.ranks:
        rule = _row_rule(m, r)
        label = rank_label(r) + (f"\n{rule}" if rule else "")
        style = ', style="rounded,dashed,filled", fillcolor="#f4f4f4"' if r in m.see_through else ""
        lines.append(f"  r{r} [label={_quote(label)}{style}];")
    for lo, hi in zip(natural, natural[1:], strict=False):
        lines.append(f'  r{lo} -> r{hi} [arrowhead=none, penwidth=2, color="#bbbbbb"];')
    hub = [r for r in m.ranks if _goes_anywhere(m, r)]
    if hub:
        lines.append('  any [label="any card", shape=ellipse, fillcolor="#eef6ee"];')
    for r in hub:
        fid = next(c.rules[0] for c in (m.cell(t, r) for t in m.tops) if c.code == "ANYWHERE")
        lines.append(f'  any -> r{r} [label={_quote("goes on it: " + m.tags.get(fid, fid))}, color="#2e7d32"];')
    for top in m.tops:
        if top == EMPTY or top in m.see_through or _row_rule(m, top):
            continue
        for rank in m.ranks:
            c = m.cell(top, rank)
            if rank in hub and c.code == "ANYWHERE":
                continue
            if c.legal == _natural(top, rank) and c.code != "NOT_ON":
                continue
            tag = m.tags.get(c.rules[0], c.rules[0]) if c.rules else ""
            if c.legal:
                lines.append(f'  r{rank} -> r{top} [label={_quote("on it: " + tag)}, color="#2e7d32"];')
            else:
                lines.append(f'  r{rank} -> r{top} [label={_quote("not on it: " + tag)}, '
                             'color="#c62828", style=dashed];')
    lines.append("}")
    return "\n".join(lines) + "\n"
