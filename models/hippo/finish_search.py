"""The finishing-chance DP's search (see `finish`): the values of a turn's start and of
a bonus roll within n turns, the dice averaged with thresholds (Star1-style), a roll's
splits and results tried best bound first; and the yes/no search of the best case."""

from __future__ import annotations

from fractions import Fraction

from models.hippo.finish_bounds import Bounds
from models.hippo.finish_cache import Budget, FinishCache
from models.hippo.finish_endgame import Endgame
from models.hippo.finish_moves import Moves
from models.hippo.finish_tables import Tables
from models.hippo.rules import Rules
from solver.deadline import NO_DEADLINE, Deadline


class Finisher:
    """The DP for one rules set: its tables, its memos (shared across queries and turn
    counts) and the parts that use them."""

    def __init__(self, rules: Rules, deadline: Deadline = NO_DEADLINE,
                 steps: int | None = None) -> None:
        self.rules = rules
        self.tables = Tables(rules)
        self.cache = FinishCache()
        self.budget = Budget(deadline, steps)
        self.moves = Moves(self.tables, self.cache)
        self.endgame = Endgame(self.tables, self.cache, self.moves, self.budget)
        self.bounds = Bounds(self.tables, self.cache, self.endgame)
        self.bounds.extend(1)

    # ---------------------------------------------------------------- values
    def value_main(self, n: int, view: int, t: int = -1) -> int:
        """Chance (times D^(2n)) to empty the stock within n turns, starting a turn.
        With a threshold t: a value above t is exact, one at or below t only bounds the
        chance from above (it is not needed more exactly)."""
        tables = self.tables
        view = tables.new_turn(view)
        size = tables.size(view)
        if size == 0:
            return tables.d ** (2 * n)
        if n == 0 or size > tables.per_turn * n:
            return 0
        if n == 1 and tables.canon_last_turn:
            return self.endgame.last_turn_value(view, size)
        key = (n, view)
        main = self.cache.main
        v = main.get(key)
        if v is not None:
            if v >= 0:
                return v
            if ~v <= t:  # a bound from an earlier threshold is enough
                return ~v
        self.budget.tick()
        if n == 1:
            total = self.endgame.last_turn(view, size)
        else:
            self.bounds.extend(n)
            total = self._average(n, view, size, tables.d ** (2 * n - 1), True, t)
        main[key] = total if total > t or n == 1 else ~total
        return total

    def value_bonus(self, n: int, view: int, t: int = -1) -> int:
        """Chance (times D^(2n-1)) to empty the stock within n turns, the first of
        which continues with its bonus roll now (threshold t as in `value_main`)."""
        tables = self.tables
        size = tables.size(view)
        if size == 0:
            return tables.d ** (2 * n - 1)
        if size > tables.rules.dice + tables.per_turn * (n - 1):
            return 0
        if n == 1:
            return self.endgame.last_roll(view)
        key = (n, view)
        bonus = self.cache.bonus
        v = bonus.get(key)
        if v is not None:
            if v >= 0:
                return v
            if ~v <= t:
                return ~v
        self.budget.tick()
        self.bounds.extend(n)
        total = self._average(n, view, size, tables.d ** (2 * n - 2), False, t)
        bonus[key] = total if total > t else ~total
        return total

    def chance(self, n: int, view: int, bonus: bool) -> Fraction:
        """The chance within n turns of a packed view (before its bonus roll or not)."""
        d = self.tables.d
        if bonus:
            return Fraction(self.value_bonus(n, view), d ** (2 * n - 1))
        return Fraction(self.value_main(n, view), d ** (2 * n))

    def states(self) -> int:
        """Positions valued so far (last rolls counted once per canonical key)."""
        return self.cache.states()

    # ---------------------------------------------------------------- the dice
    def _average(self, n: int, view: int, size: int, win: int, bonus_next: bool,
                 t: int) -> int:
        """The rolls' values weighted by their counts, with a threshold t (see
        `value_main`). Star1-style: a roll counts at its bound until it is valued; each
        is valued with the threshold below which the sum stays at most t whatever the
        roll is worth, and the rolls stop once the sum cannot exceed t."""
        tables = self.tables
        if t < 0:
            rooms = tables.room_at(view)
            return sum(count * self._best(n, view, size, dice, win, bonus_next, rooms, -1)
                       for dice, count, _ in tables.rolls)
        ubs, total = self.bounds.roll_bounds(n, size, bonus_next)
        if n <= 3 and tables.canon_last_turn and total > t:
            ubs, total = self.bounds.last_roll_bounds(n, view, size, bonus_next, ubs)
        if total <= t:
            return total
        on_rooms = self._on_rooms(n, view)
        # the rooms once for every roll (packed for `_two_from_end`)
        packed = tables.rooms(view, size) if on_rooms else 0
        rooms = None if on_rooms else tables.room_at(view)
        for (dice, count, _), ub in zip(tables.rolls, ubs, strict=True):
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
        self.budget.tick()
        if self._on_rooms(n, view):
            return self._two_from_end(view, size, dice, win, bonus_next, t,
                                      self.tables.rooms(view, size))
        order = self.bounds.split_order(n, size, dice, bonus_next)
        if n > 2:
            return self._best_ordered(n, view, size, order, win, bonus_next, t)
        best = high = 0  # the best value reached; the most one at or below t can be
        deferred: list[tuple[int, tuple[int, ...]]] = []
        split_lanes = self.tables.split_lanes
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

    # ---------------------------------------------------------------- two turns from the end
    def _on_rooms(self, n: int, view: int) -> bool:
        """Two turns from the end with only own chips in stock: the rolls are valued on
        the lanes' rooms (`_two_from_end`)."""
        tables = self.tables
        return n == 2 and tables.canon_last_turn and (view >> tables.s_other) & 0xFFFF == 0

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
        memo = self.cache.two_from_end
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._two_from_end_rooms(dice, size, rooms, win, bonus_next)
        best, rest = found
        if best >= win:
            return win
        return self._ranked_splits(2, view, size, rest, win, bonus_next, best, 0, t)

    def _two_from_end_rooms(self, dice: tuple[int, ...], size: int, rooms: int, win: int,
                            bonus_next: bool
                            ) -> tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]:
        """(the best of the splits that fit the rooms and lead to the last turn, the other
        splits with their bounds, best first): see `_two_from_end`."""
        self.budget.tick()
        tables, endgame = self.tables, self.endgame
        if size <= tables.rules.dice and endgame.wins_now(dice, size, rooms):
            return win, ()
        rmask, split_rooms, hippo = tables.rmask, tables.split_rooms, tables.rules.hippo
        scale = tables.d if bonus_next else 1  # the last turn follows a whole turn
        best = 0
        rest = []
        for bound, pen, split in self.bounds.split_order(2, size, dice, bonus_next):
            g = len(split)
            after = rooms
            for pos, k in split_rooms[split]:
                if (after >> pos) & rmask < k:
                    rest.append((bound if g >= size else pen, split))
                    break
                after -= k << pos
            else:
                if g >= size:  # fits, so a win (wins_now says none: not reached)
                    return win, ()
                if bonus_next and hippo in split:
                    rest.append((bound, split))  # the bonus roll: the view decides
                    continue
                left = size - g
                if left <= tables.per_turn:
                    val = endgame.last_turn_on_rooms(left, 0, endgame.cap(after, left))
                    if val * scale > best:
                        best = val * scale
        rest.sort(key=lambda x: -x[0])
        return best, tuple(rest)

    # ---------------------------------------------------------------- a roll's results
    def _best_ordered(self, n: int, view: int, size: int,
                      order: list[tuple[int, int, tuple[int, ...]]], win: int,
                      bonus_next: bool, t: int) -> int:
        """`_best` where the results are searched further: every result of every split
        whose bound beats t is gathered, and the one likely best (`_guess`) is valued
        first, so that the others meet a high threshold."""
        tables = self.tables
        d = tables.d
        s_own, s_other, s_fresh = tables.s_own, tables.s_other, tables.s_fresh
        ub_bonus, ub_next = self.cache.ub_bonus[n], self.cache.ub_main[n - 1]
        split_results = self.moves.split_results
        best = high = 0
        out: dict[tuple[int, bool], bool] = {}
        cands = []
        for bound, _, split in order:
            if bound <= t:
                if bound > high:
                    high = bound
                break
            out.clear()
            split_results(view, split, size, out)
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
        tables = self.tables
        d = tables.d
        s_own, s_other, s_fresh = tables.s_own, tables.s_other, tables.s_fresh
        out: dict[tuple[int, bool], bool] = {}
        self.moves.split_results(view, split, size, out)
        if n == 2 and not bonus_next and tables.canon_last_turn:
            return self._last_turn_results(out, best, high)
        cands = []
        ub_bonus, ub_next = self.cache.ub_bonus[n], self.cache.ub_main[n - 1]
        cut = best if best > t else t
        # two turns from the end a result that ends the turn meets the last turn:
        # valued at once (exact, memoised on the rooms), before the bonus rolls
        direct = n == 2 and bonus_next and tables.canon_last_turn
        for (after, used), won in out.items():
            if won:
                return d ** (2 * n), high
            s = (((after >> s_own) & 255) + ((after >> s_other) & 255)
                 + ((after >> s_fresh) & 255))
            to_bonus = used and bonus_next
            ub = ub_bonus[s] if to_bonus else ub_next[s] * d if bonus_next else ub_next[s]
            if ub > cut:
                if direct and not to_bonus:
                    if s > tables.per_turn:
                        continue
                    val = self.endgame.last_turn_value(tables.new_turn(after), s) * d
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

    def _last_turn_results(self, out: dict[tuple[int, bool], bool], best: int, high: int
                           ) -> tuple[int, int]:
        """`_try_split` two turns from the end on the turn's last roll: the last turn
        follows, so every result is valued at once (exact and memoised on the rooms)."""
        tables = self.tables
        s_own, s_other, s_fresh = tables.s_own, tables.s_other, tables.s_fresh
        ub_last = self.cache.ub_main[1]
        for after, _ in out:
            if out[(after, _)]:
                return tables.d ** 4, high
            fresh = (after >> s_fresh) & 255
            if fresh:
                after += (fresh << s_other) - (fresh << s_fresh)
            s = ((after >> s_own) & 255) + ((after >> s_other) & 255)
            if ub_last[s] > best:
                val = self.endgame.last_turn_value(after, s)
                if val > best:
                    best = val
        return best, high

    def _children(self, n: int, cands: list[tuple[int, bool, int]], bonus_next: bool,
                  best: int, high: int, t: int) -> tuple[int, int]:
        """`best` and `high` after valuing the results `cands` ((upper bound, to the
        bonus roll, lanes after), in the order given) each against the best so far or
        the threshold `t`, whichever is higher; a result whose bound cannot beat it only
        raises `high`."""
        d = self.tables.d
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
        tables = self.tables
        d = tables.d
        if to_bonus:  # bonus(n, after); a turn fewer: bonus(n - 1, after)
            if n == 2:
                return self.endgame.last_roll(after) / d
            found = self.cache.bonus.get((n - 1, after))
            scale = d ** (2 * n - 3)
        else:  # main(n - 1, after); a turn fewer: main(n - 2, after)
            after = tables.new_turn(after)
            if n == 3 and tables.canon_last_turn:
                size = tables.size(after)
                return (self.endgame.last_turn_value(after, size) / d ** 2
                        if size <= tables.per_turn else 0)
            found = self.cache.main.get((n - 2, after))
            scale = d ** (2 * n - 4)
        if found is not None and found >= 0:
            return found / scale
        room, mask = tables.room, tables.mask
        return sum(room[(after >> sh) & mask] for sh in tables.play_shifts) / 1000 - 1

    # ---------------------------------------------------------------- best case
    def possible(self, n: int, view: int, bonus: bool, memo: dict) -> bool:
        """Can some sequence of dice empty the stock within n turns?"""
        tables = self.tables
        if not bonus:
            view = tables.new_turn(view)
        size = tables.size(view)
        if size == 0:
            return True
        limit = (tables.rules.dice if bonus else 0) + tables.per_turn * (n - (1 if bonus else 0))
        if n == 0 or size > limit:
            return False
        key = (n, view, bonus)
        if key in memo:
            return memo[key]
        self.budget.tick()
        ok = False
        for dice, _, _ in tables.rolls:
            for after, used, won in self.moves.outcomes(view, dice):
                if won or (self.possible(n, after, True, memo) if used and not bonus
                           else self.possible(n - 1, after, False, memo)):
                    ok = True
                    break
            if ok:
                break
        memo[key] = ok
        return ok
