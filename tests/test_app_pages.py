"""The main flow of each page, driven through streamlit's AppTest."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from streamlit.testing.v1 import AppTest
from test_app_support import PRESETS, all_markdown, card_table_data, open_page, send, texts

from tutor.core.share import decode_question, encode_question
from tutor.engine import check
from tutor.play.records import record_catalogue
from tutor.rules.variant import load_variant
from tutor.teach.examples import lessons
from tutor.teach.sheet import variant_yaml

# -- Learn ---------------------------------------------------------------------


def test_learn_opens_on_the_course_and_keeps_the_rest_in_tabs() -> None:
    at = open_page("pages/learn.py", v="lancaster")
    assert [t.label for t in at.tabs] == ["Course", "Quiz", "At a glance", "Lessons", "Rulebook", "House rules sheet"]
    assert texts(at.subheader)[0] == "The table"
    at = open_page("pages/learn.py", v="lancaster", part="glance")
    assert "Eights are transparent and reverse play" in all_markdown(at)
    assert any("What goes on what" in e.label for e in at.expander)


def test_learn_shows_the_rulebook_with_sources() -> None:
    at = open_page("pages/learn.py", v="lancaster", part="rules")
    text = all_markdown(at) + "\n".join(texts(at.caption))
    assert "Eights are transparent and reverse play" in text
    assert "ralpharama.com" in text


@pytest.mark.parametrize("spec", ["pagat", "lancaster"])
def test_every_lesson_answers_under_the_chosen_rules(spec: str) -> None:
    at = open_page("pages/learn.py", v=spec, part="lessons")
    v = load_variant(spec)
    found = lessons(v)
    assert at.selectbox(key="learn_lesson").options and len(found) >= 25
    for ex in found:
        at.selectbox(key="learn_lesson").set_value(f"{ex.fragment}#{ex.index}").run()
        at.button(key="learn_ask").click().run()
        assert not at.exception
        verdicts = texts(at.success) + [e for e in texts(at.error) if e.startswith("**")]
        assert len(verdicts) == 1, (ex.fragment, verdicts)
        assert f"in `{spec}`" in verdicts[0], verdicts[0]  # judged under the chosen variant, never another
        assert ("is legal" in verdicts[0]) == check(ex.table, v, ex.move).legal == bool(ex.expect["legal"])
        assert "The point of this example" in "\n".join(texts(at.info))


@pytest.mark.parametrize("spec", PRESETS)
def test_every_presets_lessons_hold_under_it(spec: str) -> None:
    v = load_variant(spec)
    found = lessons(v)
    assert found, spec
    assert len({(ex.table.to_yaml(), str(ex.move)) for ex in found}) == len(found)  # no lesson twice
    for ex in found:
        assert ex.variant is v
        verdict = check(ex.table, v, ex.move)
        assert verdict.legal == bool(ex.expect["legal"]), (spec, ex.fragment, ex.index, verdict.reason)
        if "next" in ex.expect:
            assert verdict.next_player == ex.expect["next"], (spec, ex.fragment, ex.index)


def test_learn_lets_you_try_an_illegal_move() -> None:
    at = open_page("pages/learn.py", v="pagat", part="lessons")
    radio = at.radio(key="learn_try")
    at.radio(key="learn_try").set_value("play 4D").run()
    assert any("4♦" in o for o in radio.options), radio.options  # moves in words and card faces, not codes
    at.button(key="learn_ask").click().run()
    assert any("not legal" in e for e in texts(at.error))


def test_the_house_rules_sheet_downloads() -> None:
    at = open_page("pages/learn.py", v="lancaster+twos-pass-on", part="sheet")
    labels = [b.proto.label for b in at.get("download_button")]
    assert "House rules sheet (Markdown)" in labels and "Printable house rules (HTML)" in labels


# -- Rulebook builder ---------------------------------------------------------------


def _cell(at: object, row: str, col: str) -> str:
    frame = at.table[0].value  # type: ignore[attr-defined]
    return str(frame.loc[row, col])


def test_choosing_a_fragment_changes_the_matrix() -> None:
    at = open_page("pages/builder.py", v="pagat")
    assert _cell(at, "on 9", "K").startswith("✓")
    at.radio(key="bld_slot_9").set_value("nines-lower").run()
    assert not at.exception
    assert _cell(at, "on 9", "K") == "✗ nines"
    assert any("pagat+nines-lower" in s for s in texts(at.success))
    at.radio(key="bld_slot_2").set_value("twos-play-again").run()
    assert any("pagat+nines-lower+twos-play-again" in s for s in texts(at.success))


def test_changing_the_preset_resets_the_slots() -> None:
    at = open_page("pages/builder.py", v="pagat")
    at.selectbox(key="bld_preset").set_value("lancaster").run()
    assert at.radio(key="bld_slot_10").value == "tens-burn-restricted"
    assert _cell(at, "on 8 (see-through)", "3").startswith("↓")


def test_the_assembled_variant_downloads_as_a_file_tutor_reads(tmp_path: Path) -> None:
    at = open_page("pages/builder.py", v="lancaster")
    at.radio(key="bld_slot_2").set_value("twos-pass-on").run()
    assert any(b.proto.label.startswith("Download (YAML)") for b in at.get("download_button"))
    v = load_variant("lancaster+twos-pass-on")
    text = variant_yaml(v)
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")
    assert yaml.safe_load(text)["fragments"] == ["twos-pass-on"]
    assert load_variant(str(path)).id == "lancaster+twos-pass-on"


MY_RULE = """\
id: sevens-low
slot: "7"
title: Sevens make the next play lower
summary: The player after a 7 must play a 7 or lower.
source: {site: my kitchen table, section: house rules, contributor: me}
powers:
  - {power: anywhere, rank: "7"}
"""


@pytest.mark.parametrize("content, words", [
    (b"id: [unclosed", "line"),
    (b"- just\n- a list\n", "mapping"),
    (b"id: x\nslot: nowhere\ntitle: t\nsummary: s\n", "not a slot"),
    (MY_RULE.replace('power: anywhere', 'power: fly').encode(), "fly"),
    (b"\xff\xfe\x00", "not a text file"),
    (MY_RULE.replace("sevens-low", "core").encode(), "already a rule"),
])
def test_a_bad_upload_is_refused_and_the_page_keeps_working(content: bytes, words: str) -> None:
    at = open_page("pages/builder.py", v="pagat")
    at.file_uploader(key="bld_upload").upload("mine.yaml", content, "application/x-yaml").run()
    assert not at.exception
    errors = texts(at.error)
    assert len(errors) == 1 and words in errors[0] and "\n" not in errors[0], errors
    at.radio(key="bld_slot_9").set_value("nines-lower").run()
    assert _cell(at, "on 9", "K") == "✗ nines"


def test_a_good_upload_joins_the_variant() -> None:
    at = open_page("pages/builder.py", v="pagat")
    at.file_uploader(key="bld_upload").upload("sevens.yaml", MY_RULE.encode(), "application/x-yaml").run()
    assert not at.exception and not at.error, texts(at.error)
    assert str(at.radio(key="bld_slot_7").value).startswith("sevens-low@")
    assert any("pagat+sevens-low@" in s for s in texts(at.success))
    at.button(key="bld_use").click().run()
    assert at.session_state["variant"].id.startswith("pagat+sevens-low@")


# -- Sample games -------------------------------------------------------------------


def test_stepping_through_a_game() -> None:
    at = open_page("pages/games.py", v="pagat")
    rec = record_catalogue()["lancaster-example"]
    assert at.query_params["game"] in ("lancaster-example", ["lancaster-example"])
    at.button(key="games_next").click().run()
    at.button(key="games_next").click().run()
    assert at.slider(key="games_step").value == 2
    assert f"Move 2 of {len(rec.steps)}" in all_markdown(at)
    assert rec.steps[1].note[:30] in all_markdown(at)
    at.button(key="games_back").click().run()
    assert at.slider(key="games_step").value == 1
    at.button(key="games_end").click().run()
    assert at.slider(key="games_step").value == len(rec.steps)
    assert at.button(key="games_next").disabled
    at.button(key="games_start").click().run()
    assert at.slider(key="games_step").value == 0
    assert at.query_params["step"] in ("0", ["0"])


@pytest.mark.parametrize("game", list(record_catalogue()))
def test_every_game_opens_at_a_move_from_its_link_in_every_view(game: str) -> None:
    rec = record_catalogue()[game]
    at = open_page("pages/games.py", game=game, step=str(len(rec.steps)))
    assert at.selectbox(key="games_game").value == game
    assert f"Move {len(rec.steps)} of {len(rec.steps)}" in all_markdown(at)
    for seat in ["all", *(p.name for p in rec.start.players)]:
        at.segmented_control(key="games_seat").set_value(seat).run()
        assert not at.exception
    caps = "\n".join(texts(at.caption))
    assert f"As {rec.start.players[-1].name} sees it" in caps


def test_a_bad_game_in_the_link_falls_back() -> None:
    at = open_page("pages/games.py", game="no-such-game", step="zz")
    assert any("does not exist" in e for e in texts(at.error))
    assert at.slider(key="games_step").value == 0


# -- Is this move legal? -------------------------------------------------------------


def _verdicts(at: object) -> list[str]:
    return texts(at.success) + [e for e in texts(at.error) if e.startswith("**")]  # type: ignore[attr-defined]


def test_the_example_question_and_the_sidebar_rejudges_it() -> None:
    at = open_page("pages/legal.py", v="pagat")
    assert _verdicts(at) == ["**Play two 7s (7♥ 7♠)** (`play 7H 7S`) is not legal in `pagat`. Two 7s do not beat the 8."]
    at.sidebar.selectbox(key="sb_preset").set_value("lancaster").run()
    [verdict] = _verdicts(at)
    assert verdict.startswith("**Play two 7s (7♥ 7♠)** (`play 7H 7S`) is legal in `lancaster`")
    assert "transparent 8" in verdict
    assert "eights-transparent-reverse" in all_markdown(at)


def _editor(at: AppTest) -> AppTest:
    """Open "Edit every card" (its fields are drawn only while it is open)."""
    at.session_state["lf_edit"] = True
    return at.run()


def _small_table(at: AppTest) -> None:
    """A holds 10S and 5D, B three unseen cards, a king on the pile, no stock."""
    _editor(at)
    at.number_input(key="lf_n").set_value(2).run()
    at.multiselect(key="lf_hand_0").set_value(["10S", "5D"]).run()
    at.number_input(key="lf_hand_unseen_1").set_value(3).run()
    at.number_input(key="lf_plays").set_value(1).run()
    at.multiselect(key="lf_play_0").set_value(["KC"]).run()
    at.number_input(key="lf_stock_unseen").set_value(0).run()


def test_build_a_table_ask_and_get_the_verdict() -> None:
    at = open_page("pages/legal.py", v="pagat")
    _small_table(at)
    assert not [e for e in texts(at.error) if not e.startswith("**")], texts(at.error)
    at.text_input(key="lf_move").input("play 10S").run()
    [verdict] = _verdicts(at)
    assert "is legal" in verdict and "burns" in verdict
    assert "the pile is burned" in all_markdown(at)
    pills = at.pills[0]
    assert "play 5D" not in pills.options and "play 10S" in pills.options
    pills.set_value("pickup").run()
    assert at.text_input(key="lf_move").value == "pickup"
    assert _verdicts(at)[0].startswith("**Pick up the pile** (`pickup`) is legal")


def test_invalid_tables_say_what_is_wrong_and_keep_the_input() -> None:
    at = _editor(open_page("pages/legal.py", v="pagat"))
    at.multiselect(key="lf_up_1").select("7H").run()
    errors = texts(at.error)
    # where the copies are, and the table still drawn with both marked
    assert any("7♥ is there 2 times (in A's hand and face up before B), but 1 pack holds 1" in e
               for e in errors), errors
    marked = card_table_data(at, "lf_table")["table"]
    assert marked["marks"] == ["s0h1", "s1u3"]
    assert marked["seats"][0]["hand"][1] == marked["seats"][1]["up"][3][0] == "7H"
    assert "7H" in at.multiselect(key="lf_up_1").value
    assert not _verdicts(at)
    at.multiselect(key="lf_up_1").unselect("7H").run()
    assert _verdicts(at)
    # a finished player to move
    for key in ("lf_hand_0", "lf_up_0"):
        at.multiselect(key=key).set_value([]).run()
    at.number_input(key="lf_down_unseen_0").set_value(0).run()
    assert any("has no cards left" in e for e in texts(at.error))
    # cards and an unseen count in the face-down row
    at.multiselect(key="lf_down_1").set_value(["2S"]).run()
    assert any("not both" in e for e in texts(at.error))


def test_a_partly_seen_hand_is_cards_seen_and_a_count() -> None:
    at = _editor(open_page("pages/legal.py", v="pagat"))
    unseen = at.number_input(key="lf_hand_unseen_1").value
    assert unseen > 0
    at.multiselect(key="lf_hand_1").set_value(["2S"]).run()  # seen going in at a pickup
    assert not any("not both" in e or "table" in e for e in texts(at.error)), texts(at.error)
    assert _verdicts(at)
    at.text_input(key="lf_move").input("pickup").run()
    q = at.query_params["q"]
    table = decode_question(q[0] if isinstance(q, list) else q).table
    assert table["players"][1]["hand"] == {"seen": ["2S"], "unseen": unseen}
    again = _editor(open_page("pages/legal.py", v="pagat", q=q[0] if isinstance(q, list) else q))
    assert again.multiselect(key="lf_hand_1").value == ["2S"]
    assert again.number_input(key="lf_hand_unseen_1").value == unseen


def test_a_bad_move_is_a_one_line_error() -> None:
    at = open_page("pages/legal.py", v="pagat")
    at.text_input(key="lf_move").input("play ZZ").run()
    [error] = [e for e in texts(at.error) if "Cannot read" in e]
    assert "'ZZ' is not a card" in error
    assert at.text_input(key="lf_move").value == "play ZZ"


def test_the_link_reopens_the_same_question() -> None:
    at = open_page("pages/legal.py", v="lancaster")
    at.text_input(key="lf_move").input("play KD").run()
    q = at.query_params["q"]
    q = q[0] if isinstance(q, list) else q
    assert decode_question(q).move == "play KD"
    again = _editor(open_page("pages/legal.py", v="lancaster", q=q))
    _editor(at)
    assert _verdicts(again) == _verdicts(at)
    assert again.multiselect(key="lf_hand_0").value == at.multiselect(key="lf_hand_0").value


def test_a_link_keeps_the_phase_the_claims_and_a_lost_player() -> None:
    # the editor holds what the table file says beyond cards: Lancaster's opening (only the lowest
    # card may lead), Bluff's claims, and Nortenos' player who lost at once (the others play on)
    opening = {"players": [{"name": "A", "hand": ["3C", "6D", "9S"]}, {"name": "B", "hand": ["5H", "8C", "KS"]}],
               "turn": "A", "phase": "opening"}
    at = _editor(open_page("pages/legal.py", v="lancaster", q=encode_question(opening, "play 6D")))
    [verdict] = _verdicts(at)
    assert "is not legal" in verdict and at.selectbox(key="lf_phase").value == "opening"
    bluff = {"players": [{"name": "A", "hand": ["3C", "6D", "9S"]}, {"name": "B", "hand": 3}],
             "pile": [{"by": "B", "cards": ["7H"], "claim": "Q"}], "turn": "A"}
    at = _editor(open_page("pages/legal.py", v="bluff", q=encode_question(bluff, "play 3C as 5")))
    assert at.selectbox(key="lf_claim_0").value == "Q"
    assert "is not legal" in _verdicts(at)[0]  # a 5 claimed on a claimed queen
    run = {"players": [{"name": "A", "hand": ["TC", "JC"]}, {"name": "B", "hand": 3}],
           "pile": [{"by": "B", "cards": ["7S", "8S", "9S"], "claim": "7-9"}], "turn": "A"}
    at = _editor(open_page("pages/legal.py", v="bluff", q=encode_question(run, "play TC JC as 10-J")))
    assert at.selectbox(key="lf_claim_0").value == "7-9"
    assert "is legal" in _verdicts(at)[0]  # a run goes on the run's last rank, one higher
    count = {"players": [{"name": "A", "hand": ["8C", "8D", "4H"]}, {"name": "B", "hand": 3}],
             "pile": [{"by": "B", "cards": ["7S"], "claim": "7x2"}], "turn": "A"}
    at = _editor(open_page("pages/legal.py", v="bluff", q=encode_question(count, "play 8C 8D 4H as 8x2")))
    box = at.selectbox(key="lf_claim_0")
    assert box.value == "7x2" and "7x2: two 7s, whatever number of cards is down" in box.options  # one card said to be two
    assert "is legal" in _verdicts(at)[0]  # a double (a 4 under it) on the claimed double
    assert any("such plays are legal too but not listed" in c.value for c in at.caption)  # under every legal move
    lost = {"players": [{"name": "A", "lost": True}, {"name": "B", "hand": ["9D", "KS"]}, {"name": "C", "hand": ["6S"]}],
            "pile": [["7H"]], "burned": ["3C"], "turn": "B"}
    at = _editor(open_page("pages/legal.py", v="nortenos+threes-slide+fours-reset", q=encode_question(lost, "play 9D")))
    [verdict] = _verdicts(at)
    assert "is legal" in verdict and "game is over" not in verdict
    assert at.checkbox(key="lf_lost_0").value


def test_a_damaged_link_warns_and_shows_the_example() -> None:
    at = open_page("pages/legal.py", q="garbage!")
    assert any("cannot be used" in w for w in texts(at.warning))
    impossible = encode_question({"players": [{"name": "A", "hand": ["7H"]}, {"name": "B", "hand": ["7H"]}],
                                  "turn": "A"}, "play 7H")
    at = open_page("pages/legal.py", q=impossible)
    assert any("7H appears 2 times" in w for w in texts(at.warning))
    assert _verdicts(at)


GOOD_TABLE = """\
variant: lancaster
players:
  - {name: X, hand: [9H, 9S, 3C]}
  - {name: Y, hand: 2}
pile: [[5C]]
turn: X
"""


def test_import_a_table_file_and_export_it() -> None:
    at = _editor(open_page("pages/legal.py", v="pagat"))
    at.text_area(key="lf_paste").input(GOOD_TABLE).run()
    at.button(key="lf_load_paste").click().run()
    assert not at.exception
    assert at.session_state["variant"].id == "lancaster"
    assert at.text_input(key="lf_name_0").value == "X"
    assert at.multiselect(key="lf_hand_0").value == ["3C", "9H", "9S"]
    at.file_uploader(key="lf_upload").upload("t.yaml", b"players: [oops", "application/x-yaml").run()
    errors = texts(at.error)
    assert any(e.startswith("Not imported: t.yaml") for e in errors), errors
    assert at.text_input(key="lf_name_0").value == "X"


def test_the_quick_question_settles_an_argument_in_a_few_entries() -> None:
    """Lancaster, two 7s on an 8: rules, pile, hand, play; the verdict is the first answer on the page."""
    at = open_page("pages/legal.py", v="pagat")
    at.selectbox(key="lf_q_rules").set_value("lancaster").run()
    at.text_input(key="lf_q_pile").input("6 8").run()
    at.text_input(key="lf_q_hand").input("7 7 K").run()
    at.text_input(key="lf_q_play").input("7 7").run()
    assert not at.exception
    assert at.session_state["variant"].id == "lancaster"
    [verdict] = _verdicts(at)
    assert verdict.startswith("**Play two 7s (7♥ 7♠)** (`play 7H 7S`) is legal in `lancaster`"), verdict
    table = card_table_data(at, "lf_table")["table"]
    assert table["seats"][0]["name"] == "You" and table["seats"][0]["hand"] == ["7H", "7S", "KS"]
    assert [p["cards"] for p in table["pile"]] == [["6S"], ["8S"]]
    assert set(table["seats"][1]["hand"]) == {"??"}  # the others: unseen hands
    # the verdict comes before the table and before the form's fields
    order = [type(e).__name__ for e in at.main]
    assert order.index("Success") < order.index("UnknownElement")


def test_the_quick_question_says_what_it_cannot_read() -> None:
    at = open_page("pages/legal.py", v="pagat")
    at.text_input(key="lf_q_hand").input("7 Z").run()
    assert any("'Z' is neither a card" in e for e in texts(at.error)), texts(at.error)
    assert not at.exception


def test_tapped_cards_ask_about_their_play() -> None:
    at = open_page("pages/legal.py", v="pagat")
    send(at, "lf_table", "ask", "play KD")
    assert at.text_input(key="lf_move").value == "play KD"
    assert _verdicts(at)[0].startswith("**Play a king (K♦)** (`play KD`) is legal")
    send(at, "lf_table", "ask", "pickup")
    assert _verdicts(at)[0].startswith("**Pick up the pile** (`pickup`) is")


def test_packs_follow_the_variant_until_set_by_hand() -> None:
    at = _editor(open_page("pages/legal.py", v="pagat"))
    assert at.number_input(key="lf_decks").value == 1
    at.sidebar.selectbox(key="sb_preset").set_value("lancaster").run()
    at.number_input(key="lf_n").set_value(4).run()
    assert at.number_input(key="lf_decks").value == 2  # Lancaster: two packs for four players
    at.multiselect(key="lf_up_1").select("7H#2").run()  # the second pack's 7H
    assert not [e for e in texts(at.error) if not e.startswith("**")]
    at.number_input(key="lf_decks").set_value(3).run()
    at.number_input(key="lf_n").set_value(3).run()
    assert at.number_input(key="lf_decks").value == 3  # set by hand: it stays


def test_an_empty_table_to_build_on() -> None:
    at = open_page("pages/legal.py", v="pagat")
    at.button(key="lf_empty").click().run()
    assert not at.exception
    table = card_table_data(at, "lf_table")["table"]
    assert all(s["hand"] == ["??"] * 3 and s["down"] == ["??"] * 3 for s in table["seats"])
    assert not table["pile"]
    at.button(key="lf_example").click().run()
    assert _verdicts(at)


def test_build_a_table_by_tapping() -> None:
    """From an empty table: a king on the pile, a 5 and a 10 into A's hand, then ask."""
    at = open_page("pages/legal.py", v="pagat")
    at.button(key="lf_empty").click().run()
    at.segmented_control(key="lf_tap_mode").set_value("build").run()
    assert card_table_data(at, "lf_table")["mode"] == "edit"
    for change in ("add pile new KC", "add hand 0 5D", "add hand 0 10S", "remove hand 0 ??"):
        send(at, "lf_table", "edit", change)
        assert not at.exception
    table = card_table_data(at, "lf_table")["table"]
    assert [p["cards"] for p in table["pile"]] == [["KC"]]
    # two unseen cards of A's turned out to be the 5 and the 10, and one was taken out
    assert table["seats"][0]["hand"] == ["5D", "10S"]
    send(at, "lf_table", "edit", "remove pile 0 KC")
    assert card_table_data(at, "lf_table")["table"]["pile"] == []
    send(at, "lf_table", "edit", "add pile new KC")
    send(at, "lf_table", "edit", "turn 1")
    assert card_table_data(at, "lf_table")["table"]["turn"] == 1
    send(at, "lf_table", "edit", "turn 0")
    at.segmented_control(key="lf_tap_mode").set_value("ask").run()
    send(at, "lf_table", "ask", "play 10S")
    [verdict] = _verdicts(at)
    assert "is legal" in verdict and "burns" in verdict
    # a second copy of a card in a one-pack game: the table says where both are, and marks them
    at.segmented_control(key="lf_tap_mode").set_value("build").run()
    send(at, "lf_table", "edit", "add up 1 10S")
    assert any("10♠ is there 2 times (in A's hand and face up before B)" in e for e in texts(at.error))
    assert card_table_data(at, "lf_table")["table"]["marks"] == ["s0h1", "s1u0"]
    send(at, "lf_table", "edit", "remove up 1 10S")
    assert not [e for e in texts(at.error) if not e.startswith("**")]


@pytest.mark.parametrize("change", ["add hand 9 7H", "add up 0 ??", "fly away", "add hand 0 ZZ", "remove pile 7 7H",
                                    "turn x", "add pile new ??"])
def test_a_bad_change_from_the_table_is_one_line_and_changes_nothing(change: str) -> None:
    at = open_page("pages/legal.py", v="pagat")
    at.segmented_control(key="lf_tap_mode").set_value("build").run()
    before = card_table_data(at, "lf_table")["table"]
    send(at, "lf_table", "edit", change)
    assert not at.exception
    assert card_table_data(at, "lf_table")["table"] == before
    notes = texts(at.warning)
    assert all("\n" not in n for n in notes)


def test_what_would_you_play_gives_the_advisors_hint() -> None:
    at = open_page("pages/legal.py", v="pagat")
    _small_table(at)
    at.button(key="lf_hint").click().run(timeout=60)
    text = all_markdown(at)
    assert "The idea" in text and "play 10S" in text


def test_every_event_the_engine_sends_has_words_on_the_page() -> None:
    from tutor.core.reasons import Event
    from tutor.webui.verdict_view import EVENT_WORDS, events_text

    assert set(EVENT_WORDS) == {e.value for e in Event}
    assert events_text(("caught", "pickup")) == "🔎 the call finds a lie; ✋ the pile goes into the hand"
