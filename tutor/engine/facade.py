"""The immutable table's API over the one engine: ``check``, ``legal_moves``, ``apply``.

Each call builds a :class:`~tutor.engine.position.Position` from the table, once: the table
keeps it (tables are immutable, and the kept position is never pushed on), and a table that
``apply`` hands out comes with the position the move was pushed on, its fields written from
it only when first read (most tables after a move are only passed back to the engine).
The position holds every rule; this module only dresses its answers: a :class:`Verdict`
with a sentence, the move's events and who moves next.

``apply`` checks the move first; ``apply_unchecked`` is the fast path for search and
simulation, for moves that came from ``legal_moves``.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tutor.core.cards import JOKER, UNKNOWN
from tutor.core.errors import IllegalMoveError
from tutor.core.moves import FLIP, GAMBLE, Move
from tutor.core.reasons import Event, Reason, Zone
from tutor.core.table import LazyTable, Player, Table, set_eng, set_turn
from tutor.engine.position import Position, Top, pile_run
from tutor.engine.words import effects, sentence
from tutor.rules.variant import Variant, load_variant

# Events, in the contract's vocabulary.
BURN, REVERSE, SKIP, PLAY_AGAIN, PICKED_UP, DRAW, OUT, GAME_OVER = (
    Event.BURN, Event.REVERSE, Event.SKIP, Event.PLAY_AGAIN, Event.PICKUP, Event.DRAW, Event.OUT,
    Event.GAME_OVER)

# Zones a player plays from.
HAND, FACE_UP, FACE_DOWN, NONE = Zone.HAND, Zone.FACE_UP, Zone.FACE_DOWN, Zone.NONE


class Verdict:
    """The answer to "is this move legal?". A value, like a frozen dataclass of ``move``,
    ``code``, ``reason``, ``rules``, ``events`` and ``next_player`` (each a read-only property).
    Only the move and the code are made at once: the rest is worked out when first read (most
    callers want only whether the move is legal, then apply it), from what :func:`check` keeps
    for it."""

    # (private slots behind read-only properties, not a __setattr__ that refuses: check makes
    # a verdict at every move, and a slot written past such a __setattr__ costs a call)
    __slots__ = ("_move", "_code", "_rest", "_pos")

    _move: Move
    _code: Reason
    # [rules, events, next_player, the sentence or what writes it when first read]; or what
    # check keeps to work them out: the judge's (code, fragments, context), with the position of
    # the table (``_pos``: written only then)
    _rest: list[object] | tuple[object, ...]
    _pos: Position

    def __init__(self, move: Move, code: Reason, reason: str, rules: tuple[str, ...],
                 events: tuple[str, ...] = (), next_player: str | None = None) -> None:
        self._move = move
        self._code = code
        self._rest = [rules, events, next_player, reason]

    def _known(self) -> list[object]:
        rest = self._rest
        if rest.__class__ is not list:
            # (one of check's verdicts, read for the first time)
            rest = self._rest = _outcome(self._pos, self._move, *rest)  # type: ignore[arg-type]
        return rest  # type: ignore[return-value]

    @property
    def move(self) -> Move:
        return self._move

    @property
    def code(self) -> Reason:
        return self._code

    @property
    def reason(self) -> str:
        rest = self._known()
        said = rest[3]
        if said.__class__ is not str:
            said = rest[3] = said()  # type: ignore[operator]
        return said  # type: ignore[return-value]

    @property
    def rules(self) -> tuple[str, ...]:
        return self._known()[0]  # type: ignore[return-value]

    @property
    def events(self) -> tuple[str, ...]:
        return self._known()[1]  # type: ignore[return-value]

    @property
    def next_player(self) -> str | None:
        return self._known()[2]  # type: ignore[return-value]

    @property
    def legal(self) -> bool:
        return self._code.legal

    def _fields(self) -> tuple[object, ...]:
        return (self._move, self._code, self.reason, self.rules, self.events, self.next_player)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Verdict(move={self.move!r}, code={self.code!r}, reason={self.reason!r}, rules={self.rules!r}, "
                f"events={self.events!r}, next_player={self.next_player!r})")

    def __reduce__(self) -> tuple[object, ...]:
        return (Verdict, self._fields())

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "legal": self.legal, "move": str(self.move), "reason": self.reason,
            "rules": list(self.rules), "code": self.code.value,
        }
        if self.legal:
            out["events"] = [str(e) for e in self.events]
            out["next_player"] = self.next_player
        return out


class _Checked(Verdict):
    """A verdict as :func:`check` makes it, at every move: a :class:`Verdict` in every way (it
    says it is one: ``__class__``), made by calling its class with no arguments, which costs less
    than ``object.__new__``, its slots written past :meth:`Verdict.__init__`."""

    __slots__ = ()

    if not TYPE_CHECKING:
        __class__ = property(lambda self: Verdict)
        __init__ = object.__init__


# -- positions of tables ---------------------------------------------------------

_KEPT: OrderedDict[tuple[int, int], tuple[Table, Variant, Position]] = OrderedDict()  # (table, variant) -> its position
_KEEP = 256
# the last legal move check pushed: (the position of its table, move, the position after it, its
# events) (a global, not a list's item: apply_unchecked reads it at every move; the position, not the
# table: a table's position is made under its variant and kept, so it stands for both)
_CHECKED: tuple[Position, Move, Position, tuple[Event, ...]] | None = None


def position(table: Table, v: Variant | str) -> Position:
    """The position of ``table`` under ``v``: a fresh copy, free to push moves on."""
    return _position(table, load_variant(v)).copy()


def position_of(table: Table, v: Variant) -> Position:
    """The position of ``table``, shared with the engine's own calls: read it, never push on it."""
    # (asked at every move of a game over tables, as check, legal_moves, apply_unchecked and
    # game_over are: the position kept on the table is read here first, without a call)
    try:
        e = table._eng
    except AttributeError:  # (an empty slot: a table the engine has not seen)
        e = _NO_ENG
    return e[1] if e[0] is v else _position(table, v)


def remember(table: Table, v: Variant, pos: Position) -> None:
    """Keep ``pos`` as the position of ``table`` (a runner that snapshots as it plays): the
    engine's calls on that table then start from it. ``pos`` must not change afterwards."""
    e = getattr(table, "_eng", None)
    if e is not None and len(e) > 2:  # (a table apply made, not written yet: its make rides on _eng)
        table.players  # noqa: B018 (read: written now)
    _set(table, "_eng", (v, pos))


# A table carries its position under the variant last asked about (its ``_eng`` slot: tables are
# immutable, and so is the position kept there); a table asked about under another variant too
# keeps that position here.
_set = object.__setattr__
# what the engine's calls read for a table whose ``_eng`` slot is empty: no variant's position (the
# slot is never None: a test of ``e is not None`` the less at each of them)
_NO_ENG = (None, None)


def _position(table: Table, v: Variant) -> Position:
    """The position of ``table`` (shared: never push on it)."""
    try:
        e = table._eng
    except AttributeError:  # (an empty slot: a table the engine has not seen)
        e = None
    if e is not None:
        if e[0] is v:
            return e[1]
        got = _KEPT.get((id(table), id(v)))
        if got is not None and got[0] is table and got[1] is v:
            return got[2]
        pos = Position.of(table, v)
        _keep(table, v, pos)
        return pos
    pos = Position.of(table, v)
    _set(table, "_eng", (v, pos))
    return pos


def _keep(table: Table, v: Variant, pos: Position) -> None:
    """Keep the position of a table under a second variant (the oldest goes first)."""
    if len(_KEPT) >= _KEEP:
        _KEPT.popitem(last=False)  # (a plain dict's first key is slow to find after many deletions)
    _KEPT[(id(table), id(v))] = (table, v, pos)


# -- derived facts -------------------------------------------------------


def effective_top(table: Table, v: Variant) -> Top:
    """The first card from the top of the pile that is not transparent (Bluff: the claim)."""
    return _position(table, v).effective_top()


def top_rank(table: Table, v: Variant) -> int:
    """The effective top rank the next play must answer (EMPTY for an empty pile)."""
    return _position(table, v).top_rank()


def top_run(table: Table) -> tuple[int, int]:
    """The rank on top of the pile and how many cards of it lie together there."""
    return pile_run(table)


def game_over(table: Table, v: Variant) -> bool:
    try:
        e = table._eng
    except AttributeError:  # (an empty slot: a table the engine has not seen)
        e = _NO_ENG
    return (e[1] if e[0] is v else _position(table, v)).ended  # (over(), without a call)


def loser(table: Table, v: Variant) -> str | None:
    """The shithead once a loser-finding game is over: the last with cards, or the player who lost
    at once (Nortenos' special 3 as the last down card)."""
    if v.goal != "loser":
        return None
    s = _position(table, v).decided()
    return table.players[s].name if s >= 0 else None


def winner(table: Table, v: Variant) -> str | None:
    """The winner once a winner-finding game is over: the first out who did not lose, or the last
    left in when every other player has lost at once."""
    if v.goal != "winner":
        return None
    s = _position(table, v).decided()
    return table.players[s].name if s >= 0 else None


def zone_of(p: Player) -> Zone:
    """The zone a player plays from now: hand, face up, face down, or none (out)."""
    if p.hand:
        return HAND
    if p.face_up:
        return FACE_UP
    if p.face_down:
        return FACE_DOWN
    return NONE


def opening_lead(table: Table, v: Variant) -> int | None:
    """At the opening, the rank the first play must be (the lowest card that made its holder
    the leader, where the variant's first-player rule says so), else None."""
    return _position(table, v).opening_lead()


def opening_leader(table: Table, v: Variant) -> int | None:
    """At the opening, the seat the lowest-card rule makes the leader, when every hand is known."""
    return _position(table, v).opening_leader()


def first_player(table: Table, v: Variant) -> int:
    """Who leads: the first 3 face up (then in hand), else the first 4, and so on."""
    return _position(table, v).first_player()


# -- the questions ---------------------------------------------------------


def legal_moves(table: Table, v: Variant | str, out_of_turn: bool = False) -> list[Move]:
    """Every legal move for the player to move, plays first; with ``out_of_turn``, then the moves
    the other players may make now without their turn (``slide 3C by B``), in order of play."""
    # (``out_of_turn`` not keyword-only: Python makes a call to a function with keyword-only
    # parameters the slow way, and legal_moves is asked at every move)
    try:
        e = table._eng
    except AttributeError:  # (an empty slot: a table the engine has not seen)
        e = _NO_ENG
    # (the variant the table's position was made under is a Variant: a variant named by a string,
    # as any other not seen on this table, is looked up only where it is not that one)
    pos = e[1] if e[0] is v else _position(table, v if v.__class__ is Variant else load_variant(v))
    return pos.moves() + pos.out_of_turn() if out_of_turn else pos.moves()


def judge(table: Table, v: Variant | str, move: Move | str) -> tuple[Reason, tuple[str, ...]]:
    """The reason code and deciding fragments, without the sentence or the move's outcome."""
    if v.__class__ is not Variant:
        v = load_variant(v)
    if isinstance(move, str):
        move = Move.parse(move)
    code, frags, _ = _position(table, v).judge(move)
    return code, frags


def is_legal(table: Table, v: Variant | str, move: Move | str) -> bool:
    if v.__class__ is not Variant:
        v = load_variant(v)
    if isinstance(move, str):
        move = Move.parse(move)
    return _position(table, v).judge(move)[0].legal


def apply_unchecked(table: Table, v: Variant, move: Move) -> tuple[Table, list[Event]]:
    """Apply a move known to be legal. The fast path for search and simulation."""
    try:
        e = table._eng
    except AttributeError:  # (an empty slot: a table the engine has not seen)
        e = _NO_ENG
    was = e[1] if e[0] is v else _position(table, v)
    global _CHECKED
    if _CHECKED is not None and _CHECKED[0] is was and (_CHECKED[1] is move or _CHECKED[1] == move):
        pos, events = _CHECKED[2], list(_CHECKED[3])  # a verdict read before pushed this move on a copy: take it
        _CHECKED = None
    else:
        # (Position.pushed in two calls: no tuple made between them)
        pos = was.copy_for(move)
        events = [*pos.push(move)]  # (a list of its own: most pushes hand out a shared tuple)
    # The table after the move is written when first read (most are only passed back to the
    # engine, which asks the position), lending the parts that have not changed from the last
    # table before it that was written (the table before it, or the one that table would lend
    # from: its ``_eng`` carries its make, (v, its position, _SNAPSHOT, its position, like), until written).
    try:
        like = e[4]
    except IndexError:  # (no make on _eng: a table made whole, or written; no len() at every move)
        like = (table, was)
    # (a lazy table made on its _eng: see tutor.core.table's LazyTable)
    after = LazyTable()  # type: ignore[call-arg]  # (see its __init__)
    set_eng(after, (v, pos, _SNAPSHOT, pos, like))
    set_turn(after, pos.turn)
    return after, events


_SNAPSHOT = Position.snapshot


def apply(table: Table, v: Variant | str, move: Move | str) -> tuple[Table, list[Event]]:
    """Apply a move after checking it; raise :class:`IllegalMoveError` if illegal."""
    if v.__class__ is not Variant:
        v = load_variant(v)
    if isinstance(move, str):
        move = Move.parse(move)
    code, _, _ = _position(table, v).judge(move)
    if not code.legal:
        raise IllegalMoveError(f"{str(move)!r} is not legal here: {check(table, v, move).reason}")
    return apply_unchecked(table, v, move)


# -- check -----------------------------------------------------------------

_BLIND = frozenset((FLIP, GAMBLE))  # moves that may turn an unseen card (one test at each check)


def check(table: Table, v: Variant | str, move: Move | str) -> Verdict:
    """Is ``move`` legal for the player to move? With the reason and what follows."""
    try:
        e = table._eng
    except AttributeError:  # (an empty slot: a table the engine has not seen)
        e = _NO_ENG
    if e[0] is v:  # (the variant the table's position was made under: a Variant, no test of its class)
        pos = e[1]
        if move.__class__ is not Move and isinstance(move, str):  # (a class test first: called every move)
            move = Move.parse(move)
    else:  # (in the order of old: the variant read, then the move, then the table)
        if v.__class__ is not Variant:
            v = load_variant(v)
        if move.__class__ is not Move and isinstance(move, str):
            move = Move.parse(move)
        pos = _position(table, v)  # type: ignore[arg-type]
    judged = pos.judge(move)  # type: ignore[arg-type]
    got = _Checked()  # type: ignore[call-arg]  # (see its __init__)
    got._move = move
    got._code = judged[0]
    if move.kind in _BLIND and judged[0].legal and (  # (no locals stored for the common case)
            pos.downs[pos.turn][move.index - 1] == UNKNOWN if move.kind == FLIP else pos.stock[0] == UNKNOWN):
        # the outcome turns on an unseen card: who moves next is the likeliest over what it may be
        frags = judged[1]
        got._rest = [frags if len(frags) < 2 else tuple(dict.fromkeys(frags)), (),
                     _likely_next(table, pos, move), sentence(pos, move, judged[0], judged[2])]
    else:
        # the rest when first read (most verdicts are only asked whether the move is legal), from
        # the judge's answer as it gave it (no tuple made for it)
        got._rest = judged
        got._pos = pos
    return got


def _outcome(pos: Position, move: Move, code: Reason, frags: tuple[str, ...],
             ctx: dict[str, object]) -> list[object]:
    """A verdict's rules, events, next player and sentence (or what writes it), from what the judge
    said of ``move`` on ``pos``, the position of the table checked: a legal move is pushed on a copy
    (which an apply of the same move on that table that follows takes)."""
    if len(frags) > 1:
        frags = tuple(dict.fromkeys(frags))
    if not code.legal:
        return [frags, (), None, lambda: sentence(pos, move, code, ctx)]
    v = pos.v
    kind = move.kind
    after, pushed = pos.pushed(move)
    events = tuple(pushed)
    global _CHECKED
    _CHECKED = (pos, move, after, events)  # for an apply of the same move that follows
    nxt = None if after.over() else after.names[after.turn]
    causes = after.causes
    if kind == FLIP or kind == GAMBLE:
        if kind == FLIP:
            last = pos.last_down(move)
            if last is not None:  # the last face-down card decided the game for its player
                clause = effects(pos, move, events, causes)
                return [tuple(dict.fromkeys(frags + effect_rules(pos, move, events, causes))), events, nxt,
                        clause[0].upper() + clause[1:] + "."]
        if not v.bluff:
            # the rule that let the turned card stay (or not) decided the outcome too
            card = pos.downs[pos.turn][move.index - 1] if kind == FLIP else pos.stock[0]
            frags = tuple(dict.fromkeys(frags + pos._matrix()[pos.top_rank()][card >> 2][2]))
    if not events:  # most moves set nothing off: nothing to add to the sentence or the rules
        return [frags, events, nxt, lambda: sentence(pos, move, code, ctx)]
    more = effect_rules(pos, move, events, causes)
    if more:
        frags = tuple(dict.fromkeys(frags + more))

    def words() -> str:
        reason = sentence(pos, move, code, ctx)
        clause = effects(pos, move, events, causes)
        return reason[:-1] + "; " + clause + "." if clause else reason

    return [frags, events, nxt, words]


def effect_rules(pos: Position, move: Move, events: Sequence[str], causes: Sequence[str]) -> tuple[str, ...]:
    """The fragments a verdict names for what a legal move sets off (``pos``: the position
    before it; ``causes``: the fragment behind each event, :meth:`Position.push`): each burn,
    reversal and skip's; a play again's unless a burn (already named) gave it, and where the
    pile was taken up, the rule on who plays after a pickup. A last face-down card that decides
    the game names its own rule (and a burn it makes)."""
    last = pos.last_down(move) if move.kind == FLIP else None
    if last is None and not (BURN in events or REVERSE in events or SKIP in events or PLAY_AGAIN in events or (
            PICKED_UP in events and pos.v.after_pickup != "next")):
        return ()  # (most moves that set something off only draw, or pick up)
    cause = dict(zip(events, causes, strict=False))
    if last is not None:
        out = list(last[2])
        if BURN in events:
            out.append(cause[BURN])
        return tuple(f for f in out if f)
    out = [cause[e] for e in (BURN, REVERSE, SKIP) if e in cause]
    if PLAY_AGAIN in events:
        if BURN not in events or PICKED_UP in events:
            out.append(cause[PLAY_AGAIN])
    elif PICKED_UP in events and pos.v.after_pickup != "next":
        out.append(pos.v.setting_origin("after_pickup"))
    return tuple(f for f in out if f)


def _likely_next(table: Table, pos: Position, move: Move) -> str | None:
    """Who moves after turning an unseen card (a blind flip, or Egilsson's stock card): each rank
    it may be, weighted by how many of that rank nobody has seen; None only if the game ends."""
    v = pos.v
    seen = Counter(c >> 2 for c in table.all_cards() if c != UNKNOWN)
    tally: Counter[str | None] = Counter()
    seat = pos.turn
    for r in range(13 + (1 if v.jokers else 0)):
        left = (v.jokers if r == 13 else 4) * table.decks - seen[r]
        if left <= 0:
            continue
        card = JOKER if r == 13 else r * 4
        t = pos.copy()
        if move.kind == FLIP:
            i = move.index - 1
            t.downs = t.downs[:seat] + (t.downs[seat][:i] + (card,) + t.downs[seat][i + 1:],) + t.downs[seat + 1:]
        else:
            t.stock = (card,) + t.stock[1:]
        t.push(move)
        tally[None if t.over() else t.names[t.turn]] += left
    return tally.most_common(1)[0][0] if tally else None


