"""The powers: how each rule is applied, one small function each.

A fragment's YAML lists powers by name with their parameters, e.g.::

    powers:
      - {power: anywhere, rank: "2"}
      - {power: reset, rank: "2"}

Each power writes into a :class:`Rules` builder and records which fragment set
what, so a verdict can name the fragment that decided it. Nothing here knows any
variant by name; the YAML says which power applies to which rank.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tutor.core.cards import N_RANKS, rank_index
from tutor.core.errors import NotationError, VariantError, excerpt


@dataclass
class RankRule:
    """What one rank does, and which fragment said so (key -> fragment id)."""

    place: str = "natural"  # natural | anywhere | only-on
    place_on: frozenset[int] = frozenset()  # only-on: these tops; anywhere: not these
    after: str = "natural"  # natural | reset | lower | unbeatable
    strict: bool = False  # lower: strictly lower
    after_except: frozenset[int] = frozenset()  # unbeatable: ranks that still go on it
    transparent: bool = False
    alone: str = "empty"  # transparent card on an empty pile: empty | self
    burn: bool = False
    reverse: bool = False
    skip: int = 0
    play_again: bool = False
    counts_as: int = -1  # on the pile, the next play answers it as this rank (-1: its own)
    free_with_two: bool = False  # with two players in the game, anything may follow it
    origin: dict[str, str] = field(default_factory=dict)


@dataclass
class Rules:
    """The mutable builder the powers write into; frozen into a Variant."""

    ranks: list[RankRule] = field(default_factory=lambda: [RankRule() for _ in range(N_RANKS)])
    settings: dict[str, tuple[Any, str]] = field(default_factory=dict)

    def set(self, key: str, value: Any, fid: str) -> None:
        self.settings[key] = (value, fid)

    def get(self, key: str, default: Any = None) -> Any:
        return self.settings.get(key, (default, ""))[0]

    def rank(self, params: Mapping[str, Any], fid: str) -> RankRule:
        return self.ranks[_rank(params, fid)]


Power = Callable[[Rules, Mapping[str, Any], str], None]
POWERS: dict[str, Power] = {}
# what each power takes: name -> (required keys, optional keys, one line for players)
SIGNATURES: dict[str, tuple[frozenset[str], frozenset[str], str]] = {}


def power(name: str, required: str = "", optional: str = "", doc: str = "") -> Callable[[Power], Power]:
    def register(fn: Power) -> Power:
        POWERS[name] = fn
        SIGNATURES[name] = (frozenset(required.split()), frozenset(optional.split()), doc)
        return fn

    return register


def _rank(params: Mapping[str, Any], fid: str, key: str = "rank") -> int:
    try:
        return rank_index(str(params[key]))
    except NotationError as exc:
        raise VariantError(f"{fid}: {key}: {exc}") from None


def _ranks(params: Mapping[str, Any], fid: str, key: str) -> frozenset[int]:
    raw = params.get(key, [])
    if not isinstance(raw, list):
        raw = [raw]
    out = set()
    for r in raw:
        try:
            out.add(rank_index(str(r)))
        except NotationError as exc:
            raise VariantError(f"{fid}: {key}: {exc}") from None
    return frozenset(out)


def _int(params: Mapping[str, Any], key: str, fid: str, lo: int, hi: int, default: int | None = None) -> int:
    v = params.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise VariantError(f"{fid}: {key}: {v!r} is not a whole number from {lo} to {hi}")
    return v


def _choice(params: Mapping[str, Any], key: str, fid: str, choices: tuple[str, ...]) -> str:
    v = params.get(key)
    if v not in choices:
        raise VariantError(f"{fid}: {key}: {v!r} is not one of {', '.join(choices)}")
    return str(v)


# -- what a card goes on --------------------------------------------------


@power("anywhere", "rank", "except", "this rank can be played on any card")
def _anywhere(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.place, rr.place_on = "anywhere", _ranks(p, fid, "except")
    rr.origin["place"] = fid


@power("only-on", "rank on", "", "this rank goes only on the listed ranks (where its rank also beats)")
def _only_on(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.place, rr.place_on = "only-on", _ranks(p, fid, "on")
    rr.origin["place"] = fid


# -- what may follow a card ------------------------------------------------


@power("reset", "rank", "", "any card may be played on this rank")
def _reset(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.after = "reset"
    rr.origin["after"] = fid


@power("next-lower", "rank", "strict", "the next play must be this rank or lower")
def _next_lower(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.after, rr.strict = "lower", bool(p.get("strict", False))
    rr.origin["after"] = fid


@power("unbeatable", "rank", "except", "only this rank (and the listed ranks) may follow it")
def _unbeatable(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.after, rr.after_except = "unbeatable", _ranks(p, fid, "except")
    rr.origin["after"] = fid


@power("transparent", "rank", "alone", "the next play is judged against the card beneath")
def _transparent(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.transparent = True
    rr.alone = str(p.get("alone", "empty"))
    if rr.alone not in ("empty", "self"):
        raise VariantError(f"{fid}: alone: {rr.alone!r} is not 'empty' or 'self'")
    rr.origin["transparent"] = fid


@power("counts-as", "rank as", "", "on the pile, the next play answers this card as another rank")
def _counts_as(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.counts_as = _rank(p, fid, "as")
    rr.origin["counts_as"] = fid


@power("free-with-two", "rank", "", "with only two players in the game, any card may follow this one")
def _free_with_two(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.free_with_two = True
    rr.origin["free_with_two"] = fid


# -- what a card does when played ----------------------------------------


@power("burn", "rank", "", "playing this rank clears the pile, and the player plays again")
def _burn(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.burn = True
    rr.origin["burn"] = fid


@power("reverse", "rank", "", "each card of this rank reverses the direction of play")
def _reverse(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.reverse = True
    rr.origin["reverse"] = fid


@power("skip", "rank", "count", "the next player misses a turn")
def _skip(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.skip = _int(p, "count", fid, 1, 5, 1)
    rr.origin["skip"] = fid


@power("play-again", "rank", "", "the player of this rank plays again")
def _play_again(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rr = r.rank(p, fid)
    rr.play_again = True
    rr.origin["play_again"] = fid


# -- table-wide rules ------------------------------------------------------


@power("deal", "down up hand", "refill", "how many cards each player gets face down, face up and in hand")
def _deal(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    for key in ("down", "up", "hand"):
        r.set(key, _int(p, key, fid, 0, 20), fid)
    r.set("refill", _int(p, "refill", fid, 0, 20, p.get("hand")), fid)


@power("packs", "", "decks jokers stock_min min", "how many packs and jokers are used")
def _packs(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    decks = p.get("decks", 1)
    if decks != "auto":
        decks = _int(p, "decks", fid, 1, 8, 1)
    r.set("decks", decks, fid)
    r.set("stock_min", _int(p, "stock_min", fid, 0, 100, 16), fid)
    r.set("min_decks", _int(p, "min", fid, 1, 8, 1), fid)
    if "jokers" in p:
        r.set("jokers", _int(p, "jokers", fid, 0, 4), fid)


@power("jokers", "count", "", "how many jokers each pack has")
def _jokers(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("jokers", _int(p, "count", fid, 0, 4), fid)


@power("players", "min max", "", "how many may play")
def _players(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("min_players", _int(p, "min", fid, 2, 10), fid)
    r.set("max_players", _int(p, "max", fid, 2, 10), fid)


@power("setup", "method", "count", "how face-up cards are chosen before play")
def _setup(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("setup", _choice(p, "method", fid, ("swap", "choose", "stack", "none")), fid)
    if "count" in p:
        r.set("setup_count", _int(p, "count", fid, 1, 10), fid)


@power("first-player", "method", "", "who leads the first play")
def _first_player(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("first_player", _choice(p, "method", fid, ("first-three-face-up", "lowest-card-leads",
                                                      "left-of-dealer")), fid)


@power("pickup-choice", "voluntary", "", "whether you may pick up when you could play")
def _pickup_choice(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("voluntary_pickup", bool(p["voluntary"]), fid)


@power("after-pickup", "turn", "", "who plays after a pickup")
def _after_pickup(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("after_pickup", _choice(p, "turn", fid, ("next", "same", "previous")), fid)


@power("face-up-pickup", "adds", "", "how many face-up cards go onto the pile before a face-up pickup")
def _face_up_pickup(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("face_up_pickup_adds", _int(p, "adds", fid, 0, 1), fid)


@power("final-card-combo", "", "", "the last hand card may be played with matching face-up cards")
def _final_card_combo(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("final_card_combo", True, fid)


@power("four-burns", "", "count", "that many cards of a rank on top of the pile burn it")
def _four_burns(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("four_burns", _int(p, "count", fid, 2, 8, 4), fid)


@power("four-anytime", "", "", "four or more of a kind from the hand may be played on any card")
def _four_anytime(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("four_anytime", True, fid)


@power("rank-reversal", "rank", "", "each card of this rank turns the rank order upside down while it lies in the pile")
def _rank_reversal(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.rank(p, fid).origin["reversal"] = fid
    r.set("reversal", _rank(p, fid), fid)


@power("force-pickup", "rank", "once", "the next player must take the pile; with once, the card then leaves the game")
def _force_pickup(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.rank(p, fid).origin["force"] = fid
    r.set("force", _rank(p, fid), fid)
    r.set("force_once", bool(p.get("once", True)), fid)


@power("deflect", "rank", "colour", "a card of this rank and colour passes a forced pickup on to the next player")
def _deflect(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.rank(p, fid).origin["deflect"] = fid
    r.set("deflect", (_rank(p, fid), _choice(p, "colour", fid, ("red", "black", "any"))), fid)


@power("runs", "", "min", "ascending runs of one suit may be played together, each step legal")
def _runs(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("runs", _int(p, "min", fid, 2, 13, 2), fid)


@power("swap", "with", "rank count", "after the play the player may swap a hand card (see 'with')")
def _swap(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    how = _choice(p, "with", fid, ("other-hand", "own-face-up", "other-face-up"))
    rank = _rank(p, fid) if "rank" in p else -1
    count = _int(p, "count", fid, 1, 8, 1) if "count" in p else 0
    if rank < 0 and not count:
        raise VariantError(f"{fid}: a swap is set off by a rank or by a count of equal cards")
    swaps = dict(r.get("swaps", {}))
    swaps[(rank, count)] = (how, fid)
    r.set("swaps", swaps, fid)


@power("stock-gamble", "", "", "instead of playing from hand, a player may try the top card of the stock")
def _stock_gamble(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("gamble", True, fid)


@power("slide", "rank", "", "cards of this rank may be slid under the pile without using the turn")
def _slide(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.rank(p, fid).origin["slide"] = fid
    r.set("slide", _rank(p, fid), fid)


@power("last-down", "rank outcome", "needs",
       "a last face-down card of this rank decides the game for its player at once (lose or win); with "
       "needs, only while that fragment is in the variant too")
def _last_down(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    rank = _rank(p, fid)
    outcome = _choice(p, "outcome", fid, ("lose", "win"))
    needs = p.get("needs", [])
    needs = [needs] if isinstance(needs, str) else needs
    if not isinstance(needs, list) or not all(isinstance(n, str) for n in needs):
        raise VariantError(f"{fid}: needs: {excerpt(needs)} is not a fragment id or a list of them")
    rules = dict(r.get("last_down", {}))
    rules[rank] = (outcome, fid, tuple(needs))
    r.set("last_down", rules, fid)


@power("never-leads", "rank", "", "where the lowest card leads, this rank is not counted (it is no ordinary card)")
def _never_leads(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("never_leads", frozenset(r.get("never_leads", frozenset())) | {_rank(p, fid)}, fid)


@power("face-up-to-hand", "", "", "once hand and stock are gone, the face-up group is taken into the hand")
def _face_up_to_hand(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("face_up_to_hand", True, fid)


@power("bluff", "", "", "plays are face down with a claimed rank, and the next player may call")
def _bluff(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("bluff", True, fid)


@power("goal", "find", "", "whether the game finds a loser or a winner")
def _goal(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    r.set("goal", _choice(p, "find", fid, ("loser", "winner")), fid)


@power("custom", "text", "", "a table custom with no effect on play")
def _custom(r: Rules, p: Mapping[str, Any], fid: str) -> None:
    if not isinstance(p.get("text"), str):
        raise VariantError(f"{fid}: text: a custom needs its description")


def apply_power(rules: Rules, spec: Any, fid: str, where: str) -> None:
    """Run one ``{power: name, ...}`` entry of a fragment against the builder."""
    if not isinstance(spec, Mapping) or "power" not in spec:
        raise VariantError(f"{where}: each entry of 'powers' is a mapping with a 'power' key")
    if True in spec or False in spec:
        # YAML 1.1 reads a bare `on:` (or `yes:`, `off:` ...) as a boolean key
        raise VariantError(f"{where}: a key was read as true/false: quote it, e.g. \"on\": [...]")
    name = spec["power"]
    if not isinstance(name, str) or name not in POWERS:
        raise VariantError(
            f"{where}: unknown power {excerpt(name)} (known: {', '.join(sorted(POWERS))})"
        )
    required, optional, _ = SIGNATURES[name]
    keys = set(map(str, spec)) - {"power"}
    missing = required - keys
    if missing:
        raise VariantError(f"{where}: power {name!r} needs {', '.join(sorted(missing))}")
    unknown = keys - required - optional
    if unknown:
        raise VariantError(f"{where}: power {name!r} takes no {', '.join(sorted(unknown))!r}")
    try:
        POWERS[name](rules, spec, fid)
    except VariantError as exc:
        msg = str(exc)
        if msg.startswith(f"{fid}: "):
            msg = msg[len(fid) + 2:]
        raise VariantError(f"{where}: {msg}") from None
