"""Speed of every game's simulate and of the solvers' hot loops, as whole commands.

    python scripts/bench_interface.py [--runs 5] [--only NAME ...] [--out FILE.json]

Each case is one `toppi ...` command run --runs times in a fresh process (in-process
executor, --jobs 1, so the machine's second core does not blur the figure). Two times
are taken: the `seconds` the command reports in its JSON (the work, without Python's
start-up; a solver imported on first use, such as OR-Tools' 0.5 s, counts here) and the
whole process's wall time; the medians over the runs are printed. Compare two checkouts by running this script in
each on a quiet machine (`uptime` first) and diffing the --out files.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
P = ROOT / "puzzles"

# name -> (command after `toppi`, JSON key path of the seconds)
CASES: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "tih-simulate-greedy": (["take-it-higher", "simulate", "--games", "1000", "--policy",
                             "greedy", "--no-optimum"], ("seconds",)),
    "tih-simulate-hint": (["take-it-higher", "simulate", "--games", "1", "--policy", "hint",
                           "--samples", "1", "--no-optimum"], ("seconds",)),
    "hh-simulate": (["hoch-hinaus", "simulate", "--games", "10", "--policy", "greedy",
                     "--policy", "random"], ("seconds",)),
    "hh-simulate-hint": (["hoch-hinaus", "simulate", "--games", "1", "--policy", "hint"],
                         ("seconds",)),
    "tt-simulate": (["tippi-toppi", "simulate", "--games", "40", "--players", "2,3",
                     "--difficulty", "1", "--policy", "hint", "--policy", "random"],
                    ("seconds",)),
    "hippo-simulate": (["hippo", "simulate", "--games", "200", "--players", "3",
                        "--policy", "best,greedy,random"], ("seconds",)),
    "hh-reachable": (["hoch-hinaus", "reachable", str(P / "hoch-hinaus/endgame-known.json"),
                      "--open-hands"],
                     ("seconds",)),
    "tt-reachable": (["tippi-toppi", "reachable", str(P / "tippi-toppi/known-deck.json"),
                      "--open-hands"],
                     ("seconds",)),
    "topito-simulate": (["topito", "simulate", "--games", "200", "--players", "2",
                         "--policy", "greedy"], ("seconds",)),
    "hippo-finish": (["hippo", "finish", str(P / "hippo/solo-endgame.json"), "--turns", "2"],
                     ("seconds",)),
}

BATCH = {"simulate"}  # verbs that take --jobs


def run_case(args: list[str], key: tuple[str, ...]) -> tuple[float, float]:
    """(the command's reported seconds, the process's wall time)."""
    cmd = [sys.executable, "-c", "from solver.cli import main; main()", *args, "--json"]
    if args[1] in BATCH:
        cmd += ["--jobs", "1"]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
    data = json.loads(out.stdout)
    for k in key:
        data = data[k]
    return float(data), wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--out", help="write the medians to this JSON file")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
    medians = {}
    for name, (cmd, key) in CASES.items():
        if args.only and name not in args.only:
            continue
        times = [run_case(cmd, key) for _ in range(args.runs)]
        work = statistics.median(t for t, _ in times)
        wall = statistics.median(w for _, w in times)
        medians[name] = {"seconds": work, "wall": wall}
        print(f"{name:24s} median {work:8.3f} s work, {wall:8.3f} s wall  "
              f"({', '.join(f'{t:.3f}' for t, _ in times)})", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(medians, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
