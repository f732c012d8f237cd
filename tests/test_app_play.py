"""The Play page, through Streamlit's AppTest: deal, move, get a grade, finish, see the summary."""

from __future__ import annotations

from pathlib import Path

import pytest

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest
from test_app_support import open_page, texts  # noqa: E402

APP = str(Path(__file__).resolve().parent.parent / "app.py")


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


def test_a_whole_game_with_a_graded_move_and_a_summary() -> None:
    at = _open_play()
    assert any("Deal" in i.value for i in at.info)
    _deal(at, 3, 5)
    assert at.query_params["seed"] == ["5"] or at.query_params["seed"] == "5"
    # before play: arrange, then the first move
    at.button(key="play_arrange").click().run()
    assert not at.exception
    moves = at.radio[0].options
    assert moves and all(not m.startswith("swap") for m in moves)
    at.button(key="play_go").click().run()
    assert not at.exception
    graded = [m.value for m in at.markdown if m.value.lstrip("🌟✅🟡🟠🔴❔ ").startswith("**Your move")]
    assert graded, "a grade after the learner's move"
    assert any(word in graded[0] for word in ("best", "good", "inaccuracy", "mistake", "blunder", "not graded"))
    # the others' cards are hidden while the game runs
    assert "unseen" in "".join(m.value for m in at.markdown)
    at.button(key="play_auto").click().run()
    assert not at.exception
    assert at.success or at.error  # the result
    assert any("Your moves" in m.value for m in at.markdown)


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
    assert not at.exception
    assert not at.radio, "no 'Your move' once the game has ended"
    ended = texts(at.warning) + texts(at.success) + texts(at.error)
    assert any("round in a circle" in e or "shithead" in e or "wins" in e or "won" in e for e in ended), ended


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
    assert at.radio and all(not str(o).startswith(("swap", "place")) for o in at.radio[0].options)
    at.button(key="play_go").click().run()
    assert not at.exception


def test_bluff_bots_face_down_plays_stay_hidden() -> None:
    at = open_page("pages/play.py", v="bluff", seed="3", seats="3")
    next(b for b in at.button if b.label == "Deal").click().run()
    at.button(key="play_arrange").click().run()
    at.button(key="play_go").click().run()
    shown = "\n".join(texts(at.markdown, raw=True))
    bots = [line for line in shown.splitlines() if line.startswith(("- **Ann**", "- **Bob**"))]
    assert bots and all("face down, saying" in line and "(" not in line.split("saying")[0] for line in bots)
    assert "Ann, said" in shown and 'aria-label="unseen card" title="unseen card"></span><span class="shc-count">Ann' in shown
