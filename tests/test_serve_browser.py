"""`toppi serve` in a real headless Chromium (Debian's chromium + chromedriver, driven by
selenium): per game, change the position by clicks on the picture, ask the main
question, compare with the CLI on the saved file; solve a library puzzle by clicks.

A missing browser is a failure with one line (scripts/setup_browser.sh installs it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.serve.browser import chromium, missing_browser, running_server, wait_for
from tests.cli_helpers import without_times

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"


@pytest.fixture(scope="module")
def browser():
    problem = missing_browser()
    if problem:
        pytest.fail(f"browser tests: {problem}", pytrace=False)
    with running_server() as url, chromium() as driver:
        yield url, driver


def js(driver, script: str, *args):
    return driver.execute_script(script, *args)


def click_region(driver, name: str) -> None:
    """Click a region of the picture (found again if the picture was redrawn)."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(50):
        try:
            driver.find_element("css selector", f'#picture rect.hit[data-id="{name}"]').click()
            return
        except StaleElementReferenceException:
            js(driver, "return 0")
    raise AssertionError(f"region {name} kept changing")


def open_game(driver, url: str, game: str) -> None:
    driver.get(f"{url}/{game}")
    wait_for(driver, "document.body.dataset.ready")


def position(driver) -> str:
    return js(driver, "return document.getElementById('position').value")


def ask(driver, verb: str, options: str = "") -> dict:
    js(driver, "document.getElementById('answer').dataset.verb = '';"
               "document.getElementById('opts-' + arguments[0]).value = arguments[1];",
       verb, options)
    driver.find_element("id", f"ask-{verb}").click()
    wait_for(driver, "document.getElementById('answer').dataset.verb === "
                     f"'{verb}' && document.getElementById('answer').textContent", 60)
    assert js(driver, "return document.getElementById('answer').dataset.status") == "200"
    return json.loads(js(driver, "return document.getElementById('answer').textContent"))


def cli(tmp: Path, text: str, *args: str) -> dict:
    """The command line (click's runner, in this process) on the saved position."""
    from click.testing import CliRunner

    from solver.cli import cli as toppi

    (tmp / "position.json").write_text(text, encoding="utf-8")
    args = tuple(str(tmp / a) if a == "position.json" else a for a in args)
    done = CliRunner().invoke(toppi, [*args, "--json"], env={"TOPPI_QUIET": "1"})
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def play_clicks(driver, names: list[str], candidate: str | None = None) -> str:
    """Click regions in play mode (and a candidate move if several fit); the new
    position."""
    before = position(driver)
    for name in names:
        click_region(driver, name)
    if candidate is not None:
        wait_for(driver, "document.querySelector('button.candidate')")
        for b in driver.find_elements("css selector", "button.candidate"):
            if b.text == candidate:
                b.click()
                break
        else:
            raise AssertionError(f"no candidate {candidate}")
    wait_for(driver, "document.getElementById('history').children.length > 0")
    after = position(driver)
    assert after != before
    return after


# game -> (regions to click, candidate move, verb, options as a query and for the CLI)
PLAYS = {
    "take-it-higher": (["c5"], None, "score", []),
    "hoch-hinaus": (["A2", "B2"], "T32 V4:A2 P2:B2", "achievable", ["--within", "2"]),
    "tippi-toppi": (["G2"], None, "achievable", ["--within", "6", "--cards", "known"]),
    "topito": (["Cat", "yellow"], "move Cat red -> yellow", "plan", ["--card", "Duck on Owl"]),
    "hippo": ([], None, "best", []),
}


@pytest.mark.parametrize("game", list(PLAYS))
def test_play_by_clicks_and_ask(browser, tmp_path, game):
    url, driver = browser
    open_game(driver, url, game)
    names, candidate, verb, options = PLAYS[game]
    if game == "hippo":  # chance first: the roll from the list, then the lanes
        js(driver, "document.getElementById('moves').value = '6,4,2'")
        driver.find_element("id", "apply").click()
        wait_for(driver, "document.getElementById('history').children.length === 1 && "
                         "document.getElementById('moves').options.length > 0 && "
                         "document.getElementById('moves').options[0].value.includes(' ')")
        text = play_clicks(driver, ["2", "10"])
        assert json.loads(text)["to_move"] != "red" or "roll" not in json.loads(text)
        driver.find_element("id", "undo").click()  # back to the roll: ask best there
        wait_for(driver, "document.getElementById('history').children.length === 1")
        text = position(driver)
        assert json.loads(text).get("roll") == [6, 4, 2]
    else:
        text = play_clicks(driver, names, candidate)
    query = "&".join(f"{options[i][2:]}={options[i + 1]}" for i in range(0, len(options), 2))
    answer = ask(driver, verb, query)
    expected = cli(tmp_path, text, game, verb, "position.json", *options)
    assert without_times(answer) == without_times(expected)


def test_edit_by_clicks(browser, tmp_path):
    """Topito's editor: a block clicked, then a podium: the block is put there."""
    url, driver = browser
    open_game(driver, url, "topito")
    driver.find_element("id", "mode-edit").click()
    wait_for(driver, "!document.getElementById('tools').hidden && "
                     "document.querySelector('#picture rect.hit')")
    wait_for(driver, "document.getElementById('status').textContent")
    before = position(driver)
    click_region(driver, "Fox")
    click_region(driver, "blue")
    for _ in range(200):
        if position(driver) != before:
            break
        js(driver, "return 0")
    text = position(driver)
    assert json.loads(text)["podiums"]["blue"] == ["Mouse", "Fox"]
    wait_for(driver, "document.getElementById('status').textContent.includes('To act')")
    assert js(driver, "return document.getElementById('problem').textContent") == ""
    answer = ask(driver, "plan", "card=Duck on Owl")
    assert without_times(answer) == without_times(
        cli(tmp_path, text, "topito", "plan", "position.json", "--card", "Duck on Owl"))


def solution_clicks(game: str, data: dict) -> list[tuple[str, str]]:
    """The words to click for a puzzle's stated solution: (group, word)."""
    if game == "take-it-higher":
        return [("cell", s.split("@")[1]) for s in data["solution"]]
    if game == "hoch-hinaus":
        return [c for s in data["solution"] for c in
                (("tile", s["tile"]), ("space", s["on"][0]), ("space", s["on"][1]))]
    if game == "tippi-toppi":
        return [c for s in data["solution"] for c in
                (("card", s.split(">")[0]), ("pile", s.split(">")[1]))]
    if game == "topito":
        return [c for s in data["puzzle"]["solution"] for c in
                (("block", s["block"]), ("to", s["to"]))]
    clicks = []
    for roll in data["solution"]:
        for placement in roll:
            lane, colour = placement.split()
            clicks += [("lane", lane), ("colour", colour)]
        clicks.append(("next", ""))
    return clicks


@pytest.mark.parametrize("game", list(PLAYS))
def test_solve_library_puzzle_by_clicks(browser, game):
    url, driver = browser
    name = f"{game}-medium-2026-1"
    data = json.loads((PUZZLES / game / "library" / f"{name}.json").read_text())
    driver.get(f"{url}/{game}/library")
    wait_for(driver, "document.body.dataset.ready")
    driver.find_element("css selector", f'a.puzzle[data-name="{name}"]').click()
    wait_for(driver, f"document.body.dataset.puzzle === '{name}'")
    # a wrong first answer is refused
    driver.find_element("id", "check").click()
    wait_for(driver, "document.getElementById('verdict').dataset.solved")
    assert js(driver, "return document.getElementById('verdict').dataset.solved") == "false"
    js(driver, "delete document.getElementById('verdict').dataset.solved")
    for group, word in solution_clicks(game, data):
        if group == "next":
            driver.find_element("id", "next-roll").click()
            continue
        driver.find_element("css selector",
                            f'#words button[data-group="{group}"][data-word="{word}"]').click()
    driver.find_element("id", "check").click()
    wait_for(driver, "document.getElementById('verdict').dataset.solved")
    assert js(driver, "return document.getElementById('verdict').dataset.solved") == "true"
    driver.find_element("id", "reveal").click()
    wait_for(driver, "document.getElementById('solution').innerHTML")
