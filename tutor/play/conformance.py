"""The conformance run: whole seeded games with every invariant checked after every move.

After each move: no card was created or lost; every move ``legal_moves`` lists is legal
by the judge that ``check`` uses; random other moves are legal exactly when listed; the
player to move has cards; ``check`` and ``apply`` agree on the chosen move's events and
next player; the table reads back from its table file as it was. Each game ends or is
declared stalled. Where other players may move out of turn (a 3 slid by anyone, Nortenos'
threes-slide), every such move listed checks legal, unlisted ones check illegal, and one of
them, applied beside the game, keeps the cards and the turn (the games themselves ignore them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from tutor.core.cards import RUN_CLAIM, claim_count, claim_for, claim_top, count_claim, run_claim
from tutor.core.moves import CALL, FLIP, GAMBLE, PICKUP, PLAY, SLIDE, SWAP, Move
from tutor.core.table import Table, table_from_dict
from tutor.engine import apply_unchecked, check, count_lie, game_over, is_legal, legal_moves
from tutor.play.game import Bot, EpsilonBot, play_game
from tutor.rules.variant import Variant, load_variant


@dataclass
class Report:
    games: int = 0
    moves: int = 0
    stalled: int = 0
    problems: list[str] = field(default_factory=list)


def _candidates(table: Table, rng: random.Random, k: int = 3, *, bluff: bool = False) -> list[Move]:
    """Moves worth trying, legal or not: cards from every zone, pickups, flips, swaps, gambles;
    in Bluff, runs and count lies too."""
    p = table.player
    other = table.players[(table.turn + 1) % len(table.players)]
    pool = list(p.hand) + list(p.face_up_cards) + list(other.hand) + [c for c in p.face_down if c >= 0]
    out = [Move(PICKUP), Move(FLIP, (), rng.randint(1, len(p.face_down) + 1)), Move(GAMBLE)]
    if p.face_up_cards:
        out.append(Move(PICKUP, (rng.choice(p.face_up_cards),)))
    pool = [c for c in pool if c >= 0]
    if pool:
        for _ in range(k):
            n = rng.choice((1, 1, 2, 3))
            out.append(Move(PLAY, tuple(sorted(rng.choice(pool) for _ in range(n)))))
        pick = rng.choice(pool)
        same = tuple(sorted(c for c in pool if c >> 2 == pick >> 2))
        out.append(Move(PLAY, same))
        out.append(Move(SLIDE, (pick,)))
        if p.hand and p.face_up_cards:
            out.append(Move(SWAP, (rng.choice(p.hand), rng.choice(p.face_up_cards))))
        if p.hand:
            give = rng.choice(p.hand)
            out.append(Move(PLAY, same, give=give, target=other.name))
            if other.face_up_cards:
                out.append(Move(PLAY, same, give=give, take=rng.choice(other.face_up_cards), target=other.name))
            if p.face_up_cards:
                out.append(Move(PLAY, same, give=give, take=rng.choice(p.face_up_cards)))
    if pool and table.pile and table.pile[-1].claim >= 0:  # Bluff: runs, true or not, from the next rank
        first = claim_top(table.pile[-1].claim) + 1
        start = rng.choice(pool)
        run = tuple(c for c in range(start, min(start + 4 * rng.randint(2, 4), 52), 4) if c in pool or rng.random() < 0.2)
        if len(run) >= 2 and first + len(run) - 1 <= 12:
            out.append(Move(PLAY, run, claim=run_claim(first, first + len(run) - 1)))
        if first + 1 <= 12:
            out.append(Move(PLAY, tuple(sorted(rng.sample(pool, min(2, len(pool))))), claim=run_claim(first, first + 1)))
        hand = [c for c in p.hand if c >= 0]
        if len(run) >= 2 and first + len(run) - 1 <= 12 and hand:  # a run with a card hidden under it
            out.append(Move(PLAY, tuple(sorted(run + (rng.choice(hand),))), claim=run_claim(first, first + len(run) - 1)))
    if bluff:
        out += _count_lies(table, rng)
    return out


def _reads_back(table: Table, v: Variant) -> bool:
    """Does the table read back from its table file as it was (the same file again)?"""
    written = table.to_dict()
    back = table_from_dict(written, decks=table.decks, jokers_per_deck=v.jokers)
    return back == table or back.to_dict() == written  # (the same table writes the same file)


def _count_lies(table: Table, rng: random.Random) -> list[Move]:
    """Bluff: plays that lie about how many cards go down, legal or not: a card hidden under a
    play of one rank, one card claimed as two or three, a true count claimed as another."""
    hand = [c for c in table.player.hand if c >= 0] + [c for c in table.player.face_up_cards if c >= 0]
    if not hand:
        return []
    pick = rng.choice(hand)
    same = [c for c in hand if c >> 2 == pick >> 2][:rng.randint(1, 3)]
    said = rng.choice((claim_top(table.pile[-1].claim), rng.randrange(13))) if table.pile else rng.randrange(13)
    under = tuple(sorted(same + [rng.choice(hand)]))
    out = [Move(PLAY, under, claim=claim_for(count_claim(said, len(same)), len(under))),
           Move(PLAY, (pick,), claim=count_claim(said, rng.choice((2, 3, 4)))),
           Move(PLAY, tuple(sorted(same)), claim=claim_for(count_claim(said, rng.randint(1, 4)), len(same)))]
    return [m for m in out if len(set(m.cards)) == len(m.cards) or table.decks > 1]


class _GameCheck:
    """Checks one game move by move (the ``on_move`` hook of ``play_game``), and is its players'
    go-between: it keeps the move list the game offered, to check that list rather than redo it."""

    def __init__(self, v: Variant, players: int, seed: int, report: Report, bot: Bot,
                 full_check_every: int, candidates_every: int = 1) -> None:
        self.v, self.players, self.seed, self.report, self.bot = v, players, seed, report, bot
        self.full_check_every = full_check_every
        self.candidates_every = candidates_every
        self.rng = random.Random(seed ^ 0x5EED)
        self.start: list[int] | None = None  # every card at the start, sorted (the multiset to keep)
        self.offered: list[Move] | None = None
        self.moves = 0
        self.name = bot.name

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        self.offered = list(moves)
        move = self.bot.choose(table, v, moves, rng)
        return self._lie_about_count(table, move, moves) if v.bluff else move

    def _lie_about_count(self, table: Table, move: Move, moves: Sequence[Move]) -> Move:
        """Bluff: count lies are never listed (see ``count_lie``), so the games play some on
        purpose: a call on one half the time it is on top, and now and then a card hidden under
        the chosen play from the hand, or its count said otherwise (if the judge allows it)."""
        top = table.pile[-1] if table.pile else None
        if top is not None and Move(CALL) in moves and count_lie(Move(PLAY, top.cards, claim=top.claim)):
            if self.rng.random() < 0.5:
                return Move(CALL)
        hand = table.player.hand
        if move.kind != PLAY or move.claim < 0 or not hand or self.rng.random() >= 0.2:
            return move
        rest = [c for c in hand if c not in move.cards]
        if rest and self.rng.random() < 0.5:
            cards = tuple(sorted(move.cards + (self.rng.choice(rest),)))
            lie = Move(PLAY, cards, claim=claim_for(count_claim(claim_top(move.claim), len(move.cards)), len(cards))
                       if move.claim < RUN_CLAIM else move.claim)
        else:
            k = claim_count(move.claim, len(move.cards))
            if move.claim >= RUN_CLAIM or k >= 3:
                return move
            lie = Move(PLAY, move.cards, claim=count_claim(claim_top(move.claim), k + 1))
        return lie if count_lie(lie) and is_legal(table, self.v, lie) else move

    def __call__(self, before: Table, move: Move, after: Table, events: list[str]) -> None:
        v, report = self.v, self.report
        self.moves += 1
        report.moves += 1
        problems = report.problems
        where = f"{v.id} players={self.players} seed={self.seed} move {self.moves}: {move}"
        if self.start is None:
            self.start = sorted(before.all_cards())
        if sorted(after.all_cards()) != self.start:
            problems.append(f"{where}: cards created or lost")
        if before.player.out:
            problems.append(f"{where}: {before.player.name} is out but moved")
        # the game's own list, except for the lead, which it narrows to the leading rank
        legal = self.offered if self.moves > 1 and self.offered else legal_moves(before, v)
        legal_set = set(legal)
        if len(legal_set) != len(legal):
            problems.append(f"{where}: legal_moves lists a move twice")
        for m in legal:
            if not is_legal(before, v, m):
                problems.append(f"{where}: listed move {m} checks illegal")
            if count_lie(m):
                problems.append(f"{where}: listed move {m} lies about its count (such plays are not listed)")
        for m in _candidates(before, self.rng, bluff=v.bluff) if self.moves % self.candidates_every == 0 else ():
            # the listing's reading (Bluff): a count lie is legal when its claim is, never listed
            legal_m = is_legal(before, v, m)
            listed = m in legal_set or (count_lie(m) and legal_m)
            if legal_m != listed:
                problems.append(f"{where}: {m} checks {legal_m} but listing says {m in legal_set}")
        if self.moves % self.full_check_every == 0:
            verdict = check(before, v, move)
            if not verdict.legal:
                problems.append(f"{where}: chosen move checks illegal: {verdict.reason}")
            elif list(verdict.events) != list(events):
                problems.append(f"{where}: check says {verdict.events}, apply did {events}")
            nxt = None if game_over(after, v) else after.player.name
            if verdict.legal and verdict.next_player != nxt:
                problems.append(f"{where}: check says next {verdict.next_player}, apply gives {nxt}")
        if not game_over(after, v) and not _reads_back(after, v):  # the table file round trip
            problems.append(f"{where}: the table does not read back from its file as it was")
        if not game_over(after, v) and after.player.out:
            problems.append(f"{where}: the turn passed to {after.player.name}, who is out")
        if self.moves % 7 == 0:
            again, _ = apply_unchecked(before, v, move)
            if again != after:
                problems.append(f"{where}: apply is not deterministic")
        if v.slide >= 0:
            self._out_of_turn(before, where)

    def _out_of_turn(self, before: Table, where: str) -> None:
        """Slides out of turn: listed ones check legal, others not; one applied keeps cards and turn."""
        v, problems = self.v, self.report.problems
        listed = [m for m in legal_moves(before, v, out_of_turn=True) if m.kind == SLIDE and m.target]
        listed_set = set(listed)
        mover = before.player.name
        tries = []
        for p in before.players:
            if p.name != mover:
                tries += [Move(SLIDE, (c,), target=p.name) for c in set(p.hand + before.player.hand) if c >= 0]
        for m in listed + tries:
            if is_legal(before, v, m) != (m in listed_set):
                problems.append(f"{where}: out of turn, {m} checks {is_legal(before, v, m)} but listing says "
                                f"{m in listed_set}")
        if not listed:
            return
        m = listed[self.rng.randrange(len(listed))]
        after, events = apply_unchecked(before, v, m)
        at = f"{where}, then out of turn {m}"
        if sorted(after.all_cards()) != self.start:
            problems.append(f"{at}: cards created or lost")
        over = game_over(after, v)
        if not over and after.turn != before.turn:
            problems.append(f"{at}: the turn moved from {mover} to {after.player.name}")
        if after.pile[0].cards != m.cards:
            problems.append(f"{at}: the slid card is not at the bottom of the pile")
        verdict = check(before, v, m)
        if list(verdict.events) != list(map(str, events)):
            problems.append(f"{at}: check says {verdict.events}, apply did {events}")
        if verdict.next_player != (None if over else after.player.name):
            problems.append(f"{at}: check says next {verdict.next_player}, apply gives the turn otherwise")
        if not over and not _reads_back(after, v):
            problems.append(f"{at}: the table does not read back from its file as it was")


def run(
    v: Variant | str,
    players: int,
    seeds: Sequence[int],
    *,
    decks: int | None = None,
    bot: Bot | None = None,
    full_check_every: int = 1,
    candidates_every: int = 1,
) -> Report:
    """Play seeded games with every check after every move; return what went wrong.

    ``candidates_every`` > 1 tries the random unlisted moves only on every n-th move (the
    large catalogue runs use 2 to stay within the test suite's time).
    """
    v = load_variant(v)
    report = Report()
    for seed in seeds:
        # mostly greedy players with random moves 30% of the time (short games); every tenth game 70% random
        default: Bot = EpsilonBot(eps=0.7) if seed % 10 == 9 else EpsilonBot(eps=0.3)
        checker = _GameCheck(v, players, seed, report, bot or default, full_check_every, candidates_every)
        result = play_game(v, players, seed, [checker] * players, decks=decks, on_move=checker, max_turns=3000)
        report.games += 1
        report.stalled += result.stalled
        if not result.stalled and (result.final is None or not game_over(result.final, v)):
            report.problems.append(f"{v.id} players={players} seed={seed}: ended neither over nor stalled")
        if len(report.problems) > 20:
            break
    return report
