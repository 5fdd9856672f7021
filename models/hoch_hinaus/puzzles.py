"""Hoch Hinaus! puzzles: a stacked board, a hand of tiles and open tasks; find the one
sequence of placements that fulfils every task within K turns (solo play).

Definition (docs/puzzles.md):
- One player places tiles from the hand, one per turn, each tile at most once; a task is
  fulfilled when it holds on the visible board after some placement (it then leaves the
  table, so the tasks need not hold at the same time). The game is won after the
  placement that fulfils the last task: a solution is a sequence of L <= K placements
  that wins exactly at placement L (nothing is placed after the win).
- Gap fillers: a puzzle states how many may be used (`fillers`, at most one per turn);
  generated puzzles allow none.
- The order of placements counts: solutions are counted as sequences of placements
  (tile, the two spaces and which way round, gap filler), so two placements that could
  be swapped make two solutions and such a puzzle is not unique.

Search: for each length L = 1..K the K-step model of encode.py (L steps, "every task
fulfilled after L" and "not every task after L-1") is solved, each solution found is
blocked by a clause over the step variables (tile, position, gap filler of every step)
and the model is solved again, until `limit` solutions are found or every model is
infeasible (the search is then complete). Back-ends: PySAT/CaDiCaL and CP-SAT (one
worker); the rating's effort is always measured with CaDiCaL's conflicts, which do not
depend on the machine's load, so a puzzle's rating is the same with either back-end.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from models.hoch_hinaus.achievable import BACKENDS, check_witness
from models.hoch_hinaus.board import Action, Board, action_text
from models.hoch_hinaus.encode import CnfLogic, CpLogic, StepModel
from models.hoch_hinaus.puzzle_files import (
    Puzzle,
    Solution,
    board_symmetries,
    mapped_puzzle,
    parse_solution,
    puzzle_from_dict,
    puzzle_to_dict,
    task_text,
)
from models.hoch_hinaus.rules import Rules
from models.hoch_hinaus.tasks import Catalogue, Task, holds, parse_task
from solver.backends.common import SolverOptions
from solver.backends.sat import IncrementalSat
from solver.errors import BadInput
from solver.generate import Rating, Search, as_features, rating_work
from solver.io import expect
from solver.io import field as json_field
from solver.logic import enumerate_solutions
from solver.store import smallest_form

STACK_ON_LAST = 1.0  # share of proposed lines' placements laid on the one before
REFINE = 40  # solutions looked at when a task is chosen to split them
BOARD_TILES = (6, 12)  # tiles on a proposed board
FIRST_TRIES = 5  # first tasks tried (the one leaving the fewest solutions is kept)
# placements K per difficulty where proposals start (the rating decides)
WITHIN = {"easy": (1, 2), "medium": (2, 3), "hard": (3, 4)}
# difficulty = 2 x K + plausible first placements / 4 + conflicts / 200; easy below 4.6
# (K = 1, or K = 2 with one plausible first placement and little search), hard from 7
# (thresholds from the features of about 55 unique proposals, docs/puzzles.md)
RATING = Rating({"placements": 2.0, "plausible_first": 0.25, "hundred_conflicts": 0.5},
                medium=4.6, hard=7.0)


# --------------------------------------------------------------------------- the model

class _Line:
    """The L-step model of a puzzle with the win at exactly step L, on one back-end."""

    def __init__(self, rules: Rules, puzzle: Puzzle, steps: int, logic: Any,
                 win: bool = True) -> None:
        board = puzzle.board(rules)
        top = max(board.height(s) for s in range(rules.n_spaces))
        fillers = puzzle.fillers > 0
        self.logic = logic
        self.model = StepModel(rules, logic, steps, [list(puzzle.hand)] * steps, puzzle.pros,
                               top + steps * (2 if fillers else 1), fillers)
        for lit in self.model.init_lits(board, list(puzzle.hand)):
            logic.clause([lit])
        if fillers:
            logic.clause([self.model.fillers_at_most(min(puzzle.fillers, steps))])
        # holds[i][t]: task i holds after placement t+1
        self.holds = [[self.model.holds(task, t) for t in range(1, steps + 1)]
                      for task in puzzle.tasks]
        if win:
            logic.clause([self.done(steps)])
            if steps > 1:
                logic.clause([logic.neg(self.done(steps - 1))])

    def done(self, t: int) -> Any:
        """Every task fulfilled after one of the placements 1..t."""
        return self.logic.and_([self.logic.or_(h[:t]) for h in self.holds])

    def step_lits(self, t: int, a: Action) -> list[Any]:
        """The literals that say step t is the placement a (its tile, spaces, filler)."""
        m, logic = self.model, self.logic
        r = m.rules
        e = r.pairs.index((min(a.first, a.second), max(a.first, a.second)))
        o = 0 if r.pairs[e][0] == a.first else 1
        lits = [m.use[t][a.tile], m.pos[t][e][o]]
        if a.filler is None:
            lits += [logic.neg(x) for x in m.fill[t]]
        else:
            lits.append(m.fill[t][a.filler])
        return lits

    def block(self, acts: Solution) -> None:
        """Exclude this sequence of placements (a clause over the step variables)."""
        m, logic = self.model, self.logic
        clause = []
        for t, a in enumerate(acts):
            e = m.rules.pairs.index((min(a.first, a.second), max(a.first, a.second)))
            o = 0 if m.rules.pairs[e][0] == a.first else 1
            clause += [logic.neg(m.use[t][a.tile]), logic.neg(m.pos[t][e][o])]
            clause += list(m.fill[t]) if a.filler is None else [logic.neg(m.fill[t][a.filler])]
        logic.clause(clause)


@dataclass
class _Found:
    solutions: list[Solution]
    complete: bool
    effort: int  # conflicts (SAT) or branches (CP-SAT)


class HochHinausPuzzles:
    """The PuzzleKind of Hoch Hinaus! for solver.generate."""

    rating = RATING

    def __init__(self, rules: Rules, catalogue: Catalogue, backend: str = "sat",
                 time_limit: float = 20.0) -> None:
        if backend not in BACKENDS:
            raise BadInput(f"unknown backend '{backend}' ({', '.join(BACKENDS)})")
        self.rules, self.catalogue = rules, catalogue
        self.backend = backend
        self.time_limit = time_limit

    def options(self) -> SolverOptions:
        # one worker: the solutions and the branch count do not depend on the load
        return SolverOptions(time_limit=self.time_limit, workers=1)

    # ---- search
    def search(self, puzzle: Puzzle, limit: int) -> Search[Solution]:
        """Up to `limit` solutions (shortest first), each later one found with the
        earlier ones blocked; complete when every model ended infeasible."""
        start = time.perf_counter()
        found = self._search(puzzle, limit, self.backend)
        return Search(found.solutions, found.complete, round(time.perf_counter() - start, 3),
                      work=found.effort)

    def _search(self, puzzle: Puzzle, limit: int, backend: str) -> _Found:
        solutions: list[Solution] = []
        effort = 0
        for steps in range(1, puzzle.within + 1):
            logic = CnfLogic() if backend == "sat" else CpLogic()
            line = _Line(self.rules, puzzle, steps, logic)
            found = enumerate_solutions(
                logic, lambda value, line=line: tuple(line.model.decode(value)), line.block,
                limit - len(solutions), self.options())
            effort += found.work
            for acts in found.solutions:
                self._replay(puzzle, acts)
            solutions += found.solutions
            if not found.complete:
                return _Found(solutions, False, effort)
            if len(solutions) >= limit:
                return _Found(solutions, False, effort)
        return _Found(solutions, True, effort)

    def _replay(self, puzzle: Puzzle, acts: Solution) -> None:
        """A solution is checked by the rules engine before it is reported."""
        game_like = _Position(self.rules, puzzle)
        fulfilled = check_witness(game_like, puzzle.tasks, acts)  # type: ignore[arg-type]
        n = len(puzzle.tasks)
        won_at_end = all(any(i in step for step in fulfilled) for i in range(n))
        won_before = all(any(i in step for step in fulfilled[:-1]) for i in range(n))
        if not won_at_end or won_before:
            raise RuntimeError("a solution of the model is not a win at its last placement "
                               "(encoding bug)")

    # ---- features and rating
    def features(self, puzzle: Puzzle, solution: Solution, search: Search[Solution]
                 ) -> dict[str, float]:
        """Placements K of the solution; plausible first placements (legal first
        placements after which every task on its own can still be fulfilled in the
        remaining placements); CaDiCaL conflicts of the search, in hundreds."""
        return as_features(placements=len(solution),
                           plausible_first=self.plausible_first(puzzle),
                           hundred_conflicts=rating_work(
                               search, self.backend == "sat",
                               lambda: self._search(puzzle, 2, "sat").effort) / 100)

    def plausible_first(self, puzzle: Puzzle) -> int:
        """How many first placements keep every task achievable on its own (a
        relaxation: a solver is tempted by each of them)."""
        logic = CnfLogic()
        line = _Line(self.rules, puzzle, puzzle.within, logic, win=False)
        switches = []
        for h in line.holds:
            sw = logic.var()
            logic.clause([-sw, logic.or_(h)])
            switches.append(sw)
        board = puzzle.board(self.rules)
        firsts = board.placements(puzzle.hand, puzzle.pros, puzzle.fillers > 0)
        count = 0
        with IncrementalSat(logic.b) as sat:
            for a in firsts:
                lits = line.step_lits(0, a)
                if all(sat.solve(lits + [sw]) is not None for sw in switches):
                    count += 1
        return count

    # ---- proposals
    def propose(self, rng: random.Random, difficulty: str) -> Puzzle:
        """A random stacked board, a hand, a random line of K placements from it, and
        tasks that this line fulfils, added one by one (each one false for the most of
        the other solutions found so far) until the line is the only solution or 4 tasks
        are set."""
        lo, hi = WITHIN[difficulty]
        # hard: K = 4 only a quarter of the time (with at most 4 tasks its proposals
        # almost never end with one solution; K = 3 ones are hard by their features)
        k = rng.randint(lo, hi) if difficulty != "hard" else (hi if rng.random() < 0.25
                                                              else lo)
        while True:  # a dead end (no legal placement left, or no task only the line's
            # last placement fulfils) draws again from the same rng
            drawn = self._draw(rng, difficulty, k)
            puzzle = None if drawn is None else self._refine(rng, k, *drawn)
            if puzzle is not None:
                return puzzle

    def _draw(self, rng: random.Random, difficulty: str, k: int
              ) -> tuple[Board, tuple[str, ...], list[Action], list] | None:
        r = self.rules
        board = Board(r, "blue")
        tiles = [t.id for t in r.tiles]
        rng.shuffle(tiles)
        for _ in range(rng.randint(*BOARD_TILES)):  # the stacked board: random legal placements
            options = board.placements(tiles[:4], False, False)
            if not options:
                return None
            a = rng.choice(options)
            board.apply(a)
            tiles.remove(a.tile)
        hand = tuple(tiles[:k + (1 if difficulty != "easy" and rng.random() < 0.5 else 0)])
        line: list[Action] = []
        states = []
        b = board.copy()
        left = list(hand)
        for _ in range(k):
            options = b.placements(left, False, False)
            if not options:
                return None
            if line and rng.random() < STACK_ON_LAST:  # on the last tile: order counts
                on_last = [x for x in options if {x.first, x.second}
                           & {line[-1].first, line[-1].second}]
                options = on_last or options
            a = rng.choice(options)
            b.apply(a)
            left.remove(a.tile)
            line.append(a)
            states.append(list(b.visible()))
        return board, hand, line, states

    def _refine(self, rng: random.Random, k: int, board: Board, hand: tuple[str, ...],
                line: list[Action], states: list) -> Puzzle | None:
        r = self.rules
        pros = False
        start = board.visible()
        candidates = self._candidates(states)
        # a task fulfilled only by the last placement, so the line does not win earlier
        last = [t for t in candidates if not holds(r, t, start)
                and holds(r, t, states[-1])
                and not any(holds(r, t, s) for s in states[:-1])]
        if not last:
            return None

        def make(tasks: Sequence[Task]) -> Puzzle:
            return Puzzle("blue", pros, tuple(board.pieces), hand, tuple(tasks), k, 0)

        # the first task: of a few drawn, the one that leaves the fewest solutions
        firsts = rng.sample(last, min(FIRST_TRIES, len(last)))
        left = [len(self._search(make([t]), REFINE, "sat").solutions) for t in firsts]
        tasks = [firsts[left.index(min(left))]]
        useful = [t for t in candidates if not holds(r, t, start)
                  and any(holds(r, t, s) for s in states)]
        for _ in range(r.open_tasks - 1):
            found = self._search(make(tasks), REFINE, "sat")
            others = [s for s in found.solutions if list(s) != line]
            if not others:
                break
            # the task the line fulfils that the most other solutions do not
            other_states = []
            for sol in others:
                ob = board.copy()
                seq = []
                for a in sol:
                    ob.apply(a)
                    seq.append(list(ob.visible()))
                other_states.append(seq)
            best, split = 0, []
            for t in useful:
                if t in tasks:
                    continue
                n = sum(1 for seq in other_states if not any(holds(r, t, v) for v in seq))
                if n > best:
                    best, split = n, [t]
                elif n == best and n > 0:
                    split.append(t)
            if not split:
                break
            tasks.append(rng.choice(split))
        return make(tasks)

    def _candidates(self, states: Sequence[Sequence]) -> list[Task]:
        """The catalogue's tasks and tasks written from the line's boards (a face at a
        height, exact colour counts, counts in a row or column), in a fixed order."""
        r = self.rules
        out: list[Task] = list(self.catalogue.tasks)
        names = [c.upper() for c in r.colour_names]
        seen: dict[str, None] = {}
        for vis in states:
            for s, (face, h) in enumerate(vis):
                if face is None or face[0] == r.black:
                    continue
                c = names[face[0]]
                row, col = r.rc(s)
                seen[f"ONE {c} {face[1]} at HEIGHT {h}"] = None
                seen[f"ONE {c} at HEIGHT {h} or more"] = None
                seen[f"ONE {c} {face[1]} at HEIGHT {h} in ROW {row + 1}"] = None
                seen[f"ONE {c} {face[1]} in COLUMN {chr(65 + col)}"] = None
                seen[f"ONE {c} at HEIGHT {h} in COLUMN {chr(65 + col)}"] = None
                n_c = sum(1 for f, _ in vis if f is not None and f[0] == face[0])
                seen[f"Exactly {n_c} {c}"] = None
                in_row = sum(1 for x in r.row_lines[row]
                             if vis[x][0] is not None and vis[x][0][0] == face[0])
                seen[f"Exactly {in_row} {c} in ROW {row + 1}"] = None
                in_col = sum(1 for x in r.column_lines[col]
                             if vis[x][0] is not None and vis[x][0][0] == face[0])
                seen[f"Exactly {in_col} {c} in COLUMN {chr(65 + col)}"] = None
        for text in seen:
            task = parse_task(r, text)
            if task not in out:
                out.append(task)
        return out


class _Position:
    """What check_witness needs of a game: the board, the rules and the placement rule."""

    def __init__(self, rules: Rules, puzzle: Puzzle) -> None:
        self.rules, self.board, self.pros = rules, puzzle.board(rules), puzzle.pros


# --------------------------------------------------------------------------- commands

def make_kind(rules_path: str | None, backend: str, time_limit: float, **_: Any
               ) -> HochHinausPuzzles:
    from models.hoch_hinaus.rules import load_rules
    from models.hoch_hinaus.tasks import load_catalogue
    rules = load_rules(rules_path)
    return HochHinausPuzzles(rules, load_catalogue(rules), backend, time_limit)


def read_puzzle(kind: HochHinausPuzzles, data: Any, where: str) -> tuple[Puzzle, Solution | None]:
    puzzle, stated = puzzle_from_dict(kind.rules, kind.catalogue, data, where)
    if stated is None:
        return puzzle, None
    return puzzle, parse_solution(kind.rules, puzzle, stated, f"{where}.solution")


def write_puzzle(kind: HochHinausPuzzles, puzzle: Puzzle, solution: Solution | None,
           rating: dict[str, Any] | None) -> dict[str, Any]:
    return puzzle_to_dict(kind.rules, puzzle, solution, rating)


def solution_text(kind: HochHinausPuzzles, puzzle: Puzzle, solution: Solution) -> str:
    return "; ".join(action_text(kind.rules, a) for a in solution)


def _after(kind: HochHinausPuzzles, puzzle: Puzzle, solution: Sequence[Action]) -> Board:
    board = puzzle.board(kind.rules)
    for a in solution:
        board.apply(a)
    return board


def _lines(kind: HochHinausPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool
           ) -> list[str]:
    r = kind.rules
    if not reveal:
        fill = (f", up to {puzzle.fillers} gap filler(s)" if puzzle.fillers else
                ", no gap fillers")
        out = [f"Fulfil every task within {puzzle.within} placement(s){fill}.",
               "Hand: " + "  ".join(r.tile_text(t) for t in puzzle.hand)]
        out += [f"- {task_text(r, t)}" for t in puzzle.tasks]
        return out
    fulfilled = check_witness(_Position(r, puzzle), puzzle.tasks, solution)  # type: ignore
    out, done = [], set()
    for n, (a, step) in enumerate(zip(solution, fulfilled, strict=True)):
        new = [task_text(r, puzzle.tasks[i]) for i in step if i not in done]
        done.update(step)
        out.append(f"{n + 1}. {action_text(r, a)}")
        out += [f"    fulfils: {t}" for t in new]  # one per line: the sheet's cards are narrow
    return out


def puzzle_picture(kind: HochHinausPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool
             ) -> Any:
    from models.hoch_hinaus.render import board_svg
    from solver.render import Svg
    board = _after(kind, puzzle, solution) if reveal else puzzle.board(kind.rules)
    title = "solved" if reveal else f"within {puzzle.within}"
    inner = board_svg(board, title=title)
    lines = _lines(kind, puzzle, solution, reveal)
    svg = Svg(max(inner.width, 330), inner.height + 16 * len(lines) + 8)
    svg.items.extend(inner.items)
    for i, text in enumerate(lines):
        svg.text(8, inner.height + 12 + 16 * i, text, size=10, anchor="start")
    return svg


def puzzle_terminal(kind: HochHinausPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool
              ) -> Any:
    from rich.console import Group
    from rich.text import Text

    from models.hoch_hinaus.render import board_text
    board = _after(kind, puzzle, solution) if reveal else puzzle.board(kind.rules)
    return Group(board_text(board), *(Text(x) for x in _lines(kind, puzzle, solution, reveal)))


def canonical_puzzle(kind: Any, puzzle: Puzzle) -> str:
    """The puzzle's canonical form for the store's de-duplication: the smallest JSON of
    the board, hand (as a multiset), tasks (as a set: all must be fulfilled) and K over
    the board's symmetries (`board_symmetries`)."""
    rules = kind.rules
    return smallest_form((puzzle_to_dict(rules, mapped_puzzle(rules, puzzle, perm))
                          for perm in board_symmetries(rules, puzzle.side)),
                         unordered=("hand", "tasks"))


class PuzzleSteps:
    """A puzzle solved placement by placement on the web page (solver.puzzles.
    PuzzleSteps): each placement judged by the rules engine, a task fulfilled once it
    holds after some placement, nothing placed after the last one."""

    open = False  # a step is one placement: never half made

    def __init__(self, kind: HochHinausPuzzles, puzzle: Puzzle, solution: Solution) -> None:
        self.rules, self.puzzle = kind.rules, puzzle
        self.board = puzzle.board(kind.rules)
        self.placed: list[Action] = []
        self.done: set[int] = set()  # the tasks fulfilled

    def step(self, step: Any) -> None:
        r, pz = self.rules, self.puzzle
        if len(self.done) == len(pz.tasks):
            raise BadInput("every task is fulfilled already: nothing is placed after the win")
        if len(self.placed) == pz.within:
            raise BadInput(f"the puzzle allows {pz.within} placement"
                           f"{'s' if pz.within != 1 else ''}, no more")
        a = self._action(step)
        if a.tile in {b.tile for b in self.placed}:
            raise BadInput(f"{a.tile} is placed already")
        if a.filler is not None and sum(b.filler is not None for b in self.placed) >= pz.fillers:
            raise BadInput(f"the puzzle allows {pz.fillers} gap filler(s), no more")
        why = self.board.why_not_after(a.filler, a.first, a.second,
                                       r.tile_by_id[a.tile].faces, pz.pros)
        if why is not None:
            raise BadInput(f"{action_text(r, a)}: {why}")
        self.board.apply(a)
        self.placed.append(a)
        visible = self.board.visible()
        self.done |= {i for i, t in enumerate(pz.tasks) if holds(r, t, visible)}

    def _action(self, step: Any) -> Action:
        """A placement {"tile", "on": [SPACE, SPACE], "filler"?} of a tile in the hand."""
        r, w = self.rules, "placement"
        expect(step, dict, w)
        tile, flipped = r.parse_tile(json_field(step, "tile", str, w), f"{w}.tile")
        if tile.id not in self.puzzle.hand:
            raise BadInput(f"{tile.id} is not in the hand")
        on = json_field(step, "on", list, w)
        if len(on) != 2:
            raise BadInput(f"{w}.on: a tile covers exactly two spaces")
        s1, s2 = (r.parse_space(expect(x, str, f"{w}.on"), f"{w}.on") for x in on)
        filler = step.get("filler")
        f = None if filler is None else r.parse_space(expect(filler, str, f"{w}.filler"),
                                                      f"{w}.filler")
        return Action(tile.id, *((s2, s1) if flipped else (s1, s2)), f)

    def picture(self) -> Any:
        from models.hoch_hinaus.render import board_svg
        from solver.render import Svg

        r, pz = self.rules, self.puzzle
        used = {a.tile for a in self.placed}
        lines = [f"Placed {len(self.placed)} of at most {pz.within}: "
                 + "; ".join(action_text(r, a) for a in self.placed),
                 "Hand: " + "  ".join(r.tile_text(t) for t in pz.hand if t not in used)]
        lines += [("done: " if i in self.done else "- ") + task_text(r, t)
                  for i, t in enumerate(pz.tasks)]
        inner = board_svg(self.board, title=f"within {pz.within}")
        svg = Svg(max(inner.width, 330), inner.height + 16 * len(lines) + 8)
        svg.items.extend(inner.items)
        for i, text in enumerate(lines):
            svg.text(8, inner.height + 12 + 16 * i, text, size=10, anchor="start")
        return svg

    def prompt(self) -> str:
        pz = self.puzzle
        if len(self.done) == len(pz.tasks):
            return "Every task is fulfilled: check your answer."
        left = pz.within - len(self.placed)
        if not left:
            return "No placement left and a task still open: undo a placement."
        return ("Click a tile of the hand, then the two spaces it covers, its first face "
                f"first ({left} placement{'s' if left != 1 else ''} left).")


def puzzle_game() -> Any:
    """The shared puzzle commands' description of Hoch Hinaus! puzzles."""
    from solver.puzzles import PuzzleGame
    return PuzzleGame("hoch-hinaus", BACKENDS, make_kind, read_puzzle, write_puzzle,
                      solution_text, puzzle_picture, puzzle_terminal,
                      canonical=canonical_puzzle, knowledge=_knowledge,
                      stepper=PuzzleSteps)


def _knowledge(kind: Any, puzzle: Puzzle) -> dict[str, Any]:
    """What solving a puzzle knows: everything it shows, and it hides nothing (the hand
    is the solver's own, no tile is drawn, no task turned up)."""
    return {"knows": ["the board", "the hand", "the tasks", "the number of placements",
                      "the gap fillers allowed"], "unknown": [], "all_seeing": False}

