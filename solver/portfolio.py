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

Results travel back by pickle: plain dataclasses.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from solver.errors import TimeLimitReached, ToppiError
from solver.progress import live_status

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

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


def _context() -> Any:
    """fork on Linux: a child starts in milliseconds with every module already imported
    (spawn would re-import OR-Tools, about half a second, in each child)."""
    import multiprocessing

    return multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")


def die_with_parent(parent: int) -> None:
    """Linux: the kernel kills this process when the thread that forked it ends, so a
    parent killed outright (SIGKILL) leaves no solver behind; a child whose `parent`
    died before the signal was armed ends at once."""
    if sys.platform == "linux":
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1
    if os.getppid() != parent:
        os._exit(1)


def _child(conn: Connection, parent: int, fn: Callable[..., Any], args: tuple[Any, ...],
           nice: int = 0) -> None:
    """Run one entrant and send ("ok", result), ("no answer", message), ("input",
    ToppiError) or ("bug", traceback text)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    die_with_parent(parent)
    if nice:
        with contextlib.suppress(OSError, AttributeError):  # no os.nice on Windows
            os.nice(nice)
    try:
        message: tuple[str, Any] = ("ok", fn(*args))
    except TimeLimitReached as exc:
        message = ("no answer", str(exc))
    except ToppiError as exc:
        message = ("input", exc)
    except BaseException:  # noqa: BLE001 - everything goes back to the parent
        message = ("bug", traceback.format_exc())
    try:
        conn.send(message)
    except Exception:  # noqa: BLE001 - an answer that does not pickle is a bug
        conn.send(("bug", traceback.format_exc()))
    conn.close()


def _stop(processes: dict[str, BaseProcess]) -> None:
    """Kill every child still running and reap it (no zombie, no orphan); the reaped
    ones leave `processes`, so a second call does nothing."""
    for p in processes.values():
        if p.is_alive():
            with contextlib.suppress(OSError):
                p.kill()
    for name, p in list(processes.items()):
        p.join(timeout=5)
        if p.exitcode is not None:
            p.close()
            del processes[name]


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
    from multiprocessing.connection import wait

    if not entrants:
        raise ValueError("a portfolio needs at least one entrant")
    if len({e.name for e in entrants}) != len(entrants):
        raise ValueError("entrant names must differ")
    start = time.perf_counter()
    if time_limit is not None:  # a short limit leaves little to hand back: a short grace
        grace = min(grace, 0.2 + time_limit)
    deadline = None if time_limit is None else start + time_limit + grace
    ctx = _context()
    processes: dict[str, BaseProcess] = {}
    pipes: dict[Connection, str] = {}
    began: dict[str, float] = {}
    reports: dict[str, EntrantReport] = {}
    answers: dict[str, Any] = {}

    def report(name: str, state: str, message: str | None = None) -> None:
        p = processes[name]
        reports[name] = EntrantReport(name, p.pid, state,
                                      round(time.perf_counter() - began[name], 3), message)

    def finish(winner: str | None) -> PortfolioResult[Any]:
        for name in processes:
            if name not in reports:
                report(name, "stopped")
        _stop(processes)
        return PortfolioResult(winner, answers.get(winner) if winner else None, answers,
                               [reports[e.name] for e in entrants],
                               round(time.perf_counter() - start, 3))

    try:
        for e in entrants:
            receive, send = ctx.Pipe(duplex=False)
            p = ctx.Process(target=_child, args=(send, os.getpid(), e.fn, e.args, e.nice),
                            name=f"toppi-{e.name}", daemon=True)
            began[e.name] = time.perf_counter()
            p.start()
            send.close()  # the child holds the only sending end: EOF when it dies
            processes[e.name] = p
            pipes[receive] = e.name
        if on_start is not None:
            on_start({name: p.pid for name, p in processes.items() if p.pid is not None})
        left = None if time_limit is None else max(0.0, deadline - time.perf_counter() - grace)
        with live_status(label, left):
            while pipes:
                timeout = None if deadline is None else deadline - time.perf_counter()
                if timeout is not None and timeout <= 0:
                    break
                for conn in wait(list(pipes), timeout):
                    name = pipes.pop(conn)
                    try:
                        kind, payload = conn.recv()
                    except (EOFError, OSError):  # died without a word (killed, crashed)
                        processes[name].join(timeout=1)
                        code = processes[name].exitcode
                        report(name, "failed", f"the process ended (exit code {code})")
                        raise RuntimeError(f"portfolio: {name} ended without an answer "
                                           f"(exit code {code})") from None
                    finally:
                        conn.close()
                    if kind == "ok":
                        answers[name] = payload
                        if proven(payload):
                            report(name, "proved")
                            return finish(name)
                        report(name, "answered")
                    elif kind == "no answer":
                        report(name, "no answer", payload)
                    elif kind == "input":
                        report(name, "failed", str(payload))
                        raise payload
                    else:
                        report(name, "failed", payload)
                        raise RuntimeError(f"portfolio: {name} failed:\n{payload}")
        if not answers:
            messages = [r.message for r in reports.values() if r.message]
            raise TimeLimitReached(messages[0] if messages else
                                   "time limit reached before any answer was found")
        return finish(None)
    finally:
        for conn in pipes:
            conn.close()
        _stop(processes)  # also on Ctrl-C and errors: no solver outlives the race
