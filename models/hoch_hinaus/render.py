"""Pictures of a Hoch Hinaus! board: coloured terminal blocks and SVG squares; the
game's view (`VIEW`: a position for the terminal and as SVG, `play`'s hint and its end)
and the terminal drawings of its verbs' answers.

Each space shows its visible face and its height (pieces stacked there); neighbouring
spaces whose tops are one tile are joined (═ or ║), so the tiles can be told apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from models.hoch_hinaus.board import Board
from models.hoch_hinaus.positions import UNKNOWN
from solver.game import GameView
from solver.render import Svg, text_on

if TYPE_CHECKING:
    from models.hoch_hinaus.answers import AchievableAnswer, HintAnswer, ReachableAnswer
    from models.hoch_hinaus.game import GameData
    from models.hoch_hinaus.hint import HintResult
    from models.hoch_hinaus.state import GameState
    from solver.verbs import Call

CELL = 7


def _joined(board: Board, a: int, b: int) -> bool:
    return bool(board.stacks[a]) and board.top_piece(a) == board.top_piece(b)


def board_text(board: Board, marks: set[int] | None = None) -> Text:
    """Rows of coloured cells 'G3 ²': face and height; marks underline given spaces."""
    r = board.rules
    marks = marks or set()
    out = Text()
    out.append("   " + "".join(chr(65 + c).center(CELL + 1) for c in range(r.columns)) + "\n")
    for row in range(r.rows):
        out.append(f"{row + 1:>2} ")
        for c in range(r.columns):
            s = row * r.columns + c
            face, h = board.top(s), board.height(s)
            label = f"{r.face_text(face)} h{h}" if face is not None else f"·· h{h}"
            style = "dim"
            if face is not None:
                bg = r.colour_rgb[face[0]]
                style = f"bold {text_on(bg)} on {bg}"
            if s in marks:
                style += " underline"
            out.append(label.center(CELL), style=style)
            if c + 1 < r.columns:
                out.append("═" if _joined(board, s, s + 1) else " ")
        out.append("\n")
        if row + 1 < r.rows:
            out.append("   ")
            for c in range(r.columns):
                s = row * r.columns + c
                out.append(("║" if _joined(board, s, s + r.columns) else " ").center(CELL))
                out.append(" ")
            out.append("\n")
    return out


def board_svg(board: Board, title: str = "") -> Svg:
    """The board seen from above: coloured squares with number and height, tiles framed."""
    r = board.rules
    size, pad, top = 70, 20, 30
    svg = Svg(pad * 2 + size * r.columns, top + pad + size * r.rows,
              "#dce6f5" if board.side == "blue" else "#e6dcf5")
    if title:
        svg.text(pad, 15, title, size=13, anchor="start", bold=True)
    for s in range(r.n_spaces):
        row, c = r.rc(s)
        x, y = pad + c * size, top + row * size
        face, h = board.top(s), board.height(s)
        fill = r.colour_rgb[face[0]] if face is not None else "#f4f4f4"
        svg.polygon([(x + 3, y + 3), (x + size - 3, y + 3), (x + size - 3, y + size - 3),
                     (x + 3, y + size - 3)], fill, "#555", 1.0)
        if face is not None:
            svg.text(x + size / 2, y + size / 2, str(face[1]), size=26, fill=text_on(fill),
                     bold=True)
        svg.text(x + size - 12, y + 14, f"h{h}", size=11,
                 fill=text_on(fill) if face is not None else "#666")
        svg.text(x + 12, y + size - 12, r.spaces[s], size=9,
                 fill=text_on(fill) if face is not None else "#999")
        svg.hit("space", r.spaces[s], x, y, size, size)
    for a, b in r.pairs:  # one tile on top of both: draw the bridge
        if _joined(board, a, b):
            (ra, ca), (rb, cb) = r.rc(a), r.rc(b)
            x1, y1 = pad + ca * size + size / 2, top + ra * size + size / 2
            x2, y2 = pad + cb * size + size / 2, top + rb * size + size / 2
            if ra == rb:
                svg.line(x1 + size / 2 - 4, y1, x2 - size / 2 + 4, y2, "#222", 6)
            else:
                svg.line(x1, y1 + size / 2 - 4, x2, y2 - size / 2 + 4, "#222", 6)
    return svg


# --------------------------------------------------------------------------- positions

def position_text(g: GameState) -> Group:
    """The board, the open tasks and the rest of the state, for the terminal."""
    from models.hoch_hinaus.queries import show

    result = show(g)
    parts: list[Any] = [board_text(g.board)]
    if result.open_tasks:
        table = Table(title="Open tasks")
        table.add_column("id")
        table.add_column("task")
        table.add_column("fulfilled now")
        for t in result.open_tasks:
            table.add_row(t.id or "", escape(t.text), "[green]yes[/green]" if t.fulfilled_now
                          else "no")
        parts.append(table)
    if result.hands:
        r = g.rules
        hands = "; ".join(" ".join(UNKNOWN if t is None else r.tile_text(t) for t in h)
                          for h in g.hands)
        parts.append(escape(f"Player on turn: {result.on_turn}; hands: {hands}"))
        parts.append(f"Draw pile: {result.draw_pile} tasks; gap fillers on bonus tasks: "
                     f"{result.bonus_fillers}; reserve: {result.reserve} tiles "
                     f"({'order known' if result.reserve_known else 'order unknown'}); "
                     f"completed: {result.completed}; game: {result.status}")
    elif result.spare_fillers:
        parts.append(f"Gap fillers at hand: {result.spare_fillers}")
    return Group(*parts)


def hint_table(result: HintResult) -> Table | str:
    """The ranked placements of a hint (or why there is none)."""
    if not result.options:
        return f"[bold red]{escape(result.note)}[/bold red]"
    drawn = (f"the hidden pieces drawn {result.samples} times (seed {result.seed}), "
             if result.samples else "everything known, ")
    cut = ", cut by the time limit" if result.cut_by_time else ""
    table = Table(title=f"Player {result.player}: best placements ({result.legal} legal, "
                        f"{drawn}{result.checked} checked {result.horizon} placements "
                        f"ahead{cut}, {result.seconds:.2f} s)")
    table.add_column("#", justify="right")
    table.add_column("placement")
    table.add_column("score", justify="right")
    if result.samples:
        table.add_column("±", justify="right")
    table.add_column("why")
    for i, o in enumerate(result.options, 1):
        spread = [f"{o.spread:.1f}"] if result.samples else []
        table.add_row(str(i), escape(o.placement["text"]), f"{o.score:.1f}", *spread,
                      escape(o.reason))
    return table


# --------------------------------------------------------------------------- the view

class HochHinausView(GameView):
    """The position for the terminal and as SVG; `play`'s hint (the hint from what the
    player sees) and its closing line."""

    def terminal(self, state: GameState) -> Group:
        return position_text(state)

    def picture(self, state: GameState, title: str) -> Svg:
        return board_svg(state.board, title)

    def hint(self, rules: GameData, observation: GameState, options: dict[str, Any]
             ) -> Table | str:
        """The hint from what the player sees (other hands unknown: never judged dead
        ends; the look-ahead lets them hold any unseen tile)."""
        from models.hoch_hinaus.hint import hint
        from solver.deadline import NO_DEADLINE, Deadline

        think = options.get("hint_time") or None  # a cap only: 0, none
        result = hint(observation, samples=options.get("samples") or 16,
                      deadline=NO_DEADLINE if think is None else Deadline.after(think))
        result.options = result.options[:8]
        return hint_table(result)

    def final_report(self, rules: GameData, end: GameState, options: dict[str, Any]
                     ) -> str:
        return f"{len(end.completed)} task(s) fulfilled in {end.turns} turn(s)."


VIEW = HochHinausView()


# --------------------------------------------------------------------------- answers

def _fulfils(tasks: list[str]) -> str:
    return f"  → fulfils {'; '.join(tasks)}" if tasks else ""


def show_achievable(result: AchievableAnswer, call: Call) -> None:
    """`achievable`: the board, then yes with the witness line, or no with the core."""
    from solver.render import stdout

    stdout.print(board_text(call.state().board))
    k, mode = result.within, result.tiles
    if result.answer == "yes":
        stdout.print(f"[bold green]Yes[/bold green]: all {len(result.tasks)} task(s) can be "
                     f"fulfilled within {k} placement(s) (tiles: {mode}; {result.backend}, "
                     f"{result.seconds:.2f} s). A line, checked by the rules engine:")
        for i, w in enumerate(result.witness, 1):
            stdout.print(f"  {i}. {w.placement['text']}{_fulfils(w.fulfils)}")
        return
    stdout.print(f"[bold red]No[/bold red], proven: the model of {k} placement(s) "
                 f"(tiles: {mode}) is infeasible ({result.backend}, "
                 f"{result.seconds:.2f} s).")
    if result.core:
        which = ("Smallest set of tasks that cannot all be fulfilled (minimal core)"
                 if result.core_minimal else "Tasks that cannot all be fulfilled (not "
                 "proven minimal" + (", cut by the time limit" if result.cut_by_time
                                     else "") + ")")
        stdout.print(f"{which}: " + "; ".join(result.core))
    if result.note:
        stdout.print(result.note)


def show_hint(result: HintAnswer, call: Call) -> None:
    """`hint`: the board, the ranked placements and what the hint knew."""
    from solver.play_view import knows_line
    from solver.render import stdout

    stdout.print(board_text(call.state().board))
    stdout.print(hint_table(result))
    stdout.print(knows_line(call.game, result.seen, result.open_hands))


def show_reachable(result: ReachableAnswer, call: Call) -> None:
    """`reachable`: the board, then the exact answer with its line or the win rate."""
    from solver.play_view import knows_line
    from solver.render import stdout

    stdout.print(board_text(call.state().board))
    if result.method == "exact":
        colour = {"won": "green", "lost": "red"}.get(result.answer, "yellow")
        how = {"won": "proven: the winning line below, replayed by the rules engine",
               "lost": "proven by exhaustive search"}.get(result.answer, "not proven")
        stdout.print(f"[bold {colour}]{result.answer.upper()}[/bold {colour}] ({how}; "
                     f"{result.nodes} positions searched, {result.seconds:.2f} s)")
        for i, s in enumerate(result.line, 1):
            stdout.print(f"  {i}. player {s.player}: {s.placement['text']}"
                         f"{_fulfils(s.fulfils)}")
    elif result.rate is not None:
        r = result.rate
        stdout.print(f"Win probability under the {result.policy} policy: "
                     f"[bold]{r.rate:.1%}[/bold] (95% interval {r.low:.1%}-{r.high:.1%}; "
                     f"{r.successes} of {r.trials} sampled games won, {result.seconds:.1f} s)")
    if result.note:
        stdout.print(result.note)
    stdout.print(knows_line(call.game, result.seen, result.open_hands))
