"""`plan`: the fewest moves that make the stacks meet a card (any or all of several),
proven by one of two back-ends: the SAT planning encoding (encode_sat: unsatisfiable at
every shorter horizon) or breadth-first search over the rules engine (bfs: every
shorter move sequence examined)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from models.topito.bfs import bfs_plan
from models.topito.rules import Goal, Move, State
from models.topito.show import MoveInfo, move_info, podium_dict
from solver.errors import BadInput, TimeLimitReached

BACKENDS = ("sat", "bfs")


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
             deadline: float | None) -> tuple[str, int | None, list[Move], int, str]:
    """(status, length, moves, depth_done, proof text) with either back-end."""
    if backend not in BACKENDS:
        raise BadInput(f"unknown backend '{backend}' (backends: {', '.join(BACKENDS)})")
    if backend == "sat":
        from models.topito.encode_sat import sat_plan

        status, length, moves, done = sat_plan(state, goal, max_moves, deadline)

        def how(k: int) -> str:
            return f"SAT: the goal is unsatisfiable after exactly t moves for every t <= {k}"
    else:
        out = bfs_plan(state, goal, max_moves, deadline)
        status, length, moves, done = out.status, out.length, out.moves, out.depth_done

        def how(k: int) -> str:
            return (f"BFS: every move sequence of at most {k} moves examined "
                    f"({out.nodes} states), none meets it")
    if status == "optimal":
        proof = "the card is met already" if length == 0 else how(length - 1)
    elif status == "infeasible":
        proof = how(max_moves)
    else:
        proof = f"time limit: no plan of at most {done} moves; the search of {done + 1} stopped"
    return status, length, moves, done, proof


def replay(state: State, moves: list[Move]) -> tuple[list[MoveInfo], State]:
    """Replay a plan through the rules engine (every step checked legal)."""
    r = state.rules
    steps = []
    for m in moves:
        nxt = state.apply_action(m)
        steps.append(move_info(r, m, state.stacks, nxt.stacks))
        state = nxt
    return steps, state


def plan(state: State, goal: Goal, backend: str = "sat", max_moves: int = 12,
         time_limit: float | None = 60.0) -> PlanResult:
    """Shortest plan to meet the goal; TimeLimitReached if not decided in time."""
    r = state.rules
    t0 = time.perf_counter()
    status, length, moves, done, proof = shortest(state, goal, backend, max_moves,
                                                  deadline_after(time_limit))
    if status == "unknown":
        raise TimeLimitReached(f"{proof} (a plan needs at least {done + 1} moves)")
    steps, end = replay(state, moves)
    if status == "optimal" and not goal.met(end.stacks):
        raise AssertionError("plan does not meet the goal")  # a bug, never user input
    return PlanResult([c.text(r) for c in goal.cards], goal.mode, backend, status, length,
                      steps, [c.text(r) for c in goal.cards if c.met(end.stacks)]
                      if status == "optimal" else [], max_moves, proof,
                      round(time.perf_counter() - t0, 4), podium_dict(r, state.stacks))
