"""What every answer says about what it used, as parts of answer types.

An answer's document is a dataclass: the query's result with these fields added
(`knows`, `unknown` of the state it answered on, and `all_seeing` when it may see what
a player cannot). A verb's answer type subclasses both, the part first so that the
result's fields come first in the JSON:

    @dataclass
    class BestAnswer(Seen, BestResult):
        chance: str | None = None

and the verb's function builds it with `extend(result, BestAnswer, **seen(...))`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

from solver.game import Game, knowledge

T = TypeVar("T")


@dataclass(kw_only=True)
class Known:
    """What the answer worked from: the kinds of information the state holds, and
    what it leaves unknown."""

    knows: list[str]
    unknown: list[str]


@dataclass(kw_only=True)
class Seen(Known):
    """Known, and whether the answer sees what no player at the table can."""

    all_seeing: bool


def seen(game: Game, state: Any, all_seeing: bool, more: list[str] | None = None,
         hide_unknown: bool = False) -> dict[str, Any]:
    """The fields of `Seen` for an answer on `state`: `more` known besides (e.g. the
    rolls of a plan); `hide_unknown` when an all-seeing answer knows it all."""
    known = knowledge(game, state)
    return {"knows": known["knows"] + (more or []),
            "unknown": [] if hide_unknown else known["unknown"], "all_seeing": all_seeing}


def extend(result: Any, answer_type: type[T], **more: Any) -> T:
    """An answer of `answer_type` holding `result`'s fields and `more`."""
    values = {f.name: getattr(result, f.name) for f in fields(result)}
    return answer_type(**values, **more)


@dataclass(kw_only=True)
class Capped:
    """An answer whose work is counted in deterministic units (samples, futures, search
    nodes, CP-SAT's deterministic time or conflicts) and only capped by `--time-limit`:
    without the cap's cut it is a function of the input, the options and `--seed`;
    `cut_by_time` says the cap cut the work (the answer is then the best found within
    it, and says so)."""

    cut_by_time: bool = False
