"""The puzzle commands every game shares: `generate`, `solve`, `check-unique`, `sheet`.

A game describes its puzzles once (a `PuzzleGame`: how to make its PuzzleKind, read and
write puzzle files, and draw a puzzle) and calls `add_puzzle_commands(group, game)`; the
commands, their options, outputs and exit codes are then the same for every game.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import click
from rich.console import RenderableType
from rich.table import Table

from solver.errors import BadInput
from solver.generate import DIFFICULTIES, PuzzleKind, check_unique, generate
from solver.io import load_json
from solver.options import json_option, rules_option
from solver.progress import progress_bar
from solver.render import Svg, print_json, stdout
from solver.results import dumps
from solver.sheet import Card, write_sheet

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
    """

    game: str
    backends: tuple[str, ...]
    make_kind: Callable[..., PuzzleKind[P, S]]
    read: Callable[[Any, Any, str], tuple[P, S | None]]
    write: Callable[[Any, P, S | None, dict[str, Any] | None], dict[str, Any]]
    solution_text: Callable[[Any, P, S], str]
    picture: Callable[[Any, P, S, bool], Svg]
    terminal: Callable[[Any, P, S, bool], RenderableType]
    generate_options: tuple[click.Option, ...] = ()  # e.g. Topito's --moves K


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


@dataclass
class SolveResult:
    """`solve` / `check-unique`: the verdict and the solutions found (two at most)."""

    file: str
    status: str  # unique | several | none | unknown
    solutions: list[str] = field(default_factory=list)
    stated_solution_confirmed: bool | None = None
    seconds: float = 0.0


def _read(game: PuzzleGame, kind: Any, path: str) -> tuple[Any, Any]:
    return game.read(kind, load_json(path, "puzzle file"), f"puzzle file {path}")


def add_puzzle_commands(group: click.Group, game: PuzzleGame) -> None:
    """Register generate / solve / check-unique / sheet on a game's click group."""
    backend_option = click.option(
        "--backend", type=click.Choice(list(game.backends)), default=game.backends[0],
        show_default=True, help="Solver used for solutions and the uniqueness check.")
    time_option = click.option(
        "--time-limit", type=click.FloatRange(min=0.1), default=20.0, show_default=True,
        help="Seconds per solver call; a search cut short is never called unique.")

    def game_options(f: Callable) -> Callable:
        for option in game.generate_options:
            f.__click_params__ = [*getattr(f, "__click_params__", []), option]
        return f

    @group.command(name="generate")
    @game_options
    @click.option("--difficulty", type=click.Choice(DIFFICULTIES), default="medium",
                  show_default=True)
    @click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
    @click.option("--seed", type=int, default=0, show_default=True,
                  help="Every attempt is seeded from this, so a run replays exactly.")
    @click.option("--max-attempts", type=click.IntRange(min=1), default=None,
                  help="Give up after this many proposals (default 200 per puzzle).")
    @click.option("--max-seconds", type=click.FloatRange(min=0.1), default=None,
                  help="Stop proposing after this many seconds (what was found is kept).")
    @click.option("--out", "out_dir", type=click.Path(file_okay=False),
                  help="Write each puzzle (with solution and rating) to a file here.")
    @backend_option
    @time_option
    @rules_option
    @json_option
    def generate_command(difficulty: str, count: int, seed: int, max_attempts: int | None,
                         max_seconds: float | None, out_dir: str | None, backend: str, time_limit: float,
                         rules_path: str | None, as_json: bool, **extra: Any) -> None:
        """Generate puzzles with exactly one solution, rated easy / medium / hard from
        measured features (see the game's docs)."""
        kind = game.make_kind(rules_path, backend, time_limit, **extra)
        with progress_bar(f"{count} {difficulty} puzzle(s)") as update:
            deadline = None if max_seconds is None else time.monotonic() + max_seconds
            report = generate(kind, difficulty, count, seed, max_attempts, update, deadline)
        files = []
        for n, g in enumerate(report.puzzles):
            rating = {"difficulty": g.difficulty, "score": g.score, "features": g.features,
                      "seed": seed, "attempt": g.attempt}
            data = game.write(kind, g.puzzle, g.solution, rating)
            name = None
            if out_dir:
                path = Path(out_dir) / f"{game.game}-{difficulty}-{seed}-{n + 1}.json"
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
                except OSError as exc:
                    raise BadInput(f"--out {out_dir}: cannot write ({exc.strerror})") from None
                name = str(path)
            files.append(GeneratedFile(name, g.difficulty, g.score, g.features, g.attempt,
                                       data))
        result = GenerateResult(game.game, difficulty, seed, count, files, report.attempts,
                                report.not_unique, report.no_solution, report.undecided,
                                report.wrong_difficulty, report.seconds)
        if as_json:
            print_json(dumps(result))
            return
        for f, g in zip(files, report.puzzles, strict=True):
            stdout.print(f"[bold]{difficulty} puzzle, rating {f.score}[/bold]"
                         + (f" -> {f.file}" if f.file else ""))
            stdout.print(game.terminal(kind, g.puzzle, g.solution, False))
        stdout.print(f"{len(files)} of {count} found in {report.attempts} attempts "
                     f"({report.not_unique} not unique, {report.no_solution} without "
                     f"solution, {report.wrong_difficulty} other difficulty, "
                     f"{report.undecided} undecided) in {report.seconds:.1f} s")
        if len(files) < count:
            stdout.print("[yellow]Fewer puzzles than asked: raise --max-attempts or "
                         "--max-seconds.[/yellow]")

    def _verdict(path: str, backend: str, time_limit: float, rules_path: str | None
                 ) -> tuple[Any, Any, SolveResult, list]:
        kind = game.make_kind(rules_path, backend, time_limit)
        puzzle, stated = _read(game, kind, path)
        verdict = check_unique(kind, puzzle)
        result = SolveResult(path, verdict.status,
                             [game.solution_text(kind, puzzle, s) for s in verdict.solutions],
                             None, round(verdict.effort, 3))
        if stated is not None and verdict.solutions:
            result.stated_solution_confirmed = (verdict.status == "unique"
                                                and verdict.solutions[0] == stated)
        return kind, puzzle, result, verdict.solutions

    def _print_verdict(kind: Any, puzzle: Any, result: SolveResult, solutions: list) -> None:
        words = {"unique": "[green]unique[/green]: exactly one solution",
                 "several": "[red]not unique[/red]: at least two solutions",
                 "none": "[red]no solution[/red]",
                 "unknown": "[yellow]undecided[/yellow]: the search ran out of time"}
        stdout.print(words[result.status])
        for i, (text, s) in enumerate(zip(result.solutions, solutions, strict=True)):
            stdout.print(f"[bold]solution {i + 1}[/bold]: {text}")
            stdout.print(game.terminal(kind, puzzle, s, True))
        if result.stated_solution_confirmed is not None:
            stdout.print("the file's solution is " + (
                "confirmed" if result.stated_solution_confirmed else
                "[red]not the unique solution[/red]"))

    @group.command(name="solve")
    @click.argument("puzzle", type=click.Path(dir_okay=False))
    @backend_option
    @time_option
    @rules_option
    @json_option
    def solve_command(puzzle: str, backend: str, time_limit: float, rules_path: str | None,
                      as_json: bool) -> None:
        """Solve a puzzle file; says whether the solution is unique."""
        kind, pz, result, solutions = _verdict(puzzle, backend, time_limit, rules_path)
        if as_json:
            print_json(dumps(result))
            return
        _print_verdict(kind, pz, result, solutions)

    @group.command(name="check-unique")
    @click.argument("puzzle", type=click.Path(dir_okay=False))
    @backend_option
    @time_option
    @rules_option
    @json_option
    def check_unique_command(puzzle: str, backend: str, time_limit: float,
                             rules_path: str | None, as_json: bool) -> None:
        """For hand-made puzzles: unique, several (two shown) or none."""
        kind, pz, result, solutions = _verdict(puzzle, backend, time_limit, rules_path)
        if as_json:
            print_json(dumps(result))
            return
        _print_verdict(kind, pz, result, solutions)

    @group.command(name="sheet")
    @click.argument("puzzles", nargs=-1, required=True, type=click.Path(dir_okay=False))
    @click.option("--svg", "out", required=True, type=click.Path(dir_okay=False),
                  help="Output: FILE.svg (one SVG per page: FILE, FILE-2, ...) or "
                       "FILE.html (one printable document).")
    @click.option("--title", default=None, help="Heading of the sheet.")
    @click.option("--columns", type=click.IntRange(1, 4), default=2, show_default=True)
    @backend_option
    @time_option
    @rules_option
    def sheet_command(puzzles: tuple[str, ...], out: str, title: str | None, columns: int,
                      backend: str, time_limit: float, rules_path: str | None) -> None:
        """A printable sheet: the puzzles drawn, then their solutions on the next page(s).
        A puzzle file without its solution is solved first (it must be unique)."""
        kind = game.make_kind(rules_path, backend, time_limit)
        cards, answers = [], []
        for n, path in enumerate(puzzles):
            pz, stated = _read(game, kind, path)
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
        table = Table(title="sheet written")
        table.add_column("file")
        for f in files:
            table.add_row(str(f))
        stdout.print(table)
