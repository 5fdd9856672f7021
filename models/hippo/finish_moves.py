"""The results of a roll in the finishing-chance DP's packed view (see `finish`): chip
by chip through the placing tables, with shortcuts where the order of the chips or
their colours cannot matter."""

from __future__ import annotations

from models.hippo.finish_cache import FinishCache
from models.hippo.finish_tables import OTHER, OWN, Outcome, Tables, norm


class Moves:
    """A roll's distinct results in the view (memoised in the cache)."""

    def __init__(self, tables: Tables, cache: FinishCache) -> None:
        self.tables = tables
        self.cache = cache

    def runs(self, v: int, seq: tuple[int, ...], i: int = 0, used: bool = False,
             penalty: bool = False) -> list[tuple[int, bool, bool]]:
        """Place a lane sequence from die i on: every (view after, lane 7 used, a penalty
        happened). One result, unless a chip may be own or one taken this turn: then
        both go on."""
        t = self.tables
        s_own, s_other, s_fresh = t.s_own, t.s_other, t.s_fresh
        hippo = t.rules.hippo
        step = t.step
        for j in range(i, len(seq)):
            lane = seq[j]
            own = (v >> s_own) & 255
            other = (v >> s_other) & 255
            fresh = (v >> s_fresh) & 255
            if own + other + fresh == 0:
                break
            used = used or lane == hippo
            if other:
                v, took = step(v, lane, s_other, OTHER)
            elif fresh and own:
                w, took_other = step(v, lane, s_fresh, OTHER)
                v, took = step(v, lane, s_own, OWN)
                return (self.runs(v, seq, j + 1, used, penalty or took)
                        + self.runs(w, seq, j + 1, used, penalty or took_other))
            elif fresh:
                v, took = step(v, lane, s_fresh, OTHER)
            else:
                v, took = step(v, lane, s_own, OWN)
            penalty = penalty or took
        return [(v, used, penalty)]

    def split_results(self, view: int, split: tuple[int, ...], size: int,
                      out: dict[tuple[int, bool], bool]) -> None:
        """Add the distinct results of placing one split's chips to `out`.

        With only own chips in stock the order of the chips matters only through a
        penalty or the stock running out (identical chips, lanes independent): one
        order is placed, all orders only in those two cases."""
        t = self.tables
        g = len(split)
        if (view >> t.s_other) & 0xFFFF == 0 and g <= size:  # own chips only
            v = view - (g << t.s_own)
            room, push, mask = t.room, t.push, t.mask
            for sh, k in t.split_lanes[split]:
                pat = (v >> sh) & mask
                if room[pat] < k:
                    break  # a penalty: every order below
                v += (push[k][pat] - pat) << sh
            else:
                won = g == size
                out[(v, t.rules.hippo in split and not won)] = won
                return
        elif t.fast_last and g <= size and self._coloured(view, split, out):
            return
        # every order, one by one; memoised as changes to the view by the split's lanes'
        # patterns and the stock's counts capped at g + 1 (enough for every chip to
        # come from any count, and a capped stock never runs out)
        mask, cap = t.mask, g + 1
        pats = tuple((view >> sh) & mask for sh, _ in t.split_lanes[split])
        own = min(cap, (view >> t.s_own) & 255)
        other = min(cap, (view >> t.s_other) & 255)
        fresh = min(cap, (view >> t.s_fresh) & 255)
        key = (split, pats, own, other, fresh)
        found = self.cache.ordered.get(key)
        if found is None:
            rep = (own << t.s_own) | (other << t.s_other) | (fresh << t.s_fresh)
            for (sh, _), pat in zip(t.split_lanes[split], pats, strict=True):
                rep |= pat << sh
            seen: dict[tuple[int, bool], bool] = {}
            for seq in t.orders[split]:
                for v, used, _ in self.runs(rep, seq):
                    won = t.size(v) == 0
                    seen[(v - rep, used and not won)] = won
            found = self.cache.ordered[key] = tuple((delta, used, won)
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
        t = self.tables
        g = len(split)
        own = (view >> t.s_own) & 255
        other = (view >> t.s_other) & 255
        fresh = (view >> t.s_fresh) & 255
        mask = t.mask
        pats = tuple((view >> sh) & mask for sh, _ in t.split_lanes[split])
        key = (split, pats, min(own, g), min(other, g), min(fresh, g))
        deltas = self.cache.coloured.get(key)
        if deltas is None:
            deltas = self.cache.coloured[key] = self._deltas(split, pats, *key[2:])
        if not deltas:
            return False
        won = g == own + other + fresh
        used = t.rules.hippo in split and not won
        for delta in deltas:
            out[(view + delta, used)] = won
        return True

    def _deltas(self, split: tuple[int, ...], pats: tuple[int, ...], own: int, other: int,
                fresh: int) -> tuple[int, ...]:
        """See `_coloured`: the distinct changes to a view, () if a lane lacks room."""
        t = self.tables
        s_own, s_fresh = t.s_own, t.s_fresh
        lanes = []
        for (sh, k), pat in zip(t.split_lanes[split], pats, strict=True):
            if t.room[pat] < k:
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
                    found.add(v - ((rest - f) << s_own) - (f << s_fresh))
                return
            sh, k, pat = lanes[i]
            for d in range(min(k, due_left) + 1):
                for seq in t.colourings[k - d]:  # non-due chips, bottom first
                    f = seq.count(OTHER)
                    if f > fresh_left or k - d - f > own_left:
                        continue
                    new = self._added(pat, seq + (OTHER,) * d)
                    go(i + 1, v + ((new - pat) << sh) - ((k - d - f) << s_own)
                       - (f << s_fresh), due_left - d, own_left - (k - d - f),
                       fresh_left - f)

        go(0, -(due << t.s_other), due, own, fresh)
        return tuple(sorted(found))

    def _added(self, pat: int, chips: tuple[int, ...]) -> int:
        """A lane's pattern with chips (bottom first) added below, no penalty."""
        key = (pat, chips)
        new = self.cache.added.get(key)
        if new is None:
            content = chips + self.tables.patterns[pat]
            new = self.cache.added[key] = self.tables.pat_index[norm(content)]
        return new

    def outcomes(self, view: int, dice: tuple[int, ...], seqs: object = None
                 ) -> list[Outcome]:
        """Distinct (view after, lane 7 used, stock emptied) of a roll (`seqs`: unused,
        kept for callers of the earlier signature)."""
        key = (view, dice)
        results = self.cache.results
        found = results.get(key)
        if found is not None:
            return found
        out: dict[tuple[int, bool], bool] = {}
        size = self.tables.size(view)
        for split in self.tables.splits[dice]:
            self.split_results(view, split, size, out)
        found = [(v, used, won) for (v, used), won in out.items()]
        if len(results) < 200_000:  # bounded memory
            results[key] = found
        return found
