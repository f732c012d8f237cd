"""Helpers shared by the browser tests (fixtures are in ``conftest.py``)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect


def idle(page: Page) -> None:
    """Wait until the app has finished running its script."""
    page.wait_for_selector("[data-testid=stApp]")
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')")


def verdict(page: Page, pattern: str) -> Any:
    """The text of the first alert box matching ``pattern``, once it shows."""
    box = page.locator("[data-testid=stAlertContainer]").filter(has_text=re.compile(pattern))
    expect(box.first).to_be_visible()
    return box.first.inner_text()
