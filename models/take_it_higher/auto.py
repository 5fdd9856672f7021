"""`max --backend auto`: CP-SAT and MaxSAT (RC2) race on the same question, each in a
process of its own (solver/portfolio.py); the first proven maximum wins.

Why: which back-end proves a maximum fastest depends on the rules file by more than
10x either way (docs/take-it-higher.md, "Back-end choice"): CP-SAT's LP workers prove
the built-in board, RC2 with the demand cuts proves boards with three colours in a
direction or five directions where CP-SAT does not close the gap in minutes. No cheap
feature of a rules file predicted the winner reliably, so both run. A measured guess
(`predicted_order`) only decides which of them yields the CPU when the machine is busy:
the other runs at a lower priority (on an idle machine both have a core).

This module wraps `maximum.maximise` from outside: each entrant is one call of it with
one back-end. Where only one back-end models a variant (the spaceship variants: CP-SAT)
that one runs alone, in this process.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field, fields, replace

from models.take_it_higher.encode import BACKENDS, MaxProblem
from models.take_it_higher.maximum import MaxResult, maximise, with_canonical
from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions
from solver.errors import BadInput, TimeLimitReached
from solver.portfolio import Entrant, EntrantReport, PortfolioResult, run_portfolio

AUTO = "auto"
#: Seconds of the time limit kept for building the models (a solver's time limit counts
#: its search only; five directions take MaxSAT about a second to build).
BUILD_RESERVE = 1.0
#: Niceness of the back-end not expected to win (solver/portfolio.py, Entrant.nice).
OUTSIDER_NICE = 10
#: Cells from which CP-SAT is the favourite on a free choice of tiles.
LARGE_BOARD = 40
#: Models of at most this many x variables (cells x tile classes) are tried by the
#: favourite alone for TINY_SLICE seconds before any race: the 19-cell hexagon (152)
#: and the 3-direction board (192) prove in 0.1-0.4 s, less than the race costs them
#: there; the built-in board has 384.
TINY_MODEL = 200
TINY_SLICE = 0.5


@dataclass
class AutoMaxResult(MaxResult):
    """A MaxResult (every key of it, `backend` = "auto") and how the race went:

    proved_by: the back-end whose proof is the answer; None when no back-end proved the
    maximum within the time limit (then `score` is the best board any back-end found,
    `best_by` names it, and `bound` is the lowest proven bound of all, `bound_by`);
    a board of one back-end that meets the bound of the other is proven too
    ("cpsat+maxsat": board + bound).
    race: each back-end's end (proved, answered, no answer, stopped) and its seconds.
    """

    proved_by: str | None = None
    best_by: str | None = None
    bound_by: str | None = None
    race: list[EntrantReport] = field(default_factory=list)


def supported_backends(variant: Variant) -> tuple[str, ...]:
    """The back-ends that model `variant`'s maximum (the spaceship optimum is a CP-SAT
    model only)."""
    return ("cpsat",) if variant.ships is not None else BACKENDS


def predicted_order(rules: Rules, variant: Variant, draw: list[Tile] | None,
                    placed: int = 0) -> tuple[str, ...]:
    """The back-ends, the one expected to prove first first (measured, docs): CP-SAT
    when a draw fixes the tile set (maximise then gives it pair cuts) or the board is
    large (MaxSAT's demand cuts grow with the cells: on 52 cells RC2 proved nothing in
    120 s, CP-SAT in 12 s); MaxSAT otherwise (it proved 8 of 10 free choices first,
    up to 10x sooner). The guess only decides who gets the CPU when the machine is busy
    (OUTSIDER_NICE); on an idle machine both race at full speed. `placed`: tiles on
    the board already (`max FILE`)."""
    fixed = draw is not None and len(draw) + placed == rules.board_size
    order = ("cpsat", "maxsat") if fixed or rules.board_size >= LARGE_BOARD else (
        "maxsat", "cpsat")
    return tuple(b for b in order if b in supported_backends(variant))


def draws_backend(rules: Rules, variant: Variant) -> str:
    """The back-end for `max --draws N --backend auto`: CP-SAT for every draw.

    A race per draw would double the processes of a batch that already fills every
    core (one draw per core), and could make a draw's board depend on which back-end
    won (a batch's results must not depend on where or when it ran). What decides is
    that a draw fixes the tile set: CP-SAT (one worker, with pair cuts) proved 24 of 28
    measured draws first (seven board shapes; by 1.7x to over 40x), MaxSAT 3 (by 1.3x,
    1.3x, 2.1x), neither one in 60 s, where MaxSAT wins most free choices
    (docs/take-it-higher.md, "Back-end choice")."""
    return supported_backends(variant)[0]


def entrant_options(options: SolverOptions, backend: str, racing: bool) -> SolverOptions:
    """--workers N with auto: MaxSAT (single-threaded) takes one core, CP-SAT the other
    N - 1 (at least one); a back-end running alone gets all N."""
    if racing and backend == "cpsat":
        return replace(options, workers=max(1, options.workers - 1))
    return options


def maximise_auto(rules: Rules, variant: Variant, draw: list[Tile] | None = None,
                  options: SolverOptions | None = None,
                  backends: tuple[str, ...] | None = None, grace: float | None = None,
                  quick: bool = True, fixed: tuple[tuple[str, Tile], ...] = ()
                  ) -> AutoMaxResult:
    """`maximise` with every back-end that models the variant racing (see module doc);
    `backends` narrows the race, `quick=False` races tiny models too (tests); `fixed`:
    the tiles of a board in play on their cells. The time limit counts from this call:
    the answer comes within it + the portfolio's grace (under a second)."""
    options = options or SolverOptions()
    racing = tuple(b for b in (backends or BACKENDS) if b in supported_backends(variant))
    if not racing:
        raise BadInput(f"no back-end of {', '.join(backends or BACKENDS)} models the "
                       f"{variant.name} maximum")
    start = time.perf_counter()
    deadline = options.solve_deadline()
    problem = MaxProblem(rules, variant, tuple(draw or ()), fixed)
    if len(racing) == 1:  # nothing to race: no process to start; CP-SAT keeps to its
        # share as in a race (N - 1 workers: one by default, which makes the
        # spaceship proofs' games the same on every run)
        alone = maximise(rules, variant, draw, racing[0],
                         entrant_options(options, racing[0], True), fixed=fixed)
        return _auto(alone, racing[0] if alone.status == "optimal" else None,
                     racing[0], racing[0], [], time.perf_counter() - start)
    favourite = [b for b in predicted_order(rules, variant, draw, len(fixed))
                 if b in racing][0]
    if quick and small_model(rules, variant, draw, fixed) and (options.time_limit is None
                                              or options.time_limit > 2 * TINY_SLICE):
        # a tiny model is proven in less time than starting the race costs (processes,
        # and on a busy machine the second solver's share of the CPU): the favourite
        # tries alone first, in this process
        quick = _quick(rules, variant, draw, favourite, options, fixed)
        if quick is not None:
            return _auto(with_canonical(quick, problem, options, deadline), favourite,
                         favourite, favourite, [], time.perf_counter() - start)
    left = deadline.left()
    limit = None if left is None else max(0.01, left)
    solve_limit = limit
    if solve_limit is not None:  # model building counts: leave it a slice of the limit
        solve_limit = max(0.01, solve_limit - min(BUILD_RESERVE, 0.1 * solve_limit))
    entrants = [Entrant(b, _entrant, (rules, variant, draw, b, replace(
        entrant_options(options, b, True), time_limit=solve_limit), fixed),
        nice=0 if b == favourite else OUTSIDER_NICE) for b in racing]
    extra = {} if grace is None else {"grace": grace}
    race = run_portfolio(entrants, _proven, limit, label="CP-SAT | MaxSAT", **extra)
    # which back-end proved first depends on the machine: the board shown does not
    result = _from_race(race, time.perf_counter() - start)
    canonical = with_canonical(result, problem, options, deadline)
    kept = {f.name: getattr(canonical, f.name) for f in fields(MaxResult)}
    kept.update(seconds=round(time.perf_counter() - start, 3), backend=AUTO)
    return replace(result, **kept)


def small_model(rules: Rules, variant: Variant, draw: list[Tile] | None,
                fixed: tuple[tuple[str, Tile], ...] = ()) -> bool:
    """Whether the model is tiny: free cells x tile classes (the x variables of both
    encodings) at most TINY_MODEL."""
    problem = MaxProblem(rules, variant, tuple(draw or ()), fixed)
    return (rules.board_size - len(fixed)) * len(problem.classes()) <= TINY_MODEL


def _quick(rules: Rules, variant: Variant, draw: list[Tile] | None, backend: str,
           options: SolverOptions, fixed: tuple[tuple[str, Tile], ...] = ()
           ) -> MaxResult | None:
    """The favourite alone for TINY_SLICE seconds: its proven maximum, or None."""
    try:
        result = maximise(rules, variant, draw, backend,
                          replace(options, time_limit=TINY_SLICE), canonical=False,
                          fixed=fixed)
    except TimeLimitReached:
        return None
    return result if result.status == "optimal" else None


def _entrant(rules: Rules, variant: Variant, draw: list[Tile] | None, backend: str,
             options: SolverOptions, fixed: tuple[tuple[str, Tile], ...] = ()
             ) -> MaxResult | _Bound:
    """One back-end's maximum; on the time limit without a board, the bound it proved
    (maximise says it only in words: "(proven bound N)")."""
    try:  # the canonical board is found after the race, whoever proved first
        return maximise(rules, variant, draw, backend, options, canonical=False,
                        fixed=fixed)
    except TimeLimitReached as exc:
        found = re.search(r"proven bound (-?\d+)", str(exc))
        if found is None:
            raise
        return _Bound(backend, int(found.group(1)), str(exc))


@dataclass
class _Bound:
    """A back-end's proven upper bound without a board (it ran out of time first)."""

    backend: str
    bound: int
    message: str


def _proven(answer: MaxResult | _Bound) -> bool:
    return isinstance(answer, MaxResult) and answer.status == "optimal"


def _from_race(race: PortfolioResult, seconds: float) -> AutoMaxResult:
    if race.proved_by is not None:
        return _auto(race.result, race.proved_by, race.proved_by, race.proved_by,
                     race.reports, seconds)
    boards = {n: a for n, a in race.answers.items() if isinstance(a, MaxResult)}
    bounds = {n: a.bound for n, a in race.answers.items()}
    bound_by = min(bounds, key=lambda n: bounds[n])
    if not boards:  # bounds only: no board to show
        raise TimeLimitReached(f"time limit reached before any board was found (proven "
                               f"bound {bounds[bound_by]}, {bound_by})")
    best_by = max(boards, key=lambda n: boards[n].score)
    best = boards[best_by]
    bound = max(best.score, bounds[bound_by])
    proved = f"{best_by}+{bound_by}" if best.score == bound else None
    result = replace(best, status="optimal" if proved else best.status, bound=bound)
    return _auto(result, proved, best_by, bound_by, race.reports, seconds)


def _auto(result: MaxResult, proved_by: str | None, best_by: str, bound_by: str,
          race: list[EntrantReport], seconds: float) -> AutoMaxResult:
    values = {f.name: getattr(result, f.name) for f in fields(MaxResult)}
    values.update(backend=AUTO, seconds=round(seconds, 3))
    return AutoMaxResult(**values, proved_by=proved_by, best_by=best_by,
                         bound_by=bound_by, race=race)
