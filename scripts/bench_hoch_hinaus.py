"""Benchmark of Hoch Hinaus!: `achievable` with K = 3 on mid-game positions (goal: median
at most 1 s) and `hint` (goal: at most 2 s), median of several runs.

    /work/venv/bin/python scripts/bench_hoch_hinaus.py [--runs 3] [--backend sat cpsat]

The positions are puzzles/hoch-hinaus/midgame-*.json (seeded games after 6-9 turns,
written by scripts/make_hoch_hinaus_puzzles.py). Times are wall-clock seconds of the
query itself (model building included, loading the file excluded).
"""

import argparse
import statistics
import time
from pathlib import Path

from models.hoch_hinaus.achieve import achievable
from models.hoch_hinaus.hint import hint
from models.hoch_hinaus.rules import load_game, load_rules
from models.hoch_hinaus.tasks import load_catalogue
from solver.progress import progress_bar

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hoch-hinaus"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--within", type=int, default=3)
    ap.add_argument("--backend", nargs="+", default=["sat", "cpsat"])
    ap.add_argument("--tiles", nargs="+", default=["hand", "known", "any"])
    args = ap.parse_args()
    rules = load_rules()
    cat = load_catalogue(rules)
    files = sorted(PUZZLES.glob("midgame-*.json"))
    games = [(f.name, load_game(rules, f, None, cat)) for f in files]
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
