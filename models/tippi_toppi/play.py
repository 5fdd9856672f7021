"""Hints, the hint policy, simulated games and "can we still win".

The hint only uses what the player may know: the piles (all cards in them, the rulebook
lets players look through them), the open tasks, the own hand — and the other hands when
playing with open hands (Kids variant). Each legal play is scored by
- tasks fulfilled now (open tasks that hold after the play)            x 100
- tasks kept within reach: open tasks the own remaining cards can fulfil
  with one more play                                                    x 10
- piles kept playable: the share of the cards the others may hold that
  fit some pile afterwards (so the next player is not stuck)            x 30
- the own remaining cards that still fit some pile                      x 5
- tasks the others can help with: the share of the cards they may hold
  that would fulfil a remaining open task with their next play          x 150
- the next player stuck for sure (open hands, known cards)              -1000

The weights were compared on 300 seeded 2-player games (docs/tippi-toppi.md): the
"others can help" term lifted the hint policy's win rate from 24 % to about 52 %.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass

from models.tippi_toppi.rules import (
    Card,
    GameState,
    Play,
    Rules,
    Variant,
    format_play,
    new_game,
    sample_hidden,
)
from models.tippi_toppi.tasks import Task, Tops
from solver.errors import BadInput
from solver.executor import Batch, SeededTask, run_stored
from solver.stats import Rate, wilson
from solver.store import Store, data_digest

W_NOW, W_REACH, W_PLAYABLE, W_OWN, W_STUCK = 100, 10, 30, 5, 1000
W_TEAM = 150
ROLLOUTS = 2000  # at most this many noisy rollouts before the exact SAT search


@dataclass
class HintOption:
    """One play and why it scores what it scores."""

    play: str
    score: float
    fulfils: list[str]
    in_reach: list[str]
    others_help_share: float
    playable_share: float
    own_playable: int
    next_stuck: bool


@dataclass
class HintResult:
    player: int
    options: list[HintOption]
    seconds: float


def _fits(card: Card, tops: Tops) -> bool:
    return any(card[0] == t[0] or card[1] == t[1] for t in tops)


def _place(tops: Tops, card: Card, pile: int) -> Tops:
    return tops[:pile] + (card,) + tops[pile + 1:]


def _view_unseen(state: GameState, player: int) -> list[Card]:
    """Cards the player cannot see: the deck minus piles, own hand and (open hands)
    the other hands."""
    left = Counter(state.rules.deck)
    left.subtract(c for p in state.piles for c in p)
    for q, hand in enumerate(state.hands):
        if q == player or state.variant.open_hands:
            left.subtract(c for c in hand if c is not None)
    return [c for c, n in left.items() if n > 0 for _ in range(n)]


def score_play(state: GameState, play: Play, unseen: list[Card] | None = None
               ) -> HintOption:
    """The hint's score of one legal play, with its reasons."""
    r = state.rules
    tops = _place(state.tops, play.card, play.pile)
    open_tasks = state.open_tasks
    now = [t for t in open_tasks if t.holds(tops, r)]
    rest = [t for t in open_tasks if t not in now]
    hand = list(state.hands[play.player])
    hand.remove(play.card)
    known = [c for c in hand if c is not None]
    reach = []
    for t in rest:
        if any(t.holds(_place(tops, c, p), r) for c in set(known)
               for p, top in enumerate(tops) if c[0] == top[0] or c[1] == top[1]):
            reach.append(t)
    if unseen is None:
        unseen = _view_unseen(state, play.player)
    share = sum(1 for c in unseen if _fits(c, tops)) / len(unseen) if unseen else 1.0
    team = 0.0
    if rest and unseen:
        # how many of the cards others may hold could fulfil a remaining task next
        kinds = Counter(unseen)
        for c, k in kinds.items():
            if any(t.holds(_place(tops, c, p), r) for p, top in enumerate(tops)
                   if c[0] == top[0] or c[1] == top[1] for t in rest):
                team += k
        team /= len(unseen)
    own = sum(1 for c in known if _fits(c, tops))
    stuck = False
    if state.players > 1 and not state.variant.high_speed:
        nxt = (play.player + 1) % state.players
        other = [c for c in state.hands[nxt] if c is not None]
        if (state.variant.open_hands and len(other) == len(state.hands[nxt])
                and not any(_fits(c, tops) for c in other)):
            stuck = True
    elif state.draw_count == 0 and hand and not own:
        stuck = True  # alone (or High Speed), nothing left to draw and no own card fits
    won_now = len(now) == len(open_tasks) and not state.task_pile and not state.hidden_tasks
    score = (W_NOW * len(now) + W_REACH * len(reach) + W_PLAYABLE * share + W_OWN * own
             + W_TEAM * team
             - (0 if won_now else W_STUCK * stuck) + (10 * W_STUCK if won_now else 0))
    return HintOption(format_play(r, play, state.players), round(score, 3),
                      [t.text(r) for t in now], [t.text(r) for t in reach], round(team, 3),
                      round(share, 3),
                      own, stuck)


def ranked_plays(state: GameState) -> list[tuple[Play, HintOption]]:
    """Every legal play, best first (ties: the order of legal_actions)."""
    unseen_by: dict[int, list[Card]] = {}
    out = []
    for play in state.legal_actions():
        if play.player not in unseen_by:
            unseen_by[play.player] = _view_unseen(state, play.player)
        out.append((play, score_play(state, play, unseen_by[play.player])))
    out.sort(key=lambda x: -x[1].score)
    return out


def hint(state: GameState) -> HintResult:
    """Which card on which pile: every legal play ranked, with its reasons."""
    start = time.perf_counter()
    if state.is_won():
        raise BadInput("the game is already won: no play needed")
    if all(c is None for p in state.movers() for c in state.hands[p]):
        raise BadInput(f"the hand of player {state.turn + 1} is hidden ('?'): "
                       "a hint needs the cards of the player on turn")
    options = [o for _, o in ranked_plays(state)]
    return HintResult(state.turn + 1, options, round(time.perf_counter() - start, 4))


Policy = Callable[[GameState, random.Random], Play]


def hint_policy(state: GameState, rng: random.Random) -> Play:
    return ranked_plays(state)[0][0]


def random_policy(state: GameState, rng: random.Random) -> Play:
    return rng.choice(state.legal_actions())


POLICIES: dict[str, Policy] = {"hint": hint_policy, "random": random_policy}


def play_out(state: GameState, policy: Policy, rng: random.Random, max_plays: int = 1000
             ) -> GameState:
    """Play a full-information state to its end with a policy."""
    s = state.copy()
    for _ in range(max_plays):
        if s.is_terminal():
            break
        s.apply_action(policy(s, rng))
    return s


# --------------------------------------------------------------------------- simulate

GAMES_KIND = "tippi_toppi_games"


@dataclass
class GameRecord:
    """One simulated game, from its own seed alone (the same record whichever process
    or machine played it): won, plays made and tasks fulfilled of `tasks`."""

    policy: str
    players: int
    difficulty: str
    game: int
    seed: int
    tasks: int
    won: bool
    plays: int
    fulfilled: int


@dataclass
class SimulationCell:
    """Win rate of one policy at one player count and difficulty (over the games of
    that cell that finished: all of them unless the run was interrupted)."""

    policy: str
    players: int
    difficulty: str
    tasks: int
    games: int
    rate: Rate
    mean_plays: float
    mean_fulfilled: float


@dataclass
class SimulationResult:
    """`games` per cell requested; `played` games finished over all cells (fewer when
    `interrupted`); cells without a finished game are left out."""

    games: int
    seed: int
    variant: dict
    cells: list[SimulationCell]
    played: int
    seconds: float
    executor: str = "in-process"
    interrupted: bool = False  # Ctrl-C: only the games that finished are summarised


def game_task(rules: Rules, policy: str, players: int, difficulty: int, variant: Variant,
              game: int, game_seed: int) -> GameRecord:
    """Game number `game` of a cell as a batch task (top level, so process pools and
    Dask can pickle it): dealt by `new_game(..., game_seed)`, played to the end by the
    policy with `random.Random(game_seed)` (the seeding of every earlier version)."""
    s = new_game(rules, players, difficulty, game_seed, variant)
    end = play_out(s, POLICIES[policy], random.Random(game_seed))
    return GameRecord(policy, players, rules.difficulties[difficulty], game, game_seed,
                      rules.task_count(players, difficulty), end.is_won(),
                      len(end.history), len(end.fulfilled))


def simulate(rules: Rules, games: int, players: list[int], difficulties: list[int],
             policies: list[str], seed: int = 0, variant: Variant | None = None,
             batch: Batch | None = None, store: Store | None = None,
             resume: bool = False) -> SimulationResult:
    """Seeded games for every (policy, players, difficulty), each game a task of `batch`
    (default: in this process, no progress bar): game g of every cell uses seed + g, so
    policies are compared on the same deals. With a store every finished game is saved
    at once (kind `tippi_toppi_games`); `resume` reuses the stored games."""
    if games < 1:
        raise BadInput("--games must be at least 1")
    for pol in policies:
        if pol not in POLICIES:
            raise BadInput(f"--policy {pol}: expected one of {', '.join(POLICIES)}")
    catalogue = len(rules.catalogue)
    for p in players:
        for d in difficulties:
            if not 0 <= d < len(rules.difficulties):
                raise BadInput(f"--difficulty: no level {d + 1} in the rules")
            if rules.task_count(p, d) > catalogue:  # fail now, not in a worker
                raise BadInput(f"the catalogue has only {catalogue} tasks, {p} players at "
                               f"{rules.difficulties[d]} need {rules.task_count(p, d)}")
    batch = batch or Batch(1, progress=False)
    variant = variant or Variant()
    start = time.perf_counter()
    digest = data_digest(rules)
    cells = [(pol, p, d) for pol in policies for p in players for d in difficulties]
    tasks = []
    for pol, p, d in cells:
        parameters = {"rules": rules.name, "rules_digest": digest, "policy": pol,
                      "players": p, "difficulty": rules.difficulties[d],
                      "high_speed": variant.high_speed, "open_hands": variant.open_hands}
        tasks += [SeededTask(parameters, seed + g, (rules, pol, p, d, variant, g, seed + g))
                  for g in range(games)]
    batch.description = f"{games} games x {len(cells)} cells"
    records = run_stored(batch, game_task, tasks, GAMES_KIND, store, resume,
                         lambda r: (asdict(r), {"won": r.won, "fulfilled": r.fulfilled}),
                         lambda data, i: GameRecord(**data), noun="game")
    out = []
    for c, (pol, p, d) in enumerate(cells):
        done = [records[i] for i in range(c * games, (c + 1) * games) if i in records]
        if not done:
            continue
        wins = sum(r.won for r in done)
        out.append(SimulationCell(
            pol, p, rules.difficulties[d], rules.task_count(p, d), len(done),
            wilson(wins, len(done)), round(sum(r.plays for r in done) / len(done), 2),
            round(sum(r.fulfilled for r in done) / len(done), 2)))
    return SimulationResult(games, seed, {"high_speed": variant.high_speed,
                                          "open_hands": variant.open_hands},
                            out, len(records), round(time.perf_counter() - start, 2),
                            batch.where, batch.interrupted)


# --------------------------------------------------------------------------- reachable

@dataclass
class ReachableResult:
    """method exact: `answer` yes (a winning line, re-played by the engine) / no (the
    SAT model of the rest of the game is unsatisfiable) / unknown (time limit); `nodes`
    = plays tried in rollouts. method sampling: the hint policy's win rate over sampled
    hidden cards, with a Wilson interval."""

    method: str
    answer: str
    proven: bool
    line: list[str]
    nodes: int
    rate: Rate | None
    samples: int
    seconds: float


def _key(s: GameState) -> tuple:
    hands = tuple(tuple(sorted(h)) for h in s.hands)  # type: ignore[type-var]
    if s.variant.high_speed or s.players == 1:
        hands = tuple(sorted(hands))
    return (s.tops, hands, len(s.draw_pile or ()), len(s.task_pile),
            frozenset(s.open_tasks), 0 if s.variant.high_speed else s.turn)


def reachable(state: GameState, samples: int = 200, seed: int = 0,
              time_limit: float = 10.0, pool: list[Task] | None = None) -> ReachableResult:
    """Can the game still be won? Exact (depth-first search over every line of play,
    failed positions remembered) when everything is known; otherwise the hint policy's
    win rate over `samples` deals of the hidden cards and tasks."""
    start = time.perf_counter()
    r = state.rules
    if state.is_won():
        return ReachableResult("exact", "yes", True, [], 0, None, 0, 0.0)
    if state.fully_known():
        # noisy hint-policy rollouts find most winning lines fast; SAT decides the rest
        # a long rest of the game is rarely decided by SAT in time: more rollouts then
        plays_left = sum(len(h) for h in state.hands) + state.draw_count
        share = (0.0 if plays_left <= 12 else min(1.0, time_limit / 4) if plays_left <= 24
                 else time_limit / 2)
        line, nodes = _rollouts(state, random.Random(seed), start + share)
        answer = "yes" if line is not None else None
        if line is None:
            answer, line = _sat_game(state, start + time_limit)
        secs = round(time.perf_counter() - start, 3)
        if answer == "yes":
            check = state.copy()
            for play in line:
                check.apply_action(play)
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
    wins = 0
    for k in range(samples):
        s = sample_hidden(state, rng, pool)
        wins += play_out(s, hint_policy, random.Random(seed + k)).is_won()
    return ReachableResult("sampling", "estimate", False, [], 0, wilson(wins, samples),
                           samples, round(time.perf_counter() - start, 3))


def _noisy(s: GameState, rng: random.Random) -> Play:
    ranked = ranked_plays(s)
    if len(ranked) > 1 and rng.random() < 0.3:
        return ranked[rng.randrange(min(3, len(ranked)))][0]
    return ranked[0][0]


def _rollouts(state: GameState, rng: random.Random, deadline: float
              ) -> tuple[list[Play] | None, int]:
    """Games played out with the hint policy, sometimes taking its second or third
    choice, until one is won, ROLLOUTS were tried or the deadline passes."""
    nodes = 0
    first = True
    for _ in range(ROLLOUTS):
        if not first and time.perf_counter() > deadline:
            break
        end = play_out(state, hint_policy if first else _noisy, rng)
        first = False
        nodes += len(end.history) - len(state.history)
        if end.is_won():
            return end.history[len(state.history):], nodes
    return None, nodes


def _sat_game(state: GameState, deadline: float) -> tuple[str | None, list[Play]]:
    """Decide with SAT whether the rest of the game can be won (every card known):
    ("yes", plays) / ("no", []) / (None, []) when the deadline passed."""

    from models.tippi_toppi.encode import plan_problem, replay_check
    from models.tippi_toppi.model import decode_moves, encode_game, sat_value
    from solver.backends.sat import INTERRUPTIBLE, CnfBuilder, IncrementalSat, Undecided
    from solver.logic import CnfLogic

    steps = sum(len(h) for h in state.hands) + state.draw_count
    problem = plan_problem(state, [], steps, "known")
    logic = CnfLogic(CnfBuilder())
    pv, won = encode_game(logic, problem, state.rules, state.open_tasks, state.task_pile)
    if time.perf_counter() > deadline:
        return None, []
    with IncrementalSat(logic.b, name=INTERRUPTIBLE) as sat:
        try:
            model = sat.solve_limited([won], deadline=deadline)
        except Undecided:
            return None, []
        if model is None:
            return "no", []
    moves = decode_moves(sat_value(model), pv, problem)
    plays, _ = replay_check(state, problem, moves, "known")
    # keep the plays up to the win (the engine stops there)
    check, line = state.copy(), []
    for play in plays:
        if check.is_won():
            break
        check.apply_action(play)
        line.append(play)
    return "yes", line


def _search(state: GameState, deadline: float) -> tuple[list[Play] | None, int, bool]:
    """Depth-first search for a winning line, plays tried in hint order."""
    failed: set[tuple] = set()
    nodes = 0
    out_of_time = False

    def dfs(s: GameState) -> list[Play] | None:
        nonlocal nodes, out_of_time
        if s.is_won():
            return []
        if out_of_time:
            return None
        key = _key(s)
        if key in failed:
            return None
        nodes += 1
        if nodes % 256 == 0 and time.perf_counter() > deadline:
            out_of_time = True
            return None
        for play, _ in ranked_plays(s):
            child = s.after(play)
            line = dfs(child)
            if line is not None:
                return [play, *line]
        if not out_of_time:
            failed.add(key)
        return None

    line = dfs(state)
    return line, nodes, not out_of_time
