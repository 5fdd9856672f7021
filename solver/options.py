"""Click options shared by every game's commands.

Every game's command-line module imports this one to declare its options, also for
`--help`: what an option's command needs when it runs (the executor, the solvers) is
imported by the command, not here.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from typing import Any

import click

from solver.backends.common import SolverOptions
from solver.errors import BadInput
from solver.progress import set_quiet

#: The difficulties a generated puzzle is rated (solver.generate rates them; its
#: `--difficulty` choices are declared here, where `--help` needs no generator).
DIFFICULTIES = ("easy", "medium", "hard")


_started: float | None = None


def start_clock() -> None:
    """Mark the start of a command (the root group calls it): time limits that bound a
    whole command are counted from here, so imports and model building count too."""
    global _started
    _started = time.monotonic()


def since_start() -> float:
    """Seconds since the command started (0 outside a command)."""
    return 0.0 if _started is None else time.monotonic() - _started


def deadline_in(seconds: float, clock: Callable[[], float] = time.monotonic) -> float:
    """The reading of `clock` at which `seconds`, counted from the command's start, end."""
    return clock() + seconds - since_start()


#: The longest time limit an option accepts (about 11 days): a larger one is a typo.
MAX_SECONDS = 1e6


class FiniteFloatRange(click.FloatRange):
    """A FloatRange that also refuses nan and infinities (they pass every comparison
    of a plain FloatRange: `--time-limit nan` crashed CP-SAT)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number is not None and not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


#: Seeds: what every solver takes (CP-SAT's random seed is a 32-bit integer).
SEED = click.IntRange(-(2**31 - 1), 2**31 - 1)
#: The most games, draws, puzzles or samples one command runs (more is a typo, and a
#: count past 2^63 was an OverflowError deep inside).
MAX_COUNT = 1_000_000


def count_range(minimum: int = 1) -> click.IntRange:
    """The type of a count option: from `minimum` to MAX_COUNT."""
    return click.IntRange(minimum, MAX_COUNT)


def seconds(minimum: float) -> FiniteFloatRange:
    """The type of a time option: finite, from `minimum` to MAX_SECONDS."""
    return FiniteFloatRange(min=minimum, max=MAX_SECONDS)


def _set_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    set_quiet(value)  # every run sets it: one process may run several commands (tests)


#: --quiet: no progress bar or status line on stderr (they show only on a terminal).
#: solver_options includes it; for commands without solver options.
quiet_option = click.option("--quiet", is_flag=True, expose_value=False,
                            callback=_set_quiet,
                            help="No progress bar or live status on stderr.")


def solver_options(default_time: float | None = 60.0) -> Callable[[Callable], Callable]:
    """--time-limit, --seed, --workers, --solver-log and --quiet; the command receives
    `solver`, a SolverOptions."""

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)  # also carries the click params declared below this one
        def wrapper(*args: Any, time_limit: float | None, seed: int, workers: int,
                    solver_log: bool, **kwargs: Any) -> Any:
            until = None if time_limit is None else deadline_in(time_limit)
            kwargs["solver"] = SolverOptions(time_limit, seed, workers, solver_log,
                                             until=until)
            return f(*args, **kwargs)

        for option in (
            quiet_option,
            click.option("--solver-log", is_flag=True,
                         help="Print the solver's own log on stderr."),
            click.option("--workers", type=click.IntRange(1, 64), default=2,
                         show_default=True, help="Parallel solver workers."),
            click.option("--seed", type=SEED, default=0, show_default=True,
                         help="Random seed of the solver (runs are reproducible)."),
            click.option("--time-limit", type=seconds(0.01), default=default_time,
                         show_default=True,
                         help="Seconds before the solver stops with its best answer."),
        ):
            wrapper = option(wrapper)
        return wrapper

    return decorate


json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print one JSON document on stdout instead of pictures.")
svg_option = click.option("--svg", "svg_path", type=click.Path(dir_okay=False),
                          help="Also write a picture of the board to this SVG file.")
open_hands_option = click.option(
    "--open-hands", is_flag=True,
    help="Read everything the file holds (other hands, face-down piles in order): an "
         "all-seeing answer for teaching and research, labelled so. Default: only what the "
         "player on turn may know at the table.")
rules_option = click.option("--rules", "rules_path", type=click.Path(dir_okay=False),
                            help="Rules data file replacing the built-in rules.")


def batch_options(f: Callable) -> Callable:
    """--jobs, --scheduler, --store and --resume; the command receives `batch` (a
    solver.executor.Batch) and `store_path` (str | None) and `resume` (bool)."""

    @functools.wraps(f)
    def wrapper(*args: Any, jobs: int | None, scheduler: str | None, **kwargs: Any) -> Any:
        from solver.executor import Batch, default_jobs

        if kwargs.get("resume") and not kwargs.get("store_path"):
            raise BadInput("--resume needs --store FILE (the run to continue)")
        if scheduler is not None and not scheduler.startswith(("tcp://", "tls://", "inproc://")):
            raise BadInput(f"--scheduler {scheduler}: expected tcp://HOST:PORT")
        kwargs["batch"] = Batch(jobs or default_jobs(), scheduler)
        return f(*args, **kwargs)

    for option in (
        click.option("--resume", is_flag=True,
                     help="Skip the tasks whose results are already in --store."),
        click.option("--store", "store_path", type=click.Path(dir_okay=False),
                     help="SQLite file: every finished task is saved at once."),
        click.option("--scheduler", metavar="tcp://HOST:PORT",
                     help="Run the tasks on this Dask distributed scheduler."),
        click.option("--jobs", type=click.IntRange(min=1), default=None,
                     help="Local worker processes (default: all cores; 1: in-process)."),
    ):
        wrapper = option(wrapper)
    return wrapper
