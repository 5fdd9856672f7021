"""Benchmark of Hippo (issue #7): `best` speed and simulated games of the best policy.

    python scripts/bench_hippo.py [--positions 300] [--games 10000] [--players 4]
                                  [--workers 2] [--runs 3] [--seed 0]

best: positions are taken from seeded games of the best policy (every 5th roll), each
      with its actual roll and with a roll that can make 7 (3,4,x: a bonus roll to
      average); prints the median, 90th percentile and maximum time of best_options.
simulate: --games games of the best policy on every seat with --workers processes
      (the machine has 2 cores shared with other jobs); wall time of each of --runs
      runs, their median, and the CPU time per game of one process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from models.hippo.best import best_options
from models.hippo.play import advance, choose, roll_dice, simulate
from models.hippo.rules import load_rules, new_game


def sample_positions(rules, n: int, players: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        state = new_game(rules, rules.colour_names[:players])
        rolls = 0
        while not state.is_terminal() and rolls < 400 and len(out) < n:
            dice = roll_dice(rules, rng)
            if rolls % 5 == 0:
                out.append((state, dice))
                out.append((state, (3, 4, rng.randint(1, 6))))
            rolls += 1
            lanes, hippo, stocks, move = choose("best", state, dice, rng)
            state = advance(state, lanes, hippo, stocks, move)
            if not any(stocks[state.to_move]):
                break
    return out[:n]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rules = load_rules()

    positions = sample_positions(rules, args.positions, args.players, args.seed)
    best_options(*positions[0])  # warm the tables
    times = []
    for state, dice in positions:
        start = time.perf_counter()
        best_options(state, dice)
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"best: {len(times)} positions ({args.players} players): median "
          f"{1000 * statistics.median(times):.2f} ms, p90 "
          f"{1000 * times[int(0.9 * len(times))]:.2f} ms, max {1000 * times[-1]:.2f} ms")

    cpu_start = time.process_time()
    probe = min(200, args.games)
    simulate(rules, probe, ["best"] * args.players, args.seed, workers=1)
    cpu = (time.process_time() - cpu_start) / probe
    print(f"simulate: {1000 * cpu:.1f} ms CPU per game in one process ({probe} games)")

    walls = []
    for run in range(args.runs):
        start = time.perf_counter()
        res = simulate(rules, args.games, ["best"] * args.players, args.seed + run,
                       workers=args.workers)
        walls.append(time.perf_counter() - start)
        rates = ", ".join(f"{100 * r.rate:.1f}%" for r in res.win_rate_by_seat)
        print(f"simulate run {run + 1}: {args.games} games, {args.players} players, "
              f"{args.workers} processes: {walls[-1]:.1f} s wall; seats {rates}; mean "
              f"{res.turns.mean:.1f} turns", flush=True)
    print(f"simulate: median wall {statistics.median(walls):.1f} s over {len(walls)} runs")


if __name__ == "__main__":
    main()
