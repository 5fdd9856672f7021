"""Take it Higher! position files: the placements in order, the tile called and not
placed yet, and the variant played.

```json
{"game": "take-it-higher", "variant": "simple",
 "placements": ["SP@a4+white", "GJ@c3", {"tile": "GH", "cell": "d4", "launch": ["orange"]}],
 "called": "SE"}
```

`variant` and `called` are optional (basic; no tile called yet). The order in which the
tiles still to come will be called is never in a file: nobody at the table knows it.
Optional `to_come` says what the player knows of the tiles still to be called (after the
called one): their number (`"to_come": 12`, checked against the empty cells), or the
tiles themselves without order, `"?"` for each one not known (`["GA", "SB", "?", ...]`):
a tile of the rules, neither placed nor called, listed once; as many as the calls left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.variants import Variant, variant_from_name
from solver.errors import BadInput
from solver.io import expect, load_json
from solver.io import field as json_field

GAME_ID = "take-it-higher"


@dataclass(frozen=True)
class Placement:
    """One turn: a tile put on a cell, and the spaceships launched onto it."""

    tile: str
    cell: str
    launch: tuple[str, ...] = ()


@dataclass
class Position:
    """Placed tiles in placement order (possibly partial), the called tile if one is
    called, and the variant the file names (None: it names none)."""

    rules: Rules
    placements: list[Placement] = field(default_factory=list)
    called: str | None = None
    variant: Variant | None = None
    coming: tuple[str, ...] = ()  # tiles known to be still to come (rules order)

    def calls_left(self) -> int:
        """The tiles still to be called after the called one."""
        return self.rules.board_size - len(self.placements) - (self.called is not None)

    @property
    def board(self) -> dict[str, Tile]:
        return {p.cell: self.rules.tile_by_id[p.tile] for p in self.placements}

    @property
    def complete(self) -> bool:
        return len(self.placements) == self.rules.board_size

    def to_dict(self) -> dict[str, Any]:
        """The position file's JSON (what `position_from_dict` reads)."""
        out: dict[str, Any] = {"game": GAME_ID}
        if self.variant is not None:
            out["variant"] = self.variant.name
        out["placements"] = [format_placement(p) for p in self.placements]
        if self.called is not None:
            out["called"] = self.called
        if self.coming:
            out["to_come"] = [*self.coming, *["?"] * (self.calls_left() - len(self.coming))]
        return out


def format_placement(p: Placement) -> str:
    """Compact notation `GJ@c3` or `SP@c3+white+pink`."""
    return "+".join([f"{p.tile}@{p.cell}", *p.launch])


def parse_launch(rules: Rules, ships: Any, where: str) -> tuple[str, ...]:
    """Spaceship names, each one of the rules' spaceships."""
    out = []
    for s in ships:
        s = expect(s, str, where).strip().lower()
        if s not in rules.spaceships:
            raise BadInput(f"{where}: '{s}' is not a spaceship of these rules")
        out.append(s)
    return tuple(out)


def parse_placement(rules: Rules, item: Any, where: str) -> Placement:
    """A placement from `"GJ@c3+white"` or `{"tile": "GJ", "cell": "c3", "launch": [...]}`."""
    if isinstance(item, str):
        if item.strip().startswith("?"):
            raise BadInput(f"{where}: '{item}': a placed tile is in view, it cannot be "
                           "unknown ('?')")
        head, *launch = [s.strip() for s in item.split("+")]
        if "@" not in head:
            raise BadInput(f"{where}: '{item}' is not of the form TILE@CELL[+SHIP...]")
        tile_text, cell_text = head.split("@", 1)
    elif isinstance(item, dict):
        tile_text = json_field(item, "tile", str, where)
        cell_text = json_field(item, "cell", str, where)
        launch = json_field(item, "launch", list, where, [])
    else:
        raise BadInput(f"{where}: a placement is a string 'TILE@CELL' or an object")
    tile = rules.parse_tile(tile_text, where)
    cell = rules.parse_cell(cell_text, where)
    return Placement(tile.id, cell, parse_launch(rules, launch, where))


def position_from_dict(rules: Rules, data: Any, where: str = "position") -> Position:
    """Check and build a position: a tile at most once, a cell at most once, the called
    tile not placed."""
    expect(data, dict, where)
    game = data.get("game", GAME_ID)
    if game != GAME_ID:
        raise BadInput(f"{where}: this is a '{game}' file, not a take-it-higher position")
    items = json_field(data, "placements", list, where)
    variant = None
    if "variant" in data:
        variant = variant_from_name(json_field(data, "variant", str, where),
                                    f"{where}: variant")
    pos = Position(rules, variant=variant)
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
    called = json_field(data, "called", (str, type(None)), where, None)
    if called is not None and called.strip() == "?":
        raise BadInput(f"{where}: called: '?', but the called tile is announced to every "
                       "player; leave out 'called' when none is called yet")
    if called is not None:
        tile = rules.parse_tile(called, f"{where}: called")
        if tile.id in seen_tiles:
            raise BadInput(f"{where}: the called tile {tile.id} was already placed in "
                           f"placement {seen_tiles[tile.id] + 1}")
        if pos.complete:
            raise BadInput(f"{where}: the board is full, no tile can be called")
        pos.called = tile.id
    if data.get("to_come") is not None:
        pos.coming = _to_come(pos, data["to_come"], seen_tiles, f"{where}: to_come")
    return pos


def _to_come(pos: Position, value: Any, placed: dict[str, int], where: str
             ) -> tuple[str, ...]:
    """The tiles known to be still to come, checked against the rules data and the
    board: a count, or tiles without order with "?" for those not known."""
    rules = pos.rules
    known: list[str] = []
    if isinstance(value, int) and not isinstance(value, bool):
        count = value
        if count < 0:
            raise BadInput(f"{where}: negative count {count}")
    elif isinstance(value, list):
        count = len(value)
        for i, item in enumerate(value):
            text = expect(item, str, f"{where}[{i}]").strip()
            if text == "?":
                continue
            tile = rules.parse_tile(text, f"{where}[{i}]")
            if tile.id in placed:
                raise BadInput(f"{where}[{i}]: tile {tile.id} is on the board (placement "
                               f"{placed[tile.id] + 1}), it cannot come again")
            if tile.id == pos.called:
                raise BadInput(f"{where}[{i}]: tile {tile.id} is the called tile")
            if tile.id in known:
                raise BadInput(f"{where}[{i}]: tile {tile.id} is listed twice; each tile "
                               "exists once")
            known.append(tile.id)
    else:
        raise BadInput(f"{where}: a number of tiles, or a list of tiles without order "
                       "('?' for each one not known)")
    unseen = len(rules.tiles) - len(pos.placements) - (pos.called is not None)
    if count > unseen:
        what = f"{count} tiles" + (f" ({count - len(known)} of them '?')" if known else "")
        raise BadInput(f"{where}: {what} still to come, but only {unseen} of the "
                       f"{len(rules.tiles)} tiles are neither placed nor called")
    calls = pos.calls_left()
    if count != calls:
        called = " less the called tile" if pos.called is not None else ""
        raise BadInput(f"{where}: {count} tiles still to come, but the "
                       f"{rules.board_size - len(pos.placements)} empty cells{called} "
                       f"leave {calls} to be called")
    order = {t.id: i for i, t in enumerate(rules.tiles)}
    return tuple(sorted(known, key=order.__getitem__))


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
