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

# (script, title, icon, url path); "/" opens the first (Learn), which also lives at its own path.
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
        st.Page(str(ROOT / script), title=title, icon=icon, url_path=url)
        for script, title, icon, url in PAGES
        if (ROOT / script).exists()
    ]

    def home() -> None:  # "/" is Learn at /learn, the link's parameters kept
        st.switch_page(pages[0], query_params=st.query_params.to_dict())

    nav = st.navigation([st.Page(home, title=pages[0].title, url_path="home", default=True, visibility="hidden"),
                         *pages])
    with sidebar_drawn():
        variant_sidebar()
        nav.run()


main()
