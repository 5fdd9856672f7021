"""Hippo: what a position knows, and a hint that reads no dice before they are thrown.

Hippo hides nothing at the table: every chip is in view, and what nobody knows is the
dice still to be thrown. No state carries a future roll (the dice are a chance node
that comes after the move), and `best` (the hint and the best policy) values a bonus
roll by its exact expectation over every throw of the dice: property tests over random
positions hold it equal to an expectation computed here from the game's interface
alone (all 216 ordered throws, each answered by its best placement), and the choice
does not depend on the random stream the dice will later be drawn from. A position
that leaves anything unknown ("?") is bad input; `simulate --open-hands` plays the
same games as the honest default.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.hippo.best import best_options, brute_force
from models.hippo.game import GAME
from models.hippo.render import VIEW
from models.hippo.rules import FOREIGN_FIRST, load_rules
from models.hippo.state import new_game
from solver.game import CHANCE
from solver.simulate import simulate
from tests.cli_helpers import assert_one_line_error, game_runner, run_json
from tests.hippo_helpers import random_state

RULES = {reading: load_rules(None, reading) for reading in FOREIGN_FIRST}
PROPERTY = settings(max_examples=15, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
run = game_runner("hippo")


def _position(seed: int, reading: str):
    """A random mid-game position (no roll yet) and a roll that can make 7 half of the
    time (so a bonus roll is averaged)."""
    rng = random.Random(seed)
    state = random_state(RULES[reading], rng.randint(2, 4), rng,
                         fill=rng.choice([0.3, 0.7]), foreign=rng.choice([0.0, 0.3]))
    roll = ((3, 4, rng.randint(1, 6)) if rng.random() < 0.5
            else tuple(rng.randint(1, 6) for _ in range(3)))
    return state, roll


def _most_shed(state) -> int:
    """The most chips the player on turn sheds with one placement of the state's roll
    (the answer to a bonus roll), from the interface: every legal move applied."""
    me = GAME.current_player(state)
    before = state.stock_size(me)
    return max(before - GAME.apply_action(state, m).stock_size(me)
               for m in GAME.legal_actions(state))


@PROPERTY
@given(seed=st.integers(0, 10**6), reading=st.sampled_from(FOREIGN_FIRST))
def test_the_hint_averages_every_throw_of_the_bonus_roll_exactly(seed, reading):
    """Each option's expected chips shed = the roll's chips + the mean, over all 216
    ordered throws of the bonus roll, of the most its best answer sheds."""
    state, roll = _position(seed, reading)  # before a bonus roll at times: no bonus then
    rolled = GAME.apply_action(state, tuple(sorted(roll, reverse=True)))
    me = rolled.to_move
    throws = list(itertools.product(range(1, 7), repeat=3))
    for option in best_options(rolled, rolled.roll):
        after = GAME.apply_action(rolled, option.move)
        shed = rolled.stock_size(me) - after.stock_size(me)
        if GAME.is_terminal(after) or GAME.current_player(after) != CHANCE \
                or after.to_move != me:
            assert option.value == shed and not option.bonus
            continue
        answers: dict[tuple[int, ...], int] = {}
        for t in throws:
            key = tuple(sorted(t, reverse=True))
            if key not in answers:
                answers[key] = _most_shed(GAME.apply_action(after, key))
        expected = shed + Fraction(sum(answers[tuple(sorted(t, reverse=True))]
                                       for t in throws), len(throws))
        assert option.bonus and option.value == expected


@PROPERTY
@given(seed=st.integers(0, 10**6), reading=st.sampled_from(FOREIGN_FIRST))
def test_best_equals_brute_force_over_every_outcome(seed, reading):
    state, roll = _position(seed, reading)
    rolled = state.rolled(roll)
    fast = [(o.move, o.value, o.exposure) for o in best_options(rolled, rolled.roll)]
    assert fast == brute_force(rolled, rolled.roll)


@PROPERTY
@given(seed=st.integers(0, 10**6), streams=st.lists(st.integers(0, 10**6), min_size=2,
                                                    max_size=4, unique=True))
def test_the_hint_does_not_depend_on_dice_not_yet_thrown(seed, streams):
    """The dice not yet thrown come from the random stream after the move; whatever
    they will be (other streams), the ranking is the same, the hint's words are the
    same, and the best policy picks among the same best options (ties drawn)."""
    state, roll = _position(seed, "next-turn")
    rolled = state.rolled(roll)
    top = best_options(rolled, rolled.roll)
    first = (top[0].value_num, top[0].exposure_num)
    tied = {o.move for o in top if (o.value_num, o.exposure_num) == first}
    legal = GAME.legal_actions(rolled)
    for s in streams:
        rng = random.Random(s)
        rng.random()  # a stream at another point: other dice to come
        assert [(o.move, o.value, o.exposure) for o in best_options(rolled, rolled.roll)] \
            == [(o.move, o.value, o.exposure) for o in top]
        assert GAME.policy(RULES["next-turn"], "best", {}).choose(rolled, legal, rng) in tied
        assert VIEW.hint(RULES["next-turn"], rolled, {}) == VIEW.hint(
            RULES["next-turn"], rolled, {})
    # nothing of a future roll is in a state or its file: the chance node comes after
    after = GAME.apply_action(rolled, top[0].move)
    assert after.roll is None and "roll" not in GAME.write(after)


def test_knows_in_the_games_words():
    state = new_game(RULES["next-turn"], ["red", "green", "violet"])
    words = ["the lanes", "Mr. Hippo's lane", "the stock of red", "the stock of green",
             "the stock of violet", "the player on turn and whether it is the bonus roll"]
    assert GAME.knows(state) == words
    assert GAME.knows(state.rolled((6, 4, 2))) == [*words, "the dice thrown"]
    assert GAME.unknown(state) == [] and GAME.observation(state, 1) == state


# ---------------------------------------------------------------- the command line

def test_commands_say_what_they_used(tmp_path):
    f = tmp_path / "p.json"
    f.write_text('{"players": ["red", "green"], "roll": [6, 4, 2]}')
    best = run_json(run, "best", str(f))
    assert best["all_seeing"] is False and best["unknown"] == [] and best["samples"] is None
    assert best["knows"][-1] == "the dice thrown" and "216 throws" in best["chance"]
    other = run_json(run, "best", str(f), "--roll", "3,4,5")
    assert other["knows"] == best["knows"]
    plan = run_json(run, "plan", str(f), "--rolls", "6,4,2 5,5,1")
    assert plan["all_seeing"] is True
    assert plan["knows"][-1] == "the rolls to come, in order (--rolls)"
    assert "the dice thrown" not in plan["knows"]
    finish = run_json(run, "finish", str(f), "--turns", "1")
    assert finish["all_seeing"] is False and "the dice thrown" not in finish["knows"]
    shown = run_json(run, "show", str(f))
    assert shown["knows"] == best["knows"] and shown["unknown"] == []


@pytest.mark.parametrize("data, where", [
    ('{"players": ["red", "green"], "lanes": {"4": ["red", "?"]}}', "lanes.4[1]"),
    ('{"players": ["red", "green"], "stocks": {"red": "?", "green": 12}}', "stocks.red"),
    ('{"players": ["red", "green"], "stocks": {"red": {"?": 2}, "green": 12}}',
     "stocks.red.?"),
    ('{"players": ["red", "green"], "roll": "?"}', "roll"),
    ('{"players": ["red", "green"], "roll": [6, "?", "?"]}', "roll[1]"),
    ('{"players": ["red", "?"]}', "players[1]"),
])
def test_a_position_that_leaves_something_unknown_is_refused(tmp_path, data, where):
    f = tmp_path / "p.json"
    f.write_text(data)
    for command in ("show", "best", "finish"):
        assert_one_line_error(run(command, str(f)), where, "'?'", "Hippo hides nothing",
                              "0 unseen pieces")


@pytest.mark.parametrize("players, policies", [(2, ["best", "greedy"]),
                                               (3, ["best", "greedy", "random"])])
def test_open_hands_play_the_same_games(players, policies):
    """Every policy reads the table, which hides nothing: handed the whole state
    (--open-hands) they play exactly the same games."""
    rules = RULES["next-turn"]
    setups = GAME.setups(rules, players=players)
    honest, seeing = (simulate(GAME, rules, 12, setups, [policies], 3, rotate=True,
                               open_hands=o) for o in (False, True))
    assert set(honest.knows.values()) == {"own"}
    assert set(seeing.knows.values()) == {"everything"}
    assert [(r.returns, r.actions, r.measures) for r in honest.records] == \
        [(r.returns, r.actions, r.measures) for r in seeing.records]


def test_solving_a_puzzle_is_all_seeing():
    from pathlib import Path

    puzzle = Path(__file__).parents[1] / "puzzles/hippo/library/hippo-easy-2026-1.json"
    out = run_json(run, "solve", str(puzzle))
    assert out["status"] == "unique" and out["all_seeing"] is True
    assert out["knows"][-1] == "the rolls to come, in order" and out["unknown"] == []
