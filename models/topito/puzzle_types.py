"""What a Topito puzzle asks, beyond one card: the puzzle types, and their exact
searches on both back-ends (puzzle rules here; the SAT encoding is encode_sat.py, the
breadth-first search runs over the rules engine's `successors`).

card: meet the one card (after the last move).
all:  meet every card at the same moment (after the last move).
hand: photo time for the whole hand: each card met at some moment of the plan. A card
      once met counts as played (the game plays it at photo time) even if a later move
      breaks it up again.
Any type may name blocks that may not be moved ("banned"): such a block is never the
block taken in hand (neither put nor lifted); it may ride along on a block lifted from
below it (the rulebook's "holding one block").

A plan is a move sequence: two sequences that differ in the order of their moves are
two plans. The length of a puzzle is that of its shortest plan; it is unique when no
other sequence of that length does what it asks (for a hand: no other sequence of that
length has met every card by its end).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.topito.bfs import PlansOutcome, layered_paths
from models.topito.rules import Card, Goal, Stacks
from models.topito.state import Ban, Move, State, successors
from solver.deadline import NO_DEADLINE, Deadline

TYPES = ("card", "all", "hand")
# how many cards each type holds
CARD_COUNTS = {"card": (1, 1), "all": (2, 4), "hand": (2, 4)}

if TYPE_CHECKING:
    from models.topito.encode_sat import SatPlanner

Node = tuple[Stacks, Ban, int]  # stacks, the banned move, the hand's cards met (bits)


@dataclass(frozen=True)
class Ask:
    """The cards of a puzzle, how they count (TYPES), and the blocks that may not be
    moved."""

    type: str
    cards: tuple[Card, ...]
    banned: tuple[int, ...] = ()

    @property
    def full(self) -> int:
        return (1 << len(self.cards)) - 1 if self.type == "hand" else 0

    def goal(self) -> Goal:
        """The cards as a goal at one moment (every card at once)."""
        return Goal(self.cards, "all")

    def met_mask(self, stacks: Stacks, mask: int = 0) -> int:
        """The hand's cards met so far, after a position with `stacks` (0 unless hand)."""
        if self.type != "hand":
            return 0
        for i, c in enumerate(self.cards):
            if not mask >> i & 1 and c.met(stacks):
                mask |= 1 << i
        return mask

    def done(self, stacks: Stacks, mask: int) -> bool:
        """Does a position (with the hand's cards met so far) finish the puzzle?"""
        if self.type == "hand":
            return mask == self.full
        return all(c.met(stacks) for c in self.cards)

    def start_mask(self, state: State) -> int:
        return self.met_mask(state.stacks)


# --------------------------------------------------------------------------- BFS

def _children(node: Node, ask: Ask, n: int, rule: bool) -> Iterator[tuple[Move, Node]]:
    """The legal moves from a node, the banned blocks' moves left out."""
    stacks, ban, mask = node
    for b, src, dst, new in successors(stacks, ban, n):
        if b in ask.banned:
            continue
        new_ban = None if src is None or not rule else (b, src)
        yield Move(b, src, dst), (new, new_ban, ask.met_mask(new, mask))


def start_node(state: State, ask: Ask) -> Node:
    """The search node of a puzzle's start."""
    return state.stacks, state.ban, ask.start_mask(state)


def count_ask_plans(state: State, ask: Ask, length: int, mask: int | None = None) -> int:
    """How many legal move sequences of exactly `length` moves finish the puzzle at the
    last move and not before (exact dynamic programming over (stacks, ban, met) layers,
    no dominance): the brute-force count the uniqueness checks are held to."""
    n, rule = state.rules.n_blocks, state.reversal_rule
    start = start_node(state, ask) if mask is None else (state.stacks, state.ban, mask)
    if ask.done(start[0], start[2]):
        return 1 if length == 0 else 0
    layer: dict[Node, int] = {start: 1}
    for depth in range(1, length + 1):
        nxt: dict[Node, int] = {}
        hits = 0
        for node, ways in layer.items():
            for _move, child in _children(node, ask, n, rule):
                if ask.done(child[0], child[2]):
                    hits += ways if depth == length else 0
                elif depth < length:
                    nxt[child] = nxt.get(child, 0) + ways
        if depth == length:
            return hits
        layer = nxt
    return 0


def shortest_ask_plans(state: State, ask: Ask, max_depth: int, limit: int = 2,
                       deadline: Deadline = NO_DEADLINE, mask: int | None = None
                       ) -> PlansOutcome:
    """Up to `limit` distinct shortest plans (the layered search of
    bfs.shortest_plans, every predecessor kept, over nodes that carry the hand's cards
    met and skip the banned blocks). Exact: fewer than `limit` plans are all of them."""
    n, rule = state.rules.n_blocks, state.reversal_rule
    start = start_node(state, ask) if mask is None else (state.stacks, state.ban, mask)
    if ask.done(start[0], start[2]):
        return PlansOutcome("optimal", 0, [[]], 1)
    layers: list[dict[Node, list[tuple[Node, Move]]]] = [{start: []}]
    nodes = 0
    for _depth in range(1, max_depth + 1):
        nxt: dict[Node, list[tuple[Node, Move]]] = {}
        goals = []
        for node in layers[-1]:
            for move, child in _children(node, ask, n, rule):
                nodes += 1
                if nodes % 4096 == 0 and deadline.passed():
                    return PlansOutcome("unknown", None, [], nodes)
                if child not in nxt:
                    nxt[child] = []
                    if ask.done(child[0], child[2]):
                        goals.append(child)
                nxt[child].append((node, move))
        # finished nodes are not expanded further: a plan ends when the puzzle is done
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


def replay(state: State, ask: Ask, moves: tuple[Move, ...] | list[Move]
           ) -> tuple[State, list[int]]:
    """The end state of a plan (every move checked legal by the rules engine) and, per
    card, the move after which it was first met (0: met at the start; -1: never; for
    the types other than hand: met after the last move or -1)."""
    when = [0 if c.met(state.stacks) else -1 for c in ask.cards]
    for i, m in enumerate(moves, 1):
        state = state.apply_action(m)
        for j, c in enumerate(ask.cards):
            if when[j] == -1 and c.met(state.stacks):
                when[j] = i
    if ask.type != "hand":
        when = [len(moves) if c.met(state.stacks) else -1 for c in ask.cards]
    return state, when


# --------------------------------------------------------------------------- SAT

def ask_lit(planner: SatPlanner, ask: Ask, t: int) -> int:
    """A literal of `planner` (encode_sat.SatPlanner, built with the ask's banned
    blocks) that forces the puzzle done after exactly t moves: the goal of every card
    at step t, or for a hand each card at some step 1..t (a card met at the start
    counts too, step 0)."""
    if ask.type != "hand":
        goal = Goal(ask.cards, "any") if len(ask.cards) == 1 else ask.goal()
        return planner.goal_lit(goal, t)
    key = ("hand", ask.cards, t)
    if key in planner._goal_lits:
        return planner._goal_lits[key]
    g = planner.v(key)
    for c in ask.cards:
        met = planner.v(("met-by", c, t))
        planner.cnf.clause([-met] + [planner.card_lit(c, s) for s in range(t + 1)])
        planner.cnf.implies(g, met)
    planner._goal_lits[key] = g
    return g
