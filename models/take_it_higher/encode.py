"""The maximal-score problem as data shared by the CP-SAT and the MaxSAT encodings.

A board is scored line by line, so both encodings use the same variables:
- x[cell, class]: the cell holds a tile of this class. Tiles that score alike (same
  stripes, and same stud when studs count) form one class with a capacity; this folds
  the symmetry between e.g. Gold J and Silver J in the basic game.
- y[line, option]: the line is a scoring row of option = (colour, stud or None); at
  most one option per line; y forces every cell of the line to hold a matching class.
The objective is sum(len(line) * (colour value + stud bonus) * y).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.variants import Variant
from solver.errors import BadInput

BACKENDS = ("cpsat", "maxsat")  # the two encodings' solvers

V = TypeVar("V")


@dataclass(frozen=True)
class TileClass:
    """Tiles that are interchangeable for scoring."""

    stripes: tuple[str, ...]
    stud: str | None
    tiles: tuple[Tile, ...]  # all available tiles of the class, required ones first
    required: int  # how many of them must be placed (called in a draw)


@dataclass(frozen=True)
class LineOption:
    """A way for a line to score: its colour, and the stud of a bonus row (or None)."""

    colour: str
    stud: str | None
    weight: int  # points per tile of the line


@dataclass
class MaxProblem:
    """Fill every cell with distinct tiles from `pool`, placing every tile of `draw`,
    to maximise the score (row points, plus bonus rows if `variant.gold_silver`).
    `fixed` pre-places tiles on cells."""

    rules: Rules
    variant: Variant
    draw: tuple[Tile, ...] = ()
    fixed: tuple[tuple[str, Tile], ...] = ()

    def __post_init__(self) -> None:
        used = [t.id for _, t in self.fixed]
        if len(set(used)) != len(used):
            raise BadInput("a tile is placed twice")
        clash = {t.id for t in self.draw} & set(used)
        if clash:
            raise BadInput(f"tile {sorted(clash)[0]} is both placed and still to come")
        if len(self.fixed) + len(self.draw) > self.rules.board_size:
            raise BadInput("more tiles than cells")

    @property
    def pool(self) -> list[Tile]:
        """Tiles that may go on the free cells: the draw if it fills the board, else
        every unplaced tile."""
        free = self.rules.board_size - len(self.fixed)
        if len(self.draw) == free:
            return list(self.draw)
        placed = {t.id for _, t in self.fixed}
        return [t for t in self.rules.tiles if t.id not in placed]

    def class_key(self, t: Tile) -> tuple[tuple[str, ...], str | None]:
        return (t.stripes, t.stud if self.variant.gold_silver else None)

    def classes(self) -> list[TileClass]:
        required = Counter(self.class_key(t) for t in self.draw)
        drawn = {t.id for t in self.draw}
        groups: dict[tuple, list[Tile]] = {}
        for t in self.pool:
            groups.setdefault(self.class_key(t), []).append(t)
        return [TileClass(k[0], k[1], tuple(sorted(ts, key=lambda t: t.id not in drawn)),
                          required[k])
                for k, ts in sorted(groups.items(), key=lambda kv: kv[1][0].id)]

    def line_options(self, d: int, classes: Sequence[TileClass]) -> list[LineOption]:
        """Scoring options of a line in direction d: colours present in the pool (and
        fixed tiles), combined with each stud when bonus rows count."""
        rules = self.rules
        colours = {c.stripes[d] for c in classes} | {t.stripes[d] for _, t in self.fixed}
        studs: list[str | None] = [None]
        if self.variant.gold_silver:
            studs += sorted(rules.stud_bonus)
        return [LineOption(k, g, rules.colour_values[k] + (rules.stud_bonus[g] if g else 0))
                for k in rules.directions[d].colours if k in colours for g in studs]

    def compatible(self, option: LineOption, d: int, stripes: tuple[str, ...],
                   stud: str | None) -> bool:
        return stripes[d] == option.colour and (option.stud is None or stud == option.stud)


def stud_misfits(x: Mapping[tuple[str, int], V], classes: Sequence[TileClass],
                 stud_pattern: Mapping[str, str | None]) -> list[V]:
    """The x[cell, class] a stud pattern rules out: a class whose stud (or none) is not
    the one the pattern gives the cell."""
    return [var for (c, k), var in x.items() if classes[k].stud != stud_pattern[c]]
