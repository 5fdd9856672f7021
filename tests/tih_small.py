"""Small Take it Higher!-family rules files and a brute-force reference maximum."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from models.take_it_higher.positions import Placement, Position
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import Rules, Tile, rules_from_dict
from models.take_it_higher.state import GameState, Scratch, replay
from models.take_it_higher.variants import Variant

DIRECTION_KEYS = [
    ("vertical", lambda x, y: x, ["white", "red"]),
    ("horizontal", lambda x, y: y, ["orange", "blue"]),
    ("diagonal-up", lambda x, y: x - y, ["pink", "green"]),
    ("diagonal-down", lambda x, y: x + y, ["yellow", "purple"]),
]
VALUES = {"white": 1, "orange": 2, "yellow": 3, "pink": 4, "green": 5, "purple": 6,
          "blue": 7, "red": 8, "black": 9}


def small_rules_dict(seed: int, n_cells: int = 5, n_tiles: int = 7, n_dirs: int = 3,
                     studs: bool = True, symmetric: bool = False) -> dict:
    """A random board of n_cells cells on a 3x3 grid, n_dirs directions (a direction may
    get a third colour), n_tiles random tiles with random studs, and spaceships.
    `symmetric`: the cells are the 3x2 block instead (6 cells, the half-turn maps every
    direction onto itself)."""
    rng = random.Random(seed)
    grid = [(x, y) for x in range(3) for y in range(3)]
    cells = rng.sample(grid, n_cells)
    if symmetric:
        cells = [(x, y) for x in range(3) for y in range(2)]
    dirs = rng.sample(DIRECTION_KEYS, n_dirs)
    directions = []
    for name, key, colours in dirs:
        colours = list(colours)
        if rng.random() < 0.2:
            colours.append("black")
        groups: dict[int, list[str]] = {}
        for x, y in cells:
            groups.setdefault(key(x, y), []).append(f"{'abc'[x]}{y + 1}")
        directions.append({"name": name, "colours": colours,
                           "lines": [groups[k] for k in sorted(groups)]})
    tiles = []
    for i in range(n_tiles):
        stud = rng.choice(["gold", "silver"]) if studs else None
        tile = {"id": f"T{i}", "letter": f"T{i}",
                "stripes": {d["name"]: rng.choice(d["colours"]) for d in directions}}
        if stud:
            tile["stud"] = stud
        tiles.append(tile)
    used = sorted({c for d in directions for c in d["colours"]}, key=VALUES.get)
    return {
        "name": f"small-{seed}",
        "cells": [{"id": f"{'abc'[x]}{y + 1}", "x": x, "y": y} for x, y in cells],
        "colours": {c: {"value": v} for c, v in VALUES.items()},
        "directions": directions,
        "studs": {"gold": {"bonus": 10}, "silver": {"bonus": 9}} if studs else {},
        "tiles": tiles,
        "spaceships": [{"ship": c, "button": 20 * (i + 1)} for i, c in enumerate(used)],
    }


def small_rules(seed: int, **kw: int | bool) -> Rules:
    return rules_from_dict(small_rules_dict(seed, **kw))


def random_position(rules: Rules, variant: Variant, k: int, seed: int
                    ) -> tuple[GameState, Tile]:
    """k random tiles on random cells (no tile called yet), and the next tile."""
    rng = random.Random(seed)
    tiles = rng.sample(list(rules.tiles), rules.board_size)
    cells = rng.sample(list(rules.cell_ids), rules.board_size)
    placed = [Placement(t.id, c) for t, c in zip(tiles[:k], cells[:k], strict=True)]
    return replay(Position(rules, placed), variant), tiles[k]


def brute_force_max(rules: Rules, gold_silver: bool, draw: list[Tile] | None = None) -> int:
    """Try every way to put distinct tiles on the cells (all of `draw` if given)."""
    cells = rules.cell_ids
    best = -1
    pool = list(rules.tiles)
    required = {t.id for t in draw or []}
    for chosen in itertools.permutations(pool, len(cells)):
        if required and not required <= {t.id for t in chosen}:
            continue
        best = max(best, board_score(rules, dict(zip(cells, chosen, strict=True)), gold_silver))
    return best


# --------------------------------------------------------------------------- spaceships

def small_ship_rules_dict(seed: int, stud_ships: bool = True, shuffle_pad: bool = True,
                          pad_size: int | None = None, **kw: int | bool) -> dict:
    """`small_rules_dict(seed, **kw)` (same board and tiles) with a launch-pad that also
    holds the gold and silver spaceships (if the rules have studs and `stud_ships`), in a
    seeded random order if `shuffle_pad` (else colours by value, then the studs as in
    the game), only the lowest `pad_size` ships if given; buttons 20, 40, ... from the
    bottom."""
    data = small_rules_dict(seed, **kw)
    pad = [s["ship"] for s in data["spaceships"]]
    if stud_ships:
        pad += sorted(data["studs"], key=lambda s: data["studs"][s]["bonus"])
    if shuffle_pad:
        random.Random(f"pad-{seed}").shuffle(pad)
    pad = pad[:pad_size]
    data["spaceships"] = [{"ship": s, "button": 20 * (i + 1)} for i, s in enumerate(pad)]
    return data


def small_ship_rules(seed: int, stud_ships: bool = True, shuffle_pad: bool = True,
                     pad_size: int | None = None, **kw: int | bool) -> Rules:
    return rules_from_dict(small_ship_rules_dict(seed, stud_ships, shuffle_pad, pad_size, **kw))


def _ship_search(rules: Rules, variant: Variant,
                 tiles_for: Callable[[Scratch], list[Tile]]
                 ) -> tuple[int, list[Placement]]:
    """Best final total and one game reaching it. Every turn: each tile `tiles_for`
    offers, each empty cell and each launch set the rules engine allows
    (Scratch.placements_for, as GameState's); the moves are made and undone in place
    on the search's own `Scratch`.

    The final total is the score sheet's: row points (+ gold/silver bonus rows) + the
    Take it Higher bonus (GameState.bonus, from the set of launched ships). The legal
    launches depend on the ships only through that set and the cells that carry a ship
    (advanced rules: a row with a ship cannot launch another), so the best continuation
    is memoised on (board, launched ships, cells with ships)."""
    state = Scratch(GameState(rules, variant))  # this search's own: changed in place
    memo: dict[tuple[frozenset, frozenset, frozenset], tuple[int, tuple[Placement, ...]]] = {}
    row_points: dict[frozenset, int] = {}

    def best(board_key: frozenset) -> tuple[int, tuple[Placement, ...]]:
        if state.is_terminal():
            if board_key not in row_points:
                row_points[board_key] = board_score(rules, state.board, variant.gold_silver)
            bonus = state.bonus()[0] if variant.ships is not None else 0
            return row_points[board_key] + bonus, ()
        key = (board_key, frozenset(state.launched),
               frozenset(c for c, s in state.ships_on.items() if s))
        if key in memo:
            return memo[key]
        out: tuple[int, tuple[Placement, ...]] = (-1, ())
        for tile in tiles_for(state):
            for move in state.placements_for(tile):
                state.play(move)
                value, rest = best(board_key | {(move.cell, move.tile)})
                state.undo(move)
                if value > out[0]:
                    out = (value, (move, *rest))
        memo[key] = out
        return out

    value, moves = best(frozenset())
    return value, list(moves)


def brute_force_ship_best(rules: Rules, variant: Variant, draw: list[Tile] | None
                          ) -> tuple[int, list[Placement]]:
    """The best total and a game reaching it: with `draw` (board_size tiles, the call
    order) each called tile must be placed in turn; without, any board_size distinct
    tiles in any order."""
    if draw is None:
        return _ship_search(rules, variant, Scratch.unplaced_tiles)
    if len(draw) != rules.board_size or len({t.id for t in draw}) != len(draw):
        raise ValueError("the draw must call board_size distinct tiles")
    return _ship_search(rules, variant, lambda s: [draw[len(s.placements)]])


def brute_force_ship_max(rules: Rules, variant: Variant, draw: list[Tile]) -> int:
    """Best score sheet total (rows, gold/silver if used, Take it Higher bonus) when the
    tiles of `draw` are called in this order and each is placed (any empty cell, any
    legal launch set)."""
    return brute_force_ship_best(rules, variant, draw)[0]


def brute_force_ship_max_free(rules: Rules, variant: Variant) -> int:
    """Best total when the player picks the tiles and their order (tiny rules only)."""
    return brute_force_ship_best(rules, variant, None)[0]
