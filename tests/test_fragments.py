"""Every fragment's worked examples, judged by the engine; and the shape of every fragment."""

from __future__ import annotations

import pytest

from tutor.rules.variant import SLOTS, fragment_catalogue, preset_catalogue
from tutor.teach.examples import judge_example, load_example

CASES = [(f.id, k) for f in fragment_catalogue().values() for k in range(len(f.examples))]


@pytest.mark.parametrize("fid, k", CASES)
def test_example(fid: str, k: int) -> None:
    example = load_example(fragment_catalogue()[fid], k)
    verdict, problems = judge_example(example)
    assert not problems, f"{fid} example {k} ({example.note}): " + "; ".join(problems)


@pytest.mark.parametrize("fid", sorted(fragment_catalogue()))
def test_fragment_shape(fid: str) -> None:
    f = fragment_catalogue()[fid]
    assert f.slot in SLOTS
    assert f.title and f.summary and f.source.site and f.source.section
    assert len(f.examples) >= 2, f"{fid} needs at least two examples"
    legal = {bool(ex["legal"]) for ex in f.examples}
    if fid not in ("setup-swap", "first-three-face-up", "goal-loser", "goal-winner", "deal-3-3-3",
                   "deal-4-4-4", "after-pickup-next"):
        assert legal == {True, False}, f"{fid}: give a legal and an illegal example"


def test_every_preset_fragment_exists() -> None:
    frags = fragment_catalogue()
    for p in preset_catalogue().values():
        for fid in p.fragments:
            assert fid in frags, f"{p.id} names {fid}"
