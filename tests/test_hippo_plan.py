"""Hippo `plan`: the CP-SAT plan equals brute force on short roll sequences under both
readings of foreign colours first, and the rules engine replays it to the claimed
value."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from ortools.sat.python import cp_model

from models.hippo.encode_cpsat import build
from models.hippo.plan import brute_force, colour_move, plan_value, solo_step, solve_plan
from models.hippo.rules import (
    AT_ONCE,
    FOREIGN_FIRST,
    NEXT_TURN,
    GameState,
    load_rules,
    new_game,
    outcomes,
    random_state,
    state_from_dict,
)
from solver.backends import SolverOptions
from solver.backends.cpsat import make_solver
from solver.cli import cli

RULES = load_rules()
RED, GREEN = 0, 1
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hippo"


def roll_list(rng: random.Random, n: int) -> list[tuple[int, ...]]:
    return [tuple(rng.randint(1, 6) for _ in range(3)) for _ in range(n)]


# every seed by the rulebook's reading, half of them at once too (a quicker loop)
@pytest.mark.parametrize("seed, reading", [(seed, NEXT_TURN) for seed in range(16)]
                         + [(seed, AT_ONCE) for seed in range(8)])
def test_cpsat_plan_equals_brute_force(seed, reading):
    rng = random.Random(seed)
    rules = load_rules(None, reading)
    if seed % 4 == 0:
        rules = dataclasses.replace(rules, penalty_takes_placed=False)
    # next-turn: before a bonus roll, some foreign chips may have been taken this turn
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


def own_other(state: GameState, me: int) -> tuple:
    """A position as the plan model sees it: the other players' colours alike (lanes
    own/other, Mr. Hippo's own chips, the stock's own, due other and taken-this-turn
    other chips) and whether a bonus roll follows."""
    fresh = sum(state.fresh)
    row = state.stocks[me]
    return (tuple(tuple(c == me for c in lane) for lane in state.lanes), state.hippo[me],
            row[me], sum(row) - row[me] - fresh, fresh, state.bonus)


def cpsat_results(state: GameState, roll: tuple[int, ...]) -> set:
    """Every result the CP-SAT plan model allows for one roll (all its solutions, the
    objective dropped), each replayed by the rules engine: (the solo position after it
    with the other colours alike, chips left as the model counts them)."""
    pm = build(state, [roll])
    pm.model.clear_objective()
    solver = make_solver(SolverOptions(time_limit=20, workers=1, seed=0),
                         extra={"enumerate_all_solutions": True})
    choices: set = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            q = next(i for i, v in enumerate(pm.select[0]) if self.value(v))
            picks = tuple(bool(v) if isinstance(v, int) else bool(self.value(v))
                          for v in pm.pick_fresh[0])
            choices.add((q, picks, self.value(pm.stock_after[0])))

    assert solver.solve(pm.model, Collect()) == cp_model.OPTIMAL
    me = state.to_move
    return {(own_other(solo_step(state, colour_move(state, pm.sequences[0][q],
                                                     list(picks))), me), left)
            for q, picks, left in choices}


def engine_results(state: GameState, roll: tuple[int, ...]) -> set:
    """The same from the rules engine: every distinct result of the roll."""
    me = state.to_move
    return {(own_other(solo_step(state, o.move), me), o.state.stock_size(me))
            for o in outcomes(state, roll)}


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_the_plan_model_allows_exactly_the_engines_results_after_a_penalty(reading):
    """3 into lane 3 takes the lane (3 red chips and a green one); the other dice of the
    roll follow, and 4+3 into Mr. Hippo's lane earns the bonus roll. The model's choices,
    replayed, are the engine's results: more of them when the green chip need not go
    first before red's next turn."""
    state = state_from_dict(load_rules(None, reading), {
        "players": ["red", "green"], "lanes": {"3": ["green", "red", "red"]},
        "stocks": {"red": 10, "green": 11}})
    results = engine_results(state, (4, 3, 3))
    assert cpsat_results(state, (4, 3, 3)) == results
    # at once: 6 results; next turn also "3 red, 3 red, 4 red", keeping the green chip
    # (red holds 10 red and 1 green after it), and the bonus-roll result's green chip waits
    left = sorted(n for _, n in results)
    assert left == {AT_ONCE: [8, 9, 11, 11, 12, 12], NEXT_TURN: [8, 9, 11, 11, 11, 12, 12]}[
        reading]
    kept = (10, 1, 0)  # own, other due (next turn), other taken this turn
    assert any(key[2:5] == kept for key, _ in results) == (reading == NEXT_TURN)
    # the bonus roll after the penalty: the green chip waits (next turn) or goes first
    bonus = solo_step(state, ((3, RED), (7, RED)) if reading == NEXT_TURN
                      else ((3, RED), (7, GREEN)))
    assert bonus.bonus and bonus.fresh == ((0, 1) if reading == NEXT_TURN else ())
    assert cpsat_results(bonus, (1, 1, 5)) == engine_results(bonus, (1, 1, 5))
