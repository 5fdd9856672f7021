"""`toppi hoch-hinaus ...`: the shared play commands (show, moves, simulate, play) from
the game's description, its own questions (achievable, hint, reachable) and the puzzle
commands. Solvers are imported inside the commands that use them, so the group loads
quickly."""

from __future__ import annotations

import click

from models.hoch_hinaus.achieve import BACKENDS, TILE_MODES
from models.hoch_hinaus.game import GAME, GameData
from models.hoch_hinaus.state import GameState
from solver.backends.common import SolverOptions
from solver.errors import BadInput
from solver.game import knowledge
from solver.game_cli import add_game_commands, knows_line
from solver.options import (
    SEED,
    json_option,
    open_hands_option,
    quiet_option,
    rules_option,
    seconds,
    solver_options,
    svg_option,
)
from solver.puzzle_cli import PuzzleGame, add_puzzle_commands
from solver.render import print_json, stdout
from solver.results import dumps, to_jsonable

tasks_option = click.option("--tasks", "tasks_path", type=click.Path(dir_okay=False),
                            help="Task catalogue file replacing the built-in one.")
pros_option = click.option("--pros/--basic", "pros", default=None,
                           help="Force the Pros placement rule on or off (default: the "
                                "file's 'variant').")
file_argument = click.argument("file", type=click.Path(dir_okay=False))


@click.group()
def group() -> None:
    """Tippi Toppi – Hoch Hinaus!: legal placements, tasks, achievability, hints."""


add_game_commands(group, GAME)


def _load(file: str, rules_path: str | None, tasks_path: str | None, pros: bool | None
          ) -> tuple[GameData, GameState]:
    data = GAME.load_rules(rules_path, tasks_path=tasks_path, pros=pros)
    return data, GAME.load_position(data, file)


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
    from models.hoch_hinaus.achieve import achievable as run_achievable
    from models.hoch_hinaus.render import board_text

    data, game = _load(file, rules_path, tasks_path, pros)
    tasks = [data.catalogue.parse(t, "--task") for t in task_texts] or \
        [t for t in game.open if t is not None]
    result = run_achievable(game, tasks, k, mode, backend, solver)
    if as_json:
        print_json(dumps({**knowledge(GAME, game), **to_jsonable(result)}))
        return
    stdout.print(board_text(game.board))
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
@click.option("--time-limit", type=seconds(0.1), default=1.3, show_default=True,
              help="Seconds for the look-ahead.")
@click.option("--samples", type=click.IntRange(1, 10000), default=16, show_default=True,
              help="Draws of what the player cannot see (other hands, the reserve's order, "
                   "face-down tasks), the same for every placement.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the draws.")
@open_hands_option
@quiet_option
@rules_option
@tasks_option
@pros_option
@json_option
@svg_option
def hint(file: str, horizon: int, top: int, shown: int, time_limit: float, samples: int,
         seed: int, open_hands: bool, rules_path: str | None, tasks_path: str | None,
         pros: bool | None, as_json: bool, svg_path: str | None) -> None:
    """The best placement for the player on turn in FILE, with ranked alternatives, from
    what that player may know: their own hand, the board, the open tasks, the gap fillers
    and how many tiles and tasks are unseen (the rest is drawn --samples times)."""
    from models.hoch_hinaus.hint import hint as run_hint
    from models.hoch_hinaus.queries import hint_table
    from models.hoch_hinaus.render import board_svg, board_text

    _, game = _load(file, rules_path, tasks_path, pros)
    if not game.hands:
        raise BadInput("hint needs a game state with hands (the player on turn)")
    if game.chance_due:
        raise BadInput("chance acts first in this position (a tile is drawn or a task "
                       "turned up): 'moves' lists the outcomes")
    seen = game if open_hands else game.observation(game.on_turn)
    result = run_hint(seen, horizon=horizon, top=top, time_limit=time_limit,
                      samples=samples, seed=seed)
    result.options = result.options[:shown]
    if svg_path and result.options:
        b = game.board.copy()
        b.apply(result.options[0].action)
        board_svg(b, "after: " + result.options[0].placement["text"]).save(svg_path)
    if as_json:
        print_json(dumps({"open_hands": open_hands, **knowledge(GAME, seen),
                          **to_jsonable(result)}))
        return
    stdout.print(board_text(game.board))
    stdout.print(hint_table(result, horizon))
    stdout.print(knows_line(GAME, seen, open_hands))


@group.command()
@file_argument
@click.option("--samples", type=click.IntRange(1, 100000), default=40, show_default=True,
              help="Sampled completions of the unknown information.")
@click.option("--policy", type=click.Choice(GAME.policy_names), default="hint", show_default=True,
              help="How the sampled games are played (greedy: the hint without its SAT "
                   "look-ahead).")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--time-limit", type=seconds(0.1), default=60.0,
              show_default=True, help="Seconds for the search or the sampling (cut by it: "
              "the answer over the samples played, exit 3).")
@open_hands_option
@quiet_option
@rules_option
@tasks_option
@pros_option
@json_option
def reachable(file: str, samples: int, policy: str, seed: int, time_limit: float,
              open_hands: bool, rules_path: str | None, tasks_path: str | None,
              pros: bool | None, as_json: bool) -> None:
    """Can the game in FILE still be won? From what the player on turn may know: the win
    probability of a policy over sampled completions of the unknowns, with its 95% Wilson
    interval, each player of the sampled games judging from their own view. With
    --open-hands and everything known (reserve order, every task): an exact search with
    a winning line."""
    from models.hoch_hinaus.reachable import reachable as run_reachable
    from models.hoch_hinaus.render import board_text
    from solver.progress import progress_bar

    _, game = _load(file, rules_path, tasks_path, pros)
    seen = game if open_hands or not game.hands else game.observation(game.on_turn)
    if seen.everything_known:  # the exact search shows its own status line
        result = run_reachable(seen, samples, policy, seed, time_limit)
    else:
        with progress_bar("sampling games") as update:
            result = run_reachable(seen, samples, policy, seed, time_limit, update,
                                   open_hands)
    if as_json:
        print_json(dumps({"open_hands": open_hands, **knowledge(GAME, seen),
                          **to_jsonable(result)}))
        if result.stopped:
            raise SystemExit(3)  # the answer over the samples played, printed above
        return
    stdout.print(board_text(game.board))
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
    stdout.print(knows_line(GAME, seen, open_hands))
    if result.stopped:
        raise SystemExit(3)


# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs
add_puzzle_commands(group, PuzzleGame.from_module("models.hoch_hinaus.puzzles", "hoch-hinaus",
                                                  BACKENDS))
