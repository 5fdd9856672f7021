"""`reachable`: can the card(s) be met within K moves? Yes with a shortest plan, or no
with the proof (either back-end of plan.py)."""

from __future__ import annotations

from dataclasses import dataclass

from models.topito.plan import plan
from models.topito.queries import MoveInfo
from models.topito.rules import Goal
from models.topito.state import State


@dataclass
class ReachableResult:
    """Can the card(s) be met within `within` moves? Always proven either way."""

    cards: list[str]
    mode: str
    within: int
    reachable: bool
    status: str
    moves: int | None
    plan: list[MoveInfo]
    proof: str
    backend: str
    seconds: float


def reachable(state: State, goal: Goal, within: int, backend: str = "sat",
              time_limit: float | None = 60.0) -> ReachableResult:
    res = plan(state, goal, backend, within, time_limit)
    return ReachableResult(res.cards, goal.mode, within, res.status == "optimal", "proven",
                           res.moves, res.plan, res.proof, backend, res.seconds)
