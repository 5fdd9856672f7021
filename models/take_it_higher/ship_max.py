"""The maximum with spaceships, proven by cases of the ring: the full game (the call
order free) and the hindsight optimum of a draw (the call order given).

The Take it Higher! bonus only depends on how many ships from the bottom of the pad are
launched (the ring stops below the lowest ship still on the pad), and launching costs
nothing but rows: so the maximum is the best, over j = 0..K, of the button of ship j
plus the best row points of a board on which ships 1..j can all be launched.

Case j is one CP-SAT model of the board (x[cell, class], y[line, option] as in
encode.py; classes keep their studs, since a bonus row launches the gold or silver
ship in every variant) plus what the launches need, without time steps:
- z[line, ship]: the line is the scoring row that launches the ship (one row per ship,
  one ship per row, the row allowing the ship: its colour, or its stud for a bonus row);
- p[cell]: when the cell is filled (a permutation, AllDifferent), and T[ship] = p of the
  tile the ship lands on: a cell of its row (w[cell, ship]) filled last on that row
  (p[c] <= T for every cell of the row): the tile that completes the row;
- simple rules: T non-decreasing up the pad (several ships may share a tile, each with
  its own row); advanced rules: T all different (one ship per tile), and no other ship
  lands on a tile of a launching row other than the one completing it (such a tile is
  filled earlier, so its ship would stand on the row when it launches).
With the call order free, any permutation p is a call order, so a solution is a game;
with a draw, a[time, cell] places the tile called at each time and p is read from it.
Every game is replayed by the rules engine.

The cases are visited from the top button down and cut by bounds: case j can score at
most R + button(j), R the proven maximum of the rows alone (basic or gold/silver), so
once the best game found reaches it no lower case is solved.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from models.take_it_higher.encode import LineOption, MaxProblem, TileClass, stud_misfits
from models.take_it_higher.encode_cpsat import add_pair_cuts, capacity_cuts
from models.take_it_higher.positions import Placement
from models.take_it_higher.rules import Rules, Tile, board_symmetries
from models.take_it_higher.stud_patterns import PREFETCH_AFTER, StudPatterns
from solver.backends import SolveOutcome, SolverOptions, cpsat

# the LP workers prove row maxima over the whole tile set (maximum.CPSAT_SUBSOLVERS)
SUBSOLVERS = ("reduced_costs", "max_lp")


@dataclass
class CaseModel:
    """The model of one case and how to read a game from its solution."""

    model: cp_model.CpModel
    classes: list[TileClass]
    x: dict[tuple[str, int], cp_model.IntVar]
    p: dict[str, cp_model.IntVar]
    w: dict[tuple[str, str], cp_model.IntVar]
    z: dict[tuple[int, str], cp_model.IntVar]
    ships: list[str]
    lines: list[tuple[int, tuple[str, ...]]]
    # with a draw: a[time, cell], the tile called at that time goes on the cell
    a: dict[tuple[int, str], cp_model.IntVar] | None = None
    draw: tuple = ()
    y: dict[tuple[int, int], cp_model.IntVar] | None = None
    rows: cp_model.LinearExprT = 0  # the row points the model maximises
    # with a draw: the cells the first called tile may not go on (`first_cell_break`)
    not_first: tuple[str, ...] = ()

    def narrowed(self, stud_pattern: dict[str, str | None] | None = None,
                 fixed_classes: dict[str, int] | None = None, rows_cap: int | None = None,
                 at_least: int | None = None, break_symmetry: bool = True) -> CaseModel:
        """This case on a copy of its model, with the studs of `stud_pattern` and the
        classes of `fixed_classes` fixed, the row points bounded by `rows_cap` and
        boards scoring at least `at_least` asked for: a case is built once and
        narrowed for each solve. With a draw and nothing fixed on cells, the first
        called tile goes on the first cell of its orbit (`first_cell_break`) unless
        `break_symmetry` is False."""
        fixes = [(var, 0) for var in stud_misfits(self.x, self.classes, stud_pattern)] \
            if stud_pattern is not None else []
        fixes += [(self.x[c, k], 1) for c, k in (fixed_classes or {}).items()]
        if stud_pattern is None and not fixed_classes and break_symmetry:
            # nothing fixed on cells: a board's symmetric image is a game too
            fixes += [(self.a[0, c], 0) for c in self.not_first]
        m = cpsat.fixed_copy(self.model, fixes)
        if rows_cap is not None:
            m.add(self.rows <= rows_cap)
        if at_least is not None:
            m.add(self.rows >= at_least)
        return replace(self, model=m)

    def classes_of(self, solver: cp_model.CpSolver) -> dict[str, int]:
        return {cell: k for (cell, k), var in self.x.items() if solver.value(var)}

    def game(self, solver: cp_model.CpSolver) -> list[Placement]:
        """The solution as placements in call order, each with the ships it launches
        (bottom of the pad first). The cells of a row launching a stud ship get the
        tiles of their class with that stud, the other cells the class's other tiles."""
        if self.a is not None:
            return self._draw_game(solver)
        class_of = self.classes_of(solver)
        left = {k: list(cls.tiles) for k, cls in enumerate(self.classes)}
        tile_of = {}
        for (li, s), var in self.z.items():
            if solver.value(var) and any(t.stud == s for cls in self.classes
                                         for t in cls.tiles):
                for cell in self.lines[li][1]:
                    k = class_of[cell]
                    tile = next(t for t in left[k] if t.stud == s)
                    left[k].remove(tile)
                    tile_of[cell] = tile.id
        for cell in sorted(class_of):
            if cell not in tile_of:
                tile_of[cell] = left[class_of[cell]].pop(0).id
        lands = self._lands(solver)
        # no ship to launch: any order of the board is a game
        order = sorted(self.p, key=lambda c: solver.value(self.p[c])) if self.p else sorted(
            class_of)
        return [Placement(tile_of[c], c, tuple(lands.get(c, ()))) for c in order]

    def _lands(self, solver: cp_model.CpSolver) -> dict[str, list[str]]:
        lands: dict[str, list[str]] = {}
        for s in self.ships:
            cell = next(c for c in self.p if solver.value(self.w[c, s]))
            lands.setdefault(cell, []).append(s)
        return lands

    def _draw_game(self, solver: cp_model.CpSolver) -> list[Placement]:
        lands = self._lands(solver) if self.w else {}
        out = []
        for i, tile in enumerate(self.draw):
            cell = next(c for (j, c), var in self.a.items() if j == i and solver.value(var))
            out.append(Placement(tile.id, cell, tuple(lands.get(cell, ()))))
        return out


def build_case(problem: MaxProblem, ships: list[str], rules_kind: str,
               order: bool = True) -> CaseModel:
    """Case "ships (the lowest j of the pad) are all launched": maximise the row points
    (with bonus rows if the variant scores them). `order=False` leaves the launch times
    out (a relaxation: every ship only needs a row of its own). `CaseModel.narrowed`
    adds what one solve of the case fixes and bounds."""
    rules = problem.rules
    # without the gold/silver scoring, classes ignore studs (Gold J and Silver J are one
    # class) and a stud ship's row is checked by counting: its tiles of each class are
    # at most the class's tiles with that stud (the other copies go elsewhere)
    studded = replace(problem, variant=replace(problem.variant, gold_silver=True))
    scoring = studded if problem.variant.gold_silver else problem
    classes = scoring.classes()
    m = cp_model.CpModel()
    # the variables are made in a fixed order: the solver's search depends on it
    x, a = _case_board(m, problem, classes, order)
    y, options, rows = _case_rows(m, scoring, classes, x)
    z = _ship_rows(m, problem, classes, x, y, options, ships, a)
    p: dict[str, cp_model.IntVar] = {}
    w: dict[tuple[str, str], cp_model.IntVar] = {}
    if order and ships:
        p, w = _launch_times(m, problem, ships, rules_kind, z, a)
    if problem.draw:
        # a draw fixes the tile counts: the pair cuts (as in maximum._solve_one)
        add_pair_cuts(scoring, classes, m, y, options)
    m.maximize(rows)
    not_first = first_cell_break(rules) if a is not None and not problem.fixed else ()
    return CaseModel(m, classes, x, p, w, z, list(ships), list(rules.lines), a,
                     problem.draw, y, rows, not_first)


def first_cell_break(rules: Rules) -> tuple[str, ...]:
    """The cells the first called tile need not be tried on: every cell but the first
    (in the rules' order) of its orbit under the board's symmetries. A symmetry maps a
    game of a draw onto a game of the same draw and score (the tiles keep their call
    times), so some best game puts the first tile on the first cell of its orbit."""
    order = {c: i for i, c in enumerate(rules.cell_ids)}
    symmetries = board_symmetries(rules)
    out = []
    for c in rules.cell_ids:
        if any(order[g[c]] < order[c] for g in symmetries):
            out.append(c)
    return tuple(out)


def _case_board(m: cp_model.CpModel, problem: MaxProblem, classes: list[TileClass],
                order: bool) -> tuple[dict[tuple[str, int], cp_model.IntVar],
                                      dict[tuple[int, str], cp_model.IntVar] | None]:
    """x[cell, class] within the classes' tiles; with a draw and `order`, a[time, cell]
    places the tile called at each time (None otherwise)."""
    cells = list(problem.rules.cell_ids)
    x = {(c, k): m.new_bool_var(f"x[{c},{k}]") for c in cells for k in range(len(classes))}
    for c in cells:
        m.add_exactly_one(x[c, k] for k in range(len(classes)))
    for k, cls in enumerate(classes):
        m.add(sum(x[c, k] for c in cells) <= len(cls.tiles))
    draw = problem.draw
    a = None
    if draw and order:
        # the call order is given: which cell each called tile goes on
        n = len(cells)
        a = {(i, c): m.new_bool_var(f"a[{i},{c}]") for i in range(n) for c in cells}
        for i in range(n):
            m.add_exactly_one(a[i, c] for c in cells)
        for c in cells:
            m.add_exactly_one(a[i, c] for i in range(n))
        index = {id(t): k for k, cls in enumerate(classes) for t in cls.tiles}
        for c in cells:
            for k in range(len(classes)):
                m.add(x[c, k] == sum(a[i, c] for i in range(n)
                                     if index[id(draw[i])] == k))
    return x, a


def _case_rows(m: cp_model.CpModel, scoring: MaxProblem, classes: list[TileClass],
               x: dict[tuple[str, int], cp_model.IntVar]
               ) -> tuple[dict[tuple[int, int], cp_model.IntVar], dict[int, list[LineOption]],
                          cp_model.LinearExpr]:
    """y[line, option]: the line scores as that (colour, stud or None) option, the
    studs only when `scoring` scores them; the options of each line and the row
    points."""
    rules = scoring.rules
    scoring_studs = scoring.variant.gold_silver
    studs: list[str | None] = [None, *sorted(rules.stud_bonus)] if scoring_studs else [None]
    y: dict[tuple[int, int], cp_model.IntVar] = {}
    options: dict[int, list[LineOption]] = {}
    objective = []
    for li, (d, line) in enumerate(rules.lines):
        colours = [k for k in rules.directions[d].colours
                   if any(cls.stripes[d] == k for cls in classes)]
        opts = [LineOption(k, g, rules.colour_values[k] + (rules.stud_bonus[g] if g else 0))
                for k in colours for g in studs]
        options[li] = opts
        for oi, o in enumerate(opts):
            var = m.new_bool_var(f"y[{li},{o.colour},{o.stud}]")
            y[li, oi] = var
            for c in line:
                m.add(sum(x[c, k] for k, cls in enumerate(classes)
                          if cls.stripes[d] == o.colour
                          and (o.stud is None or cls.stud == o.stud)) >= var)
            objective.append(len(line) * o.weight * var)
        m.add_at_most_one(y[li, oi] for oi in range(len(opts)))
    capacity_cuts(scoring, classes, m, y, options)
    return y, options, sum(objective)


def _ship_rows(m: cp_model.CpModel, problem: MaxProblem, classes: list[TileClass],
               x: dict[tuple[str, int], cp_model.IntVar],
               y: dict[tuple[int, int], cp_model.IntVar],
               options: dict[int, list[LineOption]], ships: list[str],
               a: dict[tuple[int, str], cp_model.IntVar] | None
               ) -> dict[tuple[int, str], cp_model.IntVar]:
    """z[line, ship]: each ship its own row that allows it, one ship per row; stud
    ships' rows by counting when the studs do not score."""
    rules = problem.rules
    scoring_studs = problem.variant.gold_silver
    stud_ships = [s for s in ships if s in rules.stud_bonus]
    z: dict[tuple[int, str], cp_model.IntVar] = {}
    for s in ships:
        for li, opts in options.items():
            if s in stud_ships and not scoring_studs:
                support = [y[li, oi] for oi in range(len(opts))]  # any scoring row
            else:
                support = [y[li, oi] for oi, o in enumerate(opts)
                           if o.colour == s or o.stud == s]
            if support:
                var = m.new_bool_var(f"z[{li},{s}]")
                m.add(sum(support) >= var)
                z[li, s] = var
        m.add_exactly_one(z[li, t] for (li, t) in z if t == s)
    for li in options:
        m.add_at_most_one(z[li, s] for s in ships if (li, s) in z)
    if stud_ships and not scoring_studs:
        _stud_rows_by_counting(m, rules, classes, x, z, stud_ships)
        if a is not None:  # the called tiles' own studs
            for (li, s), var in z.items():
                if s in stud_ships:
                    for c in rules.lines[li][1]:
                        m.add(sum(a[i, c] for i, t in enumerate(problem.draw)
                                  if t.stud == s) >= var)
    return z


def _launch_times(m: cp_model.CpModel, problem: MaxProblem, ships: list[str], rules_kind: str,
                  z: dict[tuple[int, str], cp_model.IntVar],
                  a: dict[tuple[int, str], cp_model.IntVar] | None
                  ) -> tuple[dict[str, cp_model.IntVar], dict[tuple[str, str], cp_model.IntVar]]:
    """p[cell]: when the cell is filled (from a with a draw), and w[cell, ship]: the
    ship lands on the cell, the last of its row filled; the pad's rules on the
    landing times T."""
    rules = problem.rules
    cells = list(rules.cell_ids)
    n = len(cells)
    p = {c: m.new_int_var(0, n - 1, f"p[{c}]") for c in cells}
    if a is None:
        m.add_all_different(p.values())
    else:
        for c in cells:
            m.add(p[c] == sum(i * a[i, c] for i in range(n)))
    T = {s: m.new_int_var(0, n - 1, f"T[{s}]") for s in ships}
    w: dict[tuple[str, str], cp_model.IntVar] = {}
    for s in ships:
        for c in cells:
            on_row = [z[li, s] for li in (rules.line_of[c, d]
                                          for d in range(len(rules.directions)))
                      if (li, s) in z]
            w[c, s] = m.new_bool_var(f"w[{c},{s}]")
            m.add(sum(on_row) >= w[c, s]) if on_row else m.add(w[c, s] == 0)
            m.add(T[s] == p[c]).only_enforce_if(w[c, s])
        m.add_exactly_one(w[c, s] for c in cells)
        for (li, t), var in z.items():
            if t == s:
                for c in rules.lines[li][1]:
                    m.add(p[c] <= T[s]).only_enforce_if(var)
    if a is not None:
        _call_order_cuts(m, problem, ships, z, a, T, w)
    if rules_kind == "simple":
        for low, high in zip(ships, ships[1:], strict=False):
            m.add(T[low] <= T[high])
    else:
        m.add_all_different(T.values())
        for (li, s), var in z.items():
            for c in rules.lines[li][1]:
                for t in ships:
                    if t != s:
                        m.add_bool_or([~var, ~w[c, t]])
    return p, w


def _fits(rules: Rules, ship: str, tile: Tile) -> bool:
    """Can the tile launch the ship, on a row of the ship's colour (or stud)?"""
    if ship in rules.stud_bonus:
        return tile.stud == ship
    return any(tile.stripes[d] == ship for d, dd in enumerate(rules.directions)
               if ship in dd.colours)


def _call_order_cuts(m: cp_model.CpModel, problem: MaxProblem, ships: list[str],
                     z: dict[tuple[int, str], cp_model.IntVar],
                     a: dict[tuple[int, str], cp_model.IntVar],
                     T: dict[str, cp_model.IntVar],
                     w: dict[tuple[str, str], cp_model.IntVar]) -> None:
    """Redundant, with a draw: what the call order says about the launch times, as
    literals the search and the LP see (the model above states it through p and T
    only): u[ship, t], the ship launches on the tile called at t, only where that tile
    can launch it (its stripe, or its stud, fits the ship); by[ship, t] = "launched
    by t" and f[cell, t] = "filled by t": a cell of the ship's row is filled by every t
    the ship has launched by; the row is at most as long as the fitting tiles called by
    its launch."""
    rules = problem.rules
    draw = problem.draw
    n = len(draw)
    cells = list(rules.cell_ids)
    ndir = len(rules.directions)

    f: dict[tuple[str, int], cp_model.IntVar] = {}
    for c in cells:
        for t in range(n):
            f[c, t] = m.new_bool_var(f"f[{c},{t}]")
            m.add(f[c, t] == (f[c, t - 1] if t else 0) + a[t, c])
    for s in ships:
        times = [t for t in range(n) if _fits(rules, s, draw[t])]
        u = {t: m.new_bool_var(f"u[{s},{t}]") for t in times}
        m.add_exactly_one(u.values())
        m.add(T[s] == sum(t * u[t] for t in times))
        for c in cells:
            for t in times:
                m.add_bool_or([~u[t], ~w[c, s], a[t, c]])
            for t in range(n):
                if t not in u:
                    m.add_bool_or([~w[c, s], ~a[t, c]])
        by = {}
        for t in range(n):
            by[t] = m.new_bool_var(f"by[{s},{t}]")
            m.add(by[t] == sum(u[i] for i in times if i <= t))
        for c in cells:
            on_row = [z[li, s] for li in (rules.line_of[c, d] for d in range(ndir))
                      if (li, s) in z]
            if on_row:
                for t in range(n):
                    m.add(f[c, t] >= sum(on_row) + by[t] - 1)
        have = [sum(1 for i in times if i <= t) for t in range(n)]
        m.add(sum(len(rules.lines[li][1]) * var for (li, t), var in z.items() if t == s)
              <= sum(have[t] * u[t] for t in times))


def _stud_rows_by_counting(m: cp_model.CpModel, rules: Rules, classes: list[TileClass],
                           x: dict, z: dict, stud_ships: list[str]) -> None:
    """A row launching a stud ship is all of that stud: its tiles of each class are at
    most the class's tiles with the stud; rows of two different stud ships share no
    cell (it cannot carry both studs). Exact: the class's other tiles can take the
    other studs wherever they lie."""
    for (li, s), var in z.items():
        if s not in stud_ships:
            continue
        line = rules.lines[li][1]
        for k, cls in enumerate(classes):
            have = sum(1 for t in cls.tiles if t.stud == s)
            if have < len(line):
                m.add(sum(x[c, k] for c in line) <= have).only_enforce_if(var)
    for (li, s), var in z.items():
        for (lj, t), other in z.items():
            if s in stud_ships and t in stud_ships and s < t and li != lj and set(
                    rules.lines[li][1]) & set(rules.lines[lj][1]):
                m.add_bool_or([~var, ~other])


@dataclass
class CaseResult:
    """One case of the decomposition: the lowest `ships` of the pad launched (the ring
    on `button`), how it ended ("optimal": its best game found and proven; "cut by
    bound": its bound cannot beat the best game; "no better game": proven unable to
    beat it; "unknown": time ran out), its row points and bound, and the stud patterns
    tried (gold/silver scoring)."""

    ships: int
    button: int
    status: str
    rows: int | None
    rows_bound: int
    patterns: int
    seconds: float


class _Search:
    """The state of the search over cases: the best game, its value, the time left."""

    def __init__(self, problem: MaxProblem, remaining: Callable[[], SolverOptions],
                 game: list[Placement] | None, value: int) -> None:
        self.problem = problem
        self.remaining = remaining
        self.kind = problem.variant.ships or "simple"
        self.best_game, self.best = game, value
        self.log: list[tuple] = []  # (step, status, rows, seconds) of every solve
        self.cases: dict[tuple[tuple[str, ...], bool], CaseModel] = {}  # built once

    def _case(self, ships: list[str], order: bool) -> CaseModel:
        """Case `ships` (with the launch times or without), built when first needed."""
        key = (tuple(ships), order)
        if key not in self.cases:
            self.cases[key] = build_case(self.problem, ships, self.kind, order=order)
        return self.cases[key]

    def board_case(self, ships: list[str], button: int, rows_cap: int,
                   pattern: dict[str, str | None] | None = None) -> tuple[str, int | None]:
        """Solve case `ships` (with the studs of `pattern` fixed) for a game better than
        the best: the relaxation first (rows and a row per ship); its board's launches
        ordered if they can be, else the whole model with the launch times. Returns
        (status, rows of the case's best board or None)."""
        need = self.best - button + 1
        relax = self._case(ships, False).narrowed(pattern, rows_cap=rows_cap, at_least=need)
        # the LP workers for an open tile choice; a draw or fixed studs favour the
        # default portfolio (as in maximum._solve_one)
        subsolvers = SUBSOLVERS if pattern is None and not self.problem.draw else ()
        solver, out = cpsat.solve(relax.model, self.remaining(), subsolvers=subsolvers)
        self.log.append(("relax", out.status, out.objective, round(out.wall_time, 2)))
        if out.status == "infeasible":
            return "no better game", None
        if out.status != "optimal":
            return "unknown", out.bound
        ordered = self._case(ships, True).narrowed(pattern, relax.classes_of(solver))
        solver2, out2 = cpsat.solve(ordered.model, self.remaining())
        self.log.append(("order", out2.status, out2.objective, round(out2.wall_time, 2)))
        if out2.status != "optimal" or out2.objective < out.objective:
            # that board cannot launch them all in order: the whole case with times, one
            # optimisation below the relaxation's value (decisions "rows == v" from
            # that value down first cost more: the notes)
            v = out.objective
            ordered = self._case(ships, True).narrowed(pattern, rows_cap=v, at_least=need)
            solver2, out2 = cpsat.solve(ordered.model, self.remaining(),
                                        subsolvers=subsolvers)
            self.log.append(("whole<=", v, out2.status, round(out2.wall_time, 2)))
            if out2.status == "infeasible":
                return "no better game", None
            if out2.status != "optimal":
                if out2.has_solution:
                    self._take(ordered.game(solver2), out2.objective + button)
                return "unknown", v if out2.bound is None else min(v, out2.bound)
        self._take(ordered.game(solver2), out2.objective + button)
        return "optimal", out2.objective

    def _take(self, game: list[Placement], value: int) -> None:
        if value > self.best:
            self.best_game, self.best = game, value


def maximise_by_cases(problem: MaxProblem, rows_max: int, colour_max: int | None,
                        start_game: list[Placement] | None, start_value: int,
                        remaining: Callable[[], SolverOptions],
                        patterns: StudPatterns | None = None
                        ) -> tuple[list[Placement] | None, SolveOutcome, list[CaseResult]]:
    """The best game over the cases, from the top button down (module docstring).
    `rows_max`: the proven maximum of the row points alone (with bonus rows under the
    gold/silver scoring); `colour_max`: with the gold/silver scoring, the proven
    maximum without the bonus (the C of the stud-pattern decomposition), else None;
    `start_game`: a legal game worth `start_value` to beat; `patterns`: the stud
    patterns (`StudPatterns`) already listed for the row maximum, if any. Returns the
    best game and the outcome: optimal when every case was solved or cut by its bound."""
    rules = problem.rules
    ships, buttons = list(rules.spaceships), list(rules.buttons)
    search = _Search(problem, remaining, start_game, start_value)
    t0 = time.perf_counter()
    cases: list[CaseResult] = []
    open_bound = None  # the highest bound of a case left unsolved
    # the stud patterns are the same list in every case: listed once, walked by each
    if colour_max is None:
        patterns = None
    elif patterns is None:
        patterns = StudPatterns(problem, "cpsat", board_symmetries(rules))
    for j in range(len(ships), -1, -1):
        button = buttons[j - 1] if j else 0
        t = time.perf_counter()
        if rows_max + button <= search.best:
            cases.append(CaseResult(j, button, "cut by bound", None, rows_max, 0, 0.0))
            continue
        status, rows, tried = "no better game", None, 0
        if patterns is None:
            status, rows = search.board_case(ships[:j], button, rows_max)
        else:
            for i in itertools.count():
                if tried == PREFETCH_AFTER:  # a long walk: the rest it may need at once
                    patterns.prefetch(search.best - colour_max - button + 1, remaining())
                pattern, master = patterns.nth(i, remaining())
                if master.status == "infeasible":
                    break
                if pattern is None:
                    status, rows = "unknown", None
                    break
                if colour_max + master.objective + button <= search.best:
                    break
                tried += 1
                got, value = search.board_case(ships[:j], button, rows_max, pattern)
                if got == "unknown":
                    status, rows = "unknown", None
                    break
                if got == "optimal":
                    status, rows = "optimal", max(rows or 0, value)
        if status == "optimal" and search.best > (rows or 0) + button:
            status = "no better game"  # its best board did not beat an earlier case
        if status == "unknown":
            open_bound = max(open_bound or 0, rows_max + button)
        cases.append(CaseResult(j, button, status, rows, rows_max, tried,
                                round(time.perf_counter() - t, 3)))
    wall = time.perf_counter() - t0
    proven = open_bound is None
    return search.best_game, SolveOutcome(
        "optimal" if proven else "feasible", search.best,
        search.best if proven else max(open_bound, search.best), wall, "cpsat"), cases
