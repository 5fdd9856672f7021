"""One clock for every time limit: `time.monotonic`, from the command's start.

`--time-limit` bounds a whole command, counted from its start (the root command group,
or the web app's worker for a job, calls `start_clock`), so reading, imports and model
building are inside it. A `Deadline` is the moment work must end, on that one clock;
it is passed down as `deadline: Deadline` (`NO_DEADLINE` when nothing limits the work).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

_started: float | None = None


def start_clock() -> None:
    """Mark the start of a command: time limits that bound a whole command are counted
    from here."""
    global _started
    _started = time.monotonic()


def since_start() -> float:
    """Seconds since the command started (0 outside a command)."""
    return 0.0 if _started is None else time.monotonic() - _started


@dataclass(frozen=True)
class Deadline:
    """The moment by which work must end: `at` is a `time.monotonic()` reading, None
    for no deadline (`NO_DEADLINE`). Immutable, so one value can be handed to every
    solve of a command."""

    at: float | None = None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """`seconds` from now; None: no deadline."""
        return NO_DEADLINE if seconds is None else cls(time.monotonic() + seconds)

    @classmethod
    def from_start(cls, seconds: float | None) -> Deadline:
        """`seconds` counted from the command's start (`start_clock`; from now outside a
        command); None: no deadline."""
        return cls.after(None if seconds is None else seconds - since_start())

    def left(self, now: float | None = None) -> float | None:
        """Seconds left (0 once passed), None without a deadline. `now`: the
        `time.monotonic()` reading to count from (default: the present)."""
        if self.at is None:
            return None
        return max(0.0, self.at - (time.monotonic() if now is None else now))

    def passed(self) -> bool:
        """Whether the deadline has come (never without one)."""
        return self.at is not None and time.monotonic() >= self.at

    def min(self, other: Deadline) -> Deadline:
        """The earlier of the two deadlines."""
        if other.at is None or (self.at is not None and self.at <= other.at):
            return self
        return other

    def sooner(self, seconds: float | None) -> Deadline:
        """The earlier of this deadline and `seconds` from now (None: this one)."""
        return self.min(Deadline.after(seconds))


#: no deadline: the work is not limited in time
NO_DEADLINE = Deadline()
