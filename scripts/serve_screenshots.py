"""Screenshots of `toppi serve`: every game page (with an answer on it) and a library
page, written to docs/serve-<page>.png.

    python scripts/serve_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.serve import games  # noqa: E402
from solver.serve.browser import chromium, missing_browser, running_server, wait_for  # noqa: E402

# an answer to show on each page: (verb, options)
ASK = {"take-it-higher": ("score", ""), "hoch-hinaus": ("achievable", "within=2"),
       "tippi-toppi": ("hint", ""), "topito": ("plan", "card=Duck on Owl"),
       "hippo": ("best", "roll=6,4,2")}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="docs")
    args = parser.parse_args()
    problem = missing_browser()
    if problem:
        sys.exit(f"serve_screenshots: {problem}")
    out = Path(args.out)
    with running_server() as url, chromium(1300, 900) as driver:
        for game in games.VERBS:
            driver.get(f"{url}/{game}")
            wait_for(driver, "document.body.dataset.ready")
            verb, options = ASK[game]
            driver.execute_script(
                f"document.getElementById('opts-{verb}').value = arguments[0];"
                f"document.getElementById('ask-{verb}').click();", options)
            wait_for(driver, "document.getElementById('answer').dataset.verb === "
                             f"'{verb}' && document.getElementById('answer').textContent",
                     60)
            driver.save_screenshot(str(out / f"serve-{game}.png"))
            print(out / f"serve-{game}.png")
        driver.get(f"{url}/hoch-hinaus/library#hoch-hinaus-easy-2026-1")
        wait_for(driver, "document.body.dataset.puzzle")
        driver.execute_script("document.getElementById('reveal').click()")
        wait_for(driver, "document.getElementById('solution').innerHTML")
        driver.save_screenshot(str(out / "serve-library.png"))
        print(out / "serve-library.png")


if __name__ == "__main__":
    main()
