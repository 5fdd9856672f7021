"""`plan`: the fewest moves that make the stacks meet a card (any or all of several),
proven by one of the back-ends: best-first search ordered by a proven lower bound
(astar: every position that could start a shorter plan examined), the SAT planning
encoding (encode_sat: unsatisfiable at every shorter horizon, which starts at the lower
bound) or breadth-first search over the rules engine (bfs: every shorter move sequence
examined). `auto` (the default) runs A* alone for a first slice — it answers at once
when the bound is close to the plan's length — then A* and SAT in turns, SAT's horizon
starting past what A* has ruled out; the first to finish answers.

The work is counted, never timed (work.py): A* and BFS in positions, SAT in conflicts,
auto's slices and turns too, so the answer is the same on an idle and on a busy
machine. When the work budget is spent, or the time limit cuts the search first, the
answer says so and gives what is proven: no plan shorter than `lower_bound`."""

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
from models.topito.work import PLAN_CONFLICTS, PLAN_NODES, Work, WorkSpent
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput, TimeLimitReached

# the back-ends (declared with the verbs): hint and generate take BACKENDS (they
# assume a first move or count plans), plan and reachable PLAN_BACKENDS
# auto: A* alone for the first slice, then A* and SAT in turns, each counted in work
# (about 0.5 s, 0.1 s and 0.3 s on the 2-core machine, docs/topito.md); past
# AUTO_ASTAR_NODES positions (memory: a few hundred bytes each) SAT goes on alone
AUTO_FIRST_NODES = 12_000
AUTO_SLICE_NODES = 2_500
AUTO_SAT_CONFLICTS = 2_500  # SAT's turn: it answers more of the hard cases
AUTO_ASTAR_NODES = 250_000


@dataclass
class PlanResult:
    """The fewest moves that meet the card(s).

    status: "optimal" (a plan of `moves` moves and a proof that none is shorter),
    "infeasible" (proven: no plan within `max_moves`) or "unknown" (the work budget was
    spent, or the time limit cut the search, before it decided: `lower_bound` is
    proven). `proof` says how; `lower_bound`: no plan has fewer moves (`moves` when
    optimal, past `max_moves` when infeasible); `work`: what the search did."""

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
    lower_bound: int = 0
    work: WorkSpent | None = None


@dataclass
class Shortest:
    """What `shortest` found: status optimal | infeasible | unknown, the plan's length
    and moves, `done` (every plan of at most that many moves is ruled out), the proof in
    words and the back-end that answered."""

    status: str
    length: int | None
    moves: list[Move]
    done: int
    proof: str
    proved_by: str


def shortest(state: State, goal: Goal, backend: str, max_moves: int,
             deadline: Deadline = NO_DEADLINE, work: Work | None = None) -> Shortest:
    """The shortest plan by `backend` within `work` (None: no budget), capped by
    `deadline`; `work` counts what was spent and says what stopped the search."""
    if backend not in PLAN_BACKENDS:
        raise BadInput(f"unknown backend '{backend}' (backends: {', '.join(PLAN_BACKENDS)})")
    work = work if work is not None else Work()
    if goal.met(state.stacks):
        return Shortest("optimal", 0, [], 0, "the card is met already", backend)
    if backend == "bfs":
        out = bfs_plan(state, goal, max_moves, deadline, max_nodes=work.nodes_left())
        work.used_nodes += out.nodes
        _stopped(work, out.status, deadline)

        def how(k: int) -> str:
            return (f"BFS: every move sequence of at most {k} moves examined "
                    f"({out.nodes} states), none meets it")
        return _outcome(out.status, out.length, out.moves, out.depth_done, how, max_moves,
                        backend, work)
    bound = PlanBound(goal, state.rules.n_blocks)
    lower = bound.value(state.stacks)
    by_bound = (f"lower bound: at least {lower} moves (blocks that must each be taken "
                "in hand)")
    if lower > max_moves:  # the bound alone (A*'s, also SAT's first horizon)
        return Shortest("infeasible", None, [], max_moves, by_bound,
                        "sat" if backend == "sat" else "astar")
    if backend in ("astar", "auto") and goal.mode == "all" and len(goal.cards) > 1:
        from models.topito.encode_sat import arrangement_exists

        try:  # a few ms; A* alone would search every position up to max_moves
            if not arrangement_exists(state, goal, deadline, work):
                return Shortest("infeasible", None, [], max_moves,
                                "SAT: no arrangement of the blocks meets the cards at once",
                                "sat")
        except TimeLimitReached:
            if work.cut_by_time:
                return _outcome("unknown", None, [], lower - 1, _sat_how(0, ""),
                                max_moves, backend, work)
            work.spent_out = False  # the check is spared; the search goes on
    if backend == "astar":
        out = astar_plan(state, goal, max_moves, deadline, bound, work.out_of_nodes)
        work.used_nodes += out.nodes
        _stopped(work, out.status, deadline)
        return _outcome(out.status, out.length, out.moves, out.depth_done,
                        _astar_how(lower, by_bound, out.nodes), max_moves, "astar", work)
    from models.topito.encode_sat import sat_plan

    must = bound.required(state.stacks)
    if backend == "sat":
        status, length, moves, done = sat_plan(state, goal, max_moves, deadline,
                                               lower=lower, must_move=must, work=work)
        return _outcome(status, length, moves, done, _sat_how(lower, by_bound), max_moves,
                        "sat", work)
    return _auto(state, goal, max_moves, deadline, work, bound, must)


def _stopped(work: Work, status: str, deadline: Deadline) -> None:
    """Say what stopped a search that did not decide: the deadline or the budget."""
    if status == "unknown":
        if deadline.passed():
            work.cut_by_time = True
        else:
            work.spent_out = True


def _auto(state: State, goal: Goal, max_moves: int, deadline: Deadline, work: Work,
          bound: PlanBound, must: list[int]) -> Shortest:
    """A* alone for a first slice (most plans are found in it), then A* and SAT in
    turns, SAT's horizon starting past what A* has ruled out; slices and turns counted
    in positions and conflicts."""
    from models.topito.encode_sat import SatSearch

    lower = bound.value(state.stacks)
    by_bound = (f"lower bound: at least {lower} moves (blocks that must each be taken "
                "in hand)")
    search = AstarSearch(state, goal, max_moves, bound)
    sat = SatSearch(state, goal, max_moves, lower, must)
    first = sat.t
    slice_nodes = AUTO_FIRST_NODES
    while not work.cut_by_time:
        left = work.nodes_left()
        share = min(slice_nodes, AUTO_ASTAR_NODES - search.nodes,
                    slice_nodes if left is None else left)
        if share > 0:
            before = search.nodes
            out = search.run(deadline, (before + share).__le__)  # stop at that many
            work.used_nodes += search.nodes - before
            if out is not None:
                sat.close()
                return _outcome(out.status, out.length, out.moves, out.depth_done,
                                _astar_how(lower, by_bound, out.nodes), max_moves,
                                "astar", work)
            if deadline.passed():
                work.cut_by_time = True
                break
        if search.ruled_out >= sat.t:
            sat.skip_to(search.ruled_out + 1)
            first = sat.t
        if work.conflicts_left() != 0:
            res = sat.run(deadline, work, AUTO_SAT_CONFLICTS)
            if res is not None:
                why = by_bound if first == lower else (
                    f"A*: every position that could begin a plan of at most {first - 1} "
                    f"moves examined ({search.nodes} states)")
                return _outcome(*res, _sat_how(first, why), max_moves, "sat", work)
        elif share <= 0:
            work.spent_out = True  # both budgets spent (or A*'s memory share)
            break
        slice_nodes = AUTO_SLICE_NODES
    sat.close()
    done = max(search.ruled_out, sat.t - 1)
    return _outcome("unknown", None, [], done, _sat_how(0, ""), max_moves, "auto", work)


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
             how: Callable[[int], str], max_moves: int, backend: str, work: Work
             ) -> Shortest:
    if status == "optimal":
        proof = "the card is met already" if length == 0 else how(length - 1)
    elif status == "infeasible":
        proof = how(max_moves)
    else:
        why = "the time limit" if work.cut_by_time else "the work budget (--nodes, " \
              "--conflicts)"
        proof = (f"no plan of at most {done} moves (proven); {why} stopped the search "
                 f"of {done + 1}")
    return Shortest(status, length, moves, done, proof, backend)


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
         time_limit: float | None = 60.0, work: Work | None = None) -> PlanResult:
    """Shortest plan to meet the goal within `work` (default: PLAN_NODES positions and
    PLAN_CONFLICTS conflicts), `time_limit` only capping it: status "unknown"
    with the proven lower bound when either stops it (`work.cut_by_time` says whether
    the time limit did). The result's `backend` is the one asked, `proved_by` the one
    that answered (auto: astar or sat)."""
    r = state.rules
    work = work if work is not None else Work(PLAN_NODES, PLAN_CONFLICTS)
    t0 = time.perf_counter()
    found = shortest(state, goal, backend, max_moves, Deadline.after(time_limit), work)
    steps, end = replay(state, found.moves)
    if found.status == "optimal" and not goal.met(end.stacks):
        raise AssertionError("plan does not meet the goal")  # a bug, never user input
    lower = {"optimal": found.length or 0, "infeasible": max_moves + 1}.get(
        found.status, found.done + 1)
    return PlanResult([c.text(r) for c in goal.cards], goal.mode, backend, found.status,
                      found.length, steps,
                      [c.text(r) for c in goal.cards if c.met(end.stacks)]
                      if found.status == "optimal" else [], max_moves, found.proof,
                      round(time.perf_counter() - t0, 4), podium_dict(r, state.stacks),
                      found.proved_by, lower, work.spent())
