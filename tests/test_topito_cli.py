"""`toppi topito ...` on the example files in puzzles/topito/, JSON output, and bad
input as one line with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.topito.bfs import bfs_plan, count_plans
from models.topito.positions import load_position
from models.topito.rules import Goal, load_game_rules, parse_card
from tests.cli_helpers import assert_one_line_error, game_runner
from tests.cli_helpers import run_json as shared_run_json

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "topito"
MID = str(PUZZLES / "midgame.json")
GAME_RULES = load_game_rules()
R = GAME_RULES.rules


run = game_runner("topito")


def run_json(*args: str):
    return shared_run_json(run, *args)


@pytest.mark.parametrize("name", sorted(p.name for p in PUZZLES.glob("*.json")))
def test_show_every_example(name, tmp_path):
    f = str(PUZZLES / name)
    assert run("show", f).exit_code == 0
    svg = tmp_path / "p.svg"
    assert run("show", f, "--svg", str(svg)).exit_code == 0
    assert svg.read_text().startswith("<svg")
    data = run_json("show", f)
    pos = load_position(GAME_RULES, f)
    assert len(data["out_of_play"]) == len(pos.blocks.out_of_play())


def test_moves_json_counts_the_engine_moves():
    data = run_json("moves", MID)
    assert data["count"] == len(load_position(GAME_RULES, MID).blocks.legal_actions()) == 20
    forbidden = run_json("show", MID)["forbidden"]
    assert forbidden == data["forbidden"] == "move Bear+Cat red -> blue"
    assert all(m["move"] != forbidden for m in data["moves"])
    free = run_json("moves", MID, "--no-reversal")
    assert free["count"] == 21 and free["forbidden"] is None
    assert forbidden in [m["move"] for m in free["moves"]]


@pytest.mark.parametrize("backend", ["sat", "bfs"])
def test_plan_on_midgame(backend):
    data = run_json("plan", MID, "--card", "order Whale < Mouse < Pig", "--card",
                    "Duck on Owl", "--all", "--backend", backend)
    assert data["status"] == "optimal" and data["moves"] == 4
    assert sorted(data["met_at_end"]) == sorted(data["cards"])
    goal = Goal((parse_card(R, "order Whale < Mouse < Pig"), parse_card(R, "Duck on Owl")),
                "all")
    assert bfs_plan(load_position(GAME_RULES, MID).blocks, goal, 4).length == 4


def test_plan_any_with_cards_option():
    data = run_json("plan", MID, "--cards", "order Whale < Mouse < Pig; rank 2: Duck")
    assert data["moves"] == 1 and data["met_at_end"] == ["rank 2: Duck"]


def test_plan_human_output_says_proven():
    res = run("plan", MID, "--card", "Duck on Owl")
    assert res.exit_code == 0 and "proven minimal" in res.output


def test_reachable_yes_and_no():
    yes = run_json("reachable", MID, "--card", "rank 5: Cat", "--within", "3")
    assert yes["reachable"] and yes["moves"] == 2 and len(yes["plan"]) == 2
    no = run_json("reachable", MID, "--card", "rank 5: Cat", "--within", "1",
                  "--backend", "bfs")
    assert not no["reachable"] and no["status"] == "proven" and no["plan"] == []


def test_the_goal_options_default_to_any_and_within_is_required():
    """--any / --all set one value (any unless --all); --within has no default."""
    cards = ("--card", "rank 2: Duck", "--card", "order Whale < Mouse < Pig")
    assert run_json("plan", MID, *cards)["mode"] == "any"
    assert run_json("plan", MID, *cards, "--any")["mode"] == "any"
    assert run_json("plan", MID, *cards, "--all")["mode"] == "all"
    missing = run("reachable", MID, "--card", "Duck on Owl")
    assert missing.exit_code == 2 and "Missing option '--within'" in missing.output
    assert "Traceback" not in missing.output


def test_hint_uses_the_hand_of_the_player_on_turn():
    data = run_json("hint", MID)
    assert data["hand"][3] == "rank 2: Duck"
    assert data["best"]["nearest"] == 0 and data["best"]["meets"] == ["rank 2: Duck"]
    assert len(data["moves"]) == 20


def test_hint_with_hand_option():
    data = run_json("hint", str(PUZZLES / "start.json"), "--hand",
                    "Pig on Cat; order Bear < Cat < Duck")
    # the card is written as it reads top-down (the default), top first
    assert data["distances_now"] == {"Pig on Cat": 2, "order Duck > Cat > Bear": 3}
    assert data["best"]["nearest"] == 1


def test_generated_example_is_unique():
    f = PUZZLES / "unique-3.json"
    state = load_position(GAME_RULES, f).blocks
    puzzle = json.loads(f.read_text())["puzzle"]
    goal = Goal((parse_card(R, puzzle["card"]),))
    assert bfs_plan(state, goal, 3).length == puzzle["moves"] == 3
    assert count_plans(state, goal, 3) == 1
    data = run_json("plan", str(f), "--card", puzzle["card"])
    assert data["moves"] == 3


def test_generate_writes_a_position(tmp_path):
    # the shared generate command: --out is a directory
    data = run_json("generate", "--moves", "2", "--seed", "4", "--out", str(tmp_path))
    (g,) = data["puzzles"]
    assert g["features"]["moves"] == 2
    state = load_position(GAME_RULES, g["file"]).blocks
    puzzle = json.loads(Path(g["file"]).read_text())["puzzle"]
    card = puzzle["card"]
    assert puzzle["moves"] == 2 and len(puzzle["solution"]) == 2
    goal = Goal((parse_card(R, card),))
    assert count_plans(state, goal, 2) == 1 and bfs_plan(state, goal, 1).length is None
    assert run_json("plan", g["file"], "--card", card)["moves"] == 2


def test_deck_lists_48_cards():
    assert len(run_json("deck")) == 48


def write(tmp_path, data) -> str:
    p = tmp_path / "p.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


@pytest.mark.parametrize("podiums, words", [
    ({"red": ["Bear", "Bear"]}, ["'Bear' is placed twice"]),
    ({"red": ["Bear"], "blue": ["bear"]}, ["'Bear' is placed twice"]),
    ({"red": ["Zebra"]}, ["unknown character 'Zebra'"]),
    ({"purple": ["Bear"]}, ["unknown podium 'purple'"]),
])
def test_bad_positions(tmp_path, podiums, words):
    f = write(tmp_path, {"game": "topito", "podiums": podiums})
    assert_one_line_error(run("show", f), *words)
    assert_one_line_error(run("plan", f, "--card", "Cat on Bear"), *words)


def test_bad_cards_and_options(tmp_path):
    assert_one_line_error(run("plan", MID, "--card", "Cat beside Bear"), "not a card")
    assert_one_line_error(run("plan", MID, "--card", "rank 2: Zebra"), "unknown character")
    assert_one_line_error(run("plan", MID), "at least one --card")
    assert_one_line_error(run("hint", MID, "--hand", "a on b"), "unknown character")
    assert_one_line_error(run("hint", MID, "--hand", "; ".join(["Cat on Bear"] * 5)),
                          "at most 4")
    assert_one_line_error(run("hint", str(PUZZLES / "start.json"), "--hand", ""), "no card")
    f = write(tmp_path, '{"podiums": {"red": [}')
    assert_one_line_error(run("show", f), "malformed JSON")
    assert_one_line_error(run("show", "/nonexistent.json"), "no such file")
    usage = run("plan", MID, "--card", "Cat on Bear", "--backend", "cp")  # click usage error
    assert usage.exit_code == 2 and "--backend" in usage.output
    assert "Traceback" not in usage.output


def test_a_time_limit_that_cuts_the_search_still_answers_with_the_lower_bound():
    res = run("plan", MID, "--card", "order Whale < Pig < Mouse", "--all", "--card",
              "podium blue: Bear Duck Owl", "--card", "rank 7: Fox", "--backend", "bfs",
              "--time-limit", "0.05")
    assert res.exit_code == 0, res.output
    assert "cut by the time limit" in res.output and "at least" in res.output


def test_rules_file_replaces_names_and_colours(tmp_path):
    rules = tmp_path / "r.json"
    rules.write_text(json.dumps({
        "podiums": [{"name": "green"}, {"name": "white"}],
        "characters": [{"name": n} for n in ("Ada", "Bo", "Cy", "Di")]}))
    pos = write(tmp_path, {"podiums": {"green": ["Ada", "Bo"], "white": ["Cy"]}})
    data = run_json("plan", pos, "--card", "order Cy < Ada < Bo", "--rules", str(rules))
    assert data["moves"] == 1 and data["plan"][0]["move"] == "move Ada+Bo green -> white"
    bfs = run_json("plan", pos, "--card", "rank 2: Di", "--rules", str(rules),
                   "--backend", "bfs")
    assert bfs["moves"] == 2  # Di onto Ada or Cy, then any block on top
    assert_one_line_error(run("show", MID, "--rules", str(rules)), "unknown podium 'red'")


def test_plan_svg_and_already_met(tmp_path):
    svg = tmp_path / "end.svg"
    res = run("plan", MID, "--card", "Duck on Owl", "--svg", str(svg))
    assert res.exit_code == 0 and "<svg" in svg.read_text()
    met = run_json("reachable", MID, "--card", "Bear on Elephant", "--within", "0")
    assert met["reachable"] and met["moves"] == 0 and met["proof"] == "the card is met already"


def test_show_json_has_the_cards_at_the_table():
    data = run_json("show", MID)
    assert data["to_move"] == 1 and data["turn"] == 0 and data["status"] == "playing"
    assert data["played"] == [[], []] and data["winners"] == [] and data["end"] is None
    # 7 of the 8 hand cards are in the deck file (its "order Pig Mouse Whale", read
    # top-down, is the hand's "order Whale < Mouse < Pig"; "rank 2: Duck" is not in
    # it): 41 cards face down, unseen
    assert data["deck"] == 41 and data["unseen"] == 41 and not data["deck_in_order"]
    assert data["unknown"] == ["the order of the deck (41 cards)"]
    assert data["met_now"] == [[], []]
    assert data["hands"][0][2] == "order Pig > Mouse > Whale"
    # read bottom-up, the deck's order cards are the reverse: only 5 hand cards are in it
    bottom_up = run_json("show", MID, "--order-cards", "bottom-up")
    assert bottom_up["deck"] == bottom_up["unseen"] == 43
    assert bottom_up["hands"][0][2] == "order Whale < Mouse < Pig"


def test_order_cards_reach_every_command(tmp_path):
    """The rulebook's example card as printed, 'order Elephant Whale Mouse', in a hand
    and on the command line: read top-down (the default) the stack Elephant, Whale,
    Mouse (bottom to top) is 3 moves from it; read bottom-up it meets it now."""
    printed = "order Elephant Whale Mouse"
    ewm = write(tmp_path, {"podiums": {"red": ["Elephant", "Whale", "Mouse"]},
                           "hands": [[printed, "Cat on Bear"]]})
    mw = tmp_path / "mw.json"
    mw.write_text(json.dumps({"podiums": {"red": ["Mouse", "Whale"]},
                              "hands": [[printed, "Cat on Bear"]]}))
    down, up = [], ["--order-cards", "bottom-up"]
    # plan, reachable, hint, show
    assert [run_json("plan", ewm, "--card", printed, *o)["moves"] for o in (down, up)] \
        == [3, 0]
    assert [run_json("reachable", ewm, "--card", printed, "--within", "2", *o)["reachable"]
            for o in (down, up)] == [False, True]
    hints = [run_json("hint", ewm, "--backend", "bfs", "--max-moves", "3", *o)
             for o in (down, up)]
    assert hints[0]["distances_now"] == {"order Elephant > Whale > Mouse": 3,
                                         "Cat on Bear": 2}
    assert hints[1]["met_now"] == ["order Elephant < Whale < Mouse"]
    assert [run_json("show", ewm, *o)["met_now"] for o in (down, up)] == \
        [[[]], [["order Elephant < Whale < Mouse"]]]
    # moves: putting the Elephant on Mouse, Whale is photo time only read top-down
    photos = [[(m["move"], m["photo_time"]) for m in run_json("moves", str(mw), *o)["moves"]
               if "photo_time" in m] for o in (down, up)]
    assert photos == [[("put Elephant on red",
                        {"seat 1": ["order Elephant > Whale > Mouse"]})], []]
    # deck, simulate, play: the deck's 12 order cards are written as printed
    decks = [[r["card"] for r in run_json("deck", *o)] for o in (down, up)]
    assert decks[0][24] == "order Duck > Cat > Bear" and decks[1][24] == "order Duck < Cat < Bear"
    sims = [run_json("simulate", "--games", "3", "--jobs", "1", *o)["records"]
            for o in (down, up)]
    assert [[r["actions"] for r in recs] for recs in sims] == [[17, 16, 20],
                                                               [15, 20, 28]]
    from click.testing import CliRunner

    from solver.cli import cli

    seat_1 = [CliRunner().invoke(cli, ["topito", "play", "--seed", "0", *o], input="quit\n")
              for o in (down, up)]
    assert "order Owl > Cat > Fox" in seat_1[0].output
    assert "order Owl < Cat < Fox" in seat_1[1].output
    assert_one_line_error(run("plan", ewm, "--card", printed, "--order-cards", "sideways"),
                          "--order-cards")


def test_simulate_json_cells_and_measures():
    data = run_json("simulate", "--games", "12", "--players", "2,3", "--policy", "greedy",
                    "--policy", "random", "--jobs", "1")
    cells = data["cells"]
    assert [(c["setup"]["players"], c["seats"]) for c in cells] == [
        (2, ["greedy", "greedy"]), (2, ["random", "random"]),
        (3, ["greedy", "greedy", "greedy"]), (3, ["random", "random", "random"])]
    assert data["knows"] == {"greedy": "own", "random": "own"}
    for cell in cells:
        records = [r for r in data["records"] if r["seats"] == cell["seats"]]
        assert len(records) == 12
        m = cell["measures"]
        assert len(m["played_by_seat"]) == len(cell["seats"])
        # a turn is one move: the player actions simulate counts
        assert [r["measures"]["turns"] for r in records] == [r["actions"] for r in records]
        # every game has a winner with 7 played cards, or ended without one
        for r in records:
            winners = [s for s, x in enumerate(r["returns"]) if x == 1.0]
            assert [s for s, n in enumerate(r["measures"]["played"]) if n >= 7] == winners
            assert (r["measures"]["end"] == "won") == bool(winners)
        assert m["no_winner"] == sum(1 for r in records if r["measures"]["end"] != "won")


def test_simulate_table_and_bad_players():
    res = run("simulate", "--games", "5", "--jobs", "1")
    assert res.exit_code == 0 and "Topito: 5 games per row, seed 0" in res.output
    assert_one_line_error(run("simulate", "--games", "5", "--players", "6"), "2 to 5")
    assert_one_line_error(run("simulate", "--games", "5", "--players", "two"),
                          "not a number")
    assert_one_line_error(run("simulate", "--games", "5", "--policy", "clever"),
                          "unknown policy 'clever'")


def test_play_a_game_in_the_terminal():
    from click.testing import CliRunner

    from solver.cli import cli

    res = CliRunner().invoke(cli, ["topito", "play", "--seed", "4"], input="1\n" * 400)
    assert res.exit_code == 0, res.output
    assert "you play seat 1" in res.output and "Game over" in res.output
    assert "Seat 2 (greedy):" in res.output
    stopped = CliRunner().invoke(cli, ["topito", "play", MID, "--seed", "1"],
                                 input="moves\nmove Bear red -> yellow\nquit\n")
    assert stopped.exit_code == 0 and "Game stopped" in stopped.output
    assert "Seat 2 (greedy):" in stopped.output  # it answered the move
