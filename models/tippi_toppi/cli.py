"""`toppi tippi-toppi ...`: a thin layer over queries.py and play.py."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from models.tippi_toppi import queries
from models.tippi_toppi.encode import CARD_MODES
from models.tippi_toppi.render import table_svg, table_text
from models.tippi_toppi.rules import GameState, Rules, load_rules, load_state
from solver.backends import SolverOptions
from solver.options import json_option, rules_option, solver_options, svg_option
from solver.render import print_json, stdout
from solver.results import dumps


@click.group()
def group() -> None:
    """Tippi Toppi (card game): tasks, achievability, hints, can we still win."""


def _load(file: str, rules_path: str | None) -> tuple[Rules, GameState]:
    rules = load_rules(rules_path)
    return rules, load_state(rules, file)


file_argument = click.argument("file", type=click.Path(dir_okay=False))


@group.command()
@file_argument
@rules_option
@json_option
@svg_option
def show(file: str, rules_path: str | None, as_json: bool, svg_path: str | None) -> None:
    """Draw the game in FILE: piles, open tasks, hands, what is left."""
    rules, state = _load(file, rules_path)
    result = queries.show(state)
    if svg_path:
        table_svg(state, Path(file).name).save(svg_path)
    if as_json:
        print_json(dumps(result))
        return
    stdout.print(table_text(state))
    stdout.print(f"Status: {result.status}; {result.tasks_left} tasks left; "
                 f"{result.legal_plays} legal plays for player {state.turn + 1}")


@group.command()
@file_argument
@rules_option
@json_option
def moves(file: str, rules_path: str | None, as_json: bool) -> None:
    """Every legal play (CARD>PILE) and the tasks it fulfils at once."""
    rules, state = _load(file, rules_path)
    result = queries.moves(state)
    if as_json:
        print_json(dumps(result))
        return
    table = Table(title=f"Legal plays ({len(result.moves)}), status {result.status}")
    table.add_column("play")
    table.add_column("fulfils")
    for m in result.moves:
        table.add_row(m.play, escape("; ".join(m.fulfils)) or "-")
    stdout.print(table)


@group.command()
@file_argument
@click.option("--task", "task_texts", multiple=True,
              help="A task to fulfil instead of the open tasks (repeatable).")
@click.option("--within", type=click.IntRange(0, 40), default=6, show_default=True,
              help="Number of plays K.")
@click.option("--cards", type=click.Choice(CARD_MODES), default="known", show_default=True,
              help="hand: the player's own cards; hands: all hands (open play); "
                   "known: all hands and the draw pile in order.")
@click.option("--backend", type=click.Choice(queries.BACKENDS), default="sat",
              show_default=True, help="PySAT (incremental, cores) or CP-SAT.")
@rules_option
@solver_options(default_time=60.0)
@json_option
def achievable(file: str, task_texts: tuple[str, ...], within: int, cards: str, backend: str,
               rules_path: str | None, solver: SolverOptions, as_json: bool) -> None:
    """Can the open tasks (or each --task) all be fulfilled within K plays? Yes with a
    line of plays (re-checked by the rules engine), or no with the smallest set of the
    tasks that blocks it."""
    rules, state = _load(file, rules_path)
    tasks = [rules.parse_task(t, "--task") for t in task_texts]
    result = queries.achievable(state, tasks or None, within, cards, backend, solver)
    if as_json:
        print_json(dumps(result))
        return
    if result.answer == "yes":
        stdout.print(f"[bold green]Yes[/bold green]: all {len(result.targets)} tasks within "
                     f"{within} plays (cards: {cards}, {backend}, {result.seconds:.2f} s)")
        stdout.print("Plays: " + (" ".join(result.plays) or "none needed"))
        for t, k in zip(result.targets, result.fulfilled_after, strict=True):
            stdout.print(f"  • {escape(t)}: after play {k}")
    else:
        stdout.print(f"[bold red]No[/bold red] (proven): not all {len(result.targets)} tasks "
                     f"within {within} plays (cards: {cards}, {backend}, "
                     f"{result.seconds:.2f} s)")
        stdout.print("These tasks cannot all be fulfilled together (each smaller set can):")
        for t in result.core:
            stdout.print(f"  • {escape(t)}")


@group.command(name="tasks")
@rules_option
@json_option
def tasks_(rules_path: str | None, as_json: bool) -> None:
    """The task catalogue (modelled on the rulebook; the real cards are unpublished)."""
    rules = load_rules(rules_path)
    rows = [{"id": t.id, "level": t.level, "text": t.task.text(rules)} for t in rules.catalogue]
    if as_json:
        print_json(dumps(rows))
        return
    table = Table(title=f"{len(rows)} tasks (modelled on the rulebook)")
    for c in ("id", "level", "text"):
        table.add_column(c)
    for row in rows:
        table.add_row(row["id"], str(row["level"]), escape(row["text"]))
    stdout.print(table)
