"""The toy game's answers: `show`'s part and `left`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.answers import Known, seen

if TYPE_CHECKING:
    from solver.verbs import Call


@dataclass
class ToyShow:
    total: int
    deck: int


@dataclass
class LeftAnswer(Known):
    """Points left below the limit and the safe cards of the player to move (those
    the answer can see: the player's own)."""

    total: int
    limit: int
    left: int
    safe: list[int]


def left(call: Call, strict: bool) -> LeftAnswer:
    state = call.state()
    limit = state.rules.limit - (1 if strict else 0)
    hand = state.hands[state.to_move]
    safe = sorted({c for c in hand if c is not None and state.total + c <= limit})
    known = seen(call.game, state, False)
    return LeftAnswer(knows=known["knows"], unknown=known["unknown"], total=state.total,
                      limit=limit, left=limit - state.total, safe=safe)
