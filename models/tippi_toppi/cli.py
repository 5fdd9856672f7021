"""`toppi tippi-toppi ...`: the shared play and puzzle commands, and a thin layer over
achievable.py, hint.py and reachable.py. The solvers and the printing of tables are
imported inside the commands that use them, so the group loads quickly."""

from __future__ import annotations

import click

from models.tippi_toppi import achievable as achievable_query
from models.tippi_toppi.encode import CARD_MODES
from models.tippi_toppi.game import GAME
from models.tippi_toppi.positions import load_state
from models.tippi_toppi.rules import Rules, load_rules
from models.tippi_toppi.state import GameState
from solver.backends import SolverOptions
from solver.game import knowledge
from solver.game_cli import add_game_commands, knows_line, with_options
from solver.options import (
    SEED,
    json_option,
    open_hands_option,
    quiet_option,
    rules_option,
    seconds,
    solver_options,
)
from solver.puzzle_cli import PuzzleGame, add_puzzle_commands
from solver.render import print_json, stderr, stdout
from solver.results import dumps, to_jsonable


@click.group()
def group() -> None:
    """Tippi Toppi (card game): tasks, achievability, hints, can we still win."""


def _load(file: str, rules_path: str | None, comparisons: str | None
          ) -> tuple[Rules, GameState]:
    rules = load_rules(rules_path, comparisons)
    return rules, load_state(rules, file)


file_argument = click.argument("file", type=click.Path(dir_okay=False))


def _answer(result: object, used: GameState, **extra: object) -> str:
    """A command's JSON: its result, what it says of itself, and what the position it
    answered on holds (`knows`) and leaves unknown."""
    return dumps({**to_jsonable(result), **extra, **knowledge(GAME, used)})


def _cards_view(state: GameState, cards: str) -> GameState:
    """What `achievable --cards` reads of the position: the player on turn's view
    (hand), every hand but not the order of the draw pile nor the task pile (hands), or
    everything (known)."""
    from models.tippi_toppi.hint import check_hand_known

    if cards == "hand":
        check_hand_known(state, "--cards hand")
        return GAME.observation(state, state.turn)
    if cards == "hands":
        s = state.copy()
        s.draw_pile = None
        s.hidden_tasks += len(s.task_pile)
        s.task_pile = []
        return s
    return state
# --comparisons: the reading of sums and comparisons, as in show, moves, simulate, play
comparisons_option = with_options(GAME.data_options)


@group.command()
@file_argument
@click.option("--task", "task_texts", multiple=True,
              help="A task to fulfil instead of the open tasks (repeatable).")
@click.option("--within", type=click.IntRange(0, 40), default=6, show_default=True,
              help="Number of plays K.")
@click.option("--cards", type=click.Choice(CARD_MODES), default="known", show_default=True,
              help="hand: the player's own cards; hands: all hands (open play); "
                   "known: all hands and the draw pile in order.")
@click.option("--backend", type=click.Choice(achievable_query.BACKENDS), default="sat",
              show_default=True, help="PySAT (incremental, cores) or CP-SAT.")
@rules_option
@comparisons_option
@solver_options(default_time=60.0)
@json_option
def achievable(file: str, task_texts: tuple[str, ...], within: int, cards: str, backend: str,
               rules_path: str | None, comparisons: str | None, solver: SolverOptions,
               as_json: bool) -> None:
    """Can the open tasks (or each --task) all be fulfilled within K plays? Yes with a
    line of plays (re-checked by the rules engine), or no with the smallest set of the
    tasks that blocks it."""
    from rich.markup import escape

    rules, state = _load(file, rules_path, comparisons)
    tasks = [rules.parse_task(t, "--task") for t in task_texts]
    if cards == "known":  # the query names what is missing
        used = state
    else:
        used = _cards_view(state, cards)
    result = achievable_query.achievable(used, tasks or None, within, cards, backend, solver)
    if as_json:
        print_json(_answer(result, used))
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
def tasks_command(rules_path: str | None, as_json: bool) -> None:
    """The task catalogue (modelled on the rulebook; the real cards are unpublished)."""
    from rich.markup import escape
    from rich.table import Table

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


OPEN_HANDS_LABEL = ("open hands: an all-seeing reference that reads every hand the file "
                    "gives, not a hint a player may use at the table")


@group.command()
@file_argument
@open_hands_option
@rules_option
@comparisons_option
@json_option
def hint(file: str, open_hands: bool, rules_path: str | None, comparisons: str | None,
         as_json: bool) -> None:
    """Which card on which pile for the player on turn: every legal play ranked, with its
    reasons (tasks fulfilled now, tasks kept within reach, piles kept playable for the
    others). It reads only what that player sees at the table (own hand, piles, tasks,
    counts), even when the file gives every hand, unless --open-hands."""
    from models.tippi_toppi.hint import hint_at_table
    from models.tippi_toppi.render import hint_table, table_text

    rules, state = _load(file, rules_path, comparisons)
    used, result = hint_at_table(state, open_hands)
    if as_json:
        print_json(_answer(result, used))
        return
    stdout.print(table_text(used))
    if open_hands:
        stdout.print(f"[bold yellow]Open hands[/bold yellow]: {OPEN_HANDS_LABEL}.")
    if not result.options:
        if state.variant.high_speed and state.players > 1:
            stdout.print(f"[bold red]No legal play[/bold red]: player {result.player} "
                         "cannot play now (pass the initiative on).")
        else:
            stdout.print(f"[bold red]No legal play[/bold red]: player {result.player} "
                         "cannot play, the game is lost.")
        return
    stdout.print(hint_table(result))


@group.command()
@file_argument
@click.option("--samples", type=click.IntRange(1, 100000), default=200, show_default=True,
              help="Deals of the hidden cards (when not everything is known).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the deals.")
@click.option("--time-limit", type=seconds(0.01), default=10.0,
              show_default=True, help="Seconds for the exact search (full information) or "
              "the sampling (it then answers over the deals played, exit 3).")
@open_hands_option
@quiet_option
@rules_option
@comparisons_option
@json_option
def reachable(file: str, samples: int, seed: int, time_limit: float, open_hands: bool,
              rules_path: str | None, comparisons: str | None, as_json: bool) -> None:
    """Can the game still be won? From what the player on turn may know: the hint
    policy's win rate over sampled hidden cards with a 95 % Wilson interval. With
    --open-hands and full information (all hands, the draw pile and the task pile
    known): exact."""
    from models.tippi_toppi.reachable import reachable as run_reachable

    rules, state = _load(file, rules_path, comparisons)
    seen = state
    if not open_hands and GAME.current_player(state) >= 0:
        seen = GAME.observation(state, GAME.current_player(state))
    result = run_reachable(seen, samples, seed, time_limit)
    if as_json:
        print_json(_answer(result, seen, open_hands=open_hands))
        _stopped(result, samples, time_limit)
        return
    if result.method == "exact":
        if result.answer == "yes":
            stdout.print(f"[bold green]Yes[/bold green], the game can still be won "
                         f"({len(result.line)} plays, checked by the rules engine):")
            stdout.print(" ".join(result.line) or "(already won)")
        elif result.answer == "no":
            stdout.print(f"[bold red]No[/bold red], the game cannot be won: proven by SAT "
                         f"over every line of the remaining plays ({result.seconds:.1f} s)")
        else:
            stdout.print(f"[yellow]Unknown[/yellow]: no winning line found and the search "
                         f"was not finished in {time_limit:g} s ({result.nodes} positions)")
        stdout.print(knows_line(GAME, seen, open_hands))
        return
    rate = result.rate
    assert rate is not None
    stdout.print(f"Not everything is known: the hint policy won {rate.successes} of "
                 f"{rate.trials} sampled deals = {100 * rate.rate:.1f}% "
                 f"(95% interval {100 * rate.low:.1f}-{100 * rate.high:.1f}%)")
    stdout.print(knows_line(GAME, seen, open_hands))
    _stopped(result, samples, time_limit)


def _stopped(result: object, samples: int, time_limit: float) -> None:
    """Sampling cut by the time limit: say so on stderr and exit 3 (the answer over the
    deals played is printed already)."""
    if getattr(result, "stopped", False):
        stderr.print(f"[yellow]Time limit of {time_limit:g} s: {result.samples} of "
                     f"{samples} deals played.[/yellow]")
        raise SystemExit(3)


add_game_commands(group, GAME)
# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs;
# a puzzle is solved by the plan encoding on the back-ends of `achievable`. generate
# takes --comparisons and writes the reading into each puzzle file; solve, check-unique
# and sheet solve a file under the reading it records (or the rules data's).
add_puzzle_commands(group, PuzzleGame.from_module("models.tippi_toppi.puzzles", "tippi-toppi",
                                                  achievable_query.BACKENDS,
                                                  GAME.data_options))
