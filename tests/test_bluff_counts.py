"""Bluff: lying about how many cards were played, and hiding cards under a play (issue 14, item 7).

The source: pagat.com, Shithead Variations, the bluffing variation by Sean Burns: "You may lie
about everything, not just values. Have a run of 5 you want to put down? Maybe a triple? Throw
some more cards under them. As long as no one catches it it's fair. However, if they call it out
or call BS and notice, then you have to take the pile (even if your run or double/triple is
legit). However, if the next player puts something down before anyone calls it then its fair."
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tutor.advisor.determinize import consistent, determinize
from tutor.advisor.view import observe
from tutor.cli import main
from tutor.core.cards import claim_count, claim_str, claim_top, parse_card, parse_claim
from tutor.core.errors import NotationError, TableError
from tutor.core.moves import CALL, Move
from tutor.core.table import Table, read_table_text, table_from_dict
from tutor.engine import apply, check, count_lie, legal_moves
from tutor.rules.variant import load_table, load_variant
from tutor.tabletop.layout import table_data

V = load_variant("bluff")


def _table(pile: list[dict[str, Any]], hand: list[str], *, other: Any = 3, stock: Any = 0, **more: Any) -> Table:
    return load_table({"players": [{"name": "A", "hand": hand, **more}, {"name": "B", "hand": other}],
                       "pile": pile, "stock": stock, "turn": "A"}, V)


def _listed(t: Table, move: str) -> bool:
    return Move.parse(move) in set(legal_moves(t, V))


# -- the notation ----------------------------------------------------------------------------


def test_a_count_claim_is_read_and_written() -> None:
    claim = parse_claim("7x2")
    assert claim_top(claim) == 5 and claim_count(claim, 3) == 2 and claim_str(claim) == "7x2"
    assert claim_str(parse_claim("qx4")) == "Qx4" and claim_str(parse_claim("10x1")) == "10x1"
    assert str(Move.parse("play 7s 7h 4c as 7x2")) == "play 4C 7H 7S as 7x2"
    assert str(Move.parse("play 7S as 7x2")) == "play 7S as 7x2"
    # a count that is the cards' own is no lie, and is the same move as without it
    assert Move.parse("play 7S 7H as 7x2") == Move.parse("play 7S 7H as 7")
    assert not count_lie(Move.parse("play 7S 7H as 7x2")) and count_lie(Move.parse("play 7S as 7x2"))
    assert count_lie(Move.parse("play 7S 8S 9S 4C as 7-9")) and not count_lie(Move.parse("play 7S 8S 9S as 7-9"))


@pytest.mark.parametrize(("text", "says"), [
    ("play 7S as 7x0", "1 to 4"),
    ("play 7S as 7x99", "1 to 4"),
    ("play 7S as 7x", "1 to 4"),
    ("play 7S as x2", "write a rank"),
    ("play 7S 8S as 7-8x2", "one card for each rank"),
])
def test_bad_counts_are_one_line_errors(text: str, says: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(NotationError, match=says) as err:
        Move.parse(text)
    assert "\n" not in str(err.value)
    path = tmp_path / "t.yaml"
    path.write_text(_table([], ["7S", "8S"]).to_yaml())
    assert main(["check", "--table", str(path), "--move", text, "--variant", "bluff"]) == 2
    err_text = capsys.readouterr().err
    assert says in err_text and "Traceback" not in err_text and len(err_text.strip().splitlines()) == 1


def test_a_bad_count_in_a_table_file_is_a_table_error() -> None:
    with pytest.raises(TableError, match=r"pile\[0\]\.claim: '7x9' is not a rank, a rank and a count or a run"):
        _table([{"by": "B", "cards": ["9S"], "claim": "7x9"}], ["7S"])


def test_a_count_claim_round_trips_through_the_table_file() -> None:
    t = load_table(
        {"players": [{"name": "A", "hand": ["KD"]}, {"name": "B", "hand": 3}], "turn": "B",
         "pile": [{"by": "B", "cards": ["9S"], "claim": "2"}, {"by": "A", "cards": ["7S", "7H", "4C"], "claim": "7x2"}]}, V)
    assert "claim: 7x2" in t.to_yaml()
    assert load_table(read_table_text(t.to_yaml()), V) == t
    assert table_from_dict(t.to_dict()).to_dict() == t.to_dict()
    honest = load_table({"players": [{"name": "A", "hand": 3}, {"name": "B", "hand": 3}], "turn": "A",
                         "pile": [{"by": "B", "cards": ["7S", "7H"], "claim": "7x2"}]}, V)
    assert honest.pile[0].claim == 5 and "7x2" not in honest.to_yaml()  # two cards said to be two: a plain claim


# -- judged on the claim ---------------------------------------------------------------------

ON_A_TWO = [{"by": "B", "cards": ["9S"], "claim": "2"}]  # value 0: one to three cards may go
ON_A_SIX = [{"by": "B", "cards": ["6C"], "claim": "6"}]
ON_SIXES = [{"by": "B", "cards": ["6S", "6D"], "claim": "6"}]


@pytest.mark.parametrize(("pile", "hand", "move", "code"), [
    # "Maybe a triple? Throw some more cards under them": a 4 under two 7s, judged as a double
    (ON_A_TWO, ["7H", "7C", "4D", "KS"], "play 7H 7C 4D as 7x2", "RESET"),
    (ON_A_TWO, ["7H", "4D", "KS"], "play 7H 4D KS as 7x1", "RESET"),  # two cards under one
    ([], ["7H", "4D", "KS"], "play 7H as 7x3", "EMPTY"),  # one card said to be three
    ([], ["7H", "4D", "KS"], "play 7H as 7x4", "FOUR_ANYTIME"),  # said to be four: a quadruple
    (ON_SIXES, ["7H", "4D", "KS"], "play 7H as 8x2", "BEATS"),  # one card said to be a double, on a double
    (ON_SIXES, ["7H", "4D", "KS"], "play 7H 4D as 7x1", "COUNT"),  # two cards said to be a single: not on a double
    (ON_A_SIX, ["7H", "7C", "KS"], "play 7H as 7x2", "COUNT"),  # a double does not go on a single
    (ON_A_SIX, ["7H", "7C", "4D"], "play 7H 7C 4D as 7x1", "BEATS"),  # a single, two cards under it
    (ON_A_SIX, ["7H", "7C", "4D"], "play 7H 7C 4D as 5x1", "TOO_LOW"),  # the claimed rank still beats the claim
    ([], ["7H", "4D", "KS"], "play 7H 4D KS as 7x2", "MIXED_RANKS"),  # the claimed two are one rank
    ([], ["7H", "4D"], "play 7H 4D as 7x3", "MIXED_RANKS"),  # fewer than claimed: all one rank
    (ON_A_TWO, ["7H", "7C", "4D", "KS"], "play 7H 7C 4D as 7", "MIXED_RANKS"),  # no count said: no card hidden
    # a run with a card under it (pagat: "Have a run of 5 you want to put down? ... Throw some more cards under")
    (ON_A_SIX, ["7S", "8S", "9S", "4C"], "play 7S 8S 9S 4C as 7-9", "RUN"),
    (ON_A_SIX, ["3S", "4S", "9D"], "play 3S 4S 9D as 7-8", "RUN"),  # its ranks a lie too
    (ON_A_SIX, ["7S", "8H", "9D"], "play 7S 8H 9D as 7-8", "NOT_A_RUN"),  # no real run among them
    (ON_A_SIX, ["7S", "8S"], "play 7S 8S as 7-9", "RUN"),  # two cards said to be three
    (ON_A_SIX, ["7S", "9S"], "play 7S 9S as 7-9", "NOT_A_RUN"),  # fewer than claimed: a real run
    (ON_SIXES, ["7S", "8S", "4C"], "play 7S 8S 4C as 7-8", "NOT_A_RUN"),  # no run on a double, hidden or not
])
def test_a_count_lie_is_judged_on_its_claim(pile: list[dict[str, Any]], hand: list[str], move: str,
                                            code: str) -> None:
    t = _table(pile, hand)
    verdict = check(t, V, move)
    assert verdict.code.value == code, verdict.reason
    assert not _listed(t, move)  # the listing's reading: count lies are never listed
    legal = verdict.legal
    if legal:
        assert count_lie(verdict.move)
        after, _ = apply(t, V, move)
        assert after.pile[-1].claim == Move.parse(move).claim and len(after.pile[-1].cards) == len(verdict.move.cards)


def test_the_same_claim_with_its_own_count_is_listed() -> None:
    t = _table(ON_A_TWO, ["7H", "7C", "4D", "KS"])
    assert _listed(t, "play 7H 7C as 7") and check(t, V, "play 7H 7C as 7x2").legal
    assert not _listed(t, "play 7H 7C 4D as 7x2") and check(t, V, "play 7H 7C 4D as 7x2").legal


def test_only_the_hand_may_lie_about_the_count() -> None:
    t = _table(ON_A_SIX, [], face_up=["7H", "9C", "4D"], face_down=3)
    verdict = check(t, V, "play 7H as 7x2")
    assert verdict.code.value == "COUNT" and "from the hand" in verdict.reason
    assert check(t, V, "play 7H as 7").legal
    assert check(t, V, "play 7H 9C as 7x1").code.value == "COUNT"


def test_the_player_draws_back_up_by_the_cards_really_laid() -> None:
    t = _table(ON_A_TWO, ["7H", "7C", "4D"], stock=10)
    after, events = apply(t, V, "play 7H 7C 4D as 7x2")
    assert len(after.players[0].hand) == 3 and len(after.stock) == 7 and "draw" in events
    after, _ = apply(t, V, "play 7H as 7x3")
    assert len(after.players[0].hand) == 3 and len(after.stock) == 9


# -- calls -----------------------------------------------------------------------------------

FIRST = {"by": "A", "cards": ["8C"], "claim": "8"}


@pytest.mark.parametrize(("laid", "claim", "caught"), [
    (["9S", "9C", "4H"], "9x2", True),  # both 9s are there, but a card is hidden: "even if ... legit"
    (["9S"], "9x2", True),  # one card said to be two
    (["9S", "9C"], "9x2", False),  # two 9s said to be two: true
    (["7S", "8S", "9S", "4C"], "7-9", True),  # a true run with a card under it
    (["7S", "8S"], "7-9", True),  # two cards said to be a run of three
])
def test_a_call_finds_a_lie_in_rank_or_in_number(laid: list[str], claim: str, caught: bool) -> None:
    t = _table([FIRST, {"by": "B", "cards": laid, "claim": claim}], ["QH", "4D", "5D"], other=["3C", "6C"])
    verdict = check(t, V, "call")
    after, events = apply(t, V, "call")
    taker = 1 if caught else 0
    assert ("caught" in events) is caught and "pickup" in events
    assert len(after.players[taker].hand) == (2 if caught else 3) + 1 + len(laid) and not after.pile
    assert after.turn == (0 if caught else 1)
    n = {1: "one card", 2: "two cards", 3: "three cards", 4: "four cards"}[len(laid)]
    said = "two 9s" if claim == "9x2" else "the run 7 to 9 of one suit"
    assert f"A called: B put {n} down" in verdict.reason and f"claimed as {said}" in verdict.reason
    assert verdict.reason.endswith("B takes the pile, and A plays again." if caught else "A takes the pile.")


def test_the_call_sentence_says_what_was_laid_and_said() -> None:
    t = _table([FIRST, {"by": "B", "cards": ["7S", "7H", "4C"], "claim": "7x2"}], ["QH"], other=["3C"])
    reason = check(t, V, "call").reason
    assert "A called: B put three cards down (7♠ 7♥ 4♣), claimed as two 7s: B takes the pile" in reason


def test_once_the_next_player_plays_the_claim_stands_count_included() -> None:
    # "if the next player puts something down before anyone calls it then its fair"
    t = _table(ON_A_TWO, ["7H", "4D", "KS"], other=["8H", "8C", "3C", "5S"])
    t, _ = apply(t, V, "play 7H as 7x2")  # one card said to be two 7s
    assert [str(m) for m in legal_moves(t, V)][-1] == "call"
    assert check(t, V, "play 8H as 8").code.value == "COUNT"  # the claimed double is what B must match
    t, events = apply(t, V, "play 8H 8C as 8")
    assert not events and t.pile[-2].claim == parse_claim("7x2")
    assert Move(CALL) in legal_moves(t, V)  # A may call B's play, not the one below it
    t, events = apply(t, V, "call")  # B's two 8s were true: A takes the pile, the lie under them unseen
    assert events == ["pickup"] and len(t.players[0].hand) == 2 + 4


def test_a_claimed_count_makes_a_quadruple() -> None:
    # "four people playing the same value consecutively": counted as claimed
    t = _table([{"by": "B", "cards": ["9S"], "claim": "9x3"}], ["5H", "4C"], other=["3C", "6D"])
    verdict = check(t, V, "play 5H as 9")
    assert verdict.code.value == "FOUR_ANYTIME"
    t, _ = apply(t, V, "play 5H as 9")
    t, events = apply(t, V, "play 3C as 3")
    assert "burn" in events and len(t.pile) == 1


def test_a_card_hidden_under_a_run_with_a_ten_goes_with_it() -> None:
    t = load_table({"players": [{"name": "A", "hand": ["QH", "4C"]}, {"name": "B", "hand": ["3C", "6D"]}],
                    "pile": [{"by": "A", "cards": ["6C"], "claim": "6"},
                             {"by": "B", "cards": ["7S", "8S", "9S", "10S", "JS", "4D"], "claim": "7-J"}],
                    "turn": "A"}, V)
    after, events = apply(t, V, "play QH as Q")
    assert events == ["burn"]
    assert [(p.cards, p.claim) for p in after.pile] == [((parse_card("JS"),), 9), ((parse_card("QH"),), 10)]
    assert parse_card("4D") in after.burned


# -- what the others see ---------------------------------------------------------------------


def test_others_see_the_number_of_cards_and_the_claim_not_the_cards() -> None:
    t = _table(ON_A_TWO, ["7H", "7C", "4D", "KS"], other=["3C", "5S", "6S"])
    t, _ = apply(t, V, "play 7H 7C 4D as 7x2")
    view = observe(t, 1, variant=V)
    assert view.pile[-1].cards == (-1, -1, -1) and view.pile[-1].claim == parse_claim("7x2")
    rng = random.Random(1)
    for _ in range(20):
        dealt = determinize(view, V, rng)
        assert consistent(view, dealt, V) and len(dealt.pile[-1].cards) == 3
        assert check(dealt, V, "call").events[0] == "caught"  # three cards said to be two: a lie in any deal
    data = table_data(t, V, seat=1)
    assert data["pile"][-1]["claim"] == "two 7s" and data["pile"][-1]["cards"] == ["??"] * 3
    from tutor.webui.table_view import table_html

    assert "said two 7s" in table_html(t, seat=1) and "said two 7s" in table_html(t)


def test_the_advisor_explains_a_call_on_a_count_lie() -> None:
    from tutor.advisor.api import answer, prepare

    t = _table(ON_A_TWO, ["7H", "7C", "4D", "KS"], other=["3C", "5S", "6S"], stock=10)
    t, _ = apply(t, V, "play 7H 7C 4D as 7x2")
    search = prepare(observe(t, 1, variant=V), V, seed=1)
    search.run(iterations=100)
    call = next(m for m in answer(search, seed=1).moves if m.move == Move(CALL))
    assert "three cards went down claimed as two 7s, a lie in the count" in call.why


def test_tutor_moves_says_count_lies_are_not_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    path = tmp_path / "t.yaml"
    path.write_text(_table(ON_A_TWO, ["7H", "7C", "4D"]).to_yaml())
    assert main(["moves", "--table", str(path), "--variant", "bluff"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "play 7C 7H as 7" in out and "7x2" in out[-1] and "not listed" in out[-1]
    assert main(["moves", "--table", str(path), "--variant", "bluff", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["moves"]  # the JSON: the moves only, no count lies
    assert "call" in listed and all(m == "call" or (" as " in m and "x" not in m) for m in listed)
    path.write_text(load_table({"players": [{"name": "A", "hand": ["7H"]}, {"name": "B", "hand": 3}],
                                "turn": "A"}, load_variant("pagat")).to_yaml())
    assert main(["moves", "--table", str(path), "--variant", "pagat"]) == 0
    assert "not listed" not in capsys.readouterr().out
