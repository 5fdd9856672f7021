"""A board as the learned values read it: the rules as small integers (`Layout`), a
board's lines and supply (`Board`), and the moves on it (placing a tile, launching
ships) with the points they score."""

from __future__ import annotations

from dataclasses import dataclass, field

from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.spaceships import ordered_launches, single_launches

DEAD = -2  # a line with two colours (or, for its stud, two studs)
KIND = -1  # supply[KIND, kind]: the unseen tiles of a kind


class Layout:
    """The rules as small integers: lines, the lines through each cell, each tile's
    digit in each direction, the points of each colour."""

    def __init__(self, rules: Rules, gold_silver: bool) -> None:
        self.rules = rules
        self.gold_silver = gold_silver
        cells = rules.cell_ids
        self.cell_index = {c: i for i, c in enumerate(cells)}
        self.lines = [(d, tuple(self.cell_index[c] for c in line)) for d, line in rules.lines]
        self.length = [len(line) for _, line in self.lines]
        self.direction = [d for d, _ in self.lines]
        self.through: list[list[tuple[int, int]]] = [[] for _ in cells]
        for li, (_, line) in enumerate(self.lines):
            for pos, c in enumerate(line):
                self.through[c].append((li, pos))
        self.studs = sorted(rules.stud_bonus)
        n_studs = len(self.studs) + 1  # the last: no stud
        self.base = [1 + len(d.colours) * (n_studs if gold_silver else 1)
                     for d in rules.directions]
        self.tile_index = {t.id: i for i, t in enumerate(rules.tiles)}
        self.colour = [tuple(rules.directions[d].colours.index(t.stripes[d])
                             for d in range(len(rules.directions))) for t in rules.tiles]
        self.stud = [self.studs.index(t.stud) if t.stud is not None else len(self.studs)
                     for t in rules.tiles]
        self._kinds(rules, gold_silver)
        self.points = [[rules.colour_values[c] for c in d.colours] for d in rules.directions]
        self.bonus = [rules.stud_bonus[s] for s in self.studs] + [0]
        # spaceships: their indices, each colour's and stud's ship (-1: none), the
        # ring's buttons
        self.ship_index = {name: i for i, name in enumerate(rules.spaceships)}
        ship = self.ship_index
        self.colour_ship = [[ship.get(c, -1) for c in d.colours] for d in rules.directions]
        self.stud_ship = [ship.get(s, -1) for s in self.studs] + [-1]
        self.buttons = list(rules.buttons)

    def _kinds(self, rules: Rules, gold_silver: bool) -> None:
        # a tile's kind: its stripes (and stud, when the bonus rows score); the cells'
        # fits count the unseen tiles by kind
        kinds: dict[tuple, int] = {}
        self.kind = [kinds.setdefault(self.colour[t] + ((self.stud[t],) if gold_silver else ()),
                                      len(kinds)) for t in range(len(rules.tiles))]
        self.kinds = list(kinds)
        # the kinds (bits) with each stripe of each direction, and with each stud
        self.stripe_kinds = [[sum(1 << i for i, k in enumerate(self.kinds) if k[d] == c)
                              for c in range(len(dr.colours))]
                             for d, dr in enumerate(rules.directions)]
        self.stud_kinds = [sum(1 << i for i, k in enumerate(self.kinds) if k[-1] == s)
                           for s in range(len(self.studs) + 1)] if gold_silver else []
        self.all_kinds = (1 << len(self.kinds)) - 1
        self.bits: dict[int, tuple[int, ...]] = {}  # kinds of a bit set, as met

    def digit(self, tile: int, d: int) -> int:
        """Tile `tile`'s digit in a line pattern of direction d (0: no tile)."""
        c = self.colour[tile][d]
        if not self.gold_silver:
            return 1 + c
        return 1 + c * (len(self.studs) + 1) + self.stud[tile]


@dataclass
class Board:
    """A board as the value reads it: per line its pattern, tiles, colour and stud;
    the unseen tiles' counts per direction and colour (and stud)."""

    pattern: list[int]
    filled: list[int]
    colour: list[int]  # -1: no tile yet; DEAD: two colours
    stud: list[int]  # -1: no tile yet; DEAD: two studs or a tile without one
    supply: dict[tuple[int, ...], int]
    empty: set[int] = field(default_factory=set)
    # spaceships: per ship the ships on the pad below it (-1: launched); per line the
    # cells carrying ships
    rank: list[int] = field(default_factory=list)
    shipped: list[int] = field(default_factory=list)

    def copy(self) -> Board:
        """A copy to play on without changing this board."""
        return Board(list(self.pattern), list(self.filled), list(self.colour),
                     list(self.stud), dict(self.supply), set(self.empty), list(self.rank),
                     list(self.shipped))

    def level(self) -> int:
        """The ships launched from the bottom of the pad up to the first still on it."""
        level = 0
        while level < len(self.rank) and self.rank[level] < 0:
            level += 1
        return level


def count_unseen(lay: Layout, supply: dict[tuple[int, ...], int], t: int, k: int,
          fits: bool) -> None:
    """Add k copies of tile t to the unseen tiles' counts (by kind too with `fits`)."""
    for d, c in enumerate(lay.colour[t]):
        supply[d, c] = supply.get((d, c), 0) + k
        if lay.gold_silver:
            key = (d, c, lay.stud[t])
            supply[key] = supply.get(key, 0) + k
    if fits:
        key = (KIND, lay.kind[t])
        supply[key] = supply.get(key, 0) + k


def new_board(lay: Layout, fits: bool) -> Board:
    """The empty board, every tile of the rules unseen."""
    n = len(lay.lines)
    supply: dict[tuple[int, ...], int] = {}
    for t in range(len(lay.rules.tiles)):
        count_unseen(lay, supply, t, 1, fits)
    return Board([0] * n, [0] * n, [-1] * n, [-1] * n, supply,
                 set(range(len(lay.cell_index))), list(range(len(lay.buttons))), [0] * n)


def board_of(lay: Layout, fits: bool, board: dict[str, Tile], unseen: list[Tile],
             ships_on: dict[str, tuple[str, ...]] | None = None) -> Board:
    """The board of a position: its tiles placed (and ships launched), `unseen` the
    tiles that may come."""
    b = new_board(lay, fits)
    b.supply = {}
    for t in unseen:
        count_unseen(lay, b.supply, lay.tile_index[t.id], 1, fits)
    for cell, tile in board.items():
        place(lay, b, lay.tile_index[tile.id], lay.cell_index[cell])
    for cell, ships in (ships_on or {}).items():
        if ships:
            launch(lay, b, lay.cell_index[cell], tuple(lay.ship_index[s] for s in ships))
    return b


def ring(lay: Layout, b: Board) -> int:
    """The points of the ring's button on board b."""
    level = b.level()
    return lay.buttons[level - 1] if level else 0


def launch(lay: Layout, b: Board, x: int, ships: tuple[int, ...]) -> int:
    """Launch the ships onto cell x; the points the ring climbs."""
    before = ring(lay, b)
    launched = [r < 0 for r in b.rank]
    for s in ships:
        launched[s] = True
    below = 0
    for s, gone in enumerate(launched):
        b.rank[s] = -1 if gone else below
        below += not gone
    for li, _ in lay.through[x]:
        b.shipped[li] += 1
    return ring(lay, b) - before


def launches(lay: Layout, ships: str, b: Board, t: int, x: int) -> list[tuple[int, ...]]:
    """The launch sets tile t on cell x allows under the `ships` rules (none launched
    excluded)."""
    rows: list[set[int]] = []
    for li, pos in lay.through[x]:
        _, filled, colour, stud, _ = line_after(lay, b, li, pos, t)
        if filled != lay.length[li] or colour == DEAD or \
                ships == "advanced" and b.shipped[li]:
            continue
        allowed = {lay.colour_ship[lay.direction[li]][colour]}
        if stud >= 0:
            allowed.add(lay.stud_ship[stud])
        rows.append(allowed)
    if not rows:
        return []
    on_pad = [s for s, r in enumerate(b.rank) if r >= 0]
    rule = single_launches if ships == "advanced" else ordered_launches
    return rule(rows, on_pad)[1:]


def place(lay: Layout, b: Board, t: int, x: int) -> int:
    """Put tile t on cell x; the row points it completes."""
    points = 0
    for li, pos in lay.through[x]:
        b.pattern[li], b.filled[li], b.colour[li], b.stud[li], row = \
            line_after(lay, b, li, pos, t)
        points += row
    b.empty.discard(x)
    return points


def line_after(lay: Layout, b: Board, li: int, pos: int, t: int
               ) -> tuple[int, int, int, int, int]:
    """Line li of board b with tile t at its position pos: its pattern, tiles,
    colour and stud, and the row points it scores if that fills it."""
    d = lay.direction[li]
    c = lay.colour[t][d]
    s = lay.stud[t]
    colour = c if b.colour[li] in (-1, c) else DEAD
    stud = s if b.stud[li] in (-1, s) and s < len(lay.studs) else DEAD
    filled = b.filled[li] + 1
    row = _row(lay, li, d, colour, stud) \
        if filled == lay.length[li] and colour != DEAD else 0
    return b.pattern[li] + lay.digit(t, d) * lay.base[d] ** pos, filled, colour, stud, row


def _row(lay: Layout, li: int, d: int, colour: int, stud: int) -> int:
    n = lay.length[li]
    bonus = lay.bonus[stud] if lay.gold_silver and stud >= 0 else 0
    return n * (lay.points[d][colour] + bonus)
