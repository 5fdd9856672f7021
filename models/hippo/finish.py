"""Finishing chances: the exact probability that the player on turn empties the stock
within N of their own turns if nobody else moves, playing to maximise that chance.

Exact dynamic programming over the player's own view of the pool:
- other players' colours are alike for the player (a kicked-out chip that is not the
  player's goes to someone else; a foreign chip in the stock is one more chip to place
  first), so a lane is a tuple of fields own (1) / other (2), and the stock is
  (own chips, other chips due, other chips taken during this turn); the last are only
  under the next-turn reading: not due before the next turn, so while no other chip is
  due each chip may be own or one of them (both are tried), and a turn's start makes
  them due;
- other chips above the player's topmost chip in a lane are dropped: they are pushed
  out before that chip reaches the top, exactly as empty fields would fill, so the lane
  behaves the same (this merges many positions);
- values are integers: V_main(n) is the probability times D^(2n), V_bonus(n) times
  D^(2n-1) (D = 216 outcomes of the dice; a turn has at most two rolls), so the maxima
  and sums are exact; the result is reported as a Fraction and a float;
- a turn sheds at most 5 chips (two dice making 7 plus the third die, then three
  singles on the bonus roll), so stocks larger than 5 per turn left have chance 0.
The best case (fewest turns if the dice are kind) is the smallest n with a chance > 0,
found by a yes/no search over the same states.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from fractions import Fraction

from models.hippo.rules import GameState, Rules, all_rolls, roll_sequences, roll_splits
from solver.errors import BadInput, TimeLimitReached
from solver.progress import live_status

OWN, OTHER = 1, 2
# (lanes, own chips, other chips due, other chips taken this turn and not yet due)
View = tuple[tuple[tuple[int, ...], ...], int, int, int]


def _norm(content: tuple[int, ...]) -> tuple[int, ...]:
    while content and content[-1] == OTHER:
        content = content[:-1]
    return content


def view_of(state: GameState, player: int | None = None) -> View:
    """The player's view of a position (see the module notes)."""
    me = state.to_move if player is None else player
    lanes = tuple(_norm(tuple(OWN if c == me else OTHER for c in lane)) for lane in state.lanes)
    own = state.stocks[me][me]
    fresh = sum(state.fresh) if me == state.to_move else 0
    return lanes, own, state.stock_size(me) - own - fresh, fresh


class Finisher:
    """Memoised values for one rules set (shared across queries and turn counts)."""

    def __init__(self, rules: Rules, deadline: float | None = None) -> None:
        self.rules = rules
        self.d = rules.faces ** rules.dice
        self.rolls = [(dice, count, roll_sequences(rules, dice)) for dice, count in
                      all_rolls(rules)]
        self.per_turn = 2 * rules.dice - 1  # most chips one turn can shed
        self.splits = {dice: tuple(tuple(sum(g) for g in split)
                                   for split in roll_splits(rules, dice))
                       for dice, _ in all_rolls(rules)}
        self.orders = {split: tuple(sorted(set(itertools.permutations(split))))
                       for splits in self.splits.values() for split in splits}
        self.main: dict[tuple[int, int], int] = {}
        self.bonus: dict[tuple[int, int], int] = {}
        self.results: dict[tuple[int, tuple[int, ...]], list[tuple[int, bool, bool]]] = {}
        self.deadline = deadline
        self.calls = 0
        self._tables()

    # ---------------------------------------------------------------- moves
    # A view is packed into one integer: each lane's pattern (2**capacity of them) in
    # `capacity` bits, then own and other chips in 8 bits each; placing a chip is a
    # table lookup and integer arithmetic.
    def _tables(self) -> None:
        r = self.rules
        cap = r.capacity
        pats: list[tuple[int, ...]] = [()]
        for k in range(1, cap + 1):
            pats += [tuple(p) + (OWN,) for p in itertools.product((OWN, OTHER), repeat=k - 1)]
        self.patterns = pats
        self.pat_index = {p: i for i, p in enumerate(pats)}
        self.mask = (1 << cap) - 1
        self.shift = [cap * lane for lane in range(r.lanes + 1)]
        self.s_own = cap * (r.lanes + 1)
        self.s_other = self.s_own + 8
        self.s_fresh = self.s_other + 8
        # where the other chips a penalty takes go: not due before the next turn, or due
        self.s_taken = self.s_fresh if r.next_turn else self.s_other
        self.trans = {}
        for colour in (OWN, OTHER):
            row = []
            for p in pats:
                lanes = ((),) * (r.lanes + 1)
                lanes = lanes[:1] + (p,) + lanes[2:]
                own0 = 1 if colour == OWN else 0
                other0 = 1 - own0
                nl, own, other, _ = self._place_tuple((lanes, own0, other0, 0), 1)
                row.append((self.pat_index[nl[1]], own, other))
            self.trans[colour] = row

    def pack(self, view: View) -> int:
        lanes, own, other, fresh = view
        v = (own << self.s_own) | (other << self.s_other) | (fresh << self.s_fresh)
        for lane, content in enumerate(lanes):
            if lane and lane != self.rules.hippo:
                v |= self.pat_index[content] << self.shift[lane]
        return v

    def unpack(self, v: int) -> View:
        lanes = tuple(() if lane == 0 or lane == self.rules.hippo else
                      self.patterns[(v >> self.shift[lane]) & self.mask]
                      for lane in range(self.rules.lanes + 1))
        return (lanes, (v >> self.s_own) & 255, (v >> self.s_other) & 255,
                (v >> self.s_fresh) & 255)

    def _place_tuple(self, view: View, lane: int) -> View:
        """A due other chip if held, else an own chip, placed (the transition tables;
        taken chips counted as own / other)."""
        lanes, own, other, fresh = view
        colour = OTHER if other else OWN
        if colour == OTHER:
            other -= 1
        else:
            own -= 1
        r = self.rules
        if lane == r.hippo:
            return lanes, own, other, fresh
        content = (colour,) + lanes[lane]
        if len(content) > r.capacity:
            top = content[-1]
            content = content[:-1]
            if top == OWN:  # penalty: take the whole lane
                if r.penalty_takes_placed:
                    taken, left = content + (top,), ()
                else:
                    taken, left = content[1:] + (top,), content[:1]
                own += taken.count(OWN)
                other += taken.count(OTHER)
                content = left
        return lanes[:lane] + (_norm(content),) + lanes[lane + 1:], own, other, fresh

    def size(self, v: int) -> int:
        return (((v >> self.s_own) & 255) + ((v >> self.s_other) & 255)
                + ((v >> self.s_fresh) & 255))

    def new_turn(self, v: int) -> int:
        """The view at the start of a turn: the other chips taken last turn are due."""
        fresh = (v >> self.s_fresh) & 255
        if fresh:
            v += (fresh << self.s_other) - (fresh << self.s_fresh)
        return v

    def _step(self, v: int, lane: int, field: int, colour: int) -> tuple[int, bool]:
        """A chip of `colour` taken from the stock's `field` (its bit offset) and placed
        into `lane`: (view after, a penalty happened)."""
        v -= 1 << field
        if lane == self.rules.hippo:
            return v, False
        sh = self.shift[lane]
        pat = (v >> sh) & self.mask
        new, d_own, d_other = self.trans[colour][pat]
        return (v + ((new - pat) << sh) + (d_own << self.s_own) + (d_other << self.s_taken),
                bool(d_own or d_other))

    def _runs(self, v: int, seq: tuple[int, ...], i: int = 0, used: bool = False,
              penalty: bool = False) -> list[tuple[int, bool, bool]]:
        """Place a lane sequence from die i on: every (view after, lane 7 used, a penalty
        happened). One result, unless a chip may be own or one taken this turn: then
        both go on."""
        s_own, s_other, s_fresh = self.s_own, self.s_other, self.s_fresh
        hippo = self.rules.hippo
        for j in range(i, len(seq)):
            lane = seq[j]
            own = (v >> s_own) & 255
            other = (v >> s_other) & 255
            fresh = (v >> s_fresh) & 255
            if own + other + fresh == 0:
                break
            used = used or lane == hippo
            if other:
                v, took = self._step(v, lane, s_other, OTHER)
            elif fresh and own:
                w, took_other = self._step(v, lane, s_fresh, OTHER)
                v, took = self._step(v, lane, s_own, OWN)
                return (self._runs(v, seq, j + 1, used, penalty or took)
                        + self._runs(w, seq, j + 1, used, penalty or took_other))
            elif fresh:
                v, took = self._step(v, lane, s_fresh, OTHER)
            else:
                v, took = self._step(v, lane, s_own, OWN)
            penalty = penalty or took
        return [(v, used, penalty)]

    def outcomes(self, view: int, dice: tuple[int, ...], seqs: tuple) -> list[
            tuple[int, bool, bool]]:
        """Distinct (view after, lane 7 used, stock emptied) of a roll.

        With only own chips in stock the order of a split's chips matters only through
        a penalty or the stock running out (identical chips, lanes independent): one
        order per split is placed, all orders only in those two cases."""
        key = (view, dice)
        found = self.results.get(key)
        if found is not None:
            return found
        out: dict[tuple[int, bool], bool] = {}
        if (view >> self.s_other) & 0xFFFF == 0:  # own chips only (none due, none fresh)
            todo = []
            size = self.size(view)
            for split in self.splits[dice]:
                runs = self._runs(view, split)  # several only after a penalty
                v, used, penalty = runs[0]
                if penalty or len(split) > size:  # the stock runs out: which chips?
                    todo.extend(self.orders[split])
                else:
                    won = self.size(v) == 0
                    out[(v, used and not won)] = won
        else:
            todo = list(seqs)
        for seq in todo:
            for v, used, _ in self._runs(view, seq):
                won = self.size(v) == 0
                out[(v, used and not won)] = won
        found = [(v, used, won) for (v, used), won in out.items()]
        if len(self.results) < 300_000:  # bounded memory (about 250 MB)
            self.results[key] = found
        return found

    # ---------------------------------------------------------------- values
    def _tick(self) -> None:
        self.calls += 1
        if self.deadline is not None and self.calls % 64 == 0 and \
                time.perf_counter() > self.deadline:
            raise TimeLimitReached("finishing chances: time limit reached "
                                   "(try fewer --turns or a larger --time-limit)")

    def value_main(self, n: int, view: int) -> int:
        """Chance (times D^(2n)) to empty the stock within n turns, starting a turn."""
        view = self.new_turn(view)
        size = self.size(view)
        if size == 0:
            return self.d ** (2 * n)
        if n == 0 or size > self.per_turn * n:
            return 0
        key = (n, view)
        v = self.main.get(key)
        if v is not None:
            return v
        self._tick()
        win = self.d ** (2 * n - 1)
        total = 0
        for dice, count, seqs in self.rolls:
            best = 0
            for after, used, won in self.outcomes(view, dice, seqs):
                if won:
                    best = win
                    break
                val = (self.value_bonus(n, after) if used
                       else self.value_main(n - 1, after) * self.d)
                if val > best:
                    best = val
            total += count * best
        self.main[key] = total
        return total

    def value_bonus(self, n: int, view: int) -> int:
        """Chance (times D^(2n-1)) to empty the stock within n turns, the first of
        which continues with its bonus roll now."""
        size = self.size(view)
        if size == 0:
            return self.d ** (2 * n - 1)
        if size > self.rules.dice + self.per_turn * (n - 1):
            return 0
        key = (n, view)
        v = self.bonus.get(key)
        if v is not None:
            return v
        self._tick()
        win = self.d ** (2 * n - 2)
        total = 0
        for dice, count, seqs in self.rolls:
            best = 0
            for after, _, won in self.outcomes(view, dice, seqs):
                if won:
                    best = win
                    break
                val = self.value_main(n - 1, after)
                if val > best:
                    best = val
            total += count * best
        self.bonus[key] = total
        return total

    def chance(self, n: int, view: int, bonus: bool) -> Fraction:
        if bonus:
            return Fraction(self.value_bonus(n, view), self.d ** (2 * n - 1))
        return Fraction(self.value_main(n, view), self.d ** (2 * n))

    # ---------------------------------------------------------------- best case
    def possible(self, n: int, view: int, bonus: bool, memo: dict) -> bool:
        """Can some sequence of dice empty the stock within n turns?"""
        if not bonus:
            view = self.new_turn(view)
        size = self.size(view)
        if size == 0:
            return True
        limit = (self.rules.dice if bonus else 0) + self.per_turn * (n - (1 if bonus else 0))
        if n == 0 or size > limit:
            return False
        key = (n, view, bonus)
        if key in memo:
            return memo[key]
        self._tick()
        ok = False
        for dice, _, seqs in self.rolls:
            for after, used, won in self.outcomes(view, dice, seqs):
                if won or (self.possible(n, after, True, memo) if used and not bonus
                           else self.possible(n - 1, after, False, memo)):
                    ok = True
                    break
            if ok:
                break
        memo[key] = ok
        return ok


@dataclass
class FinishRow:
    turns: int
    chance: float
    exact: str  # the same as a fraction


@dataclass
class FinishResult:
    """Chances to empty the stock within 1..N own turns (each with the play that
    maximises that chance), nobody else moving; the best case in turns."""

    player: str
    stock: int
    bonus_roll: bool
    turns: int
    chance: float
    exact: str
    best_case_turns: int | None  # None: not within the turns searched
    by_turns: list[FinishRow]
    proven: bool
    method: str
    states: int
    seconds: float


def finish(state: GameState, turns: int, time_limit: float | None = None,
           best_case_limit: int = 12) -> FinishResult:
    """Exact chances for 1..turns own turns and the fewest turns possible."""
    if state.is_terminal():
        raise BadInput("the game is over: the stock is already empty")
    if turns < 1:
        raise BadInput("--turns must be at least 1")
    start = time.perf_counter()
    f = Finisher(state.rules, None if time_limit is None else start + time_limit)
    view = f.pack(view_of(state))
    best = None
    memo: dict = {}
    for n in range(1, max(turns, best_case_limit) + 1):
        if f.possible(n, view, state.bonus, memo):
            best = n
            break
    rows = []
    with live_status("exact chance", time_limit, unit="turns", since=start) as status:
        for n in range(1, turns + 1):
            p = f.chance(n, view, state.bonus)
            rows.append(FinishRow(n, round(float(p), 6), str(p)))
            status.step(n, turns)
    p = f.chance(turns, view, state.bonus)
    return FinishResult(
        state.colours[state.to_move], state.stock_size(state.to_move), state.bonus, turns,
        round(float(p), 6), str(p), best, rows, True,
        "exact DP over the player's view (own/other fields, own/other chips in stock), "
        "integer numerators over 216 per roll, maximising the chance for each N",
        len(f.main) + len(f.bonus), round(time.perf_counter() - start, 3))
