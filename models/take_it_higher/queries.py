"""The questions users ask about Take it Higher!, answered as plain dataclasses."""

from __future__ import annotations

from dataclasses import dataclass

from models.take_it_higher import encode_cpsat, encode_maxsat
from models.take_it_higher.encode import MaxProblem
from models.take_it_higher.rules import (
    Placement,
    Position,
    Rules,
    ScoreSheet,
    Tile,
    Variant,
    board_score,
    replay,
    score_sheet,
)
from solver.backends import SolveOutcome, SolverOptions, cpsat
from solver.backends.sat import maxsat
from solver.errors import BadInput, NotBuiltYet, TimeLimitReached

BACKENDS = ("cpsat", "maxsat")
# The LP workers prove the bound; the default 2-worker portfolio does not (docs).
CPSAT_SUBSOLVERS = ("reduced_costs", "max_lp")


@dataclass
class ShowResult:
    """A board as recorded: placements, the board, and ships on tiles."""

    placements: list[str]
    board: dict[str, str]
    ships_on: dict[str, list[str]]
    empty_cells: list[str]


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


def show(position: Position, variant: Variant) -> ShowResult:
    state = replay(position, variant)
    return ShowResult([f"{p.tile}@{p.cell}" + "".join("+" + s for s in p.launch)
                       for p in position.placements],
                      {c: t.id for c, t in state.board.items()},
                      {c: list(s) for c, s in state.ships_on.items()},
                      state.empty_cells())


def score(position: Position, variant: Variant) -> ScoreSheet:
    return score_sheet(position, variant)


def maximise(rules: Rules, variant: Variant, draw: list[Tile] | None = None,
             backend: str = "cpsat", options: SolverOptions | None = None) -> MaxResult:
    """The highest score over all boards (any 24 tiles), or with every tile of `draw`
    placed; the value is proven by the solver or reported with its bound."""
    options = options or SolverOptions()
    if variant.ships is not None:
        raise NotBuiltYet("the spaceship bonus in 'max' is not built yet (issue #3); "
                          "use --variant basic or gold-silver")
    if backend not in BACKENDS:
        raise BadInput(f"unknown backend '{backend}' ({', '.join(BACKENDS)})")
    problem = MaxProblem(rules, variant, tuple(draw or ()))
    board, outcome = _solve(problem, backend, options)
    if board is None:
        if outcome.status == "infeasible":
            raise BadInput("no board can be filled with these tiles")
        bound = f" (proven bound {outcome.bound})" if outcome.bound is not None else ""
        raise TimeLimitReached(f"time limit reached before any board was found{bound}")
    value = board_score(rules, board, variant.gold_silver)
    if value != outcome.objective:  # the encoding and the rules engine must agree
        raise RuntimeError(f"encoding claims {outcome.objective}, rules engine scores {value}")
    order = [t.id for t in draw] if draw else []
    cell_of = {t.id: c for c, t in board.items()}
    placed = [Placement(tid, cell_of[tid]) for tid in order]
    placed += [Placement(t.id, c) for c, t in board.items() if t.id not in set(order)]
    position = Position(rules, placed)
    sheet = score_sheet(position, variant)
    return MaxResult(variant.name, backend, outcome.status, value,
                     outcome.bound if outcome.bound is not None else value,
                     round(outcome.wall_time, 3), order or None,
                     [f"{p.tile}@{p.cell}" for p in placed],
                     {c: board[c].id for c in rules.cell_ids}, sheet)


def _solve(problem: MaxProblem, backend: str, options: SolverOptions
           ) -> tuple[dict[str, Tile] | None, SolveOutcome]:
    if backend == "cpsat":
        mm = encode_cpsat.build(problem)
        solver, outcome = cpsat.solve(mm.model, options, subsolvers=CPSAT_SUBSOLVERS)
        return (mm.board(solver, problem) if outcome.has_solution else None), outcome
    sm = encode_maxsat.build(problem)
    lits, outcome = maxsat(sm.cnf, options)
    return (sm.board(lits, problem) if lits is not None else None), outcome
