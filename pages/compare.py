"""Compare variants: the rules slot by slot, what goes on what, positions where the verdicts
differ, and what the differences do to play, measured on the same deals.

The variant in the sidebar is the first column; the others, and the settings of the games,
live in the URL (``?with=lancaster,gultnieks&games=1000&seed=0&players=4&bot=greedy``).
Everything is computed by :mod:`tutor.compare`, in the worker processes every reader shares:
the search cached by variant ids and seed, the games by ids, games, seed, players and bot; a
Stop button and a 30-second budget bound what one request may take.
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
    Finished,
    Job,
    PlayStats,
    Search,
    column_names,
    common_pack,
    common_players,
    difference_grid,
    fast,
    grid_lines,
    histogram,
    length_bins,
    search_note,
    shared_pool,
    slot_frame,
    slot_rows,
)
from tutor.core.errors import TutorError
from tutor.play.game import BOTS, NAMES
from tutor.rules.matrix import matrix_dot, play_matrix
from tutor.rules.variant import Variant, preset_catalogue
from tutor.webui.matrix_view import differences_html, matrix_table
from tutor.webui.params import int_param, list_param
from tutor.webui.safe import md
from tutor.webui.state import current_variant, fragment_codes, resolve_spec, slot_title
from tutor.webui.table_view import table_html, to_beat

K_WITH, K_GAMES, K_SLOW, K_SEED, K_PLAYERS, K_BOT, K_ALL = (
    "cmp_with", "cmp_games", "cmp_slow_games", "cmp_seed", "cmp_players", "cmp_bot", "cmp_all_slots")
K_SEEDED = "_cmp_seeded"
K_STOP_SEARCH, K_STOP_GAMES, K_STOPPED, K_JOB = "cmp_stop_search", "cmp_stop_games", "_cmp_stopped", "_cmp_job"
K_VIEW = "cmp_view"
K_BUDGET = "_cmp_budget"  # tests set a smaller budget here
POOL_FROM = 400  # games in all from which the worker processes play them (fewer: in this process)
BUDGET = 30.0  # seconds of wall clock a comparison may take before it stops and shows what it has
MAX_GAMES = 5_000  # per variant (1,000 each of pagat and lancaster take about 5 s)
MAX_SLOW = 1_000  # per variant only the engine plays (about 15 ms a game)
MAX_WITH = 4  # variants beside the sidebar's
# Games a variant plays move by move through the engine, for real choices and lead changes: 100
# rather than the command's 200 (most of a comparison's CPU is these games; 100 still gives those
# two figures to about ±0.7 points and ±0.6 lead changes, and the page's note says 100)
OBSERVE = 100


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
    st.session_state[K_SLOW] = int_param("slow", ENGINE_GAMES, 1, MAX_SLOW, "number of slow games")
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
        "Compare it with", options, key=K_WITH, max_selections=MAX_WITH, select_all=False,
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
            c1.number_input(f"Games of {', '.join(slow)}", 1, MAX_SLOW, key=K_SLOW, step=100,
                            help=f"These are played with every position listed as a table, "
                                 f"more slowly: {ENGINE_GAMES} by default.")
    if slow:
        st.caption(f"{', '.join(slow)}: played through the engine, which is slower, so "
                   f"{int(st.session_state[K_SLOW])} games rather than {int(st.session_state[K_GAMES])} "
                   "(change it under *How the games are played*).")
    return (int(st.session_state[K_GAMES]), int(st.session_state[K_SLOW]), int(st.session_state[K_SEED]),
            int(st.session_state[K_PLAYERS]), str(st.session_state[K_BOT]))


# -- the heavy work: cached, in the shared pool, within a budget, and stoppable ----------------
#
# One Job per request does both parts: the search for positions where the verdicts differ
# (section 3, which depends on the variants and the seed only) and the games (section 4). Both
# are queued at once, the search first, so that section 3 shows as soon as it is found while
# the games go on; each part is cached on its own, also when it stopped at the budget (another
# try would most likely stop there too; "Work it out again" drops it). While a part runs, a
# Stop button stands above its progress bar: pressing it (as any widget does) interrupts the
# script, the job drops its queued tasks, and the next runs show what it had done.

SearchKey = tuple[tuple[str, ...], int]  # variant ids, seed
GamesKey = tuple[tuple[str, ...], int, int, int, int, str]  # variant ids, games, slow games, seed, players, bot
Request = tuple[SearchKey, GamesKey | None]

_SEARCHED: set[SearchKey] = set()  # worked out (and cached) in this server: no Stop button needed
_PLAYED: set[GamesKey] = set()


def job_for(request: Request, variants: tuple[Variant, ...]) -> Job:
    (_, seed), games_key = request
    search = Search(variants, seed=seed)
    if games_key is None:
        return Job(variants, seed=seed, search=search, play=False)
    _, games, slow, seed, players, bot = games_key
    return Job(variants, games=games, engine_games=slow, seed=seed, players=players, bot=bot, search=search,
               observe=OBSERVE)


@st.cache_data(show_spinner=False, max_entries=32)
def searched(key: SearchKey, _job: Job) -> Finished:
    """Section 3's positions, from the session's job (found once, then kept)."""
    bar = st.progress(0.0, text="Looking for positions where the verdicts differ")

    def progress(done: int, total: int) -> None:
        games = f" (and playing the games: {done:,} of {total:,})" if _job.games_queued else ""
        bar.progress(0.9 * len(_job.parts) / max(1, len(_job.variants)),
                     text=f"Looking for positions where the verdicts differ{games}")

    _job.wait_search(progress)
    bar.empty()
    _SEARCHED.add(key)
    return Finished(_job.disagreements() or [], None, _job.stopped, _job.search_complete)


@st.cache_data(show_spinner=False, max_entries=32)
def played(key: GamesKey, _job: Job) -> PlayStats | None:
    """Section 4's figures, from the session's job (played once, then kept)."""
    bar = st.progress(0.0, text="Playing the games")

    def progress(done: int, total: int) -> None:
        bar.progress(min(1.0, done / max(1, total)), text=f"Playing the games: {done:,} of {total:,}")

    _job.wait_games(progress)
    bar.empty()
    _PLAYED.add(key)
    return _job.stats()


def held_job(request: Request) -> Job | None:
    """The session's job for this request, if the reader stopped it (now or on an earlier run)."""
    held = st.session_state.get(K_JOB, (None, None))
    if any(st.session_state.get(k) for k in (K_STOP_SEARCH, K_STOP_GAMES)):  # Stop pressed: this run
        st.session_state[K_STOPPED] = held[0]
    if st.session_state.get(K_STOPPED) != request or held[0] != request:
        st.session_state.pop(K_STOPPED, None)
        return None
    job: Job = held[1]
    job.stopped = job.stopped or "your request"
    return job


def start_work(request: Request, variants: tuple[Variant, ...]) -> Job:
    """A job for this request, kept in the session, its clock set, the parts not cached queued."""
    job = job_for(request, variants)
    st.session_state[K_JOB] = (request, job)
    search_key, games_key = request
    big = job.total >= POOL_FROM or len(variants) > 2
    job.start(shared_pool() if big else None, budget=float(st.session_state.get(K_BUDGET, BUDGET)),
              search=search_key not in _SEARCHED, games=games_key is not None and games_key not in _PLAYED)
    return job


def with_stop(button_key: str, done: bool) -> Any:
    """A Stop button above what is worked out next (none when it is cached); cleared after."""
    place = st.empty()
    if not done:
        place.button("Stop", key=button_key, icon=":material/stop_circle:",
                     help="Stop working this comparison out, and show what is done so far")
    return place


def search_part(search_key: SearchKey, job: Job, stopped: bool) -> Finished:
    if stopped and search_key not in _SEARCHED:
        return Finished(job.disagreements() or [], None, job.stopped, job.search_complete)
    place = with_stop(K_STOP_SEARCH, search_key in _SEARCHED)
    try:
        return searched(search_key, job)
    finally:
        place.empty()


def games_part(games_key: GamesKey, job: Job, stopped: bool) -> PlayStats | None:
    if stopped and games_key not in _PLAYED:
        return job.stats()
    place = with_stop(K_STOP_GAMES, games_key in _PLAYED)
    try:
        return played(games_key, job)
    finally:
        place.empty()


def stopped_note(place: Any, request: Request, why: str, by_reader: bool) -> None:
    """Why the comparison shows less than it should, and a button to work it out again."""
    c1, c2 = place.columns([3, 1], vertical_alignment="center")
    if by_reader:
        c1.info("Stopped at your request: what follows is what was done by then.", icon=":material/stop_circle:")
    else:
        c1.warning(f"This comparison stopped at {why}, so as not to hold the server longer: what follows is "
                   "what was done by then. Fewer games or fewer variants finish in time.", icon=":material/timer_off:")
    if c2.button("Work it out again", key="cmp_again", icon=":material/replay:"):
        search_key, games_key = request
        searched.clear(search_key, None)
        _SEARCHED.discard(search_key)
        if games_key is not None:
            played.clear(games_key, None)
            _PLAYED.discard(games_key)
        st.session_state.pop(K_STOPPED, None)
        st.rerun()


def show_work(variants: list[Variant], names: list[str], chosen: Settings | None) -> None:
    """Sections 3 and 4."""
    request = work_request(variants, chosen)
    st.header("3. Where the verdicts differ")
    note = st.container()
    job = held_job(request)
    by_reader = job is not None
    try:
        if job is None:
            job = start_work(request, tuple(variants))
        found = search_part(request[0], job, by_reader)
        show_disagreements(variants, names, found)
        stats = None
        if request[1] is not None:
            st.header("4. What it does to play")
            stats = games_part(request[1], job, by_reader)
    except TutorError as exc:
        st.error(f"This comparison cannot be worked out: {md(exc)}", icon=":material/block:")
        return
    if stats is not None:
        show_play(names, stats)
    why = found.stopped or (stats.stopped if stats is not None else "")
    if by_reader or why:
        stopped_note(note, request, why, by_reader and why == "your request")


def work_request(variants: list[Variant], chosen: Settings | None) -> Request:
    """What the heavy work depends on (no games when no number of players suits every variant)."""
    ids = tuple(v.id for v in variants)
    if chosen is None:
        return (ids, int(st.session_state[K_SEED])), None
    games, slow, seed, players, bot = chosen
    if all(fast(v, bot) for v in variants):
        slow = games  # not used: keep one cache entry
    return (ids, seed), (ids, games, slow, seed, players, bot)


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


def show_matrices(variants: list[Variant], names: list[str]) -> None:
    st.header("2. What can be played on what")
    grid = difference_grid(variants)
    if not grid:
        st.success("The same cards go on the same cards in all of them.", icon=":material/check:")
    else:
        st.markdown(f"**{len(grid)} cells differ.** Rows: the card to beat; columns: the card played. "
                    f"Each cell shows {', '.join(md(n) for n in names)}, top to bottom: ✓ may be played, "
                    "✗ may not, ↓ see-through (the card beneath decides).")
        st.markdown(differences_html(grid, names), unsafe_allow_html=True)
        st.caption("Only the rows and columns holding a difference are drawn: every other cell is the same "
                   "in all of them.")
        with st.expander("The differences in words"):
            st.markdown("\n".join(f"- {md(line)}" for line in grid_lines(grid, names)))
    views = [f"Grid: {n}" for n in names] + ["Diagrams side by side"]
    shown = st.segmented_control("See every cell", views, key=K_VIEW,
                                 help="Each variant's whole grid, or the diagrams of all of them")
    if shown in views[:-1]:
        matrix_table(play_matrix(variants[views.index(shown)]))
    elif shown == views[-1]:
        cols = st.columns(len(variants))
        for col, v, n in zip(cols, variants, names, strict=True):
            with col:
                st.markdown(f"**{md(n)}**")
                st.graphviz_chart(matrix_dot(v))
        st.caption("Ranks stand low to high. Green: a rule lets a card go where its rank alone would not; "
                   "red dashed: a rule forbids it. Under a card: what it does to the next play.")


def _legal_link(code: str, v: Variant) -> str:
    """A link to the question under ``v`` (its own rules packed in, when they fit a link)."""
    own = fragment_codes(v) if "@" in v.id else []
    query = {"q": code} if own is None else {"v": v.id, "q": code, **({"own": ",".join(own)} if own else {})}
    base = (st.context.url or "").split("?")[0]
    page = base.rsplit("/", 1)[0] + "/legal" if base.startswith("http") else "legal"
    return f"{page}?{urlencode(query)}"


def show_disagreements(variants: list[Variant], names: list[str], done: Finished) -> None:
    found = done.found
    st.caption(search_note(variants))
    if not found and common_pack(variants) is None:
        return
    if not found:
        if done.search_complete:
            st.info("In positions from seeded games of each, every move gets the same verdict and the same "
                    "outcome in all of them.", icon=":material/check:")
        else:
            st.caption("The search stopped before it found a position where the verdicts differ.")
        return
    if done.search_complete:
        st.markdown(f"**{len(found)} kinds of difference**, each shown on the smallest position found in "
                    "seeded games and cut down to the cards that matter. Open one on the *Is this move "
                    "legal?* page to change it and see.")
    else:
        st.markdown(f"**{len(found)} kinds of difference** found before the search stopped (it had not been "
                    "through every game, or had not cut every position down to the cards that matter). "
                    "Open one on the *Is this move legal?* page to change it and see.")
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


def show_play(names: list[str], stats: PlayStats) -> None:
    if stats.games == 0:
        st.info("No game was played to the end before the work stopped.", icon=":material/hourglass_empty:")
        return
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
    show_work(variants, names, chosen)


main()
