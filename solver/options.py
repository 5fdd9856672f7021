"""Click options shared by every game's commands."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from solver.backends.common import SolverOptions
from solver.progress import set_quiet


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
            kwargs["solver"] = SolverOptions(time_limit, seed, workers, solver_log)
            return f(*args, **kwargs)

        for option in (
            quiet_option,
            click.option("--solver-log", is_flag=True,
                         help="Print the solver's own log on stderr."),
            click.option("--workers", type=click.IntRange(1, 64), default=2,
                         show_default=True, help="Parallel solver workers."),
            click.option("--seed", type=int, default=0, show_default=True,
                         help="Random seed of the solver (runs are reproducible)."),
            click.option("--time-limit", type=click.FloatRange(min=0.01), default=default_time,
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
rules_option = click.option("--rules", "rules_path", type=click.Path(dir_okay=False),
                            help="Rules data file replacing the built-in rules.")
