"""`plan`: the fewest moves that make the stacks meet a card (any or all of several),
proven by one of the back-ends: best-first search ordered by a proven lower bound
(astar: every position that could start a shorter plan examined), the SAT planning
encoding (encode_sat: unsatisfiable at every shorter horizon, which starts at the lower
bound) or breadth-first search over the rules engine (bfs: every shorter move sequence
examined). `auto` (the default) runs A* alone for a first slice — it answers at once
when the bound is close to the plan's length — then A* and SAT in turns, SAT's horizon
starting past what A* has ruled out; the first to finish answers."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from models.topito.astar import AstarSearch, PlanBound, astar_plan
from models.topito.bfs import bfs_plan
from models.topito.queries import MoveInfo, move_info, podium_dict
from models.topito.rules import Goal
from models.topito.state import Move, State
from models.topito.verbs import PLAN_BACKENDS
from solver.deadline import Deadline
from solver.errors import BadInput, TimeLimitReached

# the back-ends (declared with the verbs): hint and generate take BACKENDS (they
# assume a first move or count plans), plan and reachable PLAN_BACKENDS
# auto: A* alone for the first slice, then A* and SAT in turns;
# past AUTO_ASTAR_NODES positions (memory: a few hundred bytes each) SAT goes on alone
AUTO_FIRST_SLICE = 0.5
AUTO_SLICE = 0.1  # A*'s turn
SAT_FACTOR = 3  # SAT's turn is this many times longer (it answers more of the hard cases)
AUTO_ASTAR_NODES = 250_000


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
    # the back-end whose proof this is (`backend` is the one asked: with auto, astar or
    # sat; the same words as Take it Higher!'s `max --backend auto`)
    proved_by: str | None = None


def shortest(state: State, goal: Goal, backend: str, max_moves: int,
             deadline: Deadline) -> tuple[str, int | None, list[Move], int, str, str]:
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
    if lower > max_moves:  # the bound alone (A*'s, also SAT's first horizon)
        return ("infeasible", None, [], max_moves, by_bound,
                "sat" if backend == "sat" else "astar")
    if backend in ("astar", "auto") and goal.mode == "all" and len(goal.cards) > 1:
        from models.topito.encode_sat import arrangement_exists

        try:  # a few ms; A* alone would search every position up to max_moves
            if not arrangement_exists(state, goal, deadline):
                return ("infeasible", None, [], max_moves,
                        "SAT: no arrangement of the blocks meets the cards at once", "sat")
        except TimeLimitReached:
            return ("unknown", None, [], lower - 1,
                    f"time limit: no plan of at most {lower - 1} moves ({by_bound})", backend)
    if backend == "astar":
        out = astar_plan(state, goal, max_moves, deadline, bound)
        return _outcome(out.status, out.length, out.moves, out.depth_done,
                        _astar_how(lower, by_bound, out.nodes), max_moves, "astar")
    from models.topito.encode_sat import SatSearch, sat_plan

    must = bound.required(state.stacks)
    if backend == "sat":
        status, length, moves, done = sat_plan(state, goal, max_moves, deadline,
                                               lower=lower, must_move=must)
        return _outcome(status, length, moves, done, _sat_how(lower, by_bound), max_moves,
                        "sat")
    # auto: A* alone for a first slice (most plans are found in it), then A* and SAT
    # in turns, SAT's horizon starting past what A* has ruled out
    search = AstarSearch(state, goal, max_moves, bound)
    sat = SatSearch(state, goal, max_moves, lower, must)
    first = sat.t
    astar_turn = deadline.sooner(AUTO_FIRST_SLICE)
    while True:
        out = search.run(astar_turn, lambda nodes: nodes > AUTO_ASTAR_NODES)
        if out is not None:
            sat.close()
            return _outcome(out.status, out.length, out.moves, out.depth_done,
                            _astar_how(lower, by_bound, out.nodes), max_moves, "astar")
        if deadline.passed():
            break
        if search.ruled_out >= sat.t:
            sat.skip_to(search.ruled_out + 1)
            first = sat.t
        res = sat.run(deadline.sooner(SAT_FACTOR * AUTO_SLICE))
        if res is not None:
            why = by_bound if first == lower else (
                f"A*: every position that could begin a plan of at most {first - 1} moves "
                f"examined ({search.nodes} states)")
            return _outcome(*res, _sat_how(first, why), max_moves, "sat")
        if deadline.passed():
            break
        astar_turn = deadline.sooner(AUTO_SLICE)
        if search.nodes > AUTO_ASTAR_NODES:
            astar_turn = Deadline.after(0)  # A* has had its share of memory: SAT alone
    sat.close()
    done = max(search.ruled_out, sat.t - 1)
    return _outcome("unknown", None, [], done, _sat_how(0, ""), max_moves, "auto")


def _astar_how(lower: int, by_bound: str, nodes: int) -> Callable[[int], str]:
    def how(k: int) -> str:
        if lower > k:
            return by_bound
        return (f"A*: every position that could begin a plan of at most {k} moves "
                f"(moves made + lower bound <= {k}) examined ({nodes} states)")
    return how


def _sat_how(lower: int, before: str) -> Callable[[int], str]:
    """The proof of SAT whose horizons start at `lower` (`before` rules out the
    shorter plans)."""
    def how(k: int) -> str:
        if lower <= 1:
            return f"SAT: the goal is unsatisfiable after exactly t moves for every t <= {k}"
        if lower > k:
            return before
        return (f"{before}; SAT: the goal is unsatisfiable after exactly t moves for "
                f"every {lower} <= t <= {k}")
    return how


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
    The result's `backend` is the one asked, `proved_by` the one that answered (auto:
    astar or sat)."""
    r = state.rules
    t0 = time.perf_counter()
    status, length, moves, done, proof, proved_by = shortest(
        state, goal, backend, max_moves, Deadline.after(time_limit))
    if status == "unknown":
        raise TimeLimitReached(f"{proof} (a plan needs at least {done + 1} moves)")
    steps, end = replay(state, moves)
    if status == "optimal" and not goal.met(end.stacks):
        raise AssertionError("plan does not meet the goal")  # a bug, never user input
    return PlanResult([c.text(r) for c in goal.cards], goal.mode, backend, status, length,
                      steps, [c.text(r) for c in goal.cards if c.met(end.stacks)]
                      if status == "optimal" else [], max_moves, proof,
                      round(time.perf_counter() - t0, 4), podium_dict(r, state.stacks),
                      proved_by)
