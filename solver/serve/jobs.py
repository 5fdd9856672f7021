"""Solves off the request thread: a bounded pool of worker processes, jobs with a time
limit, progress by polling, and cancellation.

The pool is `size` slots, each one worker process (solver/processes.py), so that a job
cut off at its time limit or cancelled kills only its own process; the slot starts a
fresh process for the next job. Workers import the games' verbs once (`worker.warm`)
and run a job's verb with its typed values (`worker.run_job`).
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Any

from solver.processes import Worker, WorkerDied
from solver.registry import registered
from solver.serve import worker

#: Seconds a command may take past its own --time-limit before its process is killed
#: (a few commands stop 1-1.6 s after their limit).
GRACE = 3.0
MAX_JOBS_KEPT = 200


class Slot:
    """One worker process that can be killed, and its progress buffer."""

    def __init__(self) -> None:
        # the running job's solver progress, written by the worker (worker.REPORT);
        # no lock: a killed worker could hold it forever, a torn read is just skipped
        self.progress = multiprocessing.get_context("spawn").RawArray(
            "c", worker.PROGRESS_BYTES)
        self.start()

    def start(self) -> None:
        self.progress.value = b""
        # spawn: a fresh interpreter, not a copy of the server's threads and sockets
        self.worker = Worker(initializer=worker.warm,
                             initargs=(self.progress, registered()), method="spawn",
                             name="toppi-serve")
        # warm it now (imports); a job's clock starts once it is warm
        self.worker.call(int, 0)
        self.warming = True

    async def ready(self) -> None:
        """Wait until the worker has imported the games (a new one is started if it
        died on the way)."""
        if self.warming:
            try:
                (await self.worker.outcome_async()).get()
            except WorkerDied:
                self.kill()
                await self.ready()
                return
            self.warming = False

    def kill(self) -> None:
        """End the process (and with it the job it runs) and start a fresh one."""
        self.worker.kill()
        self.start()

    def shutdown(self) -> None:
        self.worker.kill()


@dataclass
class Job:
    """A command run in the pool; `status`: queued, running, done, error, timeout,
    cancelled."""

    id: str
    request: worker.VerbRequest
    command: str  # the question as the command line asks it (what the page shows)
    limit: float  # seconds before the process is killed
    time_limit: float  # the command's own limit (what the page shows)
    status: str = "queued"
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    ended: float | None = None
    outcome: worker.Outcome | None = None
    message: str | None = None
    task: asyncio.Task | None = None
    slot: Slot | None = None  # while running
    live: dict[str, Any] | None = None  # the solver's last progress report

    def view(self) -> dict[str, Any]:
        """The job as the API shows it (GET /api/jobs/ID)."""
        now = self.ended or time.monotonic()
        elapsed = 0.0 if self.started is None else now - self.started
        if self.slot is not None and self.status == "running":
            self.live = worker.read_progress(self.slot.progress) or self.live
        out: dict[str, Any] = {
            "job": self.id, "status": self.status, "command": self.command,
            "elapsed": round(elapsed, 3), "time_limit": self.time_limit,
            "progress": round(min(1.0, elapsed / self.time_limit), 3)
            if self.time_limit else None,
            "solver": self.live}
        if self.outcome is not None:
            out["exit_code"] = self.outcome.exit_code
        if self.message is not None:
            out["error"] = self.message
        return out


class Pool:
    """`size` slots; jobs wait for a free slot in the order they came."""

    def __init__(self, size: int = 2) -> None:
        self.size = size
        self.slots: list[Slot] = []
        self.free: asyncio.Queue[Slot] | None = None
        self.jobs: dict[str, Job] = {}
        self._ids = itertools.count(1)

    def start(self) -> None:
        self.free = asyncio.Queue()
        for _ in range(self.size):
            slot = Slot()
            self.slots.append(slot)
            self.free.put_nowait(slot)

    def shutdown(self) -> None:
        for job in self.jobs.values():
            if job.task is not None and not job.task.done():
                job.task.cancel()
        for slot in self.slots:
            slot.shutdown()
        self.slots.clear()

    def submit(self, request: worker.VerbRequest, command: str, time_limit: float,
               has_own_limit: bool) -> Job:
        """Queue a question; its process is killed after `time_limit` (plus GRACE when
        the verb keeps the limit itself)."""
        limit = time_limit + (GRACE if has_own_limit else 0.0)
        job = Job(f"j{next(self._ids)}", request, command, limit, time_limit)
        self.jobs[job.id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job))
        self._forget_old()
        return job

    def cancel(self, job: Job) -> None:
        if job.task is not None and not job.task.done():
            job.task.cancel()

    async def _run(self, job: Job) -> None:
        assert self.free is not None
        slot = None
        try:
            slot = await self.free.get()
            await slot.ready()  # a fresh worker still importing: not the job's time
            job.status, job.started, job.slot = "running", time.monotonic(), slot
            slot.progress.value = b""
            slot.worker.call(worker.run_job, job.request)
            try:
                answered = await asyncio.wait_for(slot.worker.outcome_async(), job.limit)
                job.outcome = answered.get()
                job.status = "done" if job.outcome.error is None else "error"
                job.message = job.outcome.error
            except TimeoutError:
                slot.kill()
                job.status = "timeout"
                job.message = (f"toppi: error: time limit: no answer within "
                               f"{job.time_limit:g} s (the solve was stopped)")
            except WorkerDied:
                slot.kill()
                job.status, job.message = "error", "toppi: error: the worker process died"
        except asyncio.CancelledError:
            if job.status == "running" and slot is not None:
                slot.kill()
            job.status, job.message = "cancelled", "toppi: error: cancelled"
        finally:
            if slot is not None and job.status in ("done", "error"):
                job.live = worker.read_progress(slot.progress) or job.live
            job.ended, job.slot = time.monotonic(), None
            if slot is not None:
                self.free.put_nowait(slot)

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.ended is not None]
        for job in finished[:max(0, len(self.jobs) - MAX_JOBS_KEPT)]:
            del self.jobs[job.id]
