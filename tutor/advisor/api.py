"""The advisor's front door: ``hint(table, variant, ...) -> Hint``, and grades.

>>> from tutor.core.table import table_from_dict
>>> t = table_from_dict({"players": [{"name": "A", "hand": ["10H", "4C"]},
...                                  {"name": "B", "hand": 3}], "pile": [["AS"]], "turn": "A"})
>>> h = hint(t, "pagat", iterations=200, seed=1)
>>> str(h.best), h.moves[0].simulations > 0
('play 10H', True)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from tutor.advisor.explain import (
    PRINCIPLE_BURN,
    PRINCIPLE_FEWER,
    Chain,
    Facts,
    LineStep,
    choice_words,
    facts,
    grade_for,
    interval,
    plan,
    principled,
    search_error,
    sentence,
    standard_error,
    too_close,
    uncap,
)
from tutor.advisor.ismcts import ISMCTS, MoveKey, Progress, move_key, suit_blind
from tutor.advisor.rollout import Rollout
from tutor.advisor.view import KnownCards, PlayerView, observe
from tutor.core.errors import TutorError
from tutor.core.moves import PLAY, Move
from tutor.core.stats import separated
from tutor.core.table import Table
from tutor.engine import GAME_OVER, apply_unchecked, legal_moves
from tutor.engine.words import listing, pct, word
from tutor.rules.variant import Variant, load_variant


@dataclass(frozen=True)
class MoveAdvice:
    """One choice at the root: a move (and the moves that are the same choice), its numbers, why."""

    move: Move
    equivalent: tuple[Move, ...]
    score: float  # the estimated chance of not losing after it (goal-winner: of winning)
    low: float
    high: float
    simulations: int
    std: float
    why: str
    facts: Facts

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "move": str(self.move), "score": round(self.score, 4), "low": round(self.low, 4),
            "high": round(self.high, 4), "simulations": self.simulations, "why": self.why,
        }
        if self.equivalent:
            out["equivalent"] = [str(m) for m in self.equivalent]
            out["choice"] = self.label  # the choice in words, every suit at once
        return out

    def covers(self, move: Move) -> bool:
        return move == self.move or move in self.equivalent

    @property
    def label(self) -> str:
        """The choice in one phrase, whatever the suits: ``'play a 7 (any of 7H, 7S)'``."""
        return choice_words(self.move, self.equivalent)

    @property
    def short(self) -> str:
        """The choice without its cards, for a sentence naming several: ``'play a 7'``."""
        return choice_words(self.move, self.equivalent, short=True)


@dataclass(frozen=True)
class Hint:
    """The answer to "what should I play here, and why?"."""

    player: str
    seat: int
    variant: str
    goal: str  # "loser" or "winner"
    moves: tuple[MoveAdvice, ...]  # best first
    simulations: int
    seconds: float
    seed: int
    verdict: str  # how the best compares with the runner-up
    close: bool  # best and runner-up too close to call
    steps: tuple[str, ...]  # the rule or idea, the move, the numbers
    names: tuple[str, ...] = ()  # the seats' names
    principle: bool = False  # too close to call, and the principle (the cheapest plain play) chose

    @property
    def best(self) -> Move | None:
        return self.moves[0].move if self.moves else None

    @property
    def score_words(self) -> str:
        return "you win" if self.goal == "winner" else "you avoid being the shithead"

    def advice_for(self, move: Move | str) -> MoveAdvice | None:
        m = Move.parse(move) if isinstance(move, str) else move
        for a in self.moves:
            if a.covers(m):
                return a
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player, "variant": self.variant, "goal": self.goal,
            "best": str(self.best) if self.best else None,
            "simulations": self.simulations, "seconds": round(self.seconds, 3), "seed": self.seed,
            "verdict": self.verdict, "close": self.close, "principle": self.principle, "steps": list(self.steps),
            "moves": [a.to_json() for a in self.moves],
        }

    def markdown(self, *, steps: int = 3) -> str:
        """The hint as Markdown for a page: the first ``steps`` steps, then (with all three)
        a table of every choice."""
        if not self.moves:
            return self.verdict
        titles = ("The idea", "The move", "The numbers")
        out = [f"**{titles[i]}.** {self.steps[i]}" for i in range(min(steps, len(self.steps)))]
        if steps >= len(self.steps):
            chance = "chance to win" if self.goal == "winner" else "chance not to lose"
            out.append(f"\n| move | {chance} | 95% interval | simulations | why |\n| --- | --- | --- | --- | --- |")
            out[-1] += "".join(f"\n| `{a.label}` | {pct(a.score)} | {pct(a.low)} to {pct(a.high)} | "
                               f"{a.simulations} | {a.why} |" for a in self.moves)
        return "\n\n".join(out)

    def text(self) -> str:
        if not self.moves:
            return self.verdict
        lines = [f"{self.player} to move ({self.variant}): {self.simulations} simulations, "
                 f"{self.seconds:.2f} s, seed {self.seed}", ""]
        for i, step in enumerate(self.steps, 1):
            lines.append(f"{i}. {step}")
        lines.append("")
        width = max(len(a.label) for a in self.moves)
        lines.append(f"{'move':{width}}  score  95% interval   sims  why")
        for a in self.moves:
            lines.append(f"{a.label:{width}}  {pct(a.score):>5}  {pct(a.low):>4} - {pct(a.high):<5} "
                         f"{a.simulations:6}  {a.why}")
        return "\n".join(lines)


@dataclass(frozen=True)
class Grade:
    """How a move compares with the advisor's best."""

    label: str | None  # best, good, inaccuracy, mistake, blunder; None when the search is unsure
    drop: float  # points of the chance of not losing given away (0..1)
    best: Move | None
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"grade": self.label, "drop": round(self.drop, 4),
                "best": str(self.best) if self.best else None, "reason": self.reason}


def known_from_history(history: Iterable[tuple[Table, Move]], v: Variant, n_seats: int) -> KnownCards:
    """Replay a game's (table before, move) pairs and collect the cards seen going into hands."""
    known = KnownCards(n_seats)
    for before, move in history:
        after, events = apply_unchecked(before, v, move)
        known.update(before, move, after, events)
    return known


def prepare(
    table: Table | PlayerView,
    variant: Variant | str,
    *,
    seed: int = 0,
    history: Iterable[tuple[Table, Move]] | None = None,
    seen: KnownCards | Mapping[int, Sequence[int]] | None = None,
    rollout: Rollout | None = None,
    root_moves: Iterable[Move] | None = None,
    **search_options: float,
) -> ISMCTS:
    """A search for the player to move, ready to ``run`` (in batches, for a progress bar)."""
    v = load_variant(variant)
    if isinstance(table, PlayerView):
        view = table
    else:
        if history is not None and seen is None:
            seen = known_from_history(history, v, len(table.players))
        view = observe(table, table.turn, seen, v)
    del table  # the search sees the view only
    return ISMCTS(view, v, seed=seed, rollout=rollout, root_moves=root_moves, **search_options)  # type: ignore[arg-type]


def principal_line(search: ISMCTS, key: MoveKey, depth: int = 8) -> list[LineStep]:
    """The search's principal line below a root choice: the most visited child, then its most
    visited child..., as (move key by ranks, seat, visits, visits of the parent), read from the tree."""
    node = search.child(key)
    line: list[LineStep] = []
    while node is not None and node.children and len(line) < depth:
        child = max(node.children.values(), key=lambda c: c.visits)
        k = child.key
        if not search.blind and len(k) > 1 and isinstance(k[1], tuple):  # keys by card where suits matter
            k = (k[0], tuple(c >> 2 for c in k[1] if isinstance(c, int)), *k[2:])
        line.append((k, child.seat, child.visits, node.visits))
        node = child
    return line


def own_chain(view: PlayerView, v: Variant, det: Table, move: Move, line: Sequence[LineStep]) -> Chain:
    """The rest of a play-again turn after ``move``, as the search's principal line plays it, with
    what each step does (a burn, another play), played out on a deal of the view.

    Only cards the player can see are followed (hand, or face-up cards with an empty hand): a card
    drawn from the stock in the deal is a guess, so the chain stops there."""
    state, events = apply_unchecked(det, v, move)
    if state.turn != view.seat or not line or line[0][1] != view.seat:
        return ()
    me = view.me
    own = list(me.hand_known) + [c for st in me.face_up for c in st]
    for c in move.cards:
        if c in own:
            own.remove(c)
    out: list[tuple[Move, tuple[str, ...], int]] = []
    for key, seat, _visits, _parent in line:
        if seat != view.seat or state.turn != view.seat or GAME_OVER in events:
            break
        m = next((m for m in legal_moves(state, v) if move_key(m) == key), None)
        if m is None or (m.kind == PLAY and any(c not in own for c in m.cards)):
            break
        for c in m.cards:
            if c in own:
                own.remove(c)
        before = sum(len(p.cards) for p in state.pile)
        state, events = apply_unchecked(state, v, m)
        out.append((m, tuple(events), before))
        if state.turn != view.seat:
            break
    return tuple(out)


def answer(search: ISMCTS, seed: int = 0) -> Hint:
    """The hint from a search's statistics so far."""
    view, v = search.view, search.v
    me = view.me
    goal = "winner" if v.goal == "winner" else "loser"
    stats = search.stats()
    if not stats:
        return Hint(me.name, view.seat, v.id, goal, (), search.iterations, search.seconds, seed,
                    "The game is over: there is nothing to play.", False, ())
    det = search.det.deal(random.Random(seed))
    names = [s.name for s in view.seats]
    all_moves = [m for s in stats for m in s.moves]
    floor = min(search.root_floor, max(1, search.iterations // max(1, 2 * len(stats))))
    ordered = sorted(stats, key=lambda s: (s.visits < floor, -s.mean, -s.visits))
    advice = []
    for s in ordered:
        f = facts(view, v, det, s.moves[0], all_moves)
        clauses = list(f.clauses)
        line = principal_line(search, s.key)
        chain = own_chain(view, v, det, s.moves[0], line)
        more = plan(view, v, s.moves[0], line, f.pile_after, f.next_takes, chain=chain)
        if more:
            if f.kept_at >= 0 and "keep the " in more:
                del clauses[f.kept_at]  # the plan says what the kept card is for
            spent = {word(m.cards[0] >> 2) for m, _, _ in chain if m.kind == PLAY and m.cards}
            # a card the rest of the turn spends is not kept: the plan says what becomes of it
            clauses = [c for c in clauses if not (c.startswith(("you keep ", "it keeps ")) and any(
                re.search(rf"\b{re.escape(w)}s?\b", c) for w in spent))]
            clauses.append(more)
        certain = f.certain and s.visits > 0 and s.mean >= 1.0 - 1e-9
        low, high = interval(s.mean, s.visits, s.std, certain=certain)
        advice.append(MoveAdvice(s.moves[0], s.moves[1:], s.mean, low, high, s.visits, s.std,
                                 sentence(clauses), f))
    ranked, verdict, close, principle = _compare(v, advice)
    best = ranked[0]
    words = "you win" if goal == "winner" else "you avoid being the shithead"
    if principle:
        idea = principle
        if best.facts.next_takes:  # a fact, not the noise winner's idea: say it too
            idea += " " + best.facts.idea
    elif close and len(ranked) > 1:
        idea = "The search cannot separate the top moves, and none of them is a plain play. " + best.facts.idea
    else:
        idea = best.facts.idea
    steps = (
        idea,
        best.label[:1].upper() + best.label[1:] + (": " + uncap(best.why, names) if best.why else "."),
        f"After it {words} in {pct(best.score)} of the simulations (95% interval {pct(best.low)} to "
        f"{pct(best.high)}, {best.simulations} simulations). {verdict[:1].upper() + verdict[1:]}",
    )
    return Hint(me.name, view.seat, v.id, goal, tuple(ranked), search.iterations, search.seconds, seed,
                verdict, close, steps, tuple(names), bool(principle))


PRINCIPLE_MARGIN = 0.01
"""A principle that rests on no fact of the position (the cheapest plain card, the card fewest
unseen cards beat, the special that goes on fewest cards) breaks ties only: it chooses among the
moves within the search's error of the best and at most a point behind it. Choosing by it among
every move within the error (up to about 7 points at 1,000 simulations) overrode the search's
lean so often that the advisor lost more: the shithead in 14 of the first 100 seat-rotated pagat
games (deals 1000-1024, 4 players, 1,000 simulations) against 7 before the principles, 8 with the
search's own choice, 10 with a 2-point margin, and 7 as here. The two that rest on a fact (a play
that lets the next player, known to hold the rest, complete four of a kind; more copies of one
special than will do) still choose within the whole error (benchmarks/hint_quality.py: 23 of 25
with them, 21 without)."""

FACT_PRINCIPLES = frozenset({PRINCIPLE_BURN, PRINCIPLE_FEWER})


def _compare(v: Variant, advice: Sequence[MoveAdvice]) -> tuple[list[MoveAdvice], str, bool, str]:
    """The moves in the order to show them, the verdict, whether the top is too close to call,
    and the principle that chose among the moves too close to call ('' when none did).

    A principle chooses only where its premise holds: the moves are within the search's error of
    the best (for a principle resting on no fact, also at most :data:`PRINCIPLE_MARGIN` behind
    it), *and* the search itself spent a fair share on them (at least a fifth of the best's
    simulations: a move the search dropped early is one it clearly liked less, however wide its
    error; a third cost the advisor 2 of 12 short 2-player Lancaster games, a fifth none). Within
    the error but further behind, the search's choice stands and the verdict says it is not a
    sure one."""
    ranked = list(advice)
    if len(advice) == 1:
        only = advice[0]
        if only.equivalent:
            return ranked, f"Every legal move is the same choice: {only.label}.", False, ""
        return ranked, f"{only.move} is the only legal move.", False, ""
    a, b = advice[0], advice[1]
    if a.simulations < 2 or b.simulations < 2:
        return ranked, "Too few simulations to compare the moves yet.", True, ""
    se_a = search_error(a.std, a.simulations)
    enough = max(20, a.simulations // 5)  # a move the search barely tried is not a contender
    rivals = [x for x in advice[1:] if x.simulations >= enough
              and too_close(a.score, se_a, x.score, search_error(x.std, x.simulations))]
    chosen, principle = principled(v, [x.facts for x in (a, *rivals)]) if rivals else (None, "")
    if rivals and principle not in FACT_PRINCIPLES:
        near = rivals
        rivals = [x for x in near if a.score - x.score <= PRINCIPLE_MARGIN + 1e-9]
        chosen, principle = principled(v, [x.facts for x in (a, *rivals)]) if rivals else (None, "")
        if not rivals:
            c = near[0]
            diff = 100 * (a.score - c.score)
            return ranked, (f"{a.short} leads {c.short} by {diff:.0f} point{'s' if round(diff) != 1 else ''} "
                            f"({pct(a.score)} against {pct(c.score)}), within the search's error: the "
                            "search's choice, though not a sure one."), False, ""
    if not rivals:
        diff = 100 * (a.score - b.score)
        return ranked, (f"{a.short} is better than the runner-up, {b.short}, by {diff:.0f} "
                        f"point{'s' if round(diff) != 1 else ''} ({pct(a.score)} against {pct(b.score)})."), False, ""
    group = [a, *rivals]
    named = listing([x.short for x in group[:3]]) + (" and others" if len(group) > 3 else "")
    if chosen is None:
        return ranked, (f"{named} are too close to call ({pct(a.score)} against {pct(rivals[0].score)}): "
                        "the search could not separate them, and none is a play, so either will do."), True, ""
    pick = next(x for x in group if x.facts is chosen)
    if pick is a:
        return ranked, (f"The search could not separate {named} ({pct(a.score)} against {pct(rivals[0].score)}, "
                        f"within its error); {a.short} is also the principle's choice (step 1)."), True, principle
    ranked = [pick] + [x for x in advice if x is not pick]
    return ranked, (f"The search could not separate {named} ({pct(a.score)} for {a.short} against "
                    f"{pct(pick.score)} for {pick.short}, within its error), so the principle of step 1 "
                    f"chooses {pick.short}."), True, principle


def hint(
    table: Table | PlayerView,
    variant: Variant | str,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
    history: Iterable[tuple[Table, Move]] | None = None,
    seen: KnownCards | Mapping[int, Sequence[int]] | None = None,
    progress: Callable[[Progress], None] | None = None,
    rollout: Rollout | None = None,
    root_moves: Iterable[Move] | None = None,
    until_decided: bool = False,
) -> Hint:
    """What the player to move should play, and why.

    The search sees only that player's view (:func:`~tutor.advisor.view.observe`):
    with ``history`` (the game's (table, move) pairs) or ``seen`` it knows the cards
    seen going into other hands; without either, cards listed in other hands count as
    seen (the table-file reading). Budget: ``iterations`` (deterministic for a
    ``seed``) or ``seconds``; with neither, one second. ``until_decided`` stops the search
    sooner once the best choice is clear (:meth:`ISMCTS.decided`).
    """
    if seconds is not None and seconds < 0:
        raise TutorError(f"--seconds: {seconds!r} is not a time")
    if iterations is not None and iterations < 1:
        raise TutorError(f"--iterations: {iterations!r} is not a number of simulations")
    if seconds is None and iterations is None:
        seconds = 1.0
    search = prepare(table, variant, seed=seed, history=history, seen=seen, rollout=rollout,
                     root_moves=root_moves)
    search.run(iterations=iterations, seconds=seconds, progress=progress, until_decided=until_decided)
    return answer(search, seed)


def grade(h: Hint, move: Move | str) -> Grade:
    """Grade ``move`` against the hint: by how much it lowers the chance of not losing."""
    m = Move.parse(move) if isinstance(move, str) else move
    if not h.moves:
        return Grade(None, 0.0, None, "The game was over.")
    chosen = h.advice_for(m)
    best = h.moves[0]
    if chosen is None:
        return Grade(None, 0.0, best.move, f"{m} was not among the moves the advisor considered.")
    if chosen is best:
        return Grade("best", 0.0, best.move, f"The advisor's choice too: {uncap(best.why, h.names)}")
    drop = max(0.0, best.score - chosen.score)
    label = grade_for(drop)
    sure = chosen.high < best.low or (chosen.simulations >= 20 and best.simulations >= 20 and separated(
        drop, standard_error(best.score, best.simulations), standard_error(chosen.score, chosen.simulations)))
    if label in ("best", "good"):
        label = "good"
        reason = (f"As good as {best.label}, as far as the search can tell "
                  f"({pct(chosen.score)} against {pct(best.score)}).")
        return Grade(label, drop, best.move, reason)
    if not sure:
        return Grade(None, drop, best.move,
                     f"Perhaps weaker than {best.label} ({pct(chosen.score)} against {pct(best.score)}), "
                     "but the search is not sure.")
    why = uncap(best.why, h.names) if best.why else ""
    reason = (f"{best.label} was better by {100 * drop:.0f} points ({pct(best.score)} against "
              f"{pct(chosen.score)}): {why}")
    return Grade(label, drop, best.move, reason)


def best_move(table: Table, variant: Variant | str, moves: Sequence[Move] | None = None, *,
              seen: KnownCards | Mapping[int, Sequence[int]] | None = None,
              iterations: int | None = None, seconds: float | None = None, seed: int = 0) -> Move:
    """The advisor as a player: its best move among ``moves`` (default: all legal ones)."""
    h = hint(table, variant, iterations=iterations, seconds=seconds, seed=seed,
             seen=seen if seen is not None else {}, root_moves=moves)
    assert h.best is not None
    if moves is not None and h.best not in moves:
        for a in h.moves:
            for m in (a.move, *a.equivalent):
                if m in moves:
                    return m
    return h.best


__all__ = ["AdvisorBot", "Grade", "Hint", "MoveAdvice", "answer", "best_move", "grade", "hint", "known_from_history",
           "move_key", "prepare", "principal_line"]


class AdvisorBot:
    """A :class:`tutor.play.game.Bot` that plays the advisor's best move at a small budget.

    It sees the table only through its own view: pass the game's shared
    :class:`KnownCards` (fed by ``play_game``'s ``on_move``) as ``known`` so it knows
    the cards seen going into hands; without it, it knows none.

    With ``known`` its view also holds the positions after pickups it has been in, and its
    search scores a line that picks up into one of them again as lost (the game would go
    round in a circle; see :mod:`tutor.advisor.ismcts`).

    It also remembers the views it has moved from. When one comes round again, the game is
    going in a circle (a search that sees a dozen moves ahead can prefer the safe loop to
    the plan that ends it), so it plays the best move it has not yet tried there, as long
    as that is within ``loop_margin`` of the best; each further time round, within three
    times as much. A ``loop_margin`` of 0 turns this off.
    """

    def __init__(self, iterations: int | None = 300, seconds: float | None = None,
                 known: KnownCards | None = None, name: str = "advisor", loop_margin: float = 0.1,
                 until_decided: bool = True, rollout: Rollout | None = None) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.known = known
        self.name = name
        self.loop_margin = loop_margin
        self.until_decided = until_decided  # stop searching once the choice is clear
        self.rollout = rollout
        self.tried: dict[PlayerView, set[MoveKey]] = {}
        self.rounds: dict[PlayerView, int] = {}  # times a view has come round again
        self.simulations = 0  # in all, over the moves it has chosen
        self.searches = 0

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        seed = rng.randrange(2 ** 31)
        if len({move_key(m, suit_blind(v)) for m in moves}) == 1:
            return moves[0]  # one choice (the same rank in other suits, or any face-down card)
        view = observe(table, table.turn, self.known if self.known is not None else {}, v)
        h = hint(view, v, iterations=self.iterations, seconds=self.seconds, seed=seed, rollout=self.rollout,
                 root_moves=moves, until_decided=self.until_decided)
        self.simulations += h.simulations
        self.searches += 1
        place = replace(view, loops=frozenset())  # the loop breaker's memory: the view, not the history
        tried = self.tried.setdefault(place, set())
        ranked: list[tuple[float, MoveKey, Move]] = []
        for a in h.moves:  # one entry per choice, its first move that is allowed here
            m = next((m for m in (a.move, *a.equivalent) if m in moves), None)
            if m is not None:
                ranked.append((a.score, move_key(m), m))
        if not ranked:
            return moves[0]
        choice = ranked[0]
        if tried and self.loop_margin > 0:  # a margin of 0 turns the loop breaker off
            # each time round the circle it gives up more (the margin triples) to leave it
            rounds = self.rounds[place] = self.rounds.get(place, 0) + 1
            margin = self.loop_margin * 3 ** (rounds - 1)
            fresh = [r for r in ranked if r[1] not in tried and r[0] >= ranked[0][0] - margin]
            if fresh:
                choice = fresh[0]
        tried.add(choice[1])
        return choice[2]
