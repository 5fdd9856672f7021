"""The JSON API under /api: the CLI's answers over HTTP (docs/serve.md).

`POST /api/<game>/<verb>?option=value...` with a position file's JSON as the body runs
`toppi <game> <verb> position.json --option value --json` and answers with exactly the
document the CLI prints (HTTP 200; `X-Toppi-Exit` has the CLI's exit code), or with
`{"error": LINE}` and HTTP 400 where the CLI exits 2 with that line. Solver verbs run in
the process pool with a time limit; `?async=1` returns a job to poll
(`GET /api/jobs/<id>`) or cancel (`DELETE /api/jobs/<id>`).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from pathlib import Path
from typing import Any

import click
from anyio import to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from solver.errors import BadInput
from solver.serve import games
from solver.serve.worker import CliOutcome, run_cli

MAX_BODY = 1024 * 1024  # bytes of a request body
DEFAULT_TIME = 10.0  # seconds, when the command's own default is longer or none
MAX_TIME = 60.0
POSITION = "position.json"
# options a request may not give: files, output, batch runs, threads
DENIED = {"json", "svg", "rules", "store", "resume", "scheduler", "jobs", "quiet",
          "solver-log", "out", "help", "workers", "tasks", "deck", "catalogue"}
TRUE, FALSE = {"", "1", "true", "yes", "on"}, {"0", "false", "no", "off"}


class HttpError(Exception):
    def __init__(self, status: int, message: str, **more: Any) -> None:
        super().__init__(message)
        self.status, self.more = status, more


def error(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status)


def _game(request: Request) -> str:
    game = request.path_params["game"]
    if game not in games.VERBS:
        raise HttpError(404, f"toppi: error: no game '{game}' (games: "
                             f"{', '.join(games.VERBS)})")
    return game


def command(game: str, verb: str) -> click.Command:
    from solver.cli import cli

    group = cli.get_command(None, game)  # type: ignore[arg-type]
    assert isinstance(group, click.Group)
    found = group.get_command(None, verb)  # type: ignore[arg-type]
    assert found is not None
    return found


def _long(option: click.Option) -> str:
    return max(option.opts, key=len).lstrip("-")


def verb_options(game: str, verb: str) -> list[dict[str, Any]]:
    """The options a request may give to a verb, from its click command."""
    out = []
    for p in command(game, verb).params:
        if not isinstance(p, click.Option) or isinstance(p.type, (click.Path, click.File)):
            continue
        name = _long(p)
        if name in DENIED or p.hidden:
            continue
        default = _plain(p.default)
        default = None if isinstance(default, (list, tuple)) else default
        item = {"name": name, "flag": bool(p.is_flag), "multiple": bool(p.multiple),
                "default": default, "help": p.help or ""}
        if isinstance(p.type, click.Choice):
            item["choices"] = list(p.type.choices)
        out.append(item)
    return out


def takes_file(game: str, verb: str) -> bool:
    return any(isinstance(p, click.Argument) for p in command(game, verb).params)


def build_argv(game: str, verb: str, query: list[tuple[str, str]]
               ) -> tuple[list[str], float, bool]:
    """The command line of a request: its options from the query string (only those
    `verb_options` lists), and the time limit: (argv, seconds, the command keeps it)."""
    allowed = {o["name"]: o for o in verb_options(game, verb)}
    argv = [game, verb]
    if takes_file(game, verb):
        argv.append(POSITION)
    own_limit = "time-limit" in allowed
    limit: float | None = None
    for key, value in query:
        name = key.replace("_", "-")
        if name in ("async", "wait"):
            continue
        if name == "time-limit":
            try:
                limit = float(value)
            except ValueError:
                raise HttpError(400, f"toppi: error: time-limit: '{value}' is not a "
                                     "number of seconds") from None
            if not 0 < limit <= MAX_TIME:
                raise HttpError(400, f"toppi: error: time-limit: {value} s is not in "
                                     f"(0, {MAX_TIME:g}] seconds")
            continue
        option = allowed.get(name)
        if option is None:
            raise HttpError(400, f"toppi: error: {game} {verb}: no option '{key}' here "
                                 f"(options: {', '.join(allowed) or 'none'})")
        if option["flag"]:
            if value.lower() in TRUE:
                argv.append(f"--{name}")
            elif value.lower() not in FALSE:
                raise HttpError(400, f"toppi: error: {name}: a flag is true or false, "
                                     f"not '{value}'")
            continue
        argv += [f"--{name}", value]
    if limit is None:
        default = allowed.get("time-limit", {}).get("default")
        limit = default if isinstance(default, (int, float)) and 0 < default <= MAX_TIME \
            else DEFAULT_TIME
    if own_limit:
        argv += ["--time-limit", f"{limit:g}"]
    return [*argv, "--json"], float(limit), own_limit


async def read_body(request: Request) -> str:
    """The request body as text, at most MAX_BODY bytes (HTTP 413 past it)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise HttpError(413, f"toppi: error: request body larger than "
                             f"{MAX_BODY // 1024} KiB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HttpError(413, f"toppi: error: request body larger than "
                                 f"{MAX_BODY // 1024} KiB")
        chunks.append(chunk)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise HttpError(400, f"toppi: error: position file {POSITION}: not UTF-8 text"
                        ) from None


def outcome_response(outcome: CliOutcome, job: str | None = None) -> Response:
    """The CLI's answer as HTTP: the document verbatim, or the error line."""
    headers = {"X-Toppi-Exit": str(outcome.exit_code)}
    if job:
        headers["X-Toppi-Job"] = job
    if outcome.error is None and outcome.stdout.strip():
        return Response(outcome.stdout, media_type="application/json", headers=headers)
    status = {2: 400, 3: 504}.get(outcome.exit_code, 500)
    return JSONResponse({"error": outcome.error or "toppi: error: no answer"},
                        status_code=status, headers=headers)


async def run_verb(request: Request) -> Response:
    game, verb = _game(request), request.path_params["verb"]
    if verb not in games.VERBS[game]:
        raise HttpError(404, f"toppi: error: {game}: no verb '{verb}' here (verbs: "
                             f"{', '.join(games.VERBS[game])})")
    body = await read_body(request)
    argv, limit, own = build_argv(game, verb, list(request.query_params.multi_items()))
    files = {POSITION: body} if POSITION in argv else {}
    if verb in games.QUICK:
        outcome = await to_thread.run_sync(run_cli, argv, files)
        return outcome_response(outcome)
    pool = request.app.state.pool
    job = pool.submit(argv, files, limit, own)
    if request.query_params.get("async", "").lower() in TRUE - {""}:
        return JSONResponse(job.view(), status_code=202)
    await asyncio.shield(job.task)
    return job_response(job)


def job_response(job: Any) -> Response:
    if job.status in ("done", "error") and job.outcome is not None:
        return outcome_response(job.outcome, job.id)
    status = {"timeout": 504, "cancelled": 409}.get(job.status, 500)
    return JSONResponse({"error": job.message, "job": job.id}, status_code=status,
                        headers={"X-Toppi-Job": job.id})


def _job(request: Request) -> Any:
    job = request.app.state.pool.jobs.get(request.path_params["job"])
    if job is None:
        raise HttpError(404, f"toppi: error: no job '{request.path_params['job']}'")
    return job


async def job_status(request: Request) -> Response:
    """The job: status, elapsed, time limit; the answer once it is there."""
    job = _job(request)
    out = job.view()
    if job.ended is not None:
        answer = job_response(job)
        out["http_status"] = answer.status_code
        out["result"] = json.loads(answer.body)
    return JSONResponse(out)


async def job_cancel(request: Request) -> Response:
    job = _job(request)
    request.app.state.pool.cancel(job)
    if job.task is not None:
        try:
            await asyncio.shield(job.task)
        except asyncio.CancelledError:
            pass
    return JSONResponse(job.view())


# ---------------------------------------------------------------- the engine: apply, picture

def _load(game_id: str, text: str) -> tuple[Any, Any, Any]:
    """(game, rules, state) of a position text, checked as the CLI reads a file."""
    from solver.io import parse_json
    from solver.serve.worker import warm

    warm()
    game = _describe(game_id)
    rules = game.load_rules(None, **{o.name: _plain(o.default) for o in game.data_options})
    state = game.read(rules, parse_json(text, f"position file {POSITION}"),
                      f"position file {POSITION}")
    return game, rules, state


def _plain(value: Any) -> Any:
    """A click default as the command receives it (click's 'unset' marker: None)."""
    return value if isinstance(value, (str, int, float, bool, list, tuple)) else None


def _describe(game_id: str) -> Any:
    from solver.registry import entry

    return entry(game_id).game()


def apply_move(game_id: str, text: str, move: str) -> dict[str, Any]:
    """The position after `move` (the game's notation or its shorthand)."""
    from solver.game import CHANCE
    from solver.game_cli import who

    game, _, state = _load(game_id, text)
    if game.is_terminal(state):
        raise BadInput("the game is over: no move can be applied")
    if move == "random" and game.current_player(state) == CHANCE:
        actions = [game.sample_chance(state, random.Random())]
    elif game.current_player(state) == CHANCE:
        actions = [game.parse_action(state, move)]
    else:
        actions = game.matching_actions(state, move)
    if not actions:
        raise BadInput(f"'{move}' is not a legal action here")
    if len(actions) != 1:
        raise HttpError(409, f"toppi: error: '{move}' means {len(actions)} moves; "
                             "choose one", candidates=[game.action_text(state, a)
                                                       for a in actions])
    action = actions[0]
    after = game.apply_action(state, action)
    return {"game": game_id, "move": game.action_json(state, action),
            "position": game.write(after), "to_move": who(game, after),
            "status": game.status(after)}


def picture(game_id: str, text: str) -> str:
    game, _, state = _load(game_id, text)
    from solver.registry import entry

    svg = entry(game_id).view().picture(state, "").render() \
        if hasattr(entry(game_id).module("render"), "VIEW") else game.picture(state, "").render()
    return games.with_regions(svg, games.regions(game_id, state))


async def apply_endpoint(request: Request) -> Response:
    game = _game(request)
    body = await read_body(request)
    move = request.query_params.get("move", "").strip()
    if not move:
        raise HttpError(400, "toppi: error: apply: give ?move=MOVE")
    return JSONResponse(await to_thread.run_sync(_engine, apply_move, game, body, move))


async def picture_endpoint(request: Request) -> Response:
    game = _game(request)
    body = await read_body(request)
    svg = await to_thread.run_sync(_engine, picture, game, body)
    return Response(svg, media_type="image/svg+xml")


def _engine(function: Any, *args: Any) -> Any:
    """Run an engine call; its BadInput becomes HTTP 400 with the CLI's line."""
    from solver.errors import ToppiError

    try:
        return function(*args)
    except ToppiError as exc:
        raise HttpError(400 if exc.exit_code == 2 else 504, f"toppi: error: {exc}") from None


# ---------------------------------------------------------------- puzzles

SOURCES = ("library", "store")  # puzzles/<game>/library/*.json, or the --store file


def _source(request: Request) -> str:
    source = request.path_params["source"]
    if source not in SOURCES:
        raise HttpError(404, f"toppi: error: no puzzle source '{source}' (sources: "
                             f"{', '.join(SOURCES)})")
    if source == "store" and not request.app.state.store:
        raise HttpError(404, "toppi: error: no store: start `toppi serve --store FILE` "
                             "to browse one")
    return source


def library_dir(request: Request, game: str) -> Path:
    return Path(request.app.state.puzzles) / game / "library"


def _order(puzzles: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from solver.options import DIFFICULTIES

    order = {d: n for n, d in enumerate(DIFFICULTIES)}
    return sorted(puzzles, key=lambda p: (order.get(p["difficulty"], len(order)),
                                          p["score"] or 0, p["name"]))


def library(request: Request, game: str) -> list[dict[str, Any]]:
    """The puzzle files of a game's library: name, difficulty, rating score."""
    out = []
    for path in sorted(library_dir(request, game).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        rating = data.get("rating") or data.get("puzzle", {}).get("rating") or {}
        out.append({"name": path.stem, "difficulty": rating.get("difficulty", "?"),
                    "score": rating.get("score")})
    return _order(out)


_STORE_CACHE: dict[tuple[str, float, int], dict[str, list[dict[str, Any]]]] = {}


def store_puzzles(path: str) -> dict[str, list[dict[str, Any]]]:
    """The puzzles of the --store file by game: listing fields and the puzzle file
    (`toppi puzzles export`'s rows), read again when the file changes."""
    from solver.store_cli import stored_puzzles

    try:
        stat = os.stat(path)
    except OSError as exc:
        raise BadInput(f"--store {path}: cannot read ({exc.strerror})") from None
    key = (path, stat.st_mtime, stat.st_size)
    if key not in _STORE_CACHE:
        by_game: dict[str, list[dict[str, Any]]] = {}
        for p in stored_puzzles(path).puzzles:
            by_game.setdefault(p.game, []).append(
                {"name": str(p.id), "difficulty": p.difficulty, "score": p.score,
                 "seed": p.seed, "created": p.created, "file": p.puzzle})
        _STORE_CACHE.clear()
        _STORE_CACHE[key] = {g: _order(ps) for g, ps in by_game.items()}
    return _STORE_CACHE[key]


def listing(request: Request, game: str, source: str) -> list[dict[str, Any]]:
    """The puzzles of a source (no puzzle contents): name, difficulty, score."""
    if source == "library":
        return library(request, game)
    return [{k: v for k, v in p.items() if k != "file"}
            for p in store_puzzles(request.app.state.store).get(game, [])]


def puzzle_file(request: Request, game: str, source: str = "library"
                ) -> tuple[str, dict[str, Any]]:
    """(name, puzzle file) of the puzzle named in the URL: only a name the source lists
    (a library file's stem, a store row's id) is read; never a path."""
    name = request.path_params["name"]
    if source == "store":
        for p in store_puzzles(request.app.state.store).get(game, []):
            if p["name"] == name:
                return name, p["file"]
        raise HttpError(404, f"toppi: error: {game}: no puzzle '{name}' in the store")
    names = {p["name"] for p in library(request, game)}
    if name not in names:
        raise HttpError(404, f"toppi: error: {game}: no puzzle '{name}' in the library")
    path = library_dir(request, game) / f"{name}.json"
    return name, json.loads(path.read_text(encoding="utf-8"))


async def library_endpoint(request: Request) -> Response:
    game, source = _game(request), _source(request)
    puzzles = await to_thread.run_sync(_engine, listing, request, game, source)
    return JSONResponse({"game": game, "source": source, "puzzles": puzzles})


def puzzle_picture(game_id: str, text: str, reveal: bool) -> str:
    """The puzzle drawn as posed, or solved (`reveal`), as on its sheet."""
    import importlib

    from solver.io import parse_json

    described = importlib.import_module(
        f"models.{game_id.replace('-', '_')}.puzzles").puzzle_game()
    kind = described.make_kind(None, described.backends[0], 20.0)
    pz, stated = described.read(kind, parse_json(text, "puzzle file"), "puzzle file")
    if stated is None:
        raise BadInput("the puzzle file states no solution")
    return described.picture(kind, pz, stated, reveal).render()


async def puzzle_endpoint(request: Request) -> Response:
    """A puzzle: the file (without its solution), the steps' vocabulary and the picture
    as posed."""
    game, source = _game(request), _source(request)
    name, data = await to_thread.run_sync(_engine, puzzle_file, request, game, source)
    svg = await to_thread.run_sync(_engine, puzzle_picture, game, json.dumps(data), False)
    shown = {k: v for k, v in data.items() if k not in ("solution",)}
    if game == "topito":
        shown["puzzle"] = {k: v for k, v in data["puzzle"].items() if k != "solution"}
    return JSONResponse({"game": game, "source": source, "name": name, "puzzle": shown,
                         "svg": svg, "vocabulary": games.puzzle_vocabulary(game, data),
                         "steps": len(games.puzzle_steps(game, data))})


async def check_endpoint(request: Request) -> Response:
    game, source = _game(request), _source(request)
    _, data = await to_thread.run_sync(_engine, puzzle_file, request, game, source)
    from solver.io import parse_json

    try:
        answer = parse_json(await read_body(request), "answer")
    except BadInput as exc:
        raise HttpError(400, f"toppi: error: {exc}") from None
    steps = answer.get("steps") if isinstance(answer, dict) else None
    if not isinstance(steps, list):
        raise HttpError(400, 'toppi: error: answer: expected {"steps": [...]}')
    return JSONResponse(games.check_steps(game, data, steps))


async def reveal_endpoint(request: Request) -> Response:
    game, source = _game(request), _source(request)
    name, data = await to_thread.run_sync(_engine, puzzle_file, request, game, source)
    svg = await to_thread.run_sync(_engine, puzzle_picture, game, json.dumps(data), True)
    return JSONResponse({"game": game, "source": source, "name": name,
                         "solution": games.puzzle_steps(game, data), "svg": svg})


async def sheet_endpoint(request: Request) -> Response:
    """The printable sheet of one puzzle: `toppi <game> sheet FILE --svg sheet.html`,
    run on a copy of the file."""
    game, source = _game(request), _source(request)
    name, data = await to_thread.run_sync(_engine, puzzle_file, request, game, source)
    file = f"{name}.json" if source == "library" else f"{game}-store-{name}.json"
    files = {file: json.dumps(data, indent=1) + "\n"}
    argv = [game, "sheet", file, "--svg", "sheet.html"]
    outcome = await to_thread.run_sync(run_cli, argv, files, ("sheet.html",))
    if outcome.error is not None or "sheet.html" not in outcome.files:
        return error(400, outcome.error or "toppi: error: no sheet written")
    return HTMLResponse(outcome.files["sheet.html"])


# ---------------------------------------------------------------- index

async def api_index(request: Request) -> Response:
    """Every game with its verbs and their options."""
    def describe() -> dict[str, Any]:
        return {"games": {g: {"verbs": {v: {"options": verb_options(g, v),
                                            "takes_file": takes_file(g, v),
                                            "runs": "thread" if v in games.QUICK else
                                            "pool"} for v in verbs},
                              "hint": games.HINT_VERB[g]}
                          for g, verbs in games.VERBS.items()},
                "limits": {"body_bytes": MAX_BODY, "default_time_limit": DEFAULT_TIME,
                           "max_time_limit": MAX_TIME,
                           "pool_size": request.app.state.pool.size},
                "store": request.app.state.store is not None}
    return JSONResponse(await to_thread.run_sync(describe))


async def schema_index(request: Request) -> Response:
    from solver.serve import schemas

    return JSONResponse(schemas.listing())


async def schema_endpoint(request: Request) -> Response:
    """One answer's JSON Schema (solver/serve/schemas.py)."""
    from solver.serve import schemas

    name = request.path_params["name"]
    found = schemas.schema(name)
    if found is None:
        raise HttpError(404, f"toppi: error: no schema '{name}' (GET /api/schema lists "
                             "them)")
    return JSONResponse(found, media_type="application/schema+json")


async def editor_endpoint(request: Request) -> Response:
    """The editor's fields and pieces (games.editor)."""
    game = _game(request)
    return JSONResponse(await to_thread.run_sync(games.editor, game))


async def game_index(request: Request) -> Response:
    game = _game(request)

    def describe() -> dict[str, Any]:
        return {"game": game, "hint": games.HINT_VERB[game],
                "verbs": {v: {"options": verb_options(game, v),
                              "takes_file": takes_file(game, v)}
                          for v in games.VERBS[game]}}
    return JSONResponse(await to_thread.run_sync(describe))


routes = [
    Route("/api", api_index),
    Route("/api/schema", schema_index, methods=["GET"]),
    Route("/api/schema/{name}", schema_endpoint, methods=["GET"]),
    Route("/api/jobs/{job}", job_status, methods=["GET"]),
    Route("/api/jobs/{job}", job_cancel, methods=["DELETE"]),
    Route("/api/jobs/{job}/cancel", job_cancel, methods=["POST"]),
    Route("/api/{game}", game_index),
    Route("/api/{game}/apply", apply_endpoint, methods=["POST"]),
    Route("/api/{game}/picture", picture_endpoint, methods=["POST"]),
    Route("/api/{game}/editor", editor_endpoint, methods=["GET"]),
    Route("/api/{game}/{source}", library_endpoint, methods=["GET"]),
    Route("/api/{game}/{source}/{name}", puzzle_endpoint),
    Route("/api/{game}/{source}/{name}/check", check_endpoint, methods=["POST"]),
    Route("/api/{game}/{source}/{name}/reveal", reveal_endpoint),
    Route("/api/{game}/{source}/{name}/sheet", sheet_endpoint),
    Route("/api/{game}/{verb}", run_verb, methods=["POST"]),
]
