"""Can the game still be won? When everything is known (the reserve's order, every
task) an exact answer: a depth-first search over whole turns and, on long games,
rollouts first (they find most wins fast; the search proves losses near the end), then
the SAT model of the rest of the game (exact.py). Else the win rate of a policy over
sampled completions of the unknowns."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from models.hoch_hinaus.achievable import achievable
from models.hoch_hinaus.board import Action, PlacementJson, action_json
from models.hoch_hinaus.exact import placements_left
from models.hoch_hinaus.exact import solve as solve_exact
from models.hoch_hinaus.game import GAME
from models.hoch_hinaus.hint import distance, hint, policy_action
from models.hoch_hinaus.state import GameState
from solver.backends.common import SolverOptions
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.progress import live_status
from solver.stats import Rate, wilson

POLICIES = GAME.policy_names


@dataclass
class LineStep:
    player: int
    placement: PlacementJson
    fulfils: list[str]


@dataclass
class ReachableResult:
    """exact: answer won/lost proven (`by` a rollout, the depth-first search or the SAT
    model) or unknown at the time limit (then `stopped`: the command exits 3); sampled: win rate
    of a policy over completions of the unknown information."""

    method: Literal["exact", "sampled"]
    answer: Literal["won", "lost", "unknown", "estimate"]
    proven: bool
    line: list[LineStep] = field(default_factory=list)
    nodes: int = 0
    rate: Rate | None = None
    policy: str | None = None
    seconds: float = 0.0
    note: str = ""
    # the time limit came first: sampled, before every asked sample was played;
    # exact, before an answer
    stopped: bool = False
    by: Literal["", "rollout", "search", "sat"] = ""  # exact: "rollout", "search" (depth-first) or "sat" (exact.py's model)


def _state_key(g: GameState) -> tuple:
    return (g.board.key(), tuple(tuple(sorted(h)) for h in g.hands), g.on_turn,
            tuple(sorted(t.text() for t in g.open)), tuple(t.text() for t in g.draw_pile),
            tuple(b.fillers for b in g.bonus), len(g.reserve))


def _plan(g: GameState, max_left: int = 6, deadline: Deadline = NO_DEADLINE
          ) -> tuple[bool, Action | None]:
    """(pruned, first placement of a plan). Pruned when the tasks provably cannot all be
    fulfilled with the tiles left: every open task and every task of the draw pile must
    hold after one of the remaining placements (a necessary condition, checked by the
    SAT model with the known tiles in their order, only when few placements remain,
    where it is cheap). Otherwise the SAT witness's first placement is returned as a
    move to try first. Not pruned when `deadline` comes first."""
    left = sum(len(h) for h in g.hands) + len(g.reserve)
    if left == 0 or left > max_left:
        return False, None
    tasks = list(dict.fromkeys(t for t in g.open + g.draw_pile if t is not None))
    if not tasks:
        return False, None
    options = SolverOptions().within(deadline)
    try:
        res = achievable(g, tasks, left, "known", "sat", options)
    except TimeLimitReached:
        return False, None
    if res.answer == "no":
        return True, None
    p = res.witness[0].placement
    idx = g.rules.space_index
    return False, Action(p["tile"], idx[p["on"][0]], idx[p["on"][1]],
                         None if p["filler"] is None else idx[p["filler"]])


def _successors(g: GameState, actions: list[Action] | None = None) -> list[tuple]:
    """Every whole turn from g (or these `actions`) as (action, next game, tasks
    fulfilled), equal successor positions merged, best first: won, most tasks fulfilled,
    not lost, nearest tasks."""
    out: dict[tuple, tuple] = {}
    for a in g.legal_actions() if actions is None else actions:
        g2, done = g.turn(a)
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


def dfs(game: GameState, time_limit: float, deadline: Deadline = NO_DEADLINE
        ) -> ReachableResult:
    """Depth-first search over every turn (placements ordered by the hint's ranking,
    equal successor boards merged, lost states remembered), for `time_limit` seconds or
    until `deadline`. The reference the SAT model is tested against."""
    start = time.perf_counter()
    if deadline == NO_DEADLINE:
        deadline = Deadline.after(time_limit)
    else:
        time_limit = deadline.left()
    failed: set[tuple] = set()
    nodes = 0
    out_of_time = False

    def search(g: GameState) -> list | None:
        nonlocal nodes, out_of_time
        if g.status == "won":
            return []
        if g.status == "lost":
            return None
        key = _state_key(g)
        if key in failed:
            return None
        if deadline.passed():
            out_of_time = True
            return None
        nodes += 1
        status.step(nodes)
        pruned, first = _plan(g, deadline=deadline)
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
    with live_status("exact search", time_limit, unit="positions") as status:
        line = search(game)
    if line is not None:  # the line is the certificate: replay it with the engine
        g = game
        for step in line:
            p = step.placement
            idx = g.rules.space_index
            g = g.apply_action(Action(p["tile"], idx[p["on"][0]], idx[p["on"][1]],
                                      None if p["filler"] is None else idx[p["filler"]]))
        if g.status != "won":
            raise RuntimeError("the winning line does not win when replayed (a bug)")
    res = ReachableResult("exact", "won" if line is not None else
                          ("unknown" if out_of_time else "lost"),
                          line is not None or not out_of_time, line or [], nodes,
                          by="search")
    if out_of_time and line is None:
        res.note = (f"time limit {time_limit:.3g} s reached after {nodes} positions without "
                    "a winning line: not proven either way")
    res.seconds = round(time.perf_counter() - start, 3)
    return res


def line_steps(game: GameState, actions: list[Action]) -> list[LineStep]:
    """The placements as played by the engine from `game`: who plays, what it fulfils."""
    g, out = game, []
    for a in actions:
        player = g.on_turn + 1
        g, done = g.turn(a)
        out.append(LineStep(player, action_json(g.rules, a), [t.text() for t in done]))
    return out


def _search_ranking(g: GameState, rng: random.Random, noisy: bool) -> Action | None:
    """The search's ranking; turns with a gap filler are ranked only when no turn
    without one avoids a loss (a turn has about 12 times more of them, and they release
    bonus tasks)."""
    acts = g.legal_actions()
    plain = [a for a in acts if a.filler is None]
    succ = _successors(g, plain) if plain else []
    if not succ or succ[0][1].status == "lost":
        succ = _successors(g, acts)
    if not succ:
        return None
    pick = rng.randrange(min(3, len(succ))) if noisy and rng.random() < 0.3 else 0
    return succ[pick][0]


def _hint_ranking(g: GameState, rng: random.Random, noisy: bool) -> Action | None:
    """The hint's ranking without its look-ahead (the greedy policy of `simulate`; `rng`
    breaks its many ties, so every rollout differs)."""
    options = hint(g, lookahead=False, top=3, time_limit=math.inf, rng=rng).options
    if not options:
        return None
    pick = rng.randrange(min(3, len(options))) if noisy and rng.random() < 0.3 else 0
    return options[pick].action


def rollouts(game: GameState, rng: random.Random, deadline: Deadline, first: int = 0
             ) -> tuple[list[Action] | None, int]:
    """Games played out from `game`, by turns with the search's ranking (cheap: it
    ranks turns without a gap filler first) and the hint's (about ten times the work a
    turn; they win different deals), the first two as ranked, then now and then taking
    the second or third choice, until one is won (its placements) or the deadline
    passes. `first`: the number of the first game (1: skip the search's ranked one)."""
    turns = 0
    k = first
    while not deadline.passed():
        choose = _search_ranking if k % 2 == 0 else _hint_ranking
        g, line = game, []
        while g.status == "playing" and not deadline.passed():
            a = choose(g, rng, k >= 2)
            if a is None:
                break
            g = g.apply_action(a)
            line.append(a)
            turns += 1
        if g.status == "won":
            return line, turns
        k += 1
    return None, turns


def search_plan(left: int) -> list[tuple[str, float]]:
    """The steps before the SAT model and the share of the time limit each ends at.
    The model decides short end games in a second or two; long ones it rarely finishes,
    where most wins are found either by the first, cheap rollout, the search's first
    lines (within seconds) or the other rollouts, seldom late by any."""
    if left <= 16:
        return [("search", 0.05)]
    if left <= 20:  # the model proved 9 losses with 18 left in 1-6 s each
        return [("rollout", 0.03), ("search", 0.08)]
    return [("rollout", 0.03), ("search", 0.08), ("rollouts", 0.4), ("search", 0.75)]


def exact(game: GameState, time_limit: float, deadline: Deadline = NO_DEADLINE
          ) -> ReachableResult:
    """Everything known: rollouts and the depth-first search for shares of the time
    (`search_plan`), then the SAT model of the rest of the game until `deadline`
    (default `time_limit` from now). Unknown at the deadline (`stopped`)."""
    start = time.perf_counter()
    if deadline == NO_DEADLINE:
        deadline = Deadline.after(time_limit)
    total = deadline.left()
    assert total is not None
    if not game.hands:
        raise BadInput("reachable needs a whole game state (hands, tasks), not a board")
    left = placements_left(game)
    # each step ends at its share of the time, counted from now
    steps = [(step, Deadline.after(share * total)) for step, share in search_plan(left)]
    # the solver stops a little early: letting go of a whole game's model (a million
    # clauses) and a late interrupt took up to 2.3 s past a 120-s limit
    sat_deadline = Deadline.after(total - min(2.0, 0.05 * total))
    nodes = 0
    for step, step_deadline in steps:
        if step in ("rollout", "rollouts"):  # one cheap game first, then the rest
            won, turns = rollouts(game, random.Random(0), step_deadline,
                                  int(step == "rollouts"))
            nodes += turns
            if won is not None:
                res = ReachableResult("exact", "won", True, line_steps(game, won), nodes,
                                      by="rollout")
                res.seconds = round(time.perf_counter() - start, 3)
                return res
            continue
        res = dfs(game, 0, step_deadline)
        nodes += res.nodes
        res.nodes = nodes
        if res.answer != "unknown":
            res.seconds = round(time.perf_counter() - start, 3)
            return res
    with live_status("", deadline.left(), solves=True):  # the SAT call's line
        got = solve_exact(game, sat_deadline)
    if got.answer is None:
        res = ReachableResult("exact", "unknown", False, nodes=nodes, by="sat")
        res.note = (f"time limit {total:.3g} s reached: not proven either way "
                    f"({nodes} positions searched, then the SAT model of the rest of the "
                    f"game, {got.clauses} clauses, undecided)")
    else:
        res = ReachableResult("exact", got.answer, True, line_steps(game, got.line), nodes,
                              by="sat")
        res.note = (f"{got.answer}: decided by the SAT model of the rest of the game "
                    f"({got.clauses} clauses, {left} placements at most) after {nodes} "
                    "positions searched")
    res.stopped = res.answer == "unknown"
    res.seconds = round(time.perf_counter() - start, 3)
    return res


def play_out(game: GameState, rng: random.Random, policy: str,
             hint_time: float | None = 0.8, open_hands: bool = False, samples: int = 16,
             deadline: Deadline = NO_DEADLINE) -> GameState | None:
    """Play `game` (everything known) to its end under `policy` (the end state), each
    player judging from their own observation (`open_hands`: from the whole state);
    `hint_time` and `samples` as in `policy_action`. None when `deadline` comes
    first; a hint's time is cut to what is left."""
    g = game
    while not g.is_terminal():
        seen = g if open_hands else g.observation(g.on_turn)
        think = hint_time
        left = deadline.left()
        if left is not None:
            if left <= 0:
                return None
            think = left if think is None else min(think, left)
        a = policy_action(seen, rng, policy, think, samples=samples)
        if a is None:
            return g.but(status="lost")
        g = g.apply_action(a)
    return g


def sampled(game: GameState, samples: int, policy: str, seed: int, time_limit: float,
            progress: Callable[[int, int], None] | None = None, open_hands: bool = False,
            draws: int = 16) -> ReachableResult:
    """Play the game to its end `samples` times, each time with the unknowns (other
    hands, reserve order, unseen tasks) drawn at random, under a policy whose players
    each judge from their own observation (`open_hands`: from the whole state); the win
    rate with its Wilson 95% interval."""
    if policy not in POLICIES:
        raise BadInput(f"--policy must be one of {', '.join(POLICIES)}")
    start = time.perf_counter()
    deadline = Deadline.after(time_limit)
    wins = n = 0
    for i in range(samples):
        rng = random.Random(seed * 100003 + i)
        g = play_out(game.determinise(rng), rng, policy, open_hands=open_hands,
                     samples=draws, deadline=deadline)
        if g is None:  # the time limit, inside this game: it does not count
            break
        wins += g.status == "won"
        n += 1
        if progress:
            progress(n, samples)
    if n == 0:
        raise TimeLimitReached(f"time limit of {time_limit:g} s reached before the first "
                               "sampled game ended")
    rate = wilson(wins, n)
    res = ReachableResult("sampled", "estimate", False, rate=rate, policy=policy,
                          nodes=n, stopped=n < samples)
    if n < samples:
        res.note = f"time limit reached: {n} of {samples} samples played"
    res.seconds = round(time.perf_counter() - start, 3)
    return res


def reachable(game: GameState, samples: int = 40, policy: str = "hint", seed: int = 0,
              time_limit: float = 60.0, progress: Callable[[int, int], None] | None = None,
              open_hands: bool = False, draws: int = 16) -> ReachableResult:
    """Can the game in `game` still be won? With everything known an exact search;
    else the sampled win rate of `policy`."""
    if not game.hands:
        raise BadInput("reachable needs a whole game state (hands, tasks), not a board")
    if game.status != "playing":
        return ReachableResult("exact", game.status, True,
                               note=f"the game in the file is already {game.status}")
    if game.everything_known:  # the limit counts from the command's start
        return exact(game, time_limit, Deadline.from_start(time_limit))
    return sampled(game, samples, policy, seed, time_limit, progress, open_hands, draws)

