"""Hippo `best`: the fast evaluation equals brute force over every result and all 216
outcomes of a bonus roll, under both readings of foreign colours first; exposure equals
its definition; simulations are seeded and replay the published figures (the figures
first published were played at once, and replay under --foreign-first at-once)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from models.hippo.best import (
    best_options,
    brute_force,
    exposure,
    reach_counts,
    reference_exposure,
)
from models.hippo.game import GAME
from models.hippo.notation import format_move
from models.hippo.positions import state_from_dict
from models.hippo.rules import AT_ONCE, FOREIGN_FIRST, NEXT_TURN, load_rules
from models.hippo.state import GameState, new_game
from solver.executor import Batch
from solver.simulate import play_one, simulate
from tests.hippo_helpers import random_state

RULES = load_rules()
AT_ONCE_RULES = load_rules(None, AT_ONCE)


def _random(seed: int, foreign: float, rules=RULES) -> GameState:
    """A random position, the same under both readings; before a bonus roll, under the
    next-turn reading, some of the mover's foreign chips were taken this turn."""
    rng = random.Random(seed)
    s = random_state(AT_ONCE_RULES, rng.randint(2, 4), rng, fill=rng.choice([0.4, 0.8]),
                     foreign=foreign)
    bonus = rng.random() < 0.2
    fresh = tuple(rng.randint(0, n) if c != s.to_move else 0
                  for c, n in enumerate(s.stocks[s.to_move])) if bonus else ()
    return GameState(rules, s.colours, s.lanes, s.hippo, s.stocks, s.to_move, bonus,
                     fresh=fresh if rules.next_turn and any(fresh) else ())


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
@pytest.mark.parametrize("seed", range(12))
def test_best_equals_brute_force_on_random_states(seed, reading):
    rng = random.Random(100 + seed)
    state = _random(seed, [0.0, 0.3][seed % 2], load_rules(None, reading))
    # half of the rolls can make 7 (bonus roll), half are random
    dice = ((3, 4, rng.randint(1, 6)) if seed % 3 == 0 else (1, 2, 4) if seed % 3 == 1
            else tuple(rng.randint(1, 6) for _ in range(3)))
    fast = [(o.move, o.value, o.exposure) for o in best_options(state, dice)]
    assert fast == brute_force(state, dice)


def test_best_equals_brute_force_when_the_bonus_roll_can_win():
    state = GameState(RULES, ("red", "green"), ((),) * 13, (9, 0),
                      ((3, 0), (0, 12)), 0, False)
    fast = [(o.move, o.value, o.exposure) for o in best_options(state, (2, 5, 1))]
    assert fast == brute_force(state, (2, 5, 1))
    # 7 and 1 then a bonus roll that always places the last chip: 3 chips for sure
    assert fast[0][1] == 3 or fast[0][1] == Fraction(3)


def test_the_bonus_roll_is_worth_its_exact_expectation():
    state = new_game(RULES, ["red", "green"])
    ranked = best_options(state, (3, 4, 5))
    top = ranked[0]
    assert sorted(lane for lane, _ in top.move) == [5, 7] and top.bonus
    # then every bonus roll sheds 3 (singles) except 5+5+5: the third chip in lane 5
    # (holding the red chip just placed) would kick it out, so 5 and 10 shed 2
    assert top.value == 5 - Fraction(1, 216)
    singles = next(o for o in ranked if len(o.move) == 3)
    assert singles.value == 3


def test_ties_are_broken_by_least_exposure():
    rng = random.Random(9)
    for seed in range(15):
        state = _random(seed, 0.3)
        ranked = best_options(state, tuple(rng.randint(1, 6) for _ in range(3)))
        for a, b in zip(ranked, ranked[1:], strict=False):
            assert (a.value, -a.exposure) >= (b.value, -b.exposure)


def test_exposure_equals_its_definition():
    for seed in range(25):
        state = _random(seed, 0.2)
        for me in range(state.players):
            fast = Fraction(exposure(RULES, state.lanes, state.stocks, me), 216)
            assert fast == reference_exposure(state, me)


def test_reach_counts():
    reach = reach_counts(RULES)
    assert all(row[0] == 216 for row in reach[1:])
    assert reach[7][1] == 105  # a group of two or three dice makes 7 in 105 of 216
    assert reach[1][3] == 1 and reach[1][2] == 16  # three ones; at least two ones
    assert reach[12][2] == 0
    assert reach[7][2] == 0


def _simulate(games: int, seats: list[str], seed: int, rotate: bool = False,
              batch: Batch | None = None, rules=RULES):
    return simulate(GAME, rules, games, GAME.setups(rules, players=len(seats)), [seats],
                    seed, rotate, batch=batch)


def test_simulation_is_reproducible_from_the_seed():
    a = _simulate(6, ["best", "greedy", "random"], seed=5, rotate=True)
    b = _simulate(6, ["best", "greedy", "random"], seed=5, rotate=True,
                  batch=Batch(2, progress=False))
    assert a.cells == b.cells and a.records == b.records
    assert (a.executor, b.executor) == ("in-process", "local pool (2 processes)")
    # the figures of the single-process simulation these games were first played with
    cell = a.cells[0]
    assert [r.successes for r in cell.win_rate_by_seat] == [1, 2, 3]
    assert cell.measures["turns"]["mean"] == 14.833 and cell.measures["rounds_mean"] == 4.944
    one = [GAME, RULES, {"players": 2}, ["best", "random"], {}, False, 0, 0, 77]
    assert play_one(*one) == play_one(*one)
    c = _simulate(6, ["best", "greedy", "random"], seed=6, rotate=True)
    assert c.records != a.records


@pytest.mark.parametrize("reading, turns", [("next-turn", 9.6), ("at-once", 9.4)])
def test_simulation_counts_every_game(reading, turns):
    res = _simulate(10, ["greedy", "random"], seed=1, rules=load_rules(None, reading))
    cell = res.cells[0]
    assert [r.successes for r in cell.win_rate_by_seat] == [10, 0]
    assert sum(r.successes for r in cell.win_rate_by_seat) + cell.unfinished == 10
    assert cell.win_rate_by_policy is not None
    assert sum(r.trials for r in cell.win_rate_by_policy.values()) == 20
    assert cell.measures["turns"]["mean"] == turns


# docs/hippo.md: 200 games, best against greedy, seats rotated, seed 0; the figures
# first published (153 / 47) were played with foreign chips first at once, and replay so
@pytest.mark.parametrize("reading, by_policy, by_seat, turns", [
    ("next-turn", {"best": 152, "greedy": 48}, [104, 96], 8.29),
    ("at-once", {"best": 153, "greedy": 47}, [105, 95], 8.285)])
def test_published_example_replays(reading, by_policy, by_seat, turns):
    cell = _simulate(200, ["best", "greedy"], seed=0, rotate=True,
                     rules=load_rules(None, reading)).cells[0]
    assert cell.win_rate_by_policy is not None
    assert {p: r.successes for p, r in cell.win_rate_by_policy.items()} == by_policy
    assert [r.successes for r in cell.win_rate_by_seat] == by_seat
    assert cell.measures["turns"]["mean"] == turns


def crowded_state(seed: int, rules=RULES) -> GameState:
    """Lanes 1-6 full, mostly with the mover's chip on top (penalties
    everywhere), the mover holding 1-6 chips (for odd seeds one of them foreign)."""
    rng = random.Random(500 + seed)
    n, me = rng.randint(3, 4), 0
    keep = rng.randint(1, 6)
    foreign = seed % 2
    while True:
        lanes = [()] * 13
        for lane in range(1, 13):
            if lane == 7:
                continue
            size = 3 if lane <= 6 else rng.randint(0, 3)
            content = [rng.randrange(n) for _ in range(size)]
            if lane <= 6 and rng.random() < 0.7:  # lanes 1-6: full
                content[2] = me
            lanes[lane] = tuple(content)
        count = [sum(lane.count(c) for lane in lanes) for c in range(n)]
        if count[me] <= 12 - (keep - foreign) and all(count[c] <= 10 for c in range(1, n)):
            break
    stocks = [[0] * n for _ in range(n)]
    stocks[me][me] = keep - foreign
    stocks[me][1] = foreign
    hippo = [0] * n
    hippo[me] = 12 - count[me] - stocks[me][me]
    for c in range(1, n):
        stocks[c][c] = 12 - count[c] - (foreign if c == 1 else 0)
    return GameState(rules, rules.colour_names[:n], tuple(lanes), tuple(hippo),
                     tuple(tuple(r) for r in stocks), me, False)


# every seed by the rulebook's reading, half of them at once too (a quicker loop)
@pytest.mark.parametrize("seed, reading", [(seed, NEXT_TURN) for seed in range(10)]
                         + [(seed, AT_ONCE) for seed in range(0, 10, 2)])
def test_best_equals_brute_force_on_crowded_pools_and_small_stocks(seed, reading):
    """The shortcuts of the bonus-roll answer must stay exact where penalties abound
    (and, next turn, the chips they take may wait through the bonus roll)."""
    state = crowded_state(seed, load_rules(None, reading))
    dice = (3, 4, 1 + seed % 6) if seed % 3 else (1, 2, 4)
    fast = [(o.move, o.value, o.exposure) for o in best_options(state, dice)]
    assert fast == brute_force(state, dice)


def test_the_reading_changes_the_options_after_a_penalty():
    """5 into lane 5 kicks red's own chip out: red takes the lane (2 red, 2 green), and
    4+3 into Mr. Hippo's lane earns the bonus roll. At once the chip into lane 7 must be
    green; by the rulebook's words red may keep the green chips for the next turn, and
    the bonus roll is valued with them waiting. Both rankings equal brute force."""
    data = {"players": ["red", "green"], "lanes": {"5": ["green", "green", "red"],
                                                  "7": {"red": 6}},
            "stocks": {"red": 5, "green": 10}}
    ranked = {}
    for reading in FOREIGN_FIRST:
        state = state_from_dict(load_rules(None, reading), data)
        fast = best_options(state, (5, 4, 3))
        assert [(o.move, o.value, o.exposure) for o in fast] == brute_force(state, (5, 4, 3))
        ranked[reading] = [(format_move(state, o.move), o.value) for o in fast]
    assert ranked["at-once"][:4] == [("3 red, 9 red", 2), ("4 red, 8 red", 2),
                                     ("7 red, 5 red", 1), ("5 red, 7 green", 1)]
    assert ranked["next-turn"][:4] == [("3 red, 9 red", 2), ("4 red, 8 red", 2),
                                       ("5 red, 7 red", 1), ("5 red, 7 green", 1)]


def test_the_reading_never_changes_what_a_turn_sheds():
    """Within a turn no chip whose colour the reading leaves free (one placed after a
    penalty) can be pushed out again before the turn ends, so both readings offer the
    same chips shed (the bonus roll's expectation included); the colours left in the
    stock, and with them exposure and later turns, may differ."""
    for seed in range(16):
        state = crowded_state(seed % 10) if seed < 10 else _random(seed, 0.3, AT_ONCE_RULES)
        for dice in [(3, 4, 1 + seed % 6), (1, 1, 1)]:
            values = [{o.value for o in best_options(
                GameState(rules, state.colours, state.lanes, state.hippo, state.stocks,
                          state.to_move, state.bonus), dice)}
                for rules in (AT_ONCE_RULES, RULES)]
            assert values[0] == values[1], (seed, dice)
