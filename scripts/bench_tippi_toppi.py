"""Benchmark of the Tippi Toppi speed goals (issue #5).

    python scripts/bench_tippi_toppi.py [--states 20] [--games 200] [--workers 2]

- achievable: all four open tasks, K = 6, from a known deck (cards=known), on seeded
  games a few random plays in; median (and max) wall time per back-end (goal: median
  <= 1 s);
- hint: median and max wall time over the same states (goal <= 1 s);
- simulate: --games games of the hint policy (2 players, normal), with --workers
  processes; the time for 1,000 games is extrapolated linearly when --games < 1000
  (goal: 1,000 games <= 5 minutes on 2 cores).
Times are wall clock inside one process (model building included).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from models.tippi_toppi.play import hint, simulate
from models.tippi_toppi.queries import achievable
from models.tippi_toppi.rules import load_rules, new_game


def states(rules, n):
    out = []
    for seed in range(n):
        s = new_game(rules, 2 + seed % 3, seed % 5, 1000 + seed)
        rng = random.Random(seed)
        for _ in range(seed % 7):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            out.append(s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--states", type=int, default=20)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    rules = load_rules()
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
    res = simulate(rules, args.games, [2], [1], ["hint"], workers=args.workers)
    secs = time.perf_counter() - start
    c = res.cells[0]
    print(f"simulate hint policy, {args.games} games (2 players, normal, {args.workers} "
          f"workers): {secs:.1f} s -> 1000 games ~ {secs * 1000 / args.games:.0f} s; "
          f"win rate {100 * c.rate.rate:.1f}%")


if __name__ == "__main__":
    main()
