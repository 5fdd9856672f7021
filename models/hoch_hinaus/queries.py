"""What `show` reports about a Hoch Hinaus! position (a plain dataclass), and the
pictures of a position and of a hint for the terminal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.markup import escape
from rich.table import Table

from models.hoch_hinaus.files import UNKNOWN, board_json
from models.hoch_hinaus.render import board_text
from models.hoch_hinaus.state import GameState

if TYPE_CHECKING:
    from models.hoch_hinaus.hint import HintResult


@dataclass
class SpaceView:
    space: str
    face: str | None
    height: int


@dataclass
class TaskView:
    text: str
    id: str | None
    fulfilled_now: bool


@dataclass
class ShowResult:
    """hands: tile ids, "?" for a tile the file leaves unknown; reserve: its size."""

    side: str
    variant: str
    spaces: list[SpaceView]
    pieces: list[dict]
    open_tasks: list[TaskView]
    draw_pile: int
    bonus_fillers: list[int]
    hands: list[list[str]]
    on_turn: int
    reserve: int
    reserve_known: bool
    completed: int
    status: str
    spare_fillers: int = 0  # a board file's gap fillers at hand


def show(g: GameState) -> ShowResult:
    from models.hoch_hinaus.tasks import holds

    r = g.rules
    vis = g.board.visible()
    cat = g.catalogue
    tasks = [TaskView(UNKNOWN, None, False) if t is None else
             TaskView(t.text(r), cat.id_of(t) if cat is not None else None,
                      holds(r, t, vis)) for t in g.open]
    return ShowResult(
        g.board.side, "pros" if g.pros else "basic",
        [SpaceView(r.spaces[s], None if f is None else r.face_text(f), h)
         for s, (f, h) in enumerate(vis)],
        board_json(g.board), tasks,
        len(g.draw_pile), [b.fillers for b in g.bonus],
        [[UNKNOWN if t is None else t for t in h] for h in g.hands], g.on_turn + 1,
        len(g.reserve), g.reserve_known, len(g.completed), g.status,
        g.spare_fillers)


def show_terminal(g: GameState) -> Group:
    """The board, the open tasks and the rest of the state, for the terminal."""
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


def hint_table(result: HintResult, horizon: int) -> Any:
    """The ranked placements of a hint (or why there is none)."""
    if not result.options:
        return f"[bold red]{escape(result.note)}[/bold red]"
    drawn = (f"the hidden pieces drawn {result.samples} times (seed {result.seed}), "
             if result.samples else "everything known, ")
    table = Table(title=f"Player {result.player}: best placements ({result.legal} legal, "
                        f"{drawn}{result.checked} checked {horizon} placements ahead, "
                        f"{result.seconds:.2f} s)")
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
