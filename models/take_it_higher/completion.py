"""Completions for the hint under a small solver budget, with the stud pattern in mind.

Under the gold/silver scoring one CP-SAT model of a completion finds poor boards within a
hint's budget (the stud and colour choices interact; docs/take-it-higher.md). With the
studs of the free cells fixed, the same model is easy. So, within one budget:

1. a studs-only master (the one `max` decomposes by) proposes a few stud patterns by
   decreasing bonus bound (best found, not necessarily proven);
2. each pattern is solved with its studs fixed, asking only for a better board;
3. the whole model is solved from the best board so far (a CP-SAT solution hint),
   asking only for a better one: "infeasible" there proves the board optimal.

Deterministic when the budget is CP-SAT deterministic time on one worker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ortools.sat.python import cp_model

from models.take_it_higher import encode_cpsat
from models.take_it_higher.encode import MaxProblem
from models.take_it_higher.maximum import solve_completion
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import Tile
from models.take_it_higher.spaceships import ring_bonus
from solver.backends import SolveOutcome, SolverOptions, cpsat
from solver.deadline import NO_DEADLINE, Deadline

# shares of the budget: each master solve, each pattern solve; the rest is the whole model
MASTER_SHARE = 0.04
PATTERN_SHARE = 0.14
PATTERNS = 3
# with a time limit (not a work budget), the patterns only from this many seconds on
PATTERN_SECONDS = 0.5


def stud_completion(problem: MaxProblem, options: SolverOptions, patterns: int = PATTERNS,
                    starts: Sequence[dict[str, Tile]] = ()
                    ) -> tuple[dict[str, Tile] | None, SolveOutcome]:
    """The best completion found of a partly filled board whose free cells get exactly
    the tiles of `problem.draw`, within the budget of `options` (its deterministic time,
    else its time limit), trying `patterns` stud patterns first under the gold/silver
    scoring, and only boards better than the best of `starts` (completions of the same
    problem known already). Returns the board and the outcome (status "optimal" only
    when proven)."""
    gold_silver = problem.variant.gold_silver
    best: dict[str, Tile] | None = None
    value = -1
    for board in starts:
        score = board_score(problem.rules, board, gold_silver)
        if score > value:
            best, value = board, score
    if not (gold_silver and problem.rules.stud_bonus):
        # one model is good enough there; a known board as its start finds the optimum
        # more often within a small budget (docs: "Warm starts")
        if best is None:
            return solve_completion(problem, options)
        return _whole(problem, options, best, value)
    split = _Budget(options)
    if not split.by_work and (split.total is None or split.total < PATTERN_SECONDS):
        patterns = 0  # a short clock: building the pattern models would eat it
    if patterns > 0:
        master, stud_at, _ = encode_cpsat.stud_master(problem)
    for _ in range(patterns):
        solver, out = cpsat.solve(master, split.share(MASTER_SHARE))
        split.charge(solver)
        if not out.has_solution:
            break
        chosen = [key for key, var in stud_at.items() if solver.value(var)]
        pattern = dict(chosen)
        # the next master solve proposes another pattern
        master.add_bool_or([~stud_at[key] for key in chosen])
        board_model = encode_cpsat.build(problem, pair_cuts=True, stud_pattern=pattern,
                                         at_least=value + 1)
        solver, sub = cpsat.solve(board_model.model, split.share(PATTERN_SHARE))
        split.charge(solver)
        if sub.has_solution:
            board = board_model.board(solver, problem)
            score = board_score(problem.rules, board, True)
            if score > value:
                best, value = board, score
    return _whole(problem, split.rest(), best, value)


def _whole(problem: MaxProblem, options: SolverOptions, start: dict[str, Tile] | None,
           value: int) -> tuple[dict[str, Tile] | None, SolveOutcome]:
    """The whole model from the board `start` (worth `value`), asking for a better one."""
    board_model = encode_cpsat.build(problem, pair_cuts=True)
    if start is not None:
        _hint_board(board_model, problem, start)
    solver, out = cpsat.solve(board_model.model, options)
    if out.has_solution:
        # a feasible solution may leave a scoring row unclaimed: the board's own score
        board = board_model.board(solver, problem)
        score = board_score(problem.rules, board, problem.variant.gold_silver)
        if score >= value:
            return board, replace(out, objective=score, bound=max(score, out.bound or score))
    if start is None:
        return None, out
    # no better board: `start` is the best found, proven best when the search was complete
    status = "optimal" if out.status == "infeasible" else "feasible"
    bound = value if status == "optimal" else max(value, out.bound or value)
    return start, SolveOutcome(status, value, bound, out.wall_time, "cpsat")


def _hint_board(board_model: encode_cpsat.CpsatMaxModel, problem: MaxProblem,
                board: dict[str, Tile]) -> None:
    """A CP-SAT solution hint: the classes of `board`'s free cells and its scoring rows."""
    index = {(cls.stripes, cls.stud): k for k, cls in enumerate(board_model.classes)}
    for (cell, k), var in board_model.x.items():
        board_model.model.add_hint(var, index[problem.class_key(board[cell])] == k)
    rules = problem.rules
    for (li, oi), var in board_model.y.items():
        d, cells = rules.lines[li]
        opt = board_model.options[li][oi]
        fits = all(problem.compatible(opt, d, board[c].stripes, board[c].stud) for c in cells)
        # of the options a line fits, the one with a stud (it scores more) is hinted
        better = any(o.weight > opt.weight and all(
            problem.compatible(o, d, board[c].stripes, board[c].stud) for c in cells)
            for o in board_model.options[li])
        board_model.model.add_hint(var, fits and not better)


class _Budget:
    """Shares of one solver budget: deterministic time when set (what the solves used),
    else the time limit (the wall time since the start, model building included)."""

    def __init__(self, options: SolverOptions) -> None:
        self.options = options
        self.by_work = options.deterministic_time is not None
        self.total = options.deterministic_time if self.by_work else options.time_limit
        self.used = 0.0
        # by the clock, the budget ends at a deadline (model building counts)
        self.deadline = NO_DEADLINE if self.by_work else Deadline.after(self.total)

    def share(self, fraction: float) -> SolverOptions:
        if self.total is None:
            return self.options
        return self._with(min(self.total * fraction, self._left()))

    def charge(self, solver: cp_model.CpSolver) -> None:
        """Count what a solve used (a solve that ends early leaves the rest to the next)."""
        if self.by_work:
            self.used += solver.deterministic_time

    def rest(self) -> SolverOptions:
        if self.total is None:
            return self.options
        return self._with(self._left())

    def _left(self) -> float:
        left = self.total - self.used if self.by_work else self.deadline.left()
        return max(left, 0.01 * self.total)

    def _with(self, amount: float) -> SolverOptions:
        if self.by_work:
            return replace(self.options, deterministic_time=amount)
        return replace(self.options, time_limit=amount)


def ring_completion(problem: MaxProblem, options: SolverOptions, launched: frozenset[str],
                    carrying: frozenset[str], start: dict[str, Tile] | None = None
                    ) -> tuple[dict[str, Tile] | None, SolveOutcome]:
    """A completion that values the Take it Higher! bonus too (spaceship variants): the
    rows model plus, for each ship still on the pad, a row of its own among the lines
    not yet full (a relaxation: the call order, one ship per tile and the ships standing
    on a row are left out, except that a line through a cell in `carrying` (a placed
    tile with a ship on it, under the advanced rules) launches nothing). The objective
    is the row points plus the button the ring would reach, an upper bound of the
    board's score; its true bonus is for the caller to find (best_launches in the
    call order)."""
    rules = problem.rules
    scoring_studs = problem.variant.gold_silver
    board_model = encode_cpsat.build(problem, pair_cuts=True)
    m, y = board_model.model, board_model.y
    fixed = dict(problem.fixed)
    rows = []
    z: dict[tuple[int, str], cp_model.IntVar] = {}
    for (li, oi), var in y.items():
        _, cells = rules.lines[li]
        rows.append(len(cells) * board_model.options[li][oi].weight * var)
    for s in rules.spaceships:
        if s in launched:
            continue
        for li, (_, cells) in enumerate(rules.lines):
            if all(c in fixed for c in cells) or any(c in carrying for c in cells):
                continue
            if s in rules.stud_bonus:
                if any(fixed[c].stud != s for c in cells if c in fixed):
                    continue
                # without the stud scoring the classes ignore studs (a smaller model):
                # any scoring row may launch a stud ship there, an optimistic reading
                # (keeping the studs was measured: slower and weaker, docs)
                studs = (s,) if scoring_studs else (None, s)
                support = [var for (lj, oi), var in y.items()
                           if lj == li and board_model.options[li][oi].stud in studs]
            else:
                support = [var for (lj, oi), var in y.items()
                           if lj == li and board_model.options[li][oi].colour == s]
            if support:
                z[li, s] = m.new_bool_var("")
                m.add(sum(support) >= z[li, s])
    for li in range(len(rules.lines)):
        m.add_at_most_one(var for (lj, _), var in z.items() if lj == li)
    bonus = []
    previous = None
    last_button = 0
    for s, button in zip(rules.spaceships, rules.buttons, strict=True):
        if s in launched and previous is None:
            last_button = button  # the ring is past it already
            continue
        level = m.new_bool_var("")
        ways = [var for (_, t), var in z.items() if t == s]
        if s not in launched:
            m.add(sum(ways) >= level) if ways else m.add(level == 0)
        if previous is not None:
            m.add_implication(level, previous)
        bonus.append((button - last_button) * level)
        previous, last_button = level, button
    if start is not None:
        _hint_board(board_model, problem, start)
    earned = ring_bonus(rules, launched)[0]
    m.maximize(sum(rows) + earned + sum(bonus))
    solver, out = cpsat.solve(m, options)
    if not out.has_solution:
        return start, out
    return board_model.board(solver, problem), out


def joint_completion(problems: Sequence[MaxProblem], options: SolverOptions,
                     starts: Sequence[dict[str, Tile] | None] = ()
                     ) -> tuple[list[tuple[dict[str, Tile], int]] | None, SolveOutcome]:
    """Completions of one position for several futures at once, with one plan for them
    all: an empty line scores the same colour (and stud) in every future where it
    scores. A player cannot aim a line at the tiles one future brings and another line
    at another's; completions solved one future at a time can (hindsight), and so
    value gambles on particular tiles too highly. Returns per future its board and the
    board's points under the plan (rows off the plan, which a board may complete by
    chance, are not counted: the rules engine's score would count them and so undo the
    plan), or None when no board was found."""
    m = cp_model.CpModel()
    boards = [encode_cpsat.build(p, pair_cuts=True, model=m) for p in problems]
    # per line one colour and one stud for all futures (a future may score the colour
    # without the stud bonus)
    plan: dict[tuple[int, str, str], cp_model.IntVar] = {}
    for board_model in boards:
        for (li, oi), var in board_model.y.items():
            opt = board_model.options[li][oi]
            aims = [("colour", opt.colour)] + ([("stud", opt.stud)] if opt.stud else [])
            for kind, value in aims:
                if (li, kind, value) not in plan:
                    plan[li, kind, value] = m.new_bool_var("")
                m.add_implication(var, plan[li, kind, value])
    for li in range(len(problems[0].rules.lines)):
        for kind in ("colour", "stud"):
            m.add_at_most_one(v for (lj, k, _), v in plan.items() if lj == li and k == kind)
    m.maximize(sum(b.objective for b in boards))
    for board_model, problem, start in zip(boards, problems, starts, strict=False):
        if start is not None:
            _hint_board(board_model, problem, start)
    solver, out = cpsat.solve(m, options)
    if not out.has_solution:
        return None, out
    return [(b.board(solver, p), solver.value(b.objective))
            for b, p in zip(boards, problems, strict=True)], out
