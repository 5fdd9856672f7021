"""Cheap, sound proofs that a game with everything known is lost: relaxations that
ignore where the tiles can lie.

A game is won only when every open task and every task of the draw pile has held on
the visible board after some placement (state.py's fulfil step). The tiles that can
still be laid are those in the hands and the reserve; the gap fillers those left on
the bonus tasks. `impossible_tasks` looks at each such task alone on a relaxed board:
every space either keeps its visible face and height, or is covered by any face of a
remaining tile or by a gap filler and then lies at any greater height. Each face of a
remaining tile covers at most one space and each gap filler one. Every board the rules
allow after further placements is such a relaxed board (a placement covers two spaces
with the two faces of one remaining tile, a gap filler one space with black 0; both
raise what they cover), so a task that holds on no relaxed board can never be
fulfilled, and the game is lost.

On the relaxed board a count over a group of spaces takes every value between a
lowest and a highest one: the spaces are independent but for the supply of faces, so
the bounds below are the exact range of the relaxation up to the supply rounding (each
bound is over-generous where it simplifies, never too tight).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models.hoch_hinaus.rules import Face, Rules
from models.hoch_hinaus.state import GameState
from models.hoch_hinaus.tasks import Pred, Task

Visible = Sequence[tuple[Face | None, int]]


@dataclass(frozen=True)
class Supply:
    """What can still be laid: the faces of the remaining tiles (a multiset) and the
    gap fillers left (each shows the black filler face)."""

    faces: tuple[Face, ...]
    fillers: int
    filler_face: Face

    def kinds(self) -> list[tuple[Face, int]]:
        """Each distinct face with how many can still be laid."""
        out: dict[Face, int] = {}
        for f in self.faces:
            out[f] = out.get(f, 0) + 1
        if self.fillers:
            out[self.filler_face] = out.get(self.filler_face, 0) + self.fillers
        return list(out.items())


def supply_of(game: GameState) -> Supply:
    """The faces of every tile in a hand or the reserve, and the gap fillers left."""
    r = game.rules
    tiles = [t for h in game.hands for t in h if t is not None]
    tiles += [t for t in game.reserve if t is not None]
    faces = tuple(f for tid in tiles for f in r.tile_by_id[tid].faces)
    return Supply(faces, game.fillers_left, r.filler_face)


def _can_match(pred: Pred, face: Face, above: int) -> bool:
    """Can `face` laid on a space of height `above` (so lying at a greater height) match
    `pred` at some height?"""
    if pred.height is None:
        return pred.matches(face, above + 1)
    if pred.height_or_more:
        return pred.matches(face, max(above + 1, pred.height))
    return pred.height > above and pred.matches(face, pred.height)


def _can_miss(pred: Pred, face: Face, above: int) -> bool:
    """Can `face` laid above height `above` fail to match `pred` at some height?"""
    if pred.height is not None and not pred.height_or_more:
        return True  # it lies higher than `above`: at a height other than the one named
    return not pred.matches(face, above + 1)


def count_range(pred: Pred, line: Sequence[int], visible: Visible, supply: Supply
                ) -> tuple[int, int]:
    """(lowest, highest) number of spaces of `line` that can match `pred` on a relaxed
    board."""
    kinds = supply.kinds()
    now = [pred.matches(*visible[s]) for s in line]
    cur = sum(now)
    gain = sum(1 for s, m in zip(line, now, strict=True) if not m and
               any(_can_match(pred, f, visible[s][1]) for f, _ in kinds))
    lose = sum(1 for s, m in zip(line, now, strict=True) if m and
               any(_can_miss(pred, f, visible[s][1]) for f, _ in kinds))
    # faces that could match (or miss) somewhere: an upper bound on what each side can use
    match_faces = sum(n for f, n in kinds if pred.height is not None
                      or pred.matches(f, 0) or pred.matches(f, 1))
    miss_faces = sum(n for f, n in kinds if pred.height is not None
                     or not pred.matches(f, 1))
    return cur - min(lose, miss_faces), cur + min(gain, match_faces)


def _values(what: str, face: Face) -> int:
    return face[0] if what == "colours" else face[1]


def _line_possible(rules: Rules, task: Task, line: Sequence[int], visible: Visible,
                   supply: Supply) -> bool:
    """Can the task's condition hold on `line` on some relaxed board?"""
    c = task.count
    if task.kind == "count":
        lo, hi = count_range(task.pred, line, visible, supply)
        return any(c.holds(v) for v in range(lo, hi + 1))
    if task.kind == "more":
        _, hi_a = count_range(task.pred, line, visible, supply)
        lo_b, _ = count_range(task.pred2, line, visible, supply)
        return hi_a > lo_b
    if task.kind == "distinct":
        shown = {_values(task.what, f) for f, _ in (visible[s] for s in line) if f is not None}
        laid = {_values(task.what, f) for f, _ in supply.kinds()}
        hi = min(len(line), len(shown | laid))
        lo = 1 if shown else 0  # a space once covered is never empty again
        return any(c.holds(v) for v in range(lo, hi + 1))
    # heights: the distinct heights of the matching spaces; each space adds one at most
    now = {visible[s][1] for s in line if task.pred.matches(*visible[s])}
    _, hi = count_range(task.pred, line, visible, supply)
    return any(c.holds(v) for v in range(0, min(hi, len(now) + hi) + 1))


def task_possible(rules: Rules, task: Task, visible: Visible, supply: Supply) -> bool:
    """Can `task` hold on some relaxed board (see the module's docstring)?"""
    lines = task.region.lines(rules)
    ok = (_line_possible(rules, task, line, visible, supply) for line in lines)
    # every line at once needs each line on its own (the supply is shared: necessary)
    return all(ok) if task.region.quant == "every" else any(ok)


def impossible_tasks(game: GameState) -> list[Task]:
    """The tasks the game still needs (open and draw pile) that no further placements
    can fulfil; any one of them proves the game lost."""
    supply = supply_of(game)
    vis = game.board.visible()
    need = [t for t in (*game.open, *game.draw_pile) if t is not None]
    return [t for t in dict.fromkeys(need) if not task_possible(game.rules, t, vis, supply)]
