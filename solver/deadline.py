"""One clock for every time limit: `time.monotonic`, from the command's start.

`--time-limit` bounds a whole command, counted from its start (the root command group,
or the web app's worker for a job, calls `start_clock`), so reading, imports and model
building are inside it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

_started: float | None = None


def start_clock() -> None:
    """Mark the start of a command: time limits that bound a whole command are counted
    from here."""
    global _started
    _started = time.monotonic()


def since_start() -> float:
    """Seconds since the command started (0 outside a command)."""
    return 0.0 if _started is None else time.monotonic() - _started


def deadline_in(seconds: float, clock: Callable[[], float] = time.monotonic) -> float:
    """The reading of `clock` at which `seconds`, counted from the command's start, end."""
    return clock() + seconds - since_start()
