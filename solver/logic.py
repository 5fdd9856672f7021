"""Write a Boolean model once, solve it with PySAT or with CP-SAT.

`CnfLogic` and `CpLogic` offer the same small interface (fresh variables, negation,
clauses, at-most-one / exactly-one / at-most-k, reified counts, counters whose outputs
say "at least j", AND / OR gates), so a game's model is one function of a `logic`
argument and both back-ends are held equal by its tests (the games' placement steps,
plays and tasks).

`enumerate_solutions` is the one enumerate-and-block loop (find a solution, exclude it,
solve again) behind every "exactly one solution" check, on either back-end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from solver.backends.common import SolverOptions
from solver.backends.sat import CnfBuilder, IncrementalSat
from solver.counting import Count, count_literal, counter_outputs, cpsat_count_literal

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

S = TypeVar("S")
#: value(literal): whether the literal is true in the solution just found
Value = Callable[[Any], bool]


class CnfLogic:
    """Boolean modelling over a PySAT CnfBuilder (literals are ints).

    Given a `builder`, the model is written onto it and its constant `true` is the one
    solver/counting.py's encodings share, `("counting-true",)`, made on first use and
    asserted at every use as they do: the clauses are then exactly those of a model
    written on the builder directly with those encodings, variable for variable."""

    def __init__(self, builder: CnfBuilder | None = None) -> None:
        self._shared_true = builder is not None
        self.b = builder if builder is not None else CnfBuilder()
        if not self._shared_true:
            self._true = self.b.var(("true",))
            self.b.clause([self._true])

    @property
    def true(self) -> int:
        if self._shared_true:
            t = self.b.var(("counting-true",))
            self.b.clause([t])
            return t
        return self._true

    def var(self) -> int:
        return self.b.fresh()

    def neg(self, a: int) -> int:
        return -a

    def clause(self, lits: Sequence[int]) -> None:
        self.b.clause(list(lits))

    def at_most_one(self, lits: Sequence[int]) -> None:
        self.b.at_most(list(lits), 1)

    def exactly_one(self, lits: Sequence[int]) -> None:
        self.b.exactly_one(list(lits))

    def at_most(self, lits: Sequence[int], k: int) -> None:
        self.b.at_most(list(lits), k)

    def count(self, lits: Sequence[int], c: Count) -> int:
        if not lits:
            return self.true if c.holds(0) else -self.true
        return count_literal(self.b, list(lits), c)

    def and_(self, lits: Sequence[int]) -> int:
        return self.b.and_lit(lits)

    def or_(self, lits: Sequence[int]) -> int:
        return self.b.or_lit(lits) if lits else -self.true

    def at_least_outputs(self, lits: Sequence[int], upto: int) -> list[int]:
        """outs[j] is true exactly when at least j+1 of `lits` are (j < min(upto,
        len(lits))): a counter whose outputs may be used both ways."""
        return counter_outputs(self.b, list(lits), upto)


class CpLogic:
    """Boolean modelling over a CP-SAT model (literals are BoolVars or their negations)."""

    def __init__(self) -> None:
        from ortools.sat.python import cp_model  # only when CP-SAT is asked for

        self.m = cp_model.CpModel()
        self.true = self.m.new_bool_var("true")
        self.m.add_bool_or([self.true])

    def var(self) -> Any:
        return self.m.new_bool_var("")

    def neg(self, a: Any) -> Any:
        return a.Not()

    def clause(self, lits: Sequence[Any]) -> None:
        self.m.add_bool_or(list(lits))

    def at_most_one(self, lits: Sequence[Any]) -> None:
        self.m.add_at_most_one(list(lits))

    def exactly_one(self, lits: Sequence[Any]) -> None:
        self.m.add_exactly_one(list(lits))

    def at_most(self, lits: Sequence[Any], k: int) -> None:
        self.m.add(sum(lits) <= k)

    def count(self, lits: Sequence[Any], c: Count) -> Any:
        if not lits:
            return self.true if c.holds(0) else self.true.Not()
        return cpsat_count_literal(self.m, list(lits), c)

    def and_(self, lits: Sequence[Any]) -> Any:
        lits = list(lits)
        if len(lits) == 1:
            return lits[0]
        x = self.var()
        self.m.add_bool_and(lits).only_enforce_if(x)
        self.m.add_bool_or([a.Not() for a in lits]).only_enforce_if(x.Not())
        return x

    def or_(self, lits: Sequence[Any]) -> Any:
        lits = list(lits)
        if not lits:
            return self.true.Not()
        if len(lits) == 1:
            return lits[0]
        x = self.var()
        self.m.add_bool_or(lits).only_enforce_if(x)
        self.m.add_bool_and([a.Not() for a in lits]).only_enforce_if(x.Not())
        return x

    def at_least_outputs(self, lits: Sequence[Any], upto: int) -> list[Any]:
        """outs[j] is true exactly when at least j+1 of `lits` are (j < min(upto,
        len(lits)))."""
        lits = list(lits)
        out = []
        for j in range(min(upto, len(lits))):
            x = self.var()
            self.m.add(sum(lits) >= j + 1).only_enforce_if(x)
            self.m.add(sum(lits) <= j).only_enforce_if(x.Not())
            out.append(x)
        return out


# --------------------------------------------------------------------------- enumeration

@dataclass
class Enumeration(Generic[S]):
    """Solutions found one by one, each later one with the earlier ones blocked.

    complete: proven that there is no other solution (the last solve was infeasible);
    False when `limit` was reached or a solve ran out of time.
    work: CaDiCaL's conflicts (SAT) or CP-SAT's branches over all the solves, a measure
    of effort that does not depend on the machine's load; first_work: the first solve's.
    """

    solutions: list[S]
    complete: bool
    work: int
    first_work: int


def enumerate_solutions(model: CnfLogic | CpLogic | cp_model.CpModel,
                        decode: Callable[[Value], S], block: Callable[[S], None],
                        limit: int, options: SolverOptions | None = None
                        ) -> Enumeration[S]:
    """Up to `limit` (at least 1) solutions of `model`: solve, `decode(value)` the
    solution, `block(solution)` adds the constraints that exclude it (on the same model),
    solve again; stop at `limit` or when a solve finds nothing.

    A CnfLogic is solved by one incremental CaDiCaL that picks up each block's clauses
    (it runs to the end: no time limit); a CpLogic or a CpModel by CP-SAT with `options`
    (one worker keeps solutions and branches independent of the load), each solve from
    scratch: one that runs out of time leaves the enumeration incomplete."""
    if limit < 1:
        raise ValueError("enumerate at least one solution")
    found: list[S] = []
    work: list[int] = []  # after each solve, the work of all so far
    with _solves(model, options) as solve:
        while True:
            value, proven, done = solve()
            work.append(done)
            if value is None:
                return Enumeration(found, proven, work[-1], work[0])
            found.append(decode(value))
            if len(found) >= limit:
                return Enumeration(found, False, work[-1], work[0])
            block(found[-1])


# One solve of an enumeration: (value of the solution found, or None; whether "none" is
# proven; the work of every solve so far)
_Solve = Callable[[], tuple[Value | None, bool, int]]


@contextmanager
def _solves(model: CnfLogic | CpLogic | cp_model.CpModel, options: SolverOptions | None
            ) -> Iterator[_Solve]:
    if isinstance(model, CnfLogic):
        with IncrementalSat(model.b) as sat:
            def solve_sat() -> tuple[Value | None, bool, int]:
                true = sat.solve()
                conflicts = sat.solver.accum_stats()["conflicts"]
                if true is None:
                    return None, True, conflicts
                return (lambda x: (x in true) if x > 0 else (-x not in true)), True, conflicts
            yield solve_sat
        return
    from solver.backends import cpsat  # only when CP-SAT is asked for

    cp = model.m if isinstance(model, CpLogic) else model
    settings = options if options is not None else SolverOptions()
    branches = 0

    def solve_cp() -> tuple[Value | None, bool, int]:
        nonlocal branches
        solver, outcome = cpsat.solve(cp, settings)
        branches += solver.num_branches
        if not outcome.has_solution:  # infeasible is proven, a time limit is not
            return None, outcome.status == "infeasible", branches
        return (lambda x: bool(solver.boolean_value(x))), True, branches
    yield solve_cp
