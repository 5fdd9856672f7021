"""The questions users ask about a Hippo position, answered as plain dataclasses."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from models.hippo.best import best_options, denominator
from models.hippo.positions import state_to_dict
from models.hippo.state import GameState, Move
from solver.errors import BadInput


@dataclass
class ShowResult:
    """A position: the file's state, every stock's size, who is on turn and the dice
    if they have been rolled."""

    state: dict[str, Any]
    stock_sizes: dict[str, int]
    to_move: str
    bonus_roll: bool
    roll: list[int] | None


def show(state: GameState) -> ShowResult:
    return ShowResult(state_to_dict(state),
                      {c: state.stock_size(p) for p, c in enumerate(state.colours)},
                      state.colours[state.to_move], state.bonus,
                      None if state.roll is None else list(state.roll))


def _placements(state: GameState, move: Move) -> list[str]:
    return [f"{lane} {state.colours[c]}" for lane, c in move]


def _guard(state: GameState) -> None:
    if state.is_terminal():
        raise BadInput(f"the game is over: {state.colours[state.winner() or 0]} has no chips "
                       "left")


@dataclass
class RankedOption:
    """One distinct result, with the values it is ranked by."""

    rank: int
    placements: list[str]
    shed_now: int
    bonus_roll: bool
    won: bool
    expected_shed: float  # chips shed this turn, bonus roll counted by its expectation
    expected_shed_exact: str  # the same as a fraction
    exposure: float  # own chips the next players can kick out, weighed by chance
    exposure_exact: str


@dataclass
class BestResult:
    """The best placement for a roll, proven by exhausting every result and every bonus
    roll outcome; `options` ranks all distinct results."""

    player: str
    roll: list[int]
    bonus_roll: bool
    best: list[str]
    expected_shed: float
    exposure: float
    proven: bool
    method: str
    options: list[RankedOption]
    seconds: float


def best(state: GameState, roll: tuple[int, ...]) -> BestResult:
    _guard(state)
    start = time.perf_counter()
    ranked = best_options(state, roll)
    seconds = time.perf_counter() - start
    d = denominator(state.rules)
    opts = [RankedOption(i, _placements(state, o.move), o.shed_now, o.bonus, o.won,
                         round(float(o.value), 6), str(o.value), round(float(o.exposure), 6),
                         str(o.exposure)) for i, o in enumerate(ranked, 1)]
    top = ranked[0]
    method = (f"all {len(ranked)} distinct results; each bonus roll averaged exactly over "
              f"the {d} outcomes of the dice with its own best answer")
    return BestResult(state.colours[state.to_move], list(roll), state.bonus,
                      opts[0].placements, round(float(top.value), 6),
                      round(float(top.exposure), 6), True, method, opts, round(seconds, 4))
