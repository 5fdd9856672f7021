"""Take it Higher!: rules data, positions, scoring rows, spaceships and the score sheet.

This module is the reference every encoding is tested against. Nothing here assumes
the built-in board: cells, the lines of each direction, colours, tiles, studs and
spaceships all come from a rules file (`data/default.json` unless `--rules FILE`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io import expect, load_data, load_json, package_data
from solver.io import field as jfield

SHIP_RULES = ("simple", "advanced")


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

    def stripe(self, tile: Tile, d: int) -> str:
        return tile.stripes[d]


# --------------------------------------------------------------------------- loading

def default_rules_path() -> Path:
    return package_data("models.take_it_higher", "default.json")


def load_rules(path: str | Path | None = None) -> Rules:
    """The built-in rules, or a rules file; every inconsistency is a BadInput."""
    return load_data(path, "models.take_it_higher", "default.json", rules_from_dict)


def rules_from_dict(data: Any, where: str = "rules") -> Rules:
    """Build and check Rules from parsed JSON."""
    expect(data, dict, where)
    cells = []
    for i, c in enumerate(jfield(data, "cells", list, where)):
        w = f"{where}: cells[{i}]"
        expect(c, dict, w)
        cells.append(Cell(jfield(c, "id", str, w).lower(), float(jfield(c, "x", (int, float), w)),
                          float(jfield(c, "y", (int, float), w))))
    if not cells:
        raise BadInput(f"{where}: the board has no cells")
    ids = [c.id for c in cells]
    _no_duplicates(ids, f"{where}: cell")

    colour_values: dict[str, int] = {}
    colour_rgb: dict[str, str] = {}
    for name, spec in jfield(data, "colours", dict, where).items():
        w = f"{where}: colours.{name}"
        expect(spec, dict, w)
        colour_values[name] = jfield(spec, "value", int, w)
        colour_rgb[name] = jfield(spec, "rgb", str, w, "#888888")

    directions = []
    for i, d in enumerate(jfield(data, "directions", list, where)):
        w = f"{where}: directions[{i}]"
        expect(d, dict, w)
        name = jfield(d, "name", str, w)
        colours = tuple(jfield(d, "colours", list, w))
        for col in colours:
            if col not in colour_values:
                raise BadInput(f"{w}: colour '{col}' is not defined in 'colours'")
        lines = []
        for j, line in enumerate(jfield(d, "lines", list, w)):
            expect(line, list, f"{w}.lines[{j}]")
            lines.append(tuple(expect(c, str, f"{w}.lines[{j}]").lower() for c in line))
        _check_partition(lines, ids, f"{where}: direction '{name}'")
        directions.append(Direction(name, colours, tuple(lines), jfield(d, "glyph", str, w, "*"),
                                    float(jfield(d, "angle", (int, float), w, 0))))
    if not directions:
        raise BadInput(f"{where}: no directions of lines")
    _no_duplicates([d.name for d in directions], f"{where}: direction")

    studs = jfield(data, "studs", dict, where, {})
    stud_bonus = {}
    stud_rgb = {}
    for name, spec in studs.items():
        w = f"{where}: studs.{name}"
        expect(spec, dict, w)
        stud_bonus[name] = jfield(spec, "bonus", int, w)
        stud_rgb[name] = jfield(spec, "rgb", str, w, "#cccccc")

    tiles = []
    for i, t in enumerate(jfield(data, "tiles", list, where)):
        w = f"{where}: tiles[{i}]"
        expect(t, dict, w)
        tid = jfield(t, "id", str, w).upper()
        stud = jfield(t, "stud", (str, type(None)), w, None)
        if stud is not None and stud not in stud_bonus:
            raise BadInput(f"{w}: stud '{stud}' is not defined in 'studs'")
        stripes_in = jfield(t, "stripes", dict, w)
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
        tiles.append(Tile(tid, jfield(t, "letter", str, w, tid), stud, tuple(stripes)))
    _no_duplicates([t.id for t in tiles], f"{where}: tile")
    if len(tiles) < len(cells):
        raise BadInput(f"{where}: {len(tiles)} tiles cannot fill {len(cells)} cells")

    ships, buttons = [], []
    for i, s in enumerate(jfield(data, "spaceships", list, where, [])):
        w = f"{where}: spaceships[{i}]"
        expect(s, dict, w)
        ship = jfield(s, "ship", str, w)
        if ship not in colour_values and ship not in stud_bonus:
            raise BadInput(f"{w}: spaceship '{ship}' is neither a colour nor a stud")
        ships.append(ship)
        buttons.append(jfield(s, "button", int, w))
    _no_duplicates(ships, f"{where}: spaceship")

    return Rules(jfield(data, "name", str, where, "custom rules"), tuple(cells), colour_values,
                 colour_rgb, tuple(directions), stud_bonus, stud_rgb, tuple(tiles), tuple(ships),
                 tuple(buttons))


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


# --------------------------------------------------------------------------- variants

@dataclass(frozen=True)
class Variant:
    """Which scoring rules apply: gold/silver bonus rows, and spaceships (None, simple, advanced)."""

    gold_silver: bool = False
    ships: str | None = None

    @property
    def name(self) -> str:
        parts = [self.ships] if self.ships else []
        if self.gold_silver:
            parts.append("gold-silver")
        return "+".join(parts) or "basic"


def parse_variant(name: str, gold_silver: bool = False) -> Variant:
    """`basic`, `gold-silver`, `simple` or `advanced` (spaceship rules), optionally with the
    gold/silver bonus added (`--gold-silver`)."""
    key = name.strip().lower()
    if key == "basic":
        return Variant(gold_silver, None)
    if key in ("gold-silver", "goldsilver", "gold/silver"):
        return Variant(True, None)
    if key in SHIP_RULES:
        return Variant(gold_silver, key)
    raise BadInput(f"unknown variant '{name}' (basic, gold-silver, simple, advanced)")


# --------------------------------------------------------------------------- positions

@dataclass(frozen=True)
class Placement:
    """One turn: a tile put on a cell, and the spaceships launched onto it."""

    tile: str
    cell: str
    launch: tuple[str, ...] = ()


@dataclass
class Position:
    """Placed tiles in placement order (possibly partial)."""

    rules: Rules
    placements: list[Placement] = field(default_factory=list)

    @property
    def board(self) -> dict[str, Tile]:
        return {p.cell: self.rules.tile_by_id[p.tile] for p in self.placements}

    @property
    def complete(self) -> bool:
        return len(self.placements) == self.rules.board_size

    def remaining_tiles(self) -> list[Tile]:
        used = {p.tile for p in self.placements}
        return [t for t in self.rules.tiles if t.id not in used]

    def to_dict(self) -> dict[str, Any]:
        return {"game": "take-it-higher",
                "placements": [format_placement(p) for p in self.placements]}


def format_placement(p: Placement) -> str:
    """Compact notation `GJ@c3` or `SP@c3+white+pink`."""
    return "+".join([f"{p.tile}@{p.cell}", *p.launch])


def parse_placement(rules: Rules, item: Any, where: str) -> Placement:
    """A placement from `"GJ@c3+white"` or `{"tile": "GJ", "cell": "c3", "launch": [...]}`."""
    if isinstance(item, str):
        head, *launch = [s.strip() for s in item.split("+")]
        if "@" not in head:
            raise BadInput(f"{where}: '{item}' is not of the form TILE@CELL[+SHIP...]")
        tile_text, cell_text = head.split("@", 1)
    elif isinstance(item, dict):
        tile_text = jfield(item, "tile", str, where)
        cell_text = jfield(item, "cell", str, where)
        launch = jfield(item, "launch", list, where, [])
    else:
        raise BadInput(f"{where}: a placement is a string 'TILE@CELL' or an object")
    tile = rules.parse_tile(tile_text, where)
    cell = rules.parse_cell(cell_text, where)
    ships = []
    for s in launch:
        s = expect(s, str, where).strip().lower()
        if s not in rules.spaceships:
            raise BadInput(f"{where}: '{s}' is not a spaceship of these rules")
        ships.append(s)
    return Placement(tile.id, cell, tuple(ships))


def position_from_dict(rules: Rules, data: Any, where: str = "position") -> Position:
    """Check and build a position: a tile at most once, a cell at most once."""
    expect(data, dict, where)
    game = data.get("game", "take-it-higher")
    if game != "take-it-higher":
        raise BadInput(f"{where}: this is a '{game}' file, not a take-it-higher position")
    items = jfield(data, "placements", list, where)
    pos = Position(rules)
    seen_tiles: dict[str, int] = {}
    seen_cells: dict[str, int] = {}
    for i, item in enumerate(items):
        w = f"{where}: placement {i + 1}"
        p = parse_placement(rules, item, w)
        if p.tile in seen_tiles:
            raise BadInput(f"{w}: tile {p.tile} was already placed in placement "
                           f"{seen_tiles[p.tile] + 1}")
        if p.cell in seen_cells:
            raise BadInput(f"{w}: cell {p.cell} is already occupied by placement "
                           f"{seen_cells[p.cell] + 1}")
        if len(set(p.launch)) != len(p.launch):
            raise BadInput(f"{w}: the same spaceship is launched twice")
        seen_tiles[p.tile] = i
        seen_cells[p.cell] = i
        pos.placements.append(p)
    return pos


def load_position(rules: Rules, path: str | Path) -> Position:
    return position_from_dict(rules, load_json(path, "position file"), f"position file {path}")


def parse_draw(rules: Rules, text: str) -> list[Tile]:
    """A comma- or space-separated list of tiles; a tile may not be called twice."""
    parts = [p for p in text.replace(",", " ").split() if p]
    tiles = [rules.parse_tile(p, "--draw") for p in parts]
    seen = set()
    for t in tiles:
        if t.id in seen:
            raise BadInput(f"--draw: tile {t.id} is called twice")
        seen.add(t.id)
    if len(tiles) > rules.board_size:
        raise BadInput(f"--draw: {len(tiles)} tiles do not fit on {rules.board_size} cells")
    return tiles


# --------------------------------------------------------------------------- scoring rows

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


# --------------------------------------------------------------------------- spaceships

def completed_rows(rules: Rules, board: dict[str, Tile], cell: str) -> list[tuple[int, ScoringRow]]:
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


@dataclass
class GameState:
    """A game in progress for one player (OpenSpiel style): the board, the ships in the
    grid and on the pad. `legal_launches` lists what the rules allow after a tile is put
    on a cell; `apply` makes a move and checks it."""

    rules: Rules
    variant: Variant
    placements: list[Placement] = field(default_factory=list)
    board: dict[str, Tile] = field(default_factory=dict)
    ships_on: dict[str, list[str]] = field(default_factory=dict)  # cell -> ships

    @property
    def launched(self) -> set[str]:
        return {s for ships in self.ships_on.values() for s in ships}

    def is_terminal(self) -> bool:
        return len(self.board) == self.rules.board_size

    def copy(self) -> GameState:
        """An independent copy (placements, board and ships)."""
        return GameState(self.rules, self.variant, list(self.placements), dict(self.board),
                         {c: list(s) for c, s in self.ships_on.items()})

    def after(self, move: Placement) -> GameState:
        """A copy with one more move made (this state is left as it is)."""
        nxt = self.copy()
        nxt.apply(move)
        return nxt

    def empty_cells(self) -> list[str]:
        return [c for c in self.rules.cell_ids if c not in self.board]

    def available_tiles(self) -> list[Tile]:
        used = {p.tile for p in self.placements}
        return [t for t in self.rules.tiles if t.id not in used]

    def legal_launches(self, tile: Tile, cell: str) -> list[tuple[str, ...]]:
        """Every legal set of launches if `tile` is put on `cell` (always includes ())."""
        if self.variant.ships is None or not self.rules.spaceships:
            return [()]
        board = dict(self.board)
        board[cell] = tile
        rows = completed_rows(self.rules, board, cell)
        on_pad = [s for s in self.rules.spaceships if s not in self.launched]
        if self.variant.ships == "simple":
            return _simple_launches(rows, on_pad)
        return _advanced_launches(rows, on_pad, self.ships_on)

    def legal_actions(self, tile: Tile) -> list[Placement]:
        """All moves for a called tile: each empty cell with each legal launch set."""
        return [Placement(tile.id, c, launch) for c in self.empty_cells()
                for launch in self.legal_launches(tile, c)]

    def apply(self, p: Placement) -> None:
        """Make a move; BadInput if it breaks the rules (occupied cell, illegal launch)."""
        tile = self.rules.tile_by_id[p.tile]
        n = len(self.placements) + 1
        if p.cell in self.board:
            raise BadInput(f"placement {n}: cell {p.cell} is occupied")
        if any(q.tile == p.tile for q in self.placements):
            raise BadInput(f"placement {n}: tile {p.tile} was already placed")
        if p.launch:
            if self.variant.ships is None:
                raise BadInput(f"placement {n} ({format_placement(p)}): spaceships are not "
                               f"used in the {self.variant.name} game")
            legal = {frozenset(x) for x in self.legal_launches(tile, p.cell)}
            if frozenset(p.launch) not in legal:
                raise BadInput(f"placement {n} ({format_placement(p)}): "
                               + self._why_illegal(tile, p))
        self.placements.append(p)
        self.board[p.cell] = tile
        if p.launch:
            self.ships_on[p.cell] = list(p.launch)

    def _why_illegal(self, tile: Tile, p: Placement) -> str:
        board = dict(self.board)
        board[p.cell] = tile
        rows = completed_rows(self.rules, board, p.cell)
        possible = {s for _, r in rows for s in row_ships(r)}
        for s in p.launch:
            if s in self.launched:
                return f"the {s} spaceship was already launched"
            if s not in possible:
                return f"no {s} row (or {s} bonus row) is completed by this tile"
        if self.variant.ships == "simple":
            on_pad = [s for s in self.rules.spaceships if s not in self.launched]
            nxt = on_pad[:len(p.launch)]
            if set(nxt) != set(p.launch):
                missing = [s for s in nxt if s not in p.launch]
                return (f"under the simple rules the next spaceship to launch is "
                        f"{missing[0] if missing else nxt[0]}")
            return "each launched spaceship needs a row of its own completed by this tile"
        if len(p.launch) > 1:
            return "under the advanced rules only one spaceship may land on a tile"
        return (f"every completed {p.launch[0]} row already carries a spaceship "
                "(advanced rules)")

    def bonus(self) -> tuple[int, str | None]:
        """Take it Higher bonus: the ring climbs over launched ships from the bottom and
        stops below the lowest ship still on the pad. Returns (points, ship below ring)."""
        launched = self.launched
        top = None
        points = 0
        for ship, button in zip(self.rules.spaceships, self.rules.buttons, strict=True):
            if ship not in launched:
                break
            top, points = ship, button
        return points, top


def _simple_launches(rows: list[tuple[int, ScoringRow]], on_pad: list[str]
                     ) -> list[tuple[str, ...]]:
    """Simple rules: launch the next k ships on the pad, each matched to its own
    completed row (one ship per row)."""
    out: list[tuple[str, ...]] = [()]
    for k in range(1, min(len(on_pad), len(rows)) + 1):
        want = on_pad[:k]
        if _matchable(want, [row_ships(r) for _, r in rows]):
            out.append(tuple(want))
        else:
            break
    return out


def _matchable(ships: list[str], rows: list[tuple[str, ...]]) -> bool:
    """Can each ship be given a distinct row that allows it? (tiny bipartite matching)"""
    for chosen in itertools.permutations(range(len(rows)), len(ships)):
        if all(s in rows[r] for s, r in zip(ships, chosen, strict=True)):
            return True
    return False


def _advanced_launches(rows: list[tuple[int, ScoringRow]], on_pad: list[str],
                       ships_on: dict[str, list[str]]) -> list[tuple[str, ...]]:
    """Advanced rules: at most one ship, any order, and the row that allows it must
    carry no spaceship on its other tiles."""
    allowed: set[str] = set()
    for _, row in rows:
        if any(ships_on.get(c) for c in row.cells):
            continue
        allowed.update(s for s in row_ships(row) if s in on_pad)
    return [()] + [(s,) for s in on_pad if s in allowed]


def best_launches(state: GameState, moves: Sequence[tuple[str, str]]) -> tuple[int, list[Placement]]:
    """Given a game in progress and the remaining (tile, cell) moves in order, the
    launches that maximise the final Take it Higher! bonus (exhaustive search over the
    legal launch sets, memoised on the ships' state). Returns (bonus, placements)."""
    rules = state.rules
    memo: dict[tuple, tuple[int, list[tuple[str, ...]]]] = {}
    work = state.copy()

    def search(i: int) -> tuple[int, list[tuple[str, ...]]]:
        if i == len(moves):
            return work.bonus()[0], []
        key = (i, frozenset(work.launched), frozenset(work.ships_on))
        if key in memo:
            return memo[key]
        tile_id, cell = moves[i]
        tile = rules.tile_by_id[tile_id]
        best: tuple[int, list[tuple[str, ...]]] = (-1, [])
        for launch in work.legal_launches(tile, cell):
            work.placements.append(Placement(tile_id, cell, launch))
            work.board[cell] = tile
            if launch:
                work.ships_on[cell] = list(launch)
            value, rest = search(i + 1)
            work.placements.pop()
            del work.board[cell]
            work.ships_on.pop(cell, None)
            if value > best[0]:
                best = (value, [launch, *rest])
        memo[key] = best
        return best

    bonus, launches = search(0)
    return bonus, [Placement(t, c, launch) for (t, c), launch
                   in zip(moves, launches, strict=True)]


def replay(position: Position, variant: Variant) -> GameState:
    """Play the recorded placements in order, checking every launch."""
    state = GameState(position.rules, variant)
    for p in position.placements:
        state.apply(p)
    return state


# --------------------------------------------------------------------------- score sheet

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
    rules = position.rules
    state = replay(position, variant)
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
    return ScoreSheet(variant.name, position.complete, bonus, ring, studs, colours, total,
                      rows, [format_placement(p) for p in position.placements if p.launch])


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
