"""Cards and moves: the contract's notation, in and out; hypothesis for the parsers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.core.cards import JOKER, card_str, parse_card, rank_index
from tutor.core.errors import NotationError, TutorError
from tutor.core.moves import Move


@pytest.mark.parametrize(
    "text, out",
    [("7H", "7H"), ("7h", "7H"), ("10s", "10S"), ("TS", "10S"), ("t♠", "10S"), ("Q♥", "QH"),
     ("a♣", "AC"), ("2d", "2D"), ("JK", "JK"), ("jk", "JK"), ("K♦", "KD")],
)
def test_cards_read_and_write(text: str, out: str) -> None:
    assert card_str(parse_card(text)) == out


@pytest.mark.parametrize("bad", ["", "1H", "11H", "ZZ", "7X", "H7", "10", "JKK", None, 7, True, [], "7 H"])
def test_bad_cards(bad: object) -> None:
    with pytest.raises(NotationError):
        parse_card(bad)


def test_every_card_round_trips() -> None:
    for c in list(range(52)) + [JOKER]:
        assert parse_card(card_str(c)) == c


def test_natural_order() -> None:
    order = [rank_index(r) for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()]
    assert order == sorted(order)


@pytest.mark.parametrize(
    "text, out",
    [("play 7h 7s", "play 7H 7S"), ("PLAY 7S 7H", "play 7H 7S"), ("flip 2", "flip 2"),
     ("pickup", "pickup"), ("pickup with 5h", "pickup with 5H"), ("swap 7h qs", "swap 7H QS"),
     ("  play   10♥  ", "play 10H"), ("play jk jk", "play JK JK")],
)
def test_moves_read_and_write(text: str, out: str) -> None:
    move = Move.parse(text)
    assert str(move) == out
    assert Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move


@pytest.mark.parametrize("bad", ["", "play", "flip", "flip 0", "flip x", "pickup 5H", "swap 7H",
                                 "throw 7H", "play 7H ZZ", "pickup with", None, 3])
def test_bad_moves(bad: object) -> None:
    with pytest.raises(NotationError):
        Move.parse(bad)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_card_parser_raises_only_our_errors(text: str) -> None:
    try:
        parse_card(text)
    except TutorError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("playflipckuwthsp 0123456789TJQKAHDSC♥♠JK\t")), max_size=30))
def test_move_parser_raises_only_our_errors(text: str) -> None:
    try:
        move = Move.parse(text)
    except TutorError:
        return
    assert Move.parse(str(move)) == move
