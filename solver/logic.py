"""Write a Boolean model once, solve it with PySAT or with CP-SAT.

`CnfLogic` and `CpLogic` offer the same small interface (fresh variables, negation,
clauses, at-most-one / exactly-one / at-most-k, reified counts, counters whose outputs
say "at least j", AND / OR gates), so a game's model is one function of a `logic`
argument and both back-ends are held equal by its tests (the games' placement steps,
plays and tasks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.backends.sat import CnfBuilder
from solver.counting import Count, count_literal, counter_outputs, cpsat_count_literal


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
