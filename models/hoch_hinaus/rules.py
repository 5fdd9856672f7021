"""Tippi Toppi – Hoch Hinaus!: rules data, the board with its stacks, legal placements,
the whole game (tasks, bonus tasks with gap fillers, hands, reserve) and its turns.

This module is the reference every encoding is tested against (OpenSpiel style: a
state with legal_actions / apply_action / is_terminal). The board geometry, the tile
set, the gap fillers and the task catalogue are data (`data/*.json`, `--rules FILE`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io import expect, load_data, load_json
from solver.io import field as jfield

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
                if t.startswith(prefix) and rest.isdigit():
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
    cols = jfield(data, "columns", int, where)
    rows = jfield(data, "rows", int, where)
    if not (1 <= cols <= 8 and 1 <= rows <= 8) or cols * rows < 2:
        raise BadInput(f"{where}: board must be between 1x2 and 8x8 spaces")
    colours = jfield(data, "colours", list, where)
    filler = jfield(data, "filler", dict, where)
    names, letters, rgbs = [], [], []
    for i, c in enumerate(colours + [filler]):
        w = f"{where}.colours[{i}]"
        expect(c, dict, w)
        names.append(jfield(c, "name", str, w).lower())
        letters.append(jfield(c, "letter", str, w).upper())
        rgbs.append(jfield(c, "rgb", str, w))
    if len(set(letters)) != len(letters) or len(set(names)) != len(names):
        raise BadInput(f"{where}: colour names and letters must be distinct")
    numbers = tuple(expect(n, int, f"{where}.numbers") for n in
                    jfield(data, "numbers", list, where))
    tmp = Rules("", cols, rows, tuple(names), tuple(letters), tuple(rgbs),
                jfield(filler, "number", int, f"{where}.filler"), numbers, (), 0, (), 3, 4,
                {}, ())
    tiles = []
    for i, t in enumerate(jfield(data, "tiles", list, where)):
        w = f"{where}.tiles[{i}]"
        expect(t, dict, w)
        faces = jfield(t, "faces", list, w)
        if len(faces) != 2:
            raise BadInput(f"{w}: a tile has exactly two faces")
        f0, f1 = (tmp.parse_face(expect(f, str, w), w) for f in faces)
        if tmp.black in (f0[0], f1[0]):
            raise BadInput(f"{w}: tiles cannot show the gap fillers' colour")
        tiles.append(Tile(jfield(t, "id", str, w).upper(), (f0, f1)))
    if len({t.id for t in tiles}) != len(tiles):
        raise BadInput(f"{where}: tile ids must be distinct")
    diff = jfield(data, "difficulty", dict, where)
    rules = Rules(
        name=jfield(data, "name", str, where), columns=cols, rows=rows,
        colour_names=tuple(names), colour_letters=tuple(letters), colour_rgb=tuple(rgbs),
        filler_number=tmp.filler_number, numbers=numbers, tiles=tuple(tiles),
        fillers=jfield(data, "fillers", int, where),
        bonus_fillers=tuple(expect(n, int, f"{where}.bonus_fillers")
                            for n in jfield(data, "bonus_fillers", list, where)),
        hand_size=jfield(data, "hand_size", int, where),
        open_tasks=jfield(data, "open_tasks", int, where),
        difficulty={k: expect(v, int, f"{where}.difficulty.{k}") for k, v in diff.items()},
        printed_fillers=tuple(expect(s, str, where).upper() for s in
                              jfield(data, "purple_side_printed_fillers", list, where, [])))
    for s in rules.printed_fillers:
        rules.parse_space(s, f"{where}.purple_side_printed_fillers")
    if sum(rules.bonus_fillers) > rules.fillers:
        raise BadInput(f"{where}: the bonus tasks hold more gap fillers than the game has")
    return rules


# --------------------------------------------------------------------------- the board

@dataclass(frozen=True)
class Piece:
    """A piece on the board: a tile (two spaces) or a gap filler (one space)."""

    tile: str | None  # None: a gap filler
    spaces: tuple[int, ...]
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class Action:
    """One turn's placement: an optional gap filler first, then a tile with faces[0] on
    `first` and faces[1] on `second`."""

    tile: str
    first: int
    second: int
    filler: int | None = None


def action_text(rules: Rules, a: Action) -> str:
    """E.g. 'filler A1 + T07 G3:A1 O1:B1'."""
    t = rules.tile_by_id[a.tile]
    s = (f"{a.tile} {rules.face_text(t.faces[0])}:{rules.spaces[a.first]} "
         f"{rules.face_text(t.faces[1])}:{rules.spaces[a.second]}")
    if a.filler is not None:
        s = f"filler {rules.spaces[a.filler]} + " + s
    return s


def action_json(rules: Rules, a: Action) -> dict:
    t = rules.tile_by_id[a.tile]
    return {"tile": a.tile, "on": [rules.spaces[a.first], rules.spaces[a.second]],
            "faces": [rules.face_text(t.faces[0]), rules.face_text(t.faces[1])],
            "filler": None if a.filler is None else rules.spaces[a.filler],
            "text": action_text(rules, a)}


class Board:
    """The 3x4 board with a stack of pieces on each space (bottom first)."""

    def __init__(self, rules: Rules, side: str = "blue") -> None:
        if side not in ("blue", "purple"):
            raise BadInput(f"board side must be blue or purple, not '{side}'")
        self.rules = rules
        self.side = side
        self.pieces: list[Piece] = []
        self.stacks: list[list[tuple[int, Face]]] = [[] for _ in range(rules.n_spaces)]
        # printed gap fillers of the purple side: visible black 0 at height 0
        self.base: list[Face | None] = [None] * rules.n_spaces
        self._vis: list | None = None  # visible() until the next piece is laid
        if side == "purple":
            for s in rules.printed_fillers:
                self.base[rules.space_index[s]] = rules.filler_face

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.rules, b.side, b.base = self.rules, self.side, self.base
        b.pieces = list(self.pieces)
        b.stacks = [list(st) for st in self.stacks]
        b._vis = self._vis
        return b

    def height(self, s: int) -> int:
        return len(self.stacks[s])

    def top(self, s: int) -> Face | None:
        """The visible face of a space (None: the empty board)."""
        st = self.stacks[s]
        return st[-1][1] if st else self.base[s]

    def top_piece(self, s: int) -> int | None:
        st = self.stacks[s]
        return st[-1][0] if st else None

    def visible(self) -> list[tuple[Face | None, int]]:
        """(face, height) of every space as seen from above (do not modify the list)."""
        if self._vis is None:
            self._vis = [(st[-1][1] if st else base, len(st))
                         for st, base in zip(self.stacks, self.base, strict=True)]
        return self._vis

    def tiles_used(self) -> list[str]:
        return [p.tile for p in self.pieces if p.tile is not None]

    def fillers_used(self) -> int:
        return sum(1 for p in self.pieces if p.tile is None)

    def _matches(self, below: Face | None, face: Face) -> bool:
        """Pros rule: same colour and/or number as the space below; black is a joker."""
        if below is None:
            return False
        return below[0] == self.rules.black or below[0] == face[0] or below[1] == face[1]

    def why_not(self, s1: int, s2: int, faces: tuple[Face, Face], pros: bool = False
                ) -> str | None:
        """Why a tile with faces[0] on s1 and faces[1] on s2 may not be placed, or None."""
        r = self.rules
        if (min(s1, s2), max(s1, s2)) not in r.pairs:
            return (f"{r.spaces[s1]} and {r.spaces[s2]} are not neighbouring spaces: the "
                    "tile must completely cover 2 spaces of the board")
        h1, h2 = self.height(s1), self.height(s2)
        if h1 != h2:
            return (f"the tile would not lie flat ({r.spaces[s1]} has height {h1}, "
                    f"{r.spaces[s2]} height {h2})")
        if h1 > 0 and self.top_piece(s1) == self.top_piece(s2):
            return "a tile may not be placed exactly congruent on one other tile"
        if pros and h1 > 0 and not (self._matches(self.top(s1), faces[0])
                                    or self._matches(self.top(s2), faces[1])):
            return ("Pros rule: one space of the tile must match the colour or number of "
                    "the space below it")
        return None

    def place_tile(self, tile: Tile, s1: int, s2: int, flipped: bool = False) -> None:
        faces = (tile.faces[1], tile.faces[0]) if flipped else tile.faces
        idx = len(self.pieces)
        self.pieces.append(Piece(tile.id, (s1, s2), faces))
        self._vis = None
        self.stacks[s1].append((idx, faces[0]))
        self.stacks[s2].append((idx, faces[1]))

    def place_filler(self, s: int) -> None:
        idx = len(self.pieces)
        face = self.rules.filler_face
        self.pieces.append(Piece(None, (s,), (face,)))
        self._vis = None
        self.stacks[s].append((idx, face))

    def key(self) -> tuple:
        """What matters for the future: heights, visible faces and which neighbouring
        tops are one tile (the placement rules look at nothing else)."""
        r = self.rules
        joined = tuple(e for e, (a, b) in enumerate(r.pairs)
                       if self.stacks[a] and self.top_piece(a) == self.top_piece(b))
        return (tuple(self.visible()), joined)

    def placements(self, tiles: Iterable[str], pros: bool, fillers: bool) -> list[Action]:
        """Every legal action with these hand tiles (gap filler first if allowed)."""
        out: list[Action] = []
        tiles = list(dict.fromkeys(tiles))
        options: list[int | None] = [None] + (list(range(self.rules.n_spaces))
                                              if fillers else [])
        for f in options:
            b = self
            if f is not None:
                b = self.copy()
                b.place_filler(f)
            for s1, s2 in self.rules.pairs:
                for t in tiles:
                    tile = self.rules.tile_by_id[t]
                    for a, c in ((s1, s2), (s2, s1)):
                        if b.why_not(a, c, tile.faces, pros) is None:
                            out.append(Action(t, a, c, f))
        return out

    def _any_tile(self, tiles: Sequence[str], pros: bool) -> bool:
        r = self.rules
        for s1, s2 in r.pairs:
            for t in tiles:
                faces = r.tile_by_id[t].faces
                if self.why_not(s1, s2, faces, pros) is None or \
                        (pros and self.why_not(s2, s1, faces, pros) is None):
                    return True
        return False

    def can_place(self, tiles: Sequence[str], pros: bool, fillers: bool) -> bool:
        """Is there any legal action with these tiles (as `placements`, early exit)?"""
        if not tiles:
            return False
        if self._any_tile(tiles, pros):
            return True
        if fillers:
            for f in range(self.rules.n_spaces):
                b = self.copy()
                b.place_filler(f)
                if b._any_tile(tiles, pros):
                    return True
        return False

    def apply(self, a: Action) -> None:
        if a.filler is not None:
            self.place_filler(a.filler)
        self.place_tile(self.rules.tile_by_id[a.tile], a.first, a.second)


# --------------------------------------------------------------------------- board files

def _parse_pieces(rules: Rules, board: Board, items: list, where: str, pros: bool,
                  used: set[str]) -> None:
    for i, item in enumerate(items):
        w = f"{where}.pieces[{i}]"
        expect(item, dict, w)
        level = jfield(item, "level", int, w, None)
        if "filler" in item:
            s = rules.parse_space(jfield(item, "filler", str, w), f"{w}.filler")
            if level is not None and level != board.height(s) + 1:
                _level_error(rules, w, "gap filler", [s], level, board)
            board.place_filler(s)
            continue
        tile, flipped = rules.parse_tile(jfield(item, "tile", str, w), f"{w}.tile", used)
        if tile.id in used:
            raise BadInput(f"{w}: tile {tile.id} is used twice (the set has one)")
        on = jfield(item, "on", list, w)
        if len(on) != 2:
            raise BadInput(f"{w}.on: a tile covers exactly two spaces")
        s1, s2 = (rules.parse_space(expect(x, str, f"{w}.on"), f"{w}.on") for x in on)
        if level is not None and any(board.height(s) + 1 != level for s in (s1, s2)):
            _level_error(rules, w, f"tile {tile.id}", [s1, s2], level, board)
        faces = (tile.faces[1], tile.faces[0]) if flipped else tile.faces
        why = board.why_not(s1, s2, faces, pros)
        if why is not None:
            raise BadInput(f"{w}: tile {tile.id} cannot lie on {rules.spaces[s1]}-"
                           f"{rules.spaces[s2]}: {why}")
        board.place_tile(tile, s1, s2, flipped)
        used.add(tile.id)


def _level_error(rules: Rules, w: str, what: str, spaces: list[int], level: int,
                 board: Board) -> None:
    below = ", ".join(f"{rules.spaces[s]} has height {board.height(s)}" for s in spaces)
    if any(board.height(s) + 1 < level for s in spaces):
        raise BadInput(f"{w}: {what} at level {level} floats over an empty space ({below})")
    raise BadInput(f"{w}: {what} cannot lie at level {level} ({below})")


def parse_board(rules: Rules, data: dict, where: str, pros: bool,
                used: set[str] | None = None) -> Board:
    side = jfield(data, "side", str, where, "blue")
    board = Board(rules, side)
    _parse_pieces(rules, board, jfield(data, "pieces", list, where, []), where, pros,
                  used if used is not None else set())
    if board.fillers_used() > rules.fillers:
        raise BadInput(f"{where}: {board.fillers_used()} gap fillers on the board, the game "
                       f"has {rules.fillers}")
    return board


def board_json(board: Board) -> list[dict]:
    r = board.rules
    out = []
    for p in board.pieces:
        if p.tile is None:
            out.append({"filler": r.spaces[p.spaces[0]]})
        else:
            t = r.tile_by_id[p.tile]
            flipped = p.faces != t.faces
            on = [r.spaces[p.spaces[1]], r.spaces[p.spaces[0]]] if flipped else \
                [r.spaces[s] for s in p.spaces]
            out.append({"tile": p.tile, "on": on})
    return out


# --------------------------------------------------------------------------- the game

@dataclass
class Bonus:
    """A face-down bonus task with the gap fillers lying on it."""

    task: Any  # a tasks.Task, or None when unknown
    fillers: int


@dataclass
class Game:
    """The whole game: board, tasks, bonus tasks with their fillers, hands, reserve.

    Unknown information is marked: reserve_known False means `reserve` holds the unseen
    tiles in an arbitrary order; `draw_pile` entries and bonus tasks may be None
    (unknown task). Such a game is completed by `determinise` before play-outs.
    """

    rules: Rules
    board: Board
    open: list
    draw_pile: list
    bonus: list[Bonus]
    hands: list[list[str]]
    reserve: list[str]
    completed: list = field(default_factory=list)
    on_turn: int = 0
    pros: bool = False
    reserve_known: bool = True
    status: str = "playing"  # playing | won | lost
    turns: int = 0

    def copy(self) -> Game:
        return Game(self.rules, self.board.copy(), list(self.open), list(self.draw_pile),
                    [Bonus(b.task, b.fillers) for b in self.bonus],
                    [list(h) for h in self.hands], list(self.reserve), list(self.completed),
                    self.on_turn, self.pros, self.reserve_known, self.status, self.turns)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def fillers_left(self) -> int:
        return sum(b.fillers for b in self.bonus)

    @property
    def everything_known(self) -> bool:
        return (self.reserve_known and None not in self.draw_pile
                and None not in self.open and all(b.task is not None or b.fillers == 0
                                                  for b in self.bonus))

    def legal_actions(self) -> list[Action]:
        if self.status != "playing":
            return []
        return self.board.placements(self.hands[self.on_turn], self.pros,
                                     self.fillers_left > 0)

    def is_terminal(self) -> bool:
        return self.status != "playing"

    def take_filler(self) -> None:
        """Take a gap filler from the first bonus task that has one; the last one taken
        puts that task face down on the draw pile (face up if fewer than 4 are open)."""
        for b in self.bonus:
            if b.fillers > 0:
                b.fillers -= 1
                if b.fillers == 0:
                    if len(self.open) < self.rules.open_tasks:
                        self.open.append(b.task)
                    else:
                        self.draw_pile.insert(0, b.task)
                    b.task = None
                return
        raise BadInput("no gap filler is left on the bonus tasks")

    def place(self, a: Action) -> None:
        """Step 1 of a turn (checked): the optional gap filler, then the tile."""
        hand = self.hands[self.on_turn]
        if a.tile not in hand:
            raise BadInput(f"tile {a.tile} is not in the hand of player {self.on_turn + 1}")
        if a.filler is not None:
            self.take_filler()
            self.board.place_filler(a.filler)
        tile = self.rules.tile_by_id[a.tile]
        why = self.board.why_not(a.first, a.second, tile.faces, self.pros)
        if why is not None:
            raise BadInput(f"illegal placement {action_text(self.rules, a)}: {why}")
        self.board.place_tile(tile, a.first, a.second)
        hand.remove(a.tile)

    def fulfil(self) -> list:
        """Step 2: discard every fulfilled open task, turn up new ones until 4 are open,
        and discard newly turned-up tasks that are fulfilled at once. Returns the tasks
        fulfilled; sets status won when no task is open and the draw pile is empty."""
        from models.hoch_hinaus.tasks import holds

        visible = self.board.visible()
        done: list = []
        while True:
            while len(self.open) < self.rules.open_tasks and self.draw_pile:
                self.open.append(self.draw_pile.pop(0))
            now = [t for t in self.open if t is not None and holds(self.rules, t, visible)]
            if not now:
                break
            for t in now:
                self.open.remove(t)
            done.extend(now)
        self.completed.extend(done)
        if not self.open and not self.draw_pile:
            self.status = "won"
        return done

    def draw(self) -> None:
        """Step 3: draw a tile (if the reserve has one); then the next player's turn. A
        player on turn who cannot place a tile loses the game for everyone."""
        if self.reserve:
            self.hands[self.on_turn].append(self.reserve.pop(0))
        self.on_turn = (self.on_turn + 1) % self.players
        self.turns += 1
        self.check_lost()

    def check_lost(self) -> None:
        if self.status == "playing" and not self.board.can_place(
                self.hands[self.on_turn], self.pros, self.fillers_left > 0):
            self.status = "lost"

    def apply_action(self, a: Action) -> list:
        """A whole turn: place, fulfil, draw. Returns the tasks fulfilled."""
        if self.status != "playing":
            raise BadInput(f"the game is over ({self.status})")
        self.place(a)
        done = self.fulfil()
        if self.status == "playing":
            self.draw()
        return done

    def returns(self) -> float:
        return {"won": 1.0, "lost": 0.0}.get(self.status, 0.0)

    def determinise(self, rng: random.Random, catalogue: Sequence) -> Game:
        """A copy with every unknown filled in at random: the reserve shuffled (when its
        order is unknown), unknown tasks drawn from the catalogue tasks not yet seen."""
        g = self.copy()
        if not g.reserve_known:
            rng.shuffle(g.reserve)
            g.reserve_known = True
        seen = [t for t in g.open + g.draw_pile + g.completed if t is not None]
        seen += [b.task for b in g.bonus if b.task is not None]
        pool = [t for t in catalogue if t not in seen]
        rng.shuffle(pool)
        g.draw_pile = [t if t is not None else pool.pop() for t in g.draw_pile]
        g.open = [t if t is not None else pool.pop() for t in g.open]
        for b in g.bonus:
            if b.task is None and b.fillers > 0:
                b.task = pool.pop()
        return g


def new_game(rules: Rules, catalogue: Sequence, players: int, difficulty: str,
             rng: random.Random, side: str = "blue", pros: bool = False) -> Game:
    """Set up a game as the rulebook says: 4 bonus tasks with their gap fillers, 4 open
    tasks, a draw pile by difficulty, 3 tiles per player, the rest as reserve."""
    if not 1 <= players <= 4:
        raise BadInput("1 to 4 players")
    if difficulty not in rules.difficulty:
        raise BadInput(f"unknown difficulty '{difficulty}' "
                       f"(one of {', '.join(rules.difficulty)})")
    tasks = list(catalogue)
    n_bonus, n_open = len(rules.bonus_fillers), rules.open_tasks
    need = n_bonus + n_open + rules.difficulty[difficulty]
    if len(tasks) < need:
        raise BadInput(f"the catalogue has {len(tasks)} tasks, the game needs {need}")
    rng.shuffle(tasks)
    bonus = [Bonus(tasks.pop(), n) for n in rules.bonus_fillers]
    open_ = [tasks.pop() for _ in range(n_open)]
    pile = [tasks.pop() for _ in range(rules.difficulty[difficulty])]
    tiles = [t.id for t in rules.tiles]
    rng.shuffle(tiles)
    hands = [[tiles.pop() for _ in range(rules.hand_size)] for _ in range(players)]
    return Game(rules, Board(rules, side), open_, pile, bonus, hands, tiles, pros=pros)


# --------------------------------------------------------------------------- game files

def _task_list(items: Any, where: str, parse_task: Any, allow_unknown: bool) -> list:
    out = []
    for i, t in enumerate(items):
        if t is None or t == "?":
            if not allow_unknown:
                raise BadInput(f"{where}[{i}]: this task must be known")
            out.append(None)
        else:
            out.append(parse_task(expect(t, str, f"{where}[{i}]"), f"{where}[{i}]"))
    return out


def parse_game(rules: Rules, data: Any, where: str, pros: bool | None = None,
               catalogue: Any = None) -> Game:
    """A board file (pieces only) or a whole game state; see docs/hoch-hinaus.md."""
    from models.hoch_hinaus.tasks import load_catalogue

    expect(data, dict, where)
    cat = catalogue if catalogue is not None else load_catalogue(rules)
    variant = jfield(data, "variant", str, where, "basic")
    if variant not in ("basic", "pros"):
        raise BadInput(f"{where}.variant: 'basic' or 'pros', not '{variant}'")
    is_pros = variant == "pros" if pros is None else pros
    used: set[str] = set()
    board = parse_board(rules, data, where, is_pros, used)
    open_ = _task_list(jfield(data, "open", list, where, []), f"{where}.open", cat.parse,
                       False)
    pile_raw = jfield(data, "draw_pile", (list, int), where, [])
    if isinstance(pile_raw, int):
        if pile_raw < 0:
            raise BadInput(f"{where}.draw_pile: a count cannot be negative")
        pile: list = [None] * pile_raw
    else:
        pile = _task_list(pile_raw, f"{where}.draw_pile", cat.parse, True)
    bonus = []
    for i, b in enumerate(jfield(data, "bonus", list, where, [])):
        w = f"{where}.bonus[{i}]"
        expect(b, dict, w)
        n = jfield(b, "fillers", int, w)
        if n < 0:
            raise BadInput(f"{w}.fillers: cannot be negative")
        task = b.get("task")
        bonus.append(Bonus(None if task in (None, "?") else
                           cat.parse(expect(task, str, f"{w}.task"), f"{w}.task"), n))
    if "bonus" not in data and "hands" not in data:
        # a board file: the gap fillers not on the board are at hand
        left = rules.fillers - board.fillers_used()
        bonus = [Bonus(None, left)] if left else []
    if board.fillers_used() + sum(b.fillers for b in bonus) > rules.fillers:
        raise BadInput(f"{where}: {board.fillers_used()} gap fillers on the board and "
                       f"{sum(b.fillers for b in bonus)} on bonus tasks, the game has "
                       f"{rules.fillers}")
    hands = []
    for i, h in enumerate(jfield(data, "hands", list, where, [])):
        w = f"{where}.hands[{i}]"
        hand = []
        for j, t in enumerate(expect(h, list, w)):
            tile, _ = rules.parse_tile(expect(t, str, f"{w}[{j}]"), f"{w}[{j}]", used)
            if tile.id in used:
                raise BadInput(f"{w}[{j}]: tile {tile.id} is used twice (the set has one)")
            used.add(tile.id)
            hand.append(tile.id)
        if len(hand) > rules.hand_size:
            raise BadInput(f"{w}: a hand holds at most {rules.hand_size} tiles")
        hands.append(hand)
    if len(hands) > 4:
        raise BadInput(f"{where}.hands: 1 to 4 players")
    reserve_raw = data.get("reserve")
    if reserve_raw is None:
        reserve = [t.id for t in rules.tiles if t.id not in used]
        known = False
    else:
        reserve = []
        for j, t in enumerate(expect(reserve_raw, list, f"{where}.reserve")):
            tile, _ = rules.parse_tile(expect(t, str, f"{where}.reserve[{j}]"),
                                       f"{where}.reserve[{j}]", used)
            if tile.id in used:
                raise BadInput(f"{where}.reserve[{j}]: tile {tile.id} is used twice")
            used.add(tile.id)
            reserve.append(tile.id)
        known = True
    completed = _task_list(jfield(data, "completed", list, where, []),
                           f"{where}.completed", cat.parse, False)
    on_turn = jfield(data, "on_turn", int, where, 1) - 1
    if hands and not 0 <= on_turn < len(hands):
        raise BadInput(f"{where}.on_turn: player 1..{len(hands)}")
    game = Game(rules, board, open_, pile, bonus, hands, reserve, completed,
                max(on_turn, 0), is_pros, known)
    if hands:
        if not open_ and not pile:
            game.status = "won"
        else:
            game.check_lost()
    return game


def load_game(rules: Rules, path: str | Path, pros: bool | None = None,
              catalogue: Any = None) -> Game:
    return parse_game(rules, load_json(path, "position file"), f"position file {path}",
                      pros, catalogue)


def game_json(game: Game) -> dict:
    """A game state in the file format (unknown tasks as '?')."""
    def txt(t: Any) -> str:
        return "?" if t is None else t.text()

    out: dict = {"side": game.board.side, "variant": "pros" if game.pros else "basic",
                 "pieces": board_json(game.board),
                 "open": [txt(t) for t in game.open],
                 "draw_pile": [txt(t) for t in game.draw_pile],
                 "bonus": [{"task": txt(b.task), "fillers": b.fillers} for b in game.bonus],
                 "hands": game.hands, "on_turn": game.on_turn + 1,
                 "completed": [txt(t) for t in game.completed]}
    if game.reserve_known:
        out["reserve"] = game.reserve
    return out


def hand_tiles(game: Game, tiles: Sequence[str] | None) -> list[str]:
    """The tiles a query places: given ones, else the hand of the player on turn, else
    (a board file without hands) every tile not on the board."""
    if tiles:
        return list(tiles)
    if game.hands:
        return list(game.hands[game.on_turn])
    used = set(game.board.tiles_used())
    return [t.id for t in game.rules.tiles if t.id not in used]
