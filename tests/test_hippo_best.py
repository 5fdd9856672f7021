"""Hippo `best`: the fast evaluation equals brute force over every result and all 216
outcomes of a bonus roll; exposure equals its definition; simulations are seeded and
replay the published figures."""

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
from models.hippo.rules import GameState, load_rules, new_game, random_state
from solver.executor import Batch
from solver.simulate import play_one, simulate

RULES = load_rules()


def _random(seed: int, foreign: float) -> GameState:
    rng = random.Random(seed)
    s = random_state(RULES, rng.randint(2, 4), rng, fill=rng.choice([0.4, 0.8]),
                     foreign=foreign)
    return GameState(RULES, s.colours, s.lanes, s.hippo, s.stocks, s.to_move,
                     rng.random() < 0.2)


@pytest.mark.parametrize("seed", range(12))
def test_best_equals_brute_force_on_random_states(seed):
    rng = random.Random(100 + seed)
    state = _random(seed, foreign=[0.0, 0.3][seed % 2])
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
              batch: Batch | None = None):
    return simulate(GAME, RULES, games, GAME.setups(RULES, players=len(seats)), [seats],
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


def test_simulation_counts_every_game():
    res = _simulate(10, ["greedy", "random"], seed=1)
    cell = res.cells[0]
    assert [r.successes for r in cell.win_rate_by_seat] == [10, 0]
    assert sum(r.successes for r in cell.win_rate_by_seat) + cell.unfinished == 10
    assert cell.win_rate_by_policy is not None
    assert sum(r.trials for r in cell.win_rate_by_policy.values()) == 20
    assert cell.measures["turns"]["mean"] == 9.4


def test_published_example_replays():
    """docs/hippo.md: 200 games, best against greedy, seats rotated, seed 0."""
    cell = _simulate(200, ["best", "greedy"], seed=0, rotate=True).cells[0]
    assert cell.win_rate_by_policy is not None
    assert {p: r.successes for p, r in cell.win_rate_by_policy.items()} == {
        "best": 153, "greedy": 47}
    assert [r.successes for r in cell.win_rate_by_seat] == [105, 95]
    assert cell.measures["turns"]["mean"] == 8.285


def crowded_state(seed: int) -> GameState:
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
    return GameState(RULES, RULES.colour_names[:n], tuple(lanes), tuple(hippo),
                     tuple(tuple(r) for r in stocks), me, False)


@pytest.mark.parametrize("seed", range(10))
def test_best_equals_brute_force_on_crowded_pools_and_small_stocks(seed):
    """The shortcuts of the bonus-roll answer must stay exact where penalties abound."""
    state = crowded_state(seed)
    dice = (3, 4, 1 + seed % 6) if seed % 3 else (1, 2, 4)
    fast = [(o.move, o.value, o.exposure) for o in best_options(state, dice)]
    assert fast == brute_force(state, dice)
