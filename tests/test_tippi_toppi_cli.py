"""`toppi tippi-toppi ...` on the example games in puzzles/tippi-toppi: every command's
JSON, the shared show/moves/simulate, achievable's core and witness, bad input as one
line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import assert_one_line_error, game_runner, run_json

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "tippi-toppi"
run = game_runner("tippi-toppi")
one_line_error = assert_one_line_error


@pytest.mark.parametrize("args", [
    ("show", "known-deck.json"), ("show", "hidden.json"), ("moves", "known-deck.json"),
    ("achievable", "known-deck.json"), ("achievable", "hidden.json", "--cards", "hand",
                                        "--task", "a run of 3", "--within", "2"),
    ("hint", "hidden.json"), ("reachable", "known-deck.json", "--time-limit", "5", "--open-hands"),
    ("reachable", "hidden.json", "--samples", "5"),
])
def test_cli_answers_on_the_example_games_as_json(args):
    verb, name, *rest = args
    doc = run_json(run, verb, str(PUZZLES / name), *rest)
    assert isinstance(doc, dict)


def test_show_says_what_is_known_and_unknown():
    doc = run_json(run, "show", str(PUZZLES / "hidden.json"))
    assert doc["game"] == "tippi-toppi" and doc["to_move"] == 1 and doc["status"] == "playing"
    assert doc["tops"] == ["P4", "G5", "P6", "O7"] and doc["tasks_left"] == 11
    assert doc["draw_pile_cards"] == 44 and not doc["draw_pile_known"]
    assert doc["legal_plays"] == 6
    assert doc["unknown"] == ["4 card(s) in the hand of player 2",
                              "the order of the draw pile (44 cards)",
                              "7 face-down task(s) of the task pile"]
    assert doc["state"]["hands"][1] == ["?", "?", "?", "?"]
    text = run("show", str(PUZZLES / "hidden.json")).stdout
    assert "Seat 1 to move" in text and "Unknown: 4 card(s) in the hand of player 2" in text


def test_moves_lists_the_plays_and_then_the_draw_as_chance(tmp_path):
    f = PUZZLES / "hidden.json"
    doc = run_json(run, "moves", str(f))
    assert doc["to_move"] == 1 and doc["count"] == 6
    assert [m["text"] for m in doc["moves"]] == ["p1:G2>2", "p1:G3>2", "p1:G4>1", "p1:G4>2",
                                                 "p1:O4>1", "p1:O4>4"]
    # after a play the player still draws from the unordered draw pile: chance
    data = json.loads(f.read_text())
    data.update(piles=[["G4", "P4"], ["G5", "G2"], ["P6"], ["O7"]], to_draw=1, on_turn=2)
    data["hands"][0] = ["G3", "O4", "G4"]
    p = tmp_path / "drawing.json"
    p.write_text(json.dumps(data))
    doc = run_json(run, "moves", str(p))
    assert doc["to_move"] == "chance" and doc["count"] == 0
    probs = {o["card"]: o["probability"] for o in doc["chance_outcomes"]}
    # 47 unseen cards: 4 hidden in player 2's hand and 43 in the draw pile
    assert probs["G1"] == round(2 / 47, 6) and probs["G2"] == round(1 / 47, 6)
    assert "G4" not in probs and len(probs) == 28 - 1
    assert sum(probs.values()) == pytest.approx(1, abs=1e-4)  # rounded to 6 places
    doc = run_json(run, "moves", str(p), "--chance", "V7")
    assert doc["chance"] == "draw V7" and doc["to_move"] == 2
    # player 2's cards are unknown: any card not seen, on each pile it fits
    assert doc["count"] == 38 and doc["moves"][0]["text"] == "p2:G1>2"
    one_line_error(run("moves", str(p), "--chance", "G4"), "G4 cannot be drawn")


def test_cli_achievable_core_and_witness():
    f = str(PUZZLES / "known-deck.json")
    doc = run_json(run, "achievable", f)
    assert doc["answer"] == "no" and doc["core"] == ["at least 1 pink pile showing 7"]
    doc = run_json(run, "achievable", f, "--task", "Drei grüne Stapel", "--within", "8",
                   "--backend", "cpsat")
    assert doc["answer"] == "yes" and doc["targets"] == ["exactly 3 green piles"]
    doc = run_json(run, "achievable", f, "--task", "a run of 3", "--task", "Drei grüne Stapel",
                   "--within", "8")
    # a witness line (any: the solver picks one), replayed by the rules engine before it
    # is printed; the run of 3 is on the piles already, the green piles come last
    assert doc["answer"] == "yes" and 1 <= len(doc["plays"]) <= 8
    assert doc["fulfilled_after"] == [0, len(doc["plays"])]
    assert doc["plays"][0].startswith("p1:") and doc["plays"][1].startswith("p2:")
    out = run("achievable", f).output
    assert "No" in out and "at least 1 pink pile showing 7" in out


def test_cli_svg_and_simulate(tmp_path):
    svg = tmp_path / "t.svg"
    assert run("show", str(PUZZLES / "known-deck.json"), "--svg", str(svg)).exit_code == 0
    assert svg.read_text().startswith("<svg")
    doc = run_json(run, "simulate", "--games", "3", "--players", "2", "--difficulty", "normal",
                   "--policy", "hint", "--jobs", "1")
    cell = doc["cells"][0]
    assert cell["setup"] == {"players": 2, "difficulty": "normal"} and cell["seats"] == [
        "hint", "hint"]
    assert cell["measures"] == {"tasks": 16, "mean_plays": 47.0, "mean_fulfilled": 14.33}
    assert cell["win_rate"]["trials"] == 3 and cell["win_rate"]["successes"] == 1
    assert doc["knows"] == {"hint": "own"}
    # the same deals with comparisons needing both groups present: the earlier figures
    doc = run_json(run, "simulate", "--games", "3", "--players", "2", "--difficulty", "normal",
                   "--policy", "hint", "--jobs", "1", "--comparisons", "present")
    assert doc["cells"][0]["measures"] == {"tasks": 16, "mean_plays": 50.67,
                                           "mean_fulfilled": 14.67}
    doc = run_json(run, "simulate", "--games", "1", "--players", "4", "--difficulty", "expert",
                   "--policy", "random", "--jobs", "1", "--task-count", "pile")
    assert doc["cells"][0]["setup"] == {"players": 4, "difficulty": "expert", "task_count": "pile"}
    assert doc["cells"][0]["measures"]["tasks"] == 18 + 4
    one_line_error(run("simulate", "--games", "1", "--task-count", "deck"), "--task-count")
    text = run("simulate", "--games", "2", "--players", "1,2", "--difficulty", "beginner",
               "--policy", "hint", "--policy", "random", "--jobs", "1").stdout
    assert "2 games per row, seed 0" in text and "Wilson" in text


def write(tmp_path, data) -> str:
    p = tmp_path / "g.json"
    p.write_text(json.dumps(data))
    return str(p)


BASE = {"piles": ["G3", "P5", "O7", "V1"], "hands": [["G1", "O2"]], "open_tasks": ["a run of 4"]}


@pytest.mark.parametrize("change, words", [
    ({"hands": [["G9"]]}, ["unknown card 'G9'"]),
    ({"hands": [["G3", "G3"]]}, ["G3 appears 3 times", "deck has 2"]),
    ({"open_tasks": ["two blue piles"]}, ["cannot read task"]),
])
def test_cli_bad_game_files(tmp_path, change, words):
    one_line_error(run("show", write(tmp_path, {**BASE, **change})), *words)


def test_cli_bad_task_option_and_malformed_file(tmp_path):
    f = write(tmp_path, BASE)
    one_line_error(run("achievable", f, "--cards", "hand", "--task", "seven purple elephants"),
                   "--task", "cannot read task")
    bad = tmp_path / "bad.json"
    bad.write_text("{\"piles\": [")
    one_line_error(run("show", str(bad)), "malformed JSON")
    one_line_error(run("achievable", f), "draw pile is not known")
    one_line_error(run("simulate", "--players", "7", "--games", "1"), "7 players")
    one_line_error(run("simulate", "--players", "two", "--games", "1"), "--players")
    one_line_error(run("simulate", "--difficulty", "fiendish", "--games", "1"),
                   "unknown difficulty")
    one_line_error(run("moves", f, "--chance", "G3"), "no chance event")


def test_cli_hint_when_stuck_and_with_a_hidden_hand(tmp_path):
    stuck = write(tmp_path, {"piles": ["G3", "G5", "G7", "G1"], "hands": [["P2", "O4"]],
                             "open_tasks": ["no green piles"]})
    out = run("hint", stuck).output
    assert "No legal play" in out
    hidden = write(tmp_path, {**BASE, "hands": [["?", "?"]]})
    one_line_error(run("hint", hidden), "hidden")


def test_play_a_solo_game_in_the_terminal():
    from click.testing import CliRunner

    from solver.cli import cli
    result = CliRunner().invoke(cli, ["tippi-toppi", "play", "--players", "1", "--difficulty",
                                      "beginner", "--seed", "3"],
                                input="hint\nmoves\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Hint for player 1" in result.output and "Game stopped" in result.output


def test_a_huge_hand_count_is_refused_in_one_line(tmp_path):
    data = json.loads((PUZZLES / "hidden.json").read_text())
    data["hands"][1] = 10**12  # it was a MemoryError building the hand
    f = tmp_path / "huge.json"
    f.write_text(json.dumps(data))
    assert_one_line_error(run("show", str(f)), "a hand holds 0 to 4 cards")
