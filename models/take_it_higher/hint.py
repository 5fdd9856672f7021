"""Placement hints: where to put the called tile, ranked by estimated final score.

The tiles still to come are unknown: they are a random sample of the tiles not yet
called. The estimate for a cell is the mean, over sampled futures, of the best final
score reachable with the called tile on that cell and the sampled tiles on the other
empty cells (each completion solved with CP-SAT, exact when it finishes in time;
the best board found otherwise). Futures are shared between cells (common random
numbers), so the ranking compares cells on the same futures.

Search order, within the time limit: (1) for each future, one solve with the called
tile free, which gives that future's best cell and its value; (2) the cells chosen in
step 1, most often first, are then valued on every future.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass

from models.take_it_higher.encode import MaxProblem
from models.take_it_higher.rules import GameState, Placement, Tile, board_score
from solver.backends import SolverOptions
from solver.errors import BadInput


@dataclass
class HintOption:
    """A move and its estimated final score over `samples` sampled futures."""

    cell: str
    launch: tuple[str, ...]
    estimate: float
    samples: int


@dataclass
class HintResult:
    """Ranked options, best first (options[0] is the advice)."""

    tile: str
    options: list[HintOption]
    samples: int
    seconds: float
    exact: bool  # True when every completion was solved to optimality


def hint(state: GameState, tile: Tile, samples: int = 0, seed: int = 0,
         time_limit: float = 2.0) -> HintResult:
    """Rank the cells for the called tile. samples=0: as many futures as time allows."""
    from models.take_it_higher.queries import solve_completion

    start = time.perf_counter()
    if any(p.tile == tile.id for p in state.placements):
        raise BadInput(f"tile {tile.id} was already placed")
    empty = state.empty_cells()
    if not empty:
        raise BadInput("the board is full")
    if state.variant.ships is not None:
        raise BadInput("hints with spaceships are not built yet (issue #3); "
                       "use --variant basic or gold-silver")
    gold_silver = state.variant.gold_silver
    if len(empty) == 1:
        board = dict(state.board)
        board[empty[0]] = tile
        value = board_score(state.rules, board, gold_silver)
        return HintResult(tile.id, [HintOption(empty[0], (), value, 1)], 1,
                          time.perf_counter() - start, True)

    unseen = [t for t in state.available_tiles() if t.id != tile.id]
    rng = random.Random(seed)
    max_samples = samples if samples > 0 else 256
    futures = [rng.sample(unseen, len(empty) - 1) for _ in range(max_samples)]
    deadline = start + time_limit
    first = min(FIRST_FUTURES, max_samples)
    per_solve = time_limit / (first + 4 * MIN_CANDIDATES)

    def left() -> float:
        return deadline - time.perf_counter()

    def solve(fixed: dict[str, Tile], draw: list[Tile]) -> tuple[dict[str, Tile] | None, int, bool]:
        budget = max(0.05, per_solve if samples == 0 else min(per_solve, left()))
        problem = MaxProblem(state.rules, state.variant, tuple(draw), tuple(fixed.items()))
        board, outcome = solve_completion(problem, SolverOptions(time_limit=budget, workers=2))
        value = board_score(state.rules, board, gold_silver) if board else -1
        return board, value, outcome.status == "optimal"

    values: dict[str, dict[int, int]] = {c: {} for c in empty}
    chosen: Counter[str] = Counter()
    exact = True
    # step 1: the best cell of a few futures, found with the called tile free
    for s in range(first):
        board, value, proven = solve(dict(state.board), [tile, *futures[s]])
        exact &= proven
        if board is not None:
            cell = next(c for c in empty if board[c].id == tile.id)
            values[cell][s] = value
            chosen[cell] += 1
    # step 2: the chosen cells and the most promising others, valued future by future
    # (the same futures for every candidate), until the time or the samples run out
    ranked = sorted(empty, key=lambda c: (-chosen[c], -potential(state, tile, c), c))
    candidates = ranked[:max(MIN_CANDIDATES, len(chosen))]
    complete = 0
    for s in range(max_samples):
        if samples == 0 and s >= first and left() < 0.5 * per_solve * len(candidates):
            break
        for cell in candidates:
            if s not in values[cell]:
                fixed = dict(state.board)
                fixed[cell] = tile
                _, value, proven = solve(fixed, futures[s])
                exact &= proven
                values[cell][s] = value
        complete = s + 1
    options = []
    for c in candidates:
        vals = [values[c][s] for s in range(complete)]
        options.append(HintOption(c, (), sum(vals) / len(vals), len(vals)))
    options.sort(key=lambda o: (-o.estimate, o.cell))
    return HintResult(tile.id, options, complete, round(time.perf_counter() - start, 3), exact)


FIRST_FUTURES = 3
MIN_CANDIDATES = 3


def potential(state: GameState, tile: Tile, cell: str) -> float:
    """A one-step heuristic: points of the rows through `cell` that can still score with
    this tile there (every tile already on the row has the same stripe), plus their stud
    bonus under gold/silver while the studs still agree."""
    rules = state.rules
    total = 0.0
    for d in range(len(rules.directions)):
        line = rules.lines[rules.line_of[cell, d]][1]
        others = [state.board[c] for c in line if c in state.board]
        colour = tile.stripes[d]
        if any(t.stripes[d] != colour for t in others):
            continue
        filled = (len(others) + 1) / len(line)
        value = rules.colour_values[colour]
        if state.variant.gold_silver and tile.stud and all(t.stud == tile.stud for t in others):
            value += rules.stud_bonus[tile.stud]
        total += len(line) * value * filled
    return total


def advice(state: GameState, tile: Tile, **kw: float) -> Placement:
    """The hint's best move as a placement."""
    best = hint(state, tile, **kw).options[0]  # type: ignore[arg-type]
    return Placement(tile.id, best.cell, best.launch)
