"""Files that parse but break the rulebook's invariants, and learned values files that
are not what `learn` writes: one line naming the problem, exit 2."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from solver.errors import BadInput
from tests.cli_helpers import assert_one_line_error, game_runner

ROOT = Path(__file__).resolve().parents[1]
run = game_runner("")


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


# ---------------------------------------------------------------- Topito cards

TOPITO_BLOCKS = {"game": "topito", "podiums": {"red": [], "yellow": [], "blue": []}}


@pytest.mark.parametrize("hands, played, words", [
    ([["Duck on Owl"] * 4, ["?"]], None, ["'Duck on Owl' is held 4 times", "hand 1",
                                           "deck file has 1"]),
    ([["Duck on Owl"], ["Duck on Owl", "?"]], None, ["held 2 times", "hand 1, hand 2"]),
    ([["Duck on Owl"], ["?"]], [["Duck on Owl"], []], ["hand 1, played pile 1"]),
])
def test_topito_a_card_in_more_places_than_the_deck_has(tmp_path, hands, played, words):
    data = {**TOPITO_BLOCKS, "hands": hands}
    if played is not None:
        data["played"] = played
    assert_one_line_error(run("topito", "show", write(tmp_path, "p.json", data)), *words)


def test_topito_a_card_in_the_deck_list_and_a_hand(tmp_path):
    rules = json.loads((ROOT / "models/topito/data/deck.json").read_text())
    assert rules  # the deck file exists; the position names one card twice
    data = {**TOPITO_BLOCKS, "hands": [["Duck on Owl"], []],
            "deck": {"unordered": ["Duck on Owl"]}}
    assert_one_line_error(run("topito", "show", write(tmp_path, "p.json", data)),
                          "Duck on Owl")


def test_topito_distinct_cards_are_read(tmp_path):
    data = {**TOPITO_BLOCKS, "hands": [["Duck on Owl"], ["?", "?"]]}
    result = run("topito", "show", write(tmp_path, "p.json", data))
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------- rules files

def test_take_it_higher_two_cells_at_one_place(tmp_path):
    data = json.loads((ROOT / "models/take_it_higher/data/default.json").read_text())
    data["cells"][1]["x"], data["cells"][1]["y"] = data["cells"][0]["x"], data["cells"][0]["y"]
    result = run("take-it-higher", "tiles", "--rules", write(tmp_path, "r.json", data))
    assert_one_line_error(result, "cells 'c1' and 'd1' are at the same place")


def test_take_it_higher_cells_far_away(tmp_path):
    data = json.loads((ROOT / "models/take_it_higher/data/default.json").read_text())
    data["cells"][0]["x"] = 1e300
    result = run("take-it-higher", "tiles", "--rules", write(tmp_path, "r.json", data))
    assert_one_line_error(result, "coordinates are at most")


@pytest.mark.parametrize("pairs, words", [
    ([[0, 1], [2, 2]], ["adjacent[1]", "pile 2 cannot be its own neighbour"]),
    ([[0, 1], [1, 0]], ["adjacent[1]", "neighbours already"]),
    ([[0, 1], [0, 1]], ["neighbours already"]),
])
def test_tippi_toppi_adjacency_is_irreflexive_and_each_pair_once(tmp_path, pairs, words):
    data = json.loads((ROOT / "models/tippi_toppi/data/default.json").read_text())
    data["adjacent"] = pairs
    position = str(ROOT / "puzzles/tippi-toppi/hidden.json")
    result = run("tippi-toppi", "show", position, "--rules",
                 write(tmp_path, "r.json", data))
    assert_one_line_error(result, *words)


# ---------------------------------------------------------------- Hoch Hinaus status

def test_hoch_hinaus_a_lost_game_seen_by_the_other_player_stays_lost():
    """Found by the fuzz round trip: the observer cannot see the stuck hand, so the
    file says the game is lost, and reading it back keeps it lost."""
    from models.hoch_hinaus.game import GAME

    rules = GAME.load_rules(None)
    lost = None
    for seed in range(40):
        deal, play = GAME.streams(seed)
        state = GAME.new_game(rules, GAME.setups(rules)[0], deal)
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            state = GAME.apply_action(state, play.choice(legal))
        if state.status == "lost":
            lost = state
            break
    assert lost is not None
    observer = (lost.on_turn + 1) % len(lost.hands)
    seen = GAME.observation(lost, observer)
    data = GAME.write(seen)
    assert data["status"] == "lost"
    again = GAME.read(rules, json.loads(json.dumps(data)), "round trip")
    assert again.status == "lost" and GAME.is_terminal(again)
    assert GAME.write(again) == data
    # a known hand that can still place contradicts the file
    start = GAME.write(GAME.new_game(rules, GAME.setups(rules)[0], GAME.streams(1)[0]))
    with pytest.raises(BadInput, match="can still place"):
        GAME.read(rules, {**start, "status": "lost"}, "file")
    with pytest.raises(BadInput, match="'playing' or 'lost'"):
        GAME.read(rules, {**start, "status": "won"}, "file")


# ---------------------------------------------------------------- values files

@pytest.fixture(scope="module")
def values(tmp_path_factory) -> dict:
    from models.take_it_higher.learned.td import train
    from models.take_it_higher.rules import load_rules
    from models.take_it_higher.variants import Variant

    path = tmp_path_factory.mktemp("values") / "v.json"
    train(load_rules(), Variant(), 5, seed=1).save(path)
    return json.loads(path.read_text())


def _broken(values: dict, how: str) -> str:
    d = copy.deepcopy(values)
    if how == "nan":
        d["weights"][0][1] = 12345.5
        return json.dumps(d).replace("12345.5", "NaN")
    if how == "inf":
        d["weights"][0][1] = 12345.5
        return json.dumps(d).replace("12345.5", "1e999")
    if how == "1e308":
        d["weights"][0][1] = 1e308
    elif how == "games -5":
        d["games"] = -5
    elif how == "games true":
        d["games"] = True
    elif how == "object key":
        d["weights"][0][0][1] = {"x": 1}
    elif how == "no weights":
        d["weights"] = []
    elif how == "twice":
        d["weights"].append(d["weights"][0])
    elif how == "tag":
        d["weights"][0][0][0] = "zz"
    elif how == "not pairs":
        d["weights"][0] = [d["weights"][0][0]]
    elif how == "weights object":
        d["weights"] = {"a": 1}
    elif how == "ships list":
        d["ships"] = ["simple"]
    elif how == "deep key":
        d["weights"][0][0][1] = [[1]]
    return json.dumps(d)


@pytest.mark.parametrize("how, words", [
    ("nan", ["NaN is not a number"]), ("inf", ["out of range"]),
    ("1e308", ["weights[0][1]", "out of range"]), ("games -5", [".games: -5"]),
    ("games true", [".games", "got true"]),
    ("object key", ["weights[0][0][1]", "expected an integer"]),
    ("no weights", ["no table entries"]), ("twice", ["given twice"]),
    ("tag", ["weights[0][0]", "table entry"]), ("not pairs", ["[key, weight]"]),
    ("weights object", [".weights", "expected a list"]),
    ("ships list", [".ships", "expected a string"]),
    ("deep key", ["list of integers or booleans"]),
])
@pytest.mark.parametrize("zipped", [False, True])
def test_a_broken_values_file_is_one_line(tmp_path, values, how, words, zipped):
    text = _broken(values, how)
    path = tmp_path / ("v.json.gz" if zipped else "v.json")
    path.write_bytes(gzip.compress(text.encode()) if zipped else text.encode())
    result = run("take-it-higher", "learn", "--games", "1", "--resume", str(path),
                 "--out", str(tmp_path / "o.json"))
    assert_one_line_error(result, "values file", *words)
    assert not (tmp_path / "o.json").exists()


def test_a_good_values_file_is_read_back_equal(tmp_path, values):
    from models.take_it_higher.learned.files import load_values
    from models.take_it_higher.rules import load_rules
    from models.take_it_higher.variants import Variant

    path = tmp_path / "v.json.gz"
    path.write_bytes(gzip.compress(json.dumps(values).encode()))
    read = load_values(path, load_rules(), Variant())
    assert json.loads(json.dumps(read.to_dict())) == values


@pytest.mark.parametrize("option, value", [
    ("--step", "nan"), ("--lambda", "nan"), ("--step", "inf"), ("--step", "0"),
    ("--lambda", "1"), ("--lambda", "-0.5"),
])
def test_learning_parameters_are_finite_and_in_range(tmp_path, option, value):
    result = run("take-it-higher", "learn", "--games", "1", option, value, "--out",
                 str(tmp_path / "v.json"))
    assert_one_line_error(result, option)
    assert not (tmp_path / "v.json").exists()


@pytest.mark.parametrize("alpha, lam, words", [
    (float("nan"), 0.0, "--step"), (0.2, float("nan"), "--lambda"), (2.0, 0.0, "--step"),
    (0.2, 1.0, "--lambda"),
])
def test_train_refuses_what_the_options_refuse(alpha, lam, words):
    from models.take_it_higher.learned.td import train
    from models.take_it_higher.rules import load_rules
    from models.take_it_higher.variants import Variant

    with pytest.raises(BadInput, match=words):
        train(load_rules(), Variant(), 1, alpha=alpha, lam=lam)
