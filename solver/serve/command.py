"""`toppi serve`: the command that runs the web app (solver/serve/app.py) with uvicorn.
The web framework is imported when the command runs, so `--help` stays fast."""

from __future__ import annotations

import click

from solver.verb_cli import FilePath


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (another than 127.0.0.1 opens the app to the "
                   "network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--workers", "pool_size", type=click.IntRange(1, 8), default=2,
              show_default=True, help="Solver processes (jobs beyond them wait).")
@click.option("--puzzles", "puzzles", type=FilePath(file_okay=False, exists=True),
              default=None, help="The puzzles directory (default: the puzzles that ship "
                                 "with toppi).")
@click.option("--store", "store", type=FilePath(dir_okay=False, exists=True),
              default=None, help="Browse the puzzles of this results store (the SQLite "
                                 "file of `toppi <game> generate --store FILE`) on the "
                                 "library pages.")
def group(host: str, port: int, open_browser: bool, pool_size: int,
          puzzles: str | None, store: str | None) -> None:
    """A local web app: build positions by clicking on the games' pictures, ask the
    CLI's questions, play with undo and hint, solve the puzzle library and the puzzles
    of a --store file."""
    if store is not None:  # a regular SQLite file, checked before the server starts
        from solver.store import Store

        Store(store, create=False).close()
    import uvicorn

    from solver.serve.app import create_app

    app = create_app(host, pool_size, puzzles, store)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(0.5, webbrowser.open, (url,)).start()
    click.echo(f"toppi serve: {url}", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
