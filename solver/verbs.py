"""Verbs declared once: what a game answers, as data.

A game's package declares its verbs in `verbs.py` (`VERBS`, a tuple of `Verb`): the
name, the help, the typed parameters (solver/params.py), what the verb reads (a
position file, a puzzle file...), the function that answers it and the type of the
answer (a dataclass: the `--json` document). From these declarations alone solver/
builds the click commands (solver/verb_cli.py), the web API's routes and forms
(solver/serve/api.py) and the JSON Schema of every answer (solver/schema.py).

A verb's function is `run(call, **values) -> answer`: `call` (a `Call`) holds what the
layer read (the rules, the position, the solver options...) and `values` the verb's own
parameters by name. It returns a plain dataclass and never prints; `show(answer, call)`
draws the answer for the terminal. Functions are named as "module:function" so that
declaring a verb (and `--help`) imports no solver.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from solver.errors import BadInput
from solver.params import Param, seconds_param, seed_param

if TYPE_CHECKING:
    from solver.backends.common import SolverOptions
    from solver.executor import Batch
    from solver.game import Game
    from solver.registry import GameEntry
    from solver.render import Svg

#: What a verb's FILE argument is: a position file, a puzzle file, one or more puzzle
#: files, a position file that may be left out, or no file at all.
Reads = Literal["position", "puzzle", "puzzles", "position?", "nothing"]
#: Where the web app runs a verb: on a thread of the server (quick, no solver), in a
#: worker process of the pool (solvers, killable), or not at all (files, terminals).
Runs = Literal["thread", "pool", "none"]


@dataclass(frozen=True)
class Solving:
    """A verb that runs a solver takes --time-limit (this default, None: no limit),
    --seed, --workers, --solver-log and --quiet; its function gets `call.solver`."""

    time_limit: float | None = 60.0
    workers: bool = True  # False: the verb's solver runs one worker (its answer repeats)


@dataclass(frozen=True)
class Verb:
    """One question a game answers (or one thing it does).

    run: "module:function" answering `run(call, **values)`.
    answer: "module:Type", the dataclass the function returns (its JSON is the
        `--json` document; None for a verb without a document, such as `play`); or
        several parts whose fields make one document (solver/schema.py).
    show: "module:function" drawing the answer for the terminal, `show(answer, call)`.
    reads: what the FILE argument is. rules: offers --rules, and with `data` the game's
        data options.
    json / svg: offers --json / --svg FILE. solving: the solver options, if any.
    batch: --jobs, --scheduler, --store, --resume (`call.batch`...).
    quiet: offers --quiet (solving and batch verbs always do).
    web: how the web app runs it ("none": not offered there).
    """

    name: str
    help: str
    run: str
    params: tuple[Param, ...] = ()
    answer: str | tuple[str, ...] | None = None
    show: str | None = None
    reads: Reads = "position"
    rules: bool = True
    data: bool = True
    json: bool = True
    svg: bool = False
    solving: Solving | None = None
    batch: bool = False
    quiet: bool = False
    web: Runs = "none"
    file_name: str = "file"  # the argument's name in the usage line (FILE, PUZZLE)

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def function(self) -> Any:
        return resolve(self.run)


def resolve(ref: str) -> Any:
    """The object a "module:name" reference names (the module imported now)."""
    module, _, name = ref.partition(":")
    value: Any = importlib.import_module(module)
    for part in name.split("."):
        value = getattr(value, part)
    return value


@dataclass
class Call:
    """What one call of a verb works from, read by the layer that received it (the
    command line, or the web app's worker). The run function asks for what it needs:
    `rules()`, `state()` (the position), `data()` (a puzzle file's JSON)..."""

    entry: GameEntry
    verb: Verb
    file: str | None = None  # the FILE as named in messages
    text: str | None = None  # the file's text when it came in a request, not from disk
    files: tuple[str, ...] = ()  # reads="puzzles": every file given
    rules_path: str | None = None
    data_values: dict[str, Any] = field(default_factory=dict)  # the game's data options
    solver: SolverOptions | None = None
    batch: Batch | None = None
    store_path: str | None = None
    resume: bool = False
    as_json: bool = False
    svg_path: str | None = None
    values: dict[str, Any] = field(default_factory=dict)  # the verb's own parameters
    _rules: Any = None
    _state: Any = None

    @property
    def game(self) -> Game:
        return self.entry.game()

    @property
    def where(self) -> str:
        """The file as messages name it: "position file F" or "puzzle file F"."""
        kind = "puzzle file" if self.verb.reads in ("puzzle", "puzzles") else "position file"
        return f"{kind} {self.file}"

    def rules(self) -> Any:
        """The rules data: built in, or --rules FILE, with the game's data options."""
        if self._rules is None:
            self._rules = self.game.load_rules(self.rules_path, **self.data_values)
        return self._rules

    def data(self) -> Any:
        """The FILE's JSON, parsed and within the reader's limits."""
        from solver.io import load_json, parse_json

        what = "puzzle file" if self.verb.reads in ("puzzle", "puzzles") else "position file"
        if self.text is not None:
            return parse_json(self.text, f"{what} {self.file}")
        if self.file is None:
            raise BadInput(f"no {what} given")
        return load_json(self.file, what)

    def state(self) -> Any:
        """The position in FILE, read and checked by the game (once: a state is not
        changed by anyone who reads it)."""
        if self._state is None:
            self._state = self.game.read(self.rules(), self.data(), self.where)
        return self._state

    def save_svg(self, picture: Svg) -> None:
        """Write `picture` to --svg FILE (when given)."""
        if self.svg_path:
            picture.save(self.svg_path)


def defaults(params: tuple[Param, ...] | list[Param]) -> dict[str, Any]:
    """Each parameter's default by name; where several flags set one name (`--any` /
    `--all`), the one that has a default gives it."""
    out: dict[str, Any] = {}
    for p in params:
        if out.get(p.name) is None:
            out[p.name] = p.default
    return out


def answer(call: Call, values: dict[str, Any]) -> Any:
    """Run the verb of `call` with its own parameters' `values`: the answer."""
    return call.verb.function()(call, **values)


# ---------------------------------------------------------------- the layer's parameters

def solver_params(default_time: float | None, workers: bool = True) -> tuple[Param, ...]:
    """--time-limit (this default), --seed, --workers (unless the verb runs one worker)
    and --solver-log of a solving verb (`Verb.solving`)."""
    return (
        seconds_param("time_limit", default_time,
                      help="Seconds before the solver stops with its best answer."),
        seed_param(help="Random seed of the solver (runs are reproducible)."),
        *((Param("workers", "int", 2, "Parallel solver workers.", minimum=1, maximum=64,
                 show_default=True, web=False),) if workers else ()),
        Param("solver_log", "flag", False, "Print the solver's own log on stderr.",
              web=False),
    )


BATCH_PARAMS = (
    Param("jobs", "int", None, "Local worker processes (default: all cores; 1: in-process).",
          minimum=1, web=False),
    Param("scheduler", "text", None, "Run the tasks on this Dask distributed scheduler.",
          metavar="tcp://HOST:PORT", web=False),
    Param("store_path", "out", None, "SQLite file: every finished task is saved at once.",
          flags=("--store",), web=False),
    Param("resume", "flag", False, "Skip the tasks whose results are already in --store.",
          web=False),
)
RULES = Param("rules_path", "file", None, "Rules data file replacing the built-in rules.",
              flags=("--rules",), web=False)
JSON = Param("as_json", "flag", False,
             "Print one JSON document on stdout instead of pictures.", flags=("--json",),
             web=False)
SVG = Param("svg_path", "out", None, "Also write a picture of the board to this SVG file.",
            flags=("--svg",), web=False)


def layer_params(entry: GameEntry, verb: Verb) -> tuple[Param, ...]:
    """The parameters a verb takes besides its own, by its kind: the layer reads them."""
    out: list[Param] = []
    if verb.solving is not None:
        out += solver_params(verb.solving.time_limit, verb.solving.workers)
    if verb.batch:
        out += BATCH_PARAMS
    if verb.rules:
        out += [RULES, *(entry.game().data_options if verb.data else ())]
    if verb.json:
        out.append(JSON)
    if verb.svg:
        out.append(SVG)
    return tuple(out)


def make_call(entry: GameEntry, verb: Verb, values: dict[str, Any]) -> Call:
    """The call of `verb` with `values` (every parameter by name, the FILE argument
    under the verb's `file_name`): the layer's parameters are taken out of `values`,
    which keeps the verb's own (also in `call.values`)."""
    call = Call(entry, verb)
    if verb.reads in ("position", "puzzle", "position?"):
        call.file = values.pop(verb.file_name, None)
    elif verb.reads == "puzzles":
        call.files = tuple(values.pop(verb.file_name))
    if verb.rules:
        call.rules_path = values.pop("rules_path", None)
        data = entry.game().data_options if verb.data else ()
        call.data_values = {p.name: values.pop(p.name, p.default) for p in data}
    call.as_json = values.pop("as_json", False)
    call.svg_path = values.pop("svg_path", None)
    if verb.solving is not None:
        from solver.backends.common import SolverOptions
        from solver.deadline import Deadline

        limit = values.pop("time_limit")
        call.solver = SolverOptions(limit, values.pop("seed"), values.pop("workers", 2 if verb.solving.workers else 1),
                                    values.pop("solver_log", False),
                                    deadline=Deadline.from_start(limit))
    if verb.batch:
        call.batch = batch_of(values.pop("jobs"), values.pop("scheduler"),
                              values.get("resume"), values.get("store_path"))
        call.store_path, call.resume = values.pop("store_path"), values.pop("resume")
    call.values = dict(values)
    check_outputs(verb, call)
    return call


def check_outputs(verb: Verb, call: Call) -> None:
    """Every path the call will write, checked before any work (solver/io.py): --svg,
    --store (an existing one must be a regular file) and the verb's own outputs."""
    from solver.io import check_folder, check_output, read_start

    check_output(call.svg_path, "--svg")
    if call.store_path is not None:
        import os

        if call.store_path and os.path.lexists(call.store_path):
            read_start(call.store_path, "--store", 0)
        check_output(call.store_path, "--store")
    for p in verb.params:
        value = call.values.get(p.name)
        if p.kind == "out":
            check_output(value, p.spellings[0])
        elif p.kind == "folder":
            check_folder(value, p.spellings[0])


def batch_of(jobs: int | None, scheduler: str | None, resume: bool | None,
             store_path: str | None) -> Batch:
    """The batch layer a verb's --jobs / --scheduler ask for (checked)."""
    from solver.executor import Batch, default_jobs

    if resume and not store_path:
        raise BadInput("--resume needs --store FILE (the run to continue)")
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://", "inproc://")):
        raise BadInput(f"--scheduler {scheduler}: expected tcp://HOST:PORT")
    return Batch(jobs or default_jobs(), scheduler)


