"""K placement steps of Hoch Hinaus! as a Boolean model, for PySAT (CNF) and CP-SAT.

The model is written once against the small logic interface of solver/logic.py, with
two back-ends: `CnfLogic` (PySAT clauses) and `CpLogic` (CP-SAT).

State at time t (0 = the position, t = after the t-th placement), per space s:
  H[t][s][k]  height k (one-hot), F[t][s][f]  visible face f (one-hot; f indexes
  rules.all_faces, the last value EMPTY), and per neighbouring pair e: J[t][e] "the
  tops of both spaces are one tile" (what the congruence rule looks at).
Step t: fill[t][s] (a gap filler first; its mid state Hm/Fm/Jm), pos[t][e][o] (the pair
and which way round), use[t][tile]. The rules engine (board.py) is the reference; tests
hold the set of one-step successors equal to the engine's.
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
        self.r, self.L, self.k, self.pros = rules, logic, k, pros
        self.hmax = max_height
        L = logic
        self.faces = list(rules.all_faces)
        self.EMPTY = len(self.faces)
        self.nf = len(self.faces) + 1
        self.tile_ids = [t.id for t in rules.tiles]
        self.avail = {t: L.var() for t in self.tile_ids}
        self.H = [self._heights() for _ in range(k + 1)]
        self.F = [self._faces() for _ in range(k + 1)]
        self.J = [[L.var() for _ in rules.pairs] for _ in range(k + 1)]
        self.fill: list[list[Any]] = []
        self.pos: list[list[list[Any]]] = []
        self.use: list[dict[str, Any]] = []
        self._pred_cache: dict = {}
        for t in range(1, k + 1):
            self._step(t, allowed[t - 1], fillers)
        for tid in self.tile_ids:  # each tile at most once
            uses = [u[tid] for u in self.use if tid in u]
            if len(uses) > 1:
                L.at_most_one(uses)
        self.all_fills = [x for row in self.fill for x in row]
        self._filler_limits: dict[int, Any] = {}

    def _heights(self) -> list[list[Any]]:
        out = [[self.L.var() for _ in range(self.hmax + 1)] for _ in range(self.r.n_spaces)]
        for row in out:
            self.L.exactly_one(row)
        return out

    def _faces(self) -> list[list[Any]]:
        out = [[self.L.var() for _ in range(self.nf)] for _ in range(self.r.n_spaces)]
        for row in out:
            self.L.exactly_one(row)
        return out

    def _step(self, t: int, allowed: Sequence[str], fillers: bool) -> None:
        r, L, neg = self.r, self.L, self.L.neg
        n, pairs = r.n_spaces, r.pairs
        H0, F0, J0 = self.H[t - 1], self.F[t - 1], self.J[t - 1]
        H1, F1, J1 = self.H[t], self.F[t], self.J[t]
        fill = [L.var() for _ in range(n)]
        if not fillers:
            for x in fill:
                L.clause([neg(x)])
        L.at_most_one(fill)
        self.fill.append(fill)
        # mid state: after the optional gap filler
        Hm, Fm = self._heights(), self._faces()
        black = self.faces.index(r.filler_face)
        for s in range(n):
            for h in range(self.hmax + 1):
                L.clause([fill[s], neg(H0[s][h]), Hm[s][h]])
                if h + 1 <= self.hmax:
                    L.clause([neg(fill[s]), neg(H0[s][h]), Hm[s][h + 1]])
            L.clause([neg(fill[s]), neg(H0[s][self.hmax])])
            L.clause([neg(fill[s]), Fm[s][black]])
            for f in range(self.nf):
                L.clause([fill[s], neg(F0[s][f]), Fm[s][f]])
        Jm = []
        for e, (a, b) in enumerate(pairs):
            x = L.var()
            L.clause([neg(x), J0[e]])
            L.clause([neg(x), neg(fill[a])])
            L.clause([neg(x), neg(fill[b])])
            L.clause([x, neg(J0[e]), fill[a], fill[b]])
            Jm.append(x)
        # the placement
        pos = [[L.var(), L.var()] for _ in pairs]
        L.exactly_one([p for pe in pos for p in pe])
        self.pos.append(pos)
        use = {tid: L.var() for tid in dict.fromkeys(allowed)}
        L.exactly_one(list(use.values()))
        for tid, u in use.items():
            L.clause([neg(u), self.avail[tid]])
        self.use.append(use)
        P = [L.or_(pe) for pe in pos]
        cover = [L.or_([P[e] for e, pr in enumerate(pairs) if s in pr]) for s in range(n)]
        for e, (a, b) in enumerate(pairs):
            for h in range(self.hmax + 1):  # flat: equal heights
                L.clause([neg(P[e]), neg(Hm[a][h]), Hm[b][h]])
                L.clause([neg(P[e]), neg(Hm[b][h]), Hm[a][h]])
            L.clause([neg(P[e]), neg(Jm[e])])  # never congruent on one tile
            for o, (x, y) in enumerate(((a, b), (b, a))):
                for tid, u in use.items():
                    fx, fy = r.tile_by_id[tid].faces
                    ix, iy = self.faces.index(fx), self.faces.index(fy)
                    L.clause([neg(pos[e][o]), neg(u), F1[x][ix]])
                    L.clause([neg(pos[e][o]), neg(u), F1[y][iy]])
                    if self.pros:  # one face matches the one below (black: joker)
                        match = [Fm[x][i] for i, f in enumerate(self.faces)
                                 if f[0] in (fx[0], r.black) or f[1] == fx[1]]
                        match += [Fm[y][i] for i, f in enumerate(self.faces)
                                  if f[0] in (fy[0], r.black) or f[1] == fy[1]]
                        L.clause([neg(pos[e][o]), neg(u), Hm[x][0]] + match)
        for s in range(n):
            for h in range(self.hmax + 1):
                L.clause([cover[s], neg(Hm[s][h]), H1[s][h]])
                if h + 1 <= self.hmax:
                    L.clause([neg(cover[s]), neg(Hm[s][h]), H1[s][h + 1]])
            L.clause([neg(cover[s]), neg(Hm[s][self.hmax])])
            for f in range(self.nf):
                L.clause([cover[s], neg(Fm[s][f]), F1[s][f]])
        for e, (a, b) in enumerate(pairs):
            L.clause([neg(P[e]), J1[e]])
            L.clause([neg(Jm[e]), cover[a], cover[b], J1[e]])
            L.clause([neg(J1[e]), P[e], Jm[e]])
            L.clause([neg(J1[e]), P[e], neg(cover[a])])
            L.clause([neg(J1[e]), P[e], neg(cover[b])])

    # ---- fixing the start
    def init_lits(self, board: Board, free_tiles: Sequence[str] | None = None) -> list[Any]:
        """Literals that fix time 0 to the board (and which tiles are still free)."""
        r, L = self.r, self.L
        out = []
        for s, (face, h) in enumerate(board.visible()):
            if h > self.hmax:
                raise ValueError("board higher than the model's max_height")
            out.append(self.H[0][s][h])
            out.append(self.F[0][s][self.EMPTY if face is None else self.faces.index(face)])
        _, joined = board.key()
        for e in range(len(r.pairs)):
            out.append(self.J[0][e] if e in joined else L.neg(self.J[0][e]))
        free = set(free_tiles) if free_tiles is not None else \
            set(self.tile_ids) - set(board.tiles_used())
        for tid, v in self.avail.items():
            out.append(v if tid in free else L.neg(v))
        return out

    def fillers_at_most(self, n: int) -> Any:
        """A literal true when at most n gap fillers are placed over the K steps."""
        if n not in self._filler_limits:
            self._filler_limits[n] = self.L.count(self.all_fills, Count("at most", n))
        return self._filler_limits[n]

    # ---- tasks
    def _pred(self, t: int, s: int, p: Pred) -> Any:
        key = (t, s, p)
        if key in self._pred_cache:
            return self._pred_cache[key]
        L = self.L
        if p.empty:
            lit = self.F[t][s][self.EMPTY]
        else:
            fs = [self.F[t][s][i] for i, f in enumerate(self.faces)
                  if (p.colour is None or f[0] == p.colour)
                  and (p.number is None or f[1] == p.number)
                  and (p.parity is None or (f[1] % 2 == 0) == (p.parity == "even"))]
            lit = L.or_(fs)
        if p.height is not None:
            hs = [self.H[t][s][h] for h in range(self.hmax + 1)
                  if (h >= p.height if p.height_or_more else h == p.height)]
            lit = L.and_([lit, L.or_(hs)])
        self._pred_cache[key] = lit
        return lit

    def holds(self, task: Task, t: int) -> Any:
        """A literal true exactly when `task` holds at time t."""
        L, r = self.L, self.r
        out = []
        for line in task.region.lines(r):
            if task.kind == "count":
                out.append(L.count([self._pred(t, s, task.pred) for s in line], task.count))
            elif task.kind == "distinct":
                n_values = r.colour_names if task.what == "colours" else \
                    sorted({f[1] for f in self.faces})
                present = []
                for v in range(len(n_values)):
                    val = v if task.what == "colours" else n_values[v]
                    p = Pred(colour=val) if task.what == "colours" else Pred(number=val)
                    present.append(L.or_([self._pred(t, s, p) for s in line]))
                out.append(L.count(present, task.count))
            elif task.kind == "more":
                a = [self._pred(t, s, task.pred) for s in line]
                b = [self._pred(t, s, task.pred2) for s in line]
                out.append(L.or_([L.and_([L.count(a, Count("at least", j + 1)),
                                          L.count(b, Count("at most", j))])
                                  for j in range(len(line))]))
            else:  # heights
                levels = [L.or_([L.and_([self._pred(t, s, task.pred), self.H[t][s][h]])
                                 for s in line]) for h in range(self.hmax + 1)]
                out.append(L.count(levels, task.count))
        return L.and_(out) if task.region.quant == "every" else L.or_(out)

    def fulfilled_within(self, task: Task) -> Any:
        """True when the task holds after some placement 1..K (fulfilled tasks leave)."""
        return self.L.or_([self.holds(task, t) for t in range(1, self.k + 1)])

    # ---- reading a solution
    def decode(self, value: Any) -> list[Action]:
        """The placements of a model; value(lit) -> bool."""
        acts = []
        for t in range(self.k):
            filler = next((s for s, x in enumerate(self.fill[t]) if value(x)), None)
            tid = next(tid for tid, u in self.use[t].items() if value(u))
            e, o = next((e, o) for e, pe in enumerate(self.pos[t]) for o in (0, 1)
                        if value(pe[o]))
            a, b = self.r.pairs[e]
            first, second = (a, b) if o == 0 else (b, a)
            acts.append(Action(tid, first, second, filler))
        return acts

    def state_key(self, t: int, value: Any) -> tuple:
        """The board key (as Board.key) of time t in a model."""
        vis = []
        for s in range(self.r.n_spaces):
            h = next(h for h in range(self.hmax + 1) if value(self.H[t][s][h]))
            f = next(f for f in range(self.nf) if value(self.F[t][s][f]))
            vis.append((None if f == self.EMPTY else self.faces[f], h))
        joined = tuple(e for e in range(len(self.r.pairs)) if value(self.J[t][e]))
        return (tuple(vis), joined)

    def state_lits(self, t: int) -> list[Any]:
        """Every literal of the state at time t (for enumeration by blocking)."""
        return [x for row in self.H[t] for x in row] + \
            [x for row in self.F[t] for x in row] + list(self.J[t])
