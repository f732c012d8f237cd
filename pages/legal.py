"""Is this move legal? Say what the pile shows and what you hold, tap a play, get the verdict.

A rule argument is settled at the top of the page: the quick question ("the pile shows X, I
hold Y, I play Z", :mod:`tutor.tabletop.quick`) builds a table in a few entries, the verdict
comes right under it, and the table below is a card table whose cards are tapped to ask about
another play. Every zone can still be edited card by card (:mod:`tutor.webui.table_form`),
started from the example or from an empty table, imported and exported as the contract's table
file. A table with more copies of a card than its packs hold stays in view with the copies
marked (:mod:`tutor.tabletop.copies`). The position and the move live in the URL
(``?v=...&q=...``, see :mod:`tutor.core.share`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import streamlit as st
import yaml

from tutor.advisor.api import answer, prepare
from tutor.advisor.ismcts import Progress
from tutor.core.errors import TutorError
from tutor.core.moves import FLIP, Move
from tutor.core.share import decode_question, encode_question
from tutor.core.table import Table, read_table_text
from tutor.engine import apply_unchecked, check, legal_moves
from tutor.engine.words import move_words, unlisted_note
from tutor.rules.variant import Variant, load_table, preset_catalogue
from tutor.tabletop.copies import extra_copies
from tutor.tabletop.layout import table_data
from tutor.tabletop.quick import quick_table
from tutor.tabletop.taps import offers, second_person
from tutor.webui.card_table import card_table, trigger
from tutor.webui.safe import md
from tutor.webui.state import current_variant, fragment_codes, resolve_spec, use_spec, variant_in_use
from tutor.webui.table_form import apply_edit, draw_form, fits, form_to_raw, k, load_form, normalise
from tutor.webui.table_view import show_table
from tutor.webui.verdict_view import show_verdict

K_SEEDED, K_NOTE, K_IMPORT_ERR, K_LAST_Q = "_lf_seeded", "_lf_note", "_lf_import_error", "_lf_last_q"
K_QUICK_ERR, K_QUICK_OPEN, K_EDITOR = "_lf_quick_error", "_lf_quick_open", "lf_edit"
K_TAP_MODE, K_EDIT_NOTE = "lf_tap_mode", "_lf_edit_note"
MAX_FILE = 100_000
TABLE = "lf_table"
HINT_SIMULATIONS, HINT_SECONDS = 600, 3.0  # "What would you play?": at most these, whichever ends first
QUICK = ("pile", "hand", "up", "play")  # the quick question's text fields: lf_q_pile ...

# The question a newcomer sees first: two readings of an 8 disagree about it.
EXAMPLE: dict[str, Any] = {
    "players": [
        {"name": "A", "hand": ["7H", "7S", "KD", "4C"], "face_up": ["9C", "QS", "2D"], "face_down": 3},
        {"name": "B", "hand": 4, "face_up": ["JH", "5S", "AC"], "face_down": 3},
        {"name": "C", "hand": 4, "face_up": ["10D", "3H", "6S"], "face_down": 3},
    ],
    "pile": [{"by": "C", "cards": ["6C"]}, {"by": "B", "cards": ["8D"]}],
    "stock": 14,
    "turn": "A",
    "direction": "counterclockwise",
}
EXAMPLE_MOVE = "play 7H 7S"
# A table with nothing known yet: three players, their cards unseen; add cards zone by zone.
EMPTY: dict[str, Any] = {
    "players": [{"name": n, "hand": 3, "face_up": [], "face_down": 3} for n in "ABC"],
    "pile": [], "stock": 0, "turn": "A", "direction": "clockwise",
}


def validate(raw: dict[str, Any], v: Variant, where: str = "table") -> Table:
    return load_table(raw, v, where=where)


def seed(v: Variant) -> None:
    """First visit in a session: the link's question, or the example."""
    if st.session_state.get(K_SEEDED):
        return
    st.session_state[K_SEEDED] = True
    raw, move = EXAMPLE, EXAMPLE_MOVE
    if "q" in st.query_params:
        try:
            q = decode_question(st.query_params["q"])
            fits(validate(q.table, v), "the link's table")
            raw, move = q.table, q.move
        except TutorError as exc:
            st.session_state[K_NOTE] = f"The link's question cannot be used: {exc}. Showing an example instead."
    load_form(validate(raw, v), move, v)


# -- callbacks (they run before the page is drawn) --------------------------------------


def _pick_move() -> None:
    picked = st.session_state.get("lf_pick")
    if picked:
        st.session_state[k("move")] = picked


def _asked() -> None:
    """A move asked from the card table (tapped cards, or a button)."""
    text = trigger(TABLE, "ask")
    if text:
        st.session_state[k("move")] = text


def _edited() -> None:
    """A change made by tapping the table in build mode."""
    text = trigger(TABLE, "edit")
    if text:
        problem = apply_edit(text, variant_in_use())
        if problem:
            st.session_state[K_EDIT_NOTE] = problem
        else:
            st.session_state.pop(K_EDIT_NOTE, None)


def _clear_quick() -> None:
    for name in QUICK:
        st.session_state[f"lf_q_{name}"] = ""
    st.session_state.pop(K_QUICK_ERR, None)


def _load(raw: dict[str, Any], move: str) -> None:
    v = variant_in_use()
    load_form(validate(raw, v), move, v)
    _clear_quick()
    st.session_state.pop(K_IMPORT_ERR, None)


def _load_example() -> None:
    _load(EXAMPLE, EXAMPLE_MOVE)


def _load_empty() -> None:
    _load(EMPTY, "")


def _quick(v: Variant | None = None) -> None:
    """Build the table of the quick question and load it into the form (a one-line error if
    a card or rank cannot be read)."""
    ss = st.session_state
    v = v or variant_in_use()
    try:
        raw, move = quick_table(v, pile=ss.get("lf_q_pile", ""), hand=ss.get("lf_q_hand", ""),
                                face_up=ss.get("lf_q_up", ""), play=ss.get("lf_q_play", ""),
                                players=int(ss.get("lf_q_players", 3)), stock=int(ss.get("lf_q_stock", 10)))
        table = fits(validate(raw, v, "the quick question"), "the quick question")
    except TutorError as exc:
        extra = extra_copies(raw, v.jokers) if "raw" in locals() else None
        ss[K_QUICK_ERR] = second_person(extra.message) if extra is not None else str(exc)
        return
    ss.pop(K_QUICK_ERR, None)
    load_form(table, move, v)


def _quick_rules() -> None:
    """The quick question's rule set: the sidebar follows, and the question is built again."""
    preset = st.session_state.get("lf_q_rules")
    if not preset:
        return
    use_spec(str(preset))
    if any(st.session_state.get(f"lf_q_{name}") for name in QUICK):
        _quick(resolve_spec(str(preset)))


def import_text(text: str, where: str) -> None:
    """Load a table file into the form (switching the sidebar to its variant, if it names one);
    on any problem keep the form as it is and remember a one-line error."""
    try:
        raw = read_table_text(text, where)
        spec = raw.pop("variant", None)
        v = variant_in_use()
        if spec is not None:
            v = resolve_spec(str(spec))
        table = fits(validate(raw, v, where), where)
    except TutorError as exc:
        st.session_state[K_IMPORT_ERR] = str(exc)
        return
    if spec is not None and v.id != variant_in_use().id:
        use_spec(v.id)
    st.session_state.pop(K_IMPORT_ERR, None)
    load_form(table, st.session_state.get(k("move"), ""), v)


def _import_upload() -> None:
    up = st.session_state.get("lf_upload")
    if up is None:
        return
    data = up.getvalue()
    if len(data) > MAX_FILE:
        st.session_state[K_IMPORT_ERR] = f"{up.name}: too big for a table file"
        return
    try:
        import_text(data.decode("utf-8"), up.name)
    except UnicodeDecodeError:
        st.session_state[K_IMPORT_ERR] = f"{up.name}: not a text file (UTF-8 YAML expected)"


def _import_pasted() -> None:
    import_text(st.session_state.get("lf_paste", ""), "pasted table")


# -- the parts of the page ----------------------------------------------------------------


def quick_question(v: Variant) -> None:
    """'The pile shows X, I hold Y, I play Z' under the rules chosen here (or in the sidebar);
    open at first unless the page was opened from a link to a question."""
    ss = st.session_state
    presets = list(preset_catalogue())
    if ss.get("lf_q_rules") != v.preset.id:
        ss["lf_q_rules"] = v.preset.id
    low, high = max(2, v.min_players), max(2, min(8, v.max_players))
    ss["lf_q_players"] = min(max(int(ss.get("lf_q_players", min(max(3, low), high))), low), high)
    ss.setdefault("lf_q_stock", 10)
    ss.setdefault(K_QUICK_OPEN, "q" not in st.query_params)
    with st.expander("Quick question: the pile shows…, I hold…, I play…", expanded=bool(ss[K_QUICK_OPEN]),
                     icon=":material/bolt:"):
        st.selectbox("Rules", presets, key="lf_q_rules", on_change=_quick_rules,
                     format_func=lambda p: f"{p}: {preset_catalogue()[p].title}",
                     help="The same choice as the sidebar's rule set (house rules are laid over it there). "
                          "Change it and the same move is judged again at once.")
        c1, c2 = st.columns(2)
        c1.text_input("The pile shows (bottom to top)", key="lf_q_pile", on_change=_quick,
                      placeholder="6 8   (7+7: one play of two 7s)",
                      help="Ranks (6 8) or cards (6C 8D), bottom first; each is one play, 7+7 a play of two.")
        c2.text_input("You hold", key="lf_q_hand", on_change=_quick, placeholder="7 7 K 4",
                      help="Ranks (7 7 K) or cards (7H 7S KD). A rank alone gets a suit nobody holds yet.")
        c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
        c1.text_input("You play", key="lf_q_play", on_change=_quick, placeholder="7 7   (or pickup, flip 1)",
                      help="Ranks or cards from your hand, or any move: pickup, flip 1. Or tap your cards on the "
                           "table below.")
        with c2.popover("Players, face-up cards, stock", icon=":material/tune:", width="stretch"):
            st.number_input("Players", low, high, key="lf_q_players", on_change=_quick)
            st.text_input("Your face-up cards", key="lf_q_up", on_change=_quick, placeholder="9 Q 2")
            st.number_input("Cards left in the stock", 0, 200, key="lf_q_stock", on_change=_quick)
            st.caption("The other players get unseen hands and face-down cards, and you unseen face-down cards.")
        if K_QUICK_ERR in ss:
            st.error(f"Cannot build that table: {md(ss[K_QUICK_ERR])}", icon=":material/block:")


def start_row() -> None:
    row = st.container(horizontal=True, wrap=True, gap="small", vertical_alignment="center")
    row.caption("Start again from")
    row.button("the example", on_click=_load_example, key="lf_example", icon=":material/restart_alt:",
               type="tertiary", help="Two readings of an 8 disagree about two 7s on it.")
    row.button("an empty table", on_click=_load_empty, key="lf_empty", icon=":material/crop_free:",
               type="tertiary", help="Three players whose cards nobody has seen yet: add cards under Edit every card.")


def ask_move(table: Table, v: Variant) -> Move | None:
    """Legal moves to click, or any move typed; returns the move asked about (None if unreadable)."""
    moves = [str(m) for m in legal_moves(table, v)]
    st.text_input("The move to judge", key=k("move"), persist_state="session",
                  placeholder="play 7H 7S · pickup · pickup with 5H · flip 2",
                  help="Any move, legal or not: 'play CARD [CARD ...]', 'flip N', 'pickup', 'pickup with CARD'")
    with st.expander(f"Every legal move ({len(moves)})"):
        st.pills("Click one to ask about it", moves, key="lf_pick", on_change=_pick_move)
        note = unlisted_note(v)
        if note:
            st.caption(note)
    text = str(st.session_state.get(k("move")) or "").strip()
    if not text:
        return None
    try:
        return Move.parse(text)
    except TutorError as exc:
        st.error(f"Cannot read the move: {md(exc)}", icon=":material/block:")
        return None


def the_table(table: Table, v: Variant, *, marks: list[str] | None = None, ask: bool = True) -> None:
    """The card table, the player to move at the bottom: tap their cards to ask about a play, or
    (build mode) tap zones and cards to change the table."""
    data = table_data(table, v, marks=marks or ())
    build = st.segmented_control("Tap the table to", ["ask", "build"], key=K_TAP_MODE, default="ask",
                                 format_func={"ask": "ask about a play", "build": "build the table"}.__getitem__,
                                 label_visibility="collapsed")
    if build == "build":
        st.caption("Build by tapping: choose a place on the table, then tap cards to add them; tap a card in the "
                   "chosen place to take it out. Names, packs and direction are under Edit every card.")
        if K_EDIT_NOTE in st.session_state:
            st.warning(md(st.session_state[K_EDIT_NOTE]), icon=":material/info:")
        card_table(data, key=TABLE, mode="edit", on_edit=_edited, jokers=v.jokers > 0)
        return
    taps = None
    if ask:
        buttons = [{"id": "pickup", "label": "Pick up the pile"}]
        buttons += [{"id": str(o.move), "label": move_words(o.move)[:1].upper() + move_words(o.move)[1:]}
                    for o in offers(table, v) if not o.takes and str(o.move) != "pickup"]
        taps = {"moves": [], "buttons": buttons, "why": {}}
    st.caption(data["caption"] + (" Tap the cards of the player to move (at the bottom) to ask about playing them."
                                  if ask else ""))
    card_table(data, key=TABLE, mode="ask" if ask else "view", taps=taps, on_ask=_asked,
               prompt=f"Tap {table.player.name}'s cards to ask about playing them, or ask about a move below.")


def show_after(table: Table, v: Variant, move: Move) -> None:
    if move.kind == FLIP and table.player.face_down[move.index - 1] < 0:
        st.info("The face-down card is unseen, so what happens next depends on what it turns out to be.")
        return
    after, _ = apply_unchecked(table, v, move)
    with st.expander("The table after the move"):
        show_table(after, v, key="lf_after")


def share(table: Table, v: Variant, move: Move | None) -> None:
    move_text = str(move) if move else ""
    code = encode_question(table.to_dict(), move_text)
    st.session_state[K_LAST_Q] = code
    own = fragment_codes(v) if "@" in v.id else []
    # own rules travel packed beside the spec (as the sidebar puts them in the address bar)
    query = {"v": v.id, **({"own": ",".join(own)} if own else {}), "q": code} if own is not None else {"q": code}
    st.subheader("Share or keep this question")
    base = (st.context.url or "").split("?")[0]
    st.markdown("**Copy link to this question** (the copy button is at the right of the box):")
    st.code(f"{base}?{urlencode(query)}", language=None, wrap_lines=True)
    data = {"variant": v.id, **table.to_dict()}
    st.download_button("Export the table (YAML)", yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                       file_name="table.yaml", mime="application/x-yaml", on_click="ignore",
                       icon=":material/download:", key="lf_export")


def import_box() -> None:
    with st.expander("Import a table file (YAML, as the tutor command reads)"):
        st.file_uploader("Table file", type=["yaml", "yml"], key="lf_upload", on_change=_import_upload)
        st.text_area("…or paste it here", key="lf_paste", height=150, max_chars=MAX_FILE,
                     placeholder="players:\n  - {name: A, hand: [7H, 7S]}\n  - {name: B, hand: 3}\npile: [[6C]]\nturn: A")
        st.button("Load the pasted table", on_click=_import_pasted, key="lf_load_paste")
        if K_IMPORT_ERR in st.session_state:
            st.error(f"Not imported: {md(st.session_state[K_IMPORT_ERR])}", icon=":material/block:")


@st.fragment
def what_would_you_play(table: Table, v: Variant) -> None:
    """The advisor's hint for the player to move, on request (it sees only that player's view),
    within a wall-clock budget."""
    if not st.button("What would you play?", key="lf_hint", icon=":material/lightbulb:"):
        return
    bar = st.progress(0.0, text="Thinking…")
    try:
        search = prepare(table, v, seed=0)

        def show(p: Progress) -> None:
            bar.progress(p.fraction, text=f"{p.iterations} simulations")

        search.run(iterations=HINT_SIMULATIONS, seconds=HINT_SECONDS, batch=50, progress=show)
        hint = answer(search, 0)
    except TutorError as exc:
        bar.empty()
        st.info(f"The advisor cannot judge this table: {md(exc)}", icon=":material/info:")
        return
    bar.empty()
    st.markdown(second_person(hint.markdown()))
    stopped = search.iterations < HINT_SIMULATIONS and len(search.root_moves) > 1
    st.caption("The advisor sees only what the player to move can see; cards listed in other hands count as "
               "seen. " + (f"It stopped at its {HINT_SECONDS:.0f}-second budget after {search.iterations} of "
                  f"{HINT_SIMULATIONS} simulations, so its numbers are less sure than usual."
                  if stopped else f"{HINT_SIMULATIONS} simulations, seed 0: the same table gives the same hint."))


def verdict_part(table: Table, v: Variant, move: Move | None) -> None:
    """The answer first: the verdict of the move asked about, or how to ask."""
    if move is None:
        st.info("Tap cards on the table below, say what you play in the quick question, or type a move.",
                icon=":material/touch_app:")
        return
    verdict = check(table, v, move)
    show_verdict(verdict, v, words=second_person)
    if verdict.legal:
        show_after(table, v, move)


def impossible(raw: dict[str, Any] | None, v: Variant, exc: TutorError) -> None:
    """A table that cannot be: say why; with extra copies of a card, say where they are and keep
    the table in view with them marked."""
    extra = extra_copies(raw, v.jokers) if raw is not None else None
    if extra is None:
        st.error(f"This table is not possible: {md(exc)}", icon=":material/block:")
        st.caption("Everything you entered is kept: fix it under Edit every card. "
                   "The link still holds the last possible table.")
        return
    st.error(f"This table is not possible: {md(extra.message)}", icon=":material/block:")
    st.caption("The copies are marked in red on the table. Everything you entered is kept: fix it under "
               "Edit every card. The link still holds the last possible table.")
    the_table(extra.table, v, marks=extra.marks, ask=False)  # build mode still works on it


def main() -> None:
    v = current_variant()
    seed(v)
    st.title("Is this move legal?")
    if K_NOTE in st.session_state:
        st.warning(md(st.session_state.pop(K_NOTE)), icon=":material/warning:")
    normalise(v)
    quick_question(v)
    table: Table | None = None
    move: Move | None = None
    raw: dict[str, Any] | None = None
    try:
        raw = form_to_raw()
        table = validate(raw, v)
    except TutorError as exc:
        impossible(raw, v, exc)
    if table is not None:
        verdict_holder = st.container()  # the verdict goes above the table, once the move is read
        the_table(table, v)
        move = ask_move(table, v)
        with verdict_holder:
            verdict_part(table, v, move)
        if legal_moves(table, v):
            what_would_you_play(table, v)
    start_row()
    # drawn only while open: its many card pickers cost every run time in the server and the browser
    editor = st.expander("Edit every card: players, hands, pile, stock, turn", key=K_EDITOR, on_change="rerun",
                         icon=":material/edit:")
    if editor.open:
        with editor:
            draw_form(v)
    import_box()
    if table is not None:
        share(table, v, move)
        st.query_params["q"] = st.session_state[K_LAST_Q]


main()
