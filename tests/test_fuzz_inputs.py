"""Bad input gets one line, never a traceback, a hang or unbounded memory (issue 16).

Seeded and bounded: hypothesis runs derandomized with a fixed number of examples, and the
command-line cases run in a subprocess with a memory cap and a time limit.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.core import safeyaml
from tutor.core.errors import MAX_MESSAGE, TutorError
from tutor.core.moves import Move
from tutor.core.share import ShareError, decode_question, encode_question
from tutor.core.table import read_table_text, table_from_dict
from tutor.rules.variant import fragment_from_data, load_fragment_text, load_variant

ROOT = Path(__file__).resolve().parent.parent
FUZZ = settings(max_examples=150, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

# -- YAML that explodes or nests ------------------------------------------------------------

BOMB = ("a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n")
MERGE_BOMB = "m: &m {a: 1}\n" + "".join(f"m{i}: &m{i} {{<<: [*m{i - 1 if i else ''}, *m]}}\n" for i in range(8))
NASTY_TEXTS = {
    "alias bomb in turn": BOMB + "players: [{name: A, hand: 3}, {name: B, hand: 3}]\nturn: *d\n",
    "alias bomb in a name": BOMB + "players: [{name: *d, hand: 3}, {name: B, hand: 3}]\nturn: A\n",
    "merge bomb": MERGE_BOMB + "players: []\n",
    "deep list": "players: " + "[" * 60_000 + "\n",
    "deep map": "players: " + "{a: " * 5_000 + "\n",
    "long number": "decks: " + "9" * 5_000 + "\nplayers: []\nturn: A\n",
    "duplicate key": "players: [{name: A, hand: 3}, {name: B, hand: 3}]\nturn: A\nturn: B\n",
    "huge": "players: [" + "{name: x, hand: 3}, " * 70_000 + "]\n",
    "not text": "\x00\x01\x02",
}


@pytest.mark.parametrize("name", sorted(NASTY_TEXTS))
def test_nasty_tables_are_refused_in_one_short_line(name: str) -> None:
    with pytest.raises(TutorError) as info:
        raw = read_table_text(NASTY_TEXTS[name], "t.yaml")
        table_from_dict(raw, where="t.yaml")
    msg = str(info.value)
    assert msg.startswith("t.yaml") and "\n" not in msg and len(msg) <= MAX_MESSAGE


@pytest.mark.parametrize("name", sorted(NASTY_TEXTS))
def test_nasty_fragments_are_refused_in_one_short_line(name: str) -> None:
    with pytest.raises(TutorError) as info:
        load_fragment_text(NASTY_TEXTS[name], "f.yaml")
    assert "\n" not in str(info.value) and len(str(info.value)) <= MAX_MESSAGE


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(TutorError, match="not a regular file|a directory"):
            safeyaml.read_file(path)
    big = tmp_path / "big.yaml"
    big.write_text("x: " + "y" * (safeyaml.MAX_BYTES + 10))
    with pytest.raises(TutorError, match="at most"):
        safeyaml.read_file(big)


# -- random structures where a fragment, a table or a link expects a shape -------------------

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.text(max_size=12), st.sampled_from(["7", "JK", "A", "skip", "burn", "pagat", "²", "-1"]))
VALUES = st.recursive(SCALARS, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                      st.dictionaries(st.text(max_size=8), kids, max_size=4)),
                      max_leaves=20)
FRAG_KEYS = ["id", "slot", "title", "summary", "source", "powers", "examples", "requires", "conflicts",
             "implies", "text", "reading"]
POWER_KEYS = ["power", "rank", "count", "as", "min", "max", "decks", "down", "up", "hand", "method", "target"]
TABLE_KEYS = ["players", "pile", "stock", "burned", "turn", "direction", "decks", "phase", "variant"]


def _fragment() -> st.SearchStrategy[dict[str, Any]]:
    power = st.dictionaries(st.sampled_from(POWER_KEYS), VALUES, max_size=4)
    good = {"id": "fuzz-rule", "slot": "7", "title": "t", "summary": "s",
            "source": {"site": "me", "section": "x"}}
    return st.builds(lambda over, powers: {**good, **over, "powers": powers},
                     st.dictionaries(st.sampled_from(FRAG_KEYS), VALUES, max_size=3),
                     st.one_of(VALUES, st.lists(st.one_of(power, VALUES), max_size=3)))


@FUZZ
@given(_fragment())
def test_any_fragment_shape_is_loaded_or_refused(data: dict[str, Any]) -> None:
    try:
        fragment_from_data(data, "f.yaml")
    except TutorError as exc:
        assert "\n" not in str(exc) and len(str(exc)) <= MAX_MESSAGE


def _table() -> st.SearchStrategy[dict[str, Any]]:
    player = st.dictionaries(st.sampled_from(["name", "hand", "face_up", "face_down"]),
                             st.one_of(VALUES, st.lists(st.sampled_from(["7H", "KD", "JK", "10S", "7h"]), max_size=5)),
                             max_size=4)
    return st.builds(lambda over, players: {"turn": "A", **over, "players": players},
                     st.dictionaries(st.sampled_from(TABLE_KEYS), VALUES, max_size=4),
                     st.one_of(VALUES, st.lists(player, max_size=4)))


@FUZZ
@given(_table(), st.sampled_from(["pagat", "lancaster", "bluff", "tauko-hogni"]))
def test_any_table_shape_is_loaded_or_refused(data: dict[str, Any], spec: str) -> None:
    from tutor.rules.variant import load_table

    try:
        load_table(data, load_variant(spec), where="t.yaml")
    except TutorError as exc:
        assert "\n" not in str(exc) and len(str(exc)) <= MAX_MESSAGE


@FUZZ
@given(st.text(max_size=40) | st.sampled_from(["flip ²", "flip " + "9" * 5000, "play 7H swap 4H from B ²",
                                               "play 7H as ²", "flip 0", "flip -1", "play " + "7H " * 300]))
def test_any_move_text_is_read_or_refused(text: str) -> None:
    try:
        Move.parse(text)
    except TutorError as exc:
        assert "\n" not in str(exc) and len(str(exc)) <= MAX_MESSAGE


@pytest.mark.parametrize("payload", [
    '{"table": {"decks": ' + "9" * 5000 + '}, "move": ""}',
    '{"table": ' + "[" * 60_000 + "]" * 60_000 + ', "move": ""}',
    '{"table": {}, "move": "flip \u00b2"}',
])
def test_damaged_links_are_one_line(payload: str) -> None:
    import base64
    import zlib

    code = base64.urlsafe_b64encode(zlib.compress(payload.encode(), 9)).decode().rstrip("=")
    try:
        q = decode_question(code)
    except ShareError:
        return
    with pytest.raises(TutorError):
        table_from_dict(q.table, where="link")
        Move.parse(q.move)


def test_a_good_link_still_reads() -> None:
    q = decode_question(encode_question({"players": [], "turn": "A"}, "play 7H"))
    assert q.move == "play 7H"


# -- the command line, in a subprocess with a memory cap and a time limit ---------------------


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))


def _tutor(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tutor", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, preexec_fn=_limit, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("case", ["bomb", "deep", "fifo", "zero", "dir", "flip", "powerlist", "examples5",
                                  "presetlist", "fifo-fragment"])
def test_the_command_line_answers_bad_input_in_one_line(case: str, tmp_path: Path) -> None:
    table = tmp_path / "t.yaml"
    table.write_text(yaml.safe_dump({"players": [{"name": "A", "hand": ["7H"], "face_down": 2},
                                                 {"name": "B", "hand": 3}], "pile": [["5C"]], "turn": "A"}))
    frag = tmp_path / "f.yaml"
    good = {"id": "fuzz-rule", "slot": "7", "title": "t", "summary": "s", "source": {"site": "me", "section": "x"}}
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    args: tuple[str, ...]
    if case == "bomb":
        table.write_text(NASTY_TEXTS["alias bomb in turn"])
        args = ("check", "--table", str(table), "--move", "pickup")
    elif case == "deep":
        table.write_text(NASTY_TEXTS["deep list"])
        args = ("moves", "--table", str(table))
    elif case in ("fifo", "zero", "dir"):
        path = {"fifo": str(fifo), "zero": "/dev/zero", "dir": str(tmp_path)}[case]
        args = ("check", "--table", path, "--move", "pickup")
    elif case == "flip":
        args = ("check", "--table", str(table), "--move", "flip ²")
    elif case in ("powerlist", "examples5"):
        extra = {"powers": [{"power": ["skip"]}]} if case == "powerlist" else {
            "powers": [{"power": "skip", "rank": "7", "count": 1}], "examples": 5}
        frag.write_text(yaml.safe_dump({**good, **extra}))
        args = ("validate", str(frag))
    elif case == "presetlist":
        frag.write_text("preset: [pagat]\nfragments: []\n")
        args = ("check", "--table", str(table), "--move", "pickup", "--variant", str(frag))
    else:
        args = ("check", "--table", str(table), "--move", "pickup", "--variant", f"pagat+{fifo}")
    r = _tutor(*args, cwd=tmp_path)
    assert r.returncode == 2, (r.returncode, r.stderr[-500:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr and len(lines[0]) <= MAX_MESSAGE + 10, r.stderr[-500:]


@pytest.mark.parametrize("args", [
    ("compare", "pagat", "lancaster", "--games", "1000000000"),
    ("compare", "pagat", "--workers", "24"),
    ("hint", "--table", "t.yaml", "--seconds", "inf"),
    ("hint", "--table", "t.yaml", "--seconds", "nan"),
    ("play", "--seed", "-1"),
    ("play", "--seed", "9" * 5000),
    ("play", "--players", "²"),
])
def test_numbers_on_the_command_line_are_bounded(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    from tutor.cli import main

    assert main(list(args)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("tutor: argument") and len(err) < 200


def test_the_move_list_never_grows_exponentially() -> None:
    from tutor.engine import check, legal_moves
    from tutor.rules.variant import load_table

    v = load_variant("pagat")
    sevens = load_table({"decks": 8, "players": [{"name": "A", "hand": ["7C", "7D", "7H", "7S"] * 8},
                                                 {"name": "B", "hand": 3}], "pile": [["5C"]], "turn": "A"}, v)
    moves = legal_moves(sevens, v)
    assert len(moves) == 9 ** 4  # every set of sevens once (8 copies of 4 cards), and the pickup
    unseen = load_table({"players": [{"name": "A", "hand": 28}, {"name": "B", "hand": 3}], "pile": [["5C"]],
                         "turn": "A"}, v)
    assert [str(m) for m in legal_moves(unseen, v)] == ["pickup"]
    assert all(check(unseen, v, m).legal for m in legal_moves(unseen, v))


@pytest.mark.parametrize("spec", ["pagat+/etc/passwd", "/etc/passwd", "pagat+/dev/zero", "pagat+../rules/x"])
def test_an_uploaded_fragments_example_never_names_a_file(spec: str) -> None:
    from tutor.teach.examples import load_example

    example = {"variant": spec, "move": "play 7H", "legal": True,
               "table": {"players": [{"name": "A", "hand": ["7H"]}, {"name": "B", "hand": 3}], "turn": "A"}}
    frag = fragment_from_data({"id": "my-sevens", "slot": "7", "title": "t", "summary": "s",
                               "source": {"site": "me", "section": "x"},
                               "powers": [{"power": "anywhere", "rank": "7"}], "examples": [example]}, "up.yaml")
    with pytest.raises(TutorError, match="examples\\[0\\].variant"):
        load_example(frag, 0)


def test_an_uploaded_fragments_example_without_a_variant_is_shown() -> None:
    from tutor.teach.examples import judge_example, load_example

    example = {"move": "play 7H", "legal": True, "table": {"players": [{"name": "A", "hand": ["7H", "4C"]},
                                                                       {"name": "B", "hand": 3}],
                                                           "pile": [["KS"]], "turn": "A"}}
    frag = fragment_from_data({"id": "my-sevens", "slot": "7", "title": "t", "summary": "s",
                               "source": {"site": "me", "section": "x"},
                               "powers": [{"power": "anywhere", "rank": "7"}], "examples": [example]}, "up.yaml")
    ex = load_example(frag, 0)
    assert ex.variant.id.startswith("pagat+my-sevens@") and judge_example(ex)[1] == []
