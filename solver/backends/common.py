"""Options, outcomes and the core-minimising loop common to every back-end."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Literal, TypeVar

from solver.deadline import NO_DEADLINE, Deadline

#: What a solve proved: "optimal" (value proven), "feasible" (best found; a bound limits
#: the optimum), "infeasible" (proven no solution) or "unknown" (nothing found in time).
SolveStatus = Literal["optimal", "feasible", "infeasible", "unknown"]

T = TypeVar("T")


class Cancel:
    """Stops a solve from another thread (a race of solves in one process, solver/race.py):
    `set()` ends every solve that watches it, now or when it starts later."""

    #: seconds between two stop requests to a solve (see `watching`)
    POLL = 0.05

    def __init__(self) -> None:
        self._event = threading.Event()
        self._stops: list[Callable[[], None]] = []  # of the solves watching now
        self._lock = threading.Lock()

    def set(self) -> None:
        """Stop every solve watching now at once (a solver's stop request is safe from
        any thread), and every later one as it starts."""
        with self._lock:
            self._event.set()
            stops = list(self._stops)
        for stop in stops:
            stop()

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until set (True) or `timeout` seconds passed (False)."""
        return self._event.wait(timeout)

    @contextmanager
    def watching(self, stop: Callable[[], None]) -> Iterator[None]:
        """Call `stop` while the block runs once this is set: at once from `set`, and
        again every POLL seconds until the block ends: a solver may not take a stop
        request yet (CP-SAT drops one made before its search has begun)."""
        done = threading.Event()

        def watch() -> None:  # wakes on `done` at once: a solve's end does not wait
            while not done.wait(self.POLL):
                if self._event.is_set():
                    stop()

        with self._lock:
            self._stops.append(stop)
            already = self._event.is_set()
        if already:
            stop()
        watcher = threading.Thread(target=watch, name="toppi-cancel", daemon=True)
        watcher.start()
        try:
            yield
        finally:
            done.set()
            with self._lock:
                self._stops.remove(stop)
            watcher.join()


@dataclass(frozen=True)
class SolverOptions:
    """How long and how a solver may run.

    time_limit: seconds, or None for no limit.
    seed: random seed, so runs are reproducible.
    workers: parallel workers (CP-SAT); ignored by single-threaded back-ends.
    log: print the solver's own log on stderr.
    deterministic_time: CP-SAT's load-independent work limit (its "deterministic
    seconds"); with one worker the result then does not depend on the machine's load,
    which reproducible simulations need.
    cancel: when set (from another thread), every solve of these options stops as at
    its time limit (a race of back-ends in one process).
    """

    time_limit: float | None = None
    seed: int = 0
    workers: int = 2
    log: bool = False
    deterministic_time: float | None = None
    #: when the whole command must end (its --time-limit counted from its start, so
    #: imports and model building count): every solve stops there
    deadline: Deadline = NO_DEADLINE
    cancel: Cancel | None = field(default=None, compare=False)

    def solve_seconds(self) -> float | None:
        """Seconds a solve started now may take (None: no limit): the time limit, or
        less where the deadline is nearer (at least a hundredth, so a solve late by a
        hair still returns what it has instead of failing)."""
        left = self.deadline.left()
        if left is None or self.time_limit is None:
            return self.time_limit if left is None else max(0.01, left)
        return max(0.01, min(self.time_limit, left))

    def solve_deadline(self) -> Deadline:
        """When a solve (or several, sharing one limit) started now must end:
        `solve_seconds` from now."""
        return Deadline.after(self.solve_seconds())

    def within(self, deadline: Deadline) -> SolverOptions:
        """These options with the time limit cut to what is left until `deadline` now
        (at least a hundredth): one limit for several solves."""
        left = deadline.left()
        return self if left is None else replace(self, time_limit=max(0.01, left))


@dataclass
class SolveOutcome:
    """What a solve proved, honestly (see SolveStatus; `bound` limits the optimum)."""

    status: SolveStatus
    objective: int | None
    bound: int | None
    wall_time: float
    backend: str

    @property
    def has_solution(self) -> bool:
        return self.status in ("optimal", "feasible")

    @property
    def proven(self) -> bool:
        return self.status in ("optimal", "infeasible")


def deletion_core(items: Sequence[T], core_of: Callable[[list[T]], list[T] | None]
                  ) -> list[T] | None:
    """A subset-minimal unsatisfiable subset of `items`, or None when all of them hold
    together.

    core_of(subset): None when `subset` is satisfiable, else an unsatisfiable part of it
    in the subset's order (the solver's own core, or the whole subset); it raises
    TimeLimitReached when it cannot decide, since a core not proven minimal must not be
    reported as one. Deletion: drop one item; if the rest is still unsatisfiable keep
    the (smaller) core found for it, else the item is needed.
    """
    core = core_of(list(items))
    if core is None:
        return None
    i = 0
    while i < len(core):
        smaller = core_of(core[:i] + core[i + 1:])
        if smaller is None:
            i += 1
        else:
            core = smaller
    return core
