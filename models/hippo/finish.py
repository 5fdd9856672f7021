"""Finishing chances: the exact probability that the player on turn empties the stock
within N of their own turns if nobody else moves, playing to maximise that chance.

Exact dynamic programming over the player's own view of the pool:
- other players' colours are alike for the player (a kicked-out chip that is not the
  player's goes to someone else; a foreign chip in the stock is one more chip to place
  first), so a lane is a tuple of fields own (1) / other (2), and the stock is
  (own chips, other chips due, other chips taken during this turn); the last are only
  under the next-turn reading: not due before the next turn, so while no other chip is
  due each chip may be own or one of them (both are tried), and a turn's start makes
  them due;
- other chips above the player's topmost chip in a lane are dropped: they are pushed
  out before that chip reaches the top, exactly as empty fields would fill, so the lane
  behaves the same (this merges many positions);
- chance moves are the distinct dice multisets (56 for three dice) with their counts
  among the 216 ordered throws;
- values are integers: V_main(n) is the probability times D^(2n), V_bonus(n) times
  D^(2n-1) (D = 216 outcomes of the dice; a turn has at most two rolls), so the maxima
  and sums are exact; the result is reported as a Fraction and a float.

What makes it fast (each step exact; tests hold it equal to the plain DP):
- an upper bound: the same game without penalties and without lanes (only the stock's
  size and the splits of the dice count; `finish_bounds`). A roll's results are tried best
  bound first, and a result whose bound cannot beat the best value found is skipped
  (a win, worth the bound itself, stops the roll at once); splits with a penalty in
  them get the bound of a stock grown by a full lane and are tried last. Stocks the
  bound says are hopeless (0) are never visited;
- thresholds (Star1-style pruning of the dice averages): a position is valued with a
  threshold t; a value above t is exact, one at or below t only a bound from above
  (memoised as such, used again while it stays at or below the threshold asked). In
  the average over the rolls each roll counts at its bound until valued, each roll is
  valued with the threshold below which the sum stays at or below t whatever the
  roll is worth, and the rolls stop once the sum cannot exceed t. A roll's results
  are valued with the best value found so far as the threshold. Before the last turn
  a roll's bound counts the lanes: the last turn from the stock less the split's
  chips with the lanes' rooms now (it is worth no more with less room);
- with three or more turns left all results of a roll are gathered and the one likely
  best (its chance within a turn fewer: known from the smaller N, or the last turn's
  or last roll's, cheap) is valued first, so the others meet a high threshold;
- the last roll of the horizon (the bonus roll of the last turn) is decided by the
  stock's size and, per lane, how many chips it takes before the player's own top chip
  is pushed out (capped at the size): within one roll no chip just placed can be pushed
  out again (capacity >= dice) and a penalty leaves too many chips to finish, so the
  colours do not matter there. Those "last roll" answers are memoised on that canonical
  key (the rooms packed into one integer), and a roll wins at once iff some choice of
  `size` groups of a split fits the lanes' room (precomputed per roll);
- the last turn likewise is valued on the stock's size and the rooms alone (and the
  due other chips when the stock is larger than an empty lane's room: one of them
  placed into an empty lane takes no room), where no line with a penalty can still
  finish; only a win now or a split making 7 counts there.
The best case (fewest turns if the dice are kind) is the smallest n with a chance > 0,
found by a yes/no search over the same states.

The parts: `finish_tables` (the packed view, placing tables, the rolls' splits),
`finish_moves` (a roll's results in the view), `finish_endgame` (the last roll and the
last turn on the rooms), `finish_bounds` (the bounds), `finish_search` (`Finisher`: the
values, the thresholds, the best case); their memos live in one `FinishCache`
(`finish_cache`). This module runs them for a position.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from models.hippo.finish_cache import OutOfSteps
from models.hippo.finish_search import Finisher
from models.hippo.finish_tables import view_of
from models.hippo.state import GameState
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.progress import live_status

#: The DP's steps by default: `--turns 4` on the crowded middle-game examples takes
#: about 2.7 million (30-40 s), `--turns 3` on any example at most 0.11 million
DEFAULT_STEPS = 4_000_000


@dataclass
class FinishRow:
    turns: int
    chance: float
    exact: str  # the same as a fraction


@dataclass
class FinishBounds:
    """What is proven about the chance within `turns` when the work stopped before it
    was exact: a bound from below (the exact chance within fewer turns, or 0) and one
    from above (the same game without penalties and without lanes)."""

    turns: int
    at_least: float
    at_least_exact: str
    at_least_because: str
    at_most: float
    at_most_exact: str
    at_most_because: str
    stopped_by: Literal["steps", "time limit"]


@dataclass
class FinishResult:
    """Chances to empty the stock within 1..N own turns (each with the play that
    maximises that chance), nobody else moving; the best case in turns. When the work
    stopped first (`proven` false): `chance` and `exact` are null, `by_turns` holds the
    turn counts done, and `bounds` the two proven bounds."""

    player: str
    stock: int
    bonus_roll: bool
    turns: int
    chance: float | None
    exact: str | None
    best_case_turns: int | None  # None: not within 12 turns (or not searched: stopped)
    by_turns: list[FinishRow]
    proven: bool
    bounds: FinishBounds | None
    method: str
    states: int
    steps: int  # the work done: positions and rolls valued, rooms tables made
    steps_limit: int | None
    seconds: float


METHOD = ("exact DP over the player's view (own/other fields, own/other chips in stock), "
          "dice multisets weighted by their throws, integer numerators over 216 per roll, "
          "maximising the chance for each N; results pruned by a bound without penalties "
          "and the dice averages by thresholds (Star1)")


def finish(state: GameState, turns: int, time_limit: float | None = None,
           best_case_limit: int = 12, deadline: Deadline = NO_DEADLINE,
           steps: int | None = None) -> FinishResult:
    """Exact chances for 1..turns own turns and the fewest turns possible.

    The work is counted in steps (`steps`: at most that many, None: no limit); the
    time limit (`deadline`, else `time_limit` seconds from now) only caps it. Stopped
    by either, the answer gives the two bounds known by then (the exact chance within
    fewer turns from below, the bound without penalties from above), and which limit
    stopped it."""
    if state.is_terminal():
        raise BadInput("the game is over: the stock is already empty")
    if turns < 1:
        raise BadInput("--turns must be at least 1")
    start = time.perf_counter()
    if deadline == NO_DEADLINE:
        deadline = Deadline.after(time_limit)
    f = Finisher(state.rules, deadline, steps)
    view = f.tables.pack(view_of(state))
    best = None
    rows: list[FinishRow] = []
    memo: dict = {}
    stopped: Literal["steps", "time limit"] | None = None
    try:
        for n in range(1, max(turns, best_case_limit) + 1):
            if f.possible(n, view, state.bonus, memo):
                best = n
                break
        with live_status("exact chance", deadline.left(), unit="turns") as status:
            for n in range(1, turns + 1):
                p = f.chance(n, view, state.bonus)
                rows.append(FinishRow(n, round(float(p), 6), str(p)))
                status.step(n, turns)
    except OutOfSteps:
        stopped = "steps"
    except TimeLimitReached:
        stopped = "time limit"
    bounds = None if stopped is None else _bounds(f, state, turns, rows, stopped)
    p = None if stopped is not None else Fraction(rows[-1].exact)
    done = f.budget.calls if steps is None else min(f.budget.calls, steps)
    return FinishResult(
        state.colours[state.to_move], state.stock_size(state.to_move), state.bonus, turns,
        None if p is None else round(float(p), 6), None if p is None else str(p), best,
        rows, stopped is None, bounds, METHOD, f.states(), done, steps,
        round(time.perf_counter() - start, 3))


def _bounds(f: Finisher, state: GameState, turns: int, rows: list[FinishRow],
            stopped: Literal["steps", "time limit"]) -> FinishBounds:
    """The bounds proven on the chance within `turns` when the work stopped."""
    low = Fraction(rows[-1].exact) if rows else Fraction(0)
    why = (f"exact within {rows[-1].turns} turn{'s' if rows[-1].turns > 1 else ''}"
           if rows else "nothing valued yet")
    high = f.bounds.upper(turns, state.stock_size(state.to_move), state.bonus)
    return FinishBounds(turns, round(float(low), 6), str(low), why, round(float(high), 6),
                        str(high), "the same game without penalties and without lanes",
                        stopped)
