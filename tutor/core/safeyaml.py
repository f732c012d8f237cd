"""One guarded reader for every YAML input: table files, pasted or uploaded tables, fragment,
preset and variant files, game records and state carried in links.

Everything a user can hand us goes through :func:`read_file` (a path) or :func:`load` (text):

- only regular files are read (a FIFO, a device or a directory is refused before it is
  opened), and never more than :data:`MAX_BYTES`;
- ``safe_load`` semantics, plus: no aliases (``*name``; a few hundred bytes of nested aliases
  expand to gigabytes once walked or printed), nesting at most :data:`MAX_DEPTH` deep, at
  most :data:`MAX_NODES` values, no key given twice in one mapping, no number longer than
  Python will read;
- every failure is one :class:`~tutor.core.errors.TutorError` (or the subclass the caller
  names) whose message says where, and quotes at most a short excerpt.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError

from tutor.core.errors import TutorError, excerpt

MAX_BYTES = 1_000_000  # the largest file or text read (the biggest fragment we ship is ~10 KB)
MAX_DEPTH = 32  # nesting of lists and mappings
MAX_NODES = 100_000  # scalars, lists and mappings in one document


class _Loader(yaml.SafeLoader):
    """SafeLoader that counts what it composes and refuses aliases and duplicate keys."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise ComposerError(None, None, "aliases (*name) are not accepted: write the value out", mark)
        self._depth += 1
        self._nodes += 1
        try:
            if self._depth > MAX_DEPTH:
                raise ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                                    self.peek_event().start_mark)
            if self._nodes > MAX_NODES:
                raise ComposerError(None, None, f"more than {MAX_NODES:,} values", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[str] = set()
        for key, _ in node.value:
            if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                if key.value in seen:
                    raise ConstructorError(None, None, f"the key {excerpt(key.value, 40)} is given twice",
                                           key.start_mark)
                seen.add(key.value)
        return super().construct_mapping(node, deep)


def load(text: str, where: str, error: type[TutorError] = TutorError) -> Any:
    """Parse one YAML document from ``text``; raise ``error`` naming ``where`` (and the line)."""
    if not isinstance(text, str):
        raise error(f"{where}: expected text")
    if len(text) > MAX_BYTES:
        raise error(f"{where}: {len(text):,} characters; at most {MAX_BYTES:,} are read")
    loader: _Loader | None = None
    try:
        loader = _Loader(text)
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or "not valid YAML"
        raise error(f"{where}:{at}: {str(problem)[:200]}") from None
    except ValueError:  # an integer longer than Python reads (4,300 digits)
        raise error(f"{where}: a number is too long") from None
    except RecursionError:
        raise error(f"{where}: nested too deeply") from None
    finally:
        if loader is not None:
            loader.dispose()


def compose(text: str) -> yaml.Node | None:
    """The node graph of ``text`` (for finding the line of a key), or None if it is refused."""
    if not isinstance(text, str) or len(text) > MAX_BYTES:
        return None
    loader: _Loader | None = None
    try:
        loader = _Loader(text)
        return loader.get_single_node()
    except (yaml.YAMLError, RecursionError):
        return None
    finally:
        if loader is not None:
            loader.dispose()


def read_text(path: str | Path, where: str | None = None, error: type[TutorError] = TutorError) -> str:
    """The text of a regular file of at most :data:`MAX_BYTES`; raise ``error`` otherwise."""
    name = str(path) if where is None else where
    try:
        st = os.stat(path)
    except (OSError, ValueError) as exc:
        raise error(f"{name}: cannot read the file ({exc.__class__.__name__})") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise error(f"{name}: {kind}; give a YAML file")
    if st.st_size > MAX_BYTES:
        raise error(f"{name}: {st.st_size:,} bytes; at most {MAX_BYTES:,} are read")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise error(f"{name}: cannot read the file ({exc.__class__.__name__})") from None
    if len(data) > MAX_BYTES:
        raise error(f"{name}: more than {MAX_BYTES:,} bytes; at most {MAX_BYTES:,} are read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{name}: not UTF-8 text") from None


def read_file(path: str | Path, where: str | None = None, error: type[TutorError] = TutorError) -> Any:
    """:func:`read_text` then :func:`load`."""
    name = str(path) if where is None else where
    return load(read_text(path, name, error), name, error)
