"""The Learn page's course and quiz, driven through AppTest for every preset: a newcomer taps the
answers, sees the engine's verdict under the chosen rules, goes on to the quiz and gets a score
with the rule and the course step behind every wrong answer."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest
from test_app_support import PRESETS, all_markdown, open_page, quiz_of, texts

from tutor.rules.variant import load_variant
from tutor.teach.course import Question, course, feedback


def _answer(at: AppTest, key: str, q: Question, right: bool) -> None:
    """Tap the answer (the right one, or a wrong one), then Check."""
    if right:
        value: object = sorted(q.answer) if q.multi else next(iter(q.answer))
    else:
        wrong = next(c.key for c in q.choices if c.key not in q.answer)
        value = [wrong] if q.multi else wrong
    at.session_state[f"{key}|pick"] = value  # as if tapped: the tap itself only reruns the page
    at.button(key=f"{key}|check").click().run()
    assert not at.exception, at.exception


def _verdict(at: AppTest) -> str:
    [box] = texts(at.success) + texts(at.error)
    return box


@pytest.mark.parametrize("spec", PRESETS)
def test_the_course_and_the_quiz_of_every_preset(spec: str) -> None:
    v = load_variant(spec)
    steps = course(v)
    at = open_page("pages/learn.py", v=spec)
    assert "step" not in at.query_params  # the first step is the default: the link stays clean
    for k, s in enumerate(steps, 1):
        if k > 1:
            assert at.query_params["step"] in (str(k), [str(k)]) and at.query_params["part"] in ("course", ["course"])
        assert texts(at.subheader)[0] == s.title
        key = f"course|{spec}|{s.id}"
        assert at.button(key="learn_next").label == "Skip"
        _answer(at, key, s.question, right=k % 3 != 0)  # every third step answered wrong
        value = at.button_group(key=f"{key}|pick").value
        want = feedback(s.question, value if isinstance(value, list) else [value])
        shown = _verdict(at)
        assert shown.startswith(f"**{want.head}**") or want.head in shown, (shown, want.head)
        assert want.lines[0] in shown  # the engine's verdict under the chosen variant
        assert ("Right" in shown) == (k % 3 != 0)
        assert at.button(key="learn_next").label == "Continue"
        at.button(key="learn_next").click().run()
    assert "That is the game" in _verdict(at)
    at.button(key="learn_to_quiz").click().run()
    assert at.query_params["part"] in ("quiz", ["quiz"]) and at.query_params["seed"] in ("1", ["1"])
    qs = quiz_of(spec, 1)
    for k, q in enumerate(qs):
        assert at.button(key="quiz_next").disabled  # answer first
        _answer(at, f"quiz|{spec}|1|{k}", q, right=k % 2 == 0)
        assert ("Right" in _verdict(at)) == (k % 2 == 0)
        at.button(key="quiz_next").click().run()
    assert any(f"You got {len(qs) // 2} of {len(qs)} right" in s for s in texts(at.success) + texts(at.info))
    text = all_markdown(at)
    assert "**The rule:**" in text or "The rule:" in text
    review = [b for b in at.button if b.key and b.key.startswith("quiz_review_")]
    assert len(review) == len(qs) // 2
    label = review[0].label
    review[0].click().run()
    assert at.query_params["part"] in ("course", ["course"])
    assert texts([type("L", (), {"value": label})()])[0].endswith(texts(at.subheader)[0])  # "Review step N: <its title>"


def test_the_step_is_in_the_link_and_back_and_skip_move_through_it() -> None:
    at = open_page("pages/learn.py", v="lancaster", step="4")
    steps = course(load_variant("lancaster"))
    assert texts(at.subheader)[0] == steps[3].title
    at.button(key="learn_back").click().run()
    assert texts(at.subheader)[0] == steps[2].title and at.query_params["step"] in ("3", ["3"])
    at.button(key="learn_next").click().run()  # skip without answering
    assert texts(at.subheader)[0] == steps[3].title


@pytest.mark.parametrize("value", ["0", "99", "x", "²", "[x](http://e.vil)"])
def test_a_bad_step_in_the_link_falls_back_to_the_first_with_a_warning(value: str) -> None:
    at = open_page(v="pagat", step=value)  # "/" is Learn: the link's first run reads the step
    assert any("not a whole number" in w for w in texts(at.warning)), texts(at.warning)
    assert not any("](http" in w for w in texts(at.warning, raw=True))  # quoted as text, never a link
    assert texts(at.subheader)[0] == "The table"


def test_a_bad_part_or_seed_in_the_link_falls_back_with_a_warning() -> None:
    at = open_page(v="pagat", part="[x](http://e.vil)")
    assert any("showing the course" in w for w in texts(at.warning))
    assert not any("](http" in w for w in texts(at.warning, raw=True))
    at = open_page(v="pagat", part="quiz", seed="-4")
    assert any("not a whole number" in w for w in texts(at.warning))
    assert any(c.startswith("Quiz 1:") for c in texts(at.caption))


def test_a_quiz_link_brings_back_the_same_quiz() -> None:
    at = open_page("pages/learn.py", v="lancaster", part="quiz", seed="5")
    first = quiz_of("lancaster", 5)[0]
    pills = at.button_group(key="quiz|lancaster|5|0|pick")
    assert texts([type("L", (), {"value": pills.label})()]) == [f"**{first.prompt}**"]
    assert len(pills.options) == len(first.choices)


def test_the_course_follows_the_sidebar() -> None:
    at = open_page("pages/learn.py", v="pagat")
    pagat = [s.title for s in course(load_variant("pagat"))]
    assert texts(at.subheader)[0] == pagat[0]
    at.sidebar.selectbox(key="sb_preset").set_value("lancaster").run()
    assert at.session_state["variant"].id == "lancaster"
    at.button(key="learn_next").click().run()
    lancaster = course(load_variant("lancaster"))
    assert texts(at.subheader)[0] == lancaster[1].title
    key = f"course|lancaster|{lancaster[1].id}"
    assert at.button_group(key=f"{key}|pick")
