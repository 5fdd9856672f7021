"""Can the open tasks (or given tasks) all be fulfilled within K plays? Answered as a
plain dataclass, on PySAT or CP-SAT. The work is counted, never timed: PySAT's calls
share a budget of conflicts, CP-SAT's solves (one worker) a budget of deterministic
seconds, so the answer is the same on any machine; the time limit only caps them."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Literal

from models.tippi_toppi.budgets import ACHIEVABLE_CONFLICTS, ACHIEVABLE_WORK
from models.tippi_toppi.encode import CARD_MODES, PlanProblem, plan_problem, replay_check
from models.tippi_toppi.positions import format_play
from models.tippi_toppi.rules import Card
from models.tippi_toppi.state import GameState
from models.tippi_toppi.tasks import Task
from solver.answers import Capped
from solver.backends import SolverOptions
from solver.deadline import Deadline
from solver.errors import BadInput, TimeLimitReached

BACKENDS = ("sat", "cpsat")


@dataclass
class AchievableResult(Capped):
    """yes: `plays` fulfil every target within `within` plays (re-checked by the rules
    engine; fulfilled_after[k] = the play after which target k holds). no: proven by
    the solver; `core` is a set of targets that cannot all be fulfilled within `within`
    plays, smallest by inclusion (every proper subset can) unless `core_minimal` is
    false: a deletion check left undecided by the work budget, or by the time limit
    (`cut_by_time`), kept its target."""

    answer: Literal["yes", "no"]
    proven: bool
    targets: list[str]
    within: int
    cards: str
    backend: str
    plays: list[str]
    fulfilled_after: list[int | None]
    core: list[str]
    seconds: float
    core_minimal: bool = True


def achievable(state: GameState, tasks: list[Task] | None = None, within: int = 6,
               cards: str = "known", backend: str = "sat",
               options: SolverOptions | None = None,
               conflicts: int = ACHIEVABLE_CONFLICTS, work: float = ACHIEVABLE_WORK
               ) -> AchievableResult:
    """Can the tasks (default: all open tasks) all be fulfilled within `within` plays?
    PySAT within `conflicts` conflicts in all, CP-SAT (one worker) within `work`
    deterministic seconds in all; `options`' time limit only caps them.
    TimeLimitReached when neither answer was found."""
    options = options or SolverOptions()
    if backend not in BACKENDS:
        raise BadInput(f"unknown backend '{backend}' ({', '.join(BACKENDS)})")
    if cards not in CARD_MODES:
        raise BadInput(f"--cards must be one of {', '.join(CARD_MODES)}")
    start = time.perf_counter()
    rules = state.rules
    if tasks:
        targets, n_open = list(tasks), 0
    else:
        targets, n_open = list(state.open_tasks), len(state.open_tasks)
    if not targets:
        raise BadInput("no open tasks and no --task given: nothing to fulfil")
    problem = plan_problem(state, targets, within, cards, n_open)
    if backend == "sat":
        moves_found, core, minimal, cut = _solve_sat(problem, state, conflicts,
                                                     options.solve_deadline())
    else:
        moves_found, core, minimal, cut = _solve_cpsat(
            problem, state, replace(options, workers=1, deterministic_time=work))
    texts = [t.text(rules) for t in targets]
    seconds = round(time.perf_counter() - start, 4)
    if core is not None:
        return AchievableResult("no", True, texts, within, cards, backend, [], [],
                                [texts[k] for k in core], seconds, minimal,
                                cut_by_time=cut)
    plays, first = replay_check(state, problem, moves_found, cards)
    if any(f is None for f in first):  # the engine disagrees with the encoding: a bug
        raise AssertionError(f"witness {plays} does not fulfil every target: {first}")
    used = max((f for f in first if f is not None), default=0)
    plays = plays[:used]  # plays after the last fulfilment are not needed
    return AchievableResult("yes", True, texts, within, cards, backend,
                            [format_play(rules, p, state.players) for p in plays], first, [],
                            seconds)


Found = tuple[list[tuple[Card, int]], list[int] | None, bool, bool]


def _solve_sat(problem: PlanProblem, state: GameState, conflicts: int, deadline: Deadline
               ) -> Found:
    """(the plays of a witness, None, ...) or ([], the core's targets, minimal, cut by
    the time limit)."""
    from models.tippi_toppi.encode_logic import decode_moves, encode_plan, sat_value
    from solver.backends.sat import CnfBuilder, model_or_core_within
    from solver.logic import CnfLogic

    logic = CnfLogic(CnfBuilder().stop_at(deadline))  # building counts: the limit covers it
    plan = encode_plan(logic, problem, state.rules)
    got = model_or_core_within(logic.b, plan.switches, conflicts, deadline)
    if got.model is None:
        core = [plan.switches.index(s) for s in got.core or []]
        return [], core, got.minimal, got.cut_by_time
    return decode_moves(sat_value(got.model), plan, problem), None, True, False


def _solve_cpsat(problem: PlanProblem, state: GameState, options: SolverOptions) -> Found:
    """As `_solve_sat`, on CP-SAT with one worker: the solves share
    `options.deterministic_time`."""
    from models.tippi_toppi.encode_logic import cpsat_value, decode_moves, encode_plan
    from solver.backends import cpsat
    from solver.backends.cpsat import shrink_core
    from solver.logic import CpLogic

    logic = CpLogic()
    plan = encode_plan(logic, problem, state.rules)
    work = options.deterministic_time or 0.0
    logic.m.add_assumptions(plan.switches)
    solver, outcome = cpsat.solve(logic.m, options)
    logic.m.clear_assumptions()
    if outcome.has_solution:
        return decode_moves(cpsat_value(solver), plan, problem), None, True, False
    if outcome.status != "infeasible":
        if solver.deterministic_time < 0.99 * work:
            raise TimeLimitReached("CP-SAT found no answer within the time limit")
        raise TimeLimitReached(f"CP-SAT found no answer within its work budget (--work "
                               f"{work:g} deterministic seconds)")
    # shrink within the switches CP-SAT already blamed: a subset-minimal core of those
    # is subset-minimal among all switches too
    blamed = set(solver.sufficient_assumptions_for_infeasibility())
    first = [i for i, s in enumerate(plan.switches) if s.index in blamed]
    left = replace(options, deterministic_time=max(0.0, work - solver.deterministic_time))
    core, minimal, cut = shrink_core(logic.m, plan.switches, first, left)
    return [], core, minimal, cut
