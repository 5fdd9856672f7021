"""A progress bar on stderr for long runs (simulations, benchmarks, generators)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from solver.render import stderr


class RateColumn(ProgressColumn):
    """Items finished per second (rich's own speed column counts bytes)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("-/s", style="progress.data.speed")
        return Text(f"{speed:.3g}/s", style="progress.data.speed")


@contextmanager
def progress_bar(description: str) -> Iterator[Callable[[int, int], None]]:
    """Yields `update(done, total)`; the bar (stderr, removed when done) shows the rate
    of completion and the time left. stdout stays clean for --json."""
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), RateColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(),
                  console=stderr, transient=True) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
