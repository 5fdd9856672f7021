"""Learned play on Take It Easy (the rules file `puzzles/take-it-higher/rules/take-it-easy.json`):
values learned by `toppi take-it-higher learn` within a time budget, then the learned
policy's mean score over seeded games (the published AIs: 167-168 a game).

    python scripts/bench_take_it_easy.py learn --games N [--jobs 2] [--colour-demand]
        --out V.json.gz
    python scripts/bench_take_it_easy.py play --values V.json.gz [--games 1000]
        [--store S.sqlite] [--futures 32] [--lookahead 6]
    python scripts/bench_take_it_easy.py raw --values V.json.gz [--games 5000]

`learn` runs the command and prints its wall and CPU seconds with the load average
(the budget is a wall hour on the 2-core machine: pick --games from a short run's
rate). `play` runs `simulate --policy learned --no-optimum` (game g of seed 0, the same
games for every values file; `--store` keeps finished games, and the same command with
the same store goes on) and prints the mean score with its 95 % interval. `raw` plays
the values alone (no look-ahead, no exact endgame: `td.play`) on fixed draws, a quick
check of a values file (seconds, not the goal's figure).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RULES = ROOT / "puzzles" / "take-it-higher" / "rules" / "take-it-easy.json"


def toppi(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # the CLI of this checkout (PYTHONPATH), as `toppi` runs it
    main = "import sys; from solver.cli import main; sys.argv[0] = 'toppi'; main()"
    return subprocess.run([sys.executable, "-c", main, "take-it-higher", *args,
                           "--rules", str(RULES)], env=env, text=True, capture_output=True,
                          check=False)


def learn(args: argparse.Namespace) -> None:
    extra = [f"--jobs={args.jobs}", *(["--colour-demand"] if args.colour_demand else []),
             *(["--cell-fits"] if args.cell_fits else []),
             *([f"--resume={args.resume}"] if args.resume else [])]
    load = os.getloadavg()[0]
    wall = time.perf_counter()
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = toppi("learn", f"--games={args.games}", f"--out={args.out}", "--quiet", *extra)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(done.stderr.strip() or f"learn failed ({done.returncode})")
    print(f"learn --games {args.games:,} {' '.join(extra)}: {time.perf_counter() - wall:.0f} s "
          f"wall, {after.ru_utime - cpu.ru_utime:.0f} s CPU, load {load:.1f} -> "
          f"{os.getloadavg()[0]:.1f}")


def play(args: argparse.Namespace) -> None:
    from solver.store import Store

    store = Path(args.store or ROOT / "scripts" / "stores" /
                 f"take-it-easy-{Path(args.values).name.split('.')[0]}.sqlite")
    store.parent.mkdir(parents=True, exist_ok=True)
    options = ["--policy", "learned", f"--values={args.values}", "--no-optimum",
               f"--futures={args.futures}", f"--lookahead={args.lookahead}"]
    done = toppi("simulate", *options, f"--games={args.games}", f"--jobs={args.jobs}",
                 "--json", f"--store={store}", "--resume")
    if done.returncode:
        sys.exit(done.stderr.strip() or f"simulate failed ({done.returncode})")
    with Store(str(store), create=False) as s:
        scores = [r["result"]["measures"]["score"] for r in s.rows(
            "games", {"game": "take-it-higher"})
            if r["parameters"]["options"]["values"] == args.values
            and r["parameters"]["options"]["futures"] == args.futures
            and r["parameters"]["options"]["lookahead"] == args.lookahead
            and r["seed"] < args.games]
    error = statistics.stdev(scores) / len(scores) ** 0.5
    print(f"{args.values} (futures {args.futures}, lookahead {args.lookahead}): "
          f"{len(scores)} games, mean {statistics.fmean(scores):.2f} "
          f"(95 %: +- {1.96 * error:.2f}), load {os.getloadavg()[0]:.1f}")


def raw(args: argparse.Namespace) -> None:
    import random

    from models.take_it_higher.learned.files import load_values
    from models.take_it_higher.learned.td import play as play_values
    from models.take_it_higher.rules import load_rules
    from models.take_it_higher.variants import Variant

    rules = load_rules(RULES)
    values = load_values(Path(args.values), rules, Variant())
    rng = random.Random(12345)
    n = len(rules.tiles)
    scores = [play_values(values, rng.sample(range(n), rules.board_size))
              for _ in range(args.games)]
    error = statistics.stdev(scores) / len(scores) ** 0.5
    print(f"{args.values}: values alone, {len(scores)} games, mean "
          f"{statistics.fmean(scores):.2f} (95 %: +- {1.96 * error:.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    a = sub.add_parser("learn")
    a.add_argument("--games", type=int, required=True)
    a.add_argument("--jobs", type=int, default=1)
    a.add_argument("--colour-demand", action="store_true")
    a.add_argument("--cell-fits", action="store_true")
    a.add_argument("--resume")
    a.add_argument("--out", required=True)
    p = sub.add_parser("play")
    p.add_argument("--values", required=True)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--store")
    p.add_argument("--futures", type=int, default=32)
    p.add_argument("--lookahead", type=int, default=6)
    p.add_argument("--jobs", type=int, default=2)
    r = sub.add_parser("raw")
    r.add_argument("--values", required=True)
    r.add_argument("--games", type=int, default=5000)
    args = ap.parse_args()
    {"learn": learn, "play": play, "raw": raw}[args.what](args)


if __name__ == "__main__":
    main()
