"""Simulated games: policies (best, greedy, random) and seeded, reproducible runs.

Game g is played with random.Random(seed * 1_000_003 + g) for the dice and the policies'
tie-breaks, so a run gives the same games whatever the number of worker processes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from models.hippo.best import best_options, roll_results
from models.hippo.rules import GameState, Rules, new_game
from solver.errors import BadInput
from solver.stats import Rate, Summary, summarise, wilson

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
    """One game: who won (seat, or None if unfinished), turns played by everyone."""

    game: int
    winner: int | None
    turns: int
    rolls: int


def play_game(rules: Rules, policies: Sequence[str], game_seed: int, game: int = 0
              ) -> GameRecord:
    """One game from the start, seat i playing policies[i]; seat 0 begins."""
    rng = random.Random(game_seed)
    colours = rules.colour_names[:len(policies)]
    state = new_game(rules, colours)
    turns = rolls = 0
    while rolls < 2 * MAX_TURNS:
        if not state.bonus:
            turns += 1
            if turns > MAX_TURNS:
                return GameRecord(game, None, turns - 1, rolls)
        dice = roll_dice(rules, rng)
        rolls += 1
        lanes, hippo, stocks, move = choose(policies[state.to_move], state, dice, rng)
        state = advance(state, lanes, hippo, stocks, move)
        if not any(stocks[state.to_move]):
            return GameRecord(game, state.to_move, turns, rolls)
    return GameRecord(game, None, turns, rolls)


def seats_for(policies: Sequence[str], game: int, rotate: bool) -> list[str]:
    """The policy of each seat in game g (rotated by g when asked)."""
    n = len(policies)
    if not rotate:
        return list(policies)
    return [policies[(i + game) % n] for i in range(n)]


def _play_chunk(args: tuple) -> list[GameRecord]:
    rules, policies, seed, games, rotate = args
    return [play_game(rules, seats_for(policies, g, rotate), seed * 1_000_003 + g, g)
            for g in games]


@dataclass
class SimulationResult:
    """Win rates by seat and by policy (Wilson 95% intervals), game lengths."""

    games: int
    players: int
    seed: int
    policies: list[str]  # the policy of each seat (game 0 when rotated)
    rotate: bool
    unfinished: int
    win_rate_by_seat: list[Rate]
    win_rate_by_policy: dict[str, Rate]  # wins of a policy / seats it played
    turns: Summary  # turns of all players per game
    rounds_mean: float  # turns / players
    workers: int
    seconds: float


def simulate(rules: Rules, games: int, policies: Sequence[str], seed: int = 0,
             rotate: bool = False, workers: int = 1,
             progress: Callable[[int, int], None] | None = None) -> SimulationResult:
    """Play `games` seeded games; `policies` gives one policy per seat."""
    import time

    for p in policies:
        if p not in POLICIES:
            raise BadInput(f"unknown policy '{p}' ({', '.join(POLICIES)})")
    if not rules.min_players <= len(policies) <= rules.max_players:
        raise BadInput(f"{len(policies)} players; Hippo is for "
                       f"{rules.min_players}-{rules.max_players}")
    start = time.perf_counter()
    chunk = max(1, min(50, games // (4 * workers) or 1))
    jobs = [(rules, tuple(policies), seed, range(i, min(games, i + chunk)), rotate)
            for i in range(0, games, chunk)]
    records: list[GameRecord] = []
    if workers <= 1:
        for job in jobs:
            records.extend(_play_chunk(job))
            if progress:
                progress(len(records), games)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(_play_chunk, jobs):
                records.extend(part)
                if progress:
                    progress(len(records), games)
    records.sort(key=lambda r: r.game)
    n = len(policies)
    seat_wins = [sum(1 for r in records if r.winner == s) for s in range(n)]
    by_policy: dict[str, list[int]] = {}
    for r in records:
        for s, p in enumerate(seats_for(policies, r.game, rotate)):
            w, t = by_policy.get(p, [0, 0])
            by_policy[p] = [w + (r.winner == s), t + 1]
    lengths = [r.turns for r in records]
    return SimulationResult(
        games, n, seed, list(policies), rotate, sum(1 for r in records if r.winner is None),
        [wilson(w, games) for w in seat_wins],
        {p: wilson(w, t) for p, (w, t) in by_policy.items()},
        summarise(lengths), round(sum(lengths) / len(lengths) / n, 3), workers,
        round(time.perf_counter() - start, 3))
