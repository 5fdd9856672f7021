"""Speed of `toppi take-it-higher max`.

    python scripts/bench_max.py [--runs 3] [--draws 50] [--backend cpsat] [--skip-gs]

Prints the median wall time of: the basic maximum (proven), the gold/silver maximum
(proven), and the --draw optimum over seeded random 24-tile draws. Times are the
solver's wall time inside the process (model building included), 2 workers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from models.take_it_higher.maximum import maximise
from models.take_it_higher.rules import load_rules
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions


def timed(rules, variant, draw, backend, seed, limit):
    start = time.perf_counter()
    r = maximise(rules, variant, draw, backend, SolverOptions(time_limit=limit, seed=seed))
    return time.perf_counter() - start, r


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--draws", type=int, default=50)
    ap.add_argument("--backend", default="cpsat")
    ap.add_argument("--limit", type=float, default=300)
    ap.add_argument("--skip-gs", action="store_true")
    ap.add_argument("--draw-variant", default="basic")
    args = ap.parse_args()
    rules = load_rules()
    cases = [("basic", Variant())]
    if not args.skip_gs:
        cases.append(("gold-silver", Variant(gold_silver=True)))
    for name, variant in cases:
        times = []
        for seed in range(args.runs):
            t, r = timed(rules, variant, None, args.backend, seed, args.limit)
            times.append(t)
            print(f"{name} seed {seed}: {r.score} {r.status} bound {r.bound} {t:.2f} s",
                  file=sys.stderr)
        print(f"{name} maximum ({args.backend}): median {statistics.median(times):.2f} s "
              f"over {args.runs} runs; value {r.score} ({r.status})")
    variant = Variant(gold_silver=args.draw_variant == "gold-silver")
    times, values = [], []
    for seed in range(args.draws):
        draw = random.Random(seed).sample(list(rules.tiles), rules.board_size)
        t, r = timed(rules, variant, draw, args.backend, 0, args.limit)
        times.append(t)
        values.append(r.score)
        if r.status != "optimal":
            print(f"draw {seed}: not proven ({r.score}, bound {r.bound})", file=sys.stderr)
    times.sort()
    print(f"--draw optimum ({args.draw_variant}, {args.backend}), {args.draws} draws: "
          f"median {statistics.median(times):.2f} s, p90 {times[int(0.9 * len(times))]:.2f} s, "
          f"max {times[-1]:.2f} s; mean optimum {statistics.mean(values):.1f}")


if __name__ == "__main__":
    main()
