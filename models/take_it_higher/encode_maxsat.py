"""Weighted MaxSAT encoding of the maximal score (PySAT, solved with RC2).

Same variables as the CP-SAT model (see encode.py): hard clauses say each free cell
holds one tile class, class capacities hold, and a scoring row forces a matching class
on each of its cells; each y[line, option] is a soft literal worth its points.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.take_it_higher.encode import LineOption, MaxProblem, TileClass
from models.take_it_higher.rules import Tile
from solver.backends.sat import CnfBuilder


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


def build(problem: MaxProblem) -> MaxsatMaxModel:
    rules = problem.rules
    cnf = CnfBuilder()
    classes = problem.classes()
    fixed = dict(problem.fixed)
    free = [c for c in rules.cell_ids if c not in fixed]

    def x(c: str, k: int) -> int:
        return cnf.var(("x", c, k))

    for c in free:
        cnf.exactly_one([x(c, k) for k in range(len(classes))])
    for k, cls in enumerate(classes):
        lits = [x(c, k) for c in free]
        cnf.at_most(lits, len(cls.tiles))
        cnf.at_least(lits, cls.required)

    options: dict[int, list[LineOption]] = {}
    for li, (d, cells) in enumerate(rules.lines):
        opts = problem.line_options(d, classes)
        options[li] = opts
        ys = []
        for oi, opt in enumerate(opts):
            if not all(problem.compatible(opt, d, fixed[c].stripes, fixed[c].stud)
                       for c in cells if c in fixed):
                continue
            y = cnf.var(("y", li, oi))
            ys.append(y)
            for c in cells:
                if c not in fixed:
                    cnf.clause([-y] + [x(c, k) for k, cls in enumerate(classes)
                                       if problem.compatible(opt, d, cls.stripes, cls.stud)])
            cnf.reward(y, len(cells) * opt.weight)
        cnf.at_most(ys, 1)
    return MaxsatMaxModel(cnf, classes, options)
