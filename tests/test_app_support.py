"""Helpers for the AppTest tests of the Streamlit pages (imported by tests/test_app_*.py),
and the checks that the app's navigation and sidebar work for every preset."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tutor.rules.variant import load_variant, preset_catalogue
from tutor.teach.course import Question
from tutor.teach.quiz import quiz

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGES = ["pages/learn.py", "pages/builder.py", "pages/games.py", "pages/legal.py"]
PRESETS = list(preset_catalogue())


def open_page(page: str | None = None, **params: str) -> AppTest:
    """Start the app with these URL parameters, open ``page`` and run it."""
    at = AppTest.from_file(APP, default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page:
        at.switch_page(page)
        at.run()
    assert not at.exception, at.exception
    return at


@cache
def quiz_of(spec: str, seed: int) -> tuple[Question, ...]:
    """A quiz, built once for the whole test run (the page caches it the same way)."""
    return quiz(load_variant(spec), seed)


def texts(elements: object, raw: bool = False) -> list[str]:
    """The elements' text as the reader sees it (tutor.webui.safe's escapes undone), or ``raw``."""
    out = [str(e.value) for e in elements]  # type: ignore[attr-defined]
    return out if raw else [re.sub(r"\\(.)", r"\1", t).replace("\u200b", "") for t in out]


def all_markdown(at: AppTest) -> str:
    return "\n".join(texts(at.markdown))


# -- the card-table component (tutor.webui.card_table): its data, and taps sent to it ---------


def card_tables(at: AppTest) -> list[Any]:
    """Every card table drawn in this run (elements of the tree; AppTest has no accessor for
    custom components)."""
    return [node for node in at._tree
            if type(getattr(node, "proto", None)).__name__ == "BidiComponent"
            and node.proto.component_name == "shithead_card_table"]


def _table(at: AppTest, key: str) -> Any:
    found = [n for n in card_tables(at) if n.proto.id.endswith("-" + key)]
    assert found, f"no card table {key!r} (drawn: {[n.proto.id for n in card_tables(at)]})"
    return found[0]


def card_table_data(at: AppTest, key: str) -> dict[str, Any]:
    """The data the card table ``key`` was drawn from (what the browser receives)."""
    return dict(json.loads(_table(at, key).proto.json))


def send(at: AppTest, key: str, event: str, value: str) -> AppTest:
    """Run the app as if the card table ``key`` sent the trigger ``event`` (what a tap in the
    browser sends: ``move``, ``ask`` or ``why``)."""
    node = _table(at, key)
    states = at._tree.get_widget_states()
    w = states.widgets.add()
    w.id = f"$$STREAMLIT_INTERNAL_KEY_{node.proto.id}__events"
    w.json_trigger_value = json.dumps([{"event": event, "value": value}])
    return at._run(states)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_page_renders_for_every_preset(preset: str) -> None:
    at = open_page(v=preset)
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)
        assert at.session_state["variant"].id == preset
        problems = [e for e in texts(at.error) if not e.startswith("**")]  # a verdict "not legal" is red too
        assert not problems, (page, problems)
        assert at.title[0].value


def test_home_is_learn_and_the_url_carries_the_variant() -> None:
    at = open_page(v="lancaster+twos-pass-on")
    assert at.title[0].value == "Learn"
    assert at.query_params["v"] == ["lancaster+twos-pass-on"] or at.query_params["v"] == "lancaster+twos-pass-on"
    assert at.sidebar.selectbox(key="sb_preset").value == "lancaster"
    assert at.sidebar.multiselect(key="sb_frags").value == ["twos-pass-on"]


@pytest.mark.parametrize("spec", ["nonsense", "pagat+nope", "lancaster+twos-reset+twos-pass-on",
                                  "/etc/passwd", "rules/presets/pagat.yaml", "pagat+x@deadbeef"])
def test_a_bad_variant_in_the_link_falls_back_to_pagat_with_a_warning(spec: str) -> None:
    at = open_page("pages/legal.py", v=spec)
    assert at.session_state["variant"].id == "pagat"
    warnings = texts(at.sidebar.warning)
    assert len(warnings) == 1 and "Showing pagat instead" in warnings[0]
    assert "\n" not in warnings[0]


def test_sidebar_fragment_choice_changes_the_variant_and_replaces_within_a_slot() -> None:
    at = open_page("pages/legal.py", v="lancaster")
    at.sidebar.multiselect(key="sb_frags").select("twos-pass-on").run()
    assert at.session_state["variant"].id == "lancaster+twos-pass-on"
    at.sidebar.multiselect(key="sb_frags").select("twos-reset").run()
    assert at.sidebar.multiselect(key="sb_frags").value == ["twos-reset"]
    assert at.session_state["variant"].id == "lancaster+twos-reset"
    at.sidebar.selectbox(key="sb_preset").set_value("pagat").run()
    assert at.session_state["variant"].id == "pagat"
    assert not at.exception


def test_the_variant_survives_a_page_switch() -> None:
    at = open_page("pages/games.py", v="lancaster")
    at.switch_page("pages/builder.py").run()
    at.switch_page("pages/learn.py").run()
    assert at.session_state["variant"].id == "lancaster"
