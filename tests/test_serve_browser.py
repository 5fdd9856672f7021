"""`toppi serve` in a real headless Chromium (Debian's chromium + chromedriver, driven by
selenium): per game, change the position by clicks on the picture, ask the main
question, compare with the CLI on the saved file; solve a library puzzle by clicks.

A missing browser is a failure with one line (scripts/setup_browser.sh installs it).
Every wait is for a state of the page, with a generous guard (GUARD) against a hang
only: a busy machine makes the page slower, never the verdict different."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.serve.browser import chromium, missing_browser, running_server, wait_for
from tests.cli_helpers import without_times

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
GUARD = 120  # seconds to wait for what the page must do


def until(driver, script: str, timeout: float = GUARD):
    """Wait until the JavaScript expression is truthy (its value)."""
    return wait_for(driver, script, timeout)


def until_changed(driver, before: str) -> str:
    """The page's position once it differs from `before`."""
    until(driver, f"document.getElementById('position').value !== {json.dumps(before)}")
    return position(driver)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    problem = missing_browser()
    if problem:
        pytest.fail(f"browser tests: {problem}", pytrace=False)
    from tests.test_serve_api import make_store

    store = make_store(tmp_path_factory.mktemp("store") / "puzzles.db", count=1)
    with running_server(store=store) as url, chromium() as driver:
        driver.store = store
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
    until(driver, "document.body.dataset.ready")


def edit_mode(driver) -> None:
    """The page in edit mode: the fields editor's pickers work (in play mode they are
    read-only)."""
    driver.find_element("id", "mode-edit").click()
    until(driver, "!document.getElementById('fields').classList.contains('read-only') && "
                  "document.getElementById('status').textContent")


def position(driver) -> str:
    return js(driver, "return document.getElementById('position').value")


def ask(driver, verb: str, options: str = "") -> dict:
    js(driver, "document.getElementById('answer').dataset.verb = '';"
               "document.getElementById('opts-' + arguments[0]).value = arguments[1];",
       verb, options)
    driver.find_element("id", f"ask-{verb}").click()
    until(driver, "document.getElementById('answer').dataset.verb === "
                     f"'{verb}' && document.getElementById('answer').textContent")
    assert js(driver, "return document.getElementById('answer').dataset.status") == "200"
    return json.loads(js(driver, "return document.getElementById('answer').textContent"))


def sent_options(driver, game: str, verb: str) -> list[str]:
    """The options the page sent with its last question (its form's values and the
    query field), as the command line spells them."""
    from urllib.parse import parse_qsl

    from solver.params import TRUE
    from solver.registry import web_games
    from solver.serve.api import request_params

    entry = web_games()[game]
    params = {p.option: p for p in request_params(entry, entry.verb(verb))}
    words: list[str] = []
    query = js(driver, "return document.getElementById('answer').dataset.query")
    for key, value in parse_qsl(query):
        param = params.get(key.replace("_", "-"))
        if param is not None and param.kind in ("flag", "switch"):
            on = value.lower() in TRUE
            if on or param.kind == "switch":
                words.append(param.spellings[0 if on else 1])
            continue
        words += [f"--{key}", value]
    return words


def page_cli(driver, tmp: Path, text: str, game: str, verb: str) -> dict:
    """The command line's answer with the options the page sent."""
    return cli(tmp, text, game, verb, "position.json", *sent_options(driver, game, verb))


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
    moves = js(driver, "return document.getElementById('history').children.length")
    for name in names:
        click_region(driver, name)
    if candidate is not None:
        until(driver, "document.querySelector('button.candidate')")
        for b in driver.find_elements("css selector", "button.candidate"):
            if b.get_attribute("data-move") == candidate:
                b.click()
                break
        else:
            raise AssertionError(f"no candidate {candidate}")
    until(driver, f"document.getElementById('history').children.length > {moves}")
    after = position(driver)
    assert after != before
    return after


# game -> (regions to click, candidate move, verb, options as a query and for the CLI)
PLAYS = {
    "take-it-higher": (["c5"], None, "score", []),
    "hoch-hinaus": (["A2", "B2"], "T32 V4:A2 P2:B2", "achievable", ["--within", "2"]),
    "tippi-toppi": (["P2", "1"], None, "achievable", ["--within", "6", "--cards", "hands"]),
    "topito": (["Cat", "yellow"], None, "plan", ["--card", "Duck on Owl"]),
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
        until(driver, "document.getElementById('history').children.length === 1 && "
                         "document.getElementById('moves').options.length > 0 && "
                         "document.getElementById('moves').options[0].value.includes(' ')")
        text = play_clicks(driver, ["2", "green", "10", "red"])  # a lane and a colour each
        assert json.loads(text)["to_move"] != "red" or "roll" not in json.loads(text)
        driver.find_element("id", "undo").click()  # back to the roll: ask best there
        until(driver, "document.getElementById('history').children.length === 1")
        text = position(driver)
        assert json.loads(text).get("roll") == [6, 4, 2]
    else:
        text = play_clicks(driver, names, candidate)
    query = "&".join(f"{options[i][2:]}={options[i + 1]}" for i in range(0, len(options), 2))
    answer = ask(driver, verb, query)
    expected = page_cli(driver, tmp_path, text, game, verb)
    assert without_times(answer) == without_times(expected)


def test_edit_by_clicks(browser, tmp_path):
    """Topito's editor: a block clicked, then a podium: the block is put there."""
    url, driver = browser
    open_game(driver, url, "topito")
    driver.find_element("id", "mode-edit").click()
    until(driver, "!document.getElementById('tools').hidden && "
                     "document.querySelector('#picture rect.hit')")
    until(driver, "document.getElementById('status').textContent")
    before = position(driver)
    click_region(driver, "Fox")
    click_region(driver, "blue")
    text = until_changed(driver, before)
    assert json.loads(text)["podiums"]["blue"] == ["Mouse", "Fox"]
    until(driver, "document.getElementById('status').textContent.includes('To act')")
    assert js(driver, "return document.getElementById('problem').textContent") == ""
    answer = ask(driver, "plan", "card=Duck on Owl")
    assert without_times(answer) == without_times(
        page_cli(driver, tmp_path, text, "topito", "plan"))


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
    return [c for roll in data["solution"] for placement in roll
            for c in zip(("lane", "colour"), placement.split(), strict=True)]


# words that are not written on a puzzle's picture (clicked as buttons); every other
# word of the solution is clicked on the picture
NOT_ON_PICTURE: dict[str, set[str]] = {}


@pytest.mark.parametrize("game", list(PLAYS))
def test_solve_library_puzzle_by_clicks(browser, game):
    url, driver = browser
    name = f"{game}-medium-2026-1"
    data = json.loads((PUZZLES / game / "library" / f"{name}.json").read_text())
    driver.get(f"{url}/{game}/library")
    until(driver, "document.body.dataset.ready")
    driver.find_element("css selector", f'a.puzzle[data-name="{name}"]').click()
    until(driver, f"document.body.dataset.puzzle === '{name}'")
    # a wrong first answer is refused
    driver.find_element("id", "check").click()
    until(driver, "document.getElementById('verdict').dataset.solved")
    assert js(driver, "return document.getElementById('verdict').dataset.solved") == "false"
    js(driver, "delete document.getElementById('verdict').dataset.solved")
    on_picture, clicks = 0, solution_clicks(game, data)
    for group, word in clicks:
        # the word on the puzzle's picture where it is written there, else its button;
        # each step is drawn before the next click
        hits = driver.find_elements("css selector", f'#puzzle-picture rect.hit'
                                                    f'[data-group="{group}"][data-word="{word}"]')
        if hits:
            hits[0].click()
            on_picture += 1
        else:
            driver.find_element("css selector",
                                f'#words button[data-group="{group}"][data-word="{word}"]').click()
        until(driver, "!document.body.dataset.busy")
    assert js(driver, "return document.getElementById('step-problem').textContent") == ""
    assert on_picture == sum(g not in NOT_ON_PICTURE.get(game, ()) for g, _ in clicks)
    driver.find_element("id", "check").click()
    until(driver, "document.getElementById('verdict').dataset.solved")
    assert js(driver, "return document.getElementById('verdict').dataset.solved") == "true"
    driver.find_element("id", "reveal").click()
    until(driver, "document.getElementById('solution').innerHTML")


# ---------------------------------------------------------------- the fields editor

def click_css(driver, css: str) -> None:
    """Click an element of the fields editor (found again: every change redraws it)."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(50):
        try:
            driver.find_element("css selector", css).click()
            return
        except StaleElementReferenceException:
            js(driver, "return 0")
    raise AssertionError(f"{css} kept changing")


def changed(driver, before: str) -> str:
    """The position once the page changed it and the engine has read it."""
    until_changed(driver, before)
    until(driver, "document.getElementById('status').textContent || "
                     "document.getElementById('problem').textContent")
    return position(driver)


def engine_reads(driver) -> None:
    """The engine read the page's position without a problem."""
    until(driver, "document.getElementById('status').textContent.includes('To act') || "
                     "document.getElementById('problem').textContent")
    assert js(driver, "return document.getElementById('problem').textContent") == ""


def field_problem(driver, key: str) -> str:
    return js(driver, f"return document.getElementById('problem-{key}').textContent")


def test_dice_editor_by_clicks(browser, tmp_path):
    """Hippo's dice: faces clicked; a roll of one die is refused at the dice field with
    the CLI's line; three dice give the position on which `best` equals the CLI's."""
    url, driver = browser
    open_game(driver, url, "hippo")
    edit_mode(driver)
    before = position(driver)
    click_css(driver, '#field-roll .list-row button.pick[data-piece="6"]')
    text = changed(driver, before)
    assert json.loads(text)["roll"] == [6]
    until(driver, "document.getElementById('problem-roll').textContent")
    (tmp_path / "position.json").write_text(text)
    from click.testing import CliRunner

    from solver.cli import cli as toppi

    done = CliRunner().invoke(toppi, ["hippo", "show", str(tmp_path / "position.json"),
                                      "--json"])
    assert done.exit_code == 2
    line = done.output.strip().splitlines()[-1].replace(str(tmp_path) + "/", "")
    assert field_problem(driver, "roll") == line
    for face in ("4", "2"):
        before = position(driver)
        click_css(driver, f'#field-roll .list-row button.pick[data-piece="{face}"]')
        text = changed(driver, before)
    assert json.loads(text)["roll"] == [6, 4, 2]
    engine_reads(driver)
    assert field_problem(driver, "roll") == ""
    answer = ask(driver, "best")
    assert without_times(answer) == without_times(
        page_cli(driver, tmp_path, text, "hippo", "best"))


def test_hands_tasks_and_turn_editor_by_clicks(browser, tmp_path):
    """Tippi Toppi: a card taken out of a hand and another put in from the palette,
    an open task replaced from the catalogue menu, the turn changed; the saved file
    gives the CLI's answer. Adding the card back and taking the new one out again
    gives the loaded file's text back exactly."""
    from selenium.webdriver.support.ui import Select

    url, driver = browser
    open_game(driver, url, "tippi-toppi")
    edit_mode(driver)
    original = position(driver)
    data = json.loads(original)
    hand = data["hands"][0]
    # take a card of seat 0 out, and put it back from the palette
    before = position(driver)
    click_css(driver, f'#field-hands .list-row[data-index="0"] button.chip'
                      f'[data-piece="{hand[0]}"]')
    text = changed(driver, before)
    assert json.loads(text)["hands"][0] == hand[1:]
    click_css(driver, '#field-hands .list-row[data-index="0"] button.add')
    before = text
    click_css(driver, f'#field-hands .list-row[data-index="0"] .palette '
                      f'button.pick[data-piece="{hand[0]}"]')
    text = changed(driver, before)
    assert json.loads(text)["hands"][0] == [*hand[1:], hand[0]]
    # an open task replaced by another of the catalogue
    before = text  # (a full row has no menu: take one out first)
    click_css(driver, f'#field-open_tasks button.chip[data-piece="{data["open_tasks"][0]}"]')
    text = changed(driver, before)
    seen = {*data["open_tasks"], *data["fulfilled_tasks"]}  # (the task pile: face down)
    options = [o.get_attribute("value") for o in driver.find_elements(
        "css selector", "#field-open_tasks select.add option")]
    new_task = next(t for t in options if t and t not in seen)
    before = text
    Select(driver.find_element("css selector", "#field-open_tasks select.add")
           ).select_by_value(new_task)
    text = changed(driver, before)
    assert json.loads(text)["open_tasks"] == [*data["open_tasks"][1:], new_task]
    before = text
    assert data["on_turn"] == 1  # the file counts seats from 1: seat 2 now
    Select(driver.find_element("id", "pick-on_turn")).select_by_visible_text("seat 2")
    text = changed(driver, before)
    assert json.loads(text)["on_turn"] == 2
    # (seat 2's hand is face down: its moves are not listed) back to seat 1
    before = text
    Select(driver.find_element("id", "pick-on_turn")).select_by_visible_text("seat 1")
    text = changed(driver, before)
    assert json.loads(text)["on_turn"] == 1
    engine_reads(driver)
    answer = ask(driver, "achievable", "within=4&cards=hands")
    assert without_times(answer) == without_times(
        page_cli(driver, tmp_path, text, "tippi-toppi", "achievable"))


def test_last_move_editor_and_round_trip(browser, tmp_path):
    """Topito: a position file loaded as it is; the last move cleared (the CLI's hint
    on the saved file is the page's), then set again from its menus: the loaded file's
    data exactly."""
    from selenium.webdriver.support.ui import Select

    url, driver = browser
    open_game(driver, url, "topito")
    edit_mode(driver)
    file = PUZZLES / "topito" / "race" / "endgame.json"  # not the page's first position
    before = position(driver)
    driver.find_element("id", "load").send_keys(str(file))
    loaded = changed(driver, before)
    assert loaded == file.read_text()  # loaded as it is
    data = json.loads(loaded)
    click_css(driver, "#none-last_move")
    text = changed(driver, loaded)
    assert json.loads(text)["last_move"] is None
    engine_reads(driver)
    answer = ask(driver, "hint")
    assert without_times(answer) == without_times(
        page_cli(driver, tmp_path, text, "topito", "hint"))
    for part, value in data["last_move"].items():
        before = text
        Select(driver.find_element("id", f"pick-last_move-{part}")).select_by_value(value)
        text = changed(driver, before) if part == "to" else position(driver)
    assert json.loads(text) == data  # edited back: the same position file data
    # in the file's own indent (a json.dumps file comes back byte for byte)
    assert text == json.dumps(data, indent=1, ensure_ascii=False)
    engine_reads(driver)


# ---------------------------------------------------------------- progress, the store

def test_live_progress_and_cancel(browser):
    """A long solve shows the solver's best and bound on the page; Cancel ends it. (The
    advanced gold/silver maximum runs to the web's 60 s limit whatever the load.)"""
    url, driver = browser
    open_game(driver, url, "take-it-higher")
    # an empty board: `max` answers the game's maximum, with spaceships
    js(driver, "document.getElementById('position').value = arguments[0];",
       '{"game": "take-it-higher", "placements": []}')
    js(driver, "document.getElementById('opts-max').value = arguments[0];",
       "variant=advanced&gold-silver=1&backend=cpsat&time-limit=60")
    driver.find_element("id", "ask-max").click()
    best = until(driver, "document.getElementById('job-solver') && "
                         "document.getElementById('job-solver').dataset.best")
    assert int(best) > 0
    assert js(driver, "return document.getElementById('job-solver').textContent"
              ).startswith("CP-SAT: best")
    driver.find_element("id", "cancel").click()
    until(driver, "document.getElementById('answer').dataset.status === '409'")
    assert js(driver, "return document.getElementById('answer-summary').textContent") == \
        "max: cancelled"


def test_store_puzzle_solved_by_clicks(browser):
    """The --store file's puzzle: listed on the game's store page, solved by clicks,
    its sheet printable."""
    url, driver = browser
    from solver.store_cli import stored_puzzles

    stored = stored_puzzles(str(driver.store), "tippi-toppi").puzzles[0]
    driver.get(f"{url}/")
    driver.find_element("css selector", '#store-games a[href="/tippi-toppi/store"]').click()
    until(driver, "document.body.dataset.ready")
    driver.find_element("css selector", f'a.puzzle[data-name="{stored.id}"]').click()
    until(driver, f"document.body.dataset.puzzle === '{stored.id}'")
    for group, word in solution_clicks("tippi-toppi", stored.puzzle):
        driver.find_element("css selector",
                            f'#words button[data-group="{group}"][data-word="{word}"]').click()
    driver.find_element("id", "check").click()
    until(driver, "document.getElementById('verdict').dataset.solved")
    assert js(driver, "return document.getElementById('verdict').dataset.solved") == "true"
    href = driver.find_element("id", "sheet").get_attribute("href")
    assert href.endswith(f"/api/tippi-toppi/store/{stored.id}/sheet")
