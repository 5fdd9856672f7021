"""PySAT helpers: a named variable pool, cardinality encodings, RC2 MaxSAT with a
time limit, and incremental SAT solving under assumptions.

Encodings are small composable functions on a `CnfBuilder`, in the style of
pysat.card / pysat.formula: variables come from one IDPool, so auxiliary variables
of cardinality encodings never collide with named ones.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.examples.rc2 import RC2, RC2Stratified
from pysat.formula import WCNF, IDPool
from pysat.solvers import Solver

from solver.backends.common import SolveOutcome, SolverOptions, deletion_core
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import TimeLimitReached
from solver.progress import NO_STATUS, Status, live_status


class ClausesUntil(list):
    """The hard clauses of a builder that must stop at a deadline: every 4096 clauses
    the clock is read, and TimeLimitReached raised once it has passed (a model of a
    million clauses takes seconds to build)."""

    def __init__(self, clauses: list[list[int]], deadline: Deadline) -> None:
        super().__init__(clauses)
        self.deadline = deadline
        self._next = len(self) + 4096

    def _check(self) -> None:
        if len(self) >= self._next:
            self._next = len(self) + 4096
            if self.deadline.passed():
                raise TimeLimitReached("the time limit passed while the model was built")

    def append(self, clause: list[int]) -> None:
        super().append(clause)
        self._check()

    def extend(self, clauses: Iterable[list[int]]) -> None:
        super().extend(clauses)
        self._check()


class CnfBuilder:
    """Hard clauses plus weighted soft literals over one variable pool."""

    def __init__(self) -> None:
        self.pool = IDPool()
        self.hard: list[list[int]] = []
        self.soft: list[tuple[int, int]] = []  # (literal, weight): reward when true

    def stop_at(self, deadline: Deadline) -> CnfBuilder:
        """Raise TimeLimitReached while clauses are added once `deadline` has passed;
        returns the builder."""
        if deadline != NO_DEADLINE:
            self.hard = ClausesUntil(self.hard, deadline)
        return self

    def var(self, name: Hashable) -> int:
        """The variable named `name` (created on first use)."""
        return self.pool.id(name)

    def fresh(self) -> int:
        """A new auxiliary variable with no name."""
        self._fresh = getattr(self, "_fresh", 0) + 1
        return self.pool.id(("fresh", self._fresh))

    def clause(self, lits: Iterable[int]) -> None:
        self.hard.append(list(lits))

    def implies(self, a: int, b: int) -> None:
        """a -> b."""
        self.hard.append([-a, b])

    def and_lit(self, lits: Iterable[int]) -> int:
        """A literal equal to the conjunction of lits (true for none)."""
        lits = list(lits)
        if len(lits) == 1:
            return lits[0]
        y = self.fresh()
        for x in lits:
            self.hard.append([-y, x])
        self.hard.append([y, *(-x for x in lits)])
        return y

    def or_lit(self, lits: Iterable[int]) -> int:
        """A literal equal to the disjunction of lits (false for none)."""
        lits = list(lits)
        if len(lits) == 1:
            return lits[0]
        y = self.fresh()
        self.hard.append([-y, *lits])
        for x in lits:
            self.hard.append([-x, y])
        return y

    def at_most(self, lits: Sequence[int], k: int) -> None:
        lits = list(lits)
        if k >= len(lits):
            return
        if k < 0:
            self.hard.append([])
            return
        enc = EncType.pairwise if k == 1 and len(lits) <= 6 else EncType.seqcounter
        if k == 1 and len(lits) > 6:
            enc = EncType.ladder
        self.hard.extend(CardEnc.atmost(lits, bound=k, vpool=self.pool, encoding=enc).clauses)

    def at_least(self, lits: Sequence[int], k: int) -> None:
        lits = list(lits)
        if k <= 0:
            return
        if k == 1:
            self.hard.append(lits)
            return
        self.hard.extend(CardEnc.atleast(lits, bound=k, vpool=self.pool,
                                         encoding=EncType.seqcounter).clauses)

    def exactly(self, lits: Sequence[int], k: int) -> None:
        self.at_most(lits, k)
        self.at_least(lits, k)

    def exactly_one(self, lits: Sequence[int]) -> None:
        self.exactly(lits, 1)

    def reward(self, lit: int, weight: int) -> None:
        """Soft goal: gain `weight` when `lit` is true (MaxSAT maximises total gain)."""
        if weight > 0:
            self.soft.append((lit, weight))

    def wcnf(self) -> WCNF:
        w = WCNF()
        for c in self.hard:
            w.append(c)
        for lit, weight in self.soft:
            w.append([lit], weight=weight)
        return w


#: RC2 minimises no core (measured on the board maxima of the models, docs/notes:
#: stratified and without it, faster than plain RC2 minimising its cores on 10 of the
#: 11 boards measured, up to 5.4x; slower on one, 1.2x)
MINIMISE_CORES = False


def maxsat(builder: CnfBuilder, options: SolverOptions, stratified: bool = True
           ) -> tuple[set[int] | None, SolveOutcome]:
    """Maximise the total weight of true soft literals with RC2 (`stratified`: by
    weight levels, the default).

    Returns (true literals of the model or None, outcome). On the time limit RC2 has
    no model yet, but its cost so far is a proven lower bound on the lost weight, so
    the outcome carries an upper bound on the optimum with status "unknown".
    """
    total = sum(w for _, w in builder.soft)
    start = time.perf_counter()
    # PySAT's stratified RC2 never calls its oracle without a weight level: no model
    stratified = stratified and bool(builder.soft)
    with (live_status("MaxSAT", options.time_limit) as line,
          _rc2(builder, stratified, line, total) as rc2):
        timer = None
        fired = threading.Event()
        seconds = options.solve_seconds()

        def stop() -> None:
            fired.set()
            rc2.interrupt()
        if seconds is not None:
            timer = threading.Timer(seconds, stop)
            timer.start()
        cancel = options.cancel
        try:  # interruptible, RC2's SAT calls also let other threads run (GIL released)
            with cancel.watching(stop) if cancel else nullcontext():
                model = rc2.compute(expect_interrupt=timer is not None or cancel is not None)
        finally:
            if timer is not None:
                timer.cancel()
        wall = time.perf_counter() - start
        if model is None:
            if fired.is_set():  # RC2 returns None both when interrupted and when unsat
                return None, SolveOutcome("unknown", None, total - rc2.cost, wall, "maxsat")
            return None, SolveOutcome("infeasible", None, None, wall, "maxsat")
        value = total - rc2.cost
        line.found(value)
        line.bound(value)
        return {lit for lit in model if lit > 0}, SolveOutcome(
            "optimal", value, value, wall, "maxsat")


class _ReportsBound:
    """RC2 that sends the bound each core proves to a status line: the weight lost so
    far (its cost) is a lower bound on what any model loses."""

    line: Status = NO_STATUS
    total = 0

    def process_core(self) -> None:
        super().process_core()
        self.line.bound(self.total - self.cost)


class _ReportingRC2(_ReportsBound, RC2):
    pass


class _ReportingRC2Stratified(_ReportsBound, RC2Stratified):
    pass


def _rc2(builder: CnfBuilder, stratified: bool, line: Status, total: int) -> RC2:
    """RC2 on the builder's formula, reporting to `line` only while a line shows."""
    if line.active:
        cls = _ReportingRC2Stratified if stratified else _ReportingRC2
    else:
        cls = RC2Stratified if stratified else RC2
    rc2 = cls(builder.wcnf(), solver="g3", adapt=True, exhaust=True, minz=MINIMISE_CORES)
    if line.active:
        rc2.line, rc2.total = line, total
    return rc2


# PySAT's CaDiCaL ignores interrupt(): solvers that must stop at a deadline are Glucose
INTERRUPTIBLE = "glucose4"


def model_or_core(builder: CnfBuilder, switches: Sequence[int],
                  deadline: Deadline = NO_DEADLINE
                  ) -> tuple[set[int] | None, list[int] | None]:
    """(true literals of a model under every switch, None), or (None, a subset-minimal
    unsatisfiable subset of the switches): the question "can all of these hold, and if
    not, which few of them block it?". With a `deadline` the solver is Glucose, stopped
    there (TimeLimitReached, saying whether "no" was already proven); without, CaDiCaL."""
    if deadline == NO_DEADLINE:
        with IncrementalSat(builder) as sat:
            core = sat.minimal_core(switches)
            return (sat.solve(switches), None) if core is None else (None, core)
    with IncrementalSat(builder, name=INTERRUPTIBLE) as sat:
        model = sat.solve_limited(switches, deadline)
        if model is not None:
            return model, None
        try:
            return None, sat.minimal_core(switches, deadline)
        except TimeLimitReached:
            raise TimeLimitReached("no: not all of them can hold (proven), but no smallest "
                                   "blocking set was found within the time limit") from None


class IncrementalSat:
    """A SAT solver kept alive across calls, queried under assumptions.

    name: the PySAT solver; CaDiCaL by default (fastest here), Glucose when calls must
    stop at a deadline (`solve_limited` with a deadline needs an interruptible solver).
    """

    def __init__(self, builder: CnfBuilder, name: str = "cadical195") -> None:
        self.builder = builder
        self.name = name
        self.solver = Solver(name=name, bootstrap_with=builder.hard)
        self._added = len(builder.hard)
        self.created = time.monotonic()  # the status line's clock
        self.calls = 0  # limited calls, counted on the status line

    def sync(self) -> None:
        """Add clauses appended to the builder since the last call."""
        for c in self.builder.hard[self._added:]:
            self.solver.add_clause(c)
        self._added = len(self.builder.hard)

    def solve(self, assumptions: Sequence[int] = ()) -> set[int] | None:
        """True literals of a model under the assumptions, or None if unsatisfiable."""
        self.sync()
        if self.solver.solve(assumptions=list(assumptions)):
            return {lit for lit in self.solver.get_model() if lit > 0}
        return None

    def solve_limited(self, assumptions: Sequence[int] = (),
                      deadline: Deadline = NO_DEADLINE, conflicts: int | None = None
                      ) -> set[int] | None:
        """Like solve, but raises TimeLimitReached when `deadline` passes or the
        `conflicts` budget runs out first."""
        self.sync()
        limited = deadline != NO_DEADLINE
        if limited and self.name.startswith("cadical"):
            raise ValueError("CaDiCaL cannot be interrupted: use IncrementalSat(..., "
                             "name=INTERRUPTIBLE) for deadlines")
        if deadline.passed():
            raise TimeLimitReached("the SAT solver reached its deadline before deciding")
        solver = self.solver
        if conflicts is not None:
            solver.conf_budget(conflicts)
        done = threading.Event()
        guard = None
        if limited:
            def watchdog() -> None:  # keep interrupting until the call returns
                if not done.wait(deadline.left()):
                    while not done.wait(0.02):
                        solver.interrupt()
            guard = threading.Thread(target=watchdog, daemon=True)
            guard.start()
        self.calls += 1
        try:
            with self._line(deadline):
                ok = solver.solve_limited(assumptions=list(assumptions),
                                          expect_interrupt=limited)
        finally:
            done.set()
            if guard is not None:
                guard.join()
                solver.clear_interrupt()
        if ok is None:
            if deadline.passed():
                raise TimeLimitReached("the SAT solver reached its deadline before deciding")
            raise TimeLimitReached("the SAT solver used its conflict budget before deciding")
        return {lit for lit in solver.get_model() if lit > 0} if ok else None

    def _line(self, deadline: Deadline) -> AbstractContextManager[object]:
        """A status line for a call that may run until a deadline (counted from this
        solver's creation, so a loop of calls keeps one line)."""
        if deadline == NO_DEADLINE:
            return nullcontext()
        return _counted(live_status("SAT", deadline.left(), unit="call",
                                    since=self.created), self.calls)

    def minimal_core(self, assumptions: Sequence[int], deadline: Deadline = NO_DEADLINE
                     ) -> list[int] | None:
        """A subset-minimal unsatisfiable subset of `assumptions`, or None when the
        formula is satisfiable under all of them (deletion on the solver's cores). With
        a `deadline` (needs an INTERRUPTIBLE solver) a call that cannot decide in time
        raises TimeLimitReached."""
        self.sync()

        def core_of(subset: list[int]) -> list[int] | None:
            if deadline == NO_DEADLINE:
                if self.solver.solve(assumptions=subset):
                    return None
            elif self.solve_limited(subset, deadline) is not None:
                return None
            reported = set(self.solver.get_core() or ())
            return [a for a in subset if a in reported]

        return deletion_core(assumptions, core_of)

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> IncrementalSat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextmanager
def _counted(status: AbstractContextManager[Status], calls: int) -> Iterator[Status]:
    with status as line:
        line.step(calls)
        yield line


@dataclass
class Decided:
    """What `model_or_core_within` found: a model (its true literals) under every switch,
    or an unsatisfiable subset of the switches (`core`), subset-minimal when every
    deletion check was decided (`minimal`); `cut_by_time`: the deadline left checks
    undecided."""

    model: set[int] | None
    core: list[int] | None
    minimal: bool = True
    cut_by_time: bool = False


def model_or_core_within(builder: CnfBuilder, switches: Sequence[int], conflicts: int,
                         deadline: Deadline = NO_DEADLINE) -> Decided:
    """`model_or_core` counted in work, not time: the SAT calls (Glucose, with or
    without a deadline, so that a deadline only cuts) may use `conflicts` conflicts in
    all, so the answer is a function of the formula and the budget. TimeLimitReached
    when the first call (every switch) is left undecided, saying whether the budget or
    the deadline did it. A deletion check left undecided keeps its switch: the core is
    still unsatisfiable, only not proven minimal."""
    with IncrementalSat(builder, name=INTERRUPTIBLE) as sat:
        try:
            model = sat.solve_limited(switches, deadline, conflicts)
        except TimeLimitReached:
            if deadline.passed():
                raise TimeLimitReached("the time limit came before the SAT solver decided "
                                       "(no answer)") from None
            raise TimeLimitReached(f"the SAT solver used its budget of {conflicts} "
                                   f"conflicts before deciding (--conflicts {conflicts})"
                                   ) from None
        if model is not None:
            return Decided(model, None)
        out = Decided(None, None)
        reported = set(sat.solver.get_core() or ())
        core = [s for s in switches if s in reported]
        i = 0
        while i < len(core):  # deletion, as deletion_core, from the solver's core
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


#: the solver of `solve_in_worker`: on long planning models (the rest of a game, half a
#: million clauses) Kissat decided within 400 000 conflicts where Glucose did not (the
#: game's notes have the figures); it is not incremental and cannot be interrupted,
#: hence a process of its own
KILLABLE = "kissat404"


def _solve_once(clauses: list[list[int]], units: list[int], name: str,
                conflicts: int | None) -> tuple[bool | None, list[int] | None]:
    """One solve in a worker: (True, the true literals of a model) / (False, None)
    unsatisfiable / (None, None) the conflict budget ran out."""
    with Solver(name=name, bootstrap_with=clauses) as s:
        for u in units:
            s.add_clause([u])
        if conflicts is not None:
            s.conf_budget(conflicts)
        ok = s.solve_limited()
        return ok, ([lit for lit in s.get_model() if lit > 0] if ok else None)


def solve_in_worker(builder: CnfBuilder, units: Sequence[int],
                    deadline: Deadline = NO_DEADLINE, conflicts: int | None = None,
                    name: str = KILLABLE) -> set[int] | None:
    """The true literals of a model of the builder's hard clauses and `units`, or None
    if unsatisfiable, solved by `name` in a worker process (forked: the clauses are
    inherited, not copied through a pipe) that is killed when `deadline` passes, so any
    solver can be capped by a clock. TimeLimitReached when the deadline or the
    `conflicts` budget comes first (the message says which). The answer is a function
    of the clauses and the budget: the deadline only cuts."""
    from solver.processes import Worker  # processes only where a solve needs one

    if deadline.passed():
        raise TimeLimitReached("the SAT solver reached its deadline before deciding")
    worker = Worker(_solve_once, (builder.hard, list(units), name, conflicts), once=True,
                    name=f"toppi-{name}")
    try:
        if not worker.ready(deadline.left()):
            raise TimeLimitReached("the SAT solver reached its deadline before deciding")
        ok, model = worker.outcome().get()
    finally:
        worker.kill()
    if ok is None:
        raise TimeLimitReached("the SAT solver used its conflict budget before deciding")
    return set(model) if ok else None
