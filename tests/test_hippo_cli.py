"""`toppi hippo ...` on the example files; bad input is one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import assert_one_line_error, game_runner, run_json

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hippo"


run = game_runner("hippo")


def ok_json(*args: str):
    return run_json(run, *args)


@pytest.mark.parametrize("name", sorted(p.name for p in PUZZLES.glob("*.json")))
def test_show_and_best_on_every_example(name, tmp_path):
    f = str(PUZZLES / name)
    shown = ok_json("show", f)
    assert sum(shown["stock_sizes"].values()) > 0
    assert run("show", f, "--svg", str(tmp_path / "p.svg")).exit_code == 0
    assert (tmp_path / "p.svg").read_text().startswith("<svg")
    result = ok_json("best", f, "--roll", "3,4,6")
    assert result["proven"] and result["options"][0]["placements"] == result["best"]
    assert run("best", f, "--roll", "3,4,6").exit_code == 0


def test_moves_642_on_the_start_position():
    out = ok_json("moves", str(PUZZLES / "start-2p.json"), "--roll", "6,4,2")
    assert sorted(sorted(o["lanes"]) for o in out["outcomes"]) == [
        [2, 4, 6], [2, 10], [4, 8], [6, 6], [12]]
    assert [o["shed"] for o in out["outcomes"]] == [3, 2, 2, 2, 1]
    assert run("moves", str(PUZZLES / "start-2p.json"), "--roll", "6,4,2").exit_code == 0


def test_best_json_ranks_by_expected_shed_then_exposure():
    out = ok_json("best", str(PUZZLES / "midgame-4p.json"), "--roll", "3,4,6")
    keys = [(-o["expected_shed"], o["exposure"]) for o in out["options"]]
    assert keys == sorted(keys)
    assert out["options"][0]["placements"][0].endswith("green")  # foreign chip first


def test_simulate_json():
    out = ok_json("simulate", "--games", "4", "--players", "3", "--policy",
                  "best,greedy,random", "--seed", "2")
    assert out["games"] == 4 and len(out["win_rate_by_seat"]) == 3
    assert set(out["win_rate_by_policy"]) == {"best", "greedy", "random"}
    assert run("simulate", "--games", "2", "--players", "2", "--policy", "greedy").exit_code == 0


@pytest.mark.parametrize("args, words", [
    (["best", "start-2p.json", "--roll", "6,4,7"], ["die '7'", "1-6"]),
    (["moves", "start-2p.json", "--roll", "6,4"], ["3 dice"]),
    (["best", "missing.json", "--roll", "1,2,3"], ["no such file"]),
    (["simulate", "--players", "5"], ["2-4 players"]),
    (["simulate", "--policy", "clever"], ["unknown policy 'clever'"]),
    (["simulate", "--players", "3", "--policy", "best,greedy"], ["2 policies for 3"]),
])
def test_bad_arguments(args, words):
    args = [str(PUZZLES / a) if a.endswith(".json") else a for a in args]
    assert_one_line_error(run(*args), *words)


@pytest.mark.parametrize("data, words", [
    ('{"players": ["red", "green"], "lanes": {"4": ["red", "red", "red", "green"]}}',
     ["lanes.4", "a lane holds 3"]),
    ('{"players": ["red", "green"], "stocks": {"red": 12, "green": 10}}',
     ["10 green chips", "each colour has 12"]),
    ('{"players": ["red", "green"], ', ["malformed JSON"]),
    ('{"players": ["red", "pink"]}', ["unknown colour 'pink'"]),
    ('{"game": "topito", "players": ["red", "green"]}', ["not a hippo position"]),
])
def test_bad_position_files(tmp_path, data, words):
    f = tmp_path / "p.json"
    f.write_text(data)
    assert_one_line_error(run("best", str(f), "--roll", "1,2,3"), *words)
