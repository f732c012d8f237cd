"""The guided course and the quiz (tutor.teach.course, tutor.teach.quiz): for every preset and for
variants with house rules laid over a preset, every answer shown is the engine's under that variant."""

from __future__ import annotations

import pytest
from test_app_support import PRESETS, quiz_of

from tutor.core.errors import TutorError
from tutor.engine import apply, check, game_over, loser
from tutor.rules.combos import random_variants
from tutor.rules.variant import Variant, load_variant
from tutor.teach.course import (
    MAX_STEPS,
    Question,
    course,
    feedback,
    plain_words,
    reading_words,
    step_for,
    without,
    worked_game,
)
from tutor.teach.quiz import mark, quiz, score

HOUSE_RULES = ["lancaster+twos-pass-on", "pagat+jokers-reverse+sevens-lower", "pagat+must-play-if-able",
               "karma+eights-skip", "lancaster+deal-3-3-3+eights-lower", "tauko-hogni+after-pickup-same",
               "pagat+nines-skip+threes-glass+fours-reset"]


def assert_engine_answers(q: Question, v: Variant) -> None:
    """The question's answer, verdicts and table after are check's and apply's under ``v``."""
    assert q.answer and q.answer <= {c.key for c in q.choices}
    assert len({c.key for c in q.choices}) == len(q.choices) and len({c.label for c in q.choices}) == len(q.choices)
    if q.kind == "moves":
        for c, stored in zip(q.choices, q.verdicts, strict=True):
            assert c.move is not None
            verdict = check(q.table, v, c.move)
            assert verdict == stored
            assert verdict.legal == (c.key in q.answer), (v.id, q.prompt, c.label, verdict.reason)
        assert str(q.move) in q.answer
    elif q.kind == "next":
        verdict = check(q.table, v, q.move)
        assert verdict.legal and q.answer == {verdict.next_player}, (v.id, q.prompt, verdict)
    else:
        after, _ = apply(q.table, v, q.move)
        assert game_over(after, v)
        if v.goal == "loser":
            assert q.answer == {loser(after, v)}
        else:
            assert q.answer == {q.table.player.name} and after.player.name != "" and after.players[q.table.turn].out
    assert q.verdict == check(q.table, v, q.move)
    assert q.after == apply(q.table, v, q.move)[0]


@pytest.mark.parametrize("spec", PRESETS + HOUSE_RULES)
def test_every_step_answers_as_the_engine_does_under_the_chosen_variant(spec: str) -> None:
    v = load_variant(spec)
    steps = course(v)
    assert 8 <= len(steps) <= MAX_STEPS, (spec, len(steps))
    assert [s.id for s in steps[:3]] == ["table", "turn", "beats"]
    assert [s.id for s in steps[-3:]] == ["pickup", "endgame", "goal"]
    assert len({s.id for s in steps}) == len(steps)
    for s in steps:
        assert s.title and s.text and s.rules
        for fid in s.rules:
            v.fragment(fid)  # every rule a step cites is one of this variant's
        assert_engine_answers(s.question, v)


def test_random_house_rules_get_a_course_whose_answers_hold() -> None:
    """Any sidebar variant (a preset with up to three slots changed: the conformance run's seeded
    combinations) gets a course of 8 to 12 steps, every answer the engine's."""
    for v in random_variants(20, seed=5):
        steps = course(v)
        assert 8 <= len(steps) <= MAX_STEPS, v.id
        for s in steps:
            assert_engine_answers(s.question, v)


@pytest.mark.parametrize("spec", PRESETS + HOUSE_RULES)
def test_a_special_rules_question_turns_on_that_rule(spec: str) -> None:
    """Taken out of the variant, the rule would change the answer: the question tests it."""
    v = load_variant(spec)
    for s in course(v):
        if not s.id.startswith("rule:"):
            continue
        q = s.question
        base = without(v, [q.rules[0]])
        if q.kind == "moves":
            changed = [c.label for c in q.choices if c.move is not None and _legal(q, base, c.move) != (c.key in q.answer)]
            assert changed, (spec, s.id)
        else:
            assert check(q.table, base, q.move).next_player != check(q.table, v, q.move).next_player, (spec, s.id)


def _legal(q: Question, base: Variant, move: object) -> bool:
    try:
        return check(q.table, base, move).legal  # type: ignore[arg-type]
    except TutorError:
        return False


@pytest.mark.parametrize("spec", PRESETS)
def test_every_special_card_of_the_variant_has_its_step(spec: str) -> None:
    v = load_variant(spec)
    taught = {fid for s in course(v) for fid in s.rules}
    for f in v.fragments:
        if f.slot in ("2", "10", "8", "7", "9", "5", "3", "4", "J", "red-jacks", "four-of-a-kind", "bluff", "runs-and-sets"):
            assert f.id in taught, (spec, f.id)
        if f.slot == "jokers" and v.jokers:
            assert f.id in taught, (spec, f.id)


@pytest.mark.parametrize("spec", ["pagat", "lancaster"])
def test_a_learner_reads_under_600_words_before_the_quiz(spec: str) -> None:
    v = load_variant(spec)
    words = reading_words(v, course(v), worked_game(v))
    assert 300 < words < 600, words


def test_moves_are_said_in_words_never_in_notation() -> None:
    for spec in ("lancaster", "pagat", "tauko-hogni", "bluff"):
        v = load_variant(spec)
        for s in course(v):
            q = s.question
            for line in [q.prompt, *(c.label for c in q.choices), *feedback(q, ()).lines]:
                assert "'play " not in line and "pickup with" not in line and "flip " not in line, line
    assert plain_words("A can play (for example 'play 9C'), so must.") == \
        "A can play (for example play a 9 (9♣)), so must."
    assert plain_words("A must add one face-up card first: write 'pickup with CARD'.") == \
        "A must add one face-up card first."


def test_feedback_names_the_right_answer_and_what_was_wrong() -> None:
    v = load_variant("lancaster")
    step = next(s for s in course(v) if s.id == "pickup")
    q = step.question
    right = feedback(q, q.answer)
    assert right.right and right.head == "Right."
    assert "must play" in right.lines[0]  # the choice the rule decides: the pickup refused
    wrong = feedback(q, ["pickup"])
    assert not wrong.right and wrong.head.startswith("Not quite: the answer is")
    assert any(line.startswith("Pick up the pile:") for line in wrong.lines)


def test_the_worked_game_says_which_rules_it_is_played_under() -> None:
    game = worked_game(load_variant("lancaster"))
    assert game is not None and game.id == "lancaster-example" and not game.differences
    game = worked_game(load_variant("pagat"))
    assert game is not None and game.id == "pagat-endgame" and game.note() == "Played under pagat: your rules."
    game = worked_game(load_variant("gultnieks"))
    assert game is not None and game.differences
    assert "not all your rules" in game.note() and "Sevens make the next play a 7 or lower" in game.note()


@pytest.mark.parametrize("spec", PRESETS + HOUSE_RULES[:3])
def test_every_quiz_question_answers_as_the_engine_does(spec: str) -> None:
    v = load_variant(spec)
    qs = quiz_of(spec, 1)
    assert len(qs) == 10
    assert len({(q.table, q.prompt) for q in qs}) == 10  # ten different situations
    for q in qs:
        assert q.seat == q.table.turn  # shown as the player to move sees it
        assert_engine_answers(q, v)


def test_a_quiz_is_reproduced_by_its_seed_and_varies_with_it() -> None:
    v = load_variant("lancaster")
    seven = quiz(v, 7)
    assert seven == quiz(v, 7)
    assert seven != quiz_of("lancaster", 1)
    kinds = {q.kind for q in seven}
    assert kinds == {"moves", "next"}
    rules = {r for q in seven for r in q.rules}
    assert len(rules - {"core"}) >= 4  # the questions spread over the variant's rules


def test_the_score_names_the_rule_and_the_step_of_each_wrong_answer() -> None:
    v = load_variant("lancaster")
    steps, qs = course(v), quiz(v, 3)
    answers: dict[int, object] = {k: sorted(q.answer) if q.multi else next(iter(q.answer)) for k, q in enumerate(qs)}
    wrong = next(k for k, q in enumerate(qs) if q.kind == "next")
    answers[wrong] = next(c.key for c in qs[wrong].choices if c.key not in qs[wrong].answer)
    marked = score(qs, answers, steps)  # type: ignore[arg-type]
    assert [m.right for m in marked].count(False) == 1 and not marked[wrong].right
    m = marked[wrong]
    assert m.rule in {f.id for f in v.fragments} and m.rule in steps[m.step].rules or steps[m.step].id == "beats"
    unanswered = mark(qs[0], None, steps)
    assert not unanswered.right
    assert step_for(steps, ["core"]) == [s.id for s in steps].index("beats")
