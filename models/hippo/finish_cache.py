"""The finishing-chance DP's memos, gathered in one object shared by its parts, and its
budget: steps counted (deterministic work) and the time limit as a cap."""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.deadline import Deadline
from solver.errors import TimeLimitReached


@dataclass
class FinishCache:
    """Every memo of one DP (one rules set, shared across turn counts). Keys hold packed
    views or packed rooms (see `finish_tables`); values on the scales of `finish`."""

    # placing (finish_moves): a lane's pattern with chips added below; a split's
    # results as changes to the view, by colours and by orders; a roll's results
    added: dict[tuple[int, tuple[int, ...]], int] = field(default_factory=dict)
    coloured: dict[tuple, tuple[int, ...]] = field(default_factory=dict)
    ordered: dict[tuple, tuple[tuple[int, bool, bool], ...]] = field(default_factory=dict)
    results: dict[tuple[int, tuple[int, ...]], list[tuple[int, bool, bool]]] = field(
        default_factory=dict)
    # the last roll and the last turn (finish_endgame), on the lanes and on the rooms
    wins: dict[tuple[tuple[int, ...], int, int], bool] = field(default_factory=dict)
    last_by_lanes: dict[int, int] = field(default_factory=dict)
    last_by_room: dict[int, int] = field(default_factory=dict)
    last_turn_by_room: dict[tuple[int, int, int], int] = field(default_factory=dict)
    last_turn_by_lanes: dict[int, int] = field(default_factory=dict)
    backs: dict[tuple, tuple[int, ...]] = field(default_factory=dict)
    cap_tabs: dict[int, list[int]] = field(default_factory=dict)
    # the bounds (finish_bounds): without lanes by turns and stock size, per roll, on
    # the rooms
    ub_main: list[list[int]] = field(default_factory=list)
    ub_bonus: list[list[int]] = field(default_factory=list)
    split_orders: dict[tuple, list[tuple[int, int, tuple[int, ...]]]] = field(
        default_factory=dict)
    roll_bounds: dict[tuple[int, int, bool], tuple[list[int], int]] = field(
        default_factory=dict)
    rooms_bounds: dict[tuple, tuple[list[int], int]] = field(default_factory=dict)
    roll_shapes: dict[tuple, tuple[int, tuple[int, ...]]] = field(default_factory=dict)
    two_turns: dict[tuple[int, int], int] = field(default_factory=dict)
    # the values (finish_search): a turn's start and a bonus roll by (turns, view)
    # (a negative entry ~b: only the bound b), two turns from the end on the rooms
    main: dict[tuple[int, int], int] = field(default_factory=dict)
    bonus: dict[tuple[int, int], int] = field(default_factory=dict)
    two_from_end: dict[tuple, tuple[int, tuple]] = field(default_factory=dict)

    def states(self) -> int:
        """Positions valued so far (last rolls counted once per canonical key)."""
        return (len(self.main) + len(self.bonus) + len(self.last_by_room)
                + len(self.last_turn_by_room))


class OutOfSteps(Exception):
    """The DP has taken the steps it was given (`Budget.steps`)."""


class Budget:
    """The DP's work, counted in steps (a position valued, a roll valued, a table of
    the rooms made: each costs about the same CPU time), and the time limit as a cap
    (every 32nd step reads the clock). `steps` None: no step limit."""

    def __init__(self, deadline: Deadline, steps: int | None = None) -> None:
        self.deadline = deadline
        self.steps = steps
        self.calls = 0

    def tick(self) -> None:
        """One step more; OutOfSteps past the step limit, TimeLimitReached once the
        deadline has passed."""
        self.calls += 1
        if self.steps is not None and self.calls > self.steps:
            raise OutOfSteps
        if self.calls % 32 == 0 and self.deadline.passed():
            raise TimeLimitReached("finishing chances: time limit reached "
                                   "(try fewer --turns or a larger --time-limit)")
