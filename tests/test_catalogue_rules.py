"""What the catalogue's interactive rules do to the table, beyond their verdicts."""

from __future__ import annotations

from typing import Any

from tutor.core.cards import JOKER, parse_card
from tutor.core.table import Table, table_from_dict
from tutor.engine import apply, check, effective_top, legal_moves
from tutor.rules.variant import load_variant


def T(players: list[dict[str, Any]], pile: list[Any] | None = None, turn: str = "A", decks: int = 1,
      **kw: Any) -> Table:
    return table_from_dict({"players": players, "pile": pile or [], "turn": turn, **kw}, decks=decks,
                           jokers_per_deck=2)


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(n) for n in names))


def test_superjoker_leaves_the_game_after_the_pickup() -> None:
    t = T([{"name": "A", "hand": ["2C", "4C"]}, {"name": "B", "hand": 3}],
          [{"by": "B", "cards": ["AS"]}, {"by": "B", "cards": ["JK"]}])
    assert [str(m) for m in legal_moves(t, "gaz-and-elf")] == ["pickup"]
    after, events = apply(t, "gaz-and-elf", "pickup")
    assert events == ["pickup"] and JOKER in after.burned and JOKER not in after.players[0].hand
    assert after.players[0].hand == cards("2C", "4C", "AS")


def test_red_jacks_pass_the_joker_on_and_on() -> None:
    t = T([{"name": "A", "hand": ["JH", "JD", "4C"]}, {"name": "B", "hand": ["JC", "5C"]}, {"name": "C", "hand": 2}],
          [{"by": "C", "cards": ["5S"]}, {"by": "C", "cards": ["JK"]}])
    listed = [str(m) for m in legal_moves(t, "gaz-and-elf")]
    assert listed == ["play JD", "play JH", "play JD JH", "pickup"]
    after, _ = apply(t, "gaz-and-elf", "play JH")
    assert [str(m) for m in legal_moves(after, "gaz-and-elf")] == ["pickup"]  # B's jack is black


def test_rank_reversal_lasts_while_the_joker_is_in_the_pile() -> None:
    t = T([{"name": "A", "hand": ["4C", "KD", "10H"]}, {"name": "B", "hand": 3}], [["9S"], ["JK"]])
    assert check(t, "tauko-hogni", "play 4C").legal and not check(t, "tauko-hogni", "play KD").legal
    after, events = apply(t, "tauko-hogni", "play 10H")  # a 10 burns: the pile, joker and all, goes
    assert events[0] == "burn" and after.pile == ()


def test_runs_lie_in_order_and_the_top_is_the_last_card() -> None:
    t = T([{"name": "A", "hand": ["5H", "6H", "7H", "KC"]}, {"name": "B", "hand": 3}], [["4C"]])
    after, _ = apply(t, "pagat+runs", "play 5H 6H 7H")
    assert after.pile[-1].cards == cards("5H", "6H", "7H")
    assert effective_top(after, load_variant("pagat+runs")).rank == 5  # the 7 is on top
    assert "play 5H 6H 7H" in [str(m) for m in legal_moves(t, "pagat+runs")]
    assert "play 5H 6H" in [str(m) for m in legal_moves(t, "pagat+runs")]


def test_a_run_through_a_lower_than_card_stops() -> None:
    # Guarducci's 8 makes the next card lower: 7-8-9 cannot be one run
    t = T([{"name": "A", "hand": ["7H", "8H", "9H"]}, {"name": "B", "hand": 3}], [["4C"]])
    assert check(t, "guarducci", "play 7H 8H 9H").code.value == "RUN_STEP"
    assert check(t, "guarducci", "play 7H 8H").legal


def test_eight_swap_moves_the_cards() -> None:
    t = T([{"name": "A", "hand": ["8D", "4H", "KS"]}, {"name": "B", "hand": ["QC", "3D", "5S"]}], [["6C"]])
    after, events = apply(t, "tauko-hogni", "play 8D swap 4H from B 1")
    assert events[0] == "swap"
    assert after.players[0].hand == cards("3D", "KS") and after.players[1].hand == cards("4H", "QC", "5S")


def test_triple_swap_takes_another_players_face_up_card() -> None:
    t = T([{"name": "A", "hand": ["6C", "6D", "6H", "4H"]}, {"name": "B", "hand": 3, "face_up": ["AS", "3C"]}],
          [["5C"]])
    after, _ = apply(t, "tauko-hogni", "play 6C 6D 6H swap 4H for AS from B")
    assert after.players[0].hand == cards("AS")
    assert after.players[1].face_up == ((parse_card("4H"),), (parse_card("3C"),))


def test_gamble_and_slide() -> None:
    t = T([{"name": "A", "hand": ["4C", "6D", "3S"]}, {"name": "B", "hand": 3}], [["9S"]], stock=["KH", "2D"])
    after, events = apply(t, "egilsson", "gamble")
    assert after.pile[-1].cards == cards("KH") and after.stock == cards("2D") and after.players[0].hand == cards(
        "4C", "6D", "3S")
    t = T([{"name": "A", "hand": ["3C", "9D", "5S", "6S", "KD"]}, {"name": "B", "hand": 4}], [["QH"]])
    after, _ = apply(t, "nortenos+threes-slide", "slide 3C")
    assert after.pile[0].cards == cards("3C") and after.turn == 0


def test_nortenos_second_phase_takes_the_laid_cards_up() -> None:
    t = T([{"name": "A", "hand": ["9C"], "face_up": ["4D", "5S", "6S", "KC"], "face_down": 4},
           {"name": "B", "hand": 7, "face_up": 4, "face_down": 4}], [["6H"]], decks=1)
    after, _ = apply(t, "nortenos", "play 9C")
    assert after.players[0].hand == cards("4D", "5S", "6S", "KC") and after.players[0].face_up == ()


def test_karma_stacks_go_whole() -> None:
    t = T([{"name": "A", "face_up": [["JC", "JD"], ["JS"], "AS"], "face_down": 3}, {"name": "B", "hand": 3}],
          [["5D"]], decks=1)
    listed = [str(m) for m in legal_moves(t, "karma")]
    assert "play JS" in listed and "play JC JD" in listed and "play JC JD JS" in listed
    assert "play JC" not in listed and check(t, "karma", "play JC").code.value == "WHOLE_STACK"


def test_bluff_call_outcomes() -> None:
    base = [{"name": "A", "hand": ["7H", "4C", "5D"]}, {"name": "B", "hand": ["3C", "6C"]}]
    lie = T(base, [{"by": "A", "cards": ["8C"], "claim": "8"}, {"by": "B", "cards": ["9S"], "claim": "J"}])
    after, events = apply(lie, "bluff", "call")
    assert events == ["caught", "pickup", "play_again"] and after.players[1].hand == cards("3C", "6C", "8C", "9S")
    truth = T(base, [{"by": "A", "cards": ["8C"], "claim": "8"}, {"by": "B", "cards": ["JS"], "claim": "J"}])
    after, events = apply(truth, "bluff", "call")
    assert events == ["pickup"] and len(after.players[0].hand) == 5 and after.turn == 1
    assert not check(truth, "bluff", "pickup").legal


def test_bluff_claims_round_trip_through_the_table_file() -> None:
    t = T([{"name": "A", "hand": ["7H"]}, {"name": "B", "hand": 2}], [{"by": "B", "cards": ["9S"], "claim": "J"}])
    again = table_from_dict(t.to_dict(), jokers_per_deck=2)
    assert again == t and t.to_dict()["pile"] == [{"by": "B", "cards": ["9S"], "claim": "J"}]
