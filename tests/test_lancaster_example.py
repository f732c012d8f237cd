"""The Lancaster example play (Ralpharama, "Example Play"), replayed move by move."""

from __future__ import annotations

from tutor.engine import apply, check, first_player
from tutor.play.records import load_record
from tutor.rules.variant import GAMES_DIR

NARRATED = [
    ("C", "play 3H"), ("D", "play 3S"), ("A", "play 6C"), ("B", "play 8D"), ("A", "play 7H 7S"),
    ("D", "play JH"), ("C", "play 2C"), ("C", "play 4C"), ("B", "play 4D 4H 4S"), ("B", "play 9C"),
    ("A", "play 5D"), ("D", "play 10D"), ("D", "play QD"), ("C", "play QC"), ("B", "pickup"),
    ("B", "play 3D"),
]


def test_the_record_replays_as_narrated() -> None:
    record = load_record(GAMES_DIR / "lancaster-example.yaml")
    assert [(s.by, str(s.move)) for s in record.steps] == NARRATED
    assert all(s.note and s.rules for s in record.steps)


def test_each_narrated_outcome() -> None:
    record = load_record(GAMES_DIR / "lancaster-example.yaml")
    v = record.variant
    table = record.start
    assert table.players[first_player(table, v)].name == "C"  # C holds a 3, A and B do not
    drawn = []
    for step in record.steps:
        verdict = check(table, v, step.move)
        assert verdict.legal, (step.number, verdict.reason)
        before = len(table.stock)
        table, events = apply(table, v, step.move)
        drawn.append(before - len(table.stock))
        assert events == list(step.expect["events"])
    # the same draws as told (B draws three after his 4s: the page says one, see the record)
    assert drawn == [1, 1, 1, 1, 2, 1, 1, 1, 3, 1, 1, 1, 1, 1, 0, 0]
    steps = record.steps
    assert "reverse" in steps[3].verdict.events and steps[3].verdict.next_player == "A"
    assert steps[4].verdict.reason.startswith("Two 7s beat the 6 under the transparent 8")
    assert "burn" in steps[8].verdict.events and "four-burns" in steps[8].verdict.rules
    assert "burn" in steps[11].verdict.events and "tens-burn-restricted" in steps[11].verdict.rules
    assert steps[14].verdict.events == ("pickup", "play_again")
    assert steps[15].verdict.next_player == "A"
    assert len(table.players[1].hand) == 5  # B kept more than four, so drew nothing
