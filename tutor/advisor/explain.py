"""Why a move: plain sentences from what the move does and what the search saw follow.

Everything here reads the observer's :class:`~tutor.advisor.view.PlayerView` and a
determinisation of it only for facts that do not depend on the hidden cards (what a
play burns, reverses or skips, who moves next, whether the player goes out). The
chance that a blind flip goes is computed from the unseen cards, not from the deal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.advisor.view import PlayerView
from tutor.core.cards import EMPTY, card_str
from tutor.core.moves import FLIP, PICKUP, PLAY, READY, SWAP, Move
from tutor.core.table import Table
from tutor.engine import BURN, OUT, PLAY_AGAIN, REVERSE, SKIP, apply_unchecked, effective_top
from tutor.engine.words import a, listing, number, pct, plural, some, word
from tutor.play.game import seat_key
from tutor.rules.variant import Variant

# -- what a rank does in a variant ----------------------------------------


def resets(v: Variant, rank: int) -> bool:
    return any(v.cells[rank][r][1] == "RESET" for r in range(14))


def limits(v: Variant, rank: int) -> bool:
    return any(v.cells[rank][r][1] == "OVER_LIMIT" for r in range(14))


def anywhere(v: Variant, rank: int) -> bool:
    return any(v.cells[t][rank][1] == "ANYWHERE" for t in range(15))


def special(v: Variant, rank: int) -> bool:
    """A card worth keeping: it goes on anything, burns, or is looked through."""
    return v.burn[rank] or v.transparent[rank] or anywhere(v, rank) or resets(v, rank)


def rule_titles(v: Variant, rank: int) -> list[tuple[str, str]]:
    """(fragment id, title) of the rules that give ``rank`` its powers."""
    seen: dict[str, str] = {}
    for fid in v.origin[rank].values():
        if fid and fid not in seen:
            try:
                seen[fid] = v.fragment(fid).title
            except KeyError:
                continue
    return list(seen.items())


# -- facts about one move -------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What a move does, read off a determinisation (only the hidden-card-free parts)."""

    move: Move
    events: tuple[str, ...]
    rank: int  # -1 for pickups and flips
    n: int
    next_seat: int  # who moves after it (-1 if the game ends)
    clauses: tuple[str, ...]
    idea: str  # the rule or idea to look at (step one of a hint)


def _held_specials(view: PlayerView, v: Variant, exclude: Sequence[int] = ()) -> list[int]:
    me = view.me
    held = list(me.hand_known) if me.hand_size else [c for st in me.face_up for c in st]
    rest = list(held)
    for c in exclude:
        if c in rest:
            rest.remove(c)
    return sorted({c >> 2 for c in rest if special(v, c >> 2)})


def flip_chance(view: PlayerView, v: Variant) -> float:
    """The chance that a blind face-down card goes on the pile (over the unseen cards)."""
    pool = view.unknown_pool(v)
    if not pool:
        return 0.0
    table = Table(players=(), pile=view.pile)
    top = effective_top(table, v).rank
    return sum(1 for c in pool if v.place[top][c >> 2]) / len(pool)


def facts(view: PlayerView, v: Variant, table: Table, move: Move,
          all_moves: Sequence[Move]) -> Facts:
    """The clauses of 'why' for ``move`` on ``table`` (a determinisation of ``view``)."""
    me = view.me
    names = [s.name for s in view.seats]
    top_before = effective_top(table, v).rank
    clauses: list[str] = []
    idea = ""
    rank, n = -1, 0
    other = _other_kinds(view, v, move)
    if other is not None:
        return other
    if move.kind == FLIP:
        p = flip_chance(view, v)
        if top_before == EMPTY:
            clauses.append("the pile is empty, so any face-down card goes")
        elif p >= 0.999:
            clauses.append(f"you turn a face-down card over blind, and whatever it is goes on the {word(top_before)}")
        elif p <= 0.001:
            clauses.append(f"you turn a face-down card over blind, but no unseen card goes on the {word(top_before)}")
        else:
            clauses.append(f"you turn a face-down card over blind: about {pct(p)} of the unseen cards "
                           f"would go on the {word(top_before)}")
        if len(all_moves) > 1:
            clauses.append("which one you turn makes no difference, as none of them has been seen")
        idea = "Only face-down cards are left: you must turn one over and hope it goes."
        return Facts(move, (), -1, 0, -1, tuple(clauses), idea)
    if move.kind in (SWAP, READY):
        if move.kind == SWAP:
            h, u = move.cards
            clauses.append(f"puts your {card_str(h)} face up for later and takes the {card_str(u)} into your hand")
        else:
            clauses.append("keeps your face-up cards as they are")
        idea = "Before play: put the cards that go on anything (and high cards) face up, keep low cards in hand."
        return Facts(move, (), -1, 0, table.turn, tuple(clauses), idea)

    after, events_l = apply_unchecked(table, v, move)
    events = tuple(events_l)
    over = "game_over" in events
    nxt = -1 if over else after.turn
    who_next = names[nxt] if nxt >= 0 else ""
    again = nxt == view.seat and not over

    if move.kind == PICKUP:
        k = sum(len(p.cards) for p in view.pile) + len(move.cards)
        if move.cards:
            clauses.append(f"puts your {card_str(move.cards[0])} on the pile and takes all {k} cards")
        else:
            clauses.append("takes the one card of the pile into your hand" if k == 1
                           else f"takes the {k} cards of the pile into your hand")
        if view.loops and seat_key(after, view.seat) in view.loops:
            clauses.append("the table is then just as it was after an earlier pickup: the game goes round in a circle")
        plays = [m for m in all_moves if m.kind == PLAY]
        if not plays:
            clauses.append("nothing you hold goes on the " + word(top_before))
            idea = "No card of yours goes on the pile: the question is only what picking up costs."
        else:
            keep = _held_specials(view, v)
            if keep:
                clauses.append(f"you keep your {listing([word(r) for r in keep])} in hand instead of spending "
                               f"{'it' if len(keep) == 1 else 'them'}")
            idea = ("Picking up is allowed even when you could play: weigh a few cards more in your hand "
                    "against what you would have to spend.")
        if v.after_pickup == "same" and again:
            clauses.append("you then start a new pile yourself")
        return Facts(move, events, -1, 0, nxt, tuple(clauses), idea)

    # a play
    rank, n = move.cards[0] >> 2, len(move.cards)
    plays = [m for m in all_moves if m.kind == PLAY]
    what = some(rank, n)
    from_up = me.hand_size == 0
    if OUT in events:
        tail = "you cannot be the shithead" if v.goal == "loser" else "you win"
        if BURN in events:
            clauses.append(f"{what} burn{'s' if n == 1 else ''} the pile with your last card{'s' if n > 1 else ''}: "
                           f"you are out, and {tail}")
        else:
            clauses.append(f"plays your last card{'s' if n > 1 else ''}: you are out, and {tail}")
        idea = "Look for a play that gets rid of all your remaining cards."
        return Facts(move, events, rank, n, nxt, tuple(clauses), idea)
    if BURN in events:
        if v.burn[rank]:
            clauses.append(f"the {word(rank)} burns the pile and you lead again")
            titles = rule_titles(v, rank)
            idea = _rule_idea(rank, titles, "it burns the pile")
        else:
            clauses.append(f"completes {number(v.four_burns)} {plural(rank)} together on the pile, which burns it, "
                           "and you lead again")
            idea = f"Count the {plural(rank)}: {number(v.four_burns)} of a kind together on the pile burn it."
    elif PLAY_AGAIN in events:
        if resets(v, rank):
            clauses.append(f"the {word(rank)} resets the pile and you play again")
        else:
            clauses.append(f"the {word(rank)} lets you play again")
        titles = rule_titles(v, rank)
        idea = _rule_idea(rank, titles, "you play again after it")
    else:
        if n > 1:
            clauses.append(f"gets rid of {what} at once")
        nxt_seat = view.seats[nxt] if nxt >= 0 else None
        left = (nxt_seat.hand_size + sum(len(s) for s in nxt_seat.face_up) + nxt_seat.face_down) if nxt_seat else 0
        warn = ""
        if nxt_seat is not None and 0 < left <= 2:
            warn = f"{who_next} has {number(left)} card{'s' if left > 1 else ''} left; "
        top_after = effective_top(after, v).rank
        if limits(v, rank):
            clauses.append(f"{warn}this {word(rank)} forces anything {who_next} plays to be {a(rank)} or lower")
            titles = rule_titles(v, rank)
            idea = _rule_idea(rank, titles, f"the next play must be {a(rank)} or lower")
        elif v.transparent[rank]:
            under = "an empty pile" if top_after == EMPTY else f"the {word(top_after)} under it"
            clauses.append(f"{warn}the {word(rank)} is transparent, so {who_next} must still beat {under}")
            idea = f"Look at the {word(rank)}: it is seen through."
        elif resets(v, rank) or top_after == EMPTY:
            clauses.append(f"{warn}it resets the pile, so {who_next} may play anything")
        elif who_next and nxt != view.seat:
            clauses.append(f"{warn}{who_next} must beat {a(top_after)}")
        if REVERSE in events:
            clauses.append("the direction of play reverses")
        if SKIP in events:
            clauses.append("the next player misses a turn")
        # spending or keeping
        plain = [m for m in plays if not special(v, m.cards[0] >> 2)]
        if special(v, rank) and plain:
            low = min(m.cards[0] >> 2 for m in plain)
            clauses.append(f"it spends your {word(rank)} while {a(low)} would also go")
            idea = idea or "Think about which cards you want to keep for later."
        elif not special(v, rank):
            lower = [m.cards[0] >> 2 for m in plain if m.cards[0] >> 2 < rank]
            if lower:
                clauses.append(f"it plays {a(rank)} and keeps your lower {word(min(lower))} back")
                idea = idea or ("Think about what the next player has to beat: a higher card is harder to answer, "
                                "a lower one gets rid of a weak card.")
            elif len({m.cards[0] >> 2 for m in plain}) > 1:
                clauses.append(f"{'it is' if n == 1 else 'they are'} your lowest card{'s' if n > 1 else ''} that go{'es' if n == 1 else ''}")
            keep = _held_specials(view, v, move.cards)
            if keep:
                later = "for the face-up phase" if from_up else "for later"
                later = "for when you need it" if len(keep) == 1 and not from_up else later
                clauses.append(f"it keeps your {listing([word(r) for r in keep])} {later}")
            idea = idea or ("Play low and keep the cards that go on anything for when you need them."
                            if keep else "Get rid of your low cards while you can.")
    if move.give >= 0:
        taken = card_str(move.take) if move.take >= 0 else "a card unseen"
        clauses.append(f"then you give your {card_str(move.give)} for {taken}"
                       + (f" from {move.target}" if move.target else ""))
    if not from_up and me.hand_size - sum(1 for c in move.cards if c in me.hand_known) == 0 and not view.stock:
        up = sum(len(s) for s in me.face_up)
        clauses.append("it empties your hand: you play from your face-up cards next" if up
                       else "it empties your hand: your face-down cards come next")
    return Facts(move, events, rank, n, nxt, tuple(clauses), idea or "Think about what the next player can beat.")


def _rule_idea(rank: int, titles: Sequence[tuple[str, str]], fallback: str) -> str:
    if titles:
        return f"Look at the {word(rank)}. The rule here: {titles[0][1]}."
    return f"Look at the {word(rank)}: {fallback}."


def _other_kinds(view: PlayerView, v: Variant, move: Move) -> Facts | None:
    """Bluff claims, calls, gambles, slides and setup placements: said without a deal."""
    clause, idea = "", ""
    if move.claim >= 0:
        if move.kind == FLIP:
            clause = f"you lay a face-down card unseen, claiming it is {a(move.claim)}"
        else:
            honest = all(c >> 2 == move.claim for c in move.cards)
            n = len(move.cards)
            claimed = a(move.claim) if n == 1 else f"{number(n)} {plural(move.claim)}"
            clause = (f"you lay {some(move.cards[0] >> 2, n) if honest else number(n) + ' card' + ('s' if n > 1 else '')} "
                      f"face down as {claimed}" + ("" if honest else ": a bluff, if the next player calls it you take the pile"))
        idea = "Claim a rank that goes, and think about whether the next player will call it."
    elif move.kind == "call":
        clause = ("you call the last play a bluff: if it was one, its player takes the pile and you play again; "
                  "if not, you take it")
        idea = "Is the last claim believable? Count the cards of that rank you have seen."
    elif move.kind == "gamble":
        clause = "you try the top card of the stock, blind, instead of playing from your hand"
        idea = "When nothing in your hand goes, the stock's top card may."
    elif move.kind == "slide":
        clause = f"you slide your {word(move.cards[0] >> 2)} under the pile without using your turn"
        idea = "A card that slides under the pile is one less to get rid of later."
    elif move.kind == "place":
        clause = f"you lay your {card_str(move.cards[0])} face up for later"
        idea = "Before play: put the cards that go on anything (and high cards) face up."
    else:
        return None
    return Facts(move, (), -1, 0, -1, (clause,), idea)


def follow_up(view: PlayerView, replies: Sequence[tuple[tuple[object, ...], int, int]], visits: int) -> str:
    """What the search saw happen next, when one answer dominates."""
    if not replies or visits < 20:
        return ""
    total = sum(r[2] for r in replies)
    key, seat, count = replies[0]
    share = count / max(1, total)
    if seat == view.seat or share < 0.4:
        return ""
    name = view.seats[seat].name
    if key and key[0] == PICKUP:
        return f"{name} most often has to pick up next ({pct(share)} of the simulations)"
    if key and key[0] == FLIP:
        return ""
    ranks = key[1] if len(key) > 1 else ()
    if isinstance(ranks, tuple) and ranks and share >= 0.5:
        r = ranks[0] if isinstance(ranks[0], int) else -1
        if 0 <= r < 14:
            return f"{name} most often answers with {some(r, len(ranks))} ({pct(share)} of the simulations)"
    return ""


def uncap(text: str, names: Sequence[str] = ()) -> str:
    """A sentence to follow a colon: lower-case its first letter, unless it starts with a name."""
    first = text.split(" ", 1)[0].rstrip(",;:.")
    if not text or first in names:
        return text
    return text[0].lower() + text[1:]


def sentence(clauses: Sequence[str]) -> str:
    """Join clauses into one or two sentences, capitalised and full-stopped."""
    parts = [c for c in clauses if c]
    if not parts:
        return ""
    first = parts[0]
    text = first[0].upper() + first[1:]
    rest = parts[1:]
    if rest:
        text += "; " + "; ".join(rest)
    return text + "."


# -- comparisons and grades -----------------------------------------------


def interval(mean: float, n: int, std: float | None = None, z: float = 1.96) -> tuple[float, float]:
    """A 95% interval for the mean reward of ``n`` simulations.

    From 30 simulations on, the normal interval with the rewards' own standard
    deviation (the rewards are not all 0 or 1: cut-off rollouts score a chance);
    below that, without ``std``, or when every simulation scored the same, Wilson's
    interval, which treats them as 0/1 outcomes and is the wider of the two (so 200
    wins out of 200 reads 98% to 100%, not 100% to 100%). Either measures the Monte
    Carlo error only.
    """
    if n <= 0:
        return 0.0, 1.0
    if std is not None and n >= 30 and std > 1e-9:
        half = z * std / math.sqrt(n - 1)
        return max(0.0, mean - half), min(1.0, mean + half)
    p = min(1.0, max(0.0, mean))
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def standard_error(std: float, n: int) -> float:
    return std / math.sqrt(n) if n > 1 else 1.0


def too_close(a_mean: float, a_se: float, b_mean: float, b_se: float) -> bool:
    """Two moves whose difference is within noise (about two standard errors) or under a point."""
    diff = a_mean - b_mean
    return diff < 0.01 or diff < 1.96 * math.sqrt(a_se ** 2 + b_se ** 2)


GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")


def grade_for(drop: float) -> str:
    """A grade from how many points of the chance of avoiding the loss a move gives away."""
    if drop <= 0.0:
        return "best"
    if drop < 0.03:
        return "good"
    if drop < 0.08:
        return "inaccuracy"
    if drop < 0.15:
        return "mistake"
    return "blunder"
