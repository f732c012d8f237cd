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
session (:func:`remember_upload`); their spec part is ``id@digest``, and the link
carries them too, packed (``own=``, :func:`fragment_codes`), read back on a new
session's first run as an upload is read (:func:`read_link_fragments`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import streamlit as st

from tutor.core.errors import TutorError, VariantError
from tutor.core.share import decode_text, encode_text
from tutor.rules.variant import (
    MAX_USER_FRAGMENT,
    Fragment,
    Variant,
    build_variant,
    fragment_catalogue,
    fragment_yaml,
    load_variant,
    preset_catalogue,
    user_fragment,
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
_K_DRAWN, _K_RERUN = "_sb_drawn", "_sb_rerun_through_app"


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
    v = build_variant(preset_id, [frag], where=frag.path, paths=False)
    part = next((p for p in v.id.split("+")[1:] if p.startswith(frag.id + "@")), frag.id)
    uploads()[part] = frag
    return part


# -- a variant with the user's own rules, carried in a link -------------------------------------

MAX_LINK_FRAGMENTS = 4  # own rules a link may carry
MAX_FRAGMENT_CODE = 6_000  # characters of one packed rule in a link (a typical one packs to 400-900)


def fragment_codes(v: Variant) -> list[str] | None:
    """The user's own fragments of ``v``, each packed for a link (``own=`` in the URL), or None
    if one does not fit (a fragment's worked examples are left out of the link when that
    makes it fit: they are for lessons, and the rules do not depend on them)."""
    codes = []
    for part in v.id.split("+")[1:]:
        frag = uploads().get(part)
        if frag is None:
            continue
        code = encode_text(fragment_yaml(frag))
        if len(code) > MAX_FRAGMENT_CODE and frag.examples:
            code = encode_text(fragment_yaml(replace(frag, examples=())))
        if len(code) > MAX_FRAGMENT_CODE:
            return None
        codes.append(code)
    return codes if len(codes) <= MAX_LINK_FRAGMENTS else None


def read_link_fragments(spec: str) -> None:
    """A link's own rules (``own=``), read as an upload is (the guarded YAML reader, the same
    checks) and kept for this session, so that the link's spec (``v``) finds them."""
    raw = str(st.query_params.get("own", "") or "")
    codes = [c for c in raw.split(",") if c.strip()]
    if not codes:
        return
    if len(codes) > MAX_LINK_FRAGMENTS:
        raise VariantError(f"the link carries {len(codes)} rules of its own; at most {MAX_LINK_FRAGMENTS} are read")
    preset = spec.split("+")[0].strip()
    if preset not in preset_catalogue():
        raise VariantError(f"{preset[:40]!r} is not a rule set (rule sets: {', '.join(preset_catalogue())})")
    for k, code in enumerate(codes, 1):
        text = decode_text(code, f"own rule {k}", max_code=MAX_FRAGMENT_CODE, max_bytes=MAX_USER_FRAGMENT)
        remember_upload(preset, user_fragment(text, f"the link's own rule {k}"))


def resolve_spec(spec: str) -> Variant:
    """A spec from the sidebar or a link, as a Variant; only ids, never file paths. A '+' typed
    into a browser's address bar arrives as a space: spaces join parts like '+'."""
    spec = re.sub(r"[\s+]+", "+", spec.strip()) if isinstance(spec, str) else spec
    if not _SPEC_RE.match(spec):
        raise VariantError(f"{spec[:60]!r} is not a variant spec (write e.g. 'lancaster+twos-pass-on')")
    parts = spec.split("+")
    if not any("@" in p for p in parts[1:]):
        return load_variant(spec, paths=False)
    named: list[Fragment | str] = []
    for part in parts[1:]:
        if "@" in part and part not in uploads():
            raise VariantError(f"{part!r} is a rule of someone's own that this link does not carry; upload "
                               "its file on the Rulebook builder page")
        named.append(uploads()[part] if "@" in part else part)
    return build_variant(parts[0], named, where=repr(spec), paths=False)


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
        read_link_fragments(re.sub(r"[\s+]+", "+", str(spec).strip()))
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
    added: dict[str, str] = {}  # slot -> the last rule added for it
    for p in picked:
        if p not in before and (f := _fragment_named(p)) is not None:
            added[f.slot] = p
    kept = [p for p in picked if p in added.values()
            or (p in before and not ((f := _fragment_named(p)) and f.slot in added))]
    _choose(preset, kept)
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
                       select_all=False, filter_mode="contains",  # Enter picks one rule, never every match
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
    codes = fragment_codes(v) if "@" in v.id else []
    if codes is None:  # an own rule too big for a link: the link keeps no variant
        st.sidebar.caption("Your own rule is too big to travel in a link: share the variant's file "
                           "(Rulebook builder, Download) instead.")
        for key in ("v", "own"):
            if key in st.query_params:
                del st.query_params[key]
        return v
    st.query_params["v"] = v.id
    if codes:
        st.query_params["own"] = ",".join(codes)
    elif "own" in st.query_params:
        del st.query_params["own"]
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


def _run_the_app_instead() -> None:
    """A page run by itself on a fresh server: rerun through ``app.py``'s navigation.

    Until some session has run ``app.py`` (whose ``st.navigation`` turns it off), Streamlit treats
    an app with a ``pages/`` folder as a file-based multipage app: a deep link such as
    ``/legal?q=...`` runs ``pages/legal.py`` alone and the sidebar lists the files by name ("app,
    builder, compare..."). Turning that mode off and rerunning makes this very first run go
    through ``app.py`` like every later one: our titles, our sidebar, the same page and link.
    Once a session at most (a test harness that runs pages alone each time is left alone after).
    """
    if st.session_state.get(_K_RERUN):
        return
    st.session_state[_K_RERUN] = True
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - another Streamlit: nothing to undo
        return
    if getattr(PagesManager, "uses_pages_directory", False):
        PagesManager.uses_pages_directory = False
        st.rerun()


def current_variant() -> Variant:
    """The variant chosen in the sidebar (a :class:`tutor.rules.variant.Variant`).

    ``app.py`` draws the sidebar before every page, so a page simply calls this.
    A page script run without ``app.py`` (``AppTest.switch_page`` runs the page
    alone) gets the sidebar drawn here.
    """
    v = st.session_state.get(_K_VARIANT)
    if isinstance(v, Variant) and st.session_state.get(_K_DRAWN):
        return v
    _run_the_app_instead()
    return variant_sidebar()
