"""`hint`: the best move for the player on turn given their cards. Every distance is a
proven shortest plan (SAT with the first move assumed, or breadth-first search after
the move)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from models.topito.bfs import bfs_plan
from models.topito.encode_sat import SatPlanner, sat_plan
from models.topito.plan import deadline_after
from models.topito.rules import Card, Goal, Move, State, format_move, move_dict
from solver.errors import BadInput, TimeLimitReached


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


class CardDistances:
    """Shortest plan lengths for single cards from one position, now or after a given
    first move, with one back-end (one incremental SAT planner serves every card)."""

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
            raise TimeLimitReached(f"hint: time limit while measuring "
                                   f"'{card.text(self.state.rules)}' (at least {done + 1} "
                                   "moves)")
        return length

    def after(self, move: Move, card: Card, at_least: int) -> int | None:
        """Moves still needed for `card` after `move` (None: more than max_moves)."""
        goal = Goal((card,))
        if self.planner is not None:
            planner = self.planner
            first = planner.mv(move.block, move.target, 0)
            for t in range(max(1, at_least + 1), self.max + 2):
                planner.extend(t)
                try:
                    model = planner.solve([first, planner.goal_lit(goal, t)], self.deadline)
                except TimeLimitReached:
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
    dist = CardDistances(state, backend, max_moves, deadline_after(time_limit))
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
