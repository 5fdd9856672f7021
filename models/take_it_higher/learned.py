"""A learned value of Take it Higher! boards: an honest player's expected points to come.

The hint's sampled completions know each sampled future whole, so they value cells for
hindsight; a value learned from play does not. `LineValues` is a sum of table entries
over the lines still able to score (an n-tuple network, as for Take it Easy): each
line's pattern of stripes (and studs, under the gold/silver rules), and the line's
prospects given how many unseen tiles carry its colour (and stud) and how many calls
are left. The tables are
learned by temporal differences from seeded self-play (`train`): after each placement
the value of the previous board moves toward the points the placement scored plus the
value of the new board. Any rules file of the family can be learned (`toppi
take-it-higher learn`); the built-in board's tables ship in `data/`. A move is valued
one call ahead for the best few cells, and the endgame by the exact values (`exact.py`).

The value reads only what a player sees: the board, the ships, and which tiles are not
yet placed (never the order of the tiles to come). Values learned with a spaceship rule
set (`ships`) count the ring too and choose the launches; values of the rows alone leave
the launches to the caller.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.spaceships import ordered_launches, single_launches
from models.take_it_higher.state import GameState
from models.take_it_higher.variants import Variant
from solver.errors import BadInput
from solver.stats import mean_error

VERSION = 1
ALPHA = 0.2  # the step size of the learning, shared among a board's table entries
PHASE = 3  # calls left, in steps of
CAP = 99  # supplies above this count as this
SHIP_CAP = 9  # ... in the entries of a line's ship
SHIP_RANKS = 4  # ships on the pad below a line's ship: more count as this
FITS = 3  # unseen tiles that fit an empty cell: more count as this
KIND = -1  # supply[KIND, kind]: the unseen tiles of a kind
LOOKAHEAD = 6  # cells valued one call deeper by default
# by default those cells are valued on 32 sampled futures of 5 calls each, played by the
# values, then the value of the board (the same futures for every cell); 5 calls beat 2
# under the advanced rules and lose nowhere (docs: "Longer futures")
FUTURES = 32
CALLS = 5
# from this size of the rest of the game on, the exact values: about the last 5 calls,
# 1-5 s of CPU (30,000 let in 6 calls at times: 17 s)
ENDGAME_POSITIONS = 10_000

DEAD = -2  # a line with two colours (or, for its stud, two studs)


class _Layout:
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
        self.points = [[rules.colour_values[c] for c in d.colours] for d in rules.directions]
        self.bonus = [rules.stud_bonus[s] for s in self.studs] + [0]
        # spaceships: their indices, each colour's and stud's ship (-1: none), the
        # ring's buttons
        self.ship_index = {name: i for i, name in enumerate(rules.spaceships)}
        ship = self.ship_index
        self.colour_ship = [[ship.get(c, -1) for c in d.colours] for d in rules.directions]
        self.stud_ship = [ship.get(s, -1) for s in self.studs] + [-1]
        self.buttons = list(rules.buttons)

    def digit(self, tile: int, d: int) -> int:
        c = self.colour[tile][d]
        if not self.gold_silver:
            return 1 + c
        return 1 + c * (len(self.studs) + 1) + self.stud[tile]


@dataclass(frozen=True)
class CellValue:
    """A cell for the called tile and its expected final row points; `deep`: valued
    one call ahead."""

    cell: str
    value: float
    deep: bool = False
    launch: tuple[str, ...] = ()  # the ships to launch with it (learned ship values)
    futures: int = 0  # valued on this many sampled futures (0: exactly, one call ahead)
    error: float = 0.0  # the standard error of a value on sampled futures


@dataclass
class _Board:
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


class LineValues:
    """The learned tables of one rules file and scoring (basic or gold/silver rows),
    and with `ships` (simple or advanced rules) the Take it Higher! bonus too: then the
    tables also read each line's ship (launched, blocked by a ship on the line, or how
    many ships on the pad are below it) and the ring, and a move includes its
    launches."""

    def __init__(self, rules: Rules, gold_silver: bool,
                 weights: dict[tuple, float] | None = None, games: int = 0,
                 seed: int = 0, ships: str | None = None, chances: bool = False,
                 fits: bool = False) -> None:
        self.rules = rules
        self.gold_silver = gold_silver
        self.ships = ships if rules.spaceships else None
        # the ships' chances (`_chances`) among the entries: tables learned since
        # 4 Dec 2026; earlier files read without them, as they were learned
        self.chances = chances
        # the cells' fits (`_fit_key`) among the entries: tables learned with them
        self.fits = fits
        self.layout = _Layout(rules, gold_silver)
        self.weights: dict[tuple, float] = weights if weights is not None else {}
        self.games = games
        self.seed = seed

    # ------------------------------------------------------------------ boards

    def _new_board(self) -> _Board:
        lay = self.layout
        n = len(lay.lines)
        supply: dict[tuple[int, ...], int] = {}
        for t in range(len(self.rules.tiles)):
            self._count(supply, t, 1)
        return _Board([0] * n, [0] * n, [-1] * n, [-1] * n, supply,
                      set(range(len(lay.cell_index))), list(range(len(lay.buttons))), [0] * n)

    def _count(self, supply: dict[tuple[int, ...], int], t: int, k: int) -> None:
        lay = self.layout
        for d, c in enumerate(lay.colour[t]):
            supply[d, c] = supply.get((d, c), 0) + k
            if self.gold_silver:
                key = (d, c, lay.stud[t])
                supply[key] = supply.get(key, 0) + k
        if self.fits:
            key = (KIND, lay.kind[t])
            supply[key] = supply.get(key, 0) + k

    def board_of(self, board: dict[str, Tile], unseen: list[Tile],
                 ships_on: dict[str, tuple[str, ...]] | None = None) -> _Board:
        """The board of a position: its tiles placed (and ships launched), `unseen` the
        tiles that may come."""
        lay = self.layout
        b = self._new_board()
        b.supply = {}
        for t in unseen:
            self._count(b.supply, lay.tile_index[t.id], 1)
        for cell, tile in board.items():
            self._place(b, lay.tile_index[tile.id], lay.cell_index[cell])
        for cell, ships in (ships_on or {}).items():
            if ships:
                self._launch(b, lay.cell_index[cell], tuple(lay.ship_index[s] for s in ships))
        return b

    def _launch(self, b: _Board, x: int, launch: tuple[int, ...]) -> int:
        """Launch the ships onto cell x; the points the ring climbs."""
        before = _ring(self.layout, b)
        launched = [r < 0 for r in b.rank]
        for s in launch:
            launched[s] = True
        below = 0
        for s, gone in enumerate(launched):
            b.rank[s] = -1 if gone else below
            below += not gone
        for li, _ in self.layout.through[x]:
            b.shipped[li] += 1
        return _ring(self.layout, b) - before

    def _launches(self, b: _Board, t: int, x: int) -> list[tuple[int, ...]]:
        """The launch sets tile t on cell x allows (none launched excluded)."""
        lay = self.layout
        rows: list[set[int]] = []
        for li, pos in lay.through[x]:
            _, filled, colour, stud, _ = self._line_after(b, li, pos, t)
            if filled != lay.length[li] or colour == DEAD or \
                    self.ships == "advanced" and b.shipped[li]:
                continue
            allowed = {lay.colour_ship[lay.direction[li]][colour]}
            if stud >= 0:
                allowed.add(lay.stud_ship[stud])
            rows.append(allowed)
        if not rows:
            return []
        on_pad = [s for s, r in enumerate(b.rank) if r >= 0]
        launches = single_launches if self.ships == "advanced" else ordered_launches
        return launches(rows, on_pad)[1:]

    def _place(self, b: _Board, t: int, x: int) -> int:
        """Put tile t on cell x; the row points it completes."""
        points = 0
        for li, pos in self.layout.through[x]:
            b.pattern[li], b.filled[li], b.colour[li], b.stud[li], row = \
                self._line_after(b, li, pos, t)
            points += row
        b.empty.discard(x)
        return points

    def _line_after(self, b: _Board, li: int, pos: int, t: int
                    ) -> tuple[int, int, int, int, int]:
        """Line li of board b with tile t at its position pos: its pattern, tiles,
        colour and stud, and the row points it scores if that fills it."""
        lay = self.layout
        d = lay.direction[li]
        c = lay.colour[t][d]
        s = lay.stud[t]
        colour = c if b.colour[li] in (-1, c) else DEAD
        stud = s if b.stud[li] in (-1, s) and s < len(lay.studs) else DEAD
        filled = b.filled[li] + 1
        row = self._row(li, d, colour, stud) \
            if filled == lay.length[li] and colour != DEAD else 0
        return b.pattern[li] + lay.digit(t, d) * lay.base[d] ** pos, filled, colour, stud, row

    def _row(self, li: int, d: int, colour: int, stud: int) -> int:
        lay = self.layout
        n = lay.length[li]
        bonus = lay.bonus[stud] if self.gold_silver and stud >= 0 else 0
        return n * (lay.points[d][colour] + bonus)

    # ------------------------------------------------------------------ features

    def _line_keys(self, li: int, pattern: int, filled: int, colour: int, stud: int,
                   b: _Board, left: int) -> list[tuple]:
        """The table entries of one line (none when it can no longer score)."""
        lay = self.layout
        supply = b.supply
        n = lay.length[li]
        if colour == DEAD or filled == n:
            return []
        d = lay.direction[li]
        phase = left // PHASE
        keys: list[tuple] = [("p", li, pattern)]
        if colour < 0:
            colours = range(len(self.rules.directions[d].colours))
            keys.append(("e", n, d, tuple(min(supply.get((d, c), 0), CAP) for c in colours),
                         phase))
            return keys
        empties = n - filled
        keys.append(("c", n, d, colour, empties, min(supply.get((d, colour), 0), CAP), phase))
        if self.gold_silver and stud >= 0:
            keys.append(("s", n, d, colour, stud, empties,
                         min(supply.get((d, colour, stud), 0), CAP), phase))
        if self.ships:
            keys.append(("L", n, d, colour, empties,
                         self._ship_rank(b, li, lay.colour_ship[d][colour]),
                         min(supply.get((d, colour), 0), SHIP_CAP), phase))
            if stud >= 0:
                keys.append(("S", n, d, stud, empties,
                             self._ship_rank(b, li, lay.stud_ship[stud]), phase))
        return keys

    def _ship_rank(self, b: _Board, li: int, ship: int) -> int:
        """The ships on the pad below the line's ship, at most SHIP_RANKS; -1 when the
        line cannot launch it (none, launched, or a ship on the line: advanced)."""
        if ship < 0 or b.rank[ship] < 0 or self.ships == "advanced" and b.shipped[li]:
            return -1
        return min(b.rank[ship], SHIP_RANKS)

    def _keys(self, b: _Board, left: int) -> list[tuple]:
        out: list[tuple] = []
        for li in range(len(self.layout.lines)):
            out += self._line_keys(li, b.pattern[li], b.filled[li], b.colour[li],
                                   b.stud[li], b, left)
        if self.ships:
            # the ring, and which of the next ships above it are launched already
            level = _level(b)
            above = tuple(b.rank[s] < 0 for s in range(level + 1, level + 4)
                          if s < len(b.rank))
            out.append(("R", level, above, left // PHASE))
            if self.chances:
                out += self._chance_keys(b, self._chances(b), left)
        if self.fits:
            memo: dict[int, int] = {}
            out += [k for y in sorted(b.empty)
                    if (k := self._fit_key(b, y, left, {}, memo)) is not None]
        return out

    def _fit_key(self, b: _Board, y: int, left: int,
                 lines: dict[int, tuple[int, int]], memo: dict[int, int]) -> tuple | None:
        """Empty cell y's entry: what its lines with tiles need of it (each line's colour,
        and stud under the gold/silver rules; `lines` overrides some lines' colour and
        stud) and how many unseen tiles fit all of it (up to FITS): two lines that need
        the same rare tile will not both score. None when fewer than two lines need
        something (a line alone is its own entries)."""
        lay = self.layout
        need: list[int] = []
        wanted = 0
        fitting = lay.all_kinds
        for li, _ in lay.through[y]:
            colour, stud = lines.get(li, (b.colour[li], b.stud[li]))
            if colour < 0:  # no tile yet, or a line that cannot score: anything fits
                colour = stud = -1
            else:
                wanted += 1
                fitting &= lay.stripe_kinds[lay.direction[li]][colour]
                if not self.gold_silver or stud < 0:
                    stud = -1
                else:
                    fitting &= lay.stud_kinds[stud]
            need += (colour, stud)
        if wanted < 2:
            return None
        count = memo.get(fitting)
        if count is None:
            kinds = lay.bits.get(fitting)
            if kinds is None:
                kinds = lay.bits[fitting] = tuple(
                    k for k in range(len(lay.kinds)) if fitting >> k & 1)
            supply = b.supply
            count = memo[fitting] = sum(supply.get((KIND, k), 0) for k in kinds)
        return ("F", y, tuple(need), min(count, FITS), left // PHASE)

    def _line_ships(self, b: _Board, li: int, filled: int, colour: int, stud: int
                    ) -> list[int]:
        """The ships line li (with these tiles, colour and stud) may still launch once
        completed: its colour's ship (either colour of its direction while it is
        empty), and its stud's while the studs agree."""
        lay = self.layout
        if filled == lay.length[li] or colour == DEAD or \
                self.ships == "advanced" and b.shipped[li]:
            return []
        d = lay.direction[li]
        out = [lay.colour_ship[d][colour]] if colour >= 0 else list(lay.colour_ship[d])
        if stud >= 0:
            out.append(lay.stud_ship[stud])
        elif stud == -1:
            out += lay.stud_ship[:-1]
        return [s for s in out if s >= 0]

    def _chances(self, b: _Board) -> list[int]:
        """Per ship, the lines that may still launch it."""
        count = [0] * len(b.rank)
        for li in range(len(self.layout.lines)):
            for s in self._line_ships(b, li, b.filled[li], b.colour[li], b.stud[li]):
                count[s] += 1
        return count

    def _chance_keys(self, b: _Board, count: list[int], left: int) -> list[tuple]:
        """Per ship on the pad: how many lines may still launch it (up to 3) and how
        many ships on the pad are below it; a ring stops below the first that cannot
        go up."""
        phase = left // PHASE
        return [("A", s, min(n, 3), min(b.rank[s], SHIP_RANKS), phase)
                for s, n in enumerate(count) if b.rank[s] >= 0]

    def _sum(self, keys: list[tuple]) -> float:
        w = self.weights
        return sum(w.get(k, 0.0) for k in keys)

    # ------------------------------------------------------------------ moves

    def _gains(self, b: _Board, t: int) -> Iterator[tuple[float, int]]:
        """For each empty cell: the points tile t completes there plus the change of the
        board's value (tile t already counted as seen)."""
        lay = self.layout
        left = len(b.empty) - 1
        w = self.weights
        track = bool(self.ships and self.chances)
        if track:
            chances = self._chances(b)
            base = self._sum(self._chance_keys(b, chances, left))
        if self.fits:
            memo: dict[int, int] = {}
            fit = {y: w.get(k, 0.0) if (k := self._fit_key(b, y, left, {}, memo)) else 0.0
                   for y in b.empty}
        for x in sorted(b.empty):
            gain = 0.0
            if track:
                count = list(chances)
            after: dict[int, tuple[int, int]] = {}
            for li, pos in lay.through[x]:
                for k in self._line_keys(li, b.pattern[li], b.filled[li], b.colour[li],
                                         b.stud[li], b, left):
                    gain -= w.get(k, 0.0)
                pattern, filled, colour, stud, row = self._line_after(b, li, pos, t)
                after[li] = (colour, stud)
                gain += row
                for k in self._line_keys(li, pattern, filled, colour, stud, b, left):
                    gain += w.get(k, 0.0)
                if track:
                    for s in self._line_ships(b, li, b.filled[li], b.colour[li], b.stud[li]):
                        count[s] -= 1
                    for s in self._line_ships(b, li, filled, colour, stud):
                        count[s] += 1
            if track:
                gain += self._sum(self._chance_keys(b, count, left)) - base
            if self.fits:
                # the empty cells on the lines through x: their needs change
                near = {y for li in after for y in lay.lines[li][1] if y in b.empty}
                for y in near:
                    gain -= fit[y]
                    if y != x and (k := self._fit_key(b, y, left, after, memo)) is not None:
                        gain += w.get(k, 0.0)
            yield gain, x

    def _moves(self, b: _Board, t: int) -> Iterator[tuple[float, int, tuple[int, ...]]]:
        """`_gains` with the launches: each (gain, cell, ships launched); a launch's gain
        counts the ring's climb and the new value of every line (their ships moved)."""
        base = None
        left = len(b.empty) - 1
        for gain, x in self._gains(b, t):
            yield gain, x, ()
            if self.ships is None:
                continue
            for launch in self._launches(b, t, x):
                if base is None:
                    base = self._sum(self._keys(b, left))
                after = _copy(b)
                points = self._place(after, t, x) + self._launch(after, x, launch)
                yield points + self._sum(self._keys(after, left)) - base, x, launch

    def cell_values(self, board: dict[str, Tile], unseen: list[Tile], tile: Tile,
                    lookahead: int = 0, ships_on: dict[str, tuple[str, ...]] | None = None,
                    futures: int = 0, calls: int = CALLS, seed: int = 0
                    ) -> list[CellValue]:
        """Each empty cell for `tile` with the expected final points (the board's points
        so far, what the tile completes, and the learned value of the board after it),
        best first; the called tile is not among `unseen`, each of them equally likely
        to come next. Rows only, unless the values are the ships' (`ships`): then the
        ring too, and each cell with its best launch. With `lookahead` > 0 the best
        `lookahead` cells (each with every launch it allows) are valued one call deeper
        (the mean over every tile the next call may bring of its best move's value) and
        ranked first, by that value; with `futures` > 0 instead on that many sampled
        futures (seeded by `seed`, the same for every move): `calls` calls played by the
        values, then the value of the board."""
        from models.take_it_higher.rows import board_score

        lay = self.layout
        b = self.board_of(board, unseen, ships_on)
        now = board_score(self.rules, board, self.gold_silver) + \
            (_ring(lay, b) if self.ships else 0)
        t = lay.tile_index[tile.id]
        base = self._sum(self._keys(b, len(b.empty) - 1))
        moves = sorted(self._moves(b, t), reverse=True)
        cells = self.rules.cell_ids
        ships = self.rules.spaceships
        values = [CellValue(cells[x], now + base + g, False, tuple(ships[s] for s in launch))
                  for g, x, launch in moves]
        if lookahead > 0 and len(b.empty) > 1:
            coming = [lay.tile_index[u.id] for u in unseen]
            # the best `lookahead` cells, each with its launches among the best moves
            top: list[int] = []
            for _, x, _ in moves:
                if x not in top and len(top) < lookahead:
                    top.append(x)
            chosen = [m for m in moves if m[1] in top]
            samples = sample_futures(coming, min(calls, len(b.empty) - 1), futures, seed)
            deep = []
            for _, x, launch in chosen:
                after = _copy(b)
                points = self._place(after, t, x) + self._launch(after, x, launch) \
                    if launch else self._place(after, t, x)
                if samples:
                    mean, error = mean_error([self._rest(_copy(after), f) for f in samples])
                else:
                    mean, error = self._next_call(after, coming), 0.0
                deep.append(CellValue(cells[x], now + points + mean, True,
                                      tuple(ships[s] for s in launch), len(samples), error))
            deep.sort(key=lambda c: -c.value)
            values = deep + [v for v, m in zip(values, moves, strict=True) if m[1] not in top]
        # each cell once, with its best launch
        seen: set[str] = set()
        return [c for c in values if not (c.cell in seen or seen.add(c.cell))]

    def _next_call(self, b: _Board, coming: list[int]) -> float:
        """The points still to come after board b (a move was just made), one call
        deeper: the mean over every tile in `coming` of its best move and the value
        after it."""
        total = 0.0
        for u in coming:
            self._count(b.supply, u, -1)
            here = self._sum(self._keys(b, len(b.empty) - 1))
            total += here + max(self._moves(b, u))[0]
            self._count(b.supply, u, 1)
        return total / len(coming)

    def _rest(self, b: _Board, draw: list[int]) -> float:
        """The points still to come after board b in one future: the tiles of `draw`
        played by the values (board b changes), then the value of the board if tiles
        are left to come."""
        points = 0.0
        for t in draw:
            points += self._step(b, t)
        if b.empty:
            points += self._sum(self._keys(b, len(b.empty)))
        return points

    def _step(self, b: _Board, t: int) -> int:
        """Tile t called and put on its move of best gain (no look-ahead), board b
        changed; the points it scored (rows, and the ring's climb)."""
        self._count(b.supply, t, -1)
        _, x, launch = max(self._moves(b, t))
        points = self._place(b, t, x)
        if launch:
            points += self._launch(b, x, launch)
        return points

    # ------------------------------------------------------------------ learning

    def play(self, draw: list[int], alpha: float = 0.0, lam: float = 0.0) -> int:
        """One game of `draw` (tile indices in call order), each tile on the cell of best
        gain (no look-ahead); with alpha > 0, learning as it goes (TD(0)), or with lam > 0
        after the game, each board toward its lambda-return (TD(lambda), forward view).
        Its points (rows, and the ring with `ships`)."""
        b = self._new_board()
        score = 0
        previous: list[tuple] | None = None
        before = 0.0
        trail: list[tuple[list[tuple], float, int]] = []  # each board, its value, its points
        for t in draw:
            points = self._step(b, t)
            score += points
            if alpha:
                keys = self._keys(b, len(b.empty))
                value = self._sum(keys)
                if lam:
                    trail.append((keys, value, points))
                    continue
                if previous is not None:
                    self._update(previous, alpha * (points + value - before))
                previous, before = keys, value
        if alpha and lam:
            # G_t = r_{t+1} + (1 - lam) V(s_{t+1}) + lam G_{t+1}; the last board's G is 0
            ret = following = reward = 0.0  # the next board's return, value, points
            for keys, value, points in reversed(trail):
                ret = reward + (1 - lam) * following + lam * ret
                self._update(keys, alpha * (ret - value))
                following, reward = value, points
        elif alpha and previous is not None:
            self._update(previous, alpha * (0.0 - before))
        return score

    def _update(self, keys: list[tuple], delta: float) -> None:
        w = self.weights
        step = delta / max(1, len(keys))
        for k in keys:
            w[k] = w.get(k, 0.0) + step

    # ------------------------------------------------------------------ files

    def to_dict(self) -> dict:
        from solver.store import data_digest

        return {"kind": "take-it-higher-line-values", "version": VERSION,
                "rules_digest": data_digest(self.rules),
                "gold_silver": self.gold_silver, "ships": self.ships,
                **({"chances": True} if self.chances else {}),
                **({"fits": True} if self.fits else {}), "games": self.games,
                "seed": self.seed,
                "weights": [[list(k), round(v, 4)] for k, v in sorted(
                    self.weights.items(), key=lambda kv: repr(kv[0])) if abs(v) >= 1e-4]}

    def save(self, path: Path) -> None:
        """JSON; gzip-compressed when the name ends in .gz."""
        text = json.dumps(self.to_dict(), separators=(",", ":"))
        if path.suffix == ".gz":
            path.write_bytes(gzip.compress(text.encode(), mtime=0))
        else:
            path.write_text(text)


def train(rules: Rules, variant: Variant, games: int, seed: int = 0, alpha: float = ALPHA,
          values: LineValues | None = None,
          progress: Callable[[int, float], None] | None = None,
          chances: bool | None = None, fits: bool | None = None,
          lam: float = 0.0) -> LineValues:
    """Learn (or go on learning) by `games` seeded games of self-play, each a random
    draw of the board's size; the step size falls to a third for the second half.
    Values of the rows alone go on learning with the variant's ships, if it has any.
    `chances`: whether ship tables read the ships' chances (default: new ship tables
    do, resumed ones as they were learned); `fits`: whether the tables read the cells'
    fits (default: as learned, off for new tables). `lam` > 0: TD(lambda) instead of
    TD(0), each game's boards moved toward their lambda-returns after the game."""
    fresh = values is None or values.ships is None
    values = values or LineValues(rules, variant.gold_silver, seed=seed, ships=variant.ships)
    if values.ships is None and variant.ships and rules.spaceships:
        values.ships = variant.ships  # the rows' values go on learning with the ships
    if values.ships and (fresh or chances is not None):
        values.chances = fresh if chances is None else chances
    if fits is not None:
        values.fits = fits
    rng = random.Random(seed * 1_000_003 + values.games)
    n = len(rules.tiles)
    window: list[int] = []
    for g in range(games):
        draw = rng.sample(range(n), rules.board_size)
        a = alpha if g < games // 2 else alpha / 3
        window.append(values.play(draw, a, lam))
        values.games += 1
        if progress is not None and len(window) == 1000:
            progress(values.games, sum(window) / len(window))
            window = []
    return values


def sample_futures(coming: list[int], calls: int, futures: int, seed: int
                   ) -> list[list[int]]:
    """`futures` seeded futures of `calls` calls each from the tiles `coming` (tile
    indices); the pool is sorted first, so the order a dealt game knows is never read."""
    rng = random.Random(seed)
    pool = sorted(coming)
    return [rng.sample(pool, calls) for _ in range(futures)]


def _copy(b: _Board) -> _Board:
    return _Board(list(b.pattern), list(b.filled), list(b.colour), list(b.stud),
                  dict(b.supply), set(b.empty), list(b.rank), list(b.shipped))


def _level(b: _Board) -> int:
    """The ships launched from the bottom of the pad up to the first still on it."""
    level = 0
    while level < len(b.rank) and b.rank[level] < 0:
        level += 1
    return level


def _ring(lay: _Layout, b: _Board) -> int:
    level = _level(b)
    return lay.buttons[level - 1] if level else 0


def load_values(path: Path, rules: Rules, variant: Variant) -> LineValues:
    """Tables from a file written by `learn`; BadInput when they are of other rules."""
    from solver.store import data_digest

    try:
        raw = path.read_bytes()
        data = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    except (OSError, ValueError, EOFError) as exc:
        raise BadInput(f"{path}: not a values file ({exc})") from None
    if not isinstance(data, dict) or data.get("kind") != "take-it-higher-line-values":
        raise BadInput(f"{path}: not a values file written by 'toppi take-it-higher learn'")
    if data.get("version") != VERSION:
        raise BadInput(f"{path}: values of another version ({data.get('version')}); "
                       "learn them again")
    if data.get("rules_digest") != data_digest(rules):
        raise BadInput(f"{path}: values learned for other rules")
    if bool(data.get("gold_silver")) != variant.gold_silver:
        raise BadInput(f"{path}: values learned {'with' if data.get('gold_silver') else 'without'}"
                       " the gold/silver rows")
    ships = data.get("ships")
    if ships is not None and ships != variant.ships:
        raise BadInput(f"{path}: values learned for the {ships} spaceship rules, not for "
                       f"{variant.ships or 'a game without spaceships'}")
    weights = {_key(k): float(v) for k, v in data["weights"]}
    return LineValues(rules, variant.gold_silver, weights, int(data["games"]),
                      int(data["seed"]), ships, bool(data.get("chances", False)),
                      bool(data.get("fits", False)))


@dataclass
class LearnedResult:
    """The cells for the called tile, best first, with their expected final row points
    under the learned value (`looked_ahead` of them one call deeper); the values'
    training games."""

    tile: str
    cells: list[CellValue]
    looked_ahead: int
    games: int
    values: str
    exact: bool = False  # the endgame: every cell valued exactly (best play), no table
    ships: bool = False  # values with the ring: each cell's launch is part of it
    futures: int = 0  # the cells looked ahead: on this many sampled futures (0: exactly)
    calls: int = 0  # ... each played this many calls on


def builtin_values_path(variant: Variant) -> Path:
    """The built-in board's values for the variant: its own when learned with its
    spaceship rules, else those of its rows."""
    data = Path(__file__).parent / "data"
    own = data / f"learned-{variant.name}.json.gz"
    if own.exists():
        return own
    return data / f"learned-{'gold-silver' if variant.gold_silver else 'basic'}.json.gz"


def values_digest(rules: Rules, variant: Variant, path: str | Path | None = None) -> str:
    """A digest of the values file a learned player plays `variant` from (simulate
    keeps it with its games)."""
    import hashlib

    values_for(rules, variant, path)  # BadInput for a bad file or other rules
    file = builtin_values_path(variant) if path is None else Path(path)
    return hashlib.sha256(file.read_bytes()).hexdigest()[:16]


# values by (file, rules object, rows): a decision neither reads a file nor digests
# the rules again (the rules object is kept, so its id stays its own)
_LOADED: dict[tuple[str | None, int, str], tuple[Rules, LineValues]] = {}


def values_for(rules: Rules, variant: Variant, path: str | Path | None = None) -> LineValues:
    """The learned values to play `rules` with: those of `path`, else the built-in
    board's (BadInput for another rules file without a values file)."""
    key = (None if path is None else str(path), id(rules), variant.name)
    if key in _LOADED:
        return _LOADED[key][1]
    if path is None:
        from models.take_it_higher.rules import load_rules
        from solver.store import data_digest

        if data_digest(rules) != data_digest(load_rules()):
            raise BadInput("no learned values for these rules: learn them with 'toppi "
                           "take-it-higher learn --rules FILE --out VALUES' and pass "
                           "--values VALUES")
    file = builtin_values_path(variant) if path is None else Path(path)
    _LOADED[key] = (rules, load_values(file, rules, variant))
    return _LOADED[key][1]


def learned_cells(state: GameState, tile: Tile, lookahead: int = LOOKAHEAD,
                  path: str | Path | None = None, endgame: int = ENDGAME_POSITIONS,
                  futures: int = FUTURES, calls: int = CALLS, seed: int = 0
                  ) -> LearnedResult:
    """The cells for the called tile ranked by the learned value: with values learned
    for the game's spaceship rules each cell with its launch and the ring counted, else
    rows only (the launches are the caller's); the best `lookahead` on `futures`
    sampled futures of `calls` calls (seeded by `seed`; 0 futures: one call ahead,
    exactly; values of the rows alone in a spaceship game: always so); once the rest of
    the game is at most `endgame` positions, by their exact values instead (the best
    play, `exact.py`)."""
    values = values_for(state.rules, state.variant, path)
    if state.called is None:
        state = state.apply_action(tile)  # BadInput if it was placed already
    elif state.called != tile:
        raise BadInput(f"the called tile is {state.called.id}, not {tile.id}")
    if not state.empty_cells():
        raise BadInput("the board is full")
    source = "built-in" if path is None else str(path)
    exact = _endgame(state, tile, endgame)
    if exact is not None:
        return LearnedResult(tile.id, [CellValue(c.cell, c.value, True) for c in exact],
                             0, values.games, source, True)
    if values.ships is None and state.variant.ships is not None:
        futures = 0  # a future played by the rows' values alone would miss the ring
    cells = values.cell_values(state.board, state.unseen_tiles(), tile, lookahead,
                               state.ships_on if values.ships else None, futures, calls,
                               seed)
    deep = sum(c.deep for c in cells)
    sampled = max((c.futures for c in cells), default=0)
    return LearnedResult(tile.id, cells, deep, values.games, source,
                         ships=values.ships is not None, futures=sampled,
                         calls=calls if sampled else 0)


_EXACT: list = []  # the endgame values of the last game, kept while it goes on


def _endgame(state: GameState, tile: Tile, limit: int) -> list | None:
    """The exact values of the cells (best play, `exact.py`) once the rest of the game
    is at most `limit` positions (no spaceships, no tiles known to come), else None.
    The values of one game's endgame are kept for its next moves."""
    from models.take_it_higher.exact import ExactValues, positions

    if state.variant.ships is not None or state.coming or limit <= 0:
        return None
    exact = _EXACT[0] if _EXACT else None
    if exact is None or exact.rules is not state.rules or exact.variant != state.variant \
            or not _EXACT[1].items() <= state.board.items():
        exact = ExactValues(state.rules, state.variant, limit)
    board, unseen = exact.position(state)  # the called tile is not among unseen
    if positions(board.count(-1) - 1, unseen) > limit:
        return None
    _EXACT[:] = [exact, dict(state.board)]
    return exact.cells_for(state, tile).cells


def _key(k: list) -> tuple:
    return tuple(tuple(x) if isinstance(x, list) else x for x in k)

