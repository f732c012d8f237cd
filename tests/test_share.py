"""Questions packed into links (tutor.core.share): round trips, and damaged links refused in one line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor.core.share import MAX_CODE, ShareError, decode_question, encode_question
from tutor.core.table import table_from_dict
from tutor.play.records import record_catalogue


def test_round_trip_of_a_real_position() -> None:
    rec = record_catalogue()["lancaster-example"]
    table = rec.steps[5].before
    code = encode_question(table.to_dict(), "play JH")
    assert len(code) < 1000 and code.replace("-", "").replace("_", "").isalnum()
    q = decode_question(code)
    assert q.move == "play JH"
    assert table_from_dict(q.table, decks=2) == table


@pytest.mark.parametrize("code", ["", "   ", "abc", "!!!", "x" * (MAX_CODE + 1)])
def test_damaged_codes_are_refused(code: str) -> None:
    with pytest.raises(ShareError) as err:
        decode_question(code)
    assert "\n" not in str(err.value)


def test_a_cut_short_code_is_refused() -> None:
    code = encode_question({"players": [], "turn": "A"}, "pickup")
    for cut in (1, 4, len(code) // 2):
        with pytest.raises(ShareError):
            decode_question(code[:-cut])


def test_json_that_is_not_a_question_is_refused() -> None:
    import base64
    import zlib
    for payload in (b"[1, 2]", b'{"table": 3}', b'{"table": {}, "move": 7}'):
        code = base64.urlsafe_b64encode(zlib.compress(payload)).decode().rstrip("=")
        with pytest.raises(ShareError):
            decode_question(code)


@given(st.text(max_size=200))
def test_only_share_errors_escape(text: str) -> None:
    try:
        decode_question(text)
    except ShareError:
        pass
