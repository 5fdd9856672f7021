"""`hint`: the best move for the player on turn given their cards. Every distance is a
proven shortest plan (SAT with the first move assumed, or breadth-first search after
the move).

At the table (`table_hint`) the hint is asked by the player on turn and uses their
observation only: the blocks, their own hand, the played piles and the counts of the
other hands and the deck. From the unseen cards it adds, per move, the exact chance that
the stacks after the move meet a card of the next player (or of any other player): the
unknown hand cards are a uniform draw without replacement from the unseen cards the
stacks do not meet now (`GameState.hand_pool`), so the chance is hypergeometric. With
`open_hands` it is handed the whole position instead (a labelled all-seeing reference).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb

from models.topito.bfs import bfs_plan
from models.topito.encode_sat import SatPlanner, sat_plan
from models.topito.plan import deadline_after
from models.topito.rules import Card, Goal, Move, Stacks, State, format_move, move_dict
from models.topito.table import GameState
from solver.errors import BadInput, TimeLimitReached


@dataclass
class HintMove:
    """A move for the player on turn and what it leaves: `nearest` = moves still
    needed for the nearest card after this move (0: this move meets it), None = more
    than max_moves; `distances` per card; `next_meets` / `others_meet` = the chance
    that the stacks after the move meet a hand card of the next player / of any other
    player (None without other players), exact over the unseen cards (1 or 0 where
    the cards are known)."""

    rank: int
    move: str
    block: str
    source: str
    target: str
    nearest: int | None
    card: str | None
    meets: list[str]
    distances: dict[str, int | None]
    next_meets: float | None = None
    others_meet: float | None = None


@dataclass
class HintResult:
    """Cards met before moving (shout "photo time!"), the best move and the ranked
    alternatives. Distances are proven shortest plans up to max_moves. `view`: what the
    hint was computed on ("own": the observation of the player on turn; "open hands":
    the whole position; "blocks and hand": no table); `chances`: how the moves'
    chances of meeting another player's card were computed (None without others)."""

    hand: list[str]
    met_now: list[str]
    considered: list[str]
    distances_now: dict[str, int | None]
    best: HintMove | None
    moves: list[HintMove]
    max_moves: int
    backend: str
    seconds: float
    view: str = "blocks and hand"
    chances: dict[str, object] | None = None


class MeetChances:
    """The chance that given stacks meet a hand card of the next player, or of any
    other player, as the player on turn sees `table`: a known card met gives 1; the k
    unknown hand cards of the players asked about are a uniform draw without
    replacement from the pool (`GameState.hand_pool`), so with m of the pool's n cards
    met the chance is 1 - C(n - m, k) / C(n, k), exactly."""

    def __init__(self, table: GameState) -> None:
        self.table = table
        n = len(table.hands)
        self.next = (table.turn + 1) % n
        self.others = [p for p in range(n) if p != table.turn]
        self.pool = table.hand_pool()

    def chance(self, seats: list[int], stacks: Stacks) -> Fraction:
        hands = [self.table.hands[p] for p in seats]
        if any(c is not None and c.met(stacks) for h in hands for c in h):
            return Fraction(1)
        k = sum(c is None for h in hands for c in h)
        if k == 0:
            return Fraction(0)
        n = len(self.pool)
        m = sum(1 for c in self.pool if c.met(stacks))
        return 1 - Fraction(comb(n - m, k), comb(n, k))

    def of_move(self, stacks: Stacks) -> tuple[float, float]:
        """(next player, any other player), rounded to 6 places."""
        return (round(float(self.chance([self.next], stacks)), 6),
                round(float(self.chance(self.others, stacks)), 6))

    def describe(self) -> dict[str, object]:
        t = self.table
        unknown = {f"seat {p + 1}": sum(c is None for c in t.hands[p]) for p in self.others}
        return {"next_player": f"seat {self.next + 1}", "method": "exact",
                "samples": 0, "unknown_hand_cards": unknown, "pool": len(self.pool),
                "pool_is": "the unseen cards the stacks do not meet now"
                if len(self.pool) < len(t.unseen()) else "the unseen cards"}


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
         time_limit: float | None = 60.0, table: GameState | None = None,
         view: str = "blocks and hand") -> HintResult:
    """The best move for the player on turn given their cards (see HintResult). With
    `table` (the position as the hint may see it, with other players), each move also
    gets its chances of meeting another player's card, the last thing ranked before the
    move's text."""
    if not hand:
        raise BadInput("hint: the hand holds no card")
    r = state.rules
    t0 = time.perf_counter()
    chances = MeetChances(table) if table is not None and len(table.hands) > 1 else None
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
            gift = (None, None) if chances is None else chances.of_move(after.stacks)
            rows.append((move, nearest, card, meets, ds, gift))
    finally:
        dist.close()
    cap = max_moves + 1

    def key(row: tuple) -> tuple:
        move, nearest, card, meets, ds, gift = row
        return (cap if nearest is None else nearest, -len(meets),
                sum(cap if d is None else d for d in ds.values()),
                0.0 if gift[1] is None else gift[1],
                format_move(r, move, state.stacks))

    rows.sort(key=key)
    ranked = []
    for i, (move, nearest, card, meets, ds, gift) in enumerate(rows):
        d = move_dict(r, move)
        ranked.append(HintMove(i + 1, format_move(r, move, state.stacks), d["block"], d["from"],
                               d["to"], nearest, card, meets,
                               {c.text(r): v for c, v in ds.items()}, *gift))
    return HintResult([c.text(r) for c in hand], [c.text(r) for c in met_now],
                      [c.text(r) for c in considered], {c.text(r): v for c, v in now.items()},
                      ranked[0] if ranked else None, ranked, max_moves, backend,
                      round(time.perf_counter() - t0, 4), view,
                      None if chances is None else chances.describe())


def hint_view(position: GameState, open_hands: bool = False,
              hand: list[Card] | None = None) -> GameState:
    """What the hint of the player on turn works on: their observation (the default,
    whatever else the position gives), or with `open_hands` the whole position; with
    `hand`, their hand replaced by those cards."""
    view = position if open_hands or not position.hands else position.observation(
        position.turn)
    if hand is not None and view.hands:
        hands = view.hands[:view.turn] + (tuple(hand),) + view.hands[view.turn + 1:]
        view = replace(view, hands=hands)
    return view


def table_hint(position: GameState, backend: str = "sat", max_moves: int = 8,
               time_limit: float | None = 60.0, open_hands: bool = False,
               hand: list[Card] | None = None) -> tuple[HintResult, GameState]:
    """The hint of the player on turn at the table, and the state it used
    (`hint_view`): their own hand (or `hand`), the blocks, and for the chances the
    played piles and the counts of the unseen cards. BadInput if their hand is not
    known (a "?") and no `hand` is given, or if there is no hand at all."""
    view = hint_view(position, open_hands, hand)
    if not view.hands:
        if hand is None:
            raise BadInput("no hands in the position; give the hand (--hand \"card; "
                           "card; ...\")")
        return hint(position.blocks, hand, backend, max_moves, time_limit), view
    own = view.hands[view.turn]
    if None in own:
        raise BadInput(f"the hand of player {view.turn} (on turn, seat {view.turn + 1}) "
                       "is not known ('?'); give --hand \"card; card; ...\"")
    return hint(view.blocks, list(own), backend, max_moves, time_limit, table=view,
                view="open hands" if open_hands else "own"), view
