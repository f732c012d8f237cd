"""The advisor benchmark scripts run and print their figures (tiny budgets; the figures
themselves are in the README, measured with the commands given there)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> str:
    out = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_advisor_strength_plays_logs_resumes_and_reports(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    common = ["benchmarks/advisor_strength.py", "--variant", "pagat", "--players", "2", "--iterations", "20",
              "--workers", "1", "--log", str(log)]
    text = _run(*common, "--games", "2")
    assert "advisor wins" in text and "simulations per searched move" in text
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted((g["deal"], g["seat"]) for g in games) == [(1000, 0), (1000, 1)]
    text = _run(*common, "--games", "4", "--resume")
    assert "2 games; 2 to play" in text
    assert len(log.read_text().splitlines()) == 4  # the first deal was not played again
    assert "4 games; 0 to play" in _run(*common, "--games", "6", "--resume", "--report")


def test_advisor_speed_prints_its_figures() -> None:
    text = _run("benchmarks/advisor_speed.py", "--variant", "pagat", "--tables", "1", "--iterations", "50")
    assert "simulations a CPU second median" in text and "CPU time" in text and "second of search" in text
    # against a checkout (this one): the two side by side, and their ratio
    text = _run("benchmarks/advisor_speed.py", "--variant", "pagat", "--tables", "1", "--iterations", "50",
                "--against", str(ROOT))
    assert "pagat against: CPU time" in text and "pagat this: CPU time" in text and "times as fast in CPU" in text


def test_learn_path_prints_steps_words_and_agreement() -> None:
    rows = json.loads(_run("benchmarks/learn_path.py", "--json", "pagat", "lancaster"))
    assert [set(r) for r in rows] == [{"preset", "steps", "words", "lessons", "agree"}] * 2
    assert [r["preset"] for r in rows] == ["pagat", "lancaster"]
    for r in rows:
        assert 8 <= r["steps"] <= 12 and 0 < r["words"] < 600 and r["agree"] == r["lessons"] > 20
    text = _run("benchmarks/learn_path.py", "bluff")
    assert "every answer agrees with the engine: yes" in text and "CPU / wall" in text


def test_conformance_benchmark_prints_its_figures() -> None:
    text = _run("benchmarks/conformance.py", "--games", "1", "pagat", "bluff")
    assert "pagat, 4 players: 1 games" in text and "bluff, 4 players: 1 games" in text
    total = text.splitlines()[-1]
    assert total.startswith("total:") and ", 0 problems, " in total and "s CPU" in total


def test_reference_digests_repeat_and_report_what_differs(tmp_path: Path) -> None:
    saved = tmp_path / "ref.json"
    common = ["benchmarks/reference.py", "--variant", "lancaster", "--seeds", "1", "--checked-seeds", "1",
              "--tables", "1", "--iterations", "20"]
    text = _run(*common, "--save", str(saved))
    digests = json.loads(saved.read_text())
    assert any(k.startswith("runner/lancaster/") for k in digests)
    assert any(k.startswith("checked/lancaster/") for k in digests) and "advisor/lancaster/after-8" in digests
    assert "groups, digest" in text
    assert "0 differ" in _run(*common, "--against", str(saved), "--quiet")  # the same code: the same answers
    name = sorted(digests)[0]
    digests[name] = "0" * 16
    saved.write_text(json.dumps(digests))
    out = subprocess.run([sys.executable, *common, "--against", str(saved), "--quiet"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 1 and f"DIFFERS {name}" in out.stdout and "1 differ" in out.stdout


def test_engine_benchmark_plays_until_it_has_the_moves_asked_for() -> None:
    rows = [json.loads(line) for line in _run("benchmarks/engine.py", "--variant", "bluff", "--moves", "300",
                                              "--json").splitlines()]
    (row,) = rows
    assert row["moves"] >= 300 and row["games"] > 1
    # the games before the last made fewer moves than asked for: as many games as it takes, no more
    fewer = json.loads(_run("benchmarks/engine.py", "--variant", "bluff", "--games", str(row["games"] - 1),
                            "--json").splitlines()[-1])
    assert fewer["moves"] < 300 <= row["moves"]


def test_engine_benchmark_plays_for_the_cpu_seconds_asked_for() -> None:
    (row,) = [json.loads(line) for line in _run("benchmarks/engine.py", "--variant", "bluff", "--seconds", "0.3",
                                                "--moves", "10", "--json").splitlines()]
    # games are started until the process has spent that long on them (--seconds over --moves)
    assert row["cpu_seconds"] >= 0.3 and row["moves"] > 10 and row["games"] > 1


def test_bytecodes_prints_where_a_move_goes_and_refuses_a_bad_variant() -> None:
    text = _run("benchmarks/bytecodes.py", "--variant", "pagat", "--games", "1", "--top", "5")
    head, *rest = text.splitlines()
    assert head.startswith("pagat: ") and head.endswith(" bytecodes a move")
    assert rest[0].startswith("-- per function") and "-- per line: bytecodes a move" in rest
    assert any(line.endswith("Position.push_cards") for line in rest)  # (every play goes there)
    # one function's lines in order: their bytecodes add up to its figure in the listing above
    total = next(float(line.split()[0]) for line in rest if line.endswith("Position.push_cards"))
    lines = _run("benchmarks/bytecodes.py", "--variant", "pagat", "--games", "1",
                 "--lines", "Position.push_cards").splitlines()[2:]
    numbers = [int(line.split()[1]) for line in lines]
    assert numbers == sorted(numbers) and abs(sum(float(line.split()[0]) for line in lines) - total) < 0.5
    out = subprocess.run([sys.executable, "benchmarks/bytecodes.py", "--variant", "no-such-preset"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "no-such-preset" in out.stderr and "Traceback" not in out.stderr
