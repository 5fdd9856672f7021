"""The worked examples of the Hippo rulebook (shared/rulebooks/hippo.en.txt) that no
other test checks with its printed numbers, read line by line; each through the rules
engine, and where the encodings answer the same question (the results of one roll) the
CP-SAT plan model and the finishing-chance DP too, under both readings of foreign
colours first. docs/hippo.md, "Worked examples of the rulebook", lists every example
with the test that checks it."""

from __future__ import annotations

import pytest

from models.hippo.dice import all_rolls, roll_sequences
from models.hippo.finish_search import Finisher
from models.hippo.finish_tables import view_of
from models.hippo.positions import state_from_dict
from models.hippo.rules import AT_ONCE, FOREIGN_FIRST, NEXT_TURN, load_rules
from models.hippo.state import GameState, new_game, outcomes
from tests.test_hippo_plan import cpsat_results, engine_results

RULES = load_rules()
RED, GREEN, VIOLET, YELLOW = range(4)
FOUR = ["red", "green", "violet", "yellow"]


def position(data: dict, reading: str = NEXT_TURN) -> GameState:
    return state_from_dict(load_rules(None, reading), {"game": "hippo", **data})


def options(state: GameState, roll: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """The rulebook's way of listing a roll's options: the lanes of each distinct
    result (sorted) and the chips it places."""
    return {tuple(sorted(lane for lane, _ in o.move)): len(o.move)
            for o in outcomes(state, roll)}


def assert_encodings_agree(state: GameState, roll: tuple[int, ...]) -> None:
    """The CP-SAT plan model allows exactly the engine's results of the roll (each of
    its choices replayed), and the finishing-chance DP's own/other view reaches
    exactly the engine's results too."""
    assert cpsat_results(state, roll) == engine_results(state, roll)
    rules = state.rules
    f = Finisher(rules)
    dice = tuple(sorted(roll))
    engine = {(f.tables.pack(view_of(o.state, state.to_move)),
               any(lane == rules.hippo for lane, _ in o.move) and not o.won, o.won)
              for o in outcomes(state, roll)}
    mine = {(v if used and not state.bonus else f.tables.new_turn(v), used, won)
            for v, used, won in f.moves.outcomes(f.tables.pack(view_of(state)), dice,
                                           roll_sequences(rules, dice))}
    assert mine == engine


# --------------------------------------------------------------------------- material

def test_game_material_and_preparation():
    """48 chips, 12 of each of four colours, 3 dice, lanes 1-12 with Mr. Hippo's lane 7,
    2-4 players; each player starts with a stock of 12 chips of one colour."""
    assert (RULES.chips, len(RULES.colour_names), RULES.dice, RULES.faces) == (12, 4, 3, 6)
    assert RULES.chips * len(RULES.colour_names) == 48
    assert RULES.colour_names == ("red", "green", "violet", "yellow")
    assert (RULES.lanes, RULES.hippo, RULES.capacity) == (12, 7, 3)
    assert (RULES.min_players, RULES.max_players) == (2, 4)
    start = new_game(RULES, FOUR)
    assert start.stocks == tuple(tuple(12 if c == p else 0 for c in range(4))
                                 for p in range(4))
    assert all(lane == () for lane in start.lanes) and start.hippo == (0, 0, 0, 0)


def test_play_goes_round_the_table_in_the_players_order():
    """"The game continues in a clockwise direction": the next colour of `players`,
    after the last the first. (Who starts, "the highest number", is not modelled: the
    first of `players`.)"""
    state = position({"players": FOUR, "to_move": "yellow"})
    after = state.apply_action(((2, YELLOW), (4, YELLOW), (6, YELLOW)))
    assert after.to_move == RED
    assert new_game(RULES, FOUR).apply_action(((12, RED),)).to_move == GREEN


# --------------------------------------------------------------------------- how to play

def test_a_roll_places_up_to_three_chips_fewer_when_added_up():
    """"Each turn, you can place up to three chips. Alternatively, you can also add up
    the numbers ... you will place less than three chips": from the start, every one of
    the 56 rolls offers the three singles (three chips), and each added-up option places
    one chip per group: two for a pair and a die, one for all three (sum at most 12)."""
    start = new_game(RULES, ["red", "green"])
    for dice, _ in all_rolls(RULES):
        found = options(start, dice)
        assert found[tuple(sorted(dice))] == 3
        assert set(found.values()) <= {1, 2, 3}
        for lanes, chips in found.items():
            assert chips == len(lanes)
            assert sum(lanes) == sum(dice)
        assert ((sum(dice),) in found) == (sum(dice) <= 12)


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_642_in_the_encodings(reading):
    """The 6 + 4 + 2 example: its five options are also exactly what the CP-SAT plan
    model and the finishing-chance DP allow; the plan over that one roll places the
    three singles (9 chips left)."""
    from models.hippo.plan import solve_plan

    start = new_game(load_rules(None, reading), ["red", "green"])
    assert options(start, (6, 4, 2)) == {(2, 4, 6): 3, (2, 10): 2, (4, 8): 2, (6, 6): 2,
                                         (12,): 1}
    assert sorted(n for _, n in engine_results(start, (6, 4, 2))) == [9, 10, 10, 10, 11]
    assert_encodings_agree(start, (6, 4, 2))
    plan = solve_plan(start, [(6, 4, 2)])
    assert plan.chips_left == 9 and len(plan.steps[0].placements) == 3


# --------------------------------------------------------------------------- placing

@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_a_chip_enters_at_the_bottom_and_pushes_the_lane_up(reading):
    """"Place the chip in the bottom field ... If the bottom field is occupied, simply
    move the occupying chip to the field above": lane 5 holding green; 5 + 5 + 1 as
    singles puts two red chips under it, the green chip ends at the top (field 3)."""
    state = position({"players": ["red", "green"], "lanes": {"5": ["green"]}}, reading)
    after = state.apply_action(((5, RED), (5, RED), (1, RED)))
    assert after.lanes[5] == (RED, RED, GREEN)  # bottom field first
    assert after.lanes[1] == (RED,)
    assert after.stock_size(RED) == state.stock_size(RED) - 3
    assert_encodings_agree(state, (5, 5, 1))


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_a_full_lane_kicks_out_the_top_chip_in_the_encodings(reading):
    """"A maximum of 3 chips ... when a lane is full, you can still place your chip by
    removing the top chip belonging to another player", and "Removed chips must be
    returned to the players who placed them (i.e. a stock of the same color)": lane 5
    green, violet, yellow; red's chip into it sends the yellow one back to yellow.
    (The engine's numbers: test_hippo_rules.py::test_full_lane_kicks_out_the_top_chip
    _to_its_owner.)"""
    state = position({"players": FOUR, "lanes": {"5": ["green", "violet", "yellow"]}},
                     reading)
    after = state.apply_action(((5, RED), (1, RED), (1, RED)))
    assert after.lanes[5] == (RED, GREEN, VIOLET)
    assert after.stocks[YELLOW] == (0, 0, 0, 12)
    assert_encodings_agree(state, (5, 1, 1))


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_the_penalty_in_the_encodings(reading):
    """Attention: "If you place a chip at the bottom and kick out one of your own chips
    at the top ... you must take all the chips in that swimming lane, no matter what
    color they are": lane 4 green, yellow, red; 4 + 6 + 6. (The engine's numbers:
    test_hippo_rules.py::test_kicking_out_an_own_chip_takes_the_whole_lane.)"""
    state = position({"players": FOUR, "lanes": {"4": ["green", "yellow", "red"]}},
                     reading)
    after, events = state.play(((4, RED), (12, RED)))
    assert after.lanes[4] == () and sorted(events[0][2]) == [RED, RED, GREEN, YELLOW]
    # "a player can have chips of various colors in their stock"
    assert after.stocks[RED] == (11, 1, 0, 1)
    assert_encodings_agree(state, (4, 6, 6))


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_foreign_chips_are_the_other_players_property_once_placed(reading):
    """"These chips will then be the property of the other players once again": red
    places the green chip it holds (it must go first) into lane 6; later kicked out of
    the lane, it goes back to green's stock, not to red's."""
    state = position({"players": ["red", "green"], "lanes": {"6": ["green", "green"]},
                      "stocks": {"red": {"red": 12, "green": 1}, "green": 9}}, reading)
    assert {m[0][1] for m in state.legal_actions((6, 1, 2))} == {GREEN}
    placed = state.apply_action(((6, GREEN), (1, RED), (2, RED)))
    assert placed.lanes[6] == (GREEN, GREEN, GREEN) and placed.stocks[RED] == (10, 0)
    # green's turn, then red pushes the lane once more: the top chip (the oldest) goes
    # to green; twice more and the chip red placed is out too -- to green as well
    red_again = placed.apply_action(((12, GREEN),))
    out = red_again.apply_action(((6, RED), (6, RED), (1, RED)))
    assert out.lanes[6] == (RED, RED, GREEN)  # the chip red placed is the top one now
    assert out.stocks[GREEN] == (0, 10) and out.stocks[RED] == (7, 0)
    last = out.apply_action(((12, GREEN),)).apply_action(((6, RED), (1, RED), (2, RED)))
    assert last.lanes[6] == (RED, RED, RED) and last.stocks[GREEN] == (0, 10)
    assert last.stocks[RED] == (4, 0)
    assert_encodings_agree(state, (6, 1, 2))


# --------------------------------------------------------------------------- bonus

@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_mr_hippos_lane_takes_any_number_and_never_kicks_out(reading):
    """"The no swim zone can take an unlimited number of chips ... There is no danger of
    anyone having to take back chips": lane 7 already holding 41 chips takes a 42nd,
    nothing leaves it, and no penalty is possible there."""
    state = position({"players": FOUR,
                      "lanes": {"7": {"red": 11, "green": 10, "violet": 10, "yellow": 10}},
                      "stocks": {"red": 1, "green": 2, "violet": 2, "yellow": 2}}, reading)
    after, events = state.play(((7, RED),))
    assert after.hippo == (12, 10, 10, 10) and sum(after.hippo) == 42
    assert events == [(7, None, ())] and after.is_terminal()
    assert_encodings_agree(state, (3, 4, 1))


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_two_dice_make_7_and_the_third_goes_into_its_lane(reading):
    """"When the numbers of two dice add up to 7, you must place the third chip in the
    pool, according to the number on the third die. You do not necessarily have to use
    the possible sum of 7": 3 + 4 + 5 has five options, one of them 7 and 5 (with the
    bonus roll); three dice adding up to 7 (1 + 2 + 4) place one chip, in lane 7."""
    start = new_game(load_rules(None, reading), ["red", "green"])
    assert options(start, (3, 4, 5)) == {(3, 4, 5): 3, (3, 9): 2, (4, 8): 2, (5, 7): 2,
                                         (12,): 1}
    bonus = {tuple(sorted(lane for lane, _ in o.move)) for o in outcomes(start, (3, 4, 5))
             if o.bonus}
    assert bonus == {(5, 7)}
    seven = next(o for o in outcomes(start, (3, 4, 5)) if o.bonus)
    assert seven.state.lanes[5] == (RED,) and seven.state.hippo == (1, 0)
    assert options(start, (1, 2, 4)) == {(1, 2, 4): 3, (1, 6): 2, (2, 5): 2, (3, 4): 2,
                                         (7,): 1}
    assert [o.bonus for o in outcomes(start, (1, 2, 4)) if o.move == ((7, RED),)] == [True]
    assert_encodings_agree(start, (3, 4, 5))
    assert_encodings_agree(start, (1, 2, 4))


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_the_bonus_roll_after_a_penalty_in_the_encodings(reading):
    """The bonus roll ("another go!") after a turn's first roll that took a lane: by the
    rulebook's words the green chip taken need not go first on it; at once it must.
    The encodings follow either reading. (The engine's numbers: test_hippo_rules.py::
    test_chips_taken_on_the_first_roll_wait_through_the_bonus_roll.)"""
    state = position({"players": ["red", "green"], "lanes": {"3": ["green", "red", "red"]},
                      "stocks": {"red": 10, "green": 11}}, reading)
    bonus = state.apply_action(((7, RED), (3, RED)))  # 4+3 into lane 7, then the 3
    assert bonus.bonus and bonus.to_move == RED and bonus.stocks[RED] == (11, 1)
    firsts = {m[0][1] for m in bonus.legal_actions((1, 2, 6))}
    assert firsts == ({GREEN} if reading == AT_ONCE else {RED, GREEN})
    assert_encodings_agree(bonus, (1, 2, 6))
    assert_encodings_agree(state, (4, 3, 3))
    # 1+6 into lane 7 again: "you are not allowed to roll the dice a third time"
    again = bonus.apply_action(((7, GREEN), (2, RED)))
    assert not again.bonus and again.to_move == GREEN and again.hippo == (1, 1)
