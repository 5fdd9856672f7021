"""Hippo `plan`: the CP-SAT plan equals brute force on short roll sequences, and the
rules engine replays it to the claimed value."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from models.hippo.plan import brute_force, plan_value, solve_plan
from models.hippo.rules import load_rules, new_game, random_state, state_from_dict
from solver.cli import cli

RULES = load_rules()
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hippo"


def roll_list(rng: random.Random, n: int) -> list[tuple[int, ...]]:
    return [tuple(rng.randint(1, 6) for _ in range(3)) for _ in range(n)]


@pytest.mark.parametrize("seed", range(16))
def test_cpsat_plan_equals_brute_force(seed):
    rng = random.Random(seed)
    rules = RULES if seed % 4 else dataclasses.replace(RULES, penalty_takes_placed=False)
    state = random_state(rules, rng.randint(2, 4), rng, fill=rng.choice([0.5, 0.9]),
                         foreign=[0.0, 0.3][seed % 2])
    rolls = roll_list(rng, rng.randint(1, 4))
    value, moves = brute_force(state, rolls)
    result = solve_plan(state, rolls)
    assert result.status == "optimal" and result.proven
    big = rules.chips * state.players + 1
    assert result.objective == value[0] * big + value[1]
    assert plan_value(state, moves) == value


def test_plan_uses_the_bonus_roll_and_counts_turns():
    state = state_from_dict(RULES, {"players": ["red", "green"], "lanes": {"7": {"red": 7}},
                                    "stocks": {"red": 5, "green": 12}})
    # 3+4 -> lane 7 and 5: then the bonus roll 1,2,6 places the last three: one turn
    result = solve_plan(state, [(3, 4, 5), (1, 2, 6), (6, 6, 6)])
    assert result.emptied and result.turns == 1
    assert result.steps[1].bonus_roll and len(result.steps) == 2
    assert brute_force(state, [(3, 4, 5), (1, 2, 6), (6, 6, 6)])[0] == (1, 0)


def test_plan_that_cannot_empty_sheds_most():
    state = new_game(RULES, ["red", "green"])
    result = solve_plan(state, [(6, 6, 6), (5, 5, 5)])
    # 6,6,6: three chips into lane 6; 5,5,5: three into lane 5 -> 6 shed
    assert not result.emptied and result.chips_shed == 6 and result.chips_left == 6


def test_plan_cli_with_brute_force_check():
    result = CliRunner().invoke(cli, ["hippo", "plan", str(PUZZLES / "solo-endgame.json"),
                                      "--rolls", "6,4,2 5,5,1 3,4,1", "--check", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["status"] == "optimal" and out["objective"] == out["brute_force_objective"]
    bad = CliRunner().invoke(cli, ["hippo", "plan", str(PUZZLES / "solo-endgame.json"),
                                   "--rolls", "6,4,2 9,1,1"])
    assert bad.exit_code == 2 and "roll 2" in bad.output
