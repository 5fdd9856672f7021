"""The answers of Tippi Toppi's own verbs (declared in verbs.py): each verb's function,
from what the layer read (a `Call`) to a plain dataclass, the `--json` document."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from models.tippi_toppi.achievable import AchievableResult
from models.tippi_toppi.hint import HintResult
from models.tippi_toppi.reachable import ReachableResult
from models.tippi_toppi.state import GameState
from solver.answers import Known, extend
from solver.game import knowledge

if TYPE_CHECKING:
    from solver.verbs import Call


@dataclass
class AchievableAnswer(Known, AchievableResult):
    """`achievable --json`, with what the position it answered on holds: the player on
    turn's view (--cards hand), every hand (hands) or the whole file (known)."""


@dataclass
class HintAnswer(Known, HintResult):
    """`hint --json`, on what the player on turn sees (or the whole file, --open-hands)."""

    # the position the hint read (a GameState), for the picture: not in the document
    position: Any = field(default=None, metadata={"json_skip": True}, repr=False)


@dataclass
class ReachableAnswer(Known, ReachableResult):
    """`reachable --json`: whether it read the whole file (`open_hands`) or the view of
    the player on turn; a sampled rate cut by the time limit is the rate over the deals
    played (`cut_by_time`, exit 0)."""

    open_hands: bool = False
    # the position it read (a GameState) and the deals asked: for the terminal, not in
    # the document
    position: Any = field(default=None, metadata={"json_skip": True}, repr=False)
    asked: int = field(default=0, metadata={"json_skip": True})


@dataclass
class CatalogueTask:
    """One task of the catalogue: its id, its level and its text."""

    id: str
    level: int
    text: str


#: `tasks --json`: the task catalogue, one row per task (the document is the list).
TasksAnswer = list[CatalogueTask]


def cards_view(state: GameState, cards: str) -> GameState:
    """What `achievable --cards` reads of the position: the player on turn's view
    (hand), every hand but not the order of the draw pile nor the task pile (hands), or
    everything (known)."""
    from models.tippi_toppi.hint import check_hand_known

    if cards == "hand":
        check_hand_known(state, "--cards hand")
        return state.seen_by(state.turn)
    if cards == "hands":
        return state.hiding_piles()
    return state


def achievable(call: Call, task_texts: tuple[str, ...], within: int, cards: str,
               backend: str, conflicts: int, work: float) -> AchievableAnswer:
    """Can the open tasks (or the --task ones) all be fulfilled within K plays? Within
    `conflicts` (PySAT) or `work` deterministic seconds (CP-SAT), the time limit a cap."""
    from models.tippi_toppi.achievable import achievable as run_achievable

    rules, state = call.rules(), call.state()
    tasks = [rules.parse_task(t, "--task") for t in task_texts]
    used = cards_view(state, cards)  # --cards known: the query names what is missing
    result = run_achievable(used, tasks or None, within, cards, backend, call.solver,
                            conflicts, work)
    return extend(result, AchievableAnswer, **knowledge(call.game, used))


def hint(call: Call, open_hands: bool) -> HintAnswer:
    """Every legal play of the player on turn ranked, on what that player sees."""
    from models.tippi_toppi.hint import hint_at_table

    used, result = hint_at_table(call.state(), open_hands)
    return extend(result, HintAnswer, **knowledge(call.game, used), position=used)


def reachable(call: Call, samples: int, seed: int, nodes: int, conflicts: int,
              time_limit: float, open_hands: bool) -> ReachableAnswer:
    """Can the game still be won: exact with everything known (--open-hands), else the
    hint policy's win rate over sampled deals of what the player on turn cannot see.
    The work is counted (deals, positions, conflicts); `time_limit`, counted from the
    command's start, only caps it. An exact search left undecided has no answer:
    TimeLimitReached (one line, exit 3)."""
    from models.tippi_toppi.reachable import reachable as run_reachable
    from solver.deadline import Deadline
    from solver.errors import TimeLimitReached

    game, state = call.game, call.state()
    seen = state
    if not open_hands and game.current_player(state) >= 0:
        seen = game.observation(state, game.current_player(state))
    result = run_reachable(seen, samples, seed, nodes, conflicts,
                           Deadline.from_start(time_limit))
    if result.answer == "unknown":
        why = (f"the time limit of {time_limit:g} s" if result.cut_by_time else
               f"--nodes {nodes} and --conflicts {conflicts}")
        raise TimeLimitReached(f"no winning line found and none proven impossible within "
                               f"{why} ({result.nodes} positions, {result.conflicts} "
                               "conflicts)")
    return extend(result, ReachableAnswer, **knowledge(call.game, seen), open_hands=open_hands,
                  position=seen, asked=samples)


def tasks(call: Call) -> TasksAnswer:
    """The task catalogue with ids and levels."""
    rules = call.rules()
    return [CatalogueTask(t.id, t.level, t.task.text(rules)) for t in rules.catalogue]
