"""`hint`: the best move for the player on turn given their cards, and the `hint`
policy of simulated games (the same ranking at a smaller work budget).

Every move is judged by what it does now and next (`Outlook`, its `value`): own cards
met now (played at once), own cards left one move away, the chance it hands another
player a photo now, and the chance the next player can then meet a card of theirs in one
move. Moves of equal value are ordered by the distances of the own cards: proven
shortest plans (SAT with the first move assumed, or breadth-first search after the
move) up to `max_moves` in the command, the exact one- and two-move tests of
nearness.py in the policy.

At the table (`table_hint`) the hint is asked by the player on turn and uses their
observation only: the blocks, their own hand, the played piles and the counts of the
other hands and the deck. The other players' unknown hand cards are a deal of the
unseen cards that photo time leaves possible (photo.Deals: no card met at a photo time
the card went through), every such deal as likely, so each chance is exact. With `open_hands`
it is handed the whole position instead (a labelled all-seeing reference).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TypedDict

from models.topito.bfs import bfs_plan
from models.topito.encode_sat import SatPlanner, sat_plan
from models.topito.nearness import Blocks, near_distances
from models.topito.photo import Deals
from models.topito.rules import Card, Goal, Rules
from models.topito.state import GameState, Move, State, format_move, move_dict, successors
from models.topito.work import HINT_CONFLICTS, HINT_NODES, Work, WorkSpent
from solver.deadline import Deadline
from solver.errors import BadInput, TimeLimitReached

# What a move is worth (`Outlook.value`). Weights chosen by playing the hint policy
# against greedy (docs/notes/topito.md, "The hint"): a card played now outweighs
# everything else; handing out a photo costs about a third of one; an own card one
# move away, and the next player one move from a card of theirs, count one each.
CARD = 10.0
GIFT = 3.0
NEAR = 1.0
THREAT = 1.0
# The policy takes every move within TOLERANCE of the best value as equal and orders
# them by the own cards' distances. Once a game drags on (LONG_GAME moves) and no move
# meets or nears an own card, it widens that to QUIET: hint players who all avoid
# handing out chances could otherwise circle for ever (33 of 1,000 three-player games
# hit the move limit). Two-player games are over long before (docs/topito.md).
TOLERANCE = 0.1
QUIET = 1.0
LONG_GAME = 40


@dataclass
class HintMove:
    """A move for the player on turn and what it leaves: `nearest` = moves still
    needed for the nearest card after this move (0: this move meets it), None = more
    than max_moves; `distances` per card; `near` = own cards left one move away;
    `next_meets` / `others_meet` = the chance that the stacks after the move meet a
    hand card of the next player / of any other player, `threat` = the chance that the
    next player can then meet one of theirs in one move (None without other players;
    exact over the unseen cards, 1 or 0 where the cards are known); `value` = the
    ranking's worth of the move (CARD x met + NEAR x near - GIFT x others_meet -
    THREAT x threat); `reasons` in words; `undecided`: the own cards whose distance after
    this move the work budget or the time limit left undecided (None in `distances`,
    ranked as beyond max_moves)."""

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
    near: list[str] = field(default_factory=list)
    threat: float | None = None
    value: float = 0.0
    reasons: str = ""
    undecided: list[str] = field(default_factory=list)


@dataclass
class RaceSeat:
    """How far a seat is from winning: played cards, cards still to play, hand size."""

    seat: int
    played: int
    to_go: int
    hand: int
    on_turn: bool


class ChancesInfo(TypedDict):
    """How the chances of a hint were computed: for whom (`next_player`, a seat from
    1), exactly over the pool of cards the unknown hand cards are drawn from, and how
    many unknown hand cards each other seat holds."""

    next_player: str
    method: str
    samples: int
    unknown_hand_cards: dict[str, int]
    pool: int
    pool_is: str


@dataclass
class HintResult:
    """Cards met before moving (shout "photo time!"), the best move and the ranked
    alternatives. Distances are proven shortest plans up to max_moves. `view`: what the
    hint was computed on ("own": the observation of the player on turn; "open hands":
    the whole position; "blocks and hand": no table); `chances`: how the moves'
    chances were computed (None without others); `race`: every seat's distance from 7
    played cards; `complete`: every distance was decided within the work budget (else
    `undecided_now` and the moves' `undecided` say which were not); `work`: what the
    distances cost (SAT conflicts or BFS positions) of their budget."""

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
    chances: ChancesInfo | None = None
    race: list[RaceSeat] = field(default_factory=list)
    undecided_now: list[str] = field(default_factory=list)
    complete: bool = True
    work: WorkSpent | None = None


class MeetChances:
    """The chances, as the player on turn sees `table`, that given stacks meet a hand
    card of the next player or of any other player, and that the next player can meet
    one of theirs in one move: a known card gives 1; the unknown hand cards are a deal
    of the unseen cards that photo time leaves possible (photo.Deals: none is a card met
    at a photo time it went through), every such deal as likely, so each chance is one
    count of deals over another, exactly."""

    def __init__(self, table: GameState) -> None:
        self.table = table
        n = len(table.hands)
        self.next = (table.turn + 1) % n
        self.others = [p for p in range(n) if p != table.turn]
        self.deals = Deals(table)
        self.pool = self.deals.cards  # each distinct unseen card once
        self.n_blocks = table.blocks.rules.n_blocks

    def _chance(self, seats: list[int], hit: list[bool], test: object) -> Fraction:
        """`hit` marks the pool cards that count; `test(card)` judges a known card."""
        hands = [self.table.hands[p] for p in seats]
        if any(c is not None and test(c) for h in hands for c in h):
            return Fraction(1)
        return 1 - self.deals.chance_none(seats, hit)

    def chance(self, seats: list[int], stacks: tuple) -> Fraction:
        """The chance the stacks meet a hand card of one of `seats`."""
        return self._chance(seats, [c.met(stacks) for c in self.pool],
                            lambda c: c.met(stacks))

    def judge(self, stacks: tuple, near: Blocks) -> tuple[Fraction, Fraction, Fraction]:
        """(next player meets now, any other player meets now, the next player can
        meet a card in one move but not now) for the stacks after a move; `near` is
        those stacks with the move the next player may not make."""
        met = [c.met(stacks) for c in self.pool]
        one = [not m and near.within_one(c) for c, m in zip(self.pool, met, strict=True)]
        return (self._chance([self.next], met, lambda c: c.met(stacks)),
                self._chance(self.others, met, lambda c: c.met(stacks)),
                self._chance([self.next], one,
                             lambda c: not c.met(stacks) and near.within_one(c)))

    def of_move(self, stacks: tuple) -> tuple[float, float]:
        """(next player, any other player), rounded to 6 places."""
        return (round(float(self.chance([self.next], stacks)), 6),
                round(float(self.chance(self.others, stacks)), 6))

    def describe(self) -> ChancesInfo:
        t = self.table
        unknown = {f"seat {p + 1}": sum(c is None for c in t.hands[p]) for p in self.others}
        return {"next_player": f"seat {self.next + 1}", "method": "exact",
                "samples": 0, "unknown_hand_cards": unknown, "pool": len(self.deals.pool),
                "pool_is": "the unseen cards, each unknown hand card none that a photo "
                "time it went through met" if self.deals.constrained
                else "the unseen cards"}


@dataclass
class Outlook:
    """What one move does for the player on turn (see HintMove)."""

    move: Move
    stacks: tuple
    ban: tuple[int, int] | None
    met: list[Card]
    near: list[Card]
    gift_next: Fraction | None
    gift_any: Fraction | None
    threat: Fraction | None

    @property
    def value(self) -> float:
        v = CARD * len(self.met) + NEAR * len(self.near)
        if self.gift_any is not None:
            v -= GIFT * float(self.gift_any) + THREAT * float(self.threat)
        return round(v, 9)


def outlooks(state: State, hand: list[Card], chances: MeetChances | None) -> list[Outlook]:
    """Every legal move of `state` judged for the cards `hand` (engine order)."""
    n = state.rules.n_blocks
    rule = state.reversal_rule
    out = []
    for b, src, dst, after in successors(state.stacks, state.ban, n):
        ban = None if src is None or not rule else (b, src)
        near_blocks = Blocks(after, ban, n)
        met = [c for c in hand if c.met(after)]
        near = [c for c in hand if c not in met and near_blocks.within_one(c)]
        gifts = (None, None, None) if chances is None else chances.judge(after, near_blocks)
        out.append(Outlook(Move(b, src, dst), after, ban, met, near, *gifts))
    return out


def race(table: GameState | None) -> list[RaceSeat]:
    """Every seat's distance from the 7 played cards that win."""
    if table is None or not table.hands:
        return []
    goal = table.rules.cards_to_win
    return [RaceSeat(p + 1, len(table.played[p]), max(0, goal - len(table.played[p])),
                     len(table.hands[p]), p == table.turn) for p in range(len(table.hands))]


def chance_text(p: float) -> str:
    """A chance in words: 'no', 'a certain', 'a 1 in 9' (below 1 in 5), 'a 62%'."""
    if p <= 0:
        return "no"
    if p >= 1:
        return "a certain"
    if p < 0.2 and abs(1 / p - round(1 / p)) < 0.05:
        return f"a 1 in {round(1 / p)}"
    return f"a {p:.0%}"


def reasons(r: Rules, o: Outlook, next_seat: int | None, max_moves: int,
            nearest: int | None, card: str | None) -> str:
    """Why a move ranks where it does, in words."""
    parts = []
    if o.met:
        parts.append("meets your " + "; ".join(c.text(r) for c in o.met))
    if o.near:
        parts.append("leaves " + "; ".join(c.text(r) for c in o.near) + " one move away")
    if not o.met and not o.near:
        parts.append(f"then {nearest} more for {card}" if nearest is not None
                     else f"no card within {max_moves} moves")
    if o.gift_any is not None:
        g = float(o.gift_any)
        if g > 0:
            parts.append(f"{chance_text(g)} chance it also gives another player a photo")
        t = float(o.threat)
        if t > 0:
            parts.append(f"{chance_text(t)} chance seat {next_seat} is then one move "
                         "from a card")
    return "; ".join(parts)


#: a distance the work budget or the time limit left undecided (ranked as beyond
#: max_moves, listed in `undecided`)
UNDECIDED = -1


class CardDistances:
    """Shortest plan lengths for single cards from one position, now or after a given
    first move, with one back-end (one incremental SAT planner serves every card), all
    within one `work` budget (SAT conflicts, or BFS positions) capped by `deadline`:
    once either stops the work, every distance asked is UNDECIDED."""

    def __init__(self, state: State, backend: str, max_moves: int,
                 deadline: Deadline, work: Work) -> None:
        self.state, self.backend, self.max = state, backend, max_moves
        self.deadline, self.work = deadline, work
        self.planner = SatPlanner(state) if backend == "sat" else None

    def _bfs(self, state: State, goal: Goal) -> int | None:
        out = bfs_plan(state, goal, self.max, self.deadline,
                       max_nodes=self.work.nodes_left())
        self.work.used_nodes += out.nodes
        if out.status == "unknown":
            if self.deadline.passed():
                self.work.cut_by_time = True
            else:
                self.work.spent_out = True
            return UNDECIDED
        return out.length

    def now(self, card: Card) -> int | None:
        goal = Goal((card,))
        if self.work.stopped():
            return UNDECIDED
        if self.planner is None:
            return self._bfs(self.state, goal)
        status, length, _, _ = sat_plan(self.state, goal, self.max, self.deadline,
                                        planner=self.planner, work=self.work)
        return UNDECIDED if status == "unknown" else length

    def after(self, move: Move, card: Card, at_least: int) -> int | None:
        """Moves still needed for `card` after `move` (None: more than max_moves)."""
        goal = Goal((card,))
        if self.work.stopped():
            return UNDECIDED
        if self.planner is None:
            return self._bfs(self.state.apply_action(move), goal)
        planner = self.planner
        first = planner.mv(move.block, move.target, 0)
        for t in range(max(1, at_least + 1), self.max + 2):
            planner.extend(t)
            try:
                model = planner.solve([first, planner.goal_lit(goal, t)], self.deadline,
                                      self.work)
            except TimeLimitReached:
                return UNDECIDED
            if model is not None:
                return t - 1
        return None

    def close(self) -> None:
        if self.planner is not None:
            self.planner.close()


def hint(state: State, hand: list[Card], backend: str = "sat", max_moves: int = 8,
         time_limit: float | None = 60.0, table: GameState | None = None,
         view: str = "blocks and hand", work: Work | None = None) -> HintResult:
    """The best move for the player on turn given their cards (see HintResult): moves
    ranked by their value (`Outlook`), then by the nearest own card, the sum of the
    distances, and the move's text. With `table` (the position as the hint may see it,
    with other players) the value weighs the chances of handing out a photo. The
    distances are measured within `work` (default: HINT_CONFLICTS or HINT_NODES), the
    time limit only capping it; what neither let it decide is listed as undecided."""
    if not hand:
        raise BadInput("hint: the hand holds no card")
    r = state.rules
    t0 = time.perf_counter()
    work = work if work is not None else Work(HINT_NODES, HINT_CONFLICTS)
    chances = MeetChances(table) if table is not None and len(table.hands) > 1 else None
    met_now = [c for c in hand if c.met(state.stacks)]
    considered = [c for c in hand if c not in met_now] or list(hand)
    looks = outlooks(state, considered, chances)
    dist = CardDistances(state, backend, max_moves, Deadline.after(time_limit), work)
    try:
        now = {c: dist.now(c) for c in considered}
        rows = [(o, _distances(o, considered, now, dist, max_moves)) for o in looks]
    finally:
        dist.close()
    cap = max_moves + 1
    rows.sort(key=lambda row: rank_key(row[0], list(row[1].values()), cap)
              + (format_move(r, row[0].move, state.stacks),))
    next_seat = None if chances is None else chances.next + 1
    ranked = [_ranked(r, state, i, o, ds, next_seat, max_moves)
              for i, (o, ds) in enumerate(rows)]
    return HintResult([c.text(r) for c in hand], [c.text(r) for c in met_now],
                      [c.text(r) for c in considered],
                      {c.text(r): None if v == UNDECIDED else v for c, v in now.items()},
                      ranked[0] if ranked else None, ranked, max_moves, backend,
                      round(time.perf_counter() - t0, 4), view,
                      None if chances is None else chances.describe(), race(table),
                      [c.text(r) for c, v in now.items() if v == UNDECIDED],
                      not work.stopped(), work.spent())


def _distances(o: Outlook, considered: list[Card], now: dict[Card, int | None],
               dist: CardDistances, max_moves: int) -> dict[Card, int | None]:
    """The distance of each own card after the move of `o` (UNDECIDED where the work
    ran out)."""
    ds: dict[Card, int | None] = {}
    for c in considered:
        if c in o.met or c in o.near:
            ds[c] = 0 if c in o.met else 1
        elif now[c] == UNDECIDED:
            ds[c] = UNDECIDED
        else:
            # not within one, and one move shortens a plan by one at most
            lower = max_moves + 1 if now[c] is None else max(2, now[c] - 1)
            ds[c] = dist.after(o.move, c, lower) if lower <= max_moves else None
    return ds


def _ranked(r: Rules, state: State, i: int, o: Outlook, ds: dict[Card, int | None],
            next_seat: int | None, max_moves: int) -> HintMove:
    """The row of the move of `o`, ranked i + 1."""
    known = [(d, c.text(r)) for c, d in ds.items() if d is not None and d != UNDECIDED]
    nearest, card = min(known) if known else (None, None)
    d = move_dict(r, o.move)
    gifts = (None, None, None) if o.gift_any is None else (
        round(float(o.gift_next), 6), round(float(o.gift_any), 6), round(float(o.threat), 6))
    return HintMove(
        i + 1, format_move(r, o.move, state.stacks), d["block"], d["from"], d["to"],
        nearest, card, [c.text(r) for c in o.met],
        {c.text(r): None if v == UNDECIDED else v for c, v in ds.items()},
        gifts[0], gifts[1], [c.text(r) for c in o.near], gifts[2], round(o.value, 6),
        reasons(r, o, next_seat, max_moves, nearest, card),
        [c.text(r) for c, v in ds.items() if v == UNDECIDED])


def rank_key(o: Outlook, distances: list[int | None], cap: int) -> tuple:
    """The ranking of the hint and of the hint policy: the higher value first, then the
    nearer nearest card, then the smaller sum of distances (None counts as `cap`)."""
    ds = [cap if d is None or d == UNDECIDED else d for d in distances]
    return (-o.value, min(ds, default=cap), sum(ds))


def choose_move(view: GameState, rng: random.Random) -> Move | None:
    """The hint policy's move on `view` (the observation of the player on turn): the
    moves of about the best value (TOLERANCE, QUIET) ordered by the own cards'
    distances searched two moves deep (exact: nearness.py); ties drawn with `rng`.
    None without a known own card."""
    hand = [c for c in view.hands[view.turn] if c is not None]
    if not hand:
        return None
    state = view.blocks
    considered = [c for c in hand if not c.met(state.stacks)] or hand
    chances = MeetChances(view) if len(view.hands) > 1 else None
    looks = outlooks(state, considered, chances)
    best = max(o.value for o in looks)
    # no move meets or nears an own card, and the game drags on
    quiet = best < NEAR and view.moves_made >= LONG_GAME
    top = [o for o in looks if o.value >= best - (QUIET if quiet else TOLERANCE)]
    if len(top) > 1:
        n = state.rules.n_blocks
        keys = [rank_key(o, near_distances(o.stacks, o.ban, n, considered,
                                           state.reversal_rule), 3)[1:] for o in top]
        first = min(keys)
        top = [o for o, k in zip(top, keys, strict=True) if k == first]
    return rng.choice(top).move


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
               hand: list[Card] | None = None, work: Work | None = None
               ) -> tuple[HintResult, GameState]:
    """The hint of the player on turn at the table, and the state it used
    (`hint_view`): their own hand (or `hand`), the blocks, and for the chances the
    played piles and the counts of the unseen cards. BadInput if their hand is not
    known (a "?") and no `hand` is given, or if there is no hand at all."""
    view = hint_view(position, open_hands, hand)
    if not view.hands:
        if hand is None:
            raise BadInput("no hands in the position; give the hand (--hand \"card; "
                           "card; ...\")")
        return hint(position.blocks, hand, backend, max_moves, time_limit,
                    work=work), view
    own = view.hands[view.turn]
    if None in own:
        raise BadInput(f"the hand of player {view.turn} (on turn, seat {view.turn + 1}) "
                       "is not known ('?'); give --hand \"card; card; ...\"")
    return hint(view.blocks, list(own), backend, max_moves, time_limit, table=view,
                view="open hands" if open_hands else "own", work=work), view
