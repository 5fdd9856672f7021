"""One-step heuristics shared by the greedy policy and the hint's candidate moves."""

from __future__ import annotations

from models.take_it_higher.positions import Placement
from models.take_it_higher.rules import Tile
from models.take_it_higher.spaceships import ring_bonus
from models.take_it_higher.state import GameState


def bonus_after(state: GameState, p: Placement) -> int:
    """The Take it Higher! bonus (ring position) right after the move `p`."""
    return ring_bonus(state.rules, state.launched | set(p.launch))[0]


def cell_value(state: GameState, tile: Tile, cell: str) -> float:
    """One-step heuristic value of putting `tile` on `cell`: every line through the cell
    that can still become a scoring row of the tile's colour (every tile already on it
    has the tile's stripe colour in that direction) counts length x colour value, with
    the stud bonus added when all tiles on the line share the tile's stud under the
    gold/silver rules. A line the tile spoils (its tiles all shared another colour)
    subtracts the points already building there (tiles x their colour value)."""
    rules = state.rules
    board = state.board
    values = rules.colour_values
    value = 0.0
    # one pass over each line: the greedy policy calls this for every empty cell
    for d, line in rules.lines_through[cell]:
        colour = tile.stripes[d]
        first: str | None = None  # the stripe of the first tile on the line
        uniform = True  # the tiles on the line all have that stripe
        same_stud = True  # ... and all the tile's stud
        placed = 0
        for c in line:
            t = board.get(c)
            if t is None:
                continue
            stripe = t.stripes[d]
            if first is None:
                first = stripe
            elif stripe != first:
                uniform = False
                break
            if t.stud != tile.stud:
                same_stud = False
            placed += 1
        if not uniform:
            continue
        if first is None or first == colour:
            per_tile = values[colour]
            if state.variant.gold_silver and tile.stud is not None and same_stud:
                per_tile += rules.stud_bonus[tile.stud]
            value += len(line) * per_tile
        else:  # a row was building here, and this tile spoils it
            value -= values[first] * placed
    return value


def greedy_launch(state: GameState, tile: Tile, cell: str) -> tuple[str, ...]:
    """The legal launch set giving the highest immediate ring bonus; ties to fewer ships."""
    options = state.legal_launches(tile, cell)
    if len(options) == 1:
        return options[0]
    return max(options, key=lambda launch: (bonus_after(state, Placement(tile.id, cell, launch)),
                                            -len(launch)))
