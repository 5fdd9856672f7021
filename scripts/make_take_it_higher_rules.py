"""Writes models/take_it_higher/data/default.json, the built-in rules data.

Run once after changing a default; the JSON file is what ships. The choices the
rulebook leaves open are documented in docs/take-it-higher.md.
"""

from __future__ import annotations

import json
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


def main() -> None:
    cells = [(x, y) for y in range(6) for x in range(6)
             if min(x, 5 - x) + min(y, 5 - y) >= 2]
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
    ships = ["white", "orange", "yellow", "pink", "green", "purple", "blue", "red",
             "silver", "gold"]
    data = {
        "name": "Take it Higher! (built-in rules)",
        "cells": [{"id": name[c], "x": c[0], "y": c[1]} for c in cells],
        "colours": {k: {"value": v, "rgb": rgb} for k, (v, rgb) in COLOURS.items()},
        "directions": directions,
        "studs": {"gold": {"bonus": 10, "rgb": "#d4af37"},
                  "silver": {"bonus": 9, "rgb": "#b8bcc2"}},
        "tiles": tiles,
        "spaceships": [{"ship": s, "button": 20 * (i + 1)} for i, s in enumerate(ships)],
    }
    out = Path(__file__).resolve().parents[1] / "models/take_it_higher/data/default.json"
    text = json.dumps(data, indent=1, ensure_ascii=False)
    out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
