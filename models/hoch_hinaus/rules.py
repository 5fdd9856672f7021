"""Tippi Toppi – Hoch Hinaus!: the rules data: the board's geometry, the colours, the
tile set, the gap fillers, hand size, open tasks and difficulty levels.

The data comes from `data/default.json` or a rules file given with `--rules` (same
format). The board and its placement rules are in board.py, a whole game in state.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io import expect, load_data, rgb_colour
from solver.io import field as json_field

#: A face: (colour index, number). Colour index len(colours) is the gap fillers' black.
Face = tuple[int, int]


@dataclass(frozen=True)
class Tile:
    """A domino tile: two faces (colour, number)."""

    id: str
    faces: tuple[Face, Face]


@dataclass(frozen=True)
class Rules:
    """Board geometry, colours, tiles, gap fillers, task counts (a rules file)."""

    name: str
    columns: int
    rows: int
    colour_names: tuple[str, ...]  # the four colours, then black (gap fillers)
    colour_letters: tuple[str, ...]
    colour_rgb: tuple[str, ...]
    filler_number: int
    numbers: tuple[int, ...]
    tiles: tuple[Tile, ...]
    fillers: int
    bonus_fillers: tuple[int, ...]
    hand_size: int
    open_tasks: int
    difficulty: dict[str, int]
    printed_fillers: tuple[str, ...]  # purple side

    # ---- geometry
    @cached_property
    def spaces(self) -> tuple[str, ...]:
        """Space names, row-major: column letter + row number, A1 is top left."""
        return tuple(f"{chr(65 + c)}{r + 1}" for r in range(self.rows)
                     for c in range(self.columns))

    @cached_property
    def n_spaces(self) -> int:
        return self.rows * self.columns

    @cached_property
    def space_index(self) -> dict[str, int]:
        return {s: i for i, s in enumerate(self.spaces)}

    def rc(self, s: int) -> tuple[int, int]:
        return divmod(s, self.columns)

    @cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """Every pair of neighbouring spaces a tile can cover (lower index first)."""
        out = []
        for s in range(self.n_spaces):
            r, c = self.rc(s)
            if c + 1 < self.columns:
                out.append((s, s + 1))
            if r + 1 < self.rows:
                out.append((s, s + self.columns))
        return tuple(sorted(out))

    @cached_property
    def row_lines(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(r * self.columns + c for c in range(self.columns))
                     for r in range(self.rows))

    @cached_property
    def column_lines(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(r * self.columns + c for r in range(self.rows))
                     for c in range(self.columns))

    @cached_property
    def edge(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n_spaces)
                     if self.rc(s)[0] in (0, self.rows - 1)
                     or self.rc(s)[1] in (0, self.columns - 1))

    @cached_property
    def centre(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n_spaces) if s not in self.edge)

    @cached_property
    def corners(self) -> tuple[int, ...]:
        return tuple(r * self.columns + c for r in (0, self.rows - 1)
                     for c in (0, self.columns - 1))

    # ---- faces and tiles
    @property
    def black(self) -> int:
        return len(self.colour_names) - 1

    @property
    def filler_face(self) -> Face:
        return (self.black, self.filler_number)

    @cached_property
    def tile_by_id(self) -> dict[str, Tile]:
        return {t.id: t for t in self.tiles}

    @cached_property
    def all_faces(self) -> tuple[Face, ...]:
        """Every tile face, then the black 0 of the gap fillers."""
        return tuple((c, n) for c in range(self.black) for n in self.numbers) + \
            (self.filler_face,)

    def face_text(self, face: Face | None) -> str:
        if face is None:
            return "--"
        return f"{self.colour_letters[face[0]]}{face[1]}"

    def parse_face(self, text: str, where: str) -> Face:
        """'G3', 'green3', 'green 3', 'K0' -> a face."""
        t = text.strip().lower().replace(" ", "").replace("-", "")
        for i, (name, letter) in enumerate(zip(self.colour_names, self.colour_letters,
                                               strict=True)):
            for prefix in (name, letter.lower()):
                rest = t[len(prefix):]
                if t.startswith(prefix) and rest.isdecimal():
                    face = (i, int(rest))
                    if face in self.all_faces:
                        return face
        raise BadInput(f"{where}: '{text}' is not a face (faces are written like G3 or "
                       f"green 3: {', '.join(self.colour_letters)} and a number)")

    def parse_space(self, text: str, where: str) -> int:
        key = str(text).strip().upper()
        if key not in self.space_index:
            raise BadInput(f"{where}: '{text}' is not a space of the board "
                           f"(spaces {self.spaces[0]}..{self.spaces[-1]})")
        return self.space_index[key]

    def tiles_with_faces(self, a: Face, b: Face) -> list[Tile]:
        return [t for t in self.tiles if t.faces in ((a, b), (b, a))]

    def parse_tile(self, text: str, where: str, used: set[str] | None = None
                   ) -> tuple[Tile, bool]:
        """A tile by id ('T07') or by its faces ('G3-O1'); returns (tile, flipped) where
        flipped says the faces were written in the reverse order of the tile's data.
        With faces, the first copy not in `used` is taken; none left is an error."""
        key = str(text).strip()
        if key.upper() in {t.id.upper() for t in self.tiles}:
            return next(t for t in self.tiles if t.id.upper() == key.upper()), False
        parts = key.replace("/", "-").split("-")
        if len(parts) != 2:
            raise BadInput(f"{where}: unknown tile '{text}' (tiles are T01..T"
                           f"{len(self.tiles):02d} or two faces like G3-O1)")
        a, b = (self.parse_face(p, where) for p in parts)
        copies = self.tiles_with_faces(a, b)
        if not copies:
            raise BadInput(f"{where}: the set has no tile {self.face_text(a)}-"
                           f"{self.face_text(b)}")
        free = [t for t in copies if t.id not in (used or set())]
        if not free:
            raise BadInput(f"{where}: more copies of tile {self.face_text(a)}-"
                           f"{self.face_text(b)} than the set has ({len(copies)})")
        t = free[0]
        return t, t.faces != (a, b)

    def tile_text(self, tile_id: str) -> str:
        t = self.tile_by_id[tile_id]
        return f"{t.id}({self.face_text(t.faces[0])}-{self.face_text(t.faces[1])})"


def load_rules(path: str | Path | None = None) -> Rules:
    """The built-in rules (`data/default.json`) or a rules file given with --rules."""
    return load_data(path, "models.hoch_hinaus", "default.json", parse_rules)


def parse_rules(data: Any, where: str) -> Rules:
    expect(data, dict, where)
    cols = json_field(data, "columns", int, where)
    rows = json_field(data, "rows", int, where)
    if not (1 <= cols <= 8 and 1 <= rows <= 8) or cols * rows < 2:
        raise BadInput(f"{where}: board must be between 1x2 and 8x8 spaces")
    colours = json_field(data, "colours", list, where)
    filler = json_field(data, "filler", dict, where)
    names, letters, rgbs = [], [], []
    for i, c in enumerate(colours + [filler]):
        w = f"{where}.colours[{i}]"
        expect(c, dict, w)
        names.append(json_field(c, "name", str, w).lower())
        letters.append(json_field(c, "letter", str, w).upper())
        rgbs.append(rgb_colour(json_field(c, "rgb", str, w), f"{w}.rgb"))
    if len(set(letters)) != len(letters) or len(set(names)) != len(names):
        raise BadInput(f"{where}: colour names and letters must be distinct")
    numbers = tuple(expect(n, int, f"{where}.numbers") for n in
                    json_field(data, "numbers", list, where))
    tmp = Rules("", cols, rows, tuple(names), tuple(letters), tuple(rgbs),
                json_field(filler, "number", int, f"{where}.filler"), numbers, (), 0, (), 3, 4,
                {}, ())
    tiles = []
    for i, t in enumerate(json_field(data, "tiles", list, where)):
        w = f"{where}.tiles[{i}]"
        expect(t, dict, w)
        faces = json_field(t, "faces", list, w)
        if len(faces) != 2:
            raise BadInput(f"{w}: a tile has exactly two faces")
        f0, f1 = (tmp.parse_face(expect(f, str, w), w) for f in faces)
        if tmp.black in (f0[0], f1[0]):
            raise BadInput(f"{w}: tiles cannot show the gap fillers' colour")
        tiles.append(Tile(json_field(t, "id", str, w).upper(), (f0, f1)))
    if len({t.id for t in tiles}) != len(tiles):
        raise BadInput(f"{where}: tile ids must be distinct")
    diff = json_field(data, "difficulty", dict, where)
    rules = Rules(
        name=json_field(data, "name", str, where), columns=cols, rows=rows,
        colour_names=tuple(names), colour_letters=tuple(letters), colour_rgb=tuple(rgbs),
        filler_number=tmp.filler_number, numbers=numbers, tiles=tuple(tiles),
        fillers=json_field(data, "fillers", int, where),
        bonus_fillers=tuple(expect(n, int, f"{where}.bonus_fillers")
                            for n in json_field(data, "bonus_fillers", list, where)),
        hand_size=json_field(data, "hand_size", int, where),
        open_tasks=json_field(data, "open_tasks", int, where),
        difficulty={k: expect(v, int, f"{where}.difficulty.{k}") for k, v in diff.items()},
        printed_fillers=tuple(expect(s, str, where).upper() for s in
                              json_field(data, "purple_side_printed_fillers", list, where, [])))
    for s in rules.printed_fillers:
        rules.parse_space(s, f"{where}.purple_side_printed_fillers")
    if sum(rules.bonus_fillers) > rules.fillers:
        raise BadInput(f"{where}: the bonus tasks hold more gap fillers than the game has")
    return rules

