"""`toppi tippi-toppi ...`: a thin layer over queries.py and play.py."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from models.tippi_toppi import queries
from models.tippi_toppi.encode import CARD_MODES
from models.tippi_toppi.puzzles import puzzle_game
from models.tippi_toppi.render import table_svg, table_text
from models.tippi_toppi.rules import GameState, Rules, load_rules, load_state
from solver.backends import SolverOptions
from solver.executor import Batch, batch_options, interrupted_note
from solver.options import json_option, rules_option, solver_options, svg_option
from solver.puzzle_cli import add_puzzle_commands
from solver.render import print_json, stdout
from solver.results import dumps
from solver.store import store_at


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


@group.command()
@file_argument
@rules_option
@json_option
def hint(file: str, rules_path: str | None, as_json: bool) -> None:
    """Which card on which pile: every legal play ranked, with its reasons (tasks
    fulfilled now, tasks kept within reach, piles kept playable for the others)."""
    from models.tippi_toppi.play import hint as run_hint

    rules, state = _load(file, rules_path)
    result = run_hint(state)
    if as_json:
        print_json(dumps(result))
        return
    stdout.print(table_text(state))
    if not result.options:
        stdout.print(f"[bold red]No legal play[/bold red]: player {result.player} cannot "
                     "play, the game is lost.")
        return
    table = Table(title=f"Hint for player {result.player} ({result.seconds * 1000:.0f} ms)",
                  caption="fulfils: open tasks done by the play; in reach: open tasks your "
                          "other cards can do next; others help: share of the cards others "
                          "may hold that would fulfil an open task next; playable: share of "
                          "those cards that still fit a pile; own fit: your cards that fit")
    for c in ("#", "play", "score", "fulfils now", "in reach", "others help", "playable",
              "own fit"):
        table.add_column(c)
    for i, o in enumerate(result.options, 1):
        warn = " [red](next player stuck)[/red]" if o.next_stuck else ""
        table.add_row(str(i), o.play + warn, f"{o.score:.1f}", escape("; ".join(o.fulfils)) or "-",
                      escape("; ".join(o.in_reach)) or "-", f"{100 * o.others_help_share:.0f}%",
                      f"{100 * o.playable_share:.0f}%",
                      str(o.own_playable))
    stdout.print(table)


@group.command()
@file_argument
@click.option("--samples", type=click.IntRange(1, 100000), default=200, show_default=True,
              help="Deals of the hidden cards (when not everything is known).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deals.")
@click.option("--time-limit", type=click.FloatRange(min=0.01), default=10.0,
              show_default=True, help="Seconds for the exact search (full information).")
@rules_option
@json_option
def reachable(file: str, samples: int, seed: int, time_limit: float, rules_path: str | None,
              as_json: bool) -> None:
    """Can the game still be won? Exact with full information (all hands, the draw pile
    and the task pile known), otherwise the hint policy's win rate over sampled hidden
    cards with a 95 % Wilson interval."""
    from models.tippi_toppi.play import reachable as run_reachable

    rules, state = _load(file, rules_path)
    result = run_reachable(state, samples, seed, time_limit)
    if as_json:
        print_json(dumps(result))
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
        return
    rate = result.rate
    assert rate is not None
    stdout.print(f"Not everything is known: the hint policy won {rate.successes} of "
                 f"{rate.trials} sampled deals = {100 * rate.rate:.1f}% "
                 f"(95% interval {100 * rate.low:.1f}-{100 * rate.high:.1f}%)")


def _int_list(text: str, what: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"expected numbers separated by commas, got '{text}'",
                                 param_hint=what) from None


@group.command()
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games per player count, difficulty and policy.")
@click.option("--players", default="1,2,3,4", show_default=True,
              help="Player counts, comma separated.")
@click.option("--difficulty", "difficulty_text", default="all", show_default=True,
              help="Difficulties (beginner,normal,advanced,expert,champion or 1-5), comma "
                   "separated, or 'all'.")
@click.option("--policy", "policies", multiple=True, type=click.Choice(["hint", "random"]),
              help="Policies to compare (repeatable; default both).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Game g is dealt with seed + g (the same deals for every policy).")
@click.option("--high-speed", is_flag=True, help="High Speed: anyone may play (no timer).")
@click.option("--open-hands", is_flag=True, help="Open hands (Kids): hints see every hand.")
@batch_options
@rules_option
@json_option
def simulate(games: int, players: str, difficulty_text: str, policies: tuple[str, ...],
             seed: int, high_speed: bool, open_hands: bool, batch: Batch,
             store_path: str | None, resume: bool, rules_path: str | None,
             as_json: bool) -> None:
    """Win rates of the hint policy and of random legal play, by players and difficulty
    (95 % Wilson intervals). Each game is a task: --jobs / --scheduler spread them,
    --store keeps them (kind tippi_toppi_games), --resume continues a stored run."""
    from models.tippi_toppi.play import simulate as run_simulation
    from models.tippi_toppi.rules import Variant
    from solver.errors import BadInput

    rules = load_rules(rules_path)
    counts = _int_list(players, "--players")
    for p in counts:
        if p not in rules.task_counts:
            raise BadInput(f"--players: {p} players are not in the rules' task table")
    if difficulty_text.strip().lower() == "all":
        levels = list(range(len(rules.difficulties)))
    else:
        levels = [rules.parse_difficulty(d, "--difficulty")
                  for d in difficulty_text.split(",") if d.strip()]
    if not counts or not levels:
        raise BadInput("--players and --difficulty need at least one value each")
    pols = list(dict.fromkeys(policies)) or ["hint", "random"]
    counts, levels = list(dict.fromkeys(counts)), list(dict.fromkeys(levels))
    with store_at(store_path) as store:
        result = run_simulation(rules, games, counts, levels, pols, seed,
                                Variant(high_speed, open_hands), batch, store, resume)
    total = games * len(pols) * len(counts) * len(levels)
    if as_json:
        print_json(dumps(result))
        interrupted_note(result.interrupted, result.played, total, store_path, "games")
        return
    each = (f"{games} games each" if not result.interrupted
            else f"{result.played} of {total} games (interrupted)")
    table = Table(title=f"Win rates, {each} (seed {seed})",
                  caption=f"95% Wilson intervals; {result.seconds:.1f} s, {result.executor}")
    table.add_column("players", justify="right")
    table.add_column("difficulty")
    table.add_column("tasks", justify="right")
    for pol in pols:
        table.add_column(f"{pol} policy", justify="right")
    for p in counts:
        for d in levels:
            row = [str(p), rules.difficulties[d], str(rules.task_count(p, d))]
            for pol in pols:
                c = next((c for c in result.cells if c.players == p and c.policy == pol
                          and c.difficulty == rules.difficulties[d]), None)
                if c is None:
                    row.append("-")
                    continue
                games_note = "" if c.games == games else f" [{c.games} games]"
                row.append(f"{100 * c.rate.rate:.1f}% ({100 * c.rate.low:.0f}-"
                           f"{100 * c.rate.high:.0f}){games_note}")
            table.add_row(*row)
    stdout.print(table)
    interrupted_note(result.interrupted, result.played, total, store_path, "games")


add_puzzle_commands(group, puzzle_game())
