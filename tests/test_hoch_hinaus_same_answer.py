"""Hoch Hinaus' searching verbs give the same answer every time: their work is counted
(conflicts, positions, sampled games, CP-SAT's deterministic time), so the answer is a
function of the file, the options and the seed, on an idle machine as on a busy one; a
budget changes the answer only through the work done; `--time-limit` is a cap that says
when it cut (exit 0 with the answer found, or one line and exit 3 when there is none)."""

import json

import pytest

from models.hoch_hinaus.positions import load_position
from models.hoch_hinaus.reachable import sampled
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.tasks import load_catalogue
from tests.cli_helpers import game_runner, run_json, same_answer_when_busy, without_times

run = game_runner("hoch-hinaus")
P = "puzzles/hoch-hinaus"


def _one_line(res):
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in res.output, res.output
    return lines[0]


@pytest.mark.parametrize("args", [
    ("hint", f"{P}/midgame-1.json"),
    ("achievable", f"{P}/corner-gap.json", "--within", "1"),
    ("achievable", f"{P}/corner-gap.json", "--within", "1", "--backend", "cpsat"),
    ("reachable", f"{P}/endgame-known.json", "--open-hands"),
    # the hint policy of simulate and play, in a sampled game
    ("reachable", f"{P}/dead-end.json", "--samples", "1", "--policy", "hint"),
], ids=["hint", "achievable-sat", "achievable-cpsat", "reachable-exact",
        "reachable-sampled"])
def test_same_answer_when_busy(args):
    data = same_answer_when_busy(run, *args)
    assert data["cut_by_time"] is False


def test_hint_conflict_budget_changes_the_answer_only_through_the_work():
    # every check decided within the default budget: more conflicts change nothing
    # but the budget named in the answer
    base = run_json(run, "hint", f"{P}/midgame-1.json")
    assert base["checked"] == 4 and not any(o["unproven"] for o in base["options"])
    more = run_json(run, "hint", f"{P}/midgame-1.json", "--conflicts", "40000")
    assert more["conflicts"] == 40000
    assert without_times({**more, "conflicts": 0}) == without_times({**base, "conflicts": 0})
    # a budget too small to decide: the same candidates, their checks unproven
    small = run_json(run, "hint", f"{P}/midgame-1.json", "--conflicts", "1")
    assert small["checked"] == 4 and not small["cut_by_time"]


def test_achievable_conflicts_change_the_answer_only_through_the_work():
    args = ("achievable", f"{P}/midgame-1.json")
    base = run_json(run, *args, "--conflicts", "10000")
    assert base["answer"] == "no" and base["core_minimal"]
    assert without_times(run_json(run, *args)) == without_times(base)
    res = run(*args, "--conflicts", "30")  # undecided: no answer, one line
    assert res.exit_code == 3 and "--conflicts 30" in _one_line(res)


def test_reachable_nodes_change_the_answer_only_through_the_work():
    args = ("reachable", f"{P}/endgame-known.json", "--open-hands")
    base = run_json(run, *args)
    assert base["answer"] == "won" and base["proven"]
    assert without_times(run_json(run, *args, "--nodes", "100000")) == without_times(base)


def test_more_samples_play_the_same_first_games():
    rules = load_rules()
    g = load_position(rules, f"{P}/endgame-known.json", None, load_catalogue(rules))
    g = g.observation(g.on_turn)
    two = sampled(g, 2, "greedy", 4, draws=1)
    three = sampled(g, 3, "greedy", 4, draws=1)
    assert (two.rate.trials, three.rate.trials) == (2, 3)
    assert three.rate.successes - two.rate.successes in (0, 1)
    assert not two.cut_by_time and not three.cut_by_time


def test_a_tiny_time_limit_cuts_the_hint_and_says_so():
    # the ranking alone takes longer than the limit: the look-ahead is cut, the
    # ranking is still the answer (exit 0), labelled
    res = run("hint", f"{P}/midgame-5.json", "--time-limit", "0.1", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["cut_by_time"] and data["options"] and data["checked"] < 4
    assert "cut by the time limit" in data["note"]
    res = run("hint", f"{P}/midgame-5.json", "--time-limit", "0.1")
    assert res.exit_code == 0 and "cut by the time limit" in res.output


@pytest.mark.parametrize("args", [
    ("reachable", f"{P}/endgame-known.json", "--samples", "3"),
    ("achievable", f"{P}/midgame-1.json"),
], ids=["reachable-sampled", "achievable"])
def test_a_tiny_time_limit_gives_the_answer_cut_or_one_line(args):
    res = run(*args, "--time-limit", "0.1", "--json")
    if res.exit_code == 3:  # nothing found within the limit
        assert "time limit" in _one_line(res)
        return
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["cut_by_time"]


def test_simulate_policies_the_same_when_busy():
    # the greedy policy's draws and ties come from the game's seed; the hint policy
    # (its look-ahead counted in conflicts) is played above by the sampled reachable
    data = same_answer_when_busy(run, "simulate", "--games", "1", "--players", "1",
                                 "--difficulty", "first", "--policy", "greedy",
                                 "--samples", "1")
    assert data["options"]["hint_time"] == 0 and data["played"] == 1
