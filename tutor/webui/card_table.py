"""The card-table component: seats around the pile, cards to tap (Streamlit custom components v2).

One component, ``shithead_card_table``, drawn in the page itself (no iframe) from plain HTML,
CSS and JavaScript kept beside this file (``card_table.js``, ``card_table.css``): nothing is
fetched at run time. It draws :func:`tutor.tabletop.layout.table_data`; names and sentences are
written with ``textContent``, so a name can never become markup.

Modes:

- ``"view"``: a picture of the table.
- ``"play"``: the bottom seat's cards can be tapped; the action bar offers the legal moves the
  tapped cards form (:func:`tutor.tabletop.taps.tap_data`), or the engine's reason when they form
  none, and the moves that take no card (Pick up, Ready) as buttons. A chosen move comes back as
  the trigger ``move`` (its notation); "Why not?" for an unusual tap as the trigger ``why``.
- ``"ask"``: tapped cards form a move to ask about, legal or not: the trigger ``ask``.
- ``"edit"``: build the table by tapping: choose a zone (a hand, the cards before a player,
  a play on the pile or a new one, the stock), then cards of a palette to add; a card tapped in
  the chosen zone comes out; a seat can be made the one to move. Each change comes back as the
  trigger ``edit`` (``'add hand 0 7H'``, ``'add down 1 ??'``, ``'remove pile 2 8S'``, ``'turn 1'``:
  :func:`tutor.webui.table_form.apply_edit`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.components.v2 import component

_HERE = Path(__file__).resolve().parent
NAME = "shithead_card_table"
_MOUNT = component(NAME, css=(_HERE / "card_table.css").read_text(encoding="utf-8"),
                   js=(_HERE / "card_table.js").read_text(encoding="utf-8"))


def _nothing() -> None:
    """A trigger's callback when the page reads the trigger from the result instead."""


def _key(base: str) -> str:
    """``base``, or ``base-2``, ``base-3``... if a table with that key is already drawn in this run."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    used = getattr(getattr(ctx, "shared", None), "widget_user_keys_this_run", None)
    if used is None:
        return base
    key, n = base, 1
    while key in used:
        n += 1
        key = f"{base}-{n}"
    return key


def position_id(data: Mapping[str, Any]) -> str:
    """A short digest of what is drawn: a tapped selection is kept while it stays the same."""
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def card_table(
    table: Mapping[str, Any],
    *,
    key: str | None = None,
    mode: str = "view",
    taps: Mapping[str, Any] | None = None,
    prompt: str = "",
    waiting: str = "",
    why_more: Mapping[str, str] | None = None,
    compact: bool = False,
    glow: Sequence[str] = (),
    on_move: Callable[[], None] | None = None,
    on_ask: Callable[[], None] | None = None,
    on_why: Callable[[], None] | None = None,
    on_edit: Callable[[], None] | None = None,
    jokers: bool = False,
) -> Any:
    """Draw the table (``table``: :func:`tutor.tabletop.layout.table_data`) and return the
    component's result (``.move``, ``.ask``, ``.why``: the trigger of this run, or None).
    ``glow``: places of the bottom seat's cards to light up (a move to suggest, e.g. ``'h:7H'``)."""
    pos = position_id({"t": table, "m": mode, "x": taps})
    data = {"table": dict(table), "mode": mode, "taps": dict(taps) if taps else None, "pos": pos,
            "prompt": prompt, "waiting": waiting, "why_more": dict(why_more or {}), "compact": compact,
            "glow": list(glow), "jokers": jokers}
    callbacks: dict[str, Any] = {}
    if mode == "play":
        callbacks = {"on_move_change": on_move or _nothing, "on_why_change": on_why or _nothing}
    elif mode == "ask":
        callbacks = {"on_ask_change": on_ask or _nothing}
    elif mode == "edit":
        callbacks = {"on_edit_change": on_edit or _nothing}
    return _MOUNT(key=_key(key or f"ct-{pos}"), data=data, **callbacks)


def trigger(key: str, name: str) -> str | None:
    """In a callback: the trigger value ``name`` the table with ``key`` just sent."""
    state = st.session_state.get(key)
    try:
        value = state[name] if state is not None else None
    except (KeyError, TypeError):
        return None
    return value if isinstance(value, str) else None
