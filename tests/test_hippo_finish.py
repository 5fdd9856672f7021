"""Hippo `finish`: the DP's own/other view moves exactly like the rules engine, the chance
within one turn equals brute force over the engine, chance + miss = 1 exactly; the fast
DP (bounds, canonical last rolls and turns, splits by colour) equals the plain DP
(every order of every roll, every result valued) on small and random positions for 1-3
turns; the dice multisets' chances sum to 1; the bound is an upper bound; the time
limit gives one line with the bounds; under both readings of foreign colours first."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.hippo.dice import all_rolls, roll_sequences
from models.hippo.finish import finish
from models.hippo.finish_search import Finisher
from models.hippo.finish_tables import view_of
from models.hippo.positions import state_from_dict
from models.hippo.rules import AT_ONCE, FOREIGN_FIRST, NEXT_TURN, load_rules
from models.hippo.state import GameState, outcomes
from solver.cli import cli
from tests.hippo_helpers import random_state

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
    view = f.tables.pack(view_of(state))
    assert f.tables.unpack(view) == view_of(state)
    for dice, _ in all_rolls(rules)[::3]:
        # the engine's state after a roll that earns no further roll has begun the next
        # turn (chips taken are due); the DP makes them due when that turn starts
        engine = {(f.tables.pack(view_of(o.state, me)),
                   any(lane == 7 for lane, _ in o.move) and not o.won, o.won)
                  for o in outcomes(state, dice)}
        mine = {(v if used and not bonus else f.tables.new_turn(v), used, won)
                for v, used, won in f.moves.outcomes(view, dice, roll_sequences(rules, dice))}
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
    view = f.tables.pack(view_of(state))

    d = 216

    @cache
    def miss(n: int, v: int, bonus: bool) -> int:
        """The least chance of NOT emptying the stock within n turns (own recursion),
        times 216^(2n), or 216^(2n-1) when the turn goes on with its bonus roll."""
        scale = d ** (2 * n - (1 if bonus else 0))
        if f.tables.size(v) == 0:
            return 0
        if n == 0:
            return scale
        total = 0
        for dice, count in all_rolls(rules):
            # a turn that ends makes the chips taken in it due (f.tables.new_turn)
            worst = min((0 if won else
                         miss(n, after, True) if used and not bonus else
                         miss(n - 1, f.tables.new_turn(after), False) * (1 if bonus else d))
                        for after, used, won in f.moves.outcomes(v, dice,
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
    short = CliRunner().invoke(cli, ["hippo", "finish", str(PUZZLES / "midgame-4p.json"),
                                     "--turns", "3", "--steps", "1000"])
    assert short.exit_code == 0 and "stopped after --steps 1,000" in " ".join(short.stdout.split())


def plain_chance(rules, state: GameState, turns: int) -> Fraction:
    """The straightforward DP (the earlier `finish`): every order of every roll placed
    chip by chip (`Moves.runs`, held to the engine above), every result valued until
    one is a certain finish; no bound, no canonical key, no shortcut for the last roll
    or turn."""
    f = Finisher(rules)
    d = f.tables.d
    memo: dict = {}

    def value(n: int, v: int, bonus: bool) -> int:  # times d^(2n), d^(2n-1) on a bonus
        if not bonus:
            v = f.tables.new_turn(v)
        scale = d ** (2 * n - (1 if bonus else 0))
        if f.tables.size(v) == 0:
            return scale
        # the one cut the earlier DP made too: a turn sheds at most 2 * dice - 1 chips
        if n == 0 or f.tables.size(v) > ((rules.dice if bonus else 0)
                                         + f.tables.per_turn * (n - bonus)):
            return 0
        key = (n, v, bonus)
        if key not in memo:
            total = 0
            top = scale // d  # a roll is worth at most a certain finish: then stop
            for dice, count in all_rolls(rules):
                best = 0
                for seq in roll_sequences(rules, dice):
                    for after, used, _ in f.moves.runs(v, seq):
                        if best == top:
                            break
                        if f.tables.size(after) == 0:
                            best = top
                        elif used and not bonus:
                            best = max(best, value(n, after, True))
                        else:
                            best = max(best, value(n - 1, after, False) * (1 if bonus else d))
                total += count * best
            memo[key] = total
        return memo[key]

    view = f.tables.pack(view_of(state))
    return Fraction(value(turns, view, state.bonus), d ** (2 * turns - (1 if state.bonus else 0)))


def before_bonus(state: GameState, rules) -> GameState:
    """The position before the turn's bonus roll, the foreign chips in the stock taken
    this turn (next turn reading): the DP's third stock count."""
    fresh = tuple(n if c != state.to_move else 0 for c, n in enumerate(state.stocks[state.to_move]))
    return GameState(rules, state.colours, state.lanes, state.hippo, state.stocks,
                     state.to_move, True, fresh=fresh if rules.next_turn and any(fresh) else ())


# (seed, stock, turns): crowded pools, some foreign chips; the plain DP is slow beyond
# these (tens of seconds for 4 chips and 3 turns, which agreed when tried)
SMALL = [(2, 4, 2), (9, 4, 2), (12, 3, 3), (4, 4, 3)]


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
@pytest.mark.parametrize("seed, stock, turns", SMALL)
def test_fast_dp_equals_the_plain_dp(seed, stock, turns, reading):
    rules = load_rules(None, reading)
    state = small_state(seed, stock, rules)
    result = finish(state, turns)
    for row in result.by_turns:
        assert Fraction(row.exact) == plain_chance(rules, state, row.turns), row


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
@pytest.mark.parametrize("seed", [4, 8])
def test_fast_dp_equals_the_plain_dp_before_a_bonus_roll(seed, reading):
    rules = load_rules(None, reading)
    state = before_bonus(small_state(seed, 3, rules), rules)
    for turns in (1, 2):
        assert Fraction(finish(state, turns).exact) == plain_chance(rules, state, turns)


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), stock=st.integers(1, 3), turns=st.integers(1, 3),
       reading=st.sampled_from(FOREIGN_FIRST), bonus=st.booleans(),
       switch=st.booleans())
def test_random_small_positions_equal_the_plain_dp(seed, stock, turns, reading, bonus, switch):
    """Random small positions (hypothesis), 1-3 turns, both readings, before a bonus roll
    or not, with the penalty switch on or off (then the last-turn shortcut is off)."""
    rules = load_rules(None, reading)
    if switch:
        rules = replace(rules, penalty_takes_placed=False)
    if turns == 3:
        stock = min(stock, 2)  # the plain DP grows fast with the turns
    state = small_state(seed, stock, rules)
    if bonus:
        state = before_bonus(state, rules)
    assert Fraction(finish(state, turns).exact) == plain_chance(rules, state, turns)


def test_dice_multisets_and_their_chances():
    f = Finisher(RULES)
    assert len(f.tables.rolls) == 56
    assert sum(Fraction(count, 216) for _, count, _ in f.tables.rolls) == 1
    assert sorted(dice for dice, _, _ in f.tables.rolls) == sorted(
        {tuple(sorted(r)) for r in ROLLS})


@pytest.mark.parametrize("seed, stock", [(1, 4), (2, 6), (3, 8)])
def test_the_bound_is_above_the_chance(seed, stock):
    state = small_state(seed, stock)
    f = Finisher(RULES)
    view = f.tables.pack(view_of(state))
    for n in (1, 2):
        assert f.chance(n, view, False) <= f.bounds.upper(n, state.stock_size(state.to_move),
                                                          False)


def test_stopped_work_gives_both_bounds_labelled():
    """Stopped by its steps: exit 0, the bounds on stdout, labelled (never an error)."""
    out = CliRunner().invoke(cli, ["hippo", "finish", str(PUZZLES / "midgame-4p.json"),
                                   "--turns", "4", "--steps", "3000"])
    assert out.exit_code == 0 and not out.stderr.strip()
    assert "proven bounds" in out.stdout and "at least" in out.stdout
    assert "at most" in out.stdout and "error" not in out.stdout


def test_the_json_chance_is_the_answer():
    """`chance` was overwritten by the text saying how the dice were averaged."""
    import json
    from pathlib import Path

    from click.testing import CliRunner

    from solver.cli import cli

    solo = Path(__file__).resolve().parents[1] / "puzzles" / "hippo" / "solo-endgame.json"
    out = CliRunner().invoke(cli, ["hippo", "finish", str(solo), "--turns", "1", "--json"])
    data = json.loads(out.stdout)
    assert data["chance"] == data["by_turns"][-1]["chance"] == 0.364905
    assert data["exact"] == "5675/15552" and "216 throws" in data["dice"]


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
@pytest.mark.parametrize("seed", range(6))
def test_last_turn_on_rooms_equals_the_last_turn_on_the_view(seed, reading):
    """The last turn valued from the stock's size, the due other chips and the lanes'
    rooms (`Endgame.last_turn_rooms`, behind value_main(1)) equals the view-based last turn
    (every result of every split making 7 placed), also for stocks of 4 and 5 with
    other chips (where an other chip placed into an empty lane takes no room) and
    for the views a roll leaves (penalties taken back, chips taken this turn due)."""
    rules = load_rules(None, reading)
    f = Finisher(rules)
    views = set()
    for stock in (2, 3, 4, 5):
        state = small_state(seed * 7 + stock, stock, rules)
        view = f.tables.pack(view_of(state))
        views.add(view)
        for dice, _ in all_rolls(rules)[seed::9]:
            views.update(after for after, _, won in f.moves.outcomes(view, dice) if not won)
    checked = 0
    for view in sorted(views):
        view = f.tables.new_turn(view)
        size = f.tables.size(view)
        if 0 < size <= 5:
            assert f.value_main(1, view) == f.endgame.last_turn(view, size), \
                f.tables.unpack(view)
            checked += 1
    assert checked >= 20


@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), stock=st.integers(2, 5), turns=st.integers(2, 3),
       bonus=st.booleans(), reading=st.sampled_from(FOREIGN_FIRST),
       offset=st.integers(-4, 4))
def test_a_threshold_gives_the_exact_value_above_it_and_a_bound_below(
        seed, stock, turns, bonus, reading, offset):
    """value_main / value_bonus with a threshold t (the averages stopped early,
    Star1-style): above t the value is exact, at or below t it bounds the exact value
    from above; and the memo of bounds does not spoil a later exact answer."""
    rules = load_rules(None, reading)
    if turns == 3:
        stock = min(stock, 3)
    state = small_state(seed, stock, rules)
    if bonus:
        state = before_bonus(state, rules)
    exact_f, f = Finisher(rules), Finisher(rules)
    view = exact_f.tables.pack(view_of(state))
    value = exact_f.value_bonus if bonus else exact_f.value_main
    exact = value(turns, view)
    top = f.tables.d ** (2 * turns - (1 if bonus else 0))
    t = max(-1, exact + offset * top // 100)  # thresholds around the answer
    found = (f.value_bonus if bonus else f.value_main)(turns, view, t)
    if found > t:
        assert found == exact
    else:
        assert exact <= found
    assert (f.value_bonus if bonus else f.value_main)(turns, view) == exact


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
@pytest.mark.parametrize("seed", range(4))
def test_the_two_turn_bound_on_rooms_is_above_the_chance(seed, reading):
    """The lane-counting bound used three turns from the end (`Bounds.two_turn_bound`: the
    stock's size and rooms at least the position's) is never below the exact chance
    within two turns, on positions and the views their rolls leave."""
    rules = load_rules(None, reading)
    f = Finisher(rules)
    views = set()
    for stock in (2, 4, 6):
        view = f.tables.pack(view_of(small_state(seed * 5 + stock, stock, rules)))
        views.add(view)
        for dice, _ in all_rolls(rules)[seed::14]:
            views.update(after for after, _, won in f.moves.outcomes(view, dice) if not won)
    for view in sorted(views)[:40]:
        view = f.tables.new_turn(view)
        full = f.tables.rooms(view, rules.capacity)
        assert f.value_main(2, view) <= f.bounds.two_turn_bound(f.tables.size(view), full), \
            f.tables.unpack(view)


def own_state(seed: int, stock: int, rules=RULES) -> GameState:
    """`small_state` with only the player's own chips in stock (foreign ones moved to Mr.
    Hippo's lane): two turns from the end such positions are valued on the lanes' rooms
    (`_two_from_end`)."""
    s = small_state(seed, stock, rules)
    me = s.to_move
    rows = [list(r) for r in s.stocks]
    hippo = list(s.hippo)
    for c in range(s.players):
        if c != me:
            hippo[c] += rows[me][c]
            rows[me][c] = 0
    rows[me][me] = stock
    return GameState(rules, s.colours, s.lanes, tuple(hippo),
                     tuple(tuple(r) for r in rows), me, False)


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), stock=st.integers(1, 4), turns=st.integers(2, 3),
       reading=st.sampled_from(FOREIGN_FIRST), bonus=st.booleans())
def test_own_chips_two_turns_from_the_end_equal_the_plain_dp(seed, stock, turns, reading,
                                                             bonus):
    """Own chips only: the splits that fit the rooms are valued on the rooms (memoised
    across views), the ones with a penalty or a bonus roll on the view; the same chance
    as the plain DP."""
    rules = load_rules(None, reading)
    if turns == 3:
        stock = min(stock, 2)
    state = own_state(seed, stock, rules)
    if bonus:
        state = before_bonus(state, rules)
    assert Fraction(finish(state, turns).exact) == plain_chance(rules, state, turns)


def test_crowded_own_stock_two_turns_use_the_rooms():
    """A crowded pool with four own chips: two turns equal the plain DP, through the
    rooms' memo (not empty after the run)."""
    state = own_state(4, 4)
    f = Finisher(RULES)
    view = f.tables.pack(view_of(state))
    assert Fraction(f.value_main(2, view), f.tables.d ** 4) == plain_chance(RULES, state, 2)
    assert f.cache.two_from_end
