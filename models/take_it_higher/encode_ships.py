"""CP-SAT encoding of the maximal score with the Take it Higher! bonus (spaceships).

On top of the row model of encode.py, time matters: a ship lands only on the tile just
placed, when that tile completes a suitable row. Variables:
- a[i, cell]: the i-th placed tile goes on the cell (a permutation of times and cells);
- x[cell, class]: the class on the cell (with a draw: the class of the tile called at
  the cell's time; without a draw the tiles and their order are free);
- y[line, option]: the line is a scoring row of (colour, stud or None); with spaceships
  the stud options exist even without gold/silver scoring, since a bonus row may launch
  the gold/silver ship in every variant;
- comp[line, i]: the i-th tile completes the line (it lies on it and every cell of the
  line is filled by time i);
- use[line, ship, i]: the line, completed at time i, launches the ship (one ship per
  row); launch[ship, i] = sum over lines;
- prefix[j]: the lowest j+1 ships have all launched; the ring bonus telescopes over it.
Simple rules: ships launch in pad order (prefix-closed, non-decreasing times).
Advanced rules: at most one ship per tile, and a row launching a ship carries no ship on
the tiles placed before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from models.take_it_higher.encode import LineOption, MaxProblem, TileClass
from models.take_it_higher.encode_cpsat import capacity_cuts
from models.take_it_higher.positions import Placement
from solver.errors import BadInput


@dataclass
class ShipModel:
    model: cp_model.CpModel
    classes: list[TileClass]
    a: dict[tuple[int, str], cp_model.IntVar]
    x: dict[tuple[str, int], cp_model.IntVar]
    launch: dict[tuple[str, int], cp_model.IntVar]
    score: cp_model.LinearExpr
    options: dict[int, list[LineOption]] = field(default_factory=dict)

    def hint_game(self, game: Sequence[Placement], problem: MaxProblem) -> None:
        """Start the search from a known legal game (same call order as the model)."""
        cell_at = {i: p.cell for i, p in enumerate(game)}
        for (i, c), var in self.a.items():
            self.model.add_hint(var, int(cell_at.get(i) == c))
        for (s, i), var in self.launch.items():
            self.model.add_hint(var, int(i < len(game) and s in game[i].launch))
        if not problem.draw:
            tiles = {p.cell: problem.rules.tile_by_id[p.tile] for p in game}
            for (c, k), var in self.x.items():
                cls = self.classes[k]
                self.model.add_hint(var, int(any(t.id == tiles[c].id for t in cls.tiles)))

    def placements(self, solver: cp_model.CpSolver, problem: MaxProblem) -> list[Placement]:
        """The solution as placements in call order, with their launches."""
        rules = problem.rules
        n = rules.board_size
        used = [0] * len(self.classes)
        out = []
        for i in range(n):
            cell = next(c for c in rules.cell_ids if solver.value(self.a[i, c]))
            if problem.draw:
                tile = problem.draw[i]
            else:
                k = next(k for k in range(len(self.classes)) if solver.value(self.x[cell, k]))
                tile = self.classes[k].tiles[used[k]]
                used[k] += 1
            ships = tuple(s for s in rules.spaceships if solver.value(self.launch[s, i]))
            out.append(Placement(tile.id, cell, ships))
        return out


def build(problem: MaxProblem, colour_cap: int | None = None,
          prefix: Sequence[Placement] = (), points_cap: int | None = None) -> ShipModel:
    """The model; colour_cap bounds the row points without bonus (a proven maximum of
    the same tiles without spaceships), which tightens the bound a lot; points_cap does
    the same for rows plus gold/silver bonus rows. `prefix` fixes
    the first moves (cells and launches) of the draw: a game in progress."""
    rules = problem.rules
    if problem.variant.ships is None:
        raise ValueError("encode_ships is for the spaceship variants")
    if problem.fixed:
        raise BadInput("the spaceship optimum starts from an empty board")
    n = rules.board_size
    if problem.draw and len(problem.draw) != n:
        raise BadInput(f"with spaceships, --draw must call all {n} tiles (the call order "
                       f"decides which rows each tile completes)")
    m = cp_model.CpModel()
    # classes keep studs: a stud decides which ship a bonus row may launch
    classes = _classes(problem)
    # the variables are made in a fixed order: the solver's search depends on it
    a, x = _placements(m, problem, classes)
    y, options, objective = _rows(m, problem, classes, x, colour_cap, points_cap)
    launch, row_launch = _launches(m, problem, a, y, options)
    _fix_prefix(m, problem, a, launch, prefix)
    launched = _pad_rules(m, problem, a, launch, row_launch)
    objective += _ring(m, problem, launched)
    score = sum(objective)
    m.maximize(score)
    return ShipModel(m, classes, a, x, launch, score, options)


def _placements(m: cp_model.CpModel, problem: MaxProblem, classes: list[TileClass]
                ) -> tuple[dict[tuple[int, str], cp_model.IntVar],
                           dict[tuple[str, int], cp_model.IntVar]]:
    """a[time, cell] (a permutation of times and cells) and x[cell, class]: with a draw
    the class of the tile called at the cell's time, else any tiles of the set."""
    cells = problem.rules.cell_ids
    times = range(problem.rules.board_size)
    a = {(i, c): m.new_bool_var(f"a[{i},{c}]") for i in times for c in cells}
    for i in times:
        m.add_exactly_one(a[i, c] for c in cells)
    for c in cells:
        m.add_exactly_one(a[i, c] for i in times)
    x = {(c, k): m.new_bool_var(f"x[{c},{k}]") for c in cells for k in range(len(classes))}
    for c in cells:
        m.add_exactly_one(x[c, k] for k in range(len(classes)))
    if problem.draw:
        index = {id(t): k for k, cls in enumerate(classes) for t in cls.tiles}
        for c in cells:
            for k in range(len(classes)):
                m.add(x[c, k] == sum(a[i, c] for i in times
                                     if index[id(problem.draw[i])] == k))
    else:
        for k, cls in enumerate(classes):
            m.add(sum(x[c, k] for c in cells) <= len(cls.tiles))
    return a, x


def _rows(m: cp_model.CpModel, problem: MaxProblem, classes: list[TileClass],
          x: dict[tuple[str, int], cp_model.IntVar], colour_cap: int | None,
          points_cap: int | None
          ) -> tuple[dict[tuple[int, int], cp_model.IntVar], dict[int, list[LineOption]],
                     list[cp_model.LinearExpr]]:
    """y[line, option]: the line scores as that (colour, stud or None) option; the
    options of each line and the row points (the terms of the objective)."""
    rules = problem.rules
    studs: list[str | None] = [None, *sorted({cls.stud for cls in classes if cls.stud})]
    objective = []
    colour_part = []
    y: dict[tuple[int, int], cp_model.IntVar] = {}
    options: dict[int, list[LineOption]] = {}
    for li, (d, line) in enumerate(rules.lines):
        colours = [k for k in rules.directions[d].colours if any(cls.stripes[d] == k
                                                                  for cls in classes)]
        opts = [LineOption(k, g, rules.colour_values[k]
                           + (rules.stud_bonus[g] if g and problem.variant.gold_silver else 0))
                for k in colours for g in studs]
        options[li] = opts
        for oi, o in enumerate(opts):
            var = m.new_bool_var(f"y[{li},{o.colour},{o.stud}]")
            y[li, oi] = var
            for c in line:
                m.add(sum(x[c, k] for k, cls in enumerate(classes)
                          if cls.stripes[d] == o.colour and (o.stud is None or cls.stud == o.stud))
                      >= var)
            objective.append(len(line) * o.weight * var)
            colour_part.append(len(line) * rules.colour_values[o.colour] * var)
        m.add_at_most_one(y[li, oi] for oi in range(len(opts)))
    capacity_cuts(problem, classes, m, y, options)
    if colour_cap is not None:
        m.add(sum(colour_part) <= colour_cap)
    if points_cap is not None:  # rows and bonus rows, without the ring
        m.add(sum(objective) <= points_cap)
    return y, options, objective


def _launches(m: cp_model.CpModel, problem: MaxProblem,
              a: dict[tuple[int, str], cp_model.IntVar],
              y: dict[tuple[int, int], cp_model.IntVar], options: dict[int, list[LineOption]]
              ) -> tuple[dict[tuple[str, int], cp_model.IntVar],
                         dict[tuple[int, int], list[cp_model.IntVar]]]:
    """The completion of lines and the ships each completed row may launch:
    launch[ship, time], and per (line, time) the row's use[line, ship, time]."""
    rules = problem.rules
    times = range(rules.board_size)
    ships = list(rules.spaceships)
    launch_terms: dict[tuple[str, int], list[cp_model.IntVar]] = {(s, i): [] for s in ships
                                                                   for i in times}
    row_launch: dict[tuple[int, int], list[cp_model.IntVar]] = {}
    for li, (_, line) in enumerate(rules.lines):
        for i in times:
            on_line = sum(a[i, c] for c in line)
            filled = sum(a[j, c] for c in line for j in range(i + 1))
            comp = m.new_bool_var(f"comp[{li},{i}]")
            m.add(on_line >= comp)
            m.add(filled >= len(line) * comp)
            uses = []
            for s in ships:
                support = [y[li, oi] for oi, o in enumerate(options[li])
                           if o.colour == s or (o.stud is not None and o.stud == s)]
                if not support:
                    continue
                u = m.new_bool_var(f"use[{li},{s},{i}]")
                m.add(u <= comp)
                m.add(sum(support) >= u)
                uses.append(u)
                launch_terms[s, i].append(u)
            if uses:
                m.add_at_most_one(uses)  # one completed row launches one ship
                row_launch[li, i] = uses
    launch = {}
    for s in ships:
        for i in times:
            var = m.new_bool_var(f"launch[{s},{i}]")
            m.add(var == sum(launch_terms[s, i]))
            launch[s, i] = var
        m.add_at_most_one(launch[s, i] for i in times)
    return launch, row_launch


def _fix_prefix(m: cp_model.CpModel, problem: MaxProblem,
                a: dict[tuple[int, str], cp_model.IntVar],
                launch: dict[tuple[str, int], cp_model.IntVar],
                prefix: Sequence[Placement]) -> None:
    """The moves of a game in progress: their cells and launches fixed."""
    for i, p in enumerate(prefix):
        if not problem.draw or problem.draw[i].id != p.tile:
            raise BadInput(f"move {i + 1} ({p.tile}) does not match the call order")
        m.add(a[i, p.cell] == 1)
        for s in problem.rules.spaceships:
            m.add(launch[s, i] == int(s in p.launch))


def _pad_rules(m: cp_model.CpModel, problem: MaxProblem,
               a: dict[tuple[int, str], cp_model.IntVar],
               launch: dict[tuple[str, int], cp_model.IntVar],
               row_launch: dict[tuple[int, int], list[cp_model.IntVar]]
               ) -> dict[str, cp_model.IntVar]:
    """launched[ship], and the variant's rules of the pad: simple, ships in pad order;
    advanced, one ship per tile and none on a launching row's earlier tiles."""
    rules = problem.rules
    times = range(rules.board_size)
    ships = list(rules.spaceships)
    launched = {}
    for s in ships:
        launched[s] = m.new_bool_var(f"launched[{s}]")
        m.add(launched[s] == sum(launch[s, i] for i in times))
    if problem.variant.ships == "simple":
        for low, high in zip(ships, ships[1:], strict=False):
            m.add(launched[high] <= launched[low])
            t_low = sum(i * launch[low, i] for i in times)
            t_high = sum(i * launch[high, i] for i in times)
            # launched high => launched low at the same time or before
            m.add(t_high >= t_low).only_enforce_if(launched[high])
    else:
        ship_at = {}
        for i in times:
            ship_at[i] = m.new_bool_var(f"ship_at[{i}]")
            m.add(ship_at[i] == sum(launch[s, i] for s in ships))  # at most one per tile
        for (li, i), uses in row_launch.items():
            line = rules.lines[li][1]
            for j in range(i):
                # the row launching at i has no ship on a tile placed earlier on it
                m.add(sum(uses) + sum(a[j, c] for c in line) + ship_at[j] <= 2)
    return launched


def _ring(m: cp_model.CpModel, problem: MaxProblem, launched: dict[str, cp_model.IntVar]
          ) -> list[cp_model.LinearExpr]:
    """The ring's terms of the objective: prefix[j] = the lowest j+1 ships all
    launched, each worth its button's climb over the one below."""
    ships = list(problem.rules.spaceships)
    terms = []
    previous_button = 0
    previous = None
    for j, (s, button) in enumerate(zip(ships, problem.rules.buttons, strict=True)):
        p = m.new_bool_var(f"prefix[{j}]")
        m.add(launched[s] >= p)
        if previous is None:
            m.add(p >= launched[s])
        else:
            m.add(previous >= p)
            m.add(p >= previous + launched[s] - 1)
        terms.append((button - previous_button) * p)
        previous, previous_button = p, button
    return terms


def _classes(problem: MaxProblem) -> list[TileClass]:
    with_studs = replace(problem, variant=replace(problem.variant, gold_silver=True))
    return with_studs.classes()
