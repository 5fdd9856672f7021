"""`toppi serve`'s JSON API (Starlette TestClient): the CLI's answers, errors, limits,
time limits, cancellation, concurrency, play and the puzzle library."""

from __future__ import annotations

import html
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from solver.serve import api, jobs
from solver.serve.app import create_app
from tests.cli_helpers import without_times

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
JSON = {"Content-Type": "application/json"}

# one solver question per game: (game, file, verb, options)
QUESTIONS = [
    ("take-it-higher", "take-it-higher/example-board.json", "score", {}),
    ("hoch-hinaus", "hoch-hinaus/midgame-1.json", "achievable", {"within": "3"}),
    ("tippi-toppi", "tippi-toppi/known-deck.json", "achievable",
     {"within": "6", "cards": "known"}),
    ("topito", "topito/midgame.json", "plan", {"card": "Duck on Owl"}),
    ("hippo", "hippo/midgame-4p.json", "best", {"roll": "6,4,2"}),
]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(pool_size=2)) as c:
        yield c


def cli_run(tmp: Path, text: str, *args: str) -> tuple[int, str, str]:
    """The real command line on `text` saved as position.json in `tmp`."""
    (tmp / "position.json").write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "from solver.cli import main; main()",
                           *args], cwd=tmp, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def post(client, path: str, body: str, **params):
    return client.post(path, content=body.encode(), params=params, headers=JSON)


def test_index_lists_every_game_and_verb(client):
    r = client.get("/api")
    assert r.status_code == 200
    data = r.json()
    assert set(data["games"]) == {"take-it-higher", "hoch-hinaus", "tippi-toppi", "topito",
                                  "hippo"}
    hippo = data["games"]["hippo"]["verbs"]
    assert {"best", "plan", "finish", "moves", "show"} <= set(hippo)
    assert "roll" in {o["name"] for o in hippo["best"]["options"]}
    # no file paths, outputs or batch runs can be asked for
    names = {o["name"] for g in data["games"].values() for v in g["verbs"].values()
             for o in v["options"]}
    assert not names & {"rules", "svg", "store", "scheduler", "jobs", "out"}
    assert data["limits"]["pool_size"] == 2


def test_questions_equal_the_cli(client, tmp_path):
    """Every game's main question answers with the CLI's --json document (the command
    line in this process, click's runner: five processes of their own cost more than
    the questions; the real process is held to the API in the tests below)."""
    from click.testing import CliRunner

    from solver.cli import cli as toppi

    for game, file, verb, options in QUESTIONS:
        (tmp_path / "position.json").write_text((PUZZLES / file).read_text(), encoding="utf-8")
        done = CliRunner().invoke(toppi, [
            game, verb, str(tmp_path / "position.json"),
            *[a for k, v in options.items() for a in (f"--{k}", v)], "--json"],
            env={"TOPPI_QUIET": "1"})
        assert done.exit_code == 0, done.output
        out = done.stdout
        r = post(client, f"/api/{game}/{verb}", (PUZZLES / file).read_text(), **options)
        assert r.status_code == 200, r.text
        assert r.headers["X-Toppi-Exit"] == "0"
        assert without_times(r.json()) == without_times(json.loads(out)), game


@pytest.mark.parametrize("game,file", [(q[0], q[1]) for q in QUESTIONS])
def test_show_and_moves_equal_the_cli(client, tmp_path, game, file):
    text = (PUZZLES / file).read_text()
    for verb in ("show", "moves"):
        code, out, _ = cli_run(tmp_path, text, game, verb, "position.json", "--json") \
            if game == "hippo" else (0, None, "")
        r = post(client, f"/api/{game}/{verb}", text)
        assert r.status_code == 200
        if out is not None:  # one game against a real process (the rest: below)
            assert code == 0 and r.json() == json.loads(out)
    doc = post(client, f"/api/{game}/show", text).json()
    assert doc["game"] == game and "knows" in doc


def test_bad_input_is_400_with_the_cli_line(client, tmp_path):
    bad = '{"game": "hippo", "players": ["red", "green"], "to_move": "blue"}'
    code, _, err = cli_run(tmp_path, bad, "hippo", "best", "position.json", "--roll",
                           "6,4,2", "--json")
    assert code == 2
    r = post(client, "/api/hippo/best", bad, roll="6,4,2")
    assert r.status_code == 400
    assert r.json()["error"] == err.strip() and "\n" not in r.json()["error"]
    # malformed JSON, a bad option value, an unknown option: one line each
    code, _, err = cli_run(tmp_path, '{"game": ', "topito", "show", "position.json",
                           "--json")
    r = post(client, "/api/topito/show", '{"game": ')
    assert (r.status_code, r.json()["error"]) == (400, err.strip())
    text = (PUZZLES / "hippo/midgame-4p.json").read_text()
    r = post(client, "/api/hippo/best", text, roll="6,4,9")
    assert r.status_code == 400
    assert r.json()["error"] == "toppi: error: --roll: die '9' in '6,4,9' is not a number 1-6"
    r = post(client, "/api/hippo/best", text, rules="/etc/passwd")
    assert r.status_code == 400 and "no option 'rules'" in r.json()["error"]
    assert post(client, "/api/chess/show", "{}").status_code == 404
    assert post(client, "/api/hippo/simulate", "{}").status_code == 404
    r = client.post("/api/hippo/show", content=text.encode(),
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = post(client, "/api/hippo/best", text, roll="6,4,2", time_limit="1000")
    assert r.status_code == 400 and "time-limit" in r.json()["error"]


def test_body_limit(client):
    big = '{"game": "hippo", "x": "' + "a" * api.MAX_BODY + '"}'
    r = post(client, "/api/hippo/show", big)
    assert r.status_code == 413
    assert "larger than" in r.json()["error"]


# A solve that runs to the web's longest limit (60 s) whatever the load (the proof of
# the advanced gold/silver maximum takes far longer; a busy machine only makes it
# longer): the job to hold a slot, to cancel or to kill, in tests that wait seconds.
LONG_SOLVE = {"variant": "advanced", "gold_silver": "1", "backend": "cpsat",
              "time_limit": "60"}
GUARD = 120  # seconds a test waits for what must come: a guard against a hang only


def wait_for_job(client, job: str, done) -> dict:
    """Poll the job until `done(status)`; its status then."""
    deadline = time.monotonic() + GUARD
    while not done(status := client.get(f"/api/jobs/{job}").json()):
        assert time.monotonic() < deadline, status
        time.sleep(0.05)
    return status


def test_the_commands_own_limit_is_passed_on(client, monkeypatch):
    """The request's time limit is the command's own: at a limit that has passed before
    the model is built, the command itself stops with its own line (exit 3), the one
    the CLI prints, and no process is killed (the kill is far off here)."""
    from click.testing import CliRunner

    from solver.cli import cli as toppi

    monkeypatch.setattr(jobs, "GRACE", 600.0)
    file = PUZZLES / "hoch-hinaus/midgame-1.json"
    options = {"within": "12", "tiles": "any", "time_limit": "0.01"}
    done = CliRunner().invoke(toppi, ["hoch-hinaus", "achievable", str(file), "--within",
                                      "12", "--tiles", "any", "--time-limit", "0.01",
                                      "--json", "--quiet"])
    assert done.exit_code == 3, done.output
    r = post(client, "/api/hoch-hinaus/achievable", file.read_text(), **options)
    assert (r.status_code, r.headers["X-Toppi-Exit"]) == (504, "3"), r.text
    assert r.json()["error"] == done.stderr.strip()
    assert "(the solve was stopped)" not in r.json()["error"]


def test_a_job_past_its_limit_is_killed(client, monkeypatch):
    """A process past its kill limit (the command's limit + GRACE) is killed: 504 with
    one line; the slot answers again. Here the kill comes 0.3 s after the start, long
    before the command could answer on its own, whatever the load. (How soon after the
    limit the answer comes is timed by scripts/bench_serve.py.)"""
    monkeypatch.setattr(jobs, "GRACE", 0.3 - float(LONG_SOLVE["time_limit"]))
    r = post(client, "/api/take-it-higher/max", "{}", **LONG_SOLVE)
    assert r.status_code == 504, r.text
    assert r.json()["error"] == ("toppi: error: time limit: no answer within 60 s "
                                 "(the solve was stopped)")
    monkeypatch.undo()
    text = (PUZZLES / "hippo/midgame-4p.json").read_text()
    for _ in range(client.app.state.pool.size):  # every slot, the killed one restarted
        assert post(client, "/api/hippo/best", text, roll="3,4,5").status_code == 200


def test_async_job_poll_and_cancel(client):
    r = post(client, "/api/take-it-higher/max", "{}", **LONG_SOLVE, **{"async": "1"})
    assert r.status_code == 202
    job = r.json()["job"]
    status = wait_for_job(client, job, lambda s: s["status"] != "queued")
    assert status["status"] == "running", status
    assert status["time_limit"] == 60 and 0 <= status["progress"] < 1
    assert "--time-limit 60" in status["command"]
    # the solver's own progress comes through: CP-SAT's best board and its bound
    status = wait_for_job(client, job, lambda s: (s["solver"] or {}).get("best"))
    assert status["status"] == "running", status
    live = status["solver"]
    assert live["stage"] == "CP-SAT" and 0 < live["best"] <= live["bound"]
    assert live["text"].startswith(f"CP-SAT: best {live['best']}")
    r = client.delete(f"/api/jobs/{job}")
    assert r.json()["status"] == "cancelled"
    final = client.get(f"/api/jobs/{job}").json()
    assert final["http_status"] == 409 and final["status"] == "cancelled"
    # the pool answers again afterwards
    text = (PUZZLES / "hippo/midgame-4p.json").read_text()
    assert post(client, "/api/hippo/best", text, roll="3,4,5").status_code == 200
    assert client.get("/api/jobs/nope").status_code == 404


def test_pages_do_not_wait_for_the_pool(client):
    """Every slot of the pool runs a long solve: the pages and the quick verbs still
    answer (they never queue behind the pool), while the solves go on. (How fast:
    scripts/bench_serve.py.)"""
    held = [post(client, "/api/take-it-higher/max", "{}", **LONG_SOLVE,
                 **{"async": "1"}).json()["job"] for _ in range(client.app.state.pool.size)]
    try:
        for job in held:
            wait_for_job(client, job, lambda s: s["status"] != "queued")
        assert client.get("/hippo").status_code == 200
        text = (PUZZLES / "hippo/midgame-4p.json").read_text()
        assert post(client, "/api/hippo/show", text).status_code == 200
        assert [client.get(f"/api/jobs/{j}").json()["status"] for j in held] == \
            ["running"] * len(held)
    finally:
        for job in held:
            client.delete(f"/api/jobs/{job}")


def test_twenty_concurrent_requests(client):
    """20 requests at once (quick verbs, pictures, solves) all answered, and a page
    among them."""
    text = (PUZZLES / "hippo/midgame-4p.json").read_text()
    calls = [("show", {}), ("picture", {}), ("best", {"roll": "6,4,2"}),
             ("moves", {"roll": "3,4,5"})] * 5
    with ThreadPoolExecutor(21) as pool:
        futures = [pool.submit(post, client, f"/api/hippo/{v}", text, **o) for v, o in calls]
        page = pool.submit(client.get, "/hippo")
        codes = [f.result(timeout=GUARD).status_code for f in futures]
        assert page.result(timeout=GUARD).status_code == 200
    assert codes == [200] * 20


def test_apply_undo_shape_and_picture(client):
    text = (PUZZLES / "topito/midgame.json").read_text()
    r = post(client, "/api/topito/apply", text, move="Cat -> yellow")
    assert r.status_code == 200
    after = r.json()
    assert after["move"]["text"] == "move Cat red -> yellow"
    assert after["position"]["podiums"]["yellow"] == ["Whale", "Duck", "Cat"]
    # the new position is a position file the CLI reads
    assert post(client, "/api/topito/show", json.dumps(after["position"])).status_code == 200
    r = post(client, "/api/topito/apply", text, move="move Bear+Cat red -> blue")
    assert r.status_code == 400 and r.json()["error"].startswith("toppi: error:")
    hippo = (PUZZLES / "hippo/midgame-4p.json").read_text()
    rolled = post(client, "/api/hippo/apply", hippo, move="6,4,2").json()["position"]
    r = post(client, "/api/hippo/apply", json.dumps(rolled), move="2 4 6")
    assert r.status_code == 409 and len(r.json()["candidates"]) > 1
    svg = post(client, "/api/take-it-higher/picture",
               (PUZZLES / "take-it-higher/example-board.json").read_text()).text
    assert svg.startswith("<svg") and svg.count('class="hit"') == 24


def test_library_check_reveal_sheet(client):
    r = client.get("/api/tippi-toppi/library")
    puzzles = r.json()["puzzles"]
    assert len(puzzles) == 21 and {p["difficulty"] for p in puzzles} == {"easy", "medium",
                                                                         "hard"}
    name = "tippi-toppi-easy-2026-1"
    data = json.loads((PUZZLES / f"tippi-toppi/library/{name}.json").read_text())
    shown = client.get(f"/api/tippi-toppi/library/{name}").json()
    assert "solution" not in shown["puzzle"] and shown["svg"].startswith("<svg")
    right = client.post(f"/api/tippi-toppi/library/{name}/check",
                        json={"steps": data["solution"]}).json()
    assert right["solved"] is True
    wrong = client.post(f"/api/tippi-toppi/library/{name}/check",
                        json={"steps": ["P4>1"]}).json()
    assert wrong["solved"] is False
    revealed = client.get(f"/api/tippi-toppi/library/{name}/reveal").json()
    assert revealed["solution"] == data["solution"]
    sheet = client.get(f"/api/tippi-toppi/library/{name}/sheet")
    assert sheet.status_code == 200 and "<svg" in sheet.text
    assert client.get("/api/tippi-toppi/library/..%2F..%2Fpyproject").status_code == 404
    r = client.post(f"/api/tippi-toppi/library/{name}/check", json=["x"])
    assert r.status_code == 400


def make_store(path: Path, count: int = 2) -> Path:
    """A store written by `toppi tippi-toppi generate --store` (easy puzzles)."""
    from click.testing import CliRunner

    from solver.cli import cli

    done = CliRunner().invoke(cli, ["tippi-toppi", "generate", "--difficulty", "easy",
                                    "--count", str(count), "--jobs", "1", "--store",
                                    str(path), "--json"], env={"TOPPI_QUIET": "1"})
    assert done.exit_code == 0, done.output
    return path


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return make_store(tmp_path_factory.mktemp("store") / "puzzles.db")


def test_store_browsing(store, tmp_path):
    """The --store file's puzzles: listed by game and difficulty as `toppi puzzles list`
    lists them, opened, checked, revealed and printed as the exported file's sheet."""
    code, out, err = cli_run(tmp_path, "{}", "puzzles", "list", "--store", str(store),
                             "--json")
    assert code == 0, err
    rows = json.loads(out)["puzzles"]
    with TestClient(create_app(pool_size=1, store=store)) as c:
        assert c.get("/api").json()["store"] is True
        listed = c.get("/api/tippi-toppi/store").json()["puzzles"]
        assert [(p["name"], p["difficulty"], p["score"]) for p in listed] == \
            [(str(r["id"]), r["difficulty"], r["score"]) for r in rows]
        assert c.get("/api/hippo/store").json()["puzzles"] == []
        page = c.get("/").text
        assert 'href="/tippi-toppi/store"' in page and "2 easy" in page
        assert c.get("/tippi-toppi/store").status_code == 200
        name = listed[0]["name"]
        code, out, err = cli_run(tmp_path, "{}", "puzzles", "export", "--store",
                                 str(store), "--game", "tippi-toppi", "--json")
        data = next(p["puzzle"] for p in json.loads(out)["puzzles"]
                    if str(p["id"]) == name)
        shown = c.get(f"/api/tippi-toppi/store/{name}").json()
        assert shown["source"] == "store" and "solution" not in shown["puzzle"]
        assert shown["steps"] == len(data["solution"])
        check = c.post(f"/api/tippi-toppi/store/{name}/check",
                       json={"steps": data["solution"]}).json()
        assert check["solved"] is True
        assert c.get(f"/api/tippi-toppi/store/{name}/reveal").json()["solution"] == \
            data["solution"]
        # the sheet is the CLI's sheet of the exported file
        file = f"tippi-toppi-store-{name}.json"
        (tmp_path / file).write_text(json.dumps(data, indent=1) + "\n")
        code, _, err = cli_run(tmp_path, "{}", "tippi-toppi", "sheet", file, "--svg",
                               "sheet.html")
        assert code == 0, err
        sheet = c.get(f"/api/tippi-toppi/store/{name}/sheet").text
        assert sheet == (tmp_path / "sheet.html").read_text()
        # only names the store lists; no file names
        assert c.get("/api/tippi-toppi/store/..%2Fpuzzles.db").status_code == 404
        r = c.get("/api/tippi-toppi/store/puzzles.db")
        assert r.status_code == 404 and "no puzzle" in r.json()["error"]
        # a bad answer: HTTP 400 with one line
        r = c.post(f"/api/tippi-toppi/store/{name}/check", json=["P4>1"])
        assert (r.status_code, r.json()["error"]) == (
            400, 'toppi: error: answer: expected {"steps": [...]}')
        r = post(c, f"/api/tippi-toppi/store/{name}/check", '{"steps": [')
        assert r.status_code == 400 and r.json()["error"].startswith("toppi: error: answer")
        assert "\n" not in r.json()["error"]
        assert c.get("/api/tippi-toppi/shelf").status_code == 404
    # without --store: 404 with the line saying how to give one
    with TestClient(create_app(pool_size=1)) as c:
        r = c.get("/api/tippi-toppi/store")
        assert r.status_code == 404 and "--store FILE" in r.json()["error"]
        assert c.get("/tippi-toppi/store").status_code == 404


# position files whose fields the editor must be able to write: (game, file)
EDITED = [("take-it-higher", "take-it-higher/library/take-it-higher-easy-2026-1.json"),
          ("hoch-hinaus", "hoch-hinaus/midgame-1.json"),
          ("hoch-hinaus", "hoch-hinaus/pros-purple.json"),
          ("hoch-hinaus", "hoch-hinaus/table.json"), ("tippi-toppi", "tippi-toppi/table.json"),
          ("tippi-toppi", "tippi-toppi/known-deck.json"),
          ("tippi-toppi", "tippi-toppi/hidden.json"),
          ("topito", "topito/midgame.json"), ("topito", "topito/race/endgame.json"),
          ("hippo", "hippo/midgame-4p.json"), ("hippo", "hippo/penalty-trap.json")]


def test_editor_pieces_are_the_games_own(client):
    """The editor's pickers hold the rules data's pieces (every tile, card, task, die
    face once) and can write every value of the example files' fields."""
    from solver.registry import entry
    from solver.web import default_rules

    def rules(game):
        return default_rules(entry(game).game())

    editors = {g: client.get(f"/api/{g}/editor").json() for g, _ in EDITED}
    hh, tt, topito = rules("hoch-hinaus"), rules("tippi-toppi"), rules("topito")
    ids = {g: {k: [p["id"] for p in v] for k, v in e["pieces"].items()}
           for g, e in editors.items()}
    assert ids["hoch-hinaus"]["tiles"] == [t.id for t in hh.rules.tiles]
    assert len(ids["hoch-hinaus"]["tasks"]) == len(hh.catalogue.ids) == 60
    assert ids["tippi-toppi"]["cards"] == [tt.card_name(c) for c in tt.cards]
    assert len(ids["tippi-toppi"]["tasks"]) == len(tt.catalogue)
    assert len(set(ids["topito"]["cards"])) == len(topito.deck) == 48
    assert ids["hippo"]["faces"] == ["1", "2", "3", "4", "5", "6"]
    for game, file in EDITED:
        data = json.loads((PUZZLES / file).read_text())
        if game == "take-it-higher":
            data["called"] = data["to_come"][0]
        for f in editors[game]["fields"]:
            value, pieces = data.get(f["key"]), set(ids[game].get(f.get("pieces"), []))
            if f["kind"] in ("hands", "list", "dice") and value is None:
                continue  # a field the file leaves out
            unknown = f.get("unknown")  # a piece not seen: "?"
            if f["kind"] == "hands" and game == "topito":
                # a card may be worded otherwise ("order Whale < Mouse < Pig" is the
                # deck's "order Pig > Mouse > Whale"); every card of the deck is offered
                from models.topito.rules import parse_card

                offered = {parse_card(topito.rules, c) for c in pieces}
                deck = set(topito.deck)
                assert all(parse_card(topito.rules, c) in offered for h in value for c in h
                           if parse_card(topito.rules, c) in deck), file
            elif f["kind"] == "hands":
                assert all(c in pieces or c == unknown for h in value for c in h), file
            if f["kind"] == "hands":
                assert all(len(h) <= f["size"] for h in value)
            elif f["kind"] in ("list", "dice"):
                assert all(str(c) in pieces or c == unknown for c in value), (file, f["key"])
            elif f["kind"] == "one":
                assert value in pieces
            elif f["kind"] == "move" and value is not None:
                assert all(value[k] in ids[game][p] for k, p in f["parts"].items())
    assert client.get("/api/chess/editor").status_code == 404


def test_store_option_rejects_a_file_that_is_no_store(tmp_path):
    (tmp_path / "x.db").write_text("not sqlite")
    code, out, err = cli_run(tmp_path, "{}", "serve", "--store", "x.db", "--port", "0")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("toppi: error: --store x.db")


def test_pages(client):
    assert "toppi" in client.get("/").text
    for game in ("take-it-higher", "hoch-hinaus", "tippi-toppi", "topito", "hippo"):
        page = client.get(f"/{game}")
        assert page.status_code == 200 and 'id="picture"' in page.text
        assert client.get(f"/{game}/library").status_code == 200
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


# ---------------------------------------------------------------- schemas

# a real answer of every verb of every game (two positions where a verb's document
# changes with the situation): (game, verb, file, options)
ANSWERS = [
    ("take-it-higher", "show", "take-it-higher/example-board.json", {}),
    ("take-it-higher", "show", "EXAMPLE", {}),
    ("take-it-higher", "moves", "EXAMPLE", {}),
    ("take-it-higher", "score", "take-it-higher/example-board.json", {}),
    ("take-it-higher", "hint", "LAST-TILE", {"time_limit": "60"}),  # a cold import
    ("take-it-higher", "max", "LAST-TILE", {"time_limit": "60"}),
    ("take-it-higher", "solve", "take-it-higher/library/take-it-higher-easy-2026-1.json", {}),
    ("hoch-hinaus", "show", "hoch-hinaus/midgame-1.json", {}),
    ("hoch-hinaus", "moves", "hoch-hinaus/endgame-known.json", {}),
    ("hoch-hinaus", "achievable", "hoch-hinaus/midgame-1.json", {"within": "2"}),
    ("hoch-hinaus", "achievable", "hoch-hinaus/dead-end.json", {"within": "1"}),
    ("hoch-hinaus", "reachable", "hoch-hinaus/endgame-known.json", {"open_hands": "1"}),
    ("hoch-hinaus", "reachable", "hoch-hinaus/endgame-known.json",
     {"samples": "2", "policy": "greedy"}),
    ("hoch-hinaus", "hint", "hoch-hinaus/midgame-2.json", {"time_limit": "60"}),
    ("hoch-hinaus", "solve", "hoch-hinaus/library/hoch-hinaus-easy-2026-1.json", {}),
    ("tippi-toppi", "show", "tippi-toppi/hidden.json", {}),
    ("tippi-toppi", "moves", "tippi-toppi/known-deck.json", {}),
    ("tippi-toppi", "achievable", "tippi-toppi/known-deck.json",
     {"within": "4", "cards": "known"}),
    ("tippi-toppi", "reachable", "tippi-toppi/solo-endgame.json", {"time_limit": "60"}),
    ("tippi-toppi", "hint", "tippi-toppi/hidden.json", {}),
    ("tippi-toppi", "solve", "tippi-toppi/library/tippi-toppi-easy-2026-1.json", {}),
    ("topito", "show", "topito/start.json", {}),
    ("topito", "moves", "topito/midgame.json", {}),
    ("topito", "plan", "topito/midgame.json", {"card": "Duck on Owl"}),
    ("topito", "race", "topito/race/endgame.json", {}),
    ("topito", "reachable", "topito/midgame.json", {"card": "Duck on Owl", "within": "1"}),
    ("topito", "hint", "topito/midgame.json", {}),
    ("topito", "solve", "topito/library/topito-easy-2026-1.json", {}),
    ("hippo", "show", "hippo/start-2p.json", {}),
    ("hippo", "moves", "hippo/midgame-4p.json", {"roll": "6,4,2"}),
    ("hippo", "best", "hippo/midgame-4p.json", {"roll": "6,4,2"}),
    ("hippo", "plan", "hippo/solo-endgame.json", {"rolls": "6,4,2;3,4,5"}),
    ("hippo", "finish", "hippo/solo-endgame.json", {"turns": "1"}),
    ("hippo", "solve", "hippo/library/hippo-easy-2026-1.json", {}),
]


def problems(doc, schema) -> list[str]:
    """Where `doc` breaks `schema` (JSON Schema 2020-12, checked by jsonschema)."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)
    return sorted(f"{'.'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
                  for e in validator.iter_errors(doc))


def valid(client, name: str, doc) -> None:
    r = client.get(f"/api/schema/{name}")
    assert r.status_code == 200, name
    schema = r.json()
    assert schema["$id"] == f"/api/schema/{name}"
    assert problems(doc, schema) == [], name


@pytest.mark.slow  # 33 answers, some solves: 9-12 s at a load average of 6-9 on 2 cores
def test_every_verb_answer_has_its_schema(client):
    from solver.registry import web_games
    from solver.serve.api import offered

    verbs = {g: list(offered(e)) for g, e in web_games().items()}
    listed = client.get("/api/schema").json()["schemas"]
    assert {f"{g}.{v}" for g, vs in verbs.items() for v in vs} <= set(listed)
    assert {g for g, v, *_ in ANSWERS} == set(verbs)
    assert {(g, v) for g, v, *_ in ANSWERS} == {(g, v) for g, vs in verbs.items()
                                                for v in vs}
    example = client.get("/take-it-higher").text  # the page's first position
    bodies = {"EXAMPLE": json.loads(html.unescape(
        example.split('id="position" spellcheck="false">')[1].split("</textarea>")[0]))}
    board = json.loads((PUZZLES / "take-it-higher/example-board.json").read_text())
    last = board["placements"].pop()  # one tile to place: quick hint and max
    bodies["LAST-TILE"] = {**board, "called": last.split("@")[0]}

    def body(file: str) -> str:
        if file in bodies:
            return json.dumps(bodies[file])
        return file if file.startswith("{") else (PUZZLES / file).read_text()

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda a: post(client, f"/api/{a[0]}/{a[1]}", body(a[2]),
                                               **a[3]), ANSWERS))
    for (game, verb, file, _), r in zip(ANSWERS, answers, strict=True):
        assert r.status_code == 200, (game, verb, file, r.text)
        valid(client, f"{game}.{verb}", r.json())


def test_api_answers_have_their_schemas(client, store):
    from solver.serve import schemas

    assert set(client.get("/api/schema").json()["schemas"]) == set(schemas.names())
    valid(client, "schemas", client.get("/api/schema").json())
    valid(client, "index", client.get("/api").json())
    valid(client, "game", client.get("/api/hippo").json())
    for game in ("hoch-hinaus", "tippi-toppi", "topito", "hippo", "take-it-higher"):
        valid(client, "editor", client.get(f"/api/{game}/editor").json())
    text = (PUZZLES / "topito/midgame.json").read_text()
    valid(client, "apply", post(client, "/api/topito/apply", text, move="Cat -> yellow").json())
    hippo = (PUZZLES / "hippo/midgame-4p.json").read_text()
    rolled = post(client, "/api/hippo/apply", hippo, move="6,4,2").json()
    valid(client, "apply", rolled)
    ambiguous = post(client, "/api/hippo/apply", json.dumps(rolled["position"]), move="2 4 6")
    assert ambiguous.status_code == 409
    valid(client, "error", ambiguous.json())
    valid(client, "error", post(client, "/api/hippo/best", hippo, roll="6,4,9").json())
    job = post(client, "/api/hippo/best", hippo, roll="6,4,2", **{"async": "1"}).json()
    valid(client, "job", job)
    ended = wait_for_job(client, job["job"], lambda s: "http_status" in s)
    valid(client, "job", ended)
    valid(client, "hippo.best", ended["result"])
    name = "hippo-easy-2026-1"
    valid(client, "puzzles", client.get("/api/hippo/library").json())
    valid(client, "puzzle", client.get(f"/api/hippo/library/{name}").json())
    valid(client, "check", client.post(f"/api/hippo/library/{name}/check",
                                       json={"steps": []}).json())
    valid(client, "reveal", client.get(f"/api/hippo/library/{name}/reveal").json())
    with TestClient(create_app(pool_size=1, store=store)) as c:
        valid(c, "puzzles", c.get("/api/tippi-toppi/store").json())
        valid(c, "puzzle", c.get("/api/tippi-toppi/store/1").json())
    r = client.get("/api/schema/hippo.fly")
    assert r.status_code == 404 and r.json()["error"].startswith("toppi: error: no schema")


def test_schemas_are_strict():
    """An answer's schema is its whole document: a missing field, a field of the wrong
    type, a field no type declares, or a wrong value in a nested answer is a break."""
    from solver.serve import schemas

    check = schemas.schema("check")
    assert problems({"solved": True, "steps": 1, "needed": 1, "message": "ok"}, check) == []
    assert problems({"solved": "yes", "steps": 1, "needed": 1, "message": "ok"},
                    check) == ["solved: 'yes' is not of type 'boolean'"]
    assert len(problems({"steps": 1.5, "needed": 1, "message": "ok", "x": 0}, check)) == 3
    best = schemas.schema("hippo.best")
    doc = {"player": "red", "roll": [6, 4, 2], "bonus_roll": False, "best": ["2 red"],
           "expected_shed": 1, "exposure": 0.5, "proven": True, "method": "m",
           "options": [{"rank": 1, "placements": ["2 red"], "shed_now": 1,
                        "bonus_roll": False, "won": False, "expected_shed": 1,
                        "expected_shed_exact": "1", "exposure": 0.5,
                        "exposure_exact": "1/2"}],
           "seconds": 0.1, "knows": [], "unknown": [], "all_seeing": False,
           "samples": None, "chance": "exact"}
    assert problems(doc, best) == []
    assert problems({**doc, "extra": 1}, best) != []
    broken = {**doc, "options": [{**doc["options"][0], "rank": "first"}]}
    assert problems(broken, best) == ["options.0.rank: 'first' is not of type 'integer'"]
    assert problems({k: v for k, v in doc.items() if k != "knows"}, best) != []
