"""SAT planning encoding of Topito: time-indexed, horizon grown one move at a time,
queried incrementally under assumptions (PySAT via solver.backends.sat).

State at step t ("blocks world" style): on(b, s, t) — block b rests directly on
support s, which is another block, a podium, or OUT (out of play); exactly one per
block. Derived (defined both ways, unique because the on-relation is acyclic):
clear(x, t) — nothing rests on block/podium x; pod(b, p, t) — b is in the stack on
podium p; top(y, p, t) — y is the top block of podium p.

Action at step t (t -> t+1): exactly one mv(b, q, t) — put out-of-play block b, or
lift b with everything above it, onto podium q. Preconditions: b is not already in
the stack on q; no-reversal: a lift of b from p bans mv(b, p, t+1) (and the
position's last move bans the first move). Effects: b rests on the top of q (or on
q itself when empty); frame: every other block keeps its support, so the blocks
above b travel with it without any clause of their own.

Goals are literals that imply a card at step t (only one direction is needed: the
solver may set them true only when the card holds). Order and rank cards use
above(x, y, t) and height h(x, k, t), created on demand per step.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.topito.rules import Card, Goal, Stacks
from models.topito.state import Move, State
from models.topito.work import UNLIMITED, Work
from solver.backends.sat import INTERRUPTIBLE, CnfBuilder, IncrementalSat
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import TimeLimitReached

SAT_SOLVER = INTERRUPTIBLE  # Glucose: PySAT's CaDiCaL cannot stop at a deadline


class SatPlanner:
    """One incremental SAT solver for plans from a fixed start state.

    `reduce_for`: a goal whose symmetries may be broken. Then only some of the shortest
    plans stay (never all lengths change): interchangeable blocks are put in index
    order, interchangeable empty podiums are first used in index order, and two puts in
    a row onto different podiums come in block order. Leave it None when plans are
    counted or a first move is assumed (hint, generate)."""

    def __init__(self, state: State, reduce_for: Goal | None = None,
                 banned: Sequence[int] = (), free_start: bool = False) -> None:
        self.state = state
        # blocks that may not be taken in hand (a puzzle's ban list): their move
        # literals are false at every step; they may still ride on a lifted block
        self.banned = tuple(banned)
        self.n = state.rules.n_blocks
        self.m = state.rules.n_podiums
        self.OUT = self.n + self.m  # supports: blocks 0..n-1, podiums n..n+m-1, OUT
        self.cnf = CnfBuilder()
        self.v = self.cnf.var
        self.horizon = 0
        self._goal_lits: dict[tuple, int] = {}
        self._defined: set[tuple] = set()
        self._state_vars(0)
        if free_start:  # any arrangement at step 0 (arrangement_exists)
            self._acyclic_start()
        else:
            self._fix_start()
        self.sym_blocks: list[int] = []
        self.sym_podiums: list[int] = []
        self.reduce = reduce_for is not None
        if reduce_for is not None:
            self._symmetries(reduce_for)
        self.sat = IncrementalSat(self.cnf, SAT_SOLVER)

    def _symmetries(self, goal: Goal) -> None:
        """Blocks out of play and named by no card are interchangeable (the position,
        the ban and the goal do not tell them apart); so are empty podiums named by no
        card and not in the ban. Any plan can be relabelled to use them in index order."""
        named = {b for c in goal.cards for b in c.blocks} | set(self.banned)
        placed = {b for s in self.state.stacks for b in s}
        self.sym_blocks = [b for b in range(self.n) if b not in named and b not in placed]
        used = {c.podium for c in goal.cards if c.podium is not None}
        if self.state.ban is not None:
            used.add(self.state.ban[1])
        self.sym_podiums = [p for p in range(self.m) if not self.state.stacks[p]
                            and p not in used]
        for i in range(len(self.sym_podiums) - 1):
            self.cnf.clause([self.v(("unused", i, 0))])

    # ---------------------------------------------------------------- variables
    def on(self, b: int, s: int, t: int) -> int:
        return self.v(("on", b, s, t))

    def mv(self, b: int, q: int, t: int) -> int:
        return self.v(("mv", b, q, t))

    def pod(self, b: int, p: int, t: int) -> int:
        return self.v(("pod", b, p, t))

    def clear(self, x: int, t: int) -> int:
        return self.v(("clear", x, t))

    def top(self, y: int, p: int, t: int) -> int:
        return self.v(("top", y, p, t))

    def supports(self, b: int) -> list[int]:
        return [s for s in range(self.OUT + 1) if s != b]

    # ---------------------------------------------------------------- state layer
    def _state_vars(self, t: int) -> None:
        c, n, m = self.cnf, self.n, self.m
        for b in range(n):
            c.exactly_one([self.on(b, s, t) for s in self.supports(b)])
        for x in range(n + m):  # clear(x) <-> nothing on x
            below = [self.on(b, x, t) for b in range(n) if b != x]
            for lit in below:
                c.clause([-lit, -self.clear(x, t)])
            c.clause([self.clear(x, t)] + below)
            c.at_most(below, 1)
        for p in range(m):
            P = n + p
            for b in range(n):
                # pod(b,p) <-> on(b,P) or OR_y (on(b,y) and pod(y,p))
                alts = [self.on(b, P, t)]
                c.implies(self.on(b, P, t), self.pod(b, p, t))
                for y in range(n):
                    if y == b:
                        continue
                    a = self.v(("onpod", b, y, p, t))
                    c.implies(a, self.on(b, y, t))
                    c.implies(a, self.pod(y, p, t))
                    c.clause([-self.on(b, y, t), -self.pod(y, p, t), a])
                    c.implies(a, self.pod(b, p, t))
                    alts.append(a)
                c.clause([-self.pod(b, p, t)] + alts)
                # top(b,p) <-> pod(b,p) and clear(b)
                c.implies(self.top(b, p, t), self.pod(b, p, t))
                c.implies(self.top(b, p, t), self.clear(b, t))
                c.clause([-self.pod(b, p, t), -self.clear(b, t), self.top(b, p, t)])
            for b in range(n):  # a block is in at most one stack
                for q in range(p + 1, m):
                    c.clause([-self.pod(b, p, t), -self.pod(b, q, t)])

    def _acyclic_start(self) -> None:
        """A free step 0 must still be stacks: no block rests on itself through others
        (the state layer alone allows a ring of blocks resting on one another, which the
        start and the moves otherwise rule out). r(x, y): x rests on y through others."""
        n, c = self.n, self.cnf
        for x in range(n):
            c.clause([-self.v(("rests", x, x))])
            for y in range(n):
                if y == x:
                    continue
                c.implies(self.on(x, y, 0), self.v(("rests", x, y)))
                for z in range(n):
                    if z != y:
                        c.clause([-self.v(("rests", x, y)), -self.on(y, z, 0),
                                  self.v(("rests", x, z))])

    def _fix_start(self) -> None:
        st = self.state
        support = {b: self.OUT for b in range(self.n)}
        for p, s in enumerate(st.stacks):
            for i, b in enumerate(s):
                support[b] = self.n + p if i == 0 else s[i - 1]
        for b, s in support.items():
            self.cnf.clause([self.on(b, s, 0)])
        if st.ban is not None:
            b, q = st.ban
            self.cnf.clause([-self.mv(b, q, 0)])

    # ---------------------------------------------------------------- transitions
    def _step(self, t: int) -> None:
        """Actions at t and the state at t+1."""
        c, n, m = self.cnf, self.n, self.m
        self._state_vars(t + 1)
        moves = [self.mv(b, q, t) for b in range(n) for q in range(m)]
        c.exactly_one(moves)
        for b in self.banned:
            for q in range(m):
                c.clause([-self.mv(b, q, t)])
        for b in range(n):
            for q in range(m):
                a = self.mv(b, q, t)
                c.implies(a, -self.pod(b, q, t))
                for y in range(n):
                    if y != b:
                        c.clause([-a, -self.top(y, q, t), self.on(b, y, t + 1)])
                c.clause([-a, -self.clear(n + q, t), self.on(b, n + q, t + 1)])
                for p in range(m):  # no-reversal: a lift from p bans the way back
                    if p != q and self.state.reversal_rule:
                        c.clause([-a, -self.pod(b, p, t), -self.mv(b, p, t + 1)])
            moved = [self.mv(b, q, t) for q in range(m)]
            for s in self.supports(b):  # frame: an unmoved block keeps its support
                c.clause([-self.on(b, s, t), self.on(b, s, t + 1)] + moved)
                c.clause([self.on(b, s, t), -self.on(b, s, t + 1)] + moved)
        if self.reduce:
            self._reduce_step(t)

    def _reduce_step(self, t: int) -> None:
        """Symmetry breaking and put-put ordering at step t (see _symmetries)."""
        c, n, m, OUT = self.cnf, self.n, self.m, self.OUT
        for x, y in zip(self.sym_blocks, self.sym_blocks[1:], strict=False):
            for q in range(m):  # y is not put while x is still out of play
                c.clause([-self.on(x, OUT, t), -self.mv(y, q, t)])
        for i, (p, q) in enumerate(zip(self.sym_podiums, self.sym_podiums[1:], strict=False)):
            u, u2 = self.v(("unused", i, t)), self.v(("unused", i, t + 1))
            targets = [self.mv(b, r, t) for b in range(n) for r in (p, q)]
            for b in range(n):  # while neither was used, q is not used before p
                c.clause([-u, -self.mv(b, q, t)])
            c.clause([-u] + targets + [u2])
        # two puts in a row onto different podiums commute: keep block order
        for b2 in range(n):
            for b1 in range(b2):
                for q2 in range(m):
                    for q1 in range(m):
                        if q1 != q2:
                            c.clause([-self.mv(b2, q2, t), -self.on(b2, OUT, t),
                                      -self.mv(b1, q1, t + 1), -self.on(b1, OUT, t + 1)])

    def extend(self, horizon: int) -> None:
        while self.horizon < horizon:
            self._step(self.horizon)
            self.horizon += 1

    # ---------------------------------------------------------------- goals
    def _above(self, x: int, y: int, t: int) -> int:
        """A literal implying that x is somewhere above y in the same stack."""
        key = ("above", y, t)
        if key not in self._defined:
            self._defined.add(key)
            for z in range(self.n):
                if z == y:
                    continue
                alts = [self.on(z, y, t)]
                for w in range(self.n):
                    if w in (y, z):
                        continue
                    a = self.v(("abv-via", z, w, y, t))
                    self.cnf.implies(a, self.on(z, w, t))
                    self.cnf.implies(a, self.v(("above", w, y, t)))
                    alts.append(a)
                self.cnf.clause([-self.v(("above", z, y, t))] + alts)
        return self.v(("above", x, y, t))

    def _height(self, x: int, k: int, t: int) -> int:
        """A literal implying that x is the k-th block from the bottom (1 = on a podium)."""
        key = ("h", k, t)
        if key not in self._defined:
            self._defined.add(key)
            for b in range(self.n):
                h = self.v(("h", b, k, t))
                if k == 1:
                    self.cnf.clause([-h] + [self.on(b, self.n + p, t) for p in range(self.m)])
                    continue
                alts = []
                for y in range(self.n):
                    if y != b:
                        a = self.v(("h-via", b, y, k, t))
                        self.cnf.implies(a, self.on(b, y, t))
                        self.cnf.implies(a, self._height(y, k - 1, t))
                        alts.append(a)
                self.cnf.clause([-h] + alts)
        return self.v(("h", x, k, t))

    def card_lit(self, card: Card, t: int) -> int:
        """A literal that forces `card` to be met at step t."""
        key = (card, t)
        if key in self._goal_lits:
            return self._goal_lits[key]
        g = self.v(("card", card, t))
        c = self.cnf
        if card.kind == "podium":
            for b in card.blocks:
                c.implies(g, self.pod(b, card.podium, t))
        elif card.kind == "pair":
            lower, upper = card.blocks
            c.implies(g, self.on(upper, lower, t))
        elif card.kind == "order":
            a, b, d = card.blocks
            c.implies(g, self._above(b, a, t))
            c.implies(g, self._above(d, b, t))
        else:
            x = card.blocks[0]
            c.implies(g, self._height(x, card.rank, t))
            c.implies(g, -self.clear(x, t))
        self._goal_lits[key] = g
        return g

    def goal_lit(self, goal: Goal, t: int) -> int:
        key = (goal, t)
        if key in self._goal_lits:
            return self._goal_lits[key]
        g = self.v(("goal", goal, t))
        lits = [self.card_lit(card, t) for card in goal.cards]
        if goal.mode == "all":
            for lit in lits:
                self.cnf.implies(g, lit)
        else:
            self.cnf.clause([-g] + lits)
        self._goal_lits[key] = g
        return g

    def moved_lit(self, blocks: int, t: int) -> int:
        """A literal implying that one of `blocks` (a bit mask) is taken in hand by
        one of the first t moves (a necessary condition the lower bound proved)."""
        key = ("moved", blocks, t)
        if key not in self._goal_lits:
            lit = self._goal_lits[key] = self.v(key)
            self.cnf.clause([-lit] + [self.mv(b, q, s) for s in range(t)
                                      for b in range(self.n) if blocks >> b & 1
                                      for q in range(self.m)])
        return self._goal_lits[key]

    # ---------------------------------------------------------------- solving
    def solve(self, assumptions: Sequence[int], deadline: Deadline = NO_DEADLINE,
              work: Work | None = None) -> set[int] | None:
        """A model (true literals) or None (unsatisfiable); TimeLimitReached when the
        deadline passes first or the conflicts of `work` run out (`work` says which and
        counts the conflicts spent)."""
        left = None if work is None else work.conflicts_left()
        if left == 0:
            assert work is not None
            work.spent_out = True
            raise TimeLimitReached("the SAT solver's conflict budget is spent")
        before = self.conflicts
        try:
            return self.sat.solve_limited(assumptions, deadline,
                                          UNLIMITED if left is None else left)
        except TimeLimitReached:
            if work is not None:
                if deadline.passed():
                    work.cut_by_time = True
                else:
                    work.spent_out = True
            raise
        finally:
            if work is not None:
                work.used_conflicts += self.conflicts - before

    @property
    def conflicts(self) -> int:
        """Conflicts the solver has met so far (its work, whatever the machine)."""
        return int(self.sat.solver.accum_stats().get("conflicts", 0))

    def moves_of(self, model: set[int], length: int) -> list[Move]:
        """The move sequence of a model, read with the rules engine's vocabulary."""
        moves = []
        for t in range(length):
            stacks = self.stacks_at(model, t)
            (b, q), = [(b, q) for b in range(self.n) for q in range(self.m)
                       if self.mv(b, q, t) in model]
            src = next((p for p, s in enumerate(stacks) if b in s), None)
            moves.append(Move(b, src, q))
        return moves

    def stacks_at(self, model: set[int], t: int) -> Stacks:
        """Decode the stacks at step t from the on-variables."""
        above = {}
        for b in range(self.n):
            for s in self.supports(b):
                if self.on(b, s, t) in model and s != self.OUT:
                    above[s] = b
        stacks = []
        for p in range(self.m):
            s, x = [], self.n + p
            while x in above and len(s) <= self.n:
                x = above[x]
                s.append(x)
            stacks.append(tuple(s))
        return tuple(stacks)

    def close(self) -> None:
        self.sat.close()

    def __enter__(self) -> SatPlanner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def arrangement_exists(state: State, goal: Goal, deadline: Deadline = NO_DEADLINE,
                       work: Work | None = None) -> bool:
    """Can any arrangement of the blocks meet the goal at all (whatever the moves)?
    No: no plan of any length exists (e.g. "Cat on Bear" with "rank 1: Cat").
    TimeLimitReached when the deadline or the conflicts of `work` stop it."""
    with SatPlanner(state, free_start=True) as planner:
        return planner.solve([planner.goal_lit(goal, 0)], deadline, work) is not None


def sat_plan(state: State, goal: Goal, max_depth: int, deadline: Deadline = NO_DEADLINE,
             planner: SatPlanner | None = None, first: Move | None = None,
             lower: int = 0, must_move: Sequence[int] = (), work: Work | None = None
             ) -> tuple[str, int | None, list[Move], int]:
    """Growing horizon: the first step t at which the goal is satisfiable is the
    shortest plan; unsatisfiability at every smaller t is the proof.

    `lower`: plans shorter than this are ruled out already (a lower bound): the
    horizon starts there. `must_move`: bit masks of blocks of which one at least must
    be taken in hand by every plan (astar.PlanBound.required), assumed at each horizon.

    Returns (status, length, moves, depth_done) like bfs.SearchOutcome: status
    optimal | infeasible | unknown (the deadline or the conflicts of `work` stopped it:
    `work` says which); depth_done = plans of at most this length ruled out (or
    examined)."""
    own = planner is None
    planner = planner or SatPlanner(state, reduce_for=goal if first is None else None)
    try:
        start = max(1 if first is not None else 0, lower)
        if start > max_depth:
            return "infeasible", None, [], max_depth
        assume = [] if first is None else [planner.mv(first.block, first.target, 0)]
        for t in range(start, max_depth + 1):
            planner.extend(t)
            need = [planner.moved_lit(mask, t) for mask in must_move]
            try:
                model = planner.solve(assume + need + [planner.goal_lit(goal, t)], deadline,
                                      work)
            except TimeLimitReached:
                return "unknown", None, [], t - 1
            if model is not None:
                return "optimal", t, planner.moves_of(model, t), t - 1
        return "infeasible", None, [], max_depth
    finally:
        if own:
            planner.close()


class SatSearch:
    """sat_plan in slices (`run(deadline)`), for `plan --backend auto`, which alternates
    it with A*: a call interrupted at `deadline` is asked again at the same horizon (the
    solver keeps what it learnt); `skip_to(k)` lets a horizon start at k when every
    shorter plan was ruled out by someone else. `start`: the horizons below it were
    ruled out before (the lower bound)."""

    def __init__(self, state: State, goal: Goal, max_depth: int, start: int = 0,
                 must_move: Sequence[int] = ()) -> None:
        self.state, self.goal, self.max_depth = state, goal, max_depth
        self.must_move = tuple(must_move)
        self.planner: SatPlanner | None = None
        self.t = start  # the horizon being decided
        self.outcome: tuple[str, int | None, list[Move], int] | None = None
        if start > max_depth:
            self.outcome = ("infeasible", None, [], max_depth)

    def skip_to(self, t: int) -> None:
        self.t = max(self.t, t)
        if self.outcome is None and self.t > self.max_depth:
            self.outcome = ("infeasible", None, [], self.max_depth)

    def run(self, deadline: Deadline = NO_DEADLINE, work: Work | None = None,
            turn: int | None = None) -> tuple[str, int | None, list[Move], int] | None:
        """(status, length, moves, depth_done) as sat_plan, or None when `deadline`
        passed, this turn's `turn` conflicts or those of `work` ran out first (call again
        to go on; `work` counts the conflicts and says what stopped it)."""
        if self.outcome is not None:
            return self.outcome
        left = None if work is None else work.conflicts_left()
        budget = Work(conflicts=left if turn is None else turn if left is None
                      else min(turn, left))
        try:
            return self._run(deadline, budget)
        finally:
            if work is not None:
                work.used_conflicts += budget.used_conflicts
                work.cut_by_time |= budget.cut_by_time
                work.spent_out |= work.conflicts_left() == 0

    def _run(self, deadline: Deadline, budget: Work
             ) -> tuple[str, int | None, list[Move], int] | None:
        try:
            # the clauses of a step are added whole (a step cut in the middle would leave
            # literals half defined): a slice may run over by one step's building
            if self.planner is None:
                self.planner = SatPlanner(self.state, reduce_for=self.goal)
            planner = self.planner
            while self.t <= self.max_depth:
                t = self.t
                planner.extend(t)
                need = [planner.moved_lit(mask, t) for mask in self.must_move]
                model = planner.solve(need + [planner.goal_lit(self.goal, t)], deadline,
                                      budget)
                if model is not None:
                    self.outcome = ("optimal", t, planner.moves_of(model, t), t - 1)
                    return self.close()
                self.t = t + 1
        except TimeLimitReached:
            return None
        self.outcome = ("infeasible", None, [], self.max_depth)
        return self.close()

    def close(self) -> tuple[str, int | None, list[Move], int] | None:
        if self.planner is not None:
            self.planner.close()
            self.planner = None
        return self.outcome
