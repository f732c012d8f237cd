"""Words: every rank, card and move named once, and the verdict sentences built from them.

The verdicts, the advisor's explanations, the lessons and the pages all name cards
and moves through these functions, so "an 8", "two jacks", "turn over face-down card 2"
and "You play" / "A plays" are written one way everywhere. The engine decides (a reason
code, the fragments, typed context, events with their causes); :func:`sentence` and
:func:`effects` say it, reading the cards' powers from the variant (a 2 a user's fragment
makes force a pickup is "a 2", not "a superjoker").

>>> some(9, 2), a(6), a(12), the(11)
('two jacks', 'an 8', 'an ace', 'the king')
>>> from tutor.core.moves import Move
>>> move_words(Move.parse("play 7H 7S"))
'play two 7s (7♥ 7♠)'
>>> does("You", "plays"), does("B", "plays"), does("You", "has")
('You play', 'B plays', 'You have')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tutor.core.cards import (
    EMPTY,
    JOKER_RANK,
    RANK_NAMES,
    RUN_CLAIM,
    UNKNOWN,
    card_pretty,
    card_str,
    claim_count,
    claim_ranks,
    claim_top,
    rank_plural,
)
from tutor.core.moves import CALL, FLIP, GAMBLE, PICKUP, PLACE, PLAY, READY, SLIDE, SWAP, Move
from tutor.core.reasons import Event, Reason, Top, Zone

if TYPE_CHECKING:
    from tutor.engine.position import Position
    from tutor.rules.variant import Variant

BURN, REVERSE, SKIP, PLAY_AGAIN = Event.BURN, Event.REVERSE, Event.SKIP, Event.PLAY_AGAIN
PICKED_UP, OUT, GAME_OVER = Event.PICKUP, Event.OUT, Event.GAME_OVER
HAND, FACE_UP = Zone.HAND, Zone.FACE_UP

_RANK_WORDS = {9: "jack", 10: "queen", 11: "king", 12: "ace", 13: "joker"}
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
_IRREGULAR = {"has": "have", "is": "are", "does": "do", "was": "were"}

YOU = "You"  # the name the app gives the person playing


def word(rank: int) -> str:
    """``'7'``, ``'jack'``; an empty pile is ``'empty pile'``."""
    return "empty pile" if rank == EMPTY else _RANK_WORDS.get(rank, RANK_NAMES[rank])


def a(rank: int) -> str:
    """``'a 7'``, ``'an 8'``, ``'an ace'``."""
    w = word(rank)
    return ("an " if w in ("8", "ace") else "a ") + w


def the(rank: int) -> str:
    return "the " + word(rank)


def said_as(claim: int, n: int) -> str:
    """What a Bluff claim says ``n`` cards are: ``'a queen'``, ``'queens'``, ``'the run 7 to 9 of
    one suit'``; with a count that is not the cards' own, the count said: ``'two 7s'``."""
    if claim >= RUN_CLAIM:
        ranks = claim_ranks(claim)
        return f"the run {RANK_NAMES[ranks[0]]} to {RANK_NAMES[ranks[-1]]} of one suit"
    k = claim_count(claim, n)
    if k != n:
        return some(claim_top(claim), k)
    return plural(claim) if n > 1 else a(claim)


def said_count(claim: int, n: int) -> str:
    """A Bluff claim of ``n`` cards with its count said: ``'two 7s'``, ``'the run 7 to 9 of one suit'``."""
    return said_as(claim, n) if claim >= RUN_CLAIM else some(claim_top(claim), claim_count(claim, n))


def unlisted_note(v: Variant) -> str | None:
    """What a list of every legal move leaves out, said under it (None: nothing)."""
    if not v.bluff:
        return None
    return ("Bluff: any play from the hand may also claim another number of cards than go down, or hide "
            "cards under it ('play 7S 7H 4C as 7x2', 'play 7S as 7x2'); such plays are legal too but not listed.")


def plural(rank: int) -> str:
    """``'7s'``, ``'jacks'``."""
    return _RANK_WORDS[rank] + "s" if rank in _RANK_WORDS else RANK_NAMES[rank] + "s"


def number(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def some(rank: int, n: int) -> str:
    """``'a 7'``, ``'two 7s'``."""
    return a(rank) if n == 1 else f"{number(n)} {plural(rank)}"


def listing(items: Sequence[str]) -> str:
    """``'a, b and c'`` (repeats dropped)."""
    items = list(dict.fromkeys(items))
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def does(who: str, verb: str) -> str:
    """``who`` and a verb in the third person, agreeing: ``'A plays'``, ``'You play'``."""
    if who != YOU:
        return f"{who} {verb}"
    if verb in _IRREGULAR:
        return f"{who} {_IRREGULAR[verb]}"
    if verb.endswith(("ches", "shes", "sses", "xes")):
        return f"{who} {verb[:-2]}"
    if verb.endswith("s") and not verb.endswith("ss"):
        return f"{who} {verb[:-1]}"
    return f"{who} {verb}"


def cards_words(cards: Sequence[int]) -> str:
    """The cards with their suits: ``'7♥ 7♠'``."""
    return " ".join(card_pretty(c) for c in cards)


def move_words(move: Move, *, hidden: bool = False) -> str:
    """A move as a person says it, with the cards shown: ``'play two 7s (7♥ 7♠)'``; with
    ``hidden``, a Bluff play as the other players see it (the count and the claim, not the cards)."""
    kind = move.kind
    if kind == PLAY:
        ranks = {c >> 2 for c in move.cards}
        if len(ranks) == 1:
            what = some(move.cards[0] >> 2, len(move.cards))
        else:
            what = f"the run {cards_words(sorted(move.cards))}"
        text = f"play {what} ({cards_words(move.cards)})" if len(ranks) == 1 else f"play {what}"
        if move.claim >= 0:
            seen = "" if hidden else f" ({cards_words(move.cards)})"
            many = claim_count(move.claim, len(move.cards)) > 1
            text = (f"play {number(len(move.cards))} card{'s' if len(move.cards) > 1 else ''} face down"
                    f"{seen}, saying {'they are' if many else 'it is'} "
                    f"{said_as(move.claim, len(move.cards))}")
        if move.give >= 0:
            give = card_pretty(move.give)
            if move.target and move.take >= 0:
                text += f", then give {give} for {move.target}'s face-up {card_pretty(move.take)}"
            elif move.target:
                text += f", then give {give} to {move.target} and take a card from their hand blind"
            else:
                text += f", then swap {give} from your hand for your face-up {card_pretty(move.take)}"
        return text
    if kind == PICKUP:
        if move.cards:
            return f"pick up the pile, adding {cards_words(move.cards)} from your face-up cards"
        return "pick up the pile"
    if kind == FLIP:
        text = f"turn over face-down card {move.index}"
        if move.claim >= 0:
            text += f", saying it is {a(move.claim)}"
        return text
    if kind == SWAP:
        return f"swap {card_pretty(move.cards[0])} from your hand for {card_pretty(move.cards[1])} face up"
    if kind == READY:
        return "ready: done arranging"
    if kind == PLACE:
        return f"lay {card_pretty(move.cards[0])} face up"
    if kind == GAMBLE:
        return "try the top card of the stock"
    if kind == SLIDE:
        if move.target:
            return f"{move.target} slides {card_pretty(move.cards[0])} under the pile, out of turn"
        return f"slide {card_pretty(move.cards[0])} under the pile"
    if kind == CALL:
        return "call the last claim a bluff"
    return str(move)


def effects(pos: Position, move: Move, events: Sequence[str], causes: Sequence[str]) -> str:
    """What a legal move sets off, in words (``pos``: the position before it; ``causes``: the
    fragment behind each event, as :meth:`Position.push` gives them). The fragments a verdict
    names for them are the facade's (``effect_rules``)."""
    v = pos.v
    who = move.target if move.kind == SLIDE and move.target else pos.names[pos.turn]
    bits: list[str] = []
    cause = dict(zip(events, causes, strict=False))
    last = pos.last_down(move) if move.kind == FLIP else None
    if last is not None:  # the last face-down card decided the game for its player at once
        rank, outcome, fids = last
        you = who == YOU
        if outcome == "lose":
            then = "lose" if you else "loses"
            then += " the game at once"
        elif v.goal == "winner":
            then = ("win" if you else "wins") + " the game at once"
        else:
            then = ("are" if you else "is") + " out at once, safe from losing"
        bits.append(f"{does(who, 'turns')} {a(rank)} as the last down card and {then}")
        if BURN in events:
            bits.append("four of a kind together on top burn the pile" if not v.burn[rank] else f"{the(rank)} burns the pile")
        if GAME_OVER in events:
            bits.append("the game is over")
        elif outcome == "lose":
            bits.append("the others play on")
        return ", and ".join(bits) if len(bits) < 3 else ", ".join(bits[:-1]) + " and " + bits[-1]
    if move.kind == PLAY:
        rank = move.cards[-1] >> 2  # the card on top once laid (a run lies highest on top)
    elif move.kind == FLIP and PICKED_UP not in events:
        rank = pos.downs[pos.turn][move.index - 1] >> 2
    elif move.kind == GAMBLE and PICKED_UP not in events:
        rank = pos.stock[0] >> 2  # Egilsson: the stock's top card, played
    else:
        rank = -1
    if move.kind == CALL and pos.pile:  # Bluff: the called play is turned over
        cards, by, claim = pos.pile[-1]
        them = pos.names[by] if by >= 0 else "the player before"
        put = (f"{them} put {number(len(cards))} card{'s' if len(cards) > 1 else ''} down "
               f"({cards_words(cards)}), claimed as {said_count(claim, len(cards))}")
        if Event.CAUGHT in events:
            bits.append(f"{who} called: {put}: {them} takes the pile")
        else:
            bits.append(f"{who} called: {put}, and that is true: {who} takes the pile")
    if move.kind == PLAY and move.claim >= 0 and claim_count(move.claim, len(move.cards)) != len(move.cards):
        n = len(move.cards)
        bits.append(f"{does(who, 'puts')} {number(n)} card{'s' if n > 1 else ''} down as "
                    f"{said_count(move.claim, n)}: a lie in the count, which a call would catch")
    if BURN in events:
        if rank >= 0 and v.burn[rank] and not v.bluff:
            bits.append(f"{the(rank)} burns the pile")
        elif v.bluff and cause[BURN] != v.setting_origin("four_burns"):
            bits.append("the claimed card below destroyed the pile as this one landed")
        else:
            bits.append("four of a kind together on top burn the pile")
    if REVERSE in events:
        bits.append("the direction of play reverses")
    if SKIP in events:
        bits.append("the next player misses a turn")
    if PICKED_UP in events and move.kind == FLIP:
        bits.append("it cannot go, so the pile is taken up with it")
    if PLAY_AGAIN in events:
        bits.append(f"{who} plays again")
    if OUT in events:
        bits.append(f"{who} has no cards left and is out")
    if GAME_OVER in events:
        bits.append("the game is over")
    return ", and ".join(bits) if len(bits) < 3 else ", ".join(bits[:-1]) + " and " + bits[-1]


def _forcer(v: Variant) -> str:
    """The card that forces a pickup, named as its rule names it: 'a superjoker' (a joker)."""
    return "a superjoker" if v.force == JOKER_RANK else a(v.force)


def _deflector(v: Variant) -> str:
    """The card that passes a forced pickup on: 'a red jack', 'a black 2', 'a 7'."""
    if v.deflect is None:
        return "no card"
    rank, colour = v.deflect
    return a(rank) if colour == "any" else f"a {colour} {word(rank)}"


def _count_words(count: object) -> str:
    """Bluff: how a play of ``count`` cards is called."""
    return {1: "a single card", 2: "a double", 3: "a triple"}.get(count if isinstance(count, int) else 0,
                                                                   f"{count} cards")


# -- verdict sentences -------------------------------------------------------------


def sentence(pos: Position, move: Move, code: Reason, ctx: dict[str, object]) -> str:
    """The verdict's sentence: why ``move`` is legal or not, from the judge's code and context."""
    v = pos.v
    who = pos.names[pos.turn]
    rank = ctx.get("rank")
    top = ctx.get("top")
    under = ""
    if isinstance(top, Top) and top.looked_through:
        seen = top.looked_through
        what = rank_plural(seen[0]) if len(seen) > 1 else word(seen[0])
        under = f" under the transparent {what}"
    if isinstance(rank, int):
        n = int(ctx.get("n", 1))  # type: ignore[call-overload]
        if n > 1:
            played, s_ = f"{number(n)} {rank_plural(rank)}", ""
        else:
            played, s_ = a(rank), "s"
        cap = played[0].upper() + played[1:]
        t = top.rank if isinstance(top, Top) else EMPTY
        k = top.count if isinstance(top, Top) else 0
        the_top = f"the {number(k)} {rank_plural(t)}" if k > 1 and t != EMPTY else the(t)  # Bluff: a claimed pair
        if ctx.get("reversed"):
            under += " (a joker has turned the ranking upside down, so lower cards beat higher)"
        if code is Reason.EMPTY:
            if under:
                return f"Only transparent cards are on the pile, so anything may follow: {played} is fine."
            return f"The pile is empty, so {played} may start it."
        if code is Reason.BEATS:
            return f"{cap} beat{s_} {the_top}{under}."
        if code is Reason.MATCHES:
            return f"{cap} equal{s_} {the_top}{under}, and an equal card may be played."
        if code is Reason.ANYWHERE:
            what = cap if n > 1 else a(rank).capitalize()
            return f"{what} may be played on any card, {the(t)}{under} included."
        if code is Reason.RESET and isinstance(top, Top) and top.free:
            return (f"With two players in the game, whoever plays a joker plays again at once with a card "
                    f"of any value: {played} is fine.")
        if code is Reason.RESET:
            return f"Any card may be played on {a(t)}{under}."
        if code is Reason.UNDER_LIMIT:
            return f"{the(t).capitalize()}{under} makes the next play {a(t)} or lower, and {played} {'is' if s_ else 'are'}."
        if code is Reason.UNBEATABLE_OK:
            return f"Only some cards may go on {a(t)}, and {played} {'is' if s_ else 'are'} allowed."
        if code is Reason.FOUR_ANYTIME and v.bluff:
            quad = ctx.get("quad")
            below = number(quad) if isinstance(quad, int) else str(quad)
            made = (f"with the {below} claimed below "
                    f"{'it makes' if n == 1 else 'they make'} four of a kind," if quad else "four laid at once make")
            return (f"Claimed as {rank_plural(rank)}, {made} a quadruple: like a 10, it goes on anything and "
                    "destroys the pile.")
        if code is Reason.FOUR_ANYTIME:
            return f"Four or more {rank_plural(rank)} from the hand may be played on any card."
        if code is Reason.TOO_LOW:
            return f"{cap} do{'es' if s_ else ''} not beat {the(t)}{under}."
        if code is Reason.OVER_LIMIT:
            return f"{the(t).capitalize()}{under} makes the next play {a(t)} or lower, and {played} {'is' if s_ else 'are'} higher."
        if code is Reason.NOT_ON:
            return f"In this variant {a(rank)} cannot be played on {a(t)}{under}."
        if code is Reason.UNBEATABLE:
            return f"Only the cards this variant allows may go on {a(t)}{under}, and {played} {'is' if s_ else 'are'} not among them."
    if code is Reason.MIXED_RANKS:
        if v.bluff and ctx.get("why") == "hidden":
            return (f"The cards claimed as {number(int(str(ctx.get('n'))))} of a rank are of one rank (only the rank "
                    "may be a lie); any other cards may be hidden under them.")
        return "Cards played together must all be of one rank."
    if code is Reason.NOT_HELD:
        c = ctx.get("card")
        where = "face up" if ctx.get("zone") == FACE_UP else "in hand"
        return f"{who} has no {card_str(c) if isinstance(c, int) else 'such card'} {where}."
    if code is Reason.WRONG_ZONE:
        return f"{who} still has cards in hand, so face-up cards cannot be played yet."
    if code is Reason.MUST_FLIP:
        return f"{who} has only face-down cards left, so must turn one over."
    if code is Reason.EMPTY_PILE:
        return "The pile is empty, so there is nothing to pick up: play a card to start it."
    if code is Reason.MUST_PLAY:
        ex = ctx.get("example")
        return f"{who} can play (for example '{ex}'), and in this variant you must play if you can."
    if code is Reason.PICKUP_NEEDS_CARD:
        return (f"Playing from the face-up cards, {who} must add one face-up card to the pile "
                "before taking it: write 'pickup with CARD'.")
    if code is Reason.PICKUP_WITH_NOT_HERE:
        if pos.zone(pos.turn) == HAND:
            return "'pickup with' is for the face-up phase; with cards in hand, just 'pickup'."
        return "In this variant a face-up pickup leaves the face-up cards in place: just 'pickup'."
    if code is Reason.PICKUP_OK:
        if ctx.get("voluntary"):
            return f"{who} may take the pile instead of playing, whether or not a card would go."
        return f"{who} has no card that can go on the pile, so takes it."
    if code is Reason.FLIP_OK and v.last_down and len(pos.downs[pos.turn]) == 1:
        ends = listing([f"{a(r)} {'loses' if outcome == 'lose' else 'wins'} the game at once"
                        for r, (outcome, _) in sorted(v.last_down.items())])
        return (f"{who} turns over the last face-down card: {ends}; any other card stays if it can go on "
                "the pile, otherwise it is taken up with the pile.")
    if code is Reason.FLIP_OK:
        return (f"{who} plays blind: face-down card {move.index} is turned over; it stays if it "
                "can go on the pile, otherwise it is taken up with the pile.")
    if code is Reason.FLIP_NOT_YET:
        zone = "in hand" if ctx.get("zone") == HAND else "face up"
        return f"Face-down cards come last, and {who} still has cards {zone}."
    if code is Reason.FLIP_RANGE:
        return f"{who} has {ctx.get('n')} face-down cards, so there is no card {move.index}."
    if code is Reason.NOT_LEADER:
        leader = ctx.get("leader")
        if isinstance(leader, int):
            low = min(c >> 2 for c in pos.hand(leader) if c >> 2 >= 1 and c >> 2 not in v.never_leads)
            name = pos.names[leader]
            skipped = listing(["2s"] + [plural(r) for r in sorted(v.never_leads)])
            return (f"It is {name}'s lead, not {who}'s: {name} is the first player holding "
                    f"{a(low)}, the lowest card in anyone's hand ({skipped} do not count).")
        return f"It is not {who}'s lead."
    if code is Reason.OPENING:
        lead = ctx.get("rank")
        named = rank_plural(lead) if isinstance(lead, int) else "lowest cards"
        skipped = f" ({listing(['2s'] + [plural(r) for r in sorted(v.never_leads)])} do not count)" if v.never_leads else ""
        return (f"The first play of the game is the lowest card in the leader's hand{skipped}: {who} leads with "
                f"{a(lead) if isinstance(lead, int) else 'it'} (one or more {named}, nothing else).")
    if code is Reason.SETUP_ONLY:
        if v.setup == "choose":
            return (f"Before play starts, each player lays {v.setup_count} hand cards face up ('place CARD'), "
                    "then says 'ready'.")
        if v.setup not in ("swap", "stack"):
            return "In this variant the cards stay as dealt: before play each player only says 'ready'."
        return "Before play starts, only swaps between hand and face-up cards (and 'ready') are allowed."
    if code is Reason.NOT_SETUP:
        return "Hand and face-up cards are swapped only before play starts."
    if code is Reason.SWAP_OK:
        return f"Before play, {who} may exchange a hand card with a face-up card."
    if code is Reason.READY_OK:
        return f"{who} has finished arranging the face-up cards."
    if code is Reason.GAME_OVER:
        return "The game is over: no more moves."
    if move.kind == SLIDE and move.target and isinstance(ctx.get("by"), int):
        return _slide_by(pos, move, code, ctx, who)
    return _more_sentences(v, code, ctx, who)


def _slide_by(pos: Position, move: Move, code: Reason, ctx: dict[str, object], mover: str) -> str:
    """A slide out of turn ('slide 3C by B'), legal or not."""
    v = pos.v
    by = move.target
    named = card_str(move.cards[0])
    if code is Reason.SLIDE_OK:
        return (f"{by} may slide {named} under the pile even though it is {mover}'s turn; "
                f"it does not count as a turn, and the turn stays with {mover}.")
    seat = ctx.get("by")
    unseen = isinstance(seat, int) and seat >= 0 and pos.holds(seat, UNKNOWN) > 0
    lost = isinstance(seat, int) and seat >= 0 and bool(pos.lost >> seat & 1)
    return {"who": f"No player at this table is called that (the players: {listing(list(pos.names))}).",
            "variant": "This variant has no sliding cards under the pile.",
            "rank": f"Only {rank_plural(v.slide) if v.slide >= 0 else 'some cards'} slide under the pile.",
            "out": f"{by} has {'lost the game' if lost else 'no cards left and is out'}, so has nothing to slide.",
            "held": (f"The table does not show {named} in {by}'s hand (write the hand's cards to slide one)."
                     if unseen else f"{by} has no {named} in hand."),
            "pile": "There is no pile to slide a card under."}.get(str(ctx.get("why")), "No slide here.")


def _more_sentences(v: Variant, code: Reason, ctx: dict[str, object], who: str) -> str:
    """Sentences for the catalogue's rules beyond the plain game."""
    card = ctx.get("card")
    named = card_str(card) if isinstance(card, int) else "that card"
    texts = {
        Reason.PLACE_OK: f"Before play, {who} lays a hand card face up.",
        Reason.SETUP_COUNT: f"Each player lays exactly {ctx.get('n')} cards face up before play.",
        Reason.DEFLECT: (f"{_deflector(v).capitalize()} passes the forced pickup on: the next player must now "
                         "take the pile or answer it."),
        Reason.FORCED_PICKUP: (f"{_forcer(v).capitalize()} lies on the pile: {who} must take the pile"
                               + (f" (only {_deflector(v)} could pass it on)." if v.deflect else ".")),
        Reason.RUN: (f"A run claimed as {ctx.get('claim')} starts one higher than the card on top: {who} may "
                     "lay it face down at once (a call checks they are those very ranks)."
                     if v.bluff else
                     f"A run in one suit, each card playable on the one before: {who} may lay it down at once."),
        Reason.NOT_A_RUN: ({"hand": "A run is laid from the hand, never from the table's cards.",
                            "cards": ("The cards of a run are a run (one suit, consecutive, 3 to ace); "
                                      "only their ranks may be a lie, and other cards may be hidden under it."),
                            "start": (f"A run must start one higher than a single card of 3 to king on top, "
                                      f"and {ctx.get('claim')} does not follow {_top_words(ctx)}.")
                            }.get(str(ctx.get("why")), "That is not a run.")
                           if v.bluff else
                           "Cards of different ranks go together only as a run: consecutive, one suit, "
                           f"at least {v.runs or 2} cards."),
        Reason.RUN_STEP: f"The run breaks at {named}: it could not be played on the card before it.",
        Reason.NO_SWAP: "This play does not allow a swap.",
        Reason.BAD_SWAP: "That swap is not possible: give a card still in hand, and take one that is there to take.",
        Reason.GAMBLE_OK: (f"{who} turns over the top card of the stock instead of playing from the hand; "
                           "it is played if it can go, otherwise it is taken up with the pile."),
        Reason.NO_GAMBLE: {"variant": "This variant has no trying the stock's top card.",
                           "stock": "The stock is empty, so there is no card to try.",
                           "forced": f"{who} must take the pile.",
                           "zone": "The stock's top card may be tried only instead of a play from the hand."
                           }.get(str(ctx.get("why")), "That is not a move here."),
        Reason.SLIDE_OK: f"{who} slides {named} under the pile; it does not use up the turn.",
        Reason.NO_SLIDE: {"variant": "This variant has no sliding cards under the pile.",
                          "rank": f"Only {rank_plural(v.slide) if v.slide >= 0 else 'some cards'} slide under the pile.",
                          "held": f"{who} has no {named} in hand.",
                          "pile": "There is no pile to slide a card under.",
                          "forced": f"{who} must take the pile."}.get(str(ctx.get("why")), "No slide here."),
        Reason.WHOLE_STACK: "Equal face-up cards stacked together are played together, the whole stack.",
        Reason.NEEDS_CLAIM: "In Bluff every play names a rank: write 'play 7H as Q'.",
        Reason.CLAIM_NOT_HERE: "Claims and calls belong to Bluff; in this variant cards are played face up.",
        Reason.COUNT: ("Only a play from the hand may claim another number of cards than go down, or hide "
                       "cards under it; face-up and face-down cards go down as many as they are."
                       if ctx.get("why") == "hand" else
                       f"After {_count_words(ctx.get('count'))}, the next play must be {_count_words(ctx.get('count'))}"
                       " too, claimed equal or higher (or a lone 2 or 10, or four of a kind)."
                       if ctx.get("count") else "At most three cards go down at once, or four of a kind."),
        Reason.CALL_OK: f"{who} calls the last claim: the cards are turned over, and whoever was wrong takes the pile.",
        Reason.NO_CALL: "There is no claim of another player's on top of the pile to call.",
        Reason.BLUFF_NO_PICKUP: "In Bluff nobody simply takes the pile: play (truly or not), or call.",
    }
    fallback = "The rules allow this move." if code.legal else "The rules do not allow this move."
    return texts.get(code, fallback)




def _top_words(ctx: dict[str, object]) -> str:
    """The claim on top, as a verdict names it ('a claimed 6', 'an empty pile')."""
    top = ctx.get("top")
    rank = top.rank if isinstance(top, Top) else EMPTY
    return "an empty pile (value 0)" if rank == EMPTY else f"a claimed {RANK_NAMES[rank]}"
