"""One-step heuristics shared by the greedy policy and the hint's candidate moves."""

from __future__ import annotations

from models.take_it_higher.rules import GameState, Placement, Tile


def bonus_after(state: GameState, p: Placement) -> int:
    """The Take it Higher! bonus (ring position) right after the move `p`."""
    return state.after(p).bonus()[0]


def cell_value(state: GameState, tile: Tile, cell: str) -> float:
    """One-step heuristic value of putting `tile` on `cell`: every line through the cell
    that can still become a scoring row of the tile's colour (every tile already on it
    has the tile's stripe colour in that direction) counts length x colour value, with
    the stud bonus added when all tiles on the line share the tile's stud under the
    gold/silver rules. A line the tile spoils (its tiles all shared another colour)
    subtracts the points already building there (tiles x their colour value)."""
    rules = state.rules
    value = 0.0
    for d in range(len(rules.directions)):
        _, line = rules.lines[rules.line_of[(cell, d)]]
        placed = [state.board[c] for c in line if c in state.board]
        n = len(line)
        colour = tile.stripes[d]
        if all(t.stripes[d] == colour for t in placed):
            per_tile = rules.colour_values[colour]
            if (state.variant.gold_silver and tile.stud is not None
                    and all(t.stud == tile.stud for t in placed)):
                per_tile += rules.stud_bonus[tile.stud]
            value += n * per_tile
        else:
            colours = {t.stripes[d] for t in placed}
            if len(colours) == 1:  # a row was building here, and this tile spoils it
                value -= rules.colour_values[colours.pop()] * len(placed)
    return value


def greedy_launch(state: GameState, tile: Tile, cell: str) -> tuple[str, ...]:
    """The legal launch set giving the highest immediate ring bonus; ties to fewer ships."""
    options = state.legal_launches(tile, cell)
    if len(options) == 1:
        return options[0]
    return max(options, key=lambda launch: (bonus_after(state, Placement(tile.id, cell, launch)),
                                            -len(launch)))
