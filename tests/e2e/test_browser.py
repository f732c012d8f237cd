"""Browser tests: Debian's chromium, driven by Playwright, against ``streamlit run app.py``.

Run with ``python -m pytest tests/e2e``; the server and browser come from ``conftest.py``.
"""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("playwright.sync_api", reason="pip install playwright")

from browser_helpers import add_in_editor  # noqa: E402
from browser_helpers import idle as _idle  # noqa: E402
from browser_helpers import verdict as _verdict  # noqa: E402
from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tutor.core.share import decode_question  # noqa: E402

pytestmark = pytest.mark.e2e


def _step_with_key(page: Page, key: str, step: int) -> None:
    """Press ``key`` until the game shows move ``step`` (a key pressed while the page is
    still redrawing can be missed; it is pressed again only if the step did not change)."""
    before = re.search(r"step=(\d+)", page.url)
    for _ in range(3):
        page.keyboard.press(key)
        try:
            expect(page).to_have_url(re.compile(rf"step={step}(&|$)"), timeout=4000)
            break
        except AssertionError:
            now = re.search(r"step=(\d+)", page.url)
            if now and before and now.group(1) != before.group(1):
                raise
    expect(page.get_by_text(re.compile(rf"^Move {step} of 16"))).to_be_visible()
    _idle(page)


def test_step_through_the_lancaster_example_with_the_arrow_keys(server: str, page: Page) -> None:
    page.goto(f"{server}/games?game=lancaster-example")
    expect(page.get_by_text("The starting position.")).to_be_visible()
    expect(page).to_have_url(re.compile(r"step=0"))
    _idle(page)
    page.wait_for_timeout(300)  # the key bindings are attached just after the buttons are drawn
    for n in (1, 2, 3):
        _step_with_key(page, "ArrowRight", n)
    expect(page.get_by_text("A draws one.", exact=False).first).to_be_visible()
    _step_with_key(page, "ArrowLeft", 2)
    expect(page).to_have_url(re.compile(r"game=lancaster-example"))


def test_build_a_table_get_a_verdict_and_open_its_link_in_a_fresh_page(server: str, page: Page,
                                                                       browser: Browser) -> None:
    page.goto(f"{server}/legal?v=pagat")
    _verdict(page, r"play 7H 7S\) is not legal in pagat")
    _idle(page)
    add_in_editor(page, "4♣ (4C)", "10H")  # build: give A a 10 of hearts, under "Edit every card"
    expect(page.get_by_label("ten of hearts").first).to_be_visible()
    _idle(page)
    move = page.get_by_role("textbox", name="The move to judge")
    move.fill("play 10H")
    move.press("Enter")
    text = _verdict(page, r"play 10H\) is legal in pagat")
    assert "burns the pile" in text
    expect(page.get_by_text("the pile is burned", exact=False)).to_be_visible()
    _idle(page)
    link = _shared_link(page, "play 10H")
    assert link.startswith(server) and "v=pagat" in link
    fresh = browser.new_context().new_page()
    try:
        fresh.goto(link)
        again = _verdict(fresh, r"play 10H\) is legal in pagat")
        assert again == text
        expect(fresh.get_by_label("ten of hearts").first).to_be_visible()
    finally:
        fresh.context.close()


def _shared_link(page: Page, move: str) -> str:
    """The page's link to its question once it asks about ``move`` (the verdict is drawn before
    the link further down the page, so a rerun may show the new verdict beside the last link)."""
    box = page.locator("[data-testid=stCode]").filter(has_text="q=").first
    for _ in range(100):
        link = box.inner_text().strip()
        if decode_question(parse_qs(urlsplit(link).query)["q"][0]).move == move:
            return link
        page.wait_for_timeout(200)
    raise AssertionError(f"the page's link never asked about {move!r}: {link}")


def test_changing_the_variant_rejudges_the_same_move(server: str, page: Page) -> None:
    started = time.monotonic()
    page.goto(f"{server}/legal?v=lancaster")
    _verdict(page, r"play 7H 7S\) is legal in lancaster")
    loaded = time.monotonic() - started
    _idle(page)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name=re.compile("^pagat")).click()
    _verdict(page, r"play 7H 7S\) is not legal in pagat")
    assert loaded < 10
