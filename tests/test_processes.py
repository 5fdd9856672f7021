"""The worker-process primitive (solver/processes.py): calls answered in order, errors
come back with the worker's traceback, a worker can be killed at any moment and is gone
when the call returns, it dies with its parent, starts by fork or spawn, and a web job
can await it, time it out and kill it.

No verdict here depends on the machine's load: a call that must be cut or killed sleeps
far longer (10 minutes) than any wait of the test, and every bound on a wait only
guards against a hang (a kill that waited for its call would take the full sleep)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import time

import pytest

from solver.errors import BadInput
from solver.processes import Outcome, RemoteTraceback, Worker, WorkerDied, kill_all, wait

#: a call that runs until it is killed (no test waits anywhere near this long)
FOREVER = 600
#: seconds a test waits for what must happen at once: a guard against a hang, far
#: above any scheduling delay of a busy machine and far below FOREVER
GUARD = 60


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _fail(message: str) -> None:
    raise BadInput(message)


def _unpicklable() -> object:
    return lambda: None


_SEEN: list[str] = []


def _remember(word: str) -> None:
    _SEEN.append(word)


def _seen() -> list[str]:
    return list(_SEEN)


def test_calls_are_answered_in_order_with_their_values_and_errors():
    with Worker(divmod, (7, 2)) as w:
        w.call(pow, 2, 10)
        w.call(_fail, "no such tile")
        w.call(_unpicklable)
        assert w.outcome().get() == (3, 1)
        assert w.outcome() == Outcome(1024)
        failed = w.outcome()
        with pytest.raises(BadInput, match="no such tile") as caught:
            failed.get()
        assert isinstance(caught.value.__cause__, RemoteTraceback)
        assert "_fail" in str(caught.value.__cause__)
        with pytest.raises(RuntimeError, match="could not be sent back"):
            w.outcome().get()
        assert w.pending == 0 and w.alive  # errors do not end the worker


def test_an_initializer_runs_once_before_the_calls():
    with Worker(initializer=_remember, initargs=("warm",)) as w:
        w.call(_remember, "job")
        w.call(_seen)
        w.outcome()
        assert w.outcome().get() == ["warm", "job"]
    assert _SEEN == []  # the parent's list: the worker had its own


def test_kill_ends_a_running_call_and_reaps_the_process():
    w = Worker(_nap, (FOREVER,))
    assert not w.ready(0.2)
    with pytest.raises(TimeoutError):
        w.outcome(timeout=0.1)
    start = time.perf_counter()
    w.kill()
    assert time.perf_counter() - start < GUARD and _gone(w.pid) and not w.alive
    w.kill()  # twice is harmless


def test_a_one_off_worker_ends_after_its_call_and_kill_all_stops_the_rest():
    one_off = Worker(pow, (2, 3), once=True)
    naps = [Worker(_nap, (FOREVER,)) for _ in range(3)]
    assert one_off.outcome(timeout=GUARD).get() == 8
    one_off.process.join(GUARD)
    assert one_off.process.exitcode == 0
    start = time.perf_counter()
    kill_all([one_off, *naps])
    assert time.perf_counter() - start < GUARD
    assert all(_gone(w.pid) for w in [one_off, *naps])


def test_a_worker_that_dies_is_reported_not_waited_for():
    w = Worker(os._exit, (9,))
    assert wait([w], GUARD) == [w]
    with pytest.raises(WorkerDied) as died:
        w.outcome()
    assert died.value.exitcode == 9


def test_wait_returns_the_workers_that_finished_first():
    slow, fast = Worker(_nap, (FOREVER,)), Worker(_nap, (0.05,))
    try:
        assert wait([slow, fast], GUARD) == [fast]
        assert fast.outcome().get() == 0.05
        assert wait([slow], 0.1) == []
    finally:
        slow.kill()
        fast.close()
    assert _gone(slow.pid) and _gone(fast.pid)


def test_spawn_starts_a_fresh_interpreter():
    with Worker(os.getpid, method="spawn") as w:
        assert w.outcome(timeout=GUARD).get() == w.pid


def test_a_web_job_awaits_its_outcome_and_is_killed_at_its_time_limit():
    async def job(worker: Worker, limit: float) -> object:
        try:
            return (await asyncio.wait_for(worker.outcome_async(), limit)).get()
        except TimeoutError:
            worker.kill()
            return "timeout"

    async def main() -> tuple[object, object]:
        quick, stuck = Worker(), Worker()
        quick.call(pow, 3, 3)
        stuck.call(_nap, FOREVER)
        done = await asyncio.gather(job(quick, GUARD), job(stuck, 0.3))
        quick.close()
        return done, stuck

    start = time.perf_counter()
    (quick, stuck), worker = asyncio.run(main())
    assert (quick, stuck) == (27, "timeout") and time.perf_counter() - start < GUARD
    assert _gone(worker.pid)


@pytest.mark.skipif(sys.platform != "linux", reason="parent-death signal: Linux")
def test_a_worker_dies_with_its_parent():
    code = textwrap.dedent(f"""
        import time
        from solver.processes import Worker
        w = Worker(time.sleep, ({FOREVER},))
        print(w.pid, flush=True)
        time.sleep({FOREVER})
    """)
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    pid = int(parent.stdout.readline())
    parent.kill()
    parent.wait(timeout=GUARD)
    deadline = time.monotonic() + GUARD
    while time.monotonic() < deadline and not _gone(pid):
        time.sleep(0.05)
    assert _gone(pid)


def test_a_parent_that_forgets_its_worker_still_exits_at_once():
    code = textwrap.dedent(f"""
        import time
        from solver.processes import Worker
        print(Worker(time.sleep, ({FOREVER},)).pid, flush=True)
    """)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=2 * GUARD)
    assert done.returncode == 0 and time.perf_counter() - start < GUARD, done.stderr
    assert _gone(int(done.stdout))
