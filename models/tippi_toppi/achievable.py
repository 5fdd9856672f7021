"""Can the open tasks (or given tasks) all be fulfilled within K plays? Answered as a
plain dataclass, on PySAT or CP-SAT."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from models.tippi_toppi.encode import CARD_MODES, PlanProblem, plan_problem, replay_check
from models.tippi_toppi.positions import format_play
from models.tippi_toppi.rules import Card
from models.tippi_toppi.state import GameState
from models.tippi_toppi.tasks import Task
from solver.backends import SolverOptions
from solver.deadline import Deadline
from solver.errors import BadInput, TimeLimitReached

BACKENDS = ("sat", "cpsat")


@dataclass
class AchievableResult:
    """yes: `plays` fulfil every target within `within` plays (re-checked by the rules
    engine; fulfilled_after[k] = the play after which target k holds). no: proven by
    the solver; `core` is a smallest-by-inclusion set of targets that cannot all be
    fulfilled within `within` plays (every proper subset can)."""

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


def achievable(state: GameState, tasks: list[Task] | None = None, within: int = 6,
               cards: str = "known", backend: str = "sat",
               options: SolverOptions | None = None) -> AchievableResult:
    """Can the tasks (default: all open tasks) all be fulfilled within `within` plays?"""
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
        moves_found, core = _solve_sat(problem, state, options.solve_deadline())
    else:
        moves_found, core = _solve_cpsat(problem, state, options)
    texts = [t.text(rules) for t in targets]
    seconds = round(time.perf_counter() - start, 4)
    if core is not None:
        return AchievableResult("no", True, texts, within, cards, backend, [], [],
                                [texts[k] for k in core], seconds)
    plays, first = replay_check(state, problem, moves_found, cards)
    if any(f is None for f in first):  # the engine disagrees with the encoding: a bug
        raise AssertionError(f"witness {plays} does not fulfil every target: {first}")
    used = max((f for f in first if f is not None), default=0)
    plays = plays[:used]  # plays after the last fulfilment are not needed
    return AchievableResult("yes", True, texts, within, cards, backend,
                            [format_play(rules, p, state.players) for p in plays], first, [],
                            seconds)


def _solve_sat(problem: PlanProblem, state: GameState, deadline: Deadline
               ) -> tuple[list[tuple[Card, int]], list[int] | None]:
    from models.tippi_toppi.encode_logic import decode_moves, encode_plan, sat_value
    from solver.backends.sat import CnfBuilder, model_or_core
    from solver.logic import CnfLogic

    logic = CnfLogic(CnfBuilder().stop_at(deadline))  # building counts: the limit covers it
    plan = encode_plan(logic, problem, state.rules)
    model, core = model_or_core(logic.b, plan.switches, deadline)
    if core is not None:
        return [], [plan.switches.index(s) for s in core]
    return decode_moves(sat_value(model), plan, problem), None


def _solve_cpsat(problem: PlanProblem, state: GameState, options: SolverOptions
                 ) -> tuple[list[tuple[Card, int]], list[int] | None]:
    from models.tippi_toppi.encode_logic import cpsat_value, decode_moves, encode_plan
    from solver.backends import cpsat
    from solver.logic import CpLogic

    logic = CpLogic()
    plan = encode_plan(logic, problem, state.rules)
    core = cpsat.minimal_core(logic.m, plan.switches, options)  # TimeLimitReached: exit 3
    if core is not None:
        return [], core
    for s in plan.switches:
        logic.clause([s])
    solver, outcome = cpsat.solve(logic.m, options)
    if not outcome.has_solution:
        raise TimeLimitReached("CP-SAT reached the time limit before a witness")
    return decode_moves(cpsat_value(solver), plan, problem), None
