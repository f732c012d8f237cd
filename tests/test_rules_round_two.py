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


# -- Guarducci's joker (pagat, Variations, Jane Guarducci rule 4) --------------------------


def _joker_table(names: str, out: str = "", by: str = "A", turn: str = "A") -> dict[str, object]:
    players: list[dict[str, object]] = []
    for n in names:
        if n in out:
            players.append({"name": n})
        elif n == turn:
            players.append({"name": n, "hand": ["4C", "9D"]})
        else:
            players.append({"name": n, "hand": 3})
    return {"players": players, "pile": [{"by": "B" if by == "A" else "A", "cards": ["KS"]},
                                         {"by": by, "cards": ["JK"]}], "turn": turn}


@pytest.mark.parametrize("spec", ["guarducci", "guarducci+jokers-skip-as-seven", "guarducci+jokers-skip-as-two"])
def test_with_two_players_the_jokers_player_goes_again_with_any_card(spec: str) -> None:
    from tutor.engine import check

    v = load_variant(spec)
    for names, out in (("AB", ""), ("ABC", "C")):
        t = load_table(_joker_table(names, out), v)
        verdict = check(t, v, "play 4C")
        assert verdict.legal, (spec, names, verdict.reason)
        assert "jokers-skip" in " ".join(verdict.rules)
        assert "any value" in verdict.reason


def test_with_more_players_the_joker_counts_as_the_table_agreed() -> None:
    from tutor.engine import check

    # C moves after A's joker (B skipped), three in the game: a 4 on a joker over a king
    table = _joker_table("ABC", by="A", turn="C")
    four = "play 4C"
    assert not check(load_table(table, load_variant("guarducci")), "guarducci", four).legal  # glass: beat K
    seven = load_variant("guarducci+jokers-skip-as-seven")
    assert not check(load_table(table, seven), seven, four).legal  # a 7: 4 is too low
    assert check(load_table(table, seven), seven, "play 9D").legal
    two = load_variant("guarducci+jokers-skip-as-two")
    assert check(load_table(table, two), two, four).legal  # a 2: anything goes


def test_a_joker_that_put_its_player_out_frees_nobody() -> None:
    from tutor.engine import check

    # A went out with the joker; B was skipped; C answers it as glass over the king
    v = load_variant("guarducci")
    t = load_table(_joker_table("ABC", out="A", by="A", turn="C"), v)
    assert not check(t, v, "play 4C").legal


# -- Bluff's doubles, triples and quadruples (pagat Variations, Bluffing, Sean Burns) -------


def _bluff(pile: list[dict[str, object]], hand: list[str]) -> object:
    v = load_variant("bluff")
    return load_table({"players": [{"name": "A", "hand": hand}, {"name": "B", "hand": 3}],
                       "pile": pile, "turn": "A"}, v)


@pytest.mark.parametrize(("pile", "hand", "move", "legal"), [
    ([{"by": "B", "cards": ["9S"], "claim": "2"}], ["7H", "7C"], "play 7H 7C as 7", True),  # value 0 after a 2
    ([{"by": "B", "cards": ["9S"], "claim": "2"}], ["7H", "7C", "7D"], "play 7H 7C 7D as 7", True),
    ([{"by": "B", "cards": ["5S"], "claim": "5"}], ["7H", "7C"], "play 7H 7C as 7", False),  # not after a 5
    ([{"by": "B", "cards": ["9S", "9C", "9D"], "claim": "9"}], ["9H"], "play 9H as 9", True),  # the 4th card
    ([{"by": "B", "cards": ["9S", "9C", "9D"], "claim": "9"}], ["4H"], "play 4H as 9", True),  # ... or a lie
    ([{"by": "B", "cards": ["9S", "9C"], "claim": "9"}], ["9H", "9D"], "play 9H 9D as 9", True),  # equal double
    ([{"by": "B", "cards": ["AS"], "claim": "A"}], ["4H", "4C", "4D", "4S"], "play 4H 4C 4D 4S as 4", True),
    ([{"by": "B", "cards": ["6S", "6D"], "claim": "6"}], ["4C"], "play 4C as 10", True),  # a lone 10 on a double
    ([{"by": "B", "cards": ["6S", "6D"], "claim": "6"}], ["4C"], "play 4C as 2", True),
    ([{"by": "B", "cards": ["6S", "6D"], "claim": "6"}], ["4C"], "play 4C as K", False),
])
def test_bluff_counts(pile: list[dict[str, object]], hand: list[str], move: str, legal: bool) -> None:
    from tutor.core.moves import Move
    from tutor.engine import check, legal_moves

    v = load_variant("bluff")
    t = _bluff(pile, hand)
    verdict = check(t, v, move)  # type: ignore[arg-type]
    assert verdict.legal is legal, verdict.reason
    want = Move.parse(move)
    listed = {(m.kind, tuple(sorted(m.cards)), m.claim) for m in legal_moves(t, v)}  # type: ignore[arg-type]
    assert ((want.kind, tuple(sorted(want.cards)), want.claim) in listed) is legal


def test_a_quadruple_destroys_the_pile_when_the_next_card_lands() -> None:
    from tutor.engine import apply

    v = load_variant("bluff")
    t = load_table({"players": [{"name": "A", "hand": ["9H", "3C"]}, {"name": "B", "hand": ["5D", "6D"]}],
                    "pile": [{"by": "B", "cards": ["9S", "9C", "9D"], "claim": "9"}], "turn": "A"}, v)
    t, _ = apply(t, v, "play 9H as 9")
    assert len(t.pile) == 2  # it can still be called
    t, events = apply(t, v, "play 5D as 3")
    assert "burn" in events and len(t.pile) == 1


# -- Bluff's runs (pagat Variations, Bluffing, Sean Burns: "Runs or Straights") ----------


@pytest.mark.parametrize(("pile", "hand", "move", "legal"), [
    # "I could play a 6, and the person to my right could play 7-8-9-10-J spades"
    ([{"by": "B", "cards": ["6C"], "claim": "6"}], ["7S", "8S", "9S", "10S", "JS", "3C"], "play 7S 8S 9S 10S JS as 7-J", True),
    ([{"by": "B", "cards": ["6C"], "claim": "6"}], ["7S", "8S", "3C"], "play 7S 8S as 7-8", True),
    ([{"by": "B", "cards": ["6C"], "claim": "6"}], ["3S", "4S", "KC"], "play 3S 4S as 7-8", True),  # the ranks lie
    ([{"by": "B", "cards": ["6C"], "claim": "6"}], ["8S", "9S", "3C"], "play 8S 9S as 8-9", False),  # not one higher
    ([{"by": "B", "cards": ["6C"], "claim": "6"}], ["7S", "8H", "3C"], "play 7S 8H as 7-8", False),  # two suits
    ([{"by": "B", "cards": ["6C"], "claim": "6"}], ["7S", "9S", "3C"], "play 7S 9S as 7-8", False),  # a gap
    # a card more than the run names is hidden under it (tests/test_bluff_counts.py), but under a real run
    ([{"by": "B", "cards": ["6C"], "claim": "6"}], ["7S", "8H", "9D"], "play 7S 8H 9D as 7-8", False),
    ([{"by": "B", "cards": ["6C", "6D"], "claim": "6"}], ["7S", "8S", "3C"], "play 7S 8S as 7-8", False),  # on a double
    ([{"by": "B", "cards": ["9C"], "claim": "2"}], ["3S", "4S", "KC"], "play 3S 4S as 3-4", False),  # value 0
    ([], ["3S", "4S", "KC"], "play 3S 4S as 3-4", False),  # no previous card
    ([{"by": "B", "cards": ["4S", "5S"], "claim": "4-5"}], ["6H", "7H", "3C"], "play 6H 7H as 6-7", True),  # run on run
])
def test_bluff_runs(pile: list[dict[str, object]], hand: list[str], move: str, legal: bool) -> None:
    from tutor.core.moves import Move
    from tutor.engine import check, legal_moves

    v = load_variant("bluff")
    t = _bluff(pile, hand)
    verdict = check(t, v, move)  # type: ignore[arg-type]
    assert verdict.legal is legal, verdict.reason
    assert verdict.code.value == ("RUN" if legal else "NOT_A_RUN"), verdict.code
    want = Move.parse(move)
    listed = {(m.kind, tuple(sorted(m.cards)), m.claim) for m in legal_moves(t, v)}  # type: ignore[arg-type]
    assert ((want.kind, tuple(sorted(want.cards)), want.claim) in listed) is legal


def _run_table() -> object:
    v = load_variant("bluff")
    return load_table({"players": [{"name": "A", "hand": ["QH", "4C", "5D"]}, {"name": "B", "hand": ["3C", "6D"]}],
                       "pile": [{"by": "A", "cards": ["6C"], "claim": "6"},
                                {"by": "B", "cards": ["7S", "8S", "9S", "10S", "JS"], "claim": "7-J"}],
                       "turn": "A"}, v)


def test_a_run_claim_reads_back_and_says_its_run() -> None:
    from tutor.core.moves import Move
    from tutor.core.table import read_table_text

    v = load_variant("bluff")
    t = _run_table()
    assert load_table(read_table_text(t.to_yaml()), v) == t  # type: ignore[attr-defined]
    assert "claim: 7-J" in t.to_yaml()  # type: ignore[attr-defined]
    assert str(Move.parse("play 7s 8s 9s as 7-9")) == "play 7S 8S 9S as 7-9"
    with pytest.raises(TutorError, match="not a run"):
        Move.parse("play 7S 8S as 8-7")
    hidden = load_table({"players": [{"name": "A", "hand": 3}, {"name": "B", "hand": 3}],  # a card hidden under
                         "pile": [{"by": "B", "cards": ["7S", "8S", "9S"], "claim": "7-8"}], "turn": "A"}, v)
    assert hidden.pile[0].claim == Move.parse("play 7S 8S 9S as 7-8").claim


def test_a_call_on_a_run_turns_it_over() -> None:
    from tutor.engine import apply

    v = load_variant("bluff")
    t = _run_table()
    after, events = apply(t, v, "call")  # type: ignore[arg-type]
    assert events == ["pickup"] and len(after.players[0].hand) == 9 and after.turn == 1  # a true run
    lie = load_table({"players": [{"name": "A", "hand": ["QH"]}, {"name": "B", "hand": ["3C"]}],
                      "pile": [{"by": "B", "cards": ["3S", "4S"], "claim": "7-8"}], "turn": "A"}, v)
    after, events = apply(lie, v, "call")
    assert events == ["caught", "pickup", "play_again"] and len(after.players[1].hand) == 3 and after.turn == 0


def test_the_ten_in_a_run_destroys_what_is_under_it_and_only_the_jack_remains() -> None:
    from tutor.core.cards import parse_card
    from tutor.engine import apply, check

    v = load_variant("bluff")
    t = _run_table()
    assert check(t, v, "play QH as J").legal and not check(t, v, "play 4C as 9").legal  # type: ignore[arg-type]
    after, events = apply(t, v, "play QH as Q")  # type: ignore[arg-type]
    assert events == ["burn"]
    assert [(p.cards, p.claim) for p in after.pile] == [((parse_card("JS"),), 9), ((parse_card("QH"),), 10)]
    assert sorted(after.burned) == sorted(map(parse_card, ["6C", "7S", "8S", "9S", "10S"]))  # the 6 below, the 7 to the 10


# -- the opening is a rule of the engine (ralpharama Pre Play; pagat Nortenos) -------------

OPENING = {"phase": "opening", "stock": 20, "turn": "A", "players": [
    {"name": "A", "hand": ["3C", "6D", "9S", "KH"], "face_up": ["AH", "2C", "10D", "8C"], "face_down": 4},
    {"name": "B", "hand": 4, "face_up": ["QC", "8D", "KS", "4S"], "face_down": 4}]}


def test_check_judges_the_opening_lead(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    from tutor.engine import apply, check, legal_moves

    v = load_variant("lancaster")
    t = load_table(OPENING, v)
    assert t.opening and [str(m) for m in legal_moves(t, v)] == ["play 3C"]
    verdict = check(t, v, "play 6D")
    assert not verdict.legal and verdict.code.value == "OPENING" and verdict.rules == ("first-lowest-card-leads",)
    after, _ = apply(t, v, "play 3C")
    assert not after.opening
    pagat = load_variant("pagat")
    assert check(load_table(OPENING, pagat), pagat, "play 6D").legal  # pagat's leader plays what she likes
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(OPENING))
    assert main(["check", "--table", str(path), "--move", "play 6D", "--variant", "lancaster"]) == 0
    assert capsys.readouterr().out.startswith("ILLEGAL: play 6D")
    assert load_table(t.to_dict(), v).opening  # written back as phase: opening


def test_an_opening_table_has_an_empty_pile() -> None:
    with pytest.raises(TableError, match="phase: at the opening"):
        load_table({**OPENING, "pile": [["5C"]]}, load_variant("lancaster"))


@pytest.mark.parametrize("spec", ["lancaster", "nortenos"])
def test_every_game_opens_with_the_leaders_lowest_card(spec: str) -> None:
    from tutor.play.game import play_game

    v = load_variant(spec)
    for seed in range(20):
        r = play_game(v, v.min_players if spec == "nortenos" else 4, seed)
        seat, move, _ = r.moves[0]
        lowest = min(c >> 2 for c in r.start.players[seat].hand if c >> 2 >= 1)
        assert move.kind == "play" and {c >> 2 for c in move.cards} == {lowest}, (seed, move)


def test_only_the_leader_opens() -> None:
    from tutor.engine import check, legal_moves

    v = load_variant("lancaster")
    t = load_table({**OPENING, "turn": "B", "players": [OPENING["players"][0],  # type: ignore[index]
                                                       {"name": "B", "hand": ["5C", "7D"], "face_down": 4}]}, v)
    verdict = check(t, v, "play 5C")
    assert verdict.code.value == "NOT_LEADER" and "It is A's lead, not B's" in verdict.reason
    assert legal_moves(t, v) == []
    hidden = load_table({**OPENING, "turn": "B", "players": [{"name": "A", "hand": 4, "face_down": 4},
                                                            {"name": "B", "hand": ["5C", "7D"], "face_down": 4}]}, v)
    assert check(hidden, v, "play 5C").legal  # A's hand is unseen: B's 5 may be the lowest card


@pytest.mark.parametrize("fragment", ["first-lowest-card-leads", "first-three-face-up", "first-left-of-dealer"])
def test_the_opening_through_check_for_every_first_player_rule(fragment: str) -> None:
    # A holds the lowest card (a 3) and leads; under the lowest-card rule B may not open, and A's 6
    # is not a lead; the other rules let the player to move open with any card
    from dataclasses import replace

    from tutor.engine import apply, check, legal_moves

    v = load_variant(f"pagat+{fragment}")
    known = {**OPENING, "players": [OPENING["players"][0], {**OPENING["players"][1], "hand": ["5C", "7H", "JD", "QS"]}]}
    t = load_table(known, v)
    assert t.opening
    leads = {str(m) for m in legal_moves(t, v)}
    b = replace(t, turn=1)
    if fragment == "first-lowest-card-leads":
        assert leads == {"play 3C"}
        wrong = check(t, v, "play 6D")
        assert wrong.code.value == "OPENING" and wrong.rules == (fragment,)
        assert legal_moves(b, v) == []
        refused = check(b, v, "play 5C")
        assert refused.code.value == "NOT_LEADER" and refused.rules == (fragment,)
    else:
        assert "play 6D" in leads and check(t, v, "play 6D").legal
        assert check(b, v, "play 5C").legal  # no seat is refused the lead
    assert check(t, v, "play 3C").legal
    after, _ = apply(t, v, "play 3C")
    assert not after.opening


def test_a_forced_pickup_is_named_from_the_variant_not_the_catalogue() -> None:
    # a fragment of one's own gives the 2 the superjoker's power: the verdict calls it a 2
    from tutor.engine import check
    from tutor.rules.variant import build_variant, fragment_from_data

    own = fragment_from_data({
        "id": "twos-force", "slot": "2", "title": "Twos force a pickup", "summary": "A 2 makes the next player take the pile.",
        "source": {"site": "a house", "section": "ours", "contributor": "us"},
        "powers": [{"power": "force-pickup", "rank": "2", "once": False}]}, "twos-force.yaml")
    v = build_variant("pagat", [own])
    t = load_table({"players": [{"name": "A", "hand": ["5C", "9H"]}, {"name": "B", "hand": 3}],
                    "pile": [["4D"], ["2S"]], "turn": "A"}, v)
    verdict = check(t, v, "play 5C")
    assert verdict.code.value == "FORCED_PICKUP" and verdict.rules == ("twos-force",)
    assert verdict.reason == "A 2 lies on the pile: A must take the pile."
    gaz = load_variant("gaz-and-elf")
    t2 = load_table({"players": [{"name": "A", "hand": ["5C", "9H"]}, {"name": "B", "hand": 3}],
                     "pile": [["4D"], ["JK"]], "turn": "A"}, gaz)
    assert check(t2, gaz, "play 5C").reason == (
        "A superjoker lies on the pile: A must take the pile (only a red jack could pass it on).")
