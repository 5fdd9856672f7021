"""`toppi take-it-higher ...`: a thin layer over queries.py."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from models.take_it_higher import queries
from models.take_it_higher.render import board_svg, board_text, sheet_table
from models.take_it_higher.rules import (
    Rules,
    load_position,
    load_rules,
    parse_draw,
    parse_variant,
    replay,
)
from solver.backends import SolverOptions
from solver.options import json_option, rules_option, solver_options, svg_option
from solver.render import print_json, stdout
from solver.results import dumps

variant_option = click.option(
    "--variant", default="basic", show_default=True,
    type=click.Choice(["basic", "gold-silver", "simple", "advanced"], case_sensitive=False),
    help="basic; gold-silver bonus rows; simple or advanced spaceship rules.")
gold_silver_option = click.option(
    "--gold-silver", is_flag=True, help="Add the gold/silver bonus to a spaceship variant.")


@click.group()
def group() -> None:
    """Take it Higher!: score sheets, boards, proven maximal scores."""


def _rules(path: str | None) -> Rules:
    return load_rules(path)


@group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@rules_option
@json_option
@svg_option
def show(file: str, rules_path: str | None, as_json: bool, svg_path: str | None) -> None:
    """Draw the board of a position FILE (tiles, studs, spaceships)."""
    rules = _rules(rules_path)
    position = load_position(rules, file)
    board = position.board
    ships = {p.cell: list(p.launch) for p in position.placements if p.launch}
    result = queries.ShowResult(
        [f"{p.tile}@{p.cell}" + "".join("+" + s for s in p.launch) for p in position.placements],
        {c: t.id for c, t in board.items()}, ships,
        [c for c in rules.cell_ids if c not in board])
    if svg_path:
        board_svg(rules, board, ships, title=Path(file).name).save(svg_path)
    if as_json:
        print_json(dumps(result))
        return
    stdout.print(board_text(rules, board, ships))
    stdout.print(f"{len(board)} of {rules.board_size} cells filled")


@group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@variant_option
@gold_silver_option
@rules_option
@json_option
@svg_option
def score(file: str, variant: str, gold_silver: bool, rules_path: str | None, as_json: bool,
          svg_path: str | None) -> None:
    """The score sheet of the board in FILE; spaceship launches are replayed in the
    recorded order and checked against the chosen rules."""
    rules = _rules(rules_path)
    v = parse_variant(variant, gold_silver)
    position = load_position(rules, file)
    sheet = queries.score(position, v)
    ships = {p.cell: list(p.launch) for p in position.placements if p.launch}
    if svg_path:
        board_svg(rules, position.board, ships, title=f"{sheet.total} points").save(svg_path)
    if as_json:
        print_json(dumps(sheet))
        return
    stdout.print(board_text(rules, position.board, ships))
    stdout.print(sheet_table(sheet))
    if not sheet.complete:
        stdout.print(f"[yellow]The board is not full ({len(position.placements)} of "
                     f"{rules.board_size} tiles); only completed rows score.[/yellow]")


@group.command(name="max")
@variant_option
@gold_silver_option
@click.option("--draw", help="Tiles that must all be placed, in call order (e.g. GJ,SA,...).")
@click.option("--backend", type=click.Choice(queries.BACKENDS), default="cpsat",
              show_default=True, help="CP-SAT or PySAT RC2 MaxSAT.")
@rules_option
@solver_options(default_time=120.0)
@json_option
@svg_option
def max_(variant: str, gold_silver: bool, draw: str | None, backend: str,
         rules_path: str | None, solver: SolverOptions, as_json: bool,
         svg_path: str | None) -> None:
    """The highest score and a board that reaches it, proven by the solver.

    Without --draw: over every choice of tiles. With --draw: every called tile must be
    placed (the best a player could have done with those tiles)."""
    rules = _rules(rules_path)
    v = parse_variant(variant, gold_silver)
    tiles = parse_draw(rules, draw) if draw else None
    result = queries.maximise(rules, v, tiles, backend, solver)
    if svg_path:
        board_svg(rules, {c: rules.tile_by_id[t] for c, t in result.board.items()},
                  title=f"{result.score} points ({result.status})").save(svg_path)
    if as_json:
        print_json(dumps(result))
        return
    board = {c: rules.tile_by_id[t] for c, t in result.board.items()}
    stdout.print(board_text(rules, board))
    stdout.print(sheet_table(result.sheet))
    if result.status == "optimal":
        stdout.print(f"[bold green]Maximum {result.score}, proven optimal[/bold green] "
                     f"({result.backend}, {result.seconds:.2f} s)")
    else:
        stdout.print(f"[bold yellow]Best found {result.score}; the maximum is at most "
                     f"{result.bound}[/bold yellow] (time limit reached, {result.backend}, "
                     f"{result.seconds:.2f} s)")
    stdout.print("Placements: " + " ".join(result.placements))


@group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--tile", "tile_text", required=True, help="The called tile, e.g. GJ.")
@variant_option
@gold_silver_option
@click.option("--samples", type=click.IntRange(0, 1000), default=0, show_default=True,
              help="Sampled futures (0: as many as the time limit allows).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the futures.")
@click.option("--time-limit", type=click.FloatRange(min=0.05), default=2.0, show_default=True,
              help="Seconds for the whole hint.")
@rules_option
@json_option
def hint(file: str, tile_text: str, variant: str, gold_silver: bool, samples: int, seed: int,
         time_limit: float, rules_path: str | None, as_json: bool) -> None:
    """Where to put the called tile on the board in FILE: cells ranked by estimated final
    score over sampled futures (the tiles still to come are unknown)."""
    from models.take_it_higher.hint import hint as run_hint

    rules = _rules(rules_path)
    v = parse_variant(variant, gold_silver)
    state = replay(load_position(rules, file), v)
    tile = rules.parse_tile(tile_text, "--tile")
    result = run_hint(state, tile, samples=samples, seed=seed, time_limit=time_limit)
    if as_json:
        print_json(dumps(result))
        return
    stdout.print(board_text(rules, state.board, state.ships_on))
    table = Table(title=f"Where to put {tile.id} ({result.samples} sampled futures, "
                        f"{result.seconds:.2f} s)")
    table.add_column("rank", justify="right")
    table.add_column("cell")
    table.add_column("launch")
    table.add_column("estimated final score", justify="right")
    table.add_column("futures", justify="right")
    for i, o in enumerate(result.options, 1):
        table.add_row(str(i), o.cell, "+".join(o.launch) or "-", f"{o.estimate:.1f}",
                      str(o.samples))
    stdout.print(table)


@group.command()
@rules_option
@json_option
def tiles(rules_path: str | None, as_json: bool) -> None:
    """The tile set: each tile's stripes and stud."""
    rules = _rules(rules_path)
    rows = [{"id": t.id, "letter": t.letter, "stud": t.stud,
             "stripes": dict(zip([d.name for d in rules.directions], t.stripes, strict=True))}
            for t in rules.tiles]
    if as_json:
        print_json(dumps(rows))
        return
    table = Table(title=rules.name)
    table.add_column("tile")
    for d in rules.directions:
        table.add_column(d.name)
    for t in rules.tiles:
        table.add_row(t.id, *[Text(s, style=rules.colour_rgb[s]) for s in t.stripes])
    stdout.print(table)
