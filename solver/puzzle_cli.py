"""The puzzle commands every game shares: `generate`, `solve`, `check-unique`, `sheet`.

A game describes its puzzles once (a `PuzzleGame`: how to make its PuzzleKind, read and
write puzzle files, and draw a puzzle) and calls `add_puzzle_commands(group, game)`; the
commands, their options, outputs and exit codes are then the same for every game.

Registering the commands imports no solver: a game's command line describes its puzzles
with `PuzzleGame.from_module`, whose functions import the game's puzzle module (and with
it the generator and the encodings) when a command first calls one, and the generator,
the store and rich's tables are imported by the commands that use them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from solver.errors import BadInput
from solver.io import load_json
from solver.options import (
    DIFFICULTIES,
    SEED,
    batch_options,
    count_range,
    deadline_in,
    json_option,
    quiet_option,
    rules_option,
    seconds,
)
from solver.progress import progress_bar
from solver.render import print_json, stderr, stdout
from solver.results import dumps, to_jsonable

if TYPE_CHECKING:

    from solver.executor import Batch

from solver.puzzles import (  # noqa: E402
    GeneratedFile,
    GenerateResult,
    PuzzleGame,
    SolveResult,
    generate_stored,
)

_VERDICT_WORDS = {"unique": "[green]unique[/green]: exactly one solution",
                  "several": "[red]not unique[/red]: at least two solutions",
                  "none": "[red]no solution[/red]",
                  "unknown": "[yellow]undecided[/yellow]: the search ran out of time"}


def _read(game: PuzzleGame, kind: Any, path: str) -> tuple[Any, Any]:
    return game.read(kind, load_json(path, "puzzle file"), f"puzzle file {path}")


def add_puzzle_commands(group: click.Group, game: PuzzleGame) -> None:
    """Register generate / solve / check-unique / sheet on a game's click group."""
    backend_option = click.option(
        "--backend", type=click.Choice(list(game.backends)), default=game.backends[0],
        show_default=True, help="Solver used for solutions and the uniqueness check.")
    time_option = click.option(
        "--time-limit", type=seconds(0.1), default=20.0, show_default=True,
        help="Seconds per solver call; a search cut short is never called unique.")

    def game_options(f: Callable) -> Callable:
        for option in game.generate_options:
            f.__click_params__ = [*getattr(f, "__click_params__", []), option]
        return f

    @group.command(name="generate")
    @game_options
    @click.option("--difficulty", type=click.Choice(DIFFICULTIES), default="medium",
                  show_default=True)
    @click.option("--count", type=count_range(), default=1, show_default=True)
    @click.option("--seed", type=SEED, default=0, show_default=True,
                  help="Every attempt is seeded from this, so a run replays exactly.")
    @click.option("--max-attempts", type=click.IntRange(min=1), default=None,
                  help="Give up after this many proposals (default 200 per puzzle).")
    @click.option("--max-seconds", type=seconds(0.1), default=None,
                  help="Stop proposing after this many seconds (what was found is kept).")
    @click.option("--out", "out_dir", type=click.Path(file_okay=False),
                  help="Write each puzzle (with solution and rating) to a file here.")
    @backend_option
    @time_option
    @batch_options
    @rules_option
    @json_option
    @quiet_option
    def generate_command(difficulty: str, count: int, seed: int, max_attempts: int | None,
                         max_seconds: float | None, out_dir: str | None, backend: str, time_limit: float,
                         batch: Batch, store_path: str | None, resume: bool,
                         rules_path: str | None, as_json: bool, **extra: Any) -> None:
        """Generate puzzles with exactly one solution, rated easy / medium / hard from
        measured features (see the game's docs). The attempts run as parallel tasks on
        all cores (--jobs N, or a Dask cluster with --scheduler); the same puzzles for
        the same --seed whichever ran them."""
        from solver.store import store_at

        kind = game.make_kind(rules_path, backend, time_limit, **extra)
        with progress_bar(f"{count} {difficulty} puzzle(s)") as update:
            deadline = None if max_seconds is None else deadline_in(max_seconds)
            with store_at(store_path) as store:
                report = generate_stored(
                    game, kind, (rules_path, backend, time_limit), extra, difficulty,
                    count, seed, max_attempts, batch, update, deadline, store, resume)
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
                                report.wrong_difficulty, report.seconds, report.duplicates,
                                batch.where, batch.interrupted)
        if as_json:
            print_json(dumps(result))
            _after_interrupt(result, store_path)
            return
        for f, g in zip(files, report.puzzles, strict=True):
            stdout.print(f"[bold]{difficulty} puzzle, rating {f.score}[/bold]"
                         + (f" -> {f.file}" if f.file else ""))
            stdout.print(game.terminal(kind, g.puzzle, g.solution, False))
        stdout.print(f"{len(files)} of {count} found in {report.attempts} attempts "
                     f"({report.not_unique} not unique, {report.no_solution} without "
                     f"solution, {report.wrong_difficulty} other difficulty, "
                     f"{report.undecided} undecided) in {report.seconds:.1f} s")
        if report.duplicates:
            stdout.print(f"{report.duplicates} puzzle(s) skipped: already in {store_path}")
        if len(files) < count and not batch.interrupted:
            stdout.print("[yellow]Fewer puzzles than asked: raise --max-attempts or "
                         "--max-seconds.[/yellow]")
        _after_interrupt(result, store_path)

    def _after_interrupt(result: GenerateResult, store_path: str | None) -> None:
        if not result.interrupted:
            return
        where = (f"saved in {store_path}; run again with --resume to go on" if store_path
                 else "not saved (use --store FILE to keep them and --resume)")
        stderr.print(f"[yellow]Interrupted after {result.attempts} attempts: "
                     f"{len(result.puzzles)} puzzle(s) found, {where}.[/yellow]")
        raise SystemExit(130)

    def verdict_command(name: str, summary: str) -> None:
        """`solve` and `check-unique`: one body, two names (solving a puzzle is
        checking its solution unique)."""

        @group.command(name=name, help=summary)
        @click.argument("puzzle", type=click.Path(dir_okay=False))
        @backend_option
        @time_option
        @rules_option
        @json_option
        @quiet_option
        def command(puzzle: str, backend: str, time_limit: float, rules_path: str | None,
                    as_json: bool) -> None:
            from solver.generate import check_unique

            kind = game.make_kind(rules_path, backend, time_limit)
            pz, stated = _read(game, kind, puzzle)
            verdict = check_unique(kind, pz)
            result = SolveResult(puzzle, verdict.status,
                                 [game.solution_text(kind, pz, s) for s in verdict.solutions],
                                 None, round(verdict.effort, 3))
            if stated is not None and verdict.solutions:
                result.stated_solution_confirmed = (verdict.status == "unique"
                                                    and verdict.solutions[0] == stated)
            if as_json:
                known = game.knowledge(kind, pz) if game.knowledge is not None else None
                print_json(dumps({**to_jsonable(result), **known}) if known else
                           dumps(result))
                return
            stdout.print(_VERDICT_WORDS[result.status])
            for i, (text, s) in enumerate(zip(result.solutions, verdict.solutions,
                                              strict=True)):
                stdout.print(f"[bold]solution {i + 1}[/bold]: {text}")
                stdout.print(game.terminal(kind, pz, s, True))
            if result.stated_solution_confirmed is not None:
                stdout.print("the file's solution is " + (
                    "confirmed" if result.stated_solution_confirmed else
                    "[red]not the unique solution[/red]"))

    verdict_command("solve", "Solve a puzzle file; says whether the solution is unique.")
    verdict_command("check-unique", "For hand-made puzzles: unique, several (two shown) or "
                                    "none.")

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
    @quiet_option
    def sheet_command(puzzles: tuple[str, ...], out: str, title: str | None, columns: int,
                      backend: str, time_limit: float, rules_path: str | None) -> None:
        """A printable sheet: the puzzles drawn, then their solutions on the next page(s).
        A puzzle file without its solution is solved first (it must be unique)."""
        from rich.table import Table

        from solver.generate import check_unique
        from solver.sheet import Card, write_sheet

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
