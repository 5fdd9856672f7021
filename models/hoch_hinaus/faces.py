"""K placement steps with heights capped, or with faces alone: relaxations of
encode.py's StepModel for proving losses, smaller than it.

The state at time t is the visible face of each space (one-hot, the last value
`empty`) and, unless `cap` is None, its height capped at `cap` (one-hot 0..cap, the
value cap standing for "cap or more") and per neighbouring pair "both tops are one
tile". A step lays a tile from its allowed tiles on a pair of neighbouring spaces,
either way round, after an optional gap filler; it may also be idle (nothing laid:
the state stays, with no guard literal on the step's clauses), and idle steps come
only at the end. With heights the tile must lie flat on the capped heights (two
spaces of height cap or more count as level) and never congruent on one tile; the
Pros rule is not checked. With `diff`, flatness is also read on each neighbouring
pair's height difference, tracked exactly within +-diff and as "more" beyond (from
which it may come back one step at a time): a tile lies only where it is 0, so spaces
above the cap are level only when their difference says so (a line climbs well above
the cap: 26 tiles lay 52 faces on 12 spaces). Off by default: on the two positions
measured Kissat found no line of the tighter model within 120 s where it found the
plain one's (refused, then raised) within 84-103 s. Every sequence of placements the rules allow is a sequence
of this model with the same visible faces (and heights capped) after each step, so a
set of tasks this model cannot fulfil the rules cannot either; and below the cap the
model is the rules' own, so its lines are mostly legal (`solve` replays them).

A task the capped state cannot judge exactly is replaced by a condition it implies
(`holds`): the model then asks less of a line of play, never more.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.hoch_hinaus.board import Board
from models.hoch_hinaus.rules import Rules
from models.hoch_hinaus.tasks import Pred, Task
from solver.counting import Count
from solver.logic import CnfLogic


class FaceSteps:
    """The relaxed steps (see the module's docstring), with the attributes exact.py
    reads: fill[t], use[t], pos[t], idle[t] and holds(task, t)."""

    def __init__(self, rules: Rules, logic: CnfLogic, k: int,
                 allowed: Sequence[Sequence[str]], fillers: bool,
                 cap: int | None = None, diff: int | None = None) -> None:
        self.rules, self.logic, self.k, self.cap = rules, logic, k, cap
        self.diff_range = diff
        self.faces = list(rules.all_faces)
        self.empty = len(self.faces)
        self.face_index = {f: i for i, f in enumerate(self.faces)}
        self.face_is = [self._one_hot(len(self.faces) + 1) for _ in range(k + 1)]
        self.height_is = [] if cap is None else [self._one_hot(cap + 1)
                                                 for _ in range(k + 1)]
        self.one_tile = [] if cap is None else [[logic.var() for _ in rules.pairs]
                                                for _ in range(k + 1)]
        # diff[t][e][i]: height(a) - height(b) of pair e = (a, b) is i - diff - 1; the
        # first and last values stand for "less" and "more" than that range
        self.diff = [] if cap is None or diff is None else [self._diffs()
                                                            for _ in range(k + 1)]
        self.fill: list[list[int]] = []
        self.pos: list[list[list[int]]] = []
        self.use: list[dict[str, int]] = []
        self.idle: list[int] = []
        self._pred_cache: dict = {}
        for t in range(1, k + 1):
            self._step(t, allowed[t - 1], fillers)
        for tid in {tid for u in self.use for tid in u}:  # each tile at most once
            uses = [u[tid] for u in self.use if tid in u]
            if len(uses) > 1:
                logic.at_most_one(uses)

    def _one_hot(self, values: int) -> list[list[int]]:
        out = [[self.logic.var() for _ in range(values)]
               for _ in range(self.rules.n_spaces)]
        for row in out:
            self.logic.exactly_one(row)
        return out

    def _diffs(self) -> list[list[int]]:
        assert self.diff_range is not None
        out = [[self.logic.var() for _ in range(2 * self.diff_range + 3)]
               for _ in self.rules.pairs]
        for row in out:
            self.logic.exactly_one(row)
        return out

    def _shift(self, before: list[int], after: list[int], up_a: int, up_b: int) -> None:
        """after = before + up_a - up_b (a difference); from the ends ("less", "more")
        a step towards the range may land on its edge or stay (the true value is not
        known there)."""
        clause, last = self.logic.clause, len(before) - 1
        for i, d in enumerate(before):
            clause([up_a, up_b, -d, after[i]])  # neither raised
            clause([-up_a, -up_b, -d, after[i]])  # both
            up = [after[min(i + 1, last)]] + ([after[0]] if i == 0 else [])
            down = [after[max(i - 1, 0)]] + ([after[last]] if i == last else [])
            clause([-up_a, up_b, -d, *up])
            clause([up_a, -up_b, -d, *down])

    def _raise(self, before: list[int], after: list[int], up: int) -> None:
        """after = before + 1 (capped) where `up`, else (`up` false) before."""
        logic, cap = self.logic, len(before) - 1
        for h in range(cap + 1):
            logic.clause([up, -before[h], after[h]])
            logic.clause([-up, -before[h], after[min(h + 1, cap)]])

    def _step(self, t: int, allowed: Sequence[str], fillers: bool) -> None:
        r, logic = self.rules, self.logic
        n, pairs = r.n_spaces, r.pairs
        before, after = self.face_is[t - 1], self.face_is[t]
        idle = logic.var()
        if self.idle:
            logic.clause([-self.idle[-1], idle])  # idle steps only at the end
        self.idle.append(idle)
        fill = [logic.var() for _ in range(n)]
        logic.at_most_one(fill)
        for x in fill:
            logic.clause([-x, -idle])
            if not fillers:
                logic.clause([-x])
        self.fill.append(fill)
        pos = [[logic.var(), logic.var()] for _ in pairs]
        logic.exactly_one([p for pe in pos for p in pe] + [idle])
        self.pos.append(pos)
        use = {tid: logic.var() for tid in dict.fromkeys(allowed)}
        logic.exactly_one([*use.values(), idle])
        self.use.append(use)
        # first[s] / second[s]: the tile's first / second face lies on s
        first = [logic.or_([pos[e][o] for e, pr in enumerate(pairs) for o in (0, 1)
                            if pr[o] == s]) for s in range(n)]
        second = [logic.or_([pos[e][o] for e, pr in enumerate(pairs) for o in (0, 1)
                             if pr[1 - o] == s]) for s in range(n)]
        face_of: list[dict[int, list[int]]] = [{}, {}]  # face index -> tiles showing it
        for tid, u in use.items():
            for side, f in enumerate(r.tile_by_id[tid].faces):
                face_of[side].setdefault(self.face_index[f], []).append(u)
        black = self.face_index[r.filler_face]
        covered = []
        for s in range(n):
            for side, on in ((0, first[s]), (1, second[s])):
                for f, us in face_of[side].items():
                    lay = logic.or_(us) if len(us) > 1 else us[0]
                    logic.clause([-on, -lay, after[s][f]])
            logic.clause([-fill[s], first[s], second[s], after[s][black]])
            for f in range(len(self.faces) + 1):
                logic.clause([first[s], second[s], fill[s], -before[s][f], after[s][f]])
            covered.append(logic.or_([first[s], second[s]]))
        if self.cap is None:
            return
        # heights (capped) and "one tile" pairs, as encode.py's but for the cap
        h_before, h_after = self.height_is[t - 1], self.height_is[t]
        h_mid = self._one_hot(self.cap + 1)
        for s in range(n):
            self._raise(h_before[s], h_mid[s], fill[s])
            self._raise(h_mid[s], h_after[s], covered[s])
        one_before, one_after = self.one_tile[t - 1], self.one_tile[t]
        d_mid = self._diffs() if self.diff else []
        for e, (a, b) in enumerate(pairs):
            placed = logic.or_(pos[e])
            if self.diff:
                self._shift(self.diff[t - 1][e], d_mid[e], fill[a], fill[b])
                self._shift(d_mid[e], self.diff[t][e], covered[a], covered[b])
                logic.clause([-placed, d_mid[e][self.diff_range + 1]])  # level in truth
            one_mid = logic.and_([one_before[e], -fill[a], -fill[b]])
            logic.clause([-placed, -one_mid])  # never congruent on one tile
            for h in range(self.cap + 1):  # flat (on the capped heights)
                logic.clause([-placed, -h_mid[a][h], h_mid[b][h]])
                logic.clause([-placed, -h_mid[b][h], h_mid[a][h]])
            logic.clause([-placed, one_after[e]])
            logic.clause([-one_mid, covered[a], covered[b], one_after[e]])
            logic.clause([-one_after[e], placed, one_mid])
            logic.clause([-one_after[e], placed, -covered[a]])
            logic.clause([-one_after[e], placed, -covered[b]])

    def init_lits(self, board: Board) -> list[int]:
        """Literals that fix time 0 to the board (heights capped)."""
        out = []
        for s, (face, h) in enumerate(board.visible()):
            out.append(self.face_is[0][s][self.empty if face is None
                                          else self.face_index[face]])
            if self.cap is not None:
                out.append(self.height_is[0][s][min(h, self.cap)])
        if self.cap is not None:
            _, joined = board.key()
            out += [x if e in joined else -x for e, x in enumerate(self.one_tile[0])]
        if self.diff:
            d, hs = self.diff_range, [h for _, h in board.visible()]
            out += [self.diff[0][e][min(max(hs[a] - hs[b], -d - 1), d + 1) + d + 1]
                    for e, (a, b) in enumerate(self.rules.pairs)]
        return out

    # ---- tasks
    def _face_pred(self, t: int, s: int, p: Pred) -> int:
        if p.empty:
            return self.face_is[t][s][self.empty]
        return self.logic.or_([
            self.face_is[t][s][i] for i, f in enumerate(self.faces)
            if (p.colour is None or f[0] == p.colour)
            and (p.number is None or f[1] == p.number)
            and (p.parity is None or (f[1] % 2 == 0) == (p.parity == "even"))])

    def _level(self, t: int, s: int, p: Pred) -> int | None:
        """A literal implied by the height condition of p (None: none that helps)."""
        cap, n = self.cap, p.height
        if cap is None or n is None:
            return None
        hs = self.height_is[t][s]
        if p.height_or_more:
            return self.logic.or_(hs[min(n, cap):])
        return hs[n] if n < cap else hs[cap]

    def _pred(self, t: int, s: int, p: Pred) -> int:
        """A literal implied by p at (t, s): equal to it unless p reads a height at or
        above the cap (or any height, faces alone)."""
        key = (t, s, p)
        if key not in self._pred_cache:
            lit = self._face_pred(t, s, p)
            level = self._level(t, s, p)
            if level is not None:
                lit = self.logic.and_([lit, level])
            self._pred_cache[key] = lit
        return self._pred_cache[key]

    def _exact(self, p: Pred) -> bool:
        """Is _pred equal to p (not only implied by it)?"""
        if p.height is None:
            return True
        if self.cap is None:
            return False
        return p.height < self.cap or (p.height_or_more and p.height <= self.cap)

    def holds(self, task: Task, t: int) -> int:
        """A literal implied by `task` holding at time t (equal to it when the task
        reads no height at or above the cap)."""
        logic = self.logic
        out = []
        for line in task.region.lines(self.rules):
            if task.kind == "count":
                lits = [self._pred(t, s, task.pred) for s in line]
                c = task.count
                if not self._exact(task.pred) and c.op != "at least":
                    out.append(logic.true)  # spaces the literal misses may match
                    continue
                out.append(logic.count(lits, c))
            elif task.kind == "distinct":
                values = range(len(self.rules.colour_names)) if task.what == "colours" \
                    else sorted({f[1] for f in self.faces})
                present = [logic.or_([self._pred(t, s, Pred(colour=v) if task.what ==
                                                 "colours" else Pred(number=v))
                                      for s in line]) for v in values]
                out.append(logic.count(present, task.count))
            elif task.kind == "more":
                if not (self._exact(task.pred) and self._exact(task.pred2)):
                    out.append(logic.true)
                    continue
                a = [self._pred(t, s, task.pred) for s in line]
                b = [self._pred(t, s, task.pred2) for s in line]
                out.append(logic.or_([logic.and_([logic.count(a, Count("at least", j + 1)),
                                                  logic.count(b, Count("at most", j))])
                                      for j in range(len(line))]))
            else:
                out.append(self._heights(task, t, line))
        return logic.and_(out) if task.region.quant == "every" else logic.or_(out)

    def _heights(self, task: Task, t: int, line: Sequence[int]) -> int:
        """"PRED is in n different HEIGHTS" on a line: the heights below the cap are
        exact; each matching space at the cap may add one more (its true height is
        unknown), so the count lies between `low` and `high`; faces alone: only the
        matching spaces bound it."""
        logic, c = self.logic, task.count
        if task.pred.uses_height:
            return logic.true  # (no such task in the catalogue) judged on faces alone
        match = [self._face_pred(t, s, task.pred) for s in line]
        if self.cap is None:
            if c.op == "at most" or c.k == 0:
                return logic.true
            return logic.count(match, Count("at least", c.k))
        hs = self.height_is
        below = [logic.or_([logic.and_([m, hs[t][s][h]]) for s, m in zip(line, match,
                                                                          strict=True)])
                 for h in range(self.cap)]
        at_cap = [logic.and_([m, hs[t][s][self.cap]]) for s, m in zip(line, match,
                                                                        strict=True)]
        high = below + at_cap
        low = below + [logic.or_(at_cap)]
        if c.op == "at least":
            return logic.count(high, c)
        if c.op == "at most":
            return logic.count(low, c)
        return logic.and_([logic.count(high, Count("at least", c.k)),
                           logic.count(low, Count("at most", c.k))])
