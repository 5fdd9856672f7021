"""`toppi serve`: the command that runs the web app (solver/serve/app.py) with uvicorn.
The web framework is imported when the command runs, so `--help` stays fast."""

from __future__ import annotations

import socket
from typing import Any

import click

from solver.verb_cli import FilePath

#: Seconds a stopping server waits for its requests to be answered before it cuts them
#: (its questions are cancelled at once, so they are answered at once).
STOP_GRACE = 5


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Another than a loopback address (127.x.x.x, "
                   "::1) opens the page to the network: anyone who can reach this "
                   "machine can use it.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port (0: a free one, printed).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer requests to this host name (the loopback names, the "
                   "address listened on and, for 0.0.0.0 or ::, this machine's names and "
                   "addresses are answered; any other is refused). Repeatable.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--workers", "pool_size", type=click.IntRange(1, 8), default=2,
              show_default=True, help="Solver processes (jobs beyond them wait; one "
                                      "more answers only quick questions).")
@click.option("--puzzles", "puzzles", type=FilePath(file_okay=False, exists=True),
              default=None, help="The puzzles directory (default: the puzzles that ship "
                                 "with toppi).")
@click.option("--store", "store", type=FilePath(dir_okay=False, exists=True),
              default=None, help="Browse the puzzles of this results store (the SQLite "
                                 "file of `toppi <game> generate --store FILE`) on the "
                                 "library pages.")
def group(host: str, port: int, allow_hosts: tuple[str, ...], open_browser: bool,
          pool_size: int, puzzles: str | None, store: str | None) -> None:
    """A local web app: build positions by clicking on the games' pictures, ask the
    CLI's questions, play with undo and hint, solve the puzzle library and the puzzles
    of a --store file."""
    from solver.errors import BadInput

    if store is not None:  # a regular SQLite file, checked before the server starts
        from solver.store import Store

        Store(store, create=False).close()
    for name in allow_hosts:
        if not name or any(c in name for c in "/@*? \t") or name.count(":") == 1:
            raise BadInput(f"--allow-host '{name}': one host name or address, without "
                           "scheme, port or wildcard (the Host check stays on)")
    import uvicorn

    from solver.serve.app import create_app, served_hosts

    app = create_app(host, pool_size, puzzles, store, allow_hosts)
    sock = bind(host, port)
    port = sock.getsockname()[1]
    url, lines = announce(host, port, served_hosts(host, allow_hosts))
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(0.5, webbrowser.open, (url,)).start()
    for line in lines:
        click.echo(line, err=True)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            # the questions end first: requests waiting for them are answered, so the
            # connections close and the server stops within a moment
            app.state.pool.stop()
            await super().shutdown(sockets)

    server = Server(uvicorn.Config(app, log_level="warning",
                                   timeout_graceful_shutdown=STOP_GRACE))
    server.run(sockets=[sock])
    if not server.started:  # the start failed: uvicorn has said why
        raise SystemExit(3)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port); BadInput with one line when it cannot be
    had (the port taken, an address not of this machine)."""
    from solver.errors import BadInput

    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise BadInput(f"--host {host}: not an address of this machine ({exc})") from None
    if ":" not in host:  # a name: its IPv4 address, as a browser tries it first
        infos.sort(key=lambda info: info[0] != socket.AF_INET)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise BadInput(f"--host {host} --port {port}: cannot listen there "
                       f"({exc.strerror or exc})") from None
    sock.set_inheritable(True)
    return sock


def announce(host: str, port: int, hosts: list[str]) -> tuple[str, list[str]]:
    """(the URL to open on this machine, the lines printed at the start): the URL,
    and for an address open to the network a warning, the URLs for other machines and
    the host names answered."""
    from solver.serve.app import WILDCARD, bracketed, is_loopback

    wildcard = host in WILDCARD
    here = ("[::1]" if ":" in host else "127.0.0.1") if wildcard else bracketed(host)
    url = f"http://{here}:{port}/"
    if is_loopback(host):
        return url, [f"toppi serve: {url}"]
    hosts = [n for n in hosts if n != "testserver"]
    others = [n for n in hosts if not is_loopback(n)]
    named = ", ".join(f"http://{n}:{port}/" for n in others)
    return url, [
        f"toppi serve: warning: listening on {bracketed(host) if host else '*'}"
        f"{' (every address of this machine)' if wildcard else ''}: the page is open to "
        "the network; anyone who can reach this machine can use it",
        f"toppi serve: {url}" + (f" (from other machines: {named})" if named else ""),
        f"toppi serve: answering the host names {', '.join(hosts)} (more: "
        "--allow-host NAME)"]
