"""The answers of Hippo's own verbs (declared in verbs.py): each verb's function, from
what the layer read (a `Call`) to a plain dataclass, the `--json` document."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from models.hippo.finish import FinishResult
from models.hippo.plan import PlanResult
from models.hippo.queries import BestResult
from solver.answers import Capped, Seen, extend, seen
from solver.errors import BadInput

if TYPE_CHECKING:
    from solver.verbs import Call


@dataclass
class BestAnswer(Seen, BestResult):
    """`best --json`: the ranking, and how chance was taken: dice not yet thrown (a
    bonus roll) averaged exactly, never sampled."""

    samples: int | None = None
    chance: str | None = None


@dataclass
class PlanAnswer(Capped, Seen, PlanResult):
    """`plan --json`: all-seeing by nature (the rolls to come are given, in order);
    `cut_by_time` when the time limit, not the work (`--work`), stopped CP-SAT."""

    brute_force_objective: int | None = None


@dataclass
class FinishAnswer(Capped, Seen, FinishResult):
    """`finish --json`, from before the dice of the file's turn, every roll averaged
    exactly (`dice` says so; `chance` is the answer, or `bounds` when the work stopped
    first; `cut_by_time` when the time limit, not --steps, stopped it)."""

    dice: str | None = None


def best(call: Call, roll_text: str | None, top: int) -> BestAnswer:
    """The best placement for the roll (the file's, or --roll)."""
    from models.hippo import queries
    from models.hippo.notation import parse_move, parse_roll

    state = call.state()
    rules = state.rules
    if roll_text is not None:
        roll = parse_roll(rules, roll_text)
    elif state.roll is not None:
        roll = state.roll
    else:
        raise BadInput("--roll: give the dice (e.g. --roll 6,4,2); the position file has "
                       "no roll")
    result = queries.best(state, roll)
    if call.svg_path:
        from models.hippo.render import pool_svg

        after = state.apply_action(parse_move(state, result.best))
        call.save_svg(pool_svg(after, title=f"after {', '.join(result.best)}"))
    # the state answered on: the file's, with the roll placed
    used = state if state.roll == roll else state.rolled(roll)
    return extend(result, BestAnswer, **seen(call.game, used, False), samples=None,
                  chance="exact: every bonus roll averaged over all "
                         f"{rules.faces ** rules.dice} throws of the dice")


def plan(call: Call, rolls_text: str, work: float, check: bool) -> PlanAnswer:
    """The solo puzzle's plan for a known sequence of rolls."""
    from models.hippo.notation import parse_rolls
    from models.hippo.plan import brute_force, solve_plan

    state = call.state()
    rules = state.rules
    rolls = parse_rolls(rules, rolls_text)
    assert call.solver is not None
    # one worker with a work budget: the same plan every time (the time limit a cap)
    result = solve_plan(state, rolls, replace(call.solver, workers=1,
                                              deterministic_time=work))
    checked = None
    if check:
        if len(rolls) > 8:
            raise BadInput("--check: brute force is for at most 8 rolls")
        value, _ = brute_force(state, rolls)
        checked = value[0] * (rules.chips * state.players + 1) + value[1]
        if result.proven and checked != result.objective:
            raise RuntimeError(f"CP-SAT {result.objective} != brute force {checked}")
    return extend(result, PlanAnswer,
                  **seen(call.game, replace(state, roll=None), True,
                         ["the rolls to come, in order (--rolls)"]),
                  cut_by_time=result.stopped_by == "time limit",
                  brute_force_objective=checked)


def finish(call: Call, turns: int, steps: int, time_limit: float) -> FinishAnswer:
    """The exact chance to empty the stock within N own turns (or its two bounds)."""
    from models.hippo.finish import finish as run_finish
    from solver.deadline import Deadline

    state = call.state()
    # the limit counts from the command's start (imports and reading the file included)
    result = run_finish(state, turns, deadline=Deadline.from_start(time_limit), steps=steps)
    faces = state.rules.faces ** state.rules.dice
    cut = result.bounds is not None and result.bounds.stopped_by == "time limit"
    return extend(result, FinishAnswer, **seen(call.game, replace(state, roll=None), False),
                  cut_by_time=cut,
                  dice=f"exact: every roll of every turn averaged over all {faces} throws")
