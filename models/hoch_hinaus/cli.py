"""`toppi hoch-hinaus ...`: a thin layer over queries.py."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from models.hoch_hinaus import queries
from models.hoch_hinaus.achieve import BACKENDS, TILE_MODES
from models.hoch_hinaus.achieve import achievable as run_achievable
from models.hoch_hinaus.play import POLICIES
from models.hoch_hinaus.play import reachable as run_reachable
from models.hoch_hinaus.play import simulate as run_simulate
from models.hoch_hinaus.puzzles import puzzle_game
from models.hoch_hinaus.render import board_svg, board_text
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.tasks import load_catalogue
from solver.backends.common import SolverOptions
from solver.errors import BadInput
from solver.executor import Batch, batch_options, interrupted_note
from solver.options import json_option, rules_option, solver_options, svg_option
from solver.progress import progress_bar
from solver.puzzle_cli import add_puzzle_commands
from solver.render import print_json, stdout
from solver.results import dumps
from solver.store import store_at

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


@group.command()
@file_argument
@click.option("--horizon", type=click.IntRange(0, 4), default=2, show_default=True,
              help="Placements the SAT look-ahead checks the other open tasks over (0: off).")
@click.option("--top", type=click.IntRange(1, 100), default=8, show_default=True,
              help="Candidates checked by the SAT look-ahead.")
@click.option("--show", "shown", type=click.IntRange(1, 1000), default=8, show_default=True,
              help="Alternatives listed.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=1.3, show_default=True,
              help="Seconds for the look-ahead.")
@rules_option
@tasks_option
@pros_option
@json_option
@svg_option
def hint(file: str, horizon: int, top: int, shown: int, time_limit: float,
         rules_path: str | None, tasks_path: str | None, pros: bool | None, as_json: bool,
         svg_path: str | None) -> None:
    """The best placement for the player on turn in FILE, with ranked alternatives."""
    from models.hoch_hinaus.hint import hint as run_hint

    ctx = _ctx(file, rules_path, tasks_path, pros)
    if not ctx.game.hands:
        raise BadInput("hint needs a game state with hands (the player on turn)")
    result = run_hint(ctx.game, horizon=horizon, top=top, time_limit=time_limit)
    result.options = result.options[:shown]
    if svg_path and result.options:
        b = ctx.game.board.copy()
        b.apply(result.options[0].action)
        board_svg(b, "after: " + result.options[0].placement["text"]).save(svg_path)
    if as_json:
        print_json(dumps(result))
        return
    stdout.print(board_text(ctx.game.board))
    if not result.options:
        stdout.print(f"[bold red]{result.note}[/bold red]")
        return
    table = Table(title=f"Player {result.player}: best placements ({result.legal} legal, "
                        f"{result.checked} checked {horizon} placements ahead, "
                        f"{result.seconds:.2f} s)")
    table.add_column("#", justify="right")
    table.add_column("placement")
    table.add_column("score", justify="right")
    table.add_column("why")
    for i, o in enumerate(result.options, 1):
        table.add_row(str(i), o.placement["text"], f"{o.score:.1f}", o.reason)
    stdout.print(table)


@group.command()
@file_argument
@click.option("--samples", type=click.IntRange(1, 100000), default=40, show_default=True,
              help="Sampled completions of the unknown information.")
@click.option("--policy", type=click.Choice(POLICIES), default="hint", show_default=True,
              help="How the sampled games are played (greedy: the hint without its SAT "
                   "look-ahead).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=60.0,
              show_default=True, help="Seconds for the search or the sampling.")
@rules_option
@tasks_option
@pros_option
@json_option
def reachable(file: str, samples: int, policy: str, seed: int, time_limit: float,
              rules_path: str | None, tasks_path: str | None, pros: bool | None,
              as_json: bool) -> None:
    """Can the game in FILE still be won? Everything known (reserve order, every task):
    an exact search with a winning line; otherwise the win probability of a policy over
    sampled completions, with its 95% Wilson interval."""
    ctx = _ctx(file, rules_path, tasks_path, pros)
    with progress_bar("sampling games") as update:
        result = run_reachable(ctx.game, ctx.catalogue.tasks, samples, policy, seed,
                               time_limit, update)
    if as_json:
        print_json(dumps(result))
        return
    stdout.print(board_text(ctx.game.board))
    if result.method == "exact":
        colour = {"won": "green", "lost": "red"}.get(result.answer, "yellow")
        how = {"won": "proven: the winning line below, replayed by the rules engine",
               "lost": "proven by exhaustive search"}.get(result.answer, "not proven")
        stdout.print(f"[bold {colour}]{result.answer.upper()}[/bold {colour}] ({how}; "
                     f"{result.nodes} positions searched, {result.seconds:.2f} s)")
        for i, s in enumerate(result.line, 1):
            done = f"  → fulfils {'; '.join(s.fulfils)}" if s.fulfils else ""
            stdout.print(f"  {i}. player {s.player}: {s.placement['text']}{done}")
    else:
        r = result.rate
        stdout.print(f"Win probability under the {result.policy} policy: "
                     f"[bold]{r.rate:.1%}[/bold] (95% interval {r.low:.1%}-{r.high:.1%}; "
                     f"{r.successes} of {r.trials} sampled games won, {result.seconds:.1f} s)")
    if result.note:
        stdout.print(result.note)


@group.command()
@click.option("--games", type=click.IntRange(1, 100000), default=20, show_default=True,
              help="Deals; each policy plays every deal.")
@click.option("--difficulty", type=click.Choice(["first", "normal", "advanced", "pros",
                                                 "champions"]), default="normal",
              show_default=True, help="Size of the draw pile (rules data).")
@click.option("--players", type=click.IntRange(1, 4), default=2, show_default=True)
@click.option("--policy", "policies", multiple=True, type=click.Choice(POLICIES),
              help="Policies to compare (default: hint and random).")
@click.option("--pros", is_flag=True, help="Play with the Pros placement rule.")
@click.option("--side", type=click.Choice(["blue", "purple"]), default="blue",
              show_default=True)
@click.option("--seed", type=int, default=0, show_default=True,
              help="Deal i is dealt from seed*7919+i and played from seed*104729+i.")
@click.option("--hint-time", type=click.FloatRange(min=0), default=0.0, show_default=True,
              help="Seconds per move for the hint policy's look-ahead; 0: no clock, "
                   "its SAT conflict budget alone (games replay exactly anywhere).")
@batch_options
@rules_option
@tasks_option
@json_option
def simulate(games: int, difficulty: str, players: int, policies: tuple[str, ...],
             pros: bool, side: str, seed: int, hint_time: float, batch: Batch,
             store_path: str | None, resume: bool, rules_path: str | None,
             tasks_path: str | None, as_json: bool) -> None:
    """Win rates of the hint policy and of random legal play on the same seeded deals.
    Each (deal, policy) game is a task: --jobs / --scheduler spread them, --store
    keeps them, --resume finishes an interrupted run."""
    rules = load_rules(rules_path)
    cat = load_catalogue(rules, tasks_path)
    wanted = list(dict.fromkeys(policies)) or ["hint", "random"]
    with store_at(store_path) as store:
        result = run_simulate(rules, cat.tasks, games, difficulty, players, wanted, seed,
                              pros, side, batch, store, resume, hint_time or None)
    total = games * len(wanted)
    if as_json:
        print_json(dumps(result))
        interrupted_note(result.interrupted, len(result.records), total, store_path, "games")
        return
    clock = "no clock" if result.hint_time is None else f"{result.hint_time:g} s a move"
    table = Table(title=f"{games} deals, {difficulty}, {players} player(s)"
                        f"{', Pros' if pros else ''}, {side} side, seed {seed}",
                  caption=f"{result.seconds:.1f} s, {result.executor}"
                          + (f"; hint look-ahead: {clock}" if "hint" in wanted else ""))
    for col in ("policy", "won", "win rate", "95% interval", "tasks done", "turns"):
        table.add_column(col)
    for p in result.policies:
        table.add_row(p.policy, f"{p.rate.successes}/{p.rate.trials}", f"{p.rate.rate:.1%}",
                      f"{p.rate.low:.1%}-{p.rate.high:.1%}", f"{p.mean_tasks_completed}",
                      f"{p.mean_turns}")
    stdout.print(table)
    interrupted_note(result.interrupted, len(result.records), total, store_path, "games")


add_puzzle_commands(group, puzzle_game())
