"""Best-first search (A*) for shortest plans, ordered by moves made + an admissible
lower bound on the moves still needed (`PlanBound`).

The bound counts blocks that must be *taken in hand* (be the block a move lifts or
puts): a block's support (the block or podium it rests on, or "out of play") changes
only when it is taken in hand itself — blocks riding on it keep theirs, and a block
beneath it moving does not change what it rests on. Each move takes one block in hand,
so k different blocks that must be taken in hand need k moves. From the position, each
requirement of the goal's cards names a set of blocks of which at least one must be
taken in hand (a block out of play: itself; "x in the stack on podium p" from another
stack: x or a block beneath it, else its chain down to the podium never changes; "x
directly on y": x, and the block now on y; "x below y" with y now below x: a block of
y's stack from just above y up to x, else x stays above y, and y or a block beneath
it, else what is below y stays as it is, without x; ...). Pairwise disjoint sets need
one move each: the bound is the size of a disjoint family picked greedily (smallest
sets first), at least each unmet card's own count (`race.card_bound`); for "any" goals
the least over the cards. Both never exceed the true distance (tested against BFS).

The search: buckets of f = moves + bound, deepest first within a bucket; a child's f is
at least its parent's (pathmax), so buckets are taken in increasing f and when the
bucket f is taken every plan shorter than f is ruled out (a plan of L < f moves would
have left a state of f <= L unexpanded). The first goal state generated from the
bucket f has f moves: the proof. Positions are kept once per (stacks, forbidden move)
with the same dominance as BFS (no ban, or two different bans, at no more moves
covers every continuation), and interchangeable choices are made once: of the
out-of-play blocks no card names only the lowest is put, and of the empty podiums no
card names a block goes only to the first it may go to (relabel any plan).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from models.topito.bfs import SearchOutcome
from models.topito.rules import Ban, Card, Goal, Move, Stacks, State, successors

# requirement kinds: ("in", b) b in play; ("pod", b, p) b in the stack on podium p;
# ("on", lower, upper) upper directly on lower; ("below", lo, hi) lo under hi in one
# stack; ("rank", x, r) x at height r
Req = tuple


def _card_reqs(card: Card) -> list[Req]:
    out: list[Req] = [("in", b) for b in card.blocks]
    if card.kind == "podium":
        out += [("pod", b, card.podium) for b in card.blocks]
    elif card.kind == "pair":
        out += [("on", *card.blocks), ("below", *card.blocks)]
    elif card.kind == "order":
        a, b, c = card.blocks
        out += [("below", a, b), ("below", b, c), ("below", a, c)]
    else:
        out.append(("rank", card.blocks[0], card.rank))
    return out


class PlanBound:
    """An admissible lower bound on the moves from stacks to a state meeting `goal`
    (see the module text); `value(stacks)`, cached per stacks."""

    def __init__(self, goal: Goal, n_blocks: int) -> None:
        self.goal = goal
        self.n = n_blocks
        self.reqs = [_card_reqs(c) for c in goal.cards]
        self.every = (1 << n_blocks) - 1
        self.cache: dict[Stacks, int] = {}

    def value(self, stacks: Stacks) -> int:
        v = self.cache.get(stacks)
        if v is None:
            v = self.cache[stacks] = self._value(stacks)
        return v

    def required(self, stacks: Stacks) -> list[int]:
        """Bit masks of blocks of which one at least must be taken in hand by every
        plan from `stacks` (empty for a choice of several cards: any one may be met)."""
        goal = self.goal
        if goal.met(stacks) or (goal.mode != "all" and len(goal.cards) > 1):
            return []
        at, chain = _places(stacks)
        return sorted({m for c, reqs in zip(goal.cards, self.reqs, strict=True)
                       if not c.met(stacks) for m in self._sets(reqs, stacks, at, chain)})

    def _value(self, stacks: Stacks) -> int:
        goal = self.goal
        at, chain = _places(stacks)
        if goal.mode == "all":
            sets: list[int] = []
            base = 0
            for card, reqs in zip(goal.cards, self.reqs, strict=True):
                if card.met(stacks):
                    continue
                base = max(base, _card_base(card, stacks, at))
                sets += self._sets(reqs, stacks, at, chain)
            return max(base, _packing(sets)) if base else 0
        best = None
        for card, reqs in zip(goal.cards, self.reqs, strict=True):
            if card.met(stacks):
                return 0
            v = max(_card_base(card, stacks, at),
                    _packing(self._sets(reqs, stacks, at, chain)))
            best = v if best is None else min(best, v)
        return best or 0

    def _sets(self, reqs: list[Req], stacks: Stacks, at: dict[int, tuple[int, int]],
              chain: dict[int, int]) -> list[int]:
        """For each requirement the stacks do not meet: masks of blocks of which one at
        least must be taken in hand."""
        out = []
        for r in reqs:
            kind = r[0]
            if kind == "in":
                if r[1] not in at:
                    out.append(1 << r[1])
            elif kind == "pod":
                w = at.get(r[1])
                if w is not None and w[0] != r[2]:
                    out.append(chain[r[1]])
            elif kind == "on":
                lower, upper = r[1], r[2]
                w = at.get(lower)
                u = at.get(upper)
                if w is None or u is None or u[0] != w[0] or u[1] != w[1] + 1:
                    out.append(1 << upper)  # upper rests on something else
                    if w is not None and w[1] + 1 < len(stacks[w[0]]):
                        # the block on `lower` must leave it (one block per support)
                        out.append(1 << stacks[w[0]][w[1] + 1])
            elif kind == "below":
                lo, hi = r[1], r[2]
                wl, wh = at.get(lo), at.get(hi)
                if wh is None:
                    continue  # hi out of play: its "in" requirement counts it
                if wl is not None and wl[0] == wh[0]:
                    if wl[1] < wh[1]:
                        continue
                    # lo above hi: separate them (a block from just above hi up to lo)
                    out.append(chain[lo] & ~chain[hi])
                out.append(chain[hi])  # what is below hi must change
            else:
                x, rank = r[1], r[2]
                w = at.get(x)
                if w is None:
                    out.append(self.every & ~(1 << x))  # put alone: a block must land on x
                    continue
                if w[1] != rank - 1:
                    out.append(chain[x])
                if w[1] + 1 == len(stacks[w[0]]):
                    out.append(self.every & ~(1 << x))  # a block must land on x
        return out


def _card_base(card: Card, stacks: Stacks, at: dict[int, tuple[int, int]]) -> int:
    """Moves an unmet card needs at least beyond what its sets say (race.card_bound):
    1, or 2 for a rank card whose block is on top at the wrong height (its height
    changes only by a move that leaves it on top, and a block must land on it too)."""
    if card.kind == "rank":
        w = at.get(card.blocks[0])
        if w is not None and w[1] + 1 == len(stacks[w[0]]) and w[1] + 1 != card.rank:
            return 2
    return 1


def _places(stacks: Stacks) -> tuple[dict[int, tuple[int, int]], dict[int, int]]:
    """Each block in play: (podium, index from the bottom), and the bit mask of it and
    the blocks beneath it."""
    at: dict[int, tuple[int, int]] = {}
    chain: dict[int, int] = {}
    for p, s in enumerate(stacks):
        m = 0
        for i, b in enumerate(s):
            m |= 1 << b
            at[b] = (p, i)
            chain[b] = m
    return at, chain


def _packing(sets: list[int]) -> int:
    """The size of a family of pairwise disjoint sets (greedy, smallest first): a lower
    bound on the size of any set meeting them all."""
    if not sets:
        return 0
    used = 0
    k = 0
    for m in sorted(set(sets), key=int.bit_count):
        if not m & used:
            used |= m
            k += 1
    return k


def _dominated(best: dict[Stacks, dict[Ban, int]], stacks: Stacks, ban: Ban, g: int) -> bool:
    """Is (stacks, ban) after g moves covered by what was reached already?"""
    seen = best.get(stacks)
    if not seen:
        return False
    g0 = seen.get(None)
    if g0 is not None and g0 <= g:
        return True
    if ban is not None and seen.get(ban, g + 1) <= g:
        return True
    return sum(1 for b, v in seen.items() if b is not None and v <= g) >= 2


def astar_plan(state: State, goal: Goal, max_depth: int, deadline: float | None = None,
               bound: PlanBound | None = None,
               stop: Callable[[int], bool] | None = None) -> SearchOutcome:
    """Shortest legal move sequence from `state` to a position meeting `goal`.

    status "unknown" when the deadline passes (or `stop(nodes)` says so): depth_done =
    every plan of at most that many moves is ruled out."""
    n = state.rules.n_blocks
    m = state.rules.n_podiums
    rule = state.reversal_rule
    if goal.met(state.stacks):
        return SearchOutcome("optimal", 0, [], 0, 1)
    bound = bound or PlanBound(goal, n)
    h = bound.value
    h0 = h(state.stacks)
    if h0 > max_depth:
        return SearchOutcome("infeasible", None, [], max_depth, 1)
    named = {b for c in goal.cards for b in c.blocks}
    named_podiums = {c.podium for c in goal.cards if c.podium is not None}
    free_podiums = [p for p in range(m) if p not in named_podiums]

    start = state.key()
    parent: dict[tuple[Stacks, Ban], tuple[tuple[Stacks, Ban], Move] | None] = {start: None}
    best: dict[Stacks, dict[Ban, int]] = {state.stacks: {state.ban: 0}}
    buckets: list[list[tuple[tuple[Stacks, Ban], int]]] = [[] for _ in range(max_depth + 1)]
    buckets[h0].append((start, 0))
    f = h0
    nodes = 1
    while f <= max_depth:
        bucket = buckets[f]
        if not bucket:
            f += 1
            continue
        key, g = bucket.pop()
        stacks, ban = key
        if best[stacks].get(ban) != g:
            continue  # reached again with fewer moves since
        placed = {b for s in stacks for b in s}
        spare = next((b for b in range(n) if b not in placed and b not in named), None)
        empty = [p for p in free_podiums if not stacks[p]]
        for b, src, dst, new in successors(stacks, ban, n):
            if src is None and b not in named and b != spare:
                continue  # interchangeable with the spare block
            if len(empty) > 1 and dst in empty and any(
                    p < dst and p != src and (b, p) != ban for p in empty):
                continue  # interchangeable with an earlier empty podium
            g2 = g + 1
            new_ban = None if src is None or not rule else (b, src)
            if _dominated(best, new, new_ban, g2):
                continue
            nodes += 1
            if nodes & 1023 == 0 and ((deadline is not None and time.perf_counter() > deadline)
                                      or (stop is not None and stop(nodes))):
                return SearchOutcome("unknown", None, [], f - 1, nodes)
            best.setdefault(new, {})[new_ban] = g2
            child = (new, new_ban)
            parent[child] = (key, Move(b, src, dst))
            h2 = h(new)
            if h2 == 0:
                # g2 <= f: the bound of an unmet goal is >= 1, so f >= g + 1
                return SearchOutcome("optimal", g2, _path(parent, child), g2 - 1, nodes)
            f2 = max(f, g2 + h2)
            if f2 <= max_depth:
                buckets[f2].append((child, g2))
    return SearchOutcome("infeasible", None, [], max_depth, nodes)


def _path(parent: dict, key: tuple) -> list[Move]:
    moves = []
    while parent[key] is not None:
        key, move = parent[key]
        moves.append(move)
    return moves[::-1]
