"""Screenshots of `toppi serve`'s puzzle library: a Tippi Toppi puzzle with a play drawn
and an illegal one refused (desktop), and a Hippo puzzle on a phone (390x844) with a
chip placed, written to docs/serve-library-steps.png and docs/serve-library-phone.png.

    python scripts/serve_library_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.serve.browser import chromium, missing_browser, running_server, wait_for  # noqa: E402


def click(driver, group: str, word: str) -> None:
    """A word of the puzzle clicked (its button), then the step drawn or refused."""
    driver.execute_script(
        "document.querySelector(`#words button[data-group='${arguments[0]}']"
        "[data-word='${arguments[1]}']`).click()", group, word)
    wait_for(driver, "!document.body.dataset.busy")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="docs")
    args = parser.parse_args()
    problem = missing_browser()
    if problem:
        sys.exit(f"serve_library_screenshots: {problem}")
    out = Path(args.out)
    with running_server(pool_size=1) as url, chromium(1300, 900) as driver:
        driver.get(f"{url}/tippi-toppi/library#tippi-toppi-medium-2026-1")
        wait_for(driver, "document.body.dataset.puzzle")
        for group, word in (("card", "G6"), ("pile", "2"), ("card", "P6"), ("pile", "1")):
            click(driver, group, word)
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(out / "serve-library-steps.png"))
        print(out / "serve-library-steps.png")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 1,
                                "mobile": True})
        driver.get(f"{url}/hippo/library")
        wait_for(driver, "document.body.dataset.ready")
        driver.execute_script("document.querySelector('a.puzzle[data-name="
                              "\"hippo-medium-2026-1\"]').click()")
        wait_for(driver, "document.body.dataset.puzzle")
        click(driver, "lane", "3")
        click(driver, "colour", "red")
        driver.save_screenshot(str(out / "serve-library-phone.png"))
        print(out / "serve-library-phone.png")


if __name__ == "__main__":
    main()
