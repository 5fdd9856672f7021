"""The maximal score: the best board over every choice of tiles, or with every tile of
a draw placed, proven by CP-SAT or MaxSAT (PySAT RC2), or reported with its bound.

Every board a back-end returns is scored again by the rules engine and must agree.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field, replace

from models.take_it_higher import encode_cpsat, encode_maxsat, encode_ships, ship_max
from models.take_it_higher.encode import BACKENDS, MaxProblem
from models.take_it_higher.positions import Placement, Position, format_placement
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import Rules, Tile, board_symmetries
from models.take_it_higher.sheet import ScoreSheet, score_sheet
from models.take_it_higher.spaceships import best_launches
from models.take_it_higher.state import GameState
from models.take_it_higher.stud_patterns import PREFETCH_AFTER, StudPatterns
from models.take_it_higher.variants import Variant
from solver.backends import SolveOutcome, SolverOptions, cpsat
from solver.backends.sat import maxsat
from solver.deadline import Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.progress import live_status

# The LP workers prove the bound; the default 2-worker portfolio does not (docs).
CPSAT_SUBSOLVERS = ("reduced_costs", "max_lp")
#: CP-SAT deterministic seconds (one worker) for the canonical board of a proven
#: maximum: the built-in board's take 0.03-2 (docs)
CANONICAL_WORK = 60.0
#: ... of it, each stud-pattern master solve at most (gold/silver)
MASTER_WORK = 5.0


@dataclass
class MaxResult:
    """The best score found and whether it is proven.

    status: "optimal" (proven), or "feasible" (best found within the time limit;
    `bound` is a proven upper limit on the maximum).
    """

    variant: str
    backend: str
    status: str
    score: int
    bound: int
    seconds: float
    draw: list[str] | None
    placements: list[str]
    board: dict[str, str]
    sheet: ScoreSheet
    # with spaceships and the call order free: the cases of the proof (ship_max.py)
    cases: list[ship_max.CaseResult] | None = None
    # the board is the canonical one of the proven maximum (`canonical_board`): the
    # same whichever back-end proved it, however its workers ran
    canonical: bool = False
    # the time limit cut the work (the proof, or the canonical board's search)
    cut: bool = field(default=False, metadata={"json_skip": True})


def maximise(rules: Rules, variant: Variant, draw: list[Tile] | None = None,
             backend: str = "cpsat", options: SolverOptions | None = None,
             canonical: bool = True, fixed: tuple[tuple[str, Tile], ...] = ()
             ) -> MaxResult:
    """The highest score over all boards (any 24 tiles), or with every tile of `draw`
    placed, and the tiles of `fixed` on their cells (a board in play); the value is
    proven by the solver or reported with its bound. A proven maximum without
    spaceships shows its canonical board (`canonical_board`) unless `canonical` is
    False (the proof's own board: the same on every run only with one CP-SAT worker or
    MaxSAT)."""
    options = options or SolverOptions()
    if backend not in BACKENDS:
        raise BadInput(f"unknown backend '{backend}' ({', '.join(BACKENDS)})")
    problem = MaxProblem(rules, variant, tuple(draw or ()), fixed)
    deadline = options.solve_deadline()
    # one status line for the whole proof, however many solves it takes
    with live_status("", options.time_limit, solves=True):
        if variant.ships is not None:
            if fixed:  # the launches of a board in play are not in the ships' model
                raise BadInput("the best score from a board is modelled for the basic "
                               "and gold/silver rules only, not with spaceships")
            return _maximise_with_ships(problem, backend, options)
        board, outcome = _solve(problem, backend, options)
    if board is None:
        if outcome.status == "infeasible":
            raise BadInput("no board can be filled with these tiles")
        bound = f" (proven bound {outcome.bound})" if outcome.bound is not None else ""
        raise TimeLimitReached(f"time limit reached before any board was found{bound}")
    value = board_score(rules, board, variant.gold_silver)
    check_agreement(outcome, value)
    # a board whose true score reaches the proven bound is a proven maximum
    status = ("optimal" if outcome.bound is not None and value >= outcome.bound
              else outcome.status)
    bound = max(outcome.bound, value) if outcome.bound is not None else value
    result = board_result(problem, backend, board, status, bound, outcome.wall_time)
    return with_canonical(result, problem, options, deadline) if canonical else result


def board_result(problem: MaxProblem, backend: str, board: dict[str, Tile], status: str,
                 bound: int, seconds: float) -> MaxResult:
    """The MaxResult of a board without spaceships: the draw's tiles placed first, in
    call order; its score sheet from the rules engine."""
    rules, variant, draw = problem.rules, problem.variant, problem.draw
    value = board_score(rules, board, variant.gold_silver)
    order = [t.id for t in draw] if draw else []
    cell_of = {t.id: c for c, t in board.items()}
    placed = [Placement(tid, cell_of[tid]) for tid in order]
    placed += [Placement(t.id, c) for c, t in board.items() if t.id not in set(order)]
    sheet = score_sheet(Position(rules, placed), variant)
    return MaxResult(variant.name, backend, status, value, bound, round(seconds, 3),
                     order or None, [f"{p.tile}@{p.cell}" for p in placed],
                     {c: board[c].id for c in rules.cell_ids}, sheet,
                     cut=status != "optimal")


def with_canonical(result: MaxResult, problem: MaxProblem, options: SolverOptions,
                   deadline: Deadline) -> MaxResult:
    """A proven maximum without spaceships with its canonical board (`canonical_board`,
    within `deadline`), or as it is when that search finds none (`canonical` false;
    `cut` when the deadline stopped it)."""
    if result.status != "optimal" or problem.variant.ships is not None:
        return result
    start = time.perf_counter()
    board, cut = canonical_board(problem, result.score, options, deadline)
    if board is None:
        return replace(result, cut=result.cut or cut)
    found = board_result(problem, result.backend, board, "optimal", result.score,
                         result.seconds + time.perf_counter() - start)
    return replace(found, canonical=True)


def canonical_board(problem: MaxProblem, value: int, options: SolverOptions,
                    deadline: Deadline) -> tuple[dict[str, Tile] | None, bool]:
    """The canonical board of a proven maximum `value`: the first board scoring it that
    one CP-SAT worker finds, its search fixed (the model with "score >= value", the
    options' seed, at most CANONICAL_WORK deterministic seconds), so it is the same on
    every run whichever back-end proved the value and however its workers ran; under
    the gold/silver scoring the stud patterns in the master's order, each solved with
    its studs fixed. None when the work or `deadline` ran out first, and whether the
    deadline did."""
    one = SolverOptions(time_limit=None, seed=options.seed, workers=1,
                        deterministic_time=CANONICAL_WORK, deadline=deadline)
    first = {"stop_after_first_solution": True}
    if not (problem.variant.gold_silver and problem.rules.stud_bonus):
        free_cells = problem.rules.board_size - len(problem.fixed)
        whole_set = len(problem.draw) < free_cells
        board_model = encode_cpsat.build(problem, pair_cuts=not whole_set, at_least=value)
        solver, out = cpsat.solve(board_model.model, one, extra=first,
                                  subsolvers=CPSAT_SUBSOLVERS if whole_set else ())
        if out.has_solution:
            return board_model.board(solver, problem), False
        return None, deadline.passed()
    symmetries = board_symmetries(problem.rules) if not problem.fixed else []
    patterns = StudPatterns(problem, "cpsat", symmetries)
    left = CANONICAL_WORK
    for i in itertools.count():
        pattern, _ = patterns.nth(i, replace(one, deterministic_time=min(left, MASTER_WORK)))
        if pattern is None or deadline.passed():
            return None, deadline.passed()
        board_model = encode_cpsat.build(problem, pair_cuts=True, stud_pattern=pattern,
                                         at_least=value)
        solver, out = cpsat.solve(board_model.model, replace(one, deterministic_time=left),
                                  extra=first)
        if out.has_solution:
            return board_model.board(solver, problem), False
        left -= solver.deterministic_time
        if left <= 0 or out.status != "infeasible":
            return None, deadline.passed()
    raise AssertionError("unreachable")


def check_agreement(outcome: SolveOutcome, value: int) -> None:
    """The model's objective against the rules engine's score of the same board.

    A row counts in the model only when its variable is set, and nothing forces it on:
    a board found before the time limit may score more than the model says (the model
    is a lower bound), never less; a proven optimum must match exactly.
    """
    if value < outcome.objective or (outcome.status == "optimal"
                                     and value != outcome.objective):
        raise RuntimeError(f"the model claims {outcome.objective}, "
                           f"the rules engine scores {value}")


def _maximise_with_ships(problem: MaxProblem, backend: str, options: SolverOptions
                         ) -> MaxResult:
    """Rows, bonus rows and the Take it Higher! bonus, with the call order given by the
    draw (or free without one); the launches are replayed by the rules engine."""
    if backend != "cpsat":
        raise BadInput("the spaceship optimum has a CP-SAT model only (--backend cpsat)")
    n = problem.rules.board_size
    if problem.draw and len(problem.draw) != n:
        raise BadInput(f"with spaceships, --draw must call all {n} tiles (the call order "
                       f"decides which rows each tile completes)")
    start = time.perf_counter()
    deadline = options.solve_deadline()

    def remaining() -> SolverOptions:  # one time limit for all three solves
        return options.within(deadline)

    # proven maxima without the ring cap the row points and tighten the bound; their
    # best board, with the best launches for it, is a legal game to start from
    board, colour = _solve_one(replace(problem, variant=Variant()), "cpsat", remaining())
    cap = colour.objective if colour.status == "optimal" else colour.bound
    points_cap = None
    patterns = None
    if problem.variant.gold_silver and problem.rules.stud_bonus:
        # one list of stud patterns for the row maximum and for every case of the ring
        patterns = StudPatterns(problem, "cpsat", board_symmetries(problem.rules))
        # the colour maximum just proven is the C of the decomposition: not solved twice
        gs_board, points = _solve(replace(problem, variant=replace(problem.variant, ships=None)),
                                  "cpsat", remaining(), patterns, (board, colour))
        points_cap = points.objective if points.status == "optimal" else points.bound
        if points_cap is None and cap is not None:
            # the time ran out before the bonus rows were bounded: the crude bound (the
            # colour bound alone would cap rows without their bonus: a wrong "optimal")
            points_cap = cap + _max_bonus(problem)
        board = gs_board or board
    start_game: list[Placement] | None = None
    if board is not None:
        cell_of = {t.id: c for c, t in board.items()}
        order = [t.id for t in problem.draw] or [board[c].id for c in problem.rules.cell_ids]
        _, start_game = best_launches(GameState(problem.rules, problem.variant),
                                      [(tid, cell_of[tid]) for tid in order], deadline)
    rows_max = points_cap if points_cap is not None else cap
    if rows_max is None:
        raise TimeLimitReached("time limit reached before the row maximum was bounded")
    # by cases of the ring (ship_max.py); the best row board's game is the one to beat
    start_value = -1 if start_game is None else score_sheet(
        Position(problem.rules, start_game), problem.variant).total
    game, outcome, cases = ship_max.maximise_by_cases(
        problem, rows_max, cap if points_cap is not None else None, start_game,
        start_value, remaining, patterns)
    if game is None:
        raise TimeLimitReached("time limit reached before any board was found")
    return _ship_result(problem, backend, game, outcome, start, cases)


def _ship_result(problem: MaxProblem, backend: str, placements: list[Placement],
                 outcome: SolveOutcome, start: float,
                 cases: list[ship_max.CaseResult] | None) -> MaxResult:
    """A spaceship game replayed by the rules engine, which must agree with the model."""
    position = Position(problem.rules, placements)
    try:
        sheet = score_sheet(position, problem.variant)
    except BadInput as exc:  # the model and the rules engine disagree: a bug
        raise RuntimeError(f"the spaceship model proposed an illegal launch: {exc}") from None
    check_agreement(outcome, sheet.total)
    rules = problem.rules
    return MaxResult(problem.variant.name, backend, outcome.status, sheet.total,
                     max(outcome.bound, sheet.total), round(time.perf_counter() - start, 3),
                     [t.id for t in problem.draw] or None,
                     [format_placement(p) for p in placements],
                     {c: position.board[c].id for c in rules.cell_ids}, sheet, cases,
                     cut=outcome.status != "optimal")


def solve_completion(problem: MaxProblem, options: SolverOptions
                     ) -> tuple[dict[str, Tile] | None, SolveOutcome]:
    """The best completion of a partly filled board with known tiles, as one CP-SAT
    solve (no gold/silver decomposition: hints want a good board within a budget)."""
    return _solve_one(problem, "cpsat", options)


def solve_ship_completion(problem: MaxProblem, prefix: list[Placement],
                          options: SolverOptions) -> tuple[list[Placement] | None, SolveOutcome]:
    """The best way to finish a spaceship game whose first moves are `prefix` and whose
    call order is the whole draw (one CP-SAT solve, best found within the budget)."""
    ship_model = encode_ships.build(problem, prefix=prefix)
    solver, outcome = cpsat.solve(ship_model.model, options)
    return (ship_model.placements(solver, problem) if outcome.has_solution else None), outcome


def _solve(problem: MaxProblem, backend: str, options: SolverOptions,
           patterns: StudPatterns | None = None,
           colour_solved: tuple[dict[str, Tile] | None, SolveOutcome] | None = None
           ) -> tuple[dict[str, Tile] | None, SolveOutcome]:
    if problem.variant.gold_silver and problem.rules.stud_bonus:
        return _solve_by_stud_patterns(problem, backend, options, patterns, colour_solved)
    return _solve_one(problem, backend, options)


def _solve_one(problem: MaxProblem, backend: str, options: SolverOptions,
               stud_pattern: dict[str, str | None] | None = None,
               colour_cap: int | None = None, at_least: int | None = None,
               base: encode_cpsat.CpsatMaxModel | None = None
               ) -> tuple[dict[str, Tile] | None, SolveOutcome]:
    """One model. CP-SAT: over the whole tile set the LP workers prove the bound; with a
    draw or fixed studs the default portfolio with pair cuts is much faster (docs).
    MaxSAT has no linear side constraints, so colour_cap / at_least (which only speed
    up the search) are left out there. `base`: the CP-SAT model of the problem built
    without a pattern, cap or floor, narrowed to them (the decomposition builds it
    once for all its patterns)."""
    if backend == "maxsat":
        sat_model = encode_maxsat.build(problem, stud_pattern)
        lits, outcome = maxsat(sat_model.cnf, options)
        return (sat_model.board(lits, problem) if lits is not None else None), outcome
    # the LP workers for an open tile choice; a fixed tile set (full draw) or fixed studs
    # favour the default portfolio, a full draw with pair cuts (but not with fixed
    # studs: there they cost a draw's walk a fifth of its work, docs)
    full_draw = len(problem.draw) >= problem.rules.board_size - len(problem.fixed)
    whole_set = not full_draw and stud_pattern is None
    if stud_pattern is not None:
        board_model = (base or encode_cpsat.build(problem)).narrowed(stud_pattern, colour_cap,
                                                                     at_least)
    else:
        board_model = encode_cpsat.build(problem, pair_cuts=full_draw, colour_cap=colour_cap,
                                         at_least=at_least)
    solver, outcome = cpsat.solve(board_model.model, options,
                                  subsolvers=CPSAT_SUBSOLVERS if whole_set else ())
    return (board_model.board(solver, problem) if outcome.has_solution else None), outcome


def _solve_by_stud_patterns(problem: MaxProblem, backend: str, options: SolverOptions,
                            patterns: StudPatterns | None = None,
                            colour_solved: tuple[dict[str, Tile] | None, SolveOutcome] | None = None
                            ) -> tuple[dict[str, Tile] | None, SolveOutcome]:
    """Gold/silver maximum by decomposition (one model does not close the gap):

    1. C = the proven maximum of the row points alone (the basic problem, same tiles);
    2. a studs-only master lists stud patterns by decreasing bound B on their bonus;
    3. each pattern is solved with its studs fixed (and, in CP-SAT, row points <= C and
       score > best); stop when C + B <= best: no pattern left can beat the best board.
    Patterns equal under a board symmetry are excluded together."""
    start = time.perf_counter()
    deadline = options.solve_deadline()

    def remaining() -> SolverOptions:
        return options.within(deadline)

    def outcome(status: str, value: int | None, bound: int | None) -> SolveOutcome:
        return SolveOutcome(status, value, bound, time.perf_counter() - start, backend)

    colour_problem = replace(problem, variant=replace(problem.variant, gold_silver=False))
    # `colour_solved`: the caller's solve of this same colour problem, if any
    best_board, colour = colour_solved or _solve_one(colour_problem, backend, remaining())
    if colour.status == "infeasible":
        return None, outcome("infeasible", None, None)
    best = board_score(problem.rules, best_board, True) if best_board else -1
    if colour.status != "optimal":  # without a proven C only a crude bound is known
        bound = colour.bound + _max_bonus(problem) if colour.bound is not None else None
        return best_board, outcome("feasible" if best_board else "unknown",
                                    best if best_board else None, bound)
    if patterns is None:  # or the caller's list (the same problem's studs)
        symmetries = board_symmetries(problem.rules) if not problem.fixed else []
        patterns = StudPatterns(problem, backend, symmetries)
    base = None  # the CP-SAT model every pattern narrows, built when first needed
    for i in itertools.count():
        if i == PREFETCH_AFTER:  # a long walk: the rest it may need, listed at once
            patterns.prefetch(best - colour.objective + 1, remaining())
        pattern, master = patterns.nth(i, remaining())
        if master.status == "infeasible":
            return best_board, outcome("optimal", best, best)
        if pattern is None:
            return best_board, outcome("feasible", best,
                                       colour.objective + _max_bonus(problem))
        limit = colour.objective + master.objective
        if limit <= best:
            return best_board, outcome("optimal", best, best)
        if base is None and backend == "cpsat":
            base = encode_cpsat.build(problem)
        board, sub = _solve_one(problem, backend, remaining(), pattern, colour.objective,
                                best + 1, base)
        if board is not None and sub.objective > best:
            best, best_board = sub.objective, board
        if sub.status not in ("optimal", "infeasible"):  # time limit inside a pattern
            return best_board, outcome("feasible" if best_board else "unknown",
                                       best if best_board else None, limit)


def _max_bonus(problem: MaxProblem) -> int:
    """A crude bound on the stud bonus: every line a bonus row of the best stud."""
    top = max(problem.rules.stud_bonus.values(), default=0)
    return sum(len(cells) * top for _, cells in problem.rules.lines)
