"""The play commands every game shares: `show`, `moves`, `simulate` and `play`.

A game describes itself once (a `solver.game.Game`) and calls
`add_game_commands(group, game)`; the commands, their options, outputs and exit codes
are then the same for every game, as the puzzle commands are (solver/puzzle_cli.py).

Every game's command-line module imports this one, also for `--help`: the simulation,
the executor, the store, the statistics and rich are imported by the commands that use
them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL, Game, seat_policies
from solver.options import (
    SEED,
    batch_options,
    count_range,
    json_option,
    quiet_option,
    rules_option,
    svg_option,
)
from solver.render import print_json, stderr, stdout
from solver.results import dumps, to_jsonable

if TYPE_CHECKING:
    from solver.executor import Batch
    from solver.simulate import SimulationResult
    from solver.stats import Rate

file_argument = click.argument("file", type=click.Path(dir_okay=False))


def with_options(options: tuple[click.Option, ...]) -> Callable[[Callable], Callable]:
    """Add a game's own click options to a command (their values arrive by name)."""
    def decorate(f: Callable) -> Callable:
        for option in reversed(options):  # click lists __click_params__ last first
            f.__click_params__ = [*getattr(f, "__click_params__", []), option]
        return f
    return decorate


def split(values: dict[str, Any], options: tuple[click.Option, ...]) -> dict[str, Any]:
    """The values of `options` taken out of a command's keyword arguments."""
    return {o.name: values.pop(o.name) for o in options if o.name in values}


def who(game: Game, state: Any) -> str | int | None:
    """The player to act as shown to people: seat number from 1, 'chance' or None."""
    p = game.current_player(state)
    return None if p == TERMINAL else "chance" if p == CHANCE else p + 1


@dataclass
class MovesResult:
    """`moves`: the legal actions of the player to act (after the chance outcome given
    on the command line, if any), and how many distinct positions they lead to."""

    game: str
    to_move: int | str | None
    chance: str | None
    count: int
    distinct_results: int
    moves: list[dict[str, Any]] = field(default_factory=list)
    chance_outcomes: list[dict[str, Any]] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # what the position leaves unknown
    knows: list[str] = field(default_factory=list)  # what it holds (game.knows)
    notes: dict[str, Any] = field(default_factory=dict)  # the game's, at the top of the JSON


def _load(game: Game, file: str, rules_path: str | None, data: dict[str, Any]
          ) -> tuple[Any, Any]:
    rules = game.load_rules(rules_path, **data)
    return rules, game.load_position(rules, file)


def _rate(rate: Rate) -> str:
    return f"{100 * rate.rate:.1f}% ({100 * rate.low:.0f}-{100 * rate.high:.0f})"


def _seats(seats: list[str]) -> str:
    """The policies of a row: one name when every seat plays it."""
    return seats[0] if len(set(seats)) == 1 else ",".join(seats)


def add_game_commands(group: click.Group, game: Game) -> None:
    """Register show / moves / simulate / play on a game's click group."""
    data_options = with_options(game.data_options)
    chance_options = with_options((game.chance_option,) if game.chance_option else ())

    @group.command(name="show")
    @file_argument
    @rules_option
    @data_options
    @json_option
    @svg_option
    def show_command(file: str, rules_path: str | None, as_json: bool,
                     svg_path: str | None, **data: Any) -> None:
        """Draw the position in FILE and say who acts next and what is unknown."""
        from rich.markup import escape

        rules, state = _load(game, file, rules_path, data)
        if svg_path:
            game.picture(state, Path(file).name).save(svg_path)
        if as_json:
            out = to_jsonable(game.show(state))
            for key, value in (("game", game.id), ("to_move", who(game, state)),
                               ("status", game.status(state)),
                               ("unknown", game.unknown(state)),
                               ("knows", game.knows(state))):
                out.setdefault(key, value)
            print_json(dumps(out))
            return
        stdout.print(game.terminal(state))
        stdout.print(_status_line(game, state))
        unknown = game.unknown(state)
        if unknown:
            stdout.print("Unknown: " + escape("; ".join(unknown)))

    @group.command(name="moves")
    @file_argument
    @chance_options
    @with_options(game.what_if_options)
    @rules_option
    @data_options
    @json_option
    def moves_command(file: str, rules_path: str | None, as_json: bool,
                      **values: Any) -> None:
        """Every legal move of the player to act in FILE (at a chance node: the chance
        outcomes, or the moves after the outcome given)."""
        chance_text = values.pop(game.chance_option.name) if game.chance_option else None
        what_if = split(values, game.what_if_options)
        rules, state = _load(game, file, rules_path, values)
        state = game.what_if(rules, state, **what_if)
        result = legal_moves(game, state, chance_text)
        if as_json:
            out = to_jsonable(result)
            for key, value in out.pop("notes").items():
                out.setdefault(key, value)
            print_json(dumps(out))
            return
        _print_moves(game, state, result)

    @group.command(name="simulate")
    @click.option("--games", type=count_range(), default=100, show_default=True,
                  help="Games per cell (setup x policies).")
    @click.option("--policy", "policy_specs", multiple=True, metavar="P[,P...]",
                  help=f"{', '.join(game.policy_names)}: one for every seat, or one per "
                       "seat separated by commas; repeat to compare several on the same "
                       f"deals. Default: {game.policy_names[0]}.")
    @click.option("--rotate", is_flag=True,
                  help="Move the policies on by one seat every game (fair comparison).")
    @click.option("--open-hands", is_flag=True,
                  help="Every policy sees the whole state (other hands, face-down "
                       "piles in order): an all-seeing reference, not a player's game.")
    @click.option("--seed", type=SEED, default=0, show_default=True,
                  help="Game g is dealt and played from seed*1000003+g (any executor).")
    @with_options(game.setup_options)
    @with_options(game.play_options)
    @batch_options
    @quiet_option
    @rules_option
    @data_options
    @json_option
    def simulate_command(games: int, policy_specs: tuple[str, ...], rotate: bool,
                         open_hands: bool, seed: int, batch: Batch, store_path: str | None,
                         resume: bool, rules_path: str | None, as_json: bool,
                         **values: Any) -> None:
        """Play seeded games with the policies; win rates (Wilson 95% intervals) or
        scores, per setup and policy. Each game is a task: --jobs / --scheduler spread
        them, --store keeps them, --resume finishes an interrupted run."""
        from solver.executor import interrupted_note
        from solver.simulate import simulate
        from solver.store import store_at

        setup_values = split(values, game.setup_options)
        options = split(values, game.play_options)
        rules = game.load_rules(rules_path, **values)
        specs = [_policy_names(game, s) for s in policy_specs] or [[game.policy_names[0]]]
        setups = game.setups(rules, **setup_values)
        with store_at(store_path) as store:
            result = simulate(game, rules, games, setups, specs, seed, rotate, options,
                              open_hands, batch, store, resume)
        if as_json:
            print_json(dumps(result))
        else:
            _print_simulation(game, result)
        interrupted_note(result.interrupted, result.played, result.asked, store_path,
                         "games")

    @group.command(name="play")
    @click.argument("file", type=click.Path(dir_okay=False), required=False)
    @click.option("--seat", type=click.IntRange(min=1), default=1, show_default=True,
                  help="The seat you play.")
    @click.option("--policy", "policy_spec", default=None, metavar="P[,P...]",
                  help="The other seats' policy (one, or one per seat). Default: "
                       f"{game.policy_names[0]}.")
    @click.option("--seed", type=SEED, default=None,
                  help="Seed of the deal and of chance (random if omitted; printed so the "
                       "game can be replayed).")
    @with_options(game.setup_options)
    @with_options(game.play_options)
    @quiet_option
    @rules_option
    @data_options
    def play_command(file: str | None, seat: int, policy_spec: str | None, seed: int | None,
                     rules_path: str | None, **values: Any) -> None:
        """Play a game in the terminal against the policies: type a move (or its number
        from 'moves'), 'hint' for advice, 'quit' to stop. FILE: start from a position
        (what it leaves unknown is drawn at random)."""
        from rich.markup import escape

        setup_values = split(values, game.setup_options)
        options = split(values, game.play_options)
        rules = game.load_rules(rules_path, **values)
        if seed is None:
            seed = random.SystemRandom().randrange(10 ** 6)
        deal, chance = game.streams(seed)
        if file:
            state = game.determinize(game.load_position(rules, file), deal)
        else:
            setups = game.setups(rules, **setup_values)
            if len(setups) != 1:
                raise BadInput("play: give one setup (one value per setup option)")
            state = game.new_game(rules, setups[0], deal)
        n = game.players(state)
        if seat > n:
            raise BadInput(f"--seat {seat}: this game has {n} seat(s)")
        names = seat_policies(_policy_names(game, policy_spec or game.policy_names[0]), n)
        policies = [game.policy(rules, name, options) for name in names]
        stdout.print(f"[bold]{escape(game.title)}[/bold] (seed {seed}): you play seat "
                     f"{seat}; type a move, 'moves', 'hint' or 'quit'.")
        me = seat - 1
        try:
            while not game.is_terminal(state):
                p = game.current_player(state)
                if p == CHANCE:
                    outcome = game.sample_chance(state, chance)
                    stdout.print(f"Chance: {escape(game.action_text(state, outcome))}")
                    state = game.apply_action(state, outcome)
                    continue
                if p != me:
                    policy = policies[p]
                    seen = state if policy.open_hands else game.observation(state, p)
                    action = policy.choose(seen, game.legal_actions(state), chance)
                    stdout.print(f"Seat {p + 1} ({policy.name}): "
                                 f"{escape(game.action_text(state, action))}")
                    state = game.apply_action(state, action)
                    continue
                view = game.observation(state, me)
                stdout.print(game.terminal(view))
                action = _ask(game, rules, view, state, options)
                if action is None:
                    stdout.print("Game stopped.")
                    report = _final_report(game, rules, state, options)
                    if report is not None:
                        stdout.print(report)
                    return
                state = game.apply_action(state, action)
        except click.Abort:
            stderr.print("\nEnd of input: game stopped.")
            return
        stdout.print(game.terminal(state))
        returns = game.returns(state)
        stdout.print("Game over: " + ", ".join(
            f"seat {s + 1} {_return_text(game, r)}" for s, r in enumerate(returns)))
        report = _final_report(game, rules, state, options)
        if report is not None:
            stdout.print(report)


def legal_moves(game: Game, state: Any, chance_text: str | None = None) -> MovesResult:
    """The `moves` answer: apply the chance outcome named by `chance_text` first (or
    list the chance outcomes when one is due and none was given)."""
    name = game.chance_option.opts[0] if game.chance_option else ""
    applied = None
    if chance_text is not None:
        if game.current_player(state) != CHANCE:
            raise BadInput(f"{name}: no chance event is due in this position")
        outcome = game.parse_action(state, chance_text)
        applied = game.action_text(state, outcome)
        state = game.apply_action(state, outcome)
    if game.current_player(state) == CHANCE:
        outcomes = [{**game.action_json(state, a), "probability": round(p, 6)}
                    for a, p in game.chance_outcomes(state)]
        return MovesResult(game.id, "chance", None, 0, 0, [], outcomes,
                           game.unknown(state), game.knows(state),
                           game.moves_notes(state))
    actions = game.legal_actions(state)
    after = {dumps(game.write(game.apply_action(state, a))) for a in actions}
    return MovesResult(game.id, who(game, state), applied, len(actions), len(after),
                       [game.action_json(state, a) for a in actions], [],
                       game.unknown(state), game.knows(state), game.moves_notes(state))


def knows_line(game: Game, state: Any, open_hands: bool = False) -> str:
    """The line under an answer that says what it was worked out from."""
    from rich.markup import escape

    head = ("[yellow]All-seeing (--open-hands): everything the file holds[/yellow]"
            if open_hands else "[dim]From what the player on turn may know[/dim]")
    text = f"{head}: {escape(', '.join(game.knows(state)))}"
    unknown = game.unknown(state)
    return text + (f"; unknown: {escape('; '.join(unknown))}" if unknown else "")


def _status_line(game: Game, state: Any) -> str:
    p = game.current_player(state)
    if p == TERMINAL:
        return f"Game over ({game.status(state)}): " + ", ".join(
            f"seat {s + 1} {_return_text(game, r)}" for s, r in enumerate(game.returns(state)))
    if p == CHANCE:
        return f"Chance acts next ({game.status(state)})."
    return f"Seat {p + 1} to move ({game.status(state)})."


def _return_text(game: Game, value: float) -> str:
    if game.kind == "score":
        return f"{value:g} points"
    return "won" if value > 0 else "did not win"


def _print_moves(game: Game, state: Any, result: MovesResult) -> None:
    from rich.markup import escape
    from rich.table import Table

    stdout.print(game.terminal(state))
    if result.unknown:
        stdout.print("Unknown: " + escape("; ".join(result.unknown)))
    if result.chance_outcomes:
        table = Table(title="Chance outcomes (give one to see the moves after it)")
        table.add_column("outcome")
        table.add_column("probability", justify="right")
        for o in result.chance_outcomes:
            table.add_row(escape(o["text"]), f"{o['probability']:.4f}")
        stdout.print(table)
        return
    # the game's own keys, but those that only repeat the move's text
    extra = [k for k in (result.moves[0] if result.moves else {}) if k != "text"
             and any(_cell(m.get(k)) != m["text"] for m in result.moves)]
    title = (f"{result.count} legal moves for seat {result.to_move}"
             + (f" after {result.chance}" if result.chance else "")
             + f" ({result.distinct_results} distinct results)")
    table = Table(title=escape(title))
    table.add_column("#", justify="right")
    table.add_column("move")
    for k in extra:
        table.add_column(k.replace("_", " "))
    for i, m in enumerate(result.moves, 1):
        table.add_row(str(i), escape(m["text"]), *[escape(_cell(m.get(k))) for k in extra])
    stdout.print(table)
    for key, value in result.notes.items():
        stdout.print(f"{key.replace('_', ' ')}: {escape(_cell(value))}")


def _cell(value: Any) -> str:
    from solver.stats import Summary

    if isinstance(value, Summary):
        value = {"mean": value.mean, "quartiles": value.quartiles}
    if isinstance(value, dict) and {"mean", "quartiles"} <= set(value):
        q = value["quartiles"]
        return f"{value['mean']:.1f} ({q[0]:g}-{q[2]:g})"
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, (list, tuple)):
        return ", ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_cell(v)}" for k, v in value.items())
    return "" if value is None else str(value)


def _policy_names(game: Game, spec: str) -> list[str]:
    names = [p.strip().lower() for p in spec.split(",") if p.strip()]
    if not names:
        raise BadInput(f"--policy: give one of {', '.join(game.policy_names)}")
    for n in names:
        if n not in game.policy_names:
            raise BadInput(f"--policy: unknown policy '{n}' ({', '.join(game.policy_names)})")
    return names


def _ask(game: Game, rules: Any, view: Any, state: Any, options: dict[str, Any]) -> Any:
    """Ask until a legal move is given; None if the player quits."""
    from rich.markup import escape

    legal = game.legal_actions(state)
    while True:
        answer = click.prompt("Your move", default="", show_default=False).strip()
        key = answer.lower()
        if not key:
            continue
        if key in ("quit", "q", "exit"):
            return None
        if key in ("moves", "m", "?"):
            for i, a in enumerate(legal, 1):
                stdout.print(f"  {i}: {escape(game.action_text(state, a))}")
            continue
        if key in ("hint", "h"):
            shown = game.hint(rules, view, options)
            stdout.print(shown if shown is not None else "[yellow]No hint for this game."
                                                         "[/yellow]")
            continue
        if key.isdigit() and 1 <= int(key) <= len(legal):
            return legal[int(key) - 1]
        try:
            matches = [a for a in game.matching_actions(state, answer) if a in legal]
        except BadInput as exc:
            stdout.print(f"[red]{escape(str(exc))}[/red] ('moves' lists them)")
            continue
        if len(matches) == 1:
            return matches[0]
        if not matches:
            stdout.print(f"[red]'{escape(answer)}' is not a legal move here[/red] "
                         "('moves' lists them)")
            continue
        for i, a in enumerate(matches):
            stdout.print(f"  {i}: {escape(game.action_text(state, a))}")
        choice = click.prompt("Which", type=click.IntRange(0, len(matches) - 1), default=0)
        return matches[choice]


def _print_simulation(game: Game, result: SimulationResult) -> None:
    from rich.markup import escape
    from rich.table import Table

    asked = f"{result.games} games per row" + (" asked" if result.interrupted else "")
    table = Table(title=f"{escape(game.title)}: {asked}, seed {result.seed}",
                  caption=f"{result.seconds:.1f} s, {result.executor}; 95% Wilson "
                          "intervals" + ("; some games unfinished" if any(
                              c.unfinished for c in result.cells) else ""))
    # the setup values that differ between rows (the rest goes into the caption)
    setup_keys = [k for k in dict.fromkeys(k for c in result.cells for k in c.setup)
                  if len({_cell(c.setup.get(k)) for c in result.cells}) > 1]
    same = {k: v for k, v in (result.cells[0].setup.items() if result.cells else ())
            if k not in setup_keys}
    if same:
        table.title = str(table.title) + "; " + ", ".join(
            f"{k.replace('_', ' ')} {('yes' if v else 'no') if isinstance(v, bool) else _cell(v)}"
            for k, v in same.items())
    for k in setup_keys:
        table.add_column(k.replace("_", " "))
    table.add_column("policies")
    table.add_column("games", justify="right")
    if game.kind == "score":
        table.add_column("mean score", justify="right")
        table.add_column("quartiles", justify="right")
    elif game.kind == "cooperative":
        table.add_column("win rate", justify="right")
    else:
        table.add_column("win rate by seat", justify="right")
    table.add_column("actions", justify="right")
    measure_keys = sorted({k for c in result.cells for k in c.measures})
    for k in measure_keys:
        table.add_column(k.replace("_", " "), justify="right")
    for c in result.cells:
        row = [_cell(c.setup.get(k)) for k in setup_keys]
        row += [("rotating " if c.rotate else "") + _seats(c.seats), str(c.games)]
        if game.kind == "score":
            s = c.score[0] if c.score else None
            row += [f"{s.mean:.1f}" if s else "-",
                    f"{s.quartiles[0]:g}-{s.quartiles[2]:g}" if s else "-"]
        elif game.kind == "cooperative":
            row.append(_rate(c.win_rate) if c.win_rate else "-")
        else:
            row.append("\n".join(f"{s + 1}: {_rate(r)}"
                                 for s, r in enumerate(c.win_rate_by_seat or [])))
        row.append(f"{c.actions.mean:.1f}" if c.actions else "-")
        row += [_cell(_round(c.measures.get(k))) for k in measure_keys]
        table.add_row(*row)
    stdout.print(table)
    for c in result.cells:
        if c.win_rate_by_policy:
            pt = Table(title=f"{_seats(c.seats)}: by policy (wins / seats played)")
            for h in ("policy", "wins", "seats", "win rate"):
                pt.add_column(h)
            for name, rate in c.win_rate_by_policy.items():
                pt.add_row(name, str(rate.successes), str(rate.trials), _rate(rate))
            stdout.print(pt)
    seeing = [p for p, k in result.knows.items() if k == "everything"]
    if seeing:
        stdout.print(f"[yellow]All-seeing (open hands): {', '.join(seeing)}[/yellow]")


def _round(value: Any) -> Any:
    return round(value, 3) if isinstance(value, float) else value


def _final_report(game: Game, rules: Any, state: Any, options: dict[str, Any]) -> Any:
    """A game still on its own command-line module may draw no report."""
    report = getattr(game, "final_report", None)
    return None if report is None else report(rules, state, options)
