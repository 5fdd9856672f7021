"""K placement steps of Hoch Hinaus! as a Boolean model, for PySAT (CNF) and CP-SAT.

The model is written once against the small logic interface of solver/logic.py, with
two back-ends: `CnfLogic` (PySAT clauses) and `CpLogic` (CP-SAT).

State at time t (0 = the position, t = after the t-th placement), per space s:
  height_is[t][s][k]  height k (one-hot), face_is[t][s][f]  visible face f (one-hot; f
  indexes rules.all_faces, the last value `empty`), and per neighbouring pair e:
  one_tile[t][e] "the tops of both spaces are one tile" (what the congruence rule looks
  at). Step t: fill[t][s] (a gap filler first; the state after it is the step's mid
  state), pos[t][e][o] (the pair and which way round), use[t][tile].
The rules engine (board.py) is the reference; tests hold the set of one-step successors
equal to the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from models.hoch_hinaus.board import Action, Board
from models.hoch_hinaus.rules import Rules
from models.hoch_hinaus.tasks import Pred, Task
from solver.counting import Count
from solver.logic import CnfLogic, CpLogic

__all__ = ["CnfLogic", "CpLogic", "StepModel"]

# --------------------------------------------------------------------------- the model

class StepModel:
    """K placement steps from a position whose state is fixed by `init_lits(board)`.

    allowed[t]: the tiles step t+1 may use (each tile at most once over all steps).
    max_height: heights above it cannot occur in K steps from the positions it serves.
    """

    def __init__(self, rules: Rules, logic: Any, k: int, allowed: Sequence[Sequence[str]],
                 pros: bool, max_height: int, fillers: bool = True) -> None:
        self.rules, self.logic, self.k, self.pros = rules, logic, k, pros
        self.max_height = max_height
        self.faces = list(rules.all_faces)
        self.empty = len(self.faces)
        self.face_values = len(self.faces) + 1
        self.tile_ids = [t.id for t in rules.tiles]
        self.avail = {t: logic.var() for t in self.tile_ids}
        self.height_is = [self._heights() for _ in range(k + 1)]
        self.face_is = [self._faces() for _ in range(k + 1)]
        self.one_tile = [[logic.var() for _ in rules.pairs] for _ in range(k + 1)]
        self.fill: list[list[Any]] = []
        self.pos: list[list[list[Any]]] = []
        self.use: list[dict[str, Any]] = []
        self._pred_cache: dict = {}
        for t in range(1, k + 1):
            self._step(t, allowed[t - 1], fillers)
        for tid in self.tile_ids:  # each tile at most once
            uses = [u[tid] for u in self.use if tid in u]
            if len(uses) > 1:
                logic.at_most_one(uses)
        self.all_fills = [x for row in self.fill for x in row]
        self._filler_limits: dict[int, Any] = {}

    def _heights(self) -> list[list[Any]]:
        out = [[self.logic.var() for _ in range(self.max_height + 1)]
               for _ in range(self.rules.n_spaces)]
        for row in out:
            self.logic.exactly_one(row)
        return out

    def _faces(self) -> list[list[Any]]:
        out = [[self.logic.var() for _ in range(self.face_values)]
               for _ in range(self.rules.n_spaces)]
        for row in out:
            self.logic.exactly_one(row)
        return out

    def _step(self, t: int, allowed: Sequence[str], fillers: bool) -> None:
        r, logic, neg = self.rules, self.logic, self.logic.neg
        n, pairs = r.n_spaces, r.pairs
        height_before, face_before = self.height_is[t - 1], self.face_is[t - 1]
        one_before = self.one_tile[t - 1]
        height_after, face_after, one_after = self.height_is[t], self.face_is[t], self.one_tile[t]
        fill = [logic.var() for _ in range(n)]
        if not fillers:
            for x in fill:
                logic.clause([neg(x)])
        logic.at_most_one(fill)
        self.fill.append(fill)
        # mid state: after the optional gap filler
        height_mid, face_mid = self._heights(), self._faces()
        black = self.faces.index(r.filler_face)
        for s in range(n):
            for h in range(self.max_height + 1):
                logic.clause([fill[s], neg(height_before[s][h]), height_mid[s][h]])
                if h + 1 <= self.max_height:
                    logic.clause([neg(fill[s]), neg(height_before[s][h]), height_mid[s][h + 1]])
            logic.clause([neg(fill[s]), neg(height_before[s][self.max_height])])
            logic.clause([neg(fill[s]), face_mid[s][black]])
            for f in range(self.face_values):
                logic.clause([fill[s], neg(face_before[s][f]), face_mid[s][f]])
        one_mid = []
        for e, (a, b) in enumerate(pairs):
            x = logic.var()
            logic.clause([neg(x), one_before[e]])
            logic.clause([neg(x), neg(fill[a])])
            logic.clause([neg(x), neg(fill[b])])
            logic.clause([x, neg(one_before[e]), fill[a], fill[b]])
            one_mid.append(x)
        # the placement
        pos = [[logic.var(), logic.var()] for _ in pairs]
        logic.exactly_one([p for pe in pos for p in pe])
        self.pos.append(pos)
        use = {tid: logic.var() for tid in dict.fromkeys(allowed)}
        logic.exactly_one(list(use.values()))
        for tid, u in use.items():
            logic.clause([neg(u), self.avail[tid]])
        self.use.append(use)
        placed = [logic.or_(pe) for pe in pos]
        cover = [logic.or_([placed[e] for e, pr in enumerate(pairs) if s in pr]) for s in range(n)]
        for e, (a, b) in enumerate(pairs):
            for h in range(self.max_height + 1):  # flat: equal heights
                logic.clause([neg(placed[e]), neg(height_mid[a][h]), height_mid[b][h]])
                logic.clause([neg(placed[e]), neg(height_mid[b][h]), height_mid[a][h]])
            logic.clause([neg(placed[e]), neg(one_mid[e])])  # never congruent on one tile
            for o, (x, y) in enumerate(((a, b), (b, a))):
                for tid, u in use.items():
                    fx, fy = r.tile_by_id[tid].faces
                    ix, iy = self.faces.index(fx), self.faces.index(fy)
                    logic.clause([neg(pos[e][o]), neg(u), face_after[x][ix]])
                    logic.clause([neg(pos[e][o]), neg(u), face_after[y][iy]])
                    if self.pros:  # one face matches the one below (black: joker)
                        match = [face_mid[x][i] for i, f in enumerate(self.faces)
                                 if f[0] in (fx[0], r.black) or f[1] == fx[1]]
                        match += [face_mid[y][i] for i, f in enumerate(self.faces)
                                  if f[0] in (fy[0], r.black) or f[1] == fy[1]]
                        logic.clause([neg(pos[e][o]), neg(u), height_mid[x][0]] + match)
        for s in range(n):
            for h in range(self.max_height + 1):
                logic.clause([cover[s], neg(height_mid[s][h]), height_after[s][h]])
                if h + 1 <= self.max_height:
                    logic.clause([neg(cover[s]), neg(height_mid[s][h]), height_after[s][h + 1]])
            logic.clause([neg(cover[s]), neg(height_mid[s][self.max_height])])
            for f in range(self.face_values):
                logic.clause([cover[s], neg(face_mid[s][f]), face_after[s][f]])
        for e, (a, b) in enumerate(pairs):
            logic.clause([neg(placed[e]), one_after[e]])
            logic.clause([neg(one_mid[e]), cover[a], cover[b], one_after[e]])
            logic.clause([neg(one_after[e]), placed[e], one_mid[e]])
            logic.clause([neg(one_after[e]), placed[e], neg(cover[a])])
            logic.clause([neg(one_after[e]), placed[e], neg(cover[b])])

    # ---- fixing the start
    def init_lits(self, board: Board, free_tiles: Sequence[str] | None = None) -> list[Any]:
        """Literals that fix time 0 to the board (and which tiles are still free)."""
        r, logic = self.rules, self.logic
        out = []
        for s, (face, h) in enumerate(board.visible()):
            if h > self.max_height:
                raise ValueError("board higher than the model's max_height")
            out.append(self.height_is[0][s][h])
            out.append(self.face_is[0][s][self.empty if face is None else self.faces.index(face)])
        _, joined = board.key()
        for e in range(len(r.pairs)):
            out.append(self.one_tile[0][e] if e in joined else logic.neg(self.one_tile[0][e]))
        free = set(free_tiles) if free_tiles is not None else \
            set(self.tile_ids) - set(board.tiles_used())
        for tid, v in self.avail.items():
            out.append(v if tid in free else logic.neg(v))
        return out

    def fillers_at_most(self, n: int) -> Any:
        """A literal true when at most n gap fillers are placed over the K steps."""
        if n not in self._filler_limits:
            self._filler_limits[n] = self.logic.count(self.all_fills, Count("at most", n))
        return self._filler_limits[n]

    # ---- tasks
    def _pred(self, t: int, s: int, p: Pred) -> Any:
        key = (t, s, p)
        if key in self._pred_cache:
            return self._pred_cache[key]
        logic = self.logic
        if p.empty:
            lit = self.face_is[t][s][self.empty]
        else:
            fs = [self.face_is[t][s][i] for i, f in enumerate(self.faces)
                  if (p.colour is None or f[0] == p.colour)
                  and (p.number is None or f[1] == p.number)
                  and (p.parity is None or (f[1] % 2 == 0) == (p.parity == "even"))]
            lit = logic.or_(fs)
        if p.height is not None:
            hs = [self.height_is[t][s][h] for h in range(self.max_height + 1)
                  if (h >= p.height if p.height_or_more else h == p.height)]
            lit = logic.and_([lit, logic.or_(hs)])
        self._pred_cache[key] = lit
        return lit

    def holds(self, task: Task, t: int) -> Any:
        """A literal true exactly when `task` holds at time t."""
        logic, r = self.logic, self.rules
        out = []
        for line in task.region.lines(r):
            if task.kind == "count":
                out.append(logic.count([self._pred(t, s, task.pred) for s in line], task.count))
            elif task.kind == "distinct":
                n_values = r.colour_names if task.what == "colours" else \
                    sorted({f[1] for f in self.faces})
                present = []
                for v in range(len(n_values)):
                    val = v if task.what == "colours" else n_values[v]
                    p = Pred(colour=val) if task.what == "colours" else Pred(number=val)
                    present.append(logic.or_([self._pred(t, s, p) for s in line]))
                out.append(logic.count(present, task.count))
            elif task.kind == "more":
                a = [self._pred(t, s, task.pred) for s in line]
                b = [self._pred(t, s, task.pred2) for s in line]
                out.append(logic.or_([logic.and_([logic.count(a, Count("at least", j + 1)),
                                          logic.count(b, Count("at most", j))])
                                  for j in range(len(line))]))
            else:  # heights
                levels = [logic.or_([logic.and_([self._pred(t, s, task.pred),
                                                 self.height_is[t][s][h]])
                                     for s in line]) for h in range(self.max_height + 1)]
                out.append(logic.count(levels, task.count))
        return logic.and_(out) if task.region.quant == "every" else logic.or_(out)

    def fulfilled_within(self, task: Task) -> Any:
        """True when the task holds after some placement 1..K (fulfilled tasks leave)."""
        return self.logic.or_([self.holds(task, t) for t in range(1, self.k + 1)])

    # ---- reading a solution
    def decode(self, value: Any) -> list[Action]:
        """The placements of a model; value(lit) -> bool."""
        acts = []
        for t in range(self.k):
            filler = next((s for s, x in enumerate(self.fill[t]) if value(x)), None)
            tid = next(tid for tid, u in self.use[t].items() if value(u))
            e, o = next((e, o) for e, pe in enumerate(self.pos[t]) for o in (0, 1)
                        if value(pe[o]))
            a, b = self.rules.pairs[e]
            first, second = (a, b) if o == 0 else (b, a)
            acts.append(Action(tid, first, second, filler))
        return acts

    def state_key(self, t: int, value: Any) -> tuple:
        """The board key (as Board.key) of time t in a model."""
        vis = []
        for s in range(self.rules.n_spaces):
            h = next(h for h in range(self.max_height + 1) if value(self.height_is[t][s][h]))
            f = next(f for f in range(self.face_values) if value(self.face_is[t][s][f]))
            vis.append((None if f == self.empty else self.faces[f], h))
        joined = tuple(e for e in range(len(self.rules.pairs)) if value(self.one_tile[t][e]))
        return (tuple(vis), joined)

    def state_lits(self, t: int) -> list[Any]:
        """Every literal of the state at time t (for enumeration by blocking)."""
        return [x for row in self.height_is[t] for x in row] + \
            [x for row in self.face_is[t] for x in row] + list(self.one_tile[t])
