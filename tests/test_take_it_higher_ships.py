"""Maximal scores with spaceships (simple / advanced rules, with or without gold/silver):
the solver's optimum == an exhaustive search with the rules engine, for a called draw
(every tile placed in call order) and for a free choice of tiles and order; the returned
game replays legally and re-scores to the claimed total.

The reference (tests.tih_small.brute_force_ship_*) uses only rules.py; it is checked here
first on hand-made two-cell boards whose best game is known by hand, and against the
no-spaceship brute force.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.take_it_higher.maximum import maximise
from models.take_it_higher.positions import Position, format_placement, position_from_dict
from models.take_it_higher.rules import Rules, Tile, rules_from_dict
from models.take_it_higher.sheet import score_sheet
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions
from tests.tih_small import (
    brute_force_max,
    brute_force_ship_best,
    brute_force_ship_max,
    brute_force_ship_max_free,
    small_rules,
    small_ship_rules,
)

# one CP-SAT worker: the same proven optima for less CPU than two workers racing each
# other on the suite's two busy cores (and a run replays exactly)
OPTS = SolverOptions(time_limit=30, seed=1, workers=1)
SHIPS = ("simple", "advanced")
COLOURS = {"white": 1, "orange": 2, "yellow": 3, "pink": 4, "green": 5, "purple": 6,
           "blue": 7, "red": 8}


# --------------------------------------------------------------------------- tiny boards

def tiny_rules(directions: dict[str, tuple[list[str], list[list[str]]]],
               tiles: dict[str, tuple[list[str], str | None]], pad: list[str]) -> Rules:
    """A board of the cells named in the lines; directions: name -> (colours, lines);
    tiles: id -> (stripe per direction in order, stud); pad: spaceships from the bottom,
    buttons 20, 40, ..."""
    cells = sorted({c for _, lines in directions.values() for line in lines for c in line})
    names = list(directions)
    return rules_from_dict({
        "name": "tiny",
        "cells": [{"id": c, "x": i, "y": 0} for i, c in enumerate(cells)],
        "colours": {c: {"value": v} for c, v in COLOURS.items()},
        "directions": [{"name": n, "colours": cols, "lines": lines}
                       for n, (cols, lines) in directions.items()],
        "studs": {"gold": {"bonus": 10}, "silver": {"bonus": 9}},
        "tiles": [{"id": t, "stripes": dict(zip(names, stripes, strict=True)),
                   **({"stud": stud} if stud else {})}
                  for t, (stripes, stud) in tiles.items()],
        "spaceships": [{"ship": s, "button": 20 * (i + 1)} for i, s in enumerate(pad)],
    })


# Placing the second tile completes a white row and an orange row at once.
TWO_ROWS = tiny_rules(
    {"vertical": (["white", "red"], [["a1", "b1"]]),
     "horizontal": (["orange", "blue"], [["a1", "b1"]])},
    {"X": (["white", "orange"], None), "Y": (["white", "orange"], None),
     "Z": (["red", "blue"], None)},
    ["white", "orange", "red"])
# Every tile completes its own one-cell row (white or orange).
ONE_CELL_ROWS = tiny_rules(
    {"vertical": (["white", "orange"], [["a1"], ["b1"]])},
    {"W": (["white"], None), "O": (["orange"], None)},
    ["white", "orange"])
# One-cell white rows, and an orange row through both cells.
BLOCKED = tiny_rules(
    {"vertical": (["white", "red"], [["a1"], ["b1"]]),
     "horizontal": (["orange", "blue"], [["a1", "b1"]])},
    {"X": (["white", "orange"], None), "Y": (["white", "orange"], None)},
    ["white", "orange"])
# A white row of two gold tiles is also a gold bonus row; gold is lowest on the pad.
STUDS = tiny_rules(
    {"horizontal": (["white", "orange"], [["a1", "b1"]])},
    {"G1": (["white"], "gold"), "G2": (["white"], "gold"), "S1": (["white"], "silver")},
    ["gold", "white"])

# (rules, variant, draw, best total, why)
HAND_CASES = [
    (TWO_ROWS, Variant(False, "simple"), ["X", "Y"], 6 + 40,
     "rows 2x1 + 2x2; simple: white and orange both launched onto Y"),
    (TWO_ROWS, Variant(False, "advanced"), ["X", "Y"], 6 + 20,
     "advanced: only one spaceship per tile, white"),
    (TWO_ROWS, Variant(False, "simple"), ["X", "Z"], 0, "no full row of one colour"),
    (TWO_ROWS, Variant(False, None), ["X", "Y"], 6, "no spaceships"),
    (ONE_CELL_ROWS, Variant(False, "simple"), ["O", "W"], 3 + 20,
     "simple: orange cannot go before white, so only white is launched"),
    (ONE_CELL_ROWS, Variant(False, "advanced"), ["O", "W"], 3 + 40,
     "advanced: orange first, then white; the ring climbs over both"),
    (ONE_CELL_ROWS, Variant(False, "simple"), ["W", "O"], 3 + 40, "white, then orange"),
    (BLOCKED, Variant(False, "simple"), ["X", "Y"], 6 + 40,
     "simple: white on X, orange on Y (no row-clear rule)"),
    (BLOCKED, Variant(False, "advanced"), ["X", "Y"], 6 + 20,
     "advanced: white on X blocks the orange row; white then nothing is best"),
    (STUDS, Variant(False, "simple"), ["G1", "G2"], 2 + 20,
     "the gold ship flies from the gold bonus row even without gold/silver scoring"),
    (STUDS, Variant(True, "simple"), ["G1", "G2"], 2 + 20 + 20, "+ 2 gold tiles x 10"),
    (STUDS, Variant(True, "advanced"), ["G1", "G2"], 2 + 20 + 20, "gold ship"),
    (STUDS, Variant(False, "simple"), ["G1", "S1"], 2,
     "not a bonus row; white may not pass gold (simple)"),
    (STUDS, Variant(False, "advanced"), ["G1", "S1"], 2,
     "white may fly (advanced) but the ring stops below gold"),
]
HAND_FREE = [  # (rules, variant, best total over every choice of tiles and order)
    (TWO_ROWS, Variant(False, "simple"), 46),
    (TWO_ROWS, Variant(False, "advanced"), 26),
    (ONE_CELL_ROWS, Variant(False, "simple"), 43),
    (BLOCKED, Variant(False, "advanced"), 26),
    (STUDS, Variant(True, "simple"), 42),
    (STUDS, Variant(False, "advanced"), 22),
]


def tiles(rules: Rules, ids: list[str]) -> list[Tile]:
    return [rules.tile_by_id[t] for t in ids]


def check_game(rules: Rules, variant: Variant, placements: list[str], total: int,
               draw: list[Tile] | None) -> Position:
    """The game is a full board of distinct tiles, its launches are legal (the score
    sheet replays them with GameState.apply), it scores `total`, the draw is its call
    order."""
    pos = position_from_dict(rules, {"placements": placements})
    assert pos.complete
    assert score_sheet(pos, variant).total == total
    if draw is not None:
        assert [p.tile for p in pos.placements] == [t.id for t in draw]
    return pos


def check_result(rules: Rules, variant: Variant, got, want: int,
                 draw: list[Tile] | None) -> None:
    assert got.status == "optimal"
    assert got.score == want
    assert got.bound == want
    pos = check_game(rules, variant, got.placements, want, draw)
    assert got.sheet.total == want
    assert got.sheet.take_it_higher_bonus == score_sheet(pos, variant).take_it_higher_bonus
    assert got.board == {p.cell: p.tile for p in pos.placements}


# --------------------------------------------------------------------------- the reference

@pytest.mark.parametrize("rules,variant,draw,want,why", HAND_CASES)
def test_brute_force_hand_cases(rules, variant, draw, want, why):
    value, game = brute_force_ship_best(rules, variant, tiles(rules, draw))
    assert value == want, why
    check_game(rules, variant, [format_placement(p) for p in game], want, tiles(rules, draw))


@pytest.mark.parametrize("rules,variant,want", HAND_FREE)
def test_brute_force_free_hand_cases(rules, variant, want):
    assert brute_force_ship_max_free(rules, variant) == want


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("gold_silver", [False, True])
def test_brute_force_without_ships_is_the_board_maximum(seed, gold_silver):
    rules = small_rules(seed, n_cells=4, n_tiles=5)
    variant = Variant(gold_silver, None)
    draw = random.Random(seed).sample(list(rules.tiles), rules.board_size)
    assert brute_force_ship_max(rules, variant, draw) == brute_force_max(rules, gold_silver, draw)
    assert brute_force_ship_max_free(rules, variant) == brute_force_max(rules, gold_silver)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ships", SHIPS)
def test_brute_force_games_replay_and_bound_the_board_maximum(seed, ships):
    """The reference's best game is legal and scores its value; the ring bonus only adds
    (>= best board without ships), and the free choice is at least any draw."""
    rules = small_ship_rules(seed, pad_size=5, n_cells=4, n_tiles=5)
    gold_silver = seed % 2 == 1
    variant = Variant(gold_silver, ships)
    draw = random.Random(seed).sample(list(rules.tiles), rules.board_size)
    value, game = brute_force_ship_best(rules, variant, draw)
    check_game(rules, variant, [format_placement(p) for p in game], value, draw)
    assert value >= brute_force_max(rules, gold_silver, draw)
    free, free_game = brute_force_ship_best(rules, variant, None)
    check_game(rules, variant, [format_placement(p) for p in free_game], free, None)
    assert free >= value and free >= brute_force_max(rules, gold_silver)


# --------------------------------------------------------------------------- maximise

@pytest.mark.parametrize("rules,variant,draw,want,why", HAND_CASES)
def test_maximise_hand_cases(rules, variant, draw, want, why):
    d = tiles(rules, draw)
    check_result(rules, variant, maximise(rules, variant, d, "cpsat", OPTS), want, d)


@pytest.mark.parametrize("rules,variant,want", HAND_FREE)
def test_maximise_free_hand_cases(rules, variant, want):
    check_result(rules, variant, maximise(rules, variant, None, "cpsat", OPTS), want, None)


def ship_rules(seed: int, stud_ships: bool, pad_size: int, **kw: int) -> Rules:
    """small_rules as they are (colour ships in value order), or with the gold and silver
    ships added and the pad shuffled."""
    if stud_ships:
        return small_ship_rules(seed, pad_size=pad_size, **kw)
    return small_rules(seed, **kw)


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000), ships=st.sampled_from(SHIPS), gold_silver=st.booleans(),
       n_tiles=st.integers(6, 7), stud_ships=st.booleans())
def test_ship_draw_max_equals_brute_force(seed, ships, gold_silver, n_tiles, stud_ships):
    rules = ship_rules(seed, stud_ships, 7, n_cells=5, n_tiles=n_tiles, n_dirs=3)
    variant = Variant(gold_silver, ships)
    draw = random.Random(seed).sample(list(rules.tiles), rules.board_size)
    want = brute_force_ship_max(rules, variant, draw)
    check_result(rules, variant, maximise(rules, variant, draw, "cpsat", OPTS), want, draw)


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000), ships=st.sampled_from(SHIPS), gold_silver=st.booleans(),
       stud_ships=st.booleans())
def test_ship_free_max_equals_brute_force(seed, ships, gold_silver, stud_ships):
    rules = ship_rules(seed, stud_ships, 5, n_cells=4, n_tiles=5, n_dirs=3)
    variant = Variant(gold_silver, ships)
    want = brute_force_ship_max_free(rules, variant)
    check_result(rules, variant, maximise(rules, variant, None, "cpsat", OPTS), want, None)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), ships=st.sampled_from(["simple", "advanced"]),
       k=st.integers(0, 4))
def test_ship_completion_from_a_game_in_progress(seed, ships, k):
    """Fixing the first k moves of a best game (brute force over the rules engine), the
    completion model keeps them and still reaches the best total."""
    from models.take_it_higher.encode import MaxProblem
    from models.take_it_higher.maximum import solve_ship_completion
    from tests.tih_small import brute_force_ship_best, small_ship_rules

    rules = small_ship_rules(seed, n_cells=5, n_tiles=6)
    variant = Variant(False, ships)
    draw = random.Random(seed).sample(list(rules.tiles), rules.board_size)
    best, game = brute_force_ship_best(rules, variant, draw)
    problem = MaxProblem(rules, variant, tuple(draw))
    done, outcome = solve_ship_completion(problem, game[:k],
                                          SolverOptions(time_limit=20, workers=1))
    assert outcome.status == "optimal" and outcome.objective == best
    assert done[:k] == game[:k]


@pytest.mark.parametrize("seed", range(4))
def test_the_search_scratch_is_the_engine_changed_in_place(seed):
    """The brute force's `Scratch` (a search's own board, changed in place) offers the
    state's moves; played, it is the state the engine gives (`placed`), and with every
    move taken back, the state it was built from, which never changed."""
    from models.take_it_higher.state import GameState, Scratch

    rules = small_ship_rules(seed)
    variant = Variant(seed % 2 == 0, SHIPS[seed % 2])
    rng = random.Random(seed)
    start = state = GameState(rules, variant)
    scratch, played = Scratch(start), []
    for tile in rng.sample(list(rules.tiles), rules.board_size):
        moves = state.placements_for(tile)
        assert scratch.placements_for(tile) == moves
        move = rng.choice(moves)
        scratch.play(move)
        played.append(move)
        state = state.placed(move)
        assert scratch.state() == state and scratch.bonus() == state.bonus()
    assert scratch.is_terminal() and not start.placements and not start.board
    for move in reversed(played):
        scratch.undo(move)
    assert scratch.state() == start == GameState(rules, variant)
