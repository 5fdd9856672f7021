"""A race of solves in threads of this process: the first *proven* answer wins and the
others are cancelled (solver.backends' Cancel: CP-SAT's stop_search, RC2's interrupt).

Why threads (solver/portfolio.py races processes): CP-SAT, and RC2 when it expects an
interrupt, release the GIL while they search, so two solves in two threads share the
cores as two processes would, without starting processes: that cost 0.1-0.2 s, more
than a small model takes to prove, and more still on a busy machine. The entrants run
at the same priority: each gets an equal share of what the machine leaves.

An entrant may start late (`start_after`): a hedge. The back-end expected to win runs
alone with every core; the other joins only if no proof came by then.

Rules as in solver/portfolio.py: a proven answer wins at once and the others are
cancelled; answers not proven are kept until every entrant has ended or the deadline
(limit + grace) passes; TimeLimitReached is "no answer"; another ToppiError settles
the race (it is raised: every entrant reads the same input); any other exception is a
bug, raised as RuntimeError with the entrant's traceback. Ctrl-C (in the main thread,
which only waits) cancels every entrant and waits for them: nothing is left running.
"""

from __future__ import annotations

import os
import queue
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from solver.backends.common import Cancel
from solver.errors import TimeLimitReached, ToppiError
from solver.portfolio import GRACE, EntrantReport, PortfolioResult
from solver.progress import live_status

#: Seconds a cancelled entrant gets to return before the race gives up waiting for it
#: (its solver stops within a tenth of a second; a model still being built in Python
#: finishes first). Past it the thread is left to end on its own (it is a daemon).
JOIN = 2.0


#: Readings of the runnable tasks `free_cores` takes (a millisecond apart): the fewest
#: counts, so a task that ran for an instant (a shell command) is not taken for a load.
SAMPLES = 5


def free_cores() -> int:
    """Cores of this process's CPU set that no other task wants right now: the CPUs
    minus the runnable tasks of the machine (Linux /proc/stat `procs_running`, this
    thread not counted; the fewest of SAMPLES readings). Where that cannot be read,
    every core counts as free. A solver started beside a busy process shares a core
    with it: a race of two is then only worth its cost when the guess is unsure."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    fewest = None
    for i in range(SAMPLES):
        try:
            with open("/proc/stat", encoding="ascii") as f:
                running = next(int(line.split()[1]) for line in f
                               if line.startswith("procs_running"))
        except (OSError, StopIteration, ValueError, IndexError):
            return cpus
        fewest = running if fewest is None else min(fewest, running)
        if fewest <= 1:  # this thread alone: no reading can show fewer
            break
        if i + 1 < SAMPLES:
            time.sleep(0.001)
    return max(0, cpus - (fewest or 1) + 1)


@dataclass(frozen=True)
class ThreadEntrant:
    """One solve of the race: `fn(cancel)` under `name`; fn must pass `cancel` to its
    solves (SolverOptions.cancel) so that the race can stop them.

    start_after: seconds after the race's start before this entrant starts, if no
    entrant has proven an answer by then (0: at once)."""

    name: str
    fn: Callable[[Cancel], Any]
    start_after: float = 0.0


@dataclass
class _Outcome:
    name: str
    value: Any = None
    error: BaseException | None = None
    trace: str | None = None


def run_threads(entrants: Sequence[ThreadEntrant], proven: Callable[[Any], bool],
                limit: float | None, grace: float = GRACE, label: str = "race",
                on_start: Callable[[str], None] | None = None) -> PortfolioResult[Any]:
    """Race `entrants` (see module doc); `limit`: seconds (None: no limit) after which
    the entrants still running are cancelled, `grace` after it they get to hand back
    what they found. Raises TimeLimitReached when none answered by then. `label`: the
    status line's (the entrants' own solves draw none: they are not in the main
    thread). `on_start` is called with each entrant's name as its thread starts
    (tests)."""
    start = time.perf_counter()
    outcomes: queue.Queue[_Outcome] = queue.Queue()
    cancels = {e.name: Cancel() for e in entrants}
    threads: dict[str, threading.Thread] = {}
    began: dict[str, float] = {}
    reports: dict[str, EntrantReport] = {}
    answers: dict[str, Any] = {}
    waiting = sorted(entrants, key=lambda e: e.start_after)

    def body(e: ThreadEntrant) -> None:
        try:
            outcomes.put(_Outcome(e.name, value=e.fn(cancels[e.name])))
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            outcomes.put(_Outcome(e.name, error=exc, trace=traceback.format_exc()))

    def launch(e: ThreadEntrant) -> None:
        began[e.name] = time.perf_counter()
        thread = threading.Thread(target=body, args=(e,), name=f"toppi-{e.name}",
                                  daemon=True)
        threads[e.name] = thread
        thread.start()
        if on_start is not None:
            on_start(e.name)

    def report(name: str, state: str, message: str | None = None) -> None:
        reports[name] = EntrantReport(name, None, state,
                                      round(time.perf_counter() - began[name], 3), message)

    def stop_all() -> None:
        for c in cancels.values():
            c.set()
        for t in threads.values():
            t.join(JOIN)

    def finish(winner: str | None) -> PortfolioResult[Any]:
        for name in threads:
            if name not in reports:
                report(name, "stopped")
        stop_all()
        return PortfolioResult(winner, answers.get(winner) if winner else None, answers,
                               [reports[e.name] for e in entrants if e.name in reports],
                               round(time.perf_counter() - start, 3))

    deadline = None if limit is None else start + limit + grace

    def loop() -> PortfolioResult[Any]:
        while waiting and waiting[0].start_after <= 0:
            launch(waiting.pop(0))
        while True:
            now = time.perf_counter()
            idle = len(reports) == len(threads)  # every entrant started has ended
            if waiting and (idle or now - start >= waiting[0].start_after):
                launch(waiting.pop(0))  # a hedge: still no proof after its start time
                continue
            if len(reports) == len(threads) and not waiting:
                return finish(None)
            if deadline is not None and now >= deadline:
                if answers:
                    return finish(None)
                finish(None)
                raise TimeLimitReached("time limit reached before any answer")
            wake = [] if deadline is None else [deadline - now]
            if waiting:
                wake.append(start + waiting[0].start_after - now)
            try:  # a bounded wait: Ctrl-C reaches the main thread between waits
                got = outcomes.get(timeout=min([0.5, *wake]) if wake else 0.5)
            except queue.Empty:
                continue
            if got.error is None:
                answers[got.name] = got.value
                if proven(got.value):
                    report(got.name, "proved")
                    return finish(got.name)
                report(got.name, "answered")
            elif isinstance(got.error, TimeLimitReached):
                report(got.name, "no answer", str(got.error))
            elif isinstance(got.error, ToppiError):
                report(got.name, "failed", str(got.error))
                raise got.error
            else:
                report(got.name, "failed", got.trace)
                raise RuntimeError(f"race: {got.name} failed:\n{got.trace}")

    try:
        with live_status(label, limit):
            return loop()
    finally:  # an error, Ctrl-C or a winner: no solve goes on in the background
        stop_all()
