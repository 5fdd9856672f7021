"""The best placement for a roll: most chips shed this turn (a bonus roll counted by its
exact expectation over all outcomes of the dice), ties broken by least exposure.

Values are exact integers over fixed denominators so that ties are exact:
- `value` (chips shed this turn) is over D = faces**dice (216): the chips of the roll
  times D, plus for a bonus roll the sum over the 216 dice outcomes of the chips the best
  answer to each sheds;
- `exposure` is over D*D: for every own chip outside Mr. Hippo's lane and every other
  player, the number of the D outcomes of that player's roll that can put enough chips
  into the chip's lane to push it out at the top (a chip k fields below the top needs k+1
  chips in that lane; the player's stock must hold that many). After a bonus roll the
  exposure is the expectation over the bonus roll's best answers.

`best_options` is the fast evaluation (memoised lane sums, a shortcut for the bonus roll
that is exact, see `_terminal_roll`); `brute_force` recomputes everything from the
rules engine's `outcomes` over all 216 ordered rolls with Fractions, for the tests.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from models.hippo.dice import all_rolls, roll_sequences, roll_splits
from models.hippo.rules import Rules
from models.hippo.state import (
    Fresh,
    GameState,
    Lanes,
    Move,
    Stocks,
    colour_choices,
    outcomes,
    place,
    place_chip,
)


@cache
def reach_counts(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """reach[L][k]: how many of the D ordered rolls can put at least k chips into lane L
    (k = 0..dice; reach[L][0] = D)."""
    table = [[0] * (rules.dice + 1) for _ in range(rules.lanes + 1)]
    for dice, count in all_rolls(rules):
        most = [0] * (rules.lanes + 1)
        for seq in roll_sequences(rules, dice):
            for lane in set(seq):
                most[lane] = max(most[lane], seq.count(lane))
        for lane in range(1, rules.lanes + 1):
            for k in range(most[lane] + 1):
                table[lane][k] += count
    return tuple(tuple(row) for row in table)


def denominator(rules: Rules) -> int:
    return rules.faces ** rules.dice


@lru_cache(maxsize=200_000)
def _lane_exposure(rules: Rules, lane: int, content: tuple[int, ...], me: int,
                   reachers: tuple[int, ...]) -> int:
    """Exposure (over D) of `me`'s chips in one lane; reachers[k] = how many other
    players hold at least k chips."""
    reach = reach_counts(rules)[lane]
    total = 0
    for i, c in enumerate(content):
        if c == me:
            k = rules.capacity - i  # chips needed to push it out
            if k <= rules.dice:
                total += reach[k] * reachers[k]
    return total


def exposure(rules: Rules, lanes: Lanes, stocks: Stocks, me: int) -> int:
    """Own chips the other players can kick out with their next roll, weighed by the
    chance of that roll (numerator over D)."""
    reachers = _reachers(rules, stocks, me)
    total = 0
    for lane in range(1, rules.lanes + 1):
        content = lanes[lane]
        if me in content:
            total += _lane_exposure(rules, lane, content, me, reachers)
    return total


def _expand(rules: Rules, lanes: Lanes, hippo: tuple[int, ...], stocks: Stocks,
            fresh: Fresh, me: int, seq: tuple[int, ...], out: list,
            no_penalty: bool = False) -> None:
    """The results of placing a lane sequence (own chip or another colour per chip, as
    allowed), as (lanes, hippo, stocks, move); stops when the stock runs out. Only for a
    roll that earns no further roll: what is left of `fresh` after it does not matter,
    and the other colours are alike (one of them is placed): none of the chips placed
    can be pushed out again before the roll ends, and neither the chips shed nor the
    exposure (own chips, other players' stock sizes) depend on which colour a chip of
    another player has. `no_penalty`: leave out the results with a penalty (not
    searched further)."""
    def go(lanes: Lanes, hippo: tuple[int, ...], stocks: Stocks, fresh: Fresh, i: int,
           move: Move) -> None:
        if i == len(seq) or not any(stocks[me]):
            out.append((lanes, hippo, stocks, move))
            return
        choices = colour_choices(stocks[me], me, fresh)
        other = next((c for c in choices if c != me), None)
        for c in ([] if other is None else [other]) + ([me] if me in choices else []):
            nl, nh, ns, nf, _, taken = place_chip(rules, lanes, hippo, stocks, fresh, me,
                                                  seq[i], c)
            if not (no_penalty and taken):
                go(nl, nh, ns, nf, i + 1, move + ((seq[i], c),))

    go(lanes, hippo, stocks, fresh, 0, ())


@cache
def _splits_by_groups(rules: Rules, dice: tuple[int, ...]) -> tuple[tuple[int, tuple], ...]:
    """(number of groups, the splits' lane sums with that many groups), most first."""
    by: dict[int, list[tuple[int, ...]]] = {}
    for split in _split_sums(rules, dice):
        by.setdefault(len(split), []).append(split)
    return tuple(sorted(((g, tuple(v)) for g, v in by.items()), reverse=True))


def _terminal_roll(rules: Rules, lanes: Lanes, stocks: Stocks, fresh: Fresh, me: int,
                   dice: tuple[int, ...]) -> tuple[int, int]:
    """(chips shed, exposure over D) of the best answer to a roll that earns no further
    roll (a bonus roll). Winning outright has exposure 0.

    Shortcut (exact): with more chips in stock than dice the stock cannot run out, a
    split of g groups without a penalty sheds exactly g, and any result with a penalty
    sheds less than one (it places at most 3 chips and takes back at least 3). So the
    splits are tried by decreasing g and the first g with a penalty-free result wins,
    with the least exposure among those results. With own chips only, a split is
    penalty-free in every order or in none (identical chips, independent lanes, and
    nothing but own chips is placed before a first penalty), so one order is placed;
    so does one order with every colouring when no foreign chip is due (chips taken
    earlier in the turn, next-turn reading). Only when every result has a penalty are
    all of them searched.
    """
    size = sum(stocks[me])
    hippo = (0,) * len(stocks)
    if size > rules.dice:
        own_only = size == stocks[me][me]
        # with no foreign chip due every chip may have any colour held, so every
        # colouring of one order reaches what every order does (without a penalty the
        # lanes are independent, and one lane's pushes do not depend on the colours)
        due = any(n > (fresh[c] if fresh else 0) for c, n in enumerate(stocks[me])
                  if c != me)
        for g, splits in _splits_by_groups(rules, dice):
            distinct: set = set()
            for split in splits:
                if own_only:
                    nl, ns = _own_sequence(rules, lanes, stocks, me, split) or ((), ())
                    if ns and sum(ns[me]) == size - g:
                        distinct.add((nl, ns))
                    continue
                found: list = []
                # a result with a penalty never counts here: not expanded
                for seq in _orders(split) if due else (split,):
                    _expand(rules, lanes, hippo, stocks, fresh, me, seq, found, True)
                distinct.update((nl, ns) for nl, _, ns, _ in found
                                if sum(ns[me]) == size - g)
            if distinct:
                return g, min(exposure(rules, nl, ns, me) for nl, ns in distinct)
    results: list = []

    def run(seq: tuple[int, ...]) -> bool:
        """Place seq (every colouring if needed); True when a result empties the stock."""
        one = _own_sequence(rules, lanes, stocks, me, seq)
        if one is None:
            expanded: list = []
            _expand(rules, lanes, hippo, stocks, fresh, me, seq, expanded)
            found = [(nl, ns) for nl, _, ns, _ in expanded]
        else:
            found = [one]
        results.extend(found)
        return any(not any(ns[me]) for _, ns in found)

    if size == stocks[me][me]:
        # Own chips only: a split's chips are identical and its lanes independent, so
        # one order stands for all unless a penalty or the stock running out makes
        # the order matter (then every order of that split is placed). A result that
        # empties the stock ends the search: nothing beats winning.
        for split in _split_sums(rules, dice):
            if run(split):
                return size, 0
            last = results[-1][1]
            if len(split) > size or sum(last[me]) != size - len(split):
                for seq in _orders(split):
                    if run(seq):
                        return size, 0
    else:
        for seq in roll_sequences(rules, dice):
            if run(seq):
                return size, 0
    most = max(size - sum(ns[me]) for _, ns in results)
    least = min(exposure(rules, nl, ns, me) for nl, ns in set(results)
                if size - sum(ns[me]) == most)
    return most, least


def _own_sequence(rules: Rules, lanes: Lanes, stocks: Stocks, me: int,
                  seq: tuple[int, ...]) -> tuple[Lanes, Stocks] | None:
    """Chips placed in the lanes of `seq` in order while the stock holds own chips only
    (stopping when it is empty); None when a foreign chip would have to be placed (after
    a penalty, or foreign chips held): then the colours branch (_expand)."""
    hippo = (0,) * len(stocks)
    for lane in seq:
        row = stocks[me]
        size = sum(row)
        if size == 0:
            break
        if row[me] != size:
            return None
        lanes, _, stocks, _, _ = place(rules, lanes, hippo, stocks, me, lane, me)
    return lanes, stocks


@cache
def _split_sums(rules: Rules, dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sum(g) for g in split) for split in roll_splits(rules, dice))


@cache
def _orders(split: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(set(itertools.permutations(split))))


def _reachers(rules: Rules, stocks: Stocks, me: int) -> tuple[int, ...]:
    sizes = [sum(row) for p, row in enumerate(stocks) if p != me]
    return tuple(sum(1 for s in sizes if s >= k) for k in range(rules.dice + 1))


def _own_singles(rules: Rules, lanes: Lanes, stocks: Stocks, me: int, dice: tuple[int, ...],
                 reachers: tuple[int, ...], base: list[int], base_total: int) -> int | None:
    """Exposure after placing one own chip per die, or None if that causes a penalty.
    Only for a stock of own chips larger than the dice: then every order gives the same
    result (identical chips, lanes independent) and that result is the best answer
    whenever it has no penalty (see _terminal_roll)."""
    cap = rules.capacity
    new: dict[int, tuple[int, ...]] = {}
    kicked: list[int] = []
    for lane in dice:
        content = (me,) + new.get(lane, lanes[lane])
        if len(content) > cap:
            if content[-1] == me:
                return None
            kicked.append(content[-1])
            content = content[:-1]
        new[lane] = content
    if kicked:  # other players' stocks grew: recount from the full state
        rows = [list(r) for r in stocks]
        rows[me][me] -= len(dice)
        for c in kicked:
            rows[c][c] += 1
        after = list(lanes)
        for lane, content in new.items():
            after[lane] = content
        return exposure(rules, tuple(after), tuple(tuple(r) for r in rows), me)
    total = base_total
    for lane, content in new.items():
        total -= base[lane]
        total += _lane_exposure(rules, lane, content, me, reachers)
    return total


def bonus_roll_value(rules: Rules, lanes: Lanes, stocks: Stocks, me: int,
                     fresh: Fresh = ()) -> tuple[int, int]:
    """(sum over the D ordered rolls of the chips the best answer sheds,
    sum of its exposures over D): the bonus roll's expectation times D (and D*D).
    `fresh`: the foreign chips taken earlier in the turn (not due on the bonus roll)."""
    size = sum(stocks[me])
    simple = size > rules.dice and size == stocks[me][me]
    if simple:
        reachers = _reachers(rules, stocks, me)
        base = [_lane_exposure(rules, lane, lanes[lane], me, reachers) if me in lanes[lane]
                else 0 for lane in range(rules.lanes + 1)]
        base_total = sum(base)
    shed = expo = 0
    for dice, count in all_rolls(rules):
        e = (_own_singles(rules, lanes, stocks, me, dice, reachers, base, base_total)
             if simple else None)
        if e is None:
            s, e = _terminal_roll(rules, lanes, stocks, fresh, me, dice)
        else:
            s = rules.dice
        shed += count * s
        expo += count * e
    return shed, expo


@dataclass
class Option:
    """One distinct result of the roll, ranked."""

    move: Move
    shed_now: int  # chips shed by this roll's placements
    bonus: bool  # a bonus roll follows
    won: bool
    value: Fraction  # expected chips shed this turn (bonus roll included)
    exposure: Fraction  # expected exposure after the turn
    value_num: int  # value * D
    exposure_num: int  # exposure * D * D
    after: tuple  # (lanes, hippo, stocks) after this roll's placements


def roll_results(rules: Rules, state: GameState, dice: tuple[int, ...]) -> list[tuple]:
    """Distinct (lanes, hippo, stocks, fresh, move) results of a roll, first move in
    sorted order kept (the same set as rules.outcomes, faster). `fresh` (the foreign
    chips taken during the turn) is part of a result only when a bonus roll follows:
    otherwise the turn ends and they are all due."""
    seen: dict = {}
    hippo_lane = rules.hippo
    for lanes, hippo, stocks, fresh, move in state.placements(dice):
        if fresh and (state.bonus or all(lane != hippo_lane for lane, _ in move)
                      or not any(stocks[state.to_move])):
            fresh = ()
        seen.setdefault((lanes, hippo, stocks, fresh), move)
    return [(*k, m) for k, m in seen.items()]


def best_options(state: GameState, dice: tuple[int, ...]) -> list[Option]:
    """Every distinct result of the roll, best first: most chips shed this turn
    (exact expectation of a bonus roll), then least exposure, then the move's order."""
    rules = state.rules
    me = state.to_move
    d = denominator(rules)
    size = state.stock_size(me)
    options = []
    for lanes, hippo, stocks, fresh, move in roll_results(rules, state, dice):
        left = sum(stocks[me])
        shed = size - left
        used = any(lane == rules.hippo for lane, _ in move)
        won = left == 0
        bonus = used and not state.bonus and not won
        if won:
            value, expo = shed * d, 0
        elif bonus:
            s2, e2 = bonus_roll_value(rules, lanes, stocks, me, fresh)
            value, expo = shed * d + s2, e2
        else:
            value, expo = shed * d, exposure(rules, lanes, stocks, me) * d
        options.append(Option(move, shed, bonus, won, Fraction(value, d),
                              Fraction(expo, d * d), value, expo, (lanes, hippo, stocks)))
    options.sort(key=lambda o: (-o.value_num, o.exposure_num, o.move))
    return options


# --------------------------------------------------------------------------- reference

def reference_exposure(state: GameState, me: int) -> Fraction:
    """Exposure straight from the definition: for each other player and each own chip,
    the share of that player's 216 ordered rolls having a split with enough chips for
    the chip's lane to push it out (and a stock holding that many chips)."""
    rules = state.rules
    rolls = list(itertools.product(range(1, rules.faces + 1), repeat=rules.dice))
    total = Fraction(0)
    for p in range(state.players):
        if p == me:
            continue
        for lane in range(1, rules.lanes + 1):
            if lane == rules.hippo:
                continue
            for i, c in enumerate(state.lanes[lane]):
                if c != me:
                    continue
                need = rules.capacity - i
                if need > state.stock_size(p):
                    continue
                total += Fraction(_reference_hits(rules, lane, need), len(rolls))
    return total


@cache
def _reference_hits(rules: Rules, lane: int, need: int) -> int:
    rolls = itertools.product(range(1, rules.faces + 1), repeat=rules.dice)
    return sum(1 for r in rolls
               if any(seq.count(lane) >= need for seq in roll_sequences(rules, tuple(sorted(r)))))


def brute_force(state: GameState, dice: tuple[int, ...]) -> list[tuple[Move, Fraction, Fraction]]:
    """(move, expected shed, expected exposure) of every distinct result, best first,
    from the rules engine alone: a bonus roll is averaged over all 216 ordered rolls."""
    me = state.to_move
    size = state.stock_size(me)
    rules = state.rules
    rolls = list(itertools.product(range(1, rules.faces + 1), repeat=rules.dice))
    exposures: dict[tuple, Fraction] = {}  # the same result is met from many rolls

    def expo_of(after: GameState) -> Fraction:
        key = after.key()
        if key not in exposures:
            exposures[key] = reference_exposure(after, me)
        return exposures[key]

    rows = []
    for o in outcomes(state, dice):
        if o.won:
            rows.append((o.move, Fraction(size), Fraction(0)))
            continue
        if not o.bonus:
            rows.append((o.move, Fraction(o.shed), expo_of(o.state)))
            continue
        shed_sum = Fraction(0)
        expo_sum = Fraction(0)
        answers: dict[tuple[int, ...], tuple[Fraction, Fraction]] = {}
        for r in rolls:
            # every ordered roll counts; the dice's order changes no option
            if tuple(sorted(r)) not in answers:
                best = None
                for o2 in outcomes(o.state, r):
                    cand = ((Fraction(o.shed + o2.shed), Fraction(0)) if o2.won else
                            (Fraction(o.shed + o2.shed), expo_of(o2.state)))
                    if best is None or (cand[0], -cand[1]) > (best[0], -best[1]):
                        best = cand
                assert best is not None
                answers[tuple(sorted(r))] = best
            best = answers[tuple(sorted(r))]
            shed_sum += best[0]
            expo_sum += best[1]
        rows.append((o.move, shed_sum / len(rolls), expo_sum / len(rolls)))
    rows.sort(key=lambda r: (-r[1], r[2], r[0]))
    return rows
