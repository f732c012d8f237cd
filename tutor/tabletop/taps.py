"""What tapped cards mean: the legal moves they form, read off the engine.

A tap picks a *place*: a hand card (``'h:7H'``), a face-up card (``'u:9S'``) or a face-down
card by position (``'d:2'``). Each of the engine's legal moves takes some places from the
player's own zones (its cards, a swap's two cards, the card it lays face up, the face-down
card it turns over); a set of tapped places forms exactly the legal moves that take those
places. Moves that take no card (pick up, ready, gamble, call) are buttons.

Nothing here decides a rule: the moves are :func:`tutor.engine.legal_moves`, and when the
tapped cards form none, the reason is :func:`tutor.engine.check`'s for playing them.

>>> from tutor.core.table import table_from_dict
>>> t = table_from_dict({"players": [{"name": "A", "hand": ["7H", "7S", "KD"]}, {"name": "B", "hand": 3}],
...                      "pile": [["8C"]], "turn": "A"})
>>> [str(o.move) for o in formed(offers(t, "pagat"), ["h:7H", "h:7S"])]
[]
>>> [str(o.move) for o in formed(offers(t, "pagat"), ["h:KD"])]
['play KD']
>>> reason_for(t, "pagat", ["h:7H", "h:7S"])
'Two 7s do not beat the 8.'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from tutor.core.cards import UNKNOWN, card_str, parse_card
from tutor.core.errors import NotationError
from tutor.core.moves import FLIP, PICKUP, PLACE, PLAY, SLIDE, SWAP, Move
from tutor.core.table import Player, Table
from tutor.engine import check, legal_moves
from tutor.engine.words import move_words
from tutor.rules.variant import Variant, load_variant

HAND, UP, DOWN = "h", "u", "d"
MAX_GROUP = 4  # equal cards in a zone whose every subset gets its reason ready; more: by count only


@dataclass(frozen=True)
class Offer:
    """A legal move and the places it takes (sorted)."""

    move: Move
    takes: tuple[str, ...]

    @property
    def label(self) -> str:
        words = move_words(self.move)
        return words[:1].upper() + words[1:]


def key(places: Iterable[str]) -> str:
    """The places as one key, order not counting: ``'h:7H h:7S'``."""
    return " ".join(sorted(places))


def _assign(p: Player, cards: Sequence[int]) -> list[str]:
    """Played cards as places: from the hand while it holds them, then face up."""
    hand = Counter(c for c in p.hand if c != UNKNOWN)
    out = []
    for c in cards:
        if hand[c] > 0:
            hand[c] -= 1
            out.append(f"{HAND}:{card_str(c)}")
        else:
            out.append(f"{UP}:{card_str(c)}")
    return out


def takes(table: Table, move: Move) -> tuple[str, ...]:
    """The places of the mover's own cards that ``move`` uses."""
    p = table.player
    if move.kind in (PLAY, SLIDE):
        if not move.cards:
            return ()
        return tuple(sorted(_assign(p, move.cards)))
    if move.kind == FLIP:
        return (f"{DOWN}:{move.index}",)
    if move.kind == PLACE:
        return (f"{HAND}:{card_str(move.cards[0])}",)
    if move.kind == SWAP:
        return tuple(sorted((f"{HAND}:{card_str(move.cards[0])}", f"{UP}:{card_str(move.cards[1])}")))
    if move.kind == PICKUP and move.cards:
        return tuple(sorted(f"{UP}:{card_str(c)}" for c in move.cards))
    return ()


def offers(table: Table, v: Variant | str, moves: Sequence[Move] | None = None) -> list[Offer]:
    """Every legal move (or ``moves``) with the places it takes."""
    v = load_variant(v)
    moves = legal_moves(table, v) if moves is None else moves
    return [Offer(m, takes(table, m)) for m in moves]


def formed(options: Sequence[Offer], places: Iterable[str]) -> list[Offer]:
    """The offers that take exactly the tapped places."""
    k = key(places)
    return [o for o in options if o.takes and key(o.takes) == k]


def move_of(places: Sequence[str]) -> Move | None:
    """The move the tapped places say, legal or not: a play of the tapped cards, or the
    face-down card turned over; None if they say none (a face-down card with others)."""
    downs = [p for p in places if p.startswith(DOWN + ":")]
    if downs:
        if len(places) != 1:
            return None
        return Move(FLIP, (), int(downs[0][2:]))
    if not places:
        return None
    try:
        return Move.play(*(parse_card(p[2:]) for p in places))
    except NotationError:
        return None


_ZONE_WORDS = {HAND: "the hand", UP: "the face-up cards", DOWN: "the face-down cards"}


def reason_for(table: Table, v: Variant | str, places: Sequence[str]) -> str:
    """The engine's reason about the tapped places as a move (why they are not legal). When the
    same cards make a legal move from another zone (two packs: a 7H in hand and one face up),
    it says where the legal move takes them from."""
    v = load_variant(v)
    move = move_of(places)
    if move is None:
        return "Turn over one face-down card at a time, on its own."
    verdict = check(table, v, move)
    if verdict.legal:
        there = next((o.takes for o in offers(table, v) if o.move == move), ())
        zones = sorted({p.split(":")[0] for p in there}, key="hud".index)
        where = " and ".join(_ZONE_WORDS[z] for z in zones) or "elsewhere"
        return f"The same cards are played from {where}, not from where they were tapped."
    return verdict.reason


def _groups(p: Player) -> list[list[str]]:
    """Equal cards of the mover's hand and face-up zone, as places, grouped by rank and zone."""
    out: dict[tuple[str, int], list[str]] = {}
    for zone, cards in ((HAND, p.hand), (UP, p.face_up_cards)):
        for c in sorted(c for c in cards if c != UNKNOWN):
            out.setdefault((zone, c >> 2), []).append(f"{zone}:{card_str(c)}")
    return list(out.values())


def reasons(table: Table, v: Variant | str, options: Sequence[Offer]) -> dict[str, str]:
    """The engine's reason for each tap a player is likely to try that forms no legal move:
    any cards of one rank from one zone, and each face-down card."""
    v = load_variant(v)
    legal = {key(o.takes) for o in options if o.takes}
    tries: list[tuple[str, ...]] = []
    for group in _groups(table.player):
        if len(group) <= MAX_GROUP:
            tries += [c for n in range(1, len(group) + 1) for c in combinations(group, n)]
        else:
            tries += [tuple(group[:n]) for n in range(1, len(group) + 1)]
    tries += [(f"{DOWN}:{i}",) for i in range(1, len(table.player.face_down) + 1)]
    out = {}
    for t in tries:
        k = key(t)
        if k not in legal and k not in out:
            out[k] = reason_for(table, v, t)
    return out


def tap_data(table: Table, v: Variant | str, moves: Sequence[Move] | None = None,
             words: Any = None) -> dict[str, Any]:
    """What the card-table view needs to offer moves as cards are tapped: each legal move that
    takes cards (its id, its words, its places), the moves that take none (buttons), and the
    engine's reasons for likely taps that form nothing. ``words`` rewrites every sentence shown
    (e.g. :func:`second_person`)."""
    say = words or (lambda s: s)
    options = offers(table, v, moves)
    return {
        "moves": [{"id": str(o.move), "label": say(o.label), "takes": list(o.takes)} for o in options if o.takes],
        "buttons": [{"id": str(o.move), "label": say(o.label)} for o in options if not o.takes],
        "why": {k: say(r) for k, r in reasons(table, v, options).items()},
    }


_IRREGULAR = {"has": "have", "is": "are", "does": "do", "was": "were"}


def second_person(text: str, name: str = "You") -> str:
    """A sentence about the seat called ``name`` ("You") made to agree: 'You plays again' ->
    'You play again', 'You has no cards' -> 'You have no cards'. The engine names seats in the
    third person; the Play page calls the learner's seat You.

    >>> second_person("The 10 burns the pile, and You plays again.")
    'The 10 burns the pile, and you play again.'
    >>> second_person("You has only face-down cards left, so must turn one over.")
    'You have only face-down cards left, so must turn one over.'
    >>> second_person("It is You's lead, not Ann's.")
    "It is your lead, not Ann's."

    """
    def fix(m: re.Match[str]) -> str:
        you, verb = m.group(1), m.group(2)
        if m.start() > 0 and you == name:
            you = name.lower()
        if verb in _IRREGULAR:
            return f"{you} {_IRREGULAR[verb]}"
        if verb.endswith(("ches", "shes", "sses", "xes")):
            return f"{you} {verb[:-2]}"
        if verb.endswith("s") and not verb.endswith(("ss", "us", "is")):
            return f"{you} {verb[:-1]}"
        return f"{you} {verb}"

    text = re.sub(rf"\b{re.escape(name)}'s(?=\s+[a-z])", "your", text)
    text = re.sub(rf"\b{re.escape(name)}'s\b", "yours", text)
    text = re.sub(rf"\b({re.escape(name)}) ([a-z]+)\b", fix, text)
    # a sentence that starts after a full stop keeps its capital
    return re.sub(r"(^|[.!?:]\s+)(you|your|yours)\b", lambda m: m.group(1) + m.group(2).capitalize(), text)
