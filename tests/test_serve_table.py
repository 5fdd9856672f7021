"""A player at the table, per game, in a real headless Chromium: the board cleared and
pieces laid by clicks in edit mode (each position the one the game's editor gives for
the same clicks, and read by the engine), then on the game's first position the hint
asked (the answer the CLI's with the options the page sent) and applied from the
answer (the position the engine's for that move); and "can we still win?" asked by
its button in the two cooperative games. Helpers come from tests/test_serve_browser.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from solver.game import CHANCE
from solver.registry import web_games
from solver.serve.api import apply_move, load, picture
from solver.serve.browser import chromium, missing_browser, running_server
from tests.cli_helpers import without_times
from tests.test_serve_browser import (
    ask,
    click_region,
    edit_mode,
    js,
    open_game,
    position,
    sent_options,
    until,
    until_changed,
)
from tests.test_serve_browser import cli as run_cli

GAMES = list(web_games())
LAID = 2  # pieces laid by clicks after the board is cleared


@pytest.fixture(scope="module")
def page():
    problem = missing_browser()
    if problem:
        pytest.fail(f"browser tests: {problem}", pytrace=False)
    with running_server() as url, chromium() as driver:
        yield url, driver


def regions(game: str, data: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind, id) of the clickable things of the position's picture."""
    svg = picture(web_games()[game], json.dumps(data))
    found = re.findall(r'<rect[^>]*class="hit"[^>]*>', svg)
    out = []
    for rect in found:
        kind = re.search(r'data-kind="([^"]*)"', rect)
        ident = re.search(r'data-id="([^"]*)"', rect)
        if kind and ident:
            out.append((kind.group(1), ident.group(1)))
    return list(dict.fromkeys(out))


def reads(game: str, data: dict[str, Any]) -> bool:
    try:
        load(web_games()[game], json.dumps(data))
    except Exception:  # noqa: BLE001 - any refusal of the engine
        return False
    return True


def a_placement(game: str, data: dict[str, Any]
                ) -> tuple[str | None, list[tuple[str, str]], dict[str, Any]]:
    """The first piece of the palette that clicks on the picture lay on this position
    (one click, or two for a tile on two spaces), or a piece picked up on the picture
    and laid by a second click, leaving a position the engine reads: (the palette's
    piece or None, the clicks, the position after them), by the game's editor."""
    web = web_games()[game].web()
    spots = regions(game, data)

    def laid(tool: str, clicks: list[tuple[str, str]]) -> dict[str, Any] | None:
        edited = web.edit(json.loads(json.dumps(data)), tool, clicks)
        if edited.position is not None and edited.position != data \
                and reads(game, edited.position) and "not valid" not in edited.note:
            return edited.position
        return None

    for tool in [t["id"] for t in web.palette(json.loads(json.dumps(data)))
                 if not t["action"]]:
        for first in spots:
            edited = web.edit(json.loads(json.dumps(data)), tool, [first])
            if edited.position is not None:
                if laid(tool, [first]):
                    return tool, [first], laid(tool, [first])
                continue
            for second in spots:  # a tile on two spaces
                if second != first and laid(tool, [first, second]):
                    return tool, [first, second], laid(tool, [first, second])
    for first in spots:  # a piece picked up from the picture (a block), then laid
        picked = web.edit(json.loads(json.dumps(data)), None, [first]).tool
        for second in spots if picked else []:
            if laid(picked, [second]):
                return None, [first, second], laid(picked, [second])
    raise AssertionError(f"{game}: no piece of the palette can be laid on this position")


def palette_click(driver, piece: str) -> None:
    driver.find_element("css selector", f'#tools button[data-piece="{piece}"]').click()


@pytest.mark.parametrize("game", GAMES)
def test_a_table_set_up_by_clicks_then_a_hint_applied(page, tmp_path, game):
    url, driver = page
    web = web_games()[game].web()
    open_game(driver, url, game)
    first = position(driver)
    edit_mode(driver)
    palette_click(driver, "clear board")
    text = until_changed(driver, first)
    cleared = web.edit(json.loads(first), None, [("action", "clear board")]).position
    assert json.loads(text) == cleared and reads(game, cleared)
    for _ in range(LAID):
        data = json.loads(text)
        piece, clicks, want = a_placement(game, data)
        if piece is not None:
            palette_click(driver, piece)
        for _, ident in clicks:
            click_region(driver, ident)
        text = until_changed(driver, text)
        assert json.loads(text) == want, (piece, clicks)

    # the hint on the game's first position, applied from the answer
    open_game(driver, url, game)
    original = position(driver)
    _, state = load(web_games()[game], original)
    if web_games()[game].game().current_player(state) == CHANCE:
        # a roll or a draw first: the first outcome of the moves list
        driver.find_element("id", "apply").click()
        original = until_changed(driver, original)
    answer = ask(driver, web.hint)
    until(driver, "document.getElementById('answer-summary').dataset.explained")
    expected = run_cli(tmp_path, original, game, web.hint, "position.json",
                       *sent_options(driver, game, web.hint))
    assert without_times(answer) == without_times(expected)
    move = driver.find_element("id", "answer-apply").get_attribute("data-move")
    driver.find_element("id", "answer-apply").click()
    after = until_changed(driver, original)
    assert json.loads(after) == apply_move(web_games()[game], original, move)["position"]


@pytest.mark.parametrize("game", ["tippi-toppi", "hoch-hinaus"])
def test_can_we_still_win_by_its_button(page, tmp_path, game):
    """The button answers without typing (Tippi Toppi: the CLI's answer with the options
    the page sent); the sentence carries the answer's rate and games."""
    url, driver = page
    open_game(driver, url, game)
    original = position(driver)
    label = driver.find_element("id", "ask-reachable").text
    assert "still win" in label
    answer = ask(driver, "reachable")
    until(driver, "document.getElementById('answer-summary').dataset.explained")
    # the page's quick slot caps the games by the clock: on a loaded machine a cut
    # answer counts the games it played, and only uncut answers are the CLI's
    if game == "tippi-toppi" and not answer.get("cut_by_time"):
        expected = run_cli(tmp_path, original, game, "reachable", "position.json",
                           *sent_options(driver, game, "reachable"))
        if not expected.get("cut_by_time"):  # (the CLI's Hoch Hinaus games take long)
            assert without_times(answer) == without_times(expected)
    expected = answer
    said = js(driver, "return document.getElementById('answer-summary').textContent")
    rate = expected["rate"]
    assert f"{rate['trials']} " in said and "win" in said
    if 0 < rate["successes"] < rate["trials"]:
        assert f"{round(100 * rate['rate'])} %" in said
