"""Take it Higher! rules data: the board's cells and lines, colours, tiles, studs and
spaceships, read from a rules file (`data/default.json` unless `--rules FILE`).

Nothing in the engine or the encodings assumes the built-in board: they read all of it
from `Rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io import expect, load_data, package_data
from solver.io import field as json_field


@dataclass(frozen=True)
class Cell:
    """A space of the board; x grows to the right, y upwards (for pictures only)."""

    id: str
    x: float
    y: float


@dataclass(frozen=True)
class Direction:
    """A direction of rows: its stripe colours and its lines (each a tuple of cell ids)."""

    name: str
    colours: tuple[str, ...]
    lines: tuple[tuple[str, ...], ...]
    glyph: str = "*"
    angle: float = 0.0


@dataclass(frozen=True)
class Tile:
    """A tile: one stripe colour per direction (in rules order) and an optional stud."""

    id: str
    letter: str
    stud: str | None
    stripes: tuple[str, ...]


@dataclass(frozen=True)
class Rules:
    """Everything about the board and the tiles that a rules file defines."""

    name: str
    cells: tuple[Cell, ...]
    colour_values: dict[str, int]
    colour_rgb: dict[str, str]
    directions: tuple[Direction, ...]
    stud_bonus: dict[str, int]
    stud_rgb: dict[str, str]
    tiles: tuple[Tile, ...]
    spaceships: tuple[str, ...]  # bottom to top of the launch-pad
    buttons: tuple[int, ...]  # the bonus-ring button freed by each spaceship

    @cached_property
    def cell_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cells)

    @cached_property
    def cell_by_id(self) -> dict[str, Cell]:
        return {c.id: c for c in self.cells}

    @cached_property
    def tile_by_id(self) -> dict[str, Tile]:
        return {t.id: t for t in self.tiles}

    @cached_property
    def lines(self) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """Every line as (direction index, cells)."""
        return tuple((d, line) for d, dr in enumerate(self.directions) for line in dr.lines)

    @cached_property
    def line_of(self) -> dict[tuple[str, int], int]:
        """(cell, direction index) -> index into `lines`."""
        out = {}
        for i, (d, line) in enumerate(self.lines):
            for c in line:
                out[(c, d)] = i
        return out

    @cached_property
    def lines_through(self) -> dict[str, tuple[tuple[int, tuple[str, ...]], ...]]:
        """cell -> (direction index, the cells of its line) in every direction."""
        return {c: tuple((d, self.lines[self.line_of[(c, d)]][1])
                         for d in range(len(self.directions))) for c in self.cell_ids}

    @property
    def board_size(self) -> int:
        return len(self.cells)

    def parse_tile(self, text: str, where: str = "tile") -> Tile:
        """A tile from its compact notation: the id (`GJ`), case-insensitive, or
        `Gold J` / `gold-j` style (stud name and letter)."""
        key = text.strip().upper().replace(" ", "").replace("-", "").replace("_", "")
        for t in self.tiles:
            if t.id.upper() == key:
                return t
        for t in self.tiles:
            if t.stud and (t.stud.upper() + t.letter.upper()) == key:
                return t
        known = ", ".join(t.id for t in self.tiles[:4])
        raise BadInput(f"{where}: unknown tile '{text}' (tiles are named like {known}, ...)")

    def parse_cell(self, text: str, where: str = "cell") -> str:
        key = text.strip().lower()
        if key not in self.cell_by_id:
            raise BadInput(f"{where}: '{text}' is not a cell of this board "
                           f"(cells: {', '.join(self.cell_ids)})")
        return key


# --------------------------------------------------------------------------- loading

def default_rules_path() -> Path:
    return package_data("models.take_it_higher", "default.json")


def load_rules(path: str | Path | None = None) -> Rules:
    """The built-in rules, or a rules file; every inconsistency is a BadInput."""
    return load_data(path, "models.take_it_higher", "default.json", rules_from_dict)


def rules_from_dict(data: Any, where: str = "rules") -> Rules:
    """Build and check Rules from parsed JSON."""
    expect(data, dict, where)
    cells = _cells(data, where)
    colour_values, colour_rgb = _colours(data, where)
    directions = _directions(data, where, colour_values, [c.id for c in cells])
    stud_bonus, stud_rgb = _studs(data, where)
    tiles = _tiles(data, where, directions, stud_bonus, len(cells))
    ships, buttons = _spaceships(data, where, colour_values, stud_bonus)
    return Rules(json_field(data, "name", str, where, "custom rules"), tuple(cells), colour_values,
                 colour_rgb, tuple(directions), stud_bonus, stud_rgb, tuple(tiles), tuple(ships),
                 tuple(buttons))


def _cells(data: dict, where: str) -> list[Cell]:
    cells = []
    for i, c in enumerate(json_field(data, "cells", list, where)):
        w = f"{where}: cells[{i}]"
        expect(c, dict, w)
        cells.append(Cell(json_field(c, "id", str, w).lower(), float(json_field(c, "x", (int, float), w)),
                          float(json_field(c, "y", (int, float), w))))
    if not cells:
        raise BadInput(f"{where}: the board has no cells")
    if len(cells) > MAX_CELLS:
        raise BadInput(f"{where}: {len(cells)} cells; a board has at most {MAX_CELLS}")
    _no_duplicates([c.id for c in cells], f"{where}: cell")
    at: dict[tuple[float, float], str] = {}
    for c in cells:
        if not (abs(c.x) <= MAX_COORDINATE and abs(c.y) <= MAX_COORDINATE):
            raise BadInput(f"{where}: cell '{c.id}' at ({c.x:g}, {c.y:g}): coordinates are "
                           f"at most {MAX_COORDINATE:g} either way")
        if (c.x, c.y) in at:
            raise BadInput(f"{where}: cells '{at[c.x, c.y]}' and '{c.id}' are at the same "
                           f"place ({c.x:g}, {c.y:g})")
        at[c.x, c.y] = c.id
    return cells


def _colours(data: dict, where: str) -> tuple[dict[str, int], dict[str, str]]:
    """Each colour's points and picture colour."""
    colour_values: dict[str, int] = {}
    colour_rgb: dict[str, str] = {}
    for name, spec in json_field(data, "colours", dict, where).items():
        w = f"{where}: colours.{name}"
        expect(spec, dict, w)
        colour_values[name] = _points(json_field(spec, "value", int, w), f"{w}.value")
        colour_rgb[name] = json_field(spec, "rgb", str, w, "#888888")
    return colour_values, colour_rgb


def _directions(data: dict, where: str, colour_values: dict[str, int], ids: list[str]
                ) -> list[Direction]:
    """The directions, each with colours defined in 'colours' and lines that cover
    every cell once."""
    directions = []
    for i, d in enumerate(json_field(data, "directions", list, where)):
        w = f"{where}: directions[{i}]"
        expect(d, dict, w)
        name = json_field(d, "name", str, w)
        colours = tuple(expect(col, str, f"{w}.colours[{k}]")
                        for k, col in enumerate(json_field(d, "colours", list, w)))
        for col in colours:
            if col not in colour_values:
                raise BadInput(f"{w}: colour '{col}' is not defined in 'colours'")
        lines = []
        for j, line in enumerate(json_field(d, "lines", list, w)):
            expect(line, list, f"{w}.lines[{j}]")
            lines.append(tuple(expect(c, str, f"{w}.lines[{j}]").lower() for c in line))
        _check_partition(lines, ids, f"{where}: direction '{name}'")
        directions.append(Direction(name, colours, tuple(lines), json_field(d, "glyph", str, w, "*"),
                                    float(json_field(d, "angle", (int, float), w, 0))))
    if not directions:
        raise BadInput(f"{where}: no directions of lines")
    _no_duplicates([d.name for d in directions], f"{where}: direction")
    return directions


def _studs(data: dict, where: str) -> tuple[dict[str, int], dict[str, str]]:
    """Each stud's bonus and picture colour (none: no studs)."""
    stud_bonus = {}
    stud_rgb = {}
    for name, spec in json_field(data, "studs", dict, where, {}).items():
        w = f"{where}: studs.{name}"
        expect(spec, dict, w)
        stud_bonus[name] = _points(json_field(spec, "bonus", int, w), f"{w}.bonus")
        stud_rgb[name] = json_field(spec, "rgb", str, w, "#cccccc")
    return stud_bonus, stud_rgb


def _tiles(data: dict, where: str, directions: list[Direction], stud_bonus: dict[str, int],
           n_cells: int) -> list[Tile]:
    """The tiles, each with a stripe of its direction's colours in every direction; at
    least enough to fill the board."""
    tiles = []
    for i, t in enumerate(json_field(data, "tiles", list, where)):
        w = f"{where}: tiles[{i}]"
        expect(t, dict, w)
        tid = json_field(t, "id", str, w).upper()
        stud = json_field(t, "stud", (str, type(None)), w, None)
        if stud is not None and stud not in stud_bonus:
            raise BadInput(f"{w}: stud '{stud}' is not defined in 'studs'")
        stripes_in = json_field(t, "stripes", dict, w)
        stripes = []
        for d in directions:
            col = stripes_in.get(d.name)
            if col is None:
                raise BadInput(f"{w}: no stripe for direction '{d.name}'")
            if col not in d.colours:
                raise BadInput(f"{w}: stripe '{col}' is not a colour of direction '{d.name}'")
            stripes.append(col)
        extra = set(stripes_in) - {d.name for d in directions}
        if extra:
            raise BadInput(f"{w}: stripe for unknown direction '{sorted(extra)[0]}'")
        tiles.append(Tile(tid, json_field(t, "letter", str, w, tid), stud, tuple(stripes)))
    _no_duplicates([t.id for t in tiles], f"{where}: tile")
    if len(tiles) > MAX_TILES:
        raise BadInput(f"{where}: {len(tiles)} tiles; a rules file has at most {MAX_TILES}")
    if len(tiles) < n_cells:
        raise BadInput(f"{where}: {len(tiles)} tiles cannot fill {n_cells} cells")
    return tiles


def _spaceships(data: dict, where: str, colour_values: dict[str, int],
                stud_bonus: dict[str, int]) -> tuple[list[str], list[int]]:
    """The ships bottom to top (each a colour or a stud) and the ring's buttons."""
    ships, buttons = [], []
    for i, s in enumerate(json_field(data, "spaceships", list, where, [])):
        w = f"{where}: spaceships[{i}]"
        expect(s, dict, w)
        ship = json_field(s, "ship", str, w)
        if ship not in colour_values and ship not in stud_bonus:
            raise BadInput(f"{w}: spaceship '{ship}' is neither a colour nor a stud")
        ships.append(ship)
        buttons.append(_points(json_field(s, "button", int, w), f"{w}.button",
                               MAX_BUTTON))
    _no_duplicates(ships, f"{where}: spaceship")
    return ships, buttons


#: Limits of a rules file: a solver model must fit (the built-in game: 24 cells, 48
#: tiles, values up to 8, bonus 5, buttons up to 200).
MAX_CELLS = 200
MAX_TILES = 1000
MAX_POINTS = 1000
MAX_BUTTON = 100_000


#: A cell's coordinates (the pictures and the symmetries use them; the built-in board's
#: are 0 to 5).
MAX_COORDINATE = 1000.0


def _points(value: int, where: str, most: int = MAX_POINTS) -> int:
    """A colour value, stud bonus or button: a whole number from 1 to `most`."""
    if not 1 <= value <= most:
        raise BadInput(f"{where}: {value} is not a number of points from 1 to {most}")
    return value


def _no_duplicates(items: Sequence[str], what: str) -> None:
    seen = set()
    for x in items:
        if x in seen:
            raise BadInput(f"{what} '{x}' is defined twice")
        seen.add(x)


def _check_partition(lines: list[tuple[str, ...]], cells: list[str], where: str) -> None:
    """The lines of one direction must cover every cell exactly once."""
    known = set(cells)
    seen: dict[str, int] = {}
    for j, line in enumerate(lines):
        if not line:
            raise BadInput(f"{where}: line {j + 1} is empty")
        for c in line:
            if c not in known:
                raise BadInput(f"{where}: line {j + 1} names '{c}', which is not a cell")
            if c in seen:
                raise BadInput(f"{where}: cell '{c}' lies on two lines ({seen[c] + 1} and {j + 1})")
            seen[c] = j
    missing = [c for c in cells if c not in seen]
    if missing:
        raise BadInput(f"{where}: the lines do not cover cell '{missing[0]}'")


# --------------------------------------------------------------------------- symmetries

def board_symmetries(rules: Rules) -> list[dict[str, str]]:
    """Cell permutations (other than the identity) that map the lines of every direction
    onto lines of the same direction: rotations and reflections of the picture about the
    board's centre, kept only when the data says they preserve every direction. Such a
    map turns any board into one with the same score."""
    xs = [c.x for c in rules.cells]
    ys = [c.y for c in rules.cells]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    at = {(c.x, c.y): c.id for c in rules.cells}
    maps = [lambda x, y: (-x, -y), lambda x, y: (-x, y), lambda x, y: (x, -y),
            lambda x, y: (y, x), lambda x, y: (-y, -x), lambda x, y: (-y, x),
            lambda x, y: (y, -x)]
    out = []
    for f in maps:
        perm = {}
        for c in rules.cells:
            dx, dy = f(c.x - cx, c.y - cy)
            target = at.get((dx + cx, dy + cy))
            if target is None:
                break
            perm[c.id] = target
        else:
            if all({frozenset(perm[c] for c in line) for line in d.lines}
                   == {frozenset(line) for line in d.lines} for d in rules.directions):
                out.append(perm)
    return out
