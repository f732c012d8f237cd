"""The play-on matrix (tutor.rules.matrix) reads the variant's cells faithfully, for every preset."""

from __future__ import annotations

import pytest

from tutor.core.cards import EMPTY
from tutor.rules.matrix import (
    RANKS_BY_NAME,
    SEE_THROUGH,
    explain_cell,
    matrix_differences,
    matrix_dot,
    play_matrix,
    short_tags,
)
from tutor.rules.variant import load_variant, preset_catalogue

R = RANKS_BY_NAME


@pytest.mark.parametrize("preset", list(preset_catalogue()))
def test_every_cell_is_the_variants_own(preset: str) -> None:
    v = load_variant(preset)
    m = play_matrix(v)
    assert m.tops[0] == EMPTY and len(m.cells) == len(m.tops)
    for row in m.cells:
        for c in row:
            if c.code == SEE_THROUGH:
                assert v.transparent[c.top]
                continue
            assert (c.legal, c.code, c.rules) == (v.cells[c.top][c.rank][0], v.cells[c.top][c.rank][1],
                                                  tuple(v.cells[c.top][c.rank][2]))
            assert m.label(c)[0] in "✓✗"
    assert len(m.rows()) == len(m.row_labels())
    assert matrix_dot(v).startswith("digraph")


def test_lancaster_nine_and_eight() -> None:
    m = play_matrix(load_variant("lancaster"))
    assert m.cell(R["9"], R["K"]).code == "OVER_LIMIT"
    assert m.label(m.cell(R["9"], R["K"])) == "✗ nines"
    assert m.cell(R["K"], R["8"]).legal
    assert all(c.code == SEE_THROUGH for c in m.cells[m.tops.index(R["8"])])
    assert "no jokers" not in " ".join(m.column_labels()) and "joker" not in m.column_labels()


def test_a_fragment_changes_the_cells_it_should() -> None:
    before = play_matrix(load_variant("pagat"))
    after = play_matrix(load_variant("pagat+nines-lower"))
    assert before.cell(R["9"], R["K"]).legal and not after.cell(R["9"], R["K"]).legal
    diffs = matrix_differences([load_variant("pagat"), load_variant("pagat+nines-lower")])
    assert {(d.top, d.rank) for d in diffs} >= {(R["9"], R["K"]), (R["9"], R["3"])}
    assert all(d.cells[0].legal != d.cells[1].legal for d in diffs)


def test_explanations_name_the_rule() -> None:
    v = load_variant("lancaster")
    text = explain_cell(v, R["9"], R["A"])
    assert "may not" in text and "nines-lower" in text
    assert "see-through" in explain_cell(v, R["8"], R["5"])
    assert "may be played on an empty pile" in explain_cell(v, EMPTY, R["3"])


def test_short_tags_fall_back_to_ids_on_clashes() -> None:
    assert short_tags(["twos-reset", "tens-burn-anytime"]) == {"twos-reset": "twos", "tens-burn-anytime": "tens"}
    assert short_tags(["jacks-glass", "jacks-unbeatable"]) == {"jacks-glass": "jacks-glass",
                                                              "jacks-unbeatable": "jacks-unbeatable"}


def test_the_diagram_draws_departures_from_the_natural_order() -> None:
    dot = matrix_dot(load_variant("lancaster"))
    assert "any -> r6" in dot  # the 8 goes on anything
    assert "next: 9 or lower" in dot
    assert "see-through" in dot
