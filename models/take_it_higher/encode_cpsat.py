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

import itertools
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from models.take_it_higher.encode import LineOption, MaxProblem, TileClass, stud_misfits
from models.take_it_higher.rules import Tile
from solver.backends.cpsat import fixed_copy


@dataclass
class CpsatMaxModel:
    model: cp_model.CpModel
    classes: list[TileClass]
    x: dict[tuple[str, int], cp_model.IntVar]  # (cell, class index)
    y: dict[tuple[int, int], cp_model.IntVar]  # (line index, option index)
    options: dict[int, list[LineOption]]  # line index -> its options
    objective: cp_model.LinearExprT  # the score the model maximises
    colour_points: cp_model.LinearExprT  # ... without the stud bonus

    def narrowed(self, stud_pattern: dict[str, str | None], colour_cap: int | None = None,
                 at_least: int | None = None) -> CpsatMaxModel:
        """This model (built without them) with a stud pattern, colour cap and
        `at_least` as `build` takes them, on a copy: the gold/silver decomposition
        solves many patterns of one problem."""
        m = fixed_copy(self.model, ((var, 0) for var in
                                    stud_misfits(self.x, self.classes, stud_pattern)))
        if colour_cap is not None:
            m.add(self.colour_points <= colour_cap)
        if at_least is not None:
            m.add(self.objective >= at_least)
        return replace(self, model=m)

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


def build(problem: MaxProblem, *, pair_cuts: bool = False,
          stud_pattern: dict[str, str | None] | None = None, colour_cap: int | None = None,
          at_least: int | None = None, model: cp_model.CpModel | None = None
          ) -> CpsatMaxModel:
    """The model; options used by the searches in queries.py:

    pair_cuts: add counting cuts on pairs of directions (helps draws);
    stud_pattern: fix the stud of every free cell (gold/silver decomposition);
    colour_cap: the row points without bonus are at most this (a proven maximum);
    at_least: only boards scoring at least this are wanted;
    model: add the variables to this model (one of several boards in one model).
    """
    rules = problem.rules
    m = model if model is not None else cp_model.CpModel()
    classes = problem.classes()
    fixed = dict(problem.fixed)
    free = [c for c in rules.cell_ids if c not in fixed]
    x = {(c, k): m.new_bool_var(f"x[{c},{k}]") for c in free for k in range(len(classes))}
    if stud_pattern is not None:
        for var in stud_misfits(x, classes, stud_pattern):
            m.add(var == 0)
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
    colour_part = []
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
            colour_part.append(len(cells) * rules.colour_values[opt.colour] * var)
        m.add_at_most_one(y[li, oi] for oi in range(len(opts)) if (li, oi) in y)

    capacity_cuts(problem, classes, m, y, options)
    if pair_cuts:
        add_pair_cuts(problem, classes, m, y, options)
    if colour_cap is not None:
        m.add(sum(colour_part) <= colour_cap)
    if at_least is not None:
        m.add(sum(objective) >= at_least)
    m.maximize(sum(objective))
    return CpsatMaxModel(m, classes, x, y, options, sum(objective), sum(colour_part))


def capacity_cuts(problem: MaxProblem, classes: list[TileClass], m: cp_model.CpModel,
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
        # sorted: a set of tuples with None iterates in a per-process order (hash(None)
        # is its address in Python 3.11), and the model must be the same every run
        for colour, stud in sorted(attrs, key=lambda a: (a[0] or "", a[1] or "")):
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


def add_pair_cuts(problem: MaxProblem, classes: list[TileClass], m: cp_model.CpModel,
               y: dict[tuple[int, int], cp_model.IntVar],
               options: dict[int, list[LineOption]]) -> None:
    """For two directions and a colour in each: the cells whose two lines score those
    colours <= tiles with both stripes (p[cell] >= u1 + u2 - 1 marks such a cell)."""
    rules = problem.rules
    fixed = dict(problem.fixed)
    free = [c for c in rules.cell_ids if c not in fixed]
    scores: dict[tuple[int, str], cp_model.LinearExpr] = {}  # (line, colour) -> 0/1 expr
    for li, opts in options.items():
        for colour in sorted({o.colour for o in opts}):
            terms = [y[li, oi] for oi, o in enumerate(opts) if o.colour == colour and (li, oi) in y]
            if terms:
                scores[li, colour] = sum(terms)
    ndir = len(rules.directions)
    for d1, d2 in itertools.combinations(range(ndir), 2):
        for k1 in rules.directions[d1].colours:
            for k2 in rules.directions[d2].colours:
                capacity = sum(len(cls.tiles) for cls in classes
                               if cls.stripes[d1] == k1 and cls.stripes[d2] == k2)
                marks = []
                for c in free:
                    u1 = scores.get((rules.line_of[c, d1], k1))
                    u2 = scores.get((rules.line_of[c, d2], k2))
                    if u1 is None or u2 is None:
                        continue
                    p = m.new_bool_var("")
                    m.add(p >= u1 + u2 - 1)
                    marks.append(p)
                if len(marks) > capacity:
                    m.add(sum(marks) <= capacity)


StudVars = dict[tuple[str, str | None], cp_model.IntVar]


def stud_master(problem: MaxProblem) -> tuple[cp_model.CpModel, StudVars, cp_model.IntVar]:
    """Studs only: g[cell, stud] picks the stud of every free cell (within the stud counts
    of the tiles), u[line, stud] is exactly "the line is all of that stud", and the
    objective BU = sum(len x bonus x u) bounds the bonus of any board with that pattern."""
    rules = problem.rules
    fixed = dict(problem.fixed)
    free = [c for c in rules.cell_ids if c not in fixed]
    classes = problem.classes()
    studs = sorted({cls.stud for cls in classes}, key=lambda s: (s is None, s or ""))
    m = cp_model.CpModel()
    g = {(c, s): m.new_bool_var(f"g[{c},{s}]") for c in free for s in studs}
    for c in free:
        m.add_exactly_one(g[c, s] for s in studs)
    for s in studs:
        count = sum(g[c, s] for c in free)
        m.add(count <= sum(len(cls.tiles) for cls in classes if cls.stud == s))
        m.add(count >= sum(cls.required for cls in classes if cls.stud == s))
    terms = []
    for _, cells in rules.lines:
        for s in studs:
            if s is None:
                continue
            lits = []
            possible = True
            for c in cells:
                if c in fixed:
                    possible &= fixed[c].stud == s
                else:
                    lits.append(g[c, s])
            if not possible:
                continue
            u = m.new_bool_var("")
            for lit in lits:
                m.add_implication(u, lit)
            m.add_bool_or([~lit for lit in lits] + [u])
            terms.append((len(cells) * rules.stud_bonus[s], u))
    bound = m.new_int_var(0, sum(w for w, _ in terms), "BU")
    m.add(bound == sum(w * u for w, u in terms))
    m.maximize(bound)
    return m, g, bound
