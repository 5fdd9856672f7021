"""Benchmark of the Tippi Toppi speed goals.

    python scripts/bench_tippi_toppi.py [--states 20] [--games 200] [--jobs 2]
    python scripts/bench_tippi_toppi.py --speedup [--games 250] [--runs 3]

- achievable: all four open tasks, K = 6, from a known deck (cards=known), on seeded
  games a few random plays in; median (and max) wall time per back-end (goal: median
  <= 1 s);
- hint: median and max wall time over the same states (goal <= 1 s);
- simulate: --games games of the hint policy (2 players, normal) on a local pool of
  --jobs processes (the batch layer); the time for 1,000 games is extrapolated linearly
  when --games < 1000 (goal: 1,000 games <= 5 minutes on 2 cores).
- --speedup (only this): the same simulate run (--games games of the hint policy, 2
  players, normal, seed 0) in-process (--jobs 1) and on a pool of 2 (--jobs 2), runs
  interleaved, median of --runs each; the ratio is the pool's speed-up (goal >= 1.8x).
  The tables of all runs are checked equal. Also timed: as many games in two halves
  (seeds 0 and 1: other deals, the same work on average) played in-process by two
  independent processes at once, the most two processes get out of this machine (no
  batch layer involved).
Times are wall clock inside one process (model building included).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import resource
import statistics
import time

from models.tippi_toppi.achievable import achievable
from models.tippi_toppi.game import GAME
from models.tippi_toppi.hint import hint
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.state import new_game
from solver.executor import Batch
from solver.simulate import simulate

HINT_2P_NORMAL = GAME.setups(load_rules(), players="2", difficulty="normal")


def states(rules, n):
    out = []
    for seed in range(n):
        s = new_game(rules, 2 + seed % 3, seed % 5, 1000 + seed)
        rng = random.Random(seed)
        for _ in range(seed % 7):
            if s.is_terminal():
                break
            s.play_in_place(rng.choice(s.legal_plays()))
        if not s.is_terminal():
            out.append(s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--states", type=int, default=20)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--speedup", action="store_true",
                    help="only the --jobs 1 vs --jobs 2 simulate comparison")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rules = load_rules()
    if args.speedup:
        speedup(rules, args.games, args.runs)
        return
    pos = states(rules, args.states)
    for backend in ("sat", "cpsat"):
        times, yes = [], 0
        for s in pos:
            start = time.perf_counter()
            r = achievable(s, None, 6, "known", backend)
            times.append(time.perf_counter() - start)
            yes += r.answer == "yes"
        print(f"achievable K=6 known ({backend}): median {statistics.median(times):.3f} s, "
              f"max {max(times):.3f} s over {len(pos)} states ({yes} yes)")
    times = []
    for s in pos:
        start = time.perf_counter()
        hint(s)
        times.append(time.perf_counter() - start)
    print(f"hint: median {1000 * statistics.median(times):.1f} ms, "
          f"max {1000 * max(times):.1f} ms over {len(pos)} states")
    start = time.perf_counter()
    res = simulate(GAME, rules, args.games, HINT_2P_NORMAL, [["hint"]],
                   batch=Batch(args.jobs, progress=False))
    secs = time.perf_counter() - start
    c = res.cells[0]
    print(f"simulate hint policy, {args.games} games (2 players, normal, {res.executor}): "
          f"{secs:.1f} s -> 1000 games ~ {secs * 1000 / args.games:.0f} s; "
          f"win rate {100 * c.win_rate.rate:.1f}%")


def _cpu() -> float:
    """User + system CPU seconds of this process and its waited-for children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _half(rules, games: int, seed: int) -> None:
    simulate(GAME, rules, games, HINT_2P_NORMAL, [["hint"]], seed=seed,
             batch=Batch(1, progress=False))


def _two_at_once(rules, games: int) -> float:
    """The machine's ceiling for two processes: as many games in two halves, each
    played in-process by its own forked process, no batch layer between them (seconds
    until both are done)."""
    context = multiprocessing.get_context("fork")
    procs = [context.Process(target=_half, args=(rules, n, seed))
             for n, seed in ((games // 2, 0), (games - games // 2, 1))]
    start = time.perf_counter()
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    return time.perf_counter() - start


def speedup(rules, games: int, runs: int) -> None:
    """--jobs 1 against --jobs 2 on the same simulate run, and two independent
    in-process halves at once (what 2 cores of this machine give two processes at
    best); interleaved, median of runs."""
    times: dict[str, list[float]] = {"--jobs 1": [], "--jobs 2": [], "two at once": []}
    tables = []
    for _ in range(runs):
        for name in times:
            load = os.getloadavg()[0]
            cpu = _cpu()
            start = time.perf_counter()
            if name == "two at once":
                _two_at_once(rules, games)
            else:
                res = simulate(GAME, rules, games, HINT_2P_NORMAL, [["hint"]],
                               batch=Batch(int(name[-1]), progress=False))
                tables.append(res.cells)
            times[name].append(time.perf_counter() - start)
            # CPU seconds of this process and its (finished) workers: the work done,
            # whatever share of the cores the other users of the machine left us
            print(f"  {name}: {times[name][-1]:.1f} s ({games / times[name][-1]:.2f} "
                  f"games/s), CPU {_cpu() - cpu:.1f} s, load average before {load:.2f}",
                  flush=True)
    assert all(t == tables[0] for t in tables), "the runs disagree"
    one, two, ceiling = (statistics.median(times[k]) for k in times)
    ratios = ", ".join(f"{a / b:.2f}" for a, b in zip(times["--jobs 1"], times["--jobs 2"],
                                                      strict=True))
    print(f"simulate hint policy, {games} games (2 players, normal), median of {runs}: "
          f"--jobs 1 {one:.1f} s ({games / one:.2f} games/s), --jobs 2 {two:.1f} s "
          f"({games / two:.2f} games/s): speed-up {one / two:.2f}x (runs {ratios}x); "
          f"two independent in-process halves at once: {ceiling:.1f} s = "
          f"{one / ceiling:.2f}x (the machine's ceiling for 2 processes)")


if __name__ == "__main__":
    main()
