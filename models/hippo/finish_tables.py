"""The finishing-chance DP's view of a position and its tables (see `finish`).

A view is the player's own view of the pool packed into one integer: each lane's
pattern of own (1) / other (2) fields (2**capacity of them) in `capacity` bits, then
own chips, other chips due and other chips taken this turn in 8 bits each; placing a
chip is a table lookup and integer arithmetic. The lanes' rooms (chips a lane takes
before the player's top chip is pushed out) pack likewise, `rbits` bits a lane.
`Tables` holds everything that follows from the rules alone: the packing, the
placing tables, and the rolls with their splits in the forms the parts use.
"""

from __future__ import annotations

import itertools
from collections import Counter

from models.hippo.dice import all_rolls, roll_splits
from models.hippo.rules import Rules
from models.hippo.state import GameState
from solver.errors import BadInput

OWN, OTHER = 1, 2
# (lanes, own chips, other chips due, other chips taken this turn and not yet due)
View = tuple[tuple[tuple[int, ...], ...], int, int, int]
# a result of a roll: (view after, lane 7 used (a bonus roll follows), stock emptied)
Outcome = tuple[int, bool, bool]
MAX_STOCK = 255  # 8 bits per stock count in a packed view


def norm(content: tuple[int, ...]) -> tuple[int, ...]:
    """A lane without the other chips above the player's topmost chip: they are pushed
    out before that chip reaches the top, as empty fields would fill."""
    while content and content[-1] == OTHER:
        content = content[:-1]
    return content


def view_of(state: GameState, player: int | None = None) -> View:
    """The player's view of a position (see the module notes of `finish`)."""
    me = state.to_move if player is None else player
    lanes = tuple(norm(tuple(OWN if c == me else OTHER for c in lane)) for lane in state.lanes)
    own = state.stocks[me][me]
    fresh = sum(state.fresh) if me == state.to_move else 0
    return lanes, own, state.stock_size(me) - own - fresh, fresh


class Tables:
    """The packing of views and the tables of one rules set (nothing here changes while
    the DP runs)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.d = rules.faces ** rules.dice
        self.per_turn = 2 * rules.dice - 1  # most chips one turn can shed
        self._roll_tables()
        self._packing()
        self._placing()
        self._needs()
        # the last-roll shortcut needs every chip of a roll to stay in its lane
        self.fast_last = rules.capacity >= rules.dice
        # The last turn is decided by the stock and the lanes' room capped at the stock's
        # size when no line with a penalty in it can still finish: a penalty on the
        # first roll (a bonus split sheds at most dice - 1 chips) takes at least the
        # full lane back, too many for the bonus roll, from a stock of 2 or more (a stock
        # of 1 with a split making 7 wins at once). Then a lane with room for the whole
        # stock never stops a placement, and the lanes' colours never matter.
        # the fewest chips a penalty gives back: the full lane (and the chip placed)
        self.taken = rules.capacity + (1 if rules.penalty_takes_placed else 0)
        self.canon_last_turn = self.fast_last and self.taken + 3 > 2 * rules.dice

    def _roll_tables(self) -> None:
        """The rolls and their splits as lane sums, their orders, and their lanes."""
        rules = self.rules
        rolls = all_rolls(rules)
        self.splits = {dice: tuple(tuple(sum(g) for g in split)
                                   for split in roll_splits(rules, dice))
                       for dice, _ in rolls}
        self.rolls = [(dice, count, self.splits[dice]) for dice, count in rolls]
        self.orders = {split: tuple(sorted(set(itertools.permutations(split))))
                       for splits in self.splits.values() for split in splits}
        # a split as (bit offset of the lane, chips into it), Mr. Hippo's lane left out
        self.split_lanes = {split: tuple((rules.capacity * lane, k) for lane, k in
                                         sorted(Counter(split).items()) if lane != rules.hippo)
                            for split in self.orders}
        # the colours k chips that are not due can take (own, or taken this turn)
        self.colourings = [tuple(itertools.product((OWN, OTHER), repeat=k))
                           for k in range(rules.dice + 1)]
        # the splits that put a chip into Mr. Hippo's lane (the only ones that can
        # earn a bonus roll)
        self.hippo_splits = {dice: tuple(s for s in splits if rules.hippo in s)
                             for dice, splits in self.splits.items()}

    def _packing(self) -> None:
        """Bit offsets of the packed view and of the packed rooms."""
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
        # the lanes' rooms packed into one integer, rbits bits a lane (`rooms`); capped
        # chunk by chunk with tables (`Endgame.cap`)
        self.rbits = max(1, cap.bit_length())
        self.rmask = (1 << self.rbits) - 1
        self.rpos = [self.rbits * lane for lane in range(r.lanes + 1)]
        self.rchunk = max(1, 12 // self.rbits) * self.rbits
        self.rchunks = list(range(0, self.rbits * (r.lanes + 1), self.rchunk))
        # where the other chips a penalty takes go: not due before the next turn, or due
        self.s_taken = self.s_fresh if r.next_turn else self.s_other

    def _placing(self) -> None:
        """A chip of either colour placed into a lane of each pattern: (pattern after,
        own and other chips taken back); k own chips pushed into a lane with room."""
        r = self.rules
        pats = self.patterns
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

    def _needs(self) -> None:
        """Per roll and stock size k <= dice: the ways to place k chips of one split
        as room needed per lane ((lane, chips), ...); Mr. Hippo's lane needs none."""
        hippo = self.rules.hippo
        self.needs: dict[tuple[tuple[int, ...], int], tuple[tuple[tuple[int, int], ...],
                                                            ...]] = {}
        for dice, splits in self.splits.items():
            for k in range(1, self.rules.dice + 1):
                ways: set[tuple[tuple[int, int], ...]] = set()
                for split in splits:
                    for groups in itertools.combinations(split, k):
                        ways.add(tuple(sorted(Counter(g for g in groups
                                                      if g != hippo).items())))
                self.needs[(dice, k)] = tuple(tuple((self.rpos[lane], n) for lane, n in way)
                                              for way in sorted(ways, key=len))
        # the packed rooms of the lanes a roll can reach (Mr. Hippo's left out)
        self.dice_rmask = {dice: sum(self.rmask << self.rpos[lane]
                                     for lane in {g for split in splits for g in split}
                                     if lane != hippo)
                           for dice, splits in self.splits.items()}
        self.split_rooms = {split: tuple((self.rpos[lane], k) for lane, k in
                                         sorted(Counter(split).items())
                                         if lane != hippo)
                            for split in self.orders}
        # per roll, its splits making 7 as (chips, ((lane, chips), ...) without lane 7)
        self.seven_lanes = {dice: tuple((len(s), tuple((self.rpos[lane], k) for lane, k in
                                                       sorted(Counter(s).items())
                                                       if lane != hippo))
                                        for s in splits)
                            for dice, splits in self.hippo_splits.items()}

    def pack(self, view: View) -> int:
        """The view as one integer (BadInput for a stock beyond 8 bits)."""
        lanes, own, other, fresh = view
        if max(own, other, fresh) > MAX_STOCK:
            raise BadInput(f"finishing chances: a stock of more than {MAX_STOCK} chips")
        v = (own << self.s_own) | (other << self.s_other) | (fresh << self.s_fresh)
        for lane, content in enumerate(lanes):
            if lane and lane != self.rules.hippo:
                v |= self.pat_index[content] << self.shift[lane]
        return v

    def unpack(self, v: int) -> View:
        """The view of a packed integer (`pack` undone)."""
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
        return lanes[:lane] + (norm(content),) + lanes[lane + 1:], own, other, fresh

    def size(self, v: int) -> int:
        """The chips in the stock of a packed view."""
        return (((v >> self.s_own) & 255) + ((v >> self.s_other) & 255)
                + ((v >> self.s_fresh) & 255))

    def new_turn(self, v: int) -> int:
        """The view at the start of a turn: the other chips taken last turn are due."""
        fresh = (v >> self.s_fresh) & 255
        if fresh:
            v += (fresh << self.s_other) - (fresh << self.s_fresh)
        return v

    def step(self, v: int, lane: int, field: int, colour: int) -> tuple[int, bool]:
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

    def rooms(self, v: int, size: int) -> int:
        """Each lane's room capped at `size`, packed (`rpos`); the key of the last roll
        (and of a win now) as far as the lanes go."""
        room, mask, shift, rpos = self.room, self.mask, self.shift, self.rpos
        rooms = 0
        for lane in self.play_lanes:
            r = room[(v >> shift[lane]) & mask]
            rooms |= (r if r < size else size) << rpos[lane]
        return rooms

    def room_at(self, view: int) -> list[int] | None:
        """Each lane's room by its bit offset (see `Finisher._best`), when the last-roll
        shortcut holds."""
        if not self.fast_last:
            return None
        room, mask = self.room, self.mask
        return [room[(view >> sh) & mask] for sh in range(self.s_own)]
