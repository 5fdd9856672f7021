"""Can the game still be won? Exact with full information (rollouts of the hint, then a
SAT model of the rest of the game; on a long rest of the game a widening beam search and
the depth-first search instead), otherwise the hint policy's win rate over sampled
deals of what is hidden.

The work is counted, never timed: sampled deals (`samples`), positions of the searches
(`nodes`: rollout plays, the beam's children, the depth-first search's positions) and
the SAT solver's conflicts (`conflicts`). With the same position, budgets and seed the
answer is the same on an idle and on a busy machine; a deadline (`--time-limit`) only
caps the work, and an answer it cut says so (`cut_by_time`)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from models.tippi_toppi.budgets import REACHABLE_CONFLICTS, REACHABLE_NODES, REACHABLE_SAMPLES
from models.tippi_toppi.hint import best_play, fits, place, ranked_plays
from models.tippi_toppi.positions import format_play
from models.tippi_toppi.state import GameState, Play, sample_hidden
from models.tippi_toppi.tasks import Task
from solver.answers import Capped
from solver.beam import BeamGame, widening_beam
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.progress import live_status
from solver.stats import Rate, wilson

#: the default work (deterministic units): sampled deals, search positions, SAT conflicts
SAMPLES, NODES, CONFLICTS = REACHABLE_SAMPLES, REACHABLE_NODES, REACHABLE_CONFLICTS
#: a long game's beam search may make this share of `nodes` children (the depth-first
#: search the rest); a short game's noisy rollouts `ROLLOUT_SHARE` of them in plays (a
#: rollout play ranks every legal play: about 2,400 per CPU second, so 5,000 plays at
#: the default are about the 2 s the rollouts had when they were timed)
BEAM_SHARE = 0.7
ROLLOUT_SHARE = 0.05
LONG_GAME = 24  # plays left above which SAT does not decide the rest in seconds
MAX_PLAYS = 1000  # a rollout longer than this is stopped (a game has about 50 plays)

Chooser = Callable[[GameState, random.Random], Play]


@dataclass
class ReachableResult(Capped):
    """method exact: `answer` yes (a winning line, re-played by the engine) / no (proven:
    the SAT model of the rest of the game is unsatisfiable, or the search was
    exhaustive) / unknown (neither within the work budget, or cut by the time limit);
    `nodes` = positions made (rollout plays, beam children, search positions),
    `conflicts` = SAT conflicts used. method sampling: the hint policy's win rate over
    `samples` sampled deals of the hidden cards, with a Wilson interval (cut by the
    time limit: over the deals played, the same first deals at any speed)."""

    method: Literal["exact", "sampling"]
    answer: Literal["yes", "no", "unknown", "estimate"]
    proven: bool
    line: list[str]
    nodes: int
    rate: Rate | None
    samples: int
    seconds: float
    conflicts: int = 0


def play_to_end(state: GameState, choose: Chooser, rng: random.Random,
                max_plays: int = MAX_PLAYS) -> GameState:
    """A full-information state played to its end, any player who may play choosing by
    `choose` (High Speed: the table's choice among everybody's plays)."""
    s = state
    for _ in range(max_plays):
        if s.is_terminal():
            break
        s = s.apply_action(choose(s, rng))
    return s


def reachable(state: GameState, samples: int = SAMPLES, seed: int = 0, nodes: int = NODES,
              conflicts: int = CONFLICTS, deadline: Deadline = NO_DEADLINE,
              pool: list[Task] | None = None) -> ReachableResult:
    """Can the game still be won? With everything known: rollouts of the hint policy
    (a won rollout is a proof), then SAT over every line of the remaining plays (on a
    long rest of the game, which SAT does not decide in seconds: the widening beam
    search and the depth-first search instead), within `nodes` positions and
    `conflicts` SAT conflicts; otherwise the hint policy's win rate over `samples`
    deals of the hidden cards and tasks (`pool`: what a hidden task may be, default the
    catalogue). `deadline` only caps the work (`cut_by_time`)."""
    start = time.monotonic()  # the status line's clock
    if state.is_won():
        return ReachableResult("exact", "yes", True, [], 0, None, 0, 0.0)
    if state.fully_known():
        return _exact(state, seed, nodes, conflicts, deadline, start)
    if samples < 1:
        raise BadInput("--samples must be at least 1")
    rng = random.Random(seed)
    pool = pool if pool is not None else [t.task for t in state.rules.catalogue]
    wins = done = 0
    with live_status("sampling", deadline.left(), unit="samples", since=start) as status:
        for k in range(samples):
            s = sample_hidden(state, rng, pool)
            wins += play_to_end(s, _best, random.Random(seed + k)).is_won()
            done = k + 1
            status.step(done, samples)
            if done < samples and deadline.passed():
                break  # the estimate over the deals played (the same first deals)
    return ReachableResult("sampling", "estimate", False, [], 0, wilson(wins, done),
                           done, round(time.monotonic() - start, 3),
                           cut_by_time=done < samples)


@dataclass
class _Search:
    """The exact search's progress: what it found, the work it did, whether the
    deadline cut a step short."""

    answer: Literal["yes", "no"] | None = None
    line: list[Play] | None = None
    nodes: int = 0
    conflicts: int = 0
    cut: bool = False

    def open(self) -> bool:
        return self.answer is None and not self.cut


def _exact(state: GameState, seed: int, nodes: int, conflicts: int, deadline: Deadline,
           start: float) -> ReachableResult:
    """Everything known: the hint's own line, then (a long game) the widening beam and
    the depth-first search, or (a short one) noisy rollouts and SAT, within the work."""
    r = state.rules
    plays_left = sum(len(h) for h in state.hands) + state.draw_count
    found = _Search()
    with live_status("", deadline.left(), solves=True, since=start):  # the SAT call's line
        rng = random.Random(seed)
        # the hint's own line first: a won one is a proof
        line, found.nodes, _ = _rollouts(state, rng, deadline, 0)
        if line is not None:
            found.answer, found.line = "yes", line
        if plays_left > LONG_GAME:
            _long_game(state, seed, nodes, deadline, found)
        else:
            if found.open() and plays_left > 12:
                line, more, found.cut = _rollouts(state, rng, deadline,
                                                  int(ROLLOUT_SHARE * nodes), first=False)
                found.nodes += more
                if line is not None:
                    found.answer, found.line = "yes", line
            if found.open():
                found.answer, line, found.conflicts, found.cut = _sat_game(
                    state, deadline, conflicts)
                found.line = line if found.answer == "yes" else None
    secs = round(time.monotonic() - start, 3)
    if found.answer == "yes":
        assert found.line is not None
        check = state
        for play in found.line:
            check = check.apply_action(play)
        assert check.is_won(), "winning line not confirmed by the engine"
        return ReachableResult("exact", "yes", True,
                               [format_play(r, p, state.players) for p in found.line],
                               found.nodes, None, 0, secs, found.conflicts,
                               cut_by_time=found.cut)
    return ReachableResult("exact", found.answer or "unknown", found.answer == "no", [],
                           found.nodes, None, 0, secs, found.conflicts,
                           cut_by_time=found.cut)


def _long_game(state: GameState, seed: int, nodes: int, deadline: Deadline,
               found: _Search) -> None:
    """A long rest of the game (SAT does not decide it in seconds): a widening beam
    search (with it 200 of 200 fresh deals proven within 10 s, against 182 by rollouts
    and the depth-first search), then the depth-first search (plays in hint order, lost
    positions kept), which can prove a loss; within `nodes` positions in all."""
    if found.open():
        budget = max(1, int(BEAM_SHARE * nodes) - found.nodes)
        beam = widening_beam(BEAM, state, deadline, seed, max_nodes=budget)
        found.nodes += beam.nodes
        if beam.line is not None:
            found.answer, found.line = "yes", beam.line
        elif beam.exhaustive:
            found.answer = "no"
        else:
            found.cut = beam.nodes < budget and deadline.passed()
    if found.open() and found.nodes < nodes:
        line, more, complete = search_winning_line(state, deadline, nodes - found.nodes)
        found.nodes += more
        if line is not None:
            found.answer, found.line = "yes", line
        elif complete:
            found.answer = "no"
        else:
            found.cut = deadline.passed()


def _best(s: GameState, rng: random.Random) -> Play:
    return best_play(s)


def _noisy(chance: float) -> Chooser:
    """The hint's best play, with `chance` one of its first three at random."""
    def choose(s: GameState, rng: random.Random) -> Play:
        ranked = ranked_plays(s)
        if len(ranked) > 1 and rng.random() < chance:
            return ranked[rng.randrange(min(3, len(ranked)))][0]
        return ranked[0][0]
    return choose


# the rollouts' noise, in turns: some wins need the hint's line with a few changes,
# others many (18 hard deals, 20 s of rollouts each: 6 won in turns against 5 at 0.3
# alone, the common ones 2-4x sooner)
NOISE = (_noisy(0.15), _noisy(0.3), _noisy(0.5))


def _rollouts(state: GameState, rng: random.Random, deadline: Deadline, budget: int,
              first: bool = True) -> tuple[list[Play] | None, int, bool]:
    """Games played out with the hint policy (the first one without noise unless
    `first` is False), then taking one of its first three choices now and then (NOISE
    in turns), until one is won or `budget` plays were made: (the winning line or None,
    plays made, cut short by the deadline). The first game is always played."""
    nodes = 0
    k = 0
    while first or nodes < budget:
        if not first and deadline.passed():
            return None, nodes, True
        end = play_to_end(state, _best if first else NOISE[k % len(NOISE)], rng)
        first = False
        k += 1
        nodes += len(end.history) - len(state.history)
        if end.is_won():
            return end.history[len(state.history):], nodes, False
    return None, nodes, False


def _sat_game(state: GameState, deadline: Deadline, conflicts: int
              ) -> tuple[Literal["yes", "no"] | None, list[Play], int, bool]:
    """Decide with SAT whether the rest of the game can be won (every card known),
    within `conflicts` conflicts: (answer "yes" / "no" / None undecided, the winning
    line, conflicts used, cut short by the deadline)."""
    from models.tippi_toppi.encode import plan_problem, replay_check
    from models.tippi_toppi.encode_logic import decode_moves, encode_game, sat_value
    from solver.backends.sat import INTERRUPTIBLE, CnfBuilder, IncrementalSat
    from solver.logic import CnfLogic

    steps = sum(len(h) for h in state.hands) + state.draw_count
    problem = plan_problem(state, [], steps, "known")
    logic = CnfLogic(CnfBuilder().stop_at(deadline))
    built = time.perf_counter()
    try:
        plan, won = encode_game(logic, problem, state.rules, state.open_tasks,
                                state.task_pile)
    except TimeLimitReached:
        return None, [], 0, True
    # handing the clauses to the solver cannot be interrupted and costs about what
    # building them did: not started when that much time is not left
    left = deadline.left()
    if left is not None and left < time.perf_counter() - built:
        return None, [], 0, True
    with IncrementalSat(logic.b, name=INTERRUPTIBLE) as sat:
        try:
            model = sat.solve_limited([won], deadline, conflicts)
        except TimeLimitReached:
            model = None
            undecided = True
        else:
            undecided = False
        used = int(sat.solver.accum_stats().get("conflicts", 0))
    if undecided:
        return None, [], used, deadline.passed()
    if model is None:
        return "no", [], used, False
    moves = decode_moves(sat_value(model), plan, problem)
    plays, _ = replay_check(state, problem, moves, "known")
    # keep the plays up to the win (the engine stops there)
    check, line = state, []
    for play in plays:
        if check.is_won():
            break
        check = check.apply_action(play)
        line.append(play)
    return "yes", line, used, False


def _promise(s: GameState) -> float:
    """How promising a full-information position is for the beam search: tasks
    fulfilled first, then open tasks some card in some hand can fulfil with one play,
    then the hand cards that fit a pile."""
    r, tops = s.rules, s.tops
    plays = {(p.card, p.pile) for h in range(s.players) for p in s.plays_of(h)}
    reach = sum(1 for t in s.open_tasks
                if any(t.holds(place(tops, c, p), r) for c, p in plays))
    fitting = sum(1 for h in s.hands for c in h if fits(c, tops))  # type: ignore[arg-type]
    return 1000 * len(s.fulfilled) + 40 * reach + 3 * fitting


def _memo_key(s: GameState) -> tuple:
    """What decides the rest of a full-information game (players alike are merged)."""
    hands = tuple(tuple(sorted(h)) for h in s.hands)  # type: ignore[type-var]
    if s.variant.high_speed or s.players == 1:
        hands = tuple(sorted(hands))
    return (s.tops, hands, len(s.draw_pile or ()), len(s.task_pile),
            frozenset(s.open_tasks), 0 if s.variant.high_speed else s.turn)


# the game as the beam search sees it: any player who may play plays (High Speed: the
# table's choice), a position nobody can play on is dead
BEAM: BeamGame[GameState, Play] = BeamGame(
    actions=GameState.legal_plays, apply=GameState.apply_action, won=GameState.is_won,
    dead=GameState.is_lost, key=_memo_key, score=_promise)


def search_winning_line(state: GameState, deadline: Deadline = NO_DEADLINE,
                        max_nodes: int | None = None
                        ) -> tuple[list[Play] | None, int, bool]:
    """Depth-first search of every line of play for a winning one, plays tried in hint
    order, lost positions remembered, within `max_nodes` positions (None: no budget)
    and the deadline: (line or None, positions, complete). The reference the exact
    `reachable` is tested against."""
    failed: set[tuple] = set()
    nodes = 0
    stopped = False

    def dfs(s: GameState) -> list[Play] | None:
        nonlocal nodes, stopped
        if s.is_won():
            return []
        if stopped:
            return None
        key = _memo_key(s)
        if key in failed:
            return None
        if max_nodes is not None and nodes >= max_nodes:
            stopped = True
            return None
        nodes += 1
        if nodes % 256 == 0 and deadline.passed():
            stopped = True
            return None
        for play, _ in ranked_plays(s):
            line = dfs(s.apply_action(play))
            if line is not None:
                return [play, *line]
        if not stopped:
            failed.add(key)
        return None

    line = dfs(state)
    return line, nodes, not stopped
