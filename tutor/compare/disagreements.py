"""Where the verdicts differ: positions from seeded games where the same move is legal in one
variant and not in another, or is legal in all but sets off different events (a burn, a
reversal, playing again, a draw) or hands the turn to a different player. One example per
kind of difference, shrunk to the fewest cards that still show it (:func:`find_disagreements`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tutor.compare.common import and_list, column_names
from tutor.compare.games import engine_game, event_origin, make_bots, move_class, rotated_start
from tutor.core.cards import JOKER
from tutor.core.moves import FLIP, Move
from tutor.core.share import encode_question
from tutor.core.table import Play, Table
from tutor.engine import DRAW, Verdict, check, is_legal, judge, legal_moves, position
from tutor.rules.variant import Variant

LEGALITY, EVENTS, NEXT = "legality", "events", "next-player"
KIND_WORDS = {
    LEGALITY: "legal in one, not in another",
    EVENTS: "legal in all, but what happens differs",
    NEXT: "legal in all, but a different player moves next",
}


@dataclass(frozen=True)
class Disagreement:
    """A position and a move the variants judge differently."""

    kind: str
    table: Table
    move: Move
    variants: tuple[str, ...]  # column names (variant ids)
    verdicts: tuple[Verdict, ...]  # one per variant
    deciders: tuple[tuple[str, ...], ...]  # per variant: the fragments behind its answer

    @property
    def size(self) -> int:
        return len(self.table.all_cards())

    def title(self) -> str:
        """What decides, in a few words: the fragments that differ."""
        common = set.intersection(*(set(d) for d in self.deciders))
        parts = []
        for name, d in zip(self.variants, self.deciders, strict=True):
            own = [f for f in d if f not in common and f != "core"]
            parts.append(f"{name}: {', '.join(own) if own else 'the natural order'}")
        return "; ".join(parts)

    def summary(self) -> str:
        """One sentence: who says what."""
        move = f"'{self.move}'"
        vs = list(zip(self.variants, self.verdicts, strict=True))
        if self.kind == LEGALITY:
            yes = [n for n, x in vs if x.legal]
            no = [n for n, x in vs if not x.legal]
            return f"{move} is legal in {and_list(yes)} but not in {and_list(no)}."
        if self.kind == EVENTS:
            who = self.table.player.name
            bits = [f"in {n}, {_events_words(x.events, who)}" for n, x in vs]
            return f"{move} is legal in all; what follows differs: {'; '.join(bits)}."
        bits = [f"{x.next_player} in {n}" for n, x in vs]
        return f"{move} is legal in all, but the next to move differs: {', '.join(bits)}."

    def question(self) -> str:
        """The position and the move, packed for a link to the "Is this move legal?" page."""
        return encode_question(self.table.to_dict(), str(self.move))

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "summary": self.summary(), "decided_by": self.title(),
            "table": self.table.to_dict(), "move": str(self.move),
            "verdicts": {n: x.to_json() for n, x in zip(self.variants, self.verdicts, strict=True)},
            "question": self.question(),
        }


_EVENT_WORDS = {"burn": "the pile burns", "reverse": "play reverses", "skip": "the next player is skipped",
                "play_again": "{who} plays again", "pickup": "{who} takes the pile", "draw": "{who} draws",
                "out": "{who} is out", "game_over": "the game ends"}


def _events_words(events: Sequence[str], who: str) -> str:
    """Events in words: ``['pickup', 'play_again']`` -> 'B takes the pile, B plays again'."""
    if not events:
        return "nothing more happens"
    return ", ".join(_EVENT_WORDS.get(e, e).format(who=who) for e in events)


@dataclass(frozen=True)
class _Outcome:
    legal: bool
    events: tuple[str, ...]
    next_seat: int  # -1: the game is over


def _outcome(table: Table, v: Variant, move: Move) -> _Outcome:
    if not is_legal(table, v, move):
        return _Outcome(False, (), -1)
    pos = position(table, v)  # a copy to push on: no table is needed for the outcome
    events = pos.push(move)
    return _Outcome(True, tuple(events), -1 if pos.over() else pos.turn)


# Events that follow from the position more than from a rule: a difference in them alone is
# shown (the hand refilled to a different size), but not when a rule's own event differs too.
_INCIDENTAL = frozenset({DRAW, "out", "game_over"})


@dataclass(frozen=True)
class Judged:
    kind: str
    key: tuple[Any, ...]  # the kind of difference: examples with the same key show the same thing
    clear: bool  # the next player differs too (a clearer example)
    quiet: bool  # nobody goes out with the move (a clearer example)
    deciders: tuple[tuple[str, ...], ...]

    @property
    def rank(self) -> tuple[bool, bool]:
        return not self.clear, not self.quiet


def judge_all(table: Table, variants: Sequence[Variant], move: Move,
              differing: frozenset[str]) -> Judged | None:
    """How the variants' answers on ``move`` differ (None if they agree).

    ``differing`` are the fragments not in every variant: only they can make a difference,
    and the key names those that decided it.
    """
    outs = [_outcome(table, v, move) for v in variants]
    if len(set(outs)) <= 1:
        return None
    legal = tuple(o.legal for o in outs)
    quiet = not any("out" in o.events for o in outs)
    if len(set(legal)) > 1:
        judged = tuple(tuple(dict.fromkeys(judge(table, v, move)[1])) for v in variants)
        found = frozenset(f for d in judged for f in d if f in differing)
        key: tuple[Any, ...] = (LEGALITY, legal, found or frozenset(f for d in judged for f in d))
        return Judged(LEGALITY, key, False, quiet, judged)
    common = set.intersection(*(set(o.events) for o in outs))
    shown = {e for o in outs for e in o.events} - common
    primary = shown - _INCIDENTAL or shown
    kind = EVENTS if shown else NEXT
    deciders = []
    for v in variants:
        origins = [o for e in sorted(primary) if (o := event_origin(v, table, move, e))]
        deciders.append(tuple(dict.fromkeys(origins or check(table, v, move).rules)))
    found = frozenset(f for d in deciders for f in d if f in differing)
    key = (kind, frozenset(primary), found or frozenset(f for d in deciders for f in d))
    clear = len({o.next_seat for o in outs}) > 1 and all(o.next_seat >= 0 for o in outs)
    return Judged(kind, key, clear, quiet, tuple(deciders))


def _comparable(table: Table, variants: Sequence[Variant]) -> bool:
    """Is the position possible in every variant (no jokers where a pack has none)?"""
    jokers = sum(1 for c in table.all_cards() if c == JOKER)
    return all(jokers <= table.decks * v.jokers for v in variants)


def common_pack(variants: Sequence[Variant]) -> int | None:
    """A number of players at which every variant deals from the same number of packs
    (positions are then possible in all of them): 3 if it suits, else the nearest; None if none."""
    lo = max(v.min_players for v in variants)
    hi = min(v.max_players for v in variants)
    for n in sorted(range(lo, hi + 1), key=lambda k: (abs(k - 3), k)):
        if len({v.decks_for(n) for v in variants}) == 1:
            return n
    return None


def search_note(variants: Sequence[Variant]) -> str:
    """Where the positions of :func:`find_disagreements` come from, and what it must leave out."""
    n = common_pack(variants)
    if n is None:
        return ("These variants never deal from the same number of packs at a number of players they "
                "share, so a position of one is not a position of the others: none is compared.")
    bits = [f"Positions from seeded {n}-player games of each variant, tried with every legal move of any."]
    without = [v.id for v in variants if v.jokers == 0]
    if without and len(without) < len(variants):
        bits.append(f"Positions holding a joker are left out ({and_list(without)} has no jokers).")
    return " ".join(bits)


Best = dict[tuple[Any, ...], tuple[tuple[bool, bool, int], Table, Move]]  # key -> (rank, table, move)


@dataclass(frozen=True)
class Search:
    """What a search for disagreeing positions asks (see :func:`find_disagreements`)."""

    variants: tuple[Variant, ...]
    games: int = 6
    seed: int = 0
    players: int | None = None
    bot: str = "playful"
    max_positions: int = 120

    @property
    def seats(self) -> int | None:
        return self.players if self.players is not None else common_pack(self.variants)


def search_positions(search: Search, source: int, *, deadline: float | None = None) -> tuple[Best, bool]:
    """The clearest and smallest position for each kind of difference, in the games of
    ``search.variants[source]``; and whether every game was searched before ``deadline``
    (a :func:`time.time`)."""
    variants = search.variants
    n_players = search.seats
    best: Best = {}
    if n_players is None:
        return best, True
    differing = differing_fragments(variants)
    late = False

    def visit(table: Table) -> None:
        nonlocal late
        if late or (deadline is not None and time.time() > deadline):
            late = True
            return
        if not _comparable(table, variants):
            return
        tried: set[tuple[object, ...]] = set()
        size = len(table.all_cards())
        for v in variants:
            for m in legal_moves(table, v):
                c = move_class(m)
                if m.kind == FLIP or c in tried:
                    continue
                tried.add(c)
                got = judge_all(table, variants, m, differing)
                if got is None:
                    continue
                rank = (*got.rank, size)
                old = best.get(got.key)
                if old is None or rank < old[0]:
                    best[got.key] = (rank, table, m)

    bots = make_bots(search.bot, n_players)
    v = variants[source]
    for g in range(search.games):
        if late:
            break
        table = rotated_start(v, n_players, search.seed + g, 0)
        engine_game(v, table, search.seed + g, bots, on_position=visit, max_turns=search.max_positions)
    return best, not late


def merge_positions(found: Iterable[Best]) -> Best:
    """The searches of each variant's games taken together, in order, as one search would keep
    them (the first of the clearest and smallest for each key)."""
    best: Best = {}
    for part in found:
        for key, entry in part.items():
            old = best.get(key)
            if old is None or entry[0] < old[0]:
                best[key] = entry
    return best


def chosen_keys(best: Best) -> list[tuple[Any, ...]]:
    """The keys worth showing (:func:`_simplest`), in the order they were found."""
    return _simplest(best)


def disagreement(variants: Sequence[Variant], key: tuple[Any, ...], entry: tuple[tuple[bool, bool, int], Table, Move],
                 *, shrink: bool = True, deadline: float | None = None) -> Disagreement:
    """The example kept for ``key``, cut down (with ``shrink``, until ``deadline``) to the fewest
    cards that still show the same difference."""
    differing = differing_fragments(variants)
    (unclear, loud, _), table, move = entry
    if shrink:
        table, move = _shrink(table, move, variants, key, differing, keep=(unclear, loud), deadline=deadline)
    got = judge_all(table, variants, move, differing)
    if got is None or got.key != key:  # cannot happen: shrinking keeps the key
        raise AssertionError(f"{key!r} lost while shrinking")
    verdicts = tuple(check(table, v, move) for v in variants)
    return Disagreement(got.kind, table, move, tuple(column_names(variants)), verdicts, got.deciders)


def in_order(found: Iterable[Disagreement]) -> list[Disagreement]:
    """One example per position and move (two keys may shrink to one), by kind, then size."""
    out: dict[tuple[str, str], Disagreement] = {}
    for d in found:
        out.setdefault((str(d.move), _table_key(d.table)), d)
    kinds = (LEGALITY, EVENTS, NEXT)
    return sorted(out.values(), key=lambda d: (kinds.index(d.kind), d.size, d.title(), str(d.move)))


def find_disagreements(
    variants: Sequence[Variant], *, games: int = 6, seed: int = 0, players: int | None = None,
    bot: str = "playful", max_positions: int = 120, shrink: bool = True,
) -> list[Disagreement]:
    """Positions from seeded games of each variant where the verdicts on a move differ.

    Every position of ``games`` games of each variant (the first ``max_positions`` of each
    game) is tried with every legal move of any variant (one move per :func:`move_class`;
    flips, whose outcome is the placement of the turned card, are left out). Differences are
    kept one per kind (legality, events, next player) and deciding rules: the clearest (the
    next player differs too) and smallest table of each; with ``shrink`` each is then cut
    down, card by card, to the fewest cards that still show the same difference. Sorted by
    kind, then size. Positions are drawn at a number of players where all variants use the
    same packs (see :func:`common_pack`); if there is none, nothing is found.

    The same search in parts (each variant's games, then each example's shrinking, as a
    process pool runs it): :func:`search_positions`, :func:`merge_positions`,
    :func:`chosen_keys`, :func:`disagreement`, :func:`in_order`.
    """
    search = Search(tuple(variants), games, seed, players, bot, max_positions)
    best = merge_positions(search_positions(search, k)[0] for k in range(len(variants)))
    return in_order(disagreement(variants, key, best[key], shrink=shrink) for key in chosen_keys(best))


def _simplest(found: Iterable[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The keys whose deciding rules do not merely add to another's of the same kind and
    pattern (an 8 looked through on top of a 9's limit shows nothing the two alone do not)."""
    keys = list(found)
    return [k for k in keys if not any(o[:2] == k[:2] and o[2] < k[2] for o in keys)]


def differing_fragments(variants: Sequence[Variant]) -> frozenset[str]:
    """The fragments some of the variants have and others lack."""
    sets = [frozenset(f.id for f in v.fragments) for v in variants]
    every = sets[0].intersection(*sets[1:])
    return sets[0].union(*sets[1:]) - every


def _table_key(table: Table) -> str:
    return repr(table.to_dict())


# -- shrinking an example -------------------------------------------------------------------


def _shrink(table: Table, move: Move, variants: Sequence[Variant], key: tuple[Any, ...],
            differing: frozenset[str], *, keep: tuple[bool, bool],
            deadline: float | None = None) -> tuple[Table, Move]:
    """Remove what the difference does not need: players, plays, cards, one at a time,
    keeping the key and the example's clarity (``keep``: its :attr:`Judged.rank`)."""

    def same(t: Table, m: Move) -> bool:
        if not _valid(t, variants):
            return False
        got = judge_all(t, variants, m, differing)
        return got is not None and got.key == key and got.rank <= keep

    changed = True
    while changed and (deadline is None or time.time() < deadline):
        changed = False
        for t, m in _candidates(table, move):
            if same(t, m):
                table, move = t, m
                changed = True
                break
    return table, move


def _valid(t: Table, variants: Sequence[Variant]) -> bool:
    """A smaller table (cards only ever removed) that is still a game in progress."""
    return (len(t.players) >= 2 and not t.players[t.turn].out
            and sum(1 for p in t.players if not p.out) >= 2 and _comparable(t, variants))


def _candidates(table: Table, move: Move) -> Iterable[tuple[Table, Move]]:
    """Smaller versions of the position, biggest cuts first."""
    if table.burned:
        yield replace(table, burned=()), move
    if table.stock:
        yield replace(table, stock=()), move
        if len(table.stock) > 1:
            yield replace(table, stock=table.stock[: len(table.stock) // 2]), move
            yield replace(table, stock=table.stock[:-1]), move
    for s in range(len(table.players)):
        if s != table.turn:
            yield _drop_player(table, s), move
    for k in range(len(table.pile)):
        yield replace(table, pile=table.pile[:k] + table.pile[k + 1:]), move
    for k, play in enumerate(table.pile):
        if len(play.cards) > 1:
            for c in sorted(set(play.cards)):
                cards = list(play.cards)
                cards.remove(c)
                pile = table.pile[:k] + (Play(tuple(cards), play.by, play.claim),) + table.pile[k + 1:]
                yield replace(table, pile=pile), move
    keep = Counter(move.cards)
    for s, p in enumerate(table.players):
        mover = s == table.turn
        if not mover and p.n_cards <= 1:
            continue
        for j in range(len(p.face_down)):
            if mover and move.kind == FLIP and j == move.index - 1:
                continue
            m = move
            if mover and move.kind == FLIP and j < move.index - 1:
                m = replace(move, index=move.index - 1)
            yield table.with_player(s, replace(p, face_down=p.face_down[:j] + p.face_down[j + 1:])), m
        for c in sorted(set(p.face_up_cards)):
            if mover and keep[c] and Counter(p.face_up_cards)[c] + Counter(p.hand)[c] <= keep[c]:
                continue
            stacks = [list(st_) for st_ in p.face_up]
            for st_ in stacks:
                if c in st_:
                    st_.remove(c)
                    break
            up = tuple(tuple(st_) for st_ in stacks if st_)
            yield table.with_player(s, replace(p, face_up=up)), move
        for c in sorted(set(p.hand)):
            if mover and keep[c] and Counter(p.hand)[c] + Counter(p.face_up_cards)[c] <= keep[c]:
                continue
            hand = list(p.hand)
            hand.remove(c)
            yield table.with_player(s, replace(p, hand=tuple(hand))), move


def _drop_player(table: Table, s: int) -> Table:
    players = table.players[:s] + table.players[s + 1:]

    def seat(b: int) -> int:
        return -1 if b == s or b < 0 else (b - 1 if b > s else b)

    pile = tuple(Play(p.cards, seat(p.by), p.claim) for p in table.pile)
    return replace(table, players=players, pile=pile, turn=seat(table.turn))
