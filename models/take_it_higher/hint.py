"""Placement hints: where to put the called tile, ranked by estimated final score.

The tiles still to come are unknown: they are a random sample of the tiles not yet
called (those a position file's `to_come` names always among them). The hint reads the
board, the ships, the called tile and the tiles known to come, never the order of the
tiles still to come: a dealt game that knows it gets the same answer. The estimate for
a cell is the mean, over sampled futures, of the best final score reachable with the
called tile on that cell and the sampled tiles on the other empty cells (each
completion solved with CP-SAT, exact when it finishes in time; the best board found
otherwise). Futures are shared between cells (common random numbers), so the ranking
compares cells on the same futures.

Search order: (1) for each of the first futures, one solve with the called tile free,
which gives that future's best cell and its value; (2) the cells chosen in step 1, most
often first, are then valued on every future.

The work is counted, not timed: `samples` futures (by default `default_samples`), and
each completion a fixed amount of CP-SAT work (deterministic time, one worker), so the
answer is a function of the position and the seed. A time limit only caps it: the
futures every candidate got count, and the result says the cap cut (`cut`). With
`samples=0` the clock governs instead (as many futures as fit in `time_limit`; not
reproducible, and always reported as cut).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from types import ModuleType, SimpleNamespace

from models.take_it_higher.encode import MaxProblem
from models.take_it_higher.heuristics import cell_value
from models.take_it_higher.positions import Placement
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import Tile
from models.take_it_higher.sheet import state_sheet
from models.take_it_higher.spaceships import best_launches
from models.take_it_higher.state import GameState
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput
from solver.progress import Status, live_status
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
    # the time limit cut the work (or, with samples=0, governed it); for the answer
    cut: bool = field(default=False, metadata={"json_skip": True})


def default_samples(variant: Variant) -> int:
    """The futures of a hint by default: 8 in the rows-only game, 4 where a completion
    costs more (gold/silver: the stud patterns; spaceships: the launches), as measured
    (docs/take-it-higher.md)."""
    return 8 if not variant.gold_silver and variant.ships is None else 4


def hint(state: GameState, tile: Tile, samples: int | None = None, seed: int = 0,
         time_limit: float | None = None, deadline: Deadline = NO_DEADLINE) -> HintResult:
    """Rank the cells for the called tile.

    samples: the futures (None: `default_samples`); each completion gets a fixed amount
    of solver work (CP-SAT deterministic time, one worker), so the answer depends only
    on the position and the seed, not on the machine's load. `time_limit` (seconds
    from now) and `deadline` only cap the work (`cut` says when they did).
    samples=0: as many futures as `time_limit` allows (default 2 s), by the clock.
    """
    start = time.monotonic()  # a cold start counts
    if samples is None:
        samples = default_samples(state.variant)
    if samples == 0 and time_limit is None:
        time_limit = CLOCK_SECONDS
    if samples == 0:  # the clock's budget: the solver imported before it is shared out
        import models.take_it_higher.completion  # noqa: F401
    cap = deadline.sooner(time_limit)
    if state.called is None:
        state = state.apply_action(tile)  # BadInput if it was placed already
    elif state.called != tile:
        raise BadInput(f"the called tile is {state.called.id}, not {tile.id}")
    empty = state.empty_cells()
    if not empty:
        raise BadInput("the board is full")
    if len(empty) == 1:
        return _last_tile(state, tile, empty[0], start)
    search = _HintSearch(state, tile, samples, seed, cap, start)
    # the line counts futures valued (and the time left when the time limit governs)
    with live_status("hint", None if samples else time_limit, unit="futures",
                     since=start) as status:
        search.first_futures()
        search.every_future(search.candidates(empty), status)
    common = search.common()
    if search.joint and len(common) > 1:
        search.plan_jointly(common)
    options, valued = search.options(common)
    lead = lead_se = None
    if len(options) > 1 and len(common) > 1:
        a, b = (valued[o.cell, o.launch] for o in options[:2])
        diffs = [x - y for x, y in zip(a, b, strict=True)]
        lead, lead_se = mean_error(diffs)
    cut = search.cut or (samples == 0 and search.complete < search.max_samples)
    return HintResult(tile.id, options, len(common), round(time.monotonic() - start, 3),
                      search.exact, True, len(search.unseen), _round(lead), _round(lead_se),
                      cut)


def _last_tile(state: GameState, tile: Tile, cell: str, start: float) -> HintResult:
    """The last tile: every legal launch on the last cell scored exactly."""
    last = []
    for launch in state.legal_launches(tile, cell):
        total = state_sheet(state.apply_action(Placement(tile.id, cell, launch))).total
        last.append(HintOption(cell, launch, total, 1))
    last.sort(key=lambda o: (-o.estimate, len(o.launch)))
    return HintResult(tile.id, last, 1, time.monotonic() - start, True, False)


class _HintSearch:
    """One hint's search: its sampled futures and time budget, the completions found
    per future, and each move's value on each future valued so far."""

    def __init__(self, state: GameState, tile: Tile, samples: int, seed: int,
                 cap: Deadline, start: float) -> None:
        self.state, self.tile, self.samples = state, tile, samples
        self.unseen = state.unseen_tiles()
        self.max_samples = samples if samples > 0 else 256
        self.futures = hint_futures(state, self.max_samples, seed)
        self.joint = JOINT and state.variant.ships is None
        # the cap of a counted search; with samples=0 the clock's budget: it counts
        # from `start` (time.monotonic(), before the imports), and with the joint
        # completions last, the futures one by one get the rest of the time
        self.cap = cap
        self.cut = False
        time_limit = cap.left(start)
        time_limit = CLOCK_SECONDS if time_limit is None else time_limit
        elapsed = time.monotonic() - start
        futures_time = time_limit * (1 - JOINT_SHARE if self.joint else 1)
        self.deadline = cap if samples > 0 else Deadline.after(time_limit - elapsed)
        self.futures_deadline = cap if samples > 0 else \
            Deadline.after(futures_time - elapsed)
        self.first = min(FIRST_FUTURES, self.max_samples)
        self.per_solve = futures_time / (self.first + 4 * MIN_CANDIDATES)
        # the completions found per future: another move's board, with the called tile
        # swapped onto this move's cell, is a completion of this move to start from
        self.boards: dict[int, list[dict[str, Tile]]] = {}
        self.values: dict[Placement, dict[int, int]] = {}
        self.solved: set[tuple[str, int]] = set()
        self.chosen: Counter[str] = Counter()
        self.exact = True
        self.cells: list[str] = []  # the candidates valued on every future
        self.complete = 0  # the futures every candidate was valued on

    def solver_in_time(self) -> bool:
        """Whether CP-SAT may start: imported already, or time enough left under the cap
        to import it (else the cap cuts the work here: `cut`)."""
        import sys

        left = self.cap.left()
        if (self.samples == 0 or left is None or left > IMPORT_SECONDS
                or "models.take_it_higher.completion" in sys.modules):
            return True
        self.cut = True
        return False

    @property
    def completion(self) -> ModuleType:
        """The CP-SAT completions, imported at the first solve (ortools takes about a
        second to import: a cap that came before needs none)."""
        from models.take_it_higher import completion

        return completion

    def budget(self) -> SolverOptions:
        if self.samples > 0:  # fixed work per solve: the same answer whatever the load
            return SolverOptions(time_limit=None, deterministic_time=DETERMINISTIC_SOLVE,
                                 workers=1, deadline=self.cap)  # (capped)
        return SolverOptions(time_limit=max(0.05, self.per_solve), workers=2)

    def capped(self) -> bool:
        """Whether the cap has come (a counted search then stops; what it found so far
        may have been cut): noted in `cut`."""
        if self.samples > 0 and self.cap.passed():
            self.cut = True
        return self.cut

    def starts(self, cell: str | None, s: int) -> list[dict[str, Tile]]:
        """The boards found for future `s` so far, the called tile swapped onto `cell`."""
        if cell is None:
            return []
        out = []
        for board in self.boards.get(s, []):
            here = next(c for c, t in board.items() if t == self.tile)
            swapped = dict(board)
            swapped[here], swapped[cell] = board[cell], self.tile
            out.append(swapped)
        return out

    def best_start(self, cell: str | None, s: int) -> dict[str, Tile] | None:
        known = self.starts(cell, s)
        return max(known, key=lambda b: board_score(self.state.rules, b,
                                                    self.state.variant.gold_silver)
                   ) if known else None

    def solve(self, cell: str | None, s: int) -> tuple[str, dict[tuple[str, ...], int]]:
        """The best final score with the called tile on `cell` (or free) and then
        future `s` called in this order: the cell the completion used, and its score
        with each legal launch of the called tile there. With spaceships: the board
        with the best rows (advanced rules: plus the button the ring could reach on it,
        ring_completion, a relaxation of the launches), then for each launch of the
        called tile the best launches of that board in this call order (exact); each a
        real game's score. Whether each was proven goes into `exact`; once the cap has
        come, no solver runs (the greedy completion)."""
        state, tile = self.state, self.tile
        future = self.futures[s]
        fixed = dict(state.board)
        draw = [tile, *future]
        if cell is not None:
            fixed[cell] = tile
            draw = future
        problem = MaxProblem(state.rules, replace(state.variant, ships=None), tuple(draw),
                             tuple(fixed.items()))
        board, proven = None, False
        if self.capped() or not self.solver_in_time():
            pass  # the cap came before any solver work (a cold start): the greedy board
        elif state.variant.ships == "advanced":
            # the ring relaxation guides the board; under the simple rules (ships in pad
            # order) it costs rows the order then denies: the rows-first board is better
            # there (docs). The called tile's launch is valued below.
            carrying = frozenset(c for c, v in state.ships_on.items() if v)
            board, outcome = self.completion.ring_completion(
                problem, self.budget(), frozenset(state.launched), carrying,
                self.best_start(cell, s))
            proven = outcome.status == "optimal"
        else:
            board, outcome = self.completion.stud_completion(problem, self.budget(),
                                                             starts=self.starts(cell, s))
            proven = outcome.status == "optimal"
        if state.variant.ships is None:
            self.capped()  # a solve the cap reached may have been cut
        if board is None:  # no board within the budget (or the cap): a greedy one,
            board = greedy_completion(state, fixed, draw)  # never no estimate at all
        self.boards.setdefault(s, []).append(board)
        rows = board_score(state.rules, board, state.variant.gold_silver)
        cell_of = {t.id: c for c, t in board.items()}
        here = cell_of[tile.id]
        if state.variant.ships is None:
            self.exact &= proven
            return here, {(): rows}
        self.exact = False
        moves = [(t.id, cell_of[t.id]) for t in future]
        # a counted search's launches are exact up to the cap (it must replay)
        scores = {}
        for launch in state.legal_launches(tile, here):
            after = state.apply_action(Placement(tile.id, here, launch))
            scores[launch] = rows + best_launches(after, moves, self.futures_deadline)[0]
        self.capped()  # a solve or a launch search the cap reached may have been cut
        return here, scores

    def record(self, s: int, cell: str, scores: dict[tuple[str, ...], int]) -> None:
        self.solved.add((cell, s))
        for launch, value in scores.items():
            self.values.setdefault(Placement(self.tile.id, cell, launch), {})[s] = value

    def first_futures(self) -> None:
        """Step 1: the best cell of a few futures, found with the called tile free."""
        for s in range(self.first):
            if s >= 1 and (self.capped() or self.samples == 0
                           and self.futures_deadline.passed()):
                break  # the answer is due: one future valued is enough to rank
            here, scores = self.solve(None, s)
            self.record(s, here, scores)
            self.chosen[here] += 1

    def candidates(self, empty: list[str]) -> list[str]:
        """The cells chosen in step 1, most often first, and the most promising others
        up to MIN_CANDIDATES."""
        state, tile = self.state, self.tile
        others = sorted(empty, key=lambda c: (-cell_value(state, tile, c), c))
        candidates = [c for c, _ in self.chosen.most_common()]
        for c in others:
            if len(candidates) >= MIN_CANDIDATES:
                break
            if c not in candidates:
                candidates.append(c)
        return candidates

    def every_future(self, candidates: list[str], status: Status) -> None:
        """Step 2: the candidates valued future by future (the same futures for every
        candidate), until the time or the samples run out."""
        self.cells = candidates
        for s in range(self.max_samples):
            left = self.futures_deadline.left() or 0.0
            if self.samples == 0 and s >= 1 and left < 0.8 * self.per_solve * len(candidates):
                break
            for cell in candidates:
                if (cell, s) not in self.solved:
                    if self.capped():  # (step 1 valued a future already)
                        return  # this future unfinished: the others count
                    _, scores = self.solve(cell, s)
                    self.record(s, cell, scores)
            self.complete = s + 1
            status.step(self.complete, self.samples or None)

    def common(self) -> list[int]:
        """The futures where every candidate got a completion: the options compare on
        them."""
        return [s for s in range(self.complete)
                if all((c, s) in self.solved for c in self.cells)]

    def plan_jointly(self, common: list[int]) -> None:
        """Each candidate's futures once more, with one plan for them all; used only
        when every candidate got its boards (the plan lowers values: no mixing)."""
        state, tile, candidates = self.state, self.tile, self.cells
        planned = {}
        for i, cell in enumerate(candidates):
            fixed = dict(state.board)
            fixed[cell] = tile
            problems = [MaxProblem(state.rules, state.variant, tuple(self.futures[s]),
                                   tuple(fixed.items())) for s in common]
            known = [self.best_start(cell, s) for s in common]
            work = replace(self.budget(), deterministic_time=DETERMINISTIC_SOLVE * len(common)) \
                if self.samples > 0 else replace(self.budget(), time_limit=max(
                    0.05, (self.deadline.left() or 0.0) / (len(candidates) - i)))
            planned[cell] = self.completion.joint_completion(problems, work, known)[0]
        if all(b is not None for b in planned.values()):
            for cell, found in planned.items():
                for s, (_, points) in zip(common, found, strict=True):
                    self.values[Placement(tile.id, cell, ())][s] = points

    def options(self, common: list[int]
                ) -> tuple[list[HintOption], dict[tuple[str, tuple[str, ...]], list[int]]]:
        """The candidates' moves ranked by their mean over the common futures, and each
        move's values on them."""
        options = []
        valued: dict[tuple[str, tuple[str, ...]], list[int]] = {}
        for move in (m for m in self.values if m.cell in self.cells):
            vals = [self.values[move][s] for s in common] or list(self.values[move].values())
            valued[move.cell, move.launch] = vals
            sd = statistics.stdev(vals) if len(vals) > 1 else None
            options.append(HintOption(move.cell, move.launch, sum(vals) / len(vals),
                                      len(vals), _round(sd),
                                      _round(sd and sd / math.sqrt(len(vals)))))
        # a tie between launches goes to fewer ships (a ship kept can still launch)
        options.sort(key=lambda o: (-o.estimate, o.cell, len(o.launch), o.launch))
        return options, valued


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


def hint_futures(state: GameState, samples: int, seed: int) -> list[list[Tile]]:
    """The futures of a hint with a called tile on `state`: `samples` of them, one after
    the other from `random.Random(seed)` (so more samples add futures to the same
    ones), each the tiles of the other empty cells in a random call order."""
    rng = random.Random(seed)
    unseen, n = state.unseen_tiles(), len(state.empty_cells()) - 1
    return [sample_future(rng, unseen, state.coming, n) for _ in range(samples)]


def sample_future(rng: random.Random, unseen: list[Tile], coming: tuple[Tile, ...], n: int
                  ) -> list[Tile]:
    """n tiles to come in a random order: the tiles known to come and a sample of the
    other unseen tiles (without any known: a sample of the unseen tiles, as always).
    The hint draws its futures with this, one after the other from its seeded rng."""
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
CLOCK_SECONDS = 2.0  # the clock's budget with samples=0 when no time limit is given
FIRST_FUTURES = 3
# seconds ortools' CP-SAT takes to import on a loaded 2-core machine: with less left
# under the cap, a counted hint starts no solver (the cap cuts it)
IMPORT_SECONDS = 1.0
MIN_CANDIDATES = 3
# CP-SAT deterministic seconds per completion with --samples: one worker then solves
# nearly all basic completions to optimality (median 0.05 s of CPU, scripts/ notes)
DETERMINISTIC_SOLVE = 0.5

