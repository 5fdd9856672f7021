"""Breadth-first search over the rules engine: shortest plans, exhaustive proofs that
no plan is shorter, and counting the shortest plans (for unique puzzles).

A search node is (stacks, banned move): the banned move is all the previous move
leaves behind. Dominance keeps the search small without losing a shortest plan: a
node is skipped when its stacks were already reached with no ban, or with two
different bans (together they allow every move), or with the same ban.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from models.topito.rules import Goal, Stacks
from models.topito.state import Ban, Move, State, successors
from solver.deadline import NO_DEADLINE, Deadline


@dataclass
class SearchOutcome:
    """length: moves of a shortest plan (None if none within the depth searched).
    depth_done: every plan with at most this many moves was examined (the proof).
    status: "optimal" (plan proven shortest), "infeasible" (none within max_depth,
    proven), or "unknown" (stopped by the deadline; no plan shorter than depth_done+1)."""

    status: str
    length: int | None
    moves: list[Move]
    depth_done: int
    nodes: int


def bfs_plan(state: State, goal: Goal, max_depth: int, deadline: Deadline = NO_DEADLINE,
             first_moves: set[tuple[int, int]] | None = None,
             max_nodes: int | None = None) -> SearchOutcome:
    """Shortest legal move sequence from `state` to a position meeting `goal`; status
    "unknown" when the deadline passes or `max_nodes` positions were generated first."""
    n = state.rules.n_blocks
    rule = state.reversal_rule
    if goal.met(state.stacks):
        return SearchOutcome("optimal", 0, [], 0, 1)
    start: tuple[Stacks, Ban] = state.key()
    parent: dict[tuple[Stacks, Ban], tuple[tuple[Stacks, Ban], Move] | None] = {start: None}
    seen: dict[Stacks, set[Ban] | None] = {state.stacks: {state.ban}}  # None: fully covered
    if state.ban is None:
        seen[state.stacks] = None
    frontier = [start]
    nodes = 1
    for depth in range(1, max_depth + 1):
        nxt = []
        for key in frontier:
            stacks, ban = key
            for b, src, dst, new in successors(stacks, ban, n):
                if depth == 1 and first_moves is not None and (b, dst) not in first_moves:
                    continue
                new_ban = None if src is None or not rule else (b, src)
                bans = seen.get(new, ())
                if bans is None or new_ban in bans:
                    continue
                nodes += 1
                if (nodes % 4096 == 0 and deadline.passed()) or (
                        max_nodes is not None and nodes > max_nodes):
                    return SearchOutcome("unknown", None, [], depth - 1, nodes - 1)
                if new_ban is None or len(bans) == 1:
                    seen[new] = None
                else:
                    seen[new] = {new_ban}
                child = (new, new_ban)
                parent[child] = (key, Move(b, src, dst))
                if goal.met(new):
                    return SearchOutcome("optimal", depth, path_to(parent, child), depth - 1, nodes)
                nxt.append(child)
        frontier = nxt
        if not frontier:
            break
    return SearchOutcome("infeasible", None, [], max_depth, nodes)


def path_to(parent: dict, key: tuple) -> list[Move]:
    """The moves from the root to `key` in a search's parent links (key -> (key, move))."""
    moves = []
    while parent[key] is not None:
        key, move = parent[key]
        moves.append(move)
    return moves[::-1]


def count_plans(state: State, goal: Goal, length: int) -> int:
    """How many legal move sequences of exactly `length` moves first meet `goal` after
    the last move (dynamic programming over (stacks, ban) layers; exact, no dominance)."""
    n = state.rules.n_blocks
    if goal.met(state.stacks):
        return 1 if length == 0 else 0
    layer: dict[tuple[Stacks, Ban], int] = {state.key(): 1}
    for depth in range(1, length + 1):
        nxt: dict[tuple[Stacks, Ban], int] = {}
        hits = 0
        for (stacks, ban), ways in layer.items():
            for b, src, _dst, new in successors(stacks, ban, n):
                if goal.met(new):
                    if depth == length:
                        hits += ways
                    continue
                if depth < length:
                    k = (new, None if src is None or not state.reversal_rule else (b, src))
                    nxt[k] = nxt.get(k, 0) + ways
        if depth == length:
            return hits
        layer = nxt
    return 0



@dataclass
class PlansOutcome:
    """Shortest plans found by exact layered search (no dominance pruning).

    status: "optimal" (length proven shortest, `plans` holds up to `limit` of them and,
    when fewer than `limit`, all of them), "infeasible" (none within max_depth) or
    "unknown" (deadline). nodes: move applications made (the search effort)."""

    status: str
    length: int | None
    plans: list[list[Move]]
    nodes: int


def shortest_plans(state: State, goal: Goal, max_depth: int, limit: int = 2,
                   deadline: Deadline = NO_DEADLINE) -> PlansOutcome:
    """Up to `limit` distinct shortest plans: layers of (stacks, ban) keys with every
    predecessor kept, then paths read back from the goal keys of the first layer that
    holds any. Exact (every move sequence is represented), so the plans listed are all
    of them when fewer than `limit`."""
    n = state.rules.n_blocks
    rule = state.reversal_rule
    if goal.met(state.stacks):
        return PlansOutcome("optimal", 0, [[]], 1)
    layers: list[dict[tuple[Stacks, Ban], list[tuple[tuple[Stacks, Ban], Move]]]] = [
        {state.key(): []}]
    nodes = 0
    for _depth in range(1, max_depth + 1):
        nxt: dict[tuple[Stacks, Ban], list[tuple[tuple[Stacks, Ban], Move]]] = {}
        goals = []
        for key in layers[-1]:
            stacks, ban = key
            for b, src, dst, new in successors(stacks, ban, n):
                nodes += 1
                if nodes % 4096 == 0 and deadline.passed():
                    return PlansOutcome("unknown", None, [], nodes)
                child = (new, None if src is None or not rule else (b, src))
                if child not in nxt:
                    nxt[child] = []
                    if goal.met(new):
                        goals.append(child)
                nxt[child].append((key, Move(b, src, dst)))
        layers.append(nxt)
        if goals:
            plans: list[list[Move]] = []
            for g in goals:
                for path in layered_paths(layers, len(layers) - 1, g):
                    plans.append(path)
                    if len(plans) >= limit:
                        return PlansOutcome("optimal", len(layers) - 1, plans, nodes)
            return PlansOutcome("optimal", len(layers) - 1, plans, nodes)
        if not nxt:
            break
    return PlansOutcome("infeasible", None, [], nodes)


def layered_paths(layers: list[dict], depth: int, key: tuple) -> Iterator[list[Move]]:
    """Every move sequence from the start to `key` at `depth`, lazily."""
    if depth == 0:
        yield []
        return
    for prev, move in layers[depth][key]:
        for head in layered_paths(layers, depth - 1, prev):
            yield [*head, move]
