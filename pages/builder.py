"""Rulebook builder: a preset, one choice per slot, your own fragments; the result's
conflicts and warnings, what can be played on what, and the variant as YAML."""

from __future__ import annotations

import streamlit as st

from tutor.core.errors import TutorError
from tutor.rules.schema import RULE_TEMPLATE
from tutor.rules.variant import (
    MAX_USER_FRAGMENT,
    RANK_SLOTS,
    SLOTS,
    Fragment,
    Variant,
    build_variant,
    fragment_catalogue,
    is_variant_data,
    parse_yaml,
    preset_catalogue,
    user_fragment,
    variant_from_data,
)
from tutor.teach.rulebook import SECTIONS
from tutor.teach.sheet import variant_yaml
from tutor.webui.matrix_view import show_changes, show_diagram, show_matrix
from tutor.webui.safe import md
from tutor.webui.state import current_variant, remember_upload, slot_title, uploads, use_spec

NONE = "(none)"
MAX_UPLOAD = MAX_USER_FRAGMENT
K_PRESET, K_UPLOAD_SEEN, K_UPLOAD_ERR = "bld_preset", "_bld_upload_seen", "_bld_upload_error"


def _or(ranks: list[str]) -> str:
    names = [f"the {r}" for r in ranks]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


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


def read_upload(name: str, data: bytes) -> Fragment | Variant:
    """An uploaded file: a rule fragment, or a variant file (this page's download); a TutorError
    saying what is wrong with it otherwise. Read by the guarded YAML reader, with the checks
    every fragment gets; a variant file names catalogue rules or holds its own written out
    (it never names a file to read)."""
    if len(data) > MAX_UPLOAD:
        raise TutorError(f"{name}: {len(data):,} bytes is too big for a rule fragment or a variant file "
                         f"(at most {MAX_UPLOAD:,})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TutorError(f"{name}: not a text file (UTF-8 YAML expected)") from None
    parsed = parse_yaml(text, name)
    if is_variant_data(parsed):
        return variant_from_data(parsed, name)
    return user_fragment(text, name)


def handle_upload() -> None:
    """Read a new upload once; on success pick it in its slot (a variant file: its rule set and
    every rule of it), else keep a one-line error and change nothing."""
    up = st.session_state.get("bld_upload")
    if up is None or st.session_state.get(K_UPLOAD_SEEN) == up.file_id:
        return
    st.session_state[K_UPLOAD_SEEN] = up.file_id
    try:
        got = read_upload(up.name, up.getvalue())
        if isinstance(got, Variant):
            picks = {f.slot: (f.id if f.id in fragment_catalogue() else remember_upload(got.preset.id, f))
                     for f in got.fragments if f.id not in got.preset.fragments}
        else:
            picks = {got.slot: remember_upload(st.session_state[K_PRESET], got)}
    except TutorError as exc:
        st.session_state[K_UPLOAD_ERR] = str(exc)
        return
    st.session_state.pop(K_UPLOAD_ERR, None)
    if isinstance(got, Variant):
        st.session_state[K_PRESET] = got.preset.id
        reset_slots()
    for slot, part in picks.items():
        st.session_state[slot_key(slot)] = part


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
            bare = [r for r in RANK_SLOTS if r in slots and not by_slot.get(r)]
            if bare:
                st.caption(f"No rule of the catalogue gives {_or(bare)} a power of its own. Any rank can take "
                           f"any power: write your own rule (a fragment file with slot: \"{bare[0]}\", see "
                           "the template under *Add your own rule*) and add it.")
    return chosen


def compose(preset_id: str, chosen: list[str]) -> Variant | None:
    named: list[Fragment | str] = [uploads().get(p) or p for p in chosen]
    try:
        return build_variant(preset_id, named, where="your choices", paths=False)
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
    c1.download_button("Download (YAML)", variant_yaml(v), file_name="my-variant.yaml",
                       mime="application/x-yaml", on_click="ignore", icon=":material/download:", key="bld_dl",
                       help="One file holds the variant, your own rules written out in it: load it here "
                            "again, or use it with tutor (tutor rules my-variant.yaml).")
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
    with st.expander("Add your own rule, or load a variant file"):
        st.file_uploader("A rule fragment, or a variant downloaded from this page", type=["yaml", "yml"],
                         key="bld_upload", on_change=handle_upload,
                         help="A fragment has the format of the files in rules/fragments/: id, slot, title, "
                              "summary, source, powers (tutor schema lists every power). A variant file is "
                              "what Download gives: the rule set and the rules laid over it.")
        if K_UPLOAD_ERR in st.session_state:
            st.error(f"Upload refused: {md(st.session_state[K_UPLOAD_ERR])}", icon=":material/block:")
        st.download_button("A rule to start from", RULE_TEMPLATE, file_name="my-rule.yaml", mime="application/x-yaml",
                           on_click="ignore", icon=":material/description:", key="bld_template",
                           help="A house rule for sixes, to change into yours")
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
