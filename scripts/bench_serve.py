"""Figures of `toppi serve` (docs/serve.md): the start-up of `toppi serve`, a game page's
load in headless Chromium, a hint asked on the page against the same hint from the
command line, and the pool's timings (a page while every slot runs a long solve, a
solve answered at its time limit, a process killed at its limit, a cancel). Medians of
--runs runs. The suite checks what these do, not how fast (tests/test_serve_api.py).

`--server`: a real `toppi serve` process under load (tests/test_serve_server.py checks
what it does): its memory before and after 400 questions with 500 KB bodies from 50
clients (loopback addresses 127.0.0.2-51) and their cancelling; a quick question's
answer while both slots solve and 40 long solves wait; how soon SIGTERM stops a server
with a full queue.

    python scripts/bench_serve.py [--runs 7] [--pool-only | --server]
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


# ---------------------------------------------------------------- --server

LONG = f"/api/take-it-higher/max?{LONG_SOLVE}&time-limit=60"


def serve_process() -> tuple[subprocess.Popen, str]:
    """`toppi serve --port 0` (default workers) and its URL (without the last /)."""
    proc = subprocess.Popen([*TOPPI, "serve", "--port", "0"], stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    while True:
        line = proc.stderr.readline()
        if not line:
            raise RuntimeError("toppi serve did not start")
        if line.startswith("toppi serve: http"):
            return proc, line.split()[2].rstrip("/")


def _from(address: str, url: str, path: str, body: bytes = b"{}",
          method: str = "POST") -> tuple[int, dict]:
    """A request sent from `address` (another loopback address: another client)."""
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(url)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=120,
                                      source_address=(address, 0))
    try:
        conn.request(method, path, body, {"Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"{}")
    finally:
        conn.close()


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _fill(url: str, clients: int, path: str, body: bytes = b"{}") -> tuple[list, int]:
    """8 questions from each of `clients` loopback addresses: (the jobs accepted as
    (address, id), how many were refused busy)."""
    accepted, busy = [], 0
    for c in range(clients):
        address = f"127.0.0.{2 + c}"
        for _ in range(8):
            code, answer = _from(address, url, path + "&async=1", body)
            if code == 202:
                accepted.append((address, answer["job"]))
            elif code == 429:
                busy += 1
            else:
                raise RuntimeError(f"HTTP {code}: {answer}")
    return accepted, busy


def _cancel(url: str, accepted: list) -> None:
    for address, job in accepted:
        _from(address, url, f"/api/jobs/{job}", b"", "DELETE")


def memory_figures(url: str, pid: int) -> None:
    time.sleep(1)
    before = rss_mb(pid)
    held = _hold_pool(url, 2)
    body = json.dumps({**json.loads((ROOT / "puzzles/hippo/midgame-4p.json").read_text()),
                       "pad": "x" * 500_000}).encode()
    started = time.monotonic()
    accepted, busy = _fill(url, 50, "/api/hippo/best?roll=6,4,2&time-limit=30", body)
    took = time.monotonic() - started
    full = rss_mb(pid)
    _cancel(url, accepted)
    for job in held:
        _request(f"{url}/api/jobs/{job}", "DELETE")
    time.sleep(1)
    after = rss_mb(pid)
    print(f"memory (server process RSS): {before:.0f} MB before, {full:.0f} MB with "
          f"{len(accepted)} questions of 500 KB accepted and {busy} refused busy (400 "
          f"sent in {took:.1f} s), {after:.0f} MB after cancelling them")


def quick_figures(url: str, n: int) -> None:
    hippo = (ROOT / "puzzles/hippo/midgame-4p.json").read_bytes()
    # a roll asked once only: a worker remembers what it has answered
    rolls = iter(f"{a},{b},{c}" for a in range(1, 7) for b in range(a, 7)
                 for c in range(b, 7))

    def quick() -> tuple[int, dict]:
        return _request(f"{url}/api/hippo/best?roll={next(rolls)}", "POST", hippo)

    idle = [_timed(quick)[0] for _ in range(n)]
    held = _hold_pool(url, 2)
    accepted, busy = _fill(url, 5, LONG)
    queued = sum(_request(f"{url}/api/jobs/{j}")[1]["status"] == "queued"
                 for _, j in accepted)
    busy_runs = [_timed(quick) for _ in range(n)]
    codes = sorted({code for _, (code, _) in busy_runs})
    _cancel(url, accepted)
    for job in held:
        _request(f"{url}/api/jobs/{job}", "DELETE")
    seconds = [t for t, _ in busy_runs]
    print(f"quick question (hippo best, a new roll each time): idle median "
          f"{statistics.median(idle):.3f} s (max {max(idle):.3f}); with 2 solving and "
          f"{queued} waiting: median {statistics.median(seconds):.3f} s (max "
          f"{max(seconds):.3f}), HTTP {codes}")


def stop_figures(n: int) -> None:
    import signal
    import threading

    stops = []
    for _ in range(n):
        proc, url = serve_process()
        try:
            _hold_pool(url, 2)
            _fill(url, 5, LONG)
            for _ in range(2):  # two questions asked waiting for their answer
                threading.Thread(target=_request, args=(url + LONG, "POST", b"{}"),
                                 daemon=True).start()
            time.sleep(1)
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
            stops.append(time.monotonic() - started)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    print(f"SIGTERM with 2 solving, 40 waiting and 2 requests open: stopped in median "
          f"{statistics.median(stops):.2f} s (max {max(stops):.2f})")


def server_figures(n: int) -> None:
    proc, url = serve_process()
    try:
        memory_figures(url, proc.pid)
        quick_figures(url, n)
    finally:
        proc.terminate()
        proc.wait(60)
    stop_figures(max(3, n // 2))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pool-only", action="store_true", help="only the pool's timings")
    parser.add_argument("--server", action="store_true",
                        help="only the server's memory, quick answers and stop")
    args = parser.parse_args()
    n = args.runs
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.server:
        server_figures(n)
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return
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
