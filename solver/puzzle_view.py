"""The terminal pictures of the puzzle verbs every game shares (solver/puzzles.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.puzzles import puzzles_of
from solver.render import stdout

if TYPE_CHECKING:
    from solver.puzzles import GenerateResult, SheetResult, SolveResult
    from solver.verbs import Call

_VERDICT_WORDS = {"unique": "[green]unique[/green]: exactly one solution",
                  "several": "[red]not unique[/red]: at least two solutions",
                  "none": "[red]no solution[/red]",
                  "unknown": "[yellow]undecided[/yellow]: the search ran out of time"}


def generated(result: GenerateResult, call: Call) -> None:
    game = puzzles_of(call)
    kind, found = result.generated or (None, [])
    for f, g in zip(result.puzzles, found, strict=True):
        stdout.print(f"[bold]{result.difficulty} puzzle, rating {f.score}[/bold]"
                     + (f" -> {f.file}" if f.file else ""))
        stdout.print(game.terminal(kind, g.puzzle, g.solution, False))
    stdout.print(f"{len(result.puzzles)} of {result.wanted} found in {result.attempts} "
                 f"attempts ({result.not_unique} not unique, {result.no_solution} without "
                 f"solution, {result.wrong_difficulty} other difficulty, "
                 f"{result.undecided} undecided) in {result.seconds:.1f} s")
    if result.duplicates:
        stdout.print(f"{result.duplicates} puzzle(s) skipped: already in {call.store_path}")
    if len(result.puzzles) < result.wanted and not result.interrupted:
        stdout.print("[yellow]Fewer puzzles than asked: raise --max-attempts or "
                     "--max-seconds.[/yellow]")


def verdict(result: SolveResult, call: Call) -> None:
    game = puzzles_of(call)
    stdout.print(_VERDICT_WORDS[result.status])
    for i, (text, (kind, pz, s)) in enumerate(zip(result.solutions, result.found,
                                                  strict=True)):
        stdout.print(f"[bold]solution {i + 1}[/bold]: {text}")
        stdout.print(game.terminal(kind, pz, s, True))
    if result.stated_solution_confirmed is not None:
        stdout.print("the file's solution is " + (
            "confirmed" if result.stated_solution_confirmed else
            "[red]not the unique solution[/red]"))


def sheet(result: SheetResult, call: Call) -> None:
    from rich.table import Table

    table = Table(title="sheet written")
    table.add_column("file")
    for f in result.files:
        table.add_row(f)
    stdout.print(table)
