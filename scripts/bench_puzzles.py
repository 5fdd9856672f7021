"""Benchmark of puzzle creation, for every game that has puzzles.

    python scripts/bench_puzzles.py [--game take-it-higher] [--runs 5] [--difficulty medium]

For each game: the time to generate one puzzle of the difficulty (median over --runs
seeds, each run a fresh `generate(count=1, seed=s)`), and the time of the uniqueness
check of every library puzzle in puzzles/<game>/library (median). A game has puzzles
when models/<package>/puzzles.py defines puzzle_game().
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import time
from pathlib import Path

from solver.generate import check_unique, generate
from solver.registry import games

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", action="append", help="game id (default: every game)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--difficulty", default="medium")
    args = ap.parse_args()
    for game_id in args.game or list(games()):
        package = games()[game_id].package
        try:
            module = importlib.import_module(f"{package}.puzzles")
        except ModuleNotFoundError:
            print(f"{game_id:16s} no puzzles yet")
            continue
        game = module.puzzle_game()
        kind = game.make_kind(None, game.backends[0], 60.0)
        times = []
        for seed in range(args.runs):
            start = time.perf_counter()
            report = generate(kind, args.difficulty, 1, seed=seed)
            times.append(time.perf_counter() - start)
            if not report.puzzles:
                print(f"{game_id}: seed {seed} found nothing in {report.attempts} attempts")
        checks = []
        for path in sorted((ROOT / "puzzles" / game_id / "library").glob("*.json")):
            puzzle, _ = game.read(kind, json.loads(path.read_text()), str(path))
            start = time.perf_counter()
            verdict = check_unique(kind, puzzle)
            checks.append(time.perf_counter() - start)
            if verdict.status != "unique":
                print(f"{path.name}: {verdict.status}")
        check = (f"median {statistics.median(checks):.3f} s, max {max(checks):.3f} s over "
                 f"{len(checks)} library puzzles" if checks else "no library")
        print(f"{game_id:16s} generate one {args.difficulty}: median "
              f"{statistics.median(times):.2f} s (max {max(times):.2f}) over {args.runs} seeds;"
              f" uniqueness check: {check}", flush=True)


if __name__ == "__main__":
    main()
