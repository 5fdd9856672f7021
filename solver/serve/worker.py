"""A verb run for the web app: a request's typed values in, the answer's JSON document
(or the one error line the command line would print) out.

`answer_request` runs the verb's function, as the command line does, on the position
text of the request (named `position.json` in messages, as the CLI names a file in its
own directory). It runs on a thread of the server for the quick verbs (no solver) and
in a worker process of the pool for the others (solver/serve/jobs.py), where the
solvers' progress reaches the page through `solver.progress.reporting_to` and a shared
buffer (`ProgressBuffer`).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from solver.progress import Listener, LiveStatus

POSITION = "position.json"


@dataclass(frozen=True)
class VerbRequest:
    """One question: the game, the verb, the position's text (None for a verb that
    reads no file) and the verb's parameters by name, already typed."""

    game: str
    verb: str
    text: str | None
    values: dict[str, Any] = field(default_factory=dict)
    file: str = POSITION


@dataclass
class Outcome:
    """What a verb answered: the exit code the CLI would give, the JSON document (exit
    0) or the CLI's error line."""

    exit_code: int
    document: Any = None
    error: str | None = None


def answer_request(request: VerbRequest) -> Outcome:
    """Run the verb; every error becomes the CLI's one line with its exit code."""
    from solver.deadline import start_clock
    from solver.errors import ToppiError
    from solver.registry import entry
    from solver.results import to_jsonable
    from solver.verbs import answer, defaults, layer_params, make_call

    start_clock()  # time limits count from here, as from a command's start
    try:
        game = entry(request.game)
        verb = game.verb(request.verb)
        values = {**defaults([*verb.params, *layer_params(game, verb)]), **request.values}
        # a verb whose FILE may be left out (`max`): an empty body (or `{}`) leaves it out
        given = not (verb.reads == "position?"
                     and "".join((request.text or "").split()) in ("", "{}"))
        if verb.reads not in ("nothing", "puzzles") and given:
            values[verb.file_name] = request.file
        call = make_call(game, verb, values)
        call.text = request.text if given else None
        return Outcome(0, to_jsonable(answer(call, values)))
    except ToppiError as exc:
        return Outcome(exc.exit_code, error=f"toppi: error: {_one_line(str(exc))}")
    except Exception as exc:  # a bug: one line for the page, the trace in the log
        traceback.print_exc(file=sys.stderr)
        return Outcome(1, error=f"toppi: error: internal error: {type(exc).__name__}: {exc}")


def _one_line(message: str) -> str:
    return "; ".join(part.strip() for part in message.splitlines() if part.strip())


def warm(progress: Any = None, extra: tuple[Any, ...] = ()) -> None:
    """A pool worker's start: quiet, the games registered in the server registered here
    too (`extra`), every game's verbs declared (their modules imported once, before any
    job's clock runs), and the progress buffer installed."""
    os.environ["TOPPI_QUIET"] = "1"
    from solver import cli
    from solver.registry import register, web_games

    cli.unshadow_models()
    for entry in extra:
        register(entry)
    for game in web_games().values():
        game.verbs()
    if progress is not None:
        REPORT.buffer = progress
        threading.Thread(target=REPORT.loop, name="toppi-progress", daemon=True).start()


def run_job(request: VerbRequest) -> Outcome:
    """`answer_request` in a pool worker, its solvers' progress written to the slot's
    buffer while it runs."""
    from solver.progress import reporting_to

    with REPORT.running(), reporting_to(REPORT):
        return answer_request(request)


# ---------------------------------------------------------------- live progress

#: Bytes of a slot's progress buffer (a JSON document, NUL-terminated).
PROGRESS_BYTES = 4096
PROGRESS_EVERY = 0.2  # seconds between two writes of the buffer


class ProgressBuffer(Listener):
    """The solvers' live statuses (solver/progress.py) of the job running in this
    worker, written as JSON to the slot's shared buffer a few times a second for the
    server to read: the innermost values reported and one line per open solve, as the
    CLI's status line says them."""

    def __init__(self) -> None:
        self.buffer: Any = None
        self.stack: list[LiveStatus] = []
        self.active = False

    def opened(self, status: LiveStatus) -> None:
        self.stack.append(status)

    def closed(self, status: LiveStatus) -> None:
        if status in self.stack:
            self.stack.remove(status)

    def running(self) -> Any:
        from contextlib import contextmanager

        @contextmanager
        def block() -> Any:
            self.stack.clear()
            self.active = True
            self.write()
            try:
                yield
            finally:
                self.write()  # the last values, read by the server once the job ended
                self.active = False
                self.stack.clear()
        return block()

    def snapshot(self) -> dict[str, Any] | None:
        """The solver's progress now, or None before any report."""
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
            if "stage" not in out and (status.stage or status.label):
                out["stage"] = status.stage or status.label
        if not lines and not out:
            return None
        return {"text": " › ".join(lines), **out}

    def write(self) -> None:
        if self.buffer is None:
            return
        data = self.snapshot() if self.active else None
        text = json.dumps(data, separators=(",", ":")).encode()
        if len(text) >= PROGRESS_BYTES:  # never a torn document: drop the lines
            short = {k: v for k, v in (data or {}).items() if k != "text"}
            text = json.dumps(short, separators=(",", ":")).encode()[:PROGRESS_BYTES - 1]
        self.buffer.value = text

    def loop(self) -> None:
        while True:
            time.sleep(PROGRESS_EVERY)
            if self.active:
                try:
                    self.write()
                except Exception:  # a report must never end the worker
                    pass


REPORT = ProgressBuffer()


def read_progress(buffer: Any) -> dict[str, Any] | None:
    """The progress a worker wrote to `buffer` (None when there is none or a write was
    being made at that moment)."""
    try:
        data = json.loads(bytes(buffer.value).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None
