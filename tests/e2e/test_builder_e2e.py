"""Browser test of the Rulebook builder: a rule of one's own uploaded, used in the app, and the
link opened in a fresh browser context (another person) brings the same variant. Uses the
fixtures of ``conftest.py``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="pip install playwright")

from browser_helpers import idle as _idle  # noqa: E402
from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tutor.rules.schema import RULE_TEMPLATE  # noqa: E402

pytestmark = pytest.mark.e2e


def test_a_rule_of_ones_own_travels_in_the_link(server: str, page: Page, browser: Browser, tmp_path: Path) -> None:
    rule = tmp_path / "sixes.yaml"
    rule.write_text(RULE_TEMPLATE, encoding="utf-8")
    page.goto(f"{server}/builder?v=pagat")
    expect(page.get_by_role("heading", name="Rulebook builder")).to_be_visible()
    _idle(page)
    page.get_by_text("Add your own rule, or load a variant file").click()
    page.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(str(rule))
    expect(page.get_by_text(re.compile(r"Your variant: pagat\+sixes-skip@"))).to_be_visible(timeout=30_000)
    page.get_by_role("button", name="Use in the app").click()
    page.wait_for_url(re.compile(r"own="), timeout=30_000)
    link = page.url
    other = browser.new_context().new_page()  # another person, another session
    other.goto(link)
    expect(other.get_by_text(re.compile(r"Variant in use: pagat\+sixes-skip@"))).to_be_visible(timeout=30_000)
    assert not other.locator("[data-testid=stAlertContainer]").filter(has_text="cannot be used").count()
