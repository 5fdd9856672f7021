"""The JSON API under /api: the verbs' answers over HTTP (docs/serve.md), built from the
games' declarations (solver/verbs.py, solver/web.py).

`POST /api/<game>/<verb>?option=value...` with a position file's JSON as the body
answers the verb with exactly the document `toppi <game> <verb> position.json --option
value --json` prints (HTTP 200; `X-Toppi-Exit` has the CLI's exit code), or with
`{"error": LINE}` and HTTP 400 where the CLI exits 2 with that line. The options are the
verb's typed parameters that a request may give (`Param.web`: no files, outputs, batch
runs or threads), converted by `Param.convert`. Solver verbs run in the process pool
with a time limit; `?async=1` returns a job to poll (`GET /api/jobs/<id>`) or cancel
(`DELETE /api/jobs/<id>`); a client with a full queue is answered HTTP 429
(solver/serve/jobs.py).
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
from pathlib import Path
from typing import Any

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from solver.errors import BadInput, ToppiError
from solver.io import decode_text
from solver.params import TRUE, Param
from solver.registry import GameEntry, web_games
from solver.serve.worker import POSITION, Outcome, VerbRequest, answer_request
from solver.verbs import Verb, layer_params

MAX_BODY = 1024 * 1024  # bytes of a request body
DEFAULT_TIME = 10.0  # seconds, when the verb's own default is longer or none
MAX_TIME = 60.0
NOT_OPTIONS = ("async", "wait")  # query keys of the API itself


class HttpError(Exception):
    def __init__(self, status: int, message: str, **more: Any) -> None:
        super().__init__(message)
        self.status, self.more = status, more


def error(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status)


def _game(request: Request) -> GameEntry:
    game = request.path_params["game"]
    found = web_games().get(game)
    if found is None:
        raise HttpError(404, f"toppi: error: no game '{game}' (games: "
                             f"{', '.join(web_games())})")
    return found


def offered(entry: GameEntry) -> dict[str, Verb]:
    """The verbs the web app runs, by name."""
    return {n: v for n, v in entry.verbs().items() if v.web != "none"}


def request_params(entry: GameEntry, verb: Verb) -> list[Param]:
    """The parameters a request may give to a verb (its own and the layer's)."""
    return [p for p in (*verb.params, *layer_params(entry, verb))
            if p.web and p.exposed and p.kind not in ("file", "out", "folder")]


def verb_options(entry: GameEntry, verb: Verb) -> list[dict[str, Any]]:
    """The options a request may give to a verb, as the index lists them."""
    out = []
    for p in request_params(entry, verb):
        default = None if isinstance(p.default, (list, tuple)) else p.default
        if p.flag_value is not None:
            default = bool(default)
        item = {"name": p.option, "flag": p.kind in ("flag", "switch"),
                "multiple": p.multiple, "default": default, "help": p.help}
        if p.kind == "choice":
            item["choices"] = list(p.choices)
        out.append(item)
    return out


def takes_file(verb: Verb) -> bool:
    return verb.reads not in ("nothing",)


def _time_param(entry: GameEntry, verb: Verb) -> Param | None:
    for p in (*verb.params, *layer_params(entry, verb)):
        if p.name == "time_limit":
            return p
    return None


def typed_values(entry: GameEntry, verb: Verb, query: list[tuple[str, str]]
                 ) -> tuple[dict[str, Any], float, bool, list[str]]:
    """A request's options as the verb's typed values, and its time limit: (values,
    seconds, whether the verb keeps the limit itself, the options as the CLI spells
    them)."""
    by_option = {p.option: p for p in request_params(entry, verb)}
    values: dict[str, Any] = {}
    words: list[str] = []
    limit: float | None = None
    for key, text in query:
        name = key.replace("_", "-")
        if name in NOT_OPTIONS:
            continue
        if name == "time-limit":
            limit = _limit(text)
            continue
        param = by_option.get(name)
        if param is None:
            raise HttpError(400, f"toppi: error: {entry.id} {verb.name}: no option '{key}' "
                                 f"here (options: {', '.join(by_option) or 'none'})")
        try:
            value = param.convert(text)
        except ToppiError as exc:
            raise HttpError(400, f"toppi: error: {exc}") from None
        if param.kind in ("flag", "switch"):
            if value in (None, False) and param.flag_value is not None:
                continue
            values[param.name] = value
            words.append(f"--{name}" if value not in (False, None) else
                         (f"--{param.spellings[1].lstrip('-')}" if param.kind == "switch"
                          else ""))
            continue
        if param.multiple:
            values.setdefault(param.name, []).append(value)
        else:
            values[param.name] = value
        words += [f"--{name}", text]
    time_param = _time_param(entry, verb)
    if limit is None:
        default = time_param.default if time_param is not None else None
        limit = default if isinstance(default, (int, float)) and 0 < default <= MAX_TIME \
            else DEFAULT_TIME
    if time_param is not None:
        values["time_limit"] = float(limit)
        words += ["--time-limit", f"{limit:g}"]
    return values, float(limit), time_param is not None, [w for w in words if w]


def _limit(text: str) -> float:
    try:
        limit = float(text)
    except ValueError:
        raise HttpError(400, f"toppi: error: time-limit: '{text}' is not a number of "
                             "seconds") from None
    if not 0 < limit <= MAX_TIME:
        raise HttpError(400, f"toppi: error: time-limit: {text} s is not in "
                             f"(0, {MAX_TIME:g}] seconds")
    return limit


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
        return decode_text(b"".join(chunks), f"position file {POSITION}")
    except BadInput as exc:
        raise HttpError(400, f"toppi: error: {exc}") from None


def outcome_response(outcome: Outcome, job: str | None = None) -> Response:
    """A verb's answer as HTTP: the document, or the error line."""
    headers = {"X-Toppi-Exit": str(outcome.exit_code)}
    if job:
        headers["X-Toppi-Job"] = job
    if outcome.error is None:
        return JSONResponse(outcome.document, headers=headers)
    status = {2: 400, 3: 504}.get(outcome.exit_code, 500)
    return JSONResponse({"error": outcome.error}, status_code=status, headers=headers)


async def run_verb(request: Request) -> Response:
    entry, name = _game(request), request.path_params["verb"]
    verb = offered(entry).get(name)
    if verb is None:
        raise HttpError(404, f"toppi: error: {entry.id}: no verb '{name}' here (verbs: "
                             f"{', '.join(offered(entry))})")
    pool, client = request.app.state.pool, client_of(request)
    if verb.web != "thread":
        _admit(pool, client)  # before the body is read: a refused body is not kept
    body = await read_body(request)
    values, limit, own, words = typed_values(entry, verb,
                                             list(request.query_params.multi_items()))
    question = VerbRequest(entry.id, verb.name, body if takes_file(verb) else None, values)
    if verb.web == "thread":
        return outcome_response(await to_thread.run_sync(answer_request, question))
    command = " ".join(["toppi", entry.id, verb.name,
                        *([POSITION] if takes_file(verb) else []), *words, "--json"])
    job = _admit(pool, client, question, command, limit, own)
    if request.query_params.get("async", "").lower() in TRUE - {""}:
        return JSONResponse(job.view(), status_code=202)
    await asyncio.shield(job.task)
    return job_response(job)


def client_of(request: Request) -> str:
    """Who asks: the peer's address (every page of this machine is one client)."""
    return request.client.host if request.client is not None else ""


def _admit(pool: Any, client: str, *question: Any) -> Any:
    """`pool.admit(client)`, or with a question `pool.submit(*question)`: a full
    queue is HTTP 429 with one line."""
    from solver.serve.jobs import Busy

    try:
        return pool.submit(*question, client=client) if question else pool.admit(client)
    except Busy as exc:
        raise HttpError(429, str(exc)) from None


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

def load(entry: GameEntry, text: str) -> tuple[Any, Any]:
    """(rules, state) of a position text, checked as the CLI reads a file."""
    from solver.io import parse_json

    game = entry.game()
    rules = game.load_rules(None, **{p.name: p.default for p in game.data_options})
    state = game.read(rules, parse_json(text, f"position file {POSITION}"),
                      f"position file {POSITION}")
    return rules, state


def apply_move(entry: GameEntry, text: str, move: str) -> dict[str, Any]:
    """The position after `move` (the game's notation or its shorthand)."""
    from solver.game import CHANCE
    from solver.play import who

    game = entry.game()
    _, state = load(entry, text)
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
    return {"game": entry.id, "move": game.action_json(state, action),
            "position": game.write(after), "to_move": who(game, after),
            "status": game.status(after)}


def picture(entry: GameEntry, text: str) -> str:
    """The position drawn, with its clickable things marked (`Svg.hit`)."""
    _, state = load(entry, text)
    return entry.view().picture(state, "").render(interactive=True)


async def apply_endpoint(request: Request) -> Response:
    entry = _game(request)
    body = await read_body(request)
    move = request.query_params.get("move", "").strip()
    if not move:
        raise HttpError(400, "toppi: error: apply: give ?move=MOVE")
    return JSONResponse(await to_thread.run_sync(_engine, apply_move, entry, body, move))


async def picture_endpoint(request: Request) -> Response:
    entry = _game(request)
    body = await read_body(request)
    svg = await to_thread.run_sync(_engine, picture, entry, body)
    return Response(svg, media_type="image/svg+xml")


def _json_body(text: str, what: str) -> Any:
    from solver.io import parse_json

    try:
        return parse_json(text, what)
    except BadInput as exc:
        raise HttpError(400, f"toppi: error: {exc}") from None


async def palette_endpoint(request: Request) -> Response:
    """The editor's tools for the position in the body (the game's `web.palette`)."""
    entry = _game(request)
    data = _json_body(await read_body(request), f"position file {POSITION}")
    if not isinstance(data, dict):
        raise HttpError(400, f"toppi: error: position file {POSITION}: expected an object")
    return JSONResponse({"game": entry.id, "palette": entry.web().palette(data)})


async def edit_endpoint(request: Request) -> Response:
    """A click on the picture in the editor: `{"position", "tool", "clicks"}` in, the
    game's `web.edit` answer out (a new position, a new tool, or a note)."""
    from dataclasses import asdict

    entry = _game(request)
    body = _json_body(await read_body(request), "edit")
    clicks = body.get("clicks") if isinstance(body, dict) else None
    if (not isinstance(body, dict) or not isinstance(body.get("position"), dict)
            or not isinstance(clicks, list) or not clicks
            or not all(isinstance(c, list) and len(c) == 2
                       and all(isinstance(x, str) for x in c) for c in clicks)
            or not isinstance(body.get("tool"), (str, type(None)))):
        raise HttpError(400, 'toppi: error: edit: expected {"position": {...}, "tool": '
                             'TOOL or null, "clicks": [[KIND, ID], ...]}')
    edited = entry.web().edit(body["position"], body["tool"], [tuple(c) for c in clicks])
    return JSONResponse({"game": entry.id, **asdict(edited)})


def explain(entry: GameEntry, verb: str, position: dict[str, Any], answer: dict[str, Any]
            ) -> dict[str, Any]:
    """A verb's answer on a position in the game's words (the game's `web.explain`):
    `{"text", "certainty", "moves", "marks", "plan"}`. An answer that is not the verb's
    document is bad input (one line), never a traceback."""
    from dataclasses import asdict

    if verb not in offered(entry):
        raise BadInput(f"explain: {entry.id} has no verb '{verb}' here (verbs: "
                       f"{', '.join(offered(entry))})")
    try:
        explained = entry.web().explain(verb, copy.deepcopy(position), answer)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise BadInput(f"explain: the answer is not {entry.id} {verb}'s document "
                       f"({type(exc).__name__}: {exc})") from None
    return asdict(explained)


async def explain_endpoint(request: Request) -> Response:
    """`{"verb", "position", "answer"}` in, the answer in the game's words out."""
    entry = _game(request)
    body = _json_body(await read_body(request), "explain")
    if (not isinstance(body, dict) or not isinstance(body.get("verb"), str)
            or not isinstance(body.get("position"), dict)
            or not isinstance(body.get("answer"), dict)):
        raise HttpError(400, 'toppi: error: explain: expected {"verb": NAME, "position": '
                             '{...}, "answer": {...}}')
    return JSONResponse(await to_thread.run_sync(
        _engine, explain, entry, body["verb"], body["position"], body["answer"]))


def verb_forms(entry: GameEntry, position: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every verb's button on the game page for `position`: offered or not, its label,
    its option values (the game's `web.form`, over the defaults: the verb's name, no
    values, offered unless it reads a puzzle file)."""
    from solver.web import COMMON_LABELS, offer

    verbs = offered(entry)
    own = entry.web().form(copy.deepcopy(position))
    out = {}
    for name, verb in verbs.items():
        form = {**offer(COMMON_LABELS.get(name, name), offered=verb.reads != "puzzle"),
                **own.get(name, {})}
        options = {p.option for p in request_params(entry, verb)} | {"time-limit"}
        form["values"] = {k: v for k, v in form["values"].items() if k in options}
        out[name] = form
    return out


async def form_endpoint(request: Request) -> Response:
    """The page's buttons for the position in the body (`verb_forms`)."""
    entry = _game(request)
    data = _json_body(await read_body(request), f"position file {POSITION}")
    if not isinstance(data, dict):
        raise HttpError(400, f"toppi: error: position file {POSITION}: expected an object")
    verbs = await to_thread.run_sync(_engine, verb_forms, entry, data)
    return JSONResponse({"game": entry.id, "verbs": verbs})


def _engine(function: Any, *args: Any) -> Any:
    """Run an engine call; its BadInput becomes HTTP 400 with the CLI's line."""
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
    from solver.puzzles import DIFFICULTIES

    order = {d: n for n, d in enumerate(DIFFICULTIES)}
    return sorted(puzzles, key=lambda p: (order.get(p["difficulty"], len(order)),
                                          p["score"] or 0, p["name"]))


def library(request: Request, game: str) -> list[dict[str, Any]]:
    """The puzzle files of a game's library: name, difficulty, rating score."""
    from solver.io import load_json

    out = []
    for path in sorted(library_dir(request, game).glob("*.json")):
        try:  # the user's --puzzles folder: a FIFO or a huge file there is passed over
            data = load_json(path, "puzzle file")
        except BadInput:
            continue
        if not isinstance(data, dict):
            continue
        puzzle = data.get("puzzle")
        rating = data.get("rating") or (puzzle.get("rating") if isinstance(puzzle, dict)
                                        else None)
        rating = rating if isinstance(rating, dict) else {}
        difficulty, score = rating.get("difficulty", "?"), rating.get("score")
        out.append({"name": path.stem,
                    "difficulty": difficulty if isinstance(difficulty, str) else "?",
                    "score": score if isinstance(score, (int, float))
                    and not isinstance(score, bool) else None})
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
    from solver.io import load_json

    path = library_dir(request, game) / f"{name}.json"
    try:
        return name, load_json(path, "puzzle file")
    except BadInput as exc:
        raise HttpError(404, f"toppi: error: {exc}") from None


async def library_endpoint(request: Request) -> Response:
    entry, source = _game(request), _source(request)
    puzzles = await to_thread.run_sync(_engine, listing, request, entry.id, source)
    return JSONResponse({"game": entry.id, "source": source, "puzzles": puzzles})


def puzzle_picture(entry: GameEntry, data: dict[str, Any], reveal: bool) -> str:
    """The puzzle drawn as posed, or solved (`reveal`), as on its sheet."""
    described = entry.module("verbs").PUZZLES
    kind = described.make_kind(None, described.backends[0], 20.0)
    pz, stated = described.read(kind, data, "puzzle file")
    if stated is None:
        raise BadInput("the puzzle file states no solution")
    return described.picture(kind, pz, stated, reveal).render()


async def puzzle_endpoint(request: Request) -> Response:
    """A puzzle: the file (without its solution), the steps' vocabulary and the picture
    as posed."""
    entry, source = _game(request), _source(request)
    web = entry.web()
    name, data = await to_thread.run_sync(_engine, puzzle_file, request, entry.id, source)
    svg = await to_thread.run_sync(_engine, puzzle_picture, entry, data, False)
    return JSONResponse({"game": entry.id, "source": source, "name": name,
                         "puzzle": web.posed(data), "svg": svg,
                         "vocabulary": {**web.vocabulary(data),
                                        "picture": web.picture_words},
                         "steps": len(web.steps(data))})


async def check_endpoint(request: Request) -> Response:
    from solver.io import parse_json

    entry, source = _game(request), _source(request)
    _, data = await to_thread.run_sync(_engine, puzzle_file, request, entry.id, source)
    try:
        answer = parse_json(await read_body(request), "answer")
    except BadInput as exc:
        raise HttpError(400, f"toppi: error: {exc}") from None
    steps = answer.get("steps") if isinstance(answer, dict) else None
    if not isinstance(steps, list):
        raise HttpError(400, 'toppi: error: answer: expected {"steps": [...]}')
    return JSONResponse(entry.web().check(data, steps))


def puzzle_steps(entry: GameEntry, data: dict[str, Any], steps: list[Any]) -> dict[str, Any]:
    """The puzzle with the player's steps made by the game's rules engine (BadInput
    "step N: WHY" at the first one refused): the picture, whether the last step is only
    begun, what to do next."""
    from solver.puzzles import play_steps

    described = entry.module("verbs").PUZZLES
    kind = described.make_kind(None, described.backends[0], 20.0)
    pz, stated = described.read(kind, data, "puzzle file")
    if stated is None:
        raise BadInput("the puzzle file states no solution")
    played = play_steps(described, kind, pz, stated, steps)
    return {"svg": played.picture().render(), "steps": len(steps), "open": played.open,
            "prompt": played.prompt()}


async def steps_endpoint(request: Request) -> Response:
    """`{"steps": [...]}` (each as in the puzzle file's solution) in, the puzzle drawn
    with them made out; a step the rules refuse is HTTP 400 with one line."""
    entry, source = _game(request), _source(request)
    name, data = await to_thread.run_sync(_engine, puzzle_file, request, entry.id, source)
    answer = _json_body(await read_body(request), "steps")
    steps = answer.get("steps") if isinstance(answer, dict) else None
    if not isinstance(steps, list):
        raise HttpError(400, 'toppi: error: steps: expected {"steps": [...]}')
    made = await to_thread.run_sync(_engine, puzzle_steps, entry, data, steps)
    return JSONResponse({"game": entry.id, "source": source, "name": name, **made})


async def reveal_endpoint(request: Request) -> Response:
    entry, source = _game(request), _source(request)
    name, data = await to_thread.run_sync(_engine, puzzle_file, request, entry.id, source)
    svg = await to_thread.run_sync(_engine, puzzle_picture, entry, data, True)
    return JSONResponse({"game": entry.id, "source": source, "name": name,
                         "solution": entry.web().steps(data), "svg": svg})


def sheet_html(entry: GameEntry, file: str, data: dict[str, Any]) -> str:
    """The printable sheet of one puzzle (`toppi <game> sheet FILE --svg sheet.html`),
    made from a copy of the file."""
    import tempfile

    from solver.puzzles import sheet
    from solver.verbs import make_call

    verb = entry.verb("sheet")
    with tempfile.TemporaryDirectory(prefix="toppi-sheet-") as tmp:
        path = Path(tmp, file)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        out = Path(tmp, "sheet.html")
        call = make_call(entry, verb, {"puzzles": [str(path)], "rules_path": None})
        backend = verb.param("backend").default
        sheet(call, str(out), None, 2, backend, 20.0)
        return out.read_text(encoding="utf-8")


async def sheet_endpoint(request: Request) -> Response:
    entry, source = _game(request), _source(request)
    name, data = await to_thread.run_sync(_engine, puzzle_file, request, entry.id, source)
    file = f"{name}.json" if source == "library" else f"{entry.id}-store-{name}.json"
    return HTMLResponse(await to_thread.run_sync(_engine, sheet_html, entry, file, data))


# ---------------------------------------------------------------- index

def describe_game(entry: GameEntry) -> dict[str, Any]:
    """A game's verbs with their options, and the verb of its Hint button."""
    return {"verbs": {name: {"options": verb_options(entry, verb),
                             "takes_file": takes_file(verb), "runs": verb.web}
                      for name, verb in offered(entry).items()},
            "hint": entry.web().hint}


async def api_index(request: Request) -> Response:
    """Every game with its verbs and their options."""
    def describe() -> dict[str, Any]:
        return {"games": {g: describe_game(e) for g, e in web_games().items()},
                "limits": {"body_bytes": MAX_BODY, "default_time_limit": DEFAULT_TIME,
                           "max_time_limit": MAX_TIME,
                           "pool_size": request.app.state.pool.size},
                "store": request.app.state.store is not None}
    return JSONResponse(await to_thread.run_sync(describe))


async def schema_index(request: Request) -> Response:
    from solver.serve import schemas

    return JSONResponse(await to_thread.run_sync(schemas.listing))


async def schema_endpoint(request: Request) -> Response:
    """One answer's JSON Schema (solver/serve/schemas.py)."""
    from solver.serve import schemas

    name = request.path_params["name"]
    found = await to_thread.run_sync(schemas.schema, name)
    if found is None:
        raise HttpError(404, f"toppi: error: no schema '{name}' (GET /api/schema lists "
                             "them)")
    return JSONResponse(found, media_type="application/schema+json")


async def editor_endpoint(request: Request) -> Response:
    """The editor's fields and pieces (the game's `web.editor`)."""
    entry = _game(request)

    def describe() -> dict[str, Any]:
        return {"game": entry.id, **entry.web().editor()}
    return JSONResponse(await to_thread.run_sync(describe))


async def game_index(request: Request) -> Response:
    entry = _game(request)
    return JSONResponse(await to_thread.run_sync(
        lambda: {"game": entry.id, **describe_game(entry)}))


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
    Route("/api/{game}/palette", palette_endpoint, methods=["POST"]),
    Route("/api/{game}/edit", edit_endpoint, methods=["POST"]),
    Route("/api/{game}/explain", explain_endpoint, methods=["POST"]),
    Route("/api/{game}/form", form_endpoint, methods=["POST"]),
    Route("/api/{game}/{source}", library_endpoint, methods=["GET"]),
    Route("/api/{game}/{source}/{name}", puzzle_endpoint),
    Route("/api/{game}/{source}/{name}/check", check_endpoint, methods=["POST"]),
    Route("/api/{game}/{source}/{name}/steps", steps_endpoint, methods=["POST"]),
    Route("/api/{game}/{source}/{name}/reveal", reveal_endpoint),
    Route("/api/{game}/{source}/{name}/sheet", sheet_endpoint),
    Route("/api/{game}/{verb}", run_verb, methods=["POST"]),
]
