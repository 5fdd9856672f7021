"""Benchmark of Hoch Hinaus!: `achievable` with K = 3 on mid-game positions (goal: median
at most 1 s) and `hint` (goal: at most 2 s), median of several runs.

    /work/venv/bin/python scripts/bench_hoch_hinaus.py [--runs 3] [--backend sat cpsat]
    /work/venv/bin/python scripts/bench_hoch_hinaus.py --speedup [--games 40] [--runs 3]

`--speedup`: the pool speed-up of `toppi hoch-hinaus simulate` instead: the same run
(greedy and random policies on the same deals) with `--jobs 1` and `--jobs 2`, each a
fresh `toppi` process timed from start to end, alternated, median of `--runs`; the two
tables are checked equal.

The positions are puzzles/hoch-hinaus/midgame-*.json (seeded games after 6-9 turns,
written by scripts/make_hoch_hinaus_puzzles.py). Times are wall-clock seconds of the
query itself (model building included, loading the file excluded).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from models.hoch_hinaus.achieve import achievable
from models.hoch_hinaus.files import load_position
from models.hoch_hinaus.hint import hint
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.tasks import load_catalogue
from solver.progress import progress_bar

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hoch-hinaus"


def speedup(games: int, runs: int) -> None:
    """`simulate` with --jobs 1 and --jobs 2, fresh processes, median wall seconds."""
    toppi = str(Path(sys.executable).parent / "toppi")
    cmd = [toppi, "hoch-hinaus", "simulate", "--games", str(games), "--difficulty", "normal",
           "--players", "2", "--policy", "greedy", "--policy", "random", "--json"]
    times: dict[int, list[float]] = {1: [], 2: []}
    tables: dict[int, dict] = {}
    for r in range(runs):
        for jobs in (1, 2):
            start = time.perf_counter()
            out = subprocess.run([*cmd, "--jobs", str(jobs)], capture_output=True, text=True,
                                 check=True).stdout
            times[jobs].append(time.perf_counter() - start)
            data = json.loads(out)
            tables[jobs] = {k: v for k, v in data.items() if k not in ("seconds", "executor")}
            print(f"run {r + 1} --jobs {jobs}: {times[jobs][-1]:.1f} s (load average "
                  f"{os.getloadavg()[0]:.2f} at the end: the machine is shared)", flush=True)
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(f"{' '.join(cmd[1:])} --jobs 1|2")
    print(f"  --jobs 1 median {one:.1f} s ({2 * games / one:.2f} games/s), --jobs 2 median "
          f"{two:.1f} s ({2 * games / two:.2f} games/s): speed-up {one / two:.2f}x")
    print(f"  same table on both: {tables[1] == tables[2]}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--within", type=int, default=3)
    ap.add_argument("--backend", nargs="+", default=["sat", "cpsat"])
    ap.add_argument("--tiles", nargs="+", default=["hand", "known", "any"])
    ap.add_argument("--speedup", action="store_true",
                    help="measure simulate --jobs 1 against --jobs 2 instead")
    ap.add_argument("--games", type=int, default=40, help="deals of the --speedup run")
    args = ap.parse_args()
    if args.speedup:
        speedup(args.games, args.runs)
        return
    rules = load_rules()
    cat = load_catalogue(rules)
    files = sorted(PUZZLES.glob("midgame-*.json"))
    games = [(f.name, load_position(rules, f, None, cat)) for f in files]
    times: dict[tuple[str, str], list[float]] = {}
    answers: dict[tuple[str, str, str], str] = {}
    hints: list[float] = []
    total = len(games) * args.runs * (len(args.backend) * len(args.tiles) + 1)
    done = 0
    with progress_bar("benchmark") as update:
        for name, g in games:
            tasks = [t for t in g.open if t is not None]
            for backend in args.backend:
                for mode in args.tiles:
                    for _ in range(args.runs):
                        start = time.perf_counter()
                        res = achievable(g, tasks, args.within, mode, backend)
                        times.setdefault((backend, mode), []).append(
                            time.perf_counter() - start)
                        answers[(name, backend, mode)] = res.answer
                        done += 1
                        update(done, total)
            for _ in range(args.runs):
                start = time.perf_counter()
                hint(g)
                hints.append(time.perf_counter() - start)
                done += 1
                update(done, total)
    print(f"achievable --within {args.within}, {len(games)} mid-game positions x "
          f"{args.runs} runs (all open tasks together):")
    for (backend, mode), ts in sorted(times.items()):
        print(f"  {backend:6s} tiles={mode:6s} median {statistics.median(ts):.3f} s  "
              f"max {max(ts):.3f} s")
    for backend in args.backend:
        ts = [t for (b, _), v in times.items() if b == backend for t in v]
        print(f"  {backend:6s} all modes   median {statistics.median(ts):.3f} s  "
              f"max {max(ts):.3f} s  (goal: median <= 1 s)")
    agree = all(answers[(n, args.backend[0], m)] == answers[(n, b, m)]
                for n, _ in games for b in args.backend for m in args.tiles)
    print(f"  back-ends agree on every answer: {agree}")
    print(f"hint: median {statistics.median(hints):.3f} s  max {max(hints):.3f} s  "
          "(goal: <= 2 s)")


if __name__ == "__main__":
    main()
