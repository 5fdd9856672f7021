"""Solo plans over a known sequence of rolls: CP-SAT (encode_cpsat) and brute force.

The board stays as the player leaves it (nobody else moves). The answer is the plan
that empties the stock in the fewest own turns, or, if no plan can, leaves the fewest
chips. The CP-SAT plan is replayed by the rules engine, which must reach the value the
solver claims; brute force (every distinct result of every roll, memoised) is the
reference in the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from models.hippo.state import GameState, Move, colour_choices, outcomes, place_chip
from models.hippo.verbs import PUZZLE_BACKENDS
from solver.backends import SolverOptions
from solver.errors import BadInput

if TYPE_CHECKING:

    from models.hippo.encode_cpsat import PlanModel

BACKENDS = PUZZLE_BACKENDS  # the solo puzzle's solvers: CP-SAT and brute force


def solo_step(state: GameState, move: Move) -> GameState:
    """The mover's placements, then the mover rolls again (solo): a bonus roll follows
    a roll that used lane 7 unless it was itself the bonus roll."""
    after = state.apply_action(move)
    used = any(lane == state.rules.hippo for lane, _ in move)
    bonus = used and not state.bonus and not after.is_terminal()
    # the foreign chips taken this turn stay not due on its bonus roll (after.fresh is
    # kept exactly then); a new turn makes them due
    return GameState(state.rules, state.colours, after.lanes, after.hippo, after.stocks,
                     state.to_move, bonus, fresh=after.fresh if bonus else ())


def plan_value(state: GameState, moves: list[Move]) -> tuple[int, int]:
    """(turns until the stock is empty or rolls+1 if never, chips left) of a plan."""
    turns = 1 if state.bonus else 0
    s = state
    for move in moves:
        if not s.bonus:
            turns += 1
        s = solo_step(s, move)
        if s.is_terminal():
            return turns, 0
    return len(moves) + 1, s.stock_size(state.to_move)


def brute_force(state: GameState, rolls: list[tuple[int, ...]]) -> tuple[tuple[int, int],
                                                                         list[Move]]:
    """The best plan by exhausting every distinct result of every roll (memoised on
    the position): ((finish turns or rolls+1, chips left), moves)."""
    me = state.to_move
    n = len(rolls)
    memo: dict = {}

    def go(k: int, s: GameState, turns: int) -> tuple[tuple[int, int], list[Move]]:
        if s.is_terminal():
            return (turns, 0), []
        if k == n:
            return (n + 1, s.stock_size(me)), []
        key = (k, s.key(), turns)
        if key in memo:
            return memo[key]
        t = turns if s.bonus else turns + 1
        best: tuple[tuple[int, int], list[Move]] | None = None
        for o in outcomes(s, rolls[k]):
            nxt = solo_step(s, o.move)
            value, rest = go(k + 1, nxt, t)
            if best is None or value < best[0]:
                best = (value, [o.move, *rest])
        assert best is not None
        memo[key] = best
        return best

    return go(0, state, 1 if state.bonus else 0)


@dataclass
class PlanStep:
    """One roll of the plan."""

    roll: list[int]
    turn: int
    bonus_roll: bool
    placements: list[str]
    stock_after: int
    events: list[str]


@dataclass
class PlanResult:
    """The plan and how good it is, honestly: `status` optimal (proven by CP-SAT) or
    feasible (best found, `bound` on the objective; `stopped_by` says whether the work
    or the time limit stopped CP-SAT; when CP-SAT found no plan, `found_by` names the
    greedy rule that made this one, and `bound` is null). `work`: CP-SAT's deterministic seconds used, of
    `work_limit` (None: no budget)."""

    player: str
    rolls: int
    emptied: bool
    turns: int | None  # own turns to empty the stock
    chips_left: int
    chips_shed: int
    status: str
    proven: bool
    objective: int  # turns * big + chips left (turns = rolls + 1 when not emptied)
    bound: int | None
    stopped_by: Literal["work", "time limit"] | None
    found_by: str  # CP-SAT, or the greedy rule when CP-SAT found no plan in its limits
    work: float
    work_limit: float | None
    seconds: float
    steps: list[PlanStep]


def colour_move(state: GameState, seq: tuple[int, ...], picks: list | None = None) -> Move:
    """The lane sequence with colours: due other colours first (the first one held, any
    would do: they are alike for the player's stock); then per chip own, or, where
    `picks[j]` says so, a foreign chip taken this turn (the first colour of those)."""
    me = state.to_move
    lanes, hippo, stocks, fresh = state.lanes, state.hippo, state.stocks, state.fresh
    move = []
    for j, lane in enumerate(seq):
        choices = colour_choices(stocks[me], me, fresh)
        if not choices:
            break
        c = choices[0]
        if me in choices:  # nothing due: own unless a fresh chip is picked
            others = [x for x in choices if x != me]
            c = others[0] if others and picks and picks[j] else me
        lanes, hippo, stocks, fresh, _, _ = place_chip(state.rules, lanes, hippo, stocks,
                                                       fresh, me, lane, c)
        move.append((lane, c))
    return tuple(move)


def coloured_moves(state: GameState, seq: tuple[int, ...]) -> list[tuple[Move, tuple[bool, ...]]]:
    """Every colouring of a lane sequence the plan model can choose, with its picks
    (per die: a fresh foreign chip placed by choice): due foreign chips go first (the
    first colour held); with none due, own or a fresh chip (the first colour of those);
    the stock running out ends the move (no pick on the dice left)."""
    me = state.to_move
    out: list[tuple[Move, tuple[bool, ...]]] = []

    def go(lanes: Any, hippo: Any, stocks: Any, fresh: Any, j: int, move: Move,
           picks: tuple[bool, ...]) -> None:
        choices = colour_choices(stocks[me], me, fresh) if j < len(seq) else []
        if not choices:
            out.append((move, picks + (False,) * (len(seq) - len(picks))))
            return
        due = any(c != me and n > (fresh[c] if fresh else 0) for c, n in enumerate(stocks[me]))
        if due:
            options = [(choices[0], False)]
        else:  # own or a fresh chip; only fresh ones left: the pick is forced
            options = ([(me, False)] if me in choices else []) + \
                [(c, True) for c in choices if c != me][:1]
        for c, picked in options:
            nl, nh, ns, nf, _, _ = place_chip(state.rules, lanes, hippo, stocks, fresh, me,
                                              seq[j], c)
            go(nl, nh, ns, nf, j + 1, move + ((seq[j], c),), picks + (picked,))

    go(state.lanes, state.hippo, state.stocks, state.fresh, 0, (), ())
    return out


def picks_of(pm: PlanModel, value: Callable[[Any], bool], k: int) -> list[bool]:
    """The model's choice of a fresh other chip for each die of roll k (value(lit): the
    literal is true in the solution)."""
    return [bool(v) if isinstance(v, int) else value(v) for v in pm.pick_fresh[k]]


def solve_plan(state: GameState, rolls: list[tuple[int, ...]],
               options: SolverOptions | None = None) -> PlanResult:
    """The CP-SAT plan, replayed and checked by the rules engine. With
    `options.deterministic_time` and one worker it is the same plan every time unless
    the time limit stops CP-SAT first (`stopped_by`). When CP-SAT found no plan within
    its limits, the greedy plan (`found_by` says so): a plan always exists."""
    from models.hippo.encode_cpsat import build
    from solver.backends import cpsat

    options = options or SolverOptions()
    if state.is_terminal():
        raise BadInput("the game is over: nothing to plan")
    pm = build(state, rolls)
    solver, outcome = cpsat.solve(pm.model, options)
    budget = options.deterministic_time
    stopped = _stopped_by(outcome.status, solver.deterministic_time, budget)
    if outcome.status == "infeasible":  # never: a roll always has an option
        raise RuntimeError("the plan model is infeasible")

    def by_model(k: int, roll: tuple[int, ...], s: GameState) -> Move:
        chosen = [q for q, v in enumerate(pm.select[k]) if solver.value(v)]
        assert len(chosen) == 1
        return colour_move(s, pm.sequences[k][chosen[0]], picks_of(pm, solver.boolean_value, k))

    found = outcome.has_solution
    moves, steps = _replay(state, rolls, by_model if found else greedy_move)
    value = plan_value(state, moves)
    objective = value[0] * pm.big + value[1]
    if found and objective != outcome.objective:
        raise RuntimeError(f"plan replay gives {value}, the model claimed "
                           f"{outcome.objective}")
    emptied = value[0] <= len(rolls)
    me = state.to_move
    return PlanResult(state.colours[me], len(rolls), emptied, value[0] if emptied else None,
                      value[1], state.stock_size(me) - value[1],
                      outcome.status if found else "feasible", outcome.status == "optimal",
                      objective, outcome.bound, stopped,
                      "CP-SAT" if found else GREEDY, round(solver.deterministic_time, 3),
                      budget, round(outcome.wall_time, 3), steps)


GREEDY = ("the greedy rule (each roll: the fewest chips left), since CP-SAT found no plan "
          "within its limit")


def greedy_move(k: int, roll: tuple[int, ...], state: GameState) -> Move:
    """Roll k's option that leaves the fewest chips in the stock (the first of them):
    the plan given when CP-SAT found none."""
    me = state.to_move
    return min(outcomes(state, roll),
               key=lambda o: solo_step(state, o.move).stock_size(me)).move


def _replay(state: GameState, rolls: list[tuple[int, ...]],
            choose: Callable[[int, tuple[int, ...], GameState], Move]
            ) -> tuple[list[Move], list[PlanStep]]:
    """The plan's moves (`choose(k, roll, state)` for roll k), played by the rules engine
    until the stock is empty, with each step's events."""
    me = state.to_move
    s = state
    moves: list[Move] = []
    steps: list[PlanStep] = []
    turn = 1 if state.bonus else 0
    for k, roll in enumerate(rolls):
        if s.is_terminal():
            break
        move = choose(k, roll, s)
        if not s.bonus:
            turn += 1
        after, events = s.play(move)
        text = []
        for lane, kicked, taken in events:
            if taken:
                text.append(f"penalty in lane {lane}: takes {len(taken)} chips")
            elif kicked is not None:
                text.append(f"kicks {s.colours[kicked]} out of lane {lane}")
        nxt = solo_step(s, move)
        steps.append(PlanStep(list(roll), turn, s.bonus, [f"{lane} {s.colours[c]}"
                                                          for lane, c in move],
                              nxt.stock_size(me), text))
        moves.append(move)
        s = nxt
    return moves, steps


def _stopped_by(status: str, used: float, budget: float | None
                ) -> Literal["work", "time limit"] | None:
    """What stopped CP-SAT before it proved its answer: its work budget (it used the
    deterministic seconds it was given) or the time limit (it had work left)."""
    if status in ("optimal", "infeasible"):
        return None
    return "work" if budget is not None and used >= 0.99 * budget else "time limit"
