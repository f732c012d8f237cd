"""Browser test of the Compare variants page: a small comparison, and one of its positions
opened on the "Is this move legal?" page. Uses the fixtures of ``conftest.py``
(``streamlit run app.py`` on 127.0.0.1, Debian's chromium driven by Playwright). 200 games
a variant: enough for the page to play them in its process pool."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="pip install playwright")

from browser_helpers import idle as _idle  # noqa: E402
from browser_helpers import verdict as _verdict  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402

pytestmark = pytest.mark.e2e


def test_compare_two_presets_and_open_a_position_where_they_disagree(server: str, page: Page) -> None:
    page.goto(f"{server}/compare?v=pagat&with=lancaster&games=200&seed=0")
    expect(page.get_by_role("heading", name="Compare variants")).to_be_visible()
    expect(page.get_by_text(re.compile(r"^\d+ of \d+ rules differ"))).to_be_visible()
    expect(page.get_by_text(re.compile(r"^\d+ kinds of difference"))).to_be_visible(timeout=30_000)
    stats = page.locator("[data-testid=stTable]").filter(has_text="Game length (moves)")
    expect(stats).to_be_visible(timeout=30_000)
    expect(stats).to_contain_text("Seat A loses")
    expect(page.get_by_text("Who loses, by seat")).to_be_visible()
    _idle(page)
    link = page.get_by_role("link", name="Open it on Is this move legal? with lancaster").first
    href = link.get_attribute("href") or ""
    assert "v=lancaster" in href and "q=" in href
    with page.context.expect_page() as opened:
        link.click()
    legal = opened.value
    _verdict(legal, r"is (not )?legal in lancaster")
    expect(legal.get_by_role("heading", name="Is this move legal?")).to_be_visible()


def test_a_long_comparison_can_be_stopped_and_shows_what_it_had(server: str, page: Page) -> None:
    page.goto(f"{server}/compare?v=pagat&with=lancaster&games=5000&seed=3")
    stop = page.get_by_role("button", name="Stop")
    expect(stop).to_be_visible(timeout=30_000)
    stop.click()
    stopped = page.get_by_text("Stopped at your request: what follows is what was done by then.")
    expect(stopped).to_be_visible(timeout=15_000)
    expect(page.get_by_role("button", name="Work it out again")).to_be_visible()
    _idle(page)
    expect(page.get_by_role("button", name="Stop")).to_have_count(0)  # nothing runs any more
    # a rerun (another widget) keeps the stopped comparison stopped rather than starting it again
    page.get_by_text("Show the rules they share too").click()
    _idle(page)
    expect(stopped).to_be_visible()
