"""Solves counted in work, not time, for `achievable` (PySAT within a conflict budget,
CP-SAT within a deterministic-time budget on one worker): the answer is a function of
the formula and the budget; a deadline only caps the work and says when it cut.

The same helpers as `solver.backends.sat.model_or_core_within` and
`solver.backends.cpsat.shrink_core` written for Hoch Hinaus at the same time (kept here
until they are on main; then this module imports them instead)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from solver.backends.common import SolverOptions
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import TimeLimitReached

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from solver.backends.sat import CnfBuilder


@dataclass
class Decided:
    """A model (its true literals) under every switch, or an unsatisfiable subset of the
    switches (`core`), subset-minimal when every deletion check was decided
    (`minimal`); `cut_by_time`: the deadline left a check undecided."""

    model: set[int] | None
    core: list[int] | None
    minimal: bool = True
    cut_by_time: bool = False


def model_or_core_within(builder: CnfBuilder, switches: Sequence[int], conflicts: int,
                         deadline: Deadline = NO_DEADLINE) -> Decided:
    """Can every switch hold (a model), and if not, which few of them block it (a core
    shrunk by deletion)? The SAT calls (Glucose, interruptible, so that a deadline only
    cuts) share `conflicts` conflicts. TimeLimitReached when the first call is left
    undecided, saying whether the budget or the deadline did it; a deletion check left
    undecided keeps its switch (the core stays unsatisfiable, only not proven minimal)."""
    from solver.backends.sat import INTERRUPTIBLE, IncrementalSat

    with IncrementalSat(builder, name=INTERRUPTIBLE) as sat:
        try:
            model = sat.solve_limited(switches, deadline, conflicts)
        except TimeLimitReached:
            if deadline.passed():
                raise
            raise TimeLimitReached(f"the SAT solver used its budget of {conflicts} "
                                   "conflicts before deciding (--conflicts)") from None
        if model is not None:
            return Decided(model, None)
        out = Decided(None, None)
        reported = set(sat.solver.get_core() or ())
        core = [s for s in switches if s in reported]
        i = 0
        while i < len(core):  # deletion (solver.backends.common.deletion_core)
            rest = core[:i] + core[i + 1:]
            left = conflicts - sat.solver.accum_stats().get("conflicts", 0)
            try:
                if deadline.passed() or left <= 0:
                    raise TimeLimitReached("no time or work left")
                found = sat.solve_limited(rest, deadline, left)
            except TimeLimitReached:  # undecided: the switch stays
                out.minimal = False
                out.cut_by_time = out.cut_by_time or deadline.passed()
                i += 1
                continue
            if found is not None:  # the switch is needed
                i += 1
                continue
            reported = set(sat.solver.get_core() or ())
            core = [s for s in rest if s in reported]
        out.core = core
        return out


def shrink_core(model: cp_model.CpModel, switches: Sequence[cp_model.IntVar],
                core: Sequence[int], options: SolverOptions) -> tuple[list[int], bool, bool]:
    """Deletion from `core` (indices of `switches` that cannot all be true, e.g. CP-SAT's
    sufficient assumptions), counted in work: the checks (one worker each) share
    `options.deterministic_time` (None: no budget); the time limit only caps them.
    Returns (core, minimal, cut_by_time): a check left undecided keeps its switch, so the
    core is always unsatisfiable, and subset-minimal when every check was decided."""
    from ortools.sat.python import cp_model

    from solver.backends.cpsat import make_solver

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
