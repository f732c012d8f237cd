"""Composition: presets, fragments over them, slot clashes, canonical ids, user fragments."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.core.errors import TutorError, VariantError
from tutor.rules.variant import build_variant, fragment_from_data, load_variant


def test_presets_load() -> None:
    pagat, lanc = load_variant("pagat"), load_variant("lancaster")
    assert (pagat.down, pagat.up, pagat.hand, pagat.decks_for(4)) == (3, 3, 3, 1)
    assert (lanc.down, lanc.up, lanc.hand, lanc.decks_for(4)) == (4, 4, 4, 2)
    assert pagat.voluntary_pickup and not lanc.voluntary_pickup
    assert pagat.after_pickup == "next" and lanc.after_pickup == "same"


def test_fragment_replaces_same_slot_and_says_so() -> None:
    v = load_variant("lancaster+twos-pass-on")
    assert v.fragment_for_slot("2").id == "twos-pass-on"  # type: ignore[union-attr]
    assert v.replaced == (("twos-play-again", "twos-pass-on"),)
    assert v.setting_origin("hand") == "deal-4-4-4"


def test_canonical_id_is_sorted_and_drops_preset_fragments() -> None:
    a = load_variant("pagat+after-pickup-same+must-play-if-able")
    b = load_variant("pagat+must-play-if-able+after-pickup-same+twos-reset")
    assert a.id == b.id == "pagat+after-pickup-same+must-play-if-able"
    assert load_variant(a.id).id == a.id


def test_two_fragments_in_one_slot_name_both_files() -> None:
    with pytest.raises(VariantError) as err:
        load_variant("pagat+twos-pass-on+twos-play-again")
    msg = str(err.value)
    assert "rules/fragments/twos-pass-on.yaml" in msg and "rules/fragments/twos-play-again.yaml" in msg


@pytest.mark.parametrize("spec, part", [("nope", "'nope' is not a preset"),
                                        ("pagat+nope", "'nope' is not a fragment"),
                                        ("twos-reset", "is a fragment"),
                                        ("pagat++", "empty name")])
def test_unknown_names_fail_loudly(spec: str, part: str) -> None:
    with pytest.raises(VariantError, match=part):
        load_variant(spec)


def test_settings_remember_their_fragment() -> None:
    v = load_variant("lancaster")
    assert v.origin[6]["transparent"] == "eights-transparent-reverse"  # rank index 6 is the 8
    assert v.origin[7]["after"] == "nines-lower"
    assert v.setting_origin("voluntary_pickup") == "must-play-if-able"


def test_user_fragment_file(tmp_path: Path) -> None:
    frag = {
        "id": "nines-reset", "slot": "9", "title": "Nines reset", "summary": "A 9 resets like a 2.",
        "source": {"site": "our table", "section": "house rules"},
        "powers": [{"power": "anywhere", "rank": "9"}, {"power": "reset", "rank": "9"}],
    }
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump(frag))
    v = load_variant(f"lancaster+{path}")
    assert v.fragment_for_slot("9").id == "nines-reset"  # type: ignore[union-attr]
    assert v.id.startswith("lancaster+nines-reset@")
    v2 = build_variant("lancaster", [fragment_from_data(frag, "upload.yaml")])
    assert v2.id == v.id


@pytest.mark.parametrize(
    "bad, part",
    [
        ({"id": "x"}, "slot: missing"),
        ({"id": "x", "slot": "nine", "title": "t", "summary": "s"}, "is not a slot"),
        ({"id": "x", "slot": "9", "title": "t", "summary": "s", "source": {"site": "a", "section": "b"},
          "powers": [{"power": "exec", "code": "rm -rf /"}]}, "unknown power 'exec'"),
        ({"id": "x", "slot": "9", "title": "t", "summary": "s", "source": {"site": "a", "section": "b"},
          "powers": [{"power": "burn"}]}, "needs rank"),
        ({"id": "x", "slot": "9", "title": "t", "summary": "s", "source": {"site": "a", "section": "b"},
          "powers": [{"power": "burn", "rank": "11"}]}, "is not a rank"),
        ({"id": "x", "slot": "9", "title": "t", "summary": "s", "source": {"site": "a", "section": "b"},
          "powers": [{"power": "burn", "rank": "9", "colour": "red"}]}, "takes no"),
        ("just text", "a fragment file is a mapping"),
    ],
)
def test_malformed_fragments_are_refused_whole(bad: object, part: str) -> None:
    with pytest.raises(VariantError, match=part):
        fragment_from_data(bad, "mine.yaml")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("pagtlncsr+-wo.yml/ ")), max_size=30))
def test_spec_loader_raises_only_our_errors(spec: str) -> None:
    try:
        load_variant(spec)
    except TutorError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["id", "slot", "title", "summary", "source", "powers", "examples"]),
                       st.one_of(st.text(max_size=5), st.integers(), st.lists(st.dictionaries(
                           st.sampled_from(["power", "rank", "count", "method"]),
                           st.one_of(st.sampled_from(["burn", "skip", "9", "deal", "x"]), st.integers(-1, 9)),
                           max_size=3), max_size=3), st.none()), max_size=7))
def test_fragment_loader_raises_only_our_errors(data: dict[str, object]) -> None:
    try:
        fragment_from_data(data, "f.yaml")
    except TutorError:
        pass


def test_warnings_for_rules_that_cannot_fire() -> None:
    from tutor.rules.variant import warnings_for

    v = load_variant("lancaster")
    assert any("two players" in w for w in warnings_for(v, 2))
    assert not warnings_for(v, 4)
    assert warnings_for(load_variant("pagat"), 9)


def test_requires_names_both_files() -> None:
    with pytest.raises(VariantError) as err:
        load_variant("pagat+red-jacks-deflect")
    msg = str(err.value)
    assert "red-jacks-deflect (rules/fragments/red-jacks-deflect.yaml) needs superjoker" in msg
    assert "rules/fragments/superjoker.yaml" in msg


def test_user_fragment_errors_give_file_line_and_key(tmp_path: Path) -> None:
    from tutor.rules.variant import load_fragment_text

    text = ("id: mine\nslot: '9'\ntitle: t\nsummary: s\nsource: {site: a, section: b}\n"
            "powers:\n  - {power: anywhere, rank: '9'}\n  - power: reset\n    rank: eleven\n")
    with pytest.raises(VariantError) as err:
        load_fragment_text(text, "mine.yaml")
    assert str(err.value).startswith("mine.yaml: line 9: powers[1]: rank: 'eleven' is not a rank")


def test_schema_covers_every_power() -> None:
    from tutor.rules.powers import POWERS
    from tutor.rules.schema import fragment_schema

    schema = fragment_schema()
    names = {p["properties"]["power"]["const"] for p in schema["properties"]["powers"]["items"]["oneOf"]}
    assert names == set(POWERS)
