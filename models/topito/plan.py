"""`plan`: the fewest moves that make the stacks meet a card (any or all of several),
proven by one of the back-ends: best-first search ordered by a proven lower bound
(astar: every position that could start a shorter plan examined), the SAT planning
encoding (encode_sat: unsatisfiable at every shorter horizon, which starts at the lower
bound) or breadth-first search over the rules engine (bfs: every shorter move sequence
examined). `auto` (the default) runs A* for a bounded number of positions — it answers
at once when the bound is close to the plan's length — and hands over to SAT at the
length A* has ruled out when it is not."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from models.topito.astar import PlanBound, astar_plan
from models.topito.bfs import bfs_plan
from models.topito.rules import Goal, Move, State
from models.topito.show import MoveInfo, move_info, podium_dict
from solver.errors import BadInput, TimeLimitReached

# the back-ends of hint and generate (they assume a first move or count plans)
BACKENDS = ("sat", "bfs")
PLAN_BACKENDS = ("auto", "astar", "sat", "bfs")
# auto: positions A* may add before SAT takes over (a few tenths of a second)
AUTO_ASTAR_NODES = 6000


def deadline_after(time_limit: float | None) -> float | None:
    """The time.perf_counter() at which `time_limit` seconds from now run out."""
    return None if time_limit is None else time.perf_counter() + time_limit


@dataclass
class PlanResult:
    """The fewest moves that meet the card(s), proven.

    status: "optimal" (a plan of `moves` moves and a proof that none is shorter) or
    "infeasible" (proven: no plan within `max_moves`). `proof` says how."""

    cards: list[str]
    mode: str
    backend: str
    status: str
    moves: int | None
    plan: list[MoveInfo]
    met_at_end: list[str]
    max_moves: int
    proof: str
    seconds: float
    start: dict[str, list[str]] = field(default_factory=dict)


def shortest(state: State, goal: Goal, backend: str, max_moves: int,
             deadline: float | None) -> tuple[str, int | None, list[Move], int, str, str]:
    """(status, length, moves, depth_done, proof text, the back-end that answered)."""
    if backend not in PLAN_BACKENDS:
        raise BadInput(f"unknown backend '{backend}' (backends: {', '.join(PLAN_BACKENDS)})")
    if goal.met(state.stacks):
        return "optimal", 0, [], 0, "the card is met already", backend
    if backend == "bfs":
        out = bfs_plan(state, goal, max_moves, deadline)

        def how(k: int) -> str:
            return (f"BFS: every move sequence of at most {k} moves examined "
                    f"({out.nodes} states), none meets it")
        return _outcome(out.status, out.length, out.moves, out.depth_done, how, max_moves,
                        backend)
    bound = PlanBound(goal, state.rules.n_blocks)
    lower = bound.value(state.stacks)
    by_bound = (f"lower bound: at least {lower} moves (blocks that must each be taken "
                "in hand)")
    if lower > max_moves:
        return "infeasible", None, [], max_moves, by_bound, backend
    if backend in ("astar", "auto") and goal.mode == "all" and len(goal.cards) > 1:
        from models.topito.encode_sat import arrangement_exists

        try:  # a few ms; A* alone would search every position up to max_moves
            if not arrangement_exists(state, goal, deadline):
                return ("infeasible", None, [], max_moves,
                        "SAT: no arrangement of the blocks meets the cards at once", "sat")
        except TimeLimitReached:
            return ("unknown", None, [], lower - 1,
                    f"time limit: no plan of at most {lower - 1} moves ({by_bound})", backend)
    if backend in ("astar", "auto"):
        stop = (lambda nodes: nodes > AUTO_ASTAR_NODES) if backend == "auto" else None
        out = astar_plan(state, goal, max_moves, deadline, bound, stop)

        def how(k: int) -> str:
            if lower > k:
                return by_bound
            return (f"A*: every position that could begin a plan of at most {k} moves "
                    f"(moves made + lower bound <= {k}) examined ({out.nodes} states)")
        if backend == "astar" or out.status != "unknown" or (
                deadline is not None and time.perf_counter() > deadline):
            return _outcome(out.status, out.length, out.moves, out.depth_done, how,
                            max_moves, "astar")
        lower = max(lower, out.depth_done + 1)
        by_bound = (f"A* ruled out every plan of at most {out.depth_done} moves "
                    f"({out.nodes} states)")
    from models.topito.encode_sat import sat_plan

    status, length, moves, done = sat_plan(state, goal, max_moves, deadline, lower=lower,
                                           must_move=bound.required(state.stacks))

    def how(k: int) -> str:
        sat = f"SAT: the goal is unsatisfiable after exactly t moves for every t <= {k}"
        if lower <= 1:
            return sat
        if lower > k:
            return by_bound
        return (f"{by_bound}; SAT: the goal is unsatisfiable after exactly t moves for "
                f"every {lower} <= t <= {k}")
    return _outcome(status, length, moves, done, how, max_moves, "sat")


def _outcome(status: str, length: int | None, moves: list[Move], done: int,
             how: Callable[[int], str], max_moves: int, backend: str
             ) -> tuple[str, int | None, list[Move], int, str, str]:
    if status == "optimal":
        proof = "the card is met already" if length == 0 else how(length - 1)
    elif status == "infeasible":
        proof = how(max_moves)
    else:
        proof = f"time limit: no plan of at most {done} moves; the search of {done + 1} stopped"
    return status, length, moves, done, proof, backend


def replay(state: State, moves: list[Move]) -> tuple[list[MoveInfo], State]:
    """Replay a plan through the rules engine (every step checked legal)."""
    r = state.rules
    steps = []
    for m in moves:
        nxt = state.apply_action(m)
        steps.append(move_info(r, m, state.stacks, nxt.stacks))
        state = nxt
    return steps, state


def plan(state: State, goal: Goal, backend: str = "auto", max_moves: int = 12,
         time_limit: float | None = 60.0) -> PlanResult:
    """Shortest plan to meet the goal; TimeLimitReached if not decided in time.
    The result's `backend` is the one that answered (auto: astar or sat)."""
    r = state.rules
    t0 = time.perf_counter()
    status, length, moves, done, proof, backend = shortest(
        state, goal, backend, max_moves, deadline_after(time_limit))
    if status == "unknown":
        raise TimeLimitReached(f"{proof} (a plan needs at least {done + 1} moves)")
    steps, end = replay(state, moves)
    if status == "optimal" and not goal.met(end.stacks):
        raise AssertionError("plan does not meet the goal")  # a bug, never user input
    return PlanResult([c.text(r) for c in goal.cards], goal.mode, backend, status, length,
                      steps, [c.text(r) for c in goal.cards if c.met(end.stacks)]
                      if status == "optimal" else [], max_moves, proof,
                      round(time.perf_counter() - t0, 4), podium_dict(r, state.stacks))
