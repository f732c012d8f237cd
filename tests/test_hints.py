"""Hints a strong player would give (issue 15): the counts, plans and words are true of the position.

Every hint here has an iteration budget (never time), so it is deterministic.
"""

from __future__ import annotations

import json

import pytest
import yaml

from tutor.advisor import observe
from tutor.cli import main
from tutor.core.cards import UNKNOWN, parse_card
from tutor.core.errors import TableError
from tutor.core.table import Table, table_from_dict
from tutor.rules.variant import load_variant


def _table(data: dict[str, object], variant: str = "pagat") -> Table:
    v = load_variant(variant)
    return table_from_dict(data, decks=v.decks_for(len(data["players"])), jokers_per_deck=v.jokers)  # type: ignore[arg-type]


def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


# -- partly seen hands in the table file ------------------------------------------------


def test_a_partly_seen_hand_is_read_written_and_read_again() -> None:
    t = _table({"players": [{"name": "A", "hand": ["4C", "9D"]},
                            {"name": "B", "hand": {"seen": ["QC", "QH"], "unseen": 3}}],
                "pile": [["5C"]], "turn": "A"})
    b = t.players[1]
    assert len(b.hand) == 5 and b.hand.count(UNKNOWN) == 3
    assert sorted(c for c in b.hand if c != UNKNOWN) == sorted(_cards("QC QH"))
    data = t.to_dict()
    assert data["players"][1]["hand"] == {"seen": ["QC", "QH"], "unseen": 3}
    assert data["players"][0]["hand"] == ["4C", "9D"]  # whole hands and counts keep their forms
    assert table_from_dict(yaml.safe_load(t.to_yaml())) == t


def test_a_hand_all_seen_or_all_unseen_keeps_the_contract_forms() -> None:
    t = _table({"players": [{"name": "A", "hand": ["4C"]},
                            {"name": "B", "hand": {"seen": [], "unseen": 2}},
                            {"name": "C", "hand": {"seen": ["KD"]}}], "turn": "A"})
    hands = [p["hand"] for p in t.to_dict()["players"]]
    assert hands == [["4C"], 2, ["KD"]]


@pytest.mark.parametrize(("hand", "says"), [
    ({"seen": ["ZZ"], "unseen": 1}, "players[1].hand.seen[0]: 'ZZ' is not a card"),
    ({"seen": ["QC"], "unseen": -1}, "players[1].hand.unseen: -1 is not a sensible number"),
    ({"seen": ["QC"], "unseen": "two"}, "players[1].hand.unseen: 'two' is not a number of cards"),
    ({"seen": ["QC"], "unseen": True}, "players[1].hand.unseen: True is not a number of cards"),
    ({"seen": ["QC"], "held": 2}, "players[1].hand: unknown key 'held'"),
    ({"seen": 3}, "players[1].hand.seen: list the cards seen"),
])
def test_a_bad_partly_seen_hand_says_what_and_where(hand: object, says: str) -> None:
    with pytest.raises(TableError) as e:
        _table({"players": [{"name": "A", "hand": ["4C"]}, {"name": "B", "hand": hand}], "turn": "A"})
    assert says in str(e.value)


def test_a_partly_seen_hand_counts_against_the_pack() -> None:
    with pytest.raises(TableError, match="QC appears 2 times"):
        _table({"players": [{"name": "A", "hand": ["QC"]},
                            {"name": "B", "hand": {"seen": ["QC"], "unseen": 2}}], "turn": "A"})


def test_the_seen_cards_of_a_partly_seen_hand_are_known_to_the_advisor_and_the_rest_is_not() -> None:
    t = _table({"players": [{"name": "A", "hand": ["4C", "9D"]},
                            {"name": "B", "hand": {"seen": ["QC", "QH"], "unseen": 3}}],
                "pile": [["5C"]], "stock": 10, "turn": "A"})
    view = observe(t, 0)
    b = view.seats[1]
    assert b.hand_known == tuple(sorted(_cards("QC QH"))) and b.hand_size == 5 and b.hand_unknown == 3
    pool = view.unknown_pool(load_variant("pagat"))
    assert not set(_cards("QC QH 4C 9D 5C")) & set(pool)


def test_tutor_hint_reads_a_partly_seen_hand(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "t.yaml"
    path.write_text("players:\n  - {name: A, hand: [4C, 9D, KS]}\n"
                    "  - {name: B, hand: {seen: [QC, QH], unseen: 1}}\npile: [[5C]]\nturn: A\n")
    assert main(["hint", "--table", str(path), "--iterations", "60", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["best"] and all({"move", "score", "low", "high", "simulations", "why"} <= set(m) for m in out["moves"])
    path.write_text("players:\n  - {name: A, hand: [4C]}\n  - {name: B, hand: {seen: [QC], unseen: x}}\nturn: A\n")
    assert main(["hint", "--table", str(path), "--iterations", "60"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "players[1].hand.unseen" in err[0]
