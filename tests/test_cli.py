"""The `tutor` command as the contract describes it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main

TABLE = """\
variant: lancaster
decks: 2
players:
  - {name: A, hand: [7H, 7S, KD, 4C], face_up: [9C, QS, 2D, 5D], face_down: 4}
  - {name: B, hand: 4, face_up: [3C, 3D, 4H, 5H], face_down: 4}
  - {name: C, hand: 4, face_up: [6S, 6D, 4S, 5S], face_down: 4}
  - {name: D, hand: 4, face_up: [JC, JD, 4D, 5C], face_down: 4}
pile:
  - {by: C, cards: [3H]}
  - {by: D, cards: [3S]}
  - {by: A, cards: [6C]}
  - {by: B, cards: [8D]}
stock: 30
turn: A
direction: counterclockwise
"""


@pytest.fixture
def table(tmp_path: Path) -> Path:
    p = tmp_path / "t.yaml"
    p.write_text(TABLE)
    return p


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_json(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--table", str(table), "--move", "play 7h 7s", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["legal"] is True and data["move"] == "play 7H 7S"
    assert data["rules"][:2] == ["core", "eights-transparent-reverse"]
    assert data["next_player"] == "D" and data["events"] == ["draw"]
    assert "6" in data["reason"] and "8" in data["reason"]


def test_check_illegal_is_answered(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--table", str(table), "--move", "play 4C", "--json")
    data = json.loads(out)
    assert code == 0 and data["legal"] is False and "events" not in data and data["rules"]


def test_variant_flag_wins_over_file(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # pagat has no transparent 8: the 7s must beat the 8 itself
    _, out, _ = run(capsys, "check", "--table", str(table), "--move", "play 7H 7S", "--json", "--variant", "pagat")
    assert json.loads(out)["legal"] is False


def test_moves_json(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "--table", str(table), "--json")
    assert code == 0
    assert json.loads(out) == {"moves": ["play 7H", "play 7S", "play 7H 7S", "play KD"]}


def test_variants_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "--json")
    data = json.loads(out)
    assert code == 0 and {"pagat", "lancaster"} <= {p["id"] for p in data["presets"]}
    assert "eights-transparent-reverse" in {f["id"] for f in data["fragments"]}


@pytest.mark.parametrize(
    "args, part",
    [
        (["check", "--table", "{t}", "--move", "play ZZ"], "'ZZ' is not a card"),
        (["check", "--table", "{t}", "--move", "dance"], "is not a move"),
        (["check", "--table", "/nonexistent.yaml", "--move", "pickup"], "cannot read the file"),
        (["moves", "--table", "{t}", "--variant", "nope"], "'nope' is not a preset"),
        (["play", "--variant", "pagat", "--players", "9"], "for 2 to 5 players"),
        (["check", "--table", "{t}"], "required"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    table: Path, capsys: pytest.CaptureFixture[str], args: list[str], part: str
) -> None:
    code, out, err = run(capsys, *[a.replace("{t}", str(table)) for a in args])
    assert code == 2
    assert part in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_table_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("players:\n  - {name: A, hand: [7H, ZZ]}\n  - {name: B, hand: 2}\nturn: A\n")
    code, _, err = run(capsys, "check", "--table", str(p), "--move", "pickup")
    assert code == 2 and err.strip().endswith("players[0].hand[1]: 'ZZ' is not a card")
    p.write_text(": : :\n")
    code, _, err = run(capsys, "moves", "--table", str(p))
    assert code == 2 and "bad.yaml" in err


def test_play_prints_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--variant", "lancaster", "--players", "3", "--seed", "4")
    assert code == 0
    assert "leads" in out and ("shithead" in out or "Stalled" in out)
    code2, out2, _ = run(capsys, "play", "--variant", "lancaster", "--players", "3", "--seed", "4")
    assert out == out2


def test_rules_prints_a_rulebook(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "pagat")
    assert code == 0 and "## Special cards" in out and "tens-burn-anytime" in out
    assert "contradicts" in out or "disagree" in out


def test_module_entry_point(table: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "tutor", "check", "--table", str(table), "--move", "pickup"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "ILLEGAL" in proc.stdout
