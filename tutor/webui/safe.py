"""User text shown as text: never as Markdown, HTML, LaTeX or Streamlit directives.

Names, moves, uploaded fragments' words and error messages that quote input all reach
Streamlit calls that render Markdown (``st.markdown``, ``st.error``, captions, labels). Every
such piece goes through :func:`md` first (or :func:`html` inside our own HTML), so that
``[Click me](http://evil.example)`` shows as those characters, not as a link.
"""

from __future__ import annotations

import html as _html
import re

# Markdown punctuation, plus what Streamlit adds: $ (LaTeX), ~ (strikethrough), | (tables). A
# backslash before ASCII punctuation always means "this character".
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!<>|~$&])")
# Escaping does not stop Streamlit's :directives: and :material/icons:, nor the autolinks of bare
# http://, www. and e-mail addresses: an invisible zero-width space after ':' and '@' (and inside
# 'www.') does.
_ZWSP = "\u200b"
_AUTOLINK = re.compile(r"([:@])|(?i:(w)(ww\\\.))")


def md(text: object) -> str:
    """``text`` escaped for any Streamlit call that renders Markdown; line breaks become spaces."""
    escaped = _SPECIAL.sub(r"\\\1", " ".join(str(text).splitlines()))
    return _AUTOLINK.sub(lambda m: m.group(1) + _ZWSP if m.group(1) else m.group(2) + _ZWSP + m.group(3), escaped)


def html(text: object) -> str:
    """``text`` escaped for our own HTML (``unsafe_allow_html`` blocks)."""
    return _html.escape(str(text), quote=True)
