"""The terminal pictures of the play verbs every game shares (solver/play.py): the
position, the moves, a simulation's table, and the game played in the terminal."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import click

from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL, Game, Policy
from solver.render import stderr, stdout

if TYPE_CHECKING:
    from solver.play import MovesResult
    from solver.simulate import SimulationResult
    from solver.stats import Rate
    from solver.verbs import Call


def show(document: dict[str, Any], call: Call) -> None:
    """`show`: the position drawn, who acts, what is unknown."""
    from rich.markup import escape

    state = call.state()
    game = call.game
    stdout.print(call.entry.view().terminal(state))
    stdout.print(_status_line(game, state))
    unknown = game.unknown(state)
    if unknown:
        stdout.print("Unknown: " + escape("; ".join(unknown)))
    if game.notation:
        stdout.print(f"[dim]Notation: {escape(game.notation)}[/dim]")


def moves(result: MovesResult, call: Call) -> None:
    """`moves`: the position and the table of moves."""
    _print_moves(call, result.position, result)


def simulation(result: SimulationResult, call: Call) -> None:
    _print_simulation(call.game, call.entry.title, result)


def knows_line(game: Game, state: Any, open_hands: bool = False) -> str:
    """The line under an answer that says what it was worked out from."""
    from rich.markup import escape

    head = ("[yellow]All-seeing (--open-hands): everything the file holds[/yellow]"
            if open_hands else "[dim]From what the player on turn may know[/dim]")
    text = f"{head}: {escape(', '.join(game.knows(state)))}"
    unknown = game.unknown(state)
    return text + (f"; unknown: {escape('; '.join(unknown))}" if unknown else "")


def play_in_terminal(call: Call, state: Any, me: int, policies: list[Policy],
                     chance: random.Random, seed: int, options: dict[str, Any]) -> None:
    """The game played at the terminal: seat `me` asked for moves, the others played by
    their policies, chance drawn from `chance`."""
    from rich.markup import escape

    game, view, rules = call.game, call.entry.view(), call.rules()
    stdout.print(f"[bold]{escape(call.entry.title)}[/bold] (seed {seed}): you play seat "
                 f"{me + 1}; type a move, 'moves', 'hint', 'help' or 'quit'.")
    try:
        while not game.is_terminal(state):
            p = game.current_player(state)
            if p == CHANCE:
                outcome = game.sample_chance(state, chance)
                after = game.apply_action(state, outcome)
                if not (view.shows_chance and game.current_player(after) == me):
                    stdout.print(f"Chance: {escape(game.action_text(state, outcome))}")
                state = after  # (the picture drawn for my move says what chance did)
                continue
            if p != me:
                policy = policies[p]
                seen = state if policy.open_hands else game.observation(state, p)
                action = policy.choose(seen, game.legal_actions(state), chance)
                stdout.print(f"Seat {p + 1} ({policy.name}): "
                             f"{escape(game.action_text(state, action))}")
                state = game.apply_action(state, action)
                continue
            seen = game.observation(state, me)
            stdout.print(view.terminal(seen))
            action = _ask(call, seen, state, options)
            if action is None:
                stdout.print("Game stopped.")
                report = view.final_report(rules, state, options)
                if report is not None:
                    stdout.print(report)
                return
            state = game.apply_action(state, action)
    except click.Abort:
        stderr.print("\nEnd of input: game stopped.")
        return
    stdout.print(view.terminal(state))
    returns = game.returns(state)
    stdout.print("Game over: " + ", ".join(
        f"seat {s + 1} {_return_text(game, r)}" for s, r in enumerate(returns)))
    report = view.final_report(rules, state, options)
    if report is not None:
        stdout.print(report)


def _rate(rate: Rate) -> str:
    return f"{100 * rate.rate:.1f}% ({100 * rate.low:.0f}-{100 * rate.high:.0f})"


def _seats(seats: list[str]) -> str:
    """The policies of a row: one name when every seat plays it."""
    return seats[0] if len(set(seats)) == 1 else ",".join(seats)


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


def _print_moves(call: Call, state: Any, result: MovesResult) -> None:
    from rich.markup import escape
    from rich.table import Table

    stdout.print(call.entry.view().terminal(state))
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


def play_help(game: Any) -> str:
    """What `play` understands, and the game's notation."""
    lines = ["Type a move (as 'moves' lists it, or its number there), or:",
             "  moves (m)   the legal moves, numbered",
             "  hint (h)    advice for you, from what you may know",
             "  help (?)    this text",
             "  quit (q)    end the game"]
    if game.notation:
        lines += ["", game.notation]
    return "\n".join(lines)


def _ask(call: Call, seen: Any, state: Any, options: dict[str, Any]) -> Any:
    """Ask until a legal move is given; None if the player quits."""
    from rich.markup import escape

    game = call.game
    legal = game.legal_actions(state)
    while True:
        answer = click.prompt("Your move", default="", show_default=False).strip()
        key = answer.lower()
        if not key:
            continue
        if key in ("quit", "q", "exit"):
            return None
        if key in ("help", "?"):
            stdout.print(play_help(game), highlight=False)
            continue
        if key in ("moves", "m"):
            for i, a in enumerate(legal, 1):
                stdout.print(f"  {i}: {escape(game.action_text(state, a))}")
            continue
        if key in ("hint", "h"):
            shown = call.entry.view().hint(call.rules(), seen, options)
            stdout.print(shown if shown is not None else "[yellow]No hint for this game."
                                                         "[/yellow]")
            continue
        if key.isdecimal() and 1 <= int(key) <= len(legal):
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


def _print_simulation(game: Game, title: str, result: SimulationResult) -> None:
    from rich.markup import escape
    from rich.table import Table

    asked = f"{result.games} games per row" + (" asked" if result.interrupted else "")
    table = Table(title=f"{escape(title)}: {asked}, seed {result.seed}",
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
