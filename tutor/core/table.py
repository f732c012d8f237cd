"""The position on the table: zones, pile, stock, turn and direction. Immutable.

A :class:`Table` is what the contract's table file describes. Cards are ints
(:mod:`tutor.core.cards`); an unseen card is ``UNKNOWN``. Derived facts that depend
on the rules (the effective top card, limits, four-of-a-kind runs) live in
:mod:`tutor.engine`, which reads them off the pile.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from tutor.core import safeyaml
from tutor.core.cards import (
    JOKER,
    PARSED_CARDS,
    UNKNOWN,
    card_str,
    claim_for,
    claim_str,
    parse_card,
    parse_claim,
)
from tutor.core.errors import NotationError, TableError, excerpt

CLOCKWISE = 1
COUNTERCLOCKWISE = -1


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    hand: tuple[int, ...] = ()
    face_up: tuple[tuple[int, ...], ...] = ()  # stacks; most hold one card
    face_down: tuple[int, ...] = ()
    lost: bool = False  # lost the game at once (Nortenos: a 3 as the last down card); holds no cards

    @property
    def face_up_cards(self) -> tuple[int, ...]:
        return tuple(c for stack in self.face_up for c in stack)

    @property
    def n_cards(self) -> int:
        return len(self.hand) + sum(len(s) for s in self.face_up) + len(self.face_down)

    @property
    def out(self) -> bool:
        return not self.hand and not self.face_up and not self.face_down


@dataclass(frozen=True, slots=True)
class Play:
    """One play to the pile: the cards, and who played them (-1 if not recorded)."""

    cards: tuple[int, ...]
    by: int = -1
    claim: int = -1  # Bluff: the rank the player said the cards were (-1: played face up)


class _Kept:
    """Two slots a :class:`Table` carries beside its fields, never compared, hashed, copied or
    pickled: ``_eng``, what the engine keeps for the table (its position under a variant; see
    :mod:`tutor.engine.facade`), and ``_make``, for a table made lazily (:meth:`Table.lazy`),
    what writes its fields when one is first read (``(function, *arguments)``; None once written).
    Either may be empty (reading it raises AttributeError): ``_eng`` on a table the engine has
    not seen, ``_make`` on a table made whole, or made on its ``_eng`` (see ``LazyTable`` below:
    the make rides there until the fields are written)."""

    __slots__ = ("_eng", "_make")

    _eng: Any
    _make: tuple[Any, ...] | None


@dataclass(frozen=True, slots=True)
class Table(_Kept):
    players: tuple[Player, ...]
    pile: tuple[Play, ...] = ()
    stock: tuple[int, ...] = ()  # top first
    burned: tuple[int, ...] = ()
    turn: int = 0
    direction: int = CLOCKWISE
    decks: int = 1
    setup: bool = False  # True while players may still swap hand and face-up cards
    ready: tuple[bool, ...] = field(default=())  # setup: who has finished swapping
    opening: bool = False  # the first play of the game is next: the first-player rule judges it

    @classmethod
    def lazy(cls, make: tuple[Any, ...], eng: object, turn: int) -> Table:
        """A table whose fields but ``turn`` ``make[0](*make[1:])`` writes when one is first read
        (the engine's tables after a move: most are only passed on to the next call, which asks
        only whose turn it is). It is the same value as that table in every way (fields,
        equality, hash, pickling, its ``__class__``); ``make`` must give the same table whenever
        called."""
        t = _LazyTable()  # type: ignore[call-arg]  # (see its __init__)
        # each through its slot's own setter (the class is frozen); ``eng`` None leaves ``_eng``
        # empty (the engine reads the slot at every call and never finds None there)
        _SET_MAKE(t, make)
        if eng is not None:
            _SET_ENG(t, eng)
        _SET_TURN(t, turn)
        return t

    @property
    def player(self) -> Player:
        return self.players[self.turn]

    @property
    def pile_cards(self) -> tuple[int, ...]:
        return tuple(c for p in self.pile for c in p.cards)

    def seat(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise TableError(f"no player is called {name!r}")

    def in_play(self) -> list[int]:
        """Seats of the players who still hold cards."""
        return [i for i, p in enumerate(self.players) if not p.out]

    def all_cards(self) -> list[int]:
        out: list[int] = list(self.pile_cards) + list(self.stock) + list(self.burned)
        for p in self.players:
            out += p.hand
            out += p.face_up_cards
            out += p.face_down
        return out

    def with_player(self, seat: int, player: Player) -> Table:
        players = list(self.players)
        players[seat] = player
        return replace(self, players=tuple(players))

    # -- the table file ---------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The contract's table file as plain data (unseen cards as counts)."""

        def zone(cards: tuple[int, ...]) -> list[str] | int:
            if cards and cards.count(UNKNOWN) == len(cards):
                return len(cards)
            return list(map(card_str, cards))

        def hand(cards: tuple[int, ...]) -> list[str] | int | dict[str, Any]:
            unseen = cards.count(UNKNOWN)
            if unseen and unseen < len(cards):  # partly seen: the cards seen, and how many more
                return {"seen": [card_str(c) for c in cards if c != UNKNOWN], "unseen": unseen}
            return zone(cards)

        players = []
        for p in self.players:
            up: list[Any] | int
            if p.face_up and p.face_up.count(_UNSEEN_STACK) == len(p.face_up):
                up = len(p.face_up)
            else:
                up = [card_str(s[0]) if len(s) == 1 else list(map(card_str, s)) for s in p.face_up]
            players.append(
                {"name": p.name, "hand": hand(p.hand), "face_up": up,
                 "face_down": zone(p.face_down)}
            )
            if p.lost:
                players[-1]["lost"] = True
        data: dict[str, Any] = {
            "decks": self.decks,
            "players": players,
            "pile": [_play_dict(self, pl) for pl in self.pile],
            "stock": zone(self.stock) if self.stock else 0,
            "burned": zone(self.burned) if self.burned else 0,
            "turn": self.players[self.turn].name,
            "direction": "clockwise" if self.direction == CLOCKWISE else "counterclockwise",
        }
        if self.setup:
            data["phase"] = "setup"
        elif self.opening:
            data["phase"] = "opening"
        return data

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), sort_keys=False, allow_unicode=True)


_SET_MAKE, _SET_ENG = vars(_Kept)["_make"].__set__, vars(_Kept)["_eng"].__set__
_SET_TURN = vars(Table)["turn"].__set__
_UNSEEN_STACK = (UNKNOWN,)
_TABLE_FIELDS = ("players", "pile", "stock", "burned", "turn", "direction", "decks", "setup", "ready", "opening")
assert _TABLE_FIELDS == Table.__match_args__  # (every field, in order)
_SLOT = {f: vars(Table)[f] for f in _TABLE_FIELDS}  # each field's slot (read and written past the class)
_SET_CLASS = vars(object)["__class__"].__set__


class _LazyTable(Table):
    """A table made by :meth:`Table.lazy`, its fields but ``turn`` not written yet: reading one
    writes them all, and the table becomes a plain :class:`Table`. Until then it says it is one
    (``__class__``: dataclass equality, ``repr`` and ``replace`` go by it) and pickles as one.
    (A subclass, not a ``__getattr__`` on Table: that would keep Python from reading any slot of
    any table fast, and the engine reads ``_eng`` and ``turn`` at every move.)"""

    __slots__ = ()

    if not TYPE_CHECKING:
        __class__ = property(lambda self: Table)
        # made empty by calling the class (its fields written past it): cheaper than object.__new__
        __init__ = object.__init__

        def __reduce_ex__(self, protocol):
            _written(self)
            return object.__reduce_ex__(self, protocol)


# A lazy table made on its ``_eng`` (a slot written less, for the engine's ``apply_unchecked``, which makes
# one at every move, inline: ``t = LazyTable(); set_eng(t, eng); set_turn(t, turn)``): :meth:`Table.lazy`
# with ``make`` = ``eng[2:]``, carried on ``eng``, which becomes ``eng[:2]`` once the fields are written
LazyTable, set_eng, set_turn = _LazyTable, _SET_ENG, _SET_TURN


def _written(t: Table) -> None:
    """Write the fields of a lazy table (a no-op once written)."""
    eng = None
    try:
        make = t._make
    except AttributeError:  # (made on its ``_eng``, as LazyTable says: the make rides there)
        eng = t._eng
        make = eng[2:]
    if not make:  # written meanwhile (by another thread, which writes every field first)
        return
    full = make[0](*make[1:])
    for slot in _SLOT.values():
        slot.__set__(t, slot.__get__(full))
    if eng is not None:
        _SET_ENG(t, eng[:2])
    _SET_MAKE(t, None)
    _SET_CLASS(t, Table)


def _lazy_field(slot: Any) -> property:
    def read(t: Table) -> Any:
        _written(t)
        return slot.__get__(t)

    return property(read)


for _name, _slot in _SLOT.items():
    if _name != "turn":
        setattr(_LazyTable, _name, _lazy_field(_slot))
del _name, _slot


def _play_dict(table: Table, pl: Play) -> dict[str, Any] | list[str]:
    cards = [card_str(c) for c in pl.cards]
    if pl.by < 0 and pl.claim < 0:
        return cards
    out: dict[str, Any] = {}
    if pl.by >= 0:
        out["by"] = table.players[pl.by].name
    out["cards"] = cards
    if pl.claim >= 0:
        out["claim"] = claim_str(pl.claim)
    return out


# -- reading a table file --------------------------------------------------

MAX_PLAYERS = 16  # no variant seats more than eight; room for house rules, not for 150,000 seats
_NAME = re.compile(r"[^\W_]([^\W_]|[ .'-])*")  # no Markdown, HTML or links can hide in a name
MAX_NAME = 20  # the legal page's name box holds as many

_KEYS = {"variant", "decks", "players", "pile", "stock", "burned", "turn",
         "direction", "phase"}
_PLAYER_KEYS = {"name", "hand", "face_up", "face_down", "lost"}


def read_table_text(text: str, where: str = "table") -> dict[str, Any]:
    """Parse YAML text into the raw mapping of a table file (``safe_load`` only)."""
    data = safeyaml.load(text, where, TableError)
    if not isinstance(data, dict):
        raise TableError(f"{where}: a table file is a mapping with 'players', 'pile', 'turn'...")
    return data


def load_table_file(path: str | Path) -> dict[str, Any]:
    return read_table_text(safeyaml.read_text(path, str(path), TableError), str(path))


def table_from_dict(
    data: Mapping[str, Any],
    *,
    where: str = "table",
    decks: int | None = None,
    jokers_per_deck: int = 0,
) -> Table:
    """Build and validate a :class:`Table` from a table file's mapping.

    ``decks`` is the variant's default pack count (the file's ``decks`` wins);
    ``jokers_per_deck`` how many jokers each pack has in the variant.
    """
    if not isinstance(data, Mapping):
        raise TableError(f"{where}: a table file is a mapping")
    extra = set(map(str, data)) - _KEYS
    if extra:
        raise TableError(f"{where}: unknown key {sorted(extra)[0]!r} (known: {', '.join(sorted(_KEYS))})")
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or len(raw_players) < 2:
        raise TableError(f"{where}: players: list at least two players")
    if len(raw_players) > MAX_PLAYERS:
        raise TableError(f"{where}: players: {len(raw_players)} players; a table seats at most {MAX_PLAYERS}")
    players: list[Player] = []
    names: list[str] = []
    for i, rp in enumerate(raw_players):
        at = f"{where}: players[{i}]"
        if not isinstance(rp, Mapping):
            raise TableError(f"{at}: a player is a mapping with name, hand, face_up, face_down")
        extra = set(map(str, rp)) - _PLAYER_KEYS
        if extra:
            raise TableError(f"{at}: unknown key {sorted(extra)[0]!r}")
        name = rp.get("name", chr(ord("A") + i) if i < 26 else f"P{i + 1}")
        if not isinstance(name, (str, int)) or isinstance(name, bool) or not str(name).strip():
            raise TableError(f"{at}.name: {name!r} is not a name")
        name = str(name).strip()
        if len(name) > MAX_NAME:
            raise TableError(f"{at}.name: {excerpt(name, 30)} is longer than {MAX_NAME} characters")
        if not _NAME.fullmatch(name):
            raise TableError(f"{at}.name: {excerpt(name, 30)}: a name is letters, digits, spaces and . ' -")
        if name in names:
            raise TableError(f"{at}.name: two players are called {name!r}")
        names.append(name)
        hand = tuple(sorted(_hand(rp.get("hand", []), f"{at}.hand")))
        face_down = _zone(rp.get("face_down", []), f"{at}.face_down")
        face_up = _face_up(rp.get("face_up", []), f"{at}.face_up")
        lost = rp.get("lost", False)
        if not isinstance(lost, bool):
            raise TableError(f"{at}.lost: {excerpt(lost)} is not true or false")
        if lost and (hand or face_up or face_down):
            raise TableError(f"{at}.lost: a player who has lost the game holds no cards")
        players.append(Player(name, hand, face_up, face_down, lost))

    seat_of = {n: k for k, n in enumerate(names)}
    pile = _pile(data.get("pile", []), f"{where}: pile", seat_of)
    stock = _zone(data.get("stock", 0), f"{where}: stock")
    burned = _zone(data.get("burned", 0), f"{where}: burned")

    n_decks = data.get("decks", decks if decks is not None else 1)
    if isinstance(n_decks, bool) or not isinstance(n_decks, int) or not 1 <= n_decks <= 8:
        raise TableError(f"{where}: decks: {n_decks!r} is not a number of packs from 1 to 8")

    direction_raw = data.get("direction", "clockwise")
    dirs = {"clockwise": CLOCKWISE, "counterclockwise": COUNTERCLOCKWISE,
            "anticlockwise": COUNTERCLOCKWISE, "counter-clockwise": COUNTERCLOCKWISE}
    if not isinstance(direction_raw, str) or direction_raw.lower() not in dirs:
        raise TableError(f"{where}: direction: {direction_raw!r} is not clockwise or counterclockwise")
    direction = dirs[direction_raw.lower()]

    phase = data.get("phase", "play")
    if phase not in ("play", "setup", "opening"):
        raise TableError(f"{where}: phase: {excerpt(phase)} is not 'play', 'setup' or 'opening'")
    if phase == "opening" and data.get("pile"):
        raise TableError(f"{where}: phase: at the opening nothing has been played yet, so the pile is empty")

    turn = data.get("turn")
    if turn is None:
        raise TableError(f"{where}: turn: say whose turn it is (one of {', '.join(names)})")
    if str(turn) not in seat_of:
        raise TableError(f"{where}: turn: {turn!r} is not a player (players: {', '.join(names)})")
    seat = seat_of[str(turn)]
    table = Table(
        players=tuple(players), pile=pile, stock=stock, burned=burned, turn=seat,
        direction=direction, decks=n_decks, setup=phase == "setup",
        ready=tuple(False for _ in players) if phase == "setup" else (), opening=phase == "opening",
    )
    if table.players[seat].lost:
        raise TableError(f"{where}: turn: {turn!r} has lost the game, so cannot move")
    if table.players[seat].out:
        raise TableError(f"{where}: turn: {turn!r} has no cards left, so is out and cannot move")

    _check_counts(table, where, jokers_per_deck)
    return table


def _zone(raw: Any, at: str) -> tuple[int, ...]:
    if isinstance(raw, bool):
        raise TableError(f"{at}: {raw!r} is neither a list of cards nor a count")
    if isinstance(raw, int):
        if not 0 <= raw <= 500:
            raise TableError(f"{at}: {raw!r} is not a sensible number of cards")
        return (UNKNOWN,) * raw
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = raw.replace(",", " ").split()
    if not isinstance(raw, list):
        raise TableError(f"{at}: {raw!r} is neither a list of cards nor a count")
    try:  # every card already read once (the table file's cards, over and over)
        return tuple(map(PARSED_CARDS.__getitem__, raw))
    except (KeyError, TypeError):
        pass
    out = []
    for k, item in enumerate(raw):
        try:
            out.append(parse_card(item))
        except NotationError:
            raise TableError(f"{at}[{k}]: {item!r} is not a card") from None
    return tuple(out)


def _hand(raw: Any, at: str) -> tuple[int, ...]:
    """A hand: a list of cards, a count of unseen cards, or both, as ``{seen: [QC, QH], unseen: 3}``
    (cards seen going in, at a pickup, and how many more nobody but the player has seen)."""
    if type(raw) is list or not isinstance(raw, Mapping):
        return _zone(raw, at)
    extra = set(map(str, raw)) - {"seen", "unseen"}
    if extra:
        raise TableError(f"{at}: unknown key {sorted(extra)[0]!r} (a partly seen hand has 'seen' and 'unseen')")
    seen = _zone(raw.get("seen", []), f"{at}.seen")
    if UNKNOWN in seen:
        raise TableError(f"{at}.seen: list the cards seen; put the number of the others in 'unseen'")
    unseen = raw.get("unseen", 0)
    if isinstance(unseen, bool) or not isinstance(unseen, int):
        raise TableError(f"{at}.unseen: {unseen!r} is not a number of cards")
    return seen + _zone(unseen, f"{at}.unseen")


def _face_up(raw: Any, at: str) -> tuple[tuple[int, ...], ...]:
    if type(raw) is list:
        try:  # stacks of one card each, every card already read once
            return tuple((PARSED_CARDS[c],) for c in raw)
        except (KeyError, TypeError):
            pass
    if raw is None:
        return ()
    if isinstance(raw, int) and not isinstance(raw, bool):
        # unseen cards in the face-up zone (Nortenos lays them face down)
        return tuple((c,) for c in _zone(raw, at))
    if isinstance(raw, str):
        raw = raw.replace(",", " ").split()
    if not isinstance(raw, list):
        raise TableError(f"{at}: {raw!r} is not a list of cards")
    stacks = []
    for k, item in enumerate(raw):
        if isinstance(item, list):
            stack = _zone(item, f"{at}[{k}]")
            if not stack:
                raise TableError(f"{at}[{k}]: an empty stack")
            if UNKNOWN in stack or len({c >> 2 for c in stack}) != 1:
                raise TableError(f"{at}[{k}]: a face-up stack holds cards of one rank")
            stacks.append(stack)
        else:
            try:
                stacks.append((parse_card(item),))
            except NotationError:
                raise TableError(f"{at}[{k}]: {item!r} is not a card") from None
    return tuple(stacks)


def _pile(raw: Any, at: str, seat_of: Mapping[str, int]) -> tuple[Play, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise TableError(f"{at}: a list of plays, bottom to top")
    plays = []
    for k, item in enumerate(raw):
        by = -1
        where = f"{at}[{k}]"
        if isinstance(item, Mapping):
            extra = set(map(str, item)) - {"by", "cards", "claim"}
            if extra:
                raise TableError(f"{where}: unknown key {sorted(extra)[0]!r} (a play has 'by', 'cards', 'claim')")
            if "by" in item and item["by"] is not None:
                if str(item["by"]) not in seat_of:
                    raise TableError(f"{where}.by: {item['by']!r} is not a player")
                by = seat_of[str(item["by"])]
            cards = _zone(item.get("cards"), f"{where}.cards")
        elif isinstance(item, (list, str)):
            cards = _zone(item, where)
        else:
            raise TableError(f"{where}: {item!r} is not a play (a list of cards)")
        if not cards or UNKNOWN in cards:
            raise TableError(f"{where}: a play lists the cards played (at least one)")
        claim = -1
        if isinstance(item, Mapping) and item.get("claim") is not None:
            try:
                claim = parse_claim(str(item["claim"]))
            except NotationError:
                raise TableError(f"{where}.claim: {item['claim']!r} is not a rank, a rank and a count or a run "
                                 "(e.g. Q, 7x2, 7-9)") from None
            claim = claim_for(claim, len(cards))  # (a count the cards really have is no lie: not kept)
        plays.append(Play(cards, by, claim))
    return tuple(plays)


def _check_counts(table: Table, where: str, jokers_per_deck: int) -> None:
    cards = [c for pl in table.pile for c in pl.cards]
    cards += table.stock
    cards += table.burned
    for p in table.players:
        cards += p.hand
        for stack in p.face_up:
            cards += stack
        cards += p.face_down
    seen = set(cards)
    seen.discard(UNKNOWN)
    if len(seen) == len(cards) - cards.count(UNKNOWN) and (jokers_per_deck or JOKER not in seen):
        over: list[tuple[int, int]] = []  # (the common case: every card seen once, no joker unless the variant has them)
    else:
        counts = Counter(c for c in cards if c != UNKNOWN)
        over = sorted(counts.items())
    for card, n in over:
        allowed = table.decks * (jokers_per_deck if card == JOKER else 1)
        if n > allowed:
            packs = f"{table.decks} packs hold" if table.decks > 1 else "1 pack holds"
            if card == JOKER:
                what = f"{n} jokers, but {packs} {allowed} in this variant"
            else:
                what = f"{card_str(card)} appears {n} times, but {packs} {allowed}"
            raise TableError(f"{where}: {what}")
    total = len(cards)
    size = table.decks * (52 + jokers_per_deck)
    if total > size:
        packs = f"{table.decks} packs hold" if table.decks > 1 else "1 pack holds"
        raise TableError(f"{where}: {total} cards in all, but {packs} {size}")


def pack_size(decks: int, jokers_per_deck: int) -> int:
    return decks * (52 + jokers_per_deck)


def known(cards: Iterable[int]) -> list[int]:
    return [c for c in cards if c != UNKNOWN]
