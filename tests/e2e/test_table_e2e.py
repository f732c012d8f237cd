"""Browser tests of the card table (tutor.webui.card_table) in Chromium: tap to play on the Play
page, the quick question and tap-to-ask on the legal page, a phone-sized screen, the sample
games' move list, and the page titles on a fresh server's first deep link."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="pip install playwright")

from browser_helpers import add_in_editor  # noqa: E402
from browser_helpers import idle as _idle  # noqa: E402
from browser_helpers import verdict as _verdict  # noqa: E402
from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}


def _deal(page: Page, server: str, query: str) -> None:
    page.goto(f"{server}/play?{query}")
    _idle(page)  # a click while the first run is still drawing the page can be lost
    deal = page.get_by_role("button", name="Deal", exact=True)
    for attempt in range(3):
        deal.click()
        try:
            expect(page.locator(".ct-seat.me")).to_be_visible(timeout=15_000)
            break
        except AssertionError:
            if attempt == 2 or not deal.is_visible():
                raise
    _idle(page)


def _bar(page: Page) -> Any:
    return page.locator(".ct-bar")


def _ready(page: Page, tap: bool = False) -> None:
    """Press Ready (done arranging), again if the table still waits for it: a press that lands
    while the table is being drawn again can be lost (seen once in a clean-clone CI run)."""
    button = _bar(page).get_by_role("button", name=re.compile("^Ready"))
    for attempt in range(3):
        if tap:
            button.tap()
        else:
            button.click()
        try:
            expect(_bar(page)).not_to_contain_text("Before play", timeout=20_000)
            return
        except AssertionError:
            if attempt == 2 or not button.is_visible():
                raise


def _tap_a_play(page: Page) -> str:
    """Tap the learner's cards one at a time until one forms a legal play; its button's label."""
    cards = page.locator(".ct-seat.me button.ct-card")
    for i in range(cards.count()):
        cards.nth(i).click()
        expect(cards.nth(i)).to_have_attribute("aria-pressed", "true")
        play = _bar(page).locator(".ct-btn.primary")
        if play.count():
            return str(play.first.inner_text())
        text = _bar(page).inner_text()
        assert "Not a legal move: " in text or "No legal move" in text, text  # the reason, at once
        _bar(page).get_by_role("button", name="Clear").click()
    raise AssertionError("no card forms a play")


def _play_a_tapped_move(page: Page) -> None:
    label = _tap_a_play(page)
    _bar(page).locator(".ct-btn.primary").first.click()
    said = label[:1].lower() + label[1:]
    expect(page.get_by_text(re.compile("Your move, " + re.escape(said) + ":")).first).to_be_visible(timeout=60_000)
    _idle(page)


def test_tap_to_swap_then_ready_then_tap_to_play(server: str, page: Page) -> None:
    _deal(page, server, "v=pagat&seed=2&seats=3&bot=greedy")
    expect(_bar(page)).to_contain_text("tap a hand card, then a face-up card")
    hand = page.locator(".ct-seat.me .ct-hand button.ct-card")
    up = page.locator(".ct-seat.me .ct-up button.ct-card")
    card, target = hand.first.get_attribute("aria-label"), up.first.get_attribute("aria-label")
    hand.first.click()
    up.first.click()
    swap = _bar(page).locator(".ct-btn.primary")
    expect(swap).to_have_text(re.compile(r"^Swap .+ from your hand for .+ face up$"))
    swap.click()
    _idle(page)
    expect(page.locator(f'.ct-seat.me .ct-up button.ct-card[aria-label="{card}"]')).to_have_count(1)
    expect(page.locator(f'.ct-seat.me .ct-hand button.ct-card[aria-label="{target}"]')).to_have_count(1)
    # nothing is played by pressing the same button again: Ready is its own button
    _ready(page)
    expect(_bar(page)).to_contain_text("Your move: tap your cards", timeout=30_000)
    _idle(page)
    _play_a_tapped_move(page)
    # the others' cards stay hidden: only backs (and cards seen at a pickup) in their hands
    for seat in page.locator(".ct-opps .ct-seat").all():
        faces = seat.locator(".ct-hand .ct-card:not(.back):not(.seen)")
        expect(faces).to_have_count(0)


def test_pick_up_is_a_button_where_the_variant_allows_it(server: str, page: Page) -> None:
    _deal(page, server, "v=pagat&seed=5&seats=2&bot=greedy")
    _ready(page)
    for _ in range(4):
        expect(_bar(page)).to_contain_text("Your move", timeout=30_000)
        _idle(page)
        if page.locator(".ct-pile .ct-play").count():  # something to take
            break
        _play_a_tapped_move(page)
    pickup = _bar(page).get_by_role("button", name="Pick up the pile")
    expect(pickup).to_be_visible()  # pagat: whenever there is a pile
    pickup.click()
    expect(page.get_by_text(re.compile("Your move, pick up the pile:")).first).to_be_visible(timeout=60_000)


def test_the_quick_question_and_tapping_to_ask(server: str, page: Page) -> None:
    page.goto(f"{server}/legal?v=pagat")
    _verdict(page, r"play 7H 7S\) is not legal in pagat")
    _idle(page)
    page.get_by_role("combobox", name="Rules", exact=True).click()
    page.get_by_role("option", name=re.compile("^lancaster:")).click()
    expect(page).to_have_url(re.compile(r"v=lancaster"))  # the rerun has begun: the sidebar wrote the link
    _idle(page)
    for label, text in (("The pile shows (bottom to top)", "6 8"), ("You hold", "7 7 K"), ("You play", "7 7")):
        box = page.get_by_role("textbox", name=label, exact=True)
        box.fill(text)
        box.press("Enter")
        _idle(page)
    answer = _verdict(page, r"play 7H 7S\) is legal in lancaster")
    assert "transparent 8" in answer
    # the verdict comes before the table
    box = page.locator("[data-testid=stAlertContainer]").filter(has_text="is legal in lancaster").first
    assert box.bounding_box()["y"] < page.locator(".ct-felt").first.bounding_box()["y"]  # type: ignore[index]
    # tap the king to ask about it instead
    page.locator(".ct-seat.me button.ct-card[aria-label='king of spades']").click()
    page.locator(".ct-bar .ct-btn.primary", has_text="Ask: play K♠").click()
    _verdict(page, r"play KS\) is legal in lancaster")
    expect(page).to_have_url(re.compile(r"q="))


def test_an_impossible_table_says_where_and_marks_the_extra_copies(server: str, page: Page) -> None:
    page.goto(f"{server}/legal?v=pagat")
    _idle(page)
    for label, text in (("The pile shows (bottom to top)", "8D"), ("You hold", "8D 4")):
        page.get_by_role("textbox", name=label, exact=True).fill(text)
        page.get_by_role("textbox", name=label, exact=True).press("Enter")
        _idle(page)
    expect(page.get_by_text(re.compile(r"8♦ is there 2 times \(in your hand and on the pile"))).to_be_visible()
    # the editor: the example's 7H given to B face up too; the table stays, both copies marked
    page.get_by_role("button", name="the example").click()
    expect(page.get_by_text(re.compile(r"8♦ is there 2 times"))).to_have_count(0)  # the example is drawn
    _idle(page)
    add_in_editor(page, "J♥ (JH)", "7H")
    expect(page.get_by_text(re.compile("7♥ is there 2 times"))).to_be_visible()
    expect(page.locator(".ct-card.mark")).to_have_count(2)


@pytest.fixture
def phone(browser: Browser) -> Any:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollWidth")
    assert width <= PHONE["width"], width


def test_a_phone_plays_by_tapping(server: str, phone: Page) -> None:
    _deal(phone, server, "v=lancaster&seed=7&seats=4&bot=greedy")
    _no_sideways_scroll(phone)
    felt = phone.locator(".ct-felt").first.bounding_box()
    assert felt is not None and felt["width"] <= PHONE["width"]
    _ready(phone, tap=True)
    expect(_bar(phone)).to_contain_text("Your move", timeout=30_000)
    _idle(phone)
    _play_a_tapped_move(phone)
    _no_sideways_scroll(phone)


def test_a_phone_gets_the_verdict_near_the_top(server: str, phone: Page) -> None:
    phone.goto(f"{server}/legal?v=pagat")
    box = phone.locator("[data-testid=stAlertContainer]").filter(has_text="is not legal in pagat").first
    expect(box).to_be_visible()
    _idle(phone)
    top = box.bounding_box()
    assert top is not None and top["y"] < 1.2 * PHONE["height"], top  # was ~1,450 px down
    _no_sideways_scroll(phone)


def test_the_sample_game_move_list_opens_a_move(server: str, page: Page) -> None:
    page.goto(f"{server}/games?game=lancaster-example&step=2")
    expect(page.get_by_text(re.compile(r"^Move 2 of 16"))).to_be_visible()
    _idle(page)
    page.get_by_text("8. C: play a 4").click()
    expect(page).to_have_url(re.compile(r"step=8(&|$)"))
    expect(page.get_by_text(re.compile(r"^Move 8 of 16"))).to_be_visible()
    expect(page.locator(".ct-play.hl")).to_have_count(1)  # the move's play, highlighted on the pile
    _idle(page)
    page.get_by_text("9. B: play three 4s").click()  # the fourth 4: the pile burns
    expect(page.get_by_text(re.compile(r"^Move 9 of 16"))).to_be_visible()
    expect(page.locator(".ct-burned.hl")).to_have_count(1)
    # a seat's view lists only the moves made so far
    page.goto(f"{server}/games?game=lancaster-example&step=3&seat=B")
    expect(page.get_by_text("The moves so far (3 of 16)")).to_be_visible()
    expect(page.get_by_text("9. B: play three 4s")).to_have_count(0)


def test_a_fresh_servers_first_deep_link_lists_the_pages_by_title(fresh_server: str, browser: Browser) -> None:
    context = browser.new_context()
    try:
        pg = context.new_page()
        pg.goto(f"{fresh_server}/legal?v=lancaster")  # nobody has opened "/" on this server
        nav = pg.get_by_test_id("stSidebarNav")
        expect(nav).to_contain_text("Is this move legal?", timeout=60_000)
        for file_name in ("app", "builder", "legal"):  # Streamlit's list of the pages/ files
            expect(nav.get_by_role("link", name=file_name, exact=True)).to_have_count(0)
        expect(pg.get_by_role("heading", name="Is this move legal?")).to_be_visible()
        _verdict(pg, r"is legal in lancaster")
    finally:
        context.close()


def test_build_a_table_by_tapping_then_ask(server: str, page: Page) -> None:
    page.goto(f"{server}/legal?v=pagat")
    _idle(page)
    page.get_by_role("button", name="an empty table").click()
    _idle(page)
    page.get_by_text("build the table").click()
    _idle(page)
    page.locator(".ct-newplay").click()
    page.locator(".ct-palette button[aria-label='king of clubs']").click()
    expect(page.locator(".ct-pile .ct-card[aria-label='king of clubs']")).to_have_count(1)
    _idle(page)
    page.locator(".ct-seat.me .ct-hand").click()
    page.locator(".ct-palette button[aria-label='ten of spades']").click()
    expect(page.locator(".ct-seat.me .ct-hand .ct-card[aria-label='ten of spades']")).to_have_count(1)
    _idle(page)
    page.get_by_text("ask about a play").click()
    _idle(page)
    # In build mode a tap takes a card out: tap only once the table has turned to asking.
    expect(page.locator(".ct-bar .ct-msg", has_text="to ask about playing them")).to_be_visible()
    page.locator(".ct-seat.me button.ct-card[aria-label='ten of spades']").click()
    page.locator(".ct-bar .ct-btn.primary", has_text="Ask: play 10♠").click()
    assert "burns the pile" in _verdict(page, r"play 10S\) is legal in pagat")
