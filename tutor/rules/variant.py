"""Loading, validating and composing rule fragments into one frozen Variant.

A *fragment* is one rule (``rules/fragments/<id>.yaml``); a *preset* names a set of
fragments (``rules/presets/<id>.yaml``). A *spec* names a preset and the fragments
laid over it: ``lancaster+twos-pass-on``, or a path to a YAML file. Each fragment
fills one slot; a fragment named in a spec replaces the preset's fragment in the
same slot. The result is a :class:`Variant`: the rules compiled into small lookup
tables for the engine, and every setting with the fragment that set it.

>>> v = load_variant("lancaster+twos-pass-on")
>>> v.id, v.fragment_for_slot("2").id
('lancaster+twos-pass-on', 'twos-pass-on')
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import yaml

from tutor.core import safeyaml
from tutor.core.cards import EMPTY, N_RANKS, RANK_NAMES
from tutor.core.errors import TableError, VariantError, excerpt
from tutor.core.table import Table, table_from_dict
from tutor.rules.powers import Rules, apply_power

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
FRAGMENTS_DIR = RULES_DIR / "fragments"
PRESETS_DIR = RULES_DIR / "presets"
GAMES_DIR = RULES_DIR / "games"

# Slots in the order the rulebook and the builder show them.
# Every rank has a slot of its own (any rank may be given any power: a house rule for sixes
# fills the slot "6"), beside the slots for moments of the game.
RANK_SLOTS = ("2", "10", "8", "7", "9", "5", "3", "4", "6", "J", "Q", "K", "A")
SLOTS = (
    "core", "deal", "packs", "setup", "first-player", "pickup-choice", "after-pickup",
    "face-up-pickup", "mixed-plays", "2", "10", "four-of-a-kind", "8", "7", "9", "5",
    "3", "4", "6", "J", "Q", "K", "A", "red-jacks", "jokers", "runs-and-sets", "pairs", "triples", "stock",
    "phase-two", "bluff", "customs", "goal",
)
_VARIANT_KEYS = {"preset", "fragments"}
MAX_USER_FRAGMENT = 64_000  # bytes of a fragment a user uploads or a link carries
_FRAGMENT_KEYS = {"id", "slot", "title", "summary", "source", "reading", "powers",
                  "requires", "conflicts", "implies", "examples", "text", "note"}
_PRESET_KEYS = {"id", "title", "summary", "source", "fragments", "players", "reading",
                "note", "preset", "options", "not_modelled"}


@dataclass(frozen=True)
class Source:
    site: str
    section: str
    contributor: str
    page: str = ""

    def cite(self) -> str:
        bits = [self.site]
        if self.page:
            bits.append(self.page)
        bits.append(f"“{self.section}”")
        if self.contributor:
            bits.append(self.contributor)
        return ", ".join(bits)


@dataclass(frozen=True)
class Fragment:
    id: str
    slot: str
    title: str
    summary: str
    source: Source
    powers: tuple[Mapping[str, Any], ...]
    path: str
    text: str = ""
    reading: str = ""
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    implies: tuple[str, ...] = ()
    examples: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Preset:
    id: str
    title: str
    summary: str
    source: Source
    fragments: tuple[str, ...]
    path: str
    reading: str = ""
    # fragments the same source offers instead or as well (``lancaster+deal-6-6-3``)
    options: tuple[str, ...] = ()
    # rules in the source the tutor does not model: (what, why)
    not_modelled: tuple[tuple[str, str], ...] = ()


Cell = tuple[bool, str, tuple[str, ...]]  # legal, reason code, deciding fragments


@dataclass(frozen=True, eq=False)
class Variant:
    """The rules of one game, compiled. Built by :func:`load_variant`; immutable."""

    id: str
    preset: Preset
    fragments: tuple[Fragment, ...]
    settings: Mapping[str, tuple[Any, str]]  # key -> (value, fragment id that set it)
    replaced: tuple[tuple[str, str], ...]  # (preset's fragment, the spec's) pairs
    # per-rank lookup tables, indexed by rank (0 = 2 ... 12 = ace, 13 = joker)
    place: tuple[tuple[bool, ...], ...]  # place[top][rank]; top EMPTY (14) for an empty pile
    cells: tuple[tuple[Cell, ...], ...]
    place_rev: tuple[tuple[bool, ...], ...]  # the same with the rank order reversed
    cells_rev: tuple[tuple[Cell, ...], ...]
    transparent: tuple[bool, ...]
    alone_self: tuple[bool, ...]
    counts: tuple[int, ...]  # the rank each rank is answered as on the pile (itself, or counts-as)
    free_with_two: tuple[bool, ...]
    burn: tuple[bool, ...]
    reverse: tuple[bool, ...]
    skip: tuple[int, ...]
    play_again: tuple[bool, ...]
    origin: tuple[Mapping[str, str], ...]  # per rank: power key -> fragment id
    four_burns: int
    voluntary_pickup: bool
    after_pickup: str
    face_up_pickup_adds: int
    final_card_combo: bool
    goal: str
    first_player: str
    setup: str
    down: int
    up: int
    hand: int
    decks: int | str
    stock_min: int
    jokers: int
    min_players: int
    max_players: int
    min_decks: int = 1  # "decks: auto" never uses fewer packs than this
    refill: int = 3  # the hand is drawn back up to this while the stock lasts
    setup_count: int = 0  # setup "choose": how many hand cards go face up
    reversal: int = -1  # the rank that reverses the rank order (-1: none)
    force: int = -1  # the rank that forces the next player to take the pile
    force_once: bool = True
    deflect: tuple[int, str] | None = None  # (rank, colour) that passes a forced pickup on
    runs: int = 0  # shortest run (0: no runs)
    swaps: Mapping[tuple[int, int], tuple[str, str]] = field(default_factory=dict)  # (rank, count) -> (with, fid)
    gamble: bool = False
    slide: int = -1
    # rank -> (outcome "lose" | "win", the fragments behind it): a last face-down card that decides the game
    last_down: Mapping[int, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    face_up_to_hand: bool = False
    never_leads: frozenset[int] = frozenset()  # lowest-card-leads: ranks that do not count (besides 2s)
    bluff: bool = False
    extras: bool = False  # any rule beyond the plain table (checked once on the hot path)
    warnings: tuple[str, ...] = field(default=())
    powers_used: frozenset[str] = frozenset()

    def __repr__(self) -> str:
        return f"load_variant({self.id!r})"

    def setting_origin(self, key: str) -> str:
        return self.settings.get(key, (None, ""))[1]

    def fragment(self, fid: str) -> Fragment:
        for f in self.fragments:
            if f.id == fid:
                return f
        raise KeyError(fid)

    def fragment_for_slot(self, slot: str) -> Fragment | None:
        for f in self.fragments:
            if f.slot == slot:
                return f
        return None

    def players_problem(self, n_players: int) -> str | None:
        """Why ``n_players`` cannot play this variant, or None: one rule for tables and games."""
        if self.min_players <= n_players <= self.max_players:
            return None
        return f"{self.id} is for {self.min_players} to {self.max_players} players, not {n_players}"

    def decks_for(self, n_players: int) -> int:
        """How many packs a game of ``n_players`` uses."""
        if self.decks != "auto":
            return int(self.decks)
        need = n_players * (self.down + self.up + self.hand) + self.stock_min
        decks = self.min_decks
        while decks * (52 + self.jokers) < need:
            decks += 1
        return decks


def load_table(raw: Any, v: Variant, *, where: str = "table") -> Table:
    """A table file's mapping read under ``v``: its pack count and jokers by default, and only
    as many players as ``v`` is for (the same rule :func:`tutor.play.game.deal` keeps)."""
    if isinstance(raw, Mapping) and isinstance(raw.get("players"), list) and len(raw["players"]) >= 2:
        problem = v.players_problem(len(raw["players"]))
        if problem:
            raise TableError(f"{where}: players: {problem}")
        n = len(raw["players"])
    else:
        n = 2  # table_from_dict says what is wrong
    return table_from_dict(raw, where=where, decks=v.decks_for(n), jokers_per_deck=v.jokers)


# -- loading files ---------------------------------------------------------


def _read_yaml(path: Path) -> Any:
    return safeyaml.read_file(path, str(path), VariantError)


def parse_yaml(text: str, where: str) -> Any:
    return safeyaml.load(text, where, VariantError)


def _source(raw: Any, where: str) -> Source:
    if not isinstance(raw, Mapping):
        raise VariantError(f"{where}: source: give site, section and contributor")
    for key in ("site", "section"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise VariantError(f"{where}: source.{key}: missing")
    return Source(
        site=raw["site"], section=raw["section"],
        contributor=str(raw.get("contributor", "") or ""), page=str(raw.get("page", "") or ""),
    )


def _str_list(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise VariantError(f"{where}: a list of fragment ids")
    return tuple(raw)


def fragment_from_data(data: Any, path: str) -> Fragment:
    """Validate a fragment's mapping (from YAML) and build it, or raise VariantError."""
    if not isinstance(data, Mapping):
        raise VariantError(f"{path}: a fragment file is a mapping with id, slot, title, ...")
    unknown = set(map(str, data)) - _FRAGMENT_KEYS
    if unknown:
        raise VariantError(f"{path}: unknown key {sorted(unknown)[0]!r}")
    for key in ("id", "slot", "title", "summary"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise VariantError(f"{path}: {key}: missing (a fragment needs id, slot, title, summary, source, powers)")
    if data["slot"] not in SLOTS:
        raise VariantError(f"{path}: slot: {data['slot']!r} is not a slot (slots: {', '.join(SLOTS)})")
    powers = data.get("powers", [])
    if not isinstance(powers, list):
        raise VariantError(f"{path}: powers: a list of {{power: name, ...}} entries")
    examples = data.get("examples", []) or []
    if not isinstance(examples, list) or not all(isinstance(e, Mapping) for e in examples):
        raise VariantError(f"{path}: examples: a list of {{table: ..., move: ..., legal: ...}} entries")
    frag = Fragment(
        id=data["id"], slot=data["slot"], title=data["title"], summary=data["summary"].strip(),
        source=_source(data.get("source"), path), powers=tuple(powers), path=path,
        text=str(data.get("text", "") or "").strip(), reading=str(data.get("reading", "") or "").strip(),
        requires=_str_list(data.get("requires"), f"{path}: requires"),
        conflicts=_str_list(data.get("conflicts"), f"{path}: conflicts"),
        implies=_str_list(data.get("implies"), f"{path}: implies"),
        examples=tuple(examples),
    )
    # Try the powers on a scratch builder, so a malformed fragment is refused whole.
    scratch = Rules()
    for k, spec in enumerate(frag.powers):
        apply_power(scratch, spec, frag.id, f"{path}: powers[{k}]")
    return frag


def load_fragment_text(text: str, where: str) -> Fragment:
    """Read a fragment from YAML text (a user's file or upload); errors give file, line and key."""
    data = parse_yaml(text, where)
    try:
        return fragment_from_data(data, where)
    except VariantError as exc:
        from tutor.rules.schema import locate

        msg = str(exc)
        line = locate(text, msg[len(where) + 2:] if msg.startswith(where + ": ") else msg)
        if line is not None and msg.startswith(where + ": "):
            msg = f"{where}: line {line}: {msg[len(where) + 2:]}"
        raise VariantError(msg) from None


def user_fragment(text: str, where: str) -> Fragment:
    """A fragment a user gave (an upload, a link): the file format read by the guarded reader
    and checked as every fragment is, at most :data:`MAX_USER_FRAGMENT` bytes, with an id of
    its own (not one of the catalogue's)."""
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_USER_FRAGMENT:
        raise VariantError(f"{where}: {size:,} bytes is too big for a rule fragment (at most {MAX_USER_FRAGMENT:,})")
    frag = load_fragment_text(text, where)
    if frag.id in fragment_catalogue():
        raise VariantError(f"{where}: id {frag.id!r} is already a rule of the catalogue; give yours its own id")
    return frag


def fragment_to_data(f: Fragment) -> dict[str, Any]:
    """A fragment as the mapping of its file (what :func:`fragment_from_data` reads back)."""
    source = {"site": f.source.site, "section": f.source.section}
    if f.source.page:
        source["page"] = f.source.page
    if f.source.contributor:
        source["contributor"] = f.source.contributor
    data: dict[str, Any] = {"id": f.id, "slot": f.slot, "title": f.title, "summary": f.summary, "source": source}
    for key in ("text", "reading"):
        if getattr(f, key):
            data[key] = getattr(f, key)
    for key in ("requires", "conflicts", "implies"):
        if getattr(f, key):
            data[key] = list(getattr(f, key))
    data["powers"] = [dict(p) for p in f.powers]
    if f.examples:
        data["examples"] = [dict(e) for e in f.examples]
    return data


def fragment_yaml(f: Fragment) -> str:
    """A fragment as the text of its file."""
    return yaml.safe_dump(fragment_to_data(f), sort_keys=False, allow_unicode=True, width=100)


def _read_fragment_file(path: Path, name: str) -> Fragment:
    return load_fragment_text(safeyaml.read_text(path, name, VariantError), name)


@cache
def fragment_catalogue() -> Mapping[str, Fragment]:
    out: dict[str, Fragment] = {}
    for p in sorted(FRAGMENTS_DIR.glob("*.yaml")):
        frag = _read_fragment_file(p, str(p.relative_to(RULES_DIR.parent)))
        if frag.id != p.stem:
            raise VariantError(f"{p}: id: {frag.id!r} must match the file name {p.stem!r}")
        out[frag.id] = frag
    return out


def preset_from_data(data: Any, path: str) -> Preset:
    if not isinstance(data, Mapping):
        raise VariantError(f"{path}: a preset file is a mapping with id, title, fragments")
    unknown = set(map(str, data)) - _PRESET_KEYS
    if unknown:
        raise VariantError(f"{path}: unknown key {sorted(unknown)[0]!r}")
    for key in ("id", "title", "summary"):
        if not isinstance(data.get(key), str):
            raise VariantError(f"{path}: {key}: missing")
    return Preset(
        id=data["id"], title=data["title"], summary=data["summary"].strip(),
        source=_source(data.get("source"), path),
        fragments=_str_list(data.get("fragments"), f"{path}: fragments"), path=path,
        reading=str(data.get("reading", "") or "").strip(),
        options=_str_list(data.get("options"), f"{path}: options"),
        not_modelled=_not_modelled(data.get("not_modelled"), f"{path}: not_modelled"),
    )


def _not_modelled(raw: Any, where: str) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    ok = isinstance(raw, list) and all(
        isinstance(x, Mapping) and set(x) == {"rule", "why"} and all(isinstance(x[k], str) for k in x)
        for x in raw)
    if not ok:
        raise VariantError(f"{where}: a list of {{rule: ..., why: ...}}")
    return tuple((str(x["rule"]).strip(), str(x["why"]).strip()) for x in raw)


@cache
def preset_catalogue() -> Mapping[str, Preset]:
    out: dict[str, Preset] = {}
    for p in sorted(PRESETS_DIR.glob("*.yaml")):
        preset = preset_from_data(_read_yaml(p), str(p.relative_to(RULES_DIR.parent)))
        if preset.id != p.stem:
            raise VariantError(f"{p}: id: {preset.id!r} must match the file name {p.stem!r}")
        out[preset.id] = preset
    return out


# -- composing -------------------------------------------------------------


def load_variant(spec: str | Variant, *, paths: bool = True) -> Variant:
    """Turn a spec (``pagat``, ``lancaster+twos-pass-on``, a file path) into a Variant.
    Without ``paths`` an error names rules by id and title, never their files (for the app)."""
    if isinstance(spec, Variant):
        return spec
    if not isinstance(spec, str) or not spec.strip():
        raise VariantError(f"{spec!r} is not a variant spec (try 'pagat' or 'lancaster')")
    return _load_variant(spec.strip(), paths)


@lru_cache(maxsize=256)
def _load_variant(spec: str, paths: bool = True) -> Variant:
    parts = [s.strip() for s in spec.split("+")]
    if any(not s for s in parts):
        raise VariantError(f"{spec!r}: an empty name between '+' signs")
    presets = preset_catalogue()
    head, rest = parts[0], parts[1:]
    if _is_path(head):
        return read_variant_file(head, rest, where=repr(spec) if rest else head, paths=paths)
    if head not in presets and head in fragment_catalogue():
        raise VariantError(f"{spec!r}: {head!r} is a fragment; start the spec with a preset ({', '.join(sorted(presets))})")
    if head not in presets:
        raise VariantError(f"{spec!r}: {head!r} is not a preset (presets: {', '.join(sorted(presets))})")
    return build_variant(head, _named(rest, repr(spec)), where=repr(spec), paths=paths)


def _named(names: Sequence[str], where: str) -> list[Fragment]:
    """Fragments named in a spec or a variant file: catalogue ids, or fragment files' paths."""
    catalogue = fragment_catalogue()
    out: list[Fragment] = []
    for name in names:
        if _is_path(name):
            out.append(_read_fragment_file(Path(name), name))
        elif name in catalogue:
            out.append(catalogue[name])
        else:
            raise VariantError(f"{where}: {name!r} is not a fragment (see 'tutor variants' for the list)")
    return out


def read_variant_file(path: str, extra: Sequence[str] = (), *, where: str | None = None,
                      paths: bool = True) -> Variant:
    """A variant file (a preset and the fragments over it, see :func:`variant_parts`), with the
    fragments ``extra`` laid over it too."""
    data = _read_yaml(Path(path))
    if isinstance(data, Mapping) and "slot" in data:
        raise VariantError(f"{path}: a fragment file, not a variant: write 'PRESET+{path}'")
    preset_id, names, inline = variant_parts(data, path)
    at = where or path
    return build_variant(preset_id, [*inline, *_named([*names, *extra], at)], where=at, paths=paths)


def is_variant_data(data: Any) -> bool:
    """Is this a variant file's mapping (a preset and fragments laid over it), rather than a
    fragment's or a preset's?"""
    return isinstance(data, Mapping) and "preset" in data and "id" not in data and "slot" not in data


def variant_parts(data: Any, where: str, *, files: bool = True) -> tuple[str, list[str], list[Fragment]]:
    """A variant file's mapping: its preset, the fragments it names (catalogue ids; with
    ``files``, also fragment files' paths) and the fragments written out in it (a user's own:
    the Rulebook builder's download holds them whole, so that the file alone is the variant)."""
    presets = preset_catalogue()
    if not isinstance(data, Mapping) or "preset" not in data:
        raise VariantError(f"{where}: a variant file names a 'preset' and its 'fragments'")
    unknown = sorted(set(map(str, data)) - _VARIANT_KEYS)
    if unknown:
        raise VariantError(f"{where}: unknown key {excerpt(unknown[0], 40)} (a variant file has preset and fragments)")
    base = data["preset"]
    if not isinstance(base, str) or base not in presets:
        raise VariantError(f"{where}: preset: {excerpt(base)} is not a preset (presets: {', '.join(sorted(presets))})")
    items = data.get("fragments") or []
    if not isinstance(items, list):
        raise VariantError(f"{where}: fragments: a list of fragment ids, or of fragments written out")
    catalogue = fragment_catalogue()
    names: list[str] = []
    inline: list[Fragment] = []
    for k, item in enumerate(items):
        at = f"{where}: fragments[{k}]"
        if isinstance(item, Mapping):
            frag = fragment_from_data(item, at)
            if frag.id in catalogue:
                raise VariantError(f"{at}: id {frag.id!r} is already a rule of the catalogue; name it by its id")
            inline.append(frag)
        elif isinstance(item, str) and (item in catalogue or (files and _is_path(item))):
            names.append(item)
        elif isinstance(item, str):
            raise VariantError(f"{at}: {excerpt(item, 40)} is not a fragment (see 'tutor variants' for the list)")
        else:
            raise VariantError(f"{at}: a fragment id, or a fragment written out (id, slot, title, ...)")
    return base, names, inline


def variant_from_data(data: Any, where: str) -> Variant:
    """A variant file's mapping as a Variant, reading no file (for uploads and links)."""
    preset_id, names, inline = variant_parts(data, where, files=False)
    return build_variant(preset_id, [*inline, *names], where=where, paths=False)


def build_variant(preset_id: str | Preset, named: Sequence[Fragment | str], *, where: str = "variant",
                  paths: bool = True) -> Variant:
    """Compose a preset with fragments (ids, or Fragment objects such as an upload).

    A named fragment replaces the preset's fragment in its slot; two named fragments in one
    slot, an unmet ``requires`` or a ``conflicts`` pair is a VariantError naming both files
    (without ``paths``, as the app says it: both rules by id and title, no file).
    """

    def ref(f: Fragment) -> str:
        return f"{f.id} ({f.path})" if paths else f"{f.id} (“{f.title}”)"

    def ref_id(fid: str) -> str:
        f = fragment_catalogue().get(fid)
        return f"{fid} ({_path_of(fid)})" if paths or f is None else ref(f)

    presets = preset_catalogue()
    catalogue = fragment_catalogue()
    if isinstance(preset_id, Preset):
        preset = preset_id
    elif preset_id not in presets:
        raise VariantError(f"{where}: {preset_id!r} is not a preset (presets: {', '.join(sorted(presets))})")
    else:
        preset = presets[preset_id]
    frags_named: list[Fragment] = []
    for item in named:
        if isinstance(item, str):
            if item not in catalogue:
                raise VariantError(f"{where}: {item!r} is not a fragment (see 'tutor variants' for the list)")
            item = catalogue[item]
        for other in frags_named:
            if other.slot == item.slot and other.id != item.id:
                raise VariantError(f"{where}: {ref(other)} and {ref(item)} both fill the slot {item.slot!r}; keep one")
        if item.id not in [f.id for f in frags_named]:
            frags_named.append(item)

    by_slot: dict[str, Fragment] = {}
    for fid in preset.fragments:
        if fid not in catalogue:
            raise VariantError(f"{preset.path}: fragments: {fid!r} is not a fragment")
        frag = catalogue[fid]
        if frag.slot in by_slot:
            other = by_slot[frag.slot]
            raise VariantError(f"{preset.path}: {other.id} ({other.path}) and {fid} ({frag.path}) "
                               f"both fill the slot {frag.slot!r}")
        by_slot[frag.slot] = frag
    replaced: list[tuple[str, str]] = []
    for frag in frags_named:
        old = by_slot.get(frag.slot)
        if old is not None and old.id != frag.id:
            replaced.append((old.id, frag.id))
        by_slot[frag.slot] = frag
    named_slots = {f.slot: f for f in frags_named}
    for frag in list(by_slot.values()):
        for imp in frag.implies:
            if imp not in catalogue:
                raise VariantError(f"{ref(frag)} implies {imp!r}, which is not a fragment")
            implied = catalogue[imp]
            holder = named_slots.get(implied.slot)
            if holder is not None and holder.id != imp:
                raise VariantError(f"{ref(frag)} brings {ref(implied)}, but {ref(holder)} was named for the "
                                   f"slot {implied.slot!r}")
            by_slot[implied.slot] = implied
    frags = tuple(sorted(by_slot.values(), key=lambda f: (SLOTS.index(f.slot), f.id)))
    ids = {f.id for f in frags}
    for f in frags:
        for req in f.requires:
            if req not in ids:
                raise VariantError(f"{ref(f)} needs {ref_id(req)}, which this variant lacks")
        for con in f.conflicts:
            if con in ids:
                raise VariantError(f"{ref(f)} cannot be combined with {ref_id(con)}")

    own = [f for f in frags_named if f.id not in preset.fragments]
    canonical = "+".join([preset.id] + sorted(
        (f.id if f.path.startswith("rules/") else f"{f.id}@{_digest(f)}") for f in own
    ))
    return compile_variant(canonical, preset, frags, tuple(replaced))


def warnings_for(v: Variant, players: int) -> list[str]:
    """Rules of ``v`` that can never fire, or act differently, with this many players."""
    out = list(v.warnings)
    if players == 2:
        for fid in sorted({o["reverse"] for o in v.origin if "reverse" in o}):
            out.append(f"{fid}: reversing the direction changes nothing with two players")
        for fid in sorted({o["skip"] for o in v.origin if "skip" in o}):
            out.append(f"{fid}: with two players, skipping the other player means you play again")
    if not v.min_players <= players <= v.max_players:
        out.append(f"{v.id} is for {v.min_players} to {v.max_players} players, not {players}")
    return out


def _is_path(name: str) -> bool:
    return name.endswith((".yaml", ".yml")) or "/" in name


def _path_of(fid: str) -> str:
    frag = fragment_catalogue().get(fid)
    return frag.path if frag else f"rules/fragments/{fid}.yaml"


def _digest(f: Fragment) -> str:
    return hashlib.sha1(repr((f.slot, f.powers)).encode()).hexdigest()[:8]


def compile_variant(
    vid: str, preset: Preset, frags: tuple[Fragment, ...], replaced: tuple[tuple[str, str], ...] = ()
) -> Variant:
    rules = Rules()
    for f in frags:
        for k, spec in enumerate(f.powers):
            apply_power(rules, spec, f.id, f"{f.path}: powers[{k}]")
    ranks = rules.ranks
    cells = tuple(tuple(_decide(ranks, top, rank) for rank in range(N_RANKS)) for top in range(EMPTY + 1))
    cells_rev = tuple(tuple(_decide(ranks, top, rank, reverse=True) for rank in range(N_RANKS))
                      for top in range(EMPTY + 1))
    g = rules.get
    jokers = g("jokers", 0)
    warnings = []
    joker_rule = ranks[13].origin
    if jokers == 0 and joker_rule:
        fid = next(iter(joker_rule.values()))
        warnings.append(f"{fid} gives jokers a power, but this variant has no jokers")
    extras = {
        "reversal": g("reversal", -1), "force": g("force", -1), "runs": g("runs", 0),
        "swaps": g("swaps", {}), "gamble": g("gamble", False), "slide": g("slide", -1),
        "face_up_to_hand": g("face_up_to_hand", False), "bluff": g("bluff", False),
    }
    ids = {f.id for f in frags}
    # a last-down rule holds only while every fragment it needs is in the variant too (Nortenos:
    # threes and fours are special only with both threes-slide and fours-reset)
    last_down = {rank: (outcome, (fid, *needs)) for rank, (outcome, fid, needs) in g("last_down", {}).items()
                 if set(needs) <= ids}
    any_extra = (extras["reversal"] >= 0 or extras["force"] >= 0 or bool(extras["runs"]) or bool(extras["swaps"])
                 or bool(extras["gamble"]) or extras["slide"] >= 0 or bool(extras["face_up_to_hand"])
                 or g("setup", "swap") == "stack" or bool(extras["bluff"])
                 or any(r.free_with_two for r in ranks))
    return Variant(
        id=vid, preset=preset, fragments=frags, settings=dict(rules.settings), replaced=replaced,
        place=tuple(tuple(c[0] for c in row) for row in cells), cells=cells,
        place_rev=tuple(tuple(c[0] for c in row) for row in cells_rev), cells_rev=cells_rev,
        transparent=tuple(r.transparent for r in ranks),
        alone_self=tuple(r.transparent and r.alone == "self" for r in ranks),
        counts=tuple(k if r.counts_as < 0 else r.counts_as for k, r in enumerate(ranks)),
        free_with_two=tuple(r.free_with_two for r in ranks),
        burn=tuple(r.burn for r in ranks), reverse=tuple(r.reverse for r in ranks),
        skip=tuple(r.skip for r in ranks), play_again=tuple(r.play_again for r in ranks),
        origin=tuple(dict(r.origin) for r in ranks),
        four_burns=g("four_burns", 0), voluntary_pickup=g("voluntary_pickup", True),
        after_pickup=g("after_pickup", "next"), face_up_pickup_adds=g("face_up_pickup_adds", 0),
        final_card_combo=g("final_card_combo", False), goal=g("goal", "loser"),
        first_player=g("first_player", "first-three-face-up"), setup=g("setup", "swap"),
        down=g("down", 3), up=g("up", 3), hand=g("hand", 3), decks=g("decks", 1),
        stock_min=g("stock_min", 16), min_decks=g("min_decks", 1), jokers=jokers,
        min_players=g("min_players", 2), max_players=_max_players(g),
        refill=g("refill", g("hand", 3)), setup_count=g("setup_count", 0),
        reversal=extras["reversal"], force=extras["force"], force_once=g("force_once", True),
        deflect=g("deflect", None), runs=extras["runs"],
        swaps={k: tuple(val) for k, val in dict(extras["swaps"]).items()},
        gamble=bool(extras["gamble"]), slide=extras["slide"], last_down=last_down,
        never_leads=frozenset(g("never_leads", frozenset())), face_up_to_hand=bool(extras["face_up_to_hand"]),
        bluff=bool(extras["bluff"]),
        extras=any_extra,
        warnings=tuple(warnings),
        powers_used=frozenset(str(spec.get("power")) for f in frags for spec in f.powers),
    )


def _max_players(g: Any) -> int:
    """The players a fixed number of packs can deal to (a fragment may allow more than that)."""
    most = g("max_players", 5)
    decks = g("decks", 1)
    each = g("down", 3) + g("up", 3) + g("hand", 3)
    if decks != "auto" and each:
        most = min(most, decks * (52 + g("jokers", 0)) // each)
    return max(most, g("min_players", 2))


def _decide(ranks: list[Any], top: int, rank: int, *, reverse: bool = False) -> Cell:
    """May ``rank`` be played on an effective top of ``top``? With the code and fragments.

    With ``reverse`` the rank order is upside down (a rank-reversing joker is in force).
    """
    if top == EMPTY:
        return True, "EMPTY", ("core",)
    card, under = ranks[rank], ranks[top]

    def order(r: int) -> int:
        return 12 - r if reverse and r < 13 else r

    if under.after == "unbeatable":
        fid = under.origin["after"]
        if rank == top or rank in under.after_except:
            return True, "UNBEATABLE_OK", (fid,)
        return False, "UNBEATABLE", (fid,)
    if under.origin.get("force"):
        if under.origin.get("deflect") or card.origin.get("deflect"):
            pass  # a forced pickup is judged by the engine (colour matters)
        return False, "FORCED_PICKUP", (under.origin["force"],)
    if card.place == "anywhere":
        if top in card.place_on:
            return False, "NOT_ON", (card.origin["place"],)
        return True, "ANYWHERE", (card.origin["place"],)
    if under.after == "reset":
        return True, "RESET", (under.origin["after"],)
    if under.after == "lower":
        ok = order(rank) < order(top) if under.strict else order(rank) <= order(top)
        if ok and card.place == "only-on" and top not in card.place_on:
            return False, "NOT_ON", (card.origin["place"],)
        return ok, ("UNDER_LIMIT" if ok else "OVER_LIMIT"), (under.origin["after"],)
    if card.place == "only-on" and top not in card.place_on:
        return False, "NOT_ON", (card.origin["place"],)
    rev = (ranks[13].origin.get("reversal"),) if reverse and ranks[13].origin.get("reversal") else ()
    if order(rank) >= order(top):
        frags = ("core",) if card.place == "natural" else ("core", card.origin["place"])
        return True, ("MATCHES" if rank == top else "BEATS"), frags + rev
    return False, "TOO_LOW", ("core",) + rev


def rank_label(rank: int) -> str:
    return "empty" if rank == EMPTY else RANK_NAMES[rank]
