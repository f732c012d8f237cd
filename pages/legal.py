"""Is this move legal? Build a table, pick or type a move, get the verdict with its rule.

The position and the move live in the URL (``?v=...&q=...``, see :mod:`tutor.core.share`),
and can be exported and imported as the contract's table file.
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
from tutor.rules.variant import Variant, load_table
from tutor.webui.safe import md
from tutor.webui.state import current_variant, resolve_spec, use_spec, variant_in_use
from tutor.webui.table_form import draw_form, fits, form_to_raw, k, load_form, normalise
from tutor.webui.table_view import show_table
from tutor.webui.verdict_view import show_verdict

K_SEEDED, K_NOTE, K_IMPORT_ERR, K_LAST_Q = "_lf_seeded", "_lf_note", "_lf_import_error", "_lf_last_q"
MAX_FILE = 100_000

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
    load_form(validate(raw, v), move)


def _pick_move() -> None:
    picked = st.session_state.get("lf_pick")
    if picked:
        st.session_state[k("move")] = picked


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
    load_form(table, st.session_state.get(k("move"), ""))


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


def _load_example() -> None:
    load_form(validate(EXAMPLE, variant_in_use()), EXAMPLE_MOVE)
    st.session_state.pop(K_IMPORT_ERR, None)


def ask_move(table: Table, v: Variant) -> Move | None:
    """Legal moves to click, or any move typed; returns the move asked about (None if unreadable)."""
    moves = [str(m) for m in legal_moves(table, v)]
    st.pills("Every legal move (click one to ask about it)", moves, key="lf_pick", on_change=_pick_move)
    st.text_input("The move to judge", key=k("move"), persist_state="session",
                  placeholder="play 7H 7S · pickup · pickup with 5H · flip 2",
                  help="Any move, legal or not: 'play CARD [CARD ...]', 'flip N', 'pickup', 'pickup with CARD'")
    text = str(st.session_state.get(k("move")) or "").strip()
    if not text:
        st.info("Type a move, or click one of the legal moves above.")
        return None
    try:
        return Move.parse(text)
    except TutorError as exc:
        st.error(f"Cannot read the move: {md(exc)}", icon=":material/block:")
        return None


def show_after(table: Table, v: Variant, move: Move) -> None:
    if move.kind == FLIP and table.player.face_down[move.index - 1] < 0:
        st.info("The face-down card is unseen, so what happens next depends on what it turns out to be.")
        return
    after, _ = apply_unchecked(table, v, move)
    with st.expander("The table after the move", expanded=True):
        show_table(after, v)


def share(table: Table, v: Variant, move: Move | None) -> None:
    move_text = str(move) if move else ""
    code = encode_question(table.to_dict(), move_text)
    st.session_state[K_LAST_Q] = code
    query = {"v": v.id, "q": code} if "@" not in v.id else {"q": code}
    st.subheader("Share or keep this question")
    base = (st.context.url or "").split("?")[0]
    st.markdown("**Copy link to this question** (the copy button is at the right of the box):")
    st.code(f"{base}?{urlencode(query)}", language=None, wrap_lines=True)
    data = {"variant": v.id, **table.to_dict()}
    c1, c2 = st.columns(2)
    c1.download_button("Export the table (YAML)", yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                       file_name="table.yaml", mime="application/x-yaml", on_click="ignore",
                       icon=":material/download:", key="lf_export")
    c2.button("Start again from the example", on_click=_load_example, key="lf_example",
              icon=":material/restart_alt:")


def import_box() -> None:
    with st.expander("Import a table file (YAML, as the tutor command reads)"):
        st.file_uploader("Table file", type=["yaml", "yml"], key="lf_upload", on_change=_import_upload)
        st.text_area("…or paste it here", key="lf_paste", height=150,
                     placeholder="players:\n  - {name: A, hand: [7H, 7S]}\n  - {name: B, hand: 3}\npile: [[6C]]\nturn: A")
        st.button("Load the pasted table", on_click=_import_pasted, key="lf_load_paste")
        if K_IMPORT_ERR in st.session_state:
            st.error(f"Not imported: {md(st.session_state[K_IMPORT_ERR])}", icon=":material/block:")


@st.fragment
def what_would_you_play(table: Table, v: Variant) -> None:
    """The advisor's hint for the player to move, on request (it sees only that player's view)."""
    if not st.button("What would you play?", key="lf_hint", icon=":material/lightbulb:"):
        return
    bar = st.progress(0.0, text="Thinking…")
    try:
        search = prepare(table, v, seed=0)

        def show(p: Progress) -> None:
            bar.progress(p.fraction, text=f"{p.iterations} simulations")

        search.run(iterations=600, batch=50, progress=show)
        hint = answer(search, 0)
    except TutorError as exc:
        bar.empty()
        st.info(f"The advisor cannot judge this table: {md(exc)}", icon=":material/info:")
        return
    bar.empty()
    st.markdown(hint.markdown())
    st.caption("The advisor sees only what the player to move can see; cards listed in other hands "
               "count as seen. 600 simulations, seed 0: the same table gives the same hint.")


def ask(table: Table, v: Variant) -> Move | None:
    """The table, the move, the verdict and what follows."""
    st.subheader("The table")
    show_table(table, v)
    st.subheader("The move")
    move = ask_move(table, v)
    if move is not None:
        verdict = check(table, v, move)
        show_verdict(verdict, v)
        if verdict.legal:
            show_after(table, v, move)
    return move


def main() -> None:
    v = current_variant()
    seed(v)
    st.title("Is this move legal?")
    st.markdown(f"A table, a move, and what the rules chosen in the sidebar (now `{v.id}`) say about "
                "it. Change the rules there and the same move is judged again at once; change the "
                "table under **Edit the table**.")
    if K_NOTE in st.session_state:
        st.warning(md(st.session_state.pop(K_NOTE)), icon=":material/warning:")
    normalise(v)
    table: Table | None = None
    try:
        table = validate(form_to_raw(), v)
    except TutorError as exc:
        st.error(f"This table is not possible: {md(exc)}", icon=":material/block:")
        st.caption("Everything you entered is kept: fix it under Edit the table. "
                   "The link still holds the last possible table.")
    move = ask(table, v) if table is not None else None
    if table is not None and legal_moves(table, v):
        what_would_you_play(table, v)
    st.subheader("Edit the table")
    draw_form(v)
    import_box()
    if table is not None:
        share(table, v, move)
        st.query_params["q"] = st.session_state[K_LAST_Q]


main()
