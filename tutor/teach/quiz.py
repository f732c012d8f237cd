"""Test yourself: ten situations from real games of the chosen variant, checked by the engine.

:func:`quiz` plays a few seeded games with the engine's bots (:func:`tutor.play.game.play_game`)
and picks positions from them: "Tap every card you may play" (each choice judged by
:func:`tutor.engine.check`) and "Who plays next?" after a move that burns, reverses, skips or
picks up. Each question is shown as the player to move sees the table. The same variant and
seed give the same ten questions, so a link brings the quiz back.

:func:`score` marks the answers and, for each wrong one, names the rule that decided it and the
step of the course that teaches it.

>>> from tutor.rules.variant import load_variant
>>> qs = quiz(load_variant("pagat"), seed=1)
>>> len(qs), qs == quiz(load_variant("pagat"), seed=1)
(10, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tutor.core.moves import PICKUP, PLAY, Move
from tutor.core.table import Table
from tutor.engine import BURN, PICKED_UP, PLAY_AGAIN, REVERSE, SKIP, check
from tutor.play.game import EpsilonBot, play_game
from tutor.rules.variant import Variant
from tutor.teach.course import (
    Question,
    Step,
    deciding_rules,
    moves_question,
    next_question,
    pickup_of,
    play_of,
    step_for,
    table_players,
)

QUESTIONS = 10
GAMES = 6  # games played to draw the questions from
MOST_CARDS = 7  # a hand larger than this makes a poor question on a phone
MOST_CHOICES = 5
TELLING = (BURN, REVERSE, SKIP, PLAY_AGAIN)  # moves after which "who plays next?" is worth asking
MAX_SEED = 999_999


@dataclass(frozen=True)
class Marked:
    """One answered question: right or not, and (when wrong) the rule and its course step."""

    question: Question
    picked: frozenset[str]
    right: bool
    rule: str  # the fragment the answer turned on
    step: int  # the course step (0-based) that teaches it


def quiz(v: Variant, seed: int, n: int = QUESTIONS) -> tuple[Question, ...]:
    """``n`` questions drawn from seeded games of ``v``: as varied in the rules they turn on as
    the games allow, each judged by the engine."""
    players = table_players(v)
    candidates: list[tuple[int, Question]] = []
    for g in range(GAMES):
        for k, (table, move, events) in enumerate(_game(v, players, seed * GAMES + g)):
            for q in _questions(v, table, move, events):
                candidates.append((g * 1000 + k, q))
    return _choose(candidates, random.Random(seed), n)


def _game(v: Variant, players: int, seed: int) -> list[tuple[Table, Move, list[str]]]:
    """Every position of one seeded game of bots (greedy, with some random moves), with the move
    made there and what it set off."""
    seen: list[tuple[Table, Move, list[str]]] = []

    def keep(table: Table, move: Move, after: Table, events: list[str]) -> None:
        seen.append((table, move, list(events)))

    play_game(v, players, seed, [EpsilonBot(eps=0.3) for _ in range(players)], max_turns=240, on_move=keep)
    return seen


def _questions(v: Variant, table: Table, move: Move, events: Sequence[str]) -> list[Question]:
    """The questions one position of a game offers: the choices of its player, and who plays after
    the move made there when it burned, reversed, skipped or picked up."""
    if table.setup:
        return []
    out: list[Question] = []
    p = table.player
    zone = p.hand or p.face_up_cards
    if zone and len(zone) <= MOST_CARDS:
        by_rank: dict[int, int] = {}
        for c in sorted(zone):
            by_rank.setdefault(c >> 2, c)
        moves = [play_of(table, v, (c,)) for c in by_rank.values()][:MOST_CHOICES]
        if table.pile:
            pickup = pickup_of(table, v)
            if not check(table, v, pickup).legal or not any(check(table, v, m).legal for m in moves):
                moves.append(pickup)
        verdicts = [check(table, v, m) for m in moves]
        if any(vd.legal for vd in verdicts) and not all(vd.legal for vd in verdicts) and len(moves) >= 2:
            q = moves_question(table, v, moves, seat=table.turn)
            if q is not None:
                out.append(q)
    telling = any(e in events for e in TELLING) or (PICKED_UP in events and v.after_pickup != "next")
    if telling and move.kind in (PLAY, PICKUP) and move.give < 0 and len(p.hand) <= MOST_CARDS + 2:
        q = next_question(table, v, move, seat=table.turn)
        if q is not None:
            out.append(q)
    return out


def _choose(candidates: list[tuple[int, Question]], rng: random.Random, n: int) -> tuple[Question, ...]:
    """``n`` questions, each from another position: first those that bring a rule not yet asked
    about (both kinds in turn), then the rest in the seed's order."""
    rng.shuffle(candidates)
    chosen: list[Question] = []
    used: set[int] = set()
    rules: set[str] = set()
    kinds = ["moves", "next"]
    for _ in range(2):
        for kind in kinds * n:
            pick = next(((pos, q) for pos, q in candidates if pos not in used and q.kind == kind
                         and not set(q.rules) <= rules), None)
            if pick is None or len(chosen) >= n:
                continue
            used.add(pick[0])
            rules.update(pick[1].rules)
            chosen.append(pick[1])
        rules = {"core"}  # second round: any rule again, the core of the game last
    for pos, q in candidates:
        if len(chosen) >= n:
            break
        if pos not in used:
            used.add(pos)
            chosen.append(q)
    return tuple(chosen)


def mark(q: Question, picked: Sequence[str] | str | None, steps: Sequence[Step]) -> Marked:
    """Mark one answer; a wrong one names the rule of the first choice answered wrong (or of the
    question) and the course step that teaches it."""
    chosen = frozenset([picked] if isinstance(picked, str) else picked or ())
    right = chosen == q.answer
    rules: tuple[str, ...] = q.rules
    if not right and q.kind == "moves":
        wrong = chosen ^ q.answer
        rules = deciding_rules(vd for c, vd in zip(q.choices, q.verdicts, strict=True) if c.key in wrong) or rules
    rule = next((r for r in rules if r != "core"), rules[0] if rules else "core")
    return Marked(q, chosen, right, rule, step_for(steps, [rule]))


def score(questions: Sequence[Question], answers: Mapping[int, Sequence[str] | str | None],
          steps: Sequence[Step]) -> list[Marked]:
    """Every question marked (an unanswered one is wrong)."""
    return [mark(q, answers.get(k), steps) for k, q in enumerate(questions)]
