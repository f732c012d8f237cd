"""The Compare variants page, driven through streamlit's AppTest (small numbers of games)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest
from test_app_support import APP, all_markdown, open_page, texts

from tutor.core.share import decode_question
from tutor.core.table import table_from_dict
from tutor.engine import check
from tutor.rules.variant import load_variant

PAGE = "pages/compare.py"


def _param(at: object, name: str) -> str:
    value = at.query_params[name]  # type: ignore[attr-defined]
    return value[0] if isinstance(value, list) else str(value)


def test_pagat_against_lancaster_shows_all_four_answers() -> None:
    at = open_page(PAGE, v="pagat", games="8")
    assert at.title[0].value == "Compare variants"
    assert [h.value for h in at.header] == ["1. The rules, slot by slot", "2. What can be played on what",
                                           "3. Where the verdicts differ", "4. What it does to play"]
    slots = at.table[0].value
    assert list(slots.columns) == ["pagat", "lancaster"]
    assert "tens-burn-anytime" in slots.loc["The 10", "pagat"]
    assert "tens-burn-restricted" in slots.loc["The 10", "lancaster"]
    assert "The 8" in slots.index and slots.loc["The 8", "pagat"] == "—"
    text = all_markdown(at)
    assert "kinds of difference" in text
    assert "'pickup' is legal in pagat but not in lancaster." in [e.proto.label.split(". ", 1)[1] for e in at.expander
                                                                  if e.proto.label[:1].isdigit()]
    stats = at.table[1].value
    assert "Game length (moves)" in stats.index and "Seat A loses" in stats.index
    assert re.match(r"^\d+\.\d \[", stats.loc["Game length (moves)", "pagat"])
    assert "Δ" in stats.loc["Game length (moves)", "lancaster"]
    assert _param(at, "with") == "lancaster" and _param(at, "games") == "8"
    assert not at.exception


def test_a_disagreement_link_opens_the_same_verdict_on_the_legal_page() -> None:
    at = open_page(PAGE, v="pagat", games="8")
    links = re.findall(r"\]\((legal\?[^)]+)\)", all_markdown(at))
    assert links, "no links to the legal page"
    query = parse_qs(urlsplit(links[1]).query)  # the first disagreement, judged by lancaster
    spec, code = query["v"][0], query["q"][0]
    assert spec == "lancaster"
    q = decode_question(code)
    v = load_variant(spec)
    expected = check(table_from_dict(q.table), v, q.move)
    legal = open_page("pages/legal.py", v=spec, q=code)
    verdicts = texts(legal.success) + texts(legal.error)
    assert any(f"(`{expected.move}`) is {'legal' if expected.legal else 'not legal'} in `lancaster`" in t
               for t in verdicts), verdicts


def test_adding_a_third_variant_and_showing_every_rule() -> None:
    at = open_page(PAGE, v="pagat", games="8")
    at.multiselect(key="cmp_with").select("gultnieks").run()
    assert not at.exception
    assert list(at.table[0].value.columns) == ["pagat", "lancaster", "gultnieks"]
    at.toggle(key="cmp_all_slots").set_value(True).run()
    frame = at.table[0].value
    assert "differs" in frame.columns and "Core rules" in frame.index
    assert _param(at, "with") == "lancaster,gultnieks"


def test_a_spec_with_a_fragment_differs_in_that_slot_only() -> None:
    at = open_page(PAGE, v="pagat", games="8", **{"with": "pagat+sevens-lower"})
    frame = at.table[0].value
    assert list(frame.index) == ["The 7"]
    assert "sevens-lower" in frame.iloc[0, 1]


def test_itself_and_a_bad_spec() -> None:
    at = open_page(PAGE, v="lancaster", games="8", **{"with": "lancaster,nonsense"})
    assert any("Left out" in w for w in texts(at.warning))
    assert any("Pick at least one other variant" in i for i in texts(at.info))
    assert not at.exception


def test_every_variant_plays_the_full_number_of_games() -> None:
    # karma's face-up stacks once sent it through a slower engine with fewer games; the one
    # engine plays every variant on its position
    at = open_page(PAGE, v="pagat", games="6", slow="3", players="3", **{"with": "karma"})
    captions = "\n".join(texts(at.caption))
    assert "played through the engine" not in captions
    assert "6 games per variant" in captions
    assert at.table[1].value.loc["Game length (moves)", "karma"]


@pytest.mark.parametrize("preset", ["nortenos", "gaz-and-elf"])
def test_odd_presets_compare_cleanly(preset: str) -> None:
    # Nortenos: two players only, the first out wins; Gaz and Elf: jokers, played by the engine
    at = open_page(PAGE, v=preset, games="4", slow="4")
    assert not at.exception and not texts(at.error)
    assert list(at.table[0].value.columns)[0] == preset
    assert preset in at.table[1].value.columns


def test_the_difference_grid_is_drawn_whole() -> None:
    # pagat against Lancaster differ on the 8 and the 9 (rows and columns), and on the 10 played on
    # J, Q, K, A: those rows and the K and A columns must all be there, nothing cut off
    at = open_page(PAGE, v="pagat", games="4")
    grid = next(m.value for m in at.markdown if "<table" in m.value)
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", grid)
    for col in ["2", "3", "8", "9", "10", "J", "Q", "K", "A"]:
        assert col in heads, col
    for row in ["on 8", "on 9", "on 10", "on J", "on Q", "on K", "on A"]:
        assert row in heads, row
    assert "on 5" not in heads  # nothing differs on a 5: no row for it
    cells = re.findall(r'<td[^>]*title="([^"]*)"', grid)
    assert len(cells) == int(re.search(r"\*\*(\d+) cells differ", all_markdown(at)).group(1))  # type: ignore[union-attr]
    assert any(c.startswith("10 on a king: pagat ✓ (tens-burn-anytime), lancaster ✗") for c in cells), cells[:5]


def test_a_comparison_past_its_budget_stops_with_a_message_and_what_it_has() -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["v"] = "pagat"
    at.query_params["games"] = "400"
    at.query_params["seed"] = "17"  # a search no other test has cached
    at.run()
    at.session_state["_cmp_budget"] = 0.0
    at.switch_page(PAGE).run()
    assert not at.exception
    warning = " ".join(texts(at.warning))
    assert "This comparison stopped at the time limit of 0 s" in warning
    assert "No game was played to the end before the work stopped." in texts(at.info)
    assert "The search stopped before it found a position where the verdicts differ." in texts(at.caption)
    assert any(b.label == "Work it out again" for b in at.button)
    # the sections that need no games are all there
    assert [h.value for h in at.header][:3] == ["1. The rules, slot by slot", "2. What can be played on what",
                                               "3. Where the verdicts differ"]
