"""Benchmarks of the executor layer against its speed goals (figures in docs/batch.md).

1. `take-it-higher simulate`: games per second on the local pool with 2 processes
   against in-process (--jobs 1); goal: at least 1.8x. Two workloads: greedy games
   without the optimum (milliseconds a task) and greedy games with their hindsight
   optimum (CP-SAT, a tenth of a second to seconds a task). The pool's start-up is
   included, as a user sees it. For reference, the same games as two independent
   in-process runs at once (half each, no pool): what two processes get from the
   machine without any pool machinery.
2. Dask overhead per task for tasks of 0.5 s: a real `dask scheduler` and two
   `dask worker` processes on 127.0.0.1 run 2k tasks that each take 0.5 s of wall time;
   overhead = wall * workers / tasks / 0.5 - 1; goal: at most 20%.

Usage: python scripts/bench_executor.py [--runs 3] [--games 1500]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import time

from models.take_it_higher.game import GAME
from solver.executor import Batch
from solver.simulate import simulate


def half_second(i: int) -> int:
    """A task of 0.5 s wall time (spinning: it holds a core like real work)."""
    end = time.perf_counter() + 0.5
    while time.perf_counter() < end:
        pass
    return i


def greedy_games(games: int, seed: int, optimum: float | None, batch: Batch) -> int:
    """`take-it-higher simulate --policy greedy` (basic variant), with the hindsight
    optimum of each draw when `optimum` (seconds) is given; the games played."""
    options = {"no_optimum": True} if optimum is None else {"optimum_time": optimum}
    rules = GAME.load_rules(None)
    result = simulate(GAME, rules, games, GAME.setups(rules), [["greedy"]], seed,
                      options=options, batch=batch)
    return result.games


def rate(jobs: int, games: int, seed: int, optimum: float | None) -> float:
    start = time.perf_counter()
    assert greedy_games(games, seed, optimum, Batch(jobs, progress=False)) == games
    return games / (time.perf_counter() - start)


def _half(args: tuple[int, int, float | None]) -> int:
    n, seed, optimum = args
    return greedy_games(n, seed, optimum, Batch(1, progress=False))


def pair_rate(games: int, seed: int, optimum: float | None) -> float:
    """Games per second of two independent in-process runs at once (each half the
    games, no pool; the second half from another seed, so other draws of the same
    kind): what two busy processes get from this machine. Not a strict ceiling: the
    halves are split in advance, so the faster one idles at the end."""
    import multiprocessing

    half = games // 2
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        done = sum(pool.map(_half, [(half, seed, optimum), (games - half, seed + half,
                                                             optimum)]))
    assert done == games
    return games / (time.perf_counter() - start)


def bench_pool(runs: int, games: int, optimum_games: int) -> None:
    for label, n, seed, optimum in (("greedy, no optimum", games, 0, None),
                                    ("greedy + hindsight optimum", optimum_games, 5, 30.0)):
        single, pooled, pairs = [], [], []
        for _ in range(runs):  # interleaved: a change of load hits all three alike
            single.append(rate(1, n, seed, optimum))
            pooled.append(rate(2, n, seed, optimum))
            pairs.append(pair_rate(n, seed, optimum))
        s, p, c = (statistics.median(x) for x in (single, pooled, pairs))
        print(f"simulate {label}, {n} games: in-process {s:.2f} games/s, "
              f"pool of 2 {p:.2f} games/s -> {p / s:.2f}x (goal >= 1.8x); two independent "
              f"processes at once {c:.2f} games/s -> {c / s:.2f}x (no pool); "
              f"runs: {', '.join(f'{x:.2f}' for x in single)} | "
              f"{', '.join(f'{x:.2f}' for x in pooled)} | "
              f"{', '.join(f'{x:.2f}' for x in pairs)}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_dask(runs: int, tasks: int) -> None:
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-P", "-m", "dask"]  # -P: python-sat's models.py shadows ours
    procs = [subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], stderr=subprocess.DEVNULL)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen([*dask, "worker", address, "--nthreads", "1",
                                           "--no-dashboard", "--host", "127.0.0.1"],
                                          stderr=subprocess.DEVNULL))
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        overheads = []
        for _ in range(runs):
            batch = Batch(1, address, progress=False)
            start = time.perf_counter()
            got = sorted(i for i, _ in batch.run(half_second, [(i,) for i in range(tasks)]))
            wall = time.perf_counter() - start
            assert got == list(range(tasks))
            overheads.append(wall * 2 / tasks / 0.5 - 1)
        print(f"dask, 2 workers, {tasks} tasks of 0.5 s: overhead per task "
              f"{100 * statistics.median(overheads):.1f}% (goal <= 20%; runs: "
              f"{', '.join(f'{100 * o:.1f}%' for o in overheads)}; includes connecting)",
              flush=True)
    finally:
        for p in procs:
            p.kill()
            p.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--optimum-games", type=int, default=24)
    parser.add_argument("--tasks", type=int, default=40)
    parser.add_argument("--skip-pool", action="store_true")
    parser.add_argument("--skip-dask", action="store_true")
    args = parser.parse_args()
    if not args.skip_pool:
        bench_pool(args.runs, args.games, args.optimum_games)
    if not args.skip_dask:
        bench_dask(args.runs, args.tasks)


if __name__ == "__main__":
    main()
