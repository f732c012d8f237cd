"""How quick the app feels: click-to-settled times in Chromium against ``streamlit run`` (issue 13).

    python benchmarks/ui_latency.py [--runs N] [--json] [--skip-compare] [--url URL]

Starts ``streamlit run app.py`` on a free port of 127.0.0.1 (a fresh server, so the first
graded move is measured cold), drives Debian's chromium with Playwright, and prints, for each
action, the median and 90th percentile of the wall-clock time from the click (or the Enter) to
the settled page (the answer shown and Streamlit's running indicator gone), beside the server
process's CPU time for the same stretch:

- a Play move with its grade (tap a card on the card table, then its play button);
- the first graded move after the server started (cold);
- a hint ("What would you play?") on the Play page;
- a sample-game step (Next);
- a legal-page verdict (a move typed into "The move to judge", Enter);
- Compare, pagat against lancaster at 1,000 games each, cold and then warm (the same link again);
- the number of actions (a click, or one typed entry with Enter) the legal page's quick question
  needs for three typical rule arguments, each checked against the verdict it must give.

With ``--json`` the last line is one JSON object with (at least) ``play_move_median_s``,
``first_graded_move_s``, ``verdict_median_s``, ``compare_cold_s``, ``compare_warm_s`` and
``quick_form_actions``. Targets (issue 13): Play move under 0.8 s median, first graded move under
3 s, verdict under 0.3 s, Compare cold under 6 s, at most 8 actions an argument.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
IDLE = "() => !document.querySelector('[data-testid=stStatusWidget]')"
TICKS = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server() -> Iterator[tuple[str, int]]:
    """A fresh ``streamlit run app.py``; yields its URL and process id."""
    port = _free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
           "--server.fileWatcherType", "none"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit("streamlit did not start within 60 s")
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def cpu_seconds(pid: int | None) -> float:
    """User plus system CPU time of the server process so far (0 when it is not ours to read)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


class Timer:
    """Wall clock and the server's CPU time for each measured action."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        self.results: dict[str, list[tuple[float, float]]] = {}

    def measure(self, name: str, act: Callable[[], None], settled: Callable[[], None]) -> float:
        cpu, start = cpu_seconds(self.pid), time.perf_counter()
        act()
        settled()
        wall = time.perf_counter() - start
        self.results.setdefault(name, []).append((wall, cpu_seconds(self.pid) - cpu))
        return wall


def idle(page: Any) -> None:
    page.wait_for_function(IDLE, timeout=120_000)


def p90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.9 * (len(xs) - 1)))]


# -- the actions ----------------------------------------------------------------------------


def deal(page: Any, url: str, seed: int) -> None:
    page.goto(f"{url}/play?v=pagat&seed={seed}&seats=3&bot=greedy")
    page.get_by_role("button", name="Deal", exact=True).click()
    page.locator(".ct-seat.me").wait_for(timeout=120_000)
    idle(page)
    ready = page.locator(".ct-bar .ct-btn", has_text=re.compile("^Ready"))
    if ready.count():
        ready.first.click()
        page.locator(".ct-bar .ct-msg", has_text="Your move").wait_for(timeout=60_000)
        idle(page)


def tap_a_play(page: Any) -> str | None:
    """Tap hand (or face-up, or face-down) cards until one forms a legal play; its button's label."""
    cards = page.locator(".ct-seat.me button.ct-card")
    for i in range(cards.count()):
        cards.nth(i).click()
        button = page.locator(".ct-bar .ct-btn.primary")
        if button.count():
            return str(button.first.inner_text())
        page.locator(".ct-bar .ct-btn.quiet", has_text="Clear").click()
    return None


def play_move(page: Any, timer: Timer, name: str) -> bool:
    """One graded move of the learner (a pickup when no card goes); False when the game is over."""
    if not page.locator(".ct-bar .ct-msg", has_text="Your move").count():
        return False
    label = tap_a_play(page)
    button = page.locator(".ct-bar .ct-btn.primary") if label else page.locator(".ct-bar .ct-btn",
                                                                                 has_text="Pick up the pile")
    if not button.count():
        return False
    said = (label or "Pick up the pile")
    said = said[:1].lower() + said[1:]
    graded = page.get_by_text(re.compile(r"Your move, " + re.escape(said) + ":"))
    timer.measure(name, lambda: button.first.click(), lambda: (graded.first.wait_for(timeout=120_000), idle(page)))
    page.locator(".ct-bar .ct-msg, [data-testid=stAlertContainer]").first.wait_for(timeout=60_000)
    return True


def hint(page: Any, timer: Timer) -> None:
    button = page.get_by_role("button", name="What would you play?")
    if not button.count():
        return
    timer.measure("hint", lambda: button.click(),
                  lambda: (page.get_by_text(re.compile(r"^The idea\.")).first.wait_for(timeout=120_000), idle(page)))


def game_steps(page: Any, url: str, timer: Timer, n: int) -> None:
    page.goto(f"{url}/games?game=lancaster-example&step=0")
    page.get_by_text("The starting position.").wait_for(timeout=60_000)
    idle(page)
    for k in range(1, n + 1):
        heading = page.get_by_text(re.compile(rf"^Move {k} of \d+"))
        timer.measure("game_step", lambda: page.get_by_role("button", name="Next").click(),
                      lambda h=heading: (h.wait_for(timeout=60_000), idle(page)))


def verdicts(page: Any, url: str, timer: Timer, n: int) -> None:
    page.goto(f"{url}/legal?v=pagat")
    page.locator("[data-testid=stAlertContainer]").first.wait_for(timeout=60_000)
    idle(page)
    box = page.get_by_role("textbox", name="The move to judge")
    for i in range(n):
        move = ("play KD", "play 4C", "pickup", "play 7H")[i % 4]
        answer = page.locator("[data-testid=stAlertContainer]", has_text=f"({move})")
        box.fill(move)
        timer.measure("verdict", lambda: box.press("Enter"),
                      lambda a=answer: (a.first.wait_for(timeout=60_000), idle(page)))


ARGUMENTS = (
    # (what, rule set or None for the page's own, pile, hand, play, words the verdict must hold)
    ("pagat: two 7s on an 8", None, "8", "7 7 K", "7 7", "is not legal in pagat"),
    ("lancaster: does a 10 burn a 7?", "lancaster", "7", "10 4", "10", "burns the pile"),
    ("pagat: the fourth 5 on three 5s", None, "5 5 5", "5 9", "5", "is legal in pagat"),
)


def quick_form(page: Any, url: str) -> list[int]:
    """Actions the quick question needs for each argument, from a fresh legal page; each one's
    verdict checked."""
    counts = []
    for what, rules, pile, hand, play, expect in ARGUMENTS:
        page.goto(f"{url}/legal?v=pagat")
        page.locator("[data-testid=stAlertContainer]").first.wait_for(timeout=60_000)
        idle(page)
        actions = 0
        if rules:
            page.get_by_role("combobox", name="Rules", exact=True).click()
            page.get_by_role("option", name=re.compile(rf"^{rules}:")).first.click()
            actions += 2
            idle(page)
        for label, text in (("The pile shows (bottom to top)", pile), ("You hold", hand), ("You play", play)):
            box = page.get_by_role("textbox", name=label, exact=True)
            box.fill(text)
            box.press("Enter")
            actions += 1
            idle(page)
        answer = page.locator("[data-testid=stAlertContainer]", has_text=expect)
        answer.first.wait_for(timeout=60_000)
        counts.append(actions)
        print(f"  quick question, {what}: {actions} actions -> {answer.first.inner_text().splitlines()[-1][:90]}")
    return counts


def compare(page: Any, url: str, timer: Timer) -> None:
    link = f"{url}/compare?v=pagat&with=lancaster&games=1000&seed=0"
    for name in ("compare_cold", "compare_warm"):
        done = page.get_by_text("Who loses, by seat")
        timer.measure(name, lambda: page.goto(link), lambda d=done: (d.first.wait_for(timeout=300_000), idle(page)))
        page.goto("about:blank")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=8, help="moves, steps and verdicts measured (default 8)")
    ap.add_argument("--json", action="store_true", help="end with one line of JSON")
    ap.add_argument("--skip-compare", action="store_true", help="leave Compare out")
    ap.add_argument("--url", help="measure a server already running (the first graded move is then not cold)")
    args = ap.parse_args(argv)
    if not 1 <= args.runs <= 200:
        ap.error("--runs: from 1 to 200")
    from playwright.sync_api import sync_playwright

    @contextmanager
    def target() -> Iterator[tuple[str, int | None]]:
        if args.url:
            yield args.url.rstrip("/"), None
        else:
            with server() as (url, pid):
                yield url, pid

    with target() as (url, pid), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(60_000)
        timer = Timer(pid)
        deal(page, url, seed=1)
        play_move(page, timer, "first_graded_move")
        seed = 1
        while len(timer.results.get("play_move", [])) < args.runs:
            if not play_move(page, timer, "play_move"):
                seed += 1
                deal(page, url, seed)
                continue
            if len(timer.results.get("hint", [])) < min(3, args.runs):
                hint(page, timer)
        game_steps(page, url, timer, min(args.runs, 15))
        verdicts(page, url, timer, args.runs)
        print("Quick question (actions: a click, or a typed entry with Enter):")
        actions = quick_form(page, url)
        if not args.skip_compare:
            compare(page, url, timer)
        browser.close()

    print(f"\n{'action':<20} {'n':>3} {'median s':>9} {'p90 s':>7} {'server CPU s (median)':>22}")
    out: dict[str, Any] = {}
    for name, rows in timer.results.items():
        walls, cpus = [w for w, _ in rows], [c for _, c in rows]
        med, top = statistics.median(walls), p90(walls)
        print(f"{name:<20} {len(rows):>3} {med:>9.3f} {top:>7.3f} {statistics.median(cpus):>22.3f}")
        if len(rows) == 1:
            out[f"{name}_s"] = round(med, 3)
        else:
            out[f"{name}_median_s"], out[f"{name}_p90_s"] = round(med, 3), round(top, 3)
        out[f"{name}_cpu_s"] = round(statistics.median(cpus), 3)
    out["quick_form_actions"] = actions
    print(f"quick question actions: {actions} (target: at most 8 each)")
    print("targets: play move < 0.8 s median, first graded move < 3 s, verdict < 0.3 s, compare cold < 6 s")
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
