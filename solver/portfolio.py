"""A portfolio of solvers: several solve functions run at once, each in a process of its
own; the first *proven* answer wins and the others are stopped.

Why processes: the back-ends (CP-SAT, PySAT's RC2) are C++ code that holds a core for
the whole solve; threads would share one interpreter, and a solve cannot be cut short
from outside except by ending its process. The ranking of back-ends flips from one
input to the next by more than 10x, so running them side by side costs at most the
share of the machine the loser took, where guessing wrong costs the ratio.

Rules of the race (`run_portfolio`):
- an entrant's answer is "proven" when `proven(result)` says so: it wins at once, and
  every other entrant is killed (SIGKILL: a solver has nothing to save);
- an answer that is not proven (the entrant's own time limit ran out) is kept, and the
  race goes on until every entrant has answered or the deadline passes (the time limit
  plus `grace`, for the entrants to return what they found);
- an entrant that raises TimeLimitReached answered nothing; one that raises another
  ToppiError (bad input, proven infeasible) settles the race: it is raised here, since
  every entrant reads the same input; any other exception is a bug and is raised too,
  as a RuntimeError with the entrant's traceback (a bug must not hide behind a win);
- Ctrl-C, an error or the deadline: every child is killed before this returns or
  raises, and on Linux a child dies with its parent (PR_SET_PDEATHSIG), so no solver
  is left running. Children ignore Ctrl-C: the parent handles it.

Each entrant is a solver.processes.Worker started with its call (under fork the call is
inherited, not pickled); results travel back by pickle: plain dataclasses.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from solver.deadline import Deadline
from solver.errors import TimeLimitReached, ToppiError
from solver.processes import Worker, WorkerDied, kill_all, wait
from solver.progress import live_status

T = TypeVar("T")

#: Seconds after the time limit that entrants get to hand back what they found (their
#: own solvers stop at the time limit; this covers returning and unpickling).
GRACE = 0.8


@dataclass(frozen=True)
class Entrant:
    """One solve of the race: `fn(*args)` under `name` (fn must be picklable where the
    start method is spawn: a module-level function).

    nice: added to the child's niceness. An entrant not expected to win gets e.g. 10:
    on an idle machine it still has a core of its own (the race is unchanged), on a
    busy one it takes what others leave instead of halving the favourite's share (on
    the shared 2-core machine, two equal solvers beside one busy process each ran at
    half speed; a nice 10 neighbour cost the favourite nothing measurable)."""

    name: str
    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()
    nice: int = 0


@dataclass
class EntrantReport:
    """How one entrant's race ended: "proved" (won), "answered" (an answer not proven),
    "no answer" (TimeLimitReached), "stopped" (killed: another proved, or the deadline),
    "failed" (an error, or the process died)."""

    name: str
    pid: int | None
    state: str
    seconds: float
    message: str | None = None


@dataclass
class PortfolioResult(Generic[T]):
    """The race: `proved_by` names the winner (None: nobody proved within the time
    limit), `result` is its answer; `answers` holds every answer that came back (the
    winner's and those not proven), by entrant name."""

    proved_by: str | None
    result: T | None
    answers: dict[str, T] = field(default_factory=dict)
    reports: list[EntrantReport] = field(default_factory=list)
    seconds: float = 0.0


class _Race:
    """The entrants' workers and what each of them came back with."""

    def __init__(self, entrants: Sequence[Entrant], proven: Callable[[Any], bool]) -> None:
        self.entrants = entrants
        self.proven = proven
        self.start = time.perf_counter()
        self.workers: dict[str, Worker] = {}
        self.running: dict[Worker, str] = {}  # started, no outcome read yet
        self.began: dict[str, float] = {}
        self.reports: dict[str, EntrantReport] = {}
        self.answers: dict[str, Any] = {}

    def launch(self) -> dict[str, int]:
        """Start every entrant's process; {name: pid}."""
        for e in self.entrants:
            self.began[e.name] = time.perf_counter()
            worker = Worker(e.fn, e.args, once=True, nice=e.nice, name=f"toppi-{e.name}")
            self.workers[e.name] = worker
            self.running[worker] = e.name
        return {name: w.pid for name, w in self.workers.items()}

    def report(self, name: str, state: str, message: str | None = None) -> None:
        self.reports[name] = EntrantReport(
            name, self.workers[name].pid, state,
            round(time.perf_counter() - self.began[name], 3), message)

    def receive(self, worker: Worker) -> str | None:
        """Read one entrant's outcome; its name when it proved (it wins). Raises an
        entrant's ToppiError, and RuntimeError for a bug or a process that died."""
        name = self.running.pop(worker)
        try:
            outcome = worker.outcome()  # then its process ends on its own (once)
        except WorkerDied as exc:  # died without a word (killed, crashed)
            self.report(name, "failed", f"the process ended (exit code {exc.exitcode})")
            raise RuntimeError(f"portfolio: {name} ended without an answer "
                               f"(exit code {exc.exitcode})") from None
        error = outcome.error
        if error is None:
            self.answers[name] = outcome.value
            if self.proven(outcome.value):
                self.report(name, "proved")
                return name
            self.report(name, "answered")
        elif isinstance(error, TimeLimitReached):
            self.report(name, "no answer", str(error))
        elif isinstance(error, ToppiError):
            self.report(name, "failed", str(error))
            raise error
        else:
            self.report(name, "failed", outcome.traceback)
            raise RuntimeError(f"portfolio: {name} failed:\n{outcome.traceback}")
        return None

    def finish(self, winner: str | None) -> PortfolioResult[Any]:
        for name in self.workers:
            if name not in self.reports:
                self.report(name, "stopped")
        self.stop()
        return PortfolioResult(winner, self.answers.get(winner) if winner else None,
                               self.answers, [self.reports[e.name] for e in self.entrants],
                               round(time.perf_counter() - self.start, 3))

    def stop(self) -> None:
        """Kill and reap every process still running (no zombie, no orphan)."""
        kill_all(self.workers.values())


def run_portfolio(entrants: Sequence[Entrant], proven: Callable[[Any], bool],
                  time_limit: float | None, *, grace: float = GRACE,
                  label: str = "portfolio",
                  on_start: Callable[[dict[str, int]], None] | None = None
                  ) -> PortfolioResult[Any]:
    """Race the entrants, each in its own process (see the module docstring).

    time_limit: seconds from this call; the entrants should stop themselves by then
    (pass them the limit), and are killed `grace` seconds later at the latest.
    on_start: called with {name: pid} once every child runs (tests watch the pids).
    Raises TimeLimitReached when no entrant answered at all, and the errors above.
    """
    if not entrants:
        raise ValueError("a portfolio needs at least one entrant")
    if len({e.name for e in entrants}) != len(entrants):
        raise ValueError("entrant names must differ")
    race = _Race(entrants, proven)
    if time_limit is not None:  # a short limit leaves little to hand back: a short grace
        grace = min(grace, 0.2 + time_limit)
    # the children are killed at the deadline: the time limit and the grace after it
    deadline = Deadline.after(None if time_limit is None else time_limit + grace)
    try:
        pids = race.launch()
        if on_start is not None:
            on_start(pids)
        left = deadline.left()
        with live_status(label, None if left is None else max(0.0, left - grace)):
            while race.running:
                timeout = deadline.left()
                if timeout is not None and timeout <= 0:
                    break
                for worker in wait(race.running, timeout):
                    winner = race.receive(worker)
                    if winner is not None:
                        return race.finish(winner)
        if not race.answers:
            messages = [r.message for r in race.reports.values() if r.message]
            raise TimeLimitReached(messages[0] if messages else
                                   "time limit reached before any answer was found")
        return race.finish(None)
    finally:
        race.stop()  # also on Ctrl-C and errors: no solver outlives the race
