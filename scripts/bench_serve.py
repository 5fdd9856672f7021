"""Figures of `toppi serve` (docs/serve.md): the start-up of `toppi serve`, a game page's
load in headless Chromium, and a hint asked on the page against the same hint from the
command line. Medians of --runs runs.

    python scripts/bench_serve.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.serve.browser import chromium, free_port, running_server, wait_for  # noqa: E402

TOPPI = [sys.executable, "-c", "from solver.cli import main; main()"]
# the hint of each game asked on the page and on the command line: (game, file, verb, options)
HINTS = [("hippo", "hippo/midgame-4p.json", "best", ["--roll", "6,4,2"]),
         ("tippi-toppi", "tippi-toppi/known-deck.json", "hint", []),
         ("topito", "topito/midgame.json", "hint", [])]


def startup() -> float:
    """Seconds from starting `toppi serve` to its first page served."""
    port = free_port()
    started = time.monotonic()
    proc = subprocess.Popen([*TOPPI, "serve", "--port", str(port)],
                            stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as r:
                    if r.status == 200:
                        return time.monotonic() - started
            except OSError:
                time.sleep(0.01)
            if time.monotonic() - started > 20:
                raise RuntimeError("toppi serve did not start in 20 s")
    finally:
        proc.terminate()
        proc.wait(10)


def cli_seconds(game: str, file: str, verb: str, options: list[str]) -> float:
    started = time.monotonic()
    subprocess.run([*TOPPI, game, verb, str(ROOT / "puzzles" / file), *options, "--json"],
                   check=True, capture_output=True, env={"TOPPI_QUIET": "1", "PATH": ""})
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    n = args.runs
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    up = [startup() for _ in range(n)]
    print(f"toppi serve up (first page served): median {statistics.median(up):.3f} s "
          f"(min {min(up):.3f}, max {max(up):.3f})")
    with running_server() as url, chromium() as driver:
        for game in ("hippo", "take-it-higher"):
            loads, ready = [], []
            driver.get(f"{url}/{game}")  # first visit: caches warm
            wait_for(driver, "document.body.dataset.ready")
            for _ in range(n):
                driver.get(f"{url}/{game}")
                wait_for(driver, "document.body.dataset.ready")
                t = driver.execute_script(
                    "const n = performance.getEntriesByType('navigation')[0];"
                    "return [n.loadEventEnd, performance.now()]")
                loads.append(t[0] / 1000)
                ready.append(driver.execute_script("return window.__ready") / 1000)
            print(f"{game} page load (navigation to load event): median "
                  f"{statistics.median(loads) * 1000:.0f} ms (max {max(loads) * 1000:.0f}); "
                  f"with its picture, status and moves: median "
                  f"{statistics.median(ready) * 1000:.0f} ms (max {max(ready) * 1000:.0f})")
        for game, file, verb, options in HINTS:
            driver.get(f"{url}/{game}")
            wait_for(driver, "document.body.dataset.ready")
            text = (ROOT / "puzzles" / file).read_text()
            query = "&".join(f"{options[i][2:]}={options[i + 1]}"
                             for i in range(0, len(options), 2))
            page = []
            for _ in range(n + 1):
                driver.execute_script(
                    "document.getElementById('position').value = arguments[0];"
                    "document.getElementById('opts-' + arguments[1]).value = arguments[2];"
                    "document.getElementById('answer').dataset.verb = '';"
                    "window.__t0 = performance.now();"
                    "new MutationObserver((m, o) => { window.__t1 = performance.now();"
                    " o.disconnect(); }).observe(document.getElementById('answer'),"
                    " {attributes: true, attributeFilter: ['data-verb']});"
                    "document.getElementById('ask-' + arguments[1]).click();",
                    text, verb, query)
                wait_for(driver, "window.__t1 > window.__t0", 60)
                page.append(driver.execute_script("return window.__t1 - window.__t0") / 1000)
                assert driver.execute_script(
                    "return document.getElementById('answer').dataset.status") == "200"
            page = page[1:]  # the first warms the pool worker's imports
            cli = [cli_seconds(game, file, verb, options) for _ in range(n)]
            print(f"{game} {verb} {' '.join(options)}: page median "
                  f"{statistics.median(page):.3f} s, CLI median {statistics.median(cli):.3f} s "
                  f"(difference {statistics.median(page) - statistics.median(cli):+.3f} s)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(json.dumps({"startup": up}))


if __name__ == "__main__":
    main()
