"""Figures of Hoch Hinaus' hint for docs/hoch-hinaus.md, at fixed work budgets (no
clock anywhere: the answers replay on any machine, only the times vary).

    python scripts/bench_hoch_hinaus_hint.py --games 40 [--players 2]
        [--difficulty normal] [--jobs 2] [--store hh-hint.sqlite]
    python scripts/bench_hoch_hinaus_hint.py --positions 21 [--runs 1]

`--games N`: the default hint (the `hint` policy: the hint's ranking with its SAT
look-ahead) against the other methods, `greedy` (the same ranking without the
look-ahead) and `random`, on the same N seeded deals, every player deciding from their
own view: `toppi hoch-hinaus simulate --games N --players P --difficulty D --policy hint
--policy greedy --policy random --seed 0 --jobs J --json` (with `--store F --resume`:
an interrupted run goes on). Per method the games won (Wilson 95 % interval) and the
mean tasks fulfilled; per other method the paired difference to the hint over the same
deals (hint minus it) with its 95 % interval (normal approximation of the mean of the
per-deal differences).

`--positions N`: the decision time of `hint` at its command-line defaults (16 draws,
horizon 2, top 4, 4000 conflicts a check; from what the player on turn may know) on N
seeded positions (deals of 1-4 players played 0-20 random turns on, as
`scripts/bench_hoch_hinaus.py --hint`): median, p90 and max seconds; every run's
ranking is checked equal to the first run's (the answer is a function of the position).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
METHODS = ("hint", "greedy", "random")


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of k successes in n trials."""
    z = 1.959964
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def paired(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """Mean of xs - ys over the same deals and its 95 % interval."""
    d = [x - y for x, y in zip(xs, ys, strict=True)]
    mean = statistics.fmean(d)
    half = 1.959964 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    return mean, mean - half, mean + half


def games(n: int, players: int, difficulty: str, jobs: int, store: str | None) -> None:
    """The methods on the same seeded deals (see the docstring)."""
    cmd = ["hoch-hinaus", "simulate", "--games", str(n), "--players", str(players),
           "--difficulty", difficulty, "--seed", "0", "--jobs", str(jobs), "--json"]
    for m in METHODS:
        cmd += ["--policy", m]
    if store:
        cmd += ["--store", store, "--resume"]
    print("toppi " + " ".join(cmd), flush=True)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", "import sys; from solver.cli import cli; "
                          "sys.exit(cli())", *cmd], cwd=ROOT, capture_output=True,
                         text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    data = json.loads(out)
    won: dict[str, list[float]] = {m: [0.0] * n for m in METHODS}
    tasks: dict[str, list[float]] = {m: [0.0] * n for m in METHODS}
    for r in data["records"]:
        m = r["seats"][0]
        won[m][r["game"]] = float(r["returns"][0] > 0)
        tasks[m][r["game"]] = float(r["measures"]["tasks_completed"])
    print(f"{n} deals, {players} players, {difficulty}; {time.perf_counter() - start:.0f} s "
          f"wall (load average {os.getloadavg()[0]:.2f})")
    for m in METHODS:
        k = int(sum(won[m]))
        lo, hi = wilson(k, n)
        print(f"  {m:7s} won {k:3d}/{n} = {k / n:6.1%} (95 % {lo:.1%}-{hi:.1%}), tasks "
              f"{statistics.fmean(tasks[m]):.2f} per game")
    for m in METHODS[1:]:
        dw, wlo, whi = paired(won["hint"], won[m])
        dt, tlo, thi = paired(tasks["hint"], tasks[m])
        print(f"  hint - {m:7s}: win rate {dw:+.1%} (95 % {wlo:+.1%} to {whi:+.1%}), tasks "
              f"{dt:+.2f} (95 % {tlo:+.2f} to {thi:+.2f}) per game, paired over the deals")


def positions(n: int, runs: int) -> None:
    """The hint's decision time at its defaults (see the docstring)."""
    from bench_hoch_hinaus import seeded_positions  # the same deals (scripts/ is on the path)

    from models.hoch_hinaus.hint import hint

    states = [g.observation(g.on_turn) for g in seeded_positions(n)]
    times: list[float] = []
    first: dict[int, list] = {}
    differ: set[int] = set()
    for _ in range(runs):
        for i, seen in enumerate(states):
            start = time.perf_counter()
            res = hint(seen)
            times.append(time.perf_counter() - start)
            ranking = [(o.action, o.score) for o in res.options]
            if first.setdefault(i, ranking) != ranking:
                differ.add(i)
    same = not differ or f"False (positions {sorted(differ)})"
    times.sort()
    print(f"hint at its defaults, {len(states)} positions x {runs} runs: median "
          f"{statistics.median(times):.3f} s  p90 {times[int(0.9 * len(times))]:.3f} s  "
          f"max {times[-1]:.3f} s; every run the same ranking: {same} (load average "
          f"{os.getloadavg()[0]:.2f})", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=0, metavar="N")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--difficulty", default="normal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--store", default=None)
    ap.add_argument("--positions", type=int, default=0, metavar="N")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    if args.games:
        games(args.games, args.players, args.difficulty, args.jobs, args.store)
    if args.positions:
        positions(args.positions, args.runs)
    if not (args.games or args.positions):
        ap.error("give --games N or --positions N")


if __name__ == "__main__":
    main()
