"""The board of Hoch Hinaus!: a stack of pieces on each space, the placement rules
(flat, not congruent, the Pros rule, gap fillers) and every legal placement of a turn.

`Board.why_not` is the reference every encoding is tested against.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from models.hoch_hinaus.rules import Face, Rules, Tile
from solver.errors import BadInput


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


class PlacementJson(TypedDict):
    """A placement in the answers: the tile, the spaces its faces lie on (in order),
    the faces, the gap filler laid first (None: none) and its text."""

    tile: str
    on: list[str]
    faces: list[str]
    filler: str | None
    text: str


def action_json(rules: Rules, a: Action) -> PlacementJson:
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

    def why_not_after(self, filler: int | None, s1: int, s2: int, faces: tuple[Face, Face],
                      pros: bool = False) -> str | None:
        """`why_not` for a tile laid after a gap filler on `filler` (None: none), the
        board left as it is: the filler is laid, the tile judged, the filler lifted."""
        if filler is None:
            return self.why_not(s1, s2, faces, pros)
        vis = self._vis
        self.place_filler(filler)
        try:
            return self.why_not(s1, s2, faces, pros)
        finally:
            self.pieces.pop()
            self.stacks[filler].pop()
            self._vis = vis

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

