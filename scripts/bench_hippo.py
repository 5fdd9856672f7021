"""Benchmark of Hippo: `best` speed and simulated games of the best policy.

    python scripts/bench_hippo.py [--positions 300] [--games 10000] [--players 4]
                                  [--jobs 2] [--runs 3] [--seed 0]
    python scripts/bench_hippo.py --speedup [--speedup-games 1200] [--runs 3]
    python scripts/bench_hippo.py --hint-only [--positions 400]
    python scripts/bench_hippo.py --finish [--finish-turns 2,3,4] [--finish-limit 120]
                                  [--runs 3] [FILE ...]

best: positions are taken from seeded games of the best policy (every 5th roll), each
      with its actual roll and with a roll that can make 7 (3,4,x: a bonus roll to
      average); prints the median, 90th percentile and maximum time of best_options.
simulate: --games games of the best policy on every seat on a local pool of --jobs
      processes (the machine has 2 cores shared with other jobs); wall time of each of
      --runs runs, their median, and the CPU time per game of one process.
--hint-only: only the hint's decision time (`best` on the positions above: the hint of
      `play` and the best policy), no simulation.
--speedup: only the pool speed-up of simulate: the same command
      `toppi hippo simulate --games G --players P --policy best --jobs 1|2 --json`
      (G = --speedup-games), alternately, --runs times each, each a fresh process;
      games per second of simulate (its reported seconds) and of the whole command,
      the medians and their ratio.
--finish: `toppi hippo finish FILE --turns N --time-limit L --json` on the example
      positions (default: solo-endgame, midgame-4p, penalty-trap, start-2p), each a
      fresh process, --runs times: median wall time of the whole command (start-up
      included), the DP's own seconds, the median CPU time of the command (user +
      system: what the load does not inflate), the chance and the positions valued; a
      run stopped by its steps or the limit is shown as such with its bounds. The load
      average is printed before, after each position and after (the machine's 2 cores
      are shared).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from models.hippo.best import best_options
from models.hippo.game import GAME
from models.hippo.rules import load_rules
from solver.executor import Batch
from solver.simulate import simulate


def sample_positions(rules, n: int, players: int, seed: int) -> list:
    """(state, roll) pairs from games of the best policy: every 5th roll as thrown,
    and the same state with a roll that can make 7."""
    rng = random.Random(seed)
    best = GAME.policy(rules, "best", {})
    out = []
    while len(out) < n:
        state = GAME.new_game(rules, {"players": players}, rng)
        rolls = 0
        while not GAME.is_terminal(state) and rolls < 400 and len(out) < n:
            state = GAME.apply_action(state, GAME.sample_chance(state, rng))
            if rolls % 5 == 0:
                out.append((state, state.roll))
                out.append((state, (3, 4, rng.randint(1, 6))))
            rolls += 1
            move = best.choose(state, GAME.legal_actions(state), rng)
            state = GAME.apply_action(state, move)
    return out[:n]


def run_simulation(rules, games: int, players: int, seed: int, batch: Batch | None = None):
    """The first cell of `simulate` with the best policy on every seat."""
    result = simulate(GAME, rules, games, GAME.setups(rules, players=players),
                      [["best"] * players], seed, batch=batch)
    return result.cells[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--speedup", action="store_true",
                    help="Only measure simulate on --jobs 1 against --jobs 2.")
    ap.add_argument("--speedup-games", type=int, default=1200)
    ap.add_argument("--hint-only", action="store_true",
                    help="Only the hint's (best's) decision time on --positions positions.")
    ap.add_argument("--finish", action="store_true",
                    help="Only time `toppi hippo finish` on the example positions.")
    ap.add_argument("--finish-turns", default="2,3,4")
    ap.add_argument("--finish-limit", type=float, default=120.0)
    ap.add_argument("files", nargs="*", help="Positions for --finish.")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rules = load_rules()
    if args.finish:
        finish_times(args.files or [str(EXAMPLES / f"{name}.json") for name in FINISH_EXAMPLES],
                     [int(t) for t in args.finish_turns.split(",")], args.finish_limit,
                     args.runs)
        return
    if args.speedup:
        speedup(args.speedup_games, args.players, args.runs, args.seed)
        return

    positions = sample_positions(rules, args.positions, args.players, args.seed)
    best_options(*positions[0])  # warm the tables
    times = []
    for state, dice in positions:
        start = time.perf_counter()
        best_options(state, dice)
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"best (the hint): {len(times)} positions ({args.players} players): median "
          f"{1000 * statistics.median(times):.2f} ms, p90 "
          f"{1000 * times[int(0.9 * len(times))]:.2f} ms, max {1000 * times[-1]:.2f} ms")
    if args.hint_only:
        return

    cpu_start = time.process_time()
    probe = min(200, args.games)
    run_simulation(rules, probe, args.players, args.seed)
    cpu = (time.process_time() - cpu_start) / probe
    print(f"simulate: {1000 * cpu:.1f} ms CPU per game in one process ({probe} games)")

    walls = []
    for run in range(args.runs):
        start = time.perf_counter()
        cell = run_simulation(rules, args.games, args.players, args.seed + run,
                              Batch(args.jobs, progress=False))
        walls.append(time.perf_counter() - start)
        rates = ", ".join(f"{100 * r.rate:.1f}%" for r in cell.win_rate_by_seat)
        print(f"simulate run {run + 1}: {args.games} games, {args.players} players, "
              f"{args.jobs} processes: {walls[-1]:.1f} s wall; seats {rates}; mean "
              f"{cell.measures['turns']['mean']:.1f} turns", flush=True)
    print(f"simulate: median wall {statistics.median(walls):.1f} s over {len(walls)} runs")


EXAMPLES = Path(__file__).resolve().parent.parent / "puzzles" / "hippo"
FINISH_EXAMPLES = ("solo-endgame", "midgame-4p", "penalty-trap", "start-2p")


def finish_times(files: list[str], turns: list[int], limit: float, runs: int) -> None:
    """`toppi hippo finish` as a user runs it, each run a fresh process."""
    toppi = Path(sys.executable).parent / "toppi"
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    for file in files:
        for n in turns:
            walls, cpus, inner, line = [], [], [], ""
            for _ in range(runs):
                command = [str(toppi), "hippo", "finish", file, "--turns", str(n),
                           "--time-limit", str(limit), "--json"]
                start = time.perf_counter()
                used = resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run(command, capture_output=True, text=True)
                walls.append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus.append(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
                if out.returncode == 0:
                    res = json.loads(out.stdout)
                    inner.append(res["seconds"])
                    b = res["bounds"]
                    line = (f"{100 * res['chance']:.4f}%" if b is None else
                            f"stopped by the {b['stopped_by']}: at least "
                            f"{100 * b['at_least']:.4f}%, at most {100 * b['at_most']:.4f}%")
                    line += f" ({res['states']} positions, {res['steps']:,} steps)"
                else:
                    raise SystemExit(f"{' '.join(command)}: exit {out.returncode}: "
                                     f"{out.stderr.strip()}")
            dp = f", DP {statistics.median(inner):.2f} s" if inner else ""
            print(f"finish {Path(file).name} --turns {n}: median {statistics.median(walls):.2f} s"
                  f" wall over {runs} runs ({', '.join(f'{w:.2f}' for w in walls)}){dp}, CPU "
                  f"median {statistics.median(cpus):.2f} s; load {os.getloadavg()[0]:.2f}; "
                  f"{line}", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def speedup(games: int, players: int, runs: int, seed: int) -> None:
    """`toppi hippo simulate` with --jobs 1 and --jobs 2, alternately, each run a fresh
    process (cold caches, as a user runs it): games per second of simulate itself (the
    `seconds` it reports) and of the whole command (wall, with start-up)."""
    toppi = Path(sys.executable).parent / "toppi"
    rates: dict[int, list[float]] = {1: [], 2: []}
    walls: dict[int, list[float]] = {1: [], 2: []}
    first = None
    for run in range(runs):
        for jobs in (1, 2):
            command = [str(toppi), "hippo", "simulate", "--games", str(games), "--players",
                       str(players), "--policy", "best", "--seed", str(seed), "--jobs",
                       str(jobs), "--json"]
            start = time.perf_counter()
            out = subprocess.run(command, capture_output=True, text=True, check=True)
            wall = time.perf_counter() - start
            res = json.loads(out.stdout)
            # the same games whichever executor played them
            cell = res["cells"][0]
            key = (cell["win_rate_by_seat"], cell["measures"]["turns"])
            assert first is None or key == first, "executors disagree"
            first = key
            rates[jobs].append(games / res["seconds"])
            walls[jobs].append(games / wall)
            print(f"run {run + 1}, --jobs {jobs}: {games} games, simulate {res['seconds']:.1f} s"
                  f" = {rates[jobs][-1]:.1f} games/s (command {wall:.1f} s = "
                  f"{walls[jobs][-1]:.1f} games/s)", flush=True)
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    w1, w2 = statistics.median(walls[1]), statistics.median(walls[2])
    print(f"simulate {games} games, {players} players, best policy, medians of {runs} runs: "
          f"{one:.1f} games/s in-process, {two:.1f} games/s on a pool of 2: speed-up "
          f"{two / one:.2f}x (whole command: {w1:.1f} vs {w2:.1f} games/s, {w2 / w1:.2f}x)")


if __name__ == "__main__":
    main()
