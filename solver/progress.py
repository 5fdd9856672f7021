"""Progress on stderr for long work: a bar for batch runs (simulations, benchmarks,
generators) and a live status line for long solves (best found, bound, gap, time left).

Both show only on a terminal and never with --quiet (or TOPPI_QUIET=1), so stdout stays
clean for --json and piped runs print nothing extra. One display owns the line at a
time: a solve inside a batch (or inside a status opened around several solves) reports
to the display already there instead of drawing a second one.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from solver.deadline import Deadline
from solver.render import stderr

if TYPE_CHECKING:
    from rich.console import Console

_quiet = False
# What owns the stderr line now: a live Status, "bar" (a progress bar), or None.
_owner: Status | str | None = None
# Who else hears the solvers' reports (the web app's worker), or None.
_listener: Listener | None = None

#: A line appears only when the work lasts longer than this (seconds): quick solves,
#: such as the many small ones of a hint, leave no trace.
SHOW_AFTER = 0.4


def set_quiet(quiet: bool = True) -> None:
    """Silence progress for this process (the --quiet option)."""
    global _quiet
    _quiet = quiet


def is_quiet() -> bool:
    """--quiet was given, or TOPPI_QUIET is set to anything but "" or "0"."""
    return _quiet or os.environ.get("TOPPI_QUIET", "") not in ("", "0")


def _can_draw(console: Console) -> bool:
    """Only the main thread of the main process draws: pool workers (often sharing the
    terminal) and Dask worker threads stay silent, their parent shows the batch."""
    if is_quiet() or _owner is not None:
        return False
    mp = sys.modules.get("multiprocessing")  # never imported just for this check
    if mp is not None and mp.parent_process() is not None:
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    return console.is_terminal and not console.is_dumb_terminal


class Status:
    """What a long solve reports. This base class ignores everything: it is what a
    solve gets when nothing is shown, so reporting costs one method call."""

    #: False when reports go nowhere: skip work done only to report (a CP-SAT callback).
    active = False

    def found(self, value: float) -> None:
        """A solution of this value was found (the best so far)."""

    def bound(self, value: float) -> None:
        """The optimum is proven no better than this."""

    def step(self, done: int, total: int | None = None) -> None:
        """Units of work done (samples, SAT calls), out of `total` when known."""

    def begin(self, label: str | None = None, time_limit: float | None = None) -> None:
        """A new solve starts (its values replace the last one's); `label` names it."""


NO_STATUS = Status()


class Listener:
    """Hears every solve's live status, whatever the terminal: the web app's worker
    passes the values on to the page. `opened` and `closed` bracket each
    `live_status` block (nested blocks nest); progress bars report to the innermost."""

    def opened(self, status: LiveStatus) -> None:
        """A solve began; `status` holds its values as they are reported."""

    def closed(self, status: LiveStatus) -> None:
        """That solve ended."""


@contextmanager
def reporting_to(listener: Listener) -> Iterator[None]:
    """Every live status opened in the block reports to `listener` (and draws
    nothing): the way a process that is not a terminal shows its solvers' progress."""
    global _listener, _owner
    outer, outer_owner = _listener, _owner
    root = LiveStatus("", None)
    _listener, _owner = listener, root
    listener.opened(root)
    try:
        yield
    finally:
        listener.closed(root)
        _listener, _owner = outer, outer_owner


def current_status() -> Status:
    """The status line open now (a no-op one when none is)."""
    return _owner if isinstance(_owner, Status) else NO_STATUS


def _number(value: float) -> str:
    return str(round(value)) if abs(value - round(value)) < 1e-9 else f"{value:.4g}"


def _seconds(value: float) -> str:
    return f"{value:.1f} s" if value < 600 else f"{value / 60:.0f} min"


class LiveStatus(Status):
    """The values of a status line and its text; rich redraws it a few times a second
    from another thread, so reporting only stores numbers."""

    active = True

    def __init__(self, label: str, time_limit: float | None, unit: str = "",
                 solves: bool = False, since: float | None = None) -> None:
        self.label = label
        self.unit = unit
        self.solves = solves
        self.start = time.monotonic() if since is None else since
        self.deadline = Deadline.after(time_limit)
        self.stage: str | None = None
        self.best: float | None = None
        self.best_bound: float | None = None
        self.done: int | None = None
        self.total: int | None = None

    def found(self, value: float) -> None:
        self.best = value

    def bound(self, value: float) -> None:
        self.best_bound = value

    def step(self, done: int, total: int | None = None) -> None:
        self.done, self.total = done, total

    def begin(self, label: str | None = None, time_limit: float | None = None) -> None:
        self.stage = label
        self.best = self.best_bound = None
        self.deadline = self.deadline.sooner(time_limit)

    def text(self, now: float | None = None) -> str:
        """e.g. "max · CP-SAT: best 910, bound 912, gap 0.2%, 3.1 s, 56.9 s left"."""
        now = time.monotonic() if now is None else now
        parts = []
        if self.done is not None and self.total is not None:
            parts.append(f"{self.done}/{self.total} {self.unit}".rstrip())
        elif self.done is not None:
            parts.append(f"{self.unit} {self.done}".lstrip())
        if self.best is not None:
            parts.append(f"best {_number(self.best)}")
        if self.best_bound is not None:
            parts.append(f"bound {_number(self.best_bound)}")
        if self.best is not None and self.best_bound is not None:
            # CP-SAT's relative gap: |bound - best| / max(1, |best|)
            gap = abs(self.best_bound - self.best) / max(1.0, abs(self.best))
            parts.append(f"gap {100 * gap:.1f}%")
        elif not parts:
            parts.append("searching")
        parts.append(_seconds(now - self.start))
        left = self.deadline.left(now)
        if left:  # neither unlimited nor passed
            parts.append(f"{_seconds(left)} left")
        label = self.label if self.stage is None else f"{self.label} · {self.stage}"
        return f"{label}: {', '.join(parts)}" if label else ", ".join(parts)


class _Nested(Status):
    """A solve inside a status opened with solves=True: its best and bound go to that
    line; its own counts (SAT calls) do not mix with the line's."""

    active = True

    def __init__(self, outer: LiveStatus) -> None:
        self.outer = outer

    def found(self, value: float) -> None:
        self.outer.best = value

    def bound(self, value: float) -> None:
        self.outer.best_bound = value


def _command_label() -> str:
    """The running command without the program name ("<game> max"), or ""."""
    import click

    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return ""
    _, _, rest = ctx.command_path.partition(" ")
    return rest


@contextmanager
def live_status(label: str, time_limit: float | None = None, *, unit: str = "",
                solves: bool = False, since: float | None = None, show: bool = True,
                console: Console | None = None) -> Iterator[Status]:
    """A transient status line on stderr while the block runs; yields the Status to
    report to (`found`, `bound`, `step`).

    label: what is working ("CP-SAT"); the running command's name goes before it.
    time_limit: seconds this work may take (the line counts them down).
    unit: what `step` counts: "12/40 samples" with a total, "call 7" without one.
    solves: solves run inside report their best and bound to this line, each new solve
    replacing the last one's (a command made of several solves keeps one line).
    since: when the work began (time.monotonic()), if before this block.
    show: False for work that prints its own progress (a solver's log).

    Not on a terminal, with --quiet, outside the main process or thread, or while
    another line is shown, the block gets a Status that ignores reports (and nothing is
    drawn); inside a status with solves=True it reports there.
    """
    global _owner
    console = stderr if console is None else console
    if not show:
        yield NO_STATUS
        return
    if _listener is not None and threading.current_thread() is threading.main_thread():
        # (a solve in another thread, one entrant of a race, reports nothing: the
        # race's own status does)
        with _heard(label, time_limit, unit, solves, since) as status:
            yield status
        return
    if not _can_draw(console):
        outer = _owner
        if isinstance(outer, LiveStatus) and outer.solves:
            outer.begin(label, time_limit)
            yield _Nested(outer)
        else:
            yield NO_STATUS
        return
    from rich.live import Live
    from rich.spinner import Spinner
    from rich.text import Text

    command = _command_label()
    status = LiveStatus(f"{command} · {label}" if command and label else command or label,
                        time_limit, unit, solves, since)
    spinner = Spinner("dots", style="status.spinner")

    def render() -> Any:
        spinner.update(text=Text(status.text()))
        return spinner

    # stdout is never redirected: it may be a pipe while stderr is the terminal
    live = Live(console=console, transient=True, refresh_per_second=8,
                redirect_stdout=False, redirect_stderr=False, get_renderable=render)
    job = _Job(live, status.start + SHOW_AFTER)
    _owner = status
    try:
        if job.show_at <= time.monotonic():  # the work began long enough ago
            live.start()
            job.shown = True
        else:
            _shower.schedule(job)
        yield status
    finally:
        if _shower.cancel(job):
            live.stop()
        _owner = None


@contextmanager
def _heard(label: str, time_limit: float | None, unit: str, solves: bool,
           since: float | None) -> Iterator[Status]:
    """A live status told to the listener (no line drawn): the innermost status the
    progress bars report to while the block runs."""
    global _owner
    assert _listener is not None
    listener = _listener
    status = LiveStatus(label, time_limit, unit, solves, since)
    outer = _owner
    _owner = status
    listener.opened(status)
    try:
        yield status
    finally:
        listener.closed(status)
        _owner = outer


class _Job:
    def __init__(self, live: Any, show_at: float) -> None:
        self.live = live
        self.show_at = show_at
        self.shown = False


class _Shower:
    """Starts a status line once its work has lasted SHOW_AFTER seconds, so quick work
    never touches the terminal. One thread for the whole process (a thread per solve
    would cost more than a small solve)."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.job: _Job | None = None
        self.thread: threading.Thread | None = None

    def schedule(self, job: _Job) -> None:
        with self.cond:
            self.job = job
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="toppi-status",
                                               daemon=True)
                self.thread.start()
            self.cond.notify()

    def cancel(self, job: _Job) -> bool:
        """Forget the job; True when its line was shown (the caller stops it)."""
        with self.cond:
            if self.job is job:
                self.job = None
            return job.shown

    def _run(self) -> None:
        with self.cond:
            while True:
                job = self.job
                if job is None:
                    self.cond.wait()
                    continue
                delay = job.show_at - time.monotonic()
                if delay > 0:
                    self.cond.wait(delay)
                    continue
                job.live.start()
                job.shown = True
                self.job = None


_shower = _Shower()


def _rate_column() -> Any:
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Items finished per second (rich's own speed column counts bytes)."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            if speed is None:
                return Text("-/s", style="progress.data.speed")
            return Text(f"{speed:.3g}/s", style="progress.data.speed")

    return RateColumn()


@contextmanager
def progress_bar(description: str) -> Iterator[Callable[[int, int], None]]:
    """Yields `update(done, total)`; the bar (stderr, removed when done) shows the rate
    of completion and the time left. stdout stays clean for --json. Inside a status
    line the counts go to that line; with --quiet or off a terminal nothing shows."""
    global _owner
    if not _can_draw(stderr):
        status = current_status()
        yield status.step if status.active else _ignore
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    _owner = "bar"
    try:
        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), _rate_column(), TimeElapsedColumn(),
                      TimeRemainingColumn(),
                      console=stderr, transient=True) as bar:
            task = bar.add_task(description, total=None)

            def update(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            yield update
    finally:
        _owner = None


def _ignore(done: int, total: int) -> None:
    pass

