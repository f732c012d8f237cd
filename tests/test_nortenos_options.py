"""Nortenos' optional rules (issue 14 item 6), from the source: pagat.com, Shithead Variations,
Nortenos, contributed by Adrian Murillo.

"You can slide threes under the waste pile and it does not count as a turn - you can even do
it when it is your opponents turn, or in your own turn you can slide a three and then play a
card." "When threes and fours are special, if your last down card is a three you
automatically lose the game, and if it is a four, you automatically win." "In this case the
waste pile is started not with a three but with a five, the lowest ordinary card."
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tutor.cli import main
from tutor.core.cards import parse_card
from tutor.core.errors import NotationError, TableError
from tutor.core.moves import SLIDE, Move
from tutor.core.table import Table
from tutor.engine import apply, check, game_over, legal_moves, loser, winner
from tutor.play.conformance import run
from tutor.play.game import EpsilonBot, play_game
from tutor.rules.variant import load_table, load_variant
from tutor.teach.rulebook import rulebook_markdown

SPECIAL = "nortenos+threes-slide+fours-reset"  # threes and fours both special


def T(players: list[dict[str, Any]], pile: list[Any] | None = None, *, spec: str = SPECIAL, turn: str = "A",
      **kw: Any) -> Table:
    return load_table({"players": players, "pile": pile or [], "turn": turn, **kw}, load_variant(spec))


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(n) for n in names))


OUT_OF_TURN = dict(players=[{"name": "A", "hand": ["9D", "5S", "6S", "KD"]},
                            {"name": "B", "hand": ["3C", "7H", "8H", "JD"]}],
                   pile=[{"by": "B", "cards": ["QH"]}], stock=["5D", "KC"])


# -- sliding a 3 when it is another player's turn ----------------------------------------


def test_slide_notation_names_the_slider() -> None:
    m = Move.parse("SLIDE 3c BY B")
    assert m == Move(SLIDE, cards("3C"), target="B") and str(m) == "slide 3C by B"
    assert Move.parse(str(m)) == m
    with pytest.raises(NotationError, match="slide CARD by PLAYER"):
        Move.parse("slide 3C to B")


@pytest.mark.parametrize("spec", ["nortenos+threes-slide", SPECIAL])
def test_a_three_slides_out_of_turn_and_the_turn_stays(spec: str) -> None:
    t = T(spec=spec, **OUT_OF_TURN)
    verdict = check(t, spec, "slide 3C by B")
    assert verdict.legal and verdict.next_player == "A" and verdict.events == ("draw",)
    assert verdict.rules == ("threes-slide",)
    assert "even though it is A's turn" in verdict.reason and "stays with A" in verdict.reason
    after, events = apply(t, spec, "slide 3C by B")
    assert after.turn == 0 and events == ["draw"]
    assert after.pile[0].cards == cards("3C") and after.pile[-1].cards == cards("QH")
    # "When your hand gets down to three or fewer cards, you must draw ... to four cards"
    assert after.players[1].hand == cards("7H", "8H", "JD", "5D") and after.stock == cards("KC")
    assert after.players[0] == t.players[0]


def test_the_player_to_move_may_also_name_themselves() -> None:
    t = T(**OUT_OF_TURN, turn="B")
    assert check(t, SPECIAL, "slide 3C by B").legal and check(t, SPECIAL, "slide 3C by B").next_player == "B"
    assert apply(t, SPECIAL, "slide 3C by B")[0] == apply(t, SPECIAL, "slide 3C")[0]


@pytest.mark.parametrize("move, spec, says", [
    ("slide 3D by B", SPECIAL, "B has no 3D in hand."),
    ("slide 7H by B", SPECIAL, "Only 3s slide under the pile."),
    ("slide 3C by Z", SPECIAL, "No player at this table is called that (the players: A and B)."),
    ("slide 3C by B", "nortenos", "This variant has no sliding cards under the pile."),
    ("slide 3C by B", "nortenos+fours-reset", "This variant has no sliding cards under the pile."),
])
def test_slides_out_of_turn_that_are_not_allowed(move: str, spec: str, says: str) -> None:
    verdict = check(T(spec=spec, **OUT_OF_TURN), spec, move)
    assert not verdict.legal and verdict.code.value == "NO_SLIDE" and verdict.reason == says


def test_no_slide_without_a_pile_nor_from_an_unseen_hand() -> None:
    t = T([{"name": "A", "hand": ["9D", "5S"]}, {"name": "B", "hand": ["3C", "7H"]}], stock=10)
    assert check(t, SPECIAL, "slide 3C by B").reason == "There is no pile to slide a card under."
    t = T([{"name": "A", "hand": ["9D", "5S"]}, {"name": "B", "hand": 4}], [["QH"]], stock=10)
    verdict = check(t, SPECIAL, "slide 3C by B")
    assert not verdict.legal and "does not show 3C in B's hand" in verdict.reason
    assert legal_moves(t, SPECIAL, out_of_turn=True) == legal_moves(t, SPECIAL)


def test_a_slid_last_card_puts_its_player_out_and_wins() -> None:
    t = T([{"name": "A", "hand": ["9D", "5S"]}, {"name": "B", "hand": ["3C"]}], [["QH"]])
    verdict = check(t, SPECIAL, "slide 3C by B")
    assert verdict.legal and verdict.events == ("out", "game_over") and verdict.next_player is None
    after, _ = apply(t, SPECIAL, "slide 3C by B")
    v = load_variant(SPECIAL)
    assert game_over(after, v) and winner(after, v) == "B"


def test_moves_list_the_mover_first_then_each_seat_that_may_slide() -> None:
    t = T([{"name": "A", "hand": ["9D", "3S"]}, {"name": "B", "hand": ["3C", "3H", "7H"]},
           {"name": "C", "hand": ["3D"]}, {"name": "D", "hand": 2}], [["QH"]], decks=2)
    own = [str(m) for m in legal_moves(t, SPECIAL)]
    assert own == ["slide 3S", "pickup"]
    listed = [str(m) for m in legal_moves(t, SPECIAL, out_of_turn=True)]
    assert listed == own + ["slide 3C by B", "slide 3H by B", "slide 3D by C"]
    assert all(check(t, SPECIAL, m).legal for m in listed)


def test_cli_moves_lists_the_slides_out_of_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "t.yaml"
    p.write_text(yaml.safe_dump({"variant": SPECIAL, "turn": "A", **OUT_OF_TURN}))
    assert main(["moves", "--table", str(p), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == ["play KD", "pickup", "slide 3C by B"]
    assert main(["check", "--table", str(p), "--move", "slide 3C by B", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] and out["move"] == "slide 3C by B" and out["next_player"] == "A"


# -- the last down card, when threes and fours are special ---------------------------------


LAST = [{"name": "A", "hand": [], "face_down": ["3D"]}, {"name": "B", "hand": ["6C", "9S"], "face_down": 2}]


def test_a_three_as_the_last_down_card_loses_at_once() -> None:
    t = T(LAST, [{"by": "B", "cards": ["5H"]}])  # a 3 that the pile would not even stop
    verdict = check(t, SPECIAL, "flip 1")
    assert verdict.legal and verdict.events == ("game_over",) and verdict.next_player is None
    assert verdict.reason.startswith("A turns a 3 as the last down card and loses the game at once")
    assert {"threes-slide", "fours-reset"} <= set(verdict.rules)
    after, _ = apply(t, SPECIAL, "flip 1")
    v = load_variant(SPECIAL)
    assert after.players[0].lost and after.players[0].out and after.burned == cards("3D")
    assert game_over(after, v) and winner(after, v) == "B"
    data = after.to_dict()
    assert data["players"][0]["lost"] is True and "lost" not in data["players"][1]
    back = load_table(data, v)
    assert back == after and game_over(back, v)


@pytest.mark.parametrize("spec", ["nortenos+threes-slide", "nortenos+fours-reset", "nortenos"])
def test_with_only_one_special_rank_a_last_three_is_an_ordinary_card(spec: str) -> None:
    t = T(LAST, [{"by": "B", "cards": ["2H"]}], spec=spec)
    verdict = check(t, spec, "flip 1")
    assert verdict.events == ("out", "game_over")  # the 3 goes on the 2 and A is out: A wins
    after, _ = apply(t, spec, "flip 1")
    assert not after.players[0].lost and winner(after, load_variant(spec)) == "A"


def test_a_four_as_the_last_down_card_wins_at_once() -> None:
    t = T([{"name": "A", "hand": [], "face_down": ["4D"]}, LAST[1]], [{"by": "B", "cards": ["AS"]}])
    verdict = check(t, SPECIAL, "flip 1")
    assert verdict.legal and verdict.events == ("out", "game_over") and verdict.next_player is None
    assert verdict.reason.startswith("A turns a 4 as the last down card and wins the game at once")
    after, _ = apply(t, SPECIAL, "flip 1")
    assert winner(after, load_variant(SPECIAL)) == "A" and not after.players[0].lost


def test_a_down_card_that_is_not_the_last_is_turned_as_usual() -> None:
    t = T([{"name": "A", "hand": [], "face_down": ["3D", "KC"]}, LAST[1]], [{"by": "B", "cards": ["9H"]}])
    verdict = check(t, SPECIAL, "flip 1")
    assert verdict.events == ("pickup",) and verdict.next_player == "B"


def test_an_unseen_last_down_card_is_judged_with_the_rule_named() -> None:
    t = T([{"name": "A", "hand": [], "face_down": 1}, LAST[1]], [{"by": "B", "cards": ["9H"]}])
    verdict = check(t, SPECIAL, "flip 1")
    assert verdict.legal and "a 3 loses the game at once and a 4 wins the game at once" in verdict.reason


def test_with_three_players_the_loser_drops_out_and_the_others_play_on() -> None:
    players = [{"name": "A", "hand": [], "face_down": ["3D"]}, {"name": "B", "hand": ["KC"]},
               {"name": "C", "hand": ["6C", "9S"]}]
    t = T(players, [{"by": "C", "cards": ["9H"]}], decks=2)
    verdict = check(t, SPECIAL, "flip 1")
    assert verdict.legal and verdict.events == () and verdict.next_player == "B"
    assert "the others play on" in verdict.reason
    after, _ = apply(t, SPECIAL, "flip 1")
    v = load_variant(SPECIAL)
    assert after.players[0].lost and not game_over(after, v) and after.player.name == "B"
    back = load_table(after.to_dict(), v)  # the table file records the loser while play goes on
    assert back.players[0].lost and back == after
    verdict = check(back, SPECIAL, "play KC")
    assert verdict.events == ("out", "game_over")
    final, _ = apply(back, SPECIAL, "play KC")
    assert winner(final, v) == "B"


def test_the_last_player_left_wins_when_all_the_others_lost() -> None:
    t = T([{"name": "A", "lost": True}, {"name": "B", "hand": [], "face_down": ["3S"]},
           {"name": "C", "hand": ["6C", "9S"]}], [["9H"]], turn="B", decks=2, burned=["3D"])
    after, events = apply(t, SPECIAL, "flip 1")
    assert events == ["game_over"] and winner(after, load_variant(SPECIAL)) == "C"


def test_in_a_loser_finding_game_the_player_who_lost_at_once_is_the_loser() -> None:
    spec = "pagat+threes-slide+fours-reset"
    players = [{"name": "A", "hand": [], "face_down": ["3D"]}, {"name": "B", "hand": ["KC"]},
               {"name": "C", "hand": ["6C", "9S"]}]
    t = T(players, [["9H"]], spec=spec)
    verdict = check(t, spec, "flip 1")
    assert verdict.events == ("game_over",) and verdict.next_player is None
    after, _ = apply(t, spec, "flip 1")
    assert loser(after, load_variant(spec)) == "A"


@pytest.mark.parametrize("player, says", [
    ({"name": "A", "hand": ["5C"], "lost": True}, "players[0].lost: a player who has lost the game holds no cards"),
    ({"name": "A", "lost": "yes"}, "players[0].lost: 'yes' is not true or false"),
])
def test_bad_lost_fields_are_refused(player: dict[str, Any], says: str) -> None:
    with pytest.raises(TableError, match=says.replace("[", r"\[").replace("]", r"\]")):
        T([player, {"name": "B", "hand": 3}], turn="B")


def test_a_player_who_has_lost_never_has_the_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = {"players": [{"name": "A", "lost": True}, {"name": "B", "hand": 3}, {"name": "C", "hand": 3}],
           "turn": "A"}
    with pytest.raises(TableError, match="turn: 'A' has lost the game, so cannot move"):
        load_table(raw, load_variant(SPECIAL))
    p = tmp_path / "t.yaml"
    p.write_text(yaml.safe_dump(raw))
    assert main(["check", "--table", str(p), "--variant", SPECIAL, "--move", "pickup"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# -- the opening: "started not with a three but with a five, the lowest ordinary card" -----


OPENING = {"phase": "opening", "stock": 24,
           "players": [{"name": "A", "hand": ["3C", "4D", "5S", "9D", "JC", "QC", "KD"]},
                       {"name": "B", "hand": ["3H", "6S", "7S", "8C", "9H", "10C", "AS"]}]}


def test_with_threes_and_fours_special_a_five_starts_the_pile() -> None:
    t = T(**OPENING)
    assert [str(m) for m in legal_moves(t, SPECIAL)] == ["play 5S"]
    verdict = check(t, SPECIAL, "play 4D")
    assert verdict.code.value == "OPENING" and "(2s, 3s and 4s do not count): A leads with a 5" in verdict.reason


def test_the_leader_is_the_holder_of_the_lowest_ordinary_card() -> None:
    raw = {**OPENING, "players": [{"name": "A", "hand": ["3C", "4D", "6D", "9D", "JC", "QC", "KD"]},
                                  {"name": "B", "hand": ["3H", "5S", "7S", "8C", "9H", "10C", "AS"]}]}
    t = T(**raw)
    verdict = check(t, SPECIAL, "play 6D")
    assert verdict.code.value == "NOT_LEADER" and "(2s, 3s and 4s do not count)" in verdict.reason
    assert [str(m) for m in legal_moves(T(**raw, spec="nortenos"), "nortenos")] == ["play 3C"]
    assert check(T(**raw, spec="nortenos"), "nortenos", "play 3C").legal


# -- the rulebook and whole games ---------------------------------------------------------


def test_the_rulebook_says_what_is_now_modelled() -> None:
    base = rulebook_markdown(load_variant("nortenos"))
    assert "not modelled" not in base
    text = rulebook_markdown(load_variant(SPECIAL))
    assert "even when it is another player's turn" in text
    assert "last down card loses you the game at once" in text and "wins you the game at once" in text


def test_games_name_the_winner_when_a_player_lost_at_once() -> None:
    v = load_variant(SPECIAL)
    seen = 0
    for seed in range(40):
        r = play_game(v, 2, seed, [EpsilonBot(eps=0.3), EpsilonBot(eps=0.3)])
        assert r.final is not None
        lost = [p.name for p in r.final.players if p.lost]
        if lost and not r.stalled:
            seen += 1
            assert r.winner is not None and r.winner not in lost
    assert seen  # the seeds include games decided by a last down 3


def test_conformance_with_special_threes_and_fours() -> None:
    report = run(SPECIAL, 2, range(12))
    assert report.games == 12 and not report.problems, report.problems[:5]


def test_a_player_who_lost_or_went_out_slides_nothing() -> None:
    t = T([{"name": "A", "lost": True}, {"name": "B", "hand": ["KC", "3C"]}, {"name": "C", "hand": ["6C"]}],
          [["9H"]], turn="B", decks=2, burned=["3D"])
    assert check(t, SPECIAL, "slide 3D by A").reason == "A has lost the game, so has nothing to slide."
    spec = "pagat+threes-slide"  # (in a winner-finding game a player out has won, and the game is over)
    t = T([{"name": "A", "hand": ["KC", "3C"]}, {"name": "B", "hand": ["6C"]}, {"name": "C"}], [["9H"]], spec=spec)
    assert check(t, spec, "slide 3D by C").reason == "C has no cards left and is out, so has nothing to slide."
