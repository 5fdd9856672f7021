"""Hippo as text: rolls ('6,4,2'), colour names, moves ('2 red, 10 red')."""

from __future__ import annotations

import re
from typing import Any

from models.hippo.rules import Rules
from models.hippo.state import GameState, Move
from solver.errors import BadInput
from solver.io import expect


def parse_roll(rules: Rules, text: str, where: str = "--roll") -> tuple[int, ...]:
    """'6,4,2' (or '6 4 2', '642') -> (6, 4, 2); every die 1..faces."""
    t = text.strip()
    if re.search(r"[,\s+/-]", t):
        # '-' separates dice only between digits (6-4-2): '-1' is a negative die
        parts = []
        for chunk in (c for c in re.split(r"[,\s+/]+", t) if c):
            parts += chunk.split("-") if re.fullmatch(r"\d+(-\d+)+", chunk) else [chunk]
    else:
        parts = list(t)
    if len(parts) != rules.dice:
        raise BadInput(f"{where}: '{text}' is not a roll of {rules.dice} dice (e.g. 6,4,2)")
    roll = []
    for p in parts:
        # ASCII digits, a few of them: '²' is a digit to str.isdigit, and int() refuses
        # it (and any number of over 4,300 digits) with a ValueError
        if not re.fullmatch(r"[0-9]{1,6}", p) or not 1 <= int(p) <= rules.faces:
            raise BadInput(f"{where}: die '{p[:20]}' in '{text[:40]}' is not a number "
                           f"1-{rules.faces}")
        roll.append(int(p))
    return tuple(roll)

def parse_rolls(rules: Rules, text: str, where: str = "--rolls") -> list[tuple[int, ...]]:
    """'6,4,2 5,5,1' -> [(6, 4, 2), (5, 5, 1)] (rolls separated by spaces or ';')."""
    chunks = [c for c in re.split(r"[;\s]+", text.strip()) if c]
    if not chunks:
        raise BadInput(f"{where}: no rolls given (e.g. \"6,4,2 5,5,1\")")
    return [parse_roll(rules, c, f"{where} roll {i}") for i, c in enumerate(chunks, 1)]

def colour_index(state_colours: list[str], rules: Rules, value: Any, where: str) -> int:
    """The index of a playing colour named by `value` (BadInput naming `where` when it is
    no colour or one not playing)."""
    name = expect(value, str, where).strip().lower()
    if name not in state_colours:
        if name in rules.colour_names:
            raise BadInput(f"{where}: colour '{name}' is not playing "
                           f"(players: {', '.join(state_colours)})")
        raise BadInput(f"{where}: unknown colour '{name}' "
                       f"(colours: {', '.join(rules.colour_names)})")
    return state_colours.index(name)

def format_move(state: GameState, move: Move) -> str:
    """'2 red, 10 red' — lanes in placement order with the chip's colour."""
    return ", ".join(f"{lane} {state.colours[c]}" for lane, c in move)

def parse_move(state: GameState, placements: list[str] | str) -> Move:
    """Placements like ["2 red", "10 red"] (or "2 red, 10 red") as a move."""
    items = placements.split(",") if isinstance(placements, str) else placements
    move = []
    for item in items:
        parts = item.split()
        # a lane is a few ASCII digits: int() refuses over 4,300 of them with a ValueError
        if len(parts) != 2 or not re.fullmatch(r"[0-9]{1,6}", parts[0]):
            raise BadInput(f"placement '{item}': expected 'LANE COLOUR', e.g. '10 red'")
        move.append((int(parts[0]), colour_index(list(state.colours), state.rules, parts[1],
                                                  f"placement '{item}'")))
    return tuple(move)
