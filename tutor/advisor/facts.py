"""What a strong player counts: facts read off the player's view, never the hidden cards.

Everything here takes a :class:`~tutor.advisor.view.PlayerView` and the
:class:`~tutor.rules.variant.Variant`. *Unseen* cards are the pack less every card whose
place the player knows (:meth:`PlayerView.unknown_pool`): the stock, every face-down card
(the player's own too), the hand cards nobody has seen and unlisted burned cards. Cards
seen going into another hand (a pickup is public) are *known*, not unseen: "C holds 3♦ and
9♦". What a rank does is read from the variant's own tables (``place``, ``burn``,
``transparent``...), never from a list of preset names.

>>> from tutor.core.cards import card_str
>>> from tutor.core.table import table_from_dict
>>> from tutor.advisor.view import observe
>>> from tutor.rules.variant import load_variant
>>> out = [card_str(c) for c in range(52) if card_str(c) not in ("KH", "4C", "2H", "AS", "3C")]
>>> t = table_from_dict({"players": [{"name": "A", "hand": ["KH", "4C"]},
...                                  {"name": "B", "hand": [], "face_down": 1}], "burned": out, "turn": "A"})
>>> odds(observe(t), load_variant("pagat"), 11).words()
'2 of the 3 unseen cards go on a king (a 2 and an ace)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.advisor.view import PlayerView, SeatView
from tutor.core.cards import EMPTY, card_pretty
from tutor.engine.words import a, listing, number, plural, some, word
from tutor.rules.variant import Variant


@dataclass(frozen=True)
class Odds:
    """How many of the unseen cards go on ``top`` (an effective top rank, or ``EMPTY``)."""

    top: int
    goes: int
    unseen: int
    by_rank: tuple[tuple[int, int], ...]  # (rank, how many) of the unseen cards that go, highest first

    @property
    def chance(self) -> float:
        return self.goes / self.unseen if self.unseen else 0.0

    def words(self, which: bool = True) -> str:
        """``'2 of the 4 unseen cards go on a king (a 2 and an ace)'``; the cards named when few."""
        on = "an empty pile" if self.top == EMPTY else a(self.top)
        if self.unseen == 0:
            return "no card is unseen"
        if self.goes == 0:
            return (f"none of the {self.unseen} unseen cards goes on {on}" if self.unseen > 1
                    else f"the one unseen card does not go on {on}")
        if self.goes == self.unseen:
            return (f"all {self.unseen} unseen cards go on {on}" if self.unseen > 1
                    else f"the one unseen card goes on {on}")
        verb = "goes" if self.goes == 1 else "go"
        text = f"{self.goes} of the {self.unseen} unseen cards {verb} on {on}"
        if which and self.goes <= 4:
            text += f" ({self.which()})"
        return text

    def which(self) -> str:
        """The unseen cards that go, by rank: ``'two 2s and an ace'``."""
        return listing([some(r, n) for r, n in self.by_rank])


def odds(view: PlayerView, v: Variant, top: int) -> Odds:
    """The unseen cards that would go on an effective top of ``top`` (a blind flip's chances)."""
    pool = view.unknown_pool(v)
    ranks = Counter(c >> 2 for c in pool if v.place[top][c >> 2])
    by_rank = tuple(sorted(ranks.items(), key=lambda rn: _order(rn[0]), reverse=True))
    return Odds(top, sum(ranks.values()), len(pool), by_rank)


def _order(rank: int) -> int:
    """Natural order for naming cards, with 2s above aces (they go on anything where they reset)."""
    return 13 if rank == 0 else rank


def blind_only(seat: SeatView) -> bool:
    """A seat whose only cards are face down: on its turn it turns one over, nothing else."""
    return not seat.hand_size and not seat.face_up and seat.face_down > 0


def cards_words(cards: Sequence[int]) -> str:
    """Cards by name, with suits: ``'3♦ and 9♦'``."""
    return listing([card_pretty(c) for c in sorted(cards)]) if len(set(cards)) == len(cards) else " ".join(
        card_pretty(c) for c in sorted(cards))


@dataclass(frozen=True)
class Answer:
    """What the player to move next can be seen to hold against ``top``."""

    seat: int
    known: tuple[int, ...]  # cards known to be in the hand (or, with no hand, the face-up cards)
    whole: bool  # every card that seat may play is known
    going: tuple[int, ...]  # the known cards that go on ``top``
    from_hand: bool  # the known cards are hand cards (False: face-up cards, played with an empty hand)


def answer(view: PlayerView, v: Variant, seat: int, top: int) -> Answer:
    """The cards ``seat`` is known to hold that it could play on ``top``."""
    s = view.seats[seat]
    if s.hand_size:
        known, whole, hand = s.hand_known, s.hand_unknown == 0, True
    else:
        known, whole, hand = tuple(c for st in s.face_up for c in st), bool(s.face_up), False
    going = tuple(c for c in known if v.place[top][c >> 2])
    return Answer(seat, known, whole, going, hand)


@dataclass(frozen=True)
class RankCount:
    """Where the cards of one rank are, as far as the player knows."""

    rank: int
    unseen: int
    mine: int  # in the player's hand, or face up when the hand is empty
    held: tuple[tuple[int, int], ...]  # (seat, how many) known in other hands


def rank_count(view: PlayerView, v: Variant, rank: int) -> RankCount:
    """How many cards of ``rank`` are unseen, mine and known in other hands (four of a kind)."""
    pool = view.unknown_pool(v)
    me = view.me
    mine = sum(1 for c in (me.hand_known if me.hand_size else [c for st in me.face_up for c in st])
               if c >> 2 == rank)
    held = tuple((i, n) for i, s in enumerate(view.seats)
                 if i != view.seat and (n := sum(1 for c in s.hand_known if c >> 2 == rank)))
    return RankCount(rank, sum(1 for c in pool if c >> 2 == rank), mine, held)


# -- what a rank does in the variant --------------------------------------------------------


def goes_anywhere(v: Variant, rank: int) -> bool:
    """The rank goes on every top (an empty pile, every rank, whatever limit is on)."""
    tops = [t for t in range(13)] + ([13] if v.jokers else []) + [EMPTY]
    return all(v.place[t][rank] for t in tops)


def resets(v: Variant, rank: int) -> bool:
    return any(v.cells[rank][r][1] == "RESET" for r in range(14))


def limits(v: Variant, rank: int) -> bool:
    """Anything played on this rank must be of its rank or lower."""
    return any(v.cells[rank][r][1] == "OVER_LIMIT" for r in range(14))


def unbeatable(v: Variant, rank: int) -> bool:
    return any(v.cells[rank][r][1] == "UNBEATABLE" for r in range(14))


def _powered(v: Variant, rank: int) -> bool:
    """Powers beyond beating (the variant's own: forcing a pickup, reversing ranks, swapping...)."""
    return (rank in (v.reversal, v.force) or (v.deflect is not None and v.deflect[0] == rank)
            or any(r == rank for r, _ in v.swaps) or unbeatable(v, rank))


def special(v: Variant, rank: int) -> bool:
    """A card worth keeping: it burns, is seen through, goes on anything, lets anything follow, or
    has another power of the variant."""
    return (v.burn[rank] or v.transparent[rank] or resets(v, rank) or v.play_again[rank]
            or any(v.cells[t][rank][1] == "ANYWHERE" for t in range(15)) or _powered(v, rank))


def not_on(v: Variant, rank: int) -> list[int]:
    """The ranks above ``rank`` it may not be played on though it has a power (Lancaster's 10 on J-A)."""
    if not special(v, rank) or goes_anywhere(v, rank):
        return []
    return [t for t in range(rank + 1, 13) if not v.place[t][rank] and not limits(v, t)]


def does_words(v: Variant, rank: int) -> str:
    """What the rank's powers do, in a few words: ``'burns the pile'``, ``'goes on anything'``."""
    out = []
    if v.burn[rank]:
        out.append("burns the pile")
    if any(v.cells[t][rank][1] == "ANYWHERE" for t in range(15)):
        out.append("goes on anything")
    if v.transparent[rank]:
        out.append("is seen through")
    if resets(v, rank) and not v.transparent[rank]:
        out.append("lets anything follow")
    if limits(v, rank):
        out.append(f"holds the next play to {a(rank)} or lower")
    if v.reverse[rank]:
        out.append("reverses play")
    if v.skip[rank]:
        out.append("skips the next player")
    if v.play_again[rank] and not v.burn[rank]:
        out.append("gives you another play")
    if rank == v.reversal:
        out.append("turns the order of the ranks upside down")
    if rank == v.force:
        out.append("makes the next player take the pile")
    if v.deflect is not None and v.deflect[0] == rank:
        out.append(f"passes a forced pickup on ({v.deflect[1]} ones)")
    if any(r == rank for r, _ in v.swaps):
        out.append("swaps a card")
    if unbeatable(v, rank):
        out.append(f"can be beaten only by {plural(rank)} and the cards the rule names")
    return listing(out)


def restriction_words(v: Variant, rank: int) -> str:
    """``'a 10 goes only on cards lower than a 10'`` where a power card cannot go on higher cards."""
    above = not_on(v, rank)
    if not above:
        return ""
    if above == list(range(rank + 1, 13)):
        return f"{a(rank)} goes only on cards lower than {a(rank)}"
    return f"{a(rank)} does not go on {listing([a(t) for t in above])}"


def pile_cards(view: PlayerView) -> int:
    return sum(len(p.cards) for p in view.pile)


def specials_held(view: PlayerView, v: Variant, exclude: Sequence[int] = ()) -> list[int]:
    """The special ranks the player keeps after playing ``exclude`` (hand, or face up with no hand)."""
    me = view.me
    held = Counter(me.hand_known if me.hand_size else [c for st in me.face_up for c in st])
    held.subtract(Counter(exclude))
    return sorted({c >> 2 for c, n in held.items() if n > 0 and special(v, c >> 2)})


def kept_words(v: Variant, ranks: Sequence[int]) -> str:
    """``'your 2 (it goes on anything) and 10 (it burns the pile)'``."""
    if not ranks:
        return ""
    if len(ranks) == 1:
        return f"your {word(ranks[0])} ({does_words(v, ranks[0])})"
    return "your " + listing([word(r) for r in ranks])


def holding_words(view: PlayerView, seat: int) -> str:
    """``'C holds 3♦ and 9♦ (seen going in)'`` or ``''`` when nothing is known."""
    s = view.seats[seat]
    if not s.hand_known:
        return ""
    whole = "" if s.hand_unknown else ", the whole hand"
    return f"{cards_words(s.hand_known)} (seen going in{whole})"


def count_words(n: int, thing: str) -> str:
    """``'one card'``, ``'13 cards'``."""
    return f"{number(n) if n < 10 else n} {thing}{'' if n == 1 else 's'}"


def plural_count(rank: int, n: int) -> str:
    return some(rank, n) if n > 1 else a(rank)


__all__ = ["Answer", "Odds", "RankCount", "answer", "blind_only", "cards_words", "count_words", "does_words",
           "goes_anywhere", "holding_words", "kept_words", "limits", "not_on", "odds", "pile_cards", "plural",
           "plural_count", "rank_count", "resets", "restriction_words", "special", "specials_held", "unbeatable"]
