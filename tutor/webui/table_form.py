"""The table editor of the "Is this move legal?" page.

The form's widgets (keys ``lf_*``, kept for the whole session) describe a table the
way the contract's table file does; :func:`form_to_raw` turns them into that
file's mapping, which :func:`tutor.core.table.table_from_dict` validates. Nothing is
checked here beyond what the widgets cannot express (cards *and* an unseen count
in one zone). :func:`load_form` fills the widgets from a valid table, e.g. an
imported file or a shared link.

Cards are picked from the pack: with two packs each card is offered twice
(``7H`` and ``7H#2``), so a two-pack table can hold both 7♥s, while picking the
same card in two places of a one-pack table is the error it should be.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import streamlit as st

from tutor.core.cards import (
    JOKER,
    RANK_NAMES,
    RUN_CLAIM,
    SET_COUNTED,
    UNKNOWN,
    card_pretty,
    card_str,
    claim_count,
    claim_str,
    claim_top,
    full_pack,
    parse_card,
    parse_claim,
)
from tutor.core.errors import NotationError, TableError, excerpt
from tutor.core.table import CLOCKWISE, MAX_NAME, Table
from tutor.engine.words import some
from tutor.rules.variant import Variant
from tutor.webui.cards import card_label

MAX_PLAYERS, MAX_PLAYS = 8, 30
K_PACKS_AUTO = "_lf_packs_auto"  # the Packs field follows the variant until it is set by hand
NOBODY = "(not recorded)"
DIRECTIONS = ("clockwise", "counterclockwise")
PHASES = {"play": "play (cards are being played)", "opening": "the opening (the first lead is next)",
          "setup": "setup (hand and face-up cards may still be swapped)"}
NO_CLAIM = "(no claim)"
SESSION: Final = "session"  # every field keeps its value for the whole session


def k(name: str, i: int | None = None) -> str:
    """The session key of one form field (``lf_hand_0``)."""
    return f"lf_{name}" if i is None else f"lf_{name}_{i}"


# -- cards as option tokens ---------------------------------------------------


def pack_tokens(decks: int, jokers_per_deck: int) -> list[str]:
    """Every card of the packs as a unique option: ``7H``, then ``7H#2`` from the second pack."""
    out: list[str] = []
    for d in range(1, decks + 1):
        out += [card_str(c) + ("" if d == 1 else f"#{d}") for c in full_pack(1, 0)]
    out += ["JK" + ("" if j == 1 else f"#{j}") for j in range(1, decks * jokers_per_deck + 1)]
    return out


def token_card(token: str) -> int:
    return parse_card(token.split("#")[0])


def token_label(token: str) -> str:
    base, _, copy = token.partition("#")
    card = parse_card(base)
    label = card_label(card) if card != JOKER else "🃏 joker (JK)"
    return label + (f" · pack {copy}" if copy else "")


def tokens_of(cards: Sequence[int]) -> list[str]:
    """Cards as option tokens, the second 7H of a zone becoming ``7H#2``."""
    seen: dict[int, int] = {}
    out = []
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
        out.append(card_str(c) + ("" if seen[c] == 1 else f"#{seen[c]}"))
    return out


# -- form <-> table file --------------------------------------------------------


def _zone(cards_key: str, unseen_key: str | None, where: str) -> list[str] | int:
    cards = [card_str(token_card(t)) for t in st.session_state.get(cards_key, [])]
    unseen = int(st.session_state.get(unseen_key, 0) or 0) if unseen_key else 0
    if cards and unseen:
        raise TableError(f"table: {where}: pick the cards or give a number of unseen cards, not both")
    return unseen if unseen else cards


def _hand(cards_key: str, unseen_key: str) -> list[str] | int | dict[str, Any]:
    """A hand may be partly seen: the cards seen going in at a pickup, and how many more."""
    cards = [card_str(token_card(t)) for t in st.session_state.get(cards_key, [])]
    unseen = int(st.session_state.get(unseen_key, 0) or 0)
    if cards and unseen:
        return {"seen": cards, "unseen": unseen}
    return unseen if unseen else cards


def names() -> list[str]:
    n = int(st.session_state.get(k("n"), 2))
    return [str(st.session_state.get(k("name", i)) or "").strip() or _default_name(i) for i in range(n)]


def form_to_raw() -> dict[str, Any]:
    """The form as a table file's mapping; raises TableError for a zone with cards and a count."""
    ss = st.session_state
    players = []
    for i, name in enumerate(names()):
        at = f"players[{i}] ({name})"
        players.append({
            "name": name,
            "hand": _hand(k("hand", i), k("hand_unseen", i)),
            "face_up": _zone(k("up", i), None, f"{at}.face_up"),
            "face_down": _zone(k("down", i), k("down_unseen", i), f"{at}.face_down"),
        })
        if ss.get(k("lost", i)):
            players[-1]["lost"] = True
    pile: list[Any] = []
    for j in range(int(ss.get(k("plays"), 0))):
        cards = [card_str(token_card(t)) for t in ss.get(k("play", j), [])]
        by = ss.get(k("by", j), NOBODY)
        claim = ss.get(k("claim", j)) or NO_CLAIM
        if claim != NO_CLAIM:
            pile.append({**({"by": by} if by != NOBODY else {}), "cards": cards, "claim": claim})
        else:
            pile.append({"by": by, "cards": cards} if by != NOBODY else cards)
    phase = ss.get(k("phase")) or "play"
    return {**({"phase": phase} if phase != "play" else {}),
        "decks": int(ss.get(k("decks"), 1)),
        "players": players,
        "pile": pile,
        "stock": _zone(k("stock"), k("stock_unseen"), "stock"),
        "burned": int(ss.get(k("burned"), 0) or 0),
        "turn": ss.get(k("turn")),
        "direction": ss.get(k("dir"), DIRECTIONS[0]),
    }


def _set_zone(cards: Sequence[int], cards_key: str, unseen_key: str | None) -> None:
    known = [c for c in cards if c != UNKNOWN]
    st.session_state[cards_key] = tokens_of(known)
    if unseen_key:
        st.session_state[unseen_key] = len(cards) - len(known)


def fits(table: Table, where: str = "table") -> Table:
    """``table`` if the form can show it as it is; else a TableError saying what does not fit
    (a link or an import is refused, never quietly changed)."""
    limits = [(len(table.players), MAX_PLAYERS, "players"), (len(table.pile), MAX_PLAYS, "plays on the pile"),
              (table.stock.count(UNKNOWN), 400, "unseen stock cards"), (len(table.burned), 400, "burned cards")]
    for p in table.players:
        if UNKNOWN in p.face_up_cards:
            raise TableError(f"{where}: {p.name}'s face-up cards are unseen (laid face down, as in Nortenos); "
                             "the table editor shows face-up cards as cards")
        limits += [(p.hand.count(UNKNOWN), 60, f"unseen cards in {p.name}'s hand"),
                   (p.face_down.count(UNKNOWN), 10, f"unseen face-down cards of {p.name}")]
    for n, most, what in limits:
        if n > most:
            raise TableError(f"{where}: {n} {what}; the table editor holds at most {most}")
    return table


def load_form(table: Table, move: str = "", v: Variant | None = None) -> None:
    """Fill every field from a valid table (call before the widgets are drawn, e.g. in a callback).
    The packs keep following the variant (``v``) when the table uses the variant's own count."""
    fits(table)
    ss = st.session_state
    ss[K_PACKS_AUTO] = v is not None and table.decks == v.decks_for(len(table.players))
    ss[k("n")] = len(table.players)
    for i, p in enumerate(table.players):
        ss[k("name", i)] = p.name
        _set_zone(p.hand, k("hand", i), k("hand_unseen", i))
        _set_zone(p.face_up_cards, k("up", i), None)
        _set_zone(p.face_down, k("down", i), k("down_unseen", i))
        ss[k("lost", i)] = p.lost
    ss[k("plays")] = len(table.pile)
    for j, play in enumerate(table.pile):
        ss[k("by", j)] = table.players[play.by].name if play.by >= 0 else NOBODY
        ss[k("play", j)] = tokens_of(play.cards)
        ss[k("claim", j)] = claim_str(play.claim) if play.claim >= 0 else NO_CLAIM
    ss[k("phase")] = "setup" if table.setup else "opening" if table.opening else "play"
    _set_zone(table.stock, k("stock"), k("stock_unseen"))
    ss[k("burned")] = len(table.burned)
    ss[k("turn")] = table.players[table.turn].name
    ss[k("dir")] = DIRECTIONS[0] if table.direction == CLOCKWISE else DIRECTIONS[1]
    ss[k("decks")] = table.decks
    ss[k("move")] = move


# -- the widgets ------------------------------------------------------------------


def normalise(v: Variant) -> None:
    """Bring the fields in line with each other before reading or drawing them: default names
    and packs, cards of packs no longer in play dropped, turn and players of plays still seated."""
    ss = st.session_state
    ss.setdefault(k("n"), 3)
    if ss.get(K_PACKS_AUTO, True) or k("decks") not in ss:
        # the variant's packs for this many players, and never fewer than the cards picked use
        ss[k("decks")] = max(v.decks_for(int(ss[k("n")])), _packs_used())
    tokens = set(pack_tokens(int(ss[k("decks")]), v.jokers))
    for key in [key for key in ss if isinstance(key, str) and key.startswith("lf_")]:
        if _is_cards_key(key):
            ss[key] = [t for t in ss[key] if t in tokens]
    seats = names()
    if ss.get(k("turn")) not in seats:
        ss[k("turn")] = seats[0]
    for j in range(int(ss.get(k("plays"), 0))):
        if ss.get(k("by", j)) not in [NOBODY, *seats]:
            ss[k("by", j)] = NOBODY


def _packs_used() -> int:
    """The most packs the picked cards need (``7H#2`` is from the second)."""
    copies = [int(t.split("#")[1]) for key, tokens in st.session_state.items()
              if isinstance(key, str) and key.startswith("lf_") and _is_cards_key(key)
              for t in (tokens or []) if isinstance(t, str) and "#" in t and not t.startswith("JK")
              and t.split("#")[1].isdigit()]
    return min(8, max(copies, default=1))


def _is_cards_key(key: str) -> bool:
    return key.split("_")[1] in ("hand", "up", "down", "play", "stock") and not key.endswith("unseen") \
        and "_unseen_" not in key


def _cards(label: str, key: str, options: list[str], help: str | None = None) -> None:
    st.multiselect(label, options, key=key, format_func=token_label, placeholder="no cards",
                   select_all=False, help=help, persist_state=SESSION)


def _player(i: int, options: list[str], lost: bool) -> None:
    with st.container(border=True):
        st.text_input("Name", key=k("name", i), max_chars=MAX_NAME, persist_state=SESSION)
        c1, c2 = st.columns([3, 1])
        with c1:
            _cards("Hand", k("hand", i), options)
        c2.number_input("+ unseen", 0, 60, key=k("hand_unseen", i), persist_state=SESSION,
                        help="How many cards in this hand nobody else has seen. With cards picked too, those "
                             "are the cards seen going in (at a pickup), and this many more are unseen.")
        _cards("Face up", k("up", i), options)
        c1, c2 = st.columns([3, 1])
        with c1:
            _cards("Face down (in order)", k("down", i), options, help="Position 1 is the first listed")
        c2.number_input("or unseen", 0, 10, key=k("down_unseen", i), persist_state=SESSION)
        if lost or st.session_state.get(k("lost", i)):
            st.checkbox("Lost the game at once (a 3 turned as the last face-down card)", key=k("lost", i),
                        persist_state=SESSION)


def _play(j: int, seats: list[str], options: list[str], claims: bool) -> None:
    c1, c2 = st.columns([1, 3])
    c1.selectbox(f"Play {j + 1} by", [NOBODY, *seats], key=k("by", j), persist_state=SESSION)
    with c2:
        _cards(f"Play {j + 1}: cards", k("play", j), options)
    said = st.session_state.get(k("claim", j)) or NO_CLAIM
    if claims or said != NO_CLAIM:
        ranks = [NO_CLAIM, *RANK_NAMES[:13]]
        st.selectbox(f"Play {j + 1}: claimed as (Bluff: the cards lie face down)",
                     ranks if said in ranks else [*ranks, said],  # (a run or a count from a link: '7-9', '7x2')
                     format_func=_claim_label, key=k("claim", j), persist_state=SESSION)


def _claim_label(text: str) -> str:
    """A claim as the editor offers it: '7x2' (a count said) reads '7x2: two 7s, whatever number
    of cards is down'."""
    try:
        claim = parse_claim(text)
    except NotationError:
        return text
    if not SET_COUNTED <= claim < RUN_CLAIM:
        return text
    return f"{text}: {some(claim_top(claim), claim_count(claim, 0))}, whatever number of cards is down"


def draw_form(v: Variant) -> None:
    """All the fields, in two tabs: the players and their cards; the pile, stock, turn and direction.
    Call :func:`normalise` first."""
    ss = st.session_state
    options = pack_tokens(int(ss[k("decks")]), v.jokers)
    players_tab, pile_tab = st.tabs(["Players and their cards", "Pile, stock, turn and direction"])
    with players_tab:
        c1, c2 = st.columns(2)
        c1.number_input("Players", 2, MAX_PLAYERS, key=k("n"), persist_state=SESSION)
        c2.number_input("Packs", 1, 8, key=k("decks"), persist_state=SESSION, on_change=_packs_by_hand,
                        help="How many 52-card packs are in play. It follows the variant and the number of "
                             "players until you set it.")
        for i in range(int(ss[k("n")])):
            ss.setdefault(k("name", i), _default_name(i))
            _player(i, options, lost=bool(v.last_down))
    seats = names()
    with pile_tab:
        st.number_input("Plays on the pile (bottom first)", 0, MAX_PLAYS, key=k("plays"), persist_state=SESSION)
        for j in range(int(ss[k("plays")])):
            _play(j, seats, options, claims=v.bluff)
        c1, c2, c3 = st.columns([2, 1, 1])
        with c1:
            _cards("Stock (top first)", k("stock"), options)
        c2.number_input("or unseen", 0, 400, key=k("stock_unseen"), persist_state=SESSION)
        c3.number_input("Burned", 0, 400, key=k("burned"), help="Cards out of play", persist_state=SESSION)
        c1, c2 = st.columns(2)
        c1.selectbox("Whose turn", seats, key=k("turn"), persist_state=SESSION)
        c2.radio("Direction", DIRECTIONS, key=k("dir"), horizontal=True, persist_state=SESSION)
        st.session_state.setdefault(k("phase"), "play")
        st.selectbox("Phase", list(PHASES), format_func=PHASES.__getitem__, key=k("phase"), persist_state=SESSION,
                     help="At the opening the variant's first-player rule judges the lead (Lancaster: the lowest "
                          "card leads); in setup only swaps and 'ready' are moves.")


def _packs_by_hand() -> None:
    st.session_state[K_PACKS_AUTO] = False


def _default_name(i: int) -> str:
    return chr(ord("A") + i) if i < 26 else f"P{i + 1}"


def pretty(cards: Sequence[int]) -> str:
    return " ".join(card_pretty(c) for c in cards)


# -- building by tapping: one change at a time, from the card table ---------------------

_ZONES: dict[str, tuple[str, str | None]] = {"hand": ("hand", "hand_unseen"), "up": ("up", None),
                                              "down": ("down", "down_unseen")}


def _used_tokens() -> set[str]:
    return {t for key, tokens in st.session_state.items()
            if isinstance(key, str) and key.startswith("lf_") and _is_cards_key(key) for t in (tokens or [])}


def _token_for(card: int, zone_tokens: list[str], decks: int, jokers: int) -> str | None:
    """A token for one more ``card``: a copy nobody holds yet, else one not in this zone (the
    table will then say where the copies are); None if this zone holds every copy already."""
    base = card_str(card)
    copies = decks * jokers if card == JOKER else decks
    tokens = [base + ("" if n == 1 else f"#{n}") for n in range(1, max(1, copies) + 1)]
    used = _used_tokens()
    return next((t for t in tokens if t not in used), next((t for t in tokens if t not in zone_tokens), None))


def apply_edit(text: str, v: Variant) -> str | None:
    """Apply one change from the card table to the form: ``add ZONE CARD``, ``remove ZONE CARD``
    (``CARD`` a card or ``??`` for an unseen one; ``ZONE`` is ``hand N``, ``up N``, ``down N``,
    ``pile J``, ``pile new`` or ``stock``) or ``turn N``. Returns a one-line problem, or None."""
    ss = st.session_state
    words = str(text).split()
    n = int(ss.get(k("n"), 2))
    try:
        if len(words) == 2 and words[0] == "turn":
            ss[k("turn")] = names()[int(words[1])]
            return None
        if len(words) == 3 and words[1] == "stock":
            words = [words[0], "stock", "0", words[2]]
        verb, zone, where, code = words
        index = -1 if where == "new" else int(where)
        card = UNKNOWN if code == "??" else parse_card(code)
    except (ValueError, IndexError, TableError) as exc:
        return f"{excerpt(text, 40)} is not a change to the table ({exc})"
    if verb not in ("add", "remove") or zone not in (*_ZONES, "pile", "stock") \
            or (zone in _ZONES and not 0 <= index < n):
        return f"{excerpt(text, 40)} is not a change to the table"
    if zone == "pile":
        return _edit_pile(verb, index, card, v)
    unseen_key: str | None
    if zone == "stock":
        cards_key, unseen_key = k("stock"), k("stock_unseen")
    else:
        cards_name, unseen_name = _ZONES[zone]
        cards_key, unseen_key = k(cards_name, index), (k(unseen_name, index) if unseen_name else None)
    tokens = list(ss.get(cards_key, []))
    if card == UNKNOWN:
        if unseen_key is None:
            return "Face-up cards are seen by everyone: pick the card."
        ss[unseen_key] = max(0, int(ss.get(unseen_key, 0) or 0) + (1 if verb == "add" else -1))
        return None
    if verb == "remove":
        mine = [t for t in tokens if token_card(t) == card]
        if mine:
            tokens.remove(mine[-1])
            ss[cards_key] = tokens
        return None
    token = _token_for(card, tokens, int(ss.get(k("decks"), 1)), v.jokers)
    if token is None:
        return f"Every {card_pretty(card)} of the packs is there already."
    ss[cards_key] = tokens + [token]
    if unseen_key and int(ss.get(unseen_key, 0) or 0):
        ss[unseen_key] = int(ss[unseen_key]) - 1  # an unseen card there turns out to be this one
    return None


def _edit_pile(verb: str, index: int, card: int, v: Variant) -> str | None:
    ss = st.session_state
    plays = int(ss.get(k("plays"), 0))
    if card == UNKNOWN:
        return "A play on the pile is seen by everyone: pick the card."
    if verb == "add" and index < 0:
        if plays >= MAX_PLAYS:
            return f"The pile holds at most {MAX_PLAYS} plays here."
        token = _token_for(card, [], int(ss.get(k("decks"), 1)), v.jokers)
        if token is None:
            return f"Every {card_pretty(card)} of the packs is there already."
        ss[k("play", plays)], ss[k("by", plays)], ss[k("plays")] = [token], NOBODY, plays + 1
        return None
    if not 0 <= index < plays:
        return "That play is no longer on the pile."
    tokens = list(ss.get(k("play", index), []))
    if verb == "add":
        token = _token_for(card, tokens, int(ss.get(k("decks"), 1)), v.jokers)
        if token is None:
            return f"Every {card_pretty(card)} of the packs is there already."
        ss[k("play", index)] = tokens + [token]
        return None
    mine = [t for t in tokens if token_card(t) == card]
    if mine:
        tokens.remove(mine[-1])
    if tokens:
        ss[k("play", index)] = tokens
        return None
    for j in range(index, plays - 1):  # an empty play leaves the pile: the ones above move down
        ss[k("play", j)], ss[k("by", j)] = ss.get(k("play", j + 1), []), ss.get(k("by", j + 1), NOBODY)
    ss[k("plays")] = plays - 1
    return None
