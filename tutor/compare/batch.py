"""Playing a comparison's games in bulk: which games each variant plays, split into tasks, run
here or in a pool of worker processes, and summarized (:func:`play_stats`)."""

from __future__ import annotations

import os
import sys
import threading
import time
import types
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from tutor.compare.common import column_names
from tutor.compare.disagreements import (
    Best,
    Disagreement,
    Search,
    chosen_keys,
    disagreement,
    in_order,
    merge_positions,
    search_positions,
)
from tutor.compare.games import DEFAULT_BOT, GameRecord, fast, make_bots, play_games
from tutor.compare.stats import PlayStats, summarize
from tutor.core.errors import CompareError
from tutor.rules.variant import Variant

DEFAULT_GAMES = 1000
ENGINE_GAMES = 300  # default where every position is listed (a bot that only chooses from lists)
DEFAULT_OBSERVE = 200  # games observed move by move through the engine

Progress = Callable[[int, int], None]


def common_players(variants: Sequence[Variant], players: int | None = None) -> int:
    """The number of players to compare at: ``players`` if all allow it, else 4 or the nearest."""
    lo = max(v.min_players for v in variants)
    hi = min(v.max_players for v in variants)
    if players is not None:
        if not lo <= players <= hi:
            raise CompareError(f"--players: {players} is not allowed by all of "
                               f"{', '.join(v.id for v in variants)} (they share {lo} to {hi})")
        return players
    if lo > hi:
        raise CompareError(f"no number of players suits all of {', '.join(v.id for v in variants)}")
    return min(max(4, lo), hi)


Task = tuple[int, Variant, int, int, int, int, str, int]  # variant's place, variant, players, seed, games lo-hi...


def run_task(args: Task) -> tuple[int, int, list[GameRecord]]:
    """One task, in whichever process: (variant's place, first game, the games)."""
    k, v, players, seed, lo, hi, bot, observe_below = args
    return k, lo, play_games(v, players, seed, lo, hi, bot=bot, observe_below=observe_below)


@dataclass
class Plan:
    """Which games each variant plays, split into tasks for the workers."""

    variants: list[tuple[Variant, int]]  # variant, games (a whole number of rotations)
    players: int
    tasks: list[Task]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.variants)


def plan_games(variants: Sequence[Variant], games: int | None, seed: int, players: int | None, bot: str,
               observe: int, chunk: int, engine_games: int | None = None) -> Plan:
    """The games to play, in tasks of about ``chunk`` games (observed games in smaller ones)."""
    n_players = common_players(variants, players)
    make_bots(bot, n_players)
    plans = []
    tasks: list[Task] = []
    for k, v in enumerate(variants):
        if fast(v, bot):
            n = games if games is not None else DEFAULT_GAMES
        else:
            n = engine_games if engine_games is not None else games if games is not None else ENGINE_GAMES
        if n < 1:
            raise CompareError(f"--games: {n} is not a positive number of games")
        n = -(-n // n_players) * n_players
        seen = min(n, -(-observe // n_players) * n_players) if observe > 0 else 0
        plans.append((v, n))
        # observed games cost more: smaller tasks, so that the workers finish together
        small = max(n_players, chunk // 4 // n_players * n_players)
        edges = sorted({0, n, seen, *range(0, seen, small), *range(seen, n, chunk)})
        for lo, hi in zip(edges, edges[1:], strict=False):
            tasks.append((k, v, n_players, seed, lo, hi, bot, seen))
    # the slowest first (observed through the engine), so that no worker idles at the end; the
    # variants' tasks interleaved, so that games stopped early have played alike in all of them
    order = sorted(range(len(tasks)), key=lambda j: (tasks[j][4] >= tasks[j][7], tasks[j][4], tasks[j][0]))
    return Plan(plans, n_players, [tasks[j] for j in order])


Results = dict[tuple[int, int], list[GameRecord]]  # (variant's place, first game) -> games


def collect(plan: Plan, results: Results, seed: int, bot: str) -> PlayStats:
    """The statistics of the games played."""
    out = []
    names = column_names([v for v, _ in plan.variants])
    for k, ((v, _), name) in enumerate(zip(plan.variants, names, strict=True)):
        recs = sorted((r for (j, _), rs in results.items() if j == k for r in rs), key=lambda r: r.index)
        out.append(summarize(name, plan.players, recs, engine_only=not fast(v, bot)))
    return PlayStats(out, plan.players, max(n for _, n in plan.variants), seed, bot)


def workers_for(workers: int | None) -> int:
    return workers if workers is not None else max(1, os.cpu_count() or 1)


def pool_context() -> Any:
    """fork where it is safe (no other threads: the command line); else forkserver, whose server
    imports this package once so that each worker starts warm."""
    import multiprocessing as mp

    methods = mp.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return mp.get_context("fork")
    if "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["tutor.compare"])
        return ctx
    return mp.get_context("spawn")


@contextmanager
def plain_main(ctx: Any) -> Iterator[None]:
    """Start workers (forkserver or spawn) while ``__main__`` is a bare module.

    Such workers re-run the parent's ``__main__`` script by its path before they take work;
    under Streamlit ``__main__`` is the app's script, which must not run in a worker. Every
    worker is started by the first submissions, so submit inside this block.
    """
    if ctx.get_start_method() == "fork":
        yield
        return
    with _MAIN_LOCK:
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            if main is not None:
                sys.modules["__main__"] = main


_MAIN_LOCK = threading.Lock()


def shared_pool() -> ProcessPoolExecutor:
    """One pool of worker processes (one per core) for the life of this process: the app's
    comparisons share it, so its workers start once and stay warm, and however many people
    compare at once, the games never take more than the machine's cores."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            ctx = pool_context()
            n = workers_for(None)
            pool = ProcessPoolExecutor(max_workers=n, mp_context=ctx)
            with plain_main(ctx):  # start every worker now, while __main__ is bare
                _start_workers(pool, n)
            _SHARED = pool
        return _SHARED


def _start_workers(pool: ProcessPoolExecutor, n: int) -> None:
    """Have ``pool`` start all ``n`` of its workers now. The pool starts one only when a task
    finds none idle, so quick tasks can leave some unstarted (to be started later, under another
    ``__main__``): each round keeps every worker busy a moment, so that each submit finds none
    idle, until ``n`` different workers have answered (one more worker a round at the least)."""
    seen: set[int] = set()
    while len(seen) < n:
        seen |= {f.result() for f in [pool.submit(_pid_after, 0.05) for _ in range(n)]}


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def close_shared_pool() -> None:
    """Stop the shared pool's workers (the next :func:`shared_pool` starts new ones)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is not None:
            _SHARED.shutdown(wait=True, cancel_futures=True)
            _SHARED = None


def _drop_broken(pool: ProcessPoolExecutor | None) -> None:
    """A pool whose worker died cannot be used again: if it is the shared one, start afresh next time."""
    global _SHARED
    with _SHARED_LOCK:
        if pool is not None and pool is _SHARED:
            _SHARED = None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


_SHARED: ProcessPoolExecutor | None = None
_SHARED_LOCK = threading.Lock()


def _visit_task(args: tuple[Search, int, float | None]) -> tuple[str, int, Best, bool]:
    search, k, deadline = args
    best, complete = search_positions(search, k, deadline=deadline)
    return "visit", k, best, complete


def _shrink_task(args: tuple[tuple[Variant, ...], tuple[Any, ...], Any, float | None]) -> tuple[str, Any, Disagreement]:
    variants, key, entry, deadline = args
    return "shrink", key, disagreement(variants, key, entry, deadline=deadline)


def _game_task(args: Task) -> tuple[str, tuple[int, int], list[GameRecord]]:
    k, lo, recs = run_task(args)
    return "games", (k, lo), recs


@dataclass(frozen=True)
class Finished:
    """A job's results, plain data: the positions where the verdicts differ (empty without a
    search) and the games' figures (None without games); ``stopped`` says why the job stopped
    before the end ("" when it did not), ``search_complete`` whether the search got through."""

    found: list[Disagreement]
    stats: PlayStats | None
    stopped: str = ""
    search_complete: bool = True


class Job:
    """A comparison's heavy work: the games (:func:`plan_games`) and, with ``search``, the
    search for positions where the verdicts differ (:mod:`tutor.compare.disagreements`), as
    tasks for a pool of worker processes or played here, within an optional wall-clock budget.

    What is done stays readable when the job stops early, at its budget (:attr:`stopped`) or by
    an exception raised from ``progress`` (a page whose reader pressed Stop): :meth:`stats` sums
    up the games played, each variant's cut to whole rotations; :meth:`disagreements` gives the
    examples found, cut down where there was time.
    """

    def __init__(self, variants: Sequence[Variant], *, games: int | None = None, engine_games: int | None = None,
                 seed: int = 0, players: int | None = None, bot: str = DEFAULT_BOT, observe: int = DEFAULT_OBSERVE,
                 chunk: int = 100, search: Search | None = None, play: bool = True) -> None:
        self.variants = tuple(variants)
        self.seed, self.bot = seed, bot
        self.plan = plan_games(variants, games, seed, players, bot, observe, chunk, engine_games) if play else None
        self.search = search
        self.results: Results = {}
        self.parts: dict[int, Best] = {}  # the search's finds, by the variant whose games they come from
        self.examples: dict[tuple[Any, ...], Disagreement] = {}  # cut down, by key
        self.visited: dict[int, bool] = {}  # by variant: were all its games searched in time?
        self.stopped = ""  # why the job stopped before the end ("" if it did not)
        self.deadline: float | None = None  # a time.time(), set by the first start() with a budget
        self.why = ""
        self.pool: ProcessPoolExecutor | None = None
        self.pending: set[Future[Any]] = set()
        self.backlog: deque[Task] = deque()  # games' tasks not yet given to the pool
        self.search_queued = self.games_queued = False

    # -- what is done ---------------------------------------------------------------------

    @property
    def played(self) -> int:
        return sum(len(r) for r in self.results.values())

    @property
    def total(self) -> int:
        return self.plan.total if self.plan else 0

    @property
    def search_complete(self) -> bool:
        """Did the search get through every game, and cut down every example it kept?"""
        if self.search is None:
            return True
        if len(self.visited) < len(self.variants) or not all(self.visited.values()):
            return False
        return all(key in self.examples for key in chosen_keys(self._best()))

    def _best(self) -> Best:
        return merge_positions(self.parts[k] for k in sorted(self.parts))

    def stats(self) -> PlayStats | None:
        """The statistics of the games played (all of them unless the job stopped early)."""
        if self.plan is None:
            return None
        if not self.stopped:
            return collect(self.plan, self.results, self.seed, self.bot)
        # the games every variant played in full rotations, as many of each (the same deals)
        have = [{r.index: r for (j, _), rs in self.results.items() if j == k for r in rs}
                for k in range(len(self.plan.variants))]
        m = min(_prefix(h) for h in have)
        m -= m % self.plan.players
        kept: Results = {(k, 0): [h[i] for i in range(m)] for k, h in enumerate(have)}
        out = collect(self.plan, kept, self.seed, self.bot)
        out.games, out.stopped, out.planned = m, self.stopped, max(n for _, n in self.plan.variants)
        return out

    def disagreements(self) -> list[Disagreement] | None:
        """The positions found where the verdicts differ (None without a search)."""
        if self.search is None:
            return None
        best = self._best()
        keys = chosen_keys(best)
        return in_order(self.examples.get(key) or disagreement(self.variants, key, best[key], shrink=False)
                        for key in keys)

    def finished(self) -> Finished:
        """What is done, as plain data."""
        return Finished(self.disagreements() or [], self.stats(), self.stopped, self.search_complete)

    # -- doing it -----------------------------------------------------------------------------
    #
    # start() sets the clock going and, in a pool, queues the tasks (the search's first, so that
    # its answer comes early); wait_search() and wait_games() do the work here, or take the pool's
    # answers as they come, until that part is done or the time is up. run() does all three.

    def start(self, pool: ProcessPoolExecutor | None = None, *, budget: float | None = None,
              search: bool = True, games: bool = True) -> Job:
        """Set the clock going (once) and, with a pool, queue the parts asked for (once each)."""
        if self.deadline is None and budget is not None:
            self.deadline = time.time() + budget
            self.why = f"the time limit of {budget:g} s"
        if pool is not None:
            self.pool = pool
        if self.pool is None:
            return self
        if search and self.search is not None and not self.search_queued:
            self.search_queued = True
            self.pending |= {self._submit(_visit_task, (self.search, k, self.deadline))
                             for k in range(len(self.variants)) if k not in self.parts}
        if games and self.plan is not None and not self.games_queued:
            self.games_queued = True
            self.backlog.extend(t for t in self.plan.tasks if (t[0], t[4]) not in self.results)
            self._feed()
        return self

    def _feed(self) -> None:
        """Keep a few games' tasks queued in the pool, not all: what is submitted later (the
        search's examples to cut down, another reader's comparison) then waits for a few tasks,
        not for every game, and a stop has little to cancel."""
        assert self.pool is not None
        limit = 2 * workers_for(None)
        while self.backlog and len(self.pending) < limit:
            self.pending.add(self._submit(_game_task, self.backlog.popleft()))

    def run(self, pool: ProcessPoolExecutor | None = None, *, progress: Progress | None = None,
            budget: float | None = None) -> Job:
        """All of it, in ``pool`` or here; stop after ``budget`` seconds of wall clock."""
        self.start(pool, budget=budget)
        self.wait_search(progress)
        self.wait_games(progress)
        return self

    def search_done(self) -> bool:
        return bool(self.stopped) or self.search_complete

    def games_done(self) -> bool:
        return bool(self.stopped) or self.plan is None or len(self.results) == len(self.plan.tasks)

    def wait_search(self, progress: Progress | None = None) -> Job:
        """Until the search is done (or the time is up)."""
        if self.search is None:
            return self
        if self.pool is None:
            self._search_here(self.search)
        else:
            self.start(search=True, games=False)
            self._pump(self.search_done, progress)
        return self

    def wait_games(self, progress: Progress | None = None) -> Job:
        """Until every game is played (or the time is up)."""
        if self.plan is None:
            return self
        if self.pool is None:
            self._games_here(progress)
        else:
            self.start(search=False, games=True)
            self._pump(self.games_done, progress)
        return self

    def _searched(self, k: int, best: Best, complete: bool) -> list[tuple[Any, ...]]:
        """Record one variant's search; once every variant's is in, the keys to cut down."""
        self.parts[k] = best
        self.visited[k] = complete
        if len(self.parts) < len(self.variants):
            return []
        return [key for key in chosen_keys(self._best()) if key not in self.examples]

    def _late(self) -> bool:
        if self.deadline is not None and time.time() > self.deadline:
            self.stopped = self.stopped or self.why
        return bool(self.stopped)

    def _search_here(self, search: Search) -> None:
        for k in range(len(self.variants)):
            if k not in self.parts and not self._late():
                best, complete = search_positions(search, k, deadline=self.deadline)
                self._searched(k, best, complete)
        best = self._best()
        for key in chosen_keys(best) if len(self.parts) == len(self.variants) else []:
            if key not in self.examples and not self._late():
                self.examples[key] = disagreement(self.variants, key, best[key], deadline=self.deadline)
        self._late()

    def _games_here(self, progress: Progress | None) -> None:
        if progress:
            progress(self.played, self.total)
        for t in self.plan.tasks if self.plan else []:
            if (t[0], t[4]) in self.results:
                continue
            if self._late():
                return
            k, lo, recs = run_task(t)
            self.results[(k, lo)] = recs
            if progress:
                progress(self.played, self.total)

    def _pump(self, done: Callable[[], bool], progress: Progress | None) -> None:
        """Take the pool's answers until ``done()``; at the time limit, or on any exception (a page
        stopped), the tasks not yet started are cancelled."""
        try:
            if progress:
                progress(self.played, self.total)
            while not done() and (self.pending or self.backlog):
                left = 0.25 if self.deadline is None else max(0.0, min(0.25, self.deadline - time.time()))
                finished, self.pending = wait(self.pending, timeout=left, return_when=FIRST_COMPLETED)
                for fut in finished:
                    try:
                        kind, where, got, *rest = fut.result()
                    except BrokenProcessPool:
                        _drop_broken(self.pool)
                        raise CompareError(_BROKEN) from None
                    if kind == "games":
                        self.results[where] = got
                    elif kind == "visit":
                        keys = self._searched(where, got, rest[0])
                        best = self._best()
                        self.pending |= {self._submit(_shrink_task, (self.variants, key, best[key], self.deadline))
                                         for key in keys}
                    else:
                        self.examples[where] = got
                self._feed()
                if progress:
                    progress(self.played, self.total)
                if self._late():
                    self.cancel()
        except BaseException:
            self.cancel()
            raise

    def _submit(self, fn: Callable[[Any], Any], args: Any) -> Future[Any]:
        assert self.pool is not None
        try:
            return self.pool.submit(fn, args)
        except BrokenProcessPool:
            _drop_broken(self.pool)
            raise CompareError(_BROKEN) from None

    def cancel(self) -> None:
        """Drop the tasks not yet started (those running finish in their worker, unheard)."""
        for fut in self.pending:
            fut.cancel()
        self.pending = set()
        self.backlog.clear()


_BROKEN = ("the worker processes playing the games stopped (out of memory?): try again, or with fewer "
           "games or fewer variants")


def _prefix(have: dict[int, GameRecord]) -> int:
    """How many games from the first were played without a gap."""
    m = 0
    while m in have:
        m += 1
    return m


def play_stats(
    variants: Sequence[Variant], *, games: int | None = None, seed: int = 0, players: int | None = None,
    bot: str = DEFAULT_BOT, observe: int = DEFAULT_OBSERVE, workers: int | None = None,
    progress: Progress | None = None, chunk: int = 100, engine_games: int | None = None,
) -> PlayStats:
    """Play every variant on the same deals (seats rotated) and summarize.

    ``games`` is per variant (default 1000), ``engine_games`` for a variant only the engine plays
    (default ``games``, or 300 when neither is given); both are rounded up to whole rotations.
    ``workers`` processes share the games (default: one per core; 1 plays them here).
    ``progress(done, total)`` is called as tasks finish. The result does not depend on
    ``workers`` or ``chunk``.
    """
    job = Job(variants, games=games, engine_games=engine_games, seed=seed, players=players, bot=bot,
              observe=observe, chunk=chunk)
    stats = run_job(job, workers, progress).stats()
    assert stats is not None
    return stats


def run_job(job: Job, workers: int | None = None, progress: Progress | None = None,
            budget: float | None = None) -> Job:
    """Run ``job`` in a pool of its own (``workers`` processes, default one per core) or, with
    one worker or one task, here."""
    n = workers_for(workers)
    tasks = len(job.plan.tasks) if job.plan else 0
    if n <= 1 or tasks + (len(job.variants) if job.search else 0) <= 1:
        return job.run(progress=progress, budget=budget)
    ctx = pool_context()
    with ProcessPoolExecutor(max_workers=n, mp_context=ctx) as pool:
        with plain_main(ctx):
            for f in [pool.submit(os.getpid) for _ in range(n)]:  # start the workers while __main__ is bare
                f.result()
        return job.run(pool, progress=progress, budget=budget)
