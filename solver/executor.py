"""One executor layer for batch runs (simulate, max --draws, generate).

A batch is a list of independent tasks: one picklable top-level function and, per task,
its arguments (which include the task's own seed, so a task's result never depends on
where or when it ran). The tasks run

- in this process (`--jobs 1`),
- on a local process pool (`--jobs N`, default: all cores), or
- on a Dask distributed cluster (`--scheduler tcp://HOST:PORT`),

and `Batch.run` yields `(index, result)` as tasks finish; callers order by index, so the
final results are identical whichever executor ran them. Ctrl-C stops the batch: the
tasks that finished have been yielded (and stored, see solver/store.py), the others are
cancelled, and `Batch.interrupted` is set.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from rich.markup import escape

from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput, ToppiError
from solver.render import stderr
from solver.store import Store, canonical_json

if TYPE_CHECKING:
    import concurrent.futures as cf

    from solver.processes import Worker

# concurrent.futures, multiprocessing and distributed are imported where a batch runs:
# every game's command-line module imports this one, and `--help` should stay fast.


def _picklable(*values: Any) -> bool:
    """Whether these can be sent to another process."""
    import pickle

    try:
        pickle.dumps(values)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


class SharedTasks(Sequence[tuple[Any, ...]]):
    """The tasks `(*shared, value)` for every value of `values`, each made when it is
    needed: a caller that may stop early (generate: enough puzzles found) can offer
    millions of attempts without building them."""

    def __init__(self, shared: tuple[Any, ...], values: Sequence[Any]) -> None:
        self.shared = shared
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    @overload
    def __getitem__(self, i: int) -> tuple[Any, ...]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[Any, ...]]: ...

    def __getitem__(self, i: int | slice) -> tuple[Any, ...] | list[tuple[Any, ...]]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return (*self.shared, self.values[i])


# What a worker needs once: the task function, the arguments every task shares (the
# rules...) as a template, and the positions of the arguments that vary. A pool worker
# gets it when it starts, a Dask worker as one scattered object; each chunk of tasks
# then brings only the varying arguments, and every task on a worker sees the same
# shared objects (caches keyed on the rules keep hitting).
Start = tuple[Callable[..., Any], tuple[Any, ...], tuple[int, ...]]
_WORKER: dict[str, Start] = {}


def _start_worker(*start: Any) -> None:
    # a solver.processes.Worker: Ctrl-C ignored (the parent keeps what finished), and a
    # parent killed outright (SIGKILL) takes its workers along
    _WORKER["start"] = start


def _run_varying(tasks: list[tuple[Any, ...]]) -> list[Any]:
    """A pool worker's chunk: `_run_with` the start it was given."""
    return _run_with(_WORKER["start"], tasks)


def _run_with(start: Start, tasks: list[tuple[Any, ...]]) -> list[Any]:
    """Several tasks given by their varying arguments, results in order."""
    fn, template, varying = start
    out = []
    for values in tasks:
        args = list(template)
        for position, value in zip(varying, values, strict=True):
            args[position] = value
        out.append(fn(*args))
    return out


def _split_shared(tasks: Sequence[tuple[Any, ...]]) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """The arguments every task shares (the very same object at a position) as a
    template, and the positions that vary."""
    if isinstance(tasks, SharedTasks):
        return (*tasks.shared, None), (len(tasks.shared),)
    first = tasks[0]
    if any(len(t) != len(first) for t in tasks):
        raise ValueError("the tasks of one batch take the same number of arguments")
    shared = [all(t[j] is first[j] for t in tasks) for j in range(len(first))]
    template = tuple(a if same else None for a, same in zip(first, shared, strict=True))
    return template, tuple(j for j, same in enumerate(shared) if not same)


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class _Executor:
    """How chunks run on a pool or a cluster: `submit(chunk)` gives a future, `wait
    (futures, timeout)` the finished ones (at least one unless the timeout passed),
    `failure(exc)` what a failed chunk means to the user (None: the task's own error,
    raised as it is), and whether chunks already started finish after a Ctrl-C."""

    submit: Callable[[list[tuple[Any, ...]]], cf.Future]
    wait: Callable[[Collection[cf.Future], float | None], set[cf.Future]]
    failure: Callable[[Exception], Exception | None]
    finish_started: bool


@dataclass
class Batch:
    """Where a batch runs: `jobs` local processes (1: in this process) or, when
    `scheduler` is set, the Dask cluster at that address."""

    jobs: int = 1
    scheduler: str | None = None
    description: str = "tasks"
    progress: bool = True
    interrupted: bool = False
    # when the batch stops: tasks running then are abandoned (the pool's workers
    # stopped), so a run with a deadline ends on time
    deadline: Deadline = NO_DEADLINE
    timed_out: bool = field(default=False, init=False)
    _alone_in_worker: bool = field(default=False, init=False)
    done: int = field(default=0, init=False)
    window: int = field(default=0, init=False)
    chunk: int | None = field(default=None, init=False)

    @property
    def where(self) -> str:
        """`in-process`, `local pool (N processes)` or `dask tcp://...`."""
        if self.scheduler:
            return f"dask {self.scheduler}"
        if self.jobs == 1:
            # with a deadline the tasks run in a worker that can be stopped at it
            return "one worker process (a deadline)" if self._alone_in_worker else "in-process"
        return f"local pool ({self.jobs} processes)"

    def run(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
            index: Sequence[int] | None = None, window: int | None = None,
            chunk: int | None = None) -> Iterator[tuple[int, Any]]:
        """Run `fn(*args)` for every `args` in `tasks`; yield `(index, result)` as each
        finishes (`index[i]`, default i). A progress bar with rate and time left runs on
        stderr. On Ctrl-C the rest is cancelled and `interrupted` set; no exception.

        `window`: at most this many tasks submitted and not yet yielded (default: all
        at once), so a caller that may stop early (generate: enough puzzles found) wastes
        little; leaving the loop cancels what is queued. `chunk`: tasks per message to a
        worker (default: chosen from the number of tasks; 1 for long tasks)."""
        self.window = window or len(tasks)
        self.chunk = chunk
        keys = index if index is not None else range(len(tasks))
        total = len(tasks)
        self.done = 0
        self.interrupted = False
        self.timed_out = False
        if total == 0:
            return
        if self.jobs > 1 and not self.scheduler and not _picklable(fn, tasks[0]):
            # e.g. a toy game defined inside a function: a pool could not even send it
            # (and Python 3.11's pool can hang on shutdown after such a failure)
            self.jobs = 1
        if self.progress:
            from solver.progress import progress_bar

            with progress_bar(f"{self.description} ({self.where})") as update:
                update(0, total)
                yield from self._counted(fn, tasks, keys, lambda: update(self.done, total))
        else:
            yield from self._counted(fn, tasks, keys, lambda: None)

    def _counted(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
                 keys: Sequence[int], tick: Callable[[], None]
                 ) -> Iterator[tuple[int, Any]]:
        self._alone_in_worker = False
        if self.jobs == 1 and not self.scheduler and (
                self.deadline == NO_DEADLINE or not _picklable(fn, tasks[0])):
            source = self._in_process(fn, tasks, keys)
        else:
            self._alone_in_worker = self.jobs == 1 and not self.scheduler
            source = self._distributed(fn, tasks, keys)
        try:
            for item in source:
                self.done += 1
                tick()
                yield item
        except KeyboardInterrupt:
            self.interrupted = True
        finally:
            source.close()

    def _in_process(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
                    keys: Sequence[int]) -> Iterator[tuple[int, Any]]:
        # a task cannot be stopped here: the deadline is checked between tasks (with a
        # deadline, picklable tasks run on a pool of one worker instead)
        for key, args in zip(keys, tasks, strict=True):
            if self._past_deadline():
                return
            yield key, fn(*args)

    def _past_deadline(self) -> bool:
        if self.deadline.passed():
            self.timed_out = True
        return self.timed_out

    def _distributed(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
                     keys: Sequence[int]) -> Iterator[tuple[int, Any]]:
        """The tasks in chunks on the pool or the cluster, as they finish."""
        # Short tasks travel in chunks (one message, the shared arguments such as the
        # rules sent once): about 32 chunks per worker (the tail stays balanced), at
        # most 256 tasks each; with a window (a caller that may stop early) or when the
        # caller says its tasks are long (chunk=1), one by one.
        workers = self.jobs if not self.scheduler else 8
        size = (1 if self.window < len(tasks) else self.chunk or
                max(1, min(256, len(tasks) // (32 * workers))))
        # the shared arguments reach each worker once (a pool worker when it starts,
        # with fork not even pickled), so per-process caches keyed on them keep hitting
        template, varying = _split_shared(tasks)
        chunks = ((first, [tuple(tasks[i][j] for j in varying)
                           for i in range(first, min(first + size, len(tasks)))])
                  for first in range(0, len(tasks), size))
        start = (fn, template, varying)
        on = (self._on_dask(start) if self.scheduler
              else self._on_pool(start, -(-len(tasks) // size)))
        with on as executor, contextlib.closing(self._collect(executor, chunks)) as results:
            for first, out in results:
                for j, result in enumerate(out):
                    yield keys[first + j], result

    def _collect(self, executor: _Executor, chunks: Iterator[tuple[int, list[tuple[Any, ...]]]]
                 ) -> Iterator[tuple[int, Any]]:
        """Keep at most `window` chunks submitted; yield (key, result) as each finishes.
        Leaving early (a caller stopping, Ctrl-C, an error) cancels what is queued. With
        `finish_started`, a Ctrl-C still yields the chunks already started (they are
        finished anyway), then the KeyboardInterrupt goes on."""
        pending: dict[cf.Future, int] = {}

        def fill() -> None:
            for key, chunk in chunks:
                pending[executor.submit(chunk)] = key
                if len(pending) >= self.window:
                    return

        try:
            fill()
            while pending:
                finished = executor.wait(pending, self.deadline.left())
                if not finished and self._past_deadline():
                    return
                for future in finished:
                    key = pending.pop(future)
                    try:
                        result = future.result()
                    except Exception as exc:
                        said = executor.failure(exc)
                        if said is None:
                            raise
                        raise said from exc
                    fill()
                    yield key, result
        except KeyboardInterrupt:
            if not executor.finish_started:
                raise
            for future in pending:
                future.cancel()
            started = {future for future in pending if not future.cancelled()}
            while started:
                for future in executor.wait(started, None):
                    started.discard(future)
                    if future.exception() is None:
                        yield pending[future], future.result()
            raise
        finally:
            for future in pending:
                future.cancel()

    @contextlib.contextmanager
    def _on_pool(self, start: Start, chunks: int) -> Iterator[_Executor]:
        from solver.processes import WorkerDied

        pool = _LocalPool(max(1, min(self.jobs, chunks)), start,
                          open_ended=self.window < chunks)

        def failure(exc: Exception) -> Exception | None:
            if isinstance(exc, WorkerDied):
                return ToppiError("a worker process died (out of memory or killed?); "
                                  "finished tasks are kept with --store, run again "
                                  "with --resume, or use --jobs 1")
            return None  # the task's own error, as raised

        try:
            # the workers ignore Ctrl-C: what they started is finished and kept (stored)
            yield _Executor(pool.submit, pool.wait, failure, True)
        finally:
            pool.close()  # what still runs (a deadline, an early exit) is killed

    @contextlib.contextmanager
    def _on_dask(self, start: Start) -> Iterator[_Executor]:
        import concurrent.futures as cf
        import socket

        from distributed import Client

        host, _, port = self.scheduler.split("://", 1)[1].rpartition(":")
        try:  # a quick look first: a wrong address fails at once, not after the timeout
            socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
        except (OSError, ValueError) as exc:
            raise BadInput(f"--scheduler {self.scheduler}: cannot connect "
                           f"({getattr(exc, 'strerror', None) or exc})") from None
        try:
            client = Client(self.scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise BadInput(f"--scheduler {self.scheduler}: cannot connect ({exc})") from None

        def failure(exc: Exception) -> Exception | None:
            if isinstance(exc, ToppiError):
                return None
            # Typically the workers' environment lacks toppi (or a model) at the
            # client's version: one line, not a traceback from afar.
            line = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            return BadInput(f"--scheduler {self.scheduler}: a task failed on the cluster "
                            f"({type(exc).__name__}: {line}); the scheduler and workers "
                            "need toppi installed (see docs/batch.md)")

        try:
            # pure=False: every task runs even when two have equal arguments
            executor = client.get_executor(pure=False)
            # one copy of the start on every worker (in a list: scatter splits tuples)
            shared = client.scatter([start], broadcast=True)[0]
            # on Ctrl-C the cluster cancels everything at once
            yield _Executor(lambda chunk: executor.submit(_run_with, shared, chunk),
                            lambda futures, timeout: cf.wait(
                                futures, timeout, return_when=cf.FIRST_COMPLETED)[0],
                            failure, False)
        finally:
            client.close()


class _LocalPool:
    """Worker processes (solver.processes) that run chunks: each worker gets the batch's
    start once (under fork inherited, not even pickled); chunks wait here and each worker
    has one sent ahead, so that it finds its next chunk in its pipe and never waits for
    this process (which a busy machine may not schedule at once). At the end of a batch
    (fewer chunks waiting than workers) nothing is sent ahead: a chunk held behind a long
    one would keep a free worker idle. `open_ended`: the caller keeps adding chunks
    (a window) and may stop at any time: no such end. Futures are resolved by `wait`, in
    this thread."""

    def __init__(self, size: int, start: Start, open_ended: bool) -> None:
        from collections import deque

        from solver.processes import Worker

        # fork (Linux): workers start with the parent's modules already imported (OR-Tools
        # takes about a second to import, a tenth of a 5000-game run). The parent's other
        # threads (rich's refresh, no solver runs at that moment) hold nothing a task
        # needs. Elsewhere: spawn.
        self.workers = [Worker(initializer=_start_worker, initargs=start,
                               name="toppi-batch") for _ in range(size)]
        self.open_ended = open_ended
        self.queue: deque[tuple[cf.Future, list[tuple[Any, ...]]]] = deque()
        self.sent: dict[Worker, deque[cf.Future]] = {w: deque() for w in self.workers}
        self.resolved: list[cf.Future] = []  # not yet returned by `wait`

    def submit(self, chunk: list[tuple[Any, ...]]) -> cf.Future:
        import concurrent.futures as cf

        future: cf.Future = cf.Future()
        self.queue.append((future, chunk))
        self._send()
        return future

    def _send(self) -> None:
        from solver.processes import WorkerDied

        if not self.workers:  # every worker died: nothing waiting can run
            while self.queue:
                future, _ = self.queue.popleft()
                if future.set_running_or_notify_cancel():
                    future.set_exception(WorkerDied(None))
                    self.resolved.append(future)
            return
        while self.queue:
            worker = min(self.workers, key=lambda w: len(self.sent[w]))
            ahead = self.open_ended or len(self.queue) >= len(self.workers)
            if len(self.sent[worker]) >= (2 if ahead else 1) or not worker.alive:
                return
            future, chunk = self.queue.popleft()
            if future.set_running_or_notify_cancel():  # else cancelled while it waited
                worker.call(_run_varying, chunk)
                self.sent[worker].append(future)

    def wait(self, futures: Collection[cf.Future], timeout: float | None
             ) -> set[cf.Future]:
        """The futures among `futures` resolved since they were last returned, after
        reading what the workers finished (waiting up to `timeout` for the first outcome
        when none is)."""
        from solver.processes import WorkerDied, wait

        busy = [w for w in self.workers if self.sent[w]]
        for worker in wait(busy, 0 if self.resolved or not busy else timeout):
            try:
                outcome = worker.outcome()
            except WorkerDied as exc:  # its chunks are lost: each fails with it
                for future in self.sent.pop(worker):
                    future.set_exception(exc)
                    self.resolved.append(future)
                self.workers.remove(worker)
                continue
            future = self.sent[worker].popleft()
            error = outcome.exception()
            if error is None:
                future.set_result(outcome.value)
            else:
                future.set_exception(error)
            self.resolved.append(future)
        self._send()
        out = {f for f in self.resolved if f in futures}
        self.resolved = [f for f in self.resolved if f not in out]
        return out

    def close(self) -> None:
        """Idle workers end on their own; busy ones are killed (nobody waits for them)."""
        from solver.processes import kill_all

        kill_all(w for w in self.workers if self.sent[w])
        for worker in self.workers:
            worker.close()


@dataclass(frozen=True)
class SeededTask:
    """One task of a stored run: the run's `parameters` (what makes two runs the same
    run, JSON), the task's own `seed` (its row key within the run) and the arguments of
    the task function."""

    parameters: dict[str, Any]
    seed: int
    args: tuple[Any, ...]


def run_stored(batch: Batch, fn: Callable[..., Any], tasks: Sequence[SeededTask],
               kind: str, store: Store | None = None, resume: bool = False,
               to_row: Callable[[Any], tuple[Any, Any]] = lambda r: (r, None),
               from_row: Callable[[Any, int], Any] = lambda data, i: data,
               chunk: int | None = None, noun: str = "task") -> dict[int, Any]:
    """Run `fn(*task.args)` for every task on `batch` and return the results by task
    index (those that finished: a Ctrl-C sets `batch.interrupted`).

    With `store`, each result is saved in table `kind` as soon as it arrives (before
    the caller sees it: a result reported is a result kept), as `to_row(result)` =
    (result JSON, rating JSON). With `resume`, tasks whose (parameters, seed) row exists
    are not run; their results are `from_row(stored JSON, task index)`."""
    results: dict[int, Any] = {}
    if store is not None and resume:
        stored: dict[str, dict[int, Any]] = {}
        for i, task in enumerate(tasks):
            key = canonical_json(task.parameters)
            if key not in stored:
                stored[key] = store.done(kind, task.parameters)
            if task.seed in stored[key]:
                try:
                    results[i] = from_row(stored[key][task.seed], i)
                except (KeyError, TypeError, ValueError):  # not what this kind stores
                    store.skipped.append(f"--store {store.path}: {kind} row of seed "
                                         f"{task.seed} skipped: not a {noun} result")
        note = store.skipped_note()
        if note is not None:
            stderr.print(f"[yellow]{escape(note)}; computed again.[/yellow]", soft_wrap=True)
    todo = [i for i in range(len(tasks)) if i not in results]
    try:
        for i, result in batch.run(fn, [tasks[i].args for i in todo], todo, chunk=chunk):
            if store is not None:
                row, rating = to_row(result)
                store.put(kind, tasks[i].parameters, tasks[i].seed, row, rating)
            results[i] = result
    except KeyboardInterrupt:
        batch.interrupted = True
    if not results:
        raise BadInput(f"interrupted before any {noun} finished")
    return results


def interrupted_note(interrupted: bool, done: int, total: int, store_path: str | None,
                     noun: str = "tasks") -> None:
    """After an interrupted run (its partial result already printed): say on stderr
    what was kept and exit 130; nothing when the run was complete."""
    if not interrupted:
        return
    stderr.print(f"[yellow]{interruption(done, total, store_path, noun)}[/yellow]")
    raise SystemExit(130)


def interruption(done: int, total: int, store_path: str | None, noun: str = "tasks"
                 ) -> str:
    """What an interrupted batch run says it kept."""
    where = (f"saved in {store_path}; run again with --resume to finish" if store_path
             else "not saved (use --store FILE to keep and --resume runs)")
    return f"Interrupted: {done} of {total} {noun} finished, {where}."
