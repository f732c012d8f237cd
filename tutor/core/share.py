"""A question ("this table, this move") as a short string for a URL, and back.

The table is the contract's table file as plain data; the string is the JSON of
``{"table": ..., "move": ...}``, zlib-compressed and written in URL-safe base64
without padding. Decoding checks every step and raises :class:`ShareError`, a
``TutorError``, with one line; it never builds a table itself (that is
:func:`tutor.core.table.table_from_dict`'s job, which says what is wrong with it).

>>> code = encode_question({"players": [{"name": "A", "hand": ["7H"]}], "turn": "A"}, "play 7H")
>>> decode_question(code).move
'play 7H'
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tutor.core.errors import ShareError

MAX_CODE = 8000  # characters of a code we accept
MAX_JSON = 200_000  # bytes a code may expand to


@dataclass(frozen=True)
class Question:
    table: dict[str, Any]  # the table file's mapping, not yet validated
    move: str


def encode_question(table: Mapping[str, Any], move: str = "") -> str:
    """Pack a table mapping and a move into a URL-safe string."""
    payload = json.dumps({"table": table, "move": move}, separators=(",", ":"), ensure_ascii=False)
    packed = zlib.compress(payload.encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode_question(code: str) -> Question:
    """Unpack :func:`encode_question`'s string; raise :class:`ShareError` if it is damaged."""
    if not isinstance(code, str) or not code.strip():
        raise ShareError("the link holds no question")
    raw = _unpack(code.strip(), "question", MAX_CODE, MAX_JSON)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # ValueError: a 5,000-digit number
        raise ShareError(f"the link's question {_short(code)!r} is not readable (damaged or cut short?)") from None
    if not isinstance(data, dict) or not isinstance(data.get("table"), dict):
        raise ShareError("the link's question holds no table")
    move = data.get("move", "")
    if not isinstance(move, str):
        raise ShareError("the link's question has a move that is not text")
    return Question(data["table"], move)


def encode_text(text: str) -> str:
    """Pack a text (a rule fragment's YAML) into a URL-safe string."""
    packed = zlib.compress(text.encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode_text(code: str, what: str, *, max_code: int = MAX_CODE, max_bytes: int = MAX_JSON) -> str:
    """Unpack :func:`encode_text`'s string, refusing a code longer than ``max_code`` characters
    or one that expands past ``max_bytes``; the text is not read any further here (a fragment
    goes through the guarded YAML reader like an upload)."""
    if not isinstance(code, str) or not code.strip():
        raise ShareError(f"the link's {what} is empty")
    raw = _unpack(code.strip(), what, max_code, max_bytes)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ShareError(f"the link's {what} is not readable (damaged or cut short?)") from None


def _unpack(code: str, what: str, max_code: int, max_bytes: int) -> bytes:
    if len(code) > max_code:
        raise ShareError(f"the link's {what} is too long ({len(code):,} characters; at most {max_code:,})")
    damaged = f"the link's {what} {_short(code)!r} is not readable (damaged or cut short?)"
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError):
        raise ShareError(damaged) from None
    try:
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, max_bytes)
        if inflater.unconsumed_tail:
            raise ShareError(f"the link's {what} is too large")
        if not inflater.eof:
            raise zlib.error("cut short")
    except zlib.error:
        raise ShareError(damaged) from None
    return raw


def _short(code: str) -> str:
    return code if len(code) <= 24 else code[:20] + "..."
