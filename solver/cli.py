"""The `toppi` command: one sub-group per game."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from typing import Any

import click

from solver import __version__
from solver.errors import NotBuiltYet, ToppiError

# game id -> (title, package under models/, issue that builds it). A game is built
# when its package has a `cli` module with a click group named `group`.
GAMES = {
    "take-it-higher": ("Take it Higher!", "take_it_higher", 2),
    "hoch-hinaus": ("Tippi Toppi – Hoch Hinaus!", "hoch_hinaus", 4),
    "tippi-toppi": ("Tippi Toppi (card game)", "tippi_toppi", 5),
    "topito": ("Topito", "topito", 6),
    "hippo": ("Hippo", "hippo", 7),
}


class ToppiFailure(click.ClickException):
    """A ToppiError shown as one line on stderr with its exit code."""

    def __init__(self, error: ToppiError) -> None:
        super().__init__(str(error))
        self.exit_code = error.exit_code

    def show(self, file: Any = None) -> None:
        click.echo(f"toppi: error: {self.message}", err=True)


class OneLineUsage(click.UsageError):
    """A usage error (unknown option, value out of range...) as one line, exit 2."""

    def __init__(self, error: click.UsageError) -> None:
        super().__init__(error.format_message(), error.ctx)

    def show(self, file: Any = None) -> None:
        where = f"'{self.ctx.command_path} --help'" if self.ctx is not None else "--help"
        click.echo(f"toppi: error: {self.message} (see {where})", err=True)


class ToppiGroup(click.Group):
    """Turns ToppiError and usage errors raised anywhere below into a one-line message
    (never a traceback, never a page of usage)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ToppiError as exc:
            raise ToppiFailure(exc) from None
        except click.UsageError as exc:
            if isinstance(exc, OneLineUsage):
                raise
            raise OneLineUsage(exc) from None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise OneLineUsage(exc) from None


def _not_built(game: str, title: str, issue: int) -> click.Command:
    def callback(args: tuple[str, ...]) -> None:
        raise NotBuiltYet(f"{title} is not built yet (planned in issue #{issue}); "
                          "nothing was computed")

    return click.Command(
        game, callback=callback,
        params=[click.Argument(["args"], nargs=-1, type=click.UNPROCESSED)],
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        help=f"{title} — NOT BUILT YET (issue #{issue}).",
        short_help=f"{title} — not built yet (issue #{issue}).")


@click.group(cls=ToppiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toppi")
def cli() -> None:
    """toppi: solver and puzzle analysis for Take it Higher!, Tippi Toppi – Hoch Hinaus!,
    Tippi Toppi, Topito and Hippo.

    Exit codes: 0 answered, 2 bad input or usage, 3 time limit without an answer.
    """


def _unshadow_models() -> None:
    """python-sat installs a script `models.py` into bin/, and a console script puts
    bin/ first on sys.path, which would hide our `models` package: drop such entries."""
    for entry in list(sys.path):
        if os.path.isfile(os.path.join(entry or ".", "models.py")):
            sys.path.remove(entry)
    mod = sys.modules.get("models")
    if mod is not None and not hasattr(mod, "__path__"):
        del sys.modules["models"]


def _register() -> None:
    _unshadow_models()
    for game, (title, package, issue) in GAMES.items():
        name = f"models.{package}.cli"
        if importlib.util.find_spec(f"models.{package}") is None or \
                importlib.util.find_spec(name) is None:
            cli.add_command(_not_built(game, title, issue))
        else:
            cli.add_command(importlib.import_module(name).group, game)
    from solver import store_cli  # `toppi puzzles`: reads the store, for every game

    cli.add_command(store_cli.group)


_register()


def main() -> None:
    """Console-script entry point."""
    sys.exit(cli.main(prog_name="toppi"))
