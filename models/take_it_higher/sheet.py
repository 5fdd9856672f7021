"""The rulebook's score sheet: points per colour, gold/silver bonus rows, and the Take
it Higher! bonus."""

from __future__ import annotations

from dataclasses import dataclass

from models.take_it_higher.positions import Position, format_placement
from models.take_it_higher.rows import ScoringRow, scoring_rows
from models.take_it_higher.state import GameState, replay
from models.take_it_higher.variants import Variant


@dataclass(frozen=True)
class SheetLine:
    """One line of the score sheet: tiles in scoring rows of a colour (or bonus rows of a
    stud) x value."""

    name: str
    tiles: int
    value: int
    points: int


@dataclass
class ScoreSheet:
    """The rulebook's score sheet for one board under one variant."""

    variant: str
    complete: bool
    take_it_higher_bonus: int | None
    ring_over: str | None
    studs: list[SheetLine]
    colours: list[SheetLine]
    total: int
    rows: list[ScoringRow]
    launches: list[str]


def score_sheet(position: Position, variant: Variant) -> ScoreSheet:
    """Score a (possibly partial) board; spaceship launches are replayed and checked."""
    return state_sheet(replay(position, variant))


def state_sheet(state: GameState) -> ScoreSheet:
    """The score sheet of a game's board under its variant."""
    rules, variant = state.rules, state.variant
    rows = scoring_rows(rules, state.board)
    colours = []
    for colour in sorted(rules.colour_values, key=lambda c: -rules.colour_values[c]):
        n = sum(len(r.cells) for r in rows if r.colour == colour)
        v = rules.colour_values[colour]
        colours.append(SheetLine(colour, n, v, n * v))
    studs = []
    if variant.gold_silver:
        for stud, v in sorted(rules.stud_bonus.items(), key=lambda kv: -kv[1]):
            n = sum(len(r.cells) for r in rows if r.stud == stud)
            studs.append(SheetLine(stud, n, v, n * v))
    bonus, ring = (None, None)
    if variant.ships is not None:
        bonus, ring = state.bonus()
    total = sum(x.points for x in colours) + sum(x.points for x in studs) + (bonus or 0)
    return ScoreSheet(variant.name, state.is_terminal(), bonus, ring, studs, colours, total,
                      rows, [format_placement(p) for p in state.placements if p.launch])
