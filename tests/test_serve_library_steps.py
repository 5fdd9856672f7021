"""A library puzzle solved step by step on `toppi serve` (POST
/api/<game>/<source>/<name>/steps): each step made by the game's rules engine and drawn
on the puzzle's picture, an illegal step refused at once with one line; and, in a real
Chromium, the page drawing the steps as they are clicked and fitting a phone."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from solver.serve.app import create_app
from tests.test_serve_api import valid

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
SVG = "{http://www.w3.org/2000/svg}"
GAMES = ("take-it-higher", "tippi-toppi", "topito", "hoch-hinaus", "hippo")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(pool_size=1)) as c:
        yield c


def puzzle(game: str, name: str | None = None) -> tuple[str, dict]:
    name = name or f"{game}-medium-2026-1"
    return name, json.loads((PUZZLES / game / "library" / f"{name}.json").read_text())


def page_steps(game: str, data: dict) -> list:
    """The stated solution as the page sends it (Topito: a block and where it goes)."""
    if game == "topito":
        return [{"block": m["block"], "to": m["to"]} for m in data["puzzle"]["solution"]]
    return list(data["solution"])


def steps(client, game: str, name: str, made: list):
    return client.post(f"/api/{game}/library/{name}/steps", json={"steps": made})


def texts(svg: str) -> list[tuple[float, float, str]]:
    """(x, y, text) of every text of a picture, in drawing order."""
    return [(float(t.get("x")), float(t.get("y")), t.text or "")
            for t in ET.fromstring(svg).iter(f"{SVG}text")]


def at(svg: str, pattern: str) -> list[tuple[float, float, str]]:
    return [t for t in texts(svg) if re.fullmatch(pattern, t[2])]


# ---------------------------------------------------------------- the step on the picture
# per game: does the picture after the first step show it where it goes?

def tile_on_cell(posed: str, after: str, step: str) -> None:
    """Take it Higher!: the cell's name is gone, the tile's letter stands there."""
    tile, cell = step.split("@")
    [(x, y, _)] = at(posed, cell)
    assert not at(after, cell)
    assert (x, y, tile[1]) in texts(after)


def card_on_pile(posed: str, after: str, step: str) -> None:
    """Tippi Toppi: the pile holds one card more and shows the card's number."""
    card, pile = step.split(">")
    [(x, _, caption)] = at(posed, rf"pile {pile} · \d+ cards?")
    count = int(caption.split("· ")[1].split()[0])
    [(x2, _, _)] = at(after, rf"pile {pile} · {count + 1} cards")
    assert x2 == x
    assert any(t == (card[1:]) and tx == x for tx, _, t in texts(after))


def block_on_podium(posed: str, after: str, step: dict) -> None:
    """Topito: the block stands above the podium it went to (and not before)."""
    [(podium_x, _, _)] = at(after, step["to"])
    assert [b[0] for b in at(posed, step["block"])] != [podium_x]
    assert [b[0] for b in at(after, step["block"])] == [podium_x]


def tile_on_spaces(posed: str, after: str, step: dict) -> None:
    """Hoch Hinaus!: the two spaces covered are one level higher, no other."""
    def heights(svg: str) -> dict[str, int]:
        spaces = [t[2] for t in at(svg, r"[A-Z]\d")]
        levels = [int(t[2][1:]) for t in at(svg, r"h\d+")]
        return dict(zip(spaces, levels, strict=True))
    before, now = heights(posed), heights(after)
    assert {s for s in before if now[s] != before[s]} == set(step["on"])
    assert all(now[s] == before[s] + 1 for s in step["on"])


def chips_on_lanes(posed: str, after: str, step: list[str]) -> None:
    """Hippo: each lane of the roll holds one red chip more."""
    from models.hippo.rules import load_rules

    red = load_rules(None).rgb("red")

    def reds(svg: str, lane: str) -> int:
        [(x, _, _)] = at(svg, lane)
        return sum(1 for c in ET.fromstring(svg).iter(f"{SVG}circle")
                   if float(c.get("cx")) == x and c.get("fill") == red)
    for placement in step:
        lane = placement.split()[0]
        assert reds(after, lane) == reds(posed, lane) + sum(
            p.split()[0] == lane for p in step)


DRAWN = {"take-it-higher": tile_on_cell, "tippi-toppi": card_on_pile,
         "topito": block_on_podium, "hoch-hinaus": tile_on_spaces, "hippo": chips_on_lanes}


@pytest.mark.parametrize("game", GAMES)
def test_a_legal_first_step_is_drawn(client, game):
    name, data = puzzle(game)
    posed = client.get(f"/api/{game}/library/{name}").json()["svg"]
    first = page_steps(game, data)[0]
    r = steps(client, game, name, [first])
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["steps"] == 1 and answer["open"] is False
    assert answer["svg"] != posed
    DRAWN[game](posed, answer["svg"], first)
    assert answer["prompt"] and "\n" not in answer["prompt"]
    valid(client, "steps", answer)


# ---------------------------------------------------------------- refused at once

def refused_steps(game: str, data: dict) -> tuple[list, str]:
    """A line of steps whose last one the rules refuse, and the reason's words."""
    first = page_steps(game, data)[0]
    if game == "take-it-higher":  # the next tile on the cell just filled
        cell = first.split("@")[1]
        return [first, f"{data['to_come'][1]}@{cell}"], f"cell {cell} already holds"
    if game == "tippi-toppi":  # a card that is not in the hand
        card = next(f"{c}{n}" for c in "GOPV" for n in range(1, 8)
                    if f"{c}{n}" not in data["hand"])
        return [f"{card}>1"], f"{card} is not in the hand"
    if game == "topito":  # the move just made, back again
        back = {"block": first["block"],
                "to": next(p for p, s in data["podiums"].items() if first["block"] in s)}
        return [first, back], "reverses the last move"
    if game == "hoch-hinaus":  # the tile just placed, again
        return [first, first], f"{first['tile']} is placed already"
    return [["5 red"]], "the roll 6+4+3 does not give lane 5"  # hippo


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_step_is_refused_with_one_line(client, game):
    name, data = puzzle(game)
    made, why = refused_steps(game, data)
    r = steps(client, game, name, made)
    assert r.status_code == 400
    line = r.json()["error"]
    assert line.startswith(f"toppi: error: step {len(made)}: ")
    assert why in line and "\n" not in line
    valid(client, "error", r.json())


def test_bad_steps_bodies_are_one_line(client):
    name, _ = puzzle("tippi-toppi")
    for body in ([], {"steps": "G6>2"}, {"steps": [5]}, {"steps": [None]}, {"steps": [[]]}):
        r = client.post(f"/api/tippi-toppi/library/{name}/steps", json=body)
        assert r.status_code == 400, body
        assert r.json()["error"].startswith("toppi: error: ") and "\n" not in r.json()["error"]
    r = client.post(f"/api/tippi-toppi/library/{name}/steps", content=b"{",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert steps(client, "tippi-toppi", "no-such-puzzle", []).status_code == 404


def test_a_roll_is_made_chip_by_chip(client):
    """Hippo: a roll only begun is drawn (`open`), nothing may follow it; undone chip by
    chip it is the position before."""
    name, data = puzzle("hippo")
    roll = data["solution"][0]
    empty = steps(client, "hippo", name, []).json()
    begun = steps(client, "hippo", name, [roll[:1]]).json()
    assert begun["open"] is True
    chips_on_lanes(empty["svg"], begun["svg"], roll[:1])
    r = steps(client, "hippo", name, [roll[:1], data["solution"][1]])
    assert r.status_code == 400
    assert r.json()["error"] == "toppi: error: step 2: step 1 is not finished"
    whole = steps(client, "hippo", name, [roll]).json()
    assert whole["open"] is False and whole["prompt"].startswith("Roll 2 of 3")


# ---------------------------------------------------------------- the whole solution

@pytest.mark.parametrize("game", GAMES)
def test_the_solution_step_by_step_then_check_says_solved(client, game):
    name, data = puzzle(game)
    solution = page_steps(game, data)
    made: list = []
    for step in solution:
        # a Hippo roll chip by chip, as the page sends it
        parts = [step[:k] for k in range(1, len(step) + 1)] if game == "hippo" else [step]
        for part in parts:
            r = steps(client, game, name, [*made, part])
            assert r.status_code == 200, r.text
        made.append(step)
    assert r.json()["open"] is False
    assert "check" in r.json()["prompt"].lower()
    r = steps(client, game, name, [*made, solution[-1]])
    assert r.status_code == 400  # nothing after the last step
    check = client.post(f"/api/{game}/library/{name}/check", json={"steps": made}).json()
    assert check["solved"] is True


def test_every_library_puzzle_is_solved_by_its_steps():
    """Every library puzzle's stated solution, step by step as the page sends it (Hippo
    chip by chip), is made by the rules engine and ends with nothing left to do."""
    from solver.puzzles import play_steps
    from solver.registry import web_games

    for game in GAMES:
        described = web_games()[game].module("verbs").PUZZLES
        kind = described.make_kind(None, described.backends[0], 20.0)
        files = sorted((PUZZLES / game / "library").glob("*.json"))
        assert len(files) >= 21
        for path in files:
            data = json.loads(path.read_text())
            pz, stated = described.read(kind, data, path.name)
            solution = page_steps(game, data)
            lines = ([[*solution[:k], step[:j]] for k, step in enumerate(solution)
                      for j in range(1, len(step) + 1)] if game == "hippo" else
                     [solution[:k + 1] for k in range(len(solution))])
            for line in lines:
                made = play_steps(described, kind, pz, stated, line)
                whole = line[-1] == solution[len(line) - 1]
                assert made.open is not whole, (path.name, line)
            assert "check" in made.prompt().lower(), path.name


# ---------------------------------------------------------------- in a real browser

@pytest.fixture(scope="module")
def page():
    from solver.serve.browser import chromium, missing_browser, running_server

    problem = missing_browser()
    if problem:
        pytest.fail(f"browser tests: {problem}", pytrace=False)
    with running_server(pool_size=1) as url, chromium() as driver:
        yield url, driver


def open_puzzle(driver, url: str, game: str, name: str) -> None:
    from tests.test_serve_browser import until

    driver.get(f"{url}/{game}/library")
    until(driver, "document.body.dataset.ready")
    driver.find_element("css selector", f'a.puzzle[data-name="{name}"]').click()
    until(driver, f"document.body.dataset.puzzle === '{name}'")


def click_word(driver, group: str, word: str, on_picture: bool = True) -> None:
    """Click a word on the picture (or its button), and wait for the answer."""
    from tests.test_serve_browser import until

    where = (f'#puzzle-picture rect.hit[data-group="{group}"][data-word="{word}"]'
             if on_picture else f'#words button[data-group="{group}"][data-word="{word}"]')
    driver.find_element("css selector", where).click()
    until(driver, "!document.body.dataset.busy")


def picture(driver) -> str:
    return driver.execute_script(
        "const s = document.querySelector('#puzzle-picture svg').cloneNode(true);"
        "s.querySelectorAll('rect.hit').forEach((r) => r.remove());"
        "s.removeAttribute('style'); return s.outerHTML")


def test_page_draws_each_step_and_refuses_an_illegal_one(page):
    """Tippi Toppi: a card clicked onto a pile is drawn there at once; a card that
    matches neither colour nor number of the pile is refused with the rules' line, the
    picture unchanged; Undo takes the play back."""
    url, driver = page
    name, data = puzzle("tippi-toppi")
    open_puzzle(driver, url, "tippi-toppi", name)
    posed = picture(driver)
    first = data["solution"][0]
    card, pile = first.split(">")
    click_word(driver, "card", card)
    click_word(driver, "pile", pile)
    drawn = picture(driver)
    card_on_pile(posed, drawn, first)
    problem = driver.find_element("id", "step-problem")
    assert problem.text == ""
    # a hand card on a pile it does not match, by colour nor number
    tops = {p: c for p, c in enumerate(data["piles"], 1)}
    tops[int(pile)] = card
    bad = next((c, p) for c in data["hand"] if c != card for p, top in tops.items()
               if c[0] != top[0] and c[1] != top[1])
    click_word(driver, "card", bad[0])
    click_word(driver, "pile", str(bad[1]), on_picture=False)
    assert problem.text == (f"step 2: {bad[0]} matches neither colour nor number of pile "
                            f"{bad[1]} ({tops[bad[1]]})")
    assert picture(driver) == drawn
    driver.find_element("id", "step-undo").click()
    from tests.test_serve_browser import until

    until(driver, "!document.body.dataset.busy && document.body.dataset.drawn === '0'")
    assert picture(driver) == posed


# the smallest rendered size of the picture's texts and of every box a finger taps on
# the library's page (the picture's clickable words, buttons, links, the list)
MEASURE = """
const svg = document.querySelector('#puzzle-picture svg');
const texts = [...document.querySelectorAll('#puzzle-picture svg text, #solution svg text')]
  .filter((t) => t.textContent.trim());
const tapped = [...svg.querySelectorAll('rect.hit'),
                ...document.querySelectorAll('.library button, .library a, .library summary, .library select')]
  .filter((e) => e.getClientRects().length);
const page = document.querySelector('#puzzle-picture').getBoundingClientRect();
return {text: Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)),
        textBox: Math.min(...texts.map((t) => t.getBoundingClientRect().height)),
        small: tapped.map((e) => [e.id || e.dataset.word || e.textContent.trim().slice(0, 20),
                                  e.getBoundingClientRect().width, e.getBoundingClientRect().height])
          .filter(([, w, h]) => w < 44 || h < 44),
        targets: tapped.length, top: page.top, height: innerHeight, width: innerWidth,
        pageWidth: document.documentElement.scrollWidth,
        listOpen: document.getElementById('list-box').open};
"""


def fits(seen: dict, moment: str) -> None:
    """The puzzle on a phone: in view, legible, tappable, the page no wider."""
    assert seen["width"] == 390, seen
    assert 0 <= seen["top"] < seen["height"] / 2, (moment, seen)
    assert seen["listOpen"] is False
    assert seen["text"] >= 12 and seen["textBox"] >= 12, (moment, seen)
    assert seen["targets"] > 20 and seen["small"] == [], (moment, seen)
    assert seen["pageWidth"] <= 390, (moment, seen)  # the picture scrolls, not the page


def test_phone_opens_the_puzzle_in_view_legible_and_tappable(page):
    """At 390x844: a puzzle tapped at the end of the list opens in view (the list folds
    away), its picture's texts are at least 12 px, every target at least 44 px; so after
    a step, and with the solution's picture shown."""
    url, driver = page
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 2,
                            "mobile": True})
    try:
        driver.get(f"{url}/hippo/library")
        from tests.test_serve_browser import until

        until(driver, "document.body.dataset.ready")
        last = driver.find_elements("css selector", "a.puzzle")[-1]
        name = last.get_attribute("data-name")
        driver.execute_script("arguments[0].scrollIntoView()", last)
        last.click()
        until(driver, f"document.body.dataset.puzzle === '{name}'")
        fits(driver.execute_script(MEASURE), "opened")
        _, data = puzzle("hippo", name)
        click_word(driver, "lane", data["solution"][0][0].split()[0])
        click_word(driver, "colour", "red")
        assert driver.execute_script("return document.body.dataset.drawn") == "1+"
        fits(driver.execute_script(MEASURE), "after a step")
        driver.execute_script("document.getElementById('reveal').click()")
        until(driver, "document.querySelector('#solution svg')")
        fits(driver.execute_script(MEASURE), "with the solution shown")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
