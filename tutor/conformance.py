"""The conformance run: whole seeded games with every invariant checked after every move.

After each move: no card was created or lost; every move ``legal_moves`` lists is legal
by the judge that ``check`` uses; random other moves are legal exactly when listed; the
player to move has cards; ``check`` and ``apply`` agree on the chosen move's events and
next player. Each game ends or is declared stalled.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from tutor.engine import apply_unchecked, check, game_over, is_legal, legal_moves
from tutor.game import Bot, EpsilonBot, PlayfulBot, play_game
from tutor.moves import FLIP, GAMBLE, PICKUP, PLAY, SLIDE, SWAP, Move
from tutor.table import Table
from tutor.variant import Variant, load_variant


@dataclass
class Report:
    games: int = 0
    moves: int = 0
    stalled: int = 0
    problems: list[str] = field(default_factory=list)


def _candidates(table: Table, rng: random.Random, k: int = 3) -> list[Move]:
    """Moves worth trying, legal or not: cards from every zone, pickups, flips, swaps, gambles."""
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
    return out


class _Recording:
    """Passes the choice on, keeping the move list the game offered (to check it, not redo it)."""

    def __init__(self, bot: Bot, offered: list[list[Move] | None]) -> None:
        self.bot, self.offered, self.name = bot, offered, bot.name

    def choose(self, table: Table, v: Variant, moves: Sequence[Move], rng: random.Random) -> Move:
        self.offered[0] = list(moves)
        return self.bot.choose(table, v, moves, rng)


def run(
    v: Variant | str,
    players: int,
    seeds: Sequence[int],
    *,
    decks: int | None = None,
    bot: Bot | None = None,
    full_check_every: int = 1,
) -> Report:
    v = load_variant(v)
    report = Report()
    for seed in seeds:
        rng = random.Random(seed ^ 0x5EED)
        start_cards: list[Counter[int]] = []

        def on_move(before: Table, move: Move, after: Table, events: list[str], seed: int = seed) -> None:
            report.moves += 1
            where = f"{v.id} players={players} seed={seed} move {report.moves}: {move}"
            if not start_cards:
                start_cards.append(Counter(before.all_cards()))
            if Counter(after.all_cards()) != start_cards[0]:
                report.problems.append(f"{where}: cards created or lost")
            if before.player.out:
                report.problems.append(f"{where}: {before.player.name} is out but moved")
            # the game's own list, except for the lead, which it narrows to the leading rank
            legal = offered[0] if report.moves > first_move[0] + 1 and offered[0] else legal_moves(before, v)
            legal_set = set(legal)
            if len(legal_set) != len(legal):
                report.problems.append(f"{where}: legal_moves lists a move twice")
            for m in legal:
                if not is_legal(before, v, m):
                    report.problems.append(f"{where}: listed move {m} checks illegal")
            for m in _candidates(before, rng):
                if is_legal(before, v, m) != (m in legal_set):
                    report.problems.append(f"{where}: {m} checks {is_legal(before, v, m)} but listing says {m in legal_set}")
            if report.moves % full_check_every == 0:
                verdict = check(before, v, move)
                if not verdict.legal:
                    report.problems.append(f"{where}: chosen move checks illegal: {verdict.reason}")
                elif list(verdict.events) != list(events):
                    report.problems.append(f"{where}: check says {verdict.events}, apply did {events}")
                nxt = None if game_over(after, v) else after.player.name
                if verdict.legal and verdict.next_player != nxt:
                    report.problems.append(f"{where}: check says next {verdict.next_player}, apply gives {nxt}")
            if not game_over(after, v) and after.player.out:
                report.problems.append(f"{where}: the turn passed to {after.player.name}, who is out")
            if report.moves % 7 == 0:
                again, _ = apply_unchecked(before, v, move)
                if again != after:
                    report.problems.append(f"{where}: apply is not deterministic")

        # mostly greedy players with random moves 30% of the time (short games); every tenth game fully random
        default: Bot = PlayfulBot() if seed % 10 == 9 else EpsilonBot(eps=0.3)
        offered: list[list[Move] | None] = [None]
        first_move = [report.moves]
        bots = [_Recording(bot or default, offered) for _ in range(players)]
        result = play_game(v, players, seed, bots, decks=decks, on_move=on_move, max_turns=3000)
        report.games += 1
        report.stalled += result.stalled
        if not result.stalled and not game_over(result.final, v):  # type: ignore[arg-type]
            report.problems.append(f"{v.id} players={players} seed={seed}: ended neither over nor stalled")
        if len(report.problems) > 20:
            break
    return report
