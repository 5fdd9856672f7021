"""Scoring rows: a full line whose stripes in its direction all have one colour."""

from __future__ import annotations

from dataclasses import dataclass

from models.take_it_higher.rules import Rules, Tile


@dataclass(frozen=True)
class ScoringRow:
    """A full line whose stripes in its direction all have one colour."""

    direction: str
    cells: tuple[str, ...]
    colour: str
    stud: str | None  # all tiles carry this stud (a gold/silver bonus row), else None
    points: int  # len x colour value
    bonus: int  # len x stud bonus (counted only with the gold/silver rules)


def line_row(rules: Rules, line_index: int, board: dict[str, Tile]) -> ScoringRow | None:
    """The scoring row formed by a line on this board, or None."""
    d, cells = rules.lines[line_index]
    tiles = [board.get(c) for c in cells]
    if any(t is None for t in tiles):
        return None
    colours = {t.stripes[d] for t in tiles}
    if len(colours) != 1:
        return None
    colour = colours.pop()
    studs = {t.stud for t in tiles}
    stud = studs.pop() if len(studs) == 1 else None
    n = len(cells)
    return ScoringRow(rules.directions[d].name, cells, colour, stud,
                      n * rules.colour_values[colour],
                      n * rules.stud_bonus[stud] if stud is not None else 0)


def scoring_rows(rules: Rules, board: dict[str, Tile]) -> list[ScoringRow]:
    rows = (line_row(rules, i, board) for i in range(len(rules.lines)))
    return [r for r in rows if r is not None]


def board_score(rules: Rules, board: dict[str, Tile], gold_silver: bool = False) -> int:
    """Row points (plus gold/silver bonus rows); no spaceship bonus."""
    return sum(r.points + (r.bonus if gold_silver else 0) for r in scoring_rows(rules, board))


def completed_rows(rules: Rules, board: dict[str, Tile], cell: str
                   ) -> list[tuple[int, ScoringRow]]:
    """Scoring rows through `cell` (just placed), with their line indices."""
    out = []
    for d in range(len(rules.directions)):
        i = rules.line_of[(cell, d)]
        row = line_row(rules, i, board)
        if row is not None:
            out.append((i, row))
    return out


def row_ships(row: ScoringRow) -> tuple[str, ...]:
    """Spaceships a completed row may launch: its colour, or its stud if a bonus row
    (the rulebook allows the stud ship even without the gold/silver scoring)."""
    return (row.colour,) if row.stud is None else (row.colour, row.stud)
