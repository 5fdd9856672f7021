"""Figures of `toppi serve` (docs/serve.md): the start-up of `toppi serve`, a game page's
load in headless Chromium, a hint asked on the page against the same hint from the
command line, and the pool's timings (a page while every slot runs a long solve, a
solve answered at its time limit, a process killed at its limit, a cancel). Medians of
--runs runs. The suite checks what these do, not how fast (tests/test_serve_api.py).

    python scripts/bench_serve.py [--runs 7] [--pool-only]
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
from typing import Any

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


# a solve that runs to the web's longest limit (60 s): holds a slot
LONG_SOLVE = "variant=advanced&gold-silver=1&backend=cpsat"


def _request(url: str, method: str = "GET", body: bytes | None = None) -> tuple[int, dict]:
    """(HTTP status, JSON document or {}) of one request."""
    import urllib.error

    request = urllib.request.Request(url, data=body, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as r:
            status, text = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, {}


def _timed(call: Any) -> tuple[float, Any]:
    started = time.monotonic()
    out = call()
    return time.monotonic() - started, out


def _hold_pool(url: str, size: int) -> list[str]:
    """Start a long solve on every slot; their job ids once all run."""
    held = [_request(f"{url}/api/take-it-higher/max?{LONG_SOLVE}&time-limit=60&async=1",
                     "POST", b"{}")[1]["job"] for _ in range(size)]
    while any(_request(f"{url}/api/jobs/{j}")[1]["status"] == "queued" for j in held):
        time.sleep(0.05)
    return held


def pool_figures(url: str, n: int, size: int) -> None:
    """The timings the suite does not check: a page while the pool is busy, a cancel,
    a solve answered at its own limit and a process killed at its limit (GRACE 0)."""
    from solver.serve import jobs

    page, cancel = [], []
    for _ in range(n):
        held = _hold_pool(url, size)
        page.append(_timed(lambda: _request(f"{url}/hippo"))[0])
        for job in held:
            cancel.append(_timed(lambda j=job: _request(f"{url}/api/jobs/{j}", "DELETE"))[0])
    print(f"page while all {size} slots solve: median {statistics.median(page):.3f} s "
          f"(max {max(page):.3f}; goal < 1 s); cancel answered: median "
          f"{statistics.median(cancel):.3f} s (max {max(cancel):.3f})")
    for limit, grace in ((1.0, jobs.GRACE), (0.3, 0.0)):
        old, jobs.GRACE = jobs.GRACE, grace
        try:
            ask = f"{url}/api/take-it-higher/max?{LONG_SOLVE}&time-limit={limit}"
            runs = [_timed(lambda q=ask: _request(q, "POST", b"{}")) for _ in range(n)]
        finally:
            jobs.GRACE = old
        seconds = [t for t, _ in runs]
        codes = sorted({status for _, (status, _) in runs})
        print(f"max at --time-limit {limit:g}, GRACE {grace:g}: median "
              f"{statistics.median(seconds):.3f} s (max {max(seconds):.3f}; goal < "
              f"{limit + grace + 1:g} s), HTTP {codes}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pool-only", action="store_true", help="only the pool's timings")
    args = parser.parse_args()
    n = args.runs
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.pool_only:
        with running_server() as url:
            pool_figures(url, n, 2)
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return
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
        pool_figures(url, n, 2)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(json.dumps({"startup": up}))


if __name__ == "__main__":
    main()
