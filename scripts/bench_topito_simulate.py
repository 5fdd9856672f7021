"""Benchmark of `toppi topito simulate` with the hint policy (the goals: the hint
beats greedy with 95 % intervals that do not overlap, 2 players, >= 1,000 games; 1,000
two-player games in <= 5 minutes on 2 cores).

    python scripts/bench_topito_simulate.py [--games 1000] [--runs 3] [--jobs 2]
        [--policy hint,greedy] [--seed 0]

Each run is the command a user types (a fresh process, `--rotate` so each policy sits in
each seat equally often, `--json`); printed: the wall time of every run and their median,
the load average before each run, and the win rate by policy with its Wilson interval
(the same in every run: the games are seeded).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--policy", default="hint,greedy")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    toppi = os.path.join(os.path.dirname(sys.executable), "toppi")
    cmd = [toppi, "topito", "simulate", "--games", str(args.games), "--players",
           str(args.players), "--policy", args.policy, "--rotate", "--seed", str(args.seed),
           "--jobs", str(args.jobs), "--json"]
    print(" ".join(["toppi", *cmd[1:]]))
    times, data = [], None
    for run in range(args.runs):
        load = os.getloadavg()[0]
        t = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - t)
        data = json.loads(out.stdout)
        print(f"run {run + 1}: {times[-1]:.1f} s (load average {load:.1f} before)",
              flush=True)
    print(f"median {statistics.median(times):.1f} s over {args.runs} runs of "
          f"{args.games} games")
    cell = data["cells"][0]
    print(f"moves per game {cell['actions']['mean']:.1f}")
    rates = cell["win_rate_by_policy"] or {
        f"seat {i + 1}": r for i, r in enumerate(cell["win_rate_by_seat"])}
    for name, r in rates.items():
        print(f"{name}: {r['rate']:.1%} ({r['low']:.1%}-{r['high']:.1%}) of "
              f"{r['trials']} games")


if __name__ == "__main__":
    main()
