"""Why a move: plain sentences from what the move does, what the player can count, and what
the search saw follow.

Everything here reads the observer's :class:`~tutor.advisor.view.PlayerView`; a
determinisation of it is used only for facts that do not depend on the hidden cards (what
a play burns, reverses or skips, who moves next, whether the player goes out). The counts
(how many unseen cards go on the top, what the next player is known to hold, how many
cards of a rank are still out) come from :mod:`tutor.advisor.facts`, which reads the view
alone. What a special card buys and costs is read from the variant's own tables, and the
rule is named by its fragment's title when it is the reason.

The numbers: :func:`interval` is the 95% interval of a move's chance, counting the Monte
Carlo error as if every simulation were one finished game (a cut-off simulation scored 77%
by the evaluation is a 77% chance, not a certainty) and, for the share of the simulations
the evaluation decided, its calibration error (:data:`EVAL_ERROR`). :func:`too_close` says
when the search cannot separate two moves; :func:`principled` then picks the cheapest plain
play, the principle a strong player falls back on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.advisor.facts import (
    answer,
    blind_only,
    cards_words,
    does_words,
    goes_anywhere,
    limits,
    not_on,
    odds,
    pile_cards,
    rank_count,
    resets,
    restriction_words,
    special,
    specials_held,
)
from tutor.advisor.view import PlayerView
from tutor.core.cards import EMPTY, RUN_CLAIM, card_pretty, card_str
from tutor.core.moves import FLIP, PICKUP, PLAY, READY, SWAP, Move
from tutor.core.stats import Z95, separated, wilson_bounds
from tutor.core.table import Table
from tutor.engine import (
    BURN,
    GAME_OVER,
    OUT,
    PLAY_AGAIN,
    REVERSE,
    SKIP,
    apply_unchecked,
    claim_true,
    count_lie,
    effective_top,
    top_run,
)
from tutor.engine.words import a, does, listing, number, pct, plural, said_count, some, word
from tutor.play.game import seat_key
from tutor.rules.variant import Variant


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


def _rule_for(v: Variant, key: str) -> str:
    """The title of the fragment that set a table-wide rule (``final_card_combo``...), or ''."""
    try:
        return v.fragment(v.setting_origin(key)).title
    except (KeyError, ValueError):
        return ""


# -- facts about one move -------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What a move does and what the player can count about it (nothing hidden is read)."""

    move: Move
    events: tuple[str, ...]
    rank: int  # -1 for pickups and flips
    n: int
    next_seat: int  # who moves after it (-1 if the game ends)
    clauses: tuple[str, ...]
    idea: str  # the rule or idea to look at (step one of a hint)
    certain: bool = False  # the outcome does not depend on anything unseen (the move puts you out)
    pile_after: int = 0  # cards on the pile after the move
    next_odds: float = -1.0  # the chance the next player's blind flip goes (-1: they do not flip next)
    next_takes: bool = False  # the next player is known to hold nothing that goes: they must take the pile
    kept_at: int = -1  # the index of the clause saying which specials the move keeps (-1: none)
    gives_burn: str = ""  # the next player, known to hold enough to complete four of a kind on this play


def _kept(v: Variant, view: PlayerView, exclude: Sequence[int] = ()) -> tuple[str, int]:
    """``('your two 10s (each burns the pile and goes on anything)', 2)``: the specials the player
    keeps after playing ``exclude`` (hand, or face up with an empty hand), and how many cards."""
    me = view.me
    held = list(me.hand_known if me.hand_size else [c for st in me.face_up for c in st])
    for c in exclude:
        if c in held:
            held.remove(c)
    ranks = specials_held(view, v, exclude)
    if not ranks:
        return "", 0
    count = {r: sum(1 for c in held if c >> 2 == r) for r in ranks}
    parts = [f"{number(count[r])} {plural(r)}" if count[r] > 1 else word(r) for r in ranks]
    total = sum(count.values())
    if len(ranks) == 1:
        what = does_words(v, ranks[0])
        return (f"your {parts[0]} ({'each' if total > 1 else 'it'} {what})" if what else f"your {parts[0]}"), total
    return "your " + listing(parts), total


def facts(view: PlayerView, v: Variant, table: Table, move: Move,
          all_moves: Sequence[Move]) -> Facts:
    """The clauses of 'why' for ``move`` on ``table`` (a determinisation of ``view``)."""
    top_before = effective_top(table, v).rank
    other = _other_kinds(view, v, move)
    if other is not None:
        return other
    if move.kind == FLIP:
        return _flip(view, v, move, top_before, all_moves)
    if move.kind in (SWAP, READY):
        if move.kind == SWAP:
            h, u = move.cards
            clause = f"puts your {card_pretty(h)} face up for later and takes the {card_pretty(u)} into your hand"
        else:
            clause = "keeps your face-up cards as they are"
        idea = "Before play: put the cards that go on anything (and high cards) face up, keep low cards in hand."
        return Facts(move, (), -1, 0, table.turn, (clause,), idea)
    after, events_l = apply_unchecked(table, v, move)
    events = tuple(events_l)
    nxt = -1 if GAME_OVER in events else after.turn
    if move.kind == PICKUP:
        return _pickup(view, v, move, after, events, nxt, top_before, all_moves)
    return _play(view, v, move, after, events, nxt, top_before, all_moves)


def _flip(view: PlayerView, v: Variant, move: Move, top: int, all_moves: Sequence[Move]) -> Facts:
    if top == EMPTY:
        clauses = ["the pile is empty, so any face-down card goes"]
    else:
        o = odds(view, v, top)
        clauses = [f"you turn a face-down card over blind: {o.words()}, a {pct(o.chance)} chance that it goes"]
    if len(all_moves) > 1:
        clauses.append("which one you turn makes no difference, as none of them has been seen")
    idea = "Only face-down cards are left: you must turn one over and hope it goes."
    return Facts(move, (), -1, 0, -1, tuple(clauses), idea)


def _pickup(view: PlayerView, v: Variant, move: Move, after: Table, events: tuple[str, ...], nxt: int,
            top: int, all_moves: Sequence[Move]) -> Facts:
    me = view.me
    k = pile_cards(view) + len(move.cards)
    clauses: list[str] = []
    if move.cards:  # a face-up pickup: one face-up card goes in with the pile, the others stay out
        clauses.append(f"puts your face-up {card_pretty(move.cards[0])} on the pile and takes all {k} cards "
                       "into your hand")
    else:
        clauses.append("takes the one card of the pile into your hand" if k == 1
                       else f"takes the {k} cards of the pile into your hand")
    if view.loops and seat_key(after, view.seat) in view.loops:
        clauses.append("the table is then just as it was after an earlier pickup: the game goes round in a circle")
    plays = [m for m in all_moves if m.kind == PLAY]
    if not plays:
        clauses.append(f"nothing you hold goes on {a(top) if top != EMPTY else 'the pile'}")
        idea = "No card of yours goes on the pile: the question is only what picking up costs."
    else:
        if move.cards or not me.hand_size:
            kept, k_kept = _kept(v, view, move.cards)
            if kept:
                clauses.append(f"{kept} {'stays' if k_kept == 1 else 'stay'} face up")
        else:
            kept, k_kept = _kept(v, view)
            if kept:
                clauses.append(f"you keep {kept} instead of spending {'it' if k_kept == 1 else 'them'}")
        idea = ("Picking up is allowed even when you could play: weigh a few cards more in your hand "
                "against what you would have to spend.")
        if nxt >= 0 and nxt != view.seat and blind_only(view.seats[nxt]):
            who = view.seats[nxt].name
            idea = (f"{does(who, 'has')} only face-down cards: if you pick up, {who} must start the new pile "
                    "blind, and you then answer a card you can see.")
    again = nxt == view.seat
    if v.after_pickup == "same" and again:
        clauses.append("you then start a new pile yourself")
    elif nxt >= 0 and nxt != view.seat:
        s = view.seats[nxt]
        if blind_only(s):
            clauses.append(f"{does(s.name, 'starts')} the new pile: {s.name} {_verb(s.name, 'turns')} a face-down "
                           "card over onto it, where any card goes")
        else:
            clauses.append(f"{does(s.name, 'starts')} a new pile")
    return Facts(move, events, -1, 0, nxt, tuple(clauses), idea, pile_after=0)


def _verb(who: str, verb: str) -> str:
    """The verb alone, agreeing with ``who`` (``'turns'``, or ``'turn'`` for You)."""
    return does(who, verb).split(" ", 1)[1]


def _play(view: PlayerView, v: Variant, move: Move, after: Table, events: tuple[str, ...], nxt: int,
          top_before: int, all_moves: Sequence[Move]) -> Facts:
    me = view.me
    names = [s.name for s in view.seats]
    rank, n = move.cards[0] >> 2, len(move.cards)
    plays = [m for m in all_moves if m.kind == PLAY]
    what = some(rank, n)
    from_up = me.hand_size == 0
    pile_k = pile_cards(view)
    pile_after = sum(len(p.cards) for p in after.pile)
    clauses: list[str] = []
    said: list[str] = []  # what the player can count about the next player's answer
    idea = ""
    next_odds = -1.0
    next_takes = False
    kept_at = -1
    if OUT in events:
        tail = "you cannot be the shithead" if v.goal == "loser" else "you win"
        if BURN in events:
            clauses.append(f"{what} burn{'s' if n == 1 else ''} the pile with your last card{'s' if n > 1 else ''}: "
                           f"you are out, and {tail}")
        else:
            clauses.append(f"plays your last card{'s' if n > 1 else ''}: you are out, and {tail}")
        idea = "Look for a play that gets rid of all your remaining cards."
        return Facts(move, events, rank, n, nxt, tuple(clauses), idea, certain=True, pile_after=pile_after)

    # what the play does
    top_after = effective_top(after, v).rank
    titles = rule_titles(v, rank)
    if BURN in events:
        if v.burn[rank]:
            if pile_k:
                clauses.append(f"the {word(rank)} burns {_pile_size(pile_k)} and you play again")
            else:
                clauses.append(f"the {word(rank)} goes on the empty pile, burns nothing, and you play again")
            idea = _rule_idea(rank, titles, "it burns the pile")
        else:
            run = n
            for pl in reversed(view.pile):  # the cards of this rank already on top
                if not pl.cards or any(c >> 2 != rank for c in pl.cards):
                    break
                run += len(pl.cards)
            if run == v.four_burns:
                clauses.append(f"completes {number(v.four_burns)} {plural(rank)} on the pile, which burns it "
                               f"({pile_k + n} cards), and you play again")
            else:
                clauses.append(f"makes {number(run)} {plural(rank)} on the pile, and {number(v.four_burns)} or more "
                               f"burn it ({pile_k + n} cards), and you play again")
            own = me.hand_known if me.hand_size else tuple(c for st in me.face_up for c in st)
            left = sum(1 for c in own if c >> 2 == rank) - n
            if left > 0:  # playing just enough to burn, not all of the rank
                clauses.append(f"{'it is' if n == 1 else number(n) + ' are'} enough: you keep "
                               f"{'your other ' + word(rank) if left == 1 else number(left) + ' ' + plural(rank)}")
            idea = f"Count the {plural(rank)}: {number(v.four_burns)} of a kind together on the pile burn it."
    elif PLAY_AGAIN in events:
        if resets(v, rank):
            clauses.append(f"the {word(rank)} resets the pile and you play again")
        else:
            clauses.append(f"the {word(rank)} lets you play again")
        idea = _rule_idea(rank, titles, "you play again after it")
    elif nxt >= 0 and nxt != view.seat:
        who = names[nxt]
        s = view.seats[nxt]
        left = s.hand_size + sum(len(st) for st in s.face_up) + s.face_down
        warn = f"{does(who, 'has')} {number(left)} card{'s' if left > 1 else ''} left; " if 0 < left <= 2 else ""
        if limits(v, rank):
            clauses.append(f"{warn}this {word(rank)} forces anything {who} {_verb(who, 'plays')} to be "
                           f"{a(rank)} or lower")
            idea = _rule_idea(rank, titles, f"the next play must be {a(rank)} or lower")
        elif v.transparent[rank]:
            if top_after == EMPTY:
                clauses.append(f"{warn}the {word(rank)} is seen through and nothing is under it, so "
                               + (f"{does(who, 'turns')} a face-down card over onto it, and any card goes"
                                  if blind_only(s) else f"{who} may play anything"))
            else:
                clauses.append(f"{warn}the {word(rank)} is seen through, so {who} must still beat the "
                               f"{word(top_after)} under it")
            idea = f"Look at the {word(rank)}: it is seen through."
        elif top_after == EMPTY or resets(v, rank):
            if blind_only(s):
                clauses.append(f"{warn}{does(who, 'turns')} a face-down card over onto it, and any card goes")
            else:
                clauses.append(f"{warn}it resets the pile, so {who} may play anything")
        elif not blind_only(s):
            clauses.append(f"{warn}{who} must beat {a(top_after)}")
        said = [] if top_after == EMPTY or resets(v, top_after) else _next_player(view, v, nxt, top_after, pile_after)
        clauses += said
        next_takes = any(" must take the " in c for c in said)
        if next_takes and not idea:
            idea = (f"Every card {who} may play is known: give {who} a card that none of them beats.")
        if blind_only(s):
            next_odds = odds(view, v, top_after).chance if top_after != EMPTY else 1.0
        if blind_only(s) and top_after != EMPTY:
            idea = (f"{does(who, 'has')} only face-down cards: leave a card on top that few of the unseen "
                    "cards beat.")
    if REVERSE in events:
        clauses.append("the direction of play reverses")
    if SKIP in events:
        clauses.append("the next player misses a turn")

    # the last hand card taking matching face-up cards with it
    if me.hand_size and any(c not in me.hand_known for c in move.cards):
        up = [c for c in move.cards if c not in me.hand_known]
        rule = _rule_for(v, "final_card_combo")
        clauses.append(f"your last hand card takes your matching face-up {word(rank)}"
                       f"{'s' if len(up) > 1 else ''} with it" + (f" ({rule})" if rule else ""))
        idea = idea or "Your last hand card can take the matching face-up cards with it: two cards go for one."

    # what it spends, what it keeps
    plain = [m for m in plays if not special(v, m.cards[0] >> 2)]
    if special(v, rank):
        idea = idea or _rule_idea(rank, titles, does_words(v, rank))
        clauses += _spends(view, v, move, rank, top_before, plain, pile_k)
    else:
        goes = sorted({m.cards[0] >> 2 for m in plays})
        lower_plain = [r for r in goes if r < rank and not special(v, r)]
        lower_special = [r for r in goes if r < rank and special(v, r)]
        if next_odds >= 0:
            pass  # the next player turns a card over blind: what matters is what beats it, said above
        elif lower_plain:
            clauses.append(f"it plays {a(rank) if n == 1 else what} and keeps your lower {word(min(lower_plain))} back")
        elif len(goes) > 1:
            lowest = "the lowest of your cards that go" if n == 1 else "the lowest cards you have that go"
            if lower_special:
                lowest += f", apart from your {listing([word(r) for r in lower_special])}"
            clauses.append(f"{'it is' if n == 1 else 'they are'} {lowest}")
        kept, _ = _kept(v, view, move.cards)
        if kept:
            later = "for the face-up phase" if from_up else "for later"
            kept_at = len(clauses)
            clauses.append(f"it keeps {kept} {later}" if "(" not in kept else f"it keeps {kept}")
        if not idea and said and nxt >= 0:
            # a fact of this position, not a general maxim
            idea = f"Count what {names[nxt]} can answer: {said[0]}."
        if not idea:
            if kept:
                idea = "Play a plain card and keep the cards that burn or go on anything for when nothing else goes."
            elif rank <= 5:
                idea = "Get rid of your low cards while they still go."
            elif rank >= 9:
                idea = "A high card is hard to beat: count the cards that can still beat it."
            else:
                idea = "Think about what the next player has to beat."
    four, gives_burn = _four_left(view, v, after, rank, move)
    clauses += four
    if gives_burn:  # the most specific fact there is: say it first
        idea = (f"Count the {plural(rank)}: {gives_burn} is known to hold enough to complete {number(v.four_burns)} "
                f"{plural(rank)} on this play and burn the pile.")
    if move.give >= 0:
        taken = card_pretty(move.take) if move.take >= 0 else "a card unseen"
        clauses.append(f"then you give your {card_pretty(move.give)} for {taken}"
                       + (f" from {move.target}" if move.target else ""))
    if not from_up and me.hand_size - sum(1 for c in move.cards if c in me.hand_known) == 0 and not view.stock:
        n_up = sum(len(s) for s in me.face_up) - sum(1 for c in move.cards if c not in me.hand_known)
        clauses.append("it empties your hand: you play from your face-up cards next" if n_up
                       else "it empties your hand: your face-down cards come next")
    return Facts(move, events, rank, n, nxt, tuple(clauses), idea or "Think about what the next player can beat.",
                 pile_after=pile_after, next_odds=next_odds, next_takes=next_takes, kept_at=kept_at,
                 gives_burn=gives_burn)


def _count(k: int) -> str:
    return "one card" if k == 1 else f"{number(k)} cards"


def _pile_size(k: int) -> str:
    if k == 0:
        return "an empty pile"
    return "the one card on the pile" if k == 1 else f"the {k}-card pile"


def _next_player(view: PlayerView, v: Variant, seat: int, top: int, pile_after: int) -> list[str]:
    """What the player can count about the next player's answer to ``top``."""
    if top == EMPTY:
        return []
    s = view.seats[seat]
    who = s.name
    o = odds(view, v, top)
    if blind_only(s):
        last = " (the last one)" if s.face_down == 1 else ""
        return [f"{does(who, 'turns')} a face-down card over next{last}: {o.words()}"]
    ans = answer(view, v, seat, top)
    out = []
    if ans.whole and ans.known:
        where = "(seen going in)" if ans.from_hand else "(face up)"
        if not ans.going:
            one = len(ans.known) == 1
            take = (f"so {who} must take the pile" if pile_after <= 1 else f"so {who} must take the {pile_after} cards"
                    " of the pile") + after_pickup_words(v, who)
            if ans.from_hand:
                holds = f"{does(who, 'holds')} only {cards_words(ans.known)} {where}"
                out.append(f"{holds}: {'it does not go' if one else 'none goes'} on {a(top)}, {take}")
            else:
                up = f"{who}'s face-up {cards_words(ans.known)}" if one else \
                    f"none of {who}'s face-up cards ({cards_words(ans.known)})"
                out.append(f"{up} {'does not go' if one else 'goes'} on {a(top)}, {take}")
            for r in sorted({c >> 2 for c in ans.known}):
                if top in not_on(v, r):
                    rule = next((t for _, t in rule_titles(v, r)), "")
                    out.append(restriction_words(v, r) + (f" ({rule})" if rule else ""))
        elif len(ans.going) == len(ans.known):
            out.append(f"{who} can answer: every card {who} may play ({cards_words(ans.known)}) goes on {a(top)}")
        else:
            out.append(f"{does(who, 'holds')} {cards_words(ans.known)} {where}: only "
                       f"{cards_words(ans.going)} {'goes' if len(ans.going) == 1 else 'go'} on {a(top)}")
        return out
    if o.unseen and o.chance <= 0.35:
        out.append(f"only {o.words()}")
    if ans.known:
        if ans.going and not ans.from_hand:
            out.append(f"{who}'s face-up {cards_words(ans.going)} {'goes' if len(ans.going) == 1 else 'go'} "
                       f"on {a(top)}")
        elif not ans.from_hand:
            pass
        elif ans.going:
            out.append(f"{does(who, 'holds')} {cards_words(ans.going)} (seen going in), which "
                       f"{'goes' if len(ans.going) == 1 else 'go'} on {a(top)}")
        elif o.unseen and o.chance <= 0.35:
            out.append(f"{who}'s seen cards ({cards_words(ans.known)}) do not go on it")
    return out


def _spends(view: PlayerView, v: Variant, move: Move, rank: int, top: int, plain: Sequence[Move],
            pile_k: int) -> list[str]:
    """What playing a special card costs, and the variant's rule when it is the reason to play it now."""
    out = []
    kept, _ = _kept(v, view, move.cards)
    low = min((m.cards[0] >> 2 for m in plain), default=-1)
    if v.burn[rank] and low >= 0:
        cost = f"it spends your {word(rank)} while {a(low)} would also go"
        if pile_k <= 5:
            cost += (", on an empty pile" if not pile_k else f", to burn only {_count(pile_k)}")
            if view.stock >= 6:
                cost += f", with {view.stock} cards still to draw from the stock"
        out.append(cost)
    elif low >= 0:
        out.append(f"it spends your {word(rank)} while {a(low)} would also go")
    restricted = restriction_words(v, rank)
    if restricted and top != EMPTY:
        rule = next((t for _, t in rule_titles(v, rank) if t), "")
        why = f"{restricted}" + (f" ({rule})" if rule else "")
        free = [r for r in specials_held(view, v, move.cards) if not not_on(v, r)]
        if len(free) == 1:
            out.append(f"{why}, so use it while {a(top)} is on top and keep your {word(free[0])}, which "
                       f"{does_words(v, free[0])}")
        elif free:
            anything = all(goes_anywhere(v, r) for r in free)
            out.append(f"{why}, so use it while {a(top)} is on top and keep your "
                       f"{listing([word(r) for r in free])}" + (", which go on anything" if anything else ""))
        else:
            out.append(f"{why}, so use it while {a(top)} is on top")
    elif kept:
        out.append(f"you keep {kept}")
    return out


def _four_left(view: PlayerView, v: Variant, after: Table, rank: int, move: Move) -> tuple[list[str], str]:
    """After a play that leaves k of a rank on top: where the rest of that rank is (four of a kind).
    Also the name of the next player when they are known (seen going in) to hold enough to complete
    the four and burn the pile ('' otherwise)."""
    if not v.four_burns or not after.pile or v.burn[rank] or v.transparent[rank]:
        return [], ""
    top, k = top_run(after)
    if top != rank or k >= v.four_burns or k < 1:
        return [], ""
    need = v.four_burns - k
    rc = rank_count(view, v, rank)
    held = [(i, c) for i, c in rc.held if c >= need]
    lie = f"{number(k)} {plural(rank)} lie" if k > 1 else f"{a(rank)} lies"
    if held:
        nxt = after.turn
        first = next((h for h in held if h[0] == nxt), held[0])
        who = view.seats[first[0]].name
        cards = [c for c in view.seats[first[0]].hand_known if c >> 2 == rank]
        return ([f"{lie} on top and {does(who, 'holds')} {number(first[1])} more ({cards_words(cards)}, seen going "
                 f"in): {who} can complete {number(v.four_burns)} {plural(rank)} and burn the pile"],
                who if first[0] == nxt else "")
    if k < 2:
        return [], ""
    me = view.me
    mine_after = sum(1 for c in me.hand_known + tuple(c for st in me.face_up for c in st) if c >> 2 == rank) - sum(
        1 for c in move.cards if c >> 2 == rank)
    if rc.unseen >= need and need <= 2:
        return [f"{number(k)} {plural(rank)} lie on top and {number(rc.unseen)} more "
                f"{'is' if rc.unseen == 1 else 'are'} "
                f"unseen: whoever holds {'it' if need == 1 and rc.unseen == 1 else number(need)} can burn the pile"
                + (f" (you keep {number(mine_after)})" if mine_after else "")], ""
    return [], ""


def _rule_idea(rank: int, titles: Sequence[tuple[str, str]], fallback: str) -> str:
    if titles:
        return f"Look at the {word(rank)}. The rule here: {titles[0][1]}."
    return f"Look at the {word(rank)}: {fallback}."


# -- two turns from the search's principal line -------------------------------------------

LineStep = tuple[tuple[object, ...], int, int, int]  # (move key, seat, visits, visits of its parent)


def freq(share: float, total: int) -> str:
    """How often, over the deals the search tried: ``'in about 7 of 10 of the deals the search tried'``;
    ``'in all 120 deals the search tried'`` only when it happened in every one."""
    if share >= 1.0 - 1e-9:
        return f"in all {total} deals the search tried"
    tenths = min(9, max(1, round(10 * share)))
    return f"in about {tenths} of 10 of the deals the search tried"


def after_pickup_words(v: Variant, who: str) -> str:
    """What follows a pickup by ``who`` under the variant's rule: ``', and then B plays again'``
    (Lancaster: the picker plays again), or ``''`` when the next player simply moves."""
    if v.after_pickup != "same":
        return ""
    rule = _rule_for(v, "after_pickup")
    return f", and then {who} {_verb(who, 'plays')} again" + (f" ({rule})" if rule else "")


Chain = Sequence[tuple[Move, tuple[str, ...], int]]  # the rest of a play-again turn: (move, events, cards on
# the pile before it) in order


def chain_words(v: Variant, chain: Chain) -> str:
    """The rest of a play-again turn as one plan: ``'then lead four 9s, which burn the pile again, then
    lead a 4'``. Read from the search's principal line played on the player's own cards."""
    parts = []
    for m, ev, before in chain:
        if m.kind == FLIP:
            parts.append("turn a face-down card over onto the empty pile")
            break
        if m.kind != PLAY or not m.cards:
            break
        r, n = m.cards[0] >> 2, len(m.cards)
        what = some(r, n)
        if OUT in ev:
            parts.append(f"lead {what}, your last card{'s' if n > 1 else ''}: you are out")
            break
        verb = "lead" if not before else "play"
        if BURN in ev and not v.burn[r]:
            parts.append(f"{verb} {what}, which {'burn' if n > 1 else 'burns'} the pile again")
        elif BURN in ev and not before:
            parts.append(f"lead {what}, which burns nothing on the empty pile but lets you play again")
        elif BURN in ev:
            parts.append(f"play {what}, which burns the {before}-card pile and lets you play again")
        elif PLAY_AGAIN in ev:
            parts.append(f"{verb} {what}, which lets you play again")
        else:
            parts.append(f"{verb} {what}")
            break
    return ("then " + ", then ".join(parts)) if parts else ""


def plan(view: PlayerView, v: Variant, move: Move, line: Sequence[LineStep], pile_after: int,
         said_take: bool = False, chain: Chain = ()) -> str:
    """What the search saw follow ``move``: the rest of your turn when it plays again (``chain``,
    the principal line's own moves played out), the likely reply and your next move, each as how
    often the search saw it over the deals it tried, never as a certainty.

    ``line`` is the principal line below the move in the search tree (the most visited child,
    then its most visited child...); a step is said only when the search saw it in most of
    the simulations that got there.
    """
    if not line:
        return ""
    me = view.seat
    names = [s.name for s in view.seats]
    out = []
    key, seat, visits, parent = line[0]
    share = visits / max(1, parent)
    if seat == me:  # the move plays again: the rest of the turn is one plan
        if chain and visits >= 10 and share >= 0.4:
            return chain_words(v, chain)
        if visits >= 10 and share >= 0.4:
            out.append(f"then, {freq(share, parent)}, you " + _my_move(v, line, 0, lead=True))
        return "; ".join(out)
    root = max(1, parent)
    if parent >= 20 and share >= 0.4 and key and key[0] == PICKUP and not said_take:
        who = names[seat]
        again = after_pickup_words(v, who)
        if pile_after >= 8:
            out.append(f"the {pile_after}-card pile stays as a trap: {freq(share, parent)}, {who} "
                       f"{_verb(who, 'picks')} it up{again}")
        else:
            out.append(f"{freq(share, parent)}, {who} {_verb(who, 'picks')} up the pile next{again}")
    elif parent >= 20 and share >= 0.5 and key and key[0] == PLAY:
        ranks = key[1] if len(key) > 1 else ()
        if isinstance(ranks, tuple) and ranks and isinstance(ranks[0], int) and 0 <= ranks[0] < 14:
            out.append(f"{freq(share, parent)}, {names[seat]} {_verb(names[seat], 'answers')} with "
                       f"{some(ranks[0], len(ranks))}")
    for i in range(1, min(len(line), 6)):
        k, s, vis, par = line[i]
        if s != me:
            continue
        if vis >= 10 and vis / max(1, par) >= 0.3 and _notable(v, k):
            if k and k[0] == PICKUP:
                out.append(f"{freq(vis / root, parent)}, you pick up the pile on your next turn")
                break
            mine = _my_move(v, line, i)
            keep = ""
            if k and k[0] == PLAY and isinstance(k[1], tuple) and k[1]:
                r = k[1][0]
                held = view.me.hand_known if view.me.hand_size else tuple(c for st in view.me.face_up for c in st)
                if (isinstance(r, int) and special(v, r) and any(c >> 2 == r for c in held)
                        and not any(c >> 2 == r for c in move.cards)):
                    keep = f"keep the {word(r)}: "
                    mine = mine.replace(f"your {word(r)} burns", "it burns", 1)
            out.append(f"{keep}next turn {mine}")
        break
    return "; ".join(out)


def _notable(v: Variant, key: tuple[object, ...]) -> bool:
    """A next move worth planning for: taking the pile, or a card that burns or plays again."""
    if not key:
        return False
    if key[0] == PICKUP:
        return True
    ranks = key[1] if len(key) > 1 and isinstance(key[1], tuple) else ()
    return key[0] == PLAY and bool(ranks) and isinstance(ranks[0], int) and (v.burn[ranks[0]] or v.play_again[ranks[0]])


def _my_move(v: Variant, line: Sequence[LineStep], i: int, lead: bool = False) -> str:
    """Your move at ``line[i]`` in words, with what follows it in the same turn."""
    key = line[i][0]
    kind = key[0] if key else ""
    if kind == FLIP:
        return "turn a face-down card over" if lead else "you turn a face-down card over"
    if kind == PICKUP:
        return "pick up the pile" if lead else "you pick up the pile"
    ranks = key[1] if len(key) > 1 and isinstance(key[1], tuple) else ()
    if kind != PLAY or not ranks or not isinstance(ranks[0], int):
        return "you move again"
    r = ranks[0]
    text = f"{'lead' if lead else 'you play'} {some(r, len(ranks))}"
    if v.burn[r]:
        text = f"your {word(r)} burns the pile" if not lead else f"lead {some(r, len(ranks))}, which burns the pile"
    elif v.play_again[r]:
        text += ", which lets you play again"
    if i + 1 < len(line) and line[i + 1][1] == line[i][1] and (v.burn[r] or v.play_again[r]):
        nxt = line[i + 1][0]
        if nxt and nxt[0] == FLIP:
            text += " and your face-down card goes onto the empty pile" if v.burn[r] else \
                " and you turn a face-down card over"
        elif nxt and nxt[0] == PLAY and len(nxt) > 1 and isinstance(nxt[1], tuple) and nxt[1]:
            text += f", and you lead {some(nxt[1][0], len(nxt[1]))}"  # type: ignore[arg-type]
    return text


def _other_kinds(view: PlayerView, v: Variant, move: Move) -> Facts | None:
    """Bluff claims, calls, gambles, slides and setup placements: said without a deal."""
    clause, idea = "", ""
    if move.claim >= 0:
        if move.kind == FLIP:
            clause = f"you lay a face-down card unseen, claiming it is {a(move.claim)}"
        else:
            n = len(move.cards)
            honest = claim_true(move.cards, move.claim)  # (the engine's: the rank or run, and the count)
            claimed = said_count(move.claim, n)
            laid = ((number(n) + " cards" if move.claim >= RUN_CLAIM else some(move.cards[0] >> 2, n))
                    if honest else number(n) + " card" + ("s" if n > 1 else ""))
            clause = (f"you lay {laid} "
                      f"face down as {claimed}" + ("" if honest else ": a bluff, if the next player calls it you take the pile"))
        idea = "Claim a rank that goes, and think about whether the next player will call it."
    elif move.kind == "call":
        clause = ("you call the last play a bluff: if it was one, its player takes the pile and you play again; "
                  "if not, you take it")
        idea = "Is the last claim believable? Count the cards of that rank you have seen."
        last = view.pile[-1] if view.pile else None
        if last is not None and count_lie(Move(PLAY, last.cards, claim=last.claim)):  # the count is public
            n = len(last.cards)
            clause = (f"you call the last play a bluff: {number(n)} card{'s' if n > 1 else ''} went down "
                      f"claimed as {said_count(last.claim, n)}, a lie in the count, so its player takes the pile "
                      "and you play again")
            idea = "Everyone sees how many cards a play puts down: a claim of another number is caught by any call."
    elif move.kind == "gamble":
        clause = "you try the top card of the stock, blind, instead of playing from your hand"
        idea = "When nothing in your hand goes, the stock's top card may."
    elif move.kind == "slide":
        clause = f"you slide your {word(move.cards[0] >> 2)} under the pile without using your turn"
        idea = "A card that slides under the pile is one less to get rid of later."
    elif move.kind == "place":
        clause = f"you lay your {card_pretty(move.cards[0])} face up for later"
        idea = "Before play: put the cards that go on anything (and high cards) face up."
    else:
        return None
    return Facts(move, (), -1, 0, -1, (clause,), idea)


def choice_words(move: Move, equivalent: Sequence[Move] = (), short: bool = False) -> str:
    """One choice, however many suits it comes in: ``'play a 7 (any of 7H, 7S)'``,
    ``'play three kings (any three of KC, KD, KH, KS)'``; ``'play 7H'`` when it is the only way.
    ``short`` leaves the cards out (``'play a 7'``), for a sentence that names several choices."""
    if not equivalent:
        return str(move)
    moves = (move, *equivalent)
    if move.kind == FLIP:
        return f"{move} (or any other face-down card: none has been seen)"
    if all(m.kind == PLAY and m.give < 0 and m.claim < 0 and len(m.cards) == len(move.cards) for m in moves):
        ranks = {c >> 2 for m in moves for c in m.cards}
        if len(ranks) == 1:
            r, n = ranks.pop(), len(move.cards)
            cards = sorted({c for m in moves for c in m.cards})
            names = ", ".join(card_str(c) for c in cards)
            if short:
                return f"play {some(r, n)}"
            return f"play {some(r, n)} (any {'' if n == 1 else number(n) + ' '}of {names})"
    return f"{move} (or {', '.join(map(str, equivalent))}: the same choice)"


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

# The cut-off evaluation's calibration error: the largest gap between the predicted and the
# observed chance of being the loser, over the deciles of held-out greedy games
# (`python benchmarks/advisor_fit_eval.py --games 150`: predicted 0.649, observed 0.599;
# predicted 0.846, observed 0.897).
EVAL_ERROR = 0.05


def interval(mean: float, n: int, std: float | None = None, z: float = Z95,
             certain: bool = False) -> tuple[float, float]:
    """A 95% interval for the chance behind ``n`` simulations with this mean (and spread).

    Two errors, added:

    - the Monte Carlo error as if every simulation were one finished game: Wilson's interval
      (:func:`tutor.core.stats.wilson_bounds`) for ``mean`` over ``n`` 0/1 outcomes. A
      simulation cut off and scored 77% by the evaluation stands for a game won 77% of the
      time, not a certain 77%, so this is wider than the rewards' own spread (which is zero
      when every simulation got the same score);
    - the evaluation's own error, :data:`EVAL_ERROR`, on each side, times the share of the
      outcome's variance the evaluation decided rather than finished games
      (``E[r(1-r)] / (mean(1-mean))``, from the rewards' mean and spread: 0 when every
      simulation was played to the end, 1 when every one was cut off with the same score).

    Zero width only when the outcome is ``certain`` (the move puts you out).
    """
    if certain:
        return mean, mean
    low, high = wilson_bounds(mean, n, z)
    if n > 0 and std is not None:
        low -= EVAL_ERROR * evaluated_share(mean, std)
        high += EVAL_ERROR * evaluated_share(mean, std)
    return max(0.0, low), min(1.0, high)


def evaluated_share(mean: float, std: float) -> float:
    """The share of a move's outcome variance left to the evaluation (cut-off simulations)."""
    open_ = mean - std * std - mean * mean  # E[r(1-r)]: zero when every reward is 0 or 1
    whole = mean * (1 - mean)
    return 0.0 if whole <= 1e-9 else min(1.0, max(0.0, open_ / whole))


def standard_error(mean: float, n: int) -> float:
    """The standard error of a chance from ``n`` simulations, each counted as one game (the
    Bernoulli spread at the Laplace-smoothed mean, so 0 of 10 is not certain)."""
    if n < 2:
        return 1.0
    p = (mean * n + 1) / (n + 2)
    return math.sqrt(p * (1 - p) / n)


def search_error(std: float, n: int) -> float:
    """The search's own Monte Carlo error of a move's mean reward (the rewards' spread over root n).
    Two moves are compared with it: the evaluation's error (in :func:`interval`) is shared by
    moves judged by the same evaluation, so it widens each chance more than their difference."""
    return std / math.sqrt(n) if n > 1 else 1.0


def too_close(a_mean: float, a_se: float, b_mean: float, b_se: float) -> bool:
    """Two moves whose difference is within noise (about two standard errors) or under a point."""
    diff = a_mean - b_mean
    return diff < 0.01 or not separated(diff, a_se, b_se)


PRINCIPLE = ("When the search cannot separate the moves, play the cheapest plain card among them and keep the "
             "cards that burn or go on anything for later.")
PRINCIPLE_PLAIN = "When the search cannot separate the moves, play the cheapest plain card among them."
PRINCIPLE_BURN = ("When the search cannot separate the moves, play the cheapest plain card among them that does "
                  "not let the next player complete four of a kind.")
PRINCIPLE_BLIND = ("When the search cannot separate the moves and the next player turns a card over blind, "
                   "leave the card that the fewest unseen cards beat.")
PRINCIPLE_FEWER = ("When the search cannot separate the moves and each of them spends the same special card, "
                   "spend as few of them as will do.")
PRINCIPLE_SPECIAL = ("When the search cannot separate the moves and each of them spends a special card, spend "
                     "the one that goes on the fewest cards and keep the one that goes on more.")


def plain_play(v: Variant, move: Move) -> bool:
    """A play of one ordinary rank (no power of the variant, no swap or claim)."""
    return (move.kind == PLAY and bool(move.cards) and move.give < 0 and move.claim < 0
            and len({c >> 2 for c in move.cards}) == 1 and not special(v, move.cards[0] >> 2))


def _reach(v: Variant, rank: int) -> int:
    """On how many tops (the ranks and the empty pile) a rank may be played."""
    return sum(1 for t in range(15) if v.place[t][rank])


def principled(v: Variant, choices: Sequence[Facts]) -> tuple[Facts | None, str]:
    """The principle's choice among moves the search cannot separate, and the principle.

    The cheapest plain play (the lowest rank, every copy of it), keeping the specials; when
    the next player turns a card over blind, the plain play fewest unseen cards beat first;
    when every choice spends a special card, the special that goes on the fewest cards (a
    Lancaster 10 before a 2). None when no choice is a play.
    """
    plain = [f for f in choices if plain_play(v, f.move)]
    if plain:
        if any(f.next_odds >= 0 for f in plain):
            pick = min(plain, key=lambda f: (f.next_odds if f.next_odds >= 0 else 2.0, f.rank, -f.n))
            return pick, PRINCIPLE_BLIND
        safe = [f for f in plain if not f.gives_burn]  # a known burn handed to the next player is weighed
        pick = min(safe or plain, key=lambda f: (f.rank, -f.n))
        if safe and len(safe) < len(plain) and any(f.rank == pick.rank for f in plain if f.gives_burn):
            return pick, PRINCIPLE_BURN
        return pick, (PRINCIPLE if pick.kept_at >= 0 else PRINCIPLE_PLAIN)
    plays = [f for f in choices if f.move.kind == PLAY and f.move.give < 0 and f.move.claim < 0 and f.rank >= 0
             and len({c >> 2 for c in f.move.cards}) == 1]
    if plays:
        pick = min(plays, key=lambda f: (_reach(v, f.rank), f.n, f.rank))
        return pick, (PRINCIPLE_FEWER if len({f.rank for f in plays}) == 1 else PRINCIPLE_SPECIAL)
    return None, ""


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
