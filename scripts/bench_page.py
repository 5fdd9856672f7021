"""Time to each answer on the game pages of `toppi serve`, as a player gets it: in a real
headless Chromium, each game page opened on its first position, each question button
the page offers pressed with the page's own defaults, timed from the click to the
answer's sentence on the page (the verb's answer and its `explain`). Median of --runs.

    python scripts/bench_page.py [--runs 3] [--games topito,hippo] [--markdown]

Needs the browser of scripts/setup_browser.sh. Prints one row per game and question:
the label, the median seconds, the slowest, the page's sentence (of the last run).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.registry import web_games  # noqa: E402
from solver.serve.browser import chromium, missing_browser, running_server, wait_for  # noqa: E402

GUARD = 300  # seconds: a hang guard only


def questions(driver) -> list[tuple[str, str]]:
    """(verb, label) of the question buttons the page shows."""
    return driver.execute_script(
        "return [...document.querySelectorAll('button[id^=ask-]')]"
        ".filter((b) => b.offsetParent !== null)"
        ".map((b) => [b.id.slice(4), b.textContent.trim()])")


def time_answer(driver, verb: str) -> tuple[float, str, str]:
    """Seconds from the click to the answer's sentence, the sentence, the HTTP status."""
    button = driver.find_element("id", f"ask-{verb}")
    start = time.perf_counter()
    button.click()
    wait_for(driver, "document.getElementById('answer-summary').dataset.explained "
                     f"&& document.getElementById('answer').dataset.verb === '{verb}'",
             GUARD)
    seconds = time.perf_counter() - start
    text, status = driver.execute_script(
        "return [document.getElementById('answer-summary').textContent,"
        " document.getElementById('answer').dataset.status]")
    return seconds, text, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default=",".join(web_games()))
    parser.add_argument("--markdown", action="store_true", help="a table for the docs")
    args = parser.parse_args()
    problem = missing_browser()
    if problem:
        sys.exit(f"bench_page: {problem}")
    rows = []
    with running_server() as url, chromium() as driver:
        for game in args.games.split(","):
            driver.get(f"{url}/{game}")
            wait_for(driver, "document.body.dataset.ready", GUARD)
            for verb, label in questions(driver):
                times, text, status = [], "", ""
                for _ in range(args.runs):
                    seconds, text, status = time_answer(driver, verb)
                    times.append(seconds)
                rows.append((game, label, statistics.median(times), max(times),
                             text if status == "200" else f"HTTP {status}: {text}"))
                print(f"{game:15} {label[:40]:40} {rows[-1][2]:6.2f} s "
                      f"(max {rows[-1][3]:.2f})  {rows[-1][4][:70]}", flush=True)
    if args.markdown:
        print("\n| game | question | median s | slowest s | the page says |")
        print("|---|---|---|---|---|")
        for game, label, med, top, text in rows:
            print(f"| {game} | {label} | {med:.2f} | {top:.2f} | {text[:90]} |")


if __name__ == "__main__":
    main()
