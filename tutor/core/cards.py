"""Cards as small integers, and their notation.

A card is an ``int``: ``rank * 4 + suit`` for the 52 ordinary cards, where rank
0 is the 2 and rank 12 the ace, and suit 0-3 is clubs, diamonds, hearts, spades.
Every joker is ``JOKER`` (52): jokers are alike. ``UNKNOWN`` (-1) stands for a
card nobody at the table can see (an unseen hand card, a face-down card, the
stock).

>>> parse_card("10h"), card_str(parse_card("T♥"))
(34, '10H')
>>> rank_of(parse_card("JK")) == JOKER_RANK
True
"""

from __future__ import annotations

from collections.abc import Iterable

from tutor.core.errors import NotationError

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK")
SUIT_NAMES = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
JOKER_RANK = 13
N_RANKS = 14  # 13 ranks and the joker
JOKER = 52
UNKNOWN = -1
EMPTY = 14  # the "rank" of an empty pile in the variant's lookup tables

_RANK_INPUT = {name: i for i, name in enumerate(RANK_NAMES[:13])}
_RANK_INPUT["T"] = 8
_SUIT_INPUT = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
               "♧": 0, "♢": 1, "♡": 2, "♤": 3}


def rank_of(card: int) -> int:
    """The rank index of a card (0 for a 2 ... 12 for an ace, 13 for a joker)."""
    return card >> 2


def rank_index(text: str) -> int:
    """Read a rank alone: ``'10'``, ``'T'``, ``'q'``, ``'JK'``."""
    t = str(text).strip().upper()
    if t in ("JK", "JOKER"):
        return JOKER_RANK
    if t in _RANK_INPUT:
        return _RANK_INPUT[t]
    raise NotationError(f"{text!r} is not a rank (2-10, J, Q, K, A or JK)")


RUN_CLAIM = 100  # Bluff: a claim at or above this names a run (see run_claim)
SET_COUNTED = 16  # Bluff: a claim from this up to RUN_CLAIM names a rank and a count (see count_claim)
MAX_CLAIMED = 4  # Bluff: the most cards one claim of a rank may name (four of a kind)


def run_claim(first: int, last: int) -> int:
    """Bluff: the claim of a run of one suit from rank ``first`` up to ``last`` (e.g. 7-9)."""
    return RUN_CLAIM + first * 16 + last


def count_claim(rank: int, n: int) -> int:
    """Bluff: the claim of ``n`` cards of ``rank`` said aloud, whatever number really goes down
    (``'7x2'``). Write it with :func:`claim_for`, which keeps a plain rank when the count is true."""
    return SET_COUNTED * n + rank


def claim_for(claim: int, n_cards: int) -> int:
    """The claim as a play of ``n_cards`` cards holds it: a count that is the cards' own number
    is no lie and is not kept ('play 7S 7H as 7x2' is 'play 7S 7H as 7')."""
    if SET_COUNTED <= claim < RUN_CLAIM and claim // SET_COUNTED == n_cards:
        return claim % SET_COUNTED
    return claim


def claim_ranks(claim: int) -> tuple[int, ...]:
    """The ranks a claim names, lowest first: one for a plain claim, several for a run."""
    if claim < RUN_CLAIM:
        return (claim % SET_COUNTED,)
    first, last = divmod(claim - RUN_CLAIM, 16)
    return tuple(range(first, last + 1))


def claim_top(claim: int) -> int:
    """The rank a claim leaves on top of the pile (a run's last rank)."""
    return claim % SET_COUNTED if claim < RUN_CLAIM else (claim - RUN_CLAIM) % 16


def claim_count(claim: int, n_cards: int) -> int:
    """How many cards a claim says a play of ``n_cards`` cards is: a run one per rank, a said
    count ('7x2') its count, a plain rank the cards' own number."""
    if claim >= RUN_CLAIM:
        return len(claim_ranks(claim))
    return claim // SET_COUNTED if claim >= SET_COUNTED else n_cards


def claim_str(claim: int) -> str:
    """A claim as written after 'as': ``'Q'``, ``'7x2'`` with a said count, or ``'7-9'`` for a run."""
    ranks = claim_ranks(claim)
    if len(ranks) > 1:
        return f"{RANK_NAMES[ranks[0]]}-{RANK_NAMES[ranks[-1]]}"
    if SET_COUNTED <= claim < RUN_CLAIM:
        return f"{RANK_NAMES[ranks[0]]}x{claim // SET_COUNTED}"
    return RANK_NAMES[ranks[0]]


def parse_claim(text: str) -> int:
    """Read a claim: a rank (``'Q'``), a rank and how many (``'7x2'``, one to four), or a run
    ``'7-9'`` (two ranks or more, 3 up to the ace; a run names one card per rank)."""
    t = str(text).strip()
    if "x" in t.lower() and t.upper() not in ("JK", "JOKER"):
        head, _, count = t.lower().rpartition("x")
        if "-" in head:
            raise NotationError(f"{text!r}: a run claims one card for each rank it names; write no count")
        if not count.isdigit() or not 1 <= int(count) <= MAX_CLAIMED:
            raise NotationError(f"{text!r} is not a claim: after the rank write x and how many cards, "
                                f"1 to {MAX_CLAIMED} (e.g. 7x2)")
        try:
            return count_claim(rank_index(head), int(count))
        except NotationError:
            raise NotationError(f"{text!r} is not a claim: write a rank, then x and how many cards "
                                "(e.g. 7x2)") from None
    if "-" not in t:
        return rank_index(t)
    a, _, b = t.partition("-")
    first, last = rank_index(a), rank_index(b)
    if not 1 <= first < last <= 12:
        raise NotationError(f"{text!r} is not a run: write the first and last rank, low to high, "
                            "from 3 up to the ace (e.g. 7-9)")
    return run_claim(first, last)


PARSED_CARDS: dict[str, int] = {}  # text already read -> its card (the table file's cards, over and over)


def parse_card(text: object) -> int:
    """Read one card: ``'7H'``, ``'10s'``, ``'T♠'``, ``'JK'``."""
    if type(text) is str:
        got = PARSED_CARDS.get(text)
        if got is not None:
            return got
        card = _parse_card(text)
        if len(PARSED_CARDS) < 4096:
            PARSED_CARDS[text] = card
        return card
    return _parse_card(text)


def _parse_card(text: object) -> int:
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise NotationError(f"{text!r} is not a card")
    t = str(text).strip().upper()
    if t in ("JK", "JOKER", "🃏"):
        return JOKER
    if len(t) < 2 or t[-1] not in _SUIT_INPUT or t[:-1] not in _RANK_INPUT:
        raise NotationError(f"{text!r} is not a card")
    return _RANK_INPUT[t[:-1]] * 4 + _SUIT_INPUT[t[-1]]


def card_str(card: int) -> str:
    """Write a card as the contract does: ``10H``, ``QS``, ``JK``; ``??`` if unseen."""
    if -1 <= card <= JOKER:
        return _CARD_STR[card]
    if card == UNKNOWN:
        return "??"
    if card == JOKER:
        return "JK"
    return RANK_NAMES[card >> 2] + SUIT_NAMES[card & 3]


# every card's notation, by card; the last is the unseen card's (-1)
_CARD_STR = tuple(RANK_NAMES[c >> 2] + SUIT_NAMES[c & 3] for c in range(JOKER)) + ("JK", "??")


def card_pretty(card: int) -> str:
    """A card with its suit symbol, for people: ``10♥``, ``Q♠``, ``🃏``."""
    if card == UNKNOWN:
        return "🂠"
    if card == JOKER:
        return "JK"
    return RANK_NAMES[card >> 2] + SUIT_SYMBOLS[card & 3]


def is_red(card: int) -> bool:
    return card not in (UNKNOWN, JOKER) and (card & 3) in (1, 2)


def parse_cards(texts: Iterable[object]) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in texts)


def cards_str(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def rank_name(rank: int) -> str:
    """``'10'``, ``'Q'``; an empty pile is ``'empty pile'``."""
    return "empty pile" if rank == EMPTY else RANK_NAMES[rank]


def rank_plural(rank: int) -> str:
    names = {9: "jacks", 10: "queens", 11: "kings", 12: "aces", 13: "jokers"}
    return names.get(rank, RANK_NAMES[rank] + "s")


def full_pack(decks: int = 1, jokers: int = 0) -> list[int]:
    """Every card of ``decks`` packs, with ``jokers`` jokers in all, in order."""
    return [c for _ in range(decks) for c in range(52)] + [JOKER] * jokers
