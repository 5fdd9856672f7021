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

from collections.abc import Callable

from models.topito.bfs import SearchOutcome, path_to
from models.topito.rules import Card, Goal, Stacks
from models.topito.state import Ban, Move, State, successors
from solver.deadline import NO_DEADLINE, Deadline

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


def _joint_reqs(cards: tuple[Card, ...], reqs: list[list[Req]]) -> tuple[list[Req], int]:
    """The requirements of all the cards at once, with those that follow from several
    together, and the number of blocks they need in play.

    - blocks that must share a stack (a pair, an order card, a podium card) share the
      podium a podium card names for any of them;
    - heights travel along pairs: upper at rank r puts lower at height r - 1, lower at
      rank r puts upper at height r + 1;
    - two blocks needed at the same height stand in different stacks;
    - blocks in play: the named ones, and at least the stacks the heights need (the
      blocks at one height are in different stacks: the j-th tallest stack is at least
      as tall as the j-th tallest need of every height)."""
    out = list(dict.fromkeys(r for rs in reqs for r in rs))
    parent: dict[int, int] = {}

    def find(b: int) -> int:
        while parent.setdefault(b, b) != b:
            b = parent[b]
        return b

    podium_of: dict[int, int] = {}
    level: dict[int, tuple[int, int]] = {}  # block -> (height, stack size it needs)
    pairs = []
    for c in cards:
        for b in c.blocks[1:]:
            parent[find(b)] = find(c.blocks[0])
        if c.kind == "pair":
            pairs.append(c.blocks)
        elif c.kind == "rank":
            x = c.blocks[0]
            level[x] = (c.rank, max(c.rank + 1, level.get(x, (0, 0))[1]))
    for c in cards:
        if c.kind == "podium":
            podium_of.setdefault(find(c.blocks[0]), c.podium)
    for c in cards:
        for b in c.blocks:
            p = podium_of.get(find(b))
            if p is not None:
                out.append(("pod", b, p))
    for _ in range(len(pairs)):
        for lower, upper in pairs:
            if upper in level and lower not in level and level[upper][0] >= 2:
                level[lower] = (level[upper][0] - 1, level[upper][0] - 1)
            elif lower in level and upper not in level:
                level[upper] = (level[lower][0] + 1, level[lower][0] + 1)
    heights: dict[int, list[int]] = {}
    for x, (h, size) in level.items():
        out.append(("height", x, h))
        heights.setdefault(h, []).append(size)
    at_height: dict[int, list[int]] = {}
    for x, (h, _) in level.items():
        at_height.setdefault(h, []).append(x)
    for xs in at_height.values():
        out += [("apart", x, y) for i, x in enumerate(xs) for y in xs[i + 1:]]
    tall = 0
    for j in range(max((len(v) for v in heights.values()), default=0)):
        tall += max(sorted(v, reverse=True)[j] for v in heights.values() if len(v) > j)
    named = {b for c in cards for b in c.blocks}
    return list(dict.fromkeys(out)), max(len(named), tall)


class PlanBound:
    """An admissible lower bound on the moves from stacks to a state meeting `goal`
    (see the module text); `value(stacks)`, cached per stacks."""

    def __init__(self, goal: Goal, n_blocks: int) -> None:
        self.goal = goal
        self.n = n_blocks
        self.reqs = [_card_reqs(c) for c in goal.cards]
        self.every = (1 << n_blocks) - 1
        self.cache: dict[Stacks, int] = {}
        self.stack_cache: dict[tuple[int, tuple[int, ...]], tuple] = {}
        self.rank_cards = [c for c in goal.cards if c.kind == "rank"]
        self.all_reqs: list[Req] = []
        self.named = 0
        self.in_play = 0  # blocks the goal needs in play at the end
        if goal.mode == "all" or len(goal.cards) == 1:
            self.all_reqs, self.in_play = _joint_reqs(goal.cards, self.reqs)
            for c in goal.cards:
                for b in c.blocks:
                    self.named |= 1 << b

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
        at, chain = self._places(stacks)
        return sorted(set(self._sets(self.all_reqs, stacks, at, chain)))

    def _places(self, stacks: Stacks) -> tuple[dict[int, tuple[int, int]], dict[int, int]]:
        """Each block in play: (podium, index from the bottom), and the bit mask of it
        and the blocks beneath it (read per stack, cached: stacks recur in many
        positions)."""
        at: dict[int, tuple[int, int]] = {}
        chain: dict[int, int] = {}
        cache = self.stack_cache
        for p, s in enumerate(stacks):
            if not s:
                continue
            rows = cache.get((p, s))
            if rows is None:
                rows = cache[(p, s)] = _stack_rows(p, s)
            for b, w, m in rows:
                at[b] = w
                chain[b] = m
        return at, chain

    def _value(self, stacks: Stacks) -> int:
        goal = self.goal
        at, chain = self._places(stacks)
        if self.all_reqs:
            # every requirement met (no set) is every card met: the cards' own
            # requirements say exactly that they are met
            sets = self._sets(self.all_reqs, stacks, at, chain)
            if not sets:
                return 0
            base = max(_card_base(card, stacks, at) for card in self.rank_cards) \
                if self.rank_cards else 1
            v = max(base, _packing(sets))
            if self.in_play > len(at):
                # blocks no card names must be put to have enough in play: each is a
                # move of its own, besides the sets that no such block can meet
                spare = self.every & ~self.named
                for b in at:
                    spare &= ~(1 << b)
                named_out = (self.named & ~sum(1 << b for b in at)).bit_count()
                extra = self.in_play - len(at) - named_out
                if extra > 0:
                    v = max(v, extra + _packing([m for m in sets if not m & spare]))
            return v
        best = None
        for card, reqs in zip(goal.cards, self.reqs, strict=True):
            sets = self._sets(reqs, stacks, at, chain)
            if not sets:
                return 0  # this card is met
            v = max(_card_base(card, stacks, at), _packing(sets))
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
            elif kind == "height":
                w = at.get(r[1])
                if w is not None and w[1] != r[2] - 1:
                    out.append(chain[r[1]])
            elif kind == "apart":
                wx, wy = at.get(r[1]), at.get(r[2])
                if wx is not None and wy is not None and wx[0] == wy[0]:
                    lo, hi = (r[1], r[2]) if wx[1] < wy[1] else (r[2], r[1])
                    # lifting lo or below carries hi along: a block above lo up to hi
                    out.append(chain[hi] & ~chain[lo])
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


def _stack_rows(p: int, s: tuple[int, ...]) -> tuple[tuple[int, tuple[int, int], int], ...]:
    """(block, (podium, index), mask of it and the blocks beneath it) up the stack."""
    rows = []
    m = 0
    for i, b in enumerate(s):
        m |= 1 << b
        rows.append((b, (p, i), m))
    return tuple(rows)


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


class AstarSearch:
    """The search, run in slices (`run(deadline)`) so that `plan --backend auto` can
    alternate it with SAT; `ruled_out`: every plan of at most that many moves is ruled
    out so far."""

    def __init__(self, state: State, goal: Goal, max_depth: int,
                 bound: PlanBound | None = None) -> None:
        self.state, self.goal, self.max_depth = state, goal, max_depth
        self.n = n = state.rules.n_blocks
        self.rule = state.reversal_rule
        self.bound = bound or PlanBound(goal, n)
        self.named = {b for c in goal.cards for b in c.blocks}
        named_podiums = {c.podium for c in goal.cards if c.podium is not None}
        self.free_podiums = [p for p in range(state.rules.n_podiums)
                             if p not in named_podiums]
        start = state.key()
        self.parent: dict[tuple[Stacks, Ban], tuple[tuple[Stacks, Ban], Move] | None] = {
            start: None}
        self.best: dict[Stacks, dict[Ban, int]] = {state.stacks: {state.ban: 0}}
        self.buckets: list[list[tuple[tuple[Stacks, Ban], int]]] = [
            [] for _ in range(max_depth + 1)]
        self.nodes = 1
        self.outcome: SearchOutcome | None = None
        if goal.met(state.stacks):
            self.outcome = SearchOutcome("optimal", 0, [], 0, 1)
            self.f = 0
            return
        self.f = h0 = self.bound.value(state.stacks)
        if h0 > max_depth:
            self.outcome = SearchOutcome("infeasible", None, [], max_depth, 1)
        else:
            self.buckets[h0].append((start, 0))

    @property
    def ruled_out(self) -> int:
        return self.f - 1

    def run(self, deadline: Deadline = NO_DEADLINE,
            stop: Callable[[int], bool] | None = None) -> SearchOutcome | None:
        """Search until the answer (returned, also kept in `outcome`) or until
        `deadline` passes or `stop(nodes)` says so (None: call again to go on)."""
        if self.outcome is not None:
            return self.outcome
        n, rule, named, h = self.n, self.rule, self.named, self.bound.value
        best, parent, buckets = self.best, self.parent, self.buckets
        max_depth = self.max_depth
        f = self.f
        expanded = 0
        while f <= max_depth:
            bucket = buckets[f]
            if not bucket:
                f = self.f = f + 1
                continue
            expanded += 1
            if expanded & 63 == 0 and (deadline.passed()
                                       or (stop is not None and stop(self.nodes))):
                return None
            key, g = bucket.pop()
            stacks, ban = key
            if best[stacks].get(ban) != g:
                continue  # reached again with fewer moves since
            placed = {b for s in stacks for b in s}
            spare = next((b for b in range(n) if b not in placed and b not in named), None)
            empty = [p for p in self.free_podiums if not stacks[p]]
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
                self.nodes += 1
                best.setdefault(new, {})[new_ban] = g2
                child = (new, new_ban)
                parent[child] = (key, Move(b, src, dst))
                h2 = h(new)
                if h2 == 0:
                    # g2 <= f: the bound of an unmet goal is >= 1, so f >= g + 1
                    self.outcome = SearchOutcome("optimal", g2, path_to(parent, child),
                                                 g2 - 1, self.nodes)
                    return self.outcome
                f2 = max(f, g2 + h2)
                if f2 <= max_depth:
                    buckets[f2].append((child, g2))
        self.outcome = SearchOutcome("infeasible", None, [], max_depth, self.nodes)
        return self.outcome


def astar_plan(state: State, goal: Goal, max_depth: int, deadline: Deadline = NO_DEADLINE,
               bound: PlanBound | None = None,
               stop: Callable[[int], bool] | None = None) -> SearchOutcome:
    """Shortest legal move sequence from `state` to a position meeting `goal`.

    status "unknown" when the deadline passes (or `stop(nodes)` says so): depth_done =
    every plan of at most that many moves is ruled out."""
    search = AstarSearch(state, goal, max_depth, bound)
    out = search.run(deadline, stop)
    if out is None:
        return SearchOutcome("unknown", None, [], search.ruled_out, search.nodes)
    return out
