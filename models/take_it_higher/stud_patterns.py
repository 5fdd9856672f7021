"""Stud patterns of the free cells for the gold/silver maximum, best bonus bound first:
the row maximum (`maximum.py`) and every case of the ring (`ship_max.py`) walk the same
list."""

from __future__ import annotations

import bisect

import numpy as np

from models.take_it_higher import encode_cpsat, encode_maxsat
from models.take_it_higher.encode import MaxProblem
from solver.backends import SolveOutcome, SolverOptions, cpsat
from solver.backends.sat import maxsat

#: Patterns (with their symmetric images) an enumeration lists at most (`prefetch`):
#: each is found in a few milliseconds, where the master's next-best solve takes
#: 0.1-1 s (draw 15, gold/silver: 209 patterns walked, 63 s).
PREFETCH_LIMIT = 4000
#: Patterns a walk takes one master solve each before it lists the rest it may need at
#: once (`prefetch`): most walks end within a few.
PREFETCH_AFTER = 4
#: Free cells up to which the patterns of at most two studs are all scored at once
#: (`_Listing`: 2^n patterns, 0.04 s with a full draw at 24 cells) instead of found by
#: master solves (0.1-1 s each with a draw).
LISTED_CELLS = 24


def _order(pattern: dict[str, str | None]) -> tuple:
    """A fixed order of patterns (their cells' studs, None last)."""
    return tuple(sorted((c, s is None, s or "") for c, s in pattern.items()))


class StudPatterns:
    """Stud patterns of the free cells by decreasing bonus bound, listed once and kept:
    the cases of the ring (ship_max.py) walk the same list.

    Up to LISTED_CELLS free cells and two studs every pattern is scored at once
    (`_Listing`); otherwise a master (CP-SAT or MaxSAT) finds them one solve each: a
    pattern found is excluded with its images under `symmetries`, and the CP-SAT
    master is then capped at the bound just found (no later pattern can exceed it),
    which makes each next pattern 3x cheaper to prove best."""

    def __init__(self, problem: MaxProblem, backend: str,
                 symmetries: list[dict[str, str]] | None = None) -> None:
        self.backend = backend
        self.symmetries = symmetries or []
        self.found: list[tuple[dict[str, str | None], SolveOutcome]] = []
        self.end: SolveOutcome | None = None  # the master's answer once none is left
        self.listing = _Listing.of(problem, self.symmetries)
        if self.listing is not None:
            return
        # stud_at[(cell, stud)]: the literal "the tile on this cell carries this stud"
        if backend == "maxsat":
            self.cnf, self.stud_at = encode_maxsat.stud_master(problem)
        else:
            self.model, self.stud_at, self.bonus = encode_cpsat.stud_master(problem)

    def nth(self, i: int, options: SolverOptions
            ) -> tuple[dict[str, str | None] | None, SolveOutcome]:
        """The i-th best pattern (from 0) and the master's outcome: (None, infeasible)
        when fewer are left, (None, unknown) when the time ran out."""
        if self.listing is not None:
            got = self.listing.nth(i)
            if got is None:
                return None, SolveOutcome("infeasible", None, None, 0.0, self.backend)
            pattern, bound = got
            return pattern, SolveOutcome("optimal", bound, bound, 0.0, self.backend)
        while len(self.found) <= i:
            if self.end is not None:
                return None, self.end
            pattern, out = self._best(options)
            if pattern is None:
                if out.status == "infeasible":
                    self.end = out
                return None, out
            self.found.append((pattern, out))
            for perm in [{c: c for c in pattern}, *self.symmetries]:
                self._exclude({perm[c]: s for c, s in pattern.items()})
            if self.backend != "maxsat":
                self.model.add(self.bonus <= out.objective)
        return self.found[i]

    def prefetch(self, floor: int, options: SolverOptions, limit: int = PREFETCH_LIMIT
                 ) -> bool:
        """List at once every pattern not yet listed whose bonus bound is at least
        `floor`, by decreasing bound (ties in a fixed order), as `nth` would one master
        solve each: one enumeration of the master without its objective (CP-SAT).
        A walk that stops below `floor` (its best board already beats C + B there)
        needs no master solve after this; a walk going below it goes on as before
        (every pattern listed here is excluded). False, with nothing listed, when
        there are more than `limit` such patterns (their symmetric images counted),
        the time or work ran out, or the back-end is MaxSAT."""
        if self.listing is not None:  # every pattern is listed already
            return True
        if self.backend == "maxsat" or self.end is not None:
            return False
        enum = self.model.clone()
        enum.clear_objective()
        bonus = enum.get_int_var_from_proto_index(self.bonus.index)
        enum.add(bonus >= floor)
        keys = list(self.stud_at)
        variables = [enum.get_bool_var_from_proto_index(self.stud_at[k].index)
                     for k in keys] + [bonus]
        solutions, _ = cpsat.all_solutions(enum, options, variables, limit)
        if solutions is None:
            return False
        perms = [None, *self.symmetries]
        listed: dict[tuple, tuple[int, dict[str, str | None]]] = {}
        for values in solutions:
            pattern = dict(k for k, v in zip(keys, values, strict=False) if v)
            images = [pattern if perm is None else {perm[c]: s for c, s in pattern.items()}
                      for perm in perms]
            first = min(images, key=_order)  # one pattern stands for its images
            listed.setdefault(_order(first), (values[-1], first))
        for value, pattern in sorted(listed.values(), key=lambda vp: (-vp[0], _order(vp[1]))):
            self.found.append((pattern, SolveOutcome("optimal", value, value, 0.0, "cpsat")))
            for perm in [{c: c for c in pattern}, *self.symmetries]:
                self._exclude({perm[c]: s for c, s in pattern.items()})
        if listed:  # no pattern left above the last one listed
            self.model.add(self.bonus <= min(v for v, _ in listed.values()))
        return True

    def _best(self, options: SolverOptions) -> tuple[dict[str, str | None] | None, SolveOutcome]:
        if self.backend == "maxsat":
            lits, out = maxsat(self.cnf, options, stratified=True)
            chosen = {key for key, lit in self.stud_at.items() if lits and lit in lits}
        else:
            solver, out = cpsat.solve(self.model, options)
            chosen = {key for key, var in self.stud_at.items()
                      if out.has_solution and solver.value(var)}
        return (dict(chosen) if out.status == "optimal" else None), out

    def _exclude(self, pattern: dict[str, str | None]) -> None:
        keys = list(pattern.items())
        if self.backend == "maxsat":
            self.cnf.clause([-self.stud_at[k] for k in keys])
        else:
            self.model.add_bool_or([~self.stud_at[k] for k in keys])


class _Listing:
    """Every stud pattern of at most two studs on the free cells with its bonus bound,
    scored at once: what the master (`encode_cpsat.stud_master`) would list one solve
    at a time, in the same order of bounds, one pattern of each symmetric set.

    A pattern is a number: bit n-1-i is set when the i-th free cell (by id) carries the
    second stud, so numbers compare as `_order` does. Every line that can be all of one
    stud tests a bit mask; split into high and low bits, the bonus of all 2^n patterns
    is one matrix product, (high halves x masks) @ (masks x low halves)."""

    def __init__(self, cells: list[str], studs: list[str | None], bonus: np.ndarray,
                 counts: np.ndarray, moves: list[list[tuple[int, int]]]) -> None:
        self.cells, self.studs = cells, studs
        self.bonus = bonus  # of every pattern number, -1 where the stud counts forbid it
        self.bounds = [int(b) for b in np.flatnonzero(counts)[::-1]]  # counts[b]: of bound b
        self.moves = moves  # each symmetry as (bit, its image's bit) pairs
        self.levels: list[np.ndarray] = []  # the listed bounds' patterns, one a set
        self.starts: list[int] = [0]  # index of each level's first pattern

    @classmethod
    def of(cls, problem: MaxProblem, symmetries: list[dict[str, str]]) -> _Listing | None:
        """The listing of `problem`'s patterns, or None when it has more than two studs
        or more than LISTED_CELLS free cells (the master lists them then)."""
        rules = problem.rules
        fixed = dict(problem.fixed)
        cells = sorted(c for c in rules.cell_ids if c not in fixed)
        classes = problem.classes()
        studs = sorted({k.stud for k in classes}, key=lambda s: (s is None, s or ""))
        if len(studs) > 2 or len(cells) > LISTED_CELLS or not cells:
            return None

        def count(s: str | None) -> tuple[int, int]:  # (at least, at most) cells
            return (sum(k.required for k in classes if k.stud == s),
                    sum(len(k.tiles) for k in classes if k.stud == s))

        n = len(cells)
        lo0, hi0 = count(studs[0])
        lo1, hi1 = count(studs[1]) if len(studs) == 2 else (0, 0)
        fewest, most = max(lo1, n - hi0), min(hi1, n - lo0)  # cells of the second stud
        bit = {c: n - 1 - i for i, c in enumerate(cells)}
        low = n // 2 + n % 2  # bits of the low half
        highs = np.arange(1 << (n - low), dtype=np.int64)
        lows = np.arange(1 << low, dtype=np.int64)
        left, right, constant = [], [], 0
        for _, line in rules.lines:
            for k, s in enumerate(studs):
                if s is None or any(fixed[c].stud != s for c in line if c in fixed):
                    continue
                weight = len(line) * rules.stud_bonus[s]
                mask = sum(1 << bit[c] for c in line if c not in fixed)
                if not mask:
                    constant += weight
                    continue
                mh, ml = mask >> low, mask & ((1 << low) - 1)
                want_h, want_l = (mh, ml) if k else (0, 0)  # all bits set, or none
                left.append((highs & mh) == want_h)
                right.append(((lows & ml) == want_l) * weight)
        top = constant + sum(int(r.max(initial=0)) for r in right)
        if top >= 1 << 24:
            return None  # float32 sums would not be exact
        lefts = np.array(left, dtype=np.float32).reshape(len(left), len(highs)).T
        rights = np.array(right, dtype=np.float32).reshape(len(right), len(lows))
        ones_low = np.bitwise_count(lows)
        ones_high = np.bitwise_count(highs)
        # the bonus of every pattern number, -1 where the stud counts forbid it; only
        # the allowed ones are scored: the high halves with k bits set against the low
        # halves whose bits make the count allowed
        bonus = np.full(1 << n, -1, dtype=np.int16 if top < 1 << 15 else np.int32)
        counts = np.zeros(top + 1, dtype=np.int64)  # patterns of each bound
        for k in range(n - low + 1):
            high = highs[ones_high == k]
            allowed = (ones_low >= fewest - k) & (ones_low <= most - k)
            if not high.size or not allowed.any():
                continue
            low_part, right_part = lows[allowed], rights[:, allowed]
            rows = max(1, (1 << 20) // low_part.size)  # a million patterns at a time
            for h in range(0, high.size, rows):
                part = (lefts[high[h:h + rows]] @ right_part).astype(np.int32) + constant
                numbers = (high[h:h + rows, None] << low) | low_part[None, :]
                bonus[numbers.ravel()] = part.ravel()
                counts += np.bincount(part.ravel(), minlength=top + 1)
        moves = [[(bit[c], bit[perm[c]]) for c in cells] for perm in symmetries]
        return cls(cells, studs, bonus, counts, moves)

    def nth(self, i: int) -> tuple[dict[str, str | None], int] | None:
        """The i-th pattern (from 0) and its bound, or None when fewer are listed."""
        while self.starts[-1] <= i:
            if len(self.levels) == len(self.bounds):
                return None
            bound = self.bounds[len(self.levels)]
            numbers = np.flatnonzero(self.bonus == bound)
            first = numbers
            for moves in self.moves:  # each set stands by its smallest number
                image = np.zeros_like(numbers)
                for src, dst in moves:
                    image |= ((numbers >> src) & 1) << dst
                first = np.minimum(first, image)
            level = np.unique(first)
            self.levels.append(level)
            self.starts.append(self.starts[-1] + len(level))
        k = bisect.bisect_right(self.starts, i) - 1
        number = int(self.levels[k][i - self.starts[k]])
        n = len(self.cells)
        pattern = {c: self.studs[(number >> (n - 1 - j)) & 1] for j, c in enumerate(self.cells)}
        return pattern, self.bounds[k]
