"""Running a `toppi` command in process, as the CLI would, for the web app.

`run_cli(argv, files)` writes the request's JSON documents to files in a new temporary
directory, runs the click command line on them (`solver.cli.cli`) and returns what the
CLI prints: the `--json` document on stdout, or the one error line and the exit code.
Messages name the files by their bare names (`position.json`), as the CLI does when run
in the directory of the file. It runs in a pool worker (solver/serve/jobs.py) or, for
the quick commands (show, moves), on a thread of the server: stdout is captured per
thread, so several threads can run commands at once.
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_LOCAL = threading.local()


class _ThreadStdout(io.TextIOBase):
    """sys.stdout for every thread: a thread running a command writes to its own
    buffer, the others to the real stream."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def write(self, text: str) -> int:
        buffer = getattr(_LOCAL, "buffer", None)
        return (buffer or self.real).write(text)

    def flush(self) -> None:
        buffer = getattr(_LOCAL, "buffer", None)
        (buffer or self.real).flush()

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def fileno(self) -> int:
        return self.real.fileno()


_INSTALL = threading.Lock()


def _capture_stdout() -> None:
    with _INSTALL:
        if not isinstance(sys.stdout, _ThreadStdout):
            sys.stdout = _ThreadStdout(sys.stdout)


@dataclass
class CliOutcome:
    """What a command printed: its exit code, stdout and the error line (if any)."""

    exit_code: int
    stdout: str
    error: str | None = None
    files: dict[str, str] = field(default_factory=dict)  # files read back


def warm(games: tuple[str, ...] = (), progress: Any = None) -> None:
    """Import the command line and the games' modules (a pool worker's initializer);
    with `progress` (the slot's shared byte buffer) a job's solver progress is
    written there (see `run_job`)."""
    os.environ["TOPPI_QUIET"] = "1"
    if progress is not None:
        _REPORT.install(progress)
    from solver import cli

    cli._unshadow_models()
    for game in games:
        cli.cli.get_command(None, game)  # type: ignore[arg-type]


# ---------------------------------------------------------------- live progress

#: Bytes of a slot's progress buffer (a JSON document, NUL-terminated).
PROGRESS_BYTES = 4096
PROGRESS_EVERY = 0.2  # seconds between two writes of the buffer


class _Reporter:
    """The solvers' live status (solver/progress.py) of the job running in this worker,
    written as JSON to the slot's shared buffer for the server to read.

    The CLI draws a status line only on a terminal, and a pool worker never draws. In a
    worker with a buffer, `live_status` is replaced by `reported`: every solve opens a
    `LiveStatus` (the CLI's own: best, bound, counts, stage, time left) that is put on
    a stack and made the current one (so that progress bars report their counts to it),
    and a thread copies the stack's values to the buffer a few times a second. The
    solvers themselves are unchanged: they report to whatever `live_status` yields.
    """

    def __init__(self) -> None:
        self.buffer: Any = None
        self.stack: list[Any] = []
        self.running = False
        self.started = 0.0

    def install(self, buffer: Any) -> None:
        from solver import progress

        self.buffer = buffer
        original = progress.live_status
        progress.live_status = self.reported  # type: ignore[assignment]
        # modules imported before this one hold the original by name (none should:
        # this runs first in a fresh worker); those imported later get `reported`
        for module in list(sys.modules.values()):
            if getattr(module, "live_status", None) is original:
                module.live_status = self.reported
        threading.Thread(target=self._loop, name="toppi-progress", daemon=True).start()

    @contextmanager
    def reported(self, label: str, time_limit: float | None = None, *, unit: str = "",
                 solves: bool = False, since: float | None = None, show: bool = True,
                 console: Any = None) -> Iterator[Any]:
        from solver import progress

        status = progress.LiveStatus(label, time_limit, unit, solves, since)
        outer = progress._owner
        self.stack.append(status)
        progress._owner = status  # progress bars and current_status() report here
        try:
            yield status
        finally:
            if status in self.stack:
                self.stack.remove(status)
            progress._owner = outer

    @contextmanager
    def job(self) -> Iterator[None]:
        """A job runs: a root status for its progress bars, the buffer cleared."""
        from solver import progress

        root = progress.LiveStatus("", None)
        self.stack[:] = [root]
        progress._owner = root
        self.started, self.running = time.perf_counter(), True
        self.write()
        try:
            yield
        finally:
            self.write()  # the last values, read by the server once the job ended
            self.running = False
            self.stack.clear()
            progress._owner = None

    def snapshot(self) -> dict[str, Any] | None:
        """The solver's progress now: the innermost values reported and a line per
        open solve (as the CLI's status line says it), or None before any report."""
        stack = list(self.stack)
        lines, out = [], {}
        for status in stack:
            said = (status.best is not None or status.best_bound is not None
                    or status.done is not None or status.label or status.stage)
            if said:
                lines.append(status.text())
        for status in reversed(stack):  # the innermost value of each kind
            for key, value in (("best", status.best), ("bound", status.best_bound),
                               ("done", status.done), ("total", status.total)):
                if value is not None and key not in out:
                    out[key] = value
                    if key == "done" and status.unit:
                        out["unit"] = status.unit
            if status.stage and "stage" not in out:
                out["stage"] = status.stage
            elif status.label and "stage" not in out:
                out["stage"] = status.label
        if not lines and not out:
            return None
        return {"text": " › ".join(lines), **out}

    def write(self) -> None:
        if self.buffer is None:
            return
        data = self.snapshot() if self.running else None
        text = json.dumps(data, separators=(",", ":")).encode()
        if len(text) >= PROGRESS_BYTES:  # never a torn document: drop the lines
            short = {k: v for k, v in (data or {}).items() if k != "text"}
            text = json.dumps(short, separators=(",", ":")).encode()[:PROGRESS_BYTES - 1]
        self.buffer.value = text

    def _loop(self) -> None:
        while True:
            time.sleep(PROGRESS_EVERY)
            if self.running:
                try:
                    self.write()
                except Exception:  # a report must never end the worker
                    pass


_REPORT = _Reporter()


def run_job(argv: list[str], files: dict[str, str]) -> CliOutcome:
    """`run_cli` in a pool worker, its solvers' progress written to the slot's buffer."""
    with _REPORT.job():
        return run_cli(argv, files)


def read_progress(buffer: Any) -> dict[str, Any] | None:
    """The progress a worker wrote to `buffer` (None when there is none or a write was
    being made at that moment)."""
    try:
        data = json.loads(bytes(buffer.value).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def run_cli(argv: list[str], files: dict[str, str], read_back: tuple[str, ...] = ()
            ) -> CliOutcome:
    """Run `toppi ARGV` with `files` (name -> text) written to a temporary directory;
    an argument equal to a file's name (or to one of `read_back`, the files the command
    writes and that are returned) stands for that file."""
    import click

    from solver import cli
    from solver.errors import ToppiError

    os.environ["TOPPI_QUIET"] = "1"
    _capture_stdout()
    with tempfile.TemporaryDirectory(prefix="toppi-serve-") as tmp:
        for name, text in files.items():
            Path(tmp, name).write_text(text, encoding="utf-8")
        args = [os.path.join(tmp, a) if a in files or a in read_back else a for a in argv]
        buffer = io.StringIO()
        _LOCAL.buffer = buffer
        code, error = 0, None
        try:
            result = cli.cli.main(args=args, prog_name="toppi", standalone_mode=False)
            code = result if isinstance(result, int) else 0
        except click.exceptions.Exit as exc:
            code = exc.exit_code
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except click.UsageError as exc:  # cli.OneLineUsage: the CLI's usage line
            where = (f"'{exc.ctx.command_path} --help'" if exc.ctx is not None
                     else "--help")
            code, error = exc.exit_code, f"toppi: error: {exc.format_message()} (see {where})"
        except click.ClickException as exc:  # cli.ToppiFailure
            code, error = exc.exit_code, f"toppi: error: {exc.format_message()}"
        except ToppiError as exc:
            code, error = exc.exit_code, f"toppi: error: {exc}"
        except click.Abort:
            code, error = 1, "toppi: error: aborted"
        except Exception as exc:  # a bug: one line for the page, the trace in the log
            traceback.print_exc(file=sys.stderr)
            code, error = 1, f"toppi: error: internal error: {type(exc).__name__}: {exc}"
        finally:
            _LOCAL.buffer = None
        out = buffer.getvalue().replace(tmp + os.sep, "")
        if error is not None:
            error = error.replace(tmp + os.sep, "").replace(tmp, ".")
        back = {name: Path(tmp, name).read_text(encoding="utf-8") for name in read_back
                if Path(tmp, name).is_file()}
        return CliOutcome(code, out, error, back)
