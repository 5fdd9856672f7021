"""The puzzle verbs every game shares: `generate`, `solve`, `check-unique`, `sheet`
(declared in solver/shared_verbs.py, drawn by solver/puzzle_view.py).

A game describes its puzzles once (a `PuzzleGame`: how to make its PuzzleKind, read and
write puzzle files, and draw a puzzle) as `PUZZLES` in its verbs module; the verbs,
their options, outputs and exit codes are then the same for every game.

Declaring the verbs imports no solver: a game describes its puzzles with
`PuzzleGame.from_module`, whose functions import the game's puzzle module (and with it
the generator and the encodings) when a verb first calls one.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput
from solver.io import load_json
from solver.params import Param
from solver.progress import progress_bar
from solver.results import to_jsonable

if TYPE_CHECKING:
    from rich.console import RenderableType

    from solver.executor import Batch
    from solver.generate import Attempt, GenerationReport, PuzzleKind
    from solver.render import Svg
    from solver.store import Store
    from solver.verbs import Call

#: The difficulties a generated puzzle is rated (solver.generate rates them).
DIFFICULTIES = ("easy", "medium", "hard")

#: What a uniqueness check says of a puzzle.
Verdict = Literal["unique", "several", "none", "unknown"]

P = TypeVar("P")
S = TypeVar("S")


@dataclass
class PuzzleGame(Generic[P, S]):
    """What the shared puzzle commands need to know about one game.

    make_kind(rules_path, backend, time_limit, **extra): the game's PuzzleKind; `extra`
        holds the values of the game's own `generate_options` (for `generate` only).
    read(kind, data, where): a puzzle from a parsed file, and its stated solution (or None).
    write(kind, puzzle, solution, rating): the puzzle file's JSON object.
    solution_text(kind, puzzle, solution): the solution in one readable line.
    picture(kind, puzzle, solution, reveal): an SVG of the puzzle as posed (reveal False;
        the solution is passed so the picture can state e.g. the score to reach) or solved.
    terminal(kind, puzzle, solution, reveal): the same for the terminal.
    stepper(kind, puzzle, solution): the puzzle to solve step by step on the web page's
        library (`PuzzleSteps`: the game's rules engine judges each step; the stated
        solution only for what the picture states, e.g. the score to reach).
    """

    game: str
    backends: tuple[str, ...]
    make_kind: Callable[..., PuzzleKind[P, S]]
    read: Callable[[Any, Any, str], tuple[P, S | None]]
    write: Callable[[Any, P, S | None, dict[str, Any] | None], dict[str, Any]]
    solution_text: Callable[[Any, P, S], str]
    picture: Callable[[Any, P, S, bool], Svg]
    terminal: Callable[[Any, P, S, bool], RenderableType]
    generate_options: tuple[Param, ...] = ()  # e.g. a plan's length
    # The puzzle's canonical form for de-duplication in --store (equal for puzzles that
    # are the same up to the game's symmetries); default: the puzzle file's JSON with
    # sorted keys (no symmetry folded).
    canonical: Callable[[Any, P], str] | None = None
    # What solving a puzzle knows, for the JSON of solve / check-unique: the game's
    # {"knows", "unknown", "all_seeing", ...} of the position posed (None: not said).
    knowledge: Callable[[Any, P], dict[str, Any] | None] | None = None
    stepper: Callable[[Any, P, S], PuzzleSteps] | None = None

    @classmethod
    def from_module(cls, module: str, game: str, backends: tuple[str, ...],
                    generate_options: tuple[Param, ...] = ()) -> PuzzleGame:
        """The description of a game's puzzles whose functions are those of
        `module.puzzle_game()`, that module imported when a command first calls one:
        registering the commands (and `--help`) needs only the game's id, its back-ends
        and its own `generate` options."""
        return cls(game, backends,
                   *(_FromModule(module, name) for name in (
                       "make_kind", "read", "write", "solution_text", "picture",
                       "terminal")),
                   generate_options=generate_options,
                   canonical=_FromModule(module, "canonical_form"),
                   knowledge=_FromModule(module, "knowledge"),
                   stepper=_FromModule(module, "stepper"))

    def canonical_form(self, kind: Any, puzzle: P) -> str:
        """The puzzle's canonical form: `canonical`, or the puzzle file's JSON with
        sorted keys."""
        if self.canonical is not None:
            return self.canonical(kind, puzzle)
        from solver.store import canonical_json

        return canonical_json(self.write(kind, puzzle, None, None))


class PuzzleSteps(Protocol):
    """A puzzle being solved step by step (the web page's library): the steps so far
    applied by the game's rules engine, one at a time."""

    #: the last step made is only begun (e.g. some chips of a roll placed): no step
    #: may follow it
    open: bool

    def step(self, step: Any) -> None:
        """Make the next step, written as in the puzzle file's solution (or, where the
        game allows it, only its beginning: then `open`); BadInput with one line in the
        game's words when the rules refuse it."""

    def picture(self) -> Svg:
        """The puzzle with the steps so far made."""

    def prompt(self) -> str:
        """What the player does next, in the game's words."""


def play_steps(game: PuzzleGame, kind: Any, puzzle: Any, solution: Any, steps: list[Any]
               ) -> PuzzleSteps:
    """The puzzle with the player's steps made one by one by the game's rules engine;
    BadInput "step N: WHY" at the first step the rules refuse."""
    played = game.stepper(kind, puzzle, solution) if game.stepper is not None else None
    if played is None:
        raise BadInput(f"{game.game}: its puzzles are not solved step by step here")
    for n, step in enumerate(steps, 1):
        if n > 1 and played.open:
            raise BadInput(f"step {n}: step {n - 1} is not finished")
        try:
            played.step(step)
        except BadInput as exc:
            raise BadInput(f"step {n}: {exc}") from None
    return played


@functools.cache
def _described(module: str) -> PuzzleGame:
    return importlib.import_module(module).puzzle_game()


@dataclass(frozen=True)
class _FromModule:
    """The function `name` of the PuzzleGame that `module.puzzle_game()` describes,
    imported on the first call; it pickles as the two names, so a batch's workers
    import the module themselves."""

    module: str
    name: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        function = getattr(_described(self.module), self.name)
        # an optional part the game does not describe (e.g. knowledge) answers None
        return None if function is None else function(*args, **kwargs)


@dataclass
class GeneratedFile:
    """One generated puzzle as reported by `generate`."""

    file: str | None
    difficulty: str
    score: float
    features: dict[str, float]
    attempt: int
    puzzle: dict[str, Any]


@dataclass
class GenerateResult:
    game: str
    difficulty: str
    seed: int
    wanted: int
    puzzles: list[GeneratedFile]
    attempts: int
    not_unique: int
    no_solution: int
    undecided: int
    wrong_difficulty: int
    seconds: float
    duplicates: int = 0  # with --store: puzzles found that the store held already
    executor: str = "in-process"
    interrupted: bool = False
    # the puzzle kind and the puzzles found, for the picture (not in the JSON)
    generated: tuple[Any, list[Any]] | None = field(default=None, repr=False,
                                                    metadata={"json_skip": True})

    def exit_with(self, store_path: str | None) -> tuple[int, str] | None:
        """After an interrupted run: exit 130, saying what was kept (None: it was
        complete)."""
        if not self.interrupted:
            return None
        where = (f"saved in {store_path}; run again with --resume to go on" if store_path
                 else "not saved (use --store FILE to keep them and --resume)")
        return 130, (f"Interrupted after {self.attempts} attempts: {len(self.puzzles)} "
                     f"puzzle(s) found, {where}.")


@dataclass
class SolveResult:
    """`solve` / `check-unique`: the verdict and the solutions found (two at most)."""

    file: str
    status: Verdict
    solutions: list[str] = field(default_factory=list)
    stated_solution_confirmed: bool | None = None
    seconds: float = 0.0
    # the solutions as puzzle states, for the picture (not in the JSON)
    found: list[Any] = field(default_factory=list, metadata={"json_skip": True}, repr=False)
    # what solving it knew (the game's knowledge of the puzzle): top-level JSON keys
    knowledge: dict[str, Any] | None = field(default=None, metadata={"json_skip": True})

    def json_document(self) -> dict[str, Any]:
        out = {f: to_jsonable(getattr(self, f)) for f in (
            "file", "status", "solutions", "stated_solution_confirmed", "seconds")}
        return {**out, **(self.knowledge or {})}


@dataclass
class PuzzleKnowledge:
    """What solving a puzzle knew, where the game says it: the position posed (all
    seeing by nature: a puzzle states what no player knows in advance)."""

    knows: list[str] | None = None
    unknown: list[str] | None = None
    all_seeing: bool | None = None


@dataclass
class SheetResult:
    """`sheet`: the files written."""

    files: list[str]


_KINDS: dict[Any, Any] = {}  # per worker process: a kind is built once per run


def attempt_task(make_kind: Callable[..., Any], kind_args: tuple, extra: tuple,
                 difficulty: str, seed: int, attempt: int) -> Attempt:
    """Attempt number `attempt` of `generate` (solver/generate.py), alone: the proposal
    comes from random.Random(attempt_seed(seed, attempt)), so any process or machine
    gives the same answer (a batch task; `make_kind` is the game's top-level factory,
    or a PuzzleGame.from_module one)."""
    from solver.generate import try_attempt

    key = (make_kind, kind_args, extra)
    kind = _KINDS.get(key)
    if kind is None:
        kind = _KINDS[key] = make_kind(*kind_args, **dict(extra))
    return try_attempt(kind, difficulty, seed, attempt)


def generate_stored(game: PuzzleGame, kind: Any, kind_args: tuple, extra: dict[str, Any],
                    difficulty: str, count: int, seed: int, max_attempts: int | None,
                    batch: Batch, progress: Callable[[int, int], None] | None = None,
                    deadline: Deadline = NO_DEADLINE, store: Store | None = None,
                    resume: bool = False) -> GenerationReport:
    """`solver.generate.generate` for a command: every attempt a task of `batch` that
    builds the kind in its worker from `kind_args` (rules path, back-end, time limit)
    and the game's own options `extra`. With a store, every puzzle found is saved at
    once (a puzzle whose canonical form is stored already is skipped as a duplicate);
    `resume` reuses the stored puzzles of this run and goes on after the last one."""
    from solver.generate import Generated, generate
    from solver.store import PUZZLES_KIND

    parameters = {"game": game.game, "difficulty": difficulty, "seed": seed,
                  "rules": kind_args[0], "backend": kind_args[1], "time_limit": kind_args[2],
                  **extra}
    resumed = []
    if store is not None and resume:
        for attempt, data in sorted(store.done(PUZZLES_KIND, parameters).items()):
            if not isinstance(data, dict) or not isinstance(data.get("puzzle"), dict):
                store.skipped.append(f"--store {store.path}: puzzles row of attempt "
                                     f"{attempt} skipped: not a puzzle")
                continue
            puzzle, solution = game.read(kind, data["puzzle"], "the store")
            rating = data["puzzle"].get("rating", {})
            resumed.append(Generated(puzzle, solution, difficulty, rating.get("score", 0.0),
                                     rating.get("features", {}), seed, attempt, 0))
        note = store.skipped_note()
        if note is not None:
            from rich.markup import escape

            from solver.render import stderr

            stderr.print(f"[yellow]{escape(note)}; generated again.[/yellow]", soft_wrap=True)

    def keep(got: Attempt) -> bool:
        """Store the puzzle: False when its canonical form is there already."""
        if store is None:
            return True
        rating = {"difficulty": difficulty, "score": got.score, "features": got.features,
                  "seed": seed, "attempt": got.attempt}
        data = game.write(kind, got.puzzle, got.solution, rating)
        form = f"{game.game} {game.canonical_form(kind, got.puzzle)}"
        return store.put(PUZZLES_KIND, parameters, got.attempt, {"puzzle": data}, rating, form)

    task = (attempt_task, (game.make_kind, kind_args, tuple(sorted(extra.items()))))
    return generate(kind, difficulty, count, seed, max_attempts, progress, deadline,
                    batch=batch, task=task, keep=keep, resumed=resumed)


def puzzles_of(call: Call) -> PuzzleGame:
    """The `PuzzleGame` of the call's game."""
    return call.entry.module("verbs").PUZZLES


def read_puzzle(game: PuzzleGame, kind: Any, path: str, text: str | None = None
                ) -> tuple[Any, Any]:
    """A puzzle file (or its text, from a request) and its stated solution."""
    from solver.io import parse_json

    data = parse_json(text, f"puzzle file {path}") if text is not None else \
        load_json(path, "puzzle file")
    return game.read(kind, data, f"puzzle file {path}")


def generate(call: Call, difficulty: str, count: int, seed: int, max_attempts: int | None,
             max_seconds: float | None, out_dir: str | None, backend: str,
             time_limit: float, **extra: Any) -> GenerateResult:
    """`generate`: puzzles with one solution, rated, from seeded attempts."""

    from solver.store import store_at

    game = puzzles_of(call)
    assert call.batch is not None
    kind = game.make_kind(call.rules_path, backend, time_limit, **extra)
    with progress_bar(f"{count} {difficulty} puzzle(s)") as update:
        deadline = Deadline.from_start(max_seconds)
        with store_at(call.store_path) as store:
            report = generate_stored(
                game, kind, (call.rules_path, backend, time_limit), extra, difficulty,
                count, seed, max_attempts, call.batch, update, deadline, store,
                call.resume)
    files = []
    for n, g in enumerate(report.puzzles):
        rating = {"difficulty": g.difficulty, "score": g.score, "features": g.features,
                  "seed": seed, "attempt": g.attempt}
        data = game.write(kind, g.puzzle, g.solution, rating)
        name = None
        if out_dir:
            from solver.io import file_in, make_folder, write_text

            make_folder(out_dir, "--out")
            path = file_in(out_dir, (game.game, difficulty, seed, n + 1), ".json", "--out")
            name = str(write_text(path, json.dumps(data, indent=1) + "\n", "--out"))
        files.append(GeneratedFile(name, g.difficulty, g.score, g.features, g.attempt, data))
    result = GenerateResult(game.game, difficulty, seed, count, files, report.attempts,
                            report.not_unique, report.no_solution, report.undecided,
                            report.wrong_difficulty, report.seconds, report.duplicates,
                            call.batch.where, call.batch.interrupted)
    result.generated = (kind, report.puzzles)
    return result


def solve(call: Call, backend: str, time_limit: float) -> SolveResult:
    """`solve` / `check-unique`: the verdict and up to two solutions."""
    from solver.generate import check_unique

    game = puzzles_of(call)
    kind = game.make_kind(call.rules_path, backend, time_limit)
    assert call.file is not None
    pz, stated = read_puzzle(game, kind, call.file, call.text)
    verdict = check_unique(kind, pz)
    result = SolveResult(call.file, verdict.status,
                         [game.solution_text(kind, pz, s) for s in verdict.solutions],
                         None, round(verdict.effort, 3))
    if stated is not None and verdict.solutions:
        result.stated_solution_confirmed = (verdict.status == "unique"
                                            and verdict.solutions[0] == stated)
    result.found = [(kind, pz, s) for s in verdict.solutions]
    result.knowledge = game.knowledge(kind, pz) if game.knowledge is not None else None
    return result


def sheet(call: Call, out: str, title: str | None, columns: int, backend: str,
          time_limit: float) -> SheetResult:
    """`sheet`: the puzzles drawn, then their solutions, as SVG pages or one HTML."""

    from solver.generate import check_unique
    from solver.sheet import Card, write_sheet

    game = puzzles_of(call)
    kind = game.make_kind(call.rules_path, backend, time_limit)
    cards, answers = [], []
    for n, path in enumerate(call.files):
        pz, stated = read_puzzle(game, kind, path)
        solution = stated
        if solution is None:
            verdict = check_unique(kind, pz)
            if verdict.status != "unique":
                raise BadInput(f"{path}: the puzzle is not unique ({verdict.status}); "
                               "a sheet needs one solution per puzzle")
            solution = verdict.solutions[0]
        label = f"{n + 1}. {Path(path).stem}"
        cards.append(Card(label, game.picture(kind, pz, solution, False)))
        answers.append(Card(label, game.picture(kind, pz, solution, True)))
    files = write_sheet(out, title or f"toppi {game.game} puzzles", cards, answers, columns)
    return SheetResult([str(f) for f in files])
