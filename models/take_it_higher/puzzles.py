"""Take it Higher! puzzles: a partly filled board and the tiles still to come; place them
to reach the stated score, which is the maximum and reached by exactly one placement.

A puzzle is made from a seeded game: the hindsight-optimal board of a random draw, with
some tiles taken off again (the ones "still to come", in call order). The solver then
finds the best completion; a second search, with the score held at that maximum and
the first placement blocked, must fail for the puzzle to be kept (solver/generate.py).
The basic scoring is used; tiles still to come have distinct letters, so "one
placement" is meant tile by tile (a gold and a silver tile of one letter would be
interchangeable in the basic game). The solvers are imported where they are used, so
listing the commands does not load them.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from models.take_it_higher.encode import BACKENDS, MaxProblem
from models.take_it_higher.positions import Placement, format_placement, parse_placement
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import Rules, Tile, board_symmetries
from models.take_it_higher.state import game_draw
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions
from solver.errors import BadInput, TimeLimitReached
from solver.generate import Rating, Search, as_features
from solver.io import expect
from solver.io import field as json_field
from solver.store import canonical_json

BASIC = Variant()
# tiles still to come per difficulty (the rating decides; these are where proposals start)
EMPTY_CELLS = {"easy": (4, 7), "medium": (8, 12), "hard": (13, 16)}
# difficulty = empty cells + 2 x plausible cells for the first tile + branches / 2000
# (thresholds set from the features of 30 proposals, docs/puzzles.md)
RATING = Rating({"empty_cells": 1.0, "plausible_first_cells": 2.0, "kilo_branches": 0.5},
                medium=10.0, hard=17.0)


@dataclass(frozen=True)
class Puzzle:
    """The fixed tiles (cell -> tile) and the tiles to place, in call order."""

    fixed: tuple[tuple[str, Tile], ...]
    to_come: tuple[Tile, ...]

    def problem(self, rules: Rules) -> MaxProblem:
        return MaxProblem(rules, BASIC, self.to_come, self.fixed)


Solution = tuple[tuple[str, str], ...]  # (tile id, cell) in call order


class TakeItHigherPuzzles:
    """The PuzzleKind of Take it Higher! for solver.generate."""

    rating = RATING

    def __init__(self, rules: Rules, backend: str = "cpsat", time_limit: float = 20.0) -> None:
        if backend not in ("cpsat", "maxsat"):
            raise BadInput(f"unknown backend '{backend}' (cpsat, maxsat)")
        self.rules = rules
        self.backend = backend
        self.time_limit = time_limit

    def options(self) -> SolverOptions:
        # one worker: solution, effort and rating do not depend on the machine's load
        return SolverOptions(time_limit=self.time_limit, workers=1)

    def propose(self, rng: random.Random, difficulty: str) -> Puzzle:
        """The optimal board of a random draw, with tiles of distinct letters taken off."""
        from models.take_it_higher.maximum import solve_completion

        draw = game_draw(self.rules, rng.randrange(2 ** 31))
        board, outcome = solve_completion(MaxProblem(self.rules, BASIC, tuple(draw)),
                                          self.options())
        if board is None:
            raise TimeLimitReached("no board found for a proposed draw in the time limit")
        lo, hi = EMPTY_CELLS[difficulty]
        k = rng.randint(lo, hi)
        by_letter: dict[str, list[str]] = {}
        for cell, tile in board.items():
            by_letter.setdefault(tile.letter, []).append(cell)
        letters = rng.sample(sorted(by_letter), min(k, len(by_letter)))
        cells = [rng.choice(by_letter[letter]) for letter in letters]
        to_come = tuple(board[c] for c in cells)  # call order: random, from rng.sample
        fixed = tuple((c, board[c]) for c in self.rules.cell_ids
                      if c in board and c not in cells)
        return Puzzle(fixed, to_come)

    def search(self, puzzle: Puzzle, limit: int) -> Search[Solution]:
        """The best completion, then (limit >= 2) another one as good with it blocked."""
        start = time.perf_counter()
        problem = puzzle.problem(self.rules)
        work = 0
        if self.backend == "maxsat":
            found, complete = self._search_maxsat(problem, limit)
        else:
            found, complete, work = self._search_cpsat(problem, limit)
        twin = self._twins(puzzle, found[0]) if len(found) == 1 and limit >= 2 else None
        if twin is not None:  # the models count such swaps once; the players do not
            found, complete = [*found, twin], False
        return Search(found, complete, round(time.perf_counter() - start, 3), work)

    def _twins(self, puzzle: Puzzle, solution: Solution) -> Solution | None:
        """Two tiles to come that score alike (a gold and a silver tile of one letter in
        the basic game) swap places for a second solution as good as the first."""
        key = {t.id: t.stripes for t in puzzle.to_come}
        for i, (a, cell_a) in enumerate(solution):
            for j, (b, cell_b) in enumerate(solution[i + 1:], i + 1):
                if key[a] == key[b]:
                    swapped = list(solution)
                    swapped[i], swapped[j] = (a, cell_b), (b, cell_a)
                    return tuple(swapped)
        return None

    def _search_cpsat(self, problem: MaxProblem, limit: int
                      ) -> tuple[list[Solution], bool, int]:
        """Solutions, completeness, and the branches of the first solve (its work)."""
        from models.take_it_higher import encode_cpsat
        from solver.backends import cpsat

        board_model = encode_cpsat.build(problem, pair_cuts=True)
        solver, outcome = cpsat.solve(board_model.model, self.options())
        work = solver.num_branches
        if outcome.status == "infeasible":
            return [], True, work
        if outcome.status != "optimal":
            return ([self._solution(problem, board_model.board(solver, problem))]
                    if outcome.has_solution else []), False, work
        best = outcome.objective
        found = [self._solution(problem, board_model.board(solver, problem))]
        if limit < 2:
            return found, True, work
        # a second board as good as the best one: the same model, score held at the
        # maximum, the first placement excluded
        second_model = encode_cpsat.build(problem, pair_cuts=True, at_least=best)
        second_model.model.clear_objective()
        chosen = [second_model.x[key] for key, var in board_model.x.items() if solver.value(var)]
        second_model.model.add(sum(chosen) <= len(chosen) - 1)
        second_solver, second = cpsat.solve(second_model.model, self.options())
        if second.has_solution:
            found.append(self._solution(problem, second_model.board(second_solver, problem)))
            return found, False, work
        return found, second.status == "infeasible", work

    def _search_maxsat(self, problem: MaxProblem, limit: int) -> tuple[list[Solution], bool]:
        from models.take_it_higher import encode_maxsat
        from solver.backends.sat import maxsat

        sat_model = encode_maxsat.build(problem)
        lits, outcome = maxsat(sat_model.cnf, self.options())
        if outcome.status == "infeasible":
            return [], True
        if lits is None:
            return [], False
        best = outcome.objective
        found = [self._solution(problem, sat_model.board(lits, problem))]
        if limit < 2:
            return found, True
        free = [c for c in self.rules.cell_ids if c not in dict(problem.fixed)]
        chosen = [sat_model.cnf.var(("x", c, k)) for c in free for k in range(len(sat_model.classes))
                  if sat_model.cnf.var(("x", c, k)) in lits]
        sat_model.cnf.clause([-v for v in chosen])
        second_lits, second = maxsat(sat_model.cnf, self.options())
        if second.status == "optimal" and second.objective == best:
            found.append(self._solution(problem, sat_model.board(second_lits, problem)))
            return found, False
        return found, second.status in ("optimal", "infeasible")

    def _solution(self, problem: MaxProblem, board: dict[str, Tile]) -> Solution:
        cell_of = {t.id: c for c, t in board.items()}
        return tuple((t.id, cell_of[t.id]) for t in problem.draw)

    def features(self, puzzle: Puzzle, solution: Solution, search: Search[Solution]
                 ) -> dict[str, float]:
        """Empty cells; cells where the first tile still allows a score within 5% of the
        best (how many ways a solver is tempted); solver branches."""
        from models.take_it_higher.maximum import solve_completion

        problem = puzzle.problem(self.rules)
        best = self.score(puzzle, solution)
        first = puzzle.to_come[0]
        fixed = dict(puzzle.fixed)
        plausible = 0
        for cell in self.rules.cell_ids:
            if cell in fixed:
                continue
            trial = MaxProblem(self.rules, BASIC, puzzle.to_come[1:],
                               (*problem.fixed, (cell, first)))
            board, outcome = solve_completion(trial, self.options())
            if board is not None and (outcome.bound if outcome.bound is not None
                                      else outcome.objective) >= 0.95 * best:
                plausible += 1
        return as_features(empty_cells=len(puzzle.to_come), plausible_first_cells=plausible,
                           kilo_branches=self._branches(puzzle, search) / 1000)

    def _branches(self, puzzle: Puzzle, search: Search[Solution]) -> int:
        """CP-SAT branches of the first solve; measured with CP-SAT whatever the back-end,
        so the rating is the same with either."""
        if self.backend == "cpsat":
            return int(search.work)
        return self._search_cpsat(puzzle.problem(self.rules), 1)[2]

    def score(self, puzzle: Puzzle, solution: Solution) -> int:
        """The basic score of the board the solution completes."""
        board = dict(puzzle.fixed)
        tiles = {t.id: t for t in puzzle.to_come}
        for tid, cell in solution:
            board[cell] = tiles[tid]
        return board_score(self.rules, board, False)


# --------------------------------------------------------------------------- files

def puzzle_to_dict(rules: Rules, puzzle: Puzzle, solution: Solution | None = None,
                   rating: dict[str, Any] | None = None, kind: TakeItHigherPuzzles | None = None
                   ) -> dict[str, Any]:
    """The puzzle file: board (fixed tiles), tiles to come in call order, the score to
    reach, and optionally the solution and the rating."""
    data: dict[str, Any] = {
        "game": "take-it-higher",
        "variant": "basic",
        "board": [format_placement(Placement(t.id, c)) for c, t in puzzle.fixed],
        "to_come": [t.id for t in puzzle.to_come],
    }
    if solution is not None:
        data["score"] = (kind or TakeItHigherPuzzles(rules)).score(puzzle, solution)
        data["solution"] = [f"{tid}@{cell}" for tid, cell in solution]
    if rating is not None:
        data["rating"] = rating
    return data


def puzzle_from_dict(rules: Rules, data: Any, where: str) -> tuple[Puzzle, dict[str, Any]]:
    """A puzzle and the rest of its file (score, solution, rating when present)."""
    expect(data, dict, where)
    if data.get("game", "take-it-higher") != "take-it-higher":
        raise BadInput(f"{where}: a puzzle of '{data.get('game')}', not of take-it-higher")
    if data.get("variant", "basic") != "basic":
        raise BadInput(f"{where}: puzzles use the basic scoring (variant 'basic')")
    fixed = []
    for i, item in enumerate(json_field(data, "board", list, where)):
        p = parse_placement(rules, item, f"{where}: board[{i}]")
        if p.launch:
            raise BadInput(f"{where}: board[{i}]: no spaceships in puzzles")
        fixed.append((p.cell, rules.tile_by_id[p.tile]))
    to_come = tuple(rules.parse_tile(expect(t, str, f"{where}: to_come[{i}]"),
                                     f"{where}: to_come[{i}]")
                    for i, t in enumerate(json_field(data, "to_come", list, where)))
    cells = [c for c, _ in fixed]
    if len(set(cells)) != len(cells):
        twice = next(c for c in cells if cells.count(c) > 1)
        raise BadInput(f"{where}: cell {twice} holds two tiles")
    if len(fixed) + len(to_come) != rules.board_size:
        raise BadInput(f"{where}: {len(fixed)} tiles on the board and {len(to_come)} to come "
                       f"do not fill the {rules.board_size} cells")
    puzzle = Puzzle(tuple(sorted(fixed, key=lambda ct: rules.cell_ids.index(ct[0]))), to_come)
    puzzle.problem(rules)  # checks tiles used twice
    extra = {k: data[k] for k in ("score", "solution", "rating") if k in data}
    return puzzle, extra


def parse_solution(rules: Rules, puzzle: Puzzle, items: Any, where: str) -> Solution:
    """A solution list `["GJ@c3", ...]` checked against the puzzle's tiles and cells."""
    expect(items, list, where)
    placed = [parse_placement(rules, item, f"{where}[{i}]") for i, item in enumerate(items)]
    wanted = {t.id for t in puzzle.to_come}
    if {p.tile for p in placed} != wanted or len(placed) != len(wanted):
        raise BadInput(f"{where}: must place exactly the tiles to come")
    free = set(rules.cell_ids) - {c for c, _ in puzzle.fixed}
    if {p.cell for p in placed} != free or len(placed) != len(free):
        raise BadInput(f"{where}: must fill exactly the empty cells")
    order = {t.id: i for i, t in enumerate(puzzle.to_come)}
    return tuple((p.tile, p.cell) for p in sorted(placed, key=lambda p: order[p.tile]))


# --------------------------------------------------------------------------- commands

def _make_kind(rules_path: str | None, backend: str, time_limit: float) -> TakeItHigherPuzzles:
    from models.take_it_higher.rules import load_rules

    return TakeItHigherPuzzles(load_rules(rules_path), backend, time_limit)


def read_puzzle(kind: TakeItHigherPuzzles, data: Any, where: str
                ) -> tuple[Puzzle, Solution | None]:
    """A puzzle file's puzzle and its stated solution (None without one); BadInput when
    the stated score is not the solution's."""
    puzzle, extra = puzzle_from_dict(kind.rules, data, where)
    solution = None
    if "solution" in extra:
        solution = parse_solution(kind.rules, puzzle, extra["solution"], f"{where}: solution")
        if "score" in extra and extra["score"] != kind.score(puzzle, solution):
            raise BadInput(f"{where}: the stated solution scores "
                           f"{kind.score(puzzle, solution)}, not {extra['score']}")
    return puzzle, solution


def _write(kind: TakeItHigherPuzzles, puzzle: Puzzle, solution: Solution | None,
           rating: dict[str, Any] | None) -> dict[str, Any]:
    return puzzle_to_dict(kind.rules, puzzle, solution, rating, kind)


def _solution_text(kind: TakeItHigherPuzzles, puzzle: Puzzle, solution: Solution) -> str:
    return (", ".join(f"{tid}@{cell}" for tid, cell in solution)
            + f" ({kind.score(puzzle, solution)} points)")


def _board(puzzle: Puzzle, solution: Solution | None) -> dict[str, Tile]:
    board = dict(puzzle.fixed)
    tiles = {t.id: t for t in puzzle.to_come}
    for tid, cell in solution or ():
        board[cell] = tiles[tid]
    return board


def _picture(kind: TakeItHigherPuzzles, puzzle: Puzzle, solution: Solution,
             reveal: bool) -> Any:
    from models.take_it_higher.render import board_svg
    target = kind.score(puzzle, solution)
    title = (f"{target} points" if reveal else
             f"reach {target}: " + " ".join(t.id for t in puzzle.to_come))
    return board_svg(kind.rules, _board(puzzle, solution if reveal else None), title=title)


def _terminal(kind: TakeItHigherPuzzles, puzzle: Puzzle, solution: Solution,
              reveal: bool) -> Any:
    from rich.console import Group
    from rich.text import Text

    from models.take_it_higher.render import board_text
    lines = [board_text(kind.rules, _board(puzzle, solution if reveal else None))]
    if not reveal:
        lines.append(Text(f"reach {kind.score(puzzle, solution)} points with the tiles to "
                          "come, in call order: " + " ".join(t.id for t in puzzle.to_come)))
    return Group(*lines)


def canonical_puzzle(kind: Any, puzzle: Puzzle) -> str:
    """The puzzle's canonical form for the store's de-duplication: the smallest JSON of
    the puzzle over the board's symmetries (`rules.board_symmetries`: maps that keep
    every line in its direction, so every board scores the same after the map)."""
    maps = [{}, *board_symmetries(kind.rules)]
    return min(canonical_json({"fixed": sorted([m.get(cell, cell), tile.id]
                                               for cell, tile in puzzle.fixed),
                               "to_come": [t.id for t in puzzle.to_come]}) for m in maps)


class PuzzleSteps:
    """A puzzle solved tile by tile on the web page (solver.puzzles.PuzzleSteps): the
    tiles to come in call order, each on an empty cell."""

    open = False  # a step is one tile: never half made

    def __init__(self, kind: TakeItHigherPuzzles, puzzle: Puzzle, solution: Solution) -> None:
        self.kind, self.puzzle = kind, puzzle
        self.target = kind.score(puzzle, solution)
        self.placed: list[tuple[str, str]] = []

    def step(self, step: Any) -> None:
        to_come = self.puzzle.to_come
        if len(self.placed) == len(to_come):
            raise BadInput("every tile is placed already")
        placement = parse_placement(self.kind.rules, step, "placement")
        called = to_come[len(self.placed)].id
        if placement.tile != called:
            raise BadInput(f"{placement.tile} is not the tile called now: {called} is")
        if placement.launch:
            raise BadInput("no spaceships in puzzles")
        held = _board(self.puzzle, tuple(self.placed)).get(placement.cell)
        if held is not None:
            raise BadInput(f"cell {placement.cell} already holds {held.id}")
        self.placed.append((called, placement.cell))

    def picture(self) -> Any:
        from models.take_it_higher.render import board_svg

        left = self.puzzle.to_come[len(self.placed):]
        title = (f"reach {self.target}: " + " ".join(t.id for t in left) if left else
                 f"{self._score()} points (reach {self.target})")
        return board_svg(self.kind.rules, _board(self.puzzle, tuple(self.placed)),
                         title=title)

    def prompt(self) -> str:
        left = self.puzzle.to_come[len(self.placed):]
        if not left:
            return (f"Every tile placed: {self._score()} points, {self.target} to reach. "
                    "Check your answer.")
        n = len(self.placed) + 1
        return f"Place {left[0].id} on an empty cell (tile {n} of {len(self.puzzle.to_come)})."

    def _score(self) -> int:
        return self.kind.score(self.puzzle, tuple(self.placed))


def puzzle_game() -> Any:
    """The shared puzzle commands' description of Take it Higher! puzzles."""
    from solver.puzzles import PuzzleGame
    return PuzzleGame("take-it-higher", BACKENDS, _make_kind, read_puzzle, _write,
                      _solution_text, _picture, _terminal, canonical=canonical_puzzle,
                      knowledge=_knowledge, stepper=PuzzleSteps)


def _knowledge(kind: TakeItHigherPuzzles, puzzle: Puzzle) -> dict[str, Any]:
    """What solving a puzzle knows: the fixed tiles and every tile to come in its call
    order (all-seeing by nature: no player knows the tiles to come)."""
    from models.take_it_higher.game import GAME
    from models.take_it_higher.positions import Placement
    from models.take_it_higher.state import GameState
    from solver.game import knowledge

    to_come = puzzle.to_come
    state = GameState(kind.rules, BASIC, [Placement(t.id, c) for c, t in puzzle.fixed],
                      {c: t for c, t in puzzle.fixed}, {},
                      to_come[0] if to_come else None, tuple(to_come[1:]))
    return {**knowledge(GAME, state), "all_seeing": True}
