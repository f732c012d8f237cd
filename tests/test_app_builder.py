"""The Rulebook builder's round trips (issue 13 item 7): its download loads back (upload, a
``tutor`` spec, ``tutor validate``), a variant with a rule of the user's own travels in a link,
every rank has a slot, the sidebar's house-rules box picks one rule at a time, and errors
name rules, never files. Nasty uploads are in tests/test_app_uploads.py."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from test_app_support import open_page, texts

from tutor.cli import main
from tutor.rules.schema import RULE_TEMPLATE
from tutor.rules.variant import RANK_SLOTS, SLOTS, build_variant, load_variant, user_fragment
from tutor.teach.sheet import variant_yaml

BUILDER = "pages/builder.py"
SIXES = RULE_TEMPLATE  # a house rule for sixes (slot "6", id sixes-skip)
QUEENS = SIXES.replace("sixes-skip", "queens-reverse").replace('"6"', '"Q"').replace(
    "Sixes make the next player miss a turn", "Queens reverse play").replace("power: skip", "power: reverse")


def test_every_rank_has_a_slot() -> None:
    assert set(RANK_SLOTS) == {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
    assert set(RANK_SLOTS) <= set(SLOTS)
    v = build_variant("pagat", [user_fragment(SIXES, "six.yaml"), user_fragment(QUEENS, "q.yaml")])
    assert v.fragment_for_slot("6").id == "sixes-skip" and v.fragment_for_slot("Q").id == "queens-reverse"
    assert v.skip[4] and v.reverse[10]  # the 6 (rank 4) skips, the queen (rank 10) reverses


def test_the_builder_names_the_ranks_no_rule_covers_and_takes_a_rule_for_them() -> None:
    at = open_page(BUILDER, v="pagat")
    caption = next(c for c in texts(at.caption) if "gives" in c)
    assert caption.startswith("No rule of the catalogue gives the 6, the Q, the K or the A a power")
    assert any(b.label == "A rule to start from" for b in at.get("download_button"))  # type: ignore[attr-defined]
    at.file_uploader(key="bld_upload").upload("six.yaml", SIXES.encode(), "application/x-yaml").run()
    assert not at.exception and not texts(at.error)
    assert str(at.radio(key="bld_slot_6").value).startswith("sixes-skip@")
    assert any("pagat+sixes-skip@" in s for s in texts(at.success))


def test_the_download_loads_back_as_a_spec_with_validate_and_on_the_builder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    at = open_page(BUILDER, v="lancaster")
    at.file_uploader(key="bld_upload").upload("six.yaml", SIXES.encode(), "application/x-yaml").run()
    at.radio(key="bld_slot_2").set_value("twos-pass-on").run()
    built = next(s for s in texts(at.success) if s.startswith("Your variant: "))
    spec = built.removeprefix("Your variant: ").strip("`")
    assert spec == "lancaster+sixes-skip@6b05a9a6+twos-pass-on"
    # the file the Download button gives (the same function the page calls, on the same rules)
    text = variant_yaml(build_variant("lancaster", [user_fragment(SIXES, "six.yaml"), "twos-pass-on"]))
    data = yaml.safe_load(text)
    assert data["preset"] == "lancaster" and data["fragments"][1] == "twos-pass-on"
    assert data["fragments"][0]["id"] == "sixes-skip"  # the user's own rule, written out whole
    path = tmp_path / "my-variant.yaml"
    path.write_text(text, encoding="utf-8")
    # as a tutor spec, and with tutor validate
    assert load_variant(str(path)).id == spec
    assert main(["validate", str(path)]) == 0
    assert f"variant {spec!r}, 15 fragments: OK" in capsys.readouterr().out
    assert main(["rules", str(path)]) == 0 and "Sixes make the next player miss a turn" in capsys.readouterr().out
    # on the builder of a fresh session, as an upload: the rule set and every rule come back
    fresh = open_page(BUILDER, v="pagat")
    fresh.file_uploader(key="bld_upload").upload("my-variant.yaml", text.encode(), "application/x-yaml").run()
    assert not fresh.exception and not texts(fresh.error)
    assert fresh.selectbox(key="bld_preset").value == "lancaster"
    assert fresh.radio(key="bld_slot_2").value == "twos-pass-on"
    assert any(s == f"Your variant: `{spec}`" for s in texts(fresh.success))


def test_an_upload_that_is_refused_changes_nothing_built() -> None:
    at = open_page(BUILDER, v="lancaster")
    at.radio(key="bld_slot_2").set_value("twos-pass-on").run()
    bad = b"preset: pagat\nfragments: [sevens-lower, sevens-glass]\n"
    at.file_uploader(key="bld_upload").upload("v.yaml", bad, "application/x-yaml").run()
    error = next(e for e in texts(at.error) if e.startswith("Upload refused"))
    assert "sevens-lower (“Sevens make the next play a 7 or lower”)" in error and "(rules/" not in error
    assert at.selectbox(key="bld_preset").value == "lancaster"
    assert at.radio(key="bld_slot_2").value == "twos-pass-on"


def test_a_variant_with_its_own_rules_travels_in_a_link() -> None:
    at = open_page(BUILDER, v="pagat")
    for name, rule in (("six.yaml", SIXES), ("q.yaml", QUEENS)):
        at.file_uploader(key="bld_upload").upload(name, rule.encode(), "application/x-yaml").run()
    at.button(key="bld_use").click().run()
    v = at.session_state["variant"].id
    assert v.startswith("pagat+queens-reverse@") and "+sixes-skip@" in v
    link = {k: str(at.query_params[k][0] if isinstance(at.query_params[k], list) else at.query_params[k])
            for k in ("v", "own")}
    assert link["v"] == v and link["own"].count(",") == 1
    fresh = open_page("pages/learn.py", **link)  # a new session, as a friend opening the link
    assert not fresh.exception and not texts(fresh.warning)
    assert fresh.session_state["variant"].id == v
    assert any(f"Variant in use: `{v}`" in c for c in texts(fresh.sidebar.caption, raw=True))


def test_a_rule_too_big_for_a_link_is_said_and_the_link_drops_the_variant() -> None:
    examples = "examples:\n" + "".join(
        f"  - {{note: 'example {k} {'x' * 200}', table: {{players: [{{name: A, hand: [6H]}}, {{name: B, hand: 2}}],"
        f" turn: A}}, move: play 6H, legal: true}}\n" for k in range(150))
    big = SIXES.replace("powers:", f"text: '{' '.join(str(k * 7919 % 10007) for k in range(2500))}'\npowers:")
    at = open_page(BUILDER, v="pagat")
    at.file_uploader(key="bld_upload").upload("big.yaml", (big + examples).encode(), "application/x-yaml").run()
    assert not at.exception and not texts(at.error)
    at.button(key="bld_use").click().run()
    assert "+sixes-skip@" in at.session_state["variant"].id
    assert any("too big to travel in a link" in c for c in texts(at.sidebar.caption))
    assert "v" not in at.query_params and "own" not in at.query_params


def test_the_house_rules_box_keeps_one_rule_per_slot_and_errors_name_rules_not_files() -> None:
    at = open_page("pages/learn.py", v="pagat")
    box = at.sidebar.multiselect(key="sb_frags")
    box.set_value(["sevens-lower", "sevens-glass"]).run()  # two for one slot at once: one is kept
    assert at.session_state["variant"].id in ("pagat+sevens-glass", "pagat+sevens-lower")
    at.sidebar.multiselect(key="sb_frags").set_value(["red-jacks-deflect"]).run()  # needs the superjoker
    errors = texts(at.sidebar.error)
    assert len(errors) == 1 and "needs superjoker (“" in errors[0] and "(rules/" not in errors[0], errors


def test_compares_links_to_the_legal_page_carry_the_own_rule() -> None:
    at = open_page(BUILDER, v="pagat")
    at.file_uploader(key="bld_upload").upload("six.yaml", SIXES.encode(), "application/x-yaml").run()
    at.button(key="bld_use").click().run()
    at.query_params["games"] = "4"
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    links = re.findall(r"\]\((legal\?[^)]+)\)", "\n".join(texts(at.markdown, raw=True)))
    own = [q for q in links if "sixes-skip%40" in q]
    assert own and all("own=" in q for q in own), links[:4]
    query = parse_qs(urlsplit(own[0]).query)
    fresh = open_page("pages/legal.py", v=query["v"][0], own=query["own"][0], q=query["q"][0])
    assert not fresh.exception and fresh.session_state["variant"].id == "pagat+sixes-skip@6b05a9a6"
