"""The search behind Topito's unique puzzles: candidate positions walked back from
random stacks, every deck card screened on one incremental SAT planner for a shortest
plan of exactly K moves that looks unique, and a second plan of the same length looked
for with the first one blocked. models/topito/puzzles.py proposes with `walk_back` and
`screen_position` and checks with `other_plan`; solver/generate.py owns the loop.

The deeper types (puzzle_types.py: all cards at once, a hand, blocks that may not be
moved) are proposed with `deep_candidates` + `screen_deep`: random full stacks, random
card sets, every K-move plan of a set enumerated (at most CUT_LIMIT) and cut to one by
a last move and banned blocks where that works (`cut_to_one`)."""

from __future__ import annotations

import itertools
import random

from models.topito.encode_sat import SatPlanner
from models.topito.rules import Card, Goal, Rules
from models.topito.state import Move, State, locate
from solver.deadline import NO_DEADLINE, Deadline


def random_state(rules: Rules, rng: random.Random, in_play: int | None = None) -> State:
    """A random position: `in_play` blocks (random if None) in random stacks, and a
    random legal last move leading to it (so the no-reversal rule is in force)."""
    blocks = list(range(rules.n_blocks))
    rng.shuffle(blocks)
    k = rng.randint(0, rules.n_blocks) if in_play is None else in_play
    stacks: list[list[int]] = [[] for _ in range(rules.n_podiums)]
    for b in blocks[:k]:
        stacks[rng.randrange(rules.n_podiums)].append(b)
    st = State(rules, tuple(tuple(s) for s in stacks))
    if k == 0:
        return st
    # the last move: pick a move into this position by undoing a random lift or put
    p = rng.choice([i for i, s in enumerate(st.stacks) if s])
    s = st.stacks[p]
    i = rng.randrange(len(s))
    if i == len(s) - 1 and rng.random() < 0.3:
        return State(rules, st.stacks, Move(s[i], None, p))
    others = [q for q in range(rules.n_podiums) if q != p]
    return State(rules, st.stacks, Move(s[i], rng.choice(others), p))


def other_plan(planner: SatPlanner, goal: Goal, length: int, moves: list[Move],
               deadline: Deadline = NO_DEADLINE) -> list[Move] | None:
    """Another move sequence of `length` moves that meets the goal, or None (proven:
    with the given plan blocked under an activation literal the encoding is
    unsatisfiable). `planner` must be built without symmetry breaking (plans are counted)."""
    planner.extend(length)
    act = planner.v(("block-plan", tuple(moves)))
    planner.cnf.clause([-act] + [-planner.mv(m.block, m.target, t) for t, m in enumerate(moves)])
    model = planner.solve([act, planner.goal_lit(goal, length)], deadline)
    return None if model is None else planner.moves_of(model, length)


def _first_moves(planner: SatPlanner, goal_lit: int, limit: int, deadline: Deadline
                 ) -> list[tuple[int, int]] | None:
    """The distinct first moves (block, podium) of the plans that meet the goal literal;
    None when there are more than `limit`."""
    found: list[tuple[int, int]] = []
    while True:
        model = planner.solve([goal_lit] + [-planner.mv(b, q, 0) for b, q in found], deadline)
        if model is None:
            return found
        b, q = next((b, q) for b in range(planner.n) for q in range(planner.m) if planner.mv(b, q, 0) in model)
        found.append((b, q))
        if len(found) > limit:
            return None


def _plans_starting(planner: SatPlanner, goal_lit: int, first: tuple[int, int], length: int,
                    limit: int, deadline: Deadline) -> int:
    """How many plans start with `first` (counted up to limit + 1), by blocking each
    plan found under a fresh activation literal."""
    acts: list[int] = []
    count = 0
    while count <= limit:
        model = planner.solve([goal_lit, planner.mv(*first, 0)] + acts, deadline)
        if model is None:
            break
        count += 1
        act = planner.v(("block-plan", goal_lit, first, count))
        planner.cnf.clause([-act] + [-planner.mv(m.block, m.target, t)
                                for t, m in enumerate(planner.moves_of(model, length))])
        acts.append(act)
    return count


def walk_back(rules: Rules, deck: list[Card], rng: random.Random, moves: int
              ) -> tuple[State, list[Card]]:
    """A candidate: random stacks, then `moves` random moves backwards (lifts, or a top
    block taken out of play). The deck cards the stacks met before the walk are likely
    to need about `moves` moves from its end, so they are tried first. Mostly all
    blocks are in play: any out-of-play block can fill a gap, which makes plans many."""
    in_play = rules.n_blocks if rng.random() < 0.8 else rng.randint(3, rules.n_blocks)
    goal_state = random_state(rules, rng, in_play)
    stacks = [list(s) for s in goal_state.stacks]
    for _ in range(moves):
        full = [p for p, s in enumerate(stacks) if s]
        if not full:
            break
        p = rng.choice(full)
        if in_play < rules.n_blocks and rng.random() < 0.15:
            stacks[p].pop()
            continue
        i = rng.randrange(len(stacks[p]))
        q = rng.choice([q for q in range(rules.n_podiums) if q != p])
        stacks[q].extend(stacks[p][i:])
        del stacks[p][i:]
    met = [c for c in deck if c.met(goal_state.stacks)]
    rest = [c for c in deck if c not in met]
    rng.shuffle(met)
    rng.shuffle(rest)
    return State(rules, tuple(tuple(s) for s in stacks)), met + rest


def screen_position(base: State, cards: list[Card], moves: int, deadline: Deadline
                    ) -> tuple[State, Card, list[Move]] | None:
    """The first card (in the given order) whose shortest plan from `base` has exactly
    `moves` moves and looks unique, with the position and that plan.

    One incremental SAT planner tests every card: unsatisfiable at every horizon below
    `moves`, satisfiable at `moves`; the plans' first moves are collected and the plans
    per first move counted. If all plans but one share a first move that is a lift, the
    position's last move is chosen so that the no-reversal rule forbids exactly that
    lift. None when no card qualifies. The caller re-checks uniqueness from scratch."""
    rules = base.rules
    with SatPlanner(base) as planner:
        planner.extend(moves)
        for card in cards:
            goal = Goal((card,))
            g = planner.goal_lit(goal, moves)
            if planner.solve([g], deadline) is None:
                continue
            if any(planner.solve([planner.goal_lit(goal, t)], deadline) is not None
                   for t in range(moves)):
                continue
            firsts = _first_moves(planner, g, 2, deadline)
            if not firsts:
                continue
            counts = {f: _plans_starting(planner, g, f, moves, 1, deadline) for f in firsts}
            keep = [f for f in firsts if counts[f] == 1]
            for f in keep:
                others = [h for h in firsts if h != f]
                last = None
                if others:
                    b, q = others[0]
                    at = locate(base.stacks, b)
                    if at is None:  # a put cannot be forbidden
                        continue
                    last = Move(b, q, at[0])
                state = State(rules, base.stacks, last)
                model = planner.solve([g, planner.mv(*f, 0)], deadline)
                return state, card, planner.moves_of(model, moves)
    return None


# --------------------------------------------------------------------------- deeper types

# the K-move plans a screened goal may have and still be cut to one by the last move
# and the banned blocks (more are not enumerated)
CUT_LIMIT = 12


def deep_candidates(rules: Rules, deck: list[Card], rng: random.Random, kind: str,
                    moves: int, count: int = 16) -> tuple[State, list[tuple[Card, ...]]]:
    """A candidate for the types all and hand: random stacks with every block in play
    (an out-of-play block can be put in at any moment, which multiplies the plans) and
    no last move yet, and `count` random card sets not met at the start: a hand of 4,
    or 2 to 3 cards at once (3 from 5 moves on: two cards are rarely 5 moves away)."""
    base = State(rules, random_state(rules, rng, rules.n_blocks).stacks)
    free = [c for c in deck if not c.met(base.stacks)]
    combos: list[tuple[Card, ...]] = []
    for _ in range(count):
        size = 4 if kind == "hand" else 1 if kind == "card" else (
            2 if moves <= 3 else 3 if moves >= 5 else rng.choice((2, 3)))
        combos.append(tuple(rng.sample(free, size)))
    return base, combos


def _all_plans(planner: SatPlanner, goal_lit: int, length: int, limit: int,
               deadline: Deadline) -> list[list[Move]] | None:
    """Every plan that meets the goal literal (None when more than `limit`): each plan
    found is blocked under its own activation literal."""
    acts: list[int] = []
    plans: list[list[Move]] = []
    while len(plans) <= limit:
        model = planner.solve([goal_lit] + acts, deadline)
        if model is None:
            return plans
        plan = planner.moves_of(model, length)
        plans.append(plan)
        act = planner.v(("cut-plan", goal_lit, len(plans)))
        planner.cnf.clause([-act] + [-planner.mv(m.block, m.target, t)
                                     for t, m in enumerate(plan)])
        acts.append(act)
    return None


def cut_to_one(state: State, plans: list[list[Move]], bans: int, rng: random.Random
               ) -> tuple[Move | None, tuple[int, ...]] | None:
    """A last move and `bans` blocks that may not be moved which leave exactly one of
    `plans` (all the K-move plans from `state` without a last move), each of them
    needed (without it more than one plan stays); a last move only when needed. The
    last move is the lift that forbids, by the no-reversal rule, a competing first
    move. None when no such choice exists."""
    rules = state.rules

    def left(last: tuple[int, int] | None, banned: tuple[int, ...]) -> int:
        return sum(1 for p in plans if (p[0].block, p[0].target) != last
                   and not any(m.block in banned for m in p))

    lifts = sorted({(p[0].block, p[0].target) for p in plans
                    if locate(state.stacks, p[0].block) is not None})
    for last in [None, *lifts]:
        options = []
        for banned in itertools.combinations(range(rules.n_blocks), bans):
            if left(last, banned) != 1:
                continue
            if last is not None and left(None, banned) == 1:
                continue
            if any(left(last, banned[:i] + banned[i + 1:]) == 1 for i in range(bans)):
                continue
            options.append(banned)
        if options:
            banned = rng.choice(options)
            if last is None:
                return None, banned
            b, q = last
            at = locate(state.stacks, b)
            assert at is not None
            return Move(b, q, at[0]), banned
    return None


def screen_deep(base: State, kind: str, combos: list[tuple[Card, ...]], moves: int,
                bans: int, rng: random.Random, deadline: Deadline
                ) -> tuple[State, tuple[Card, ...], tuple[int, ...], list[Move]] | None:
    """The first card set (in the given order) whose shortest plan from `base` has
    exactly `moves` moves and whose K-move plans (at most CUT_LIMIT) can be cut to one
    by a last move and `bans` banned blocks (cut_to_one); with the position, the banned
    blocks and that plan. One incremental SAT planner serves every set. The caller
    re-checks uniqueness from scratch."""
    from models.topito.puzzle_types import Ask, ask_lit

    with SatPlanner(base) as planner:
        planner.extend(moves)
        for cards in combos:
            ask = Ask(kind, cards)
            g = ask_lit(planner, ask, moves)
            if planner.solve([g], deadline) is None:
                continue
            if any(planner.solve([ask_lit(planner, ask, t)], deadline) is not None
                   for t in range(moves)):
                continue
            plans = _all_plans(planner, g, moves, CUT_LIMIT, deadline)
            if not plans:
                continue
            cut = cut_to_one(base, plans, bans, rng)
            if cut is None:
                continue
            last, banned = cut
            state = State(base.rules, base.stacks, last)
            plan = next(p for p in plans if (last is None or (p[0].block, p[0].target)
                                             != (last.block, last.source))
                        and not any(m.block in banned for m in p))
            return state, cards, banned, plan
    return None
