"""Learn: a short course in the variant chosen in the sidebar, a quiz, the variant at a glance, the
lessons from the rules' worked examples, the rulebook, and the house rules sheet to print."""

from __future__ import annotations

import streamlit as st

from tutor.webui.learn_view import K_PART, PARTS, SHOW, open_part, to_url
from tutor.webui.state import current_variant


def main() -> None:
    v = current_variant()
    st.title("Learn")
    open_part()
    tabs = st.tabs(list(PARTS.values()), key=K_PART, on_change=to_url)
    for tab, part in zip(tabs, PARTS, strict=True):
        if tab.open:
            with tab:
                SHOW[part](v)


main()
