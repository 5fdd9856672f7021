"""Benchmark of the Tippi Toppi speed goals.

    python scripts/bench_tippi_toppi.py [--states 20] [--games 200] [--jobs 2]
    python scripts/bench_tippi_toppi.py --speedup [--games 250] [--runs 3]
    python scripts/bench_tippi_toppi.py --hint-latency [--states 20] [--runs 5]
    python scripts/bench_tippi_toppi.py --reachable 200 [--nodes N] [--conflicts C] [--limit S]

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
- --hint-latency (only this): the hint as `toppi tippi-toppi hint FILE` gives it (on
  the observation of the player on turn; and with --open-hands, the all-seeing
  reference) on --states seeded positions (1-4 players, a few random plays in),
  --runs times each: the median of the runs' medians and the largest time (goal:
  median <= 1 s); then the whole command (`toppi tippi-toppi hint FILE --json`, a new
  Python process each time) on 3 of the positions, --runs times each.
- --reachable N (only this): `reachable` on N fresh full-information deals (deal i:
  players 1-4 and the five levels in turn, dealt from seed i; everything known, as with
  --open-hands), each with the work budget --nodes / --conflicts (default: the
  command's) and the time limit --limit as a cap (default none): how many are proven
  (won with a line the engine replays, or lost), the median and largest time (wall and
  CPU), by player count, and how many the time limit cut.
Times are wall clock inside one process (model building included).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from models.tippi_toppi.achievable import achievable
from models.tippi_toppi.game import GAME
from models.tippi_toppi.hint import hint, hint_at_table
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
            s = s.apply_action(rng.choice(s.legal_plays()))
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
    ap.add_argument("--hint-latency", action="store_true",
                    help="only the hint's decision time (honest and --open-hands)")
    ap.add_argument("--reachable", type=int, default=0, metavar="N",
                    help="only: reachable on N fresh full-information deals")
    ap.add_argument("--limit", type=float, default=None,
                    help="a cap in seconds per deal (--reachable; default none)")
    ap.add_argument("--nodes", type=int, default=None, help="search positions (--reachable)")
    ap.add_argument("--conflicts", type=int, default=None, help="SAT conflicts (--reachable)")
    args = ap.parse_args()
    rules = load_rules()
    if args.reachable:
        fresh_reachable(rules, args.reachable, args.limit, args.nodes, args.conflicts)
        return
    if args.speedup:
        speedup(rules, args.games, args.runs)
        return
    if args.hint_latency:
        hint_latency(rules, args.states, args.runs)
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


def fresh_reachable(rules, n: int, limit: float | None, nodes: int | None,
                    conflicts: int | None) -> None:
    from models.tippi_toppi.budgets import REACHABLE_CONFLICTS, REACHABLE_NODES
    from models.tippi_toppi.reachable import reachable
    from solver.deadline import Deadline

    nodes = nodes or REACHABLE_NODES
    conflicts = conflicts or REACHABLE_CONFLICTS
    print(f"--nodes {nodes} --conflicts {conflicts} --limit {limit}")
    levels = len(rules.difficulties)
    rows = []
    for i in range(n):
        players, level = 1 + i % 4, (i // 4) % levels
        state = new_game(rules, players, level, i)
        start, cpu = time.perf_counter(), time.process_time()
        r = reachable(state, nodes=nodes, conflicts=conflicts, deadline=Deadline.after(limit))
        rows.append((players, level, r.answer, r.proven, time.perf_counter() - start,
                     time.process_time() - cpu, r.cut_by_time))
        print(f"deal {i}: {players} players, {rules.difficulties[level]}: {r.answer} "
              f"({'proven' if r.proven else 'not proven'}) {rows[-1][4]:.2f} s, "
              f"{rows[-1][5]:.2f} s CPU, {r.nodes} positions, {r.conflicts} conflicts"
              + (" (cut by the time limit)" if r.cut_by_time else ""), flush=True)
    for label, part in [("all", rows)] + [(f"{p} players", [r for r in rows if r[0] == p])
                                          for p in range(1, 5)]:
        if not part:
            continue
        proven = sum(r[3] for r in part)
        times, cpus = [r[4] for r in part], [r[5] for r in part]
        answers = {a: sum(r[2] == a for r in part) for a in ("yes", "no", "unknown")}
        print(f"{label}: {proven}/{len(part)} proven ({100 * proven / len(part):.1f} %), "
              f"{answers}, median {statistics.median(times):.2f} s, max {max(times):.2f} s"
              f" (CPU median {statistics.median(cpus):.2f} s, max {max(cpus):.2f} s), "
              f"cut by the time limit {sum(r[6] for r in part)}")


def latency_states(rules, n):
    """Seeded positions of 1-4 players at every level, 0-20 random plays in, the player
    on turn able to play."""
    out = []
    seed = 0
    while len(out) < n:
        s = new_game(rules, 1 + seed % 4, seed % 5, 2000 + seed)
        rng = random.Random(seed)
        for _ in range(seed % 21):
            if s.is_terminal():
                break
            s = s.apply_action(rng.choice(s.legal_plays()))
        if not s.is_terminal():
            out.append(s)
        seed += 1
    return out


def hint_latency(rules, n: int, runs: int) -> None:
    pos = latency_states(rules, n)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for open_hands in (False, True):
        medians, worst = [], 0.0
        for _ in range(runs):
            times = []
            for s in pos:
                start = time.perf_counter()
                hint_at_table(s, open_hands)
                times.append(time.perf_counter() - start)
            medians.append(statistics.median(times))
            worst = max(worst, max(times))
        label = "hint --open-hands" if open_hands else "hint (the player's view)"
        print(f"{label}: median {1000 * statistics.median(medians):.2f} ms (runs "
              f"{', '.join(f'{1000 * m:.2f}' for m in medians)} ms), max "
              f"{1000 * worst:.1f} ms over {len(pos)} positions x {runs} runs")
    with tempfile.TemporaryDirectory() as tmp:
        whole = []
        for i, s in enumerate(pos[:3]):
            f = Path(tmp) / f"p{i}.json"
            f.write_text(json.dumps(GAME.write(s)))
            for _ in range(runs):
                start = time.perf_counter()
                subprocess.run([str(Path(sys.executable).parent / "toppi"), "tippi-toppi",
                                "hint", str(f), "--json"], check=True, capture_output=True)
                whole.append(time.perf_counter() - start)
        print(f"the whole command (a new process each time): median "
              f"{statistics.median(whole):.2f} s, max {max(whole):.2f} s over 3 positions "
              f"x {runs} runs; load average after: {os.getloadavg()[0]:.2f}")


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
