"""The whole catalogue: every preset and fragment of the contract, conformance for every preset
(500 games each, 2-5 players as the preset allows) and for 300 random combinations of
fragments (30 games each), and a rulebook for every preset.

These runs check every invariant after every move, except that random unlisted moves are
tried on every second move (pagat and lancaster, in test_conformance.py, try them on every
move)."""

from __future__ import annotations

import json
import os
import random
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.play.conformance import run
from tutor.rules.combos import random_variants
from tutor.rules.variant import fragment_catalogue, load_variant, preset_catalogue
from tutor.teach.rulebook import rulebook_markdown

CONTRACT = Path(__file__).resolve().parents[2] / "shared" / "CONTRACT.md"
OTHER_PRESETS = sorted(set(preset_catalogue()) - {"pagat", "lancaster"})  # those two: test_conformance

# The slow lane's sizes fit CI's budget on two cores; TUTOR_CONFORMANCE_SCALE=10 runs ten times
# as many games (2,000 a preset), e.g. before a release: see the README's conformance section.
SCALE = max(1, int(os.environ.get("TUTOR_CONFORMANCE_SCALE", "1") or 1))
PRESET_GAMES = 200 * SCALE  # a preset's games, over its player counts
COMBINATIONS, COMBINATION_GAMES = 200, 8 * SCALE  # random fragment combinations, games each
OPTION_GAMES = 40 * SCALE  # an option's games at each player count


def _contract_ids() -> tuple[set[str], set[str]]:
    text = CONTRACT.read_text()
    presets_part = text.split("### Presets")[1].split("### Fragments")[0]
    frags_part = text.split("### Fragments, by slot")[1].split("### Readings")[0]
    presets = set(re.findall(r"^\| `([a-z0-9-]+)` \|", presets_part, re.M))
    frags = set(re.findall(r"`([a-z0-9-]+)`", frags_part))
    return presets, frags


@pytest.mark.skipif(not CONTRACT.exists(), reason="the contract lives beside the repo in ../shared")
def test_every_contract_id_exists() -> None:
    presets, frags = _contract_ids()
    assert presets - set(preset_catalogue()) <= {"bluff"}, "missing presets"
    assert frags - set(fragment_catalogue()) == set(), "missing fragments"


def test_variants_json_lists_everything(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {p["id"] for p in data["presets"]} == set(preset_catalogue())
    assert {f["id"] for f in data["fragments"]} == set(fragment_catalogue())
    assert {"Twisted Shithead", "Reverse Shithead", "Shit-Boot"} <= {n["name"] for n in data["named_only"]}


@pytest.mark.parametrize("spec", sorted(preset_catalogue()))
def test_rulebook_shows_every_fragment_and_setting(spec: str) -> None:
    v = load_variant(spec)
    text = rulebook_markdown(v)
    for f in v.fragments:
        assert f"`{f.id}`" in text and f.title in text and f.source.site in text
    for section in ("Cards and deal", "Play", "Special cards", "Winning and losing"):
        assert f"## {section}" in text
    assert str(v.refill) in text or ["three", "four", "five"][v.refill - 3] in text.lower()


def test_rulebook_says_where_sources_disagree() -> None:
    assert "contradicts itself" in rulebook_markdown(load_variant("pagat"))


def _chunk(args: tuple[str, int, list[int]]) -> tuple[str, int, int, list[str]]:
    spec, players, seeds = args
    r = run(spec, players, seeds, candidates_every=2)
    return spec, r.games, r.stalled, r.problems


def _run_all(jobs: list[tuple[str, int, list[int]]]) -> tuple[int, int, list[str]]:
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_chunk, jobs, chunksize=4))
    return (sum(r[1] for r in results), sum(r[2] for r in results), [p for r in results for p in r[3]])


@pytest.mark.slow
def test_every_other_preset_conforms() -> None:
    jobs = []
    for spec in OTHER_PRESETS:
        v = load_variant(spec)
        counts = list(range(v.min_players, min(5, v.max_players) + 1))
        per = PRESET_GAMES // len(counts) + 1
        for n in counts:
            seeds = list(range(per))
            jobs += [(spec, n, seeds[: per // 2]), (spec, n, seeds[per // 2:])]
    games, stalled, problems = _run_all(jobs)
    assert games >= PRESET_GAMES * len(OTHER_PRESETS)
    assert not problems, "\n".join(problems[:10])
    assert stalled <= games * 0.05


@pytest.mark.slow
def test_random_combinations_conform() -> None:
    variants = random_variants(COMBINATIONS, seed=2026)
    assert len(variants) == COMBINATIONS
    rng = random.Random(7)
    jobs = []
    for v in variants:
        n = rng.randint(v.min_players, min(5, v.max_players))
        jobs.append((v.id, n, list(range(COMBINATION_GAMES))))
    games, stalled, problems = _run_all(jobs)
    assert games == COMBINATIONS * COMBINATION_GAMES
    assert not problems, "\n".join(problems[:10])
    assert stalled <= games * 0.05


OPTION_SPECS = sorted(f"{p.id}+{fid}" for p in preset_catalogue().values() for fid in p.options)
# options whose rules act only together: Nortenos' threes and fours are "special" with both in
# (a last down 3 loses, a 4 wins), and the 3s slide out of turn
COMBINED_OPTIONS = ["nortenos+threes-slide+fours-reset", "nortenos+threes-slide+fours-reset+jokers-as-twos"]


def test_every_option_loads_and_is_in_the_rulebook() -> None:
    assert OPTION_SPECS, "the presets name the options their sources offer"
    for spec in OPTION_SPECS:
        preset, fid = spec.split("+", 1)
        v = load_variant(spec)
        assert fid in {f.id for f in v.fragments}
        assert f"(`{spec}`)" in rulebook_markdown(load_variant(preset))
        assert f"(`{spec}`)" not in rulebook_markdown(v)


def test_combined_options_act_together() -> None:
    for spec in COMBINED_OPTIONS:
        v = load_variant(spec)
        assert set(v.last_down) == {1, 2}, spec  # a last down 3 loses, a 4 wins: only with both fragments
    assert not load_variant("nortenos+threes-slide").last_down and not load_variant("nortenos+fours-reset").last_down


@pytest.mark.slow
def test_every_option_conforms() -> None:
    jobs = []
    for spec in OPTION_SPECS + COMBINED_OPTIONS:
        v = load_variant(spec)
        for n in range(v.min_players, min(5, v.max_players) + 1):
            jobs += [(spec, n, list(range(k, OPTION_GAMES, 2))) for k in (0, 1)]
    games, stalled, problems = _run_all(jobs)
    assert not problems, "\n".join(problems[:10])
    assert stalled <= games * 0.05
