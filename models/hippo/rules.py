"""Hippo: rules data, game states, rolls and their options, placing chips.

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
import dataclasses
import itertools
import operator
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io import expect, load_data, load_json, rgb_colour
from solver.io import field as json_field

Lanes = tuple[tuple[int, ...], ...]
Stocks = tuple[tuple[int, ...], ...]
Roll = tuple[int, ...]
Move = tuple[tuple[int, int], ...]
Fresh = tuple[int, ...]
# one placement sequence of a roll and where it leads: (lanes, hippo, stocks, fresh, move)
Placed = tuple[Lanes, tuple[int, ...], Stocks, Fresh, Move]

# When foreign chips taken by a penalty must be placed first: from the player's next
# turn on (the rulebook's words; the default), or at once, also on the rest of the roll
# and on the bonus roll of the turn they were taken in.
NEXT_TURN, AT_ONCE = "next-turn", "at-once"
FOREIGN_FIRST = (NEXT_TURN, AT_ONCE)


@dataclass(frozen=True)
class Rules:
    """The game's numbers: lanes, Mr. Hippo's lane, capacity, chips, dice, colours."""

    name: str
    lanes: int  # lanes are numbered 1..lanes
    hippo: int  # Mr. Hippo's lane: unlimited, never kicked out of, earns the bonus roll
    capacity: int  # chips a normal lane holds
    chips: int  # chips of each colour
    dice: int
    faces: int
    min_players: int
    max_players: int
    penalty_takes_placed: bool  # the penalty also takes the chip just placed
    colours: tuple[tuple[str, str], ...]  # (name, rgb) in the order players pick them
    foreign_first: str = NEXT_TURN  # NEXT_TURN or AT_ONCE (see FOREIGN_FIRST)

    def __post_init__(self) -> None:
        # Rules key many caches: hash the fields once.
        object.__setattr__(self, "_hash", hash((
            self.name, self.lanes, self.hippo, self.capacity, self.chips, self.dice,
            self.faces, self.min_players, self.max_players, self.penalty_takes_placed,
            self.colours, self.foreign_first)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    @property
    def colour_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.colours)

    def rgb(self, name: str) -> str:
        return dict(self.colours)[name]

    @property
    def next_turn(self) -> bool:
        """Foreign chips taken during a turn are due only from the player's next turn."""
        return self.foreign_first == NEXT_TURN


def foreign_first_value(value: Any, where: str) -> str:
    """'next-turn' or 'at-once' (BadInput otherwise)."""
    if value not in FOREIGN_FIRST:
        raise BadInput(f"{where}: '{value}' is not a reading of foreign colours first "
                       f"({' or '.join(FOREIGN_FIRST)})")
    return value


def rules_from_dict(data: Any, where: str = "rules") -> Rules:
    """Rules from a JSON object (see docs/hippo.md); each problem is one BadInput."""
    expect(data, dict, where)

    def integer(key: str, low: int, high: int) -> int:
        value = json_field(data, key, int, where)
        if not low <= value <= high:
            raise BadInput(f"{where}.{key}: {value} is outside {low}..{high}")
        return value

    lanes = integer("lanes", 2, 60)
    hippo = integer("hippo_lane", 1, lanes)
    dice = integer("dice", 1, 5)
    faces = integer("faces", 2, 20)
    if faces >= hippo:
        raise BadInput(f"{where}: a single die must not reach the hippo lane "
                       f"(faces {faces} >= hippo_lane {hippo})")
    colours = json_field(data, "colours", dict, where)
    for name, rgb in colours.items():
        rgb_colour(rgb, f"{where}.colours.{name}")
    min_players = integer("min_players", 1, 12)
    max_players = integer("max_players", min_players, 12)
    if len(colours) < max_players:
        raise BadInput(f"{where}: {len(colours)} colours for up to {max_players} players")
    return Rules(
        name=json_field(data, "name", str, where, "custom rules"),
        lanes=lanes, hippo=hippo,
        capacity=integer("lane_capacity", 1, 10),
        chips=integer("chips_per_colour", 1, 100),
        dice=dice, faces=faces, min_players=min_players, max_players=max_players,
        penalty_takes_placed=json_field(data, "penalty_takes_placed_chip", bool, where, True),
        colours=tuple((str(k), v.lower()) for k, v in colours.items()),
        foreign_first=foreign_first_value(
            json_field(data, "foreign_first", str, where, NEXT_TURN), f"{where}.foreign_first"))


def load_rules(path: str | Path | None = None, foreign_first: str | None = None) -> Rules:
    """The built-in rules (data/default.json) or a rules file given with --rules;
    `foreign_first` (the command line's --foreign-first) overrides the data's reading."""
    rules = load_data(path, "models.hippo", "default.json", rules_from_dict)
    if foreign_first is None:
        return rules
    return with_reading(rules, foreign_first, "--foreign-first")


def with_reading(rules: Rules, foreign_first: str, where: str = "foreign_first") -> Rules:
    """The same rules under another reading of foreign colours first."""
    if foreign_first == rules.foreign_first:
        return rules
    return dataclasses.replace(rules, foreign_first=foreign_first_value(foreign_first, where))


# --------------------------------------------------------------------------- rolls

def parse_roll(rules: Rules, text: str, where: str = "--roll") -> tuple[int, ...]:
    """'6,4,2' (or '6 4 2', '642') -> (6, 4, 2); every die 1..faces."""
    t = text.strip()
    if re.search(r"[,\s+/-]", t):
        # '-' separates dice only between digits (6-4-2): '-1' is a negative die
        parts = []
        for chunk in (c for c in re.split(r"[,\s+/]+", t) if c):
            parts += chunk.split("-") if re.fullmatch(r"\d+(-\d+)+", chunk) else [chunk]
    else:
        parts = list(t)
    if len(parts) != rules.dice:
        raise BadInput(f"{where}: '{text}' is not a roll of {rules.dice} dice (e.g. 6,4,2)")
    roll = []
    for p in parts:
        if not p.isdigit() or not 1 <= int(p) <= rules.faces:
            raise BadInput(f"{where}: die '{p}' in '{text}' is not a number 1-{rules.faces}")
        roll.append(int(p))
    return tuple(roll)


def parse_rolls(rules: Rules, text: str, where: str = "--rolls") -> list[tuple[int, ...]]:
    """'6,4,2 5,5,1' -> [(6, 4, 2), (5, 5, 1)] (rolls separated by spaces or ';')."""
    chunks = [c for c in re.split(r"[;\s]+", text.strip()) if c]
    if not chunks:
        raise BadInput(f"{where}: no rolls given (e.g. \"6,4,2 5,5,1\")")
    return [parse_roll(rules, c, f"{where} roll {i}") for i, c in enumerate(chunks, 1)]


def _set_partitions(items: list[int]) -> list[list[list[int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for part in _set_partitions(rest):
        for i in range(len(part)):
            out.append(part[:i] + [[first, *part[i]]] + part[i + 1:])
        out.append([[first], *part])
    return out


@cache
def roll_splits(rules: Rules, dice: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every way to add up the dice in groups, as groups of dice (largest sums first);
    splits with a sum above the highest lane are no option. Distinct by their sums."""
    seen: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
    for part in _set_partitions(list(range(len(dice)))):
        groups = sorted((tuple(sorted((dice[i] for i in g), reverse=True)) for g in part),
                        key=lambda g: (-sum(g), g))
        sums = tuple(sum(g) for g in groups)
        if max(sums) <= rules.lanes and sums not in seen:
            seen[sums] = tuple(groups)
    return tuple(sorted(seen.values(), key=lambda gs: (-len(gs), [sum(g) for g in gs])))


@cache
def roll_sequences(rules: Rules, dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct order of lanes in which a roll's chips can be placed."""
    out: set[tuple[int, ...]] = set()
    for groups in roll_splits(rules, tuple(sorted(dice))):
        out.update(itertools.permutations([sum(g) for g in groups]))
    return tuple(sorted(out, key=lambda s: (-len(s), s)))


def sorted_roll(dice: tuple[int, ...] | list[int]) -> Roll:
    """The dice highest first: how a roll is kept (the dice's order never matters)."""
    return tuple(sorted(dice, reverse=True))


@cache
def all_rolls(rules: Rules) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The distinct rolls (dice sorted) with how many of the faces**dice ordered
    outcomes show them: 56 rolls, counts summing to 216, for three dice."""
    counts = Counter(tuple(sorted(r)) for r in
                     itertools.product(range(1, rules.faces + 1), repeat=rules.dice))
    return tuple(sorted(counts.items()))


# --------------------------------------------------------------------------- placing chips

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


# --------------------------------------------------------------------------- state

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


# --------------------------------------------------------------------------- files

def _colour(state_colours: list[str], rules: Rules, value: Any, where: str) -> int:
    name = expect(value, str, where).strip().lower()
    if name not in state_colours:
        if name in rules.colour_names:
            raise BadInput(f"{where}: colour '{name}' is not playing "
                           f"(players: {', '.join(state_colours)})")
        raise BadInput(f"{where}: unknown colour '{name}' "
                       f"(colours: {', '.join(rules.colour_names)})")
    return state_colours.index(name)


def _counts(colours: list[str], rules: Rules, value: Any, where: str) -> list[int]:
    """A list of colour names or an object colour -> count, as counts per colour."""
    out = [0] * len(colours)
    if isinstance(value, list):
        for i, v in enumerate(value):
            out[_colour(colours, rules, v, f"{where}[{i}]")] += 1
        return out
    expect(value, (dict, list), where)
    for k, v in value.items():
        n = expect(v, int, f"{where}.{k}")
        if n < 0:
            raise BadInput(f"{where}.{k}: negative count {n}")
        out[_colour(colours, rules, k, f"{where}.{k}")] += n
    return out


def state_from_dict(rules: Rules, data: Any, where: str = "position") -> GameState:
    """A game state from its JSON object, checked: known colours, lanes within capacity,
    every colour's chips adding up to the rules' count."""
    expect(data, dict, where)
    game = json_field(data, "game", str, where, "hippo")
    if game != "hippo":
        raise BadInput(f"{where}: this is a '{game}' file, not a hippo position")
    _nothing_unknown(data, where)
    names = json_field(data, "players", list, where)
    colours = []
    for i, v in enumerate(names):
        name = expect(v, str, f"{where}.players[{i}]").strip().lower()
        if name not in rules.colour_names:
            raise BadInput(f"{where}.players[{i}]: unknown colour '{name}' "
                           f"(colours: {', '.join(rules.colour_names)})")
        if name in colours:
            raise BadInput(f"{where}.players: colour '{name}' plays twice")
        colours.append(name)
    if not rules.min_players <= len(colours) <= rules.max_players:
        raise BadInput(f"{where}.players: {len(colours)} players; Hippo is for "
                       f"{rules.min_players}-{rules.max_players}")
    n = len(colours)
    to_move = _colour(colours, rules, json_field(data, "to_move", str, where, colours[0]),
                      f"{where}.to_move")
    bonus = json_field(data, "bonus_roll", bool, where, False)
    lanes: list[tuple[int, ...]] = [()] * (rules.lanes + 1)
    hippo = [0] * n
    for key, value in json_field(data, "lanes", dict, where, {}).items():
        w = f"{where}.lanes.{key}"
        if not str(key).isdigit() or not 1 <= int(key) <= rules.lanes:
            raise BadInput(f"{w}: '{key}' is not a lane (lanes are 1-{rules.lanes})")
        lane = int(key)
        if lane == rules.hippo:
            hippo = [a + b for a, b in zip(hippo, _counts(colours, rules, value, w),
                                           strict=True)]
            continue
        chips = expect(value, list, w)
        if len(chips) > rules.capacity:
            raise BadInput(f"{w}: {len(chips)} chips, but a lane holds {rules.capacity}")
        lanes[lane] = tuple(_colour(colours, rules, c, f"{w}[{i}]") for i, c in enumerate(chips))
    on_board = [sum(lane.count(c) for lane in lanes) + hippo[c] for c in range(n)]
    stocks_data = json_field(data, "stocks", dict, where, None)
    stocks = []
    if stocks_data is None:
        stocks = [tuple(rules.chips - on_board[p] if c == p else 0 for c in range(n))
                  for p in range(n)]
        for p in range(n):
            if stocks[p][p] < 0:
                raise BadInput(f"{where}: {on_board[p]} {colours[p]} chips in the pool, but "
                               f"each colour has {rules.chips}")
    else:
        rows: dict[int, tuple[int, ...]] = {}
        for key, value in stocks_data.items():
            w = f"{where}.stocks.{key}"
            p = _colour(colours, rules, key, w)
            if isinstance(value, int) and not isinstance(value, bool):
                if value < 0:
                    raise BadInput(f"{w}: negative count {value}")
                rows[p] = tuple(value if c == p else 0 for c in range(n))
            else:
                rows[p] = tuple(_counts(colours, rules, value, w))
        for p in range(n):
            if p not in rows:
                raise BadInput(f"{where}.stocks: no stock given for {colours[p]}")
            stocks.append(rows[p])
        for c in range(n):
            held = sum(row[c] for row in stocks)
            if held + on_board[c] != rules.chips:
                raise BadInput(
                    f"{where}: {held + on_board[c]} {colours[c]} chips counted "
                    f"({on_board[c]} in the pool, {held} in stocks); each colour has "
                    f"{rules.chips}")
    roll = _file_roll(rules, data.get("roll"), f"{where}.roll")
    turns = json_field(data, "turns", int, where, 0)
    if turns < 0:
        raise BadInput(f"{where}.turns: negative count {turns}")
    fresh = _file_fresh(rules, colours, stocks[to_move], to_move, bonus,
                        data.get("taken_this_turn"), f"{where}.taken_this_turn")
    state = GameState(rules, tuple(colours), tuple(lanes), tuple(hippo), tuple(stocks),
                      to_move, bonus, roll, turns, fresh)
    won = state.winner()
    if won is not None and won != to_move:
        raise BadInput(f"{where}: {colours[won]} has no chips left: the game is over")
    if won is not None and roll is not None:
        raise BadInput(f"{where}.roll: the game is over ({colours[won]} has no chips "
                       "left): no roll to place")
    return state


def _nothing_unknown(value: Any, where: str) -> None:
    """Hippo hides nothing: every chip is in view (no unseen piece), so a position that
    leaves something unknown ("?", as other games' files may) declares more unknowns
    than there are unseen pieces. Dice not yet thrown are written by leaving out
    `roll`."""
    if isinstance(value, str) and "?" in value:
        raise BadInput(f"{where}: '?', but Hippo hides nothing: every chip is in view of "
                       "all players (0 unseen pieces); dice not yet thrown: leave out "
                       "'roll'")
    if isinstance(value, dict):
        for k, v in value.items():
            _nothing_unknown(k, f"{where}.{k}")
            _nothing_unknown(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _nothing_unknown(v, f"{where}[{i}]")


def _file_fresh(rules: Rules, colours: list[str], stock: tuple[int, ...], me: int,
                bonus: bool, value: Any, where: str) -> Fresh:
    """A position's `taken_this_turn`: the foreign chips of the player on turn taken by a
    penalty during this turn (colour -> count). Absent: none, every foreign chip in the
    stock is due (how files without it always read). Under the at-once reading every
    foreign chip is due anyway, so the field is read, checked and then not kept."""
    if value is None:
        return ()
    counts = _counts(colours, rules, value, where)
    if not any(counts):
        return ()
    for c, n in enumerate(counts):
        if n and c == me:
            raise BadInput(f"{where}.{colours[c]}: {colours[c]}'s own chips are never "
                           "foreign chips to place first")
        if n > stock[c]:
            raise BadInput(f"{where}.{colours[c]}: {n} taken this turn, but "
                           f"{colours[me]}'s stock holds {stock[c]} {colours[c]}")
    if not bonus:
        raise BadInput(f"{where}: chips taken this turn can only wait for the turn's bonus "
                       "roll (bonus_roll: true); at the start of a turn every foreign chip "
                       "is due")
    return tuple(counts) if rules.next_turn else ()


def _file_roll(rules: Rules, value: Any, where: str) -> Roll | None:
    """A position's roll: null (not rolled yet), a list of dice or a text like '6,4,2'."""
    if value is None:
        return None
    if isinstance(value, str):
        return sorted_roll(parse_roll(rules, value, where))
    dice = expect(value, list, where)
    if len(dice) != rules.dice:
        raise BadInput(f"{where}: {len(dice)} dice, a roll has {rules.dice} (e.g. [6, 4, 2])")
    for i, d in enumerate(dice):
        if not 1 <= expect(d, int, f"{where}[{i}]") <= rules.faces:
            raise BadInput(f"{where}[{i}]: die {d} is not a number 1-{rules.faces}")
    return sorted_roll(dice)


def load_state(rules: Rules, path: str | Path) -> GameState:
    """Read a position file (see docs/hippo.md)."""
    return state_from_dict(rules, load_json(path, "position file"), f"position file {path}")


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The JSON object of a state (round-trips through state_from_dict); the roll, the
    turn count and the foreign chips taken this turn only when there are some."""
    names = state.colours
    lanes: dict[str, Any] = {str(lane): [names[c] for c in state.lanes[lane]]
                             for lane in range(1, state.rules.lanes + 1)
                             if lane != state.rules.hippo and state.lanes[lane]}
    if any(state.hippo):
        lanes[str(state.rules.hippo)] = {names[c]: n for c, n in enumerate(state.hippo) if n}
    stocks: dict[str, Any] = {}
    for p, row in enumerate(state.stocks):
        if all(n == 0 for c, n in enumerate(row) if c != p):
            stocks[names[p]] = row[p]
        else:
            stocks[names[p]] = {names[c]: n for c, n in enumerate(row) if n}
    data: dict[str, Any] = {"game": "hippo", "players": list(names),
                            "to_move": names[state.to_move], "bonus_roll": state.bonus,
                            "lanes": lanes, "stocks": stocks}
    if state.roll is not None:
        data["roll"] = list(state.roll)
    if state.turns:
        data["turns"] = state.turns
    if state.fresh:
        data["taken_this_turn"] = {names[c]: n for c, n in enumerate(state.fresh) if n}
    return data


def format_move(state: GameState, move: Move) -> str:
    """'2 red, 10 red' — lanes in placement order with the chip's colour."""
    return ", ".join(f"{lane} {state.colours[c]}" for lane, c in move)


def random_state(rules: Rules, players: int, rng: Any, fill: float = 0.6,
                 foreign: float = 0.3) -> GameState:
    """A random legal mid-game state (tests, benchmarks): lanes filled with random
    colours, some chips with Mr. Hippo, the rest in stocks, some stocks holding other
    players' colours (under the next-turn reading, before a bonus roll some of the
    mover's may have been taken this turn). Every player keeps at least one chip."""
    n = players
    colours = rules.colour_names[:n]
    pool = [c for c in range(n) for _ in range(rules.chips)]
    rng.shuffle(pool)
    lanes: list[tuple[int, ...]] = [()] * (rules.lanes + 1)
    hippo = [0] * n
    for lane in range(1, rules.lanes + 1):
        if lane == rules.hippo:
            for _ in range(min(rng.randrange(4), len(pool) - n)):
                hippo[pool.pop()] += 1
            continue
        if rng.random() < fill:
            k = min(rng.randint(1, rules.capacity), len(pool) - n)
            lanes[lane] = tuple(pool.pop() for _ in range(max(0, k)))
    stocks = [[0] * n for _ in range(n)]
    for c in pool:
        owner = c if rng.random() >= foreign else rng.randrange(n)
        stocks[owner][c] += 1
    for p in range(n):  # nobody has won yet
        if not any(stocks[p]):
            q = max(range(n), key=lambda q: sum(stocks[q]))
            c = max(range(n), key=lambda c: stocks[q][c])
            stocks[q][c] -= 1
            stocks[p][c] += 1
    me, bonus = rng.randrange(n), rng.random() < 0.2
    fresh: Fresh = ()
    if bonus and rules.next_turn and any(stocks[me][c] for c in range(n) if c != me):
        # a bonus roll after a penalty: some foreign chips were taken during this turn
        counts = [rng.randint(0, stocks[me][c]) if c != me else 0 for c in range(n)]
        fresh = tuple(counts) if any(counts) else ()
    return GameState(rules, tuple(colours), tuple(lanes), tuple(hippo),
                     tuple(tuple(r) for r in stocks), me, bonus, fresh=fresh)


def parse_move(state: GameState, placements: list[str] | str) -> Move:
    """Placements like ["2 red", "10 red"] (or "2 red, 10 red") as a move."""
    items = placements.split(",") if isinstance(placements, str) else placements
    move = []
    for item in items:
        parts = item.split()
        if len(parts) != 2 or not parts[0].isdigit():
            raise BadInput(f"placement '{item}': expected 'LANE COLOUR', e.g. '10 red'")
        move.append((int(parts[0]), _colour(list(state.colours), state.rules, parts[1],
                                             f"placement '{item}'")))
    return tuple(move)
