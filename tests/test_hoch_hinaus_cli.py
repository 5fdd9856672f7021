"""`toppi hoch-hinaus ...` on the example positions; bad input is one line and exit 2."""

import json
from pathlib import Path

import pytest

from models.hoch_hinaus.positions import load_position
from models.hoch_hinaus.rules import load_rules
from tests.cli_helpers import assert_one_line_error, game_runner

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hoch-hinaus"
CORNER = str(PUZZLES / "corner-gap.json")
R = load_rules()


run = game_runner("hoch-hinaus")
one_line_error = assert_one_line_error


def test_show_json_and_svg(tmp_path):
    svg = tmp_path / "b.svg"
    res = run("show", CORNER, "--json", "--svg", str(svg))
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [s["height"] for s in data["spaces"]][:3] == [0, 1, 1]
    assert data["spaces"][0]["face"] is None and len(data["open_tasks"]) == 4
    assert svg.read_text().startswith("<svg")
    assert run("show", CORNER).exit_code == 0


def test_moves_count_matches_the_engine():
    data = json.loads(run("moves", CORNER, "--json").output)
    g = load_position(R, CORNER)
    without_filler = sum(m["filler"] is None for m in data["moves"])
    assert data["count"] == len(g.legal_actions()) == 252 > without_filler == 18
    assert data["to_move"] == 1 and data["distinct_results"] == 252
    # each move says what it fulfils, as the engine's turn does
    for m in data["moves"][:40]:
        a = next(a for a in g.legal_actions() if a.tile == m["tile"] and
                 [R.spaces[a.first], R.spaces[a.second]] == m["on"] and
                 (a.filler is None) == (m["filler"] is None) and
                 (a.filler is None or R.spaces[a.filler] == m["filler"]))
        assert m["fulfils"] == [t.text() for t in g.turn(a)[1]]
    data = json.loads(run("moves", CORNER, "--json", "--no-fillers", "--tile", "T32").output)
    assert {m["tile"] for m in data["moves"]} == {"T32"}
    assert all(m["filler"] is None for m in data["moves"]) and data["count"] == 6


def test_achievable_yes_with_witness_and_no_with_core():
    data = json.loads(run("achievable", CORNER, "--within", "2", "--tiles", "any",
                          "--json").output)
    assert data["answer"] == "yes" and len(data["witness"]) == 2
    done = [t for w in data["witness"] for t in w["fulfils"]]
    assert sorted(done) == sorted(data["tasks"])
    for backend in ("sat", "cpsat"):
        res = run("achievable", CORNER, "--within", "1", "--backend", backend, "--json")
        data = json.loads(res.output)
        assert data["answer"] == "no" and data["proven"]
        assert data["core"] == ["THREE PINK in a ROW or COLUMN"]
    # one filler per turn: two visible gap fillers need two placements
    res = run("achievable", CORNER, "--task", "H52", "--within", "1", "--tiles", "any",
              "--json")
    assert res.exit_code == 0 and json.loads(res.output)["core"] == ["TWO GAP FILLERS visible"]
    res = run("achievable", CORNER, "--task", "H52", "--within", "2", "--tiles", "any")
    assert res.exit_code == 0 and "Yes" in res.output


def test_hint_reachable_simulate():
    data = json.loads(run("hint", CORNER, "--json", "--show", "3").output)
    assert len(data["options"]) == 3 and data["player"] == 1
    assert data["options"][0]["reason"]
    known = str(PUZZLES / "endgame-known.json")
    data = json.loads(run("reachable", known, "--open-hands", "--json").output)
    assert data["method"] == "exact" and data["answer"] == "won" and data["line"]
    assert data["open_hands"] and "the order of the reserve" in data["knows"]
    # without --open-hands the player on turn does not see the other hand: sampled
    data = json.loads(run("reachable", known, "--samples", "2", "--policy", "greedy",
                          "--json").output)
    assert data["method"] == "sampled" and not data["open_hands"]
    assert data["knows"] == ["the board", "the open tasks", "the completed tasks",
                             "the gap fillers left", "the hand of player 2",
                             "the number of tiles in the reserve"]
    res = run("simulate", "--games", "1", "--difficulty", "first", "--players", "3",
              "--policy", "random", "--json")
    data = json.loads(res.output)
    cell = data["cells"][0]
    assert cell["setup"] == {"players": 3, "difficulty": "first", "pros": False,
                             "side": "blue"}
    assert cell["win_rate"]["trials"] == 1 and len(data["records"][0]["returns"]) == 3


@pytest.mark.parametrize("content,words", [
    ('{"pieces": [{"tile": "T01", "on": ["A1", "B1"], "level": 2}]}', ["floats"]),
    ('{"pieces": [{"tile": "O1-O2", "on": ["A1", "B1"]}, {"tile": "O1-O2", "on": '
     '["A2", "B2"]}]}', ["more copies"]),
    ('{"pieces": [{"tile": "T01", "on": ["A1", "B1"]}, {"tile": "T02", "on": '
     '["B1", "C1"]}]}', ["flat"]),
    ('{"pieces": [', ["malformed JSON"]),
    ('{"pieces": [], "open": ["THREE BLUE"]}', ["cannot read 'blue'"]),
    ('{"pieces": [{"tile": "T99", "on": ["A1", "B1"]}]}', ["unknown tile"]),
    ('{}', ["missing field 'pieces' or 'side'"]),
    ('{"pieces": [], "open": [null]}', ["open[0]: null is not a task"]),
    ('{"pieces": [], "draw_pile": 1000000000000}', ["draw_pile: 1000000000000 tasks"]),
    ('{"pieces": [], "hands": [1000000000000]}', ["a hand holds 0 to 3 tiles"]),
    ('{"open": ["THREE BLUE"]}', ["missing field 'pieces' or 'side'"]),
    ('{"game": "hippo", "players": ["red", "green"]}', ["'hippo' file, not a hoch-hinaus"]),
])
def test_bad_position_files(tmp_path, content, words):
    f = tmp_path / "bad.json"
    f.write_text(content)
    one_line_error(run("show", str(f)), *words)


def test_bad_options():
    one_line_error(run("achievable", CORNER, "--task", "Exactly FIVE"), "does not say")
    one_line_error(run("achievable", CORNER, "--tiles", "known"), "reserve")
    one_line_error(run("show", "/nonexistent.json"), "no such file")


def test_pros_rule_on_the_purple_side_example():
    """pros-purple.json: only A3-B3 is flat on two different pieces; with the Pros rule
    (A3 shows G3, B3 shows V4) P2-P3 fits one way round only."""
    f = str(PUZZLES / "pros-purple.json")
    pros = json.loads(run("moves", f, "--json", "--no-fillers").output)
    basic = json.loads(run("moves", f, "--json", "--no-fillers", "--basic").output)
    assert sorted(m["text"] for m in pros["moves"]) == [
        "T06 P2:B3 P3:A3", "T22 P2:A3 G4:B3", "T22 P2:B3 G4:A3", "T31 V3:A3 P1:B3",
        "T31 V3:B3 P1:A3"]
    assert basic["count"] == 6
    shown = json.loads(run("show", f, "--json").output)
    assert shown["spaces"][3] == {"space": "A2", "face": "K0", "height": 0}  # printed


def test_rules_and_task_catalogue_are_replaceable(tmp_path):
    from importlib import resources
    data = json.loads(resources.files("models.hoch_hinaus").joinpath(
        "data/default.json").read_text())
    data["purple_side_printed_fillers"] = ["B2"]
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps(data))
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps({"tasks": [{"id": "X1", "text": "ONE BLACK in the CENTRE"}]}))
    board = tmp_path / "b.json"
    board.write_text(json.dumps({"side": "purple", "open": ["X1"]}))
    out = json.loads(run("show", str(board), "--json", "--rules", str(rules), "--tasks",
                         str(tasks)).output)
    assert [s["space"] for s in out["spaces"] if s["face"] == "K0"] == ["B2"]
    assert out["open_tasks"] == [{"text": "ONE BLACK in the CENTRE", "id": "X1",
                                  "fulfilled_now": True}]
    data["tiles"][1]["faces"] = ["O1", "Q7"]
    rules.write_text(json.dumps(data))
    one_line_error(run("show", str(board), "--rules", str(rules)), "not a face")


def test_achievable_with_a_hidden_tile_in_a_hand_says_so(tmp_path):
    """Found by scripts/fuzz.py (seed 3): a '?' in the other player's hand reached the
    model as a tile (a KeyError traceback); with --tiles any it is answered."""
    data = json.loads((PUZZLES / "midgame-1.json").read_text())
    data["hands"][1][0] = "?"
    path = tmp_path / "hidden.json"
    path.write_text(json.dumps(data))
    assert_one_line_error(run("achievable", str(path), "--within", "3"),
                          "player 2", "hidden tiles", "--tiles any")
    res = run("achievable", str(path), "--within", "3", "--tiles", "any", "--json")
    assert res.exit_code == 0 and json.loads(res.output)["answer"] in ("yes", "no")
