"""Hippo's game description (models/hippo/game.py): the dice as chance outcomes, the
roll in the state and in position files, moves applied without changing the state they
came from, and the policies' draws."""

from __future__ import annotations

import dataclasses
import itertools
import json
import pickle
import random
from collections import Counter
from fractions import Fraction

import pytest

from models.hippo.game import GAME
from models.hippo.positions import state_from_dict, state_to_dict
from models.hippo.render import VIEW
from models.hippo.rules import load_rules
from models.hippo.state import new_game
from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL

RULES = load_rules()
START = new_game(RULES, ["red", "green"])


def test_chance_outcomes_are_the_dice_enumerated():
    outcomes = GAME.chance_outcomes(START)
    assert GAME.current_player(START) == CHANCE
    throws = Counter(tuple(sorted(t, reverse=True))
                     for t in itertools.product(range(1, 7), repeat=3))
    assert len(throws) == 56 and sum(throws.values()) == 216
    assert {roll: p for roll, p in outcomes} == {r: n / 216 for r, n in throws.items()}
    assert [roll for roll, _ in outcomes] == sorted(throws)  # highest die first, sorted
    assert sum(Fraction(p).limit_denominator(216) for _, p in outcomes) == 1
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert GAME.legal_actions(START) == [roll for roll, _ in outcomes]


def test_chance_outcomes_follow_the_rules_data():
    two = dataclasses.replace(RULES, dice=2, faces=4)
    state = new_game(two, ["red", "green"])
    outcomes = dict(GAME.chance_outcomes(state))
    assert outcomes == {(a, b): (1 if a == b else 2) / 16
                        for a in range(1, 5) for b in range(1, a + 1)}


def test_the_dice_are_drawn_one_after_the_other():
    for seed in range(5):
        mine, theirs = random.Random(seed), random.Random(seed)
        for _ in range(20):
            dice = [theirs.randint(1, 6) for _ in range(3)]
            assert GAME.sample_chance(START, mine) == tuple(sorted(dice, reverse=True))


def test_a_roll_then_a_move_leave_the_states_they_came_from_unchanged():
    before = json.dumps(state_to_dict(START))
    rolled = GAME.apply_action(START, (6, 4, 2))
    assert json.dumps(state_to_dict(START)) == before and START.roll is None
    assert rolled.roll == (6, 4, 2) and rolled.turns == 1
    assert GAME.current_player(rolled) == 0
    moves = GAME.legal_actions(rolled)
    assert len(moves) == 12 and moves == rolled.legal_actions((2, 4, 6))
    after = GAME.apply_action(rolled, ((2, 0), (4, 0), (6, 0)))
    assert rolled.roll == (6, 4, 2) and rolled.stocks == START.stocks
    assert after.roll is None and after.turns == 1 and after.to_move == 1
    assert after.stock_size(0) == 9


def test_a_bonus_roll_begins_no_turn():
    rolled = GAME.apply_action(START, (5, 4, 3))
    after = GAME.apply_action(rolled, ((5, 0), (7, 0)))  # 4+3 into Mr. Hippo's lane
    assert after.bonus and after.to_move == 0 and GAME.current_player(after) == CHANCE
    again = GAME.apply_action(after, (1, 1, 1))
    assert again.turns == 1 and again.bonus
    assert GAME.status(again) == "red to place the bonus roll 1,1,1"
    end = GAME.apply_action(again, ((1, 0), (1, 0), (1, 0)))
    assert end.to_move == 1 and GAME.apply_action(end, (2, 2, 2)).turns == 2


@pytest.mark.parametrize("action, words", [
    ((2, 4, 6), "not a roll of 3 dice"),  # lowest die first is not how a roll is kept
    ((6, 4), "not a roll"),
    (((2, 0), (4, 0)), "not a roll"),
])
def test_bad_rolls_are_refused(action, words):
    with pytest.raises(BadInput, match=words):
        GAME.apply_action(START, action)


@pytest.mark.parametrize("action", [
    ((2, 0), (10, 0), (4, 0)),  # three chips for two groups
    ((12, 1),),  # green's chip
    (6, 4, 2),  # a roll where a move is due
    ((), ()),
])
def test_moves_that_are_no_option_of_the_roll_are_refused(action):
    rolled = GAME.apply_action(START, (6, 4, 2))
    with pytest.raises(BadInput, match="not an option of the roll 6,4,2"):
        GAME.apply_action(rolled, action)
    assert rolled.roll == (6, 4, 2) and rolled.stocks == START.stocks


def test_a_finished_game_takes_no_action():
    data = {"players": ["red", "green"], "stocks": {"red": 0, "green": 12},
            "lanes": {"7": {"red": 12}}}
    end = state_from_dict(RULES, data)
    assert GAME.current_player(end) == TERMINAL and GAME.returns(end) == [1.0, 0.0]
    assert GAME.legal_actions(end) == [] and GAME.status(end) == "red won"
    with pytest.raises(BadInput, match="the game is over"):
        GAME.apply_action(end, (6, 4, 2))
    with pytest.raises(BadInput, match="no roll to place"):
        state_from_dict(RULES, {**data, "roll": [6, 4, 2]})


def test_the_roll_and_the_turns_round_trip_through_files():
    data = {"game": "hippo", "players": ["red", "green"], "roll": "2,6,4", "turns": 3}
    state = GAME.read(RULES, data, "test")
    assert state.roll == (6, 4, 2) and state.turns == 3
    written = GAME.write(state)
    assert written["roll"] == [6, 4, 2] and written["turns"] == 3
    assert GAME.read(RULES, json.loads(json.dumps(written)), "again") == state
    # neither is written when there is none: files without them stay as they were
    assert "roll" not in GAME.write(START) and "turns" not in GAME.write(START)


def test_chips_taken_this_turn_live_in_the_state_its_files_and_observations():
    """A penalty on the turn's first roll and a chip into Mr. Hippo's lane: the green
    chip taken waits (next-turn reading) through the bonus roll, in the state, in its
    file, in every player's observation and in a determinized state; the roll after
    the bonus roll ends the turn and makes it due."""
    state = state_from_dict(RULES, {"players": ["red", "green"],
                                    "lanes": {"3": ["green", "red", "red"]}})
    rolled = GAME.apply_action(state, (4, 3, 3))
    bonus = GAME.apply_action(rolled, ((3, 0), (7, 0)))
    assert bonus.bonus and bonus.fresh == (0, 1) and GAME.current_player(bonus) == CHANCE
    written = GAME.write(bonus)
    assert written["taken_this_turn"] == {"green": 1}
    assert GAME.read(RULES, json.loads(json.dumps(written)), "again") == bonus
    for p in (0, 1):
        seen = GAME.observation(bonus, p)
        assert seen.fresh == (0, 1)
        assert GAME.determinize(seen, random.Random(p)) == bonus
    again = GAME.apply_action(bonus, (1, 1, 1))
    assert again.fresh == (0, 1)  # the dice change nothing of it
    end = GAME.apply_action(again, ((1, 0), (1, 0), (1, 0)))
    assert end.to_move == 1 and end.fresh == () and end.stocks[0] == (8, 1)
    assert "taken_this_turn" not in GAME.write(end)
    with pytest.raises(BadInput, match="not an option"):  # at once: green goes first
        GAME.apply_action(GAME.apply_action(state_from_dict(
            load_rules(None, "at-once"), {"players": ["red", "green"],
                                          "lanes": {"3": ["green", "red", "red"]}}),
            (4, 3, 3)), ((3, 0), (7, 0)))


def test_a_pickled_state_leaves_its_remembered_placements_behind():
    rolled = GAME.apply_action(START, (6, 4, 2))
    GAME.legal_actions(rolled)  # remembered on the state
    copy = pickle.loads(pickle.dumps(rolled))
    assert copy == rolled and "_placements" not in copy.__dict__
    assert GAME.legal_actions(copy) == GAME.legal_actions(rolled)


def test_actions_in_words():
    rolled = GAME.apply_action(START, (6, 4, 2))
    assert GAME.action_text(START, (6, 4, 2)) == "6,4,2"
    assert GAME.parse_action(START, "2 6 4") == (6, 4, 2)
    move = ((2, 0), (10, 0))
    assert GAME.action_text(rolled, move) == "2 red, 10 red"
    assert GAME.parse_action(rolled, "2 red, 10 red") == move
    assert GAME.matching_actions(rolled, "10 2") == [((10, 0), (2, 0))]
    with pytest.raises(BadInput, match="not an option"):
        GAME.parse_action(rolled, "3 red")
    info = GAME.action_json(rolled, move)
    assert info == {"text": "2 red, 10 red", "placements": ["2 red", "10 red"], "shed": 2,
                    "bonus_roll": False, "won": False, "kicked_out": [],
                    "penalty_taken": [], "result": 2, "orders": 2}
    assert GAME.action_json(START, (6, 4, 2)) == {"text": "6,4,2", "roll": [6, 4, 2]}


def test_the_policies_pick_among_the_legal_moves():
    rng = random.Random(3)
    state = GAME.apply_action(START, (4, 3, 1))
    legal = GAME.legal_actions(state)
    for name in GAME.policy_names:
        policy = GAME.policy(RULES, name, {})
        assert not policy.open_hands  # Hippo hides nothing: the state is what all see
        assert policy.choose(state, legal, rng) in legal
    # best: 4+3 into Mr. Hippo's lane and 1 (a bonus roll) beats three singles
    best = GAME.policy(RULES, "best", {}).choose(state, legal, rng)
    assert sorted(lane for lane, _ in best) == [1, 7]
    assert "best: 1 red, 7 red" in VIEW.hint(RULES, state, {})
    with pytest.raises(BadInput, match="unknown policy 'clever'"):
        GAME.policy(RULES, "clever", {})
