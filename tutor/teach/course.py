"""The guided course: a short run of steps that teaches one variant, generated from its fragments.

A newcomer meets the game in the order they need it: the table, how a turn goes, what beats
what, each special card of *this* variant, burning the pile, picking it up, the endgame and who
loses (or wins). Each :class:`Step` is one idea in two or three sentences with card pictures,
and a :class:`Question` asked *before* the answer is shown.

Nothing here decides a rule. Every position is built fresh for the variant and every answer is
the engine's: the moves a learner may tap are judged by :func:`tutor.engine.check`, who plays
next is ``check``'s ``next_player``, and the table shown after the move is
:func:`tutor.engine.apply`'s. A special rule's question is found by search: positions around the
rule's cards are tried, and the one kept is a position whose answer changes when the rule is
taken out of the variant (the engine judges it under both), so the question turns on the rule
it teaches.

>>> from tutor.rules.variant import load_variant
>>> steps = course(load_variant("lancaster"))
>>> [s.id for s in steps][:4]
['table', 'turn', 'beats', 'rule:twos-play-again']
>>> 8 <= len(steps) <= 12
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from tutor.core.cards import JOKER, JOKER_RANK, UNKNOWN, card_pretty, rank_index
from tutor.core.errors import NotationError, TutorError
from tutor.core.moves import FLIP, PICKUP, PLAY, Move
from tutor.core.table import Play, Player, Table
from tutor.engine import Verdict, apply, check, game_over, legal_moves, loser
from tutor.engine.words import move_words, number
from tutor.engine.words import said_as as said_claim
from tutor.rules.variant import SLOTS, Fragment, Variant, compile_variant, load_table
from tutor.teach.views import moves_to_try

MAX_STEPS = 12
NAMES = ("A", "B", "C")
Kind = Literal["moves", "next", "result"]

# What a fragment's powers make of it in the course: taught in a core step, or a step of its own.
_TABLE = {"deal", "packs", "jokers", "players", "setup"}
_PICKUP = {"pickup-choice", "after-pickup"}
_ENDGAME = {"face-up-pickup", "final-card-combo", "face-up-to-hand"}
_SAID = {"goal", "custom", "first-player"}  # said in a core step's words
_BURNS = {"burn", "four-burns", "four-anytime"}  # one step: burning the pile


@dataclass(frozen=True)
class Choice:
    """One answer a learner may tap: a move (``key`` is its notation) or a seat's name."""

    key: str
    label: str  # what the learner reads: card faces ("7♥ 7♠") or words ("Pick up the pile", "B")
    move: Move | None = None


@dataclass(frozen=True)
class Question:
    """A position and a question about it, with the engine's answer.

    ``kind``: "moves" (tap every card or move that is allowed), "next" (``move`` is played: who
    plays next?) or "result" (``move`` ends the game: who loses, or who wins?).
    """

    kind: Kind
    prompt: str
    table: Table
    choices: tuple[Choice, ...]
    answer: frozenset[str]  # the keys of the right choices
    move: Move  # the move shown after the answer: a right one, or the move asked about
    verdict: Verdict  # check() on ``move``
    after: Table  # the table after ``move``
    verdicts: tuple[Verdict | None, ...]  # check() on each choice's move (None for a seat)
    rules: tuple[str, ...]  # the fragments the answer turns on
    focus: tuple[str, ...] = ()  # choices the rule decides: their reasons are part of the answer
    seat: int | None = None  # whose view is shown (None: every card, as in a lesson)

    @property
    def multi(self) -> bool:
        return self.kind == "moves"

    @property
    def player(self) -> str:
        return self.table.player.name


@dataclass(frozen=True)
class Step:
    id: str
    title: str
    text: str  # one idea, two or three sentences: the tutor's own words or the fragments' summaries
    cards: tuple[int, ...]  # card pictures for the idea
    rules: tuple[str, ...]  # the fragments it teaches (their sources are cited beside it)
    question: Question


@dataclass(frozen=True)
class Feedback:
    right: bool
    head: str
    lines: tuple[str, ...]  # the engine's verdicts, as sentences


# -- words ------------------------------------------------------------------------------------

_THIRD = {"play": "plays", "pick": "picks", "turn": "turns", "swap": "swaps", "lay": "lays", "try": "tries",
          "slide": "slides", "call": "calls"}
_QUOTED = re.compile(r"'([^']+)'")
_WRITE = re.compile(r": write '[^']*'(?= *[.;,]|$)")
_CARD_FACE = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]|🂠")
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+")


def said(name: str, move: Move) -> str:
    """``'A plays an 8 (8♥)'``: a move told as something a player does."""
    verb, _, rest = move_words(move).partition(" ")
    return f"{name} {_THIRD.get(verb, verb)} {rest}".rstrip()


def plain_words(text: str) -> str:
    """An engine sentence with any move in notation ("for example 'play 9C'") said in words with
    card faces instead ("for example play a 9 (9♣)"), and without the notation hints written for
    the command line (": write 'pickup with CARD'")."""

    def words(m: re.Match[str]) -> str:
        try:
            return move_words(Move.parse(m.group(1)))
        except NotationError:
            return m.group(0)

    return _QUOTED.sub(words, _WRITE.sub("", text))


def word_count(text: str) -> int:
    """Words a person reads: card faces are pictures and do not count."""
    return len(_WORD.findall(_CARD_FACE.sub(" ", text)))


def choice_label(table: Table, move: Move) -> str:
    """A move as a learner taps it: card faces for a plain play (those from the face-up cards
    marked so), words for anything else."""
    p = table.player
    if move.kind == PLAY and move.give < 0 and move.claim < 0 and len({c >> 2 for c in move.cards}) == 1:
        hand = [c for c in move.cards if c in p.hand] if p.hand else list(move.cards)
        up = [c for c in move.cards if c not in hand]
        faces = " ".join(card_pretty(c) for c in hand)
        if up:
            faces = (faces + " + " if faces else "") + " ".join(card_pretty(c) for c in up) + " face up"
        return faces
    if move.kind == PLAY and move.give < 0 and move.claim >= 0:  # Bluff: the cards, and what they are said to be
        faces = " ".join(card_pretty(c) for c in move.cards)
        said_as = said_claim(move.claim, len(move.cards))
        where = " (face up)" if p.hand and not all(c in p.hand for c in move.cards) else ""
        return f"{faces}{where} as {said_as}"
    text = move_words(move)
    return text[0].upper() + text[1:]


def feedback(q: Question, picked: Iterable[str]) -> Feedback:
    """What the learner reads after answering: right or not, and the engine's verdict on the
    choice the rule decides (or on the move shown); after a wrong answer, the engine's verdict on
    every wrong tap and every right answer missed too."""
    picked = set(picked)
    right = picked == set(q.answer)
    order = [c.key for c in q.choices]
    by_key = {c.key: (c, v) for c, v in zip(q.choices, q.verdicts, strict=True)}
    if q.kind == "moves":
        good = [by_key[k][0].label for k in order if k in q.answer]
        head = "Right." if right else "Not quite: the answer is " + _listing(good) + "."
    else:
        who = next(iter(q.answer))
        what = f"{who} plays next" if q.kind == "next" else f"{who} {_result_verb(q)}"
        head = f"Right: {what}." if right else f"Not quite: {what}."
    first = q.focus[0] if q.focus and q.focus[0] != str(q.move) else None
    told = {first or str(q.move)}
    lines = [_reason_line(*by_key[first]) if first else plain_words(q.verdict.reason)]
    if q.kind == "moves":
        for key in order:
            if key in picked ^ set(q.answer) and key not in told:
                lines.append(_reason_line(*by_key[key]))
    return Feedback(right, head, tuple(lines))


def _reason_line(choice: Choice, verdict: Verdict | None) -> str:
    return f"{choice.label}: {plain_words(verdict.reason) if verdict else ''}"


def _result_verb(q: Question) -> str:
    return "loses" if q.prompt.endswith("loses?") else "wins"


def _listing(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def step_words(step: Step) -> int:
    """The words a learner reads in a step when answering right: the title, the idea, the
    question and its choices, and the answer (its headline and the engine's verdict). The tables
    are pictures and are not counted."""
    q = step.question
    right = feedback(q, q.answer)
    parts = [step.title, step.text, q.prompt, *(c.label for c in q.choices), right.head, *right.lines]
    return sum(word_count(p) for p in parts)


def reading_words(v: Variant, steps: Sequence[Step], game: WorkedGame | None = None) -> int:
    """The words a learner reads before the quiz: the line naming the rules taught, every step (as
    :func:`step_words` counts), the closing line and the note on the sample game offered there."""
    extra = [heading(v), END, game.note() if game else ""]
    return sum(step_words(s) for s in steps) + sum(word_count(t) for t in extra)


# -- tables -----------------------------------------------------------------------------------


class _Pack:
    """Cards of given ranks for a position, no card used more often than the packs hold."""

    SUITS = (2, 0, 1, 3)  # hearts, clubs, diamonds, spades

    def __init__(self, decks: int, jokers: int) -> None:
        self.decks, self.jokers = decks, jokers
        self.used: dict[int, int] = {}
        self.dealt = 0  # suits go round, so a hand is not all hearts

    def card(self, rank: int, *, red: bool | None = None) -> int:
        if rank == JOKER_RANK:
            if self.used.get(JOKER, 0) >= self.jokers:
                raise TutorError("no joker left")
            self.used[JOKER] = self.used.get(JOKER, 0) + 1
            return JOKER
        self.dealt += 1
        for k in range(4):
            s = self.SUITS[(self.dealt + k) % 4]
            c = rank * 4 + s
            if (red is None or (s in (1, 2)) == red) and self.used.get(c, 0) < self.decks:
                self.used[c] = self.used.get(c, 0) + 1
                return c
        raise TutorError(f"no card of rank {rank} left")

    def cards(self, ranks: Iterable[int]) -> tuple[int, ...]:
        return tuple(self.card(r) for r in ranks)


@dataclass(frozen=True)
class _Seat:
    hand: tuple[int, ...] = ()
    up: tuple[int, ...] = ()
    down: tuple[int, ...] = ()


UNSEEN3 = (UNKNOWN,) * 3


def _build(v: Variant, seats: Sequence[_Seat], pile: Sequence[tuple[int, ...]], *, stock: Sequence[int] = (),
           decks: int = 1) -> Table | None:
    """A table for the course with A to move: the pile's plays made by the players before A in
    turn (in Bluff, each claimed as what it is). None if the variant cannot hold it."""
    n = len(seats)
    players = tuple(Player(NAMES[s], tuple(sorted(x.hand)), tuple((c,) for c in x.up), x.down)
                    for s, x in enumerate(seats))
    plays = []
    for j, cards in enumerate(pile):
        by = (j - len(pile)) % n
        while players[by].out and by:
            by = (by - 1) % n
        plays.append(Play(tuple(cards), by, cards[0] >> 2 if v.bluff else -1))
    table = Table(players=players, pile=tuple(plays), stock=tuple(stock), turn=0, decks=decks)
    try:
        return load_table(table.to_dict(), v)
    except TutorError:
        return None


def _seats(v: Variant, me: _Seat, n: int) -> list[_Seat]:
    """A and the other players (their hands and face-down cards unseen)."""
    return [me, *(_Seat(UNSEEN3, (), UNSEEN3) for _ in range(n - 1))]


def without(v: Variant, ids: Iterable[str]) -> Variant:
    """``v`` with these fragments taken out: the game a rule's question must answer differently."""
    ids = set(ids)
    keep = tuple(f for f in v.fragments if f.id not in ids)
    return compile_variant(f"{v.id}-without-{'-'.join(sorted(ids))}", v.preset, keep)


@dataclass(frozen=True)
class _Ranks:
    """The ranks a variant leaves plain (no rule touches them), low to high, and its special ones."""

    plain: tuple[int, ...]
    special: tuple[int, ...]

    @staticmethod
    def of(v: Variant) -> _Ranks:
        plain = tuple(r for r in range(13) if not v.origin[r] and not v.transparent[r] and v.counts[r] == r)
        special = tuple(r for r in range(JOKER_RANK + 1) if v.origin[r] and (r < JOKER_RANK or v.jokers))
        return _Ranks(plain, special)

    @property
    def mid(self) -> int:
        return self.plain[len(self.plain) // 2]

    def below(self, r: int) -> list[int]:
        return [x for x in self.plain if x < r]

    def above(self, r: int) -> list[int]:
        return [x for x in self.plain if x > r]


# -- questions --------------------------------------------------------------------------------


def play_of(table: Table, v: Variant, cards: tuple[int, ...]) -> Move:
    """The move that plays exactly ``cards`` (in Bluff, saying truly what they are), as the engine
    lists it when it is legal; else that play all the same, for the engine to refuse."""
    rank = cards[0] >> 2
    want = Move(PLAY, tuple(sorted(cards)), claim=rank if v.bluff else -1)
    return next((m for m in legal_moves(table, v) if m == want), want)


def pickup_of(table: Table, v: Variant) -> Move:
    """The pickup the engine allows here (a face-up pickup may add a card), else a plain one."""
    return next((m for m in legal_moves(table, v) if m.kind == PICKUP), Move(PICKUP))


def deciding_rules(verdicts: Iterable[Verdict | None]) -> tuple[str, ...]:
    ids: list[str] = []
    for verdict in verdicts:
        if verdict is not None:
            ids += [f for f in verdict.rules if f not in ids]
    rest = [f for f in ids if f != "core"]
    return tuple(rest or ids)


def _blind(table: Table, m: Move) -> bool:
    return m.kind == FLIP and table.player.face_down[m.index - 1] == UNKNOWN


def moves_question(table: Table, v: Variant, moves: Sequence[Move], *, show: Move | None = None,
                   rules: Sequence[str] = (), focus: Sequence[Move] = (), seat: int | None = None) -> Question | None:
    """"Tap every card (or move) A may make": the engine judges each choice. None unless at least
    one choice is allowed and can be shown played."""
    moves = list(dict.fromkeys(moves))
    verdicts = tuple(check(table, v, m) for m in moves)
    legal = [m for m, vd in zip(moves, verdicts, strict=True) if vd.legal]
    shown = show if show in legal else next((m for m in legal if not _blind(table, m)), None)
    if shown is None:
        return None
    who = table.player.name
    choices = tuple(Choice(str(m), choice_label(table, m), m) for m in moves)
    cards_only = all(m.kind == PLAY and m.give < 0 and m.claim < 0 for m in moves)
    prompt = f"Tap every card {who} may play." if cards_only else f"Tap every move {who} may make."
    after, _ = apply(table, v, shown)
    return Question("moves", prompt, table, choices, frozenset(str(m) for m in legal), shown,
                    verdicts[moves.index(shown)], after, verdicts, tuple(rules) or deciding_rules(verdicts),
                    tuple(str(m) for m in focus if m in moves), seat)


def next_question(table: Table, v: Variant, move: Move, *, rules: Sequence[str] = (),
                  seat: int | None = None) -> Question | None:
    """"A plays X. Who plays next?": the engine's next player. None if the game ends or the
    answer turns on a card nobody has seen."""
    verdict = check(table, v, move)
    if not verdict.legal or verdict.next_player is None or _blind(table, move):
        return None
    after, _ = apply(table, v, move)
    choices = tuple(Choice(p.name, p.name) for p in table.players if not p.out)
    prompt = f"{said(table.player.name, move)}. Who plays next?"
    return Question("next", prompt, table, choices, frozenset({verdict.next_player}), move, verdict, after,
                    (None,) * len(choices), tuple(rules) or deciding_rules([verdict]), (), seat)


def result_question(table: Table, v: Variant, move: Move, *, rules: Sequence[str] = ()) -> Question | None:
    """"A plays the last card. Who loses?" (or "Who wins?"): the engine ends the game."""
    verdict = check(table, v, move)
    if not verdict.legal:
        return None
    after, _ = apply(table, v, move)
    if not game_over(after, v):
        return None
    if v.goal == "loser":
        who, ask = loser(after, v), "Who loses?"
    else:  # a winner-finding game ends when the first player goes out: that player wins
        gone = [q.name for p, q in zip(table.players, after.players, strict=True) if q.out and not p.out]
        who, ask = (gone[0] if gone else None), "Who wins?"
    if who is None:
        return None
    choices = tuple(Choice(p.name, p.name) for p in table.players if not p.out)
    prompt = f"{said(table.player.name, move)}, the last card. {ask}"
    return Question("result", prompt, table, choices, frozenset({who}), move, verdict, after,
                    (None,) * len(choices), tuple(rules) or deciding_rules([verdict]))


# -- a question that turns on a rule ------------------------------------------------------------


def _judged(table: Table, v: Variant, base: Variant, *, lies: bool = False) -> list[tuple[Move, bool, bool]]:
    """The moves worth offering here, each judged under ``v`` and under ``base`` (blind flips and
    the same move told twice left out). In Bluff a play says what its cards are; with ``lies``,
    also the lowest claim the cards may falsely make."""
    out: list[tuple[Move, bool, bool]] = []
    told: set[str] = set()
    lied: set[tuple[int, ...]] = set()
    for m in [*legal_moves(table, v), *_base_moves(table, base), *moves_to_try(table, v)]:
        words = move_words(m)
        if m.kind == FLIP or words in told:
            continue
        if v.bluff and m.kind == PLAY:
            honest = m.claim == m.cards[0] >> 2
            if m.claim < 0 or (not honest and (not lies or m.cards in lied)):
                continue
            if not honest:
                lied.add(m.cards)
        told.add(words)
        there = _base_check(table, base, m)
        out.append((m, check(table, v, m).legal, there is not None and there.legal))
    return out


def _base_moves(table: Table, base: Variant) -> list[Move]:
    try:
        return legal_moves(table, base)
    except TutorError:  # a table the baseline cannot judge (a joker it has no rule for)
        return []


def _base_check(table: Table, base: Variant, m: Move) -> Verdict | None:
    try:
        return check(table, base, m)
    except TutorError:
        return None


def _pick(judged: list[tuple[Move, bool, bool]], *, sets: bool = False) -> tuple[list[Move], list[Move]]:
    """Up to four choices: the fullest play the rule allows (one it does not allow without the
    rule) and one it refuses, then a plain legal and a plain illegal play to compare, then more
    the rule decides. Returns (the choices in the engine's order, those the rule decides)."""
    differ = [(m, here) for m, here, there in judged if here != there]
    yes = sorted((m for m, here in differ if here), key=lambda m: -len(m.cards) if sets else 0)
    no = [m for m, here in differ if not here]
    picked = yes[:1] + no[:1]
    plays = [(m, here) for m, here, there in judged if here == there and m.kind == PLAY and m.give < 0]
    others = [(m, here) for m, here, there in judged if here == there and (m.kind != PLAY or m.give >= 0)]
    for want in (True, False):
        extra = next((m for m, here in plays if here == want), None)
        if extra is None and not any(_legal_in(judged, m) == want for m in picked):
            extra = next((m for m, here in others if here == want), None)
        if extra is not None:
            picked.append(extra)
    for m in [*yes[1:], *no[1:]]:
        if len(picked) >= 3:
            break
        picked.append(m)
    picked = picked[:4]
    decided = [m for m in yes + no if m in picked]
    order = [m for m, _, _ in judged]
    return sorted(picked, key=order.index), decided


def _legal_in(judged: list[tuple[Move, bool, bool]], m: Move) -> bool:
    return next(here for mm, here, _ in judged if mm == m)


def _sensitive(table: Table, v: Variant, base: Variant, rules: Sequence[str], *, sets: bool = False,
               lies: bool = False) -> tuple[int, Question] | None:
    """The best question on ``table`` that turns on the rule (``v`` against ``base``, the variant
    without it), with its score: a "moves" question whose choices the rule decides, else a "next"
    question on a move after which another player moves than would without the rule."""
    judged = _judged(table, v, base, lies=lies)
    choices, decided = _pick(judged, sets=sets)
    if decided:
        legal = [m for m in choices if _legal_in(judged, m)]
        show = next((m for m in decided if _legal_in(judged, m)), legal[0] if legal else None)
        q = moves_question(table, v, choices, show=show, rules=rules, focus=decided)
        if q is not None:
            score = (4 * any(_legal_in(judged, m) for m in decided) + 2 * (len(legal) < len(choices))
                     + (len(choices) >= 3) - sum(m.kind != PLAY for m in choices))
            return score, q
    top = table.pile[-1].cards[-1] >> 2 if table.pile else -1
    for m, here, there in judged:
        if here and there and m.kind == PLAY and m.give < 0 and m.cards[0] >> 2 != top:
            ours, theirs = check(table, v, m), _base_check(table, base, m)
            if theirs is not None and ours.next_player and ours.next_player != theirs.next_player:
                nq = next_question(table, v, m, rules=rules)
                if nq is not None:  # with three players a skip or a reversal shows; with two it cannot
                    return min(len(table.in_play()), 3), nq
    return None


def _ranks_of(f: Fragment) -> list[int]:
    out: list[int] = []
    for spec in f.powers:
        if "rank" in spec:
            try:
                r = rank_index(str(spec["rank"]))
            except NotationError:
                continue
            if r not in out:
                out.append(r)
    return out


def _powers(frags: Iterable[Fragment]) -> set[str]:
    return {str(p.get("power")) for f in frags for p in f.powers}


def _positions(v: Variant, f: Fragment, n: int) -> Iterator[Table]:
    """Positions around the cards a rule concerns: its card on top of the pile over a plain card;
    its card in hand, on plain and on special tops; and, for rules about plays of several cards,
    such a play."""
    ranks = _Ranks.of(v)
    if len(ranks.plain) < 4:
        return
    decks = v.decks_for(n)
    mine = [r for r in _ranks_of(f) if r < JOKER_RANK or v.jokers]
    tops = sorted(ranks.plain, key=lambda t: (abs(t - ranks.mid), t))
    for r in mine:
        extra = [s for s in ranks.special if s != r][:1]
        for t in tops:  # the rule's card on the pile, over a plain card
            pack = _Pack(decks, v.jokers * decks)
            low, high = min(t, r), max(t, r)
            around = [xs[len(xs) // 2] for xs in (ranks.below(low), [x for x in ranks.plain if low < x < high],
                                                   ranks.above(high)) if xs]
            try:
                pile = [(pack.card(t),), (pack.card(r),)]
                hand = pack.cards([*around, r, *extra])
            except TutorError:
                continue
            if (table := _build(v, _seats(v, _Seat(hand, (), UNSEEN3), n), pile, decks=decks)) is not None:
                yield table
        for t in [*sorted(ranks.plain, reverse=True), *(s for s in ranks.special if s != r)]:  # in hand
            for red in (None, True):
                pack = _Pack(decks, v.jokers * decks)
                try:
                    pile = [(pack.card(t),)]
                    hand = (pack.card(r, red=red), *pack.cards(x for x in (ranks.plain[0], ranks.plain[-1]) if x != t))
                    stock = pack.cards(ranks.plain[1:4])
                except TutorError:
                    continue
                table = _build(v, _seats(v, _Seat(hand, (), UNSEEN3), n), pile, stock=stock, decks=decks)
                if table is not None:
                    yield table
    yield from _set_positions(v, _powers([f]), ranks, n, decks)


def _set_positions(v: Variant, powers: set[str], ranks: _Ranks, n: int, decks: int) -> Iterator[Table]:
    """Positions for rules about several cards at once: four of a kind, runs, pairs and triples,
    the last hand card with face-up cards, the stock, claims."""
    plain = ranks.plain
    lo, x, hi = plain[1], ranks.mid, plain[-2]
    two = max(decks, 2)
    if powers & {"four-burns", "four-anytime"}:
        pack = _Pack(two, v.jokers * two)  # three of a kind on the pile and the fourth in hand
        three = [(pack.card(x),), (pack.card(x),), (pack.card(x),)]
        table = _build(v, _seats(v, _Seat(pack.cards([x, lo, hi]), (), UNSEEN3), n), three, decks=two)
        if table is not None:
            yield table
        pack = _Pack(two, v.jokers * two)  # four of a kind in hand, on a higher card
        table = _build(v, _seats(v, _Seat(pack.cards([lo] * 4 + [x]), (), UNSEEN3), n), [(pack.card(hi),)],
                       decks=two)
        if table is not None:
            yield table
    if "runs" in powers and lo + 2 < 13:
        pack = _Pack(decks, v.jokers * decks)
        run = tuple(r * 4 + 2 for r in (lo, lo + 1, lo + 2))  # hearts
        pack.used.update(dict.fromkeys(run, pack.decks))
        table = _build(v, _seats(v, _Seat(run + (pack.card(plain[0]),), (), UNSEEN3), n), [(pack.card(lo),)],
                       decks=decks)
        if table is not None:
            yield table
    if powers & {"swap", "final-card-combo", "slide", "stock-gamble", "bluff", "rank-reversal"}:
        pack = _Pack(decks, v.jokers * decks)
        try:
            hand = pack.cards([x, x, x, lo])
            up = pack.cards([hi, plain[0]])
            others = [_Seat(UNSEEN3, (pack.card(plain[-1]),), UNSEEN3) for _ in range(n - 1)]
            pile = [(pack.card(plain[0]),)]
            stock = pack.cards([hi, lo])
            last = (pack.card(x),)
        except TutorError:
            return
        for me in (_Seat(hand, up, UNSEEN3), _Seat(hand[:1], last + up[1:], UNSEEN3)):
            table = _build(v, [me, *others], pile, stock=stock, decks=decks)
            if table is not None:
                yield table


def rule_question(v: Variant, fragments: Sequence[Fragment], positions: Sequence[Sequence[Table]] | None = None,
                  *, limit: int = 40) -> Question | None:
    """The best question whose answer turns on one of ``fragments``, judged by the engine under
    ``v`` and under ``v`` without that fragment. The positions are tried in groups (by default
    two players, then three: a smaller table is easier to read, and "who plays next?" needs three);
    a later group is tried only if the earlier ones gave no "tap the cards" question."""
    for f in fragments:
        base = without(v, [f.id])
        powers = _powers([f])
        sets, lies = bool(powers & {"four-anytime", "runs", "swap", "final-card-combo"}), "bluff" in powers
        groups = positions if positions is not None else [_positions(v, f, n) for n in seat_counts(v)]
        best: tuple[int, Question] | None = None
        for group in groups:
            for k, table in enumerate(group):
                if k >= limit or (best is not None and best[0] >= 7):
                    break
                found = _sensitive(table, v, base, (f.id,), sets=sets, lies=lies)
                if found is not None and (best is None or found[0] > best[0]):
                    best = found
            if best is not None and best[1].kind == "moves":
                break
        if best is not None:
            return best[1]
    return None


def seat_counts(v: Variant) -> list[int]:
    """The table sizes a course shows: two players where the variant allows, then three."""
    counts = [n for n in (2, len(NAMES)) if v.min_players <= n <= v.max_players]
    return counts or [v.min_players]


def table_players(v: Variant) -> int:
    """The players of a table where who plays next matters: three where the variant allows."""
    return seat_counts(v)[-1]


# -- the steps --------------------------------------------------------------------------------


def _cite(v: Variant, *settings: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(fid for s in settings if (fid := v.setting_origin(s))))


def _required(q: Question | None, step: str) -> Question:
    if q is None:
        raise TutorError(f"the course's {step!r} step finds no position this variant can hold")
    return q


def _table_step(v: Variant, n: int, ranks: _Ranks) -> Step:
    down, up, hand = number(v.down), number(v.up), number(v.hand)
    lay = (f"{down} cards face down, {up} face up on them and {hand} in hand" if v.up
           else f"{down} cards face down and {hand} in hand")
    setup = v.fragment_for_slot("setup")
    how = ("Before play you may swap hand and face-up cards." if v.setup == "swap"
           else setup.summary if setup is not None else "")
    order = ("Play your hand, then face-up cards, then face-down ones blind."
             if v.up or v.setup_count else "Play your hand, then face-down cards blind.")
    text = " ".join(w for w in (f"Each player gets {lay}.", how, order) if w)
    decks = v.decks_for(n)
    pack = _Pack(decks, v.jokers * decks)
    lo, hi = ranks.plain[1], ranks.plain[-1]
    up_cards = pack.cards([hi]) if v.up or v.setup_count else ()
    me = _Seat(pack.cards([lo, ranks.mid]), up_cards, (UNKNOWN,) * max(v.down, 1))
    table = _build(v, _seats(v, me, n), [], stock=pack.cards(ranks.plain[2:5]), decks=decks)
    q = None
    if table is not None:
        p = table.player
        moves = [play_of(table, v, p.hand[:1]), *(play_of(table, v, (c,)) for c in p.face_up_cards[:1]),
                 Move(FLIP, (), 1)]
        q = moves_question(table, v, moves, rules=("core",))
    rules = tuple(f.id for f in v.fragments if f.slot in ("deal", "packs", "setup")) + ("core",)
    return Step("table", "The table", text, (), rules, _required(q, "table"))


_STARTS = {
    "lowest-card-leads": "The lowest card (a 3, else a 4...) starts the game.",
    "first-three-face-up": "The first 3 face up starts the game (else a 3 in hand, then a 4...).",
    "left-of-dealer": "The player on the dealer's left starts.",
}


def _turn_step(v: Variant, n: int, ranks: _Ranks) -> Step:
    draw = f", then draw from the stock back up to {number(v.refill)}" if v.refill else ""
    text = (f"Play one card, or several of one rank{draw}. "
            f"Play goes clockwise. {_STARTS.get(v.first_player, '')}").strip()
    decks = v.decks_for(n)
    pack = _Pack(decks, v.jokers * decks)
    plain = ranks.plain
    me = _Seat(pack.cards([ranks.above(ranks.mid)[0], plain[0], plain[-1]]), (), UNSEEN3)
    table = _build(v, _seats(v, me, n), [(pack.card(plain[2]),)], stock=pack.cards(plain[3:6]), decks=decks)
    q = None
    if table is not None:
        q = next_question(table, v, play_of(table, v, (table.player.hand[1],)), rules=("core",))
    return Step("turn", "Your turn", text, (), _cite(v, "first_player") + ("core",), _required(q, "turn"))


def _beats_step(v: Variant, n: int, ranks: _Ranks) -> Step:
    text = ("Cards rank from 2 (low) to ace (high); suits do not matter. Play a card as high as the top "
            "one or higher; anything starts an empty pile.")
    decks = v.decks_for(n)
    pack = _Pack(decks, v.jokers * decks)
    t = ranks.mid
    below, above = ranks.below(t), ranks.above(t)
    table = _build(v, _seats(v, _Seat(pack.cards([below[len(below) // 2], t, above[0], above[-1]]), (), UNSEEN3), n),
                   [(pack.card(t),)], decks=decks)
    q = None
    if table is not None:
        q = moves_question(table, v, [play_of(table, v, (c,)) for c in table.player.hand], rules=("core",))
    return Step("beats", "What beats what", text, pack.cards([0, 5, 9, 12]), ("core",), _required(q, "beats"))


def _rule_step(v: Variant, frags: Sequence[Fragment], ranks: _Ranks, title: str = "") -> Step | None:
    q = rule_question(v, frags)
    if q is None:
        return None
    pack = _Pack(4, 4)
    cards = [pack.card(r) for g in frags for r in _ranks_of(g) if r < JOKER_RANK or v.jokers]
    if not cards and _powers(frags) & {"four-burns", "four-anytime"}:
        cards = list(pack.cards([ranks.mid] * 4))
    title = title or " · ".join(g.title for g in frags)
    return Step("rule:" + "+".join(g.id for g in frags), title, " ".join(g.summary for g in frags),
                tuple(dict.fromkeys(cards)), tuple(g.id for g in frags), q)


_AFTER_PICKUP = {"next": "Then the next player starts a new pile.",
                 "same": "Then you start a new pile.",
                 "previous": "Then whoever played just before you starts the new pile."}


def _pickup_step(v: Variant, ranks: _Ranks) -> Step:
    rules = _cite(v, "voluntary_pickup", "after_pickup") or tuple(f.id for f in v.fragments if f.slot == "bluff")
    if v.bluff:
        text = ("You never take the pile at will: it goes to whoever loses a call, and the caller plays on "
                "if the call was right.")
    else:
        choice = ("You may also take it when you could play." if v.voluntary_pickup
                  else "If you can play, you must.")
        text = f"Cannot play? Take the whole pile into your hand. {choice} {_AFTER_PICKUP[v.after_pickup]}"
    plain = ranks.plain
    groups: list[list[Table]] = []
    for seats in seat_counts(v):
        decks = v.decks_for(seats)
        group = []
        for hand in ([plain[0], plain[-1]], [plain[0], plain[1]]):
            pack = _Pack(decks, v.jokers * decks)
            table = _build(v, _seats(v, _Seat(pack.cards(hand), (), UNSEEN3), seats),
                           [(pack.card(plain[1]),), (pack.card(ranks.mid),)], stock=pack.cards(plain[2:5]),
                           decks=decks)
            if table is not None:
                group.append(table)
        groups.append(group)
    q = rule_question(v, [v.fragment(fid) for fid in rules], groups)
    if q is None and groups[0]:  # nothing here differs from the plain game: ask about the plain case
        table = groups[0][0]
        moves = [play_of(table, v, (c,)) for c in table.player.hand] + [pickup_of(table, v)]
        q = moves_question(table, v, moves, rules=rules or ("core",))
    return Step("pickup", "Taking the pile", text, (), rules or ("core",), _required(q, "pickup"))


def _endgame_step(v: Variant, n: int, ranks: _Ranks) -> Step:
    frags = [f for f in v.fragments if _powers([f]) & _ENDGAME]
    blind = "the face-down ones blind, one a turn; one that cannot go is picked up with the pile."
    parts = []
    if any("face-up-to-hand" in _powers([f]) for f in frags):
        parts = [f.summary for f in frags]
    elif v.up or v.setup_count:
        parts = [f"Hand and stock gone? Play your face-up cards, then {blind}"]
        if v.face_up_pickup_adds:
            parts.append(f"To take the pile then, add {number(v.face_up_pickup_adds)} of them to it first.")
        parts += [f.summary for f in frags if not _powers([f]) & {"face-up-pickup"}]
    else:
        parts = [f"Hand and stock gone? Play {blind}", *(f.summary for f in frags)]
    decks = v.decks_for(n)
    plain = ranks.plain
    tables = []
    for combo in (False, True):
        pack = _Pack(decks, v.jokers * decks)
        pile = [(pack.card(plain[1]),), (pack.card(ranks.mid),)]
        me = (_Seat(pack.cards([plain[-1]]), pack.cards([plain[-1], plain[0]]), UNSEEN3) if combo
              else _Seat((), pack.cards([plain[0], plain[-1]]), UNSEEN3))
        if (table := _build(v, _seats(v, me, n), pile, decks=decks)) is not None:
            tables.append(table)
    q = rule_question(v, frags, [tables])
    if q is None and tables:
        p = tables[0].player
        moves = [play_of(tables[0], v, (c,)) for c in p.face_up_cards or p.hand]
        q = moves_question(tables[0], v, [*moves, pickup_of(tables[0], v), Move(FLIP, (), 1)], rules=("core",))
    return Step("endgame", "The endgame", " ".join(parts), (UNKNOWN,),
                (*(f.id for f in frags), "core"), _required(q, "endgame"))


def _goal_step(v: Variant, ranks: _Ranks) -> Step:
    if v.goal == "loser":
        text = "Out of cards, you are out. The last player holding cards loses: the shithead."
    else:
        text = "The first player to get rid of all their cards wins, and the game ends there."
    decks = v.decks_for(2)
    pack = _Pack(decks, v.jokers * decks)
    seats = [_Seat(pack.cards([ranks.plain[-1]]), (), ()), _Seat((UNKNOWN,) * 2, (), (UNKNOWN,) * 2)]
    table = _build(v, seats, [(pack.card(ranks.mid),)], decks=decks)
    q = None
    if table is not None:
        q = result_question(table, v, play_of(table, v, table.player.hand), rules=_cite(v, "goal"))
    return Step("goal", "Who loses" if v.goal == "loser" else "Who wins", text, (), _cite(v, "goal") or ("core",),
                _required(q, "goal"))


def _rule_groups(v: Variant) -> tuple[list[list[Fragment]], list[Fragment]]:
    """The fragments that get a step of their own, in rulebook order (each special card, plays of
    several cards, claims), and those that burn the pile (one step together)."""
    own: list[list[Fragment]] = []
    burns: list[Fragment] = []
    for f in sorted(v.fragments, key=lambda f: SLOTS.index(f.slot) if f.slot in SLOTS else len(SLOTS)):
        powers = _powers([f])
        if f.slot == "core" or not powers or powers <= _TABLE | _PICKUP | _ENDGAME | _SAID:
            continue
        if powers & _BURNS:
            burns.append(f)
        else:
            own.append([f])
    own.sort(key=lambda g: "bluff" not in _powers(g))  # claims change every play: first
    return own, burns


def course(v: Variant) -> list[Step]:
    """The steps of the course for ``v``, at most twelve, in the order a newcomer needs them.

    Raises TutorError if a core step finds no position the variant can hold (every preset has
    its course; a variant with almost no plain ranks left might not).
    """
    n, small = table_players(v), seat_counts(v)[0]
    ranks = _Ranks.of(v)
    if len(ranks.plain) < 4:
        raise TutorError(f"{v.id}: the course needs four ranks no rule changes, and this variant has "
                         f"{len(ranks.plain)}")
    head = [_table_step(v, small, ranks), _turn_step(v, n, ranks), _beats_step(v, small, ranks)]
    own, burns = _rule_groups(v)
    specials = [s for g in own if (s := _rule_step(v, g, ranks)) is not None]
    burn = _rule_step(v, burns, ranks, "Burning the pile" if len(burns) > 1 else "") if burns else None
    if burn is not None:
        specials.insert(1 if specials and specials[0].rules[0] != "bluff" else 2, burn)
    tail = [_pickup_step(v, ranks), _endgame_step(v, small, ranks), _goal_step(v, ranks)]
    room = MAX_STEPS - len(head) - len(tail)
    first = 1 + (burn is not None)  # the first special card and the burns keep a step of their own
    while len(specials) > room and len(specials) - first >= 2:
        # two special cards share a step: the neighbours with the fewest words between them
        k = min(range(first, len(specials) - 1), key=lambda i: step_words(specials[i]) + step_words(specials[i + 1]))
        specials[k:k + 2] = [_merge(specials[k], specials[k + 1])]
    return head + specials + tail


def _merge(s: Step, t: Step) -> Step:
    return Step(f"{s.id}+{t.id.removeprefix('rule:')}", f"{s.title} · {t.title}", f"{s.text} {t.text}",
                s.cards + t.cards, s.rules + t.rules, s.question)


END = "That is the game. Now test yourself."


def heading(v: Variant) -> str:
    """The line above the course: which rules it teaches (on a phone the sidebar is folded away)."""
    return f"Teaching {v.id}: other rules are in the sidebar."


@dataclass(frozen=True)
class WorkedGame:
    """A sample game to watch after the course, and how its rules differ from the learner's."""

    id: str
    title: str
    variant: str
    differences: tuple[tuple[str, str, str], ...]  # (slot, the game's rule, yours), titles; "" for none

    def note(self) -> str:
        """Which rules the game is played under, said honestly."""
        if not self.differences:
            return f"Played under {self.variant}: your rules."
        diffs = "; ".join(mine or f"not: {theirs}" for _, theirs, mine in self.differences)
        return f"Played under {self.variant}, not all your rules. Yours differ in: {diffs}."


def worked_game(v: Variant) -> WorkedGame | None:
    """The sample game whose rules are closest to ``v`` (the Lancaster example first among equals)."""
    from tutor.play.records import record_catalogue

    def differences(other: Variant) -> tuple[tuple[str, str, str], ...]:
        ours = {f.slot: f for f in v.fragments}
        theirs = {f.slot: f for f in other.fragments}
        slots = [s for s in SLOTS if s in ours or s in theirs] + sorted((set(ours) | set(theirs)) - set(SLOTS))
        return tuple((s, theirs[s].title if s in theirs else "", ours[s].title if s in ours else "")
                     for s in slots if (theirs.get(s) and theirs[s].id) != (ours.get(s) and ours[s].id))

    try:
        records = list(record_catalogue().values())
    except TutorError:
        return None
    if not records:
        return None
    best = min(records, key=lambda r: len(differences(r.variant)))
    return WorkedGame(best.id, best.title, best.variant.id, differences(best.variant))


def agrees(q: Question, v: Variant) -> bool:
    """Does what the learner is shown agree with the engine under ``v`` now? (Every choice's
    verdict, the right answers, the next player or the result, and the table after the move.)"""
    if q.verdict != check(q.table, v, q.move) or q.after != apply(q.table, v, q.move)[0]:
        return False
    if q.kind == "moves":
        verdicts = [check(q.table, v, c.move) for c in q.choices if c.move is not None]
        return (len(verdicts) == len(q.choices) and tuple(verdicts) == q.verdicts
                and q.answer == {c.key for c, vd in zip(q.choices, verdicts, strict=True) if vd.legal})
    if q.kind == "next":
        return q.verdict.legal and q.answer == {q.verdict.next_player}
    if v.goal == "loser":
        return game_over(q.after, v) and q.answer == {loser(q.after, v)}
    return game_over(q.after, v) and q.answer == {q.player} and q.after.players[q.table.turn].out


def step_for(steps: Sequence[Step], rules: Iterable[str]) -> int:
    """The index of the step that teaches the first of ``rules`` it knows (the "what beats what"
    step for the core of the game)."""
    for fid in rules:
        for k, s in enumerate(steps):
            if fid in s.rules and (fid != "core" or s.id == "beats"):
                return k
    return next((k for k, s in enumerate(steps) if s.id == "beats"), 0)
