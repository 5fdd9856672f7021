"""Small Take it Higher!-family rules files and a brute-force reference maximum."""

from __future__ import annotations

import itertools
import random

from models.take_it_higher.rules import Rules, Tile, board_score, rules_from_dict

DIRECTION_KEYS = [
    ("vertical", lambda x, y: x, ["white", "red"]),
    ("horizontal", lambda x, y: y, ["orange", "blue"]),
    ("diagonal-up", lambda x, y: x - y, ["pink", "green"]),
    ("diagonal-down", lambda x, y: x + y, ["yellow", "purple"]),
]
VALUES = {"white": 1, "orange": 2, "yellow": 3, "pink": 4, "green": 5, "purple": 6,
          "blue": 7, "red": 8, "black": 9}


def small_rules_dict(seed: int, n_cells: int = 5, n_tiles: int = 7, n_dirs: int = 3,
                     studs: bool = True) -> dict:
    """A random board of n_cells cells on a 3x3 grid, n_dirs directions (a direction may
    get a third colour), n_tiles random tiles with random studs, and spaceships."""
    rng = random.Random(seed)
    grid = [(x, y) for x in range(3) for y in range(3)]
    cells = rng.sample(grid, n_cells)
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
