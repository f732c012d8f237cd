"""What one player knows: the observer, and the cards seen going into hands.

The advisor never reads a :class:`~tutor.core.table.Table` directly: it reads a
:class:`PlayerView`, built by :func:`observe`. A view holds

- the observer's own hand and everyone's face-up cards (all public),
- the pile (every card played is seen), the burned cards that were listed,
- for every other player, the cards *known* to be in their hand (cards seen going
  in: a pickup is public, so is a face-up card swapped into the hand), and how many
  cards the hand holds in all,
- the sizes of everything nobody can see: face-down cards (the observer's own
  too), the stock, the other players' unknown hand cards, unlisted burned cards.

Which hand cards of other players count as seen
-----------------------------------------------
- In a live game, a :class:`KnownCards` tracker follows the moves and records every
  card that went into a hand in public; pass it as ``seen``.
- From a table file (``tutor hint``) there is no history: a card listed in another
  player's hand is taken as *seen*, because whoever wrote the file says they saw it.
  Write a count (``hand: 4``) for cards you did not see.
- The observer's face-down cards and the stock are unknown even when listed.

>>> from tutor.core.table import Table, Player
>>> t = Table((Player("A", (1, 2), ((40,),), (7, 8)), Player("B", (30, -1), (), (9,))))
>>> v = observe(t, 0)
>>> v.seats[1].hand_known, v.seats[1].hand_size, v.seats[0].face_down
((30,), 2, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tutor.core.cards import UNKNOWN, card_str, cards_str, full_pack
from tutor.core.errors import TableError
from tutor.core.moves import FLIP, PICKUP, PLAY, SWAP, Move
from tutor.core.table import Play, Table
from tutor.play.game import SeatKey, seat_key
from tutor.rules.variant import Variant


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the observer sees it."""

    name: str
    hand_known: tuple[int, ...]  # sorted; for the observer, the whole hand
    hand_size: int
    face_up: tuple[tuple[int, ...], ...]
    face_down: int  # how many; never which
    lost: bool = False  # lost the game at once (public: the card was turned up for all to see)

    @property
    def out(self) -> bool:
        return not self.hand_size and not self.face_up and not self.face_down

    @property
    def hand_unknown(self) -> int:
        return self.hand_size - len(self.hand_known)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` may know about the position, and nothing more."""

    seat: int
    seats: tuple[SeatView, ...]
    pile: tuple[Play, ...]
    stock: int
    burned_known: tuple[int, ...]
    burned_unknown: int
    turn: int
    direction: int
    decks: int
    setup: bool = False
    ready: tuple[bool, ...] = ()
    opening: bool = False  # the first play of the game is next (the engine judges the lead)
    # positions after pickups this seat has been in already (tutor.play.game.seat_key): from a
    # KnownCards tracker; a table file has no history, so none
    loops: frozenset[SeatKey] = frozenset()

    @property
    def me(self) -> SeatView:
        return self.seats[self.seat]

    def known_cards(self) -> list[int]:
        """Every card whose place the observer knows."""
        out = [c for p in self.pile for c in p.cards if c != UNKNOWN] + list(self.burned_known)
        for s in self.seats:
            out += s.hand_known
            out += [c for st in s.face_up for c in st]
        return out

    def unknown_slots(self) -> int:
        return (sum(s.hand_unknown + s.face_down for s in self.seats)
                + self.stock + self.burned_unknown + self.pile_unknown)

    @property
    def pile_unknown(self) -> int:
        """Cards on the pile played face down by others (Bluff)."""
        return sum(1 for p in self.pile for c in p.cards if c == UNKNOWN)

    def unknown_pool(self, v: Variant) -> list[int]:
        """The pack less every known card: what the unknown slots are dealt from."""
        pool = Counter(full_pack(self.decks, v.jokers * self.decks))
        pool.subtract(Counter(self.known_cards()))
        if any(n < 0 for n in pool.values()):
            bad = next(c for c, n in pool.items() if n < 0)
            raise TableError(f"{card_str(bad)} is seen more often than the packs hold it")
        out = sorted(pool.elements())
        if len(out) < self.unknown_slots():
            raise TableError(
                f"{self.unknown_slots()} unseen cards on the table, but only {len(out)} cards are left in the pack")
        return out

    def describe(self) -> str:
        """The observation as text (OpenSpiel's ``observation_string``)."""
        lines = []
        for i, s in enumerate(self.seats):
            mark = "*" if i == self.turn else " "
            hand = cards_str(s.hand_known) + (f" +{s.hand_unknown}?" if s.hand_unknown else "")
            up = " ".join("/".join(card_str(c) for c in st) for st in s.face_up)
            lines.append(f"{mark}{s.name}: hand [{hand.strip()}] up [{up}] down {s.face_down}")
        lines.append("pile: " + " | ".join(cards_str(p.cards) for p in self.pile))
        lines.append(f"stock {self.stock}, burned {len(self.burned_known) + self.burned_unknown}")
        return "\n".join(lines)


def observe(table: Table, seat: int | None = None,
            seen: KnownCards | Mapping[int, Sequence[int]] | None = None,
            variant: Variant | None = None) -> PlayerView:
    """The view of ``seat`` (default: the player to move).

    ``seen`` gives, per seat, the cards known to be in that hand (a
    :class:`KnownCards`, or a mapping). Without it, cards listed in other players'
    hands count as seen (the table-file reading, see the module docstring). Plays made
    face down with a claim (Bluff) are unseen unless ``seat`` made them; in a variant with
    such plays the burned cards are only counted, as some went out unseen. A
    :class:`KnownCards` also gives the positions after pickups ``seat`` has been in
    (:meth:`KnownCards.loops`).
    """
    if seat is None:
        seat = table.turn
    known_map: Mapping[int, Sequence[int]] | None
    known_map = seen.hands() if isinstance(seen, KnownCards) else seen
    seats = []
    for i, p in enumerate(table.players):
        if i == seat:
            if UNKNOWN in p.hand:
                raise TableError(
                    f"players[{i}].hand: list the cards of {p.name}'s hand to get advice for {p.name}")
            known = tuple(sorted(p.hand))
        elif known_map is None:
            known = tuple(sorted(c for c in p.hand if c != UNKNOWN))
        else:
            known = tuple(sorted(known_map.get(i, ())))
            listed = [c for c in p.hand if c != UNKNOWN]
            if len(listed) == len(p.hand) and Counter(known) - Counter(listed):
                raise TableError(f"players[{i}].hand: the cards seen going in are not all in {p.name}'s hand")
            if len(known) > len(p.hand):
                raise TableError(f"players[{i}].hand: more cards seen going in than {p.name} holds")
        if any(c == UNKNOWN for st in p.face_up for c in st):
            raise TableError(f"players[{i}].face_up: face-up cards are listed, not counted")
        seats.append(SeatView(p.name, known, len(p.hand), p.face_up, len(p.face_down), p.lost))
    hidden_plays = bool(variant is not None and getattr(variant, "bluff", False)) or any(
        getattr(pl, "claim", -1) >= 0 for pl in table.pile)
    pile = tuple(
        Play((UNKNOWN,) * len(pl.cards), pl.by, pl.claim)
        if getattr(pl, "claim", -1) >= 0 and pl.by != seat else pl
        for pl in table.pile)
    burned_known = () if hidden_plays else tuple(sorted(c for c in table.burned if c != UNKNOWN))
    return PlayerView(
        seat=seat, seats=tuple(seats), pile=pile, stock=len(table.stock),
        burned_known=burned_known, burned_unknown=len(table.burned) - len(burned_known),
        turn=table.turn, direction=table.direction, decks=table.decks, setup=table.setup,
        ready=table.ready, opening=table.opening, loops=seen.loops(seat) if isinstance(seen, KnownCards) else frozenset(),
    )


class KnownCards:
    """Cards seen going into each hand, followed move by move (public knowledge).

    Feed it every move with :meth:`update` (the signature matches
    :func:`tutor.play.game.play_game`'s ``on_move``). It reads only what everyone at the
    table sees: the cards played, the pile that is picked up, a card turned over.

    It also remembers, for each seat, the positions after pickups as that seat knew them
    (:func:`tutor.play.game.seat_key`: its own hand and what is public), so the advisor can tell
    a move that brings the game back round a circle (:meth:`loops`).
    """

    def __init__(self, n_seats: int) -> None:
        self._hands: list[Counter[int]] = [Counter() for _ in range(n_seats)]
        self._after_pickups: list[set[SeatKey]] = [set() for _ in range(n_seats)]

    def hands(self) -> dict[int, tuple[int, ...]]:
        return {i: tuple(sorted(h.elements())) for i, h in enumerate(self._hands)}

    def loops(self, seat: int) -> frozenset[SeatKey]:
        """The positions after pickups that ``seat`` has been in already (its own keys only)."""
        return frozenset(self._after_pickups[seat])

    def copy(self) -> KnownCards:
        out = KnownCards(len(self._hands))
        out._hands = [Counter(h) for h in self._hands]
        out._after_pickups = [set(k) for k in self._after_pickups]
        return out

    def update(self, before: Table, move: Move, after: Table, events: Sequence[str]) -> None:
        """Follow one move. Moves whose effect on hands is not plainly public (swaps after a
        play, gambles, slides, bluffs...) make the tracker forget, never guess."""
        seat = before.turn
        known = self._hands[seat]
        if "pickup" in events and not after.setup:
            for i, keys in enumerate(self._after_pickups):
                keys.add(seat_key(after, i))
        if before.setup:
            if move.kind == SWAP:
                h, u = move.cards
                known[h] = max(0, known[h] - 1)
                known[u] += 1
            return
        plain = (move.kind in (PLAY, PICKUP, FLIP) and move.give < 0 and move.claim < 0
                 and "swap" not in events
                 and not any(getattr(pl, "claim", -1) >= 0 for pl in before.pile))
        if not plain:
            self._forget(before, after, events)
            return
        if move.kind == PLAY:
            for c in move.cards:
                if known[c] > 0:
                    known[c] -= 1
        elif move.kind == PICKUP:
            known.update(_taken(before, after, before.pile_cards + move.cards))
        elif move.kind == FLIP and "pickup" in events:
            card = before.players[seat].face_down[move.index - 1]
            known.update(_taken(before, after, before.pile_cards + (card,)))
        self._hands[seat] = +known  # drop zeros

    def _forget(self, before: Table, after: Table, events: Sequence[str]) -> None:
        """Clear what is known of every hand the move may have touched (hand sizes are public)."""
        touched = {before.turn} | {
            i for i, (a, b) in enumerate(zip(before.players, after.players, strict=True))
            if len(a.hand) != len(b.hand)}
        if "swap" in events:
            touched = set(range(len(self._hands)))
        for i in touched:
            self._hands[i] = Counter()
        # a pile taken in public: its face-up plays are known to be in the taker's hand
        if "pickup" in events and before.pile:
            size = len(before.pile_cards)
            takers = [i for i, (a, b) in enumerate(zip(before.players, after.players, strict=True))
                      if len(b.hand) - len(a.hand) >= size]
            if len(takers) == 1:
                seen_cards = [c for pl in before.pile if getattr(pl, "claim", -1) < 0 for c in pl.cards]
                if before.pile and "caught" in events:
                    seen_cards += list(before.pile[-1].cards)  # the called play is shown
                self._hands[takers[0]].update(seen_cards)


def _taken(before: Table, after: Table, cards: Sequence[int]) -> Counter[int]:
    """The cards of a public pickup that went into the hand: not those that left the game
    (a card that goes out when the pile is taken) or stayed on the pile; all of it public."""
    gone = Counter(after.burned) - Counter(before.burned)
    stayed = Counter(after.pile_cards)
    return Counter(cards) - gone - stayed
