"""Weighted MaxSAT encoding of the maximal score (PySAT, solved with RC2).

Same variables as the CP-SAT model (see encode.py): hard clauses say each free cell
holds one tile class, class capacities hold, and a scoring row forces a matching class
on each of its cells; each y[line, option] is a soft literal worth its points.

Redundant demand cuts make the core-guided proof fast (RC2 does not prove the basic
maximum in 60 s without them, and proves it in well under a second with them): for a
set of up to CUT_DIRECTIONS directions with one colour each (and optionally a stud),
the free cells whose lines demand all of them cannot outnumber the tiles that have them
all. A cut on one direction is the CP-SAT capacity cut; cuts on pairs capture e.g.
"white columns must lie in blue rows, and only 8 tiles are white and blue".
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from models.take_it_higher.encode import LineOption, MaxProblem, TileClass
from models.take_it_higher.rules import Tile
from solver.backends.sat import CnfBuilder

CUT_DIRECTIONS = 3  # largest set of directions combined in one demand cut


@dataclass
class MaxsatMaxModel:
    cnf: CnfBuilder
    classes: list[TileClass]
    options: dict[int, list[LineOption]]

    def board(self, true_lits: set[int], problem: MaxProblem) -> dict[str, Tile]:
        board = dict(problem.fixed)
        used = [0] * len(self.classes)
        for c in problem.rules.cell_ids:
            if c in board:
                continue
            for k, cls in enumerate(self.classes):
                if self.cnf.var(("x", c, k)) in true_lits:
                    board[c] = cls.tiles[used[k]]
                    used[k] += 1
                    break
        return board


def build(problem: MaxProblem, stud_pattern: dict[str, str | None] | None = None
          ) -> MaxsatMaxModel:
    """The MaxSAT model; `stud_pattern` fixes the stud of every free cell (used by the
    gold/silver decomposition)."""
    rules = problem.rules
    cnf = CnfBuilder()
    classes = problem.classes()
    fixed = dict(problem.fixed)
    free = [c for c in rules.cell_ids if c not in fixed]

    def x(c: str, k: int) -> int:
        return cnf.var(("x", c, k))

    for c in free:
        cnf.exactly_one([x(c, k) for k in range(len(classes))])
        if stud_pattern is not None:
            for k, cls in enumerate(classes):
                if cls.stud != stud_pattern[c]:
                    cnf.clause([-x(c, k)])
    for k, cls in enumerate(classes):
        lits = [x(c, k) for c in free]
        cnf.at_most(lits, len(cls.tiles))
        cnf.at_least(lits, cls.required)

    options: dict[int, list[LineOption]] = {}
    y: dict[tuple[int, int], int] = {}
    for li, (d, cells) in enumerate(rules.lines):
        opts = problem.line_options(d, classes)
        options[li] = opts
        ys = []
        for oi, opt in enumerate(opts):
            if not all(problem.compatible(opt, d, fixed[c].stripes, fixed[c].stud)
                       for c in cells if c in fixed):
                continue
            y[li, oi] = cnf.var(("y", li, oi))
            ys.append(y[li, oi])
            for c in cells:
                if c not in fixed:
                    cnf.clause([-y[li, oi]] + [
                        x(c, k) for k, cls in enumerate(classes)
                        if problem.compatible(opt, d, cls.stripes, cls.stud)])
            cnf.reward(y[li, oi], len(cells) * opt.weight)
        cnf.at_most(ys, 1)
    _demand_cuts(problem, classes, cnf, y, options, free)
    return MaxsatMaxModel(cnf, classes, options)


def _demand_cuts(problem: MaxProblem, classes: list[TileClass], cnf: CnfBuilder,
                 y: dict[tuple[int, int], int], options: dict[int, list[LineOption]],
                 free: list[str]) -> None:
    """For directions D (1 <= |D| <= CUT_DIRECTIONS), a colour per direction of D, and
    no stud or one stud: a[cell] is true when the cell's lines demand all of them or
    the cell holds a tile having them all; at most (tiles having them all) such cells.
    """
    rules = problem.rules
    # u[line, colour]: the line scores this colour; v[line, stud]: a bonus row of it
    u: dict[tuple[int, str], int] = {}
    v: dict[tuple[int, str], int] = {}
    for (li, oi), lit in y.items():
        o = options[li][oi]
        cnf.implies(lit, cnf.var(("u", li, o.colour)))
        u[li, o.colour] = cnf.var(("u", li, o.colour))
        if o.stud is not None:
            cnf.implies(lit, cnf.var(("v", li, o.stud)))
            v[li, o.stud] = cnf.var(("v", li, o.stud))
    studs = sorted({s for _, s in v})
    ndir = len(rules.directions)
    # stud_demand[cell, stud]: some line through the cell is a bonus row of the stud
    stud_demand: dict[tuple[str, str], int] = {}
    for c in free:
        for s in studs:
            for d in range(ndir):
                if (rules.line_of[c, d], s) in v:
                    stud_demand[c, s] = cnf.var(("vc", c, s))
                    cnf.implies(v[rules.line_of[c, d], s], stud_demand[c, s])

    for size in range(1, min(CUT_DIRECTIONS, ndir) + 1):
        for dirs in itertools.combinations(range(ndir), size):
            colour_sets = [sorted({col for (li, col) in u if rules.lines[li][0] == d})
                           for d in dirs]
            for colours in itertools.product(*colour_sets):
                for stud in [None, *studs]:
                    ks = [k for k, cls in enumerate(classes)
                          if all(cls.stripes[d] == col for d, col in zip(dirs, colours, strict=True))
                          and (stud is None or cls.stud == stud)]
                    lits = []
                    for c in free:
                        a = cnf.var(("cut", c, dirs, colours, stud))
                        lits.append(a)
                        for k in ks:
                            cnf.implies(cnf.var(("x", c, k)), a)
                        demand = [u.get((rules.line_of[c, d], col))
                                  for d, col in zip(dirs, colours, strict=True)]
                        if stud is not None:
                            demand.append(stud_demand.get((c, stud)))
                        if None not in demand:
                            cnf.clause([-lit for lit in demand] + [a])
                    cnf.at_most(lits, sum(len(classes[k].tiles) for k in ks))


def stud_master(problem: MaxProblem) -> tuple[CnfBuilder, dict[tuple[str, str | None], int]]:
    """Studs only (the MaxSAT twin of encode_cpsat.stud_master): g[cell, stud] picks each
    free cell's stud within the stud counts; a line all of one stud gains len x bonus."""
    rules = problem.rules
    fixed = dict(problem.fixed)
    free = [c for c in rules.cell_ids if c not in fixed]
    classes = problem.classes()
    studs = sorted({cls.stud for cls in classes}, key=lambda s: (s is None, s or ""))
    cnf = CnfBuilder()
    g = {(c, s): cnf.var(("g", c, s)) for c in free for s in studs}
    for c in free:
        cnf.exactly_one([g[c, s] for s in studs])
    for s in studs:
        lits = [g[c, s] for c in free]
        cnf.at_most(lits, sum(len(cls.tiles) for cls in classes if cls.stud == s))
        cnf.at_least(lits, sum(cls.required for cls in classes if cls.stud == s))
    for li, (_, cells) in enumerate(rules.lines):
        for s in studs:
            if s is None or any(c in fixed and fixed[c].stud != s for c in cells):
                continue
            u = cnf.var(("u", li, s))
            for c in cells:
                if c not in fixed:
                    cnf.implies(u, g[c, s])
            cnf.reward(u, len(cells) * rules.stud_bonus[s])
    return cnf, g
