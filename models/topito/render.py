"""Pictures of Topito positions: coloured stacks on podiums, and the cards at the table
(hands, played piles, the deck), for the terminal and as SVG; the game's view (`VIEW`),
the terminal drawings of its verbs' answers and the pictures of its puzzles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from models.topito.queries import forbidden_move
from models.topito.rules import GameRules, Rules, Stacks, cards_text
from models.topito.state import GameState, format_move
from solver.game import GameView
from solver.render import Svg, stdout, text_on

if TYPE_CHECKING:
    from models.topito.answers import (
        DeckAnswer,
        HintAnswer,
        PlanAnswer,
        RaceAnswer,
        ReachableAnswer,
    )
    from models.topito.hint import HintResult
    from models.topito.plan import PlanResult
    from models.topito.puzzles import Puzzle, Solution, TopitoPuzzles
    from models.topito.reachable import ReachableResult
    from solver.verbs import Call

COL_W = 12


def stacks_text(rules: Rules, stacks: Stacks, highlight: set[int] | None = None) -> Text:
    """The podiums side by side, each stack drawn bottom to top as coloured blocks;
    out-of-play blocks listed below."""
    highlight = highlight or set()
    height = max((len(s) for s in stacks), default=0)
    out = Text()
    for row in range(height - 1, -1, -1):
        for s in stacks:
            if row < len(s):
                b = s[row]
                bg = rules.character_rgb[b]
                label = rules.characters[b][:COL_W - 2].center(COL_W - 2)
                style = f"{'bold ' if b in highlight else ''}{text_on(bg)} on {bg}"
                out.append(" ")
                out.append(label, style=style)
                out.append(" ")
            else:
                out.append(" " * COL_W)
        out.append("\n")
    for p in range(rules.n_podiums):
        bg = rules.podium_rgb[p]
        out.append("▀" * COL_W, style=bg)
    out.append("\n")
    for p in range(rules.n_podiums):
        out.append(rules.podiums[p].center(COL_W), style=f"bold {rules.podium_rgb[p]}")
    out.append("\n")
    placed = {b for s in stacks for b in s}
    rest = [b for b in range(rules.n_blocks) if b not in placed]
    out.append("out of play: ", style="dim")
    if not rest:
        out.append("none", style="dim")
    for b in rest:
        bg = rules.character_rgb[b]
        out.append(f" {rules.characters[b]} ", style=f"{text_on(bg)} on {bg}")
        out.append(" ")
    return out


def stacks_svg(rules: Rules, stacks: Stacks, title: str = "", below: Sequence[str] = ()
               ) -> Svg:
    """An SVG picture: the podiums as coloured bars, blocks as labelled boxes, the
    out-of-play blocks in a row below, then the lines `below` (the picture is made wide
    and tall enough for them)."""
    bw, bh, gap, margin = 110.0, 34.0, 30.0, 20.0
    levels = max(rules.n_blocks, 1)
    width = margin * 2 + rules.n_podiums * bw + (rules.n_podiums - 1) * gap
    width = max([width, *(margin * 2 + 6.6 * len(line) for line in below)])
    base = margin + 30 + levels * bh
    svg = Svg(width, base + 110 + 18 * len(below))
    for i, line in enumerate(below):
        svg.text(margin, base + 122 + 18 * i, line, size=12, anchor="start")
    if title:
        svg.text(width / 2, margin, title, size=15, bold=True)
    for p, s in enumerate(stacks):
        x = margin + p * (bw + gap)
        rgb = rules.podium_rgb[p]
        svg.polygon([(x - 6, base), (x + bw + 6, base), (x + bw + 6, base + 16),
                     (x - 6, base + 16)], rgb)
        svg.text(x + bw / 2, base + 30, rules.podiums[p], size=13, bold=True)
        svg.hit("podium", rules.podiums[p], x - 6, margin + 30, bw + 12, levels * bh + 40)
        for i, b in enumerate(s):
            y = base - (i + 1) * bh
            fill = rules.character_rgb[b]
            svg.polygon([(x, y), (x + bw, y), (x + bw, y + bh - 2), (x, y + bh - 2)], fill)
            svg.text(x + bw / 2, y + bh / 2 - 1, rules.characters[b], size=13,
                     fill=text_on(fill))
            svg.hit("block", rules.characters[b], x, y, bw, bh - 2)
    placed = {b for s in stacks for b in s}
    rest = [b for b in range(rules.n_blocks) if b not in placed]
    y = base + 50
    svg.text(margin, y + 14, "out of play:" if rest else "out of play: none", size=12,
             anchor="start")
    x = margin + 90
    for b in rest:
        w = 8 + 8 * len(rules.characters[b])
        fill = rules.character_rgb[b]
        svg.polygon([(x, y), (x + w, y), (x + w, y + 28), (x, y + 28)], fill)
        svg.text(x + w / 2, y + 14, rules.characters[b], size=11, fill=text_on(fill))
        svg.hit("block", rules.characters[b], x, y, w, 28)
        x += w + 6
        if x > width - 60:
            x, y = margin + 90, y + 32
    return svg


def distance_text(d: int | None, cap: int) -> str:
    return f">{cap}" if d is None else str(d)


def hint_table(result: HintResult) -> Table:
    """Ranked moves of a hint: the value, moves left to the nearest card and per card,
    and the chances of a photo for another player now (gift) or the next player one
    move from a card (threat)."""
    cards = result.considered
    table = Table(title="Moves ranked (moves still needed after this move)")
    table.add_column("#", justify="right")
    table.add_column("move")
    table.add_column("value", justify="right")
    table.add_column("nearest", justify="right")
    table.add_column("card")
    for i in range(len(cards)):
        table.add_column(f"c{i + 1}", justify="right")
    chances = result.chances is not None
    if chances:
        table.add_column("gift", justify="right")
        table.add_column("threat", justify="right")
    for m in result.moves:
        style = "bold green" if m.nearest == 0 else ("bold" if m.rank == 1 else "")
        extra = [f"{m.others_meet:.1%}", f"{m.threat:.1%}"] if chances else []
        table.add_row(str(m.rank), m.move, f"{m.value:.2f}",
                      distance_text(m.nearest, result.max_moves), m.card or "-",
                      *["?" if c in m.undecided
                        else distance_text(m.distances[c], result.max_moves)
                        for c in cards],
                      *extra, style=style)
    return table


def race_text(result: HintResult) -> str:
    """'race: seat 1 (you) 3 of 7, seat 2 5 of 7' from a hint's race."""
    seats = result.race
    if not seats:
        return ""
    to_win = seats[0].played + seats[0].to_go
    return "race: " + ", ".join(
        f"seat {s.seat}{' (on turn)' if s.on_turn else ''} {s.played} of {to_win}"
        for s in seats)


def table_lines(state: GameState) -> list[tuple[str, str]]:
    """The cards at the table in words, one (line, style) per line: the last move, each
    hand and played pile, the deck."""
    blocks = state.blocks
    r = blocks.rules
    lines = []
    if blocks.last is not None:
        forbidden = forbidden_move(blocks)
        lines.append((f"last move: {_format_last(state)}"
                      + (f" (so '{forbidden}' is not allowed now)" if forbidden else ""), ""))
    winners = state.winners()
    for p, hand in enumerate(state.hands):
        mark = " (to move)" if p == state.turn and state.end() is None else ""
        mark += " WINS" if p in winners else ""
        pile = state.played[p]
        lines.append((f"seat {p + 1}{mark}: " + ("; ".join(cards_text(r, hand)) or "no cards"),
                      "bold" if mark else ""))
        lines.append((f"  played {len(pile)}" + (": " + "; ".join(cards_text(r, pile))
                                                 if pile else ""), "dim"))
        met = cards_text(r, state.met_now(p))
        if met:
            lines.append((f"  photo time! {'; '.join(met)}", "bold green"))
    if state.hands:
        known = ("" if state.deck_cards is None else
                 " known, order unknown: " + "; ".join(cards_text(r, state.deck_cards)))
        lines.append((f"deck: {state.deck_count} card(s)"
                      + (known if state.deck is None else " in a known order"), "dim"))
    if state.photo_queue:
        lines.append((f"photo time: seat {state.photo_queue[0] + 1} draws "
                      f"{state.draws_due} card(s)", "bold"))
    return lines


def _format_last(state: GameState) -> str:
    return format_move(state.blocks.rules, state.blocks.last)


def table_text(state: GameState) -> Group:
    """The stacks and the cards at the table, for the terminal."""
    parts: list = [stacks_text(state.blocks.rules, state.blocks.stacks)]
    parts += [Text(line, style=style) for line, style in table_lines(state)]
    return Group(*parts)


def table_svg(state: GameState, title: str = "") -> Svg:
    """The stacks as a picture, the cards at the table written under it."""
    return stacks_svg(state.blocks.rules, state.blocks.stacks, title,
                      [line for line, _ in table_lines(state)])


# --------------------------------------------------------------------------- the view

class TopitoView(GameView):
    """The stacks and the cards at the table, for the terminal and as SVG; `play`'s hint
    (the hint at a smaller budget) and its report at the end."""

    def terminal(self, state: GameState) -> Group:
        return table_text(state)

    def picture(self, state: GameState, title: str) -> Svg:
        return table_svg(state, title)

    def hint(self, rules: GameRules, observation: GameState, options: dict[str, Any]
             ) -> RenderableType:
        from models.topito.hint import hint
        from models.topito.work import HINT_CONFLICTS, HINT_NODES, Work

        hand = [c for c in observation.hands[observation.turn] if c is not None]
        if not hand:
            return "No cards in hand: any move will do."
        work = Work(HINT_NODES, HINT_CONFLICTS)  # the same as the command's, capped at 30 s
        res = hint(observation.blocks, hand, "sat", 6, 30.0, table=observation,
                   view="own", work=work)
        best = res.best
        head = f"Best move: {best.move} — {best.reasons}" if best else "No move"
        legend = "  ".join(f"c{i + 1} = {c}" for i, c in enumerate(res.considered))
        if not res.complete:
            legend += ("\n(some distances not decided: " + (
                "cut by the time limit)" if work.cut_by_time
                else "the work budget was spent)"))
        return Group(head, race_text(res), hint_table(res), legend)

    def final_report(self, rules: GameRules, end: GameState, options: dict[str, Any]
                     ) -> str:
        from models.topito.game import GAME

        return (f"{end.moves_made} moves; played cards: " + ", ".join(
            f"seat {p + 1} {len(pile)}" for p, pile in enumerate(end.played))
            + f" ({GAME.status(end)})")


VIEW = TopitoView()


# --------------------------------------------------------------------------- answers

def _print_plan(rules: Rules, res: PlanResult | ReachableResult) -> None:
    """The moves of a plan, numbered, then the stacks after the last one."""
    for i, step in enumerate(res.plan, 1):
        stdout.print(f"[bold]{i}.[/bold] {step.move}")
    if res.plan:
        last = res.plan[-1].after
        stacks = tuple(tuple(rules.block(b) for b in last[p]) for p in rules.podiums)
        stdout.print(stacks_text(rules, stacks))


def _by(result: PlanResult) -> str:
    """The back-end asked, and with auto the one whose proof it is."""
    if result.backend == "auto" and result.proved_by:
        return f"auto: proved by {result.proved_by}"
    return result.backend


def show_plan(res: PlanAnswer, call: Call) -> None:
    """`plan`: the stacks, the number of moves with its proof, and the moves."""
    state = call.state().blocks
    rules = state.rules
    stdout.print(stacks_text(rules, state.stacks))
    what = " and ".join(res.cards) if res.mode == "all" else " or ".join(res.cards)
    if res.status == "optimal":
        stdout.print(f"[bold green]{res.moves} moves[/bold green] to meet {what} "
                     f"(proven minimal: {res.proof}; {_by(res)}, {res.seconds:.2f} s)")
        _print_plan(rules, res)
    elif res.status == "infeasible":
        stdout.print(f"[bold red]No plan within {res.max_moves} moves[/bold red] for {what} "
                     f"(proven: {res.proof})")
    else:
        stdout.print(f"[bold yellow]Not decided[/bold yellow] for {what}: at least "
                     f"{_moves(res.lower_bound)} (proven; {res.proof}){_cut(res)}")


def _cut(res: PlanAnswer | ReachableAnswer) -> str:
    """The word on a search the time limit or the work budget stopped."""
    if res.cut_by_time:
        return " (cut by the time limit)"
    return " (the work budget was spent: raise --nodes / --conflicts)"


def show_reachable(res: ReachableAnswer, call: Call) -> None:
    """`reachable`: yes with the plan, no with the proof, or not decided."""
    if res.reachable is None:
        stdout.print(f"[bold yellow]not decided[/bold yellow] within {res.within} moves: "
                     f"at least {_moves(res.lower_bound)} (proven; {res.proof}){_cut(res)}")
    elif res.reachable:
        stdout.print(f"[bold green]yes[/bold green]: {res.moves} moves (fewest possible; "
                     f"{res.proof})")
        _print_plan(call.state().blocks.rules, res)
    else:
        stdout.print(f"[bold red]no[/bold red]: not within {res.within} moves (proven: "
                     f"{res.proof})")


def _moves(k: int) -> str:
    return f"{k} move{'s' * (k != 1)}"


def _race_line(res: RaceAnswer) -> None:
    for i, step in enumerate(res.line, 1):
        photos = "; ".join(f"{seat} plays {', '.join(cards)}"
                           for seat, cards in step.photo_time.items())
        played = ", ".join(str(k) for k in step.played)
        stdout.print(f"[bold]{i}.[/bold] seat {step.seat}: {step.move}"
                     + (f" — photo time! {photos}" if photos else "")
                     + f" [dim](played: {played})[/dim]")


def show_race(res: RaceAnswer, call: Call) -> None:
    """`race`: the all-seeing label, the table, the fewest moves with the proof and the
    line."""
    from models.topito.answers import position

    stdout.print(f"[bold yellow]{res.reading[:11]}[/bold yellow]{res.reading[11:]}")
    stdout.print(table_text(position(call, call.values["reversal_rule"])))
    who = f"seat {res.seat}" if res.seat is not None else "the game"
    seats = " or ".join(f"seat {s}" for s in res.can_win)
    if res.status == "unknown":
        stdout.print(f"[bold yellow]not decided[/bold yellow]: {who} needs at least "
                     f"{_moves(res.lower_bound or 0)} (proven: {res.proof})"
                     + (" (cut by the time limit)" if res.cut_by_time else ""))
        return
    if res.fewest is None:
        stdout.print(f"[bold red]{'no' if res.within is not None else 'No line'}[/bold red]"
                     f": {who} cannot {'have 7 cards' if res.seat else 'end with a win'} "
                     f"within {_moves(res.max_moves)} (proven: {res.proof})")
        return
    head = "[bold green]yes[/bold green]: " if res.within is not None else ""
    if res.fewest == 0:
        what = (f"seat {res.seat} has 7 cards already" if res.seat is not None
                else f"the game is won already by {seats}")
    elif res.seat is not None:
        what = f"seat {res.seat} can have 7 cards after {_moves(res.fewest)}"
    else:
        what = f"the game can end after {_moves(res.fewest)}, won by {seats}"
        if res.undecided_seats:
            what += (" (and perhaps by seat "
                     f"{' or '.join(str(s) for s in res.undecided_seats)}: not decided)")
    stdout.print(f"{head}[bold]{what}[/bold] (proven minimal: {res.proof}; "
                 f"{res.backend}, {res.seconds:.2f} s)")
    if res.seat is not None and res.winners != [res.seat]:
        stdout.print(f"this line ends in a shared win: seats "
                     f"{' and '.join(str(s) for s in res.winners)}")
    _race_line(res)


def show_hint(res: HintAnswer, call: Call) -> None:
    """`hint`: the stacks, the cards met now, the best move with its reasons, the race
    and every move ranked."""
    if call.values.get("open_hands"):
        stdout.print("[bold yellow]Open hands:[/bold yellow] every hand and the deck the "
                     "file gives are used (not a player's hint)")
    blocks = call.state().blocks
    stdout.print(stacks_text(blocks.rules, blocks.stacks))
    if res.met_now:
        stdout.print(f"[bold green]Photo time![/bold green] met now: {'; '.join(res.met_now)}")
    now = ", ".join(f"{c}: " + ("?" if c in res.undecided_now
                                else distance_text(d, res.max_moves))
                    for c, d in res.distances_now.items())
    stdout.print(f"moves needed now: {now}")
    if not res.complete:
        why = ("cut by the time limit" if res.cut_by_time else "the work budget was "
               "spent: raise --conflicts / --nodes")
        stdout.print(f"[yellow]Some distances were not decided ({why}); they rank as "
                     f"beyond {res.max_moves} moves.[/yellow]")
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
                   f"seat {res.chances['next_player'].split()[-1]} is then one move from "
                   "a card")
    stdout.print(f"[dim]{legend}  ({res.backend}, {res.seconds:.2f} s)[/dim]")


def show_deck(res: DeckAnswer, call: Call) -> None:
    """`deck`: the cards in a table, by kind."""
    table = Table(title=f"{len(res)} cards")
    table.add_column("kind")
    table.add_column("card")
    for c in res:
        table.add_row(c.kind, c.card)
    stdout.print(table)


# --------------------------------------------------------------------------- puzzles

def _ask(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution) -> str:
    """What the puzzle asks, in one line: the card (or the cards) and K."""
    k = len(solution)
    texts = [c.text(kind.rules) for c in puzzle.cards]
    if puzzle.type == "all":
        return f"all of {'; '.join(texts)} at once in {_moves(k)}"
    if puzzle.type == "hand":
        return f"photo time for all {len(texts)}: {'; '.join(texts)} in {_moves(k)}"
    return f"{texts[0]} in {_moves(k)}"


def _ask_lines(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution) -> list[str]:
    """What the puzzle asks, a line per card for the pictures: the head, the cards,
    the banned blocks."""
    rules, k = kind.rules, len(solution)
    if puzzle.type == "card":
        lines = [f"meet {puzzle.card.text(rules)} in {_moves(k)}"]
    elif puzzle.type == "all":
        lines = [f"meet all of these at once in {_moves(k)}:"]
    else:
        lines = [f"photo time for all {len(puzzle.cards)} in {_moves(k)} (each card met at "
                 "some moment; once met it is played):"]
    if puzzle.type != "card":
        lines += [f"  {c.text(rules)}" for c in puzzle.cards]
    return lines + _ban_lines(kind, puzzle)


def _ban_lines(kind: TopitoPuzzles, puzzle: Puzzle) -> list[str]:
    if not puzzle.banned:
        return []
    names = " and the ".join(kind.rules.characters[b] for b in puzzle.banned)
    return [f"the {names} may not be moved (never taken in hand; "
            "it may ride on a block lifted below it)"]


def _met_lines(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution) -> list[str]:
    """After the plan: which cards are met, and for a hand when each was played."""
    from models.topito.puzzle_types import replay

    rules = kind.rules
    _, when = replay(puzzle.state, puzzle.ask, solution)
    if puzzle.type == "hand":
        return [f"{c.text(rules)}: photo time after move {t}"
                for c, t in sorted(zip(puzzle.cards, when, strict=True), key=lambda x: x[1])]
    return ["meets " + "; ".join(c.text(rules) for c in puzzle.cards)]


def _last_text(kind: TopitoPuzzles, puzzle: Puzzle) -> str:
    last = puzzle.state.last
    if last is None:
        return "no last move"
    return "last move: " + format_move(kind.rules, last)


def puzzle_svg(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool
               ) -> Svg:
    """A puzzle as posed (what it asks, the last move) or solved (the end, the moves)."""
    if not reveal:
        if puzzle.classic:
            svg = stacks_svg(kind.rules, puzzle.state.stacks, _ask(kind, puzzle, solution))
        else:  # several cards or a ban: one line each under the picture
            svg = stacks_svg(kind.rules, puzzle.state.stacks, f"in {_moves(len(solution))}",
                             _ask_lines(kind, puzzle, solution))
        svg.text(svg.width / 2, 40, _last_text(kind, puzzle), size=11)
        return svg
    end = kind.end_state(puzzle, solution)
    if puzzle.classic:
        svg = stacks_svg(kind.rules, end.stacks, puzzle.card.text(kind.rules))
    else:
        svg = stacks_svg(kind.rules, end.stacks, f"after {_moves(len(solution))}",
                         _met_lines(kind, puzzle, solution))
    bottom = svg.height
    steps = kind.steps(puzzle, solution)
    svg.height += 18 * len(steps)  # the moves, one line each, under the picture
    for i, step in enumerate(steps):
        svg.text(20, bottom + 18 * i, f"{i + 1}. {step}", size=12, anchor="start")
    return svg


def puzzle_steps_svg(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution,
                     stacks: Stacks, made: Sequence[str]) -> Svg:
    """A puzzle being solved move by move: the stacks now, what it asks, the moves made
    (one line each, as in the solution's picture)."""
    k = len(solution)
    # a line per move, blank until made: the picture keeps its size from step to step
    lines = [f"{i}. {m}" for i, m in enumerate(made, 1)] + [""] * (k - len(made))
    if puzzle.classic:
        svg = stacks_svg(kind.rules, stacks, _ask(kind, puzzle, solution), lines)
    else:
        svg = stacks_svg(kind.rules, stacks, f"in {_moves(k)}",
                         [*_ask_lines(kind, puzzle, solution), *lines])
    svg.text(svg.width / 2, 40, f"{len(made)} of {_moves(k)} made" if made else
             _last_text(kind, puzzle), size=12)
    return svg


def puzzle_text(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool
                ) -> Group:
    """The same for the terminal."""
    if reveal:
        return Group(stacks_text(kind.rules, kind.end_state(puzzle, solution).stacks),
                     *(Text(line) for line in _met_lines(kind, puzzle, solution)))
    return Group(stacks_text(kind.rules, puzzle.state.stacks),
                 Text(_last_text(kind, puzzle) + " (it may not be reversed)"),
                 *(Text(line, style="bold") for line in _ban_lines(kind, puzzle)),
                 Text(("" if puzzle.type == "hand" else "meet ")
                      + f"{_ask(kind, puzzle, solution)} (none shorter; one way only)",
                      style="bold"))
