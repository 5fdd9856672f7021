"""The shared play verbs (solver/shared_verbs.py) on the toy game: a game gets `show`,
`moves`, `simulate` and `play` from its description alone, and its own verbs from
their declarations."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import ToppiGroup
from solver.registry import register, unregister
from solver.verb_cli import game_group
from tests.cli_helpers import assert_one_line_error
from tests.toy import ENTRY
from tests.toy.game import TOY


@pytest.fixture(autouse=True)
def toy_registered():
    register(ENTRY)
    yield
    unregister(ENTRY.id)


def run(*args: str, input: str | None = None):
    root = ToppiGroup("toppi")
    root.add_command(game_group(ENTRY), "toy")
    return CliRunner().invoke(root, ["toy", *args], input=input)


@pytest.fixture
def position(tmp_path):
    """Player 1 holds 3 and 4, player 2's hand is unknown, the deck is face down."""
    data = {"game": TOY.id, "total": 5, "played": [1, 4], "hands": [[3, 4], ["?", "?"]],
            "deck": 2, "to_move": 1}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_show_says_who_moves_and_what_is_unknown(position):
    out = json.loads(run("show", position, "--json").stdout)
    assert out["total"] == 5 and out["to_move"] == 1 and out["status"] == "playing"
    assert out["unknown"] == ["2 card(s) of player 2", "the order of the deck (2 cards)"]
    text = run("show", position).stdout
    assert "Seat 1 to move" in text and "Unknown: 2 card(s) of player 2" in text


def test_moves_lists_legal_actions_and_their_results(position):
    out = json.loads(run("moves", position, "--json").stdout)
    assert out["to_move"] == 1
    assert [m["text"] for m in out["moves"]] == ["play 3", "play 4"]
    assert [m["total_after"] for m in out["moves"]] == [8, 9]
    assert out["count"] == 2 and out["distinct_results"] == 2
    assert out["unknown"] == ["2 card(s) of player 2", "the order of the deck (2 cards)"]


def test_moves_at_a_chance_node_lists_outcomes_with_probabilities(tmp_path):
    data = {"game": TOY.id, "total": 5, "played": [1, 4], "hands": [[3], ["?", "?"]],
            "deck": 3, "to_move": 1, "draw_due": True}
    path = tmp_path / "c.json"
    path.write_text(json.dumps(data))
    out = json.loads(run("moves", str(path), "--json").stdout)
    assert out["to_move"] == "chance"
    # unseen: the deck 1 1 2 2 3 3 4 4 minus 1, 4 played and the 3 in hand
    probs = {o["card"]: o["probability"] for o in out["chance_outcomes"]}
    assert probs == {1: 0.2, 2: 0.4, 3: 0.2, 4: 0.2}


def test_simulate_json_and_table_agree_and_replay():
    a = json.loads(run("simulate", "--games", "20", "--policy", "low,random", "--rotate",
                       "--jobs", "1", "--json").stdout)
    b = json.loads(run("simulate", "--games", "20", "--policy", "low,random", "--rotate",
                       "--jobs", "2", "--json").stdout)
    assert a["records"] == b["records"]
    cell = a["cells"][0]
    assert cell["games"] == 20 and cell["seats"] == ["low", "random"]
    wins = sum(r["returns"][s] for r in a["records"] for s in range(2))
    assert wins == sum(rate["successes"] for rate in cell["win_rate_by_seat"])
    assert a["knows"] == {"low": "own", "random": "own"}
    table = run("simulate", "--games", "20", "--policy", "low,random", "--jobs", "1").stdout
    assert "win rate by seat" in table and "by policy" in table


def test_simulate_open_hands_is_labelled():
    out = json.loads(run("simulate", "--games", "2", "--open-hands", "--jobs", "1",
                         "--json").stdout)
    assert out["knows"] == {"low": "everything"}


def test_play_a_whole_game_from_the_terminal():
    # seat 1 always plays its first listed move; the other seat plays 'low'
    result = run("play", "--seed", "4", input="1\n" * 10)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout


def test_play_quit_and_end_of_input():
    assert "Game stopped" in run("play", "--seed", "1", input="quit\n").stdout
    result = run("play", "--seed", "1", input="")
    assert result.exit_code == 0
    assert "End of input" in result.stderr


@pytest.mark.parametrize("args, words", [
    (["simulate", "--policy", "clever"], ["unknown policy", "clever"]),
    (["simulate", "--policy", "low,low,low"], ["3 policies for 2 players"]),
    (["play", "--seat", "3"], ["--seat 3", "2 seat"]),
])
def test_bad_options_are_one_line(args, words):
    assert_one_line_error(run(*args), *words)


def test_bad_position_is_one_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": TOY.id, "hands": [[9], []], "deck": 0}))
    assert_one_line_error(run("show", str(path)), "no card 9")
    assert_one_line_error(run("moves", str(tmp_path / "none.json")), "no such file")
