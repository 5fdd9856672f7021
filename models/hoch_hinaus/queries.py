"""What `show` reports about a Hoch Hinaus! position, as a plain dataclass (its
pictures are in render.py; the other questions in achievable.py, hint.py and
reachable.py)."""

from __future__ import annotations

from dataclasses import dataclass

from models.hoch_hinaus.positions import UNKNOWN, PieceJson, board_json
from models.hoch_hinaus.state import GameState


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
    pieces: list[PieceJson]
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
