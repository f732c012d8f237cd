"""Fixtures for the browser tests: one ``streamlit run app.py`` and one Debian chromium,
shared by the whole session. A test that asks for them is skipped, with the reason, when
/usr/bin/chromium or the playwright package is missing."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``-n``, ``--dist loadgroup``) every browser test goes to one worker,
    so a run starts one server and one browser however many workers it has."""
    for item in items:
        if item.get_closest_marker("e2e"):
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """``streamlit run app.py`` on a free port of 127.0.0.1; stopped at the end."""
    yield from _streamlit()


@pytest.fixture
def fresh_server() -> Iterator[str]:
    """A server of its own that nobody has visited yet (for what only a first visit shows)."""
    yield from _streamlit()


def _streamlit() -> Iterator[str]:
    if not os.path.exists(CHROMIUM):  # pragma: no cover - depends on the machine
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    port = _free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1",
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"streamlit did not start: {err[-500:]}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def browser(server: str) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    sync_api.expect.set_options(timeout=20_000)  # a loaded 2-core machine can be slow to draw
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # Open the home page once: it loads the modules, so the first test is not slowed by them.
        warm = b.new_page()
        warm.goto(server)
        warm.get_by_role("heading", name="Learn").wait_for(timeout=30_000)
        warm.close()
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()
