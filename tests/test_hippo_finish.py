"""Hippo `finish`: the DP's own/other view moves exactly like the rules engine, the chance
within one turn equals brute force over the engine, chance + miss = 1 exactly."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from models.hippo.finish import Finisher, finish, view_of
from models.hippo.rules import (
    GameState,
    all_rolls,
    load_rules,
    outcomes,
    random_state,
    roll_sequences,
    state_from_dict,
)
from solver.cli import cli

RULES = load_rules()
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hippo"
ROLLS = list(itertools.product(range(1, 7), repeat=3))


def small_state(seed: int, stock: int) -> GameState:
    """A random position where the player on turn holds `stock` chips (some foreign)."""
    rng = random.Random(seed)
    s = random_state(RULES, rng.randint(2, 3), rng, fill=0.8, foreign=0.3)
    me = s.to_move
    rows = [list(r) for r in s.stocks]
    lanes = list(s.lanes)
    hippo = list(s.hippo)
    while sum(rows[me]) > stock:  # move surplus chips to Mr. Hippo's lane
        c = max(range(s.players), key=lambda c: rows[me][c])
        rows[me][c] -= 1
        hippo[c] += 1
    return GameState(RULES, s.colours, tuple(lanes), tuple(hippo),
                     tuple(tuple(r) for r in rows), me, False)


@pytest.mark.parametrize("seed", range(10))
def test_view_moves_like_the_rules_engine(seed):
    rng = random.Random(seed)
    state = random_state(RULES, rng.randint(2, 4), rng, fill=0.9, foreign=0.4)
    state = GameState(RULES, state.colours, state.lanes, state.hippo, state.stocks,
                      state.to_move, False)
    f = Finisher(RULES)
    me = state.to_move
    view = f.pack(view_of(state))
    assert f.unpack(view) == view_of(state)
    for dice, _ in all_rolls(RULES)[::3]:
        engine = {(f.pack(view_of(o.state, me)),
                   any(lane == 7 for lane, _ in o.move) and not o.won, o.won)
                  for o in outcomes(state, dice)}
        mine = set(f.outcomes(view, dice, roll_sequences(RULES, dice)))
        assert mine == engine


def brute_one_turn(state: GameState) -> Fraction:
    """Chance to empty the stock this turn, from the rules engine over all 216 x 216."""
    total = Fraction(0)
    for r in ROLLS:
        best = Fraction(0)
        for o in outcomes(state, r):
            if o.won:
                best = Fraction(1)
                break
            if o.bonus:
                hits = sum(1 for r2 in ROLLS if any(o2.won for o2 in outcomes(o.state, r2)))
                best = max(best, Fraction(hits, 216))
        total += best / 216
    return total


@pytest.mark.parametrize("seed, stock", [(1, 1), (2, 2), (3, 3), (4, 4), (6, 3), (8, 4)])
def test_one_turn_chance_equals_brute_force(seed, stock):
    state = small_state(seed, stock)
    result = finish(state, 1)
    assert Fraction(result.exact) == brute_one_turn(state)


def test_chance_plus_miss_is_one():
    state = small_state(11, 5)
    f = Finisher(RULES)
    view = f.pack(view_of(state))

    @cache
    def miss(n: int, v: int, bonus: bool) -> Fraction:
        """The least chance of NOT emptying the stock within n turns (own recursion)."""
        if f.size(v) == 0:
            return Fraction(0)
        if n == 0:
            return Fraction(1)
        total = Fraction(0)
        for dice, count in all_rolls(RULES):
            worst = min((Fraction(0) if won else
                         miss(n, after, True) if used and not bonus else
                         miss(n - 1, after, False))
                        for after, used, won in f.outcomes(v, dice,
                                                           roll_sequences(RULES, dice)))
            total += count * worst
        return total / 216

    for n in (1, 2):
        assert f.chance(n, view, False) + miss(n, view, False) == 1


def test_chances_grow_with_turns_and_best_case():
    state = state_from_dict(RULES, {"players": ["red", "green"], "lanes": {"7": {"red": 11}}})
    result = finish(state, 2)
    assert result.by_turns[0].exact == "1"  # one chip: any roll places it
    state = state_from_dict(RULES, {"players": ["red", "green"], "lanes": {"7": {"red": 6}}})
    result = finish(state, 2)
    assert result.best_case_turns == 2  # 6 chips: at most 5 in a turn
    assert result.by_turns[0].chance == 0 < result.by_turns[1].chance < 1


def test_finish_cli():
    out = CliRunner().invoke(cli, ["hippo", "finish", str(PUZZLES / "solo-endgame.json"),
                                   "--turns", "1", "--json"])
    assert out.exit_code == 0, out.output
    assert '"best_case_turns": 1' in out.stdout
    slow = CliRunner().invoke(cli, ["hippo", "finish", str(PUZZLES / "midgame-4p.json"),
                                    "--turns", "3", "--time-limit", "0.2"])
    assert slow.exit_code == 3 and "time limit" in slow.output
