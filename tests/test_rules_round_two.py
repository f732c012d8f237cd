"""Rules the second held-out round found missing or wrong (issue 14), each from its source."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.cli import main
from tutor.core.errors import TableError, TutorError
from tutor.play.game import deal
from tutor.rules.variant import load_table, load_variant

SIX = {
    "players": [{"name": "A", "hand": ["5C", "9D", "KS"]}] + [{"name": n, "hand": 3} for n in "BCDEF"],
    "pile": [["4H"]],
    "turn": "A",
}


# -- pagat: "From two to five may play"; six only with the two jokers ---------------------


def test_six_seat_pagat_table_is_refused_like_a_six_player_game() -> None:
    v = load_variant("pagat")
    with pytest.raises(TableError, match=r"t\.yaml: players: pagat is for 2 to 5 players, not 6"):
        load_table(SIX, v, where="t.yaml")
    with pytest.raises(TutorError, match="pagat is for 2 to 5 players, not 6"):
        deal(v, 6, seed=1)


def test_six_seat_pagat_table_is_fine_with_the_jokers() -> None:
    v = load_variant("pagat+jokers-reverse")
    assert v.players_problem(6) is None
    assert len(load_table(SIX, v).players) == 6
    assert len(deal(v, 6, seed=1).players) == 6


def test_cli_exit_2_for_a_six_seat_pagat_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    p = tmp_path / "six.yaml"
    p.write_text(yaml.safe_dump(SIX))
    assert main(["check", "--table", str(p), "--move", "play 5C"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pagat is for 2 to 5 players, not 6" in err
    assert main(["check", "--table", str(p), "--variant", "pagat+jokers-reverse", "--move", "play 5C"]) == 0


@pytest.mark.parametrize("spec, n", [("west-kent", 4), ("nortenos", 5), ("pagat", 1 + 5)])
def test_tables_and_games_share_the_player_count(spec: str, n: int) -> None:
    v = load_variant(spec)
    raw = {"players": [{"name": chr(65 + i), "hand": 1} for i in range(n)], "pile": [], "turn": "A"}
    problem = v.players_problem(n)
    assert problem
    with pytest.raises(TableError, match=problem):
        load_table(raw, v)
    with pytest.raises(TutorError, match=problem):
        deal(v, n, seed=3)


# -- Smeghead: "They use several decks of cards shuffled together" ------------------------


@pytest.mark.parametrize("n", range(2, 9))
def test_smeghead_uses_at_least_two_packs(n: int) -> None:
    v = load_variant("smeghead")
    assert v.decks_for(n) >= 2
    table = deal(v, n, seed=n)
    assert table.decks >= 2


def test_smeghead_three_player_table_may_hold_two_seven_of_hearts() -> None:
    v = load_variant("smeghead")
    raw = {
        "players": [
            {"name": "A", "hand": ["9C", "4D", "5S", "KD"]},
            {"name": "B", "hand": ["7H", "8H", "QC", "3S"]},
            {"name": "C", "hand": 4},
        ],
        "pile": [{"by": "A", "cards": ["7H"]}],
        "turn": "B",
    }
    assert load_table(raw, v).decks == 2
    with pytest.raises(TableError):
        load_table(raw, load_variant("pagat"))
