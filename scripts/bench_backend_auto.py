"""`max --backend auto` against each single back-end, on boards of several shapes.

    python scripts/bench_backend_auto.py [--runs 3] [--limit 120] [--only NAME ...]
                                         [--busy] [--out results.json]

Instances: the built-in board (basic and gold/silver, every tile free), draws of it
(`max --draw`: the tiles of simulate's games 0, 1, 2 with --seed 0), rules files of
other shapes written by scripts/make_take_it_higher_rules.py (hexagons, 3 or 5
directions, 3 colours in a direction, many more tiles than cells, one copy per tile),
and the Take It Easy rules file of the puzzles (puzzles/take-it-higher/rules/).

--busy: one CPU-bound process (`python -c "while True: pass"`, started by this script
in its own session, as a user's job in another terminal) runs beside every measured
call, the whole time.

Each instance runs `cpsat` (2 CP-SAT workers, the CLI default), `maxsat` and `auto`
(the race, --workers 2) `--runs` times, interleaved (cpsat, maxsat, auto, cpsat, ...)
so that a change of the machine's load hits all three alike. A time is the wall time of
the call in this process, model building (and for auto the processes) included; a run
that does not prove the maximum within --limit counts as the limit. The table gives
the medians and auto / (the faster single back-end); the goal is <= 1.3 everywhere.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from models.take_it_higher.auto import maximise_auto
from models.take_it_higher.maximum import maximise
from models.take_it_higher.rules import Rules, Tile, load_rules
from models.take_it_higher.state import game_draw
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions
from solver.errors import TimeLimitReached
from solver.game import task_seed

MODES = ("cpsat", "maxsat", "auto")
TAKE_IT_EASY = Path(__file__).parents[1] / "puzzles/take-it-higher/rules/take-it-easy.json"
SHAPES = ("hexagon", "hexagon-3col", "hexagon-large", "three-directions", "five-directions",
          "five-directions-small", "one-copy", "more-tiles", "octagon-8")


@dataclass
class Instance:
    name: str
    rules: Rules
    variant: Variant
    draw: list[Tile] | None


def _generator():  # scripts/ is not a package: load the rules generator by path
    path = Path(__file__).with_name("make_take_it_higher_rules.py")
    spec = importlib.util.spec_from_file_location("make_take_it_higher_rules", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def instances(folder: Path) -> list[Instance]:
    builtin = load_rules()
    out = [Instance("built-in basic", builtin, Variant(), None),
           Instance("built-in gold/silver", builtin, Variant(gold_silver=True), None)]
    for i in range(3):
        draw = game_draw(builtin, task_seed(0, i))
        out.append(Instance(f"built-in draw {i} basic", builtin, Variant(), draw))
    out.append(Instance("built-in draw 0 gold/silver", builtin, Variant(gold_silver=True),
                        game_draw(builtin, task_seed(0, 0))))
    gen = _generator()
    for shape in SHAPES:
        path = folder / f"{shape}.json"
        gen.write_shape(shape, path)
        out.append(Instance(f"{shape} basic", load_rules(path), Variant(), None))
    out.append(Instance("take-it-easy basic", load_rules(TAKE_IT_EASY), Variant(), None))
    return out


def run(instance: Instance, mode: str, limit: float) -> tuple[float, str]:
    """Wall time and what came out ("477" proven, "477?" not proven, "-" nothing)."""
    options = SolverOptions(time_limit=limit, seed=0, workers=2)
    start = time.perf_counter()
    try:
        if mode == "auto":
            r = maximise_auto(instance.rules, instance.variant, instance.draw, options)
            by = f" ({r.proved_by})" if r.proved_by else ""
            race = " ".join(f"{e.name}:{e.state}@{e.seconds:.2f}" for e in r.race)
            print(f"  race: {race or 'none'}", file=sys.stderr)
        else:
            r = maximise(instance.rules, instance.variant, instance.draw, mode, options)
            by = ""
    except TimeLimitReached:
        return time.perf_counter() - start, "-"
    seconds = time.perf_counter() - start
    return seconds, f"{r.score}{'' if r.status == 'optimal' else '?'}{by}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per run")
    ap.add_argument("--only", nargs="*", help="instances whose name contains one of these")
    ap.add_argument("--out", type=Path, help="also write every run as JSON here")
    ap.add_argument("--busy", action="store_true",
                    help="one CPU-bound process beside every run (see module doc)")
    args = ap.parse_args()
    busy = None
    if args.busy:
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                start_new_session=True)
    try:
        bench(args)
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()


def bench(args: argparse.Namespace) -> None:
    print(f"load average at start: {os.getloadavg()}", file=sys.stderr)
    rows, raw = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for inst in instances(Path(tmp)):
            if args.only and not any(o in inst.name for o in args.only):
                continue
            times: dict[str, list[float]] = {m: [] for m in MODES}
            answers: dict[str, list[str]] = {m: [] for m in MODES}
            for k in range(args.runs):
                for mode in MODES:
                    seconds, answer = run(inst, mode, args.limit)
                    proven = answer != "-" and "?" not in answer.split()[0]
                    # an unproven run counts as the whole limit
                    times[mode].append(seconds if proven else max(seconds, args.limit))
                    answers[mode].append(answer)
                    raw.append({"instance": inst.name, "mode": mode, "run": k,
                                "seconds": round(seconds, 3), "answer": answer,
                                "load": os.getloadavg()[0]})
                    print(f"{inst.name} {mode} run {k}: {seconds:.2f} s {answer}",
                          file=sys.stderr, flush=True)
            med = {m: statistics.median(times[m]) for m in MODES}
            best = min(med["cpsat"], med["maxsat"])
            loads = [r["load"] for r in raw if r["instance"] == inst.name]
            rows.append((inst.name, med, med["auto"] / best, answers,
                         f"{min(loads):.1f}-{max(loads):.1f}"))
            if args.out:
                args.out.write_text(json.dumps(raw, indent=1))
    limit = f">{args.limit:g}"

    def cell(seconds: float) -> str:
        return limit if seconds >= args.limit else f"{seconds:.2f}"

    print("| instance | cpsat s | maxsat s | auto s | auto / faster | value (auto: proved by) "
          "| load |")
    print("|---|---|---|---|---|---|---|")
    for name, med, ratio, answers, load in rows:
        print(f"| {name} | {cell(med['cpsat'])} | {cell(med['maxsat'])} | "
              f"{cell(med['auto'])} | {ratio:.2f} | {answers['auto'][-1]} | {load} |")
    print(f"load average at end: {os.getloadavg()}", file=sys.stderr)


if __name__ == "__main__":
    main()
