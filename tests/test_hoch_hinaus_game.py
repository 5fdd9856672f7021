"""Hoch Hinaus! as a `solver.game.Game`: hidden hands ("?") in position files, what a
player sees (`observation`), the draw and the turning up of an unknown task as chance
nodes whose probabilities equal a brute-force count over every full state the position
allows, and the shared commands on such positions."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from itertools import permutations

import pytest
from click.testing import CliRunner

from models.hoch_hinaus.board import Action, Board
from models.hoch_hinaus.game import GAME
from models.hoch_hinaus.positions import position_json, read_position
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.state import Bonus, GameState, new_game
from models.hoch_hinaus.tasks import Catalogue, load_catalogue, parse_task
from solver.cli import cli
from solver.errors import BadInput
from solver.game import CHANCE
from tests.cli_helpers import assert_one_line_error, game_runner, run_json

run = game_runner("hoch-hinaus")
R = load_rules()
CAT = load_catalogue(R)
DATA = GAME.load_rules(None)
S = R.space_index

HIDDEN = {"pieces": [{"tile": "T01", "on": ["B1", "C1"]}],
          "open": ["Exactly FIVE GREEN", "H04", "THREE PINK in a ROW or COLUMN",
                   "PINK is in THREE different HEIGHTS"],
          "draw_pile": 3, "bonus": [{"task": "?", "fillers": 2}],
          "hands": [["T02", "T30", "T11"], ["?", "?", "?"]], "on_turn": 1}


def _file(tmp_path, data, name="p.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


# --------------------------------------------------------------------------- positions

def test_hidden_hands_round_trip_and_are_named_unknown():
    state = GAME.read(DATA, HIDDEN, "f")
    assert state.hands == [["T02", "T30", "T11"], [None, None, None]]
    # every other tile (32 - 1 on the board - 3 in hand - 3 hidden) is face down
    assert len(state.reserve) == 25 and not state.reserve_known
    data = GAME.write(state)
    assert data["hands"] == [["T02", "T30", "T11"], ["?", "?", "?"]]
    assert "reserve" not in data and data["draw_pile"] == ["?"] * 3
    again = GAME.read(DATA, json.loads(json.dumps(data)), "again")
    assert GAME.write(again) == data and again.hands == state.hands
    assert GAME.unknown(state) == [
        "3 tile(s) in the hand of player 2", "the order of the reserve (25 tiles)",
        "3 task(s) of the draw pile", "the task of bonus task 1 (under 2 gap filler(s))"]
    # the player on turn knows its moves; the hidden hand may place any unseen tile
    assert {a.tile for a in GAME.legal_actions(state)} == {"T02", "T30", "T11"}
    hidden_turn = GAME.read(DATA, {**HIDDEN, "on_turn": 2}, "f")
    tiles = {a.tile for a in GAME.legal_actions(hidden_turn)}
    assert tiles == set(hidden_turn.unseen_tiles()) and len(tiles) == 28
    assert not tiles & {"T01", "T02", "T30", "T11"}
    with pytest.raises(BadInput, match="hand of player 2 .* unknown"):
        hidden_turn.legal_actions()  # the hint's view: its own hand must be known


def test_a_reserve_of_unknown_order_may_be_a_count():
    state = GAME.read(DATA, {**HIDDEN, "reserve": 4}, "f")
    assert state.reserve == [None] * 4 and GAME.write(state)["reserve"] == 4
    for bad, words in (({**HIDDEN, "reserve": 26}, "25 tiles are unseen"),
                       ({**HIDDEN, "reserve": [t.id for t in R.tiles if t.id not in
                                               ("T01", "T02", "T30", "T11")]},
                        "3 unknown tiles in hands, only 0"),
                       ({**HIDDEN, "reserve": ["T03", "?"]}, "unknown tile"),
                       ({**HIDDEN, "draw_due": True, "reserve": ["T03"]}, "draw_due")):
        with pytest.raises(BadInput, match=words):
            GAME.read(DATA, bad, "f")


def test_a_hidden_hand_may_be_a_count():
    state = GAME.read(DATA, {**HIDDEN, "hands": [HIDDEN["hands"][0], 3]}, "f")
    assert state.hands[1] == [None] * 3
    assert GAME.write(state) == GAME.write(GAME.read(DATA, HIDDEN, "f"))
    for hand, words in ((-1, "0 to 3 tiles, not -1"), (4, "0 to 3 tiles, not 4"), (True, "list")):
        with pytest.raises(BadInput, match=words):
            GAME.read(DATA, {**HIDDEN, "hands": [HIDDEN["hands"][0], hand]}, "f")
    # more unknown tiles than tiles anywhere unseen, and more unknown tasks than unseen
    with pytest.raises(BadInput, match="unknown tasks, but the catalogue has only"):
        GAME.read(DATA, {**HIDDEN, "draw_pile": 60}, "f")
    with pytest.raises(BadInput, match="500 tasks, the catalogue has 60"):
        GAME.read(DATA, {**HIDDEN, "draw_pile": 500}, "f")


def test_observation_hides_other_hands_the_reserve_order_and_face_down_tasks():
    full = GAME.new_game(DATA, GAME.setups(DATA, players=3)[0], random.Random(4))
    for _ in range(5):  # a few turns in
        full = full.apply_action(full.legal_actions()[7])
    seen = GAME.observation(full, 1)
    assert seen.hands[1] == full.hands[1]
    assert seen.hands[0] == [None] * 3 and seen.hands[2] == [None] * 3
    assert seen.reserve == [None] * len(full.reserve) and not seen.reserve_known
    assert seen.draw_pile == [None] * len(full.draw_pile)
    assert all(b.task is None for b in seen.bonus)
    assert seen.open == full.open and seen.completed == full.completed
    assert seen.board.visible() == full.board.visible()
    text = json.dumps(GAME.write(seen))
    secret = [t for s in (0, 2) for t in full.hands[s]] + full.reserve
    assert not any(f'"{t}"' in text for t in secret)
    assert not any(t.text() in text for t in full.draw_pile)
    # a determinization is a full state the player cannot tell from the real one
    rng = random.Random(0)
    dealt = [GAME.determinize(seen, rng) for _ in range(20)]
    for d in dealt:
        assert GAME.unknown(d) == [] and GAME.write(GAME.observation(d, 1)) == \
            GAME.write(seen)
    assert len({tuple(d.reserve) for d in dealt}) == 20  # drawn, not the real order


# --------------------------------------------------------------------------- chance

def test_the_draw_from_an_unknown_reserve_is_a_chance_node_counted_by_brute_force():
    """Ten tiles, two players: after player 1's placement the draw is any of the seven
    tiles player 1 has not seen; each full state the observation allows (the other hand
    and the reserve's order: 7! of them) gives the drawn tile, and the counts are the
    chance node's probabilities."""
    rules = dataclasses.replace(R, tiles=R.tiles[:10])
    cat = load_catalogue(rules)
    full = new_game(rules, cat, 2, "first", random.Random(1))
    seen = full.observation(0)
    action = next(a for a in seen.legal_actions() if not seen.turn(a)[1])
    after = seen.apply_action(action)
    assert after.draw_due and GAME.current_player(after) == CHANCE
    probabilities = dict(GAME.chance_outcomes(after))
    unseen = seen.unseen_tiles()
    assert sorted(probabilities) == sorted(unseen) and len(unseen) == 7
    drawn: Counter = Counter()
    for order in permutations(unseen):
        hands = [list(h) for h in seen.hands]
        hands[1] = list(order[:3])
        state = seen.but(hands=hands, reserve=list(order[3:]), reserve_known=True)
        state = state.apply_action(action)
        drawn[state.hands[0][-1]] += 1
    total = sum(drawn.values())
    assert total == 5040
    assert probabilities == pytest.approx({t: n / total for t, n in drawn.items()})
    # the outcome applied: the tile joins the hand and the next player is on turn
    tile = unseen[2]
    nxt = GAME.apply_action(after, tile)
    assert nxt.hands[0][-1] == tile and nxt.on_turn == 1 and len(nxt.reserve) == 3
    assert GAME.current_player(nxt) == 1
    with pytest.raises(BadInput, match="not an unseen tile"):
        GAME.apply_action(after, full.hands[0][0])


def test_turning_up_an_unknown_task_is_a_chance_node_counted_by_brute_force():
    """A catalogue with a task twice: the unseen tasks are dealt to the draw pile (2),
    the bonus task and the box; the task turned up is the pile's top, and its count
    over every arrangement gives its probability (count / total)."""
    texts = ["ONE ORANGE", "NO PURPLE", "Exactly TWELVE GREEN", "Exactly ELEVEN GREEN",
             "NO GREEN", "NO GREEN", "NO PINK", "NO 3s", "ONE 1s"]
    cat = Catalogue(R, [f"X{i}" for i in range(len(texts))],
                    [parse_task(R, t) for t in texts], "")
    open_ = cat.tasks[:4]
    state = GameState(R, Board(R), list(open_), [None, None], [Bonus(None, 2)],
                      [["T01", "T20"], ["T05"]], ["T09", "T13"], catalogue=cat)
    action = Action("T01", S["A1"], S["B1"])  # O1-O2: ONE ORANGE and NO PURPLE hold
    after, done = state.turn(action)
    assert done == open_[:2] and after.task_due and GAME.current_player(after) == CHANCE
    probabilities = dict(GAME.chance_outcomes(after))
    unseen = state.unseen_tasks()
    assert len(unseen) == 5
    turned: Counter = Counter()
    for order in permutations(range(len(unseen))):  # pile top, pile, bonus, box, box
        full = state.but(draw_pile=[unseen[order[0]], unseen[order[1]]],
                         bonus=[Bonus(unseen[order[2]], state.bonus[0].fillers)])
        after_full, _ = full.turn(action)
        first = unseen[order[0]]
        assert first in after_full.open or first in after_full.completed
        turned[first] += 1
    total = sum(turned.values())
    assert total == 120
    assert probabilities == pytest.approx({t: n / total for t, n in turned.items()})
    assert probabilities[parse_task(R, "NO GREEN")] == pytest.approx(0.4)
    # both tasks are turned up before any is checked: chance shows one, then the other
    no_green, no_pink = parse_task(R, "NO GREEN"), parse_task(R, "NO PINK")
    after2 = GAME.apply_action(after, no_green)
    assert after2.open == [*open_[2:], no_green, None] and after2.draw_pile == []
    assert GAME.current_player(after2) == CHANCE
    assert dict(GAME.chance_outcomes(after2))[no_green] == pytest.approx(0.25)
    # then fulfil goes on: both hold at once; the reserve is in order: the draw follows
    after3 = GAME.apply_action(after2, no_pink)
    assert after3.completed == [*open_[:2], no_green, no_pink] and after3.open == open_[2:]
    assert after3.hands == [["T20", "T09"], ["T05"]] and GAME.current_player(after3) == 1


def test_determinize_finishes_a_turn_stopped_at_a_chance_event():
    state = GAME.read(DATA, HIDDEN, "f")
    action = next(a for a in GAME.legal_actions(state) if a.filler is None)
    after = GAME.apply_action(state, action)
    assert GAME.current_player(after) == CHANCE
    full = GAME.determinize(after, random.Random(1))
    assert GAME.unknown(full) == [] and GAME.current_player(full) == 1
    assert len(full.hands[0]) == 3  # placed one, drew one


# --------------------------------------------------------------------------- commands

def test_moves_at_a_chance_node_lists_the_draws(tmp_path):
    f = _file(tmp_path, {**HIDDEN, "hands": [["T02", "T30"], ["T25", "T27", "T31"]],
                         "draw_due": True})
    out = run_json(run, "moves", f)
    assert out["to_move"] == "chance" and out["count"] == 0
    probabilities = {o["tile"]: o["probability"] for o in out["chance_outcomes"]}
    assert len(probabilities) == 26 and set(probabilities.values()) == {round(1 / 26, 6)}
    assert out["chance_outcomes"][0]["text"].startswith("draw T03(")
    after = run_json(run, "moves", f, "--chance", "G3-G4")  # T11's faces
    assert after["chance"] == "draw T11(G3-G4)" and after["to_move"] == 2
    assert {m["tile"] for m in after["moves"]} == {"T25", "T27", "T31"}
    shown = run_json(run, "show", f)
    assert shown["to_move"] == "chance" and shown["reserve"] == 26
    assert_one_line_error(run("moves", f, "--chance", "T02"), "not an unseen tile")


def test_moves_of_a_hidden_hand_and_bad_chance_are_one_line(tmp_path):
    f = _file(tmp_path, {**HIDDEN, "on_turn": 2})
    assert_one_line_error(run("hint", f), "hand of player 2", "unknown")
    g = _file(tmp_path, HIDDEN, "g.json")
    assert_one_line_error(run("moves", g, "--chance", "T03"), "no chance event")
    bad = _file(tmp_path, {**HIDDEN, "hands": [["T02"], ["?"] * 4]}, "bad.json")
    assert_one_line_error(run("show", bad), "at most 3 tiles")


def test_play_a_game_from_the_terminal():
    res = CliRunner().invoke(cli, ["hoch-hinaus", "play", "--players", "1", "--difficulty",
                                   "first", "--seed", "5"], input="moves\n1\nhint\nquit\n")
    assert res.exit_code == 0, res.output
    assert "Game stopped" in res.output and "best placements" in res.output


def test_position_json_is_the_file_format():
    state = read_position(R, HIDDEN, "f", None, CAT)
    assert position_json(state) == GAME.write(state)


def test_a_placement_is_read_from_its_tile_and_spaces():
    state = GAME.read(DATA, HIDDEN, "f")
    a = GAME.parse_action(state, "T02 A1 A2")
    assert a == Action("T02", S["A1"], S["A2"]) and GAME.action_text(state, a) == \
        "T02 O2:A1 O3:A2"
    assert GAME.parse_action(state, "filler b1 + O2-O3 A1 A2") == \
        Action("T02", S["A1"], S["A2"], S["B1"])
    assert GAME.parse_action(state, "T02 O2:A1 O3:A2") == a
    # without a filler: both ways round on the 13 pairs of empty spaces (B1-C1 is T01)
    assert len(GAME.matching_actions(state, "T02")) == 26
    with pytest.raises(BadInput, match="not one legal placement"):
        GAME.parse_action(state, "T02 A1 C4")
    with pytest.raises(BadInput, match="unknown tile"):
        GAME.parse_action(state, "T99 A1 A2")
