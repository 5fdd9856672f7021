"""Upper bounds of the finishing-chance DP (see `finish`): the game without penalties
and without lanes (only the stock's size and the splits of the dice count), per roll
from its splits, and before the last turn from the lanes' rooms."""

from __future__ import annotations

from fractions import Fraction

from models.hippo.finish_cache import FinishCache
from models.hippo.finish_endgame import Endgame
from models.hippo.finish_tables import MAX_STOCK, Tables


class Bounds:
    """Bounds on the values' scales (numerators over D^(2n) and D^(2n-1))."""

    def __init__(self, tables: Tables, cache: FinishCache, endgame: Endgame) -> None:
        self.tables = tables
        self.cache = cache
        self.endgame = endgame

    def extend(self, turns: int) -> None:
        """Upper bounds for 0..turns turns by stock size, on the values' scales: the
        chance when no penalty can happen and the lanes never matter (only the splits of
        the dice and lane 7's bonus roll), made non-increasing in the size. Every real
        result of a split leaves at least the chips the bound's result leaves."""
        t = self.tables
        d, top = t.d, MAX_STOCK + 1
        if len(self.cache.ub_main) > turns:
            return
        ub_main, ub_bonus = [[d ** 0] + [0] * top], [[0] * (top + 1)]
        shapes = [(count, tuple((len(s), t.rules.hippo in s) for s in splits))
                  for _, count, splits in t.rolls]
        for n in range(1, turns + 1):
            prev = ub_main[n - 1]
            bonus = [d ** (2 * n - 1)] + [0] * top
            main = [d ** (2 * n)] + [0] * top
            for s in range(1, min(top, t.per_turn * n + 1)):
                bonus[s] = sum(count * max(d ** (2 * n - 2) if s <= g else prev[s - g]
                                           for g, _ in shape) for count, shape in shapes)
            for s in range(1, min(top, t.per_turn * n + 1)):
                main[s] = sum(count * max(d ** (2 * n - 1) if s <= g else
                                          bonus[s - g] if seven else prev[s - g] * d
                                          for g, seven in shape) for count, shape in shapes)
            for row in (bonus, main):
                for s in range(top - 1, 0, -1):
                    row[s] = max(row[s], row[s + 1])
            ub_bonus.append(bonus)
            ub_main.append(main)
        self.cache.ub_main, self.cache.ub_bonus = ub_main, ub_bonus

    def upper(self, n: int, size: int, bonus: bool) -> Fraction:
        """The bound as a chance (see `extend`)."""
        self.extend(n)
        d = self.tables.d
        if bonus:
            return Fraction(self.cache.ub_bonus[n][min(size, MAX_STOCK)], d ** (2 * n - 1))
        return Fraction(self.cache.ub_main[n][min(size, MAX_STOCK)], d ** (2 * n))

    def split_order(self, n: int, size: int, dice: tuple[int, ...], bonus_next: bool
                    ) -> list[tuple[int, int, tuple[int, ...]]]:
        """A roll's splits with their bounds, best first: (bound, bound if a lane lacks
        room for the split's chips, split). The bound is a win when the split holds the
        whole stock, else the bonus roll's or the next turn's with the split's chips
        shed; a penalty (g <= size: every order places every chip, the penalty lane's
        too) gives back at least the full lane. Hopeless splits are left out."""
        key = (n, size, dice, bonus_next)
        found = self.cache.split_orders.get(key)
        if found is None:
            t = self.tables
            d, hippo = t.d, t.rules.hippo
            win = d ** (2 * n - (1 if bonus_next else 2))
            c = self.cache

            def bound(split: tuple[int, ...], left: int) -> int:
                if bonus_next and hippo in split:
                    return c.ub_bonus[n][left]
                return c.ub_main[n - 1][left] * (d if bonus_next else 1)

            found = []
            for split in t.splits[dice]:
                g = len(split)
                if size <= g:
                    found.append((win, win, split))
                else:
                    ub = bound(split, size - g)
                    if ub:
                        found.append((ub, bound(split, min(MAX_STOCK, size - g + t.taken)),
                                      split))
            found.sort(key=lambda x: -x[0])
            self.cache.split_orders[key] = found
        return found

    def roll_bounds(self, n: int, size: int, bonus_next: bool) -> tuple[list[int], int]:
        """Each roll's bound (its best split's, see `split_order`) and their weighted
        sum."""
        key = (n, size, bonus_next)
        found = self.cache.roll_bounds.get(key)
        if found is None:
            rolls = self.tables.rolls
            ubs = []
            for dice, _, _ in rolls:
                order = self.split_order(n, size, dice, bonus_next)
                ubs.append(order[0][0] if order else 0)
            found = self.cache.roll_bounds[key] = (
                ubs, sum(ub * count for ub, (_, count, _) in zip(ubs, rolls, strict=True)))
        return found

    def last_roll_bounds(self, n: int, view: int, size: int, bonus_next: bool,
                         ubs: list[int]) -> tuple[list[int], int]:
        """Tighter bounds of the rolls before the last turn (of the bonus roll, or of
        the first roll for a split not making 7; other splits keep theirs): a split
        without a penalty leaves g chips fewer and lanes with at most the room they have
        now (a chip of another colour into an empty lane: as much), and the last turn
        is worth no more with less room or fewer due other chips (those placed into an
        empty lane give room back), so it is bounded by the last turn from the stock
        less g with the lanes' rooms now and as many due other chips as can be."""
        full = self.tables.rooms(view, self.tables.rules.capacity)
        key = (n, size, full, bonus_next)  # `ubs` follows from n, size and bonus_next
        found = self.cache.rooms_bounds.get(key)
        if found is None:
            if n == 3:  # three turns from the end: two turns' bound on the rooms
                by_g = {g: self.two_turn_bound(size - g, full)
                        for g in range(1, self.tables.rules.dice + 1)}
            else:
                by_g = self.endgame.last_turns(size, full)
            found = self.cache.rooms_bounds[key] = self._rolls_bounded(
                n, size, full, bonus_next, ubs, by_g)
        return found

    def two_turn_bound(self, size: int, full: int) -> int:
        """A bound (times D^4) of the chance within two turns from a turn's start with
        `size` chips and lanes with at most the rooms `full`: each roll's splits as in
        `split_order` two turns from the end, a split not making 7 bounded by the
        larger of its penalty bound and the last turn on the rooms (whether it has a
        penalty depends on rooms not known here); no more with less room."""
        t = self.tables
        d = t.d
        if size <= 0:
            return d ** 4
        if size > 2 * t.per_turn:
            return 0
        key = (size, full)
        found = self.cache.two_turns.get(key)
        if found is None:
            self.extend(2)
            by_g = self.endgame.last_turns(size, full)
            hippo = t.rules.hippo
            found = 0
            for dice, count, _ in t.rolls:
                ub = 0
                for bound, pen, split in self.split_order(2, size, dice, True):
                    g = len(split)
                    if g >= size or hippo in split:
                        val = bound
                    else:
                        val = min(bound, max(pen, by_g.get(g, 0) * d))
                    if val > ub:
                        ub = val
                found += count * ub
            self.cache.two_turns[key] = found
        return found

    def _rolls_bounded(self, n: int, size: int, full: int, bonus_next: bool,
                       ubs: list[int], by_g: dict[int, int]) -> tuple[list[int], int]:
        """The rolls' bounds from `by_g` (see `last_roll_bounds`)."""
        t = self.tables
        found = []
        total = 0
        rmask, split_rooms, hippo = t.rmask, t.split_rooms, t.rules.hippo
        roll_shapes = self.cache.roll_shapes
        scale = t.d if bonus_next else 1  # the last turn follows a whole turn
        for (dice, count, _), top in zip(t.rolls, ubs, strict=True):
            # the roll's bound from its splits, memoised on the rooms of its lanes as
            # (the most a win or a penalty bounds it by, the chips of the other splits)
            key = (n, size, dice, full & t.dice_rmask[dice], bonus_next)
            shape = roll_shapes.get(key)
            if shape is None:
                fixed, chips = 0, set()
                for bound, pen, split in self.split_order(n, size, dice, bonus_next):
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
                shape = roll_shapes[key] = (fixed, tuple(chips))
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
