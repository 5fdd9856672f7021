"""The table entries a board's value sums (an n-tuple network, as for Take it Easy),
and the gain of each move found from the lines through its cell alone.

Each line still able to score has its pattern of stripes (and studs, under the
gold/silver rules), and its prospects given how many unseen tiles carry its colour (and
stud) and how many calls are left; with ship tables, its ship and the ring (and the
ships' chances); with the cells' fits, each empty cell's fitting tiles.
"""

from __future__ import annotations

from collections.abc import Iterator

from models.take_it_higher.learned.board import (
    DEAD,
    KIND,
    Board,
    count_unseen,
    launch,
    launches,
    line_after,
    place,
)
from models.take_it_higher.learned.tables import LineValues

PHASE = 3  # calls left, in steps of
CAP = 99  # supplies above this count as this
SHIP_CAP = 9  # ... in the entries of a line's ship
SHIP_RANKS = 4  # ships on the pad below a line's ship: more count as this
FITS = 3  # unseen tiles that fit an empty cell: more count as this
DEMAND_LINES = 4  # lines waiting for one colour: more count as this
DEMAND_EMPTIES = 12  # ... their empty cells


def line_keys(v: LineValues, li: int, pattern: int, filled: int, colour: int, stud: int,
              b: Board, left: int) -> list[tuple]:
    """The table entries of one line (none when it can no longer score)."""
    lay = v.layout
    supply = b.supply
    n = lay.length[li]
    if colour == DEAD or filled == n:
        return []
    d = lay.direction[li]
    phase = left // PHASE
    keys: list[tuple] = [("p", li, pattern)]
    if colour < 0:
        colours = range(len(v.rules.directions[d].colours))
        keys.append(("e", n, d, tuple(min(supply.get((d, c), 0), CAP) for c in colours),
                     phase))
        return keys
    empties = n - filled
    keys.append(("c", n, d, colour, empties, min(supply.get((d, colour), 0), CAP), phase))
    if v.gold_silver and stud >= 0:
        keys.append(("s", n, d, colour, stud, empties,
                     min(supply.get((d, colour, stud), 0), CAP), phase))
    if v.ships:
        keys.append(("L", n, d, colour, empties,
                     ship_rank(v, b, li, lay.colour_ship[d][colour]),
                     min(supply.get((d, colour), 0), SHIP_CAP), phase))
        if stud >= 0:
            keys.append(("S", n, d, stud, empties,
                         ship_rank(v, b, li, lay.stud_ship[stud]), phase))
    return keys


def ship_rank(v: LineValues, b: Board, li: int, ship: int) -> int:
    """The ships on the pad below the line's ship, at most SHIP_RANKS; -1 when the
    line cannot launch it (none, launched, or a ship on the line: advanced)."""
    if ship < 0 or b.rank[ship] < 0 or v.ships == "advanced" and b.shipped[li]:
        return -1
    return min(b.rank[ship], SHIP_RANKS)


def board_keys(v: LineValues, b: Board, left: int) -> list[tuple]:
    """Every table entry of board b with `left` calls to come."""
    out: list[tuple] = []
    for li in range(len(v.layout.lines)):
        out += line_keys(v, li, b.pattern[li], b.filled[li], b.colour[li], b.stud[li], b,
                         left)
    if v.ships:
        # the ring, and which of the next ships above it are launched already
        level = b.level()
        above = tuple(b.rank[s] < 0 for s in range(level + 1, level + 4)
                      if s < len(b.rank))
        out.append(("R", level, above, left // PHASE))
        if v.chances:
            out += chance_keys(b, ship_chances(v, b), left)
    if v.fits:
        memo: dict[int, int] = {}
        out += [k for y in sorted(b.empty)
                if (k := fit_key(v, b, y, left, {}, memo)) is not None]
    if v.demand:
        out += [demand_key(b, d, c, n, e, left)
                for (d, c), (n, e) in sorted(demand_totals(v, b).items())]
    return out


def demand_totals(v: LineValues, b: Board) -> dict[tuple[int, int], tuple[int, int]]:
    """Per direction and colour: the lines still able to score that wait for it (with
    a tile of that colour, not full) and their empty cells."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    lay = v.layout
    for li in range(len(lay.lines)):
        colour = b.colour[li]
        if colour >= 0 and b.filled[li] < lay.length[li]:
            key = (lay.direction[li], colour)
            n, e = out.get(key, (0, 0))
            out[key] = (n + 1, e + lay.length[li] - b.filled[li])
    return out


def demand_key(b: Board, d: int, c: int, lines: int, empties: int, left: int) -> tuple:
    """The entry of colour c of direction d: the lines waiting for it and their
    empty cells against the unseen tiles that carry it."""
    return ("D", d, c, min(lines, DEMAND_LINES), min(empties, DEMAND_EMPTIES),
            min(b.supply.get((d, c), 0), CAP), left // PHASE)


def board_value(v: LineValues, b: Board, left: int) -> float:
    """The learned value of board b with `left` calls to come: the points still to
    come."""
    return v.value(board_keys(v, b, left))


def fit_key(v: LineValues, b: Board, y: int, left: int,
            lines: dict[int, tuple[int, int]], memo: dict[int, int]) -> tuple | None:
    """Empty cell y's entry: what its lines with tiles need of it (each line's colour,
    and stud under the gold/silver rules; `lines` overrides some lines' colour and
    stud) and how many unseen tiles fit all of it (up to FITS): two lines that need
    the same rare tile will not both score. None when fewer than two lines need
    something (a line alone is its own entries). `memo`: counts by kinds, kept by the
    caller for one board."""
    lay = v.layout
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
            if not v.gold_silver or stud < 0:
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


def line_ships(v: LineValues, b: Board, li: int, filled: int, colour: int, stud: int
               ) -> list[int]:
    """The ships line li (with these tiles, colour and stud) may still launch once
    completed: its colour's ship (either colour of its direction while it is
    empty), and its stud's while the studs agree."""
    lay = v.layout
    if filled == lay.length[li] or colour == DEAD or \
            v.ships == "advanced" and b.shipped[li]:
        return []
    d = lay.direction[li]
    out = [lay.colour_ship[d][colour]] if colour >= 0 else list(lay.colour_ship[d])
    if stud >= 0:
        out.append(lay.stud_ship[stud])
    elif stud == -1:
        out += lay.stud_ship[:-1]
    return [s for s in out if s >= 0]


def ship_chances(v: LineValues, b: Board) -> list[int]:
    """Per ship, the lines that may still launch it."""
    count = [0] * len(b.rank)
    for li in range(len(v.layout.lines)):
        for s in line_ships(v, b, li, b.filled[li], b.colour[li], b.stud[li]):
            count[s] += 1
    return count


def chance_keys(b: Board, count: list[int], left: int) -> list[tuple]:
    """Per ship on the pad: how many lines may still launch it (up to 3) and how
    many ships on the pad are below it; a ring stops below the first that cannot
    go up."""
    phase = left // PHASE
    return [("A", s, min(n, 3), min(b.rank[s], SHIP_RANKS), phase)
            for s, n in enumerate(count) if b.rank[s] >= 0]


def gains(v: LineValues, b: Board, t: int) -> Iterator[tuple[float, int]]:
    """For each empty cell: the points tile t completes there plus the change of the
    board's value (tile t already counted as seen), from the entries the move changes:
    the lines through the cell, the ships' chances, the fits of the empty cells on
    those lines."""
    lay = v.layout
    left = len(b.empty) - 1
    w = v.weights
    track = bool(v.ships and v.chances)
    if track:
        chances = ship_chances(v, b)
        base = v.value(chance_keys(b, chances, left))
    if v.fits:
        memo: dict[int, int] = {}
        fit = {y: w.get(k, 0.0) if (k := fit_key(v, b, y, left, {}, memo)) else 0.0
               for y in b.empty}
    if v.demand:
        demand = demand_totals(v, b)
    now: dict[int, list[float]] = {}
    for x in sorted(b.empty):
        gain = 0.0
        if track:
            count = list(chances)
        after: dict[int, tuple[int, int]] = {}
        for li, pos in lay.through[x]:
            line = now.get(li)
            if line is None:  # each line's entries as they are, once per call
                line = now[li] = [w.get(k, 0.0) for k in line_keys(
                    v, li, b.pattern[li], b.filled[li], b.colour[li], b.stud[li], b, left)]
            for weight in line:  # one by one: the same sums as the tables were learned by
                gain -= weight
            pattern, filled, colour, stud, row = line_after(lay, b, li, pos, t)
            after[li] = (colour, stud)
            gain += row
            for k in line_keys(v, li, pattern, filled, colour, stud, b, left):
                gain += w.get(k, 0.0)
            if track:
                for s in line_ships(v, b, li, b.filled[li], b.colour[li], b.stud[li]):
                    count[s] -= 1
                for s in line_ships(v, b, li, filled, colour, stud):
                    count[s] += 1
        if track:
            gain += v.value(chance_keys(b, count, left)) - base
        if v.demand:
            gain += _demand_change(v, b, x, after, demand, left)
        if v.fits:
            # the empty cells on the lines through x: their needs change
            near = {y for li in after for y in lay.lines[li][1] if y in b.empty}
            for y in near:
                gain -= fit[y]
                if y != x and (k := fit_key(v, b, y, left, after, memo)) is not None:
                    gain += w.get(k, 0.0)
        yield gain, x


def _demand_change(v: LineValues, b: Board, x: int, after: dict[int, tuple[int, int]],
                   demand: dict[tuple[int, int], tuple[int, int]], left: int) -> float:
    """The change of the demand entries when a tile on cell x turns the lines through
    it into `after` (colour, stud): each line waits for one tile less."""
    lay = v.layout
    w = v.weights
    change: dict[tuple[int, int], list[int]] = {}
    for li, _ in lay.through[x]:
        d, n = lay.direction[li], lay.length[li]
        filled, colour = b.filled[li], b.colour[li]
        if colour >= 0 and filled < n:
            delta = change.setdefault((d, colour), [0, 0])
            delta[0] -= 1
            delta[1] -= n - filled
        colour = after[li][0]
        if colour >= 0 and filled + 1 < n:
            delta = change.setdefault((d, colour), [0, 0])
            delta[0] += 1
            delta[1] += n - filled - 1
    gain = 0.0
    for (d, c), (dn, de) in change.items():
        if dn or de:
            n, e = demand.get((d, c), (0, 0))
            if n:
                gain -= w.get(demand_key(b, d, c, n, e, left), 0.0)
            if n + dn:
                gain += w.get(demand_key(b, d, c, n + dn, e + de, left), 0.0)
    return gain


def moves(v: LineValues, b: Board, t: int) -> Iterator[tuple[float, int, tuple[int, ...]]]:
    """`gains` with the launches: each (gain, cell, ships launched); a launch's gain
    counts the ring's climb and the new value of every line (their ships moved)."""
    lay = v.layout
    base = None
    left = len(b.empty) - 1
    for gain, x in gains(v, b, t):
        yield gain, x, ()
        if v.ships is None:
            continue
        for ships in launches(lay, v.ships, b, t, x):
            if base is None:
                base = board_value(v, b, left)
            after = b.copy()
            points = place(lay, after, t, x) + launch(lay, after, x, ships)
            yield points + board_value(v, after, left) - base, x, ships


def play_call(v: LineValues, b: Board, t: int) -> int:
    """Tile t called and put on its move of best gain (no look-ahead), board b
    changed; the points it scored (rows, and the ring's climb)."""
    count_unseen(v.layout, b.supply, t, -1, v.fits)
    _, x, ships = max(moves(v, b, t))
    points = place(v.layout, b, t, x)
    if ships:
        points += launch(v.layout, b, x, ships)
    return points
