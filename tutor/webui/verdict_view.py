"""Showing a verdict: legal or not, the reason, the rules and sources behind it, the events."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from tutor.engine import Verdict
from tutor.engine.words import move_words
from tutor.rules.variant import Variant
from tutor.webui.safe import md

EVENT_WORDS = {
    "burn": "🔥 the pile is burned (out of the game)",
    "reverse": "⇄ the direction of play reverses",
    "skip": "⤼ the next player misses a turn",
    "play_again": "↻ the same player plays again",
    "pickup": "✋ the pile goes into the hand",
    "draw": "🂠 the player draws back up from the stock",
    "out": "🏁 the player has no cards left and is out",
    "game_over": "■ the game is over",
    "swap": "⇆ cards change hands",
    "caught": "🔎 the call finds a lie",
}


def events_text(events: tuple[str, ...] | list[str]) -> str:
    return "; ".join(EVENT_WORDS.get(e, e) for e in events) if events else "nothing special happens"


def rule_lines(v: Variant, ids: tuple[str, ...]) -> list[str]:
    """One Markdown line per fragment: title, id and source."""
    out = []
    for fid in ids:
        try:
            f = v.fragment(fid)
        except KeyError:
            out.append(f"- `{fid}`")
            continue
        out.append(f"- **{md(f.title)}** (`{f.id}`): {md(f.summary)}  \n  *Source: {md(f.source.cite())}.*")
    return out


def show_verdict(verdict: Verdict, v: Variant, words: Callable[[str], str] | None = None) -> None:
    """The answer, as a newcomer reads it: the headline, the reason, the rules, what follows.
    ``words`` rewrites the engine's sentences (e.g. to agree with a player called You)."""
    say = words or (lambda s: s)
    # the move is the engine's canonical notation, and names are letters, digits, spaces and . ' -
    said = move_words(verdict.move)
    head = (f"**{said[0].upper() + said[1:]}** (`{verdict.move}`) is {'legal' if verdict.legal else 'not legal'} "
            f"in `{v.id}`. {say(verdict.reason)}")
    (st.success if verdict.legal else st.error)(head, icon=":material/check_circle:" if verdict.legal else ":material/block:")
    st.markdown("**The rule behind it**\n" + "\n".join(rule_lines(v, verdict.rules)))
    if verdict.legal:
        nxt = (say(verdict.next_player) if verdict.next_player else None) or ("nobody: the game is over" if "game_over" in verdict.events
                                      else "not known yet: it depends on the card turned over")
        st.markdown(f"**What happens:** {events_text(verdict.events)}.  \n**Next to move:** {nxt}")
