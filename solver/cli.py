"""The `toppi` command: one sub-group per game, imported only when it is invoked."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from solver import __version__
from solver.errors import ToppiError

# command -> (module whose click command `group` it is, short help): the commands that
# are not a game's; the games come from the registry (solver/registry.py)
COMMANDS = {
    "puzzles": ("solver.store_cli",
                "Puzzles saved by `toppi <game> generate --store FILE`: list them, export "
                "them as puzzle files."),
    "serve": ("solver.serve.command",
              "A local web app: the games on a page, build positions by clicking, ask, "
              "play, solve the puzzle library."),
}


def _commands() -> dict[str, str]:
    """Every command of the root and its short help (no game imported)."""
    from solver.registry import games

    return {**{g.id: f"{g.title}: {g.summary}" for g in games().values()},
            **{name: text for name, (_, text) in COMMANDS.items()}}


#: The longest error line (a file's text quoted in a message is cut to fit).
MESSAGE_LIMIT = 400

_NO_ARGS = getattr(click.exceptions, "NoArgsIsHelpError", ())


class ToppiFailure(click.ClickException):
    """A ToppiError shown as one line on stderr with its exit code."""

    def __init__(self, error: ToppiError) -> None:
        # one line whatever the message carries (e.g. SQLite's multi-line check report),
        # of a readable length whatever a file put in it (a name of a megabyte)
        text = "; ".join(part.strip() for part in str(error).splitlines() if part.strip())
        if len(text) > MESSAGE_LIMIT:
            text = text[:MESSAGE_LIMIT - 3] + "..."
        super().__init__(text)
        self.exit_code = error.exit_code

    def show(self, file: Any = None) -> None:
        click.echo(f"toppi: error: {self.message}", err=True)


class OneLineUsage(click.UsageError):
    """A usage error (unknown option, value out of range...) as one line, exit 2."""

    def __init__(self, error: click.UsageError) -> None:
        super().__init__(" ".join(error.format_message().split()), error.ctx)

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
        except ValueError as exc:
            # a number of over 4,300 digits in a text a reader turned into an int: no
            # reader should let one through, and none may end in a traceback
            if "integer string conversion" not in str(exc):
                raise
            raise ToppiFailure(ToppiError("a number of more than 4300 digits")) from None
        except _NO_ARGS:
            raise
        except click.UsageError as exc:
            if isinstance(exc, OneLineUsage):
                raise
            raise OneLineUsage(exc) from None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except _NO_ARGS:  # a bare `toppi` or `toppi <game>`: the help itself, not an error line
            raise
        except click.UsageError as exc:
            raise OneLineUsage(exc) from None


class LazyToppiGroup(ToppiGroup):
    """The root group: its sub-groups come from COMMANDS and are imported when invoked
    (a game's module pulls in its solvers: OR-Tools alone takes about half a second)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*_commands(), *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name in COMMANDS:
            found = importlib.import_module(COMMANDS[cmd_name][0]).group
        else:
            from solver.registry import games
            from solver.verb_cli import game_group

            entry = games().get(cmd_name)
            if entry is None:
                return None
            found = game_group(entry)
        found.name = cmd_name  # its usage lines say `toppi <game> ...`
        self.commands[cmd_name] = found
        return found

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if not name.startswith("-") and name not in self.list_commands(ctx):
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx))
            hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            raise click.UsageError(f"No such command {name!r}.{hint}", ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The table of commands from their short help in COMMANDS (no import)."""
        names = self.list_commands(ctx)
        helps = _commands()
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in helps:
                short = click.Command(name, help=helps[name]).get_short_help_str(limit)
            else:
                short = self.commands[name].get_short_help_str(limit)
            rows.append((name, short))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyToppiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toppi")
def cli() -> None:
    """toppi: solvers and puzzle analysis for tabletop games (one command per game).

    Exit codes: 0 answered, 2 bad input or usage, 3 time limit without an answer.
    """
    from solver.deadline import start_clock

    start_clock()


def unshadow_models() -> None:
    """python-sat installs a script `models.py` into bin/, and a console script puts
    bin/ first on sys.path, which would hide our `models` package: drop such entries."""
    for entry in list(sys.path):
        if os.path.isfile(os.path.join(entry or ".", "models.py")):
            sys.path.remove(entry)
    mod = sys.modules.get("models")
    if mod is not None and not hasattr(mod, "__path__"):
        del sys.modules["models"]


unshadow_models()


def main() -> None:
    """Console-script entry point. Click ends a closed pipe (`| head`) quietly; any other
    error writing the output (a full disk) is one line and exit 2, as every write
    error is, not a traceback."""
    try:
        code = cli.main(prog_name="toppi")
    except OSError as exc:
        what = exc.filename or "the output"
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the exit's flush must not fail again
        try:
            click.echo(f"toppi: error: cannot write {what}: {exc.strerror or exc}", err=True)
        except OSError:
            pass
        sys.exit(2)
    sys.exit(code)
