"""The Shithead tutor: ``streamlit run app.py``.

Sets up the navigation over the page scripts in ``pages/`` (a page whose file is
missing is left out) and draws the shared sidebar, the variant in use, before
every page (see :mod:`tutor.webui.state`).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from tutor.webui.state import sidebar_drawn, variant_sidebar

ROOT = Path(__file__).resolve().parent

# (script, title, icon, url path); the first is the home page.
PAGES = (
    ("pages/learn.py", "Learn", ":material/school:", "learn"),
    ("pages/builder.py", "Rulebook builder", ":material/tune:", "builder"),
    ("pages/games.py", "Sample games", ":material/playing_cards:", "games"),
    ("pages/legal.py", "Is this move legal?", ":material/gavel:", "legal"),
    ("pages/play.py", "Play against bots", ":material/smart_toy:", "play"),
    ("pages/compare.py", "Compare variants", ":material/compare_arrows:", "compare"),
)


def main() -> None:
    st.set_page_config(page_title="Shithead tutor", page_icon="🂡")
    pages = [
        st.Page(str(ROOT / script), title=title, icon=icon, url_path=url, default=(k == 0))
        for k, (script, title, icon, url) in enumerate(PAGES)
        if (ROOT / script).exists()
    ]
    nav = st.navigation(pages)
    with sidebar_drawn():
        variant_sidebar()
        nav.run()


main()
