"""`toppi hoch-hinaus ...`: a thin layer over queries.py."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from models.hoch_hinaus import queries
from models.hoch_hinaus.achieve import BACKENDS, TILE_MODES
from models.hoch_hinaus.achieve import achievable as run_achievable
from models.hoch_hinaus.render import board_svg, board_text
from solver.backends.common import SolverOptions
from solver.options import json_option, rules_option, solver_options, svg_option
from solver.render import print_json, stdout
from solver.results import dumps

tasks_option = click.option("--tasks", "tasks_path", type=click.Path(dir_okay=False),
                            help="Task catalogue file replacing the built-in one.")
pros_option = click.option("--pros/--basic", "pros", default=None,
                           help="Force the Pros placement rule on or off (default: the "
                                "file's 'variant').")
file_argument = click.argument("file", type=click.Path(dir_okay=False))


@click.group()
def group() -> None:
    """Tippi Toppi – Hoch Hinaus!: legal placements, tasks, achievability, hints."""


def _ctx(file: str, rules_path: str | None, tasks_path: str | None,
         pros: bool | None) -> queries.Context:
    return queries.load_context(file, rules_path, tasks_path, pros)


@group.command()
@file_argument
@rules_option
@tasks_option
@pros_option
@json_option
@svg_option
def show(file: str, rules_path: str | None, tasks_path: str | None, pros: bool | None,
         as_json: bool, svg_path: str | None) -> None:
    """Draw the board of FILE (faces and heights) and the state of the game."""
    ctx = _ctx(file, rules_path, tasks_path, pros)
    result = queries.show(ctx)
    if svg_path:
        board_svg(ctx.game.board, Path(file).name).save(svg_path)
    if as_json:
        print_json(dumps(result))
        return
    stdout.print(board_text(ctx.game.board))
    if result.open_tasks:
        table = Table(title="Open tasks")
        table.add_column("id")
        table.add_column("task")
        table.add_column("fulfilled now")
        for t in result.open_tasks:
            table.add_row(t.id or "", t.text, "[green]yes[/green]" if t.fulfilled_now
                          else "no")
        stdout.print(table)
    if result.hands:
        stdout.print(f"Player on turn: {result.on_turn}; hands: " + "; ".join(
            " ".join(ctx.rules.tile_text(t) for t in h) for h in result.hands))
        stdout.print(f"Draw pile: {result.draw_pile} tasks; gap fillers on bonus tasks: "
                     f"{result.bonus_fillers}; reserve: {result.reserve} tiles "
                     f"({'order known' if result.reserve_known else 'order unknown'}); "
                     f"completed: {result.completed}; game: {result.status}")


@group.command()
@file_argument
@click.option("--tile", "tiles", multiple=True,
              help="A tile to place (id T07 or faces G3-O1); repeatable. Default: the hand "
                   "of the player on turn (a board file: every tile not on the board).")
@click.option("--fillers/--no-fillers", default=None,
              help="Also list placements with a gap filler first (default: if one is left).")
@rules_option
@tasks_option
@pros_option
@json_option
def moves(file: str, tiles: tuple[str, ...], fillers: bool | None, rules_path: str | None,
          tasks_path: str | None, pros: bool | None, as_json: bool) -> None:
    """Every legal placement in FILE (tile, spaces, which way round, gap filler first)."""
    ctx = _ctx(file, rules_path, tasks_path, pros)
    result = queries.moves(ctx, list(tiles), fillers)
    if as_json:
        print_json(dumps(result))
        return
    stdout.print(board_text(ctx.game.board))
    stdout.print(f"{result.count} legal placements ({result.count_without_filler} without a "
                 f"gap filler) for tiles {', '.join(result.tiles)}:")
    for m in result.moves:
        stdout.print("  " + m["text"])


@group.command()
@file_argument
@click.option("--task", "task_texts", multiple=True,
              help='A task text or catalogue id, e.g. "Exactly FIVE GREEN"; repeatable. '
                   "Default: all open tasks of FILE together.")
@click.option("--within", "k", type=click.IntRange(1, 12), default=3, show_default=True,
              help="Placements (turns) allowed.")
@click.option("--tiles", "mode", type=click.Choice(TILE_MODES), default="hand",
              show_default=True,
              help="hand: the hands as they are; known: plus the draws from the reserve in "
                   "its known order; any: any tile not on the board.")
@click.option("--backend", type=click.Choice(BACKENDS), default="sat", show_default=True,
              help="PySAT (CaDiCaL, incremental) or CP-SAT.")
@rules_option
@tasks_option
@pros_option
@solver_options(default_time=60.0)
@json_option
def achievable(file: str, task_texts: tuple[str, ...], k: int, mode: str, backend: str,
               rules_path: str | None, tasks_path: str | None, pros: bool | None,
               solver: SolverOptions, as_json: bool) -> None:
    """Can the tasks be fulfilled within K placements? Yes with a witness line, or no
    with proof and the smallest set of tasks that block each other."""
    ctx = _ctx(file, rules_path, tasks_path, pros)
    tasks = [ctx.catalogue.parse(t, "--task") for t in task_texts] or \
        [t for t in ctx.game.open if t is not None]
    result = run_achievable(ctx.game, tasks, k, mode, backend, solver)
    if as_json:
        print_json(dumps(result))
        return
    stdout.print(board_text(ctx.game.board))
    if result.answer == "yes":
        stdout.print(f"[bold green]Yes[/bold green]: all {len(tasks)} task(s) can be "
                     f"fulfilled within {k} placement(s) (tiles: {mode}; {result.backend}, "
                     f"{result.seconds:.2f} s). A line, checked by the rules engine:")
        for i, w in enumerate(result.witness, 1):
            done = f"  → fulfils {'; '.join(w.fulfils)}" if w.fulfils else ""
            stdout.print(f"  {i}. {w.placement['text']}{done}")
    else:
        stdout.print(f"[bold red]No[/bold red], proven: the model of {k} placement(s) "
                     f"(tiles: {mode}) is infeasible ({result.backend}, "
                     f"{result.seconds:.2f} s).")
        if result.core:
            stdout.print("Smallest set of tasks that cannot all be fulfilled (minimal "
                         "core): " + "; ".join(result.core))
        if result.note:
            stdout.print(result.note)
