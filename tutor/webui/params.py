"""Query parameters read strictly, before they reach a widget.

A link is typed, pasted and crafted; every value in it is checked here: ASCII digits only,
within the range the page's widget takes. A value outside it is not silently changed: the page
falls back to its default and says so in one line (user text quoted short, as plain text).
"""

from __future__ import annotations

import streamlit as st

from tutor.core.errors import excerpt
from tutor.webui.safe import md


def int_param(name: str, default: int, low: int, high: int, what: str = "") -> int:
    """The query parameter ``name`` as a whole number from ``low`` to ``high``; otherwise
    ``default``, with a warning that names the parameter and the range."""
    raw = st.query_params.get(name)
    if raw is None or raw == "":
        return default
    word = str(raw).strip()
    if word.isascii() and word.isdigit() and len(word) <= 12 and low <= int(word) <= high:
        return int(word)
    st.warning(f"The link's {what or name} {md(excerpt(word, 24))} is not a whole number from {low:,} to {high:,}; "
               f"using {default:,}.", icon=":material/link_off:")
    return default


def list_param(name: str, cap: int, what: str = "") -> list[str]:
    """A comma-separated query parameter (``+`` and spaces as typed stay inside items), at most
    ``cap`` items; more are dropped with a warning."""
    raw = str(st.query_params.get(name, "") or "")
    items = [s.strip() for s in raw.split(",") if s.strip()]
    if len(items) > cap:
        st.warning(f"The link lists {len(items)} {what or name}; only the first {cap} are used.",
                   icon=":material/link_off:")
        items = items[:cap]
    return items
