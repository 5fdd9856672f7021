"""Hippo `finish`: the DP's own/other view moves exactly like the rules engine, the chance
within one turn equals brute force over the engine, chance + miss = 1 exactly; under
both readings of foreign colours first."""

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
    AT_ONCE,
    FOREIGN_FIRST,
    NEXT_TURN,
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
AT_ONCE_RULES = load_rules(None, AT_ONCE)
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hippo"
ROLLS = list(itertools.product(range(1, 7), repeat=3))


def small_state(seed: int, stock: int, rules=RULES) -> GameState:
    """A random position where the player on turn holds `stock` chips (some foreign);
    the same position under both readings."""
    rng = random.Random(seed)
    s = random_state(AT_ONCE_RULES, rng.randint(2, 3), rng, fill=0.8, foreign=0.3)
    me = s.to_move
    rows = [list(r) for r in s.stocks]
    lanes = list(s.lanes)
    hippo = list(s.hippo)
    while sum(rows[me]) > stock:  # move surplus chips to Mr. Hippo's lane
        c = max(range(s.players), key=lambda c: rows[me][c])
        rows[me][c] -= 1
        hippo[c] += 1
    return GameState(rules, s.colours, tuple(lanes), tuple(hippo),
                     tuple(tuple(r) for r in rows), me, False)


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
@pytest.mark.parametrize("seed", range(10))
def test_view_moves_like_the_rules_engine(seed, reading):
    rng = random.Random(seed)
    rules = load_rules(None, reading)
    state = random_state(AT_ONCE_RULES, rng.randint(2, 4), rng, fill=0.9, foreign=0.4)
    # odd seeds: before a bonus roll, with (next turn) the foreign chips taken this turn
    bonus = seed % 2 == 1
    fresh = tuple(n if c != state.to_move else 0
                  for c, n in enumerate(state.stocks[state.to_move])) if bonus else ()
    state = GameState(rules, state.colours, state.lanes, state.hippo, state.stocks,
                      state.to_move, bonus,
                      fresh=fresh if rules.next_turn and any(fresh) else ())
    f = Finisher(rules)
    me = state.to_move
    view = f.pack(view_of(state))
    assert f.unpack(view) == view_of(state)
    for dice, _ in all_rolls(rules)[::3]:
        # the engine's state after a roll that earns no further roll has begun the next
        # turn (chips taken are due); the DP makes them due when that turn starts
        engine = {(f.pack(view_of(o.state, me)),
                   any(lane == 7 for lane, _ in o.move) and not o.won, o.won)
                  for o in outcomes(state, dice)}
        mine = {(v if used and not bonus else f.new_turn(v), used, won)
                for v, used, won in f.outcomes(view, dice, roll_sequences(rules, dice))}
        assert mine == engine


def brute_one_turn(state: GameState) -> Fraction:
    """Chance to empty the stock this turn, from the rules engine over all 216 x 216
    ordered rolls (a bonus position's chance counted once per distinct position)."""
    hits_of: dict = {}

    def hits(after: GameState) -> int:
        if after.key() not in hits_of:
            hits_of[after.key()] = sum(1 for r2 in ROLLS
                                       if any(o2.won for o2 in outcomes(after, r2)))
        return hits_of[after.key()]

    total = Fraction(0)
    for r in ROLLS:
        best = Fraction(0)
        for o in outcomes(state, r):
            if o.won:
                best = Fraction(1)
                break
            if o.bonus:
                best = max(best, Fraction(hits(o.state), 216))
        total += best / 216
    return total


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
@pytest.mark.parametrize("seed, stock", [(1, 1), (2, 2), (3, 3), (4, 4), (6, 3), (8, 4)])
def test_one_turn_chance_equals_brute_force(seed, stock, reading):
    state = small_state(seed, stock, load_rules(None, reading))
    result = finish(state, 1)
    assert Fraction(result.exact) == brute_one_turn(state)


# next turn: a smaller stock from the same deal, where chips taken by a penalty wait in
# many of the positions met (248 of them, against 33 at once), to keep the test quick
@pytest.mark.parametrize("reading, stock", [(AT_ONCE, 5), (NEXT_TURN, 3)])
def test_chance_plus_miss_is_one(reading, stock):
    rules = load_rules(None, reading)
    state = small_state(11, stock, rules)
    f = Finisher(rules)
    view = f.pack(view_of(state))

    d = 216

    @cache
    def miss(n: int, v: int, bonus: bool) -> int:
        """The least chance of NOT emptying the stock within n turns (own recursion),
        times 216^(2n), or 216^(2n-1) when the turn goes on with its bonus roll."""
        scale = d ** (2 * n - (1 if bonus else 0))
        if f.size(v) == 0:
            return 0
        if n == 0:
            return scale
        total = 0
        for dice, count in all_rolls(rules):
            # a turn that ends makes the chips taken in it due (f.new_turn)
            worst = min((0 if won else
                         miss(n, after, True) if used and not bonus else
                         miss(n - 1, f.new_turn(after), False) * (1 if bonus else d))
                        for after, used, won in f.outcomes(v, dice,
                                                           roll_sequences(rules, dice)))
            total += count * worst
        return total

    for n in (1, 2):
        assert f.chance(n, view, False) + Fraction(miss(n, view, False), d ** (2 * n)) == 1


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
