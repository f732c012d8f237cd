"""Browser tests: Debian's chromium, driven by Playwright, against ``streamlit run app.py``.

Run with ``python -m pytest tests/e2e -m e2e``. Skipped (with the reason) when
/usr/bin/chromium or the playwright package is missing.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("the playwright package is not installed (pip install playwright)", allow_module_level=True)
if not os.path.exists(CHROMIUM):  # pragma: no cover - depends on the machine
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``streamlit run app.py`` on a free port of 127.0.0.1; stopped at the end."""
    port = _free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1",
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"streamlit did not start: {err[-500:]}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # Open the home page once: it loads the modules, and a server whose first visitor
        # arrives on a deep link keeps showing Streamlit's file-based page list otherwise.
        warm = b.new_page()
        warm.goto(server)
        warm.get_by_role("heading", name="Learn").wait_for(timeout=30_000)
        warm.close()
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()


def _idle(page: Page) -> None:
    """Wait until the app has finished running its script."""
    page.wait_for_selector("[data-testid=stApp]")
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')")


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


def _verdict(page: Page, pattern: str) -> Any:
    box = page.locator("[data-testid=stAlertContainer]").filter(has_text=re.compile(pattern))
    expect(box.first).to_be_visible()
    return box.first.inner_text()


def test_build_a_table_get_a_verdict_and_open_its_link_in_a_fresh_page(server: str, page: Page,
                                                                       browser: Browser) -> None:
    page.goto(f"{server}/legal?v=pagat")
    _verdict(page, r"play 7H 7S is not legal in pagat")
    _idle(page)
    # build: give A a 10 of hearts from the card picker
    hand = page.get_by_test_id("stMultiSelect").filter(has_text="4♣ (4C)").first
    hand.get_by_role("combobox").click()
    page.keyboard.type("10H")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.get_by_role("img", name="ten of hearts").first).to_be_visible()
    _idle(page)
    move = page.get_by_role("textbox", name="The move to judge")
    move.fill("play 10H")
    move.press("Enter")
    text = _verdict(page, r"play 10H is legal in pagat")
    assert "burns the pile" in text
    expect(page.get_by_text("the pile is burned", exact=False)).to_be_visible()
    _idle(page)
    link = page.locator("[data-testid=stCode]").filter(has_text="q=").first.inner_text().strip()
    assert link.startswith(server) and "v=pagat" in link
    fresh = browser.new_context().new_page()
    try:
        fresh.goto(link)
        again = _verdict(fresh, r"play 10H is legal in pagat")
        assert again == text
        expect(fresh.get_by_role("img", name="ten of hearts").first).to_be_visible()
    finally:
        fresh.context.close()


def test_changing_the_variant_rejudges_the_same_move(server: str, page: Page) -> None:
    started = time.monotonic()
    page.goto(f"{server}/legal?v=lancaster")
    _verdict(page, r"play 7H 7S is legal in lancaster")
    loaded = time.monotonic() - started
    _idle(page)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name=re.compile("^pagat")).click()
    _verdict(page, r"play 7H 7S is not legal in pagat")
    assert loaded < 10
