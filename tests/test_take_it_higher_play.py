"""Playing Take it Higher!: the game description (calls, chance, information), the
policies, seeded simulations and the interactive `play` command."""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner

from models.take_it_higher import policies
from models.take_it_higher.game import GAME
from models.take_it_higher.positions import Placement, parse_placement
from models.take_it_higher.rules import load_rules, rules_from_dict
from models.take_it_higher.state import GameState, game_draw
from models.take_it_higher.variants import Variant
from solver.cli import cli
from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL
from solver.simulate import play_one, simulate
from tests.cli_helpers import run_json
from tests.tih_small import small_ship_rules_dict

VARIANTS = [Variant(), Variant(True), Variant(False, "simple"), Variant(True, "advanced")]
PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "take-it-higher"



def cell_of(placement: str) -> str:
    return parse_placement(load_rules(), placement, "test").cell

def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, ["take-it-higher", *args], input=input)


def checked_game(rules, variant, choose, seed: int) -> GameState:
    """Play a dealt game checking every move against the legal moves."""
    deal, rng = GAME.streams(seed)
    state = GAME.new_game(rules, {"variant": variant.name}, deal)
    while not GAME.is_terminal(state):
        assert GAME.current_player(state) == 0  # a known order: no chance events
        legal = GAME.legal_actions(state)
        move = choose(GAME.observation(state, 0), legal, rng)
        assert move in legal
        assert move.tile == state.called.id and move.cell in state.empty_cells()
        assert move.launch in state.legal_launches(state.called, move.cell)
        state = GAME.apply_action(state, move)
    assert [p.tile for p in state.placements] == [t.id for t in game_draw(rules, seed)]
    return state


@pytest.mark.parametrize("choose", [policies.random_choice, policies.greedy_choice])
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_policies_play_legal_moves_on_small_rules(choose, variant):
    for seed in range(6):
        rules = rules_from_dict(small_ship_rules_dict(seed, n_cells=6, n_tiles=9))
        checked_game(rules, variant, choose, seed)


@pytest.mark.parametrize("choose", [policies.random_choice, policies.greedy_choice])
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_policies_play_legal_moves_on_builtin_rules(choose, variant):
    rules = load_rules()
    for seed in range(2):
        checked_game(rules, variant, choose, seed)


def test_greedy_takes_the_best_ring_bonus_with_fewest_ships():
    rules = load_rules()
    variant = Variant(False, "simple")
    launched = 0
    for seed in range(4):
        state = checked_game(rules, variant, policies.greedy_choice, seed)
        launched += len(state.launched)
    assert launched > 0  # greedy does launch ships when a row allows it


def test_hint_policy_plays_legal_moves():
    rules = rules_from_dict(small_ship_rules_dict(3, n_cells=5, n_tiles=8))
    checked_game(rules, Variant(), policies.hint_choice(samples=3, time_limit=1.0), 3)


# --------------------------------------------------------------------------- the call

def test_a_position_without_a_called_tile_is_a_chance_node():
    rules = load_rules()
    state = GAME.read(rules, {"placements": ["GJ@c3", "SA@d4"]}, "test")
    assert GAME.current_player(state) == CHANCE
    outcomes = GAME.chance_outcomes(state)
    tiles = [t.id for t, _ in outcomes]
    assert len(tiles) == len(rules.tiles) - 2 and "GJ" not in tiles and "SA" not in tiles
    assert all(p == pytest.approx(1 / 30) for _, p in outcomes)
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    assert GAME.legal_actions(state) == [t for t, _ in outcomes]
    called = GAME.apply_action(state, rules.tile_by_id["GB"])
    assert GAME.current_player(called) == 0 and called.called.id == "GB"
    assert state.called is None  # unchanged
    assert {p.cell for p in GAME.legal_actions(called)} == set(state.empty_cells())
    after = GAME.apply_action(called, Placement("GB", "a3"))
    assert GAME.current_player(after) == CHANCE  # the next call is chance again
    with pytest.raises(BadInput, match="already placed"):
        GAME.apply_action(state, rules.tile_by_id["GJ"])
    with pytest.raises(BadInput, match="called tile is GB"):
        GAME.apply_action(called, Placement("GC", "a3"))
    with pytest.raises(BadInput, match="no tile is called"):
        GAME.apply_action(state, Placement("GB", "a3"))


def test_a_dealt_game_calls_the_next_tile_with_each_placement():
    rules = load_rules()
    state = GAME.new_game(rules, {"variant": "basic"}, random.Random(0))
    draw = game_draw(rules, 0)
    assert state.called == draw[0] and state.to_call == tuple(draw[1:])
    # the one call left to chance in a known order is certain
    assert GAME.chance_outcomes(GameState(rules, Variant(), to_call=tuple(draw))) == [
        (draw[0], 1.0)]
    for turn in range(rules.board_size):
        assert GAME.current_player(state) == 0 and state.called == draw[turn]
        state = GAME.apply_action(state, GAME.legal_actions(state)[0])
    assert GAME.current_player(state) == TERMINAL and state.called is None
    assert GAME.returns(state) == [float(GAME.measure(rules, {}, state,
                                                      {"no_optimum": True})["score"])]


def test_the_player_sees_the_called_tile_not_the_order():
    rules = load_rules()
    state = GAME.new_game(rules, {"variant": "simple"}, random.Random(4))
    state = GAME.apply_action(state, GAME.legal_actions(state)[3])
    seen = GAME.observation(state, 0)
    assert seen.to_call is None and seen.called == state.called
    assert GAME.unknown(seen) == ["the 22 tile(s) still to be called and their order: any "
                                  "22 of the 30 tiles neither placed nor called"]
    assert GAME.unknown(state) == []
    assert "to_call" not in json.dumps(GAME.write(state))
    orders = set()
    for seed in range(20):
        full = GAME.determinize(seen, random.Random(seed))
        assert full.called == state.called and len(full.to_call) == 22
        assert {t.id for t in full.to_call} <= {t.id for t in seen.unseen_tiles()}
        orders.add(tuple(t.id for t in full.to_call))
    assert len(orders) == 20


def test_called_tile_round_trips_through_the_position_file():
    rules = load_rules()
    data = {"game": "take-it-higher", "variant": "simple",
            "placements": ["GJ@a3", "GB@b5"], "called": "sf"}
    state = GAME.read(rules, data, "test")
    assert state.called.id == "SF" and state.variant == Variant(False, "simple")
    written = GAME.write(state)
    assert written == {**data, "called": "SF"}
    assert GAME.write(GAME.read(rules, written, "again")) == written
    with pytest.raises(BadInput, match="called tile GJ was already placed"):
        GAME.read(rules, {**data, "called": "GJ"}, "test")
    with pytest.raises(BadInput, match="unknown variant"):
        GAME.read(rules, {**data, "variant": "expert"}, "test")


def test_a_cell_alone_means_the_called_tile_with_any_launch():
    rules = load_rules()
    oliver = json.loads((PUZZLES / "oliver-simple.json").read_text())
    # Oliver's 14th tile, Gold H, launches orange, yellow and pink
    state = GAME.read(rules, {**oliver, "placements": oliver["placements"][:13],
                              "called": "GH"}, "test")
    cell = cell_of(oliver["placements"][13])
    launches = [p.launch for p in GAME.matching_actions(state, cell)]
    assert launches == [(), ("orange",), ("orange", "yellow"), ("orange", "yellow", "pink")]
    assert GAME.matching_actions(state, f"{cell}+yellow+orange") == [
        Placement("GH", cell, ("orange", "yellow"))]
    assert GAME.matching_actions(state, f"GH@{cell}+orange") == [
        Placement("GH", cell, ("orange",))]
    with pytest.raises(BadInput, match="next spaceship to launch is orange"):
        GAME.matching_actions(state, f"{cell}+pink")
    with pytest.raises(BadInput, match="not a cell of this board"):
        GAME.matching_actions(state, "z9")
    first_tile, first_cell = oliver["placements"][0].split("+")[0].split("@")
    with pytest.raises(BadInput, match=f"cell {first_cell} is occupied by {first_tile}"):
        GAME.matching_actions(state, first_cell)


def test_moves_lists_the_calls_then_the_placements_of_a_called_tile(tmp_path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"placements": ["GJ@c3"]}))
    calls = run("moves", str(f), "--json")
    assert calls.exit_code == 0, calls.output
    doc = json.loads(calls.stdout)
    assert doc["to_move"] == "chance" and len(doc["chance_outcomes"]) == 31
    assert doc["chance_outcomes"][0] == {"text": "GA", "tile": "GA",
                                         "probability": round(1 / 31, 6)}
    placed = run("moves", str(f), "--tile", "GD", "--json")
    assert placed.exit_code == 0, placed.output
    doc = json.loads(placed.stdout)
    assert doc["chance"] == "GD" and doc["count"] == 23
    assert {m["cell"] for m in doc["moves"]} == set(load_rules().cell_ids) - {"c3"}
    assert all(m["tile"] == "GD" and m["launch"] == [] for m in doc["moves"])
    # the Oliver file calls nothing; with its last tile called, the two launch sets
    oliver = json.loads((PUZZLES / "oliver-simple.json").read_text())
    g = tmp_path / "oliver.json"
    g.write_text(json.dumps({**oliver, "placements": oliver["placements"][:-1],
                             "called": "SE"}))
    last = json.loads(run("moves", str(g), "--json").stdout)
    cell = cell_of(oliver["placements"][-1])
    assert [m["text"] for m in last["moves"] if m["cell"] == cell] == [
        f"SE@{cell}", f"SE@{cell}+red", f"SE@{cell}+red+silver"]
    assert [m for m in last["moves"] if m["cell"] == cell][2]["rows_completed"] == [
        "red", "purple"]
    bad = run("moves", str(g), "--tile", "GD")
    assert bad.exit_code == 2 and "no chance event" in bad.output


def test_show_json_keeps_its_keys_and_says_what_is_unknown():
    r = run("show", str(PUZZLES / "oliver-simple.json"), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    oliver = json.loads((PUZZLES / "oliver-simple.json").read_text())["placements"]
    assert doc["placements"] == oliver
    sp_cell = cell_of(oliver[6])
    assert oliver[6].startswith("SP@") and doc["board"][sp_cell] == "SP"
    gh_cell = cell_of(oliver[13])
    assert doc["ships_on"][gh_cell] == ["orange", "yellow", "pink"]
    assert doc["empty_cells"] == [] and doc["called"] is None
    assert (doc["variant"], doc["to_move"], doc["unknown"]) == ("simple", None, [])


# --------------------------------------------------------------------------- simulate

def records(result) -> list[tuple]:
    return [(r.seed, r.returns, r.measures) for r in result.records]


def basic_run(rules, games, seed, policy, **options):
    return simulate(GAME, rules, games, [{"variant": "basic"}], [[policy]], seed,
                    options={"no_optimum": True, **options})


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_simulation_is_reproducible_from_its_seed(policy):
    rules = load_rules()
    a = basic_run(rules, 3, 11, policy)
    assert records(a) == records(basic_run(rules, 3, 11, policy))
    assert records(basic_run(rules, 3, 12, policy)) != records(a)
    # every game replays alone from its own seed
    again = play_one(GAME, rules, {"variant": "basic"}, [policy], {"no_optimum": True},
                     False, 0, 2, a.records[2].seed)
    assert again == a.records[2]


def test_simulation_at_seed_0_plays_the_published_draws():
    rules = load_rules()
    result = basic_run(rules, 3, 0, "greedy")
    for g, r in enumerate(result.records):
        tiles = [p.split("@")[0] for p in r.measures["placements"]]
        assert tiles == [t.id for t in game_draw(rules, g)]
    assert [r.returns[0] for r in result.records] == [267, 283, 284]


def test_simulation_aggregates():
    rules = load_rules()
    r = basic_run(rules, 4, 0, "random")
    s = [g.measures["score"] for g in r.records]
    assert s == [g.returns[0] for g in r.records]
    score = r.cells[0].score[0]
    assert score.mean == pytest.approx(statistics.fmean(s), abs=1e-3)
    assert score.median == statistics.median(s)
    assert score.quartiles == pytest.approx(statistics.quantiles(s, n=4))
    assert (score.min, score.max) == (min(s), max(s))
    assert r.cells[0].measures == {}  # no optimum asked
    one = basic_run(rules, 1, 0, "random")
    assert one.cells[0].score[0].quartiles == [one.cells[0].score[0].mean] * 3


def test_random_policy_scores_less_than_greedy():
    rules = load_rules()
    rnd = basic_run(rules, 10, 0, "random").cells[0].score[0]
    greedy = basic_run(rules, 10, 0, "greedy").cells[0].score[0]
    assert rnd.mean < greedy.mean
    assert greedy.mean > 2 * rnd.mean  # checked: about 60 against 280


@pytest.mark.parametrize("variant", [Variant(), Variant(True), Variant(False, "simple")],
                         ids=lambda v: v.name)
def test_hindsight_optimum_is_never_beaten(variant):
    rules = rules_from_dict(small_ship_rules_dict(5, n_cells=6, n_tiles=9))
    for policy in ("greedy", "random"):
        r = simulate(GAME, rules, 2, [{"variant": variant.name}], [[policy]], 7,
                     options={"optimum_time": 10})
        for g in r.records:
            assert g.measures["optimum"] is not None and g.measures["optimum_proven"]
            assert g.measures["optimum"] >= g.measures["score"]
        m = r.cells[0].measures
        assert m["optimum_all_proven"] and m["ratio"] is not None and m["ratio"] <= 1
        assert m["optimum_mean"] == pytest.approx(
            statistics.fmean(g.measures["optimum"] for g in r.records), abs=1e-3)


def test_hindsight_optimum_builtin_basic():
    r = simulate(GAME, load_rules(), 1, [{"variant": "basic"}], [["greedy"]], 0,
                 options={"optimum_time": 30})
    m = r.records[0].measures
    assert m["optimum_proven"] and m["optimum"] >= m["score"] == 267


def test_hint_simulation_with_fixed_samples_is_reproducible():
    # fixed samples = fixed solver work per completion, so the wall clock plays no part
    rules = rules_from_dict(small_ship_rules_dict(3, n_cells=6, n_tiles=10))
    runs = [basic_run(rules, 3, 5, "hint", samples=2) for _ in range(2)]
    assert records(runs[0]) == records(runs[1])
    assert len({tuple(r.measures["placements"]) for r in runs[0].records}) > 1


def test_simulate_json_is_one_document_and_reproducible():
    args = ["simulate", "--games", "3", "--seed", "4", "--policy", "greedy", "--no-optimum",
            "--json"]
    a, b = run(*args), run(*args)
    assert a.exit_code == 0, a.output
    da, db = json.loads(a.stdout), json.loads(b.stdout)
    for d in (da, db):
        d.pop("seconds")
    assert da == db
    assert da["games"] == 3 and da["cells"][0]["seats"] == ["greedy"]
    assert da["cells"][0]["setup"] == {"variant": "basic"} and da["cells"][0]["measures"] == {}
    assert da["knows"] == {"greedy": "own"}  # the policy sees what a player sees


def test_simulate_table(tmp_path):
    rules = tmp_path / "small.json"
    rules.write_text(json.dumps(small_ship_rules_dict(2, n_cells=5, n_tiles=7)))
    r = run("simulate", "--games", "2", "--policy", "random", "--rules", str(rules),
            "--optimum-time", "5")
    assert r.exit_code == 0, r.output
    assert "ratio" in r.stdout and "score" in r.stdout and "proven" in r.stdout


# --------------------------------------------------------------------------- play

def small_rules_file(tmp_path) -> tuple[str, list[str]]:
    data = small_ship_rules_dict(4, n_cells=5, n_tiles=7)
    path = tmp_path / "small.json"
    path.write_text(json.dumps(data))
    return str(path), [c["id"] for c in data["cells"]]


def test_play_a_game_to_the_score_sheet(tmp_path):
    path, cells = small_rules_file(tmp_path)
    # an unknown cell, a hint, a cell, then the same cell again
    lines = ["[zz9", "hint", cells[0], cells[0], *cells[1:]]
    r = run("play", "--seed", "3", "--rules", path, "--hint-time", "0.3",
            input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    assert "Turn 1/5: called tile" in r.output
    assert "is not a cell" in r.output
    assert "is occupied" in r.output
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
    assert "0: " in r.output and "Which [0]" in r.output
    assert "Score sheet" in r.output


def test_play_quit_and_end_of_input(tmp_path):
    path, cells = small_rules_file(tmp_path)
    r = run("play", "--seed", "3", "--rules", path, input=f"{cells[0]}\nquit\n")
    assert r.exit_code == 0, r.output
    assert "Turn 2/5" in r.output and "Game stopped" in r.output
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


def test_play_from_a_position_file_draws_the_unknown_calls(tmp_path):
    path, cells = small_rules_file(tmp_path)
    f = tmp_path / "p.json"
    data = json.loads(Path(path).read_text())
    first = data["tiles"][0]["id"]
    f.write_text(json.dumps({"placements": [f"{first}@{cells[0]}"]}))
    r = run("play", str(f), "--seed", "2", "--rules", path, "--no-optimum",
            input="\n".join(cells[1:]) + "\n")
    assert r.exit_code == 0, r.output
    assert "Turn 2/5" in r.output and "Score sheet" in r.output
    assert "best possible" not in r.output


def test_hint_command_takes_the_files_called_tile(tmp_path):
    f = tmp_path / "p.json"
    oliver = json.loads((PUZZLES / "oliver-simple.json").read_text())
    f.write_text(json.dumps({**oliver, "placements": oliver["placements"][:-1],
                             "called": "SE"}))
    cell = cell_of(oliver["placements"][-1])
    r = run("hint", str(f), "--method", "sampled", "--json")
    assert r.exit_code == 0, r.output
    best = json.loads(r.stdout)["options"][0]
    assert (best["cell"], best["launch"], best["estimate"]) == (cell, ["red", "silver"], 477)
    # the default (learned values on the built-in board) names the same move
    answer = run_json(run, "hint", str(f))
    assert (answer["method"], answer["cells"][0]["cell"]) == ("learned", cell)
    assert answer["cells"][0]["launch"] == ["red", "silver"]
    bad = run("hint", str(f), "--tile", "GA")
    assert bad.exit_code == 2 and "the file calls SE" in bad.output
    no_tile = tmp_path / "q.json"
    no_tile.write_text(json.dumps({"placements": []}))
    assert "--tile" in run("hint", str(no_tile)).output
