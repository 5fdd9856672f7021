"""Playing Take it Higher!: policies that place a called tile, and simulated games.

A policy is a function `(state, tile, rng) -> Placement`: where to put the called tile
and which spaceships to launch. `simulate` plays seeded games with a policy and compares
each final score with the hindsight optimum of the same draw (`queries.maximise`: the
best any player could have done had they known every tile in advance).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from models.take_it_higher import queries
from models.take_it_higher.heuristics import cell_value, greedy_launch
from models.take_it_higher.rules import (
    GameState,
    Placement,
    Position,
    Rules,
    Tile,
    Variant,
    format_placement,
    score_sheet,
)
from solver.backends import SolverOptions
from solver.errors import BadInput, TimeLimitReached
from solver.executor import Batch, SeededTask, run_stored
from solver.stats import summarise as summarise_values
from solver.store import Store, data_digest

Policy = Callable[[GameState, Tile, random.Random], Placement]
POLICIES = ("hint", "greedy", "random")


# --------------------------------------------------------------------------- helpers

def game_draw(rules: Rules, seed: int) -> list[Tile]:
    """The tiles called in a game with this seed, in call order (board_size of them)."""
    return random.Random(seed).sample(rules.tiles, rules.board_size)


def final_score(state: GameState) -> int:
    """The score sheet total of the state's board (rows, gold/silver, ring bonus)."""
    return score_sheet(Position(state.rules, list(state.placements)), state.variant).total


# --------------------------------------------------------------------------- policies

def random_policy(state: GameState, tile: Tile, rng: random.Random) -> Placement:
    """A random empty cell, and a random one of its legal launch sets."""
    cell = rng.choice(state.empty_cells())
    launch = rng.choice(state.legal_launches(tile, cell))
    return Placement(tile.id, cell, launch)


def greedy_policy(state: GameState, tile: Tile, rng: random.Random) -> Placement:
    """The empty cell of best `cell_value` (ties broken by `rng`), with `greedy_launch`."""
    scored = [(cell_value(state, tile, c), c) for c in state.empty_cells()]
    best = max(v for v, _ in scored)
    cell = rng.choice([c for v, c in scored if v >= best - 1e-9])
    return Placement(tile.id, cell, greedy_launch(state, tile, cell))


def hint_policy(samples: int = 0, time_limit: float = 2.0) -> Policy:
    """A policy that plays the first (best) option of `hint.hint`; the hint's random
    seed comes from the policy's `rng`, so games stay reproducible with fixed samples."""
    from models.take_it_higher import hint as hint_module

    def policy(state: GameState, tile: Tile, rng: random.Random) -> Placement:
        result = hint_module.hint(state, tile, samples=samples, seed=rng.randrange(2 ** 31),
                                  time_limit=time_limit)
        best = result.options[0]
        return Placement(tile.id, best.cell, tuple(best.launch))

    return policy


def make_policy(name: str, hint_samples: int = 0, hint_time: float = 2.0) -> Policy:
    """The policy called `name` (hint, greedy, random)."""
    if name == "random":
        return random_policy
    if name == "greedy":
        return greedy_policy
    if name == "hint":
        return hint_policy(hint_samples, hint_time)
    raise BadInput(f"unknown policy '{name}' ({', '.join(POLICIES)})")


# --------------------------------------------------------------------------- games

def play_game(rules: Rules, variant: Variant, draw: list[Tile], policy: Policy,
              rng: random.Random, on_turn: Callable[[int], None] | None = None) -> GameState:
    """Call the tiles of `draw` in order; the policy places each. Every move is checked
    by `GameState.apply` (an illegal move from a policy is an error)."""
    state = GameState(rules, variant)
    for turn, tile in enumerate(draw):
        state.apply(policy(state, tile, rng))
        if on_turn is not None:
            on_turn(turn + 1)
    return state


@dataclass
class GameRecord:
    """One simulated game: its seed, the call order, the moves, the score, and the
    hindsight optimum of the same draw (None when not computed or nothing found)."""

    game: int
    seed: int
    draw: list[str]
    placements: list[str]
    score: int
    optimum: int | None
    optimum_proven: bool | None
    seconds: float


@dataclass
class SimulationResult:
    """Games played by a policy, their scores and the hindsight optima."""

    rules: str
    variant: str
    policy: str
    seed: int
    games: int
    hint_samples: int | None
    mean: float
    median: float
    quartiles: list[float]  # statistics.quantiles(n=4): Q1, median, Q3
    min: int
    max: int
    optimum_mean: float | None
    optimum_all_proven: bool | None
    ratio: float | None  # mean / optimum_mean
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    executor: str = "in-process"
    interrupted: bool = False  # Ctrl-C: only the games that finished are summarised


def simulate(rules: Rules, variant: Variant, games: int, seed: int = 0,
             policy_name: str = "greedy", hint_samples: int = 0, hint_time: float = 2.0,
             progress: Callable[[int, int], None] | None = None,
             optimum_time: float | None = 10.0) -> SimulationResult:
    """Play `games` games; game g calls `random.Random(seed + g).sample(rules.tiles,
    board_size)` and the policy's choices use a generator seeded from seed + g too, so a
    game replays identically from its own seed. `optimum_time=None` skips the hindsight
    optimum. `progress(done, total)` is told about every turn and every optimum solved."""
    if games < 1:
        raise BadInput("--games must be at least 1")
    make_policy(policy_name, hint_samples, hint_time)  # an unknown policy fails at once
    steps_per_game = rules.board_size + (1 if optimum_time is not None else 0)
    total = games * steps_per_game
    start = time.perf_counter()
    records = []
    for g in range(games):
        base = g * steps_per_game

        def on_step(step: int, base: int = base) -> None:
            if progress is not None:
                progress(base + step, total)

        records.append(play_one(rules, variant, g, seed + g, policy_name, hint_samples,
                                hint_time, optimum_time, on_step))
    return summarise(rules, variant, policy_name, seed, records,
                     hint_samples if policy_name == "hint" else None,
                     round(time.perf_counter() - start, 3))


def play_one(rules: Rules, variant: Variant, game: int, game_seed: int, policy_name: str,
             hint_samples: int = 0, hint_time: float = 2.0, optimum_time: float | None = 10.0,
             on_step: Callable[[int], None] | None = None,
             optimum_workers: int | None = None) -> GameRecord:
    """Game number `game` of a simulation, from its own seed alone (a batch task: the
    same record whichever process or machine plays it). `on_step` hears each turn and
    the optimum."""
    game_start = time.perf_counter()
    policy = make_policy(policy_name, hint_samples, hint_time)
    draw = game_draw(rules, game_seed)
    state = play_game(rules, variant, draw, policy, random.Random(f"policy-{game_seed}"),
                      on_step)
    optimum, proven = None, None
    if optimum_time is not None:
        optimum, proven = hindsight_optimum(rules, variant, draw, optimum_time, optimum_workers)
        if on_step is not None:
            on_step(rules.board_size + 1)
    return GameRecord(game, game_seed, [t.id for t in draw],
                      [format_placement(p) for p in state.placements],
                      final_score(state), optimum, proven,
                      round(time.perf_counter() - game_start, 3))


def hindsight_optimum(rules: Rules, variant: Variant, draw: list[Tile], time_limit: float,
                      workers: int | None = None) -> tuple[int | None, bool | None]:
    """The best score with every tile of `draw` placed (in call order for the spaceship
    variants) and whether it is proven; (None, None) if the solver found nothing.
    `workers`: CP-SAT workers (default: SolverOptions' default)."""
    options = (SolverOptions(time_limit=time_limit) if workers is None else
               SolverOptions(time_limit=time_limit, workers=workers))
    try:
        result = queries.maximise(rules, variant, draw, "cpsat", options)
    except TimeLimitReached:
        return None, None
    return result.score, result.status == "optimal"


def summarise(rules: Rules, variant: Variant, policy_name: str, seed: int,
              records: list[GameRecord], hint_samples: int | None, seconds: float
              ) -> SimulationResult:
    scores = summarise_values([r.score for r in records])
    optima = [r.optimum for r in records if r.optimum is not None]
    mean = scores.mean
    optimum_mean = statistics.fmean(optima) if len(optima) == len(records) else None
    ratio = round(mean / optimum_mean, 4) if optimum_mean else None
    all_proven = (all(bool(r.optimum_proven) for r in records)
                  if optimum_mean is not None else None)
    return SimulationResult(rules.name, variant.name, policy_name, seed, len(records),
                            hint_samples, mean, scores.median, scores.quartiles,
                            int(scores.min), int(scores.max),
                            round(optimum_mean, 3) if optimum_mean is not None else None,
                            all_proven, ratio, records, seconds)


# --------------------------------------------------------------------------- batch runs

GAMES_KIND = "take_it_higher_games"
DRAWS_KIND = "take_it_higher_draws"


def game_task(rules: Rules, variant: Variant, game: int, game_seed: int, policy_name: str,
              hint_samples: int, hint_time: float, optimum_time: float | None) -> GameRecord:
    """One game as a batch task (top level, so process pools and Dask can pickle it).
    The optimum runs on one CP-SAT worker: the batch itself fills the cores."""
    return play_one(rules, variant, game, game_seed, policy_name, hint_samples, hint_time,
                    optimum_time, None, 1)


def simulate_batch(rules: Rules, variant: Variant, games: int, seed: int, policy_name: str,
                   batch: Batch, store: Store | None = None, resume: bool = False,
                   hint_samples: int = 0, hint_time: float = 2.0,
                   optimum_time: float | None = 10.0) -> SimulationResult:
    """`simulate` with every game a task of `batch` (in-process, process pool or Dask):
    the records are those of `simulate`'s games (same seeds), ordered by game. With a
    store every finished game is saved at once; `resume` reuses the stored games."""
    if games < 1:
        raise BadInput("--games must be at least 1")
    make_policy(policy_name, hint_samples, hint_time)
    parameters = {"rules": rules.name, "rules_digest": data_digest(rules),
                  "variant": variant.name, "policy": policy_name,
                  "hint_samples": hint_samples if policy_name == "hint" else None,
                  "hint_time": hint_time if policy_name == "hint" else None,
                  "optimum_time": optimum_time}
    start = time.perf_counter()
    tasks = [SeededTask(parameters, seed + g, (rules, variant, g, seed + g, policy_name,
                                               hint_samples, hint_time, optimum_time))
             for g in range(games)]
    batch.description = f"{games} games, {policy_name}"
    # with the optimum a game takes 0.1 s to seconds: no chunks, the tail balances
    records = run_stored(batch, game_task, tasks, GAMES_KIND, store, resume,
                         lambda r: (asdict(r), {"score": r.score, "optimum": r.optimum}),
                         lambda data, g: GameRecord(**{**data, "game": g}),
                         chunk=1 if optimum_time is not None else None, noun="game")
    result = summarise(rules, variant, policy_name, seed, [records[g] for g in sorted(records)],
                       hint_samples if policy_name == "hint" else None,
                       round(time.perf_counter() - start, 3))
    result.executor = batch.where
    result.interrupted = batch.interrupted
    return result


@dataclass
class DrawOptimum:
    """The hindsight optimum of one random draw: `score` None when the solver found
    nothing in time; `proven` whether the solver proved it maximal (else `bound`)."""

    draw: int
    seed: int
    tiles: list[str]
    score: int | None
    proven: bool
    bound: int | None
    placements: list[str]
    seconds: float


@dataclass
class DrawsResult:
    """`max --draws N`: the distribution of hindsight-optimal scores over N draws."""

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


def draw_task(rules: Rules, variant: Variant, index: int, draw_seed: int, backend: str,
              time_limit: float | None) -> DrawOptimum:
    """The hindsight optimum of draw `index` (tiles `game_draw(rules, draw_seed)`, the
    draw of simulate's game with that seed), on one solver worker: a batch task."""
    draw = game_draw(rules, draw_seed)
    start = time.perf_counter()
    try:
        result = queries.maximise(rules, variant, draw, backend,
                                  SolverOptions(time_limit=time_limit, seed=0, workers=1))
    except TimeLimitReached:
        return DrawOptimum(index, draw_seed, [t.id for t in draw], None, False, None, [],
                           round(time.perf_counter() - start, 3))
    return DrawOptimum(index, draw_seed, [t.id for t in draw], result.score,
                       result.status == "optimal", result.bound, result.placements,
                       round(time.perf_counter() - start, 3))


def draws_batch(rules: Rules, variant: Variant, draws: int, seed: int, backend: str,
                time_limit: float | None, batch: Batch, store: Store | None = None,
                resume: bool = False) -> DrawsResult:
    """Hindsight optima of `draws` random draws (draw i from seed + i), each a task of
    `batch`, summarised (mean, median, quartiles over the draws where a board was found)."""
    if draws < 1:
        raise BadInput("--draws must be at least 1")
    parameters = {"rules": rules.name, "rules_digest": data_digest(rules),
                  "variant": variant.name, "backend": backend,
                  "time_limit": time_limit}
    start = time.perf_counter()
    batch.description = f"{draws} draws, hindsight optimum"
    tasks = [SeededTask(parameters, seed + i, (rules, variant, i, seed + i, backend, time_limit))
             for i in range(draws)]
    records = run_stored(batch, draw_task, tasks, DRAWS_KIND, store, resume,
                         lambda r: (asdict(r), {"score": r.score, "proven": r.proven}),
                         lambda data, i: DrawOptimum(**{**data, "draw": i}),
                         chunk=1, noun="draw")
    ordered = [records[i] for i in sorted(records)]
    scores = [r.score for r in ordered if r.score is not None]
    s = summarise_values(scores) if scores else None
    return DrawsResult(rules.name, variant.name, backend, seed, len(ordered), len(scores),
                       sum(r.proven for r in ordered),
                       s.mean if s else None, s.median if s else None,
                       s.quartiles if s else None,
                       int(s.min) if s else None, int(s.max) if s else None, ordered,
                       round(time.perf_counter() - start, 3), batch.where, batch.interrupted)
