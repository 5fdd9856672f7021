"""`toppi hippo ...` on the example files; bad input is one line and exit 2."""

from __future__ import annotations

import json
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
    assert out["to_move"] == 1 and out["chance"] == "6,4,2"
    # every placement order is a move; the rulebook's five options are the results
    assert out["count"] == 12 and out["distinct_results"] == 5
    first = {}
    for m in out["moves"]:
        first.setdefault(m["result"], m)
    assert [sorted(int(p.split()[0]) for p in m["placements"]) for m in first.values()] == [
        [2, 4, 6], [2, 10], [4, 8], [6, 6], [12]]
    assert [m["shed"] for m in first.values()] == [3, 2, 2, 2, 1]
    assert [m["orders"] for m in first.values()] == [6, 2, 2, 1, 1]
    assert sum(m["orders"] for m in first.values()) == out["count"]
    assert not any(m["bonus_roll"] or m["won"] or m["kicked_out"] or m["penalty_taken"]
                   for m in out["moves"])
    assert run("moves", str(PUZZLES / "start-2p.json"), "--roll", "6,4,2").exit_code == 0


def test_moves_without_a_roll_lists_the_rolls_and_their_chances():
    out = ok_json("moves", str(PUZZLES / "start-2p.json"))
    assert out["to_move"] == "chance" and out["count"] == 0
    rolls = {tuple(o["roll"]): o["probability"] for o in out["chance_outcomes"]}
    assert len(rolls) == 56
    assert rolls[(6, 4, 2)] == round(6 / 216, 6) and rolls[(5, 5, 1)] == round(3 / 216, 6)
    assert rolls[(3, 3, 3)] == round(1 / 216, 6)
    assert abs(sum(rolls.values()) - 1) < 1e-4  # each rounded to 6 places
    assert "6,4,2" in run("moves", str(PUZZLES / "start-2p.json")).stdout


def test_a_position_file_with_its_roll(tmp_path):
    data = {"game": "hippo", "players": ["red", "green"], "roll": [2, 6, 4]}
    f = tmp_path / "rolled.json"
    f.write_text(json.dumps(data))
    shown = ok_json("show", str(f))
    assert shown["roll"] == [6, 4, 2] and shown["state"]["roll"] == [6, 4, 2]
    assert shown["status"] == "red to place 6,4,2"
    moves = ok_json("moves", str(f))  # the moves after the file's roll
    assert moves["to_move"] == 1 and moves["distinct_results"] == 5
    best = ok_json("best", str(f))
    given = ok_json("best", str(f), "--roll", "6,4,2")
    assert {**best, "seconds": 0} == {**given, "seconds": 0}
    assert best["roll"] == [6, 4, 2] and best["best"] == ["2 red", "4 red", "6 red"]
    assert_one_line_error(run("moves", str(f), "--roll", "1,1,1"), "--roll",
                          "no chance event")
def test_best_json_ranks_by_expected_shed_then_exposure():
    out = ok_json("best", str(PUZZLES / "midgame-4p.json"), "--roll", "3,4,6")
    keys = [(-o["expected_shed"], o["exposure"]) for o in out["options"]]
    assert keys == sorted(keys)
    assert out["options"][0]["placements"][0].endswith("green")  # foreign chip first


def test_simulate_json():
    out = ok_json("simulate", "--games", "4", "--players", "3", "--policy",
                  "best,greedy,random", "--seed", "2")
    cell = out["cells"][0]
    assert cell["games"] == 4 and len(cell["win_rate_by_seat"]) == 3
    assert cell["setup"] == {"players": 3} and cell["seats"] == ["best", "greedy", "random"]
    assert set(cell["win_rate_by_policy"]) == {"best", "greedy", "random"}
    turns = [r["measures"]["turns"] for r in out["records"]]
    assert cell["measures"]["turns"]["mean"] == round(sum(turns) / 4, 3)
    assert cell["measures"]["rounds_mean"] == round(sum(turns) / 4 / 3, 3)
    assert out["knows"] == {"best": "own", "greedy": "own", "random": "own"}
    text = run("simulate", "--games", "2", "--players", "2", "--policy", "greedy")
    assert text.exit_code == 0 and "win rate" in text.stdout and "rounds" in text.stdout


# red before the turn's bonus roll: one green chip due, one green and one violet taken
# by a penalty on the turn's first roll
MID_TURN = {"players": ["red", "green", "violet"], "bonus_roll": True,
            "lanes": {"7": {"red": 2}},
            "stocks": {"red": {"red": 10, "green": 2, "violet": 1}, "green": 10,
                       "violet": 11},
            "taken_this_turn": {"green": 1, "violet": 1}}


@pytest.mark.parametrize("reading, count, results", [
    (None, 31, 21), ("next-turn", 31, 21), ("at-once", 20, 11)])
def test_the_reading_reaches_every_command(tmp_path, reading, count, results):
    f = tmp_path / "mid-turn.json"
    f.write_text(json.dumps(MID_TURN))
    extra = [] if reading is None else ["--foreign-first", reading]
    shown = ok_json("show", str(f), *extra)
    assert ("taken_this_turn" in shown["state"]) == (reading != "at-once")
    moves = ok_json("moves", str(f), "--roll", "1,1,2", *extra)
    assert (moves["count"], moves["distinct_results"]) == (count, results)
    firsts = {m["placements"][0] for m in moves["moves"]}
    # the green chip held before the turn is due; at once the violet one taken too
    due = ["green", "violet"] if reading == "at-once" else ["green"]
    assert firsts == {f"{lane} {c}" for lane in (1, 2, 3, 4) for c in due}
    seconds = {m["placements"][1].split()[1] for m in moves["moves"] if len(m["placements"]) > 1}
    assert seconds == ({"green", "violet"} if reading == "at-once"
                       else {"red", "green", "violet"})
    best = ok_json("best", str(f), "--roll", "1,1,2", *extra)
    assert len(best["options"]) == results and best["best"] == ["1 green", "1 green",
                                                                 "2 violet"]
    # one worker: the same optimal plan among equals on every run
    plan = ok_json("plan", str(f), "--rolls", "1,1,2 6,6,6", "--check",
                   *extra)
    assert plan["objective"] == plan["brute_force_objective"] == 3 * 37 + 7
    # the bonus roll's chips; on the next turn the violet chip left is due at once
    first, second = (step["placements"] for step in plan["steps"][:2])
    if reading == "at-once":
        assert "violet" in str(first) and "violet" not in str(second)
    else:  # unless the plan lays it now (allowed, not due), it is due first next turn
        assert "violet" in str(first) or second[0] == "6 violet"
    finish = ok_json("finish", str(f), "--turns", "1", *extra)
    assert finish["exact"] == "0"  # 13 chips: no turn sheds them
    sim = ok_json("simulate", "--games", "1", "--players", "2", "--policy", "greedy",
                  "--jobs", "1", *extra)
    assert sim["played"] == 1
    assert "--foreign-first" in run("play", "--help").output


@pytest.mark.parametrize("args, words", [
    (["best", "start-2p.json", "--roll", "6,4,7"], ["die '7'", "1-6"]),
    (["moves", "start-2p.json", "--foreign-first", "later"], ["--foreign-first", "later"]),
    (["best", "start-2p.json", "--roll", "1,2,3", "--foreign-first", "x"],
     ["--foreign-first", "'x'"]),
    (["generate", "--foreign-first", "x"], ["--foreign-first"]),
    (["moves", "start-2p.json", "--roll", "6,4"], ["3 dice"]),
    (["best", "missing.json", "--roll", "1,2,3"], ["no such file"]),
    (["simulate", "--players", "5"], ["--players: 5", "2-4 players"]),
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
    ('{"players": ["red", "green"], "roll": [6, 4]}', ["roll", "2 dice", "has 3"]),
    ('{"players": ["red", "green"], "roll": [6, 4, 7]}', ["roll[2]", "die 7", "1-6"]),
    ('{"players": ["red", "green"], "turns": -1}', ["turns", "negative"]),
    ('{"players": ["red", "green"], "bonus_roll": true, "stocks": {"red": {"red": 12, '
     '"green": 1}, "green": 11}, "taken_this_turn": {"green": 2}}',
     ["taken_this_turn.green", "2 taken this turn", "holds 1 green"]),
    ('{"players": ["red", "green"], "stocks": {"red": {"red": 12, "green": 1}, "green": 11}, '
     '"taken_this_turn": {"green": 1}}', ["taken_this_turn", "bonus_roll: true"]),
])
def test_bad_position_files(tmp_path, data, words):
    f = tmp_path / "p.json"
    f.write_text(data)
    assert_one_line_error(run("best", str(f), "--roll", "1,2,3"), *words)
