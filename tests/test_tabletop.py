"""The card table as data (tutor.tabletop): what a seat sees, what tapped cards form, the quick
question, where extra copies are, the Play page's game with its time budget."""

from __future__ import annotations

import doctest
import random

import pytest

import tutor.tabletop.copies
import tutor.tabletop.layout
import tutor.tabletop.quick
import tutor.tabletop.session
import tutor.tabletop.taps
from tutor.core.cards import UNKNOWN, card_str
from tutor.core.errors import TableError
from tutor.core.moves import PLAY, Move
from tutor.core.table import table_from_dict
from tutor.engine import apply_unchecked, check, game_over, legal_moves
from tutor.play.game import deal, setup_move
from tutor.rules.variant import load_table, load_variant
from tutor.tabletop.copies import extra_copies
from tutor.tabletop.layout import change_marks, table_data
from tutor.tabletop.quick import quick_table
from tutor.tabletop.session import advance, new_game
from tutor.tabletop.taps import formed, key, move_of, offers, reasons, second_person, tap_data

PRESETS = ["pagat", "lancaster", "karma", "nortenos", "bluff", "garfield", "guarducci"]


@pytest.mark.parametrize("module", [tutor.tabletop.copies, tutor.tabletop.layout, tutor.tabletop.quick,
                                    tutor.tabletop.session, tutor.tabletop.taps])
def test_the_examples_in_the_docstrings(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted and not result.failed


def _positions(spec: str, seed: int, moves: int = 60):  # type: ignore[no-untyped-def]
    """Positions of a seeded random game (setup by the greedy arrangement), every one."""
    v = load_variant(spec)
    t = deal(v, 3, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game_over(t, v):
            return
        yield t
        m = setup_move(t, v) if t.setup else rng.choice(legal_moves(t, v))
        t, _ = apply_unchecked(t, v, m)


@pytest.mark.parametrize("spec", PRESETS)
def test_tapped_cards_form_exactly_the_legal_moves_that_take_them(spec: str) -> None:
    v = load_variant(spec)
    for seed in range(3):
        for t in _positions(spec, seed):
            options = offers(t, v)
            p = t.player
            own = {f"h:{card_str(c)}" for c in p.hand} | {f"u:{card_str(c)}" for c in p.face_up_cards} \
                | {f"d:{i}" for i in range(1, len(p.face_down) + 1)}
            assert [o.move for o in options] == legal_moves(t, v)
            for o in options:
                assert set(o.takes) <= own, (spec, o.move, o.takes)
                if o.takes:
                    assert o in formed(options, o.takes)  # tapping its cards offers it
                    assert all(key(x.takes) == key(o.takes) for x in formed(options, o.takes))
            # a tap that forms nothing gets check's own reason, and check says it is not legal; or the
            # same cards are legal from another zone (two packs), and the reason says from where
            for places, why in reasons(t, v, options).items():
                move = move_of(places.split())
                assert move is not None
                verdict = check(t, v, move)
                if verdict.legal:
                    assert why.startswith("The same cards are played from the ") and "elsewhere" not in why
                else:
                    assert why == verdict.reason


def test_tap_data_sorts_moves_that_take_cards_from_buttons() -> None:
    t = table_from_dict({"players": [{"name": "You", "hand": ["7H", "7S", "KD"]}, {"name": "B", "hand": 3}],
                         "pile": [["8C"]], "turn": "You"})
    data = tap_data(t, "pagat", words=second_person)
    assert {m["id"] for m in data["moves"]} == {"play KD"}
    assert [b["id"] for b in data["buttons"]] == ["pickup"]
    assert data["why"]["h:7H h:7S"] == "Two 7s do not beat the 8."
    assert data["why"]["h:7H"] == "A 7 does not beat the 8."


@pytest.mark.parametrize("spec", ["pagat", "bluff"])
def test_a_seat_view_sends_no_hidden_card(spec: str) -> None:
    """Whatever is drawn for a seat holds no card that seat has not seen: other hands are backs
    except the cards seen going in, face-down cards and the stock are never sent."""
    from tutor.advisor import KnownCards

    v = load_variant(spec)
    for seed in range(3):
        known = KnownCards(3)
        t = deal(v, 3, seed)
        rng = random.Random(seed)
        for _ in range(80):
            if game_over(t, v):
                break
            for seat in range(3):
                data = table_data(t, v, seat=seat, known=known.hands())
                for s, drawn in enumerate(data["seats"]):
                    assert set(drawn["down"]) <= {"??"}
                    if s != seat:
                        assert set(drawn["hand"][drawn["seen"]:]) <= {"??"}
                        real = [card_str(c) for c in t.players[s].hand]
                        for c in drawn["hand"][:drawn["seen"]]:
                            assert c in real
                for play in data["pile"]:
                    if play["claim"] and play["by"] != t.players[seat].name:
                        assert set(play["cards"]) == {"??"}  # a Bluff play stays face down
            m = setup_move(t, v) if t.setup else rng.choice(legal_moves(t, v))
            after, events = apply_unchecked(t, v, m)
            known.update(t, m, after, events)
            t = after


def test_change_marks_say_what_a_move_did() -> None:
    t = table_from_dict({"players": [{"name": "A", "hand": ["10H", "4C"]}, {"name": "B", "hand": 3}],
                         "pile": [["6C"]], "stock": 5, "turn": "A"})
    after, events = apply_unchecked(t, load_variant("pagat"), Move.parse("play 10H"))
    assert change_marks(t, after, events) == {"seat": 0, "play": -1, "burned": True}
    after, events = apply_unchecked(t, load_variant("pagat"), Move.parse("pickup"))
    assert change_marks(t, after, events)["took"] is True
    after, events = apply_unchecked(t, load_variant("pagat"), Move.parse("play 4C"))
    assert change_marks(t, after, events, Move.parse("play 4C")) == {"seat": 0, "play": 1, "move": "play 4C"}


@pytest.mark.parametrize(("spec", "pile", "hand", "play", "legal"), [
    ("pagat", "8", "7 7 K", "7 7", False),
    ("lancaster", "6 8", "7 7 K", "7 7", True),
    ("lancaster", "7", "10 4", "10", True),
    ("pagat", "5 5 5", "5 9", "5", True),
    ("pagat", "K", "2H 4", "2H", True),
    ("pagat", "9", "4", "pickup", True),
])
def test_the_quick_question_builds_a_table_the_engine_judges(spec: str, pile: str, hand: str, play: str,
                                                             legal: bool) -> None:
    v = load_variant(spec)
    raw, move = quick_table(v, pile=pile, hand=hand, play=play)
    table = load_table(raw, v)
    assert table.player.name == "You" and len(table.players) == 3
    assert all(set(p.hand) == {UNKNOWN} for p in table.players[1:])
    assert check(table, v, Move.parse(move)).legal is legal


@pytest.mark.parametrize(("field", "text", "words"), [
    ("hand", "7 Z", "'Z' is neither a card"),
    ("pile", "1", "'1' is neither a card"),
    ("hand", " ".join(["7"] * 61), "at most 60 cards"),
    ("play", "7 Q", None),  # a rank not in the hand: the engine says so, not the form
])
def test_the_quick_question_refuses_what_it_cannot_read_in_one_line(field: str, text: str, words: str | None) -> None:
    if words is None:
        raw, move = quick_table("pagat", hand="7", **{field: text})
        assert not check(load_table(raw, load_variant("pagat")), "pagat", Move.parse(move)).legal
        return
    with pytest.raises(TableError) as err:
        quick_table("pagat", **{field: text})
    assert words in str(err.value) and "\n" not in str(err.value)


def test_extra_copies_name_their_places_and_the_packs_needed() -> None:
    raw = {"players": [{"name": "A", "hand": ["7H", "7H", "4C"], "face_up": ["7H"]}, {"name": "B", "hand": 3}],
           "pile": [["7H"]], "turn": "A", "decks": 2}
    found = extra_copies(raw)
    assert found is not None
    assert found.message.startswith("7♥ is there 4 times (twice in A's hand, face up before A and on the pile, "
                                    "play 1), but 2 packs hold 2")
    assert found.packs_needed == 4 and "play with 4 packs" in found.message
    assert found.marks == ["p0c0", "s0h1", "s0h2", "s0u0"]
    raw["decks"] = 4
    assert extra_copies(raw) is None  # nothing over: the table's other problems are said as they are


def test_the_bots_stop_at_the_time_budget_and_go_on_when_asked() -> None:
    ticks = iter(range(10_000))
    g = new_game("pagat", 4, "greedy", "quick", seed=3)
    g.autoplay = True
    assert advance(g, seconds=5, clock=lambda: float(next(ticks))) is False  # one "second" a move
    assert g.paused and 4 <= len(g.turns) <= 7
    while not advance(g, seconds=60, clock=lambda: float(next(ticks))):
        pass
    assert g.over and not g.paused


def test_second_person_agrees_with_you() -> None:
    assert second_person("You plays again.") == "You play again."
    assert second_person("The 10 burns the pile, and You plays again.") == "The 10 burns the pile, and you play again."
    assert second_person("It is A's lead, not You's.") == "It is A's lead, not yours."
    assert second_person("It is You's lead, not A's.") == "It is your lead, not A's."
    assert second_person("Ann plays again.") == "Ann plays again."
    assert second_person("You may take the pile.") == "You may take the pile."
    assert second_person("You has no 7H in hand.") == "You have no 7H in hand."
    assert second_person("You finishes arranging; Ann takes.") == "You finish arranging; Ann takes."


def test_plays_from_the_hand_are_placed_in_the_hand_first() -> None:
    t = table_from_dict({"players": [{"name": "A", "hand": ["AH"], "face_up": ["AS", "4C"]},
                                     {"name": "B", "hand": 3}], "turn": "A", "stock": 0})
    o = next(o for o in offers(t, "pagat", [Move(PLAY, tuple(sorted((48 + 2, 48 + 3))))]))
    assert o.takes == ("h:AH", "u:AS")
