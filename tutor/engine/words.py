"""Words: every rank, card and move named once, for the sentences people read.

The verdicts, the advisor's explanations, the lessons and the pages all name cards
and moves through these functions, so "an 8", "two jacks", "turn over face-down card 2"
and "You play" / "A plays" are written one way everywhere.

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

from tutor.core.cards import EMPTY, RANK_NAMES, card_pretty
from tutor.core.moves import CALL, FLIP, GAMBLE, PICKUP, PLACE, PLAY, READY, SLIDE, SWAP, Move

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
            text = (f"play {number(len(move.cards))} card{'s' if len(move.cards) > 1 else ''} face down"
                    f"{seen}, saying {'they are' if len(move.cards) > 1 else 'it is'} "
                    f"{plural(move.claim) if len(move.cards) > 1 else a(move.claim)}")
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
        return f"slide {card_pretty(move.cards[0])} under the pile"
    if kind == CALL:
        return "call the last claim a bluff"
    return str(move)
