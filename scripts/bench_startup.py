"""Start-up time of the command line: `toppi --help` and `toppi <game> --help`.

    python scripts/bench_startup.py [--runs 10]

Each command runs --runs times in a fresh process (the `toppi` console script next to
this Python), in rounds; the median wall time is printed, with the goal of 0.15 s, and
the median CPU time (user + system), which a busy machine blurs less. Bytecode is
cached as after a normal install (in a scratch directory, PYTHONPYCACHEPREFIX, even
where PYTHONDONTWRITEBYTECODE is set; the first run of each command fills it and is not
counted). A slow line names the outside packages that cost most to import and the
project module importing each (`python -X importtime`), so the cause is in the output.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver.cli import COMMANDS
from solver.registry import games

GOAL = 0.15
TOPPI = Path(sys.executable).with_name("toppi")
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "toppi-bench-startup-pycache")


def wall(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of `args`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env=ENV)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def heavy_imports(module: str, top: int = 3) -> str:
    """The costliest outside packages that importing `module` pulls in (cumulative
    seconds, from `python -X importtime`), each with the project module importing it."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c",
                          f"import solver.cli, {module}"],
                         capture_output=True, text=True, check=True, env=ENV).stderr
    rows = []  # (depth, name, cumulative microseconds), children before their parent
    for line in out.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split(":", 1)[1].split("|")
            if cumulative.strip().isdigit():
                depth = (len(name) - len(name.lstrip())) // 2
                rows.append((depth, name.strip(), int(cumulative)))
    own = ("solver", "models")
    found = []
    for i, (depth, name, cost) in enumerate(rows):
        if name.split(".")[0] in own or name.split(".")[0] in sys.stdlib_module_names:
            continue
        parent = next((up for d, up, _ in rows[i + 1:] if d < depth), "")
        if parent.split(".")[0] in own:  # where the project reaches outside
            found.append((cost, f"{name} {cost / 1e6:.2f} s via {parent}"))
    return ", ".join(text for _, text in sorted(found, reverse=True)[:top])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    commands = [([], None)] + [([g.id], f"{g.package}.verbs") for g in games().values()]
    commands += [([name], module) for name, (module, _) in COMMANDS.items()]
    cases = {f"toppi {' '.join([*extra, '--help'])}": ([str(TOPPI), *extra, "--help"], module)
             for extra, module in commands}
    times: dict[str, list[tuple[float, float]]] = {}
    for name, (command, _) in cases.items():
        try:
            wall(command)  # fills the bytecode and file caches
            times[name] = []
        except RuntimeError as exc:
            print(f"{name:30s} fails: {exc}")
    load = os.getloadavg()[0]
    for _ in range(args.runs):  # in rounds: a passing load slows every command alike
        for name in times:
            times[name].append(wall(cases[name][0]))
    print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after; median of "
          f"{args.runs} runs; goal <= {GOAL} s")
    for name, runs in times.items():
        median = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        line = f"{name:30s} {median:.3f} s (cpu {cpu:.3f} s)"
        module = cases[name][1]
        if median > GOAL and module is not None:
            line += f"  (heavy imports: {heavy_imports(module)})"
        print(line)


if __name__ == "__main__":
    main()
