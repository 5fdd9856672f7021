"""Running OR-Tools CP-SAT with a time limit, seed and workers, reporting status honestly."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import replace

from ortools.sat.python import cp_model

from solver.backends.common import SolveOutcome, SolverOptions, SolveStatus, deletion_core
from solver.errors import TimeLimitReached
from solver.progress import Status, live_status

_STATUS: dict[int, SolveStatus] = {
    cp_model.OPTIMAL: "optimal",
    cp_model.FEASIBLE: "feasible",
    cp_model.INFEASIBLE: "infeasible",
    cp_model.UNKNOWN: "unknown",
}


def make_solver(options: SolverOptions, subsolvers: Sequence[str] = (),
                extra: dict | None = None) -> cp_model.CpSolver:
    """A CpSolver configured from options.

    subsolvers: restrict the parallel portfolio to these CP-SAT subsolvers (for
    models where one kind of worker is known to prove the bound; see docs).
    extra: further SatParameters fields by name.
    """
    solver = cp_model.CpSolver()
    p = solver.parameters
    seconds = options.solve_seconds()
    if seconds is not None:
        p.max_time_in_seconds = float(seconds)
    if options.deterministic_time is not None:
        p.max_deterministic_time = float(options.deterministic_time)
    p.random_seed = int(options.seed)
    p.num_workers = max(1, int(options.workers))
    # Ctrl-C must reach Python (a batch run stops and keeps what finished) instead of
    # quietly cutting one solve short and letting the run carry on
    p.catch_sigint_signal = False
    for name in subsolvers:
        p.subsolvers.append(name)
    for key, value in (extra or {}).items():
        setattr(p, key, value)
    if options.log:
        p.log_search_progress = True
        p.log_to_stdout = False
        solver.log_callback = lambda line: print(line, file=sys.stderr)
    return solver


def fixed_copy(model: cp_model.CpModel, fixed: Iterable[tuple[cp_model.IntVar, int]]
               ) -> cp_model.CpModel:
    """A copy of `model` with these variables fixed to these values, in their domains
    (presolve drops them at once): one model built once serves many solves that differ
    by what they fix. The variables keep their indices, so the caller's variable
    objects go into the copy's constraints and read its solutions."""
    copy = model.clone()
    variables = copy.proto.variables
    for var, value in fixed:
        domain = variables[var.index].domain
        domain.clear()
        domain.extend([value, value])
    return copy


def solve(model: cp_model.CpModel, options: SolverOptions,
          subsolvers: Sequence[str] = (), extra: dict | None = None
          ) -> tuple[cp_model.CpSolver, SolveOutcome]:
    """Solve a model; the outcome says whether the value is proven or only bounded."""
    solver = make_solver(options, subsolvers, extra)
    start = time.perf_counter()
    # the solver's own log is its progress: no status line over it
    cancel = options.cancel
    with (live_status("CP-SAT", options.time_limit, show=not options.log) as line,
          cancel.watching(solver.stop_search) if cancel else nullcontext()):
        if line.active and model.has_objective():
            # only while a line shows: a solution callback can slow CP-SAT down
            code = solver.solve(model, _reporter(solver, model, line))
        else:
            code = solver.solve(model)
    wall = time.perf_counter() - start
    if code == cp_model.MODEL_INVALID:  # a bug in an encoding, never the user's input
        raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
    status = _STATUS.get(code, "unknown")
    objective = bound = None
    if model.has_objective() and status in ("optimal", "feasible"):
        objective = round(solver.objective_value)
        bound = _whole_bound(solver.best_objective_bound, _maximises(model))
        if status == "optimal":
            bound = objective
    return solver, SolveOutcome(status, objective, bound, wall, "cpsat")


def all_solutions(model: cp_model.CpModel, options: SolverOptions,
                  variables: Sequence[cp_model.IntVar], limit: int
                  ) -> tuple[list[list[int]] | None, cp_model.CpSolver]:
    """Every solution of `model` (no objective) as the values of `variables`, found by
    one single-worker search, in the order it finds them (the same on every run); None
    when there are more than `limit`, or the time or work ran out first. Returns the
    solver too (its deterministic time is the work spent)."""
    solver = make_solver(replace(options, workers=1))
    solver.parameters.enumerate_all_solutions = True
    found: list[list[int]] = []
    over = [False]

    class _Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if len(found) >= limit:
                over[0] = True
                self.stop_search()
                return
            found.append([self.value(v) for v in variables])

    cancel = options.cancel
    with cancel.watching(solver.stop_search) if cancel else nullcontext():
        code = solver.solve(model, _Collect())
    if code == cp_model.INFEASIBLE:
        return [], solver
    if over[0] or code != cp_model.OPTIMAL:  # OPTIMAL: every solution was found
        return None, solver
    return found, solver


def _maximises(model: cp_model.CpModel) -> bool:
    return model.proto.objective.scaling_factor < 0


def _whole_bound(bound: float, maximise: bool) -> int:
    """The bound on an integer objective (CP-SAT's is a float, possibly fractional)."""
    return math.floor(bound + 1e-6) if maximise else math.ceil(bound - 1e-6)


class _Forward(cp_model.CpSolverSolutionCallback):
    """Each improving solution's value and the bound at that moment, to a status line."""

    def __init__(self, status: Status, maximise: bool) -> None:
        super().__init__()
        self.status = status
        self.maximise = maximise

    def on_solution_callback(self) -> None:
        self.status.found(round(self.objective_value))
        self.status.bound(_whole_bound(self.best_objective_bound, self.maximise))


def _reporter(solver: cp_model.CpSolver, model: cp_model.CpModel, status: Status
              ) -> _Forward:
    """The solution callback for `status`; the bound also moves between solutions."""
    maximise = _maximises(model)
    solver.best_bound_callback = lambda b: status.bound(_whole_bound(b, maximise))
    return _Forward(status, maximise)


def minimal_core(model: cp_model.CpModel, switches: Sequence[cp_model.IntVar],
                 options: SolverOptions) -> list[int] | None:
    """A subset-minimal set of the Boolean `switches` (indices into the list) that
    cannot all be true together, or None when they can.

    Deletion on CP-SAT's own cores (its sufficient assumptions for infeasibility), the
    switches assumed true. Raises TimeLimitReached when a check runs out of time.
    """
    switches = list(switches)

    def core_of(indices: list[int]) -> list[int] | None:
        model.clear_assumptions()
        model.add_assumptions([switches[i] for i in indices])
        solver = make_solver(replace(options, workers=1, deterministic_time=None))
        code = solver.solve(model)
        if code == cp_model.INFEASIBLE:
            found = set(solver.sufficient_assumptions_for_infeasibility())
            return [i for i in indices if switches[i].index in found]
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        raise TimeLimitReached("CP-SAT reached the time limit while minimising the core")

    try:
        return deletion_core(range(len(switches)), core_of)
    finally:
        model.clear_assumptions()


def shrink_core(model: cp_model.CpModel, switches: Sequence[cp_model.IntVar],
                core: Sequence[int], options: SolverOptions) -> tuple[list[int], bool, bool]:
    """Deletion from `core` (indices of `switches` that cannot all be true, e.g. CP-SAT's
    sufficient assumptions), counted in work: the checks (one worker each) share
    `options.deterministic_time` (None: no budget), and the time limit only caps them.
    Returns (core, minimal, cut_by_time): a check left undecided keeps its switch, so the
    core is always unsatisfiable, and subset-minimal when every check was decided;
    `cut_by_time` when the time limit, not the budget, left one undecided."""
    budget = options.deterministic_time
    used, minimal, cut = 0.0, True, False
    core = list(core)
    i = 0
    try:
        while i < len(core):
            rest = core[:i] + core[i + 1:]
            left = None if budget is None else budget - used
            if (left is not None and left <= 0) or options.deadline.passed():
                minimal, cut = False, cut or options.deadline.passed()
                i += 1
                continue
            model.clear_assumptions()
            model.add_assumptions([switches[j] for j in rest])
            solver = make_solver(replace(options, workers=1, deterministic_time=left))
            code = solver.solve(model)
            used += solver.deterministic_time
            if code == cp_model.INFEASIBLE:
                found = set(solver.sufficient_assumptions_for_infeasibility())
                core = [j for j in rest if switches[j].index in found]
            elif code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                i += 1
            else:  # undecided: by the budget, or cut by the time limit
                minimal = False
                cut = cut or left is None or solver.deterministic_time < 0.99 * left
                i += 1
    finally:
        model.clear_assumptions()
    return core, minimal, cut
