"""Solves off the request thread: a bounded pool of worker processes, jobs with a time
limit, progress by polling, and cancellation.

The pool is `size` slots, each one worker process (solver/processes.py), so that a job
cut off at its time limit or cancelled kills only its own process; the slot starts a
fresh process for the next job. Workers import the games' verbs once (`worker.warm`)
and run a job's verb with its typed values (`worker.run_job`).

The queue is bounded: at most MAX_PER_CLIENT questions of one client (its address)
queued or running, MAX_QUEUED of all clients (`Busy` past them). A quick question (a
time limit of at most QUICK_LIMIT) never waits behind long ones: one more slot runs
only quick questions, and the other slots take the oldest quick question before any
long one. A job that ends drops its request (the position's text, up to a MiB) and the
pool keeps at most MAX_JOBS_KEPT ended jobs, for KEEP_SECONDS.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from solver.processes import Worker, WorkerDied, kill_all
from solver.registry import registered
from solver.serve import worker

#: Seconds a command may take past its own --time-limit before its process is killed
#: (a few commands stop 1-1.6 s after their limit).
GRACE = 3.0
#: Questions one client (one address: every page of this machine is 127.0.0.1) may
#: have queued or running, and all clients together.
MAX_PER_CLIENT = 8
MAX_QUEUED = 64
#: A question with a time limit of at most this many seconds is quick (the page's
#: own questions are; the API's default limit is 10 s).
QUICK_LIMIT = 10.0
QUICK_SLOTS = 1
#: Ended jobs kept for their answer (GET /api/jobs/ID), and for how long.
MAX_JOBS_KEPT = 64
KEEP_SECONDS = 600.0


class Busy(Exception):
    """A question refused because the queue is full (one line: HTTP 429)."""


class Slot:
    """One worker process that can be killed, and its progress buffer; a quick slot
    runs only quick questions."""

    def __init__(self, quick: bool = False) -> None:
        self.quick = quick
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

    def kill(self, restart: bool = True) -> None:
        """End the process (and with it the job it runs) and start a fresh one."""
        self.worker.kill()
        if restart:
            self.start()

    def shutdown(self) -> None:
        self.worker.kill()


@dataclass
class Job:
    """A command run in the pool; `status`: queued, running, done, error, timeout,
    cancelled. `request` is dropped once the job has ended."""

    id: str
    request: worker.VerbRequest | None
    command: str  # the question as the command line asks it (what the page shows)
    limit: float  # seconds before the process is killed
    time_limit: float  # the command's own limit (what the page shows)
    client: str = ""  # who asked (the peer's address)
    quick: bool = False
    status: str = "queued"
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    ended: float | None = None
    outcome: worker.Outcome | None = None
    message: str | None = None
    task: asyncio.Task | None = None
    granted: asyncio.Future | None = None  # the slot given to it, once one is free
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
    """`size` slots for any question and QUICK_SLOTS for quick ones; waiting
    questions get a free slot quick ones first, each kind in the order they came."""

    def __init__(self, size: int = 2, quick_slots: int = QUICK_SLOTS) -> None:
        self.size, self.quick_slots = size, quick_slots
        self.slots: list[Slot] = []
        self.idle: list[Slot] = []
        self.waiting: dict[bool, deque[Job]] = {True: deque(), False: deque()}
        self.jobs: dict[str, Job] = {}
        self.stopping = False
        self._ids = itertools.count(1)

    def start(self) -> None:
        self.stopping = False
        for n in range(self.size + self.quick_slots):
            slot = Slot(quick=n >= self.size)
            self.slots.append(slot)
            self.idle.append(slot)

    def stop(self) -> None:
        """End every job now (each answered `cancelled`) and every worker; no fresh
        worker is started. For a server that is stopping."""
        self.stopping = True
        for job in self.jobs.values():
            if job.task is not None and not job.task.done():
                job.task.cancel()
        kill_all(slot.worker for slot in self.slots)

    def shutdown(self) -> None:
        self.stop()
        for slot in self.slots:
            slot.shutdown()
        self.slots.clear()
        self.idle.clear()

    def active(self, client: str | None = None) -> int:
        """Questions queued or running (of one client, or of all)."""
        return sum(j.ended is None and (client is None or j.client == client)
                   for j in self.jobs.values())

    def admit(self, client: str) -> None:
        """Busy when the client, or the server, has as many questions as it may."""
        mine = self.active(client)
        if mine >= MAX_PER_CLIENT:
            raise Busy(f"toppi: error: busy: {mine} questions are waiting; cancel one "
                       "or wait")
        every = self.active()
        if every >= MAX_QUEUED:
            raise Busy(f"toppi: error: busy: the server has {every} questions waiting; "
                       "try again in a while")

    def submit(self, request: worker.VerbRequest, command: str, time_limit: float,
               has_own_limit: bool, client: str = "") -> Job:
        """Queue a question (Busy when the queue is full); its process is killed after
        `time_limit` (plus GRACE when the verb keeps the limit itself)."""
        self.admit(client)
        limit = time_limit + (GRACE if has_own_limit else 0.0)
        job = Job(f"j{next(self._ids)}", request, command, limit, time_limit, client,
                  quick=time_limit <= QUICK_LIMIT)
        loop = asyncio.get_running_loop()
        job.granted = loop.create_future()
        self.jobs[job.id] = job
        self.waiting[job.quick].append(job)
        job.task = loop.create_task(self._run(job))
        self._dispatch()
        self._forget_old()
        return job

    def cancel(self, job: Job) -> None:
        if job.task is not None and not job.task.done():
            job.task.cancel()

    def _dispatch(self) -> None:
        """Give the idle slots to waiting jobs: a quick slot to the oldest quick
        question, another slot to the oldest quick question, else the oldest long one."""
        if self.stopping:
            return
        for slot in sorted(self.idle, key=lambda s: not s.quick):
            queues = [self.waiting[True]] if slot.quick else \
                [self.waiting[True], self.waiting[False]]
            for queue in queues:
                while queue and queue[0].granted is not None and queue[0].granted.done():
                    queue.popleft()  # cancelled while it waited
                if queue:
                    job = queue.popleft()
                    self.idle.remove(slot)
                    assert job.granted is not None
                    job.granted.set_result(slot)
                    break

    async def _run(self, job: Job) -> None:
        assert job.granted is not None
        slot = None
        try:
            slot = await job.granted
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
                slot.kill(restart=not self.stopping)
                job.status = "timeout"
                job.message = (f"toppi: error: time limit: no answer within "
                               f"{job.time_limit:g} s (the solve was stopped)")
            except WorkerDied:
                slot.kill(restart=not self.stopping)
                job.status, job.message = "error", "toppi: error: the worker process died"
        except asyncio.CancelledError:
            if slot is None and job.granted.done() and not job.granted.cancelled():
                slot = job.granted.result()  # given a slot, cancelled before it ran
            if job.status == "running" and slot is not None:
                slot.kill(restart=not self.stopping)
            job.status = "cancelled"
            job.message = ("toppi: error: cancelled: the server is stopping"
                           if self.stopping else "toppi: error: cancelled")
        finally:
            if slot is not None and job.status in ("done", "error"):
                job.live = worker.read_progress(slot.progress) or job.live
            job.ended, job.slot, job.request = time.monotonic(), None, None
            if job in self.waiting[job.quick]:
                self.waiting[job.quick].remove(job)
            if slot is not None and not self.stopping:
                self.idle.append(slot)
            self._dispatch()
            self._forget_old()

    def _forget_old(self) -> None:
        """Drop the oldest ended jobs past MAX_JOBS_KEPT, and those ended more than
        KEEP_SECONDS ago."""
        ended = sorted((j for j in self.jobs.values() if j.ended is not None),
                       key=lambda j: j.ended or 0.0)
        old = time.monotonic() - KEEP_SECONDS
        gone = [j for n, j in enumerate(ended)
                if n < len(ended) - MAX_JOBS_KEPT or (j.ended or 0.0) < old]
        for job in gone:
            del self.jobs[job.id]
