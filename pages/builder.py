"""Rulebook builder: a preset, one choice per slot, your own fragments; the result's
conflicts and warnings, what can be played on what, and the variant as YAML."""

from __future__ import annotations

import streamlit as st

from tutor.core.errors import TutorError
from tutor.rules.variant import (
    SLOTS,
    Fragment,
    Variant,
    build_variant,
    fragment_catalogue,
    fragment_from_data,
    parse_yaml,
    preset_catalogue,
)
from tutor.teach.rulebook import SECTIONS
from tutor.teach.sheet import variant_yaml
from tutor.webui.matrix_view import show_changes, show_diagram, show_matrix
from tutor.webui.safe import md
from tutor.webui.state import current_variant, remember_upload, slot_title, uploads, use_spec

NONE = "(none)"
MAX_UPLOAD = 64_000
K_PRESET, K_UPLOAD_SEEN, K_UPLOAD_ERR = "bld_preset", "_bld_upload_seen", "_bld_upload_error"


def slot_key(slot: str) -> str:
    return f"bld_slot_{slot}"


def fragments_by_slot() -> dict[str, list[Fragment]]:
    out: dict[str, list[Fragment]] = {s: [] for s in SLOTS}
    for f in list(fragment_catalogue().values()) + list(uploads().values()):
        out[f.slot].append(f)
    return out


def part_of(f: Fragment) -> str:
    """How a fragment is named in a spec: its id, or ``id@digest`` when uploaded."""
    return next((p for p, u in uploads().items() if u is f), f.id)


def preset_choice(preset_id: str, slot: str) -> str:
    catalogue = fragment_catalogue()
    for fid in preset_catalogue()[preset_id].fragments:
        if fid in catalogue and catalogue[fid].slot == slot:
            return fid
    return NONE


def reset_slots() -> None:
    for slot in SLOTS:
        st.session_state[slot_key(slot)] = preset_choice(st.session_state[K_PRESET], slot)


def start_from(v: Variant) -> None:
    """Open the builder on the variant in use: its preset, and its own choice in each slot."""
    st.session_state[K_PRESET] = v.preset.id
    reset_slots()
    for part in v.id.split("+")[1:]:
        f = uploads().get(part) or fragment_catalogue().get(part)
        if f is not None:
            st.session_state[slot_key(f.slot)] = part


def read_upload(name: str, data: bytes) -> Fragment:
    """An uploaded file as a fragment, or a TutorError saying what is wrong with it."""
    if len(data) > MAX_UPLOAD:
        raise TutorError(f"{name}: {len(data)} bytes is too big for a rule fragment")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TutorError(f"{name}: not a text file (UTF-8 YAML expected)") from None
    frag = fragment_from_data(parse_yaml(text, name), name)
    if frag.id in fragment_catalogue():
        raise TutorError(f"{name}: id {frag.id!r} is already a rule of the catalogue; give yours its own id")
    return frag


def handle_upload() -> None:
    """Read a new upload once; on success pick it in its slot, else keep a one-line error."""
    up = st.session_state.get("bld_upload")
    if up is None or st.session_state.get(K_UPLOAD_SEEN) == up.file_id:
        return
    st.session_state[K_UPLOAD_SEEN] = up.file_id
    try:
        frag = read_upload(up.name, up.getvalue())
        part = remember_upload(st.session_state[K_PRESET], frag)
    except TutorError as exc:
        st.session_state[K_UPLOAD_ERR] = str(exc)
        return
    st.session_state.pop(K_UPLOAD_ERR, None)
    st.session_state[slot_key(frag.slot)] = part


def choose_slot(slot: str, frags: list[Fragment], preset_id: str) -> str:
    """One control for one slot: each choice with its summary and source."""
    base = preset_choice(preset_id, slot)
    options = ([] if base != NONE else [NONE]) + [part_of(f) for f in frags]
    key = slot_key(slot)
    if st.session_state.get(key) not in options:
        st.session_state[key] = base
    names = {part_of(f): f for f in frags}

    def label(part: str) -> str:
        if part == NONE:
            return "none: the rule set has no such rule"
        f = names[part]
        return md(f.title) + (" (the rule set's own)" if part == base else "") + (" (yours)" if "@" in part else "")

    captions = ["" if p == NONE else md(f"{names[p].summary} — {names[p].source.cite()}") for p in options]
    if len(options) == 1:
        st.markdown(f"**{slot_title(slot)}:** {label(options[0])}")
        st.caption(captions[0])
        return options[0]
    return str(st.radio(slot_title(slot), options, key=key, format_func=label, captions=captions,
                        persist_state="session"))


def choose_rules(preset_id: str) -> list[str]:
    """All the slot controls, grouped as in the rulebook; returns the parts that differ from the preset."""
    by_slot = fragments_by_slot()
    chosen: list[str] = []
    placed: set[str] = set()
    groups = [(title, slots) for title, slots in SECTIONS]
    groups.append(("Other rules", tuple(s for s in SLOTS if all(s not in g for _, g in SECTIONS))))
    for title, slots in groups:
        live = [s for s in slots if by_slot.get(s) and s not in placed]
        if not live:
            continue
        changed = sum(1 for s in live if st.session_state.get(slot_key(s)) not in (None, preset_choice(preset_id, s)))
        with st.expander(title + (f" ({changed} changed)" if changed else ""), key=f"bld_section_{title}"):
            for slot in live:
                placed.add(slot)
                part = choose_slot(slot, by_slot[slot], preset_id)
                if part not in (NONE, preset_choice(preset_id, slot)):
                    chosen.append(part)
    return chosen


def compose(preset_id: str, chosen: list[str]) -> Variant | None:
    named: list[Fragment | str] = [uploads().get(p) or p for p in chosen]
    try:
        return build_variant(preset_id, named, where="your choices")
    except TutorError as exc:
        st.error(f"These rules do not go together: {md(exc)}", icon=":material/block:")
        return None


def show_result(v: Variant) -> None:
    st.success(f"Your variant: `{v.id}`", icon=":material/check_circle:")
    for old, new in v.replaced:
        st.markdown(f"- `{new}` replaces the rule set's `{old}`")
    for w in v.warnings:
        st.warning(md(w), icon=":material/warning:")
    c1, c2 = st.columns(2)
    files = {part: uploads()[part].path for part in v.id.split("+")[1:] if part in uploads()}
    c1.download_button("Download (YAML)", variant_yaml(v, files), file_name="my-variant.yaml",
                       mime="application/x-yaml", on_click="ignore", icon=":material/download:", key="bld_dl")
    c2.button("Use in the app", on_click=use_spec, args=(v.id,), key="bld_use",
              help="Sets the sidebar to this variant", icon=":material/check:")


def main() -> None:
    st.set_page_config(layout="wide")
    sidebar = current_variant()
    st.title("Rulebook builder")
    st.markdown("Start from a published rule set, change any rule, add your own, and see at once "
                "what can be played on what.")
    presets = list(preset_catalogue())
    if st.session_state.get(K_PRESET) not in presets:
        start_from(sidebar)
    preset_id = str(st.selectbox("Start from", presets, key=K_PRESET, on_change=reset_slots, persist_state="session",
                                 format_func=lambda p: f"{p}: {preset_catalogue()[p].title}"))
    st.caption(preset_catalogue()[preset_id].summary)
    with st.expander("Add your own rule (a fragment YAML file)"):
        st.file_uploader("Fragment file", type=["yaml", "yml"], key="bld_upload", on_change=handle_upload,
                         help="The same format as the files in rules/fragments/: id, slot, title, summary, source, powers.")
        if K_UPLOAD_ERR in st.session_state:
            st.error(f"Upload refused: {md(st.session_state[K_UPLOAD_ERR])}", icon=":material/block:")
    left, right = st.columns([3, 2])
    with left:
        chosen = choose_rules(preset_id)
    with right:
        v = compose(preset_id, chosen)
        if v is not None:
            show_result(v)
            show_changes(build_variant(preset_id, []), v)
    if v is None:
        return
    st.subheader("What can be played on what")
    show_matrix(v, key="bld")
    st.subheader("The same as a diagram")
    show_diagram(v)


main()
