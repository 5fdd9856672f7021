"""Simulated games: policies (best, greedy, random) and seeded, reproducible runs.

Game g is played with random.Random(seed * 1_000_003 + g) for the dice and the policies'
tie-breaks, so each game is a batch task (solver/executor.py) with the same record in
any process: in-process, on a local pool or on a Dask cluster.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from models.hippo.best import best_options, roll_results
from models.hippo.rules import GameState, Rules, new_game
from solver.errors import BadInput
from solver.executor import Batch, SeededTask, run_stored
from solver.stats import Rate, Summary, summarise, wilson
from solver.store import Store, data_digest

POLICIES = ("best", "greedy", "random")
MAX_TURNS = 2000  # a game still running after this many turns is counted as unfinished


def roll_dice(rules: Rules, rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.randint(1, rules.faces) for _ in range(rules.dice))


def choose(policy: str, state: GameState, dice: tuple[int, ...], rng: random.Random) -> tuple:
    """(lanes, hippo, stocks, move) chosen by a policy for this roll.

    best: `best_options` (most chips shed this turn with the bonus roll's exact
    expectation, then least exposure), ties drawn at random; greedy: most chips shed
    by this roll's placements, ties at random; random: any distinct result."""
    rules = state.rules
    if policy == "best":
        options = best_options(state, dice)
        top = [o for o in options if (o.value_num, o.exposure_num)
               == (options[0].value_num, options[0].exposure_num)]
        o = top[rng.randrange(len(top))] if len(top) > 1 else top[0]
        return (*o.after, o.move)
    results = roll_results(rules, state, dice)
    if policy == "random":
        return results[rng.randrange(len(results))]
    if policy == "greedy":
        me = state.to_move
        least = min(sum(r[2][me]) for r in results)
        top = [r for r in results if sum(r[2][me]) == least]
        return top[rng.randrange(len(top))]
    raise BadInput(f"unknown policy '{policy}' ({', '.join(POLICIES)})")


def advance(state: GameState, lanes: tuple, hippo: tuple, stocks: tuple,
            move: tuple) -> GameState:
    """The state after the mover's placements (who rolls next, bonus roll or not)."""
    me = state.to_move
    rules = state.rules
    if not any(stocks[me]):
        return GameState(rules, state.colours, lanes, hippo, stocks, me, False)
    if not state.bonus and any(lane == rules.hippo for lane, _ in move):
        return GameState(rules, state.colours, lanes, hippo, stocks, me, True)
    return GameState(rules, state.colours, lanes, hippo, stocks, (me + 1) % state.players,
                     False)


@dataclass
class GameRecord:
    """One game: its number in the run, its own seed, the policy of each seat, who won
    (seat, or None if unfinished), turns (a roll and its bonus roll) and rolls."""

    game: int
    seed: int
    seats: list[str]
    winner: int | None
    turns: int
    rolls: int


def play_game(rules: Rules, policies: Sequence[str], game_seed: int, game: int = 0
              ) -> GameRecord:
    """One game from the start, seat i playing policies[i]; seat 0 begins. The dice and
    the policies' tie-breaks all come from random.Random(game_seed)."""
    rng = random.Random(game_seed)
    colours = rules.colour_names[:len(policies)]
    state = new_game(rules, colours)
    turns = rolls = 0

    def record(winner: int | None, turns: int) -> GameRecord:
        return GameRecord(game, game_seed, list(policies), winner, turns, rolls)

    while rolls < 2 * MAX_TURNS:
        if not state.bonus:
            turns += 1
            if turns > MAX_TURNS:
                return record(None, turns - 1)
        dice = roll_dice(rules, rng)
        rolls += 1
        lanes, hippo, stocks, move = choose(policies[state.to_move], state, dice, rng)
        state = advance(state, lanes, hippo, stocks, move)
        if not any(stocks[state.to_move]):
            return record(state.to_move, turns)
    return record(None, turns)


def seats_for(policies: Sequence[str], game: int, rotate: bool) -> list[str]:
    """The policy of each seat in game g (rotated by g when asked)."""
    n = len(policies)
    if not rotate:
        return list(policies)
    return [policies[(i + game) % n] for i in range(n)]


# --------------------------------------------------------------------------- batch runs

GAMES_KIND = "hippo_games"
SEED_STRIDE = 1_000_003  # game g of a run with --seed S has the seed S * SEED_STRIDE + g


def game_seed(seed: int, game: int) -> int:
    """The own seed of game `game` of a run with `seed` (the scheme of the first
    releases, so earlier figures reproduce)."""
    return seed * SEED_STRIDE + game


def game_task(rules: Rules, policies: tuple[str, ...], rotate: bool, game: int,
              seed: int) -> GameRecord:
    """Game `game` of a run as a batch task (top level, so process pools and Dask can
    pickle it): played from its own `seed` alone, the same record on any process. (The
    batch layer hands every task on a worker the same rules object, so the caches keyed
    on the rules in best.py hit by identity.)"""
    return play_game(rules, seats_for(policies, game, rotate), seed, game)


@dataclass
class SimulationResult:
    """Win rates by seat and by policy (Wilson 95% intervals), game lengths; over the
    games that finished when the run was interrupted."""

    games: int  # games summarised (fewer than asked when interrupted)
    players: int
    seed: int
    policies: list[str]  # the policy of each seat (game 0 when rotated)
    rotate: bool
    unfinished: int
    win_rate_by_seat: list[Rate]
    win_rate_by_policy: dict[str, Rate]  # wins of a policy / seats it played
    turns: Summary  # turns of all players per game
    rounds_mean: float  # turns / players
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    executor: str = "in-process"
    interrupted: bool = False  # Ctrl-C: only the games that finished are summarised


def simulate(rules: Rules, games: int, policies: Sequence[str], seed: int = 0,
             rotate: bool = False, batch: Batch | None = None, store: Store | None = None,
             resume: bool = False) -> SimulationResult:
    """Play `games` seeded games, `policies` giving one policy per seat (rotated by one
    seat per game with `rotate`). Game g is a task of `batch` (default: in this process,
    no progress bar) with its own seed `game_seed(seed, g)`; with `store` each finished
    game is saved at once (kind `hippo_games`) and `resume` reuses the stored ones."""
    for p in policies:
        if p not in POLICIES:
            raise BadInput(f"unknown policy '{p}' ({', '.join(POLICIES)})")
    if not rules.min_players <= len(policies) <= rules.max_players:
        raise BadInput(f"{len(policies)} players; Hippo is for "
                       f"{rules.min_players}-{rules.max_players}")
    if not 1 <= games <= SEED_STRIDE:
        # beyond SEED_STRIDE games, run S's games would reuse run S+1's seeds
        raise BadInput(f"--games: {games}; give 1 to {SEED_STRIDE}")
    batch = batch or Batch(1, progress=False)
    start = time.perf_counter()
    parameters = {"rules": rules.name, "rules_digest": data_digest(rules),
                  "players": len(policies), "policies": list(policies), "rotate": rotate}
    tasks = [SeededTask(parameters, game_seed(seed, g),
                        (rules, tuple(policies), rotate, g, game_seed(seed, g)))
             for g in range(games)]
    batch.description = f"{games} games, {'/'.join(policies)}"
    done = run_stored(batch, game_task, tasks, GAMES_KIND, store, resume,
                      lambda r: (asdict(r), {"winner": r.winner, "turns": r.turns}),
                      lambda data, g: GameRecord(**{**data, "game": g}), noun="game")
    records = [done[g] for g in sorted(done)]
    result = summarise_games(records, list(policies), seed, rotate)
    result.seconds = round(time.perf_counter() - start, 3)
    result.executor = batch.where
    result.interrupted = batch.interrupted
    return result


def summarise_games(records: Sequence[GameRecord], policies: list[str], seed: int,
                    rotate: bool) -> SimulationResult:
    """Win rates and game lengths of these games (in game order)."""
    n = len(policies)
    played = len(records)
    seat_wins = [sum(1 for r in records if r.winner == s) for s in range(n)]
    by_policy: dict[str, list[int]] = {}
    for r in records:
        for s, p in enumerate(r.seats):
            w, t = by_policy.get(p, [0, 0])
            by_policy[p] = [w + (r.winner == s), t + 1]
    lengths = [r.turns for r in records]
    return SimulationResult(
        played, n, seed, policies, rotate, sum(1 for r in records if r.winner is None),
        [wilson(w, played) for w in seat_wins],
        {p: wilson(w, t) for p, (w, t) in by_policy.items()},
        summarise(lengths), round(sum(lengths) / played / n, 3), list(records))
