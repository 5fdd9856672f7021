"""Hippo: the rules data (lanes, Mr. Hippo's lane, capacity, chips, dice, colours, the
reading of foreign colours first), read from data/default.json or a --rules file.

The rest of the game lives beside it: `dice` (rolls and their splits), `state` (game
states and the engine), `notation` (rolls and moves as text), `positions` (position
files).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io import expect, load_data, rgb_colour
from solver.io import field as json_field

# When foreign chips taken by a penalty must be placed first: from the player's next
# turn on (the rulebook's words; the default), or at once, also on the rest of the roll
# and on the bonus roll of the turn they were taken in.
NEXT_TURN, AT_ONCE = "next-turn", "at-once"
FOREIGN_FIRST = (NEXT_TURN, AT_ONCE)


@dataclass(frozen=True)
class Rules:
    """The game's numbers: lanes, Mr. Hippo's lane, capacity, chips, dice, colours."""

    name: str
    lanes: int  # lanes are numbered 1..lanes
    hippo: int  # Mr. Hippo's lane: unlimited, never kicked out of, earns the bonus roll
    capacity: int  # chips a normal lane holds
    chips: int  # chips of each colour
    dice: int
    faces: int
    min_players: int
    max_players: int
    penalty_takes_placed: bool  # the penalty also takes the chip just placed
    colours: tuple[tuple[str, str], ...]  # (name, rgb) in the order players pick them
    foreign_first: str = NEXT_TURN  # NEXT_TURN or AT_ONCE (see FOREIGN_FIRST)

    def __post_init__(self) -> None:
        # Rules key many caches: hash the fields once.
        object.__setattr__(self, "_hash", hash((
            self.name, self.lanes, self.hippo, self.capacity, self.chips, self.dice,
            self.faces, self.min_players, self.max_players, self.penalty_takes_placed,
            self.colours, self.foreign_first)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    @property
    def colour_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.colours)

    def rgb(self, name: str) -> str:
        return dict(self.colours)[name]

    @property
    def next_turn(self) -> bool:
        """Foreign chips taken during a turn are due only from the player's next turn."""
        return self.foreign_first == NEXT_TURN


def foreign_first_value(value: Any, where: str) -> str:
    """'next-turn' or 'at-once' (BadInput otherwise)."""
    if value not in FOREIGN_FIRST:
        raise BadInput(f"{where}: '{value}' is not a reading of foreign colours first "
                       f"({' or '.join(FOREIGN_FIRST)})")
    return value


def rules_from_dict(data: Any, where: str = "rules") -> Rules:
    """Rules from a JSON object (see docs/hippo.md); each problem is one BadInput."""
    expect(data, dict, where)

    def integer(key: str, low: int, high: int) -> int:
        value = json_field(data, key, int, where)
        if not low <= value <= high:
            raise BadInput(f"{where}.{key}: {value} is outside {low}..{high}")
        return value

    lanes = integer("lanes", 2, 60)
    hippo = integer("hippo_lane", 1, lanes)
    dice = integer("dice", 1, 5)
    faces = integer("faces", 2, 20)
    if faces >= hippo:
        raise BadInput(f"{where}: a single die must not reach the hippo lane "
                       f"(faces {faces} >= hippo_lane {hippo})")
    colours = json_field(data, "colours", dict, where)
    for name, rgb in colours.items():
        rgb_colour(rgb, f"{where}.colours.{name}")
    min_players = integer("min_players", 1, 12)
    max_players = integer("max_players", min_players, 12)
    if len(colours) < max_players:
        raise BadInput(f"{where}: {len(colours)} colours for up to {max_players} players")
    return Rules(
        name=json_field(data, "name", str, where, "custom rules"),
        lanes=lanes, hippo=hippo,
        capacity=integer("lane_capacity", 1, 10),
        chips=integer("chips_per_colour", 1, 100),
        dice=dice, faces=faces, min_players=min_players, max_players=max_players,
        penalty_takes_placed=json_field(data, "penalty_takes_placed_chip", bool, where, True),
        colours=tuple((str(k), v.lower()) for k, v in colours.items()),
        foreign_first=foreign_first_value(
            json_field(data, "foreign_first", str, where, NEXT_TURN), f"{where}.foreign_first"))


def load_rules(path: str | Path | None = None, foreign_first: str | None = None) -> Rules:
    """The built-in rules (data/default.json) or a rules file given with --rules;
    `foreign_first` (the command line's --foreign-first) overrides the data's reading."""
    rules = load_data(path, "models.hippo", "default.json", rules_from_dict)
    if foreign_first is None:
        return rules
    return with_reading(rules, foreign_first, "--foreign-first")


def with_reading(rules: Rules, foreign_first: str, where: str = "foreign_first") -> Rules:
    """The same rules under another reading of foreign colours first."""
    if foreign_first == rules.foreign_first:
        return rules
    return dataclasses.replace(rules, foreign_first=foreign_first_value(foreign_first, where))

