"""CP-SAT encoding of the maximal Take it Higher! score (see encode.py for the variables).

What makes the proof fast (measured in scripts/bench_max.py, see docs/take-it-higher.md):
- classes of interchangeable tiles instead of single tiles (fewer symmetric solutions);
- redundant capacity cuts: in each direction, the cells of the rows scoring a colour
  (and stud) cannot outnumber the available tiles with that stripe (and stud); each
  cell lies on exactly one line per direction, so the cut is linear in y;
- an LP-based portfolio (reduced_costs / max_lp workers): CP-SAT's default two-worker
  portfolio never closes the gap, the LP bound with reduced-cost fixing does.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.take_it_higher.encode import LineOption, MaxProblem, TileClass
from models.take_it_higher.rules import Tile


@dataclass
class CpsatMaxModel:
    model: cp_model.CpModel
    classes: list[TileClass]
    x: dict[tuple[str, int], cp_model.IntVar]  # (cell, class index)
    y: dict[tuple[int, int], cp_model.IntVar]  # (line index, option index)
    options: dict[int, list[LineOption]]  # line index -> its options

    def board(self, solver: cp_model.CpSolver, problem: MaxProblem) -> dict[str, Tile]:
        """Turn a solution into a board, giving each cell a concrete tile of its class
        (tiles of the draw first)."""
        board = dict(problem.fixed)
        used = [0] * len(self.classes)
        for (cell, k), var in sorted(self.x.items()):
            if solver.value(var):
                board[cell] = self.classes[k].tiles[used[k]]
                used[k] += 1
        return board


def build(problem: MaxProblem) -> CpsatMaxModel:
    rules = problem.rules
    m = cp_model.CpModel()
    classes = problem.classes()
    fixed = dict(problem.fixed)
    free = [c for c in rules.cell_ids if c not in fixed]
    x = {(c, k): m.new_bool_var(f"x[{c},{k}]") for c in free for k in range(len(classes))}
    for c in free:
        m.add_exactly_one(x[c, k] for k in range(len(classes)))
    for k, cls in enumerate(classes):
        total = sum(x[c, k] for c in free)
        m.add(total <= len(cls.tiles))
        if cls.required:
            m.add(total >= cls.required)

    y: dict[tuple[int, int], cp_model.IntVar] = {}
    options: dict[int, list[LineOption]] = {}
    objective = []
    for li, (d, cells) in enumerate(rules.lines):
        opts = problem.line_options(d, classes)
        options[li] = opts
        for oi, opt in enumerate(opts):
            ok = all(problem.compatible(opt, d, fixed[c].stripes, fixed[c].stud)
                     for c in cells if c in fixed)
            if not ok:
                continue
            var = m.new_bool_var(f"y[{li},{opt.colour},{opt.stud}]")
            y[li, oi] = var
            for c in cells:
                if c in fixed:
                    continue
                match = [x[c, k] for k, cls in enumerate(classes)
                         if problem.compatible(opt, d, cls.stripes, cls.stud)]
                m.add(sum(match) >= var) if match else m.add(var == 0)
            objective.append(len(cells) * opt.weight * var)
        m.add_at_most_one(y[li, oi] for oi in range(len(opts)) if (li, oi) in y)

    _capacity_cuts(problem, classes, m, y, options)
    m.maximize(sum(objective))
    return CpsatMaxModel(m, classes, x, y, options)


def _capacity_cuts(problem: MaxProblem, classes: list[TileClass], m: cp_model.CpModel,
                   y: dict[tuple[int, int], cp_model.IntVar],
                   options: dict[int, list[LineOption]]) -> None:
    """Per direction and per attribute (colour, stud, or both): the cells of rows that
    demand it <= tiles that have it."""
    rules = problem.rules
    fixed = list(dict(problem.fixed).values())
    for d in range(len(rules.directions)):
        lines = [li for li in options if rules.lines[li][0] == d]
        attrs = {a for li in lines for o in options[li]
                 for a in ((o.colour, None), (o.colour, o.stud), (None, o.stud))}
        attrs.discard((None, None))
        for colour, stud in attrs:
            capacity = sum(len(cls.tiles) for cls in classes
                           if _has(cls.stripes[d], cls.stud, colour, stud))
            capacity += sum(1 for t in fixed if _has(t.stripes[d], t.stud, colour, stud))
            demand = [len(rules.lines[li][1]) * y[li, oi] for li in lines
                      for oi, o in enumerate(options[li])
                      if (li, oi) in y and _has(o.colour, o.stud, colour, stud)]
            if demand:
                m.add(sum(demand) <= capacity)


def _has(colour: str, stud: str | None, want_colour: str | None, want_stud: str | None) -> bool:
    """Does (colour, stud) have the wanted attributes (None = any)?"""
    return (want_colour is None or colour == want_colour) and (
        want_stud is None or stud == want_stud)
