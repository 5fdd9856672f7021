"""The rest of a Hoch Hinaus! game with everything known, as one SAT model: can it
still be won?

Placements come from the K-step model of encode.py (K = the tiles still in hands and
reserve, the most turns the game can last; step t is played by the player on turn then,
with their hand and the tiles they drew from the reserve in its known order). Each step
may also be idle: nothing is laid and the state stays. Idle steps come only at the end,
so a line that wins after T < K turns is a model too. A step is written as encode.py
writes it, with its clauses switched off by its idle literal (`_GuardedClauses`), plus
the frame clauses "idle: the state stays, no tile, no gap filler".

The tasks, exactly as the engine runs them (state.py's fulfilled and filler_taken):
- done[X][t]  <->  done[X][t-1] or (up[X][t] and X holds on the board after step t).
- A task is up (turned up) from the moment fewer than 4 tasks ahead of it are undone.
  Ahead of pile task j: the open tasks, pile tasks 1..j-1 and every bonus task released
  so far (a released bonus task goes on top of the draw pile, or straight to the open
  ones when fewer than 4 lie there, which comes to the same).
- Bonus task b is released by the gap filler that empties it: once the gap fillers laid
  reach its threshold (2, 4, 7, 10 in a fresh game). Ahead of it then: every task up
  before this step, and the bonus tasks released after it (each goes on top).
Every definition is an equivalence, and "ahead" never loops, so a model's tasks are the
engine's: unsatisfiable means lost (every line of play loses), and a model's placements
are a winning line, which `solve` replays with the engine before answering.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from models.hoch_hinaus.achievable import allowed_tiles
from models.hoch_hinaus.board import Action
from models.hoch_hinaus.encode import StepModel
from models.hoch_hinaus.faces import FaceSteps
from models.hoch_hinaus.rules import Rules
from models.hoch_hinaus.state import GameState
from models.hoch_hinaus.tasks import Task
from solver.backends.sat import (
    INTERRUPTIBLE,
    KILLABLE,
    ClausesUntil,
    CnfBuilder,
    IncrementalSat,
    solve_in_worker,
)
from solver.counting import Count
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.logic import CnfLogic

#: solve_relaxed: the cap on heights lies this far above the highest space now, and is
#: raised by as much when a line the model found is not legal
CAP_ABOVE = 4


class _GuardedClauses(ClausesUntil):
    """The hard clauses of a builder that stops at `deadline` (as `CnfBuilder.stop_at`).
    While `guard` is set every clause added gets it as one more literal: a block of
    constraints that the guard, when true, switches off (auxiliary variables of
    cardinality encodings included)."""

    def __init__(self, deadline: Deadline) -> None:
        super().__init__([], deadline)
        self.guard: int | None = None

    def append(self, clause: list[int]) -> None:
        super().append(clause if self.guard is None else [*clause, self.guard])

    def extend(self, clauses: Any) -> None:
        g = self.guard
        super().extend(clauses if g is None else [[*c, g] for c in clauses])


class _IdleSteps(StepModel):
    """encode.py's K steps, each of which may be idle (see the module's docstring)."""

    def __init__(self, rules: Rules, logic: CnfLogic, clauses: _GuardedClauses, k: int,
                 allowed: Sequence[Sequence[str]], pros: bool, max_height: int,
                 fillers: bool) -> None:
        self._clauses = clauses
        self.idle: list[int] = []
        super().__init__(rules, logic, k, allowed, pros, max_height, fillers)

    def _step(self, t: int, allowed: Sequence[str], fillers: bool) -> None:
        logic = self.logic
        idle = logic.var()
        self._clauses.guard = idle  # a clause of the step holds unless the step is idle
        try:
            super()._step(t, allowed, fillers)
        finally:
            self._clauses.guard = None
        if self.idle:
            logic.clause([-self.idle[-1], idle])  # idle steps only at the end
        self.idle.append(idle)
        for before, after in ((self.height_is[t - 1], self.height_is[t]),
                              (self.face_is[t - 1], self.face_is[t])):
            for row_b, row_a in zip(before, after, strict=True):
                for x, y in zip(row_b, row_a, strict=True):
                    logic.clause([-idle, -x, y])
        for x, y in zip(self.one_tile[t - 1], self.one_tile[t], strict=True):
            logic.clause([-idle, -x, y])
            logic.clause([-idle, x, -y])
        for x in self.fill[-1]:
            logic.clause([-idle, -x])
        for u in self.use[-1].values():
            logic.clause([-idle, -u])


@dataclass
class GameModel:
    """The variables of the rest of a game: the steps, the tasks (open, pile, bonus, in
    the order they would be turned up without gap fillers), done[i][t], up[i][t], and
    `won` (assume it: every task that is out by the end is fulfilled)."""

    steps: _IdleSteps | FaceSteps
    tasks: list[Task]
    done: list[list[int]]
    up: list[list[int]]
    won: int
    builder: CnfBuilder
    horizon: int
    kinds: list[str] = field(default_factory=list)  # "open" | "pile" | "bonus"


def placements_left(game: GameState) -> int:
    """The most turns the game can still last: every tile in a hand or the reserve."""
    return sum(len(h) for h in game.hands) + len(game.reserve)


def encode_game(game: GameState, deadline: Deadline = NO_DEADLINE,
                horizon: int | None = None, relaxed: bool = False, cap: int | None = None,
                diff: int | None = None) -> GameModel:
    """The SAT model of the rest of `game` (everything known), within `horizon` turns
    (default: all that are left). TimeLimitReached when `deadline` passes first.
    `relaxed`: the steps of faces.py with heights capped at `cap` (None: faces alone),
    a relaxation (unsatisfiable still means lost; a model's line need not be legal);
    `diff`: faces.py's pair differences tracked within +-diff too."""
    rules = game.rules
    clauses = _GuardedClauses(deadline)
    b = CnfBuilder()
    b.hard = clauses
    logic = CnfLogic(b)
    # the constants of solver/counting.py, asserted outside every guarded step
    b.clause([b.var(("counting-true",))])
    b.clause([-b.var(("counting-false",))])
    k = placements_left(game) if horizon is None else horizon
    allowed = allowed_tiles(game, k, "known")
    n_fillers = game.fillers_left
    top = max(game.board.height(s) for s in range(rules.n_spaces))
    # each step raises a space by at most one tile and one gap filler
    max_height = top + k + min(n_fillers, k)
    steps: _IdleSteps | FaceSteps
    if relaxed:
        steps = FaceSteps(rules, logic, k, allowed, n_fillers > 0, cap, diff)
        init = steps.init_lits(game.board)
    else:
        steps = _IdleSteps(rules, logic, clauses, k, allowed, game.pros, max_height,
                           n_fillers > 0)
        init = steps.init_lits(game.board, sorted({t for a in allowed for t in a}))
    for lit in init:
        logic.clause([lit])
    true = logic.true

    cap = min(n_fillers, k)
    at_least = _fillers_laid(logic, steps, k, cap)

    opens = [t for t in game.open if t is not None]
    pile = [t for t in game.draw_pile if t is not None]
    bonus: list[tuple[Task, int]] = []  # (task, gap fillers laid that release it)
    laid = 0
    for bn in game.bonus:
        if bn.fillers > 0:
            laid += bn.fillers
            if laid <= cap and bn.task is not None:
                bonus.append((bn.task, laid))
    tasks = opens + pile + [t for t, _ in bonus]
    kinds = ["open"] * len(opens) + ["pile"] * len(pile) + ["bonus"] * len(bonus)
    n_open, n_pile = len(opens), len(pile)
    bonus_ids = range(n_open + n_pile, len(tasks))
    released = [[at_least[t][r] for t in range(k + 1)] for _, r in bonus]
    room = rules.open_tasks - 1  # a task turns up when at most this many ahead are undone
    done = [[-true] for _ in tasks]
    up = [[true if i < n_open else -true] for i in range(len(tasks))]
    for t in range(1, k + 1):
        # this step's literals first: a bonus task's count reads pile tasks' done[t]
        # and a pile task's reads the bonus tasks' (never both for one pair: see above)
        for i in range(len(tasks)):
            up[i].append(true if i < n_open else logic.var())
            done[i].append(logic.var())
        for i, task in enumerate(tasks):
            _define_or(logic, done[i][t], [done[i][t - 1],
                                           logic.and_([up[i][t], steps.holds(task, t)])])
        # bonus task b: every task up before this step, and the bonus tasks released
        # after it (each went on top of it)
        for bi, i in enumerate(bonus_ids):
            ahead = [logic.and_([up[x][t - 1], -done[x][t]]) for x in range(len(tasks))
                     if x not in bonus_ids[bi:]]
            ahead += [logic.and_([released[bj][t], -done[bonus_ids[bj]][t]])
                      for bj in range(bi + 1, len(bonus))]
            now = logic.and_([released[bi][t], logic.count(ahead, Count("at most", room))])
            _define_or(logic, up[i][t], [up[i][t - 1], now])
        # pile task j: the open tasks, pile tasks before it and every released bonus task
        undone = [logic.and_([released[bj][t], -done[bonus_ids[bj]][t]])
                  for bj in range(len(bonus))] + [-done[i][t] for i in range(n_open)]
        for j in range(n_pile):
            i = n_open + j
            now = logic.count(undone, Count("at most", room)) if undone else true
            _define_or(logic, up[i][t], [up[i][t - 1], now])
            undone.append(-done[i][t])
    won = logic.var()
    for i in range(n_open + n_pile):
        logic.clause([-won, done[i][k]])
    for bi, i in enumerate(bonus_ids):
        logic.clause([-won, -released[bi][k], done[i][k]])
    return GameModel(steps, tasks, done, up, won, b, k, kinds)


def _fillers_laid(logic: CnfLogic, steps: _IdleSteps | FaceSteps, k: int,
                  cap: int) -> list[list[int]]:
    """The gap fillers laid: at_least[t][j] <-> at least j of them after step t
    (j <= cap + 1), and never more than `cap` (the gap fillers left) in all."""
    true = logic.true
    at_least = [[true] + [-true] * (cap + 1)]
    for t in range(1, k + 1):
        filled = logic.or_(steps.fill[t - 1])
        prev, row = at_least[-1], [true]
        for j in range(1, cap + 2):
            x = logic.var()
            # x <-> prev[j] or (prev[j-1] and filled)
            logic.clause([-prev[j], x])
            logic.clause([-prev[j - 1], -filled, x])
            logic.clause([-x, prev[j], prev[j - 1]])
            logic.clause([-x, prev[j], filled])
            row.append(x)
        at_least.append(row)
    logic.clause([-at_least[k][cap + 1]])  # no more gap fillers than are left
    return at_least


def _define_or(logic: CnfLogic, x: int, lits: Sequence[int]) -> None:
    """x <-> OR(lits), on a literal made before."""
    logic.clause([-x, *lits])
    for y in lits:
        logic.clause([-y, x])


def decode(model: GameModel, value: set[int]) -> list[Action]:
    """The placements of a solution (its true literals), up to the first idle step."""
    steps, out = model.steps, []
    r = steps.rules
    for t in range(model.horizon):
        if steps.idle[t] in value:
            break
        filler = next((s for s, x in enumerate(steps.fill[t]) if x in value), None)
        tid = next(tid for tid, u in steps.use[t].items() if u in value)
        e, o = next((e, o) for e, pe in enumerate(steps.pos[t]) for o in (0, 1)
                    if pe[o] in value)
        a, c = r.pairs[e]
        first, second = (a, c) if o == 0 else (c, a)
        out.append(Action(tid, first, second, filler))
    return out


@dataclass
class ExactAnswer:
    """answer won (with `line`, replayed to a win by the engine) / lost (the model is
    unsatisfiable) / None (the conflict budget or the deadline came first)."""

    answer: Literal["won", "lost"] | None
    line: list[Action]
    clauses: int = 0
    variables: int = 0
    build_seconds: float = 0.0
    solve_seconds: float = 0.0
    cut_by_time: bool = False  # answer None: the deadline came first (not the budget)
    conflicts: int = 0  # solve: unused; solve_relaxed: the conflict budget of each model
    models: int = 0  # solve_relaxed: the models asked (one per cap)


def solve(game: GameState, deadline: Deadline = NO_DEADLINE,
          conflicts: int | None = None) -> ExactAnswer:
    """Can `game` (everything known, still playing) be won? Decided on the SAT model
    (Glucose) within `conflicts` (None: no budget), capped by `deadline`."""
    start = time.perf_counter()
    try:
        model = encode_game(game, deadline)
    except TimeLimitReached:
        return ExactAnswer(None, [], build_seconds=time.perf_counter() - start,
                           cut_by_time=True)
    built = time.perf_counter()
    res = ExactAnswer(None, [], len(model.builder.hard), model.builder.pool.top,
                      built - start)
    # handing the clauses to the solver cannot be interrupted and costs about what
    # building them did: not started when that much time is not left
    left = deadline.left()
    if left is not None and left < 0.5 * (built - start):
        res.cut_by_time = True
        return res
    with IncrementalSat(model.builder, name=INTERRUPTIBLE) as sat:
        try:
            sol = sat.solve_limited([model.won], deadline=deadline, conflicts=conflicts)
        except TimeLimitReached:
            res.solve_seconds = time.perf_counter() - built
            res.cut_by_time = deadline.passed()
            return res
    res.solve_seconds = time.perf_counter() - built
    if sol is None:
        res.answer = "lost"
        return res
    res.answer, res.line = "won", winning_prefix(game, decode(model, sol))
    return res


def winning_prefix(game: GameState, line: Sequence[Action]) -> list[Action]:
    """The placements of `line` up to the engine's win; RuntimeError when the engine
    does not reach a win on it (the model would be wrong)."""
    g = game
    out = []
    for a in line:
        if g.status != "playing":
            break
        g = g.apply_action(a)
        out.append(a)
    if g.status != "won":
        raise RuntimeError(f"the SAT model's line ends {g.status} when the engine plays it "
                           "(an encoding bug)")
    return out


def solve_relaxed(game: GameState, deadline: Deadline = NO_DEADLINE,
                  conflicts: int | None = None, cap: int | None = None,
                  solver: str = KILLABLE) -> ExactAnswer:
    """Can `game` (everything known, still playing) be won? Decided on the relaxed
    model of the rest of the game (faces.py: heights capped at `cap`, default the
    highest space now + CAP_ABOVE): unsatisfiable proves it lost; a model's line that
    the engine replays to a win proves it won. A line the engine refuses (a tile laid
    on spaces of the cap or more, not level in truth) raises the cap by CAP_ABOVE and
    the model is asked again, each model within `conflicts` (None: no budget), solved
    by `solver` in a worker process killed at `deadline` (Kissat: it decides these long
    models far sooner than Glucose, and does not report the conflicts it spent); None
    when the budget or the deadline comes first or the cap reaches the real model's
    bound."""
    start = time.perf_counter()
    top = max(game.board.height(s) for s in range(game.rules.n_spaces))
    k = placements_left(game)
    bound = top + k + min(game.fillers_left, k)  # no space can rise above it
    cap = min(bound, top + CAP_ABOVE if cap is None else cap)
    res = ExactAnswer(None, [], conflicts=conflicts or 0)
    while True:
        try:
            model = encode_game(game, deadline, relaxed=True, cap=cap)
        except TimeLimitReached:
            res.cut_by_time = True
            break
        res.clauses, res.variables = len(model.builder.hard), model.builder.pool.top
        try:
            sol = solve_in_worker(model.builder, [model.won], deadline, conflicts, solver)
        except TimeLimitReached:
            res.cut_by_time = deadline.passed()
            break
        res.models += 1
        if sol is None:
            res.answer = "lost"
            break
        line = _engine_win(game, decode(model, sol))
        if line is not None:
            res.answer, res.line = "won", line
            break
        if cap >= bound:
            break  # at the bound only the Pros rule is relaxed: not raised further
        cap = min(bound, cap + CAP_ABOVE)
    res.solve_seconds = time.perf_counter() - start
    return res


def _engine_win(game: GameState, line: Sequence[Action]) -> list[Action] | None:
    """The placements of `line` up to the engine's win, or None when the engine refuses
    one or the line does not win."""
    g, out = game, []
    for a in line:
        if g.status != "playing":
            break
        try:
            g = g.apply_action(a)
        except BadInput:
            return None
        out.append(a)
    return out if g.status == "won" else None
