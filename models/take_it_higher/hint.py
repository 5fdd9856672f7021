"""Placement hints: where to put the called tile, ranked by estimated final score.

The tiles still to come are unknown: they are a random sample of the tiles not yet
called (those a position file's `to_come` names always among them). The hint reads the
board, the ships, the called tile and the tiles known to come, never the order of the
tiles still to come: a dealt game that knows it gets the same answer. The estimate for a cell is the mean, over sampled futures, of the best final
score reachable with the called tile on that cell and the sampled tiles on the other
empty cells (each completion solved with CP-SAT, exact when it finishes in time;
the best board found otherwise). Futures are shared between cells (common random
numbers), so the ranking compares cells on the same futures.

Search order, within the time limit: (1) for each future, one solve with the called
tile free, which gives that future's best cell and its value; (2) the cells chosen in
step 1, most often first, are then valued on every future.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, replace
from types import SimpleNamespace

from models.take_it_higher.encode import MaxProblem
from models.take_it_higher.heuristics import cell_value
from models.take_it_higher.positions import Placement
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import Tile
from models.take_it_higher.sheet import state_sheet
from models.take_it_higher.spaceships import best_launches
from models.take_it_higher.state import GameState
from solver.backends import SolverOptions
from solver.errors import BadInput
from solver.progress import live_status
from solver.stats import mean_error


@dataclass
class HintOption:
    """A move and its estimated final score over `samples` sampled futures, with the
    spread of the futures' values (standard deviation; None with one value) and the
    standard error of the estimate."""

    cell: str
    launch: tuple[str, ...]
    estimate: float
    samples: int
    stdev: float | None = None
    stderr: float | None = None


@dataclass
class HintResult:
    """Ranked options, best first (options[0] is the advice). `samples`: the futures
    every option was valued on (the same for all); `lead`: the best option's mean
    advantage over the second on those futures, `lead_stderr` its standard error (the
    paired spread; None when there is nothing to compare or one future)."""

    tile: str
    options: list[HintOption]
    samples: int
    seconds: float
    exact: bool  # True when every completion was solved to optimality
    sampled: bool = True  # False: the last tile, every option scored exactly
    unseen: int = 0  # the tiles the futures were drawn from
    lead: float | None = None
    lead_stderr: float | None = None


def hint(state: GameState, tile: Tile, samples: int = 0, seed: int = 0,
         time_limit: float = 2.0) -> HintResult:
    """Rank the cells for the called tile.

    samples=0: as many futures as `time_limit` allows (the default, for players).
    samples>0: exactly that many futures and a fixed amount of solver work per
    completion (CP-SAT deterministic time, one worker), so the answer depends only on
    the position and the seed, not on the machine's load; time_limit is then unused.
    """
    start = time.perf_counter()  # before the import: a cold start counts
    from models.take_it_higher.completion import (
        joint_completion,
        ring_completion,
        stud_completion,
    )

    if state.called is None:
        state = state.apply_action(tile)  # BadInput if it was placed already
    elif state.called != tile:
        raise BadInput(f"the called tile is {state.called.id}, not {tile.id}")
    empty = state.empty_cells()
    if not empty:
        raise BadInput("the board is full")
    gold_silver = state.variant.gold_silver
    if len(empty) == 1:  # the last tile: every legal launch scored exactly
        last = []
        for launch in state.legal_launches(tile, empty[0]):
            total = state_sheet(state.apply_action(Placement(tile.id, empty[0], launch))).total
            last.append(HintOption(empty[0], launch, total, 1))
        last.sort(key=lambda o: (-o.estimate, len(o.launch)))
        return HintResult(tile.id, last, 1, time.perf_counter() - start, True, False)

    unseen = state.unseen_tiles()
    rng = random.Random(seed)
    max_samples = samples if samples > 0 else 256
    futures = [_future(rng, unseen, state.coming, len(empty) - 1)
               for _ in range(max_samples)]
    joint = JOINT and state.variant.ships is None
    # with the joint completions last, the futures one by one get the rest of the time
    deadline = start + time_limit * (1 - JOINT_SHARE if joint else 1)
    first = min(FIRST_FUTURES, max_samples)
    per_solve = (deadline - start) / (first + 4 * MIN_CANDIDATES)

    def left() -> float:
        return deadline - time.perf_counter()

    def budget() -> SolverOptions:
        if samples > 0:  # fixed work per solve: the same answer whatever the load
            return SolverOptions(time_limit=None, deterministic_time=DETERMINISTIC_SOLVE,
                                 workers=1)
        return SolverOptions(time_limit=max(0.05, per_solve), workers=2)

    # the completions found per future: another move's board, with the called tile
    # swapped onto this move's cell, is a completion of this move to start from
    boards: dict[int, list[dict[str, Tile]]] = {}

    def starts(cell: str | None, s: int) -> list[dict[str, Tile]]:
        if cell is None:
            return []
        out = []
        for board in boards.get(s, []):
            here = next(c for c, t in board.items() if t == tile)
            swapped = dict(board)
            swapped[here], swapped[cell] = board[cell], tile
            out.append(swapped)
        return out

    def best_start(cell: str | None, s: int) -> dict[str, Tile] | None:
        known = starts(cell, s)
        return max(known, key=lambda b: board_score(state.rules, b, gold_silver)
                   ) if known else None

    def solve(cell: str | None, s: int) -> tuple[str, dict[tuple[str, ...], int], bool]:
        """The best final score with the called tile on `cell` (or free) and then
        future `s` called in this order: the cell the completion used, and its score
        with each legal launch of the called tile there. With spaceships: the board
        with the best rows (advanced rules: plus the button the ring could reach on it,
        ring_completion, a relaxation of the launches), then for each launch of the
        called tile the best launches of that board in this call order (exact); each a
        real game's score."""
        future = futures[s]
        fixed = dict(state.board)
        draw = [tile, *future]
        if cell is not None:
            fixed[cell] = tile
            draw = future
        problem = MaxProblem(state.rules, replace(state.variant, ships=None), tuple(draw),
                             tuple(fixed.items()))
        if state.variant.ships == "advanced":
            # the ring relaxation guides the board; under the simple rules (ships in pad
            # order) it costs rows the order then denies: the rows-first board is better
            # there (docs, issue 19). The called tile's launch is valued below.
            carrying = frozenset(c for c, v in state.ships_on.items() if v) \
                if state.variant.ships == "advanced" else frozenset()
            board, outcome = ring_completion(problem, budget(), frozenset(state.launched),
                                             carrying, best_start(cell, s))
        else:
            board, outcome = stud_completion(problem, budget(), starts=starts(cell, s))
        proven = outcome.status == "optimal"
        if board is None:  # no board within the budget (a busy machine): a greedy one,
            board = greedy_completion(state, fixed, draw)  # never no estimate at all
        boards.setdefault(s, []).append(board)
        rows = board_score(state.rules, board, gold_silver)
        cell_of = {t.id: c for c, t in board.items()}
        here = cell_of[tile.id]
        if state.variant.ships is None:
            return here, {(): rows}, proven
        moves = [(t.id, cell_of[t.id]) for t in future]
        # by the clock only when the clock governs (a fixed budget must replay)
        by = None if samples > 0 else deadline
        scores = {}
        for launch in state.legal_launches(tile, here):
            after = state.apply_action(Placement(tile.id, here, launch))
            scores[launch] = rows + best_launches(after, moves, by)[0]
        return here, scores, False

    values: dict[Placement, dict[int, int]] = {}
    solved: set[tuple[str, int]] = set()
    chosen: Counter[str] = Counter()
    exact = True

    def record(s: int, cell: str, scores: dict[tuple[str, ...], int]) -> None:
        solved.add((cell, s))
        for launch, value in scores.items():
            values.setdefault(Placement(tile.id, cell, launch), {})[s] = value

    # the line counts futures valued (and the time left when the time limit governs)
    with live_status("hint", None if samples else time_limit, unit="futures",
                     since=start) as status:
        # step 1: the best cell of a few futures, found with the called tile free
        for s in range(first):
            if samples == 0 and s >= 1 and left() <= 0:
                break  # the answer is due: one future valued is enough to rank
            here, scores, proven = solve(None, s)
            exact &= proven
            record(s, here, scores)
            chosen[here] += 1
        # step 2: the chosen cells and the most promising others, valued future by future
        # (the same futures for every candidate), until the time or the samples run out
        others = sorted(empty, key=lambda c: (-cell_value(state, tile, c), c))
        candidates = [c for c, _ in chosen.most_common()]
        for c in others:
            if len(candidates) >= MIN_CANDIDATES:
                break
            if c not in candidates:
                candidates.append(c)
        complete = 0
        for s in range(max_samples):
            if samples == 0 and s >= 1 and left() < 0.8 * per_solve * len(candidates):
                break
            for cell in candidates:
                if (cell, s) not in solved:
                    _, scores, proven = solve(cell, s)
                    exact &= proven
                    record(s, cell, scores)
            complete = s + 1
            status.step(complete, samples or None)
    # compare on the futures where every candidate got a completion
    common = [s for s in range(complete) if all((c, s) in solved for c in candidates)]
    if joint and len(common) > 1:
        # each candidate's futures once more, with one plan for them all; used only
        # when every candidate got its boards (the plan lowers values: no mixing)
        planned = {}
        for i, cell in enumerate(candidates):
            fixed = dict(state.board)
            fixed[cell] = tile
            problems = [MaxProblem(state.rules, state.variant, tuple(futures[s]),
                                   tuple(fixed.items())) for s in common]
            known = [best_start(cell, s) for s in common]
            work = replace(budget(), deterministic_time=DETERMINISTIC_SOLVE * len(common)) \
                if samples > 0 else replace(budget(), time_limit=max(
                    0.05, (start + time_limit - time.perf_counter()) / (len(candidates) - i)))
            planned[cell] = joint_completion(problems, work, known)[0]
        if all(b is not None for b in planned.values()):
            for cell, found in planned.items():
                for s, (_, points) in zip(common, found, strict=True):
                    values[Placement(tile.id, cell, ())][s] = points
    options = []
    valued: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for move in (m for m in values if m.cell in candidates):
        vals = [values[move][s] for s in common] or list(values[move].values())
        valued[move.cell, move.launch] = vals
        sd = statistics.stdev(vals) if len(vals) > 1 else None
        options.append(HintOption(move.cell, move.launch, sum(vals) / len(vals), len(vals),
                                  _round(sd), _round(sd and sd / math.sqrt(len(vals)))))
    # a tie between launches goes to fewer ships (a ship kept can still launch)
    options.sort(key=lambda o: (-o.estimate, o.cell, len(o.launch), o.launch))
    lead = lead_se = None
    if len(options) > 1 and len(common) > 1:
        a, b = (valued[o.cell, o.launch] for o in options[:2])
        diffs = [x - y for x, y in zip(a, b, strict=True)]
        lead, lead_se = mean_error(diffs)
    return HintResult(tile.id, options, len(common), round(time.perf_counter() - start, 3),
                      exact, True, len(unseen), _round(lead), _round(lead_se))


def greedy_completion(state: GameState, fixed: dict[str, Tile], draw: list[Tile]
                      ) -> dict[str, Tile]:
    """The board `fixed` completed by placing the tiles of `draw` in order, each on the
    empty cell of the highest one-step value (the greedy policy's rule): a legal
    completion that takes no solver, the fallback when a solve finds no board."""
    board = dict(fixed)
    view = SimpleNamespace(rules=state.rules, board=board, variant=state.variant)
    for t in draw:
        empty = [c for c in state.rules.cell_ids if c not in board]
        board[max(empty, key=lambda c: (cell_value(view, t, c), c))] = t
    return board


def _future(rng: random.Random, unseen: list[Tile], coming: tuple[Tile, ...], n: int
            ) -> list[Tile]:
    """n tiles to come in a random order: the tiles known to come and a sample of the
    other unseen tiles (without any known: a sample of the unseen tiles, as always)."""
    if not coming:
        return rng.sample(unseen, n)
    others = [t for t in unseen if t not in coming]
    future = [*coming, *rng.sample(others, n - len(coming))]
    rng.shuffle(future)
    return future


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


# completions of all futures in one model with one plan for the lines: off, it played
# worse on gold-silver (docs/take-it-higher.md, "One plan for all futures")
JOINT = False
JOINT_SHARE = 0.4  # of the time limit, when the clock governs
FIRST_FUTURES = 3
MIN_CANDIDATES = 3
# CP-SAT deterministic seconds per completion with --samples: one worker then solves
# nearly all basic completions to optimality (median 0.05 s of CPU, scripts/ notes)
DETERMINISTIC_SOLVE = 0.5

