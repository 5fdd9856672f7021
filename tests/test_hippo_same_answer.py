"""Hippo answers the same every time: `best`, `plan`, `finish` and the policies of
`simulate` are functions of the position, the options and `--seed`, on an idle and on
a busy machine. `best` and the policies search exhaustively (no budget); `plan` is
CP-SAT with one worker and a budget of deterministic work (`--work`); `finish` counts
its steps (`--steps`). `--time-limit` only caps: when it cuts, the answer says so
(`cut_by_time`) and still answers (the best plan found, the greedy plan when CP-SAT
found none, or the finishing chance's two proven bounds). No verdict here reads the
clock. And `determinize` never changes what an observation shows (Hippo hides
nothing)."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from models.hippo.game import GAME
from models.hippo.rules import FOREIGN_FIRST, load_rules
from solver.game import CHANCE, TERMINAL
from tests.cli_helpers import game_runner, run_json, same_answer_when_busy, without_times
from tests.hippo_helpers import random_state

run = game_runner("hippo")
EXAMPLES = Path(__file__).resolve().parents[1] / "puzzles" / "hippo"
MIDGAME = str(EXAMPLES / "midgame-4p.json")
TRAP = str(EXAMPLES / "penalty-trap.json")
SOLO = str(EXAMPLES / "solo-endgame.json")
ROLLS_8 = "6,4,2 5,5,1 3,4,1 2,2,6 1,3,5 6,6,2 3,4,5 2,2,1"
ROLLS_12 = " ".join(["6,4,2", "5,5,1", "3,4,1", "2,2,6", "1,3,5", "6,6,2"] * 2)


def _equal_but(first: dict, second: dict, *keys: str) -> None:
    """The two documents are equal but for `keys` (and timings)."""
    a, b = without_times(first), without_times(second)
    for k in keys:
        a.pop(k, None)
        b.pop(k, None)
    assert a == b


def _words(text: str) -> str:
    """The terminal's text with its line breaks as spaces (rich wraps long lines)."""
    return " ".join(text.split())


# ------------------------------------------------------------------ best and the policies

@pytest.mark.parametrize("name", ["midgame-4p", "penalty-trap", "start-2p"])
def test_best_is_the_same_when_busy(name):
    answer = same_answer_when_busy(run, "best", str(EXAMPLES / f"{name}.json"),
                                   "--roll", "3,4,5")
    assert answer["proven"] and answer["samples"] is None


def test_simulated_policies_are_the_same_when_busy():
    answer = same_answer_when_busy(run, "simulate", "--games", "3", "--players", "3",
                                   "--policy", "best,greedy,random", "--rotate",
                                   "--seed", "7", "--jobs", "1")
    assert answer["played"] == 3


# ------------------------------------------------------------------ plan

def test_plan_is_the_same_when_busy():
    answer = same_answer_when_busy(run, "plan", MIDGAME, "--rolls", ROLLS_8)
    assert answer["status"] == "optimal" and answer["stopped_by"] is None
    assert not answer["cut_by_time"] and answer["work_limit"] == 10


def test_plan_runs_one_worker_and_offers_no_workers_option():
    asked = run("plan", MIDGAME, "--rolls", ROLLS_8, "--workers", "4")
    assert asked.exit_code == 2 and "--workers" in asked.output
    assert "--workers" not in run("plan", "--help").output


def test_plan_cut_by_its_work_is_the_same_when_busy():
    answer = same_answer_when_busy(run, "plan", TRAP, "--rolls", ROLLS_12, "--work", "0.2")
    assert answer["status"] == "feasible" and answer["stopped_by"] == "work"
    assert not answer["cut_by_time"] and answer["bound"] <= answer["objective"]


def test_plan_work_changes_the_answer_only_through_the_work_done():
    """Proven within either budget: the same plan (only the budget differs); with less
    work than the proof needs, a plan no better than the optimum with a bound below it."""
    small = run_json(run, "plan", MIDGAME, "--rolls", ROLLS_8, "--work", "1")
    large = run_json(run, "plan", MIDGAME, "--rolls", ROLLS_8, "--work", "20")
    assert small["status"] == large["status"] == "optimal"
    _equal_but(small, large, "work_limit")
    best = run_json(run, "plan", TRAP, "--rolls", ROLLS_12)
    cut = run_json(run, "plan", TRAP, "--rolls", ROLLS_12, "--work", "0.2")
    assert best["status"] == "optimal" and cut["work"] <= best["work"]
    assert cut["bound"] <= best["objective"] <= cut["objective"]


def test_plan_without_a_cp_sat_plan_in_its_work_is_the_greedy_plan():
    """CP-SAT found none within --work: the greedy plan, said so, the same every time."""
    answer = same_answer_when_busy(run, "plan", TRAP, "--rolls", ROLLS_12, "--work", "0.05")
    assert answer["found_by"].startswith("the greedy rule") and answer["bound"] is None
    assert answer["stopped_by"] == "work" and not answer["cut_by_time"]
    assert answer["status"] == "feasible" and not answer["proven"]
    best = run_json(run, "plan", TRAP, "--rolls", ROLLS_12)
    assert best["found_by"] == "CP-SAT" and best["objective"] <= answer["objective"]


def test_plan_at_a_tiny_time_limit_is_cut_with_a_plan():
    result = run("plan", MIDGAME, "--rolls", ROLLS_12, "--time-limit", "0.01", "--json")
    assert result.exit_code == 0, result.output
    import json

    answer = json.loads(result.stdout)
    assert answer["cut_by_time"] and answer["stopped_by"] == "time limit"
    assert not answer["proven"] and answer["steps"]
    result = run("plan", MIDGAME, "--rolls", ROLLS_12, "--time-limit", "0.01")
    assert "cut by the time limit" in _words(result.stdout)


# ------------------------------------------------------------------ finish

@pytest.mark.parametrize("path,turns", [(SOLO, "3"), (MIDGAME, "2")])
def test_finish_is_the_same_when_busy(path, turns):
    answer = same_answer_when_busy(run, "finish", path, "--turns", turns)
    assert answer["proven"] and answer["bounds"] is None and not answer["cut_by_time"]


def test_finish_stopped_by_its_steps_gives_the_same_bounds_when_busy():
    answer = same_answer_when_busy(run, "finish", MIDGAME, "--turns", "3",
                                   "--steps", "2000")
    bounds = answer["bounds"]
    assert not answer["proven"] and answer["chance"] is None and not answer["cut_by_time"]
    assert bounds["stopped_by"] == "steps" and answer["steps"] == 2000
    assert bounds["at_least_because"] == "exact within 2 turns"


def test_finish_steps_change_the_answer_only_through_the_work_done():
    """More steps: the same rows as far as both got, a lower bound no lower, and the
    exact chance between the bounds; enough steps for both: the same answer."""
    few = run_json(run, "finish", SOLO, "--turns", "3", "--steps", "300")
    more = run_json(run, "finish", SOLO, "--turns", "3", "--steps", "3000")
    exact = run_json(run, "finish", SOLO, "--turns", "3", "--steps", "20000")
    plenty = run_json(run, "finish", SOLO, "--turns", "3")
    _equal_but(exact, plenty, "steps_limit")
    assert exact["proven"] and exact["steps"] < 20000
    assert len(few["by_turns"]) < len(more["by_turns"]) < 3
    assert more["by_turns"] == exact["by_turns"][:len(more["by_turns"])]
    assert few["by_turns"] == more["by_turns"][:len(few["by_turns"])]
    assert few["bounds"]["at_least"] < more["bounds"]["at_least"]
    chance = Fraction(exact["exact"])
    for cut in (few, more):
        b = cut["bounds"]
        assert Fraction(b["at_least_exact"]) <= chance <= Fraction(b["at_most_exact"])


def test_finish_at_a_tiny_time_limit_gives_both_bounds():
    result = run("finish", MIDGAME, "--turns", "4", "--time-limit", "0.01", "--json")
    assert result.exit_code == 0, result.output
    import json

    answer = json.loads(result.stdout)
    assert answer["cut_by_time"] and not answer["proven"]
    assert answer["bounds"]["stopped_by"] == "time limit"
    assert answer["bounds"]["at_least"] <= answer["bounds"]["at_most"]


def test_finish_cut_says_so_on_the_terminal():
    result = run("finish", MIDGAME, "--turns", "4", "--time-limit", "0.01")
    assert result.exit_code == 0, result.output
    text = _words(result.stdout)
    assert "cut by the time limit" in text and "at least" in text
    text = _words(run("finish", MIDGAME, "--turns", "3", "--steps", "500").stdout)
    assert "stopped after --steps 500" in text and "at most" in text


# ------------------------------------------------------------------ determinize

def _states(reading: str):
    """States met in seeded games (each player's turn, before and after the dice, bonus
    rolls, chips taken this turn), random mid-game positions and the examples."""
    rules = load_rules(None, reading)
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.new_game(rules, {"players": 2 + seed}, rng)
        for _ in range(40):
            yield state
            player = GAME.current_player(state)
            if player == TERMINAL:
                break
            action = (GAME.sample_chance(state, rng) if player == CHANCE else
                      rng.choice(GAME.legal_actions(state)))
            state = GAME.apply_action(state, action)
    rng = random.Random(1)
    for _ in range(20):
        yield random_state(rules, rng.randint(2, 4), rng, foreign=0.4)
    for path in sorted(EXAMPLES.glob("*.json")):
        import json

        yield GAME.read(rules, json.loads(path.read_text()), str(path))


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_determinize_keeps_everything_the_observation_shows(reading):
    """Every chip is in view: whatever the generator, a determinized observation is the
    state itself (lanes, Mr. Hippo's lane, stocks and their colours, chips taken this
    turn, the player on turn, bonus roll, the dice thrown)."""
    for state in _states(reading):
        for player in range(state.players):
            seen = GAME.observation(state, player)
            for seed in range(3):
                full = GAME.determinize(seen, random.Random(seed))
                assert full == state
                assert GAME.write(full) == GAME.write(state)
                assert GAME.observation(full, player) == seen
                assert GAME.unknown(full) == []
