"""The command line built from the verbs' declarations (solver/verbs.py).

`game_group(entry)` is the click group of `toppi <game>`: one command per verb, its
options made from the verb's typed parameters (solver/params.py) and the groups every
verb of its kind takes (--rules and the game's data options, --json, --svg, the solver
and batch options). A command reads what the verb reads, calls the verb's function and
prints its answer: the JSON document with --json, else the verb's `show`.

This is the only place where parameters become click options: nothing else in solver/
or models/ needs click to describe a verb.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from solver.params import Param
from solver.progress import set_quiet
from solver.verbs import Call, Verb, answer, layer_params, make_call, resolve

if TYPE_CHECKING:
    from solver.registry import GameEntry


class FiniteFloatRange(click.FloatRange):
    """A FloatRange that also refuses nan and infinities (they pass every comparison
    of a plain FloatRange: `--time-limit nan` crashed CP-SAT)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        import math

        number = super().convert(value, param, ctx)
        if number is not None and not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


class Utf8Text(click.ParamType):
    """Text that is valid UTF-8: bad bytes in an argument (Python's surrogate escapes)
    are refused here, before they reach a file or the terminal."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                self.fail(f"not valid UTF-8 (a bad byte at character {exc.start}).",
                          param, ctx)
        return value


UTF8_TEXT = Utf8Text()


class FilePath(click.Path):
    """click's Path, refusing a NUL byte in the name first (click's own check calls
    os.stat, which raises ValueError on one)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and "\0" in value:
            self.fail("a file name cannot hold a NUL byte.", param, ctx)
        return super().convert(value, param, ctx)


def click_type(p: Param) -> click.ParamType | None:
    if p.kind == "int":
        if p.minimum is None and p.maximum is None:
            return click.INT
        return click.IntRange(None if p.minimum is None else int(p.minimum),
                              None if p.maximum is None else int(p.maximum),
                              min_open=p.min_open, max_open=p.max_open)
    if p.kind == "float":
        return FiniteFloatRange(p.minimum, p.maximum, min_open=p.min_open,
                                max_open=p.max_open)
    if p.kind == "choice":
        return click.Choice(p.choices, case_sensitive=p.case_sensitive)
    if p.kind == "file":
        return FilePath(dir_okay=False)
    if p.kind == "out":  # an existing file it cannot write is refused before any work
        return FilePath(dir_okay=False, writable=True)
    if p.kind == "folder":
        return FilePath(file_okay=False)
    if p.kind == "text":
        return UTF8_TEXT
    return None


def click_option(p: Param) -> click.Option:
    """The click option of a parameter."""
    more: dict[str, Any] = {}
    if p.kind == "flag":
        if p.flag_value is not None:
            # several flags may set one name (--all / --any): only the one whose value
            # is the default gives one, else a later flag's None would override it
            more.update(flag_value=p.flag_value)
            if p.default is not None:
                more["default"] = p.default
        else:
            more.update(is_flag=True, default=bool(p.default))
        decls = list(p.spellings)
    elif p.kind == "switch":
        on, off = p.spellings
        decls = [f"{on}/{off}"]
        more.update(default=p.default)
    else:
        more.update(type=click_type(p), multiple=p.multiple, required=p.required)
        if not p.required:  # click takes a default given, even None, as the value given
            more["default"] = p.default
        if p.metavar:
            more["metavar"] = p.metavar
        decls = list(p.spellings)
    if not p.exposed:
        more["expose_value"] = False
    return click.Option([*decls, p.name], help=p.help or None,
                        show_default=p.show_default, hidden=p.hidden, **more)


def _quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    set_quiet(value)  # every run sets it: one process may run several commands (tests)


QUIET = click.Option(["--quiet"], is_flag=True, expose_value=False, callback=_quiet,
                     help="No progress bar or live status on stderr.")


def _file_argument(verb: Verb) -> click.Argument | None:
    path = FilePath(dir_okay=False)
    if verb.reads == "position" or verb.reads == "puzzle":
        return click.Argument([verb.file_name], type=path)
    if verb.reads == "position?":
        return click.Argument([verb.file_name], type=path, required=False)
    if verb.reads == "puzzles":
        return click.Argument([verb.file_name], type=path, nargs=-1, required=True)
    return None


def command(entry: GameEntry, verb: Verb) -> click.Command:
    """The click command of one verb."""
    layer = layer_params(entry, verb)

    def run(**values: Any) -> None:
        call = make_call(entry, verb, values)
        emit(call, answer(call, values))

    params: list[click.Parameter] = []
    argument = _file_argument(verb)
    if argument is not None:
        params.append(argument)
    params += [click_option(p) for p in (*verb.params, *layer)]
    if verb.quiet or verb.solving is not None or verb.batch:
        params.append(QUIET)
    return click.Command(verb.name, callback=run, params=params, help=verb.help)


def emit(call: Call, result: Any) -> None:
    """Print an answer: its JSON document with --json, else the verb's picture; then
    exit as the answer says when it stands short of what was asked (`exit_with`: 3 for
    an answer the time limit cut, 130 for an interrupted batch run), with its note on
    stderr."""
    from solver.render import print_json, stderr
    from solver.results import dumps

    verb = call.verb
    if result is not None:
        if call.as_json:
            print_json(dumps(result))
        elif verb.show is not None:
            resolve(verb.show)(result, call)
    ending = getattr(result, "exit_with", None)
    if callable(ending):
        found = ending(call.store_path)
        if found is not None:
            code, message = found
            if message:
                stderr.print(f"[yellow]{message}[/yellow]")
            raise SystemExit(code)


def game_group(entry: GameEntry) -> click.Group:
    """`toppi <game>`: a group with one command per verb, made when first asked for."""
    from solver.cli import ToppiGroup

    class VerbGroup(ToppiGroup):
        def list_commands(self, ctx: click.Context) -> list[str]:
            return list(entry.verbs())

        def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
            if name not in self.commands:
                verb = entry.verbs().get(name)
                if verb is None:
                    return None
                self.commands[name] = command(entry, verb)
            return self.commands[name]

        def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
            notation = entry.game().notation  # read only when this help is shown
            if notation:
                formatter.write_paragraph()
                formatter.write_text(f"Notation: {notation}")

    return VerbGroup(entry.id, help=f"{entry.title}: {entry.summary}")
