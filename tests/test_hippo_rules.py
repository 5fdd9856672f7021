"""Hippo rules engine: the rulebook's 6+4+2 example, doubles, kick-outs, the penalty,
foreign colours first under both readings (next turn, at once), the rest of a roll after
a penalty, the bonus roll once and not twice, chip conservation, position files."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from models.hippo.dice import all_rolls, roll_splits
from models.hippo.notation import parse_roll
from models.hippo.positions import state_from_dict, state_to_dict
from models.hippo.rules import AT_ONCE, FOREIGN_FIRST, NEXT_TURN, load_rules
from models.hippo.state import GameState, new_game, outcomes
from solver.errors import BadInput
from tests.hippo_helpers import random_state

RULES = load_rules()
RED, GREEN, VIOLET, YELLOW = range(4)


def position(lanes: dict | None = None, stocks: dict | None = None, players=("red", "green"),
             to_move: str = "red", bonus: bool = False, reading: str = NEXT_TURN,
             **more) -> GameState:
    data = {"game": "hippo", "players": list(players), "to_move": to_move,
            "bonus_roll": bonus, "lanes": lanes or {}, **more}
    if stocks is not None:
        data["stocks"] = stocks
    return state_from_dict(load_rules(None, reading), data)


def lane_sets(state: GameState, roll) -> list[tuple[int, ...]]:
    return sorted(tuple(sorted(lane for lane, _ in o.move)) for o in outcomes(state, roll))


def test_rulebook_642_example_exactly():
    state = new_game(RULES, ["red", "green"])
    # 2,4,6 / 2 and 10 / 4 and 8 / two chips in 6 / 12 -- the rulebook's five options.
    assert lane_sets(state, (6, 4, 2)) == sorted([(2, 4, 6), (2, 10), (4, 8), (6, 6), (12,)])
    sheds = {tuple(sorted(lane for lane, _ in o.move)): o.shed
             for o in outcomes(state, (6, 4, 2))}
    assert sheds == {(2, 4, 6): 3, (2, 10): 2, (4, 8): 2, (6, 6): 2, (12,): 1}
    assert not any(o.bonus for o in outcomes(state, (6, 4, 2)))
    assert [[sum(g) for g in s] for s in roll_splits(RULES, (2, 4, 6))] == [
        [6, 4, 2], [6, 6], [8, 4], [10, 2], [12]]


def test_roll_order_does_not_matter_and_sums_over_12_are_no_lane():
    state = new_game(RULES, ["red", "green"])
    assert lane_sets(state, (2, 6, 4)) == lane_sets(state, (6, 4, 2))
    # 6+6+5 = 17 is no lane: that split is no option.
    assert (17,) not in lane_sets(state, (6, 6, 5))
    assert lane_sets(state, (6, 6, 5)) == sorted([(5, 6, 6), (5, 12), (6, 11)])


def test_doubles_go_into_one_lane():
    state = new_game(RULES, ["red", "green"])
    assert lane_sets(state, (3, 3, 3)) == sorted([(3, 3, 3), (3, 6), (9,)])
    o = next(o for o in outcomes(state, (3, 3, 3)) if len(o.move) == 3)
    assert o.state.lanes[3] == (RED, RED, RED)
    assert o.orders == 1  # three identical chips: one order
    assert lane_sets(state, (6, 3, 3)) == sorted([(3, 3, 6), (6, 6), (3, 9), (12,)])


def test_full_lane_kicks_out_the_top_chip_to_its_owner():
    state = position({"5": ["green", "violet", "yellow"]}, players=("red", "green", "violet",
                                                                     "yellow"))
    o = next(o for o in outcomes(state, (5, 1, 1)) if sorted(lane for lane, _ in o.move) == [2, 5])
    assert o.state.lanes[5] == (RED, GREEN, VIOLET)
    assert o.kicked == (YELLOW,)
    assert o.state.stock_size(YELLOW) == state.stock_size(YELLOW) + 1
    assert o.shed == 2


def test_kicking_out_an_own_chip_takes_the_whole_lane():
    state = position({"4": ["green", "yellow", "red"]}, players=("red", "green", "violet",
                                                                 "yellow"))
    move = ((12, RED), (4, RED))
    assert move in state.legal_actions((4, 6, 6))
    after, events = state.play(move)
    assert after.lanes[4] == ()
    assert sorted(events[1][2]) == [RED, RED, GREEN, YELLOW]  # placed, green, yellow, own
    # placed 2, took 4 back; red now holds a green and a yellow chip
    assert after.stock_size(RED) == state.stock_size(RED) + 2
    assert after.stocks[RED][GREEN] == 1 and after.stocks[RED][YELLOW] == 1
    assert after.stock_size(GREEN) == state.stock_size(GREEN)  # not returned to green
    o = next(o for o in outcomes(state, (4, 6, 6)) if o.state.key() == after.key())
    assert o.shed == -2 and sorted(o.taken) == [RED, RED, GREEN, YELLOW]


def test_penalty_switch_leaves_the_placed_chip():
    rules = dataclasses.replace(RULES, penalty_takes_placed=False)
    state = state_from_dict(rules, {"players": ["red", "green"],
                                    "lanes": {"4": ["green", "green", "red"]}})
    o = next(o for o in outcomes(state, (4, 6, 6)) if sorted(lane for lane, _ in o.move) == [4, 12])
    assert o.state.lanes[4] == (RED,)
    assert sorted(o.taken) == [RED, GREEN, GREEN]


def test_foreign_colours_are_placed_first_and_order_matters():
    state = position({"9": ["red"]}, stocks={"red": {"red": 11, "green": 1}, "green": 11})
    for o in outcomes(state, (2, 5, 6)):
        assert o.move[0][1] == GREEN
        assert all(c == RED for _, c in o.move[1:])
    # green into lane 2 then red into 5 differs from green into 5 then red into 2
    moves = {o.move for o in outcomes(state, (2, 5, 6))}
    assert ((2, GREEN), (5, RED), (6, RED)) in moves
    assert ((5, GREEN), (2, RED), (6, RED)) in moves
    # singles: green in 2, 5 or 6; each of the three pairs: green first or second (13: none)
    assert len(outcomes(state, (2, 5, 6))) == 3 + 3 * 2


def test_several_foreign_colours_any_order_among_them():
    state = position({"9": ["red", "red"]},
                     stocks={"red": {"red": 10, "green": 1, "violet": 1}, "green": 11,
                             "violet": 11}, players=("red", "green", "violet"))
    firsts = {tuple(c for _, c in o.move[:2]) for o in outcomes(state, (1, 2, 6))
              if len(o.move) == 3}
    assert firsts == {(GREEN, VIOLET), (VIOLET, GREEN)}


def test_the_rulebooks_reading_is_the_default():
    assert RULES.foreign_first == NEXT_TURN and FOREIGN_FIRST == (NEXT_TURN, AT_ONCE)
    assert load_rules(None, AT_ONCE).foreign_first == AT_ONCE
    with pytest.raises(BadInput, match="--foreign-first: 'later' is not a reading"):
        load_rules(None, "later")


def _starting_with(state: GameState, roll, first) -> set:
    return {m for m in state.legal_actions(roll) if m[:len(first)] == first}


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_the_rest_of_the_roll_is_placed_after_a_penalty(reading):
    """The rulebook ends neither the roll nor the turn at a penalty: the other dice are
    still placed, the emptied lane included. At once, the green chip just taken must
    come next; by the rulebook's words it need not before red's next turn."""
    state = position({"3": ["green", "red", "red"]}, stocks={"red": 10, "green": 11},
                     reading=reading)
    first = ((3, RED),)  # 3+3+1 as singles, the first chip into lane 3: the penalty
    after, events = state.play(((3, RED), (3, GREEN), (1, RED)))
    assert sorted(events[0][2]) == [RED, RED, RED, GREEN] and events[1][2] == ()
    assert after.lanes[3] == (GREEN,) and after.lanes[1] == (RED,)
    assert after.stocks[RED] == (11, 0) and after.to_move == GREEN
    if reading == AT_ONCE:
        assert _starting_with(state, (3, 3, 1), first) == {
            ((3, RED), (3, GREEN), (1, RED)), ((3, RED), (1, GREEN), (3, RED)),
            ((3, RED), (4, GREEN))}
    else:
        assert _starting_with(state, (3, 3, 1), first) == {
            ((3, RED), (3, RED), (1, RED)), ((3, RED), (3, RED), (1, GREEN)),
            ((3, RED), (3, GREEN), (1, RED)), ((3, RED), (1, RED), (3, RED)),
            ((3, RED), (1, RED), (3, GREEN)), ((3, RED), (1, GREEN), (3, RED)),
            ((3, RED), (4, RED)), ((3, RED), (4, GREEN))}
        # the green chip kept: red's own turn ends, and on red's next turn it is due
        kept = state.apply_action(((3, RED), (3, RED), (1, RED)))
        assert kept.stocks[RED] == (10, 1) and kept.to_move == GREEN and kept.fresh == ()
        again = kept.apply_action(((12, GREEN),))
        assert again.to_move == RED
        assert {m[0] for m in again.legal_actions((1, 2, 6))} == {
            (1, GREEN), (2, GREEN), (6, GREEN), (3, GREEN), (7, GREEN), (8, GREEN),
            (9, GREEN)}


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_chips_taken_on_the_first_roll_wait_through_the_bonus_roll(reading):
    """The bonus roll is the same turn ("another go", not "your turn again"): chips taken
    on the turn's first roll need not go first on its bonus roll under the rulebook's
    reading; once the turn is over they must."""
    state = position({"3": ["green", "red", "red"]}, stocks={"red": 10, "green": 11},
                     reading=reading)
    moves = _starting_with(state, (4, 3, 3), ((3, RED),))
    if reading == AT_ONCE:
        assert moves == {((3, RED), (7, GREEN)), ((3, RED), (3, GREEN), (4, RED)),
                         ((3, RED), (4, GREEN), (3, RED))}
        bonus = state.apply_action(((3, RED), (7, GREEN)))
        assert bonus.bonus and bonus.fresh == () and bonus.stocks[RED] == (12, 0)
        return
    assert moves == {((3, RED), (7, RED)), ((3, RED), (7, GREEN)),
                     ((3, RED), (3, RED), (4, RED)), ((3, RED), (3, RED), (4, GREEN)),
                     ((3, RED), (3, GREEN), (4, RED)), ((3, RED), (4, RED), (3, RED)),
                     ((3, RED), (4, RED), (3, GREEN)), ((3, RED), (4, GREEN), (3, RED))}
    bonus = state.apply_action(((3, RED), (7, RED)))
    assert bonus.bonus and bonus.to_move == RED
    assert bonus.stocks[RED] == (11, 1) and bonus.fresh == (0, 1)
    # on the bonus roll: own or the green chip, as red likes
    assert {m[0] for m in bonus.legal_actions((1, 1, 5))} == {
        (1, RED), (1, GREEN), (5, RED), (5, GREEN), (2, RED), (2, GREEN), (6, RED),
        (6, GREEN), (7, RED), (7, GREEN)}
    end = bonus.apply_action(((1, RED), (1, RED), (5, RED)))
    assert end.to_move == GREEN and end.fresh == () and end.stocks[RED] == (8, 1)
    # the same green chip placed on the bonus roll: it is green's again, nothing left
    placed = bonus.apply_action(((1, GREEN), (1, RED), (5, RED)))
    assert placed.stocks[RED] == (9, 0) and placed.lanes[1] == (RED, GREEN)


def test_a_due_chip_goes_before_one_of_the_same_colour_taken_this_turn():
    """Red already held a green chip (due) and takes another: the due one goes first,
    then the player may choose."""
    state = position({"3": ["green", "red", "red"]},
                     stocks={"red": {"red": 10, "green": 1}, "green": 10})
    assert {m[0][1] for m in state.legal_actions((3, 1, 2))} == {GREEN}
    # green into lane 3 pushes the red chip on top out: the penalty takes the lane
    after, events = state.play(((3, GREEN), (1, RED), (2, RED)))
    assert sorted(events[0][2]) == [RED, RED, GREEN, GREEN]
    assert after.stocks[RED] == (10, 2)  # both green chips taken now: none due
    assert ((3, GREEN), (1, GREEN), (2, RED)) in state.legal_actions((3, 1, 2))
    assert after.fresh == ()  # the turn is over: both are due on red's next turn


def test_taken_this_turn_in_position_files():
    data = {"players": ["red", "green", "violet"], "bonus_roll": True,
            "lanes": {"7": {"red": 2}},
            "stocks": {"red": {"red": 10, "green": 2, "violet": 1}, "green": 10,
                       "violet": 11},
            "taken_this_turn": {"green": 1, "violet": 1}}
    state = state_from_dict(RULES, data)
    assert state.fresh == (0, 1, 1)
    written = state_to_dict(state)
    assert written["taken_this_turn"] == {"green": 1, "violet": 1}
    assert state_from_dict(RULES, json.loads(json.dumps(written))) == state
    # the green chip held before this turn goes first; then any chip
    assert {m[0][1] for m in state.legal_actions((1, 2, 6))} == {GREEN}
    # a file without the field: every foreign chip in the stock is due (as files
    # always read)
    old = state_from_dict(RULES, {k: v for k, v in data.items() if k != "taken_this_turn"})
    assert old.fresh == () and "taken_this_turn" not in state_to_dict(old)
    assert {m[0][1] for m in old.legal_actions((1, 2, 6))} == {GREEN, VIOLET}
    # at once, every foreign chip is due anyway: the field is checked, then not kept
    at_once = state_from_dict(load_rules(None, AT_ONCE), data)
    assert at_once.fresh == () and at_once.key() == (old.key()[:-1] + ((),))
    for bad, words in [
        ({"taken_this_turn": {"red": 1}}, "red's own chips are never foreign"),
        ({"taken_this_turn": {"green": 3}}, "3 taken this turn, but red's stock holds 2"),
        ({"bonus_roll": False}, "only wait for the turn's bonus roll"),
        ({"taken_this_turn": {"blue": 1}}, "unknown colour 'blue'"),
        ({"taken_this_turn": {"green": -1}}, "negative count"),
    ]:
        with pytest.raises(BadInput, match=words):
            state_from_dict(RULES, {**data, **bad})


def test_bonus_roll_once_and_not_twice():
    state = new_game(RULES, ["red", "green"])
    with_hippo = [o for o in outcomes(state, (3, 4, 5)) if any(lane == 7 for lane, _ in o.move)]
    assert {tuple(sorted(lane for lane, _ in o.move)) for o in with_hippo} == {(5, 7)}
    o = with_hippo[0]
    assert o.bonus and o.state.bonus and o.state.to_move == RED
    assert o.state.hippo == (1, 0)
    # on the bonus roll lane 7 may be used again, but no third roll follows
    again = [o2 for o2 in outcomes(o.state, (1, 2, 4)) if any(lane == 7 for lane, _ in o2.move)]
    assert again and all(not o2.bonus for o2 in again)
    assert all(o2.state.to_move == GREEN and not o2.state.bonus for o2 in again)
    # a single die never makes 7; not using lane 7 earns nothing
    plain = [o for o in outcomes(state, (3, 4, 5)) if 7 not in [lane for lane, _ in o.move]]
    assert plain and not any(o.bonus for o in plain)


def test_the_stock_running_out_ends_the_game_mid_roll():
    state = position({"7": {"red": 10}}, stocks={"red": 2, "green": 12})
    outs = outcomes(state, (1, 2, 3))
    won = [o for o in outs if o.won]
    assert won and all(len(o.move) == 2 and o.shed == 2 for o in won)
    assert any(o.won for o in outs if len(o.move) == 2)
    assert won[0].state.is_terminal() and won[0].state.winner() == RED
    assert won[0].state.legal_actions((1, 1, 1)) == []


def test_every_roll_has_an_option():
    rng = random.Random(3)
    for _ in range(30):
        state = random_state(RULES, rng.randint(2, 4), rng)
        for dice, _ in all_rolls(RULES):
            assert outcomes(state, dice)


def test_chips_are_conserved_in_random_playouts():
    rng = random.Random(7)
    for _ in range(20):
        state = random_state(RULES, rng.randint(2, 4), rng)
        for _ in range(30):
            if state.is_terminal():
                break
            roll = tuple(rng.randint(1, 6) for _ in range(3))
            moves = state.legal_actions(roll)
            state = state.apply_action(rng.choice(moves))
            for c in range(state.players):
                total = (sum(lane.count(c) for lane in state.lanes) + state.hippo[c]
                         + sum(row[c] for row in state.stocks))
                assert total == RULES.chips
            assert all(len(lane) <= RULES.capacity for lane in state.lanes)
        again = state_from_dict(RULES, state_to_dict(state))
        assert again.key() == state.key()


def test_56_rolls_with_216_outcomes():
    rolls = all_rolls(RULES)
    assert len(rolls) == 56 and sum(c for _, c in rolls) == 216


@pytest.mark.parametrize("text, words", [
    ("6,4,7", "not a number 1-6"), ("0,1,2", "not a number 1-6"), ("6,4", "3 dice"),
    ("a,b,c", "not a number"), ("6,4,2,1", "3 dice"), ("-1,4,3", "die '-1'"),
    ("6 4 -2", "die '-2'")])
def test_bad_rolls(text, words):
    with pytest.raises(BadInput, match=words):
        parse_roll(RULES, text)


@pytest.mark.parametrize("text", ["6,4,2", "6 4 2", "642", "6-4-2", "6+4+2", "6/4/2"])
def test_roll_spellings(text):
    assert parse_roll(RULES, text) == (6, 4, 2)


@pytest.mark.parametrize("data, words", [
    ({"players": ["red", "green"], "lanes": {"4": ["red", "red", "green", "green"]}},
     "a lane holds 3"),
    ({"players": ["red", "green"], "stocks": {"red": 12, "green": 11}},
     "11 green chips counted"),
    ({"players": ["red", "green"], "lanes": {"4": ["red"]}, "stocks": {"red": 12,
                                                                        "green": 12}},
     "13 red chips counted"),
    ({"players": ["red", "blue"]}, "unknown colour 'blue'"),
    ({"players": ["red", "green"], "lanes": {"3": ["violet"]}}, "'violet' is not playing"),
    ({"players": ["red"]}, "Hippo is for 2-4"),
    ({"players": ["red", "red"]}, "plays twice"),
    ({"players": ["red", "green"], "lanes": {"13": ["red"]}}, "not a lane"),
    ({"players": ["red", "green"], "stocks": {"red": 0, "green": 12},
      "lanes": {"7": {"red": 12}}, "to_move": "green"}, "the game is over"),
    ({"players": ["red", "green"], "lanes": {"1": ["red"] * 3, "2": ["red"] * 3,
                                             "3": ["red"] * 3, "4": ["red"] * 3,
                                             "5": ["red"]}}, "13 red chips in the pool"),
])
def test_bad_positions(data, words):
    with pytest.raises(BadInput, match=words):
        state_from_dict(RULES, data)
