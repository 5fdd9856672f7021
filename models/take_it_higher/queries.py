"""The questions users ask about a Take it Higher! position, answered as plain
dataclasses (the maximal score is in `maximum.py`, the hint in `hint.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from models.take_it_higher.positions import Position, format_placement
from models.take_it_higher.rules import Rules
from models.take_it_higher.sheet import ScoreSheet, score_sheet
from models.take_it_higher.state import GameState
from models.take_it_higher.variants import Variant


@dataclass
class ShowResult:
    """A board as recorded: placements, the board, ships on tiles, the empty cells, the
    called tile (None: none called yet) and the variant."""

    placements: list[str]
    board: dict[str, str]
    ships_on: dict[str, list[str]]
    empty_cells: list[str]
    called: str | None
    variant: str


def show(state: GameState) -> ShowResult:
    return ShowResult([format_placement(p) for p in state.placements],
                      {c: t.id for c, t in state.board.items()},
                      {c: list(s) for c, s in state.ships_on.items()},
                      state.empty_cells(),
                      state.called.id if state.called is not None else None,
                      state.variant.name)


def score(position: Position, variant: Variant) -> ScoreSheet:
    return score_sheet(position, variant)


@dataclass
class TileEntry:
    """One tile of the set: its id, letter, stud (None: none) and its stripe's colour
    per direction (by the direction's name)."""

    id: str
    letter: str
    stud: str | None
    stripes: dict[str, str]


#: `tiles --json`: every tile of the rules, in rules order (a JSON array)
TileSet = list[TileEntry]


def tile_set(rules: Rules) -> TileSet:
    """Every tile: id, letter, stud and its stripe per direction."""
    names = [d.name for d in rules.directions]
    return [TileEntry(t.id, t.letter, t.stud, dict(zip(names, t.stripes, strict=True)))
            for t in rules.tiles]
