"""`toppi take-it-higher ...`: a thin layer over the queries. `show`, `moves`, `simulate`
and `play` are the shared commands (solver/game_cli.py) built from `game.GAME`; the
solvers, the queries and the pictures are imported by the commands that use them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from models.take_it_higher.encode import BACKENDS
from models.take_it_higher.game import GAME
from models.take_it_higher.learned.policy import CALLS, FUTURES, LOOKAHEAD
from models.take_it_higher.learned.td import ALPHA
from models.take_it_higher.positions import Position, load_position, parse_draw
from models.take_it_higher.rules import load_rules
from models.take_it_higher.state import GameState, dealt_game, game_draw, replay
from models.take_it_higher.variants import VARIANT_CHOICES, Variant, parse_variant
from solver.backends import SolverOptions
from solver.errors import BadInput
from solver.game import knowledge, task_seed
from solver.game_cli import add_game_commands
from solver.options import (
    SEED,
    batch_options,
    count_range,
    json_option,
    quiet_option,
    rules_option,
    seconds,
    since_start,
    solver_options,
    svg_option,
)
from solver.progress import live_status
from solver.puzzle_cli import PuzzleGame, add_puzzle_commands
from solver.render import print_json, stderr, stdout
from solver.results import dumps, to_jsonable

if TYPE_CHECKING:
    from models.take_it_higher.draws import DrawsResult
    from solver.executor import Batch


# `max --backend`: the race of both back-ends (models/take_it_higher/auto.py), or one
MAX_BACKENDS = ("auto", *BACKENDS)


def variant_option(default: str | None) -> click.Option:
    more = "" if default else " Default: the file's variant, else basic."
    return click.option("--variant", default=default, show_default=default is not None,
                        type=click.Choice(VARIANT_CHOICES, case_sensitive=False),
                        help="basic; gold-silver bonus rows; simple or advanced spaceship "
                             "rules." + more)


gold_silver_option = click.option(
    "--gold-silver", is_flag=True, help="Add the gold/silver bonus to a spaceship variant.")


def _variant(position: Position, name: str | None, gold_silver: bool) -> Variant:
    """--variant if given, else the file's (basic if it names none); --gold-silver adds
    the bonus rows."""
    if name is not None:
        return parse_variant(name, gold_silver)
    variant = position.variant or Variant()
    return replace(variant, gold_silver=True) if gold_silver else variant


def _json(result: object, state: GameState, all_seeing: bool,
          more: list[str] | None = None, reading: str | None = None) -> str:
    """A command's JSON with what it used: `knows` and `unknown` of the state it
    answered on (solver.game.knowledge), `more` known besides, and whether the answer
    sees what no player can (`all_seeing`, with the `reading` that says how)."""
    data = to_jsonable(result)
    known = knowledge(GAME, state)
    data.update(knows=known["knows"] + (more or []),
                unknown=[] if all_seeing else known["unknown"], all_seeing=all_seeing)
    if reading:
        data["reading"] = reading
    return json.dumps(data, indent=2, ensure_ascii=False)


HINDSIGHT = ("hindsight, all-seeing: every tile of the draw and its call order known in "
             "advance (no player knows them; an upper reference for what a player scores)")
FREE_CHOICE = ("all-seeing: the best board over every choice of tiles and order (no game a "
               "player plays; the upper bound of the score)")


@click.group()
def group() -> None:
    """Take it Higher!: score sheets, boards, proven maximal scores."""


@group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@variant_option(None)
@gold_silver_option
@rules_option
@json_option
@svg_option
def score(file: str, variant: str | None, gold_silver: bool, rules_path: str | None,
          as_json: bool, svg_path: str | None) -> None:
    """The score sheet of the board in FILE; spaceship launches are replayed in the
    recorded order and checked against the chosen rules."""
    from models.take_it_higher import queries
    from models.take_it_higher.render import board_svg, board_text, sheet_table

    rules = load_rules(rules_path)
    position = load_position(rules, file)
    chosen = _variant(position, variant, gold_silver)
    sheet = queries.score(position, chosen)
    ships = {p.cell: p.launch for p in position.placements if p.launch}
    if svg_path:
        board_svg(rules, position.board, ships, title=f"{sheet.total} points").save(svg_path)
    if as_json:
        print_json(_json(sheet, replay(position, chosen), False))
        return
    stdout.print(board_text(rules, position.board, ships))
    stdout.print(sheet_table(sheet))
    if not sheet.complete:
        stdout.print(f"[yellow]The board is not full ({len(position.placements)} of "
                     f"{rules.board_size} tiles); only completed rows score.[/yellow]")


@group.command(name="max")
@variant_option("basic")
@gold_silver_option
@click.option("--draw", help="Tiles that must all be placed, in call order (e.g. GJ,SA,...).")
@click.option("--backend", type=click.Choice(MAX_BACKENDS), default="auto",
              show_default=True,
              help="auto: CP-SAT and PySAT RC2 MaxSAT race in two processes, the first "
                   "proof wins (--workers N: MaxSAT takes one, CP-SAT N-1); cpsat or "
                   "maxsat: that back-end alone. With --draws, auto picks one back-end "
                   "for all draws (docs).")
@click.option("--draws", type=count_range(), default=None,
              help="The distribution of hindsight optima over N random draws (draw i "
                   "is dealt from --seed*1000003+i, like simulate's game i); "
                   "--time-limit per draw.")
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
    hindsight optima of N random draws, each a task (--jobs / --scheduler / --store).
    --time-limit: seconds for the whole answer, counted from the command's start (with
    --draws: per draw)."""
    rules = load_rules(rules_path)
    v = parse_variant(variant, gold_silver)
    if draws is not None:
        from models.take_it_higher.draws import draws_batch
        from solver.executor import interrupted_note
        from solver.store import store_at

        if draw or svg_path:
            raise BadInput("--draws cannot be combined with --draw or --svg")
        with store_at(store_path) as store:
            many = draws_batch(rules, v, draws, solver.seed, backend, solver.time_limit,
                               batch, store, resume)
        if as_json:
            # every draw is a dealt game: its tiles and their order known (draw 0 shown)
            dealt = dealt_game(rules, v, game_draw(rules, task_seed(solver.seed, 0)))
            print_json(_json(many, dealt, True, reading=HINDSIGHT))
        else:
            _print_draws(many)
        interrupted_note(many.interrupted, len(many.records), draws, store_path)
        return
    if store_path or resume or batch.scheduler:
        raise BadInput("--store, --resume and --scheduler need --draws N")
    from models.take_it_higher.maximum import maximise
    from models.take_it_higher.render import board_svg, board_text, sheet_table

    tiles = parse_draw(rules, draw) if draw else None
    if backend == "auto":
        from models.take_it_higher.auto import maximise_auto

        result = maximise_auto(rules, v, tiles, solver)
    else:
        result = maximise(rules, v, tiles, backend, solver)
    board = {c: rules.tile_by_id[t] for c, t in result.board.items()}
    if svg_path:
        board_svg(rules, board, title=f"{result.score} points ({result.status})").save(svg_path)
    if as_json:
        if tiles is not None and len(tiles) == rules.board_size:
            print_json(_json(result, dealt_game(rules, v, tiles), True, reading=HINDSIGHT))
        else:
            more = ["the tiles of --draw and their call order"] if tiles else []
            print_json(_json(result, GameState(rules, v), True,
                             [*more, "the other tiles to be called: chosen freely"],
                             FREE_CHOICE))
        return
    stdout.print(board_text(rules, board))
    stdout.print(sheet_table(result.sheet))
    by = _backend_text(result)
    if result.status == "optimal":
        stdout.print(f"[bold green]Maximum {result.score}, proven optimal[/bold green] "
                     f"({by}, {result.seconds:.2f} s)")
    else:
        stdout.print(f"[bold yellow]Best found {result.score}; the maximum is at most "
                     f"{result.bound}[/bold yellow] (time limit reached, {by}, "
                     f"{result.seconds:.2f} s)")
    stdout.print("Placements: " + " ".join(result.placements))


def _draws_backend_text(result: DrawsResult) -> str:
    if result.backend == result.solved_with or not result.solved_with:
        return result.backend
    return f"{result.backend}: {result.solved_with} for every draw"


def _backend_text(result: object) -> str:
    """"cpsat", or for auto which back-end proved it ("auto: proved by maxsat") or,
    unproven, whose board and whose bound."""
    backend = getattr(result, "backend", "")
    if backend != "auto":
        return backend
    proved_by = getattr(result, "proved_by", None)
    if proved_by is not None:
        return f"auto: proved by {proved_by}"
    best_by, bound_by = getattr(result, "best_by", None), getattr(result, "bound_by", None)
    return f"auto: board by {best_by}, bound by {bound_by}"


@group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--tile", "tile_text", default=None,
              help="The called tile, e.g. GJ (default: the file's called tile).")
@variant_option(None)
@gold_silver_option
@click.option("--samples", type=click.IntRange(0, 1000), default=0, show_default=True,
              help="Sampled futures (0: as many as the time limit allows; K > 0: exactly "
                   "K futures and fixed solver work, reproducible, --time-limit unused).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the futures.")
@click.option("--time-limit", type=seconds(0.05), default=2.0, show_default=True,
              help="Seconds for the whole hint.")
@click.option("--exact", is_flag=True,
              help="Small boards: each cell's exact expected final score under the best "
                   "play, every set of tiles to come averaged (no sample; basic and "
                   "gold/silver rules; too many positions is an error).")
@click.option("--learned", is_flag=True,
              help="Rank the cells by the learned value of boards (no sample, no solver: "
                   "an honest player's expected points, learned by self-play; with "
                   "spaceships each cell's launch and the ring too when the values were "
                   "learned with the game's spaceship rules).")
@click.option("--values", "values_path", type=click.Path(dir_okay=False), default=None,
              help="With --learned: a values file of 'toppi take-it-higher learn' "
                   "(default: the built-in board's).")
@click.option("--lookahead", type=click.IntRange(0, 1000), default=None,
              help=f"With --learned: the best cells valued one call deeper [default: "
                   f"{LOOKAHEAD}].")
@click.option("--futures", type=click.IntRange(0, 100_000), default=None,
              help=f"With --learned: those cells valued on this many sampled futures, the "
                   f"same for each, from --seed (0: one call ahead, exactly) [default: "
                   f"{FUTURES}].")
@click.option("--calls", type=click.IntRange(1, 1000), default=None,
              help=f"With --learned: the calls each sampled future plays on before the "
                   f"learned value of its board [default: {CALLS}].")
@quiet_option
@rules_option
@json_option
def hint(file: str, tile_text: str | None, variant: str | None, gold_silver: bool,
         samples: int, seed: int, time_limit: float, exact: bool, learned: bool,
         values_path: str | None, lookahead: int | None, futures: int | None,
         calls: int | None, rules_path: str | None, as_json: bool) -> None:
    """Where to put the called tile on the board in FILE: cells ranked by estimated final
    score over sampled futures (the tiles still to come are unknown)."""
    from models.take_it_higher.hint import hint as run_hint
    from models.take_it_higher.render import board_text, hint_table

    rules = load_rules(rules_path)
    position = load_position(rules, file)
    state = replay(position, _variant(position, variant, gold_silver))
    if tile_text is not None:
        tile = rules.parse_tile(tile_text, "--tile")
        if state.called is not None and state.called != tile:
            raise BadInput(f"--tile {tile.id}: the file calls {state.called.id}")
    elif state.called is not None:
        tile = state.called
    else:
        raise BadInput("--tile: give the called tile (the file calls none)")
    if exact and learned:
        raise BadInput("--exact and --learned: choose one")
    if not learned and any(o is not None for o in (values_path, lookahead, futures, calls)):
        raise BadInput("--values, --lookahead, --futures and --calls are options of "
                       "--learned")
    if learned:
        from models.take_it_higher.learned.policy import learned_cells
        from models.take_it_higher.render import learned_table

        result = learned_cells(state, tile, LOOKAHEAD if lookahead is None else lookahead,
                               values_path, futures=FUTURES if futures is None else futures,
                               calls=CALLS if calls is None else calls, seed=seed)
        table = learned_table
    elif exact:
        from models.take_it_higher.exact import exact_cells
        from models.take_it_higher.render import exact_table

        result, table = exact_cells(state, tile), exact_table
    else:
        # the whole command within the limit: what imports and reading took is spent
        result = run_hint(state, tile, samples=samples, seed=seed,
                          time_limit=max(0.05, time_limit - since_start()))
        table = hint_table
    if as_json:
        # the player's view: the board, the ships, the called tile (and the tiles the
        # file knows to come); the tiles to come are sampled or averaged, their order
        # never read
        used = state if state.called is not None else state.apply_action(tile)
        print_json(_json(result, used, False))
        return
    stdout.print(board_text(rules, state.board, state.ships_on))
    stdout.print(table(result))


@group.command()
@variant_option("basic")
@gold_silver_option
@click.option("--games", type=click.IntRange(1, 10 ** 8), default=200_000, show_default=True,
              help="Games of self-play.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the draws.")
@click.option("--out", "out", type=click.Path(dir_okay=False, writable=True), required=True,
              help="The values file to write (.json, or .json.gz compressed).")
@click.option("--resume", "resume", type=click.Path(dir_okay=False), default=None,
              help="Go on learning from this values file.")
@click.option("--step", type=click.FloatRange(0, 1, min_open=True), default=ALPHA,
              show_default=True,
              help="The step size of the first half of the games (a third of it after).")
@click.option("--ship-chances/--no-ship-chances", "chances", default=None,
              help="Ship tables read the ships' chances (the lines that may still launch "
                   "each ship). Default: new ship tables do, resumed ones as learned.")
@click.option("--cell-fits/--no-cell-fits", "fits", default=None,
              help="The tables read each empty cell's fits (how many unseen tiles suit "
                   "every line through it). Default: as the resumed tables, else off.")
@click.option("--lambda", "lam", type=click.FloatRange(0, 1, max_open=True), default=0.0,
              show_default=True,
              help="TD(lambda): each game's boards move toward their lambda-returns after "
                   "the game (0: TD(0), learning during the game).")
@quiet_option
@rules_option
def learn(variant: str, gold_silver: bool, games: int, seed: int, out: str,
          resume: str | None, step: float, chances: bool | None, fits: bool | None,
          lam: float, rules_path: str | None) -> None:
    """Learn a value of boards by self-play (temporal differences), for the learned
    policy and `hint --learned`; the same seed and games give the same file. With
    spaceship rules the values count the ring's bonus and the launches too (the rows'
    values serve every spaceship game as well, launching greedily)."""
    from models.take_it_higher.learned.files import load_values
    from models.take_it_higher.learned.td import train

    rules = load_rules(rules_path)
    scoring = parse_variant(variant, gold_silver)
    start = load_values(Path(resume), rules, scoring) if resume else None
    with live_status("learn", None, unit="games") as status:
        values = train(rules, scoring, games, seed, alpha=step, values=start,
                       progress=lambda n, mean: status.step(n, None), chances=chances,
                       fits=fits, lam=lam)
    values.save(Path(out))
    stderr.print(f"{values.games:,} games learned; {len(values.weights):,} table entries "
                 f"written to {out}")


@group.command()
@rules_option
@json_option
def tiles(rules_path: str | None, as_json: bool) -> None:
    """The tile set: each tile's stripes and stud."""
    from rich.table import Table
    from rich.text import Text

    from models.take_it_higher import queries

    rules = load_rules(rules_path)
    if as_json:
        print_json(dumps(queries.tile_set(rules)))
        return
    table = Table(title=rules.name)
    table.add_column("tile")
    for d in rules.directions:
        table.add_column(d.name)
    for t in rules.tiles:
        table.add_row(t.id, *[Text(s, style=rules.colour_rgb[s]) for s in t.stripes])
    stdout.print(table)


def _print_draws(result: DrawsResult) -> None:
    from rich.table import Table

    if result.draws <= 20:
        per_draw = Table(title="Draws", caption="? = best found in --time-limit, not proven")
        for name in ("draw", "seed", "hindsight optimum", "seconds"):
            per_draw.add_column(name, justify="right")
        for r in result.records:
            opt = "-" if r.score is None else f"{r.score}{'' if r.proven else '?'}"
            per_draw.add_row(str(r.draw), str(r.seed), opt, f"{r.seconds:.2f}")
        stdout.print(per_draw)
    table = Table(title=f"Hindsight optimum over {result.draws} draws",
                  caption=f"{result.variant}, {_draws_backend_text(result)}, "
                          f"{result.seconds:.1f} s")
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


add_game_commands(group, GAME)
# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs
add_puzzle_commands(group, PuzzleGame.from_module("models.take_it_higher.puzzles",
                                                  "take-it-higher", BACKENDS))
