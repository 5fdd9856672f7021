"""The end of the finishing-chance DP's horizon (see `finish`): the last roll (the last
turn's bonus roll) and the last turn, valued on the stock's size and the lanes' rooms
(packed, capped at the size) wherever the colours cannot matter, and memoised on those
canonical keys."""

from __future__ import annotations

import itertools

from models.hippo.finish_cache import Budget, FinishCache
from models.hippo.finish_moves import Moves
from models.hippo.finish_tables import Tables


class Endgame:
    """Values of the last roll and the last turn (numerators over D and D^2)."""

    def __init__(self, tables: Tables, cache: FinishCache, moves: Moves,
                 budget: Budget) -> None:
        self.tables = tables
        self.cache = cache
        self.moves = moves
        self.budget = budget

    def cap(self, rooms: int, size: int) -> int:
        """Packed rooms capped at `size` (chunk by chunk, a table per size)."""
        t = self.tables
        tab = self.cache.cap_tabs.get(size)
        chunk, bits, rmask = t.rchunk, t.rbits, t.rmask
        if tab is None:
            tab = self.cache.cap_tabs[size] = [
                sum(min((x >> j) & rmask, size) << j for j in range(0, chunk, bits))
                for x in range(1 << chunk)]
        m = (1 << chunk) - 1
        out = 0
        for sh in t.rchunks:
            out |= tab[(rooms >> sh) & m] << sh
        return out

    def wins_now(self, dice: tuple[int, ...], size: int, rooms: int) -> bool:
        """Can this roll empty a stock of `size` <= dice chips at once? (fast_last;
        memoised on the rooms of the roll's lanes)"""
        t = self.tables
        key = (dice, size, rooms & t.dice_rmask[dice])
        found = self.cache.wins.get(key)
        if found is None:
            rmask = t.rmask
            found = False
            for need in t.needs[(dice, size)]:
                for pos, k in need:
                    if (rooms >> pos) & rmask < k:
                        break
                else:
                    found = True
                    break
            self.cache.wins[key] = found
        return found

    def last_roll(self, v: int) -> int:
        """The number of the D throws that empty the stock at once: the value of the
        last roll of the horizon (the last turn's bonus roll)."""
        t = self.tables
        size = t.size(v)
        if size == 0:
            return t.d
        if size > t.rules.dice:
            return 0
        # with the shortcut the lanes and the size are the key, else the whole view
        key = (v & t.lanes_mask) | (size << t.s_own) if t.fast_last else v
        found = self.cache.last_by_lanes.get(key)
        if found is not None:
            return found
        if t.fast_last:
            rooms = t.rooms(v, size)
            canon = (rooms << 8) | size
            found = self.cache.last_by_room.get(canon)
            if found is None:
                found = sum(count for dice, count, _ in t.rolls
                            if self.wins_now(dice, size, rooms))
                self.cache.last_by_room[canon] = found
        else:  # colours may matter: the view itself is the key
            found = sum(count for dice, count, _ in t.rolls
                        if any(won for _, _, won in self.moves.outcomes(v, dice)))
        self.cache.last_by_lanes[key] = found
        return found

    def last_turn_rooms(self, size: int, other: int, rooms: int) -> int:
        """V_main(1) from the stock's size, the other chips due in it and the lanes' rooms
        capped at the size (see `Tables.canon_last_turn`): a win now, else the best split
        making 7 that fits the rooms (one with a penalty leaves too many chips), valued
        by its last roll. No line with a penalty finishes, a lane with room for the
        whole stock never stops a placement, and a chip placed takes one field of room,
        except one of another colour placed into an empty lane (below the chips placed
        after it, so it is pushed out first): that matters only when the stock is larger
        than an empty lane's room, and then the due other chips (placed first) may go
        to any of the split's groups."""
        self.budget.tick()
        t = self.tables
        d, dice_n, cap = t.d, t.rules.dice, t.rules.capacity
        last_by_room, rmask = self.cache.last_by_room, t.rmask
        total = 0
        for dice, count, _ in t.rolls:
            if size <= dice_n and self.wins_now(dice, size, rooms):
                total += count * d
                continue
            best = 0
            for g, lanes in t.seven_lanes[dice]:
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
                        after = self.cap(after, left)
                        key = (after << 8) | left
                        won = last_by_room.get(key)
                        if won is None:
                            won = last_by_room[key] = sum(
                                c for roll, c, _ in t.rolls
                                if self.wins_now(roll, left, after))
                        if won > best:
                            best = won
            total += count * best
        return total

    def _given_back(self, new: int, rooms: int, lanes: tuple[tuple[int, int], ...], m: int,
                    g: int) -> list[int]:
        """The rooms after a split (`new`, a field per chip) when m due other chips go
        first, each into any of its g groups: one placed into an empty lane takes no
        room there (memoised as the room given back, by which of the lanes are empty)."""
        cap, rmask = self.tables.rules.capacity, self.tables.rmask
        empty = tuple((pos, k) for pos, k in lanes if (rooms >> pos) & rmask == cap)
        key = (empty, m, g)
        backs = self.cache.backs.get(key)
        if backs is None:
            elsewhere = g - sum(k for _, k in empty)
            backs = self.cache.backs[key] = tuple(
                sum(b << pos for (pos, _), b in zip(empty, back, strict=True))
                for back in itertools.product(*(range(k + 1) for _, k in empty))
                if sum(back) <= m <= sum(back) + elsewhere)
        return [new + back for back in backs]

    def last_turn(self, v: int, size: int) -> int:
        """V_main(1) on the view: a win now, else the best bonus roll (no other result
        counts)."""
        t = self.tables
        d = t.d
        rooms = t.rooms(v, size) if t.fast_last and size <= t.rules.dice else None
        split_results = self.moves.split_results
        total = 0
        for dice, count, _ in t.rolls:
            if rooms is not None and self.wins_now(dice, size, rooms):
                total += count * d
                continue
            best = 0
            out: dict[tuple[int, bool], bool] = {}
            if rooms is None and size <= t.rules.dice:  # no shortcut: every result
                for split in t.splits[dice]:
                    split_results(v, split, size, out)
            else:  # no win now: only a bonus roll can still finish
                for split in t.hippo_splits[dice]:
                    if size - len(split) <= t.rules.dice:
                        split_results(v, split, size, out)
            for (after, used), won in out.items():
                if won:
                    best = d
                    break
                if used and best < d:
                    best = max(best, self.last_roll(after))
            total += count * best
        return total

    def last_turn_value(self, view: int, size: int) -> int:
        """V_main(1) of a view at a turn's start with 0 < size <= per_turn chips
        (canon_last_turn): keyed on the lanes, the stock's size and (when the stock
        holds more chips than an empty lane has room for) the other chips due, capped
        at the dice; valued on the rooms (`last_turn_rooms`)."""
        t = self.tables
        other = 0
        if size > t.rules.capacity:
            other = min(t.rules.dice, (view >> t.s_other) & 255)
        key1 = (view & t.lanes_mask) | (size << t.s_own) | (other << t.s_other)
        total = self.cache.last_turn_by_lanes.get(key1)
        if total is None:
            self.budget.tick()
            total = self.last_turn_on_rooms(size, other, t.rooms(view, size))
            self.cache.last_turn_by_lanes[key1] = total
        return total

    def last_turn_on_rooms(self, size: int, other: int, rooms: int) -> int:
        """`last_turn_rooms` memoised on its arguments (rooms capped at the size)."""
        canon = (size, other, rooms)
        total = self.cache.last_turn_by_room.get(canon)
        if total is None:
            total = self.cache.last_turn_by_room[canon] = self.last_turn_rooms(size, other, rooms)
        return total

    def last_turns(self, size: int, full: int) -> dict[int, int]:
        """The last turn (exact, on the rooms `full` capped) from the stock less g
        chips, for g = 1..dice (0 when hopeless; g >= size is a win elsewhere)."""
        t = self.tables
        cap = t.rules.capacity
        by_g = {}
        for g in range(1, t.rules.dice + 1):
            left = size - g
            if 0 < left <= t.per_turn:
                other = min(t.rules.dice, left) if left > cap else 0
                by_g[g] = self.last_turn_on_rooms(left, other, self.cap(full, left))
        return by_g
