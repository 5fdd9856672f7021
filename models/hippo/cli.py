"""`toppi hippo ...`: the shared show / moves / simulate / play commands from the game's
description (game.py), and Hippo's own questions: best, plan, finish, puzzles. Solvers
and the printing of tables are imported inside the commands that use them, so the group
loads quickly."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from models.hippo.game import GAME, foreign_first_option
from models.hippo.notation import parse_move, parse_roll, parse_rolls
from models.hippo.plan import BACKENDS as PUZZLE_BACKENDS
from models.hippo.positions import load_state
from models.hippo.rules import Rules, load_rules
from models.hippo.state import GameState
from solver.backends import SolverOptions
from solver.errors import BadInput
from solver.game import knowledge
from solver.game_cli import add_game_commands
from solver.options import (
    json_option,
    quiet_option,
    rules_option,
    seconds,
    solver_options,
    svg_option,
)
from solver.puzzle_cli import PuzzleGame, add_puzzle_commands
from solver.render import print_json, stdout
from solver.results import to_jsonable

if TYPE_CHECKING:
    from rich.text import Text


@click.group()
def group() -> None:
    """Hippo: options of a roll, the best placement, plans for known rolls, finishing
    chances, simulated games."""


def _load(file: str, rules_path: str | None, foreign_first: str | None
          ) -> tuple[Rules, GameState]:
    rules = load_rules(rules_path, foreign_first)
    return rules, load_state(rules, file)


def reading_option(f: Callable) -> Callable:
    """--foreign-first (models/hippo/game.py), as every Hippo command takes it."""
    f.__click_params__ = [*getattr(f, "__click_params__", []), foreign_first_option]
    return f


def _json(result: object, state: GameState, all_seeing: bool,
          more: list[str] | None = None, **extra: object) -> str:
    """A command's JSON with what it used: `knows` and `unknown` of the state it
    answered on (solver.game.knowledge), `more` known besides (e.g. the rolls of a
    plan), and whether the answer sees what a player cannot (`all_seeing`)."""
    data = to_jsonable(result)
    known = knowledge(GAME, state)
    data.update(extra)
    data.update(knows=known["knows"] + (more or []), unknown=known["unknown"],
                all_seeing=all_seeing)
    return json.dumps(data, indent=2, ensure_ascii=False)


def _who(state: GameState) -> Text:
    from rich.text import Text

    colour = state.colours[state.to_move]
    t = Text()
    t.append(colour, style=f"bold {state.rules.rgb(colour)}")
    return t


@group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--roll", "roll_text", default=None,
              help="The dice, e.g. 6,4,2 (default: the position file's roll).")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="Alternatives shown (JSON lists all).")
@reading_option
@rules_option
@json_option
@svg_option
def best(file: str, roll_text: str | None, top: int, rules_path: str | None,
         foreign_first: str | None, as_json: bool, svg_path: str | None) -> None:
    """The best placement for the roll: most chips shed this turn (a bonus roll counted
    by its exact expectation over all 216 outcomes), ties broken by least exposure (own
    chips the other players can kick out next, weighed by the chance of their rolls)."""
    from rich.table import Table
    from rich.text import Text

    from models.hippo import queries
    from models.hippo.render import pool_svg, pool_text

    rules, state = _load(file, rules_path, foreign_first)
    if roll_text is not None:
        roll = parse_roll(rules, roll_text)
    elif state.roll is not None:
        roll = state.roll
    else:
        raise BadInput("--roll: give the dice (e.g. --roll 6,4,2); the position file has "
                       "no roll")
    result = queries.best(state, roll)
    if svg_path:
        after = state.apply_action(parse_move(state, result.best))
        pool_svg(after, title=f"after {', '.join(result.best)}").save(svg_path)
    if as_json:
        # the state answered on: the file's, with the roll placed; dice not yet thrown
        # (a bonus roll) are averaged exactly, never sampled
        used = state if state.roll == roll else state.rolled(roll)
        print_json(_json(result, used, False, samples=None,
                         chance="exact: every bonus roll averaged over all "
                                f"{rules.faces ** rules.dice} throws of the dice"))
        return
    stdout.print(pool_text(state))
    line = Text("Roll " + "+".join(map(str, roll)) + " for ")
    line.append_text(_who(state))
    line.append(": best ")
    line.append(", ".join(result.best), style="bold green")
    line.append(f"  (expected {result.expected_shed:.3f} chips shed this turn, exposure "
                f"{result.exposure:.3f}; proven over all results, {result.seconds*1000:.1f} ms)")
    stdout.print(line)
    table = Table(caption="exposure: own chips the other players can kick out next, "
                          "weighed by the chance of their rolls")
    for h in ("rank", "placements (in order)", "shed now", "bonus roll", "expected shed",
              "exposure"):
        table.add_column(h, justify="left" if h.startswith("placements") else "right")
    for o in result.options[:top]:
        table.add_row(str(o.rank), ", ".join(o.placements), str(o.shed_now),
                      "won" if o.won else ("yes" if o.bonus_roll else ""),
                      f"{o.expected_shed:.4f}", f"{o.exposure:.4f}")
    stdout.print(table)
    if len(result.options) > top:
        stdout.print(f"... {len(result.options) - top} more (--top, --json)")


@group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--rolls", "rolls_text", required=True,
              help='The rolls in the order thrown, bonus rolls included: "6,4,2 5,5,1 ...".')
@click.option("--check", is_flag=True,
              help="Also solve by brute force (short sequences) and compare.")
@solver_options(default_time=60.0)
@reading_option
@rules_option
@json_option
def plan(file: str, rolls_text: str, check: bool, solver: SolverOptions,
         rules_path: str | None, foreign_first: str | None, as_json: bool) -> None:
    """Solo puzzle: the placements for a known sequence of rolls (the board stays as you
    leave it) that empty the stock in the fewest own turns, or shed the most chips if it
    cannot be emptied. CP-SAT over all the rolls; the plan is replayed by the rules
    engine."""
    from rich.table import Table

    from models.hippo.plan import brute_force, solve_plan
    from models.hippo.render import pool_text

    rules, state = _load(file, rules_path, foreign_first)
    rolls = parse_rolls(rules, rolls_text)
    result = solve_plan(state, rolls, solver)
    checked = None
    if check:
        if len(rolls) > 8:
            raise BadInput("--check: brute force is for at most 8 rolls")
        value, _ = brute_force(state, rolls)
        checked = value[0] * (rules.chips * state.players + 1) + value[1]
        if result.proven and checked != result.objective:
            raise RuntimeError(f"CP-SAT {result.objective} != brute force {checked}")
    if as_json:
        # all-seeing by nature: the rolls to come are given, in order
        extra = {"brute_force_objective": checked} if check else {}
        print_json(_json(result, replace(state, roll=None), True,
                         ["the rolls to come, in order (--rolls)"], **extra))
        return
    stdout.print(pool_text(state))
    table = Table(title=f"Plan for {result.player}: {len(rolls)} rolls")
    for h in ("roll", "turn", "dice", "placements (in order)", "stock after", "events"):
        table.add_column(h, justify="right" if h in ("roll", "turn", "stock after") else "left")
    for i, st in enumerate(result.steps, 1):
        table.add_row(str(i), str(st.turn) + (" (bonus)" if st.bonus_roll else ""),
                      "+".join(map(str, st.roll)), ", ".join(st.placements),
                      str(st.stock_after), "; ".join(st.events))
    stdout.print(table)
    how = ("[bold green]proven optimal[/bold green]" if result.proven else
           f"[bold yellow]best found, not proven[/bold yellow] (bound {result.bound})")
    if result.emptied:
        stdout.print(f"Stock emptied in {result.turns} turn(s): {how} "
                     f"(CP-SAT, {result.seconds:.2f} s)")
    else:
        stdout.print(f"The stock cannot be emptied with these rolls; at most "
                     f"{result.chips_shed} chips shed, {result.chips_left} left: {how} "
                     f"(CP-SAT, {result.seconds:.2f} s)")
    if check:
        stdout.print(f"Brute force agrees: objective {checked}.")


@group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--turns", type=click.IntRange(1, 12), default=3, show_default=True,
              help="Own turns (this one included): can I finish by my next turns?")
@click.option("--time-limit", type=seconds(0.1), default=120.0, show_default=True,
              help="Seconds from the start before giving up: exit 3 with the bounds known.")
@quiet_option
@reading_option
@rules_option
@json_option
def finish(file: str, turns: int, time_limit: float, rules_path: str | None,
           foreign_first: str | None, as_json: bool) -> None:
    """The exact chance that the player on turn empties the stock within N own turns if
    the others do not interfere (playing to maximise that chance), and the best case:
    the fewest turns in which the dice could let it happen. Three turns take about a
    second on the example positions; four take a second on an end game and 35-40 s in
    a crowded middle game (past the limit both bounds are given)."""
    import time

    from rich.table import Table

    from models.hippo.finish import finish as run_finish
    from models.hippo.render import pool_text
    from solver.options import deadline_in

    _, state = _load(file, rules_path, foreign_first)
    # the limit counts from the command's start (imports and reading the file included)
    result = run_finish(state, turns, deadline=deadline_in(time_limit, time.perf_counter))
    if as_json:
        # from before the dice of the file's turn, every roll averaged exactly
        # (`dice`, not `chance`: that key is the answer)
        print_json(_json(result, replace(state, roll=None), False,
                         dice="exact: every roll of every turn averaged over all "
                                f"{state.rules.faces ** state.rules.dice} throws"))
        return
    stdout.print(pool_text(state))
    table = Table(title=f"{result.player}: {result.stock} chips to shed, nobody else moving")
    for h in ("within turns", "chance", "exact"):
        table.add_column(h, justify="right")
    for row in result.by_turns:
        table.add_row(str(row.turns), f"{100 * row.chance:.4f}%", row.exact)
    stdout.print(table)
    best = (f"{result.best_case_turns} turn(s)" if result.best_case_turns is not None
            else "more than 12 turns")
    stdout.print(f"Best case (kindest dice): {best}. Exact DP over {result.states} "
                 f"positions, {result.seconds:.2f} s.")


add_game_commands(group, GAME)
# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs
# (generate takes --foreign-first; solve, check-unique and sheet pose each puzzle under
# the reading its file records, else the rules data's)
add_puzzle_commands(group, PuzzleGame.from_module("models.hippo.puzzles", "hippo",
                                                  PUZZLE_BACKENDS,
                                                  generate_options=(foreign_first_option,)))
