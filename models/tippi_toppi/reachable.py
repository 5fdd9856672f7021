"""Can the game still be won? Exact with full information (rollouts of the hint, then a
SAT model of the rest of the game; on a long rest of the game a widening beam search and
the depth-first search instead), otherwise the hint policy's win rate over sampled
deals of what is hidden."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from models.tippi_toppi.hint import best_play, fits, place, ranked_plays
from models.tippi_toppi.positions import format_play
from models.tippi_toppi.state import GameState, Play, sample_hidden
from models.tippi_toppi.tasks import Task
from solver.beam import BeamGame, widening_beam
from solver.deadline import Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.progress import live_status
from solver.stats import Rate, wilson

ROLLOUTS = 2000  # at most this many noisy rollouts before the exact SAT search
MAX_PLAYS = 1000  # a rollout longer than this is stopped (a game has about 50 plays)

Chooser = Callable[[GameState, random.Random], Play]


@dataclass
class ReachableResult:
    """method exact: `answer` yes (a winning line, re-played by the engine) / no (the
    SAT model of the rest of the game is unsatisfiable) / unknown (time limit); `nodes`
    = plays tried in rollouts. method sampling: the hint policy's win rate over sampled
    hidden cards, with a Wilson interval."""

    method: Literal["exact", "sampling"]
    answer: Literal["yes", "no", "unknown", "estimate"]
    proven: bool
    line: list[str]
    nodes: int
    rate: Rate | None
    samples: int
    seconds: float
    # sampling: the time limit came before every asked deal was played
    stopped: bool = False


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


def reachable(state: GameState, samples: int = 200, seed: int = 0,
              time_limit: float = 10.0, pool: list[Task] | None = None) -> ReachableResult:
    """Can the game still be won? With everything known: rollouts of the hint policy
    (a won rollout is a proof), then SAT over every line of the remaining plays (on a
    long rest of the game, which SAT does not decide in seconds: the widening beam
    search and the depth-first search instead);
    otherwise the hint policy's win rate over `samples` deals of the hidden cards and
    tasks (`pool`: what a hidden task may be, default the catalogue), or over the deals
    played when `time_limit` comes first (`stopped`)."""
    start = time.monotonic()  # the status line's clock
    deadline = Deadline.after(time_limit)
    r = state.rules
    if state.is_won():
        return ReachableResult("exact", "yes", True, [], 0, None, 0, 0.0)
    if state.fully_known():
        # noisy hint-policy rollouts find most winning lines fast; SAT decides the rest
        # a long rest of the game is rarely decided by SAT in time: a beam search then
        plays_left = sum(len(h) for h in state.hands) + state.draw_count
        share = 0.0 if plays_left <= 12 else min(1.0, time_limit / 4)
        # the steps end at shares of the time limit, counted from the start
        first_only = Deadline.after(0)  # passed: one rollout, the hint's own line
        beam_deadline = Deadline.after(0.7 * time_limit)
        rollouts_deadline = Deadline.after(min(share, 2.0))
        with live_status("", time_limit, solves=True, since=start):  # the SAT call's line
            rng = random.Random(seed)
            if plays_left > 24:
                # a long game: SAT does not decide it in seconds. The hint's own line,
                # then a widening beam search (with it 200 of 200 fresh deals proven
                # within 10 s, against 182 by rollouts and the depth-first search), then
                # the depth-first search (plays in hint order, lost positions kept),
                # which can prove a loss
                line, nodes = _rollouts(state, rng, first_only)
                answer = "yes" if line is not None else None
                if answer is None:
                    found = widening_beam(BEAM, state, beam_deadline, seed)
                    line, nodes = found.line, nodes + found.nodes
                    answer = "yes" if line is not None else "no" if found.exhaustive else None
                if answer is None:
                    line, more, complete = search_winning_line(state, deadline)
                    nodes += more
                    answer = "yes" if line is not None else "no" if complete else None
            else:
                line, nodes = _rollouts(state, rng, rollouts_deadline)
                answer = "yes" if line is not None else None
                if answer is None:
                    answer, line = _sat_game(state, deadline)
        secs = round(time.monotonic() - start, 3)
        if answer == "yes":
            check = state
            for play in line:
                check = check.apply_action(play)
            assert check.is_won(), "winning line not confirmed by the engine"
            return ReachableResult("exact", "yes", True,
                                   [format_play(r, p, state.players) for p in line], nodes,
                                   None, 0, secs)
        return ReachableResult("exact", answer or "unknown", answer == "no", [], nodes,
                               None, 0, secs)
    if samples < 1:
        raise BadInput("--samples must be at least 1")
    rng = random.Random(seed)
    pool = pool if pool is not None else [t.task for t in r.catalogue]
    wins = done = 0
    with live_status("sampling", None, unit="samples", since=start) as status:
        for k in range(samples):
            s = sample_hidden(state, rng, pool)
            wins += play_to_end(s, _best, random.Random(seed + k)).is_won()
            done = k + 1
            status.step(done, samples)
            if done < samples and deadline.passed():
                break  # the estimate over the deals played (the same first deals)
    return ReachableResult("sampling", "estimate", False, [], 0, wilson(wins, done),
                           done, round(time.monotonic() - start, 3), done < samples)


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


def _rollouts(state: GameState, rng: random.Random, deadline: Deadline, first: bool = True
              ) -> tuple[list[Play] | None, int]:
    """Games played out with the hint policy (the first one without noise unless
    `first` is False), then taking one of its first three choices now and then (NOISE
    in turns), until one is won, ROLLOUTS were tried or the deadline passes."""
    nodes = 0
    for k in range(ROLLOUTS):
        if not first and deadline.passed():
            break
        end = play_to_end(state, _best if first else NOISE[k % len(NOISE)], rng)
        first = False
        nodes += len(end.history) - len(state.history)
        if end.is_won():
            return end.history[len(state.history):], nodes
    return None, nodes


def _sat_game(state: GameState, deadline: Deadline
              ) -> tuple[Literal["yes", "no"] | None, list[Play]]:
    """Decide with SAT whether the rest of the game can be won (every card known):
    ("yes", plays) / ("no", []) / (None, []) when the deadline passed."""
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
        return None, []
    # handing the clauses to the solver cannot be interrupted and costs about what
    # building them did: not started when that much time is not left
    left = deadline.left()
    if left is not None and left < time.perf_counter() - built:
        return None, []
    with IncrementalSat(logic.b, name=INTERRUPTIBLE) as sat:
        try:
            model = sat.solve_limited([won], deadline=deadline)
        except TimeLimitReached:
            return None, []
        if model is None:
            return "no", []
    moves = decode_moves(sat_value(model), plan, problem)
    plays, _ = replay_check(state, problem, moves, "known")
    # keep the plays up to the win (the engine stops there)
    check, line = state, []
    for play in plays:
        if check.is_won():
            break
        check = check.apply_action(play)
        line.append(play)
    return "yes", line


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


def search_winning_line(state: GameState, deadline: Deadline
                        ) -> tuple[list[Play] | None, int, bool]:
    """Depth-first search of every line of play for a winning one, plays tried in hint
    order, lost positions remembered: (line or None, positions, complete). The
    reference the exact `reachable` is tested against."""
    failed: set[tuple] = set()
    nodes = 0
    out_of_time = False

    def dfs(s: GameState) -> list[Play] | None:
        nonlocal nodes, out_of_time
        if s.is_won():
            return []
        if out_of_time:
            return None
        key = _memo_key(s)
        if key in failed:
            return None
        nodes += 1
        if nodes % 256 == 0 and deadline.passed():
            out_of_time = True
            return None
        for play, _ in ranked_plays(s):
            line = dfs(s.apply_action(play))
            if line is not None:
                return [play, *line]
        if not out_of_time:
            failed.add(key)
        return None

    line = dfs(state)
    return line, nodes, not out_of_time
