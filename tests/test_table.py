"""The table file: reading, validation with exact messages, round trips, hypothesis."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.core.errors import TableError, TutorError
from tutor.core.table import read_table_text, table_from_dict

GOOD: dict[str, Any] = {
    "players": [
        {"name": "A", "hand": ["7H", "7S", "KD"], "face_up": ["9C", "QS", "2D"], "face_down": 3},
        {"name": "B", "hand": 4, "face_up": [["JC", "JD"], "AS"], "face_down": ["5C", "KH", "3D"]},
    ],
    "pile": [{"by": "B", "cards": ["6C"]}, ["8D", "8S"]],
    "stock": 12,
    "burned": 0,
    "turn": "A",
    "direction": "clockwise",
}


def test_the_contract_example_reads() -> None:
    t = table_from_dict(GOOD)
    assert t.player.name == "A" and len(t.stock) == 12 and len(t.pile) == 2
    assert t.pile[0].by == 1 and t.pile[1].by == -1
    assert t.players[1].face_up[0] == (36, 37)  # a stack of two jacks


def test_round_trip() -> None:
    t = table_from_dict(GOOD)
    again = table_from_dict(yaml.safe_load(t.to_yaml()))
    assert again == t


@pytest.mark.parametrize(
    "change, message",
    [
        ({"players": [{"name": "A", "hand": ["7H", "7S", "ZZ"]}, {"name": "B", "hand": 1}]},
         "t.yaml: players[0].hand[2]: 'ZZ' is not a card"),
        ({"turn": "Q"}, "t.yaml: turn: 'Q' is not a player (players: A, B)"),
        ({"pile": [["7H"], ["7H"]]}, "t.yaml: 7H appears 3 times, but 1 pack holds 1"),
        ({"players": [{"name": "A", "hand": []}, {"name": "B", "hand": 3}]},
         "t.yaml: turn: 'A' has no cards left, so is out and cannot move"),
        ({"direction": "sideways"}, "t.yaml: direction: 'sideways' is not clockwise or counterclockwise"),
        ({"stock": 60}, "t.yaml: 82 cards in all, but 1 pack holds 52"),
        ({"pile": [{"by": "Z", "cards": ["4C"]}]}, "t.yaml: pile[0].by: 'Z' is not a player"),
        ({"colour": "red"}, "t.yaml: unknown key 'colour'"),
        ({"players": [{"name": "A", "hand": 3}]}, "t.yaml: players: list at least two players"),
    ],
)
def test_impossible_tables_say_what_and_where(change: dict[str, Any], message: str) -> None:
    data = {**GOOD, **change}
    with pytest.raises(TableError) as err:
        table_from_dict(data, where="t.yaml")
    assert str(err.value).startswith(message)


def test_two_packs_allow_two_copies() -> None:
    data = {**GOOD, "pile": [["7H"]], "decks": 2}
    table_from_dict(data)


def test_bad_yaml_text() -> None:
    with pytest.raises(TableError, match="t.yaml: line"):
        read_table_text("players: [a, b\nturn: A", "t.yaml")
    with pytest.raises(TableError):
        read_table_text("- just a list", "t.yaml")


cards = st.sampled_from(["7H", "10S", "JK", "ZZ", "", "AS", 7, None, "2C", "♥7"])
zone = st.one_of(st.integers(-3, 60), st.lists(cards, max_size=5), cards, st.none())
player = st.fixed_dictionaries(
    {"name": st.sampled_from(["A", "B", "C", "", None, 3])},
    optional={"hand": zone, "face_up": st.one_of(zone, st.lists(st.lists(cards, max_size=3), max_size=3)),
              "face_down": zone, "extra": st.just(1)},
)
table = st.fixed_dictionaries(
    {"players": st.one_of(st.lists(player, max_size=4), st.none(), st.integers())},
    optional={"pile": st.one_of(st.lists(st.one_of(st.lists(cards, max_size=3), cards,
                                                   st.fixed_dictionaries({"by": st.sampled_from(["A", "Z", None]), "cards": zone})),
                                         max_size=4), st.integers()),
              "stock": zone, "burned": zone, "turn": st.sampled_from(["A", "B", "Z", None, 1]),
              "direction": st.sampled_from(["clockwise", "up", 3]), "decks": st.sampled_from([1, 2, 0, "x", True])},
)


@settings(max_examples=400, deadline=None)
@given(table)
def test_table_reader_raises_only_our_errors(data: dict[str, Any]) -> None:
    try:
        table_from_dict(data)
    except TutorError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_table_text_raises_only_our_errors(text: str) -> None:
    try:
        table_from_dict(read_table_text(text, "t.yaml"))
    except TutorError:
        pass
