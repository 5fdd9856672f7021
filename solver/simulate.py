"""Simulated games for every game, from its `Game` description.

A run is a grid of *cells* (a setup, such as 3 players at difficulty 2, times an
assignment of policies to seats) and `games` seeded games per cell. Game g of every cell
is dealt and played from `task_seed(seed, g)`, so all cells meet the same deals (their
differences are the policies', not the cards'), and every game is one task of the batch
layer: the same record in-process, on a pool or on a Dask cluster.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from solver import cut_decisions
from solver.errors import BadInput
from solver.executor import Batch, SeededTask, run_stored
from solver.game import SEED_STRIDE, Game, Policy, play_out, seat_policies, task_seed
from solver.stats import Rate, Summary, summarise, wilson
from solver.store import Store, data_digest

GAMES_KIND = "games"  # the store table of simulated games (every game)


@dataclass
class GameRecord:
    """One simulated game, from its own seed alone: the policy of each seat, the
    returns (score, or 1 for a win), the player actions made, whether it ended (False:
    stopped after the game's action cap) and the game's own measures."""

    cell: int
    game: int
    seed: int
    seats: list[str]
    returns: list[float]
    finished: bool
    actions: int
    measures: dict[str, Any] = field(default_factory=dict)


@dataclass
class Cell:
    """The games of one setup and one policy assignment."""

    setup: dict[str, Any]
    seats: list[str]  # one policy per seat (game 0's seating when rotated)
    rotate: bool
    games: int  # games summarised (fewer than asked when interrupted)
    unfinished: int
    win_rate: Rate | None = None  # cooperative: the table won together
    win_rate_by_seat: list[Rate] | None = None  # competitive
    win_rate_by_policy: dict[str, Rate] | None = None  # competitive, policies mixed
    score: list[Summary] | None = None  # score games: per seat
    actions: Summary | None = None  # player actions per game
    measures: dict[str, Any] = field(default_factory=dict)


@dataclass
class SimulationResult:
    """`games` games asked per cell; `played` finished over all cells."""

    game: str
    rules: str
    games: int
    seed: int
    options: dict[str, Any]
    asked: int  # games asked over all cells
    knows: dict[str, str]  # policy -> "own" (its observation) or "everything"
    cells: list[Cell]
    played: int
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    executor: str = "in-process"
    interrupted: bool = False  # Ctrl-C: only the games that finished are summarised

    def exit_with(self, store_path: str | None) -> tuple[int, str] | None:
        """After an interrupted run: exit 130, saying what was kept (None: it was
        complete)."""
        from solver.executor import interruption

        return ((130, interruption(self.played, self.asked, store_path, "games"))
                if self.interrupted else None)


def seats_for(policies: Sequence[str], game: int, rotate: bool) -> list[str]:
    """The policy of each seat in game `game` (moved on by one seat per game when
    rotated, so every policy plays every seat equally often)."""
    n = len(policies)
    return [policies[(i + game) % n] for i in range(n)] if rotate else list(policies)


def _policies(game: Game, rules: Any, names: Sequence[str], options: dict[str, Any],
              open_hands: bool) -> list[Policy]:
    out = []
    for name in names:
        p = game.policy(rules, name, options)
        out.append(replace(p, open_hands=True) if open_hands else p)
    return out


def play_one(game: Game, rules: Any, setup: dict[str, Any], seats: Sequence[str],
             options: dict[str, Any], open_hands: bool, cell: int, index: int, seed: int
             ) -> GameRecord:
    """Game `index` of a cell, from its own seed alone (a batch task: top level, so a
    process pool or Dask can send it)."""
    deal, play = game.streams(seed)
    cut_decisions.reset()
    state = game.new_game(rules, setup, deal)
    policies = _policies(game, rules, seats, options, open_hands)
    end, actions, finished = play_out(game, state, policies, play)
    measures = game.measure(rules, setup, end, options) if finished else {}
    if finished and cut_decisions.total():  # the cap cut decisions: not the seed's game
        measures["cut_decisions"] = cut_decisions.total()
    return GameRecord(cell, index, seed, list(seats), game.returns(end) if finished else
                      [0.0] * len(seats), finished, actions, measures)


def summarise_cell(game: Game, setup: dict[str, Any], seats: list[str], rotate: bool,
                   records: Sequence[GameRecord]) -> Cell:
    """The figures of one cell's games (in game order)."""
    n = len(records)
    done = [r for r in records if r.finished]
    cell = Cell(setup, seats, rotate, n, n - len(done))
    if done:
        cell.actions = summarise([r.actions for r in done])
    if game.kind == "score":
        if done:
            cell.score = [summarise([r.returns[s] for r in done]) for s in range(len(seats))]
    elif game.kind == "cooperative":
        cell.win_rate = wilson(sum(1 for r in done if r.returns[0] > 0), n)
    else:
        cell.win_rate_by_seat = [wilson(sum(1 for r in done if r.returns[s] > 0), n)
                                 for s in range(len(seats))]
        if len(set(seats)) > 1:
            wins: dict[str, list[int]] = {}
            for r in records:
                for s, p in enumerate(r.seats):
                    w, t = wins.get(p, [0, 0])
                    wins[p] = [w + (r.finished and r.returns[s] > 0), t + 1]
            cell.win_rate_by_policy = {p: wilson(w, t) for p, (w, t) in wins.items()}
    cell.measures = game.summarise([r.measures for r in done]) if done else {}
    cut = sum(r.measures.get("cut_decisions", 0) for r in done)
    if cut:
        cell.measures["cut_decisions"] = cut
    return cell


def simulate(game: Game, rules: Any, games: int, setups: Sequence[dict[str, Any]],
             policies: Sequence[Sequence[str]], seed: int = 0, rotate: bool = False,
             options: dict[str, Any] | None = None, open_hands: bool = False,
             batch: Batch | None = None, store: Store | None = None, resume: bool = False
             ) -> SimulationResult:
    """Play `games` games for every (setup, policy assignment) cell; game g of every
    cell from `task_seed(seed, g)`. Each of `policies` is one name for every seat or
    one name per seat. Every game is a task of `batch` (default: in this
    process, no progress bar); with `store` each finished game is saved at once and
    `resume` reuses the stored games of the same run."""
    options = dict(options or {})
    if not 1 <= games <= SEED_STRIDE:  # more would reuse the next --seed's games
        raise BadInput(f"--games: {games}; give 1 to {SEED_STRIDE}")
    if not setups or not policies:
        raise BadInput("nothing to simulate: no setup or no policy")
    cells = []
    knows: dict[str, str] = {}
    for setup in setups:  # bad names or setups fail here, not in a worker
        players = game.players(game.new_game(rules, setup, game.streams(seed)[0]))
        for names in policies:
            seats = seat_policies(names, players)
            for p in _policies(game, rules, seats, options, open_hands):
                knows[p.name] = "everything" if p.open_hands else "own"
            cells.append((setup, seats))
    batch = batch or Batch(1, progress=False)
    start = time.perf_counter()
    digest = data_digest(rules)
    tasks = []
    for c, (setup, seats) in enumerate(cells):
        parameters = {"game": game.id, "rules_digest": digest, "setup": setup,
                      "seats": seats, "rotate": rotate, "options": options,
                      "open_hands": open_hands}
        data = {n: d for n in sorted(set(seats))
                if (d := game.policy_data(rules, n, setup, options)) is not None}
        if data:  # games played from other data are another run
            parameters["policy_data"] = data
        for g in range(games):
            s = task_seed(seed, g)
            tasks.append(SeededTask(parameters, s, (
                game, rules, setup, seats_for(seats, g, rotate), options, open_hands,
                c, g, s)))
    batch.description = f"{games} games x {len(cells)} cell{'s' * (len(cells) > 1)}"
    done = run_stored(batch, play_one, tasks, GAMES_KIND, store, resume,
                      lambda r: (asdict(r), {"returns": r.returns}),
                      lambda data, i: GameRecord(**data), noun="game")
    records = [done[i] for i in sorted(done)]
    summaries = []
    for c, (setup, seats) in enumerate(cells):
        mine = [r for r in records if r.cell == c]
        if mine:
            summaries.append(summarise_cell(game, setup, seats, rotate, mine))
    return SimulationResult(game.id, getattr(rules, "name", ""), games, seed, options,
                            games * len(cells), knows, summaries, len(records), records,
                            round(time.perf_counter() - start, 3), batch.where,
                            batch.interrupted)
