"""`toppi serve`: the Starlette application (pages, static files, the API) and the
command that runs it with uvicorn.

Safe defaults: it binds 127.0.0.1; only the host names it serves are answered (the
loopback names, the address it binds, the machine's names for a wildcard address and
`--allow-host` names: no DNS rebinding); a request that changes something (POST,
DELETE) from a page of another site (its `Origin` is not this server's) is refused; a
POST to the API must say `Content-Type: application/json` (a page of another site
cannot send one without asking first); bodies are limited (api.MAX_BODY); no request
names a file: puzzles are chosen by name from the library's listing.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
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
#: Host names always answered ("testserver": Starlette's TestClient).
LOOPBACK = ("127.0.0.1", "localhost", "[::1]", "testserver")
WILDCARD = ("0.0.0.0", "::", "")


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
    # a message that quotes the request holds only what UTF-8 can say
    message = str(exc).encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": message, **exc.more}, status_code=exc.status)


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


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine only: localhost, 127.0.0.0/8, ::1."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bracketed(host: str) -> str:
    """A host as a URL and a Host header write it (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def machine_names() -> list[str]:
    """This machine's host names and addresses, as another machine would name it."""
    names = [socket.gethostname(), socket.getfqdn()]
    with contextlib.suppress(OSError):
        names += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None)]
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        # the address a packet to the network would leave from (a UDP socket sends
        # nothing on connect)
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            names.append(s.getsockname()[0])
    return [n.split("%")[0] for n in names if n]


def served_hosts(host: str, allow: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The host names a server bound to `host` answers (lower case, IPv6 in
    brackets): the loopback names, the bound host, the machine's names and addresses
    for a wildcard bind, and `allow`."""
    names = [*LOOPBACK, host, *(machine_names() if host in WILDCARD else ()), *allow]
    return list(dict.fromkeys(bracketed(n).lower() for n in names if n and n not in
                              WILDCARD))


_HOST = re.compile(r"(\[[0-9a-fA-F:.]+\]|[^:\[\]]*)(?::(\d*))?")
STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")


class Guard:
    """Only the host names served are answered (HTTP 400), and a request that changes
    something whose `Origin` is not this server's own (`scheme://host:port` of the
    request, the host being one served) is refused (HTTP 403). A request without
    `Origin` (curl, scripts) is not a page's: it is answered."""

    def __init__(self, app: ASGIApp, hosts: list[str]) -> None:
        self.app, self.hosts = app, set(hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = {k.lower(): v for k, v in scope.get("headers") or []}
            host = headers.get(b"host", b"").decode("latin-1")
            refusal = self.refusal(scope, host, headers.get(b"origin"))
            if refusal is not None:
                status, message = refusal
                await JSONResponse({"error": message}, status_code=status)(
                    scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope, host: str, origin: bytes | None
                ) -> tuple[int, str] | None:
        found = _HOST.fullmatch(host)
        name = found.group(1).lower() if found else None
        if name not in self.hosts:
            shown = host.encode("ascii", "backslashreplace").decode()[:80]
            return 400, (f"toppi: error: host name '{shown}' is not served here "
                         "(start `toppi serve --allow-host NAME` to serve another)")
        if origin is not None and scope.get("method") in STATE_CHANGING:
            own = _origin(scope.get("scheme", "http"), host)
            said = origin.decode("latin-1")
            if _origin_text(said) != own:
                shown = said.encode("ascii", "backslashreplace").decode()[:80]
                return 403, (f"toppi: error: a page of another site ({shown}) may not "
                             "ask this server")
        return None


_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def _origin(scheme: str, host: str) -> str:
    """The origin of a request to `host` (its Host header) over `scheme`."""
    scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return _origin_text(f"{scheme}://{host}")


def _origin_text(origin: str) -> str:
    """An origin in one spelling: lower case, no default port."""
    origin = origin.strip().lower()
    scheme, _, rest = origin.partition("://")
    port = _DEFAULT_PORTS.get(scheme)
    if port is not None and rest.endswith(f":{port}"):
        rest = rest[:-len(port) - 1]
    return f"{scheme}://{rest}"


def create_app(host: str = "127.0.0.1", pool_size: int = 2,
               puzzles: str | Path | None = None, store: str | Path | None = None,
               allow_hosts: tuple[str, ...] | list[str] = ()) -> Starlette:
    """The web application; the pool starts with it (lifespan) and ends with it.
    `store`: a results store (`generate --store FILE`) whose puzzles are browsed; it is
    read once here, so a file that is not a store fails at the start (BadInput).
    `allow_hosts`: host names answered besides those of `served_hosts`."""
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

    middleware = [Middleware(Guard, hosts=served_hosts(host, allow_hosts)),
                  Middleware(JsonPostsOnly)]
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
