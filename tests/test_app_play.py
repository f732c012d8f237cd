"""The Play page, through Streamlit's AppTest: deal, tap cards on the table, get a grade, finish,
open a key moment. The taps are sent to the card-table component as the browser sends them
(tests/test_app_support.py ``send``); tests/e2e taps them in Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest
from test_app_support import card_table_data, card_tables, open_page, send, texts  # noqa: E402

from tutor.core.cards import card_str  # noqa: E402
from tutor.core.moves import Move  # noqa: E402

APP = str(Path(__file__).resolve().parent.parent / "app.py")
TABLE = "play_table"


def _open_play() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/play.py")
    at.run()
    assert not at.exception
    return at


def _deal(at: AppTest, seats: int, seed: int) -> None:
    at.slider(key="play_seats").set_value(seats)
    at.number_input(key="play_seed").set_value(seed)
    next(b for b in at.button if b.label == "Deal").click().run()
    assert not at.exception


def _offered(at: AppTest) -> dict[str, list[str]]:
    """The moves the table offers on the learner's turn: each move that takes cards, with the
    places it takes, and the buttons (moves that take none) under the key ''."""
    taps = card_table_data(at, TABLE)["taps"]
    out = {m["id"]: m["takes"] for m in taps["moves"]}
    out.update({b["id"]: [] for b in taps["buttons"]})
    return out


def test_a_whole_game_tapped_with_a_graded_move_and_a_summary() -> None:
    at = _open_play()
    assert any("Deal" in i.value for i in at.info)
    _deal(at, 3, 5)
    assert at.query_params["seed"] == ["5"] or at.query_params["seed"] == "5"
    # before play: the table offers swaps (a hand card and a face-up card) and Ready, no default
    offered = _offered(at)
    assert "ready" in offered and offered["ready"] == []
    swaps = [m for m in offered if m.startswith("swap")]
    assert swaps and all(sorted(p[0] for p in offered[m]) == ["h", "u"] for m in swaps)
    send(at, TABLE, "move", "ready")
    assert not at.exception
    # the first play: only legal moves, each with the cards it takes from your zones
    offered = _offered(at)
    assert offered and not any(m.startswith(("swap", "ready")) for m in offered)
    play = next(m for m, places in offered.items() if places)
    cards = {p.split(":")[1] for p in offered[play]}
    assert cards == {card_str(c) for c in Move.parse(play).cards} or Move.parse(play).kind == "flip"
    send(at, TABLE, "move", play)
    assert not at.exception
    graded = [m.value for m in at.markdown if m.value.lstrip("🌟✅🟡🟠🔴❔ ").startswith("**Your move")]
    assert graded, "a grade after the learner's move"
    assert any(word in graded[0] for word in ("best", "good", "inaccuracy", "mistake", "blunder", "not graded"))
    # the others' cards are hidden while the game runs: no card of theirs reaches the browser
    data = card_table_data(at, TABLE)["table"]
    for s in data["seats"][1:]:
        assert s["hand"][s["seen"]:] == ["??"] * (len(s["hand"]) - s["seen"])
        assert set(s["down"]) <= {"??"}
    at.button(key="play_auto").click().run()
    assert not at.exception
    for _ in range(10):  # the bots play within a time budget, then the page asks to keep going
        if not any(b.key == "play_keep_going" for b in at.button):
            break
        at.button(key="play_keep_going").click().run()
    assert at.success or at.error  # the result
    assert any("Your moves" in m.value for m in at.markdown)


def test_a_move_not_offered_is_not_played() -> None:
    at = _open_play()
    _deal(at, 2, 3)
    send(at, TABLE, "move", "ready")
    turns = len(at.session_state["play_state"].turns)
    send(at, TABLE, "move", "play 2C 2D 2H 2S")  # a crafted trigger: refused, nothing happens
    assert not at.exception
    assert len(at.session_state["play_state"].turns) == turns


def test_why_not_asks_the_engine() -> None:
    at = _open_play()
    _deal(at, 2, 3)
    send(at, TABLE, "move", "ready")
    g = at.session_state["play_state"]
    hand = g.table.players[0].hand
    if len({c >> 2 for c in hand}) < 2:
        pytest.skip("the hand holds one rank")
    mixed = sorted({c >> 2: c for c in hand}.values())[:2]
    places = " ".join(sorted(f"h:{card_str(c)}" for c in mixed))
    send(at, TABLE, "why", places)
    assert not at.exception
    why = card_table_data(at, TABLE)["why_more"]
    assert places in why and why[places]


def test_the_list_of_moves_still_plays_a_move() -> None:
    at = _open_play()
    _deal(at, 2, 8)
    at.button(key="play_arrange").click().run()
    pick = next(s for s in at.selectbox if str(s.key).startswith("play_pick_"))
    assert pick.options and not any(o.lower().startswith(("swap", "ready")) for o in pick.options)
    at.button(key="play_go").click().run()
    assert not at.exception
    assert any(m.value.lstrip("🌟✅🟡🟠🔴❔ ").startswith("**Your move") for m in at.markdown)


def test_the_stepped_hint() -> None:
    at = _open_play()
    _deal(at, 2, 8)
    at.button(key="play_arrange").click().run()
    at.button(key="play_hint_button").click().run()
    assert not at.exception
    text = "".join(m.value for m in at.markdown)
    assert "The idea" in text and "The move" not in text
    at.button(key="play_hint_more").click().run()
    text = "".join(m.value for m in at.markdown)
    assert "The move" in text


def test_a_game_that_goes_round_in_circles_ends() -> None:
    at = open_page("pages/play.py", v="lancaster", seed="1", seats="4", bot="greedy")
    next(b for b in at.button if b.label == "Deal").click().run()
    at.button(key="play_auto").click().run()
    for _ in range(20):
        if not any(b.key == "play_keep_going" for b in at.button):
            break
        at.button(key="play_keep_going").click().run()
    assert not at.exception
    assert not any(n.proto.id.endswith("-" + TABLE) and card_table_data(at, TABLE)["mode"] == "play"
                   for n in card_tables(at)), "no move offered once the game has ended"
    ended = texts(at.warning) + texts(at.success) + texts(at.error)
    assert any("without a result after" in e and "came round 3 times" in e for e in ended), ended  # and why


@pytest.mark.parametrize("preset", ["garfield", "karma", "nortenos", "bluff", "west-kent"])
def test_every_setup_can_be_arranged_and_played(preset: str) -> None:
    at = open_page("pages/play.py", v=preset, seed="1", seats="2")
    next(b for b in at.button if b.label == "Deal").click().run()
    assert not at.exception
    for _ in range(12):
        if not any(b.key == "play_arrange" for b in at.button):
            break
        at.button(key="play_arrange").click().run()
        assert not at.exception
    offered = _offered(at)
    assert offered and not any(m.startswith(("swap", "place", "ready")) for m in offered)
    send(at, TABLE, "move", next(iter(offered)))
    assert not at.exception


def test_bluff_bots_face_down_plays_stay_hidden() -> None:
    at = open_page("pages/play.py", v="bluff", seed="3", seats="3")
    next(b for b in at.button if b.label == "Deal").click().run()
    at.button(key="play_arrange").click().run()
    at.button(key="play_go").click().run()
    shown = "\n".join(texts(at.markdown, raw=True))
    bots = [line for line in shown.splitlines() if line.startswith(("- **Ann**", "- **Bob**"))]
    assert bots and all("face down, saying" in line and "(" not in line.split("saying")[0] for line in bots)
    pile = card_table_data(at, TABLE)["table"]["pile"]
    theirs = [p for p in pile if p["by"] in ("Ann", "Bob")]
    assert theirs and all(set(p["cards"]) == {"??"} and p["claim"] for p in theirs)


def test_cards_seen_at_a_pickup_show_in_the_bots_hand() -> None:
    from tutor.tabletop.session import advance, new_game, play

    g = new_game("pagat", 3, "greedy", "quick", seed=2)
    advance(g)
    assert play(g, "ready")
    advance(g)
    for _ in range(40):
        if g.over or any(g.known.hands()[s] for s in (1, 2)):
            break
        from tutor.tabletop.session import allowed_moves
        moves = allowed_moves(g)
        assert play(g, str(next((m for m in moves if m.kind == "play"), moves[0])))
        advance(g)
    seen = {s: h for s, h in g.known.hands().items() if s and h}
    assert seen, "a bot picked up in 40 moves"
    at = _open_play()
    at.session_state["play_state"] = g
    at.run()
    data = card_table_data(at, TABLE)["table"]
    for s, cards in seen.items():
        assert data["seats"][s]["seen"] == len(cards)
        assert sorted(data["seats"][s]["hand"][:len(cards)]) == sorted(card_str(c) for c in cards)


def test_a_key_moment_opens_its_position_with_the_best_move_and_the_grade() -> None:
    from dataclasses import replace

    from tutor.tabletop.session import advance, allowed_moves, grade_turn, new_game, play

    g = new_game("pagat", 3, "greedy", "quick", seed=6)
    advance(g)
    assert play(g, "ready")
    advance(g)
    first = str(next(m for m in allowed_moves(g) if m.kind == "play"))
    assert play(g, first)
    [mine] = g.mine()
    graded = grade_turn(g, mine)
    best = graded.hint.moves[0].move
    # the learner's move, as if it had given away 20 points
    g.grades[mine] = replace(graded, grade=replace(graded.grade, label="mistake", drop=0.2, best=best))
    g.autoplay = True
    while not advance(g):
        pass
    assert g.over
    at = _open_play()
    at.session_state["play_state"] = g
    at.run()
    assert not at.exception
    moment = next(b for b in at.button if str(b.key) == f"play_moment_{mine}")
    assert "mistake" in moment.label and "−20 points" in moment.label
    moment.click().run()
    assert not at.exception
    data = card_table_data(at, f"play_moment_table_{mine}")
    seen_then = data["table"]
    assert seen_then["seats"][0]["name"] == "You" and seen_then["turn"] == 0
    assert all(set(s["hand"][s["seen"]:]) <= {"??"} for s in seen_then["seats"][1:])  # as you saw it
    from tutor.tabletop.taps import takes
    assert data["glow"] == list(takes(g.turns[mine].before, best))  # the best move's cards light up
    shown = "\n".join(texts(at.markdown))
    assert "**mistake**" in shown and "The idea." in shown
