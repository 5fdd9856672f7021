"""Tippi Toppi's answers are the same every time: every searching verb counts its work
(conflicts, deterministic seconds, deals, positions), so its JSON answer on an example
file is the same beside a CPU-bound process; a budget changes the answer only through
the work done; a tiny --time-limit is a cap that says so (or exits 3 in one line when
it leaves nothing to answer). `reachable`'s own cases are in
tests/test_tippi_toppi_reachable.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import game_runner, run_json, same_answer_when_busy, without_times

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "tippi-toppi"
KNOWN = str(PUZZLES / "known-deck.json")
run = game_runner("tippi-toppi")


def one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    return lines[0]


@pytest.mark.parametrize("args", [
    ("achievable", KNOWN),
    ("achievable", KNOWN, "--backend", "cpsat"),
    ("achievable", KNOWN, "--task", "a run of 3", "--task", "Drei grüne Stapel",
     "--within", "8"),
    ("achievable", str(PUZZLES / "solo-endgame.json"), "--within", "10", "--backend", "cpsat"),
    ("hint", str(PUZZLES / "hidden.json")),
    ("hint", KNOWN, "--open-hands"),
], ids=["sat-no", "cpsat-no", "sat-yes", "cpsat-solo", "hint", "hint-open-hands"])
def test_the_answer_is_the_same_on_a_busy_machine(args):
    same_answer_when_busy(run, *args)


def test_the_policies_play_the_same_games_on_a_busy_machine():
    """simulate's hint and random policies: the same games, move for move."""
    same_answer_when_busy(run, "simulate", "--games", "2", "--players", "2",
                          "--difficulty", "normal", "--policy", "hint", "--policy",
                          "random", "--jobs", "1", "--seed", "5")


def test_sat_conflicts_change_the_answer_only_through_the_work():
    """Too few conflicts to decide: one line, exit 3, naming the option; enough to
    prove "no" but not to shrink the core: the core is said not to be minimal; enough:
    the minimal core, the same with ten times as many."""
    short = run("achievable", KNOWN, "--conflicts", "50")
    assert short.exit_code == 3 and "--conflicts" in one_line(short.output)
    some = run_json(run, "achievable", KNOWN, "--conflicts", "300")
    assert some["answer"] == "no" and some["proven"] and not some["core_minimal"]
    assert not some["cut_by_time"]
    assert "left undecided" in run("achievable", KNOWN, "--conflicts", "300").output
    enough = run_json(run, "achievable", KNOWN, "--conflicts", "30000")
    more = run_json(run, "achievable", KNOWN, "--conflicts", "300000")
    assert enough["core"] == ["at least 1 pink pile showing 7"] and enough["core_minimal"]
    assert set(enough["core"]) <= set(some["core"])
    assert without_times(enough) == without_times(more)


def test_cpsat_work_changes_the_answer_only_through_the_work():
    some = run_json(run, "achievable", KNOWN, "--backend", "cpsat", "--work", "0.02")
    assert some["answer"] == "no" and not some["core_minimal"] and not some["cut_by_time"]
    enough = run_json(run, "achievable", KNOWN, "--backend", "cpsat", "--work", "1")
    more = run_json(run, "achievable", KNOWN, "--backend", "cpsat", "--work", "40")
    assert enough["core"] == ["at least 1 pink pile showing 7"] and enough["core_minimal"]
    assert without_times(enough) == without_times(more)


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_a_tiny_time_limit_is_a_cap(backend):
    """--time-limit 0.01: the answer, said cut (exit 0), or nothing in time: one line,
    exit 3."""
    done = run("achievable", KNOWN, "--backend", backend, "--time-limit", "0.01", "--json")
    if done.exit_code == 0:
        assert json.loads(done.stdout)["cut_by_time"]
    else:
        assert done.exit_code == 3 and "time limit" in one_line(done.output)
