"""Hindsight optima with spaceships of simulate's draws, measured in CP-SAT's
deterministic seconds (the same on a busy machine as on an idle one), one worker.

    python scripts/bench_ship_draws.py --variant simple [--gold-silver] [--draws 0-29]
        [--work 30] [--list 4,6,21] [--log]

Draw i is simulate's game i at seed 0 (as `max --draws`). Each draw gets `--work`
deterministic seconds over all its solves (the row maxima, the stud patterns, every
case of the ring); a draw is proven within the budget or reported with its bound. A
wall limit is set too (`--limit`, high enough not to cut): CP-SAT searches differently
with no time limit at all (draw 4, simple: proven with 12.9 deterministic seconds under
any limit, unproven after 30 without one), and `max` always sets one.
Prints each draw (status, value, bound, work, the process's CPU seconds: what an idle
core's wall clock would show, and wall seconds) and the share proven, the median and
the 90th percentile of the work.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import replace

from models.take_it_higher import ship_max
from models.take_it_higher.maximum import maximise
from models.take_it_higher.rules import load_rules
from models.take_it_higher.state import game_draw
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions, cpsat
from solver.game import task_seed


class _Work:
    """One budget of deterministic seconds over every CP-SAT solve of a draw: each
    solve is capped at what is left (maximise passes wall limits only)."""

    def __init__(self, budget: float) -> None:
        self.budget, self.used = budget, 0.0
        self.solve = cpsat.solve
        self.enumerate = cpsat.all_solutions

    def _capped(self, options: SolverOptions) -> SolverOptions:
        left = max(0.01, self.budget - self.used)
        return replace(options, deterministic_time=min(left, options.deterministic_time
                                                       or left))

    def __call__(self, model, options: SolverOptions, *args, **kw):  # noqa: ANN001
        solver, out = self.solve(model, self._capped(options), *args, **kw)
        self.used += solver.deterministic_time
        return solver, out

    def all_solutions(self, model, options: SolverOptions, *args, **kw):  # noqa: ANN001
        found, solver = self.enumerate(model, self._capped(options), *args, **kw)
        self.used += solver.deterministic_time
        return found, solver


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="simple", choices=("simple", "advanced"))
    ap.add_argument("--gold-silver", action="store_true")
    ap.add_argument("--draws", default="0-29", help="first-last draw")
    ap.add_argument("--list", default=None, help="these draws instead (comma-separated)")
    ap.add_argument("--work", type=float, default=30.0, help="deterministic seconds a draw")
    ap.add_argument("--log", action="store_true", help="each case's solves")
    ap.add_argument("--limit", type=float, default=300.0,
                    help="wall seconds a draw (a cap the work should reach first)")
    args = ap.parse_args()
    rules = load_rules()
    first, last = map(int, args.draws.split("-"))
    draws = [int(i) for i in args.list.split(",")] if args.list else range(first, last + 1)
    work = _Work(args.work)
    cpsat.solve = work  # every module calls it through the module: one budget
    cpsat.all_solutions = work.all_solutions
    searches: list[ship_max._Search] = []
    init = ship_max._Search.__init__

    def keep(self, *a, **kw) -> None:  # noqa: ANN001, ANN002, ANN003
        init(self, *a, **kw)
        searches.append(self)

    ship_max._Search.__init__ = keep  # type: ignore[method-assign]
    rows = []
    for i in draws:
        draw = game_draw(rules, task_seed(0, i))
        work.used = 0.0
        start, cpu = time.perf_counter(), time.process_time()
        result = maximise(rules, Variant(args.gold_silver, args.variant), draw, "cpsat",
                          SolverOptions(time_limit=args.limit, seed=0, workers=1), canonical=False)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        proven = result.status == "optimal"
        rows.append((proven, work.used))
        print(f"draw {i}: {'proven' if proven else 'best found'} {result.score} "
              f"(bound {result.bound}), work {work.used:.2f}, cpu {cpu:.2f} s, wall {wall:.2f} s",
              flush=True)
        if args.log and searches:
            print("   ", searches[-1].log)
    used = sorted(w for _, w in rows)
    print(f"{sum(p for p, _ in rows)} of {len(rows)} proven within {args.work:g} "
          f"deterministic seconds; median {statistics.median(used):.2f}, "
          f"p90 {used[math.ceil(0.9 * len(used)) - 1]:.2f}")


if __name__ == "__main__":
    main()
