"""Garbage in every query parameter a page reads: no exception, a visible fallback (issue 16)."""

from __future__ import annotations

import pytest
from test_app_support import open_page, texts

GARBAGE = ["²", "-1", "9" * 5000, "1000000001", "[Click me](http://evil.example)", "<b>x</b>", "", "  7 "]
PARAMS = {
    "pages/games.py": ["game", "step"],
    "pages/compare.py": ["with", "games", "slow", "seed", "players", "bot"],
    "pages/play.py": ["seed", "seats", "bot"],
    "pages/legal.py": ["q"],
    "pages/learn.py": ["step", "part", "seed"],
    "pages/builder.py": [],
}


@pytest.mark.parametrize("page", sorted(PARAMS))
@pytest.mark.parametrize("value", GARBAGE)
def test_garbage_in_every_parameter(page: str, value: str) -> None:
    params = {name: value for name in PARAMS[page]}
    params["v"] = value if value else "pagat"
    at = open_page(page, **params)  # open_page asserts no exception
    shown = " ".join(texts(at.markdown) + texts(at.caption))
    assert "evil.example)" not in shown.replace("[Click me](http://evil.example)", "")  # never a live link


@pytest.mark.parametrize(("page", "name", "value"), [
    ("pages/games.py", "step", "²"),
    ("pages/compare.py", "games", "99999999"),
    ("pages/play.py", "seed", "-1"),
])
def test_an_out_of_range_value_falls_back_visibly(page: str, name: str, value: str) -> None:
    at = open_page(page, v="pagat", **{name: value})
    assert any("not a whole number" in w for w in texts(at.warning)), texts(at.warning)


def test_the_with_list_is_capped() -> None:
    at = open_page("pages/compare.py", v="pagat", **{"with": ",".join(["lancaster"] * 30), "games": "5"})
    assert any("only the first 4" in w for w in texts(at.warning)), texts(at.warning)


def test_user_text_is_never_markdown() -> None:
    from tutor.core.share import encode_question
    from tutor.webui.safe import md

    at = open_page("pages/legal.py", v="pagat")
    at.text_input(key="lf_move").input("play [X](http://e.vil) :red[y] <b>z</b>").run()
    [error] = [e for e in texts(at.error, raw=True) if "Cannot read" in e]
    assert "[X](http://e.vil)" not in error and md("[X](http://e.vil)") in error
    # a link whose player is called like a link: refused, and the refusal quotes it as text
    q = encode_question({"players": [{"name": "[X](http://e.vil)", "hand": ["7H"]}, {"name": "B", "hand": 3}],
                         "turn": "B"}, "pickup")
    at = open_page("pages/legal.py", v="pagat", q=q)
    notes = " ".join(texts(at.warning, raw=True))
    assert "a name is letters" in " ".join(texts(at.warning)) and "](http" not in notes


def test_md_escapes_what_streamlit_would_render() -> None:
    from tutor.webui.safe import md

    out = md("[a](http://x.y) www.x.y a@b.c :red[r] :material/home: $x$ <b>")
    for live in ("](", "http://", "www.", "@b", ":red", ":material", "$x$", "<b>"):
        assert live not in out, live


@pytest.mark.parametrize(("table", "words"), [
    ({"players": [{"name": f"P{i}", "hand": 2} for i in range(9)], "turn": "P0", "decks": 2}, "not 9"),
    ({"players": [{"name": "A", "hand": 61}, {"name": "B", "hand": 3}], "turn": "A", "decks": 2},
     "61 unseen cards in A's hand"),
    ({"players": [{"name": "A", "hand": 3}, {"name": "B", "hand": 3}], "turn": "A", "stock": 401, "decks": 8},
     "401 unseen stock cards"),
])
def test_a_link_the_form_cannot_show_is_refused_not_changed(table: dict[str, object], words: str) -> None:
    from tutor.core.share import encode_question

    at = open_page("pages/legal.py", v="lancaster+deal-5-5-5-combined", q=encode_question(table, "pickup"))
    notes = " ".join(texts(at.warning))
    assert words in notes and "cannot be used" in notes, notes
