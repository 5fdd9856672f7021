"""The questions users ask about a Tippi Toppi position, answered as plain dataclasses:
`show` here; the others in their own modules (achievable.py, hint.py, reachable.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from models.tippi_toppi.positions import state_to_dict
from models.tippi_toppi.state import GameState


@dataclass
class ShowResult:
    """`show --json`'s game part: the state as read, the top cards, the draw pile, the
    tasks left, the legal plays of the players who may play now, the status."""

    state: dict[str, Any]
    tops: list[str]
    draw_pile_cards: int
    draw_pile_known: bool
    tasks_left: int
    legal_plays: int
    status: str  # playing, won, lost


def show(state: GameState) -> ShowResult:
    r = state.rules
    return ShowResult(state_to_dict(state), [r.card_name(c) for c in state.tops],
                      state.draw_count, state.draw_pile is not None,
                      state.tasks_left(), len(state.legal_plays()), state.status())
