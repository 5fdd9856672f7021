"""Fixtures shared by the test modules, and the suite's Hypothesis settings."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, settings

from tests.cli_helpers import free_port

# Property tests give the same verdict on every run and on any machine: the examples
# come from a fixed seed (derandomize), and nothing is timed: no per-example deadline,
# no "too slow" health check (both fail a test on a busy machine). A test's own
# @settings keeps what it does not name (one that lists health checks to suppress
# lists too_slow as well). HYPOTHESIS_PROFILE=explore draws new examples each run.
settings.register_profile("suite", derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", parent=settings.get_profile("suite"),
                          derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


@pytest.fixture(scope="session")
def cluster():
    """`dask scheduler` and two `dask worker` processes on 127.0.0.1, shared by every
    test module and torn down at the end of the session."""
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    # `python -P -m dask` rather than the `dask` script: python-sat installs a
    # `models.py` next to that script which would shadow our `models` package.
    dask = [sys.executable, "-P", "-m", "dask"]
    # The cluster idles through most of the session: without the workers' statistical
    # profiler (a sample every 10 ms) and with the event-loop tick, the system monitor
    # and the workers' memory monitor checked less often, its idle CPU drops about
    # tenfold (4.4 s to 0.4 s of CPU in 30 s). Diagnostics only: the tasks, the
    # scattering, the scheduling and the heartbeats are unchanged.
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
           "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
           "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "5s",
           "DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL": "1s"}
    procs = [subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, env=env)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen(
                [*dask, "worker", address, "--nthreads", "1", "--no-dashboard",
                 "--host", "127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                env=env))
        try:  # generous guards: two workers start in seconds, slower on a busy machine
            with Client(address, timeout="120s") as client:
                client.wait_for_workers(2, timeout=180)
        except Exception as exc:  # a clear failure, never a skip
            dead = [p.args[4] for p in procs if p.poll() is not None]
            pytest.fail(f"could not start a Dask scheduler and two workers on {address}: "
                        f"{exc!r} (exited: {dead})")
        yield address
    finally:
        for p in procs:  # nothing to save: no graceful shutdown needed
            p.kill()
        for p in procs:
            p.wait(timeout=10)
