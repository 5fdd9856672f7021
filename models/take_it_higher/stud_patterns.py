"""Stud patterns of the free cells for the gold/silver maximum, best bonus bound first:
the row maximum (`maximum.py`) and every case of the ring (`ship_max.py`) walk the same
list."""

from __future__ import annotations

from models.take_it_higher import encode_cpsat, encode_maxsat
from models.take_it_higher.encode import MaxProblem
from solver.backends import SolveOutcome, SolverOptions, cpsat
from solver.backends.sat import maxsat

#: Patterns (with their symmetric images) an enumeration lists at most (`prefetch`):
#: each is found in a few milliseconds, where the master's next-best solve takes
#: 0.1-1 s (draw 15, gold/silver: 209 patterns walked, 63 s).
PREFETCH_LIMIT = 4000
#: Patterns a walk takes one master solve each before it lists the rest it may need at
#: once (`prefetch`): most walks end within a few.
PREFETCH_AFTER = 4


def _order(pattern: dict[str, str | None]) -> tuple:
    """A fixed order of patterns (their cells' studs, None last)."""
    return tuple(sorted((c, s is None, s or "") for c, s in pattern.items()))


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

    def prefetch(self, floor: int, options: SolverOptions, limit: int = PREFETCH_LIMIT
                 ) -> bool:
        """List at once every pattern not yet listed whose bonus bound is at least
        `floor`, by decreasing bound (ties in a fixed order), as `nth` would one master
        solve each: one enumeration of the master without its objective (CP-SAT).
        A walk that stops below `floor` (its best board already beats C + B there)
        needs no master solve after this; a walk going below it goes on as before
        (every pattern listed here is excluded). False, with nothing listed, when
        there are more than `limit` such patterns (their symmetric images counted),
        the time or work ran out, or the back-end is MaxSAT."""
        if self.backend == "maxsat" or self.end is not None:
            return False
        enum = self.model.clone()
        enum.clear_objective()
        bonus = enum.get_int_var_from_proto_index(self.bonus.index)
        enum.add(bonus >= floor)
        keys = list(self.stud_at)
        variables = [enum.get_bool_var_from_proto_index(self.stud_at[k].index)
                     for k in keys] + [bonus]
        solutions, _ = cpsat.all_solutions(enum, options, variables, limit)
        if solutions is None:
            return False
        perms = [None, *self.symmetries]
        listed: dict[tuple, tuple[int, dict[str, str | None]]] = {}
        for values in solutions:
            pattern = dict(k for k, v in zip(keys, values, strict=False) if v)
            images = [pattern if perm is None else {perm[c]: s for c, s in pattern.items()}
                      for perm in perms]
            first = min(images, key=_order)  # one pattern stands for its images
            listed.setdefault(_order(first), (values[-1], first))
        for value, pattern in sorted(listed.values(), key=lambda vp: (-vp[0], _order(vp[1]))):
            self.found.append((pattern, SolveOutcome("optimal", value, value, 0.0, "cpsat")))
            for perm in [{c: c for c in pattern}, *self.symmetries]:
                self._exclude({perm[c]: s for c, s in pattern.items()})
        if listed:  # no pattern left above the last one listed
            self.model.add(self.bonus <= min(v for v, _ in listed.values()))
        return True

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
