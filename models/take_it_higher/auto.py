"""`max --backend auto`: CP-SAT or MaxSAT (RC2), or both racing on the same question;
the first proven maximum wins.

Why: which back-end proves a maximum fastest depends on the rules file by more than
10x either way (docs/take-it-higher.md, "Back-end choice"). Racing both costs the
winner the share of the machine the loser takes: nothing on an idle 2-core machine,
but beside one busy process two solvers each run at about 2/3 of the speed one has
alone, and a loser at a lower priority starves instead (docs/notes/take-it-higher.md,
"The back-end race"). So where the model's features predict the winner by a wide
margin (`prediction`: sure), that back-end runs alone with every core, and the other
joins only as a hedge after HEDGE_AFTER seconds without a proof; where they do not,
both race at once, at equal priority.

The race runs in threads of this process (solver/race.py): both solvers release the
GIL while they search, and no process start-up (0.1-0.2 s) is paid, which on a tiny
model was more than its proof. This module wraps `maximum.maximise` from outside: each
entrant is one call of it with one back-end. Where only one back-end models a variant
(the spaceship variants: CP-SAT) that one runs alone.
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
from solver.backends.common import Cancel
from solver.errors import BadInput, TimeLimitReached
from solver.portfolio import EntrantReport, PortfolioResult
from solver.race import ThreadEntrant, free_cores, run_threads

AUTO = "auto"
#: Seconds of the time limit kept for building the models (a solver's time limit counts
#: its search only; five directions take MaxSAT about a second to build).
BUILD_RESERVE = 1.0
#: Cells from which CP-SAT is the sure favourite on a free choice of tiles (52 cells:
#: MaxSAT proved nothing in 60 s, CP-SAT in 6 s).
LARGE_BOARD = 40
#: Directions from which CP-SAT is the sure favourite when there are at least twice as
#: many tiles as free cells: on three such boards of five directions (12-16 cells)
#: CP-SAT proved first by 2.2-7x, also beside busy processes; with fewer tiles (21
#: cells, 32 tiles) the two tied on an idle machine and MaxSAT won by 2.3x on a busy one.
MANY_DIRECTIONS = 5
#: Seconds a sure favourite runs alone before the other back-end joins the race: longer
#: than every sure favourite of the benchmark took at load 2-3, short enough that a
#: wrong guess costs seconds, not the 10x of the wrong back-end.
HEDGE_AFTER = 15.0
#: ... for an unsure guess: beside busy processes MaxSAT (the unsure favourite) was the
#: faster or within 1.7x on every such board measured, and a hedge at 3 s cost it 1.4x
#: on `five-directions` (CP-SAT joined and took its share).
HEDGE_UNSURE = 10.0


@dataclass
class AutoMaxResult(MaxResult):
    """A MaxResult (every key of it, `backend` = "auto") and how the race went:

    proved_by: the back-end whose proof is the answer; None when no back-end proved the
    maximum within the time limit (then `score` is the best board any back-end found,
    `best_by` names it, and `bound` is the lowest proven bound of all, `bound_by`);
    a board of one back-end that meets the bound of the other is proven too
    ("cpsat+maxsat": board + bound).
    race: each back-end that ran, its end (proved, answered, no answer, stopped) and
    its seconds; a sure favourite that proved before the hedge is the only one.
    """

    proved_by: str | None = None
    best_by: str | None = None
    bound_by: str | None = None
    race: list[EntrantReport] = field(default_factory=list)


@dataclass(frozen=True)
class Prediction:
    """The back-ends, the one expected to prove first first; `sure`: by a wide margin
    (it runs alone until HEDGE_AFTER); `why`: the feature that decided."""

    order: tuple[str, ...]
    sure: bool
    why: str


def supported_backends(variant: Variant) -> tuple[str, ...]:
    """The back-ends that model `variant`'s maximum (the spaceship optimum is a CP-SAT
    model only)."""
    return ("cpsat",) if variant.ships is not None else BACKENDS


def prediction(rules: Rules, variant: Variant, draw: list[Tile] | None,
               placed: int = 0) -> Prediction:
    """Which back-end proves first, from the model's features (measured on the
    benchmark's 16 instances and 28 draws, docs/notes/take-it-higher.md). `placed`:
    tiles on the board already (`max FILE`). Sure:
    - a draw that fixes the tile set: CP-SAT (with pair cuts; first on 24 of 28 draws,
      the other 4 within 2.1x);
    - a direction of three or more colours: MaxSAT (its demand cuts; CP-SAT's LP bound
      stays far above the optimum: 8x slower on three such boards, Take It Easy among
      them);
    - a board of LARGE_BOARD cells or more, MANY_DIRECTIONS directions or more with
      twice as many tiles as free cells, or gold/silver: CP-SAT (MaxSAT's demand cuts
      grow with the cells and directions; the gold/silver stud patterns close faster
      in CP-SAT).
    Otherwise (two colours a direction, a free choice of tiles, a smaller board) the
    ranking flipped both ways by up to 7x between boards that differ in no cheap
    feature: not sure (MaxSAT first: it won the built-in board)."""
    backends = supported_backends(variant)

    def pick(first: str, sure: bool, why: str) -> Prediction:
        order = (first, *(b for b in BACKENDS if b != first))
        return Prediction(tuple(b for b in order if b in backends), sure, why)

    if draw is not None and len(draw) + placed == rules.board_size:
        return pick("cpsat", True, "a draw fixes the tile set")
    if max(len(d.colours) for d in rules.directions) >= 3:
        return pick("maxsat", True, "a direction of three colours or more")
    if rules.board_size >= LARGE_BOARD:
        return pick("cpsat", True, f"{rules.board_size} cells")
    free = rules.board_size - placed
    if (len(rules.directions) >= MANY_DIRECTIONS
            and len(rules.tiles) - placed >= 2 * free):
        return pick("cpsat", True, f"{len(rules.directions)} directions, a wide choice "
                    "of tiles")
    if variant.gold_silver and rules.stud_bonus:
        return pick("cpsat", True, "gold/silver")
    return pick("maxsat", False, "two colours a direction, a free choice of tiles")


def predicted_order(rules: Rules, variant: Variant, draw: list[Tile] | None,
                    placed: int = 0) -> tuple[str, ...]:
    """The back-ends, the one expected to prove first first (`prediction`)."""
    return prediction(rules, variant, draw, placed).order


def draws_backend(rules: Rules, variant: Variant) -> str:
    """The back-end for `max --draws N --backend auto`: CP-SAT for every draw.

    A race per draw would double the solvers of a batch that already fills every
    core (one draw per core), and could make a draw's board depend on which back-end
    won (a batch's results must not depend on where or when it ran). What decides is
    that a draw fixes the tile set: CP-SAT (one worker, with pair cuts) proved 24 of 28
    measured draws first (seven board shapes; by 1.7x to over 40x), MaxSAT 3 (by 1.3x,
    1.3x, 2.1x), neither one in 60 s, where MaxSAT wins most free choices
    (docs/take-it-higher.md, "Back-end choice")."""
    return supported_backends(variant)[0]


def hedge_after(guess: Prediction, favourite: str, free: int) -> float:
    """Seconds the favourite runs alone before the other back-end joins: none when two
    cores are `free` (the race then costs the favourite nothing; except a sure CP-SAT,
    which would give up a worker), else HEDGE_AFTER for a sure guess and HEDGE_UNSURE
    for an unsure one (beside a busy process two solvers each ran at about 2/3 of the
    speed one has alone, docs)."""
    if free >= 2 and not (guess.sure and favourite == "cpsat"):
        return 0.0
    return HEDGE_AFTER if guess.sure else HEDGE_UNSURE


def entrant_options(options: SolverOptions, backend: str, racing: bool,
                    free: int | None = None) -> SolverOptions:
    """--workers N with auto: racing at once, MaxSAT (single-threaded) takes one core,
    CP-SAT the other N - 1 (at least one); a back-end running alone (or first, before
    a hedge) gets all N, but never more CP-SAT workers than `free` cores (at least
    one): beside one busy process two workers took 1.5-3x the time of one on every
    model measured (they wait on each other while the busy process holds a core),
    on an idle machine they are level but for the gold/silver stud patterns."""
    if backend != "cpsat":
        return options
    if racing:
        return replace(options, workers=max(1, options.workers - 1))
    if free is not None:
        return replace(options, workers=max(1, min(options.workers, free)))
    return options


def maximise_auto(rules: Rules, variant: Variant, draw: list[Tile] | None = None,
                  options: SolverOptions | None = None,
                  backends: tuple[str, ...] | None = None, grace: float | None = None,
                  hedge: float | None = None, fixed: tuple[tuple[str, Tile], ...] = ()
                  ) -> AutoMaxResult:
    """`maximise` with the back-ends that model the variant (see module doc);
    `backends` narrows them; `hedge`: seconds before the outsider joins a sure
    favourite (None: HEDGE_AFTER; 0: race at once, as when the prediction is not
    sure); `fixed`: the tiles of a board in play on their cells. The time limit counts
    from this call: the answer comes within it + the race's grace (under a second)."""
    options = options or SolverOptions()
    racing = tuple(b for b in (backends or BACKENDS) if b in supported_backends(variant))
    if not racing:
        raise BadInput(f"no back-end of {', '.join(backends or BACKENDS)} models the "
                       f"{variant.name} maximum")
    start = time.perf_counter()
    deadline = options.solve_deadline()
    problem = MaxProblem(rules, variant, tuple(draw or ()), fixed)
    if len(racing) == 1:  # nothing to race: CP-SAT keeps to its share as in a race
        # (N - 1 workers: one by default, which makes the spaceship proofs' games the
        # same on every run)
        alone = maximise(rules, variant, draw, racing[0],
                         entrant_options(options, racing[0], True), fixed=fixed)
        return _auto(alone, racing[0] if alone.status == "optimal" else None,
                     racing[0], racing[0], [], time.perf_counter() - start)
    guess = prediction(rules, variant, draw, len(fixed))
    order = [b for b in guess.order if b in racing]
    free = free_cores()
    if hedge is None:
        hedge = hedge_after(guess, order[0], free)
    left = deadline.left()
    limit = None if left is None else max(0.01, left)
    solve_limit = limit
    if solve_limit is not None:  # model building counts: leave it a slice of the limit
        solve_limit = max(0.01, solve_limit - min(BUILD_RESERVE, 0.1 * solve_limit))

    def entrant(backend: str, after: float) -> ThreadEntrant:
        # the favourite of a hedged race has every core until the outsider joins
        own = entrant_options(options, backend, hedge == 0 or after > 0, free)
        own = replace(own, time_limit=None if solve_limit is None
                      else max(0.01, solve_limit - after))

        def call(cancel: Cancel) -> MaxResult | _Bound:
            return _entrant(rules, variant, draw, backend, replace(own, cancel=cancel),
                            fixed)
        return ThreadEntrant(backend, call, after)

    entrants = [entrant(b, 0.0 if i == 0 else hedge) for i, b in enumerate(order)]
    extra = {} if grace is None else {"grace": grace}
    race = run_threads(entrants, _proven, limit, label="CP-SAT | MaxSAT", **extra)
    # which back-end proved first depends on the machine: the board shown does not
    result = _from_race(race, time.perf_counter() - start)
    canonical = with_canonical(result, problem, options, deadline)
    kept = {f.name: getattr(canonical, f.name) for f in fields(MaxResult)}
    kept.update(seconds=round(time.perf_counter() - start, 3), backend=AUTO)
    return replace(result, **kept)


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
