"""Writes models/take_it_higher/data/default.json, the built-in rules data, and rules
files of other shapes of the family (for benchmarks and tests).

    python scripts/make_take_it_higher_rules.py                  # the built-in rules
    python scripts/make_take_it_higher_rules.py --shape hexagon --out hex.json
    python scripts/make_take_it_higher_rules.py --all DIR        # every shape into DIR
    python scripts/make_take_it_higher_rules.py --list

Run once after changing a default; the JSON file is what ships. The choices the
rulebook leaves open are documented in docs/take-it-higher.md.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

COLOURS = {  # value, picture colour
    "white": (1, "#f4f1e8"), "orange": (2, "#f28c28"), "yellow": (3, "#f5d000"),
    "pink": (4, "#f27fb2"), "green": (5, "#3aa655"), "purple": (6, "#7b4fb8"),
    "blue": (7, "#1f6fd1"), "red": (8, "#d62f2f"),
}
# (name, low colour, high colour, glyph, stripe angle in degrees, key of a line)
DIRECTIONS = [
    ("vertical", "white", "red", "│", 90, lambda x, y: x),
    ("horizontal", "orange", "blue", "─", 0, lambda x, y: y),
    ("diagonal-up", "pink", "green", "╱", 45, lambda x, y: x - y),
    ("diagonal-down", "yellow", "purple", "╲", 135, lambda x, y: x + y),
]
# Letter table derived from the rulebook's worked examples (see docs): letter index
# i (A=0) has value 15-i with bits red 8, blue 4, purple 2, green 1.
HIGH_BIT = {"vertical": 8, "horizontal": 4, "diagonal-down": 2, "diagonal-up": 1}
LETTERS = "ABCDEFGHIJKLMNOP"
SHIPS = ["white", "orange", "yellow", "pink", "green", "purple", "blue", "red",
         "silver", "gold"]
STUDS = {"gold": {"bonus": 10, "rgb": "#d4af37"}, "silver": {"bonus": 9, "rgb": "#b8bcc2"}}


def octagon_cells(size: int, cut: int = 2) -> list[tuple[int, int]]:
    """A size x size grid without each corner triangle of side `cut` (2: three cells)."""
    return [(x, y) for y in range(size) for x in range(size)
            if min(x, size - 1 - x) + min(y, size - 1 - y) >= cut]


def main() -> None:
    cells = octagon_cells(6)
    name = {c: "abcdef"[c[0]] + str(c[1] + 1) for c in cells}
    directions = []
    for dname, low, high, glyph, angle, key in DIRECTIONS:
        groups: dict[int, list[str]] = {}
        for c in cells:
            groups.setdefault(key(*c), []).append(name[c])
        directions.append({"name": dname, "colours": [low, high], "glyph": glyph,
                           "angle": angle, "lines": [groups[k] for k in sorted(groups)]})
    tiles = []
    for stud, prefix in (("gold", "G"), ("silver", "S")):
        for i, letter in enumerate(LETTERS):
            value = 15 - i
            stripes = {d: (high if value & HIGH_BIT[d] else low)
                       for d, low, high, *_ in DIRECTIONS}
            tiles.append({"id": prefix + letter, "letter": letter, "stud": stud,
                          "stripes": stripes})
    data = {
        "name": "Take it Higher! (built-in rules)",
        "cells": [{"id": name[c], "x": c[0], "y": c[1]} for c in cells],
        "colours": {k: {"value": v, "rgb": rgb} for k, (v, rgb) in COLOURS.items()},
        "directions": directions,
        "studs": STUDS,
        "tiles": tiles,
        "spaceships": [{"ship": s, "button": 20 * (i + 1)} for i, s in enumerate(SHIPS)],
    }
    out = Path(__file__).resolve().parents[1] / "models/take_it_higher/data/default.json"
    text = json.dumps(data, indent=1, ensure_ascii=False)
    out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {out}")


# --------------------------------------------------------------------------- other shapes

Point = tuple[float, float]
LineKey = Callable[[int, int], int]


@dataclass(frozen=True)
class Shape:
    """A rules file of the family: cells (grid coordinates, picture position), the
    directions of lines, stripe colours per direction, and the tile set: every colour
    combination ("letter") once per stud in `studs` and `copies` times over; with
    `alternate`, each letter exists once, its stud alternating gold / silver."""

    about: str
    cells: Callable[[], list[tuple[int, int]]]
    picture: Callable[[int, int], Point]
    directions: list[tuple[str, list[str], int, LineKey]]  # name, colours, angle, key
    studs: tuple[str, ...] = ("gold", "silver")
    copies: int = 1
    alternate: bool = False
    colours: dict[str, tuple[int, str]] | None = None  # value, picture colour; None: COLOURS


def _hexagon(side: int) -> Callable[[], list[tuple[int, int]]]:
    n = side - 1
    return lambda: [(q, r) for r in range(-n, n + 1) for q in range(-n, n + 1)
                    if abs(q + r) <= n]


def _hex_picture(q: int, r: int) -> Point:
    return (round(q + r / 2, 3), round(r * math.sqrt(3) / 2, 3))


def _square_picture(x: int, y: int) -> Point:
    return (x, y)


SQUARE4 = [(d[0], [d[1], d[2]], d[4], d[5]) for d in DIRECTIONS]
HEX3 = [("q", ["white", "red"], 60, lambda q, r: q),
        ("r", ["orange", "blue"], 0, lambda q, r: r),
        ("s", ["pink", "green"], 120, lambda q, r: q + r)]
HEX3_3COL = [("q", ["white", "yellow", "red"], 60, lambda q, r: q),
             ("r", ["orange", "pink", "blue"], 0, lambda q, r: r),
             ("s", ["green", "purple", "red"], 120, lambda q, r: q + r)]
# Take It Easy (Peter Burley): numbers 1-9 as colours, three directions 1/5/9, 2/6/7, 3/4/8
TAKE_IT_EASY_COLOURS = {
    "grey": (1, "#a8a8a8"), "pink": (2, "#f4a3c0"), "rose": (3, "#e8668f"),
    "light-blue": (4, "#7fd0f0"), "teal": (5, "#2aa9a0"), "red": (6, "#e03030"),
    "green": (7, "#3aa655"), "orange": (8, "#f28c28"), "yellow": (9, "#f5d000"),
}
HEX3_TAKE_IT_EASY = [("q", ["grey", "teal", "yellow"], 90, lambda q, r: q),
                     ("r", ["pink", "red", "green"], 30, lambda q, r: r),
                     ("s", ["rose", "light-blue", "orange"], 150, lambda q, r: q + r)]
# a fifth direction on the square grid: lines of a knight's move (x + 2y constant)
KNIGHT = ("knight", ["white", "blue"], 30, lambda x, y: x + 2 * y)

SHAPES: dict[str, Shape] = {
    "hexagon": Shape("hexagon of side 3 (19 cells), 3 directions, 8 letters x gold/silver x "
                     "2 copies = 32 tiles", _hexagon(3), _hex_picture, HEX3, copies=2),
    "hexagon-3col": Shape("hexagon of side 3 (19 cells), 3 directions of 3 colours, 27 "
                          "letters once each (one copy per tile, studs alternate)",
                          _hexagon(3), _hex_picture, HEX3_3COL, alternate=True),
    "take-it-easy": Shape("Take It Easy: hexagon of side 3 (19 cells), 3 directions valued "
                          "1/5/9, 2/6/7 and 3/4/8, 27 tiles (each combination once; "
                          "studs alternate, for the gold/silver variant only)",
                          _hexagon(3), _hex_picture, HEX3_TAKE_IT_EASY, alternate=True,
                          colours=TAKE_IT_EASY_COLOURS),
    "hexagon-large": Shape("hexagon of side 4 (37 cells), 3 directions, 8 letters x "
                           "gold/silver x 3 copies = 48 tiles", _hexagon(4), _hex_picture,
                           HEX3, copies=3),
    "three-directions": Shape("the built-in board (24 cells) without the diagonal \\, 8 "
                              "letters x gold/silver x 2 copies = 32 tiles",
                              lambda: octagon_cells(6), _square_picture, SQUARE4[:3], copies=2),
    "five-directions": Shape("5x5 grid without its corners (21 cells), the four directions "
                             "and a fifth (knight's move lines), 32 letters once each (one "
                             "copy per tile, studs alternate)",
                             lambda: octagon_cells(5, 1), _square_picture,
                             [*SQUARE4, KNIGHT], alternate=True),
    "five-directions-small": Shape("4x4 grid (16 cells), five directions as above, 32 "
                                   "letters once each (studs alternate)",
                                   lambda: octagon_cells(4, 0), _square_picture,
                                   [*SQUARE4, KNIGHT], alternate=True),
    "more-tiles": Shape("the built-in board (24 cells), 16 letters x gold/silver x 3 copies "
                        "= 96 tiles (four times as many tiles as cells)",
                        lambda: octagon_cells(6), _square_picture, SQUARE4, copies=3),
    "one-copy": Shape("the built-in board (24 cells), the horizontal in 3 colours: 24 "
                      "letters once each = exactly 24 tiles (studs alternate)",
                      lambda: octagon_cells(6), _square_picture,
                      [SQUARE4[0], ("horizontal", ["orange", "yellow", "blue"], 0,
                                    lambda x, y: y), *SQUARE4[2:]], alternate=True),
    "octagon-8": Shape("8x8 grid without the corner triangles (52 cells), 4 directions, 16 "
                       "letters x gold/silver x 2 copies = 64 tiles",
                       lambda: octagon_cells(8), _square_picture, SQUARE4, copies=2),
}


def _letters(colours: list[list[str]]) -> list[list[str]]:
    """Every combination of one colour per direction, the high colours first (the first
    letter is the best tile, as A is in the built-in set)."""
    combos: list[list[str]] = [[]]
    for options in colours:
        combos = [[*c, k] for c in combos for k in reversed(options)]
    return combos


def _letter_name(i: int) -> str:
    return LETTERS[i] if i < len(LETTERS) else LETTERS[i // 16 - 1] + LETTERS[i % 16]


def shape_rules(name: str) -> dict:
    """The rules data of shape `name` (see SHAPES)."""
    shape = SHAPES[name]
    cells = shape.cells()
    xs = sorted({x for x, _ in cells})
    ys = sorted({y for _, y in cells})
    cell_id = {(x, y): "abcdefghijklmnop"[ys.index(y)] + str(xs.index(x) + 1)
               for x, y in cells}
    directions = []
    for dname, colours, angle, key in shape.directions:
        groups: dict[int, list[str]] = {}
        for c in cells:
            groups.setdefault(key(*c), []).append(cell_id[c])
        directions.append({"name": dname, "colours": colours, "angle": angle,
                           "lines": [groups[k] for k in sorted(groups)]})
    tiles = []
    for i, stripes in enumerate(_letters([d[1] for d in shape.directions])):
        letter = _letter_name(i)
        studs = [shape.studs[i % len(shape.studs)]] if shape.alternate else shape.studs
        for stud in studs:
            for copy in range(shape.copies):
                suffix = str(copy + 1) if shape.copies > 1 else ""
                tiles.append({"id": stud[0].upper() + letter + suffix, "letter": letter,
                              "stud": stud,
                              "stripes": dict(zip([d[0] for d in shape.directions], stripes,
                                                  strict=True))})
    used = {k for _, colours, _, _ in shape.directions for k in colours}
    ships = [s for s in SHIPS if s in used or s in shape.studs]
    return {
        "name": f"Take it Higher! family: {name} ({shape.about})",
        "cells": [{"id": cell_id[c], "x": shape.picture(*c)[0], "y": shape.picture(*c)[1]}
                  for c in cells],
        "colours": {k: {"value": v, "rgb": rgb}
                    for k, (v, rgb) in (shape.colours or COLOURS).items()},
        "directions": directions,
        "studs": {s: STUDS[s] for s in shape.studs},
        "tiles": tiles,
        "spaceships": [{"ship": s, "button": 20 * (i + 1)} for i, s in enumerate(ships)],
    }


def write_shape(name: str, out: Path) -> None:
    out.write_text(json.dumps(shape_rules(name), indent=1, ensure_ascii=False) + "\n",
                   encoding="utf-8")


def cli() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shape", choices=sorted(SHAPES), help="write this shape to --out")
    ap.add_argument("--out", type=Path, help="the rules file to write (with --shape)")
    ap.add_argument("--all", type=Path, metavar="DIR", help="write every shape to DIR/NAME.json")
    ap.add_argument("--list", action="store_true", help="list the shapes")
    args = ap.parse_args()
    if args.list:
        for name, shape in SHAPES.items():
            print(f"{name}: {shape.about}")
    elif args.all:
        args.all.mkdir(parents=True, exist_ok=True)
        for name in SHAPES:
            write_shape(name, args.all / f"{name}.json")
        print(f"wrote {len(SHAPES)} rules files to {args.all}")
    elif args.shape:
        if args.out is None:
            ap.error("--shape needs --out FILE")
        write_shape(args.shape, args.out)
        print(f"wrote {args.out}")
    else:
        main()


if __name__ == "__main__":
    cli()
