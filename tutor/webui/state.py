"""The variant in use: the shared sidebar, the URL, and fragments uploaded this session.

Every page gets its rules from :func:`current_variant`::

    from tutor.webui.state import current_variant
    v = current_variant()          # a tutor.rules.variant.Variant

``app.py`` draws the sidebar (:func:`variant_sidebar`) before each page runs:
a preset select box and the fragments laid over it. The canonical spec
(``Variant.id``, e.g. ``lancaster+twos-pass-on``) is kept in
``st.query_params["v"]``, so a link carries the variant; a link's spec is read
on the session's first run. A spec that cannot be used (unknown names, a clash,
anything that looks like a file path) shows one line of error and the app falls
back, visibly, to pagat. Fragments uploaded on the builder page live in this
session only (:func:`remember_upload`); their spec part is ``id@digest``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from tutor.core.errors import TutorError, VariantError
from tutor.rules.variant import (
    Fragment,
    Variant,
    build_variant,
    fragment_catalogue,
    load_variant,
    preset_catalogue,
)
from tutor.webui.cards import inject_css
from tutor.webui.safe import md

FALLBACK = "pagat"
_SPEC_RE = re.compile(r"^[A-Za-z0-9_-]+(\+[A-Za-z0-9_@-]+)*$")
SLOT_TITLES = {
    "core": "Core rules", "deal": "Deal", "setup": "Before play", "first-player": "Who starts",
    "pickup-choice": "Taking the pile", "after-pickup": "After a pickup",
    "face-up-pickup": "Taking the pile from face-up cards", "mixed-plays": "Mixed plays",
    "four-of-a-kind": "Four of a kind", "red-jacks": "Red jacks", "jokers": "Jokers",
    "runs-and-sets": "Runs and sets", "stock": "The stock", "customs": "Customs", "goal": "Goal",
}

_K_PRESET, _K_FRAGS, _K_CHOICE = "sb_preset", "sb_frags", "_sb_choice"
_K_VARIANT, _K_WARN, _K_ERR, _K_UPLOADS = "variant", "_sb_warning", "_sb_error", "uploaded_fragments"
_K_DRAWN = "_sb_drawn"


def slot_title(slot: str) -> str:
    """A slot as people say it: ``'8'`` -> ``'The 8'``, ``'after-pickup'`` -> ``'After a pickup'``."""
    return SLOT_TITLES.get(slot, f"The {slot}")


def uploads() -> dict[str, Fragment]:
    """Fragments uploaded this session, by their spec part ``id@digest``."""
    return st.session_state.setdefault(_K_UPLOADS, {})


def remember_upload(preset_id: str, frag: Fragment) -> str:
    """Keep an uploaded fragment for this session; return its spec part (``id@digest``).

    Raises VariantError if it cannot be laid over ``preset_id``.
    """
    v = build_variant(preset_id, [frag], where=frag.path)
    part = next((p for p in v.id.split("+")[1:] if p.startswith(frag.id + "@")), frag.id)
    uploads()[part] = frag
    return part


def resolve_spec(spec: str) -> Variant:
    """A spec from the sidebar or a link, as a Variant; only ids, never file paths. A '+' typed
    into a browser's address bar arrives as a space: spaces join parts like '+'."""
    spec = re.sub(r"[\s+]+", "+", spec.strip()) if isinstance(spec, str) else spec
    if not _SPEC_RE.match(spec):
        raise VariantError(f"{spec[:60]!r} is not a variant spec (write e.g. 'lancaster+twos-pass-on')")
    parts = spec.split("+")
    if not any("@" in p for p in parts[1:]):
        return load_variant(spec)
    named: list[Fragment | str] = []
    for part in parts[1:]:
        if "@" in part and part not in uploads():
            raise VariantError(f"{part!r} is a fragment uploaded in another session; upload it again "
                               "on the Rulebook builder page")
        named.append(uploads()[part] if "@" in part else part)
    return build_variant(parts[0], named, where=repr(spec))


def _default_preset() -> str:
    presets = preset_catalogue()
    return FALLBACK if FALLBACK in presets else next(iter(presets))


def _choose(preset: str, parts: list[str]) -> None:
    """Record the sidebar's choice (kept apart from the widgets, which may be reset on a page switch)."""
    st.session_state[_K_CHOICE] = (preset, list(parts))


def use_spec(spec: str) -> None:
    """Switch the sidebar to ``spec`` (call before the sidebar is drawn, e.g. in a callback)."""
    v = resolve_spec(spec)
    _choose(v.preset.id, v.id.split("+")[1:])
    st.session_state.pop(_K_WARN, None)


def _first_run() -> None:
    spec = st.query_params.get("v", "") or _default_preset()
    try:
        v = resolve_spec(spec)
    except TutorError as exc:
        st.session_state[_K_WARN] = f"The link's variant cannot be used: {exc}. Showing {_default_preset()} instead."
        v = load_variant(_default_preset())
    _choose(v.preset.id, v.id.split("+")[1:])


def _fragment_options(preset_id: str) -> list[str]:
    preset = preset_catalogue()[preset_id]
    ids = [fid for fid in fragment_catalogue() if fid not in preset.fragments]
    return ids + list(uploads())


def _fragment_named(part: str) -> Fragment | None:
    return uploads().get(part) or fragment_catalogue().get(part)


def _fragment_label(part: str) -> str:
    f = _fragment_named(part)
    if f is None:
        return part
    mine = " (uploaded)" if "@" in part else ""
    return f"{slot_title(f.slot)}: {f.title}{mine}"


def _on_preset_change() -> None:
    preset = st.session_state[_K_PRESET]
    options = set(_fragment_options(preset))
    _choose(preset, [p for p in st.session_state[_K_CHOICE][1] if p in options])
    st.session_state.pop(_K_WARN, None)


def _on_fragments_change() -> None:
    """A fragment picked for a slot that is already filled replaces the earlier pick."""
    picked: list[str] = list(st.session_state[_K_FRAGS])
    preset, before = st.session_state[_K_CHOICE]
    added = [p for p in picked if p not in before]
    slots = {f.slot for p in added if (f := _fragment_named(p))}
    _choose(preset, [p for p in picked if p in added or not ((f := _fragment_named(p)) and f.slot in slots)])
    st.session_state.pop(_K_WARN, None)


def _compose(preset: str, parts: list[str]) -> Variant:
    try:
        v = resolve_spec("+".join([preset, *parts]))
        st.session_state.pop(_K_ERR, None)
        return v
    except TutorError as exc:
        st.session_state[_K_ERR] = str(exc)
        last = st.session_state.get(_K_VARIANT)
        return last if isinstance(last, Variant) else load_variant(preset)


def variant_sidebar() -> Variant:
    """Draw the shared sidebar, store the variant for :func:`current_variant`, and return it."""
    inject_css()
    ss = st.session_state
    presets = preset_catalogue()
    if _K_CHOICE not in ss or ss[_K_CHOICE][0] not in presets:
        _first_run()
    preset, parts = ss[_K_CHOICE]
    options = _fragment_options(preset)
    ss[_K_PRESET], ss[_K_FRAGS] = preset, [p for p in parts if p in options]
    with st.sidebar:
        st.markdown("### Rules in use")
        st.selectbox("Rule set", list(presets), key=_K_PRESET, on_change=_on_preset_change,
                     format_func=lambda p: f"{p}: {preset_catalogue()[p].title}",
                     help="A published set of rules. Change single rules below or on the Rulebook builder page.")
        st.multiselect("House rules laid over it", options, key=_K_FRAGS,
                       on_change=_on_fragments_change, format_func=_fragment_label,
                       placeholder="none: the rule set as published",
                       help="Each replaces the rule set's own rule for the same thing.")
        v = _compose(preset, ss[_K_FRAGS])
        if _K_ERR in ss:
            st.error(f"Not applied: {md(ss[_K_ERR])}", icon=":material/block:")
        if _K_WARN in ss:
            st.warning(md(ss[_K_WARN]), icon=":material/warning:")
        st.caption(f"Variant in use: `{v.id}`")
        for old, new in v.replaced:
            st.caption(f"`{new}` replaces `{old}`")
        for w in v.warnings:
            st.caption(f"Note: {w}")
    ss[_K_VARIANT] = v
    if "@" not in v.id:
        st.query_params["v"] = v.id
    elif "v" in st.query_params:
        del st.query_params["v"]
    return v


def variant_in_use() -> Variant:
    """The variant the sidebar last showed, drawing nothing: for callbacks, which run
    before the page (use :func:`current_variant` in the page itself)."""
    v = st.session_state.get(_K_VARIANT)
    return v if isinstance(v, Variant) else load_variant(_default_preset())


@contextmanager
def sidebar_drawn() -> Iterator[None]:
    """``app.py`` runs the page inside this, after drawing the sidebar, so that
    :func:`current_variant` knows the sidebar is already there in this run."""
    st.session_state[_K_DRAWN] = True
    try:
        yield
    finally:
        st.session_state.pop(_K_DRAWN, None)


def current_variant() -> Variant:
    """The variant chosen in the sidebar (a :class:`tutor.rules.variant.Variant`).

    ``app.py`` draws the sidebar before every page, so a page simply calls this.
    A page script run without ``app.py`` (``AppTest.switch_page`` runs the page
    alone) gets the sidebar drawn here.
    """
    v = st.session_state.get(_K_VARIANT)
    if isinstance(v, Variant) and st.session_state.get(_K_DRAWN):
        return v
    return variant_sidebar()
