"""Benchmark of the full game's maxima with spaceships, the call order free (the goal:
each of the four proven in <= 60 s on 2 cores), and their confirmation by a second
formulation.

    python scripts/bench_full_game_max.py [--runs 3] [--limit 120]

For each of simple, simple+gold-silver, advanced, advanced+gold-silver: `maximise`
(the cases of the ring, ship_max.py) timed `--runs` times (median), its status, value
and cases. Then the time-indexed spaceship model (encode_ships.py: a[time, cell], rows
completed at a time step, launches per step; a different formulation of the same
rules) is solved with the proven row maxima as caps and the found game as its hint: it
must reach the same value, and its own bound must not exceed it.
"""

from __future__ import annotations

import argparse
import statistics
import time

from models.take_it_higher import encode_ships
from models.take_it_higher.encode import MaxProblem
from models.take_it_higher.maximum import maximise
from models.take_it_higher.positions import position_from_dict
from models.take_it_higher.rules import load_rules
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions, cpsat


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--limit", type=float, default=120.0)
    args = ap.parse_args()
    rules = load_rules()
    opts = SolverOptions(time_limit=args.limit, workers=2, seed=0)
    caps = {False: maximise(rules, Variant(), None, "cpsat", opts).score,
            True: maximise(rules, Variant(True), None, "cpsat", opts).score}
    print(f"row maxima: basic {caps[False]}, gold/silver {caps[True]}")
    for ships in ("simple", "advanced"):
        for gs in (False, True):
            variant = Variant(gs, ships)
            times, result = [], None
            for _ in range(args.runs):
                t = time.perf_counter()
                result = maximise(rules, variant, None, "cpsat", opts)
                times.append(time.perf_counter() - t)
            solved = [(c.ships, c.status, c.patterns) for c in result.cases
                      if c.status != "cut by bound"]
            print(f"{variant.name}: {result.status} {result.score} (bound {result.bound}), "
                  f"median {statistics.median(times):.2f} s of {args.runs} "
                  f"({', '.join(f'{t:.2f}' for t in times)}); cases solved {solved}")
            problem = MaxProblem(rules, variant)
            colour_cap = caps[False]
            model = encode_ships.build(problem, colour_cap=colour_cap,
                                       points_cap=caps[True] if gs else None)
            game = position_from_dict(rules, {"placements": result.placements}).placements
            model.hint_game(game, problem)
            t = time.perf_counter()
            _, out = cpsat.solve(model.model, opts)
            print(f"  time-indexed model: {out.status} {out.objective} (bound {out.bound}), "
                  f"{time.perf_counter() - t:.2f} s — "
                  f"{'confirms' if out.objective == result.score and out.bound == result.score else 'DIFFERS'}")


if __name__ == "__main__":
    main()
