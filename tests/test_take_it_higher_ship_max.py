"""The full game's maximum with the call order free, proven by cases of the ring
(ship_max.py): equal to the time-indexed spaceship model (encode_ships.py, a second
formulation) and to an exhaustive search with the rules engine on small rules files;
the cases cover every ring height and the best game replays."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.take_it_higher import encode_ships, ship_max
from models.take_it_higher.encode import MaxProblem
from models.take_it_higher.maximum import maximise
from models.take_it_higher.positions import position_from_dict
from models.take_it_higher.rules import load_rules
from models.take_it_higher.sheet import score_sheet
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions, cpsat
from tests.tih_small import (
    brute_force_ship_max,
    brute_force_ship_max_free,
    small_rules,
    small_ship_rules,
)

# one CP-SAT worker: the same proven optima for less CPU than two workers racing each
# other on the suite's two busy cores (and a run replays exactly)
OPTS = SolverOptions(time_limit=30, seed=1, workers=1)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), ships=st.sampled_from(["simple", "advanced"]),
       gold_silver=st.booleans(), stud_ships=st.booleans())
def test_cases_equal_the_time_indexed_model(seed, ships, gold_silver, stud_ships):
    rules = (small_ship_rules(seed, pad_size=5, n_cells=5, n_tiles=6, n_dirs=3)
             if stud_ships else small_rules(seed, n_cells=5, n_tiles=6, n_dirs=3))
    variant = Variant(gold_silver, ships)
    result = maximise(rules, variant, None, "cpsat", OPTS)
    model = encode_ships.build(MaxProblem(rules, variant))
    _, outcome = cpsat.solve(model.model, OPTS)
    assert result.status == outcome.status == "optimal"
    assert result.score == outcome.objective
    # every ring height is a case: solved, cut by its bound, or proven not to beat it
    assert [c.ships for c in result.cases] == list(range(len(rules.spaceships), -1, -1))
    assert {c.status for c in result.cases} <= {"optimal", "cut by bound", "no better game"}
    game = position_from_dict(rules, {"placements": result.placements})
    assert game.complete and score_sheet(game, variant).total == result.score


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000), ships=st.sampled_from(["simple", "advanced"]),
       gold_silver=st.booleans())
def test_cases_equal_brute_force_with_stud_ships(seed, ships, gold_silver):
    rules = small_ship_rules(seed, pad_size=5, n_cells=4, n_tiles=5, n_dirs=3)
    variant = Variant(gold_silver, ships)
    result = maximise(rules, variant, None, "cpsat", OPTS)
    assert result.status == "optimal"
    assert result.score == brute_force_ship_max_free(rules, variant)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), ships=st.sampled_from(["simple", "advanced"]),
       gold_silver=st.booleans(), stud_ships=st.booleans())
def test_cases_with_a_call_order_equal_the_time_indexed_model(seed, ships, gold_silver,
                                                              stud_ships):
    import random

    rules = (small_ship_rules(seed, pad_size=5, n_cells=5, n_tiles=6, n_dirs=3)
             if stud_ships else small_rules(seed, n_cells=5, n_tiles=6, n_dirs=3))
    variant = Variant(gold_silver, ships)
    draw = random.Random(seed).sample(list(rules.tiles), rules.board_size)
    result = maximise(rules, variant, draw, "cpsat", OPTS)
    model = encode_ships.build(MaxProblem(rules, variant, tuple(draw)))
    _, outcome = cpsat.solve(model.model, OPTS)
    assert result.status == outcome.status == "optimal"
    assert result.score == outcome.objective
    game = position_from_dict(rules, {"placements": result.placements})
    assert [p.tile for p in game.placements] == [t.id for t in draw]
    assert score_sheet(game, variant).total == result.score


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), ships=st.sampled_from(["simple", "advanced"]),
       gold_silver=st.booleans())
def test_hindsight_optimum_with_ships_equals_brute_force(seed, ships, gold_silver):
    """The cases with a call order (the launch-time literals, the pair cuts and the
    launch-time counting of the relaxation are redundant: they cut no legal game) equal
    an exhaustive search over the call order with the rules engine."""
    import random

    rules = small_ship_rules(seed, pad_size=5, n_cells=5, n_tiles=7, n_dirs=3)
    variant = Variant(gold_silver, ships)
    draw = random.Random(seed).sample(list(rules.tiles), rules.board_size)
    result = maximise(rules, variant, draw, "cpsat", OPTS)
    assert result.status == "optimal"
    assert result.score == brute_force_ship_max(rules, variant, draw)
    game = position_from_dict(rules, {"placements": result.placements})
    assert [p.tile for p in game.placements] == [t.id for t in draw]
    assert score_sheet(game, variant).total == result.score


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), ships=st.sampled_from(["simple", "advanced"]))
def test_the_first_tile_on_half_of_a_symmetric_board_loses_no_hindsight_optimum(seed, ships):
    """On a board with a half-turn symmetry the whole case puts the first called tile on
    the first cell of each pair only; the optimum stays the exhaustive search's."""
    import random

    from models.take_it_higher.rules import board_symmetries

    rules = small_ship_rules(seed, pad_size=4, n_tiles=7, n_dirs=3, symmetric=True)
    assert board_symmetries(rules)
    assert len(ship_max.first_cell_break(rules)) == 3  # 6 cells in 3 pairs
    variant = Variant(False, ships)
    draw = random.Random(seed).sample(list(rules.tiles), rules.board_size)
    problem = MaxProblem(rules, variant, tuple(draw))
    # every case's whole model (the solve that carries the break) with and without it
    for j in range(len(rules.spaceships) + 1):
        case = ship_max.build_case(problem, list(rules.spaceships[:j]), ships)
        optima = []
        for on in (True, False):
            _, out = cpsat.solve(case.narrowed(break_symmetry=on).model, OPTS)
            optima.append((out.status, out.objective))
        assert optima[0] == optima[1] and optima[0][0] in ("optimal", "infeasible")
    result = maximise(rules, variant, draw, "cpsat", OPTS)
    assert result.status == "optimal"
    assert result.score == brute_force_ship_max(rules, variant, draw)
    game = position_from_dict(rules, {"placements": result.placements})
    assert score_sheet(game, variant).total == result.score


def test_a_short_time_limit_never_claims_a_wrong_maximum():
    """With the time out before the bonus rows are bounded, the cases must not be cut by
    the colour bound alone (that claimed 'optimal 758' at --time-limit 1 on the built-in
    board, whose maximum is 1110)."""
    result = maximise(load_rules(), Variant(True, "advanced"), None, "cpsat",
                      SolverOptions(time_limit=1, seed=0, workers=2))
    assert result.bound >= 1110
    assert result.status != "optimal" or result.score == 1110
