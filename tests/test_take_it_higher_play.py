"""Playing Take it Higher!: policies, seeded simulations, the interactive `play` command."""

from __future__ import annotations

import json
import random
import statistics

import pytest
from click.testing import CliRunner

from models.take_it_higher import play
from models.take_it_higher.rules import (
    GameState,
    Variant,
    load_rules,
    rules_from_dict,
)
from solver.cli import cli
from tests.tih_small import small_ship_rules_dict

VARIANTS = [Variant(), Variant(True), Variant(False, "simple"), Variant(True, "advanced")]


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, ["take-it-higher", *args], input=input)


def checked_game(rules, variant, policy, seed: int) -> GameState:
    """Play a game checking every move against the state's legal moves."""
    rng = random.Random(seed)
    state = GameState(rules, variant)
    for tile in play.game_draw(rules, seed):
        move = policy(state, tile, rng)
        assert move.tile == tile.id
        assert move.cell not in state.board
        assert move.cell in state.empty_cells()
        assert move.launch in state.legal_launches(tile, move.cell)
        state.apply(move)
    assert state.is_terminal()
    return state


@pytest.mark.parametrize("policy", [play.random_policy, play.greedy_policy])
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_policies_play_legal_moves_on_small_rules(policy, variant):
    for seed in range(6):
        rules = rules_from_dict(small_ship_rules_dict(seed, n_cells=6, n_tiles=9))
        checked_game(rules, variant, policy, seed)


@pytest.mark.parametrize("policy", [play.random_policy, play.greedy_policy])
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_policies_play_legal_moves_on_builtin_rules(policy, variant):
    rules = load_rules()
    for seed in range(2):
        checked_game(rules, variant, policy, seed)


def test_greedy_takes_the_best_ring_bonus_with_fewest_ships():
    rules = load_rules()
    variant = Variant(False, "simple")
    launched = 0
    for seed in range(4):
        state = checked_game(rules, variant, play.greedy_policy, seed)
        launched += len(state.launched)
    assert launched > 0  # greedy does launch ships when a row allows it


def test_hint_policy_plays_legal_moves():
    pytest.importorskip("models.take_it_higher.hint")
    rules = rules_from_dict(small_ship_rules_dict(3, n_cells=5, n_tiles=8))
    checked_game(rules, Variant(), play.hint_policy(samples=3, time_limit=1.0), 3)


def scores(result) -> list[tuple]:
    return [(r.seed, r.draw, r.placements, r.score, r.optimum) for r in result.records]


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_simulation_is_reproducible_from_its_seed(policy):
    rules = load_rules()
    a = play.simulate(rules, Variant(), 3, seed=11, policy_name=policy, optimum_time=None)
    b = play.simulate(rules, Variant(), 3, seed=11, policy_name=policy, optimum_time=None)
    assert scores(a) == scores(b)
    c = play.simulate(rules, Variant(), 3, seed=12, policy_name=policy, optimum_time=None)
    assert scores(c) != scores(a)
    # every game carries its own seed: game 1 of seed 11 is game 0 of seed 12
    assert scores(a)[1] == scores(c)[0]


def test_simulation_aggregates():
    rules = load_rules()
    r = play.simulate(rules, Variant(), 4, seed=0, policy_name="random", optimum_time=None)
    s = [g.score for g in r.records]
    assert r.mean == pytest.approx(statistics.fmean(s), abs=1e-3)
    assert r.median == statistics.median(s)
    assert r.quartiles == pytest.approx(statistics.quantiles(s, n=4))
    assert (r.min, r.max) == (min(s), max(s))
    assert r.optimum_mean is None and r.ratio is None
    one = play.simulate(rules, Variant(), 1, seed=0, policy_name="random", optimum_time=None)
    assert one.quartiles == [one.mean] * 3


def test_random_policy_scores_less_than_greedy():
    rules = load_rules()
    rnd = play.simulate(rules, Variant(), 10, seed=100, policy_name="random", optimum_time=None)
    greedy = play.simulate(rules, Variant(), 10, seed=100, policy_name="greedy",
                           optimum_time=None)
    assert rnd.mean < greedy.mean
    assert greedy.mean > 2 * rnd.mean  # checked: about 60 against 280


@pytest.mark.parametrize("variant", [Variant(), Variant(True), Variant(False, "simple")],
                         ids=lambda v: v.name)
def test_hindsight_optimum_is_never_beaten(variant):
    rules = rules_from_dict(small_ship_rules_dict(5, n_cells=6, n_tiles=9))
    for policy in ("greedy", "random"):
        r = play.simulate(rules, variant, 3, seed=7, policy_name=policy, optimum_time=10)
        for g in r.records:
            assert g.optimum is not None and g.optimum_proven
            assert g.optimum >= g.score
        assert r.ratio is not None and r.ratio <= 1


def test_hindsight_optimum_builtin_basic():
    r = play.simulate(load_rules(), Variant(), 1, seed=0, policy_name="greedy", optimum_time=30)
    assert r.records[0].optimum_proven
    assert r.records[0].optimum >= r.records[0].score


# --------------------------------------------------------------------------- CLI

def test_simulate_json_is_one_document_and_reproducible():
    args = ["simulate", "--games", "3", "--seed", "4", "--policy", "greedy", "--no-optimum",
            "--json"]
    a, b = run(*args), run(*args)
    assert a.exit_code == 0, a.output
    da, db = json.loads(a.stdout), json.loads(b.stdout)
    for d in (da, db):
        d.pop("seconds")
        for g in d["records"]:
            g.pop("seconds")
    assert da == db
    assert da["games"] == 3 and da["policy"] == "greedy" and da["optimum_mean"] is None


def test_simulate_table(tmp_path):
    rules = tmp_path / "small.json"
    rules.write_text(json.dumps(small_ship_rules_dict(2, n_cells=5, n_tiles=7)))
    r = run("simulate", "--games", "2", "--policy", "random", "--rules", str(rules),
            "--optimum-time", "5")
    assert r.exit_code == 0, r.output
    assert "mean hindsight optimum" in r.stdout and "mean score" in r.stdout


def small_rules_file(tmp_path) -> tuple[str, list[str]]:
    data = small_ship_rules_dict(4, n_cells=5, n_tiles=7)
    path = tmp_path / "small.json"
    path.write_text(json.dumps(data))
    return str(path), [c["id"] for c in data["cells"]]


def test_play_a_game_to_the_score_sheet(tmp_path):
    path, cells = small_rules_file(tmp_path)
    lines = ["[zz9", cells[0], cells[0]]  # an unknown cell, then a cell, then it again
    try:
        import models.take_it_higher.hint  # noqa: F401
        lines.insert(1, "hint")
    except ImportError:
        pass
    lines += cells[1:]
    r = run("play", "--seed", "3", "--rules", path, "--hint-time", "0.3",
            input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    assert "is not a cell" in r.output
    assert "is occupied" in r.output
    if "hint" in lines:
        assert "Where to put" in r.output
    assert "Score sheet" in r.output
    assert "best possible" in r.output


def test_play_asks_which_ships_to_launch(tmp_path):
    """Simple rules on small boards: whenever a launch is possible the game asks; the
    default (Enter) is no launch, so the game still ends with a sheet."""
    path, cells = small_rules_file(tmp_path)
    r = run("play", "--seed", "1", "--rules", path, "--variant", "simple",
            input="\n".join(f"{c}\n" for c in cells) + "\n" * 10)
    assert r.exit_code == 0, r.output
    assert "Launch [0]" in r.output
    assert "Score sheet" in r.output


def test_play_quit_and_end_of_input(tmp_path):
    path, cells = small_rules_file(tmp_path)
    r = run("play", "--seed", "3", "--rules", path, input=f"{cells[0]}\nquit\n")
    assert r.exit_code == 0, r.output
    assert "stopped after 1 of 5" in r.output
    r = run("play", "--seed", "3", "--rules", path, input=f"{cells[0]}\n")
    assert r.exit_code == 0, r.output
    assert "End of input" in r.output
    assert "Traceback" not in r.output
    r = run("play", "--seed", "3", input="")
    assert r.exit_code == 0, r.output
    assert "End of input" in r.output


def test_play_on_builtin_rules():
    rules = load_rules()
    r = run("play", "--seed", "0", input="\n".join(rules.cell_ids) + "\n")
    assert r.exit_code == 0, r.output
    assert "Score sheet" in r.output and "best possible" in r.output


def test_hint_simulation_with_fixed_samples_is_reproducible():
    # fixed samples = fixed solver work per completion, so the wall clock plays no part
    rules = rules_from_dict(small_ship_rules_dict(3, n_cells=6, n_tiles=10))
    runs = [play.simulate(rules, Variant(), 3, seed=5, policy_name="hint", hint_samples=2,
                          optimum_time=None) for _ in range(2)]
    assert scores(runs[0]) == scores(runs[1])
    assert len({tuple(r.placements) for r in runs[0].records}) > 1
