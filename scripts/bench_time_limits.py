"""Every solving command on a hard input with a small `--time-limit`: does it return
within the limit + 1 s, counted from process start?

    python scripts/bench_time_limits.py [--limit 1] [--runs 3] [--only TEXT]

Each command of `COMMANDS` (every verb of every game that takes `--time-limit`, the
puzzle verbs included) runs `--runs` times as its own process (`toppi ...`, so start-up,
imports, file reading and model building all count) with `--time-limit LIMIT`; the table
gives the median and the worst wall time, the exit codes seen and whether the worst run
stayed within LIMIT + 1 s. The inputs are chosen so that the limit bites (exit 3, or the
best answer found with its bound) wherever the command can run long; a few verbs finish
far inside any limit on every input of the repository (they are listed all the same).
tests/test_time_limits.py runs the same table in the suite, untimed: at the smallest limit
each option takes, it checks what a cut command says (the suite's verdicts never depend on
the machine's load; the timing is this script's).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
P = "puzzles"
TIH_LIB = f"{P}/take-it-higher/library/take-it-higher-hard-2026-1.json"
HH_LIB = f"{P}/hoch-hinaus/library/hoch-hinaus-hard-2026-1.json"
TT_LIB = f"{P}/tippi-toppi/library/tippi-toppi-hard-2026-1.json"
TO_LIB = f"{P}/topito/library/topito-hard-2026-1.json"
HI_LIB = f"{P}/hippo/library/hippo-hard-2026-1.json"

# (name, argv after `toppi`): `--time-limit LIMIT` is appended; `{tmp}` is a scratch dir.
COMMANDS: list[tuple[str, list[str]]] = [
    ("take-it-higher max advanced+gs", ["take-it-higher", "max", "--variant", "advanced",
                                        "--gold-silver"]),
    ("take-it-higher max simple draw", ["take-it-higher", "max", "--variant", "simple",
                                        "--draws", "1", "--jobs", "1"]),
    ("take-it-higher hint", ["take-it-higher", "hint", "{tmp}/tih-mid.json", "--tile", "GJ"]),
    ("take-it-higher hint learned", ["take-it-higher", "hint", "{tmp}/tih-mid.json", "--tile",
                                     "GJ", "--learned", "--futures", "4000"]),
    ("take-it-higher hint sampled", ["take-it-higher", "hint", "{tmp}/tih-mid.json", "--tile",
                                     "GJ", "--method", "sampled", "--samples", "1000"]),
    ("take-it-higher hint exact", ["take-it-higher", "hint", "{tmp}/tih-17.json", "--exact"]),
    ("take-it-higher generate", ["take-it-higher", "generate", "--difficulty", "hard",
                                 "--count", "20", "--max-seconds", "{limit}", "--out", "{tmp}/tih"]),
    ("take-it-higher solve", ["take-it-higher", "solve", TIH_LIB]),
    ("take-it-higher check-unique", ["take-it-higher", "check-unique", TIH_LIB]),
    ("take-it-higher sheet", ["take-it-higher", "sheet", TIH_LIB, "--svg", "{tmp}/tih.html"]),
    ("hoch-hinaus achievable", ["hoch-hinaus", "achievable", f"{P}/hoch-hinaus/midgame-1.json",
                                "--within", "12", "--tiles", "any"]),
    ("hoch-hinaus reachable", ["hoch-hinaus", "reachable", f"{P}/hoch-hinaus/midgame-1.json",
                               "--open-hands"]),
    ("hoch-hinaus reachable samples", ["hoch-hinaus", "reachable",
                                       f"{P}/hoch-hinaus/midgame-1.json", "--samples", "200"]),
    ("hoch-hinaus hint", ["hoch-hinaus", "hint", f"{P}/hoch-hinaus/midgame-1.json",
                          "--samples", "50"]),
    ("hoch-hinaus generate", ["hoch-hinaus", "generate", "--difficulty", "hard",
                              "--count", "20", "--max-seconds", "{limit}", "--out", "{tmp}/hh"]),
    ("hoch-hinaus solve", ["hoch-hinaus", "solve", HH_LIB]),
    ("hoch-hinaus check-unique", ["hoch-hinaus", "check-unique", HH_LIB]),
    ("hoch-hinaus sheet", ["hoch-hinaus", "sheet", HH_LIB, "--svg", "{tmp}/hh.html"]),
    ("tippi-toppi achievable", ["tippi-toppi", "achievable", f"{P}/tippi-toppi/known-deck.json",
                                "--within", "30", "--cards", "known"]),
    ("tippi-toppi reachable", ["tippi-toppi", "reachable", f"{P}/tippi-toppi/known-deck.json",
                               "--open-hands"]),
    ("tippi-toppi reachable samples", ["tippi-toppi", "reachable",
                                       f"{P}/tippi-toppi/hidden.json", "--samples", "200"]),
    ("tippi-toppi generate", ["tippi-toppi", "generate", "--difficulty", "hard",
                              "--count", "20", "--max-seconds", "{limit}", "--out", "{tmp}/tt"]),
    ("tippi-toppi solve", ["tippi-toppi", "solve", TT_LIB]),
    ("tippi-toppi check-unique", ["tippi-toppi", "check-unique", TT_LIB]),
    ("tippi-toppi sheet", ["tippi-toppi", "sheet", TT_LIB, "--svg", "{tmp}/tt.html"]),
    ("topito plan", ["topito", "plan", f"{P}/topito/start.json", "--cards",
                     "podium red: Bear Cat Duck; podium blue: Duck Cat Bear", "--all",
                     "--max-moves", "30"]),
    ("topito race", ["topito", "race", f"{P}/topito/race/endgame.json", "--max-moves", "40"]),
    ("topito reachable", ["topito", "reachable", f"{P}/topito/start.json", "--cards",
                          "podium red: Bear Cat Duck; podium blue: Duck Cat Bear", "--all",
                          "--within", "30"]),
    ("topito hint", ["topito", "hint", f"{P}/topito/midgame.json", "--max-moves", "30"]),
    ("topito generate", ["topito", "generate", "--difficulty", "hard", "--count", "20",
                         "--max-seconds", "{limit}", "--out", "{tmp}/to"]),
    ("topito solve", ["topito", "solve", TO_LIB]),
    ("topito check-unique", ["topito", "check-unique", TO_LIB]),
    ("topito sheet", ["topito", "sheet", TO_LIB, "--svg", "{tmp}/to.html"]),
    ("hippo finish", ["hippo", "finish", f"{P}/hippo/midgame-4p.json", "--turns", "4"]),
    ("hippo plan", ["hippo", "plan", f"{P}/hippo/solo-endgame.json", "--rolls",
                    " ".join(["6,4,2", "5,5,1", "3,4,1", "2,2,6", "1,3,5", "6,6,2"] * 3)]),
    ("hippo generate", ["hippo", "generate", "--difficulty", "hard", "--count", "20",
                        "--max-seconds", "{limit}", "--out", "{tmp}/hi"]),
    ("hippo solve", ["hippo", "solve", HI_LIB]),
    ("hippo check-unique", ["hippo", "check-unique", HI_LIB]),
    ("hippo sheet", ["hippo", "sheet", HI_LIB, "--svg", "{tmp}/hi.html"]),
]


def scratch_files(tmp: Path) -> None:
    """A Take it Higher! game after three tiles (the rulebook's advanced + gold/silver
    game), and a basic game after 17 tiles with the 18th called (7 empty cells: long
    work for exact values)."""
    game = json.loads((ROOT / P / "take-it-higher" / "hannah-advanced.json").read_text())
    game["placements"] = game["placements"][:3]
    (tmp / "tih-mid.json").write_text(json.dumps(game))
    basic = json.loads((ROOT / P / "take-it-higher" / "freddie-basic.json").read_text())
    moves = basic["placements"]
    (tmp / "tih-17.json").write_text(json.dumps({
        "game": "take-it-higher", "variant": "basic", "placements": moves[:17],
        "called": moves[17].split("@")[0].split("+")[0]}))


def toppi() -> str:
    """The `toppi` script beside this interpreter (the venv's)."""
    return str(Path(sys.executable).with_name("toppi"))


def argv(args: list[str], limit: float, tmp: Path) -> list[str]:
    return [a.format(tmp=tmp, limit=limit) for a in args] + ["--time-limit", str(limit), "--quiet"]


def run_once(args: list[str], limit: float, tmp: Path) -> tuple[float, int, str]:
    """(wall seconds from process start, exit code, last stderr line)."""
    import os

    # this checkout's code, whichever checkout the venv was installed from, its modules
    # compiled once as in an installation (not again by every run)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    done = subprocess.run([toppi(), *argv(args, limit, tmp)], cwd=ROOT, capture_output=True,
                          text=True, timeout=limit + 120, env=env)
    seconds = time.perf_counter() - start
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return seconds, done.returncode, lines[-1][:80] if lines else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="run the commands whose name has this text")
    args = parser.parse_args()
    import tempfile

    over = 0
    print(f"| command | median s | worst s | exit codes | within {args.limit:g} + 1 s |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        scratch_files(Path(tmp))
        for name, cmd in COMMANDS:
            if args.only not in name:
                continue
            runs = [run_once(cmd, args.limit, Path(tmp)) for _ in range(args.runs)]
            times = [r[0] for r in runs]
            codes = sorted({r[1] for r in runs})
            ok = max(times) <= args.limit + 1.0
            over += not ok
            note = "" if set(codes) <= {0, 3} else f" ({runs[0][2]})"
            print(f"| `{name}` | {statistics.median(times):.2f} | {max(times):.2f} | "
                  f"{', '.join(map(str, codes))}{note} | {'yes' if ok else '**no**'} |",
                  flush=True)
    print(f"\n{over} command(s) past the limit + 1 s")


if __name__ == "__main__":
    main()
