"""Stud patterns of the free cells for the gold/silver maximum, best bonus bound first:
the row maximum (`maximum.py`) and every case of the ring (`ship_max.py`) walk the same
list."""

from __future__ import annotations

from models.take_it_higher import encode_cpsat, encode_maxsat
from models.take_it_higher.encode import MaxProblem
from solver.backends import SolveOutcome, SolverOptions, cpsat
from solver.backends.sat import maxsat


class StudPatterns:
    """Stud patterns of the free cells by decreasing bonus bound (CP-SAT or MaxSAT),
    listed once and kept: the cases of the ring (ship_max.py) walk the same list.

    A pattern found is excluded with its images under `symmetries`; the CP-SAT master
    is then capped at the bound just found (no later pattern can exceed it), which
    makes each next pattern 3x cheaper to prove best."""

    def __init__(self, problem: MaxProblem, backend: str,
                 symmetries: list[dict[str, str]] | None = None) -> None:
        self.backend = backend
        self.symmetries = symmetries or []
        self.found: list[tuple[dict[str, str | None], SolveOutcome]] = []
        self.end: SolveOutcome | None = None  # the master's answer once none is left
        # stud_at[(cell, stud)]: the literal "the tile on this cell carries this stud"
        if backend == "maxsat":
            self.cnf, self.stud_at = encode_maxsat.stud_master(problem)
        else:
            self.model, self.stud_at, self.bonus = encode_cpsat.stud_master(problem)

    def nth(self, i: int, options: SolverOptions
            ) -> tuple[dict[str, str | None] | None, SolveOutcome]:
        """The i-th best pattern (from 0) and the master's outcome: (None, infeasible)
        when fewer are left, (None, unknown) when the time ran out."""
        while len(self.found) <= i:
            if self.end is not None:
                return None, self.end
            pattern, out = self._best(options)
            if pattern is None:
                if out.status == "infeasible":
                    self.end = out
                return None, out
            self.found.append((pattern, out))
            for perm in [{c: c for c in pattern}, *self.symmetries]:
                self._exclude({perm[c]: s for c, s in pattern.items()})
            if self.backend != "maxsat":
                self.model.add(self.bonus <= out.objective)
        return self.found[i]

    def _best(self, options: SolverOptions) -> tuple[dict[str, str | None] | None, SolveOutcome]:
        if self.backend == "maxsat":
            lits, out = maxsat(self.cnf, options, stratified=True)
            chosen = {key for key, lit in self.stud_at.items() if lits and lit in lits}
        else:
            solver, out = cpsat.solve(self.model, options)
            chosen = {key for key, var in self.stud_at.items()
                      if out.has_solution and solver.value(var)}
        return (dict(chosen) if out.status == "optimal" else None), out

    def _exclude(self, pattern: dict[str, str | None]) -> None:
        keys = list(pattern.items())
        if self.backend == "maxsat":
            self.cnf.clause([-self.stud_at[k] for k in keys])
        else:
            self.model.add_bool_or([~self.stud_at[k] for k in keys])
