"""Hippo's methods compared on the same seeded games, and what its defaults cost.

    python scripts/bench_hippo_methods.py [--games 500] [--seed 0] [--jobs 2]
                                          [--positions 400] [--runs 3]
                                          [--finish-turns 3,4] [--skip-games]
                                          [--skip-hint] [--skip-defaults] [--skip-plan]

games: the default hint (`best`, the best policy) against each other method (`greedy`,
    `random`), two players, paired: game g is played from the same seed twice, once
    with best in seat 1 and once in seat 2 (two cells of `simulate`, which deals game g
    of every cell from the same seed). Reported: best's wins of the 2N games with a
    Wilson 95% interval, and the paired score (per seed 0, 1/2 or 1 of the pair won by
    best) with its mean and a normal 95% interval over the seeds.
hint: the decision time of each method on positions of seeded 4-player games of the
    best policy (every 5th roll as thrown, and the same state with a roll 3,4,x that can
    make 7, so a bonus roll is averaged): median, p90 and max. Every method is exact
    and exhaustive (no budget, no clock): the time is the only thing the load changes.
defaults: `toppi hippo finish FILE` (default --turns 3 and --steps; also --turns 4)
    and `toppi hippo plan FILE --rolls R` (default --work) on the example positions,
    each a fresh process, --runs times: median wall time of the whole command, its
    CPU time, and the answer (the work done, proven or the bounds). The work budgets
    are fixed, so the answers are the same in every run (checked).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from models.hippo.game import GAME
from models.hippo.rules import load_rules
from solver.executor import Batch
from solver.simulate import simulate
from solver.stats import wilson

EXAMPLES = Path(__file__).resolve().parent.parent / "puzzles" / "hippo"
NAMES = ("solo-endgame", "midgame-4p", "penalty-trap", "start-2p")
ROLLS_18 = " ".join(["6,4,2", "5,5,1", "3,4,1", "2,2,6", "1,3,5", "6,6,2"] * 3)


def paired(rules, other: str, games: int, seed: int, jobs: int) -> str:
    """best against `other` on the same seeded games, both seatings."""
    result = simulate(GAME, rules, games, GAME.setups(rules, players=2),
                      [["best", other], [other, "best"]], seed, batch=Batch(jobs, progress=False))
    by_seed = [0.0] * games
    for record in result.records:
        seat = record.seats.index("best")
        by_seed[record.game] += record.returns[seat] / 2
    wins = round(2 * sum(by_seed))
    rate = wilson(wins, 2 * games)
    low, high = rate.low, rate.high
    mean = statistics.fmean(by_seed)
    half = 1.96 * statistics.stdev(by_seed) / math.sqrt(games)
    return (f"best vs {other}: best won {wins} of {2 * games} games, "
            f"{100 * wins / (2 * games):.1f}% (Wilson 95% {100 * low:.1f}-{100 * high:.1f}); "
            f"paired over {games} seeds: {100 * mean:.1f}% +- {100 * half:.1f}")


def positions(rules, n: int, seed: int) -> list:
    """(state at its roll) from seeded 4-player games of the best policy: every 5th
    roll as thrown, and the same state with a roll that can make 7."""
    rng = random.Random(seed)
    best = GAME.policy(rules, "best", {})
    out: list = []
    while len(out) < n:
        state = GAME.new_game(rules, {"players": 4}, rng)
        rolls = 0
        while not GAME.is_terminal(state) and len(out) < n:
            state = GAME.apply_action(state, GAME.sample_chance(state, rng))
            if rolls % 5 == 0:
                out.append(state)
                out.append(state.rolled((3, 4, rng.randint(1, 6))))
            rolls += 1
            state = GAME.apply_action(state, best.choose(state, GAME.legal_actions(state), rng))
    return out[:n]


def decision_times(rules, n: int, seed: int) -> None:
    states = positions(rules, n, seed)
    for name in GAME.policy_names:
        policy = GAME.policy(rules, name, {})
        rng = random.Random(seed)
        policy.choose(states[0], GAME.legal_actions(states[0]), rng)  # warm the tables
        times = []
        for state in states:
            legal = GAME.legal_actions(state)
            start = time.perf_counter()
            policy.choose(state, legal, rng)
            times.append(time.perf_counter() - start)
        times.sort()
        print(f"decision time of {name}: {len(times)} positions: median "
              f"{1000 * statistics.median(times):.2f} ms, p90 "
              f"{1000 * times[int(0.9 * len(times))]:.2f} ms, max {1000 * times[-1]:.2f} ms",
              flush=True)


def command(args: list[str], runs: int) -> None:
    """One toppi command, each run a fresh process: wall and CPU medians, the answer."""
    toppi = [sys.executable, "-c", "from solver.cli import main; main()"]
    walls, cpus, answers = [], [], []
    for _ in range(runs):
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run([*toppi, "hippo", *args, "--json"], capture_output=True,
                             text=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
        if out.returncode != 0:
            raise SystemExit(f"toppi hippo {' '.join(args)}: exit {out.returncode}: "
                             f"{out.stderr.strip()}")
        doc = json.loads(out.stdout)
        doc.pop("seconds", None)
        answers.append(doc)
    same = all(a == answers[0] for a in answers)
    shown = " ".join(Path(a).name if a.endswith(".json") else a for a in args)
    print(f"{shown[:80]}: median {statistics.median(walls):.2f} s wall "
          f"({', '.join(f'{w:.2f}' for w in walls)}), CPU {statistics.median(cpus):.2f} s; "
          f"{summary(answers[0])}; same answer in every run: {same}; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)


def summary(doc: dict) -> str:
    if "steps_limit" in doc:  # finish
        if doc["proven"]:
            return f"{100 * doc['chance']:.4f}% exact, {doc['steps']:,} steps"
        b = doc["bounds"]
        return (f"bounds {100 * b['at_least']:.4f}%-{100 * b['at_most']:.4f}% "
                f"(stopped by {b['stopped_by']}), {doc['steps']:,} steps")
    return (f"{doc['status']}, objective {doc['objective']} (bound {doc['bound']}), work "
            f"{doc['work']} of {doc['work_limit']}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--finish-turns", default="3,4")
    ap.add_argument("--skip-games", action="store_true")
    ap.add_argument("--skip-hint", action="store_true")
    ap.add_argument("--skip-defaults", action="store_true")
    ap.add_argument("--skip-plan", action="store_true")
    args = ap.parse_args()
    rules = load_rules()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    if not args.skip_games:
        for other in ("greedy", "random"):
            print(paired(rules, other, args.games, args.seed, args.jobs), flush=True)
    if not args.skip_hint:
        decision_times(rules, args.positions, args.seed)
    if not args.skip_defaults:
        for name in NAMES:
            for turns in args.finish_turns.split(","):
                command(["finish", str(EXAMPLES / f"{name}.json"), "--turns", turns],
                        args.runs)
        for name in () if args.skip_plan else NAMES:
            command(["plan", str(EXAMPLES / f"{name}.json"), "--rolls", ROLLS_18], args.runs)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
