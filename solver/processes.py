"""Worker processes that can be killed: the one process primitive behind batch runs
(solver/executor.py), the solver portfolio (solver/portfolio.py) and the web app's jobs.

A `Worker` is one process that runs calls `fn(*args)` one after the other, in the order
they were sent, and hands back each one's `Outcome`: its value, or the exception it
raised with the worker's traceback. It can be killed at any moment (SIGKILL: a solver
has nothing to save), it dies with its parent (Linux PR_SET_PDEATHSIG), so a parent
killed outright leaves no process behind, and it ignores Ctrl-C, which is the parent's
to handle (it runs in a process group of its own: a terminal's Ctrl-C does not reach it).

Why processes: the back-ends (CP-SAT, PySAT's solvers) are C++ code that holds a core
for a whole solve and cannot be stopped from outside except by ending its process.

Start methods: "fork" (the default on Linux: a child starts in milliseconds with every
module imported, and its first call and initializer arguments are inherited, not
pickled) or "spawn" (a fresh interpreter; everything it is given must pickle).

A web job, for example (one reusable worker per slot, awaited from asyncio, killed on
cancel or at its time limit and replaced):

    slot = Worker(initializer=warm, initargs=(games, progress), method="spawn")
    slot.call(run_job, argv, files)
    try:
        outcome = await asyncio.wait_for(slot.outcome_async(), limit)
    except (TimeoutError, asyncio.CancelledError):
        slot.kill()  # and start a fresh Worker for the next job
        raise
    result = outcome.get()  # the job's value, or its exception raised here
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait as wait_for_connections
from typing import Any


class WorkerDied(RuntimeError):
    """The worker process ended without handing back an outcome (killed, crashed, out
    of memory)."""

    def __init__(self, exitcode: int | None) -> None:
        super().__init__(f"the worker process ended (exit code {exitcode})")
        self.exitcode = exitcode


class RemoteTraceback(Exception):
    """The worker's traceback of an exception, attached to it as its cause."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass
class Outcome:
    """How one call ended: its `value`, or the `error` it raised and the worker's
    `traceback` text of it."""

    value: Any = None
    error: BaseException | None = None
    traceback: str | None = None

    def exception(self) -> BaseException | None:
        """The call's exception (the worker's traceback as its cause), or None."""
        if self.error is not None and self.traceback and self.error.__cause__ is None:
            self.error.__cause__ = RemoteTraceback(self.traceback)
        return self.error

    def get(self) -> Any:
        """The value, or the call's exception raised here."""
        error = self.exception()
        if error is not None:
            raise error
        return self.value


def default_method() -> str:
    """fork on Linux (spawn would import OR-Tools again, about half a second, in every
    process); spawn elsewhere."""
    return "fork" if sys.platform == "linux" else "spawn"


def die_with_parent(parent: int) -> None:
    """Linux: the kernel kills this process when the thread that started it ends, so a
    parent killed outright (SIGKILL) leaves no process behind; a child whose `parent`
    died before the signal was armed ends at once."""
    if sys.platform == "linux":
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1
    if os.getppid() != parent:
        os._exit(1)


Call = tuple[Callable[..., Any], tuple[Any, ...]]


def _serve(conn: Any, parent: int, nice: int, first: Call | None, once: bool,
           initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
    """The worker's life: detach from the terminal's Ctrl-C, arm the parent-death
    signal, run the initializer, then answer calls until told to stop (None), the
    parent's end of the pipe closes, or (`once`) the first call is answered."""
    with contextlib.suppress(OSError):
        os.setpgrp()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    if nice:
        with contextlib.suppress(OSError, AttributeError):  # no os.nice on Windows
            os.nice(nice)
    if initializer is not None:
        initializer(*initargs)
    if first is not None:
        _answer(conn, first)
        if once:
            return
    while True:
        try:
            call = conn.recv()
        except (EOFError, OSError):
            return
        if call is None:
            return
        _answer(conn, call)


def _answer(conn: Any, call: Call) -> None:
    fn, args = call
    try:
        outcome = Outcome(fn(*args))
    except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent
        outcome = Outcome(error=exc, traceback=traceback.format_exc())
    try:
        conn.send(outcome)
    except Exception as exc:  # noqa: BLE001 - a value or error that does not pickle
        conn.send(Outcome(error=RuntimeError(f"the outcome could not be sent back: {exc}"),
                          traceback=traceback.format_exc()))


@contextlib.contextmanager
def _whole_messages() -> Iterator[None]:
    """Ctrl-C held back while a message goes through a pipe: a KeyboardInterrupt half
    way through one would leave the rest in the pipe and garble every later message."""
    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:  # a Ctrl-C that came meanwhile is raised now
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


# Workers not reaped by exit are killed before multiprocessing waits for its children
# (a worker is no daemon: it would be waited for, forever if it runs a long solve)
_LIVE: set[Worker] = set()


@atexit.register
def _kill_the_rest() -> None:
    for worker in list(_LIVE):
        worker.kill()


class Worker:
    """One process that runs calls in order and can be killed (see the module doc).

    fn, args: a first call, run as soon as the process starts (under fork, inherited
    rather than pickled). initializer(*initargs): run once in the process before any
    call (imports, data every call shares). once: the process ends after answering the
    first call (a one-off: nothing to stop or kill afterwards). method: "fork" or "spawn"
    (default: `default_method()`). nice: added to the process's niceness, so that a
    worker not expected to matter yields the CPU on a busy machine.

    On Linux the worker dies when the *thread* that created it ends: create workers from
    a thread that outlives them (the main thread, an event loop's thread). A Worker is
    used from one thread at a time.
    """

    def __init__(self, fn: Callable[..., Any] | None = None, args: tuple[Any, ...] = (), *,
                 once: bool = False, initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = (), method: str | None = None, nice: int = 0,
                 name: str = "toppi-worker") -> None:
        context = multiprocessing.get_context(method or default_method())
        self._conn, child = context.Pipe(duplex=True)
        first = None if fn is None else (fn, tuple(args))
        # not a daemon: a worker may start processes of its own (a web job's portfolio)
        self.process = context.Process(
            target=_serve, args=(child, os.getpid(), nice, first, once and first is not None,
                                 initializer, tuple(initargs)), name=name, daemon=False)
        self.process.start()
        child.close()  # the worker holds the only other end: EOF here when it dies
        self.pid: int = self.process.pid  # type: ignore[assignment]
        self.pending = 0 if fn is None else 1  # calls sent whose outcome is not read
        self.exitcode: int | None = None
        _LIVE.add(self)

    @property
    def alive(self) -> bool:
        return self.exitcode is None and self.process.is_alive()

    def fileno(self) -> int:
        """Readable when an outcome waits or the worker died (for `wait`)."""
        return self._conn.fileno()

    def call(self, fn: Callable[..., Any], *args: Any) -> None:
        """Send a call; it runs after those sent before it (fn and args are pickled)."""
        with _whole_messages():
            self._conn.send((fn, args))
        self.pending += 1

    def ready(self, timeout: float | None = 0.0) -> bool:
        """Whether the next outcome (or the worker's death) can be read now, waiting up
        to `timeout` seconds (None: as long as it takes)."""
        return bool(self._conn.poll(timeout))

    def outcome(self, timeout: float | None = None) -> Outcome:
        """The next call's outcome, in the order the calls were sent. Raises
        TimeoutError after `timeout` seconds, WorkerDied when the process ended."""
        if self.pending <= 0:
            raise RuntimeError("no call is waiting for its outcome")
        # waiting stays open to Ctrl-C; only reading the message that came is not
        if not self._conn.poll(timeout):
            raise TimeoutError(f"no outcome within {timeout} s")
        try:
            with _whole_messages():
                outcome = self._conn.recv()
        except (EOFError, OSError):
            raise WorkerDied(self._reap()) from None
        self.pending -= 1
        return outcome

    async def outcome_async(self) -> Outcome:
        """`outcome()` for asyncio: waits without blocking the event loop."""
        import asyncio  # only the web app awaits

        loop = asyncio.get_running_loop()
        readable = loop.create_future()
        fd = self.fileno()
        loop.add_reader(fd, lambda: readable.done() or readable.set_result(None))
        try:
            await readable
        finally:
            loop.remove_reader(fd)
        return self.outcome()

    def kill(self) -> None:
        """End the process now (SIGKILL) and reap it; the calls it had are lost."""
        self._signal()
        self._reap()

    def _signal(self) -> None:
        if self.exitcode is None and self.process.is_alive():
            with contextlib.suppress(OSError):
                self.process.kill()

    def close(self, timeout: float = 1.0) -> None:
        """Let an idle worker end on its own (killed if it does not within `timeout`
        seconds, or at once when it still has calls)."""
        if self.pending == 0 and self.exitcode is None and self.process.is_alive():
            with contextlib.suppress(OSError), _whole_messages():
                self._conn.send(None)
            self.process.join(timeout)
        self.kill()

    def _reap(self) -> int | None:
        if self.exitcode is None:
            self.process.join(timeout=5)
            self.exitcode = self.process.exitcode
            if self.exitcode is not None:
                self.process.close()
                self._conn.close()
                _LIVE.discard(self)
        return self.exitcode

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


def kill_all(workers: Iterable[Worker]) -> None:
    """Kill every worker, all of them signalled before any is waited for."""
    workers = list(workers)
    for worker in workers:
        worker._signal()
    for worker in workers:
        worker.kill()


def wait(workers: Iterable[Worker], timeout: float | None = None) -> list[Worker]:
    """The workers whose next outcome can be read (or that died), waiting up to
    `timeout` seconds for the first of them (None: as long as it takes)."""
    return list(wait_for_connections(list(workers), timeout))
