"""The game page as a player uses it, in a real headless Chromium: the hint's move
applied from the answer, moves made only by clicks that name them whole, edits undone
and redone, an answer marked as for an earlier position, the edit palette gone in play
mode, and every game page at phone width (text, touch targets, the answer under the
board). Helpers and the browser come from tests/test_serve_browser.py."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from solver.serve.browser import chromium, missing_browser, running_server
from tests.test_serve_browser import (
    ask,
    cli,
    click_css,
    click_region,
    edit_mode,
    js,
    open_game,
    position,
    sent_options,
    until,
    until_changed,
)


@pytest.fixture(scope="module")
def page():
    problem = missing_browser()
    if problem:
        pytest.fail(f"browser tests: {problem}", pytrace=False)
    with running_server() as url, chromium() as driver:
        yield url, driver


def api_post(url: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(f"{url}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def engine_apply(game: str, text: str, move: str) -> dict[str, Any]:
    """The position after `move`, by the rules engine (the API's apply)."""
    from solver.registry import web_games
    from solver.serve.api import apply_move

    return apply_move(web_games()[game], text, move)["position"]


def history(driver) -> int:
    return js(driver, "return document.getElementById('history').children.length")


def lit(driver, cls: str) -> set[str]:
    return set(js(driver, f"return [...document.querySelectorAll('#picture rect.hit.{cls}')]"
                          ".map((r) => r.dataset.id)"))


def stale(driver) -> bool:
    return js(driver, "return document.getElementById('answer-box').classList"
                      ".contains('stale') && !document.getElementById('answer-stale').hidden")


def test_hint_applied_from_the_answer(page, tmp_path):
    """Tippi Toppi: the hint's answer names the CLI's best play, marks it on the picture
    and applies it: the position the engine gives for that play; Undo takes it back."""
    url, driver = page
    open_game(driver, url, "tippi-toppi")
    original = position(driver)
    answer = ask(driver, "hint")
    until(driver, "document.getElementById('answer-summary').dataset.explained")
    best = cli(tmp_path, original, "tippi-toppi", "hint", "position.json",
               *sent_options(driver, "tippi-toppi", "hint"))["options"][0]["play"]
    said = api_post(url, "/api/tippi-toppi/explain", {"verb": "hint", "position":
                                                       json.loads(original), "answer": answer})
    assert said["moves"][0] == best
    apply = driver.find_element("id", "answer-apply")
    assert apply.get_attribute("data-move") == best
    assert said["marks"] and lit(driver, "mark") == set(said["marks"])
    assert js(driver, "return document.getElementById('answer-summary').textContent") == \
        said["text"]
    apply.click()
    after = until_changed(driver, original)
    assert json.loads(after) == engine_apply("tippi-toppi", original, best)
    until(driver, "document.getElementById('status').textContent.includes('To act')")
    assert history(driver) == 1 and stale(driver) and lit(driver, "mark") == set()
    driver.find_element("id", "undo").click()
    assert until_changed(driver, after) == original
    until(driver, "!document.getElementById('answer-box').classList.contains('stale')")
    # the picture is drawn again after the box: its marks come back with it
    until(driver, "document.querySelectorAll('#picture rect.hit.mark').length > 0")
    assert lit(driver, "mark") == set(said["marks"])


def test_moves_need_the_clicks_that_name_them(page):
    """A card with one legal pile is not played on its first click (its chip in the
    hand names it too, and stays in the hand): its pile is lit, the pile's click plays
    it. Hoch Hinaus's two spaces offer the few tiles that fit, not every filler."""
    url, driver = page
    open_game(driver, url, "tippi-toppi")
    original = position(driver)
    moves = js(driver, "return [...document.getElementById('moves').options].map((o) => o.value)")
    card = next(c for c in json.loads(original)["hands"][0]
                if sum(m.split(":")[1].startswith(c + ">") for m in moves) == 1)
    click_css(driver, f'#field-hands .list-row[data-index="0"] button.chip[data-piece="{card}"]')
    until(driver, "document.querySelector('#picture rect.hit.target')")
    move = next(m for m in moves if m.split(":")[1].startswith(card + ">"))
    assert lit(driver, "target") == {move.split(">")[1]}
    assert position(driver) == original and history(driver) == 0
    click_region(driver, move.split(">")[1])
    after = until_changed(driver, original)
    assert json.loads(after) == engine_apply("tippi-toppi", original, move)

    open_game(driver, url, "hoch-hinaus")
    original = position(driver)
    moves = js(driver, "return [...document.getElementById('moves').options].map((o) => o.value)")
    click_region(driver, "A2")
    until(driver, "document.querySelector('#picture rect.hit.target')")
    assert "B2" in lit(driver, "target") and not js(driver, "return document"
                                                    ".querySelector('button.candidate')")
    click_region(driver, "B2")
    until(driver, "document.querySelector('button.candidate')")
    fits = [m for m in moves if re.fullmatch(r"T\d+ \w+:A2 \w+:B2", m)]
    offered = js(driver, "return [...document.querySelectorAll('button.candidate')]"
                         ".map((b) => b.dataset.move)")
    assert sorted(offered) == sorted(fits) and 0 < len(fits) <= 3
    assert lit(driver, "target")  # a gap filler may still be clicked
    assert position(driver) == original
    driver.find_element("css selector", f'button.candidate[data-move="{fits[0]}"]').click()
    assert json.loads(until_changed(driver, original)) == engine_apply(
        "hoch-hinaus", original, fits[0])


def test_edits_undone_and_redone(page):
    """An edit (a card out of a hand) marks the answer as for an earlier position;
    Ctrl+Z brings the file back byte for byte and the answer is current again; Ctrl+Y
    and the Redo button do it again, the Undo button undoes it."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    url, driver = page
    open_game(driver, url, "tippi-toppi")
    edit_mode(driver)
    original = position(driver)
    ask(driver, "show")
    assert not stale(driver)
    card = json.loads(original)["hands"][0][0]
    click_css(driver, f'#field-hands .list-row[data-index="0"] button.chip[data-piece="{card}"]')
    edited = until_changed(driver, original)
    assert json.loads(edited)["hands"][0] == json.loads(original)["hands"][0][1:]
    until(driver, "document.getElementById('answer-box').classList.contains('stale')")

    def keys(key: str) -> str:
        before = position(driver)
        js(driver, "document.activeElement.blur()")  # the keys go to the page
        ActionChains(driver).key_down(Keys.CONTROL).send_keys(key).key_up(Keys.CONTROL) \
            .perform()
        return until_changed(driver, before)

    assert keys("z") == original
    until(driver, "!document.getElementById('answer-box').classList.contains('stale')")
    assert keys("y") == edited and stale(driver)
    driver.find_element("id", "undo").click()
    assert until_changed(driver, edited) == original
    driver.find_element("id", "redo").click()
    assert until_changed(driver, original) == edited


def test_palette_hidden_in_play_mode(page):
    """The edit palette shows in edit mode only (its actions, `new game` and `clear
    board` among them, first), also after going back to play."""
    url, driver = page
    open_game(driver, url, "take-it-higher")
    visible = "return document.getElementById('tools').checkVisibility()"
    assert js(driver, visible) is False
    edit_mode(driver)
    until(driver, "document.querySelector('#tools button')")
    assert js(driver, visible) is True
    palette = api_post(url, "/api/take-it-higher/palette", json.loads(position(driver)))
    actions = [p["label"] for p in palette["palette"] if p["action"]]
    assert {"new game", "clear board"} <= set(actions)
    assert js(driver, "return [...document.querySelectorAll('#tools .actions button')]"
                      ".map((b) => b.textContent)") == actions
    driver.find_element("id", "mode-play").click()
    until(driver, "document.getElementById('tools').hidden")
    assert js(driver, visible) is False


# what is measured on a phone: the smallest text on the picture and the smallest
# clickable thing of the picture as drawn on screen, the smallest control, and where
# the answer sits
MEASURE = """
const svg = document.querySelector('#picture svg');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
const sizes = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
  .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
const small = (els) => Math.min(...[...els].filter((e) => e.checkVisibility())
  .map((e) => e.getBoundingClientRect()).map((r) => Math.min(r.width, r.height)));
const top = (id) => document.getElementById(id).getBoundingClientRect().top;
return {font: Math.min(...sizes),
        hit: small(svg.querySelectorAll('rect.hit')),
        control: small(document.querySelectorAll('main button, main select, '
          + 'main input[type=text], main input[type=number]')),
        board: document.getElementById('board').getBoundingClientRect().bottom,
        answer: top('answer-box'), position: top('side'),
        width: document.documentElement.scrollWidth};
"""


def test_phone_layout(page):
    """At 390x844 on every game page: text on the picture at least 12 px, every
    clickable thing of the picture and every control at least 44 px, the answer right
    under the board and before the position, and only the picture scrolls sideways."""
    from solver.registry import web_games

    url, driver = page
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        for game in web_games():
            open_game(driver, url, game)
            m = js(driver, MEASURE)
            assert m["font"] >= 12 and m["hit"] >= 44 and m["control"] >= 44, (game, m)
            assert 0 <= m["answer"] - m["board"] <= 24 and m["answer"] < m["position"], \
                (game, m)
            assert m["width"] <= 390, (game, m)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
