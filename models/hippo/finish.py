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
- chance moves are the distinct dice multisets (56 for three dice) with their counts
  among the 216 ordered throws;
- values are integers: V_main(n) is the probability times D^(2n), V_bonus(n) times
  D^(2n-1) (D = 216 outcomes of the dice; a turn has at most two rolls), so the maxima
  and sums are exact; the result is reported as a Fraction and a float.

What makes it fast (each step exact; tests hold it equal to the plain DP):
- an upper bound: the same game without penalties and without lanes (only the stock's
  size and the splits of the dice count; `_bounds`). A roll's results are tried best
  bound first, and a result whose bound cannot beat the best value found is skipped
  (a win, worth the bound itself, stops the roll at once); splits with a penalty in
  them get the bound of a stock grown by a full lane and are tried last. Stocks the
  bound says are hopeless (0) are never visited;
- thresholds (Star1-style pruning of the dice averages): a position is valued with a
  threshold t; a value above t is exact, one at or below t only a bound from above
  (memoised as such, used again while it stays at or below the threshold asked). In
  the average over the rolls each roll counts at its bound until valued, each roll is
  valued with the threshold below which the sum stays at or below t whatever the
  roll is worth, and the rolls stop once the sum cannot exceed t. A roll's results
  are valued with the best value found so far as the threshold. Before the last turn
  a roll's bound counts the lanes: the last turn from the stock less the split's
  chips with the lanes' rooms now (it is worth no more with less room);
- with three or more turns left all results of a roll are gathered and the one likely
  best (its chance within a turn fewer: known from the smaller N, or the last turn's
  or last roll's, cheap) is valued first, so the others meet a high threshold;
- the last roll of the horizon (the bonus roll of the last turn) is decided by the
  stock's size and, per lane, how many chips it takes before the player's own top chip
  is pushed out (capped at the size): within one roll no chip just placed can be pushed
  out again (capacity >= dice) and a penalty leaves too many chips to finish, so the
  colours do not matter there. Those "last roll" answers are memoised on that canonical
  key (the rooms packed into one integer), and a roll wins at once iff some choice of
  `size` groups of a split fits the lanes' room (precomputed per roll);
- the last turn likewise is valued on the stock's size and the rooms alone (and the
  due other chips when the stock is larger than an empty lane's room: one of them
  placed into an empty lane takes no room), where no line with a penalty can still
  finish; only a win now or a split making 7 counts there.
The best case (fewest turns if the dice are kind) is the smallest n with a chance > 0,
found by a yes/no search over the same states.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from models.hippo.dice import all_rolls, roll_splits
from models.hippo.rules import Rules
from models.hippo.state import GameState
from solver.errors import BadInput, TimeLimitReached
from solver.progress import live_status

OWN, OTHER = 1, 2
# (lanes, own chips, other chips due, other chips taken this turn and not yet due)
View = tuple[tuple[tuple[int, ...], ...], int, int, int]
# a result of a roll: (view after, lane 7 used (a bonus roll follows), stock emptied)
Outcome = tuple[int, bool, bool]
MAX_STOCK = 255  # 8 bits per stock count in a packed view


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
        self.per_turn = 2 * rules.dice - 1  # most chips one turn can shed
        rolls = all_rolls(rules)
        self.splits = {dice: tuple(tuple(sum(g) for g in split)
                                   for split in roll_splits(rules, dice))
                       for dice, _ in rolls}
        self.rolls = [(dice, count, self.splits[dice]) for dice, count in rolls]
        self.orders = {split: tuple(sorted(set(itertools.permutations(split))))
                       for splits in self.splits.values() for split in splits}
        # the splits that put a chip into Mr. Hippo's lane (the only ones that can
        # earn a bonus roll)
        # a split as (bit offset of the lane, chips into it), Mr. Hippo's lane left out
        self.split_lanes = {split: tuple((rules.capacity * lane, k) for lane, k in
                                         sorted(Counter(split).items()) if lane != rules.hippo)
                            for split in self.orders}
        # the colours k chips that are not due can take (own, or taken this turn)
        self.colourings = [tuple(itertools.product((OWN, OTHER), repeat=k))
                           for k in range(rules.dice + 1)]
        self.added: dict[tuple[int, tuple[int, ...]], int] = {}
        self.coloured: dict[tuple, tuple[int, ...]] = {}
        self.ordered: dict[tuple, tuple[tuple[int, bool, bool], ...]] = {}
        self.hippo_splits = {dice: tuple(s for s in splits if rules.hippo in s)
                             for dice, splits in self.splits.items()}
        self.main: dict[tuple[int, int], int] = {}
        self.bonus: dict[tuple[int, int], int] = {}
        self.results: dict[tuple[int, tuple[int, ...]], list[Outcome]] = {}
        self.deadline = deadline
        self.calls = 0
        self._tables()
        # the last-roll shortcut needs every chip of a roll to stay in its lane
        self.fast_last = rules.capacity >= rules.dice
        self._needs()
        self.last_by_lanes: dict[int, int] = {}
        self.last_by_room: dict[int, int] = {}
        # The last turn is decided by the stock and the lanes' room capped at the stock's
        # size when no line with a penalty in it can still finish: a penalty on the
        # first roll (a bonus split sheds at most dice - 1 chips) takes at least the
        # full lane back, too many for the bonus roll, from a stock of 2 or more (a stock
        # of 1 with a split making 7 wins at once). Then a lane with room for the whole
        # stock never stops a placement, and the lanes' colours never matter.
        # the fewest chips a penalty gives back: the full lane (and the chip placed)
        self.taken = rules.capacity + (1 if rules.penalty_takes_placed else 0)
        self.canon_last_turn = self.fast_last and self.taken + 3 > 2 * rules.dice
        self.last_turn_by_room: dict[tuple[int, int, int], int] = {}
        self.last_turn_by_lanes: dict[int, int] = {}
        self.backs: dict[tuple, tuple[int, ...]] = {}
        self.two_turns: dict[tuple[int, int], int] = {}
        # per roll, its splits making 7 as (chips, ((lane, chips), ...) without lane 7)
        self.seven_lanes = {dice: tuple((len(s), tuple((self.rpos[lane], k) for lane, k in
                                                       sorted(Counter(s).items())
                                                       if lane != rules.hippo))
                                        for s in splits)
                            for dice, splits in self.hippo_splits.items()}
        self.ub_main: list[list[int]] = []
        self.ub_bonus: list[list[int]] = []
        self.split_orders: dict[tuple, list[tuple[int, int, tuple[int, ...]]]] = {}
        self.roll_bounds: dict[tuple[int, int, bool], tuple[list[int], int]] = {}
        self.two_from_end: dict[tuple, tuple[int, tuple]] = {}
        self.rooms_bounds: dict[tuple, tuple[list[int], int]] = {}
        self._bounds(1)

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
        # room of a lane: chips it takes before the player's top chip is pushed out
        self.room = [cap - len(p) if p else cap for p in pats]
        self.mask = (1 << cap) - 1
        self.shift = [cap * lane for lane in range(r.lanes + 1)]
        self.s_own = cap * (r.lanes + 1)
        self.s_other = self.s_own + 8
        self.s_fresh = self.s_other + 8
        self.lanes_mask = (1 << self.s_own) - 1
        self.play_lanes = [lane for lane in range(1, r.lanes + 1) if lane != r.hippo]
        self.play_shifts = [self.shift[lane] for lane in self.play_lanes]
        # the lanes' rooms packed into one integer, rbits bits a lane (`_rooms`); capped
        # chunk by chunk with tables (`_cap`)
        self.rbits = max(1, cap.bit_length())
        self.rmask = (1 << self.rbits) - 1
        self.rpos = [self.rbits * lane for lane in range(r.lanes + 1)]
        self.rchunk = max(1, 12 // self.rbits) * self.rbits
        self.rchunks = list(range(0, self.rbits * (r.lanes + 1), self.rchunk))
        self.cap_tabs: dict[int, list[int]] = {}
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
        # k own chips pushed into a lane that has room for them (no penalty)
        self.push = [list(range(len(pats)))]
        for _ in range(r.dice):
            self.push.append([self.trans[OWN][p][0] for p in self.push[-1]])

    def pack(self, view: View) -> int:
        lanes, own, other, fresh = view
        if max(own, other, fresh) > MAX_STOCK:
            raise BadInput(f"finishing chances: a stock of more than {MAX_STOCK} chips")
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
        if d_own or d_other:
            if ((v >> self.s_own) & 255) + d_own > MAX_STOCK or \
                    ((v >> self.s_taken) & 255) + d_other > MAX_STOCK:
                raise BadInput(f"finishing chances: a stock of more than {MAX_STOCK} chips")
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

    def _split_results(self, view: int, split: tuple[int, ...], size: int,
                       out: dict[tuple[int, bool], bool]) -> None:
        """Add the distinct results of placing one split's chips to `out`.

        With only own chips in stock the order of the chips matters only through a
        penalty or the stock running out (identical chips, lanes independent): one
        order is placed, all orders only in those two cases."""
        g = len(split)
        if (view >> self.s_other) & 0xFFFF == 0 and g <= size:  # own chips only
            v = view - (g << self.s_own)
            room, push, mask = self.room, self.push, self.mask
            for sh, k in self.split_lanes[split]:
                pat = (v >> sh) & mask
                if room[pat] < k:
                    break  # a penalty: every order below
                v += (push[k][pat] - pat) << sh
            else:
                won = g == size
                out[(v, self.rules.hippo in split and not won)] = won
                return
        elif self.fast_last and g <= size and self._coloured(view, split, out):
            return
        # every order, one by one; memoised as changes to the view by the split's lanes'
        # patterns and the stock's counts capped at g + 1 (enough for every chip to
        # come from any count, and a capped stock never runs out)
        mask, cap = self.mask, g + 1
        pats = tuple((view >> sh) & mask for sh, _ in self.split_lanes[split])
        own = min(cap, (view >> self.s_own) & 255)
        other = min(cap, (view >> self.s_other) & 255)
        fresh = min(cap, (view >> self.s_fresh) & 255)
        key = (split, pats, own, other, fresh)
        found = self.ordered.get(key)
        if found is None:
            rep = (own << self.s_own) | (other << self.s_other) | (fresh << self.s_fresh)
            for (sh, _), pat in zip(self.split_lanes[split], pats, strict=True):
                rep |= pat << sh
            seen: dict[tuple[int, bool], bool] = {}
            for seq in self.orders[split]:
                for v, used, _ in self._runs(rep, seq):
                    won = self.size(v) == 0
                    seen[(v - rep, used and not won)] = won
            found = self.ordered[key] = tuple((delta, used, won)
                                              for (delta, used), won in seen.items())
        for delta, used, won in found:
            out[(view + delta, used)] = won

    def _coloured(self, view: int, split: tuple[int, ...],
                  out: dict[tuple[int, bool], bool]) -> bool:
        """The results of a split without a penalty when the stock holds other chips
        (and at least the split's chips): False if a lane lacks room (then the orders
        are placed one by one). No chip placed in a roll is pushed out in it (capacity
        >= dice), so a result is only which chips went where: the due other chips go
        first, so in each lane above the rest; each other chip is own or (next turn) one
        taken this turn, in any order. Far fewer than orders x colourings; memoised as
        changes to the view by the split's lanes' patterns and the stock (capped at the
        split's chips)."""
        g = len(split)
        own = (view >> self.s_own) & 255
        other = (view >> self.s_other) & 255
        fresh = (view >> self.s_fresh) & 255
        mask = self.mask
        pats = tuple((view >> sh) & mask for sh, _ in self.split_lanes[split])
        key = (split, pats, min(own, g), min(other, g), min(fresh, g))
        deltas = self.coloured.get(key)
        if deltas is None:
            deltas = self.coloured[key] = self._deltas(split, pats, *key[2:])
        if not deltas:
            return False
        won = g == own + other + fresh
        used = self.rules.hippo in split and not won
        for delta in deltas:
            out[(view + delta, used)] = won
        return True

    def _deltas(self, split: tuple[int, ...], pats: tuple[int, ...], own: int, other: int,
                fresh: int) -> tuple[int, ...]:
        """See `_coloured`: the distinct changes to a view, () if a lane lacks room."""
        lanes = []
        for (sh, k), pat in zip(self.split_lanes[split], pats, strict=True):
            if self.room[pat] < k:
                return ()
            lanes.append((sh, k, pat))
        due = min(other, len(split))
        seven = len(split) - sum(k for _, k, _ in lanes)  # chips into Mr. Hippo's lane
        found: set[int] = set()

        def go(i: int, v: int, due_left: int, own_left: int, fresh_left: int) -> None:
            if i == len(lanes):  # Mr. Hippo's lane takes the rest, colours alike there
                if due_left > seven:
                    return
                rest = seven - due_left
                for f in range(max(0, rest - own_left), min(rest, fresh_left) + 1):
                    found.add(v - ((rest - f) << self.s_own) - (f << self.s_fresh))
                return
            sh, k, pat = lanes[i]
            for d in range(min(k, due_left) + 1):
                for seq in self.colourings[k - d]:  # non-due chips, bottom first
                    f = seq.count(OTHER)
                    if f > fresh_left or k - d - f > own_left:
                        continue
                    new = self._added(pat, seq + (OTHER,) * d)
                    go(i + 1, v + ((new - pat) << sh) - ((k - d - f) << self.s_own)
                       - (f << self.s_fresh), due_left - d, own_left - (k - d - f),
                       fresh_left - f)

        go(0, -(due << self.s_other), due, own, fresh)
        return tuple(sorted(found))

    def _added(self, pat: int, chips: tuple[int, ...]) -> int:
        """A lane's pattern with chips (bottom first) added below, no penalty."""
        key = (pat, chips)
        new = self.added.get(key)
        if new is None:
            content = chips + self.patterns[pat]
            new = self.added[key] = self.pat_index[_norm(content)]
        return new

    def outcomes(self, view: int, dice: tuple[int, ...], seqs: object = None
                 ) -> list[Outcome]:
        """Distinct (view after, lane 7 used, stock emptied) of a roll (`seqs`: unused,
        kept for callers of the earlier signature)."""
        key = (view, dice)
        found = self.results.get(key)
        if found is not None:
            return found
        out: dict[tuple[int, bool], bool] = {}
        size = self.size(view)
        for split in self.splits[dice]:
            self._split_results(view, split, size, out)
        found = [(v, used, won) for (v, used), won in out.items()]
        if len(self.results) < 200_000:  # bounded memory
            self.results[key] = found
        return found

    # ---------------------------------------------------------------- the last roll
    def _needs(self) -> None:
        """Per roll and stock size k <= dice: the ways to place k chips of one split
        as room needed per lane ((lane, chips), ...); Mr. Hippo's lane needs none."""
        self.needs: dict[tuple[tuple[int, ...], int], tuple[tuple[tuple[int, int], ...],
                                                            ...]] = {}
        for dice, splits in self.splits.items():
            for k in range(1, self.rules.dice + 1):
                ways: set[tuple[tuple[int, int], ...]] = set()
                for split in splits:
                    for groups in itertools.combinations(split, k):
                        ways.add(tuple(sorted(Counter(g for g in groups
                                                      if g != self.rules.hippo).items())))
                self.needs[(dice, k)] = tuple(tuple((self.rpos[lane], n) for lane, n in way)
                                              for way in sorted(ways, key=len))
        # the packed rooms of the lanes a roll can reach (Mr. Hippo's left out)
        self.dice_rmask = {dice: sum(self.rmask << self.rpos[lane]
                                     for lane in {g for split in splits for g in split}
                                     if lane != self.rules.hippo)
                           for dice, splits in self.splits.items()}
        self.wins: dict[tuple[tuple[int, ...], int, int], bool] = {}
        self.split_rooms = {split: tuple((self.rpos[lane], k) for lane, k in
                                         sorted(Counter(split).items())
                                         if lane != self.rules.hippo)
                            for split in self.orders}
        self.roll_shapes: dict[tuple, tuple[int, tuple[int, ...]]] = {}

    def _rooms(self, v: int, size: int) -> int:
        """Each lane's room (see `_tables`) capped at `size`, packed (`rpos`); the key of
        the last roll (and of a win now) as far as the lanes go."""
        room, mask, shift, rpos = self.room, self.mask, self.shift, self.rpos
        rooms = 0
        for lane in self.play_lanes:
            r = room[(v >> shift[lane]) & mask]
            rooms |= (r if r < size else size) << rpos[lane]
        return rooms

    def _cap(self, rooms: int, size: int) -> int:
        """Packed rooms capped at `size`."""
        tab = self.cap_tabs.get(size)
        chunk, bits, rmask = self.rchunk, self.rbits, self.rmask
        if tab is None:
            tab = self.cap_tabs[size] = [
                sum(min((x >> j) & rmask, size) << j for j in range(0, chunk, bits))
                for x in range(1 << chunk)]
        m = (1 << chunk) - 1
        out = 0
        for sh in self.rchunks:
            out |= tab[(rooms >> sh) & m] << sh
        return out

    def _wins_now(self, dice: tuple[int, ...], size: int, rooms: int) -> bool:
        """Can this roll empty a stock of `size` <= dice chips at once? (fast_last;
        memoised on the rooms of the roll's lanes)"""
        key = (dice, size, rooms & self.dice_rmask[dice])
        found = self.wins.get(key)
        if found is None:
            rmask = self.rmask
            found = False
            for need in self.needs[(dice, size)]:
                for pos, k in need:
                    if (rooms >> pos) & rmask < k:
                        break
                else:
                    found = True
                    break
            self.wins[key] = found
        return found

    def last_roll(self, v: int) -> int:
        """The number of the D throws that empty the stock at once: the value of the
        last roll of the horizon (the last turn's bonus roll)."""
        size = self.size(v)
        if size == 0:
            return self.d
        if size > self.rules.dice:
            return 0
        # with the shortcut the lanes and the size are the key, else the whole view
        key = (v & self.lanes_mask) | (size << self.s_own) if self.fast_last else v
        found = self.last_by_lanes.get(key)
        if found is not None:
            return found
        if self.fast_last:
            rooms = self._rooms(v, size)
            canon = (rooms << 8) | size
            found = self.last_by_room.get(canon)
            if found is None:
                found = sum(count for dice, count, _ in self.rolls
                            if self._wins_now(dice, size, rooms))
                self.last_by_room[canon] = found
        else:  # colours may matter: the view itself is the key
            found = sum(count for dice, count, _ in self.rolls
                        if any(won for _, _, won in self.outcomes(v, dice)))
        self.last_by_lanes[key] = found
        return found

    def _last_turn_rooms(self, size: int, other: int, rooms: int) -> int:
        """V_main(1) from the stock's size, the other chips due in it and the lanes' rooms
        capped at the size (see `canon_last_turn`): a win now, else the best split
        making 7 that fits the rooms (one with a penalty leaves too many chips), valued
        by its last roll. No line with a penalty finishes, a lane with room for the
        whole stock never stops a placement, and a chip placed takes one field of room,
        except one of another colour placed into an empty lane (below the chips placed
        after it, so it is pushed out first): that matters only when the stock is larger
        than an empty lane's room, and then the due other chips (placed first) may go
        to any of the split's groups."""
        d, dice_n, cap = self.d, self.rules.dice, self.rules.capacity
        last_by_room, rmask = self.last_by_room, self.rmask
        total = 0
        for dice, count, _ in self.rolls:
            if size <= dice_n and self._wins_now(dice, size, rooms):
                total += count * d
                continue
            best = 0
            for g, lanes in self.seven_lanes[dice]:
                left = size - g
                if left <= 0 or left > dice_n:
                    continue
                new = rooms
                for pos, k in lanes:
                    if (new >> pos) & rmask < k:
                        break
                    new -= k << pos
                else:
                    for after in (self._given_back(new, rooms, lanes, min(other, g), g)
                                  if other and size > cap else (new,)):
                        after = self._cap(after, left)
                        key = (after << 8) | left
                        won = last_by_room.get(key)
                        if won is None:
                            won = last_by_room[key] = sum(
                                c for roll, c, _ in self.rolls
                                if self._wins_now(roll, left, after))
                        if won > best:
                            best = won
            total += count * best
        return total

    def _given_back(self, new: int, rooms: int, lanes: tuple[tuple[int, int], ...], m: int,
                    g: int) -> list[int]:
        """The rooms after a split (`new`, a field per chip) when m due other chips go
        first, each into any of its g groups: one placed into an empty lane takes no
        room there (memoised as the room given back, by which of the lanes are empty)."""
        cap, rmask = self.rules.capacity, self.rmask
        empty = tuple((pos, k) for pos, k in lanes if (rooms >> pos) & rmask == cap)
        key = (empty, m, g)
        backs = self.backs.get(key)
        if backs is None:
            elsewhere = g - sum(k for _, k in empty)
            backs = self.backs[key] = tuple(
                sum(b << pos for (pos, _), b in zip(empty, back, strict=True))
                for back in itertools.product(*(range(k + 1) for _, k in empty))
                if sum(back) <= m <= sum(back) + elsewhere)
        return [new + back for back in backs]

    def _last_turn(self, v: int, size: int) -> int:
        """V_main(1): a win now, else the best bonus roll (no other result counts)."""
        d = self.d
        rooms = self._rooms(v, size) if self.fast_last and size <= self.rules.dice else None
        total = 0
        for dice, count, _ in self.rolls:
            if rooms is not None and self._wins_now(dice, size, rooms):
                total += count * d
                continue
            best = 0
            out: dict[tuple[int, bool], bool] = {}
            if rooms is None and size <= self.rules.dice:  # no shortcut: every result
                for split in self.splits[dice]:
                    self._split_results(v, split, size, out)
            else:  # no win now: only a bonus roll can still finish
                for split in self.hippo_splits[dice]:
                    if size - len(split) <= self.rules.dice:
                        self._split_results(v, split, size, out)
            for (after, used), won in out.items():
                if won:
                    best = d
                    break
                if used and best < d:
                    best = max(best, self.last_roll(after))
            total += count * best
        return total

    # ---------------------------------------------------------------- bounds
    def _bounds(self, turns: int) -> None:
        """Upper bounds for 0..turns turns by stock size, on the values' scales: the
        chance when no penalty can happen and the lanes never matter (only the splits of
        the dice and lane 7's bonus roll), made non-increasing in the size. Every real
        result of a split leaves at least the chips the bound's result leaves."""
        d, top = self.d, MAX_STOCK + 1
        if len(self.ub_main) > turns:
            return
        self.ub_main, self.ub_bonus = [[d ** 0] + [0] * top], [[0] * (top + 1)]
        shapes = [(count, tuple((len(s), self.rules.hippo in s) for s in splits))
                  for _, count, splits in self.rolls]
        for n in range(1, turns + 1):
            prev = self.ub_main[n - 1]
            bonus = [d ** (2 * n - 1)] + [0] * top
            main = [d ** (2 * n)] + [0] * top
            for s in range(1, min(top, self.per_turn * n + 1)):
                bonus[s] = sum(count * max(d ** (2 * n - 2) if s <= g else prev[s - g]
                                           for g, _ in shape) for count, shape in shapes)
            for s in range(1, min(top, self.per_turn * n + 1)):
                main[s] = sum(count * max(d ** (2 * n - 1) if s <= g else
                                          bonus[s - g] if seven else prev[s - g] * d
                                          for g, seven in shape) for count, shape in shapes)
            for row in (bonus, main):
                for s in range(top - 1, 0, -1):
                    row[s] = max(row[s], row[s + 1])
            self.ub_bonus.append(bonus)
            self.ub_main.append(main)

    def upper(self, n: int, size: int, bonus: bool) -> Fraction:
        """The bound as a chance (see `_bounds`)."""
        self._bounds(n)
        if bonus:
            return Fraction(self.ub_bonus[n][min(size, MAX_STOCK)], self.d ** (2 * n - 1))
        return Fraction(self.ub_main[n][min(size, MAX_STOCK)], self.d ** (2 * n))

    # ---------------------------------------------------------------- values
    def _tick(self) -> None:
        self.calls += 1
        if self.deadline is not None and self.calls % 32 == 0 and \
                time.perf_counter() > self.deadline:
            raise TimeLimitReached("finishing chances: time limit reached "
                                   "(try fewer --turns or a larger --time-limit)")

    def _split_order(self, n: int, size: int, dice: tuple[int, ...], bonus_next: bool
                     ) -> list[tuple[int, int, tuple[int, ...]]]:
        """A roll's splits with their bounds, best first: (bound, bound if a lane lacks
        room for the split's chips, split). The bound is a win when the split holds the
        whole stock, else the bonus roll's or the next turn's with the split's chips
        shed; a penalty (g <= size: every order places every chip, the penalty lane's
        too) gives back at least the full lane. Hopeless splits are left out."""
        key = (n, size, dice, bonus_next)
        found = self.split_orders.get(key)
        if found is None:
            d, hippo = self.d, self.rules.hippo
            win = d ** (2 * n - (1 if bonus_next else 2))

            def bound(split: tuple[int, ...], left: int) -> int:
                if bonus_next and hippo in split:
                    return self.ub_bonus[n][left]
                return self.ub_main[n - 1][left] * (d if bonus_next else 1)

            found = []
            for split in self.splits[dice]:
                g = len(split)
                if size <= g:
                    found.append((win, win, split))
                else:
                    ub = bound(split, size - g)
                    if ub:
                        found.append((ub, bound(split, min(MAX_STOCK, size - g + self.taken)),
                                      split))
            found.sort(key=lambda x: -x[0])
            self.split_orders[key] = found
        return found

    def _average(self, n: int, view: int, size: int, win: int, bonus_next: bool,
                 t: int) -> int:
        """The rolls' values weighted by their counts, with a threshold t (see
        `value_main`). Star1-style: a roll counts at its bound until it is valued; each
        is valued with the threshold below which the sum stays at most t whatever the
        roll is worth, and the rolls stop once the sum cannot exceed t."""
        if t < 0:
            rooms = self._room_at(view)
            return sum(count * self._best(n, view, size, dice, win, bonus_next, rooms, -1)
                       for dice, count, _ in self.rolls)
        ubs, total = self._roll_bounds(n, size, bonus_next)
        if n <= 3 and self.canon_last_turn and total > t:
            ubs, total = self._last_roll_bounds(n, view, size, bonus_next, ubs)
        if total <= t:
            return total
        on_rooms = self._on_rooms(n, view)
        # the rooms once for every roll (packed for `_two_from_end`)
        packed = self._rooms(view, size) if on_rooms else 0
        rooms = None if on_rooms else self._room_at(view)
        for (dice, count, _), ub in zip(self.rolls, ubs, strict=True):
            if not ub:
                continue
            th = (t - total + count * ub) // count
            val = (self._two_from_end(view, size, dice, win, bonus_next, th, packed)
                   if on_rooms else
                   self._best(n, view, size, dice, win, bonus_next, rooms, th))
            if val < ub:
                total -= count * (ub - val)
                if total <= t:
                    return total
        return total

    def _last_roll_bounds(self, n: int, view: int, size: int, bonus_next: bool,
                          ubs: list[int]) -> tuple[list[int], int]:
        """Tighter bounds of the rolls before the last turn (of the bonus roll, or of
        the first roll for a split not making 7; other splits keep theirs): a split
        without a penalty leaves g chips fewer and lanes with at most the room they have
        now (a chip of another colour into an empty lane: as much), and the last turn
        is worth no more with less room or fewer due other chips (those placed into an
        empty lane give room back), so it is bounded by the last turn from the stock
        less g with the lanes' rooms now and as many due other chips as can be."""
        full = self._rooms(view, self.rules.capacity)
        key = (n, size, full, bonus_next)  # `ubs` follows from n, size and bonus_next
        found = self.rooms_bounds.get(key)
        if found is None:
            if n == 3:  # three turns from the end: two turns' bound on the rooms
                by_g = {g: self._two_turn_bound(size - g, full)
                        for g in range(1, self.rules.dice + 1)}
            else:
                by_g = self._last_turns(size, full)
            found = self.rooms_bounds[key] = self._rolls_bounded(n, size, full, bonus_next,
                                                                 ubs, by_g)
        return found

    def _last_turns(self, size: int, full: int) -> dict[int, int]:
        """The last turn (exact, on the rooms `full` capped) from the stock less g
        chips, for g = 1..dice (0 when hopeless; g >= size is a win elsewhere)."""
        cap = self.rules.capacity
        by_g = {}
        for g in range(1, self.rules.dice + 1):
            left = size - g
            if 0 < left <= self.per_turn:
                other = min(self.rules.dice, left) if left > cap else 0
                rs = self._cap(full, left)
                canon = (left, other, rs)
                val = self.last_turn_by_room.get(canon)
                if val is None:
                    val = self.last_turn_by_room[canon] = self._last_turn_rooms(left, other, rs)
                by_g[g] = val
        return by_g

    def _two_turn_bound(self, size: int, full: int) -> int:
        """A bound (times D^4) of the chance within two turns from a turn's start with
        `size` chips and lanes with at most the rooms `full`: each roll's splits as in
        `_split_order` two turns from the end, a split not making 7 bounded by the
        larger of its penalty bound and the last turn on the rooms (whether it has a
        penalty depends on rooms not known here); no more with less room."""
        d = self.d
        if size <= 0:
            return d ** 4
        if size > 2 * self.per_turn:
            return 0
        key = (size, full)
        found = self.two_turns.get(key)
        if found is None:
            self._bounds(2)
            by_g = self._last_turns(size, full)
            hippo = self.rules.hippo
            found = 0
            for dice, count, _ in self.rolls:
                ub = 0
                for bound, pen, split in self._split_order(2, size, dice, True):
                    g = len(split)
                    if g >= size or hippo in split:
                        val = bound
                    else:
                        val = min(bound, max(pen, by_g.get(g, 0) * d))
                    if val > ub:
                        ub = val
                found += count * ub
            self.two_turns[key] = found
        return found

    def _rolls_bounded(self, n: int, size: int, full: int, bonus_next: bool,
                       ubs: list[int], by_g: dict[int, int]) -> tuple[list[int], int]:
        """The rolls' bounds from `by_g` (see `_last_roll_bounds`)."""
        found = []
        total = 0
        rmask, split_rooms, hippo = self.rmask, self.split_rooms, self.rules.hippo
        scale = self.d if bonus_next else 1  # the last turn follows a whole turn
        for (dice, count, _), top in zip(self.rolls, ubs, strict=True):
            # the roll's bound from its splits, memoised on the rooms of its lanes as
            # (the most a win or a penalty bounds it by, the chips of the other splits)
            key = (n, size, dice, full & self.dice_rmask[dice], bonus_next)
            shape = self.roll_shapes.get(key)
            if shape is None:
                fixed, chips = 0, set()
                for bound, pen, split in self._split_order(n, size, dice, bonus_next):
                    g = len(split)
                    if g >= size or (bonus_next and hippo in split):
                        fixed = max(fixed, bound)
                        continue
                    for pos, k in split_rooms[split]:
                        if (full >> pos) & rmask < k:
                            fixed = max(fixed, pen)
                            break
                    else:
                        chips.add(g)
                shape = self.roll_shapes[key] = (fixed, tuple(chips))
            ub = shape[0]
            for g in shape[1]:
                val = by_g.get(g, 0) * scale
                if val > ub:
                    ub = val
            if ub > top:
                ub = top
            found.append(ub)
            total += count * ub
        return found, total

    def _roll_bounds(self, n: int, size: int, bonus_next: bool) -> tuple[list[int], int]:
        """Each roll's bound (its best split's, see `_split_order`) and their weighted
        sum."""
        key = (n, size, bonus_next)
        found = self.roll_bounds.get(key)
        if found is None:
            ubs = []
            for dice, _, _ in self.rolls:
                order = self._split_order(n, size, dice, bonus_next)
                ubs.append(order[0][0] if order else 0)
            found = self.roll_bounds[key] = (
                ubs, sum(ub * count for ub, (_, count, _) in zip(ubs, self.rolls, strict=True)))
        return found

    def _best(self, n: int, view: int, size: int, dice: tuple[int, ...], win: int,
              bonus_next: bool, rooms: list[int] | None, t: int) -> int:
        """The most a roll is worth: a win, else the best of the bonus roll (when lane 7
        is used and `bonus_next`) or the next turn; with a threshold t (see
        `value_main`). Splits and their results are tried best bound first; one whose
        bound cannot beat the best value found (or t) is not placed or valued (every
        real result of a split is bounded by the split's bound). `rooms` (fast_last:
        each lane's room by its bit offset): a split with a penalty in it has the lower
        bound of a stock grown by a full lane, so those splits wait until the others
        are done, best first."""
        if self._on_rooms(n, view):
            return self._two_from_end(view, size, dice, win, bonus_next, t,
                                      self._rooms(view, size))
        order = self._split_order(n, size, dice, bonus_next)
        if n > 2:
            return self._best_ordered(n, view, size, order, win, bonus_next, t)
        best = high = 0  # the best value reached; the most one at or below t can be
        deferred: list[tuple[int, tuple[int, ...]]] = []
        split_lanes = self.split_lanes
        for bound, pen, split in order:
            cut = best if best > t else t
            if bound <= cut:
                if bound > high:
                    high = bound
                break
            if rooms is not None and len(split) <= size:
                for sh, k in split_lanes[split]:
                    if rooms[sh] < k:
                        break
                else:
                    sh = -1
                if sh >= 0:
                    deferred.append((pen, split))
                    continue
            best, high = self._try_split(n, view, size, split, bonus_next, best, high, t)
            if best >= win:
                return win
        if len(deferred) > 1:
            deferred.sort(key=lambda x: -x[0])
        return self._ranked_splits(n, view, size, deferred, win, bonus_next, best, high, t)

    def _ranked_splits(self, n: int, view: int, size: int,
                       ranked: list[tuple[int, tuple[int, ...]]] | tuple, win: int,
                       bonus_next: bool, best: int, high: int, t: int) -> int:
        """The end of `_best`: the splits `ranked` ((bound, split), best bound first)
        tried while their bound beats the best so far or t; the roll's value (a bound
        at or below t, see `value_main`)."""
        for bound, split in ranked:
            cut = best if best > t else t
            if bound <= cut:
                if bound > high:
                    high = bound
                break
            best, high = self._try_split(n, view, size, split, bonus_next, best, high, t)
            if best >= win:
                return win
        return best if best > t or best >= high else high

    def _on_rooms(self, n: int, view: int) -> bool:
        """Two turns from the end with only own chips in stock: the rolls are valued on
        the lanes' rooms (`_two_from_end`)."""
        return n == 2 and self.canon_last_turn and (view >> self.s_other) & 0xFFFF == 0

    def _two_from_end(self, view: int, size: int, dice: tuple[int, ...], win: int,
                      bonus_next: bool, t: int, rooms: int) -> int:
        """`_best` two turns from the end (the bonus roll before the last turn, or the
        first roll of the turn before it) with only own chips in stock. A split that
        fits the lanes' room and leads to the last turn leaves the stock less its chips
        and each lane that much less room, and the last turn is valued on the rooms
        alone, so those splits' best is memoised on the stock's size and the rooms
        (`rooms`: capped at the size; many views share them). The other splits (a
        penalty in them, or a bonus roll to come: the view decides) are tried after,
        best bound first, only when their bound beats the best found."""
        key = (dice, size, rooms, bonus_next)
        found = self.two_from_end.get(key)
        if found is None:
            found = self.two_from_end[key] = self._two_from_end_rooms(dice, size, rooms, win,
                                                                      bonus_next)
        best, rest = found
        if best >= win:
            return win
        return self._ranked_splits(2, view, size, rest, win, bonus_next, best, 0, t)

    def _two_from_end_rooms(self, dice: tuple[int, ...], size: int, rooms: int, win: int,
                            bonus_next: bool
                            ) -> tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]:
        """(the best of the splits that fit the rooms and lead to the last turn, the other
        splits with their bounds, best first): see `_two_from_end`."""
        if size <= self.rules.dice and self._wins_now(dice, size, rooms):
            return win, ()
        rmask, split_rooms, hippo = self.rmask, self.split_rooms, self.rules.hippo
        scale = self.d if bonus_next else 1  # the last turn follows a whole turn
        best = 0
        rest = []
        for bound, pen, split in self._split_order(2, size, dice, bonus_next):
            g = len(split)
            after = rooms
            for pos, k in split_rooms[split]:
                if (after >> pos) & rmask < k:
                    rest.append((bound if g >= size else pen, split))
                    break
                after -= k << pos
            else:
                if g >= size:  # fits, so a win (_wins_now says none: not reached)
                    return win, ()
                if bonus_next and hippo in split:
                    rest.append((bound, split))  # the bonus roll: the view decides
                    continue
                left = size - g
                if left <= self.per_turn:
                    rs = self._cap(after, left)
                    canon = (left, 0, rs)
                    val = self.last_turn_by_room.get(canon)
                    if val is None:
                        val = self.last_turn_by_room[canon] = \
                            self._last_turn_rooms(left, 0, rs)
                    if val * scale > best:
                        best = val * scale
        rest.sort(key=lambda x: -x[0])
        return best, tuple(rest)

    def _best_ordered(self, n: int, view: int, size: int,
                      order: list[tuple[int, int, tuple[int, ...]]], win: int,
                      bonus_next: bool, t: int) -> int:
        """`_best` where the results are searched further: every result of every split
        whose bound beats t is gathered, and the one likely best (`_guess`) is valued
        first, so that the others meet a high threshold."""
        d = self.d
        s_own, s_other, s_fresh = self.s_own, self.s_other, self.s_fresh
        ub_bonus, ub_next = self.ub_bonus[n], self.ub_main[n - 1]
        best = high = 0
        out: dict[tuple[int, bool], bool] = {}
        cands = []
        for bound, _, split in order:
            if bound <= t:
                if bound > high:
                    high = bound
                break
            out.clear()
            self._split_results(view, split, size, out)
            for (after, used), won in out.items():
                if won:
                    return win
                s = (((after >> s_own) & 255) + ((after >> s_other) & 255)
                     + ((after >> s_fresh) & 255))
                to_bonus = used and bonus_next
                ub = ub_bonus[s] if to_bonus else ub_next[s] * d if bonus_next else ub_next[s]
                if ub > t:
                    cands.append((self._guess(n, after, to_bonus), ub, to_bonus, after))
                elif ub > high:
                    high = ub
        if len(cands) > 1:
            cands.sort(reverse=True)
        best, high = self._children(n, [c[1:] for c in cands], bonus_next, best, high, t)
        return best if best > t or best >= high else high

    def _try_split(self, n: int, view: int, size: int, split: tuple[int, ...],
                   bonus_next: bool, best: int, high: int, t: int) -> tuple[int, int]:
        """`best` and `high` of `_best` after the split's results (a win: a huge best),
        each valued only when its bound beats the best so far (or t), with that
        threshold."""
        d = self.d
        s_own, s_other, s_fresh = self.s_own, self.s_other, self.s_fresh
        out: dict[tuple[int, bool], bool] = {}
        self._split_results(view, split, size, out)
        if n == 2 and not bonus_next and self.canon_last_turn:
            # the last turn follows: every result valued at once (exact and memoised
            # on the rooms)
            for after, _ in out:
                if out[(after, _)]:
                    return self.d ** (2 * n), high
                fresh = (after >> s_fresh) & 255
                if fresh:
                    after += (fresh << s_other) - (fresh << s_fresh)
                s = ((after >> s_own) & 255) + ((after >> s_other) & 255)
                if self.ub_main[1][s] > best:
                    val = self._last_turn_value(after, s)
                    if val > best:
                        best = val
            return best, high
        cands = []
        ub_bonus, ub_next = self.ub_bonus[n], self.ub_main[n - 1]
        cut = best if best > t else t
        # two turns from the end a result that ends the turn meets the last turn:
        # valued at once (exact, memoised on the rooms), before the bonus rolls
        direct = n == 2 and bonus_next and self.canon_last_turn
        for (after, used), won in out.items():
            if won:
                return self.d ** (2 * n), high
            s = (((after >> s_own) & 255) + ((after >> s_other) & 255)
                 + ((after >> s_fresh) & 255))
            to_bonus = used and bonus_next
            ub = ub_bonus[s] if to_bonus else ub_next[s] * d if bonus_next else ub_next[s]
            if ub > cut:
                if direct and not to_bonus:
                    if s > self.per_turn:
                        continue
                    val = self._last_turn_value(self.new_turn(after), s) * d
                    if val > cut:
                        best = cut = val
                    elif val > high:
                        high = val
                    continue
                cands.append((ub, to_bonus, after))
            elif ub > high:
                high = ub
        if len(cands) > 1:
            if n > 2 or (n == 2 and bonus_next):
                # children that are searched further: the one likely best first (by
                # its chance within a turn fewer, known from the smaller N, else by
                # the lanes' room), so that the others meet a high threshold
                cands = sorted(cands, key=lambda c: self._guess(n, c[2], c[1]), reverse=True)
            else:
                cands.sort(reverse=True)
        return self._children(n, cands, bonus_next, best, high, t)

    def _children(self, n: int, cands: list[tuple[int, bool, int]], bonus_next: bool,
                  best: int, high: int, t: int) -> tuple[int, int]:
        """`best` and `high` after valuing the results `cands` ((upper bound, to the
        bonus roll, lanes after), in the order given) each against the best so far or
        the threshold `t`, whichever is higher; a result whose bound cannot beat it only
        raises `high`."""
        d = self.d
        for ub, to_bonus, after in cands:
            cut = best if best > t else t
            if ub <= cut:
                if ub > high:
                    high = ub
                continue
            if to_bonus:
                val = self.value_bonus(n, after, cut)
            elif bonus_next:
                val = self.value_main(n - 1, after, cut // d) * d
            else:
                val = self.value_main(n - 1, after, cut)
            if val > cut:
                best = val
            elif val > high:
                high = val
        return best, high

    def _guess(self, n: int, after: int, to_bonus: bool) -> float:
        """An estimate of a result's chance for ordering (see `_try_split`): its chance
        within a turn fewer (known from the smaller N, or cheap: the last turn or the
        last roll), else from the lanes' room."""
        d = self.d
        if to_bonus:  # bonus(n, after); a turn fewer: bonus(n - 1, after)
            if n == 2:
                return self.last_roll(after) / d
            found = self.bonus.get((n - 1, after))
            scale = d ** (2 * n - 3)
        else:  # main(n - 1, after); a turn fewer: main(n - 2, after)
            after = self.new_turn(after)
            if n == 3 and self.canon_last_turn:
                size = self.size(after)
                return self._last_turn_value(after, size) / d ** 2 if size <= self.per_turn else 0
            found = self.main.get((n - 2, after))
            scale = d ** (2 * n - 4)
        if found is not None and found >= 0:
            return found / scale
        room, mask = self.room, self.mask
        return sum(room[(after >> sh) & mask] for sh in self.play_shifts) / 1000 - 1

    def _room_at(self, view: int) -> list[int] | None:
        """Each lane's room by its bit offset (see `_best`), when the shortcut holds."""
        if not self.fast_last:
            return None
        room, mask = self.room, self.mask
        return [room[(view >> sh) & mask] for sh in range(self.s_own)]

    def _last_turn_value(self, view: int, size: int) -> int:
        """V_main(1) of a view at a turn's start with 0 < size <= per_turn chips
        (canon_last_turn): keyed on the lanes, the stock's size and (when the stock
        holds more chips than an empty lane has room for) the other chips due, capped
        at the dice; valued on the rooms (`_last_turn_rooms`)."""
        other = 0
        if size > self.rules.capacity:
            other = min(self.rules.dice, (view >> self.s_other) & 255)
        key1 = (view & self.lanes_mask) | (size << self.s_own) | (other << self.s_other)
        total = self.last_turn_by_lanes.get(key1)
        if total is None:
            self._tick()
            rooms = self._rooms(view, size)
            canon = (size, other, rooms)
            total = self.last_turn_by_room.get(canon)
            if total is None:
                total = self.last_turn_by_room[canon] = \
                    self._last_turn_rooms(size, other, rooms)
            self.last_turn_by_lanes[key1] = total
        return total

    def value_main(self, n: int, view: int, t: int = -1) -> int:
        """Chance (times D^(2n)) to empty the stock within n turns, starting a turn.
        With a threshold t: a value above t is exact, one at or below t only bounds the
        chance from above (it is not needed more exactly)."""
        view = self.new_turn(view)
        size = self.size(view)
        if size == 0:
            return self.d ** (2 * n)
        if n == 0 or size > self.per_turn * n:
            return 0
        if n == 1 and self.canon_last_turn:
            return self._last_turn_value(view, size)
        key = (n, view)
        v = self.main.get(key)
        if v is not None:
            if v >= 0:
                return v
            if ~v <= t:  # a bound from an earlier threshold is enough
                return ~v
        self._tick()
        if n == 1:
            total = self._last_turn(view, size)
        else:
            self._bounds(n)
            total = self._average(n, view, size, self.d ** (2 * n - 1), True, t)
        self.main[key] = total if total > t or n == 1 else ~total
        return total

    def value_bonus(self, n: int, view: int, t: int = -1) -> int:
        """Chance (times D^(2n-1)) to empty the stock within n turns, the first of
        which continues with its bonus roll now (threshold t as in `value_main`)."""
        size = self.size(view)
        if size == 0:
            return self.d ** (2 * n - 1)
        if size > self.rules.dice + self.per_turn * (n - 1):
            return 0
        if n == 1:
            return self.last_roll(view)
        key = (n, view)
        v = self.bonus.get(key)
        if v is not None:
            if v >= 0:
                return v
            if ~v <= t:
                return ~v
        self._tick()
        self._bounds(n)
        total = self._average(n, view, size, self.d ** (2 * n - 2), False, t)
        self.bonus[key] = total if total > t else ~total
        return total

    def chance(self, n: int, view: int, bonus: bool) -> Fraction:
        if bonus:
            return Fraction(self.value_bonus(n, view), self.d ** (2 * n - 1))
        return Fraction(self.value_main(n, view), self.d ** (2 * n))

    def states(self) -> int:
        """Positions valued so far (last rolls counted once per canonical key)."""
        return (len(self.main) + len(self.bonus) + len(self.last_by_room)
                + len(self.last_turn_by_room))

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
        for dice, _, _ in self.rolls:
            for after, used, won in self.outcomes(view, dice):
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
           best_case_limit: int = 12, deadline: float | None = None) -> FinishResult:
    """Exact chances for 1..turns own turns and the fewest turns possible.

    Stops at `deadline` (a time.perf_counter() reading), else `time_limit` seconds from
    now: TimeLimitReached with one line giving the bounds known by then (the exact
    chance within fewer turns from below, the bound without penalties from above)."""
    if state.is_terminal():
        raise BadInput("the game is over: the stock is already empty")
    if turns < 1:
        raise BadInput("--turns must be at least 1")
    start = time.perf_counter()
    if deadline is None and time_limit is not None:
        deadline = start + time_limit
    f = Finisher(state.rules, deadline)
    view = f.pack(view_of(state))
    best = None
    rows: list[FinishRow] = []
    memo: dict = {}
    try:
        for n in range(1, max(turns, best_case_limit) + 1):
            if f.possible(n, view, state.bonus, memo):
                best = n
                break
        left = None if deadline is None else deadline - time.perf_counter()
        with live_status("exact chance", left, unit="turns") as status:
            for n in range(1, turns + 1):
                p = f.chance(n, view, state.bonus)
                rows.append(FinishRow(n, round(float(p), 6), str(p)))
                status.step(n, turns)
    except TimeLimitReached:
        size = state.stock_size(state.to_move)
        low = f"{100 * rows[-1].chance:.4f}% (exact within {rows[-1].turns} turn" \
              f"{'s' if rows[-1].turns > 1 else ''})" if rows else "0%"
        high = float(f.upper(turns, size, state.bonus))
        raise TimeLimitReached(
            f"finishing chances: time limit reached after {time.perf_counter() - start:.1f} s; "
            f"within {turns} turns the chance is at least {low} and at most "
            f"{100 * high:.4f}% (no penalties); try fewer --turns or a larger --time-limit"
        ) from None
    p = Fraction(rows[-1].exact)
    return FinishResult(
        state.colours[state.to_move], state.stock_size(state.to_move), state.bonus, turns,
        round(float(p), 6), str(p), best, rows, True,
        "exact DP over the player's view (own/other fields, own/other chips in stock), "
        "dice multisets weighted by their throws, integer numerators over 216 per roll, "
        "maximising the chance for each N; results pruned by a bound without penalties "
        "and the dice averages by thresholds (Star1)",
        f.states(), round(time.perf_counter() - start, 3))
