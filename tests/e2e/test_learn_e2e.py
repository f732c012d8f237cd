"""Browser test of the Learn page's course: a newcomer on a phone (390x844) clicks through the
whole Lancaster course, tapping the answers the engine gives, and reaches the quiz. Uses the
fixtures of ``conftest.py`` (``streamlit run app.py`` on 127.0.0.1, Debian's chromium)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="pip install playwright")

from browser_helpers import idle as _idle  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402

from tutor.rules.variant import load_variant  # noqa: E402
from tutor.teach.course import course, feedback, worked_game  # noqa: E402

pytestmark = pytest.mark.e2e


def _tap(page: Page, label: str) -> None:
    pill = page.locator("[data-testid=stButtonGroup] button").filter(has_text=re.compile(f"^{re.escape(label)}$"))
    pill.first.click()
    expect(pill.first).to_have_attribute("data-selected", "true")


def test_click_through_lancasters_course_on_a_phone(server: str, browser: Any) -> None:
    v = load_variant("lancaster")
    steps = course(v)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{server}/learn?v=lancaster")
        for k, step in enumerate(steps, 1):
            expect(page.get_by_role("heading", name=step.title)).to_be_visible()
            expect(page.get_by_text(f"Step {k} of {len(steps)}")).to_be_visible()
            if k > 1:
                expect(page).to_have_url(re.compile(rf"step={k}(&|$)"))
            _idle(page)
            q = step.question
            for choice in q.choices:
                if choice.key in q.answer:
                    _tap(page, choice.label)
                    _idle(page)
            page.get_by_role("button", name="Check").click()
            answer = page.locator("[data-testid=stAlertContainer]").first
            expect(answer).to_contain_text(feedback(q, q.answer).head)
            expect(answer).to_contain_text(feedback(q, q.answer).lines[0][:40])
            expect(answer).to_be_in_viewport()  # the verdict shows without scrolling on a phone
            expect(page.get_by_text("After the move:")).to_be_visible()
            _idle(page)
            page.get_by_role("button", name="Continue").click()
        expect(page.get_by_text("That is the game. Now test yourself.")).to_be_visible()
        game = worked_game(v)
        assert game is not None
        link = page.get_by_role("link", name=re.compile("Watch a whole game"))
        assert f"games?game={game.id}" in (link.get_attribute("href") or "")
        _idle(page)
        page.get_by_role("button", name="Take the quiz").click()
        expect(page.get_by_text("Question 1 of 10")).to_be_visible()
        expect(page).to_have_url(re.compile(r"part=quiz"))
        expect(page).to_have_url(re.compile(r"seed=1"))
    finally:
        context.close()
