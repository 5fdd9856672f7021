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
import os
import sys
import tempfile
import threading
import traceback
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


def warm(games: tuple[str, ...] = ()) -> None:
    """Import the command line and the games' modules (a pool worker's initializer)."""
    os.environ["TOPPI_QUIET"] = "1"
    from solver import cli

    cli._unshadow_models()
    for game in games:
        cli.cli.get_command(None, game)  # type: ignore[arg-type]


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
