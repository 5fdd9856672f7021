"""Can the game still be won (exact search when everything is known, else sampling
under a policy), and simulated games: win rates of the hint policy and random play."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from models.hoch_hinaus.achieve import achievable
from models.hoch_hinaus.hint import distance, policy_action
from models.hoch_hinaus.rules import Action, Game, Rules, action_json, new_game
from models.hoch_hinaus.tasks import Task
from solver.errors import BadInput
from solver.executor import Batch, SeededTask, run_stored
from solver.stats import Rate, wilson
from solver.store import Store, data_digest

POLICIES = ("hint", "greedy", "random")


@dataclass
class LineStep:
    player: int
    placement: dict
    fulfils: list[str]


@dataclass
class ReachableResult:
    """exact: answer won/lost proven by exhaustive search (or unknown at the time
    limit); sampled: win rate of a policy over completions of the unknown information."""

    method: str
    answer: str
    proven: bool
    line: list[LineStep] = field(default_factory=list)
    nodes: int = 0
    rate: Rate | None = None
    policy: str | None = None
    seconds: float = 0.0
    note: str = ""


def _state_key(g: Game) -> tuple:
    return (g.board.key(), tuple(tuple(sorted(h)) for h in g.hands), g.on_turn,
            tuple(sorted(t.text() for t in g.open)), tuple(t.text() for t in g.draw_pile),
            tuple(b.fillers for b in g.bonus), len(g.reserve))


def _plan(g: Game, max_left: int = 6) -> tuple[bool, Action | None]:
    """(pruned, first placement of a plan). Pruned when the tasks provably cannot all be
    fulfilled with the tiles left: every open task and every task of the draw pile must
    hold after one of the remaining placements (a necessary condition, checked by the
    SAT model with the known tiles in their order, only when few placements remain,
    where it is cheap). Otherwise the SAT witness's first placement is returned as a
    move to try first."""
    left = sum(len(h) for h in g.hands) + len(g.reserve)
    if left == 0 or left > max_left:
        return False, None
    tasks = list(dict.fromkeys(t for t in g.open + g.draw_pile if t is not None))
    if not tasks:
        return False, None
    res = achievable(g, tasks, left, "known", "sat")
    if res.answer == "no":
        return True, None
    p = res.witness[0].placement
    idx = g.rules.space_index
    return False, Action(p["tile"], idx[p["on"][0]], idx[p["on"][1]],
                         None if p["filler"] is None else idx[p["filler"]])


def _successors(g: Game) -> list[tuple]:
    """Every whole turn from g as (action, next game, tasks fulfilled), equal successor
    positions merged, best first: won, most tasks fulfilled, not lost, nearest tasks."""
    out: dict[tuple, tuple] = {}
    for a in g.legal_actions():
        g2 = g.copy()
        done = g2.apply_action(a)
        key = _state_key(g2)
        if key in out:
            continue
        vis = g2.board.visible()
        dist = sum(distance(g.rules, t, vis) for t in g2.open if t is not None)
        rank = (g2.status == "won", len(done), g2.status != "lost", -dist,
                a.filler is None)
        out[key] = (rank, a, g2, done)
    return [(a, g2, done) for _, a, g2, done in
            sorted(out.values(), key=lambda x: x[0], reverse=True)]


def exact(game: Game, time_limit: float) -> ReachableResult:
    """Depth-first search over every turn (placements ordered by the hint's ranking,
    equal successor boards merged, lost states remembered)."""
    start = time.perf_counter()
    failed: set[tuple] = set()
    nodes = 0
    out_of_time = False

    def search(g: Game) -> list | None:
        nonlocal nodes, out_of_time
        if g.status == "won":
            return []
        if g.status == "lost":
            return None
        key = _state_key(g)
        if key in failed:
            return None
        if time.perf_counter() - start > time_limit:
            out_of_time = True
            return None
        nodes += 1
        pruned, first = _plan(g)
        if pruned:
            failed.add(key)
            return None
        succ = _successors(g)
        if first is not None:  # the SAT plan's move first
            succ.sort(key=lambda x: x[0] != first)
        for a, g2, done in succ:
            rest = search(g2)
            if rest is not None:
                return [LineStep(g.on_turn + 1, action_json(g.rules, a),
                                 [t.text() for t in done])] + rest
            if out_of_time:
                return None
        failed.add(key)
        return None

    if not game.hands:
        raise BadInput("reachable needs a whole game state (hands, tasks), not a board")
    line = search(game.copy())
    if line is not None:  # the line is the certificate: replay it with the engine
        g = game.copy()
        for step in line:
            p = step.placement
            idx = g.rules.space_index
            g.apply_action(Action(p["tile"], idx[p["on"][0]], idx[p["on"][1]],
                                  None if p["filler"] is None else idx[p["filler"]]))
        if g.status != "won":
            raise RuntimeError("the winning line does not win when replayed (a bug)")
    res = ReachableResult("exact", "won" if line is not None else
                          ("unknown" if out_of_time else "lost"),
                          line is not None or not out_of_time, line or [], nodes)
    if out_of_time and line is None:
        res.note = (f"time limit {time_limit} s reached after {nodes} positions without a "
                    "winning line: not proven either way")
    res.seconds = round(time.perf_counter() - start, 3)
    return res


def play_out(game: Game, rng: random.Random, policy: str,
             hint_time: float | None = 0.8) -> Game:
    """Play `game` (changed in place) to its end under `policy`; `hint_time` as in
    `policy_action`."""
    g = game
    while not g.is_terminal():
        a = policy_action(g, rng, policy, hint_time)
        if a is None:
            g.status = "lost"
            break
        g.apply_action(a)
    return g


def sampled(game: Game, catalogue: list[Task], samples: int, policy: str, seed: int,
            time_limit: float, progress: Callable[[int, int], None] | None = None
            ) -> ReachableResult:
    """Play the game to its end `samples` times, each time with the unknowns (reserve
    order, unseen tasks) drawn at random, under a policy; the win rate with its Wilson
    95% interval."""
    if policy not in POLICIES:
        raise BadInput(f"--policy must be one of {', '.join(POLICIES)}")
    start = time.perf_counter()
    wins = n = 0
    for i in range(samples):
        if n and time.perf_counter() - start > time_limit:
            break
        rng = random.Random(seed * 100003 + i)
        g = play_out(game.determinise(rng, catalogue), rng, policy)
        wins += g.status == "won"
        n += 1
        if progress:
            progress(n, samples)
    rate = wilson(wins, n)
    res = ReachableResult("sampled", "estimate", False, rate=rate, policy=policy,
                          nodes=n)
    if n < samples:
        res.note = f"time limit reached: {n} of {samples} samples played"
    res.seconds = round(time.perf_counter() - start, 3)
    return res


def reachable(game: Game, catalogue: list[Task], samples: int = 40, policy: str = "hint",
              seed: int = 0, time_limit: float = 60.0,
              progress: Callable[[int, int], None] | None = None) -> ReachableResult:
    if not game.hands:
        raise BadInput("reachable needs a whole game state (hands, tasks), not a board")
    if game.status != "playing":
        return ReachableResult("exact", game.status, True,
                               note=f"the game in the file is already {game.status}")
    if game.everything_known:
        return exact(game, time_limit)
    return sampled(game, catalogue, samples, policy, seed, time_limit, progress)


GAMES_KIND = "hoch_hinaus_games"


@dataclass
class GameRecord:
    """One simulated game, from its own seeds alone: the deal (`new_game` with
    random.Random(deal_seed)), the policy's choices (random.Random(play_seed)) and how
    it ended. Nothing in it depends on the process or machine that played it."""

    policy: str
    game: int  # deal number i of the run
    deal_seed: int  # seed * 7919 + i
    play_seed: int  # seed * 104729 + i
    won: bool
    tasks_completed: int
    turns: int


@dataclass
class PolicyStats:
    policy: str
    rate: Rate
    mean_tasks_completed: float
    mean_turns: float


@dataclass
class SimulateResult:
    """Win rates per policy on the same seeded deals (`games` deals each; fewer in
    `records` when the run was interrupted: only finished games are summarised)."""

    games: int
    difficulty: str
    players: int
    pros: bool
    side: str
    seed: int
    policies: list[PolicyStats]
    seconds: float
    rules: str = ""
    hint_time: float | None = None  # the hint policy's seconds per move (None: no limit)
    executor: str = "in-process"
    interrupted: bool = False
    records: list[GameRecord] = field(default_factory=list)


def deal_seed(seed: int, game: int) -> int:
    """The seed of deal `game` of a run with `seed` (the scheme of the first figures)."""
    return seed * 7919 + game


def play_seed(seed: int, game: int) -> int:
    """The seed of the policy's choices in deal `game` of a run with `seed`."""
    return seed * 104729 + game


def play_one(rules: Rules, catalogue: list[Task], players: int, difficulty: str,
             side: str, pros: bool, policy: str, deal: int, play: int,
             hint_time: float | None = None) -> Game:
    """The game dealt from seed `deal`, played to its end by `policy` with its choices
    drawn from seed `play`."""
    g = new_game(rules, catalogue, players, difficulty, random.Random(deal), side, pros)
    return play_out(g, random.Random(play), policy, hint_time)


def game_task(rules: Rules, catalogue: list[Task], players: int, difficulty: str,
              side: str, pros: bool, policy: str, game: int, deal: int, play: int,
              hint_time: float | None) -> GameRecord:
    """One game as a batch task (top level, so process pools and Dask can pickle it)."""
    g = play_one(rules, catalogue, players, difficulty, side, pros, policy, deal, play,
                 hint_time)
    return GameRecord(policy, game, deal, play, g.status == "won", len(g.completed),
                      g.turns)


def catalogue_digest(rules: Rules, catalogue: list[Task]) -> str:
    """A short fingerprint of the task catalogue (part of a stored run's parameters: a
    --tasks file with other cards is another run)."""
    text = "\n".join(t.text(rules) for t in catalogue)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def summarise(policies: list[str], records: list[GameRecord]) -> list[PolicyStats]:
    """Per policy (in the order asked): wins with their Wilson 95% interval, mean tasks
    fulfilled and mean turns over its finished games (a policy with none is left out)."""
    out = []
    for policy in policies:
        mine = [r for r in records if r.policy == policy]
        if not mine:
            continue
        n = len(mine)
        out.append(PolicyStats(policy, wilson(sum(r.won for r in mine), n),
                               round(sum(r.tasks_completed for r in mine) / n, 2),
                               round(sum(r.turns for r in mine) / n, 2)))
    return out


def simulate(rules: Rules, catalogue: list[Task], games: int, difficulty: str, players: int,
             policies: list[str], seed: int = 0, pros: bool = False, side: str = "blue",
             batch: Batch | None = None, store: Store | None = None, resume: bool = False,
             hint_time: float | None = None) -> SimulateResult:
    """The same seeded deals played by each policy; win rates with Wilson intervals.

    Deal i is dealt from random.Random(seed * 7919 + i) and played from
    random.Random(seed * 104729 + i), whatever the policy. Every (deal, policy) is one
    task of `batch` (default: in this process, no progress bar), deal by deal (all
    policies of deal 0, then of deal 1, ...), so an interrupted run compares the
    policies on the same deals. With `store` each finished game is saved at once
    (kind `hoch_hinaus_games`); `resume` reuses the stored games of the same run."""
    if games < 1:
        raise BadInput("--games must be at least 1")
    policies = list(dict.fromkeys(policies))
    if not policies:
        raise BadInput("no policy to simulate")
    for p in policies:
        if p not in POLICIES:
            raise BadInput(f"unknown policy '{p}' (one of {', '.join(POLICIES)})")
    if hint_time is not None and hint_time <= 0:
        raise BadInput("--hint-time must be positive (0 on the command line: no limit)")
    # a bad difficulty, player count or too small a catalogue fails here, not in a task
    new_game(rules, catalogue, players, difficulty, random.Random(0), side, pros)
    batch = batch if batch is not None else Batch(1, progress=False)
    start = time.perf_counter()
    common = {"rules": rules.name, "rules_digest": data_digest(rules),
              "catalogue": catalogue_digest(rules, catalogue),
              "difficulty": difficulty, "players": players, "pros": pros, "side": side,
              "seed": seed}
    tasks = []
    for i in range(games):
        for p in policies:
            limit = hint_time if p == "hint" else None
            # the run's seed is a parameter: the play seed is not a function of the
            # deal seed alone (seed 1, deal 0 and seed 0, deal 7919 share a deal seed)
            parameters = {**common, "policy": p, "hint_time": limit}
            tasks.append(SeededTask(parameters, deal_seed(seed, i),
                                    (rules, catalogue, players, difficulty, side, pros, p,
                                     i, deal_seed(seed, i), play_seed(seed, i), limit)))
    batch.description = f"{games} deals x {len(policies)} polic{'ies' if len(policies) > 1 else 'y'}"
    done = run_stored(batch, game_task, tasks, GAMES_KIND, store, resume,
                      lambda r: (asdict(r), {"won": r.won, "tasks_completed": r.tasks_completed}),
                      lambda data, i: GameRecord(**data), noun="game")
    records = [done[i] for i in sorted(done)]
    return SimulateResult(games, difficulty, players, pros, side, seed,
                          summarise(policies, records), round(time.perf_counter() - start, 2),
                          rules.name, hint_time, batch.where, batch.interrupted, records)
