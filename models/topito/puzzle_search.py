"""The search behind Topito's unique puzzles: candidate positions walked back from
random stacks, every deck card screened on one incremental SAT planner for a shortest
plan of exactly K moves that looks unique, and a second plan of the same length looked
for with the first one blocked. models/topito/puzzles.py proposes with `walk_back` and
`screen_position` and checks with `other_plan`; solver/generate.py owns the loop."""

from __future__ import annotations

import random

from models.topito.encode_sat import SatPlanner
from models.topito.rules import Card, Goal, Move, Rules, State, locate


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
               deadline: float | None = None) -> list[Move] | None:
    """Another move sequence of `length` moves that meets the goal, or None (proven:
    with the given plan blocked under an activation literal the encoding is
    unsatisfiable). `planner` must be built without symmetry breaking (plans are counted)."""
    planner.extend(length)
    act = planner.v(("block-plan", tuple(moves)))
    planner.cnf.clause([-act] + [-planner.mv(m.block, m.target, t) for t, m in enumerate(moves)])
    model = planner.solve([act, planner.goal_lit(goal, length)], deadline)
    return None if model is None else planner.moves_of(model, length)


def _first_moves(planner: SatPlanner, goal_lit: int, limit: int, deadline: float | None
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
                    limit: int, deadline: float | None) -> int:
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


def screen_position(base: State, cards: list[Card], moves: int, deadline: float | None
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
