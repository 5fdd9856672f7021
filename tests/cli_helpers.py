"""What every game's command-line tests need: run a game's command, read its JSON,
and check that bad input gives one line and exit code 2; and what keeps a test's
verdict off the clock: a deadline that passes on an event, a busy machine to compare
answers on."""

from __future__ import annotations

import json
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from click.testing import CliRunner, Result

from solver.cli import cli
from solver.deadline import Deadline


def game_runner(game: str) -> Callable[..., Result]:
    """run(*args) invokes `toppi <game> *args` in-process (no traceback is hidden:
    exceptions stay on the result)."""
    def run(*args: str) -> Result:
        return CliRunner().invoke(cli, [game, *args] if game else list(args))
    return run


def run_json(run: Callable[..., Result], *args: str) -> Any:
    """The single JSON document printed by `--json` (exit code 0 asserted)."""
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def assert_one_line_error(result: Result, *words: str) -> None:
    """Exit code 2, one line of output naming the problem, never a traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    for w in words:
        assert w in lines[0], lines[0]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def on_three_executors(simulate: Callable[..., dict], cluster: str
                       ) -> tuple[dict, dict, dict]:
    """`simulate(*extra)` (a command's JSON) run on the Dask cluster, on a local pool of
    two and in-process, each checked to say where it ran: (dask, pool, in-process)."""
    on_dask = simulate("--scheduler", cluster)
    pooled = simulate("--jobs", "2")
    alone = simulate("--jobs", "1")
    assert on_dask["executor"] == f"dask {cluster}"
    assert pooled["executor"] == "local pool (2 processes)"
    assert alone["executor"] == "in-process"
    return on_dask, pooled, alone


def interrupt_after(monkeypatch: Any, module: Any, k: int, name: str = "play_one"
                    ) -> list[tuple]:
    """Make `module.<name>` (a batch task function) raise KeyboardInterrupt, as a Ctrl-C
    would, when called after `k` calls (for in-process runs, --jobs 1). Returns the
    arguments of the calls that ran; clear it to allow `k` more."""
    real = getattr(module, name)
    calls: list[tuple] = []

    def task(*args: Any) -> Any:
        if len(calls) == k:  # (k < 0: never)
            raise KeyboardInterrupt
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(module, name, task)
    return calls


def assert_batch_options_checked(run: Callable[..., Result], *args: str) -> None:
    """`--resume` without `--store`, a `--scheduler` that is not tcp://HOST:PORT, and one
    nobody listens on: one line each, exit 2 (`args`: a small valid run)."""
    assert_one_line_error(run(*args, "--resume"), "--store")
    assert_one_line_error(run(*args, "--scheduler", "localhost:1"), "tcp://")
    assert_one_line_error(run(*args, "--scheduler", f"tcp://127.0.0.1:{free_port()}"),
                          "--scheduler", "cannot connect")


def ctrl_c_as_at_a_terminal() -> None:
    """A job started in the background of a script ignores SIGINT, and its children
    inherit that; the test's process gets Ctrl-C's default as at a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def load_script(name: str) -> Any:
    """The module of `scripts/<name>.py` (scripts/ is not a package: loaded by path,
    registered in sys.modules so its dataclasses work)."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"toppi_script_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def without_times(value: Any) -> Any:
    """A document without its timing fields (they differ from run to run)."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


@contextmanager
def busy(processes: int = 1) -> Iterator[None]:
    """The block runs beside `processes` CPU-bound processes (a loaded machine)."""
    import subprocess
    import sys

    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(processes)]
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
            p.wait()


def same_answer_when_busy(run: Callable[..., Result], *args: str) -> Any:
    """The JSON answer of `run(*args, "--json")`, asked twice, once beside a CPU-bound
    process: the two must be equal (timings left out); returns it."""
    first = run_json(run, *args)
    with busy():
        second = run_json(run, *args)
    assert without_times(first) == without_times(second), args
    return first


@dataclass(frozen=True)
class EventDeadline(Deadline):
    """A deadline that passes when the test sets `event`, not on the clock: what work
    does at its deadline, tested at a chosen point of the work whatever the machine's
    load (no time left before then: waits block until the work reports)."""

    event: threading.Event = field(default_factory=threading.Event, compare=False)

    def left(self, now: float | None = None) -> float | None:
        return 0.0 if self.event.is_set() else None

    def passed(self) -> bool:
        return self.event.is_set()
