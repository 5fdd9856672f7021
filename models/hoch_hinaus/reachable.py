"""Can the game still be won? When everything is known (the reserve's order, every
task) an exact answer: a depth-first search over whole turns and, on long games,
rollouts first (they find most wins fast; the search proves losses near the end), then
the SAT model of the rest of the game (exact.py). Else the win rate of a policy over
sampled completions of the unknowns.

The work is counted, never timed: the searches in positions (rollout turns and search
positions, `nodes`), the SAT model in conflicts, the sampling in games; so an answer is
a function of the position, the options and the seed. A time limit only caps the work:
the sampled rate cut by it is the rate over the games played (`cut_by_time`); an exact
search cut by it, or out of work, has no answer (TimeLimitReached at the command)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from models.hoch_hinaus.achievable import achievable
from models.hoch_hinaus.board import Action, PlacementJson, action_json
from models.hoch_hinaus.budgets import (
    PLAN_CONFLICTS,
    REACHABLE_CONFLICTS,
    REACHABLE_NODES,
    REACHABLE_SAMPLES,
)
from models.hoch_hinaus.exact import placements_left, solve_relaxed
from models.hoch_hinaus.exact import solve as solve_exact
from models.hoch_hinaus.game import GAME
from models.hoch_hinaus.hint import distance, hint, policy_action
from models.hoch_hinaus.relax import impossible_tasks
from models.hoch_hinaus.state import GameState
from solver.answers import Capped
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
class ReachableResult(Capped):
    """exact: answer won/lost proven (`by` a rollout, the depth-first search or the SAT
    model), or unknown when the work (`nodes` positions, `conflicts` of the SAT model)
    or the time limit ran out first (the command then has no answer: exit 3); sampled:
    the win rate of a policy over completions of the unknown information (`cut_by_time`:
    over the games that ended within the time limit, fewer than asked)."""

    method: Literal["exact", "sampled"]
    answer: Literal["won", "lost", "unknown", "estimate"]
    proven: bool
    line: list[LineStep] = field(default_factory=list)
    nodes: int = 0
    rate: Rate | None = None
    policy: str | None = None
    seconds: float = 0.0
    note: str = ""
    # exact: "rollout", "search" (depth-first), "sat" (exact.py's model) or "relaxed"
    # (its relaxed model, heights capped)
    by: Literal["", "rollout", "search", "sat", "relaxed"] = ""
    conflicts: int = 0  # exact: the SAT model's conflict budget (0: not run)


def _state_key(g: GameState) -> tuple:
    return (g.board.key(), tuple(tuple(sorted(h)) for h in g.hands), g.on_turn,
            tuple(sorted(t.text() for t in g.open)), tuple(t.text() for t in g.draw_pile),
            tuple(b.fillers for b in g.bonus), len(g.reserve))


def _plan(g: GameState, max_left: int = 6, deadline: Deadline = NO_DEADLINE,
          conflicts: int = PLAN_CONFLICTS) -> tuple[bool, Action | None]:
    """(pruned, first placement of a plan). Pruned when the tasks provably cannot all be
    fulfilled with the tiles left: every open task and every task of the draw pile must
    hold after one of the remaining placements (a necessary condition, checked by the
    SAT model with the known tiles in their order, within `conflicts`, only when few
    placements remain, where it is cheap). Otherwise the SAT witness's first placement
    is returned as a move to try first. Not pruned when the budget or `deadline` comes
    first."""
    left = sum(len(h) for h in g.hands) + len(g.reserve)
    if left == 0 or left > max_left:
        return False, None
    tasks = list(dict.fromkeys(t for t in g.open + g.draw_pile if t is not None))
    if not tasks:
        return False, None
    try:
        res = achievable(g, tasks, left, "known", "sat", SolverOptions(deadline=deadline),
                         conflicts)
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


def dfs(game: GameState, max_nodes: int = REACHABLE_NODES,
        deadline: Deadline = NO_DEADLINE) -> ReachableResult:
    """Depth-first search over every turn (placements ordered by the hint's ranking,
    equal successor boards merged, lost states remembered), at most `max_nodes`
    positions (then `unknown`), capped by `deadline` (then `unknown` and `cut_by_time`).
    The reference the SAT model is tested against."""
    start = time.perf_counter()
    failed: set[tuple] = set()
    nodes = 0
    stop = ""  # why the search stopped short: "work" or "time"

    def search(g: GameState) -> list | None:
        nonlocal nodes, stop
        if g.status == "won":
            return []
        if g.status == "lost":
            return None
        key = _state_key(g)
        if key in failed:
            return None
        if nodes >= max_nodes or deadline.passed():
            stop = "work" if nodes >= max_nodes else "time"
            return None
        nodes += 1
        status.step(nodes, max_nodes)
        pruned, first = _plan(g, deadline=deadline)
        if deadline.passed():  # the check may have been cut: not trusted
            stop = "time"
            return None
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
            if stop:
                return None
        failed.add(key)
        return None

    if not game.hands:
        raise BadInput("reachable needs a whole game state (hands, tasks), not a board")
    with live_status("exact search", deadline.left(), unit="positions") as status:
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
                          ("unknown" if stop else "lost"),
                          line is not None or not stop, line or [], nodes, by="search",
                          cut_by_time=line is None and stop == "time")
    if stop and line is None:
        res.note = (f"{'the time limit' if stop == 'time' else 'the work budget'} came "
                    f"after {nodes} positions without a winning line: not proven either way")
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
    options = hint(g, lookahead=False, top=3, rng=rng).options
    if not options:
        return None
    pick = rng.randrange(min(3, len(options))) if noisy and rng.random() < 0.3 else 0
    return options[pick].action


def rollouts(game: GameState, rng: random.Random, max_turns: int, first: int = 0,
             deadline: Deadline = NO_DEADLINE) -> tuple[list[Action] | None, int]:
    """Games played out from `game`, by turns with the search's ranking (cheap: it
    ranks turns without a gap filler first) and the hint's (about ten times the work a
    turn; they win different deals), the first two as ranked, then now and then taking
    the second or third choice, until one is won (its placements), `max_turns` turns
    were played or `deadline` passes (a game cut short by either is not judged).
    `first`: the number of the first game (1: skip the search's ranked one)."""
    turns = 0
    k = first
    while turns < max_turns and not deadline.passed():
        choose = _search_ranking if k % 2 == 0 else _hint_ranking
        g, line = game, []
        while g.status == "playing" and turns < max_turns and not deadline.passed():
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
    """The steps before the SAT model and the share of the node budget (positions and
    rollout turns, counted from the first step) each ends at. A position near the end
    costs the search a SAT check (at most six placements left) and the model decides
    such end games in a second or two: there the search gets 1/200 of the budget (20
    positions at the default: the first lines, which find easy wins). Long games the
    model rarely finishes; most wins come from the first, cheap rollout, the search's
    first lines or the other rollouts, seldom late by any: there the searches have it
    all."""
    if left <= 16:
        return [("search", 0.005)]
    if left <= 20:  # the model proved 9 losses with 18 left in 1-6 s each
        return [("rollout", 0.015), ("search", 0.02)]
    # long games: after the first rollout the relaxed model (exact.solve_relaxed), which
    # proves most losses and finds many wins; its work is counted in conflicts
    return [("rollout", 0.1), ("relaxed", 0.1), ("search", 0.15), ("rollouts", 0.6),
            ("search", 1.0)]


def exact(game: GameState, nodes: int = REACHABLE_NODES,
          conflicts: int = REACHABLE_CONFLICTS, deadline: Deadline = NO_DEADLINE
          ) -> ReachableResult:
    """Everything known: rollouts and the depth-first search for shares of the `nodes`
    budget (`search_plan`), then the SAT model of the rest of the game within
    `conflicts`. `unknown` when the work runs out, or `deadline` (a cap only) comes
    first (then `cut_by_time`)."""
    start = time.perf_counter()
    if not game.hands:
        raise BadInput("reachable needs a whole game state (hands, tasks), not a board")
    left = placements_left(game)
    blocked = impossible_tasks(game)  # a task no remaining tiles can fulfil: lost
    if blocked:
        res = ReachableResult("exact", "lost", True, by="relaxed")
        res.note = ("lost: no placements of the tiles left can fulfil "
                    + "; ".join(t.text(game.rules) for t in blocked))
        res.seconds = round(time.perf_counter() - start, 3)
        return res
    used = 0
    for step, share in search_plan(left):
        if step == "relaxed":
            got = solve_relaxed(game, deadline, conflicts)
            if got.answer is not None:
                res = ReachableResult("exact", got.answer, True, line_steps(game, got.line),
                                      used, by="relaxed", conflicts=conflicts)
                res.note = (f"{got.answer}: decided by the relaxed model of the rest of "
                            f"the game (heights capped; {got.clauses} clauses, "
                            f"{got.models} model(s) asked, within {conflicts} conflicts "
                            f"each) after {used} positions searched")
                res.seconds = round(time.perf_counter() - start, 3)
                return res
            if deadline.passed():
                return _unknown(start, used, "the time limit came during the relaxed "
                                "model", True)
            continue
        budget = int(share * nodes) - used  # each step ends at its share, counted on
        if budget <= 0:
            continue
        if step in ("rollout", "rollouts"):  # one cheap game first, then the rest
            won, turns = rollouts(game, random.Random(0), budget, int(step == "rollouts"),
                                  deadline)
            used += turns
            if won is not None:
                res = ReachableResult("exact", "won", True, line_steps(game, won), used,
                                      by="rollout")
                res.seconds = round(time.perf_counter() - start, 3)
                return res
        else:
            res = dfs(game, budget, deadline)
            used += res.nodes
            res.nodes = used
            if res.answer != "unknown":
                res.seconds = round(time.perf_counter() - start, 3)
                return res
        if deadline.passed():
            return _unknown(start, used, "the time limit came during the search", True)
    res = _by_model(game, left, used, conflicts, deadline)
    res.seconds = round(time.perf_counter() - start, 3)
    return res


def _by_model(game: GameState, left: int, used: int, conflicts: int, deadline: Deadline
              ) -> ReachableResult:
    """The SAT model's answer after `used` positions searched (exact's last step)."""
    # the solver stops a little early: letting go of a whole game's model (a million
    # clauses) and a late interrupt took up to 2.3 s past a 120-s limit
    total = deadline.left()
    sat_deadline = deadline if total is None else Deadline.after(
        total - min(2.0, 0.05 * total))
    with live_status("", total, solves=True):  # the SAT call's line
        got = solve_exact(game, sat_deadline, conflicts)
    if got.answer is None:
        why = ("the time limit came" if got.cut_by_time else
               f"its budget of {conflicts} conflicts ran out")
        res = _unknown(0.0, used, f"{used} positions searched, then the SAT model of the "
                       f"rest of the game ({got.clauses} clauses), undecided when {why}",
                       got.cut_by_time)
    else:
        res = ReachableResult("exact", got.answer, True, line_steps(game, got.line), used,
                              by="sat")
        res.note = (f"{got.answer}: decided by the SAT model of the rest of the game "
                    f"({got.clauses} clauses, {left} placements at most) after {used} "
                    "positions searched")
    res.conflicts = conflicts
    return res


def _unknown(start: float, nodes: int, why: str, cut: bool) -> ReachableResult:
    """Exact, not proven either way (the command has no answer then)."""
    res = ReachableResult("exact", "unknown", False, nodes=nodes, by="sat" if "SAT" in why
                          else "search", cut_by_time=cut)
    res.note = f"not proven either way: {why}"
    if start:
        res.seconds = round(time.perf_counter() - start, 3)
    return res


def play_out(game: GameState, rng: random.Random, policy: str,
             hint_time: float | None = None, open_hands: bool = False, samples: int = 16,
             deadline: Deadline = NO_DEADLINE) -> GameState | None:
    """Play `game` (everything known) to its end under `policy` (the end state), each
    player judging from their own observation (`open_hands`: from the whole state);
    `hint_time` (a cap per move, None: none) and `samples` as in `policy_action`. None
    when `deadline` comes first (a game it may have cut is never judged)."""
    g = game
    while not g.is_terminal():
        if deadline.passed():
            return None
        seen = g if open_hands else g.observation(g.on_turn)
        a = policy_action(seen, rng, policy, hint_time, samples=samples, deadline=deadline)
        if a is None:
            g = g.but(status="lost")
            break
        g = g.apply_action(a)
    return None if deadline.passed() else g


def sampled(game: GameState, samples: int, policy: str, seed: int,
            deadline: Deadline = NO_DEADLINE,
            progress: Callable[[int, int], None] | None = None, open_hands: bool = False,
            draws: int = 16) -> ReachableResult:
    """Play the game to its end `samples` times, each time with the unknowns (other
    hands, reserve order, unseen tasks) drawn at random, under a policy whose players
    each judge from their own observation (`open_hands`: from the whole state); the win
    rate with its Wilson 95% interval. Game i is the same whatever the machine: seeded
    by `seed` and i, each decision's work counted (`draws`, the hint's conflicts).
    `deadline` only caps the sampling: then the rate over the games that ended before
    it (the first ones, as with fewer `samples`), `cut_by_time`; TimeLimitReached when
    none did."""
    if policy not in POLICIES:
        raise BadInput(f"--policy must be one of {', '.join(POLICIES)}")
    start = time.perf_counter()
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
        raise TimeLimitReached("the time limit came before the first sampled game ended")
    res = ReachableResult("sampled", "estimate", False, rate=wilson(wins, n), policy=policy,
                          nodes=n, cut_by_time=n < samples)
    if n < samples:
        res.note = f"cut by the time limit: {n} of {samples} sampled games played"
    res.seconds = round(time.perf_counter() - start, 3)
    return res


def reachable(game: GameState, samples: int = REACHABLE_SAMPLES, policy: str = "hint",
              seed: int = 0, deadline: Deadline = NO_DEADLINE,
              progress: Callable[[int, int], None] | None = None, open_hands: bool = False,
              draws: int = 16, nodes: int = REACHABLE_NODES,
              conflicts: int = REACHABLE_CONFLICTS) -> ReachableResult:
    """Can the game in `game` still be won? With everything known an exact search
    (`nodes`, `conflicts`); else the sampled win rate of `policy` over `samples` games.
    `deadline` only caps the work."""
    if not game.hands:
        raise BadInput("reachable needs a whole game state (hands, tasks), not a board")
    if game.status != "playing":
        return ReachableResult("exact", game.status, True,
                               note=f"the game in the file is already {game.status}")
    if game.everything_known:
        return exact(game, nodes, conflicts, deadline)
    return sampled(game, samples, policy, seed, deadline, progress, open_hands, draws)
