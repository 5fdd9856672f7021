"""The questions users ask about Topito, answered as plain dataclasses.

Every distance is a shortest plan proven by one of two back-ends: the SAT planning
encoding (encode_sat: unsatisfiable at every shorter horizon) or breadth-first search
over the rules engine (search: every shorter move sequence examined).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from models.topito.encode_sat import Interrupted, SatPlanner, sat_plan
from models.topito.rules import (
    Card,
    Goal,
    Move,
    Rules,
    Stacks,
    State,
    format_move,
    locate,
    move_dict,
    successors,
)
from models.topito.search import bfs_plan
from solver.errors import BadInput, TimeLimitReached

BACKENDS = ("sat", "bfs")


def podium_dict(rules: Rules, stacks: Stacks) -> dict[str, list[str]]:
    return {rules.podiums[p]: [rules.characters[b] for b in s] for p, s in enumerate(stacks)}


def _deadline(time_limit: float | None) -> float | None:
    return None if time_limit is None else time.perf_counter() + time_limit


# --------------------------------------------------------------------------- show, moves

@dataclass
class ShowResult:
    """A position: stacks bottom to top, blocks out of play, the last move and the move
    it forbids, and for each hand the cards the stacks meet now."""

    podiums: dict[str, list[str]]
    out_of_play: list[str]
    last_move: str | None
    forbidden: str | None
    hands: list[list[str]]
    turn: int
    met_now: list[list[str]]


def show(position: Any) -> ShowResult:
    st: State = position.state
    r = st.rules
    forbidden = None
    if st.ban is not None:
        b, q = st.ban
        forbidden = format_move(r, Move(b, st.last.target, q), st.stacks)
    return ShowResult(
        podium_dict(r, st.stacks), [r.characters[b] for b in st.out_of_play()],
        None if st.last is None else format_move(r, st.last),
        forbidden, [[c.text(r) for c in h] for h in position.hands], position.turn,
        [[c.text(r) for c in h if c.met(st.stacks)] for h in position.hands])


@dataclass
class MoveInfo:
    """One legal move: its text, its file form, and the stacks after it."""

    move: str
    block: str
    source: str
    target: str
    after: dict[str, list[str]]


@dataclass
class MovesResult:
    count: int
    forbidden: str | None
    moves: list[MoveInfo]


def move_info(rules: Rules, move: Move, stacks: Stacks, after: Stacks) -> MoveInfo:
    d = move_dict(rules, move)
    return MoveInfo(format_move(rules, move, stacks), d["block"], d["from"], d["to"],
                    podium_dict(rules, after))


def legal_moves(state: State) -> MovesResult:
    r = state.rules
    moves = [move_info(r, Move(b, s, q), state.stacks, after)
             for b, s, q, after in successors(state.stacks, state.ban, r.n_blocks)]
    forbidden = None
    if state.ban is not None:
        forbidden = format_move(r, Move(state.ban[0], state.last.target, state.ban[1]),
                                state.stacks)
    return MovesResult(len(moves), forbidden, moves)


# --------------------------------------------------------------------------- plan

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


def _replay(state: State, moves: list[Move]) -> tuple[list[MoveInfo], State]:
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
                                                  _deadline(time_limit))
    if status == "unknown":
        raise TimeLimitReached(f"{proof} (a plan needs at least {done + 1} moves)")
    steps, end = _replay(state, moves)
    if status == "optimal" and not goal.met(end.stacks):
        raise AssertionError("plan does not meet the goal")  # a bug, never user input
    return PlanResult([c.text(r) for c in goal.cards], goal.mode, backend, status, length,
                      steps, [c.text(r) for c in goal.cards if c.met(end.stacks)]
                      if status == "optimal" else [], max_moves, proof,
                      round(time.perf_counter() - t0, 4), podium_dict(r, state.stacks))


# --------------------------------------------------------------------------- reachable

@dataclass
class ReachableResult:
    """Can the card(s) be met within `within` moves? Always proven either way."""

    cards: list[str]
    mode: str
    within: int
    reachable: bool
    status: str
    moves: int | None
    plan: list[MoveInfo]
    proof: str
    backend: str
    seconds: float


def reachable(state: State, goal: Goal, within: int, backend: str = "sat",
              time_limit: float | None = 60.0) -> ReachableResult:
    res = plan(state, goal, backend, within, time_limit)
    return ReachableResult(res.cards, goal.mode, within, res.status == "optimal", "proven",
                           res.moves, res.plan, res.proof, backend, res.seconds)


# --------------------------------------------------------------------------- hint

@dataclass
class HintMove:
    """A move for the player on turn and what it leaves: `nearest` = moves still
    needed for the nearest card after this move (0: this move meets it), None = more
    than max_moves; `distances` per card."""

    rank: int
    move: str
    block: str
    source: str
    target: str
    nearest: int | None
    card: str | None
    meets: list[str]
    distances: dict[str, int | None]


@dataclass
class HintResult:
    """Cards met before moving (shout "photo time!"), the best move and the ranked
    alternatives. Distances are proven shortest plans up to max_moves."""

    hand: list[str]
    met_now: list[str]
    considered: list[str]
    distances_now: dict[str, int | None]
    best: HintMove | None
    moves: list[HintMove]
    max_moves: int
    backend: str
    seconds: float


class _Distances:
    """Shortest plan lengths after a given first move, with one back-end."""

    def __init__(self, state: State, backend: str, max_moves: int,
                 deadline: float | None) -> None:
        self.state, self.backend, self.max = state, backend, max_moves
        self.deadline = deadline
        self.planner = SatPlanner(state) if backend == "sat" else None

    def now(self, card: Card) -> int | None:
        goal = Goal((card,))
        if self.planner is not None:
            status, length, _, done = sat_plan(self.state, goal, self.max, self.deadline,
                                               planner=self.planner)
        else:
            out = bfs_plan(self.state, goal, self.max, self.deadline)
            status, length, done = out.status, out.length, out.depth_done
        if status == "unknown":
            raise TimeLimitReached(f"hint: time limit while measuring '{card.text(self.state.rules)}'"
                                   f" (at least {done + 1} moves)")
        return length

    def after(self, move: Move, card: Card, at_least: int) -> int | None:
        """Moves still needed for `card` after `move` (None: more than max_moves)."""
        goal = Goal((card,))
        if self.planner is not None:
            pl = self.planner
            a = pl.mv(move.block, move.target, 0)
            for t in range(max(1, at_least + 1), self.max + 2):
                pl.extend(t)
                try:
                    model = pl.solve([a, pl.goal_lit(goal, t)], self.deadline)
                except Interrupted:
                    raise TimeLimitReached("hint: time limit while ranking the moves") from None
                if model is not None:
                    return t - 1
            return None
        nxt = self.state.apply_action(move)
        out = bfs_plan(nxt, goal, self.max, self.deadline)
        if out.status == "unknown":
            raise TimeLimitReached("hint: time limit while ranking the moves")
        return out.length

    def close(self) -> None:
        if self.planner is not None:
            self.planner.close()


def hint(state: State, hand: list[Card], backend: str = "sat", max_moves: int = 8,
         time_limit: float | None = 60.0) -> HintResult:
    """The best move for the player on turn given their cards (see HintResult)."""
    if not hand:
        raise BadInput("hint: the hand holds no card")
    r = state.rules
    t0 = time.perf_counter()
    met_now = [c for c in hand if c.met(state.stacks)]
    considered = [c for c in hand if c not in met_now] or list(hand)
    dist = _Distances(state, backend, max_moves, _deadline(time_limit))
    try:
        now = {c: dist.now(c) for c in considered}
        rows = []
        for move in state.legal_actions():
            after = state.apply_action(move)
            ds: dict[Card, int | None] = {}
            for c in considered:
                if c.met(after.stacks):
                    ds[c] = 0
                    continue
                # one move changes the distance by at least -1: start the search there
                lower = max_moves if now[c] is None else max(1, now[c] - 1)
                ds[c] = dist.after(move, c, lower)
            known = [(d, c.text(r)) for c, d in ds.items() if d is not None]
            nearest, card = min(known) if known else (None, None)
            meets = [c.text(r) for c in considered if ds[c] == 0]
            rows.append((move, nearest, card, meets, ds))
    finally:
        dist.close()
    cap = max_moves + 1

    def key(row: tuple) -> tuple:
        move, nearest, card, meets, ds = row
        return (cap if nearest is None else nearest, -len(meets),
                sum(cap if d is None else d for d in ds.values()),
                format_move(r, move, state.stacks))

    rows.sort(key=key)
    ranked = []
    for i, (move, nearest, card, meets, ds) in enumerate(rows):
        d = move_dict(r, move)
        ranked.append(HintMove(i + 1, format_move(r, move, state.stacks), d["block"], d["from"],
                               d["to"], nearest, card, meets,
                               {c.text(r): v for c, v in ds.items()}))
    return HintResult([c.text(r) for c in hand], [c.text(r) for c in met_now],
                      [c.text(r) for c in considered], {c.text(r): v for c, v in now.items()},
                      ranked[0] if ranked else None, ranked, max_moves, backend,
                      round(time.perf_counter() - t0, 4))


# --------------------------------------------------------------------------- puzzles
# The unique-puzzle search (issue 6's `generate`) serves the shared puzzle commands:
# models/topito/puzzles.py proposes with walk_back + screen_position and checks with
# other_plan (solver/generate.py owns the loop).

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


def other_plan(pl: SatPlanner, goal: Goal, length: int, moves: list[Move],
               deadline: float | None = None) -> list[Move] | None:
    """Another move sequence of `length` moves that meets the goal, or None (proven:
    with the given plan blocked under an activation literal the encoding is
    unsatisfiable). `pl` must be built without symmetry breaking (plans are counted)."""
    pl.extend(length)
    act = pl.v(("block-plan", tuple(moves)))
    pl.cnf.clause([-act] + [-pl.mv(m.block, m.target, t) for t, m in enumerate(moves)])
    model = pl.solve([act, pl.goal_lit(goal, length)], deadline)
    return None if model is None else pl.moves_of(model, length)


def _first_moves(pl: SatPlanner, goal_lit: int, limit: int, deadline: float | None
                 ) -> list[tuple[int, int]] | None:
    """The distinct first moves (block, podium) of the plans that meet the goal literal;
    None when there are more than `limit`."""
    found: list[tuple[int, int]] = []
    while True:
        model = pl.solve([goal_lit] + [-pl.mv(b, q, 0) for b, q in found], deadline)
        if model is None:
            return found
        b, q = next((b, q) for b in range(pl.n) for q in range(pl.m) if pl.mv(b, q, 0) in model)
        found.append((b, q))
        if len(found) > limit:
            return None


def _plans_starting(pl: SatPlanner, goal_lit: int, first: tuple[int, int], length: int,
                    limit: int, deadline: float | None) -> int:
    """How many plans start with `first` (counted up to limit + 1), by blocking each
    plan found under a fresh activation literal."""
    acts: list[int] = []
    count = 0
    while count <= limit:
        model = pl.solve([goal_lit, pl.mv(*first, 0)] + acts, deadline)
        if model is None:
            break
        count += 1
        act = pl.v(("block-plan", goal_lit, first, count))
        pl.cnf.clause([-act] + [-pl.mv(m.block, m.target, t)
                                for t, m in enumerate(pl.moves_of(model, length))])
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
    with SatPlanner(base) as pl:
        pl.extend(moves)
        for card in cards:
            goal = Goal((card,))
            g = pl.goal_lit(goal, moves)
            if pl.solve([g], deadline) is None:
                continue
            if any(pl.solve([pl.goal_lit(goal, t)], deadline) is not None
                   for t in range(moves)):
                continue
            firsts = _first_moves(pl, g, 2, deadline)
            if not firsts:
                continue
            counts = {f: _plans_starting(pl, g, f, moves, 1, deadline) for f in firsts}
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
                model = pl.solve([g, pl.mv(*f, 0)], deadline)
                return state, card, pl.moves_of(model, moves)
    return None
