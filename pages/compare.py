"""Compare variants: the rules slot by slot, what goes on what, positions where the verdicts
differ, and what the differences do to play, measured on the same deals.

The variant in the sidebar is the first column; the others, and the settings of the games,
live in the URL (``?with=lancaster,gultnieks&games=1000&seed=0&players=4&bot=greedy``).
Everything is computed by :mod:`tutor.compare`; results are cached by variant ids and seed.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from tutor.compare import (
    DEFAULT_BOT,
    DEFAULT_GAMES,
    ENGINE_GAMES,
    KIND_WORDS,
    Disagreement,
    PlayStats,
    column_names,
    common_pack,
    common_players,
    difference_frame,
    difference_grid,
    fast,
    find_disagreements,
    grid_lines,
    histogram,
    length_bins,
    play_stats,
    search_note,
    slot_frame,
    slot_rows,
)
from tutor.core.errors import TutorError
from tutor.play.game import BOTS, NAMES
from tutor.rules.matrix import matrix_dot, play_matrix
from tutor.rules.variant import Variant, preset_catalogue
from tutor.webui.matrix_view import matrix_frame
from tutor.webui.params import int_param, list_param
from tutor.webui.safe import md
from tutor.webui.state import current_variant, resolve_spec, slot_title
from tutor.webui.table_view import table_html, to_beat

K_WITH, K_GAMES, K_SLOW, K_SEED, K_PLAYERS, K_BOT, K_ALL = (
    "cmp_with", "cmp_games", "cmp_slow_games", "cmp_seed", "cmp_players", "cmp_bot", "cmp_all_slots")
K_SEEDED = "_cmp_seeded"
POOL_FROM = 400  # games in all from which a process pool plays them (fewer: in this process)
MAX_GAMES = 20_000
MAX_WITH = 4  # variants beside the sidebar's

_MARKS = {"✓": "#dff0df", "✗": "#f9e0e0", "↓": "#eeeeee"}


# -- state: the URL on a session's first visit, the widgets after -------------------------------


def seed_state(first: Variant) -> None:
    """First visit in a session: the link's settings, else a sensible pair."""
    if st.session_state.get(K_SEEDED):
        return
    st.session_state[K_SEEDED] = True
    others = list_param("with", MAX_WITH, "variants to compare with")
    if not others:
        others = ["lancaster" if first.preset.id == "pagat" else "pagat"]
    st.session_state[K_WITH] = others
    st.session_state[K_GAMES] = int_param("games", DEFAULT_GAMES, 1, MAX_GAMES, "number of games")
    st.session_state[K_SLOW] = int_param("slow", ENGINE_GAMES, 1, MAX_GAMES, "number of slow games")
    st.session_state[K_SEED] = int_param("seed", 0, 0, 10**9)
    if "players" in st.query_params:
        st.session_state[K_PLAYERS] = int_param("players", 4, 2, 8, "number of players")
    bot = st.query_params.get("bot", DEFAULT_BOT)
    st.session_state[K_BOT] = bot if bot in BOTS else DEFAULT_BOT


def choose_variants(first: Variant) -> list[Variant]:
    """The sidebar's variant, then those picked here (presets, or specs typed in)."""
    chosen = list(st.session_state.get(K_WITH, []))
    options = list(dict.fromkeys([*preset_catalogue(), *chosen]))
    st.multiselect(
        "Compare it with", options, key=K_WITH,
        format_func=lambda s: f"{s}: {preset_catalogue()[s].title}" if s in preset_catalogue() else s,
        accept_new_options=True, placeholder="pick presets, or type a spec such as pagat+sevens-lower",
        help="Presets, or a preset with fragments laid over it, written as in the sidebar's "
             "'Variant in use' line (lancaster+twos-pass-on).")
    out = [first]
    for spec in st.session_state.get(K_WITH, []):
        try:
            v = resolve_spec(str(spec))
        except TutorError as exc:
            st.warning(f"Left out: {md(exc)}", icon="⚠️")
            continue
        if v.id not in [x.id for x in out]:
            out.append(v)
    return out


Settings = tuple[int, int, int, int, str]  # games, games where only the engine plays, seed, players, bot


def settings(variants: list[Variant]) -> Settings | None:
    """The games' settings from the widgets (None if no number of players suits every variant)."""
    lo = max(v.min_players for v in variants)
    hi = min(v.max_players for v in variants)
    if lo > hi:
        st.warning(f"No number of players suits all of {', '.join(v.id for v in variants)}, so their "
                   "games cannot be compared.", icon="⚠️")
        return None
    seats = list(range(lo, hi + 1))
    if st.session_state.get(K_PLAYERS) not in seats:
        st.session_state[K_PLAYERS] = common_players(variants)
    slow = [v.id for v in variants if not fast(v, str(st.session_state.get(K_BOT, DEFAULT_BOT)))]
    with st.expander("How the games are played", expanded=False):
        c1, c2 = st.columns(2)
        c1.number_input("Games per variant", 1, MAX_GAMES, key=K_GAMES, step=100,
                        help=f"{DEFAULT_GAMES} by default.")
        c2.number_input("Seed (the deals)", 0, 10**9, key=K_SEED, step=1)
        c1.selectbox("Players", seats, key=K_PLAYERS)
        c2.selectbox("Bots at every seat", list(BOTS), key=K_BOT,
                     help="greedy plays its lowest card and keeps its specials; random any legal move; "
                          "playful mostly plays rather than picks up; epsilon is greedy half the time.")
        if slow:
            c1.number_input(f"Games of {', '.join(slow)}", 1, MAX_GAMES, key=K_SLOW, step=100,
                            help=f"The fast simulator does not know these rules, so the engine plays them, "
                                 f"more slowly: {ENGINE_GAMES} by default.")
    if slow:
        st.caption(f"{', '.join(slow)}: played through the engine, which is slower, so "
                   f"{int(st.session_state[K_SLOW])} games rather than {int(st.session_state[K_GAMES])} "
                   "(change it under *How the games are played*).")
    return (int(st.session_state[K_GAMES]), int(st.session_state[K_SLOW]), int(st.session_state[K_SEED]),
            int(st.session_state[K_PLAYERS]), str(st.session_state[K_BOT]))


# -- cached work ------------------------------------------------------------------------------


@st.cache_data(show_spinner="Looking for positions where the verdicts differ…", max_entries=64)
def disagreements(ids: tuple[str, ...], seed: int, _variants: tuple[Variant, ...]) -> list[Disagreement]:
    return find_disagreements(list(_variants), seed=seed)


@st.cache_data(show_spinner=False, max_entries=64)
def games_played(ids: tuple[str, ...], games: int, slow: int, seed: int, players: int, bot: str,
                 _variants: tuple[Variant, ...]) -> PlayStats:
    bar = st.progress(0.0, text="Playing the games…")

    def progress(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=f"Playing the games: {done} of {total}")

    total = sum(games if fast(v, bot) else slow for v in _variants)
    workers = 1 if total < POOL_FROM else None
    out = play_stats(list(_variants), games=games, engine_games=slow, seed=seed, players=players, bot=bot,
                     workers=workers, progress=progress)
    bar.empty()
    return out


# -- the four sections -------------------------------------------------------------------------


def show_slots(variants: list[Variant]) -> None:
    st.header("1. The rules, slot by slot")
    rows = slot_rows(variants)
    differ = [r for r in rows if r.differs]
    st.markdown(f"**{len(differ)} of {len(rows)} rules differ.** Each cell: the rule in a line, its id "
                "and where it comes from.")
    every = st.toggle("Show the rules they share too", key=K_ALL)
    frame = slot_frame(variants, titles=slot_title, only_differences=not every)
    if every:
        st.table(frame.style.apply(lambda row: ["background-color: #fff4d6" if row["differs"] else ""] * len(row),
                                   axis=1))
    else:
        st.table(frame.drop(columns="differs"))
    same = [f"{slot_title(r.slot)} ({r.cells[0].fragment})" for r in rows if not r.differs and r.cells[0]]
    if same and not every:
        st.caption("The same in all: " + ", ".join(same) + ".")


def _mark_colour(value: str) -> str:
    if not value:
        return ""
    marks = value.split()
    return "background-color: #fff4d6; font-weight: 600" if len(set(marks)) > 1 else ""


def show_matrices(variants: list[Variant], names: list[str]) -> None:
    st.header("2. What can be played on what")
    grid = difference_grid(variants)
    if not grid:
        st.success("The same cards go on the same cards in all of them.", icon=":material/check:")
    else:
        st.markdown(f"**{len(grid)} cells differ.** Rows: the card to beat; columns: the card played. "
                    f"Each differing cell shows {' / '.join(names)} in order: ✓ may be played, ✗ may not, "
                    "↓ see-through (the card beneath decides).")
        st.dataframe(difference_frame(variants).style.map(_mark_colour), key="cmp_diff_grid")
        with st.expander("The differences in words"):
            st.markdown("\n".join(f"- {line}" for line in grid_lines(grid, names)))
    tabs = st.tabs([f"Grid: {n}" for n in names] + ["Diagrams side by side"])
    for tab, v, n in zip(tabs, variants, names, strict=False):
        with tab:
            st.dataframe(matrix_frame(play_matrix(v)), key=f"cmp_grid_{n}")
    with tabs[-1]:
        cols = st.columns(len(variants))
        for col, v, n in zip(cols, variants, names, strict=True):
            with col:
                st.markdown(f"**{n}**")
                st.graphviz_chart(matrix_dot(v))
        st.caption("Ranks stand low to high. Green: a rule lets a card go where its rank alone would not; "
                   "red dashed: a rule forbids it. Under a card: what it does to the next play.")


def _legal_link(code: str, v: Variant) -> str:
    query = {"v": v.id, "q": code} if "@" not in v.id else {"q": code}
    base = (st.context.url or "").split("?")[0]
    page = base.rsplit("/", 1)[0] + "/legal" if base.startswith("http") else "legal"
    return f"{page}?{urlencode(query)}"


def show_disagreements(variants: list[Variant], names: list[str], seed: int) -> None:
    st.header("3. Where the verdicts differ")
    found = disagreements(tuple(v.id for v in variants), seed, tuple(variants))
    st.caption(search_note(variants))
    if not found and common_pack(variants) is None:
        return
    if not found:
        st.info("In positions from seeded games of each, every move gets the same verdict and the same "
                "outcome in all of them.", icon=":material/check:")
        return
    st.markdown(f"**{len(found)} kinds of difference**, each shown on the smallest position found in "
                "seeded games and cut down to the cards that matter. Open one on the *Is this move "
                "legal?* page to change it and see.")
    for k, d in enumerate(found, 1):
        with st.expander(f"{k}. {d.summary()}", expanded=k == 1):
            st.markdown(f"*{KIND_WORDS[d.kind]}* · decided by {d.title()}")
            st.markdown(table_html(d.table), unsafe_allow_html=True)
            st.caption(f"{d.table.player.name} to move. The card to play on: " + "; ".join(
                f"in {n}, {to_beat(d.table, v)}" for n, v in zip(names, variants, strict=True)) + ".")
            code = d.question()
            for n, v, x in zip(names, variants, d.verdicts, strict=True):
                mark = "✅ legal" if x.legal else "🚫 not legal"
                nxt = f" Next: {x.next_player or 'nobody (the game is over)'}." if x.legal else ""
                st.markdown(f"**{n}** · {mark}: {x.reason}{nxt} "
                            f"[Open it on *Is this move legal?* with {n}]({_legal_link(code, v)})")


def show_play(variants: list[Variant], names: list[str], chosen: Settings) -> None:
    st.header("4. What it does to play")
    games, slow, seed, players, bot = chosen
    if all(fast(v, bot) for v in variants):
        slow = games  # not used: keep one cache entry
    stats = games_played(tuple(v.id for v in variants), games, slow, seed, players, bot, tuple(variants))
    st.caption(stats.note() + " Brackets after a variant's figure: its difference from the first, "
               "with its interval.")
    rows = stats.rows(names)
    frame = pd.DataFrame([cells for _, cells in rows], index=[label for label, _ in rows], columns=names)
    frame.index.name = "per variant"
    st.table(frame)
    show_lengths(stats, names)
    show_seats(stats, names)


def show_lengths(stats: PlayStats, names: list[str]) -> None:
    st.subheader("How long the games last")
    edges = length_bins(stats.variants)
    rows = []
    for s, n in zip(stats.variants, names, strict=True):
        for start, count in zip(edges, histogram(s.lengths, edges), strict=False):
            rows.append({"moves": start, "variant": n, "share": count / max(1, len(s.lengths))})
    frame = pd.DataFrame(rows)
    try:
        import altair as alt
    except ImportError:  # pragma: no cover - altair comes with streamlit
        st.line_chart(frame, x="moves", y="share", color="variant")
        return
    chart = alt.Chart(frame).mark_line(point=True).encode(
        x=alt.X("moves:Q", title="game length (moves, start of each bin)"),
        y=alt.Y("share:Q", title="share of games", axis=alt.Axis(format="%")),
        color=alt.Color("variant:N", sort=names, scale=alt.Scale(domain=names), legend=alt.Legend(orient="top")),
        tooltip=["variant", "moves", alt.Tooltip("share:Q", format=".1%")])
    st.altair_chart(chart, width="stretch")
    st.caption("Finished games only; the longest 1% are counted in the last bin.")


def show_seats(stats: PlayStats, names: list[str]) -> None:
    st.subheader("Who loses, by seat")
    rows: list[dict[str, Any]] = []
    for s, n in zip(stats.variants, names, strict=True):
        seats = [(f"seat {NAMES[k]}", i) for k, i in enumerate(s.seat_loses)]
        for label, i in [("first player", s.metrics["first_loses"]), *seats]:
            if i.n:
                rows.append({"who": label, "variant": n, "loses": i.value, "low": i.low, "high": i.high})
    if not rows:
        st.caption("No game ended with a loser (a variant where the first out wins, or every game stalled).")
        return
    frame = pd.DataFrame(rows)
    order = list(dict.fromkeys(frame["who"]))
    try:
        import altair as alt
    except ImportError:  # pragma: no cover - altair comes with streamlit
        st.bar_chart(frame, x="who", y="loses", color="variant", stack=False)
        return
    x = alt.X("who:N", title=None, sort=order, axis=alt.Axis(labelAngle=0))
    offset = alt.XOffset("variant:N", sort=names)
    bars = alt.Chart(frame).mark_bar().encode(
        x=x, xOffset=offset, y=alt.Y("loses:Q", title="share of games lost", axis=alt.Axis(format="%")),
        color=alt.Color("variant:N", sort=names, scale=alt.Scale(domain=names), legend=alt.Legend(orient="top")),
        tooltip=["variant", "who", alt.Tooltip("loses:Q", format=".1%"), alt.Tooltip("low:Q", format=".1%"),
                 alt.Tooltip("high:Q", format=".1%")])
    whiskers = alt.Chart(frame).mark_rule(color="black", strokeWidth=1.5).encode(x=x, xOffset=offset, y="low:Q",
                                                                               y2="high:Q")
    fair = alt.Chart(pd.DataFrame({"y": [1 / stats.players]})).mark_rule(strokeDash=[4, 4], color="gray").encode(y="y:Q")
    st.altair_chart(bars + whiskers + fair, width="stretch")
    st.caption(f"Share of the finished games lost by the player who led, and by each seat (each deal is "
               f"played from every seat, so seats differ only by their place in the order); black lines: "
               f"95% intervals; dashed: 1 in {stats.players}, where nobody has an edge.")


def main() -> None:
    first = current_variant()
    seed_state(first)
    st.title("Compare variants")
    st.markdown(f"“We play it differently where I come from.” The rules in the sidebar (now `{first.id}`) "
                "side by side with others: what differs, the positions where the verdicts differ, and "
                "what that does to a game.")
    variants = choose_variants(first)
    if len(variants) < 2:
        st.info("Pick at least one other variant to compare with.", icon=":material/compare_arrows:")
        return
    names = column_names(variants)
    chosen = settings(variants)
    st.query_params.update({"with": ",".join(v.id for v in variants[1:] if "@" not in v.id)})
    if chosen is not None:
        games, slow, seed, players, bot = chosen
        st.query_params.update({"games": str(games), "seed": str(seed), "players": str(players), "bot": bot})
        if any(not fast(v, bot) for v in variants):
            st.query_params["slow"] = str(slow)
        elif "slow" in st.query_params:
            del st.query_params["slow"]
    show_slots(variants)
    show_matrices(variants, names)
    show_disagreements(variants, names, int(st.session_state[K_SEED]))
    if chosen is not None:
        show_play(variants, names, chosen)


main()
