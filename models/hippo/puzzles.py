"""Hippo puzzles: a board, a stock and a known sequence of rolls; the one way to empty
the stock.

Solo: the board stays as the player leaves it (nobody else moves), the rolls are known
and thrown in the order given (bonus rolls included, as in `toppi hippo plan`). Every
die must be used as the rules demand; the stock may run out before the last roll.

What counts as one solution: the sequence of *positions* after each roll. Two plans are
the same solution when every roll leaves the same pool, Mr. Hippo's lane and stocks;
so different chips in different lanes are different solutions, while different orders
of placing the same chips are one solution, unless the order changes the result (a
penalty in between, foreign chips taken that must go first, the stock running out in
the middle of a roll). A solution is written as one placement order per roll: the
first, in sorted order, of the orders reaching that result (rules.outcomes).

Puzzles have two players (red to move, green the other): then "other colour" is one
colour, so the CP-SAT plan model (own / other fields) and the rules engine agree chip
for chip, and a lane order fixes the colours of its chips (foreign chips first).

Back-ends: `cpsat` (the plan model of encode_cpsat with the stock forced empty; the
second solution found by blocking, for every roll, all placement orders that give the
first solution's result) and `brute` (depth-first over every distinct result of every
roll from the rules engine). Tests hold them equal.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from models.hippo.notation import format_move, parse_move, parse_roll
from models.hippo.plan import BACKENDS, colour_move, coloured_moves, picks_of, solo_step
from models.hippo.positions import state_from_dict, state_to_dict
from models.hippo.rules import Rules, with_reading
from models.hippo.state import GameState, Move, outcomes, place_chip
from solver.backends import SolverOptions
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.generate import Rating, Search, as_features
from solver.io import expect
from solver.io import field as json_field

MAX_ROLLS = 6  # puzzles are short sequences; the brute force stays quick
# (rolls, stock chips) where proposals start, per difficulty; the rating decides
SHAPE = {"easy": ((2, 2), (4, 6)), "medium": ((3, 3), (6, 8)), "hard": ((4, 4), (8, 9))}
# rating = 2 x rolls used + plausible first results + kilo-branches of CP-SAT (one
# worker); thresholds from the 19 unique puzzles among 3 x 60 proposals
# (scripts/hippo_puzzle_features.py, docs/puzzles.md)
RATING = Rating({"rolls_used": 2.0, "plausible_first_results": 1.0, "kilo_branches": 1.0},
                medium=7.0, hard=11.5)

Solution = tuple[Move, ...]  # per roll used: the placements (lane, colour), in order


@dataclass(frozen=True)
class Puzzle:
    """A solo position (two players, the mover's stock to empty) and the rolls."""

    state: GameState
    rolls: tuple[tuple[int, ...], ...]


def _step_result(state: GameState, roll: tuple[int, ...], move: Move) -> tuple[Move, GameState]:
    """The canonical move (first order reaching the same result) and the solo position
    after it; BadInput when the move is not an option of the roll."""
    after = solo_step(state, move)
    for o in outcomes(state, roll):
        if solo_step(state, o.move).key() == after.key():
            return o.move, after
    raise BadInput(f"'{format_move(state, move)}' is not an option of the roll "
                   f"{'+'.join(map(str, roll))}")


def can_empty(state: GameState, rolls: tuple[tuple[int, ...], ...], k: int,
              memo: dict | None = None, deadline: Deadline = NO_DEADLINE) -> bool:
    """Whether the stock can be emptied with rolls k.. (brute force over the engine);
    TimeLimitReached past `deadline`."""
    memo = {} if memo is None else memo
    if deadline.passed():
        raise TimeLimitReached("brute force: time limit reached")
    if state.is_terminal():
        return True
    if k == len(rolls) or state.stock_size(state.to_move) > state.rules.dice * (len(rolls) - k):
        return False  # a roll places at most `dice` chips
    key = (k, state.key())
    if key not in memo:
        memo[key] = any(can_empty(solo_step(state, o.move), rolls, k + 1, memo, deadline)
                        for o in outcomes(state, rolls[k]))
    return memo[key]


def brute_solutions(puzzle: Puzzle, limit: int, deadline: Deadline = NO_DEADLINE
                    ) -> tuple[list[Solution], bool]:
    """Up to `limit` solutions, depth first over every distinct result of every roll
    (results in the engine's order), pruned by can_empty; and whether the search was
    complete (False when `limit` was reached or the deadline passed)."""
    found: list[Solution] = []
    memo: dict = {}
    rolls = puzzle.rolls

    def go(k: int, s: GameState, path: tuple[Move, ...]) -> None:
        if len(found) >= limit:
            return
        if s.is_terminal():
            found.append(path)
            return
        if not can_empty(s, rolls, k, memo, deadline):
            return
        for o in outcomes(s, rolls[k]):
            go(k + 1, solo_step(s, o.move), (*path, o.move))

    try:
        go(0, puzzle.state, ())
    except TimeLimitReached:
        return found, False
    return found, len(found) < limit


class HippoPuzzles:
    """The PuzzleKind of Hippo for solver.generate."""

    rating = RATING

    def __init__(self, rules: Rules, backend: str = "cpsat", time_limit: float = 20.0) -> None:
        if backend not in BACKENDS:
            raise BadInput(f"unknown backend '{backend}' ({', '.join(BACKENDS)})")
        self.rules = rules
        self.backend = backend
        self.time_limit = time_limit
        self.branches: dict[Puzzle, int] = {}

    def options(self) -> SolverOptions:
        # one worker, fixed seed: solutions, effort and rating replay on every machine
        return SolverOptions(time_limit=self.time_limit, workers=1, seed=0)

    # ------------------------------------------------------------------ proposing

    def propose(self, rng: random.Random, difficulty: str) -> Puzzle:
        """A random two-player pool (red to move with only own chips in the stock) and
        random rolls; the loop keeps it when the stock can be emptied in one way only."""
        (rlo, rhi), (clo, chi) = SHAPE[difficulty]
        n = rng.randint(rlo, rhi)
        chips = rng.randint(clo, min(chi, self.rules.dice * n))
        rules = self.rules
        lanes: list[tuple[int, ...]] = [()] * (rules.lanes + 1)
        red_left, green_left = rules.chips - chips, rules.chips - 1
        for lane in range(1, rules.lanes + 1):
            if lane == rules.hippo or rng.random() < 0.15:
                continue
            # mostly full lanes, red chips often on top: the penalty traps that make
            # the puzzles (only one's own chip pushed out costs the whole lane)
            content = []
            for i in range(rules.capacity if rng.random() < 0.7 else rng.randint(1, 2)):
                red = rng.random() < (0.6 if i == rules.capacity - 1 else 0.25)
                if red and red_left > 0:
                    content.append(0)
                    red_left -= 1
                elif green_left > 0:
                    content.append(1)
                    green_left -= 1
            lanes[lane] = tuple(content)
        hippo = (red_left, rng.randint(0, green_left))
        stocks = ((chips, 0), (0, green_left - hippo[1] + 1))
        state = GameState(rules, rules.colour_names[:2], tuple(lanes), hippo, stocks, 0,
                          False)
        rolls = tuple(tuple(sorted((rng.randint(1, rules.faces) for _ in range(rules.dice)),
                                   reverse=True)) for _ in range(n))
        return Puzzle(state, rolls)

    # ------------------------------------------------------------------ searching

    def search(self, puzzle: Puzzle, limit: int) -> Search[Solution]:
        """Up to `limit` solutions; complete when no further one exists."""
        start = time.perf_counter()
        if self.backend == "brute":
            found, complete = brute_solutions(puzzle, limit,
                                              Deadline.after(self.time_limit))
            return Search(found, complete, round(time.perf_counter() - start, 3))
        found, complete = self._search_cpsat(puzzle, limit)
        return Search(found, complete, round(time.perf_counter() - start, 3))

    def _search_cpsat(self, puzzle: Puzzle, limit: int) -> tuple[list[Solution], bool]:
        from models.hippo.encode_cpsat import build
        from solver.logic import enumerate_solutions

        rolls = list(puzzle.rolls)
        pm = build(puzzle.state, rolls)
        pm.model.clear_objective()
        pm.model.add(pm.stock_after[-1] == 0)  # the stock is emptied by the last roll

        def block(found: tuple[Solution, list[list[Any]]]) -> None:
            # not (every roll used gives the same result as this solution); one order
            # per roll at most, so the sum reaches len(same) only then
            same = found[1]
            pm.model.add(sum(v for vs in same for v in vs) <= len(same) - 1)

        found = enumerate_solutions(pm.model, lambda value: self._replay(puzzle, pm, value),
                                    block, limit, self.options())
        self.branches[puzzle] = found.first_work
        return [solution for solution, _ in found.solutions], found.complete

    def _replay(self, puzzle: Puzzle, pm: Any, value: Callable[[Any], bool]
                ) -> tuple[Solution, list[list[Any]]]:
        """The engine's replay of the model's lane orders (colours follow: due foreign
        chips first, fresh ones where the model picked them) and, per roll used, one
        literal for each choice of the model (an order, and under the next-turn reading
        its picks of fresh chips) that gives the same result as the solution's from the
        same position."""
        s = puzzle.state
        moves: list[Move] = []
        same: list[list[Any]] = []
        for k, roll in enumerate(puzzle.rolls):
            if s.is_terminal():
                break
            orders = list(zip(pm.sequences[k], pm.select[k], strict=True))
            seq = next((q for q, v in orders if value(v)), None)
            if seq is None:
                raise RuntimeError(f"the plan model placed nothing on roll {k + 1}")
            canonical, after = _step_result(s, roll,
                                            colour_move(s, seq, picks_of(pm, value, k)))
            moves.append(canonical)
            same.append(self._same_result(pm, k, s, orders, after))
            s = after
        if not s.is_terminal():
            raise RuntimeError("the plan model's solution does not empty the stock")
        return tuple(moves), same

    @staticmethod
    def _same_result(pm: Any, k: int, s: GameState, orders: list, after: GameState
                     ) -> list[Any]:
        """The model's choices on roll k that lead from `s` to `after`: the order
        variable itself where the order fixes the colours (always under at-once), else
        one literal per (order, picks of fresh chips) that does."""
        picks = pm.pick_fresh[k]
        if all(isinstance(v, int) for v in picks):
            return [v for q, v in orders
                    if solo_step(s, colour_move(s, q)).key() == after.key()]
        out = []
        for q, v in orders:
            for move, pattern in coloured_moves(s, q):
                if solo_step(s, move).key() != after.key():
                    continue
                literal = pm.model.new_bool_var(f"same{k}_{len(out)}")
                conj = [v] + [picks[j] if p else picks[j].Not()
                              for j, p in enumerate(pattern) if not isinstance(picks[j], int)]
                # literal <= the conjunction is not needed: only its being forced true
                # when the model repeats this choice blocks it
                pm.model.add_bool_or([literal] + [x.Not() for x in conj])
                out.append(literal)
        return out

    # ------------------------------------------------------------------ features

    def features(self, puzzle: Puzzle, solution: Solution, search: Search[Solution]
                 ) -> dict[str, float]:
        """Rolls the solution uses; plausible first results: distinct results of the
        first roll not ruled out by counting (the stock left can still be placed by the
        remaining rolls' dice; in a unique puzzle only one of them really works);
        CP-SAT branches of the first search (one worker, so it does not depend on load)."""
        if puzzle not in self.branches:  # the brute back-end: measure CP-SAT's effort
            self._search_cpsat(puzzle, 1)
        s = puzzle.state
        room = self.rules.dice * (len(puzzle.rolls) - 1)
        plausible = sum(1 for o in outcomes(s, puzzle.rolls[0])
                        if o.won or o.state.stock_size(s.to_move) <= room)
        return as_features(rolls_used=len(solution), plausible_first_results=plausible,
                           kilo_branches=self.branches[puzzle] / 1000)


# --------------------------------------------------------------------------- files

def roll_text(roll: tuple[int, ...]) -> str:
    """'6,4,2'."""
    return ",".join(map(str, roll))


def puzzle_from_dict(rules: Rules, data: Any, where: str) -> tuple[Puzzle, Any]:
    """A puzzle and its stated solution (the raw list, or None)."""
    expect(data, dict, where)
    if data.get("game", "hippo") != "hippo":
        raise BadInput(f"{where}: a puzzle of '{data.get('game')}', not of hippo")
    reading = json_field(data, "foreign_first", str, where, None)
    if reading is not None:  # the puzzle's answer belongs to the reading it was made with
        rules = with_reading(rules, reading, f"{where}: foreign_first")
    state = state_from_dict(rules, json_field(data, "position", dict, where), f"{where}: position")
    if state.players != 2:
        raise BadInput(f"{where}: puzzles are for two players ({state.players} given)")
    if state.is_terminal():
        raise BadInput(f"{where}: the stock is already empty")
    items = json_field(data, "rolls", list, where)
    if not 1 <= len(items) <= MAX_ROLLS:
        raise BadInput(f"{where}: rolls: 1-{MAX_ROLLS} rolls, {len(items)} given")
    rolls = tuple(tuple(sorted(parse_roll(rules, expect(r, str, f"{where}: rolls[{i}]"),
                                          f"{where}: rolls[{i}]"), reverse=True))
                  for i, r in enumerate(items))
    return Puzzle(state, rolls), data.get("solution")


def parse_solution(puzzle: Puzzle, items: Any, where: str) -> Solution:
    """A stated solution, one list of 'LANE COLOUR' placements per roll, replayed by the
    rules engine: every step an option of its roll, the stock empty at the end."""
    expect(items, list, where)
    s = puzzle.state
    moves: list[Move] = []
    for k, step in enumerate(items):
        w = f"{where}[{k}]"
        if k >= len(puzzle.rolls):
            raise BadInput(f"{w}: more steps than rolls")
        if s.is_terminal():
            raise BadInput(f"{w}: the stock is already empty")
        if not isinstance(step, list | str) or not step:
            raise BadInput(f"{w}: expected a list of placements like [\"6 red\", \"4 red\"]")
        try:
            move = parse_move(s, [expect(x, str, w) for x in step]
                              if isinstance(step, list) else step)
            canonical, s = _step_result(s, puzzle.rolls[k], move)
        except BadInput as exc:
            raise BadInput(f"{w}: {exc}") from None
        moves.append(canonical)
    if not s.is_terminal():
        raise BadInput(f"{where}: the stock is not empty after the stated placements")
    return tuple(moves)


def puzzle_to_dict(puzzle: Puzzle, solution: Solution | None = None,
                   rating: dict[str, Any] | None = None) -> dict[str, Any]:
    """The puzzle file: the reading of foreign colours first it is posed under,
    position, rolls, and optionally the solution and rating."""
    data: dict[str, Any] = {"game": "hippo",
                            "foreign_first": puzzle.state.rules.foreign_first,
                            "position": state_to_dict(puzzle.state),
                            "rolls": [roll_text(r) for r in puzzle.rolls]}
    if solution is not None:
        data["solution"] = [[f"{lane} {puzzle.state.colours[c]}" for lane, c in move]
                            for move in solution]
    if rating is not None:
        data["rating"] = rating
    return data


# --------------------------------------------------------------------------- commands

def _make_kind(rules_path: str | None, backend: str, time_limit: float,
               foreign_first: str | None = None) -> HippoPuzzles:
    from models.hippo.rules import load_rules
    return HippoPuzzles(load_rules(rules_path, foreign_first), backend, time_limit)


def read_puzzle(kind: HippoPuzzles, data: Any, where: str) -> tuple[Puzzle, Solution | None]:
    """A puzzle file's puzzle and its stated solution (None when it states none), both
    checked (BadInput naming `where`)."""
    puzzle, stated = puzzle_from_dict(kind.rules, data, where)
    if stated is None:
        return puzzle, None
    return puzzle, parse_solution(puzzle, stated, f"{where}: solution")


def _write(kind: HippoPuzzles, puzzle: Puzzle, solution: Solution | None,
           rating: dict[str, Any] | None) -> dict[str, Any]:
    return puzzle_to_dict(puzzle, solution, rating)


def _solution_text(kind: HippoPuzzles, puzzle: Puzzle, solution: Solution) -> str:
    return " | ".join(f"{'+'.join(map(str, r))}: {format_move(puzzle.state, m)}"
                      for r, m in zip(puzzle.rolls, solution, strict=False))


def _final(puzzle: Puzzle, solution: Solution) -> GameState:
    s = puzzle.state
    for move in solution:
        s = solo_step(s, move)
    return s


def _caption(puzzle: Puzzle) -> str:
    chips = puzzle.state.stock_size(puzzle.state.to_move)
    return (f"empty {puzzle.state.colours[puzzle.state.to_move]}'s {chips} chips; rolls "
            + "  ".join("+".join(map(str, r)) for r in puzzle.rolls))


def _picture(kind: HippoPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool) -> Any:
    from models.hippo.render import pool_svg
    if not reveal:
        return pool_svg(puzzle.state, _caption(puzzle))
    return pool_svg(_final(puzzle, solution), _short(puzzle, solution))


def _short(puzzle: Puzzle, solution: Solution) -> str:
    """'1) 3,4,6  2) 4,5  3) 4,7g': lanes per roll, other colours' chips marked by
    their initial (fits the picture's title line)."""
    me = puzzle.state.to_move
    return "  ".join(f"{k + 1}) " + ",".join(
        f"{lane}{'' if c == me else puzzle.state.colours[c][0]}" for lane, c in move)
        for k, move in enumerate(solution))


def _terminal(kind: HippoPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool) -> Any:
    from rich.console import Group
    from rich.text import Text

    from models.hippo.render import pool_text
    if not reveal:
        return Group(pool_text(puzzle.state), Text(_caption(puzzle)))
    lines = [Text(f"roll {k + 1} ({'+'.join(map(str, r))}): {format_move(puzzle.state, m)}")
             for k, (r, m) in enumerate(zip(puzzle.rolls, solution, strict=False))]
    return Group(*lines, pool_text(_final(puzzle, solution), "after the last roll"))


class PuzzleSteps:
    """A puzzle solved chip by chip on the web page (solver.puzzles.PuzzleSteps): a step
    is one roll's placements, judged chip by chip against the roll's placement
    sequences of the rules engine; the last step may be a roll only begun (`open`)."""

    def __init__(self, kind: HippoPuzzles, puzzle: Puzzle, solution: Solution) -> None:
        self.puzzle = puzzle
        self.state = puzzle.state  # after the rolls done
        self.rolls = 0  # rolls done
        self.chips: Move = ()  # the placements of a roll only begun
        self.open = False

    def step(self, step: Any) -> None:
        s, k = self.state, self.rolls
        if s.is_terminal():
            raise BadInput("the stock is empty already: nothing is placed after the win")
        if k == len(self.puzzle.rolls):
            raise BadInput(f"the puzzle has {len(self.puzzle.rolls)} roll(s), no more")
        if not isinstance(step, list | str) or not step:
            raise BadInput('a roll\'s placements are a list like ["6 red", "4 red"]')
        move = parse_move(s, [expect(x, str, "placement") for x in step]
                          if isinstance(step, list) else step)
        roll = self.puzzle.rolls[k]
        placed = [p[4] for p in s.placements(roll)]
        for i, chip in enumerate(move):
            if not any(m[:i + 1] == move[:i + 1] for m in placed):
                raise BadInput(self._why_not(roll, placed, move[:i], chip))
        if move in placed:
            self.state = _step_result(s, roll, move)[1]
            self.rolls, self.chips, self.open = k + 1, (), False
        else:
            self.chips, self.open = move, True

    def _why_not(self, roll: tuple[int, ...], placed: list[Move], before: Move,
                 chip: tuple[int, int]) -> str:
        """Why `chip` may not follow the placements `before` of the roll, in words."""
        s, (lane, colour) = self.state, chip
        n = len(before)
        lanes = sorted({m[n][0] for m in placed if m[:n] == before and len(m) > n})
        dice = "+".join(map(str, roll))
        if not lanes:
            return f"the roll {dice} is placed in full"
        if lane not in lanes:
            return (f"the roll {dice} does not give lane {lane}{' now' if before else ''} "
                    f"(its lanes: {', '.join(map(str, lanes))})")
        colours = sorted({m[n][1] for m in placed
                          if m[:n] == before and len(m) > n and m[n][0] == lane})
        names = " or ".join(s.colours[c] for c in colours)
        return (f"the chip on lane {lane} must be {names}: chips of the other players' "
                "colours in the stock go first" if s.stocks[s.to_move][colour] else
                f"{s.colours[s.to_move]} has no {s.colours[colour]} chip")

    def _now(self) -> GameState:
        """The position with the chips of a roll only begun placed."""
        s = self.state
        if not self.chips:
            return s
        lanes, hippo, stocks, fresh = s.lanes, s.hippo, s.stocks, s.fresh
        for lane, colour in self.chips:
            lanes, hippo, stocks, fresh, _, _ = place_chip(s.rules, lanes, hippo, stocks,
                                                           fresh, s.to_move, lane, colour)
        return GameState(s.rules, s.colours, lanes, hippo, stocks, s.to_move, s.bonus,
                         self.puzzle.rolls[self.rolls], s.turns, fresh)

    def picture(self) -> Any:
        from models.hippo.render import pool_svg

        rolls, k = self.puzzle.rolls, self.rolls
        if self.state.is_terminal():
            title = f"stock empty after {k} roll{'s' if k != 1 else ''}"
        elif k == len(rolls):
            title = "every roll used"
        else:
            title = (f"roll {k + 1} of {len(rolls)}: {'+'.join(map(str, rolls[k]))}"
                     + (f", {len(self.chips)} chip{'s' if len(self.chips) != 1 else ''} "
                        "placed" if self.chips else ""))
        return pool_svg(self._now(), title)

    def prompt(self) -> str:
        rolls, k = self.puzzle.rolls, self.rolls
        if self.state.is_terminal():
            return "The stock is empty: check your answer."
        if k == len(rolls):
            return "Every roll is used and chips are left in the stock: undo a roll."
        placed = [p[4] for p in self.state.placements(rolls[k])]
        n = len(self.chips)
        lanes = sorted({m[n][0] for m in placed if m[:n] == self.chips and len(m) > n})
        return (f"Roll {k + 1} of {len(rolls)} ({'+'.join(map(str, rolls[k]))}): click a "
                f"lane, then the chip's colour (lanes: {', '.join(map(str, lanes))}).")


def puzzle_game() -> Any:
    """The shared puzzle commands' description of Hippo puzzles."""
    from solver.puzzles import PuzzleGame
    return PuzzleGame("hippo", BACKENDS, _make_kind, read_puzzle, _write,
                      _solution_text, _picture, _terminal, knowledge=_knowledge,
                      stepper=PuzzleSteps)


def _knowledge(kind: HippoPuzzles, puzzle: Puzzle) -> dict[str, Any]:
    """What solving a puzzle knows: the position and every roll to come, in order (a
    puzzle is all-seeing by nature: no player knows the dice in advance)."""
    from models.hippo.game import GAME
    from solver.game import knowledge

    known = knowledge(GAME, puzzle.state)
    return {"knows": [*known["knows"], "the rolls to come, in order"],
            "unknown": known["unknown"], "all_seeing": True}
