"""`toppi topito ...`: the shared play commands (show, moves, simulate, play) from the
game's description (game.py), the puzzle commands from puzzles.py, and Topito's own
questions: plan, reachable, hint and deck. Solvers and pictures are imported inside the
commands that use them, so `toppi topito --help` stays fast."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from models.topito.game import GAME, ORDER_CARDS_OPTION
from models.topito.plan import BACKENDS, PLAN_BACKENDS
from models.topito.rules import Goal, Rules, load_deck, load_rules, parse_cards
from models.topito.state import GameState
from solver.backends import SolverOptions
from solver.errors import BadInput
from solver.game import knowledge
from solver.game_cli import add_game_commands, with_options
from solver.options import (
    json_option,
    open_hands_option,
    rules_option,
    solver_options,
    svg_option,
)
from solver.puzzle_cli import PuzzleGame, add_puzzle_commands
from solver.render import print_json, stdout
from solver.results import dumps, to_jsonable

backend_option = click.option(
    "--backend", type=click.Choice(BACKENDS), default="sat", show_default=True,
    help="SAT planning encoding (incremental, growing horizon) or breadth-first search.")
plan_backend_option = click.option(
    "--backend", type=click.Choice(PLAN_BACKENDS), default="auto", show_default=True,
    help="auto: A* ordered by a proven lower bound, handing over to SAT (its horizon "
         "starting at what A* ruled out) when the bound is far from the plan; or one "
         "of A*, the SAT planning encoding, breadth-first search.")
max_moves_option = click.option(
    "--max-moves", type=click.IntRange(0, 60), default=12, show_default=True,
    help="Longest plan searched; beyond it the answer is 'no plan within N moves'.")
deck_option = click.option("--deck", "deck_path", type=click.Path(dir_okay=False),
                           help="Deck file replacing the built-in 48 cards.")
file_argument = click.argument("file", type=click.Path(dir_okay=False))
reversal_option = click.option(
    "--reversal/--no-reversal", "reversal_rule", default=True, show_default=True,
    help="Apply the rule that the previous player's last move may not be reversed.")
order_cards_option = with_options((ORDER_CARDS_OPTION,))


def _position(file: str, rules_path: str | None, deck_path: str | None,
              reversal_rule: bool = True, order_cards: str | None = None) -> GameState:
    """The position file, played with or without the no-reversal rule, its order cards
    read as `order_cards`."""
    rules = GAME.load_rules(rules_path, deck_path=deck_path, order_cards=order_cards)
    state = GAME.load_position(rules, file)
    return replace(state, blocks=replace(state.blocks, reversal_rule=reversal_rule))


def _blocks_only(position: GameState) -> GameState:
    """The part of a position that plan and reachable use: the blocks (stacks and last
    move), no cards."""
    return GameState(position.rules, position.blocks, moves_made=position.moves_made)


def _by(result: Any) -> str:
    """The back-end asked, and with auto the one whose proof it is."""
    if result.backend == "auto" and result.proved_by:
        return f"auto: proved by {result.proved_by}"
    return result.backend


def _with_knowledge(result: Any, used: GameState, *extra: str) -> str:
    """A command's JSON answer with what the state it used holds and leaves unknown."""
    info = knowledge(GAME, used)
    info["knows"] = info["knows"] + list(extra)
    return dumps({**to_jsonable(result), **info})


def _card_options(f: click.decorators.FC) -> click.decorators.FC:
    for option in (
        click.option("--all", "mode", flag_value="all",
                     help="Meet all the cards at the same time."),
        click.option("--any", "mode", flag_value="any", default=True,
                     help="Meet any one of the cards (default)."),
        click.option("--cards", "cards_text", multiple=True,
                     help="Several cards separated by ';'."),
        click.option("--card", "card_texts", multiple=True,
                     help="A card: 'podium red: Bear Cat Duck', 'Cat on Bear', "
                          "'order Bear Cat Duck' (as printed; see --order-cards), "
                          "'order Bear < Cat < Duck' (bottom to top), 'rank 2: Cat'. "
                          "Repeatable."),
    ):
        f = option(f)
    return f


def _goal(rules: Rules, card_texts: tuple[str, ...], cards_text: tuple[str, ...],
          mode: str) -> Goal:
    cards = parse_cards(rules, list(card_texts) + list(cards_text), "--card")
    if not cards:
        raise BadInput("give at least one --card")
    return Goal(tuple(dict.fromkeys(cards)), mode)


@click.group()
def group() -> None:
    """Topito: games with hands, photo time and seven cards; shortest plans to a card,
    hints, reachability, unique puzzles."""


# show, moves, simulate, play: the shared commands over models/topito/game.py
add_game_commands(group, GAME)


def _print_plan(rules: Rules, res: Any) -> None:
    from models.topito.render import stacks_text

    for i, step in enumerate(res.plan, 1):
        stdout.print(f"[bold]{i}.[/bold] {step.move}")
    if res.plan:
        last = res.plan[-1].after
        stacks = tuple(tuple(rules.block(b) for b in last[p]) for p in rules.podiums)
        stdout.print(stacks_text(rules, stacks))


@group.command()
@file_argument
@_card_options
@plan_backend_option
@max_moves_option
@reversal_option
@order_cards_option
@rules_option
@deck_option
@solver_options(default_time=60.0)
@json_option
@svg_option
def plan(file: str, card_texts: tuple[str, ...], cards_text: tuple[str, ...], mode: str,
         backend: str, max_moves: int, reversal_rule: bool, order_cards: str,
         rules_path: str | None, deck_path: str | None, solver: SolverOptions,
         as_json: bool, svg_path: str | None) -> None:
    """The fewest moves that make the stacks in FILE meet the card (any or all of
    several), with the moves; proven minimal by either back-end."""
    from models.topito.plan import plan as shortest_plan
    from models.topito.render import stacks_svg, stacks_text

    used = _blocks_only(_position(file, rules_path, deck_path, reversal_rule, order_cards))
    state = used.blocks
    rules = state.rules
    goal = _goal(rules, card_texts, cards_text, mode)
    res = shortest_plan(state, goal, backend, max_moves, solver.left())
    if svg_path:
        end = res.plan[-1].after if res.plan else res.start
        stacks = tuple(tuple(rules.block(b) for b in end[p]) for p in rules.podiums)
        stacks_svg(rules, stacks, f"after {res.moves} moves" if res.moves else "").save(svg_path)
    if as_json:
        print_json(_with_knowledge(res, used))
        return
    stdout.print(stacks_text(rules, state.stacks))
    what = " and ".join(res.cards) if mode == "all" else " or ".join(res.cards)
    if res.status == "optimal":
        stdout.print(f"[bold green]{res.moves} moves[/bold green] to meet {what} "
                     f"(proven minimal: {res.proof}; {_by(res)}, {res.seconds:.2f} s)")
        _print_plan(rules, res)
    else:
        stdout.print(f"[bold red]No plan within {max_moves} moves[/bold red] for {what} "
                     f"(proven: {res.proof})")


@group.command()
@file_argument
@_card_options
@click.option("--within", type=click.IntRange(0, 60), required=True,
              help="At most this many moves.")
@plan_backend_option
@reversal_option
@order_cards_option
@rules_option
@deck_option
@solver_options(default_time=60.0)
@json_option
def reachable(file: str, card_texts: tuple[str, ...], cards_text: tuple[str, ...], mode: str,
              within: int, backend: str, reversal_rule: bool, order_cards: str,
              rules_path: str | None, deck_path: str | None, solver: SolverOptions,
              as_json: bool) -> None:
    """Can the card be met within K moves from FILE? Yes with a plan, or no with proof."""
    from models.topito.reachable import reachable as within_reach

    used = _blocks_only(_position(file, rules_path, deck_path, reversal_rule, order_cards))
    state = used.blocks
    rules = state.rules
    goal = _goal(rules, card_texts, cards_text, mode)
    res = within_reach(state, goal, within, backend, solver.left())
    if as_json:
        print_json(_with_knowledge(res, used))
        return
    if res.reachable:
        stdout.print(f"[bold green]yes[/bold green]: {res.moves} moves (fewest possible; "
                     f"{res.proof})")
        _print_plan(rules, res)
    else:
        stdout.print(f"[bold red]no[/bold red]: not within {within} moves (proven: {res.proof})")


RACE_READING = ("all-seeing: every hand and the deck's order are read (for teaching "
                "and analysis; no player knows them at the table)")


def _moves(k: int) -> str:
    return f"{k} move{'s' * (k != 1)}"


def _print_race_line(res: Any) -> None:
    for i, step in enumerate(res.line, 1):
        photos = "; ".join(f"{seat} plays {', '.join(cards)}"
                           for seat, cards in step.photo_time.items())
        played = ", ".join(str(k) for k in step.played)
        stdout.print(f"[bold]{i}.[/bold] seat {step.seat}: {step.move}"
                     + (f" — photo time! {photos}" if photos else "")
                     + f" [dim](played: {played})[/dim]")


@group.command()
@file_argument
@click.option("--player", type=click.IntRange(1, 5), default=None,
              help="The seat (from 1) whose 7th card is raced for (default: the end of "
                   "the game by anyone's win, and who can be the winners).")
@click.option("--within", type=click.IntRange(0, 60), default=None,
              help="Answer yes (with a line) or no (with the proof): at most this many "
                   "moves.")
@click.option("--backend", type=click.Choice(("astar", "bfs")), default="astar",
              show_default=True,
              help="Best-first search with a proven lower bound, or breadth-first search "
                   "over whole game states through the engine.")
@click.option("--max-moves", type=click.IntRange(0, 60), default=12, show_default=True,
              help="Longest line searched; beyond it the answer is 'not within N moves'.")
@reversal_option
@order_cards_option
@rules_option
@deck_option
@solver_options(default_time=60.0)
@json_option
def race(file: str, player: int | None, within: int | None, backend: str, max_moves: int,
         reversal_rule: bool, order_cards: str, rules_path: str | None,
         deck_path: str | None, solver: SolverOptions, as_json: bool) -> None:
    """With every hand and the deck in order known (all-seeing): the fewest moves, made
    by the players in turn, after which the seat has played 7 cards, the game not won
    before; without --player, the fewest moves to the end of the game by a win and who
    can be the winners. Proven minimal by either back-end."""
    from models.topito.race import race as fewest_moves
    from models.topito.render import table_text

    position = _position(file, rules_path, deck_path, reversal_rule, order_cards)
    try:
        res = fewest_moves(position, None if player is None else player - 1, max_moves,
                           backend, solver.left(), within)
    except BadInput as err:
        raise BadInput(f"{file}: {err}") from None
    if as_json:
        info = knowledge(GAME, position)
        print_json(dumps({**to_jsonable(res), **info, "all_seeing": True,
                          "reading": RACE_READING}))
        return
    stdout.print(f"[bold yellow]{RACE_READING[:11]}[/bold yellow]{RACE_READING[11:]}")
    stdout.print(table_text(position))
    who = f"seat {res.seat}" if res.seat is not None else "the game"
    seats = " or ".join(f"seat {s}" for s in res.can_win)
    if res.fewest is None:
        stdout.print(f"[bold red]{'no' if within is not None else 'No line'}[/bold red]: "
                     f"{who} cannot {'have 7 cards' if res.seat else 'end with a win'} "
                     f"within {_moves(res.max_moves)} (proven: {res.proof})")
        return
    head = "[bold green]yes[/bold green]: " if within is not None else ""
    if res.fewest == 0:
        what = (f"seat {res.seat} has 7 cards already" if res.seat is not None
                else f"the game is won already by {seats}")
    elif res.seat is not None:
        what = f"seat {res.seat} can have 7 cards after {_moves(res.fewest)}"
    else:
        what = f"the game can end after {_moves(res.fewest)}, won by {seats}"
    stdout.print(f"{head}[bold]{what}[/bold] (proven minimal: {res.proof}; "
                 f"{res.backend}, {res.seconds:.2f} s)")
    if res.seat is not None and res.winners != [res.seat]:
        stdout.print(f"this line ends in a shared win: seats "
                     f"{' and '.join(str(s) for s in res.winners)}")
    _print_race_line(res)


@group.command()
@file_argument
@click.option("--hand", help="The player's cards separated by ';' (default: the hand of "
                             "the player on turn in FILE).")
@backend_option
@click.option("--max-moves", type=click.IntRange(1, 30), default=8, show_default=True,
              help="Distances beyond this are shown as '>N'.")
@open_hands_option
@reversal_option
@order_cards_option
@rules_option
@deck_option
@solver_options(default_time=60.0)
@json_option
def hint(file: str, hand: str | None, backend: str, max_moves: int, open_hands: bool,
         reversal_rule: bool, order_cards: str, rules_path: str | None,
         deck_path: str | None, solver: SolverOptions, as_json: bool) -> None:
    """The best move for the player on turn: a card met now if possible, otherwise the
    move that brings the nearest card closest; every move ranked with its distances and
    its chance of meeting the next player's unknown cards. Uses only what the player on
    turn may know (own hand, blocks, played cards, counts), unless --open-hands."""
    from models.topito.hint import table_hint
    from models.topito.render import distance_text, hint_table, race_text, stacks_text

    position = _position(file, rules_path, deck_path, reversal_rule, order_cards)
    rules = position.blocks.rules
    cards = None
    if hand is not None:
        cards = parse_cards(rules, [hand], "--hand")
        if len(cards) > position.rules.hand_size:
            raise BadInput(f"--hand: a hand holds at most {position.rules.hand_size} "
                           f"cards, got {len(cards)}")
        if not cards:
            raise BadInput("--hand: the hand holds no card")
    try:
        res, used = table_hint(position, backend, max_moves, solver.left(),
                               open_hands, cards)
    except BadInput as err:
        raise BadInput(f"{file}: {err}") from None
    if as_json:
        extra = ("the hand given with --hand",) if cards is not None and not used.hands else ()
        print_json(_with_knowledge(res, used, *extra))
        return
    if open_hands:
        stdout.print("[bold yellow]Open hands:[/bold yellow] every hand and the deck the "
                     "file gives are used (not a player's hint)")
    stdout.print(stacks_text(rules, position.blocks.stacks))
    if res.met_now:
        stdout.print(f"[bold green]Photo time![/bold green] met now: {'; '.join(res.met_now)}")
    now = ", ".join(f"{c}: {distance_text(d, max_moves)}" for c, d in res.distances_now.items())
    stdout.print(f"moves needed now: {now}")
    b = res.best
    if b is not None:
        style = "bold green" if b.nearest == 0 else "bold"
        stdout.print(f"[{style}]Best move: {b.move}[/{style}] — {b.reasons}")
        if res.chances is not None:
            stdout.print(f"[dim]chances exact, over {res.chances['pool']} cards: "
                         f"{res.chances['pool_is']}[/dim]")
    if res.race:
        stdout.print(race_text(res))
    stdout.print(hint_table(res))
    legend = "  ".join(f"c{i + 1} = {c}" for i, c in enumerate(res.considered))
    if res.chances is not None:
        legend += ("  gift = chance another player gets a photo now, threat = chance "
                   f"seat {res.chances['next_player'].split()[-1]} is then one move from a card")
    stdout.print(f"[dim]{legend}  ({res.backend}, {res.seconds:.2f} s)[/dim]")


@group.command()
@deck_option
@order_cards_option
@rules_option
@json_option
def deck(deck_path: str | None, order_cards: str, rules_path: str | None,
         as_json: bool) -> None:
    """The deck in use, by kind (order cards written as they read under --order-cards)."""
    from rich.table import Table

    rules = load_rules(rules_path, order_cards)
    cards = load_deck(rules, deck_path)
    rows = [{"kind": c.kind, "card": c.text(rules)} for c in cards]
    if as_json:
        print_json(dumps(rows))
        return
    table = Table(title=f"{len(cards)} cards")
    table.add_column("kind")
    table.add_column("card")
    for r in rows:
        table.add_row(r["kind"], r["card"])
    stdout.print(table)


# generate (--difficulty / --moves K), solve, check-unique, sheet: the shared puzzle
# commands over puzzles.py, imported when one of them runs
moves_option = click.Option(
    ["--moves"], type=click.IntRange(1, 20), default=None,
    help="Exactly this many moves in the unique shortest plan, whatever the "
         "difficulty (default: easy 1, medium 2, hard 3).")
# the deeper types (docs/topito.md, "Generate"); defaults None: the kind's own
type_option = click.Option(
    ["--type", "puzzle_type"], type=click.Choice(["card", "all", "hand"]), default=None,
    help="card: one card (default); all: 2-3 cards met at once; hand: photo time for "
         "a hand of four, each card met at some moment. all/hand: easy 3, medium 4, "
         "hard 5 moves unless --moves.")
bans_option = click.Option(
    ["--bans", "bans"], type=click.IntRange(0, 2), default=None,
    help="Name this many blocks that may not be moved (chosen to leave one plan).")
add_puzzle_commands(group, PuzzleGame.from_module(
    "models.topito.puzzles", "topito", BACKENDS,
    generate_options=(moves_option, ORDER_CARDS_OPTION, type_option, bans_option)))
