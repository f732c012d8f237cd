"""Every page that takes a file or pasted text, fed nasty ones through AppTest (issue 16 item 7):
the Rulebook builder's upload (a rule fragment or a variant file), the legal page's table
import (upload and paste), the own rules a link carries, and Learn showing a user's rule.

For each: no exception, one line that says what is wrong, and nothing the user had built is
lost (the builder's choices, the legal page's table). Time is bounded by AppTest's timeout
(a hang fails the test); the readers' own limits are tested in tests/test_fuzz_inputs.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest
from test_app_support import open_page, texts

from tutor.core.share import encode_text
from tutor.rules.schema import RULE_TEMPLATE

BUILDER, LEGAL, LEARN = "pages/builder.py", "pages/legal.py", "pages/learn.py"

ALIAS_BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True))
MERGE_BOMB = "m0: &m0 {x: 1}\n" + "".join(
    f"m{k}: &m{k} {{<<: [*m{k - 1}, *m{k - 1}], y{k}: 1}}\n" for k in range(1, 9)) + "id: [unclosed\n"
GOOD_RULE = RULE_TEMPLATE  # a house rule for sixes (slot "6", id sixes-skip)
INJECTION = """\
id: sneaky
slot: "6"
title: "[Click me](http://evil.example) <b>bold</b>"
summary: "<script>alert(1)</script> :red[red] $x^2$ www.evil.example"
source: {site: "[site](http://evil.example)", section: "<i>s</i>", contributor: "@me"}
text: "# Heading [link](http://evil.example)"
powers:
  - {power: skip, rank: "6"}
"""

# (file name, content, words the one-line message must hold)
NASTY_FRAGMENTS: list[tuple[str, bytes, str]] = [
    ("bomb.yaml", ALIAS_BOMB.encode(), "aliases"),
    ("merge.yaml", MERGE_BOMB.encode(), "aliases"),
    ("deep.yaml", b"[" * 60_000, "nested"),
    ("curly.yaml", b"{a: " * 5_000, "nested"),
    ("huge.yaml", b"id: x\n#" + b"x" * 2_000_000, "too big"),
    ("binary.yaml", bytes(range(256)) * 4, "not a text file"),
    ("nul.yaml", b"id: x\x00\n", ""),
    ("empty.yaml", b"", "mapping"),
    ("scalar.yaml", b"5\n", "mapping"),
    ("list.yaml", b"- a\n- b\n", "mapping"),
    ("examples.yaml", GOOD_RULE.replace("powers:", "examples: 5\npowers:").encode(), "examples"),
    ("powerlist.yaml", GOOD_RULE.replace('power: skip', 'power: [skip]').encode(), "power"),
    ("norank.yaml", GOOD_RULE.replace('rank: "6"', 'rank: "11"').encode(), "rank"),
    ("twice.yaml", (GOOD_RULE + "slot: '7'\n").encode(), "twice"),
    ("number.yaml", GOOD_RULE.replace('rank: "6"', "rank: " + "9" * 5_000).encode(), "number"),
    ("catalogue.yaml", GOOD_RULE.replace("sixes-skip", "nines-lower").encode(), "already a rule"),
    ("variant-preset.yaml", b"preset: [pagat]\nfragments: []\n", "not a preset"),
    ("variant-path.yaml", b"preset: pagat\nfragments: [/etc/passwd]\n", "not a fragment"),
    ("variant-file.yaml", b"preset: pagat\nfragments: [rules/fragments/nines-lower.yaml]\n", "not a fragment"),
    ("variant-shape.yaml", b"preset: pagat\nfragments: 5\n", "fragments"),
    ("variant-key.yaml", b"preset: pagat\nfragments: []\nturn: A\n", "unknown key"),
    ("variant-inline.yaml", ("preset: pagat\nfragments:\n  - " + GOOD_RULE.replace("\n", "\n    ").replace(
        "sixes-skip", "nines-lower").rstrip() + "\n").encode(), "already a rule"),
    ("variant-clash.yaml", b"preset: pagat\nfragments: [sevens-lower, sevens-glass]\n", "both fill the slot"),
]


def _one_line(at: AppTest, prefix: str) -> str:
    errors = [e for e in texts(at.error) if e.startswith(prefix)]
    assert len(errors) == 1, texts(at.error)
    assert "\n" not in errors[0] and len(errors[0]) <= 700, errors[0]
    assert "Traceback" not in errors[0] and "(rules/" not in errors[0], errors[0]  # no file of ours named
    return errors[0]


def _builder_with_a_choice() -> AppTest:
    at = open_page(BUILDER, v="pagat")
    at.radio(key="bld_slot_9").set_value("nines-lower").run()
    return at


@pytest.mark.parametrize("name, data, words", NASTY_FRAGMENTS, ids=[n for n, _, _ in NASTY_FRAGMENTS])
def test_the_builder_refuses_a_nasty_upload_in_one_line_and_keeps_what_was_built(
        name: str, data: bytes, words: str) -> None:
    at = _builder_with_a_choice()
    at.file_uploader(key="bld_upload").upload(name, data, "application/x-yaml").run()
    assert not at.exception
    error = _one_line(at, "Upload refused:")
    assert words in error, error
    assert at.radio(key="bld_slot_9").value == "nines-lower"  # the choice made before is kept
    assert any("pagat+nines-lower" in s for s in texts(at.success))
    at.radio(key="bld_slot_10").set_value("tens-burn-restricted").run()  # and the page goes on working
    assert not at.exception and any("pagat+nines-lower+tens-burn-restricted" in s for s in texts(at.success))


def _rendered(at: AppTest) -> list[str]:
    """Every text the page hands to Markdown, as sent (escapes in place)."""
    out: list[str] = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "title", "header", "subheader"):
        out += texts(getattr(at, kind), raw=True)
    out += [str(o) for r in at.radio for o in r.options]
    return out


def _no_live_markup(at: AppTest) -> None:
    for text in _rendered(at):
        assert not re.search(r"(?<!\\)\]\((?:http|www)", text), text  # no Markdown link
        assert not re.search(r"(?<!\\)<(?:script|b|i)\b", text), text  # no HTML
        assert not re.search(r"(?<!\\):red\[", text), text


def test_a_rule_with_markup_in_its_words_shows_them_as_text_on_the_builder_and_learn() -> None:
    at = _builder_with_a_choice()
    at.file_uploader(key="bld_upload").upload("sneaky.yaml", INJECTION.encode(), "application/x-yaml").run()
    assert not at.exception and not texts(at.error)
    assert str(at.radio(key="bld_slot_6").value).startswith("sneaky@")
    _no_live_markup(at)
    at.button(key="bld_use").click().run()
    assert at.session_state["variant"].id.startswith("pagat+nines-lower+sneaky@")
    at.switch_page(LEARN).run()
    assert not at.exception
    _no_live_markup(at)


def test_a_rule_whose_examples_name_a_file_is_shown_on_learn_without_reading_it() -> None:
    rule = GOOD_RULE + """\
examples:
  - variant: pagat+/etc/passwd
    table: {players: [{name: A, hand: [6H]}, {name: B, hand: 2}], pile: [[4C]], turn: A}
    move: play 6H
    legal: true
  - table: {players: [{name: A, hand: [6H, 6S]}, {name: B, hand: 2}, {name: C, hand: 2}], pile: [[4C]], turn: A}
    move: play 6H
    legal: true
    events: [skip]
    next: C
"""
    at = open_page(BUILDER, v="pagat")
    at.file_uploader(key="bld_upload").upload("six.yaml", rule.encode(), "application/x-yaml").run()
    assert not at.exception and not texts(at.error)
    at.button(key="bld_use").click().run()
    at.switch_page(LEARN).run()
    assert not at.exception
    assert not any("root:" in t for t in _rendered(at))  # nothing of /etc/passwd


# -- the legal page's import -----------------------------------------------------------------

NASTY_TABLES: list[tuple[str, bytes]] = [
    ("bomb.yaml", ALIAS_BOMB.encode()),
    ("merge.yaml", MERGE_BOMB.encode()),
    ("deep.yaml", b"[" * 60_000),
    ("huge.yaml", b"players: []\n#" + b"x" * 2_000_000),
    ("binary.yaml", bytes(range(256)) * 4),
    ("shape.yaml", b"players: 5\nturn: A\n"),
    ("names.yaml", b"players:\n  - {name: '[Click me](http://evil.example)', hand: [7H]}\n  - {name: B, hand: 2}\n"
                   b"pile: [[6C]]\nturn: '[Click me](http://evil.example)'\n"),
    ("html.yaml", b"players:\n  - {name: '<script>x</script>', hand: [7H]}\n  - {name: B, hand: 2}\nturn: A\n"),
    ("variant.yaml", b"variant: pagat+/etc/passwd\nplayers:\n  - {name: A, hand: [7H]}\n  - {name: B, hand: 2}\n"
                     b"turn: A\n"),
    ("many.yaml", b"players:\n" + b"  - {name: P, hand: 1}\n" * 70_000),
    ("number.yaml", b"players:\n  - {name: A, hand: " + b"9" * 5_000 + b"}\n  - {name: B, hand: 2}\nturn: A\n"),
    ("twice.yaml", b"players:\n  - {name: A, hand: [7H]}\n  - {name: B, hand: 2}\nturn: A\nturn: B\n"),
]


def _legal_page() -> AppTest:
    at = open_page(LEGAL, v="pagat")
    at.session_state["lf_edit"] = True  # the editor's fields are drawn only while it is open
    return at.run()


def _legal_form(at: AppTest) -> tuple[Any, ...]:
    """The table the page holds: the editor's first seat and the question it would share."""
    return (at.text_input(key="lf_name_0").value, tuple(at.multiselect(key="lf_hand_0").value),
            at.session_state["variant"].id, at.session_state["_lf_last_q"])


@pytest.mark.parametrize("name, data", NASTY_TABLES, ids=[n for n, _ in NASTY_TABLES])
def test_the_legal_page_refuses_a_nasty_table_upload_and_keeps_its_table(name: str, data: bytes) -> None:
    at = _legal_page()
    before = _legal_form(at)
    at.file_uploader(key="lf_upload").upload(name, data, "application/x-yaml").run()
    assert not at.exception
    _one_line(at, "Not imported:")
    assert _legal_form(at) == before
    _no_live_markup(at)


@pytest.mark.parametrize("name, data", [t for t in NASTY_TABLES if t[0] != "binary.yaml"],
                         ids=[n for n, _ in NASTY_TABLES if n != "binary.yaml"])
def test_the_legal_page_refuses_a_nasty_pasted_table_and_keeps_its_table(name: str, data: bytes) -> None:
    at = _legal_page()
    before = _legal_form(at)
    at.text_area(key="lf_paste").input(data.decode()).run()
    at.button(key="lf_load_paste").click().run()
    assert not at.exception
    _one_line(at, "Not imported:")
    assert _legal_form(at) == before
    _no_live_markup(at)


# -- own rules carried in a link ----------------------------------------------------------------


def _open_with_own(own: str, v: str = "pagat+sixes-skip@6b05a9a6") -> AppTest:
    return open_page(None, v=v, own=own)


def test_a_link_carries_a_variant_with_its_own_rule() -> None:
    at = open_page(BUILDER, v="pagat")
    at.file_uploader(key="bld_upload").upload("six.yaml", GOOD_RULE.encode(), "application/x-yaml").run()
    at.button(key="bld_use").click().run()
    v = at.session_state["variant"].id
    assert v == "pagat+sixes-skip@6b05a9a6"
    link = {k: at.query_params[k] for k in ("v", "own")}
    fresh = open_page(None, **{k: val[0] if isinstance(val, list) else val for k, val in link.items()})
    assert fresh.session_state["variant"].id == v and not texts(fresh.warning) and not fresh.exception
    assert len(str(link["own"])) < 1_000  # a rule of a few lines packs small


@pytest.mark.parametrize("own, words", [
    ("!!!not-base64!!!", "not readable"),
    ("A" * 7_000, "too long"),
    (encode_text("x" * 1_000_000), "too large"),  # a zlib bomb: a few hundred bytes, a megabyte unpacked
    (encode_text(ALIAS_BOMB), "aliases"),
    (encode_text("[" * 60_000), "nested"),
    (encode_text(GOOD_RULE.replace("sixes-skip", "nines-lower")), "already a rule"),
    (encode_text(GOOD_RULE.replace('power: skip', 'power: [skip]')), "power"),
    (",".join([encode_text(GOOD_RULE)] * 5), "at most 4"),
    (encode_text(INJECTION), "link does not carry"),  # a good rule, but not the one the spec names
])
def test_a_link_with_a_damaged_own_rule_falls_back_in_one_line(own: str, words: str) -> None:
    at = _open_with_own(own)
    assert not at.exception
    warnings = texts(at.warning)
    assert len(warnings) == 1 and words in warnings[0] and "\n" not in warnings[0], warnings
    assert at.session_state["variant"].id == "pagat"
    _no_live_markup(at)


# -- random garbage, seeded ----------------------------------------------------------------------

_KEYS = ["id", "slot", "title", "summary", "source", "powers", "examples", "requires", "preset", "fragments",
         "players", "turn", "pile", "power", "rank", "text"]
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.sampled_from(
        ["6", "Q", "skip", "pagat", "[x](http://e.x)", "<b>b</b>", "*a", "&a", "rules/x.yaml", "7H", ""])),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(_KEYS), inner, max_size=5)),
    max_leaves=12)


@settings(max_examples=25, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=7))
def test_random_mappings_uploaded_to_the_builder_never_break_it(data: dict[str, Any]) -> None:
    import yaml

    at = _builder_with_a_choice()
    text = yaml.safe_dump(data, allow_unicode=True)
    at.file_uploader(key="bld_upload").upload("random.yaml", text.encode(), "application/x-yaml").run()
    assert not at.exception
    errors = texts(at.error)
    assert len(errors) <= 1 and all("\n" not in e for e in errors), errors
    assert at.radio(key="bld_slot_9").value == "nines-lower"
    _no_live_markup(at)
