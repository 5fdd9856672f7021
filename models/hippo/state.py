"""Hippo: game states, placing chips, the legal moves of a roll and applying them.

This module is the reference every other part is checked against (the fast `best`
evaluation, the CP-SAT plan model, the finishing-chance DP). A state knows whether the
dice have been rolled (`roll`); `legal_actions(roll)` lists the placements of a roll and
`apply_action(move)` returns the state after them, with the dice not yet rolled again.

Representation (plain tuples, so states hash and copy cheaply):
- colours are indices into `GameState.colours` (seat order); player i plays colour i;
- `lanes[L]` is lane L's chips from the bottom field up (index 0 and the hippo lane
  stay empty; the hippo lane only counts chips per colour in `hippo`);
- `stocks[p][c]` is how many chips of colour c player p holds;
- a roll is the dice, highest first: (6, 4, 2) (their order never matters);
- a move is the sequence of placements of one roll: ((lane, colour), ...);
- `fresh[c]` counts the chips of another colour c that the player on turn took by a
  penalty during this turn and still holds (() when none): under the rulebook's reading
  ("When it's your turn again, you must place the other colours first") they need not
  go first before that player's next turn, while the other foreign chips in the stock
  are *due* and must. With `foreign_first` "at-once" every foreign chip is due at once
  and `fresh` stays ().
"""

from __future__ import annotations

import bisect
import operator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from models.hippo.dice import Roll, roll_sequences, sorted_roll
from models.hippo.rules import Rules
from solver.errors import BadInput

Lanes = tuple[tuple[int, ...], ...]
Stocks = tuple[tuple[int, ...], ...]
Move = tuple[tuple[int, int], ...]
Fresh = tuple[int, ...]
# one placement sequence of a roll and where it leads: (lanes, hippo, stocks, fresh, move)
Placed = tuple[Lanes, tuple[int, ...], Stocks, Fresh, Move]


def place(rules: Rules, lanes: Lanes, hippo: tuple[int, ...], stocks: Stocks, me: int,
          lane: int, colour: int) -> tuple[Lanes, tuple[int, ...], Stocks, int | None,
                                           tuple[int, ...]]:
    """Player `me` places a chip of `colour` from their stock at the bottom of `lane`.

    Returns (lanes, hippo, stocks, kicked, taken): `kicked` is the colour of a chip
    pushed out at the top (returned to its owner), `taken` the chips the penalty made
    `me` take (kicking out one's own chip takes the whole lane), else ().
    """
    row = list(stocks[me])
    row[colour] -= 1
    if lane == rules.hippo:
        h = list(hippo)
        h[colour] += 1
        return lanes, tuple(h), stocks[:me] + (tuple(row),) + stocks[me + 1:], None, ()
    content = (colour,) + lanes[lane]
    if len(content) <= rules.capacity:
        return (lanes[:lane] + (content,) + lanes[lane + 1:], hippo,
                stocks[:me] + (tuple(row),) + stocks[me + 1:], None, ())
    top = content[-1]
    content = content[:-1]
    if top == me:
        # Penalty: the player takes every chip of the lane, whatever its colour.
        if rules.penalty_takes_placed:
            taken, left = content + (top,), ()
        else:
            taken, left = content[1:] + (top,), content[:1]
        for c in taken:
            row[c] += 1
        return (lanes[:lane] + (left,) + lanes[lane + 1:], hippo,
                stocks[:me] + (tuple(row),) + stocks[me + 1:], top, taken)
    new_stocks = list(stocks)
    new_stocks[me] = tuple(row)
    owner = list(new_stocks[top])
    owner[top] += 1
    new_stocks[top] = tuple(owner)
    return lanes[:lane] + (content,) + lanes[lane + 1:], hippo, tuple(new_stocks), top, ()


def colour_choices(stock: tuple[int, ...], me: int, fresh: Fresh = ()) -> list[int]:
    """Colours the next chip may have: while the stock holds due foreign chips (other
    players' colours not taken during this turn), one of those; else any colour held
    (one's own, or a foreign chip taken during this turn)."""
    if not fresh:
        foreign = [c for c, n in enumerate(stock) if n and c != me]
        if foreign:
            return foreign
        return [me] if stock[me] else []
    due = [c for c, n in enumerate(stock) if c != me and n > fresh[c]]
    return due or [c for c, n in enumerate(stock) if n]


def fresh_after(rules: Rules, fresh: Fresh, stock: tuple[int, ...], me: int, colour: int,
                taken: tuple[int, ...]) -> Fresh:
    """`fresh` once `me` placed a chip of `colour` from `stock` (the stock before it) and
    took `taken` by a penalty: a foreign chip placed while none of its colour is due was
    taken during this turn; foreign chips taken now are not due before the next turn.
    Always () when every foreign chip is due at once."""
    if not rules.next_turn or not (fresh or taken):
        return ()
    out = list(fresh) if fresh else [0] * len(stock)
    if fresh and colour != me and stock[colour] == fresh[colour]:
        out[colour] -= 1
    for c in taken:
        if c != me:
            out[c] += 1
    return tuple(out) if any(out) else ()


def place_chip(rules: Rules, lanes: Lanes, hippo: tuple[int, ...], stocks: Stocks,
               fresh: Fresh, me: int, lane: int, colour: int
               ) -> tuple[Lanes, tuple[int, ...], Stocks, Fresh, int | None, tuple[int, ...]]:
    """`place` that also keeps `fresh`: (lanes, hippo, stocks, fresh, kicked, taken)."""
    nl, nh, ns, kicked, taken = place(rules, lanes, hippo, stocks, me, lane, colour)
    return nl, nh, ns, fresh_after(rules, fresh, stocks[me], me, colour, taken), kicked, taken



@dataclass(frozen=True)
class GameState:
    """A position: lanes, Mr. Hippo's lane, every stock, who rolls next and whether
    that roll is the turn's bonus roll; `roll` is the dice once thrown (None: not yet
    rolled), `turns` counts the turns begun so far (game length, for simulations),
    `fresh` the foreign chips the player on turn took during this turn (see the module
    notes; only a pending bonus roll can follow them within the turn)."""

    rules: Rules
    colours: tuple[str, ...]  # seat (turn) order; player i plays colours[i]
    lanes: Lanes
    hippo: tuple[int, ...]
    stocks: Stocks
    to_move: int = 0
    bonus: bool = False
    roll: Roll | None = None
    turns: int = 0
    fresh: Fresh = ()

    @property
    def players(self) -> int:
        return len(self.colours)

    def stock_size(self, player: int) -> int:
        return sum(self.stocks[player])

    def winner(self) -> int | None:
        """The player whose stock is empty (only the mover's stock can shrink)."""
        return self._winner

    def is_terminal(self) -> bool:
        return self._winner is not None

    @cached_property
    def _winner(self) -> int | None:
        # asked several times per step of a game: found once per state
        for p, row in enumerate(self.stocks):
            if not any(row):
                return p
        return None

    def rolled(self, roll: Roll) -> GameState:
        """The state once the dice show `roll` (a roll that is not the bonus roll
        begins a turn)."""
        return GameState(self.rules, self.colours, self.lanes, self.hippo, self.stocks,
                         self.to_move, self.bonus, sorted_roll(roll),
                         self.turns + (not self.bonus), self.fresh)

    def placements(self, roll: Roll) -> tuple[Placed, ...]:
        """Every placement sequence of the roll and its result, sorted by the move:
        each split of the dice, each order of its chips, each allowed colour per chip.
        A sequence stops early when the stock runs out (the player has won); each move
        is listed once. Remembered for the last roll asked (the legal actions, a policy and the
        legality check of one step all ask for the same roll)."""
        dice = tuple(sorted(roll))
        memo = self.__dict__.get("_placements")
        if memo is not None and memo[0] == dice:
            return memo[1]
        me = self.to_move
        rules = self.rules
        found: list[Placed] = []

        def expand(lanes: Lanes, hippo: tuple[int, ...], stocks: Stocks, fresh: Fresh,
                   seq: tuple[int, ...], i: int, move: Move) -> None:
            if i == len(seq) or not any(stocks[me]):
                found.append((lanes, hippo, stocks, fresh, move))
                return
            for c in colour_choices(stocks[me], me, fresh):
                nl, nh, ns, nf, _, _ = place_chip(rules, lanes, hippo, stocks, fresh, me,
                                                  seq[i], c)
                expand(nl, nh, ns, nf, seq, i + 1, move + ((seq[i], c),))

        for seq in roll_sequences(rules, dice):
            expand(self.lanes, self.hippo, self.stocks, self.fresh, seq, 0, ())
        found.sort(key=_move_of)
        if sum(self.stocks[me]) < len(dice):
            # the stock running out mid-roll cuts several sequences to the same move
            found = [p for i, p in enumerate(found) if i == 0 or p[4] != found[i - 1][4]]
        result = tuple(found)
        object.__setattr__(self, "_placements", (dice, result))
        return result

    def legal_actions(self, roll: Roll) -> list[Move]:
        """Every distinct placement sequence for this roll, sorted (see `placements`);
        none once the game is over."""
        if self.is_terminal():
            return []
        dice = tuple(sorted(roll))
        memo = self.__dict__.get("_moves")
        if memo is None or memo[0] != dice:
            memo = (dice, [p[4] for p in self.placements(dice)])
            object.__setattr__(self, "_moves", memo)
        return list(memo[1])

    def is_legal(self, roll: Roll, move: Any) -> bool:
        """Whether `move` is one of the roll's placement sequences here."""
        return self._find(roll, move) is not None

    def after(self, roll: Roll, move: Any) -> GameState | None:
        """The state after `move` if it is one of the roll's placement sequences (taken
        from the remembered placements, not placed again), else None."""
        found = self._find(roll, move)
        if found is None:
            return None
        lanes, hippo, stocks, fresh, _ = found
        return self._next(lanes, hippo, stocks, fresh, move)

    def _find(self, roll: Roll, move: Any) -> Placed | None:
        if self.is_terminal():
            return None
        placed = self.placements(roll)
        try:
            i = bisect.bisect_left(placed, move, key=_move_of)
        except TypeError:  # not a sequence of (lane, colour) pairs
            return None
        return placed[i] if i < len(placed) and placed[i][4] == move else None

    def apply_action(self, move: Move) -> GameState:
        """The state after a move: a new state, the dice not yet rolled again (no
        legality check: use legal_actions or is_legal)."""
        return self.play(move)[0]

    def play(self, move: Move) -> tuple[GameState, list[tuple[int, int | None, tuple[int, ...]]]]:
        """Apply a move; also returns per placement (lane, kicked colour, taken chips)."""
        me = self.to_move
        lanes, hippo, stocks, fresh = self.lanes, self.hippo, self.stocks, self.fresh
        events = []
        for lane, colour in move:
            if stocks[me][colour] <= 0:
                raise BadInput(f"{self.colours[me]} has no {self.colours[colour]} chip to place")
            lanes, hippo, stocks, fresh, kicked, taken = place_chip(
                self.rules, lanes, hippo, stocks, fresh, me, lane, colour)
            events.append((lane, kicked, taken))
        return self._next(lanes, hippo, stocks, fresh, move), events

    def _next(self, lanes: Lanes, hippo: tuple[int, ...], stocks: Stocks, fresh: Fresh,
              move: Move) -> GameState:
        """The state once the mover's chips are placed: the same player throws the bonus
        roll after a chip went into Mr. Hippo's lane (unless this was the bonus roll or
        the stock ran out), else the next player throws. Foreign chips taken during the
        turn stay not due on its bonus roll; when the turn ends they become due."""
        me = self.to_move
        if not any(stocks[me]):
            to_move, bonus = me, False
        elif not self.bonus and any(lane == self.rules.hippo for lane, _ in move):
            to_move, bonus = me, True
        else:
            to_move, bonus = (me + 1) % len(self.colours), False
        return GameState(self.rules, self.colours, lanes, hippo, stocks, to_move, bonus,
                         None, self.turns, fresh if bonus else ())

    def key(self) -> tuple:
        """The position without the dice and the turn count."""
        return (self.lanes, self.hippo, self.stocks, self.to_move, self.bonus, self.fresh)

    def __getstate__(self) -> dict[str, Any]:
        # the remembered placements and moves are a cache: not pickled
        return {k: v for k, v in self.__dict__.items() if k not in _MEMOS}


_MEMOS = ("_placements", "_moves", "_winner")


_move_of = operator.itemgetter(4)  # the move of a placement sequence (Placed)


def new_game(rules: Rules, colours: list[str] | tuple[str, ...]) -> GameState:
    """The start: empty pool, every player holds their own chips."""
    n = len(colours)
    stocks = tuple(tuple(rules.chips if c == p else 0 for c in range(n)) for p in range(n))
    return GameState(rules, tuple(colours), ((),) * (rules.lanes + 1), (0,) * n, stocks)


@dataclass(frozen=True)
class Outcome:
    """A distinct result of one roll: one placement order reaching it (and how many
    orders do), the chips shed by the mover, and what happened on the way."""

    move: Move
    orders: int
    state: GameState
    shed: int
    bonus: bool  # a bonus roll follows
    won: bool
    kicked: tuple[int, ...]  # colours pushed out at the top and returned to their owners
    taken: tuple[int, ...]  # chips the mover took as a penalty


def outcomes(state: GameState, roll: tuple[int, ...]) -> list[Outcome]:
    """The distinct results of a roll (resulting states), each with its first move in
    sorted order; the reference enumeration of the rules engine."""
    if state.is_terminal():
        return []
    me = state.to_move
    before = state.stock_size(me)
    found: dict[tuple, Outcome] = {}
    for lanes, hippo, stocks, fresh, move in state.placements(roll):
        key = state._next(lanes, hippo, stocks, fresh, move).key()
        if key in found:
            o = found[key]
            found[key] = Outcome(o.move, o.orders + 1, o.state, o.shed, o.bonus, o.won,
                                 o.kicked, o.taken)
            continue
        after, events = state.play(move)  # placed again for what happened on the way
        kicked = tuple(k for _, k, t in events if k is not None and not t)
        taken = tuple(c for _, _, t in events for c in t)
        found[key] = Outcome(move, 1, after, before - after.stock_size(me),
                             after.bonus and after.to_move == me, after.is_terminal(),
                             kicked, taken)
    return list(found.values())

