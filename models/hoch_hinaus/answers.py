"""The answers of Hoch Hinaus!'s own verbs (declared in verbs.py): each verb's function,
from what the layer read (a `Call`) to a plain dataclass, the `--json` document."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from models.hoch_hinaus.achievable import AchievableResult
from models.hoch_hinaus.hint import HintResult
from models.hoch_hinaus.reachable import ReachableResult
from solver.answers import Known, extend
from solver.errors import BadInput
from solver.game import knowledge

if TYPE_CHECKING:
    from solver.verbs import Call


@dataclass
class AchievableAnswer(Known, AchievableResult):
    """`achievable --json`: the answer on the file as it is (its hands, its reserve)."""


@dataclass
class HintAnswer(Known, HintResult):
    """`hint --json`: the ranking from what the player on turn may know, or from the
    whole file (`open_hands`)."""

    open_hands: bool = False
    # the state the hint judged from, for the line that says so (not in the JSON; Any:
    # the schema describes the document only)
    seen: Any = field(default=None, repr=False, metadata={"json_skip": True})


@dataclass
class ReachableAnswer(Known, ReachableResult):
    """`reachable --json`: from what the player on turn may know, or from the whole file
    (`open_hands`); a sampled rate cut by the time limit is the rate over the games
    played (`cut_by_time`)."""

    open_hands: bool = False
    seen: Any = field(default=None, repr=False, metadata={"json_skip": True})


def achievable(call: Call, task_texts: tuple[str, ...], k: int, mode: str, backend: str,
               conflicts: int, work: float) -> AchievableAnswer:
    """Can the tasks (--task, default the open ones) be fulfilled within K placements?"""
    from models.hoch_hinaus.achievable import achievable as run

    data, game = call.rules(), call.state()
    tasks = [data.catalogue.parse(t, "--task") for t in task_texts] or \
        [t for t in game.open if t is not None]
    result = run(game, tasks, k, mode, backend, call.solver, conflicts, work)
    return extend(result, AchievableAnswer, **knowledge(call.game, game))


def hint(call: Call, horizon: int, top: int, shown: int, conflicts: int, time_limit: float,
         samples: int, seed: int, open_hands: bool) -> HintAnswer:
    """The ranked placements for the player on turn (the first `shown` of them): work
    counted in candidates and SAT conflicts, `time_limit` (from the command's start)
    only a cap."""
    from models.hoch_hinaus.hint import hint as run
    from solver.deadline import Deadline

    game = call.state()
    if not game.hands:
        raise BadInput("hint needs a game state with hands (the player on turn)")
    if game.chance_due:
        raise BadInput("chance acts first in this position (a tile is drawn or a task "
                       "turned up): 'moves' lists the outcomes")
    seen = game if open_hands else game.observation(game.on_turn)
    result = run(seen, horizon=horizon, top=top, deadline=Deadline.from_start(time_limit),
                 samples=samples, seed=seed, conflicts=conflicts)
    result.options = result.options[:shown]
    if call.svg_path and result.options:
        from models.hoch_hinaus.render import board_svg

        after = game.board.copy()
        after.apply(result.options[0].action)
        call.save_svg(board_svg(after, "after: " + result.options[0].placement["text"]))
    return extend(result, HintAnswer, **knowledge(call.game, seen), open_hands=open_hands,
                  seen=seen)


def reachable(call: Call, samples: int, policy: str, seed: int, nodes: int, conflicts: int,
              time_limit: float, open_hands: bool) -> ReachableAnswer:
    """Can the game still be won: exact with everything known, else sampled; the work
    counted, `time_limit` (from the command's start) only a cap. An exact search with
    no answer (out of work or time) is TimeLimitReached: one line, exit 3."""
    from models.hoch_hinaus.reachable import reachable as run
    from solver.deadline import Deadline
    from solver.errors import TimeLimitReached
    from solver.progress import progress_bar

    game = call.state()
    seen = game if open_hands or not game.hands else game.observation(game.on_turn)
    deadline = Deadline.from_start(time_limit)
    if seen.everything_known:  # the exact search shows its own status line
        result = run(seen, samples, policy, seed, deadline, nodes=nodes, conflicts=conflicts)
    else:
        with progress_bar("sampling games") as update:
            result = run(seen, samples, policy, seed, deadline, update, open_hands)
    if result.answer == "unknown":
        raise TimeLimitReached(result.note + (
            f" (time limit {time_limit:g} s)" if result.cut_by_time else
            f" (--nodes {nodes}, --conflicts {conflicts})"))
    return extend(result, ReachableAnswer, **knowledge(call.game, seen),
                  open_hands=open_hands, seen=seen)
