"""A sixth game from its declarations alone: the toy game (tests/toy/), registered at
run time, gets its commands, its web API routes, the schemas of its answers and its
page, and solver/ names it nowhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from solver.cli import ToppiGroup
from solver.registry import register, unregister
from solver.serve.app import create_app
from solver.verb_cli import game_group
from tests.toy import ENTRY

JSON = {"Content-Type": "application/json"}
POSITION = {"game": "over-the-top", "total": 5, "played": [1, 4],
            "hands": [[3, 4], ["?", "?"]], "deck": 2, "to_move": 1}


@pytest.fixture(scope="module")
def toy():
    register(ENTRY)
    yield ENTRY
    unregister(ENTRY.id)


@pytest.fixture(scope="module")
def client(toy):
    with TestClient(create_app(pool_size=1)) as c:
        yield c


def test_its_own_verb_on_the_command_line(toy, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(POSITION))
    root = ToppiGroup("toppi")
    root.add_command(game_group(toy), "toy")
    out = CliRunner().invoke(root, ["toy", "left", str(path), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == {
        "knows": ["the total", "the cards played", "the cards of player 1",
                  "the number of cards in the deck"],
        "unknown": ["2 card(s) of player 2", "the order of the deck (2 cards)"],
        "total": 5, "limit": 10, "left": 5, "safe": [3, 4]}
    strict = CliRunner().invoke(root, ["toy", "left", str(path), "--strict"])
    assert strict.stdout.strip() == "4 point(s) left below 9; safe cards: 3, 4"
    assert "left" in CliRunner().invoke(root, ["toy", "--help"]).stdout


def test_its_routes_schemas_and_page(client):
    from tests.test_serve_api import problems

    index = client.get("/api").json()
    assert index["games"]["over-the-top"]["hint"] == "left"
    assert {"show", "moves", "left"} <= set(index["games"]["over-the-top"]["verbs"])
    body = json.dumps(POSITION)
    left = client.post("/api/over-the-top/left", content=body, params={"strict": "1"},
                       headers=JSON)
    assert left.status_code == 200, left.text
    assert left.json()["left"] == 4 and left.json()["safe"] == [3, 4]
    schema = client.get("/api/schema/over-the-top.left").json()
    assert problems(left.json(), schema) == []
    assert set(schema["required"]) == {"knows", "unknown", "total", "limit", "left", "safe"}
    shown = client.post("/api/over-the-top/show", content=body, headers=JSON).json()
    assert problems(shown, client.get("/api/schema/over-the-top.show").json()) == []
    assert shown["total"] == 5 and shown["to_move"] == 1
    bad = client.post("/api/over-the-top/left", content=body, params={"strict": "maybe"},
                      headers=JSON)
    assert bad.status_code == 400 and "a flag is true or false" in bad.json()["error"]
    page = client.get("/over-the-top")
    assert page.status_code == 200 and "Over the top (toy)" in page.text
    assert client.get("/api/over-the-top/editor").json()["fields"][0]["key"] == "to_move"


def test_solver_names_no_game():
    """No module of solver/ names a game of the models package (ids, packages or
    titles, in any case)."""
    from models import GAMES

    root = Path(__file__).resolve().parent.parent / "solver"
    words = {w.lower() for g in GAMES
             for w in (g.id, g.package, g.title, g.package.rsplit(".", 1)[1])}
    for path in root.rglob("*"):
        if path.suffix not in (".py", ".html", ".js"):
            continue
        text = path.read_text(encoding="utf-8").lower()
        found = sorted(w for w in words if w in text)
        assert found == [], (path.relative_to(root), found)
