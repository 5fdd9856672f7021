"""Exact values of small positions: the best honest play and the hindsight optimum,
held equal to plain recursions over the rules engine."""

from __future__ import annotations

import itertools
import json
import random
import statistics

import pytest

from models.take_it_higher.exact import (
    ExactValues,
    exact_cells,
    hindsight_value,
    honest_value,
)
from models.take_it_higher.positions import Placement
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import load_rules
from models.take_it_higher.state import GameState
from models.take_it_higher.variants import Variant
from solver.errors import BadInput
from tests.cli_helpers import game_runner, run_json
from tests.tih_small import brute_force_max, random_position, small_rules


def _expectimax(state: GameState) -> float:
    """The rules engine's own expectimax: every call with its chance, every move."""
    if state.is_terminal():
        return board_score(state.rules, state.board, state.variant.gold_silver)
    total = 0.0
    for tile, chance in state.call_chances():
        called = state.apply_action(tile)
        total += chance * max(_expectimax(called.apply_action(p))
                              for p in called.legal_placements())
    return total


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("gold_silver", [False, True])
def test_honest_value_is_the_rules_engines_expectimax(seed, gold_silver):
    rules = small_rules(seed, n_cells=4, n_tiles=6, n_dirs=3 + seed % 2)
    variant = Variant(gold_silver)
    for k in (0, 2):
        state, tile = random_position(rules, variant, k, seed)
        assert honest_value(state) == pytest.approx(_expectimax(state))
        called = state.apply_action(tile)
        found = exact_cells(state, tile)
        want = {p.cell: _expectimax(called.apply_action(p))
                for p in called.legal_placements()}
        assert {c.cell: pytest.approx(c.value) for c in found.cells} == want
        assert [c.value for c in found.cells] == pytest.approx(sorted(want.values(),
                                                                      reverse=True))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("gold_silver", [False, True])
def test_hindsight_value_is_the_mean_of_the_draws_brute_force_maxima(seed, gold_silver):
    rules = small_rules(seed, n_cells=4, n_tiles=6, n_dirs=3)
    state = GameState(rules, Variant(gold_silver))
    draws = list(itertools.combinations(rules.tiles, rules.board_size))
    want = statistics.fmean(brute_force_max(rules, gold_silver, list(d)) for d in draws)
    assert hindsight_value(state) == pytest.approx(want)
    # no player does better than the best play, and it cannot see the draw
    assert honest_value(state) <= want + 1e-9


def test_one_empty_cell_honest_equals_hindsight():
    rules = small_rules(7, n_cells=5, n_tiles=8, n_dirs=4)
    state, _ = random_position(rules, Variant(True), 4, 3)
    assert honest_value(state) == pytest.approx(hindsight_value(state))


def test_values_are_kept_between_positions_and_copies_are_one_kind():
    """A second position of the same game reuses the kept values; on the built-in tiles
    (gold and silver of each letter alike without the gold/silver rules) kinds are
    shared."""
    rules = load_rules()
    values = ExactValues(rules, Variant())
    assert len(values.kinds) == len(rules.tiles) // 2 == len({t.stripes for t in rules.tiles})
    assert len(ExactValues(rules, Variant(True)).kinds) == len(rules.tiles)
    state, tile = random_position(rules, Variant(), rules.board_size - 3, 4)
    first = values.cells_for(state, tile)
    kept = len(values.memo)
    best = first.cells[0].cell
    after = state.apply_action(tile).apply_action(Placement(tile.id, best))
    nxt = next(t for t in after.unseen_tiles())
    values.cells_for(after, nxt)
    assert len(values.memo) == kept  # every position there was valued on the way


def test_the_order_of_a_dealt_game_is_never_read():
    rules = small_rules(2, n_cells=4, n_tiles=7, n_dirs=3)
    draw = random.Random(1).sample(list(rules.tiles), rules.board_size)
    dealt = GameState(rules, Variant(), called=draw[0], to_call=tuple(draw[1:]))
    other = GameState(rules, Variant(), called=draw[0], to_call=tuple(reversed(draw[1:])))
    assert exact_cells(dealt, draw[0]) == exact_cells(other, draw[0])


def test_too_large_and_spaceships_are_clear_errors():
    rules = load_rules()
    with pytest.raises(BadInput, match="too large"):
        honest_value(GameState(rules, Variant()), limit=10_000)
    with pytest.raises(BadInput, match="spaceships"):
        honest_value(GameState(rules, Variant(False, "simple")))
    # the called tile the last of its kind (every kind one tile under the gold/silver
    # rules): the count before any work still sees the size (it once read a count of -1)
    for variant in (Variant(True), Variant()):
        state = GameState(rules, variant)
        called = state.apply_action(rules.tile_by_id["GA"])
        if not variant.gold_silver:  # the basic kind of GA has two tiles: place one
            twin = next(t for t in rules.tiles if t.stripes == called.called.stripes
                        and t.id != "GA")
            called = GameState(rules, variant).apply_action(twin)
            called = called.apply_action(Placement(twin.id, rules.cell_ids[0])) \
                .apply_action(rules.tile_by_id["GA"])
        with pytest.raises(BadInput, match="too large"):
            exact_cells(called, rules.tile_by_id["GA"])


def test_hint_exact_command(tmp_path):
    """`hint FILE --exact` on the built-in board with three empty cells: the cells and
    their exact values, as in process; a position too large is exit 2, one line."""
    from click.testing import CliRunner

    from solver.cli import cli
    rules = load_rules()
    state, tile = random_position(rules, Variant(True), rules.board_size - 3, 9)
    position = tmp_path / "position.json"
    position.write_text(json.dumps({"placements": [f"{t.id}@{c}" for c, t in
                                                   state.board.items()], "called": tile.id}))
    out = run_json(game_runner("take-it-higher"), "hint", str(position), "--exact",
                   "--gold-silver")
    want = exact_cells(state, tile)
    assert [(c["cell"], c["value"]) for c in out["cells"]] == [
        (c.cell, pytest.approx(c.value)) for c in want.cells]
    assert len(out["cells"]) == 3 and not out["all_seeing"]
    early = tmp_path / "early.json"
    early.write_text(json.dumps({"placements": [], "called": tile.id}))
    res = CliRunner().invoke(cli, ["take-it-higher", "hint", str(early), "--exact"])
    assert res.exit_code == 2 and "too large" in res.output
    assert len(res.output.strip().splitlines()) == 1
