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
from dataclasses import dataclass, field

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
from solver.stats import summarise as summarise_values

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
    policy = make_policy(policy_name, hint_samples, hint_time)
    steps_per_game = rules.board_size + (1 if optimum_time is not None else 0)
    total = games * steps_per_game
    start = time.perf_counter()
    records = []
    for g in range(games):
        game_start = time.perf_counter()
        game_seed = seed + g
        draw = game_draw(rules, game_seed)
        base = g * steps_per_game

        def on_turn(turn: int, base: int = base) -> None:
            if progress is not None:
                progress(base + turn, total)

        state = play_game(rules, variant, draw, policy, random.Random(f"policy-{game_seed}"),
                          on_turn)
        optimum, proven = None, None
        if optimum_time is not None:
            optimum, proven = hindsight_optimum(rules, variant, draw, optimum_time)
            if progress is not None:
                progress(base + steps_per_game, total)
        records.append(GameRecord(g, game_seed, [t.id for t in draw],
                                  [format_placement(p) for p in state.placements],
                                  final_score(state), optimum, proven,
                                  round(time.perf_counter() - game_start, 3)))
    return summarise(rules, variant, policy_name, seed, records,
                     hint_samples if policy_name == "hint" else None,
                     round(time.perf_counter() - start, 3))


def hindsight_optimum(rules: Rules, variant: Variant, draw: list[Tile], time_limit: float
                      ) -> tuple[int | None, bool | None]:
    """The best score with every tile of `draw` placed (in call order for the spaceship
    variants) and whether it is proven; (None, None) if the solver found nothing."""
    try:
        result = queries.maximise(rules, variant, draw, "cpsat",
                                  SolverOptions(time_limit=time_limit))
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
