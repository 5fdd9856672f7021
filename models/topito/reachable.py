"""`reachable`: can the card(s) be met within K moves? Yes with a shortest plan, or no
with the proof (either back-end of plan.py), within the same work budget as `plan`."""

from __future__ import annotations

from dataclasses import dataclass

from models.topito.plan import plan
from models.topito.queries import MoveInfo
from models.topito.rules import Goal
from models.topito.state import State
from models.topito.work import Work, WorkSpent


@dataclass
class ReachableResult:
    """Can the card(s) be met within `within` moves? `status` "proven" either way, or
    "unknown" when the work budget was spent or the time limit cut the search first
    (`reachable` None; no plan is shorter than `lower_bound`, proven)."""

    cards: list[str]
    mode: str
    within: int
    reachable: bool | None
    status: str
    moves: int | None
    plan: list[MoveInfo]
    proof: str
    backend: str
    seconds: float
    lower_bound: int = 0
    work: WorkSpent | None = None


def reachable(state: State, goal: Goal, within: int, backend: str = "sat",
              time_limit: float | None = 60.0, work: Work | None = None
              ) -> ReachableResult:
    res = plan(state, goal, backend, within, time_limit, work)
    decided = res.status != "unknown"
    return ReachableResult(res.cards, goal.mode, within,
                           res.status == "optimal" if decided else None,
                           "proven" if decided else "unknown", res.moves, res.plan,
                           res.proof, backend, res.seconds, res.lower_bound, res.work)
