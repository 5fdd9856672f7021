"""`toppi serve`: the Starlette application (pages, static files, the API) and the
command that runs it with uvicorn.

Safe defaults: it binds 127.0.0.1; with a loopback address only loopback host names are
answered (no DNS rebinding); a POST to the API must say `Content-Type:
application/json` (a page of another site cannot send one without asking first);
bodies are limited (api.MAX_BODY); no request names a file: puzzles are chosen by name
from the library's listing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Receive, Scope, Send

from solver.io import puzzles_folder
from solver.registry import GameEntry
from solver.serve import api
from solver.serve.jobs import Pool

HERE = Path(__file__).parent
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def titles() -> dict[str, str]:
    """The web app's games and their titles (the registry's)."""
    return {g: e.title for g, e in api.web_games().items()}


def example_position(entry: GameEntry, puzzles: Path) -> str:
    """The text of a game page's first position: the game's example (its web
    companion's), or `{}` when the puzzles folder lacks it."""
    web = entry.web()
    if callable(web.example):
        return web.example()
    try:
        text = (puzzles / entry.id / web.example).read_text(encoding="utf-8")
    except OSError:
        return "{}"
    return web.first_position(text) if web.first_position is not None else text


templates = Jinja2Templates(directory=str(HERE / "templates"))


def _page(name: str, request: Request, status_code: int = 200, **context: Any) -> Response:
    return templates.TemplateResponse(request, name, {"titles": titles(), **context},
                                      status_code=status_code)


async def index(request: Request) -> Response:
    return _page("index.html", request, games=list(titles()), store=_store_counts(request))


def _store_counts(request: Request) -> dict[str, Any] | None:
    """The --store file's name and its puzzles per game and difficulty (None without
    one)."""
    path = request.app.state.store
    if not path:
        return None
    by_game = api.store_puzzles(path)
    counts = {g: {d: sum(p["difficulty"] == d for p in ps)
                  for d in dict.fromkeys(p["difficulty"] for p in ps)}
              for g, ps in by_game.items()}
    return {"name": Path(path).name, "games": counts}


async def game_page(request: Request) -> Response:
    game = request.path_params["game"]
    entry = api.web_games().get(game)
    if entry is None:
        return _page("index.html", request, games=list(titles()), status_code=404)
    position = example_position(entry, Path(request.app.state.puzzles))
    return _page("game.html", request, game=game, title=entry.title, position=position,
                 hint=entry.web().hint)


async def library_page(request: Request) -> Response:
    """A game's puzzles: the library, or (/<game>/store) the --store file's."""
    game = request.path_params["game"]
    source = "store" if request.url.path.endswith("/store") else "library"
    if game not in titles() or (source == "store" and not request.app.state.store):
        return _page("index.html", request, games=list(titles()), status_code=404,
                     store=None)
    store = request.app.state.store
    return _page("library.html", request, game=game, title=titles()[game], source=source,
                 store=Path(store).name if store else None,
                 puzzles=api.listing(request, game, source))


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, api.HttpError)
    return JSONResponse({"error": str(exc), **exc.more}, status_code=exc.status)


async def server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"toppi: error: internal error: {type(exc).__name__}"},
                        status_code=500)


class JsonPostsOnly:
    """A POST to /api must carry a JSON content type (HTTP 415 otherwise)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope["method"] == "POST"
                and scope["path"].startswith("/api/")):
            headers = dict(scope.get("headers") or [])
            kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if kind != b"application/json":
                response = JSONResponse(
                    {"error": "toppi: error: send the body as application/json"},
                    status_code=415)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(host: str = "127.0.0.1", pool_size: int = 2,
               puzzles: str | Path | None = None, store: str | Path | None = None
               ) -> Starlette:
    """The web application; the pool starts with it (lifespan) and ends with it.
    `store`: a results store (`generate --store FILE`) whose puzzles are browsed; it is
    read once here, so a file that is not a store fails at the start (BadInput)."""
    if store is not None:
        api.store_puzzles(str(store))
    pool = Pool(pool_size)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        os.environ["TOPPI_QUIET"] = "1"
        pool.start()
        try:
            yield
        finally:
            pool.shutdown()

    middleware = [Middleware(JsonPostsOnly)]
    if host in LOOPBACK:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=[
            "127.0.0.1", "localhost", "[::1]", "::1", "testserver"]))
    app = Starlette(
        routes=[Route("/", index), *api.routes,
                Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
                Route("/{game}", game_page), Route("/{game}/library", library_page),
                Route("/{game}/store", library_page)],
        middleware=middleware, lifespan=lifespan,
        exception_handlers={api.HttpError: http_error, Exception: server_error})
    app.state.pool = pool
    app.state.puzzles = str(puzzles or puzzles_folder())
    app.state.store = str(store) if store is not None else None
    return app
