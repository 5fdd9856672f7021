"""The questions users ask about a Hoch Hinaus! position, answered as plain dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from models.hoch_hinaus.rules import (
    Game,
    Rules,
    action_json,
    board_json,
    hand_tiles,
    load_game,
    load_rules,
)
from models.hoch_hinaus.tasks import Catalogue, holds, load_catalogue
from solver.errors import BadInput


@dataclass
class Context:
    """Rules, catalogue and the game read from a file."""

    rules: Rules
    catalogue: Catalogue
    game: Game


def load_context(file: str | Path, rules_path: str | None = None,
                 tasks_path: str | None = None, pros: bool | None = None) -> Context:
    rules = load_rules(rules_path)
    cat = load_catalogue(rules, tasks_path)
    return Context(rules, cat, load_game(rules, file, pros, cat))


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


def show(ctx: Context) -> ShowResult:
    g, r = ctx.game, ctx.rules
    vis = g.board.visible()
    return ShowResult(
        g.board.side, "pros" if g.pros else "basic",
        [SpaceView(r.spaces[s], None if f is None else r.face_text(f), h)
         for s, (f, h) in enumerate(vis)],
        board_json(g.board),
        [TaskView(t.text(r), ctx.catalogue.id_of(t), holds(r, t, vis)) for t in g.open],
        len(g.draw_pile), [b.fillers for b in g.bonus], g.hands, g.on_turn + 1,
        len(g.reserve), g.reserve_known, len(g.completed), g.status)


@dataclass
class MovesResult:
    tiles: list[str]
    fillers_available: bool
    count: int
    count_without_filler: int
    moves: list[dict] = field(default_factory=list)


def moves(ctx: Context, tiles: list[str] | None = None, fillers: bool | None = None
          ) -> MovesResult:
    """Every legal placement of the given tiles (default: the hand on turn), with and
    without a gap filler first."""
    g, r = ctx.game, ctx.rules
    used = set(g.board.tiles_used())
    ids = []
    for t in tiles or []:
        tile, _ = r.parse_tile(t, "--tile")
        if tile.id in used:
            raise BadInput(f"--tile: {tile.id} already lies on the board")
        ids.append(tile.id)
    ids = hand_tiles(g, ids)
    allow = g.fillers_left > 0 if fillers is None else fillers
    acts = g.board.placements(ids, g.pros, allow)
    return MovesResult(ids, allow, len(acts), sum(1 for a in acts if a.filler is None),
                       [action_json(r, a) for a in acts])
