"""Can these tasks be fulfilled within K placements? Yes with a witness (re-checked by
the rules engine), or no with proof (the model is infeasible), and then the smallest set
of tasks that block each other (a subset-minimal unsatisfiable core of task switches)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from models.hoch_hinaus.board import Action, PlacementJson, action_json
from models.hoch_hinaus.budgets import ACHIEVABLE_CONFLICTS, ACHIEVABLE_WORK
from models.hoch_hinaus.state import GameState
from solver.answers import Capped
from solver.backends.common import SolverOptions
from solver.deadline import Deadline
from solver.errors import BadInput, TimeLimitReached

if TYPE_CHECKING:
    from models.hoch_hinaus.encode import StepModel
    from models.hoch_hinaus.tasks import Task

# The back-ends are imported where they are used: the command line stays quick to load.

TILE_MODES = ("hand", "known", "any")
BACKENDS = ("sat", "cpsat")


def allowed_tiles(game: GameState, k: int, mode: str) -> list[list[str]]:
    """The tiles each of the next k placements may use.

    hand: the hand of the player on turn at that step (tiles drawn meanwhile not used);
    known: the same plus the tiles that player draws from the reserve in its known order;
    any: every tile not on the board (hands and reserve, whoever holds them)."""
    used = set(game.board.tiles_used())
    if mode == "any" or not game.hands:
        free = [t.id for t in game.rules.tiles if t.id not in used]
        return [free] * k
    if mode == "known" and not game.reserve_known:
        raise BadInput("--tiles known needs the reserve in its order ('reserve' in the file)")
    players = len(game.hands)
    hands = [list(h) for h in game.hands]
    out = []
    for step in range(k):
        p = (game.on_turn + step) % players
        if None in hands[p]:  # a hidden tile ('?') is not a tile the model can place
            raise BadInput(f"--tiles {mode}: the hand of player {p + 1} has hidden tiles "
                           "('?'); give them, or ask with --tiles any")
        out.append(list(hands[p]))
        if mode == "known" and step < len(game.reserve):
            hands[p].append(game.reserve[step])
    return out


def max_height(game: GameState, k: int, fillers: bool) -> int:
    top = max(game.board.height(s) for s in range(game.rules.n_spaces))
    return top + k * (2 if fillers else 1)


@dataclass
class WitnessStep:
    placement: PlacementJson
    fulfils: list[str]


@dataclass
class AchievableResult(Capped):
    """answer yes (witness) | no (proven infeasible; core names the blocking tasks,
    subset-minimal unless `core_minimal` is false: a deletion check left undecided by
    the budget, or by the time limit, `cut_by_time`, kept its task)."""

    answer: Literal["yes", "no"]
    proven: bool
    within: int
    tiles: str
    backend: str
    tasks: list[str]
    witness: list[WitnessStep] = field(default_factory=list)
    core: list[str] | None = None
    note: str = ""
    seconds: float = 0.0
    core_minimal: bool = True


def check_witness(game: GameState, tasks: Sequence[Task], acts: Sequence[Action]
                  ) -> list[list[int]]:
    """Replay placements with the rules engine; returns per step the indices of the tasks
    that hold then. Raises RuntimeError if a placement is illegal (an encoding bug)."""
    from models.hoch_hinaus.tasks import holds

    board = game.board.copy()
    out = []
    for a in acts:
        if a.filler is not None:
            board.place_filler(a.filler)
        tile = game.rules.tile_by_id[a.tile]
        why = board.why_not(a.first, a.second, tile.faces, game.pros)
        if why is not None:
            raise RuntimeError(f"witness placement refused by the rules engine: {why}")
        board.place_tile(tile, a.first, a.second)
        vis = board.visible()
        out.append([i for i, t in enumerate(tasks) if holds(game.rules, t, vis)])
    return out


def build(game: GameState, tasks: Sequence[Task], k: int, mode: str, logic: object
          ) -> tuple[StepModel, list, list]:
    from models.hoch_hinaus.encode import StepModel

    fillers = game.fillers_left > 0
    allowed = allowed_tiles(game, k, mode)
    model = StepModel(game.rules, logic, k, allowed, game.pros,
                      max_height(game, k, fillers), fillers)
    free = sorted({t for step in allowed for t in step})
    fixed = model.init_lits(game.board, free) + [model.fillers_at_most(
        min(game.fillers_left, k))]
    switches = []
    for task in tasks:
        sw = logic.var()
        logic.clause([logic.neg(sw), model.fulfilled_within(task)])
        switches.append(sw)
    return model, fixed, switches


def achievable(game: GameState, tasks: Sequence[Task], k: int, mode: str = "hand",
               backend: str = "sat", options: SolverOptions | None = None,
               conflicts: int = ACHIEVABLE_CONFLICTS, work: float = ACHIEVABLE_WORK
               ) -> AchievableResult:
    """Can every task in `tasks` be fulfilled (each after some placement) within k?
    The work is counted: PySAT within `conflicts` conflicts in all, CP-SAT (one
    worker) within `work` deterministic seconds in all; `options`' time limit only
    caps it. TimeLimitReached when neither answer was found."""
    from models.hoch_hinaus.encode import CnfLogic, CpLogic

    if k < 1:
        raise BadInput("--within must be at least 1")
    if mode not in TILE_MODES:
        raise BadInput(f"--tiles must be one of {', '.join(TILE_MODES)}")
    if not tasks:
        raise BadInput("no task to check: the file has no open tasks and no --task given")
    options = options or SolverOptions(time_limit=60)
    start = time.perf_counter()
    texts = [t.text(game.rules) for t in tasks]
    result = AchievableResult("no", True, k, mode, backend, texts)
    if backend == "sat":
        logic = CnfLogic()
        logic.b.stop_at(options.solve_deadline())  # building counts: the limit covers it
        model, fixed, switches = build(game, tasks, k, mode, logic)
        acts = _by_sat(logic, model, fixed, switches, texts, result, conflicts,
                       options.solve_deadline())
    elif backend == "cpsat":
        logic = CpLogic()
        model, fixed, switches = build(game, tasks, k, mode, logic)
        acts = _by_cpsat(logic, model, fixed, switches, texts, result,
                         replace(options, workers=1, deterministic_time=work))
    else:
        raise BadInput(f"--backend must be one of {', '.join(BACKENDS)}")
    if result.core is None:
        _witness(game, tasks, acts, texts, result)
    elif not result.core:
        result.note = (f"no {k} placements are possible at all with these tiles (too few "
                       "tiles, or no legal placement)")
    elif not result.core_minimal:
        result.note = ("the core blocks the tasks (proven) but is not proven minimal: "
                       + ("the time limit" if result.cut_by_time else "the work budget")
                       + " left a check undecided")
    result.seconds = round(time.perf_counter() - start, 3)
    return result


def _by_sat(logic: Any, model: StepModel, fixed: list, switches: list, texts: list[str],
            result: AchievableResult, conflicts: int, deadline: Deadline
            ) -> list[Action] | None:
    """PySAT: the witness's placements, or None with the core in `result`."""
    from solver.backends.sat import model_or_core_within

    for lit in fixed:
        logic.clause([lit])
    got = model_or_core_within(logic.b, switches, conflicts, deadline)
    if got.model is not None:
        sol = got.model
        return model.decode(lambda x: (x in sol) if x > 0 else (-x not in sol))
    result.core = [texts[switches.index(c)] for c in got.core or []]
    result.core_minimal, result.cut_by_time = got.minimal, got.cut_by_time
    return None


def _by_cpsat(logic: Any, model: StepModel, fixed: list, switches: list, texts: list[str],
              result: AchievableResult, options: SolverOptions) -> list[Action] | None:
    """CP-SAT, one worker, the solves within `options.deterministic_time` in all: the
    witness's placements, or None with the core in `result`."""
    from solver.backends import cpsat

    for lit in fixed:
        logic.clause([lit])
    logic.m.add_assumptions(switches)
    solver, outcome = cpsat.solve(logic.m, options)
    logic.m.clear_assumptions()
    if outcome.status in ("optimal", "feasible"):
        return model.decode(lambda x: bool(solver.boolean_value(x)))
    work = options.deterministic_time or 0.0
    if outcome.status != "infeasible":
        if solver.deterministic_time < 0.99 * work:
            raise TimeLimitReached("the time limit came before CP-SAT found an answer "
                                   f"(--time-limit {options.time_limit})")
        raise TimeLimitReached(f"CP-SAT found no answer within its work budget (--work "
                               f"{work:g} deterministic seconds)")
    # shrink within the switches CP-SAT already blamed: a subset-minimal core of those
    # is subset-minimal among all switches too
    blamed = set(solver.sufficient_assumptions_for_infeasibility())
    first = [i for i, sw in enumerate(switches) if sw.index in blamed]
    left = replace(options, deterministic_time=max(0.0, work - solver.deterministic_time))
    core, result.core_minimal, result.cut_by_time = cpsat.shrink_core(
        logic.m, switches, first, left)
    result.core = [texts[i] for i in core]
    return None


def _witness(game: GameState, tasks: Sequence[Task], acts: list[Action], texts: list[str],
             result: AchievableResult) -> None:
    """The witness, replayed by the rules engine, into `result` (answer yes)."""
    fulfilled = check_witness(game, tasks, acts)
    if not all(any(i in step for step in fulfilled) for i in range(len(tasks))):
        raise RuntimeError("witness does not fulfil every task (encoding bug)")
    result.answer = "yes"
    done: set[int] = set()
    for a, step in zip(acts, fulfilled, strict=True):
        new = [texts[i] for i in step if i not in done]
        done.update(step)
        result.witness.append(WitnessStep(action_json(game.rules, a), new))
