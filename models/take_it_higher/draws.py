"""Draws of tiles and their hindsight optimum: the best score anyone could have reached
knowing every called tile in advance (`max --draw`), for one game or over many random
draws (`max --draws N`, each draw a task of the batch layer)."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from models.take_it_higher.maximum import maximise
from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.state import game_draw
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions
from solver.errors import BadInput, TimeLimitReached
from solver.executor import Batch, SeededTask, run_stored
from solver.game import task_seed
from solver.stats import summarise as summarise_values
from solver.store import Store, data_digest

DRAWS_KIND = "take_it_higher_draws"


def hindsight_optimum(rules: Rules, variant: Variant, draw: list[Tile], time_limit: float,
                      workers: int | None = None) -> tuple[int | None, bool | None]:
    """The best score with every tile of `draw` placed (in call order for the spaceship
    variants) and whether it is proven; (None, None) if the solver found nothing.
    `workers`: CP-SAT workers (default: SolverOptions' default)."""
    options = (SolverOptions(time_limit=time_limit) if workers is None else
               SolverOptions(time_limit=time_limit, workers=workers))
    try:
        result = maximise(rules, variant, draw, "cpsat", options, canonical=False)
    except TimeLimitReached:
        return None, None
    return result.score, result.status == "optimal"


@dataclass
class DrawOptimum:
    """The hindsight optimum of one random draw: `score` None when the solver found
    nothing in time; `proven` whether the solver proved it maximal (else `bound`);
    `cut_by_time` whether the time limit stopped the solver (one worker: a draw the
    limit did not cut is the same on every run)."""

    draw: int
    seed: int
    tiles: list[str]
    score: int | None
    proven: bool
    bound: int | None
    placements: list[str]
    seconds: float
    cut_by_time: bool = False


@dataclass
class DrawsResult:
    """`max --draws N`: the distribution of hindsight-optimal scores over N draws;
    `backend` as asked, `solved_with` the back-end that solved every draw (auto picks
    one for all draws: `auto.draws_backend`)."""

    rules: str
    variant: str
    backend: str
    seed: int
    draws: int
    found: int
    proven: int
    mean: float | None
    median: float | None
    quartiles: list[float] | None
    min: int | None
    max: int | None
    records: list[DrawOptimum] = field(default_factory=list)
    seconds: float = 0.0
    executor: str = "in-process"
    interrupted: bool = False
    solved_with: str = ""


def draw_task(rules: Rules, variant: Variant, index: int, draw_seed: int, backend: str,
              time_limit: float | None) -> DrawOptimum:
    """The hindsight optimum of draw `index` (tiles `game_draw(rules, draw_seed)`, the
    draw of simulate's game with that seed), on one solver worker: a batch task."""
    draw = game_draw(rules, draw_seed)
    start = time.perf_counter()
    try:  # one worker: its proof's own board is the same on every run
        result = maximise(rules, variant, draw, backend,
                          SolverOptions(time_limit=time_limit, seed=0, workers=1),
                          canonical=False)
    except TimeLimitReached:
        return DrawOptimum(index, draw_seed, [t.id for t in draw], None, False, None, [],
                           round(time.perf_counter() - start, 3), True)
    return DrawOptimum(index, draw_seed, [t.id for t in draw], result.score,
                       result.status == "optimal", result.bound, result.placements,
                       round(time.perf_counter() - start, 3), result.cut)


def draws_batch(rules: Rules, variant: Variant, draws: int, seed: int, backend: str,
                time_limit: float | None, batch: Batch, store: Store | None = None,
                resume: bool = False) -> DrawsResult:
    """Hindsight optima of `draws` random draws (draw i from `task_seed(seed, i)`, the
    draw of simulate's game i), each a task of `batch`, summarised (mean, median,
    quartiles over the draws where a board was found)."""
    if draws < 1:
        raise BadInput("--draws must be at least 1")
    asked = backend
    if backend == "auto":  # one back-end for every draw, by what draws are (auto.py)
        from models.take_it_higher.auto import draws_backend

        backend = draws_backend(rules, variant)
    # the back-end that runs is what the stored results depend on
    parameters = {"rules": rules.name, "rules_digest": data_digest(rules),
                  "variant": variant.name, "backend": backend,
                  "time_limit": time_limit}
    start = time.perf_counter()
    batch.description = f"{draws} draws, hindsight optimum"
    tasks = [SeededTask(parameters, task_seed(seed, i),
                        (rules, variant, i, task_seed(seed, i), backend, time_limit))
             for i in range(draws)]
    records = run_stored(batch, draw_task, tasks, DRAWS_KIND, store, resume,
                         lambda r: (asdict(r), {"score": r.score, "proven": r.proven}),
                         lambda data, i: DrawOptimum(**{**data, "draw": i}),
                         chunk=1, noun="draw")
    ordered = [records[i] for i in sorted(records)]
    scores = [r.score for r in ordered if r.score is not None]
    s = summarise_values(scores) if scores else None
    return DrawsResult(rules.name, variant.name, asked, seed, len(ordered), len(scores),
                       sum(r.proven for r in ordered),
                       s.mean if s else None, s.median if s else None,
                       s.quartiles if s else None,
                       int(s.min) if s else None, int(s.max) if s else None, ordered,
                       round(time.perf_counter() - start, 3), batch.where, batch.interrupted,
                       backend)


def game_draw_key(parameters: dict, seed: int) -> tuple[str, str, int]:
    """The draw a `simulate` game of the store was dealt: (rules digest, variant name,
    seed), as `stored_references` keys it."""
    return (parameters.get("rules_digest"), parameters.get("setup", {}).get("variant", "basic"),
            seed)


def stored_references(stores: list[Store]) -> dict[tuple[str, str, int], tuple[int, bool]]:
    """Per draw (rules digest, variant name, seed: the draw of simulate's game with that
    seed): the best hindsight reference the stores hold, from `simulate`'s games and
    `max --draws` runs, as (score, proven). A proven optimum wins over any best found,
    and of best founds the highest. Two proven optima that differ are an error."""
    found: dict[tuple[str, str, int], tuple[int, bool]] = {}

    def offer(key: tuple[str, str, int], score: int, proven: bool) -> None:
        old = found.get(key)
        if old is not None and old[1] and proven and old[0] != score:
            raise ValueError(f"two proven optima of draw {key}: {old[0]} and {score}")
        if old is None or (proven, score) > (old[1], old[0]):
            found[key] = (score, proven)

    for store in stores:
        for row in store.rows("games", {"game": "take-it-higher"}):
            p, m = row["parameters"], row["result"].get("measures", {})
            if m.get("optimum") is not None:
                offer(game_draw_key(p, row["seed"]), m["optimum"],
                      bool(m.get("optimum_proven")))
        for row in store.rows(DRAWS_KIND):
            p, r = row["parameters"], row["result"]
            if r.get("score") is not None:
                offer((p["rules_digest"], p["variant"], row["seed"]), r["score"],
                      bool(r["proven"]))
    return found
