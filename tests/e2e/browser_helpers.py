"""Helpers shared by the browser tests (fixtures are in ``conftest.py``)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Error as PlaywrightError
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


def add_in_editor(page: Page, zone_holding: str, card: str) -> None:
    """On the legal page: open "Edit every card" and add ``card`` (typed, e.g. ``10H``) to the
    card picker that already shows ``zone_holding`` (e.g. ``4♣ (4C)``)."""
    page.get_by_text("Edit every card").click()
    idle(page)  # its fields are drawn by the rerun that opening it asks for
    picker = page.get_by_test_id("stMultiSelect").filter(has_text=zone_holding).first
    expect(picker).to_be_visible()
    chip = picker.get_by_text(re.compile(rf"\({re.escape(card)}\)"))
    box = picker.get_by_role("combobox")
    option = page.get_by_role("option", name=re.compile(rf"\({re.escape(card)}\)"))
    for _ in range(5):  # a rerun that lands meanwhile can close the list or drop the entry: again
        # No key is typed: a rerun can move the focus to another widget, which typed keys then
        # change (a run under load once saw the rule set's picker switched to bluff). The filter
        # is filled into the picker's own input and the card's option is clicked.
        try:
            box.fill(card)
            option.first.click(timeout=5_000)
            box.press("Escape")  # the list closed (open, it hides the page from the roles)
        except (AssertionError, PlaywrightError):
            idle(page)
            continue
        idle(page)
        try:
            expect(chip.first).to_be_visible(timeout=5_000)
            return
        except AssertionError:
            continue
    expect(chip.first).to_be_visible()  # (fails here, naming the card, if every try was dropped)
