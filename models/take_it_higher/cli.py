"""`toppi take-it-higher ...`: a thin layer over queries.py."""

from __future__ import annotations

import random
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from models.take_it_higher import queries
from models.take_it_higher.play import (
    DrawsResult,
    draws_batch,
    game_draw,
    hindsight_optimum,
    simulate_batch,
)
from models.take_it_higher.puzzles import puzzle_game
from models.take_it_higher.render import board_svg, board_text, hint_table, sheet_table
from models.take_it_higher.rules import (
    GameState,
    Placement,
    Position,
    Rules,
    Tile,
    format_placement,
    load_position,
    load_rules,
    parse_draw,
    parse_variant,
    replay,
    score_sheet,
)
from solver.backends import SolverOptions
from solver.errors import BadInput, ToppiError
from solver.executor import Batch, batch_options, interrupted_note
from solver.options import json_option, rules_option, solver_options, svg_option
from solver.puzzle_cli import add_puzzle_commands
from solver.render import print_json, stderr, stdout, text_on
from solver.results import dumps
from solver.store import store_at

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
@click.option("--draws", type=click.IntRange(min=1), default=None,
              help="The distribution of hindsight optima over N random draws (draw i "
                   "uses seed --seed + i, like simulate's game i); --time-limit per draw.")
@batch_options
@rules_option
@solver_options(default_time=120.0)
@json_option
@svg_option
def max_(variant: str, gold_silver: bool, draw: str | None, backend: str, draws: int | None,
         batch: Batch, store_path: str | None, resume: bool, rules_path: str | None,
         solver: SolverOptions, as_json: bool, svg_path: str | None) -> None:
    """The highest score and a board that reaches it, proven by the solver.

    Without --draw: over every choice of tiles. With --draw: every called tile must be
    placed (the best a player could have done with those tiles). With --draws N: the
    hindsight optima of N random draws, each a task (--jobs / --scheduler / --store)."""
    rules = _rules(rules_path)
    v = parse_variant(variant, gold_silver)
    if draws is not None:
        if draw or svg_path:
            raise BadInput("--draws cannot be combined with --draw or --svg")
        with store_at(store_path) as store:
            many = draws_batch(rules, v, draws, solver.seed, backend, solver.time_limit,
                               batch, store, resume)
        if as_json:
            print_json(dumps(many))
        else:
            _print_draws(many)
        interrupted_note(many.interrupted, len(many.records), draws, store_path)
        return
    if store_path or resume or batch.scheduler:
        raise BadInput("--store, --resume and --scheduler need --draws N")
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
              help="Sampled futures (0: as many as the time limit allows; K > 0: exactly "
                   "K futures and fixed solver work, reproducible, --time-limit unused).")
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
    stdout.print(hint_table(result))


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


# --------------------------------------------------------------------------- play, simulate

def _tile_line(rules: Rules, tile: Tile, turn: int, turns: int) -> Text:
    """`Turn 3/24: GJ (gold)  vertical | white  horizontal - blue ...`, stripes coloured."""
    line = Text(f"Turn {turn}/{turns}: called tile ")
    bg = rules.stud_rgb.get(tile.stud or "", "#444444")
    line.append(f" {tile.id} ", style=f"bold {text_on(bg)} on {bg}")
    if tile.stud:
        line.append(f" ({tile.stud})")
    for d, direction in enumerate(rules.directions):
        colour = tile.stripes[d]
        line.append(f"  {direction.name} ")
        line.append(f"{direction.glyph} {colour}", style=f"bold {rules.colour_rgb[colour]}")
    return line


def _ask_launch(options: list[tuple[str, ...]]) -> tuple[str, ...]:
    stdout.print("This tile completes rows that can launch spaceships:")
    for i, launch in enumerate(options):
        stdout.print(f"  {i}: {'+'.join(launch) if launch else 'no launch'}")
    choice = click.prompt("Launch", type=click.IntRange(0, len(options) - 1), default=0)
    return options[choice]


def _ask_move(rules: Rules, state: GameState, tile: Tile, hint_samples: int,
              hint_time: float, turn: int) -> Placement | None:
    """Ask until a legal move is given; None if the player quits. click.Abort on EOF."""
    while True:
        answer = click.prompt("Cell (or 'hint', 'quit')", default="", show_default=False)
        key = answer.strip().lower()
        if not key:
            continue
        if key in ("quit", "q", "exit"):
            return None
        if key in ("hint", "h", "?"):
            try:
                from models.take_it_higher.hint import hint as run_hint

                result = run_hint(state, tile, samples=hint_samples, seed=turn,
                                  time_limit=hint_time)
            except ImportError:
                stdout.print("[yellow]Hints are not available.[/yellow]")
            except ToppiError as exc:
                stdout.print(f"[yellow]No hint: {escape(str(exc))}[/yellow]")
            else:
                stdout.print(hint_table(result))
            continue
        if key not in rules.cell_by_id:
            stdout.print(f"[red]'{escape(answer.strip())}' is not a cell of this board[/red] "
                         f"(empty cells: {', '.join(state.empty_cells())})")
            continue
        if key in state.board:
            stdout.print(f"[red]Cell {key} is occupied by {state.board[key].id}[/red] "
                         f"(empty cells: {', '.join(state.empty_cells())})")
            continue
        options = state.legal_launches(tile, key)
        launch = options[0] if len(options) == 1 else _ask_launch(options)
        return Placement(tile.id, key, launch)


@group.command()
@click.option("--seed", type=int, default=None,
              help="Seed of the draw (random if omitted; printed so the game can be replayed).")
@variant_option
@gold_silver_option
@click.option("--samples", "hint_samples", type=click.IntRange(min=0), default=0,
              show_default=True, help="Sampled futures per hint (0: as many as fit in time).")
@click.option("--hint-time", type=click.FloatRange(min=0.01), default=2.0, show_default=True,
              help="Seconds per hint.")
@click.option("--optimum-time", type=click.FloatRange(min=0.01), default=30.0,
              show_default=True, help="Seconds for the hindsight optimum at the end.")
@rules_option
def play(seed: int | None, variant: str, gold_silver: bool, hint_samples: int,
         hint_time: float, optimum_time: float, rules_path: str | None) -> None:
    """Play a game in the terminal: each turn a tile is called and you type the cell to
    put it on ('hint' ranks the cells, 'quit' stops). At the end: your score sheet and
    the best score anyone could have reached with the same tiles."""
    rules = _rules(rules_path)
    v = parse_variant(variant, gold_silver)
    if seed is None:
        seed = random.SystemRandom().randrange(10 ** 6)
    draw = game_draw(rules, seed)
    state = GameState(rules, v)
    stdout.print(f"[bold]Take it Higher![/bold] ({v.name}, seed {seed}): type a cell name "
                 "to place the called tile, 'hint' for advice, 'quit' to stop.")
    try:
        for turn, tile in enumerate(draw, 1):
            stdout.print(board_text(rules, state.board, state.ships_on))
            stdout.print(_tile_line(rules, tile, turn, len(draw)))
            move = _ask_move(rules, state, tile, hint_samples, hint_time, turn)
            if move is None:
                stdout.print(f"Game stopped after {len(state.placements)} of {len(draw)} tiles.")
                break
            state.apply(move)
    except click.Abort:
        stderr.print(f"\nEnd of input: game stopped after {len(state.placements)} of "
                     f"{len(draw)} tiles.")
        return
    stdout.print(board_text(rules, state.board, state.ships_on))
    sheet = score_sheet(Position(rules, list(state.placements)), v)
    stdout.print(sheet_table(sheet))
    stdout.print("Placements: " + " ".join(format_placement(p) for p in state.placements))
    if not state.is_terminal():
        return
    optimum, proven = hindsight_optimum(rules, v, draw, optimum_time)
    if optimum is None:
        stdout.print("[yellow]The hindsight optimum was not found in time.[/yellow]")
        return
    how = "proven optimal" if proven else f"best found in {optimum_time:g} s"
    share = f" ({100 * sheet.total / optimum:.0f}%)" if optimum else ""
    stdout.print(f"You scored [bold]{sheet.total}[/bold]{share}; knowing every tile in "
                 f"advance, the best possible with this draw is [bold]{optimum}[/bold] ({how}).")


@group.command()
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True,
              help="Games to play.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Game g draws its tiles with seed + g (runs are reproducible).")
@click.option("--policy", type=click.Choice(["hint", "greedy", "random"]), default="greedy",
              show_default=True,
              help="hint: hint's best option; greedy: one-step heuristic; random.")
@variant_option
@gold_silver_option
@click.option("--samples", "hint_samples", type=click.IntRange(min=0), default=0,
              show_default=True,
              help="Sampled futures per hint (0: as many as fit in --hint-time; K > 0: "
                   "fixed work per hint, so games replay exactly from --seed).")
@click.option("--hint-time", type=click.FloatRange(min=0.01), default=2.0, show_default=True,
              help="Seconds per hint (hint policy).")
@click.option("--optimum-time", type=click.FloatRange(min=0.01), default=10.0,
              show_default=True, help="Seconds for each game's hindsight optimum.")
@click.option("--no-optimum", is_flag=True, help="Skip the hindsight optima.")
@batch_options
@rules_option
@json_option
def simulate(games: int, seed: int, policy: str, variant: str, gold_silver: bool,
             hint_samples: int, hint_time: float, optimum_time: float, no_optimum: bool,
             batch: Batch, store_path: str | None, resume: bool, rules_path: str | None,
             as_json: bool) -> None:
    """Play seeded games with a policy; report its scores against the hindsight optimum
    of each draw (the best board with the same tiles, in call order for spaceships).
    Each game is a task: --jobs / --scheduler spread them, --store keeps them."""
    rules = _rules(rules_path)
    v = parse_variant(variant, gold_silver)
    with store_at(store_path) as store:
        result = simulate_batch(rules, v, games, seed, policy, batch, store, resume,
                                hint_samples, hint_time, None if no_optimum else optimum_time)
    if as_json:
        print_json(dumps(result))
        interrupted_note(result.interrupted, len(result.records), games, store_path)
        return
    if result.games <= 20:
        per_game = Table(title="Games", caption="? = best found in --optimum-time, not proven")
        for name in ("game", "seed", "score", "hindsight optimum"):
            per_game.add_column(name, justify="right")
        for r in result.records:
            opt = "-" if r.optimum is None else f"{r.optimum}{'' if r.optimum_proven else '?'}"
            per_game.add_row(str(r.game), str(r.seed), str(r.score), opt)
        stdout.print(per_game)
    table = Table(title=f"{result.policy} policy, {result.games} games",
                  caption=f"{result.variant}, seed {result.seed}, {result.seconds:.1f} s")
    table.add_column("")
    table.add_column("value", justify="right")
    q1, _, q3 = result.quartiles
    for name, value in (("mean score", f"{result.mean:.1f}"), ("median", f"{result.median:g}"),
                        ("quartiles (Q1-Q3)", f"{q1:g} - {q3:g}"), ("min", str(result.min)),
                        ("max", str(result.max))):
        table.add_row(name, value)
    if result.optimum_mean is not None:
        proven = "" if result.optimum_all_proven else " (some not proven)"
        table.add_row("mean hindsight optimum" + proven, f"{result.optimum_mean:.1f}")
        table.add_row("mean / mean optimum", f"{100 * (result.ratio or 0):.1f}%")
    stdout.print(table)
    interrupted_note(result.interrupted, len(result.records), games, store_path)


def _print_draws(result: DrawsResult) -> None:
    if result.draws <= 20:
        per_draw = Table(title="Draws", caption="? = best found in --time-limit, not proven")
        for name in ("draw", "seed", "hindsight optimum", "seconds"):
            per_draw.add_column(name, justify="right")
        for r in result.records:
            opt = "-" if r.score is None else f"{r.score}{'' if r.proven else '?'}"
            per_draw.add_row(str(r.draw), str(r.seed), opt, f"{r.seconds:.2f}")
        stdout.print(per_draw)
    table = Table(title=f"Hindsight optimum over {result.draws} draws",
                  caption=f"{result.variant}, {result.backend}, {result.seconds:.1f} s")
    table.add_column("")
    table.add_column("value", justify="right")
    if result.mean is not None and result.quartiles is not None:
        q1, _, q3 = result.quartiles
        for name, value in (("mean", f"{result.mean:.1f}"), ("median", f"{result.median:g}"),
                            ("quartiles (Q1-Q3)", f"{q1:g} - {q3:g}"),
                            ("min", str(result.min)), ("max", str(result.max))):
            table.add_row(name, value)
    table.add_row("proven optimal", f"{result.proven} of {result.draws}")
    if result.found < result.draws:
        table.add_row("no board found in time", str(result.draws - result.found))
    stdout.print(table)


add_puzzle_commands(group, puzzle_game())
