"""Screenshots of `toppi serve`: every game page (with an answer on it), a library
page, a puzzle of a --store file and a long solve's live progress, written to
docs/serve-<page>.png; every game page at phone width (390x844) to
docs/serve-phone-<game>.png.

    python scripts/serve_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.registry import web_games  # noqa: E402
from solver.serve.browser import chromium, missing_browser, running_server, wait_for  # noqa: E402

# an answer to show on each page: (verb, options beyond the page's own form)
ASK = {"take-it-higher": ("hint", ""), "hoch-hinaus": ("achievable", ""),
       "tippi-toppi": ("hint", ""), "topito": ("plan", ""), "hippo": ("best", "")}
# dice clicked in the position editor first (Hippo: the roll 6, 4, 2)
DICE = {"hippo": ["6", "4", "2"]}
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}


def ask(driver, game: str) -> None:
    """The page's question for `game` asked, its answer explained (a plan: its first
    step shown on the board)."""
    verb, options = ASK[game]
    driver.execute_script(
        f"document.getElementById('opts-{verb}').value = arguments[0];"
        f"document.getElementById('ask-{verb}').click();", options)
    wait_for(driver, "document.getElementById('answer').dataset.verb === "
                     f"'{verb}' && document.getElementById('answer-summary').dataset.explained",
             60)
    if driver.execute_script("return !!document.getElementById('plan-next')"):
        driver.execute_script("document.getElementById('plan-next').click()")
        wait_for(driver, "document.getElementById('picture').classList.contains('preview')")


def set_dice(driver, game: str) -> None:
    """The roll clicked in edit mode (the fields are read-only in play mode)."""
    if game not in DICE:
        return
    driver.execute_script("document.getElementById('mode-edit').click()")
    wait_for(driver, "!document.getElementById('fields').classList.contains('read-only')")
    for face in DICE[game]:
        before = driver.execute_script("return document.getElementById('position').value")
        driver.execute_script(
            "document.querySelector(`#field-roll button.pick[data-piece='${arguments[0]}']`)"
            ".click()", face)
        wait_for(driver, "document.getElementById('position').value !== "
                         f"{json.dumps(before)}")
    driver.execute_script("document.getElementById('mode-play').click()")
    wait_for(driver, "document.getElementById('status').textContent.includes('To act')")


def whole_page(driver, path: Path, height: int = 1700) -> None:
    """The page from its top, `height` px of it (more than the window shows)."""
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"],
                 "height": min(size["height"], height), "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))
    print(path)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="docs")
    args = parser.parse_args()
    problem = missing_browser()
    if problem:
        sys.exit(f"serve_screenshots: {problem}")
    out = Path(args.out)
    tmp = Path(tempfile.mkdtemp(prefix="toppi-screens-"))
    store = tmp / "puzzles.db"
    for game, count in (("tippi-toppi", 3), ("hippo", 1)):  # a store as generate writes it
        subprocess.run([sys.executable, "-c", "from solver.cli import main; main()", game,
                        "generate", "--difficulty", "easy", "--count", str(count), "--jobs",
                        "1", "--store", str(store), "--json"], check=True,
                       capture_output=True, env={**os.environ, "TOPPI_QUIET": "1"})
    with running_server(store=store) as url, chromium(1300, 900) as driver:
        for game in web_games():
            driver.get(f"{url}/{game}")
            wait_for(driver, "document.body.dataset.ready")
            set_dice(driver, game)
            ask(driver, game)
            driver.save_screenshot(str(out / f"serve-{game}.png"))
            print(out / f"serve-{game}.png")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
        for game in web_games():
            driver.get(f"{url}/{game}")
            wait_for(driver, "document.body.dataset.ready")
            set_dice(driver, game)
            ask(driver, game)
            whole_page(driver, out / f"serve-phone-{game}.png")
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.get(f"{url}/hoch-hinaus/library#hoch-hinaus-easy-2026-1")
        wait_for(driver, "document.body.dataset.puzzle")
        driver.execute_script("document.getElementById('reveal').click()")
        wait_for(driver, "document.getElementById('solution').innerHTML")
        driver.save_screenshot(str(out / "serve-library.png"))
        print(out / "serve-library.png")
        # the store: its page, a puzzle opened and revealed
        driver.get(f"{url}/tippi-toppi/store")
        wait_for(driver, "document.body.dataset.ready")
        driver.execute_script("document.querySelector('a.puzzle').click()")
        wait_for(driver, "document.body.dataset.puzzle")
        driver.execute_script("document.getElementById('reveal').click()")
        wait_for(driver, "document.getElementById('solution').innerHTML")
        driver.save_screenshot(str(out / "serve-store.png"))
        print(out / "serve-store.png")
        # a long solve: the solver's best and bound while it runs, then cancelled
        driver.get(f"{url}/take-it-higher")
        wait_for(driver, "document.body.dataset.ready")
        driver.execute_script(  # an empty board: the game's gold/silver maximum
            "document.getElementById('position').value = arguments[1];"
            "document.getElementById('opts-max').value = arguments[0];"
            "document.getElementById('ask-max').click();",
            "variant=gold-silver&backend=cpsat&time-limit=30",
            '{"game": "take-it-higher", "placements": []}')
        wait_for(driver, "document.getElementById('job-solver') && "
                         "document.getElementById('job-solver').textContent.includes('gap')",
                 40)
        driver.save_screenshot(str(out / "serve-progress.png"))
        print(out / "serve-progress.png")
        driver.execute_script("document.getElementById('cancel').click()")
        wait_for(driver, "document.getElementById('answer').dataset.status")


if __name__ == "__main__":
    main()
