"""Topito puzzles: a position and a card; find the one shortest plan (exactly K moves).

A puzzle states the stacks, the previous player's last move (the no-reversal rule is in
force for the first move), a deck card and K. Its solution is the plan of K moves that
meets the card; no plan is shorter and no other plan has K moves.

Proposals come from puzzle_search.py (walk_back + screen_position): random stacks walked
K moves backwards, every deck card screened on one incremental SAT planner, the last
move chosen so the no-reversal rule forbids a competing first move.
The shared loop (solver/generate.py) then searches each proposal from scratch: the
shortest plan, and a second plan of the same length with the first one blocked (SAT), or
every shortest plan read back from an exact layered search (BFS).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from dataclasses import dataclass
from typing import Any

from models.topito.bfs import bfs_plan, shortest_plans
from models.topito.plan import BACKENDS
from models.topito.positions import blocks_dict, check_fields, parse_move, read_blocks
from models.topito.rules import (
    Card,
    Goal,
    Move,
    Rules,
    State,
    format_move,
    load_deck,
    load_rules,
    move_dict,
    parse_card,
    with_order_cards,
)
from solver.errors import BadInput, TimeLimitReached
from solver.generate import Rating, Search, as_features
from solver.io import expect
from solver.io import field as json_field
from solver.options import DIFFICULTIES
from solver.store import smallest_form

# plan length per difficulty (unique puzzles of 4+ moves practically never exist with
# the 48-card deck: docs/topito.md, "Generate")
MOVES = {"easy": 1, "medium": 2, "hard": 3}
# longest plan a hand-made puzzle is searched for
MAX_MOVES = 12
# difficulty = 10 x moves + 0.5 x plausible first moves + effort (SAT conflicts / 100,
# or BFS states / 10000); thresholds from the features of 26 unique proposals
# (docs/puzzles.md): the length decides, the other features order within it
RATING = Rating({"moves": 10.0, "plausible_first_moves": 0.5, "effort": 1.0},
                medium=23.0, hard=36.0)

Solution = tuple[Move, ...]


@dataclass(frozen=True)
class Puzzle:
    """The start (stacks and last move), the card, and K (None: the shortest length,
    for hand-made puzzles that do not state it)."""

    state: State
    card: Card
    moves: int | None = None


class TopitoPuzzles:
    """The PuzzleKind of Topito for solver.generate.

    moves: with `generate --moves K` every proposal has a K-move plan whatever the
    difficulty asked; the difficulty then does not filter (the label is the one asked,
    the rating score is still measured and written)."""

    def __init__(self, rules: Rules, deck: list[Card], backend: str = "sat",
                 time_limit: float = 20.0, moves: int | None = None) -> None:
        if backend not in BACKENDS:
            raise BadInput(f"unknown backend '{backend}' ({', '.join(BACKENDS)})")
        if moves is not None and moves < 1:
            raise BadInput("--moves must be at least 1")
        self.rules = rules
        self.deck = deck
        self.backend = backend
        self.time_limit = time_limit
        self.moves = moves
        self.rating = RATING
        # the author fixed the length: every unique puzzle is kept, labelled as asked
        self.any_difficulty = moves is not None

    def _deadline(self) -> float:
        return time.perf_counter() + self.time_limit

    def propose(self, rng: random.Random, difficulty: str) -> Puzzle:
        """Random stacks walked K moves back; the first deck card whose K-move plan
        looks unique (SAT screening); failing that, a card the search will reject."""
        if difficulty not in DIFFICULTIES:
            raise BadInput(f"unknown difficulty '{difficulty}'")
        k = self.moves if self.moves is not None else MOVES[difficulty]
        from models.topito.puzzle_search import screen_position, walk_back

        base, cards = walk_back(self.rules, self.deck, rng, k)
        try:
            found = screen_position(base, cards, k, self._deadline())
        except TimeLimitReached:
            found = None
        if found is None:  # stated as a K-move puzzle, it is "none" or "several"
            return Puzzle(base, cards[0], k)
        state, card, _ = found
        return Puzzle(state, card, k)

    # ------------------------------------------------------------------ search
    def search(self, puzzle: Puzzle, limit: int) -> Search[Solution]:
        """The shortest plan; with limit >= 2 a second one of the same length (the
        first blocked). A shortest length other than the stated K: no solution."""
        start = time.perf_counter()
        goal = Goal((puzzle.card,))
        max_moves = puzzle.moves if puzzle.moves is not None else MAX_MOVES
        if self.backend == "sat":
            found, complete, effort = self._search_sat(puzzle.state, goal, max_moves, limit)
        else:
            found, complete, effort = self._search_bfs(puzzle.state, goal, max_moves, limit)
        if not found and puzzle.moves is None:
            complete = False  # no plan within MAX_MOVES says nothing about longer ones
        if puzzle.moves is not None and found and len(found[0]) != puzzle.moves:
            found, complete = [], True  # shorter than stated: no K-move shortest plan
        return Search(found, complete, round(time.perf_counter() - start, 3), work=effort)

    def _search_sat(self, state: State, goal: Goal, max_moves: int, limit: int
                    ) -> tuple[list[Solution], bool, float]:
        from models.topito.encode_sat import SatPlanner
        from models.topito.puzzle_search import other_plan

        deadline = self._deadline()
        # no symmetry breaking: plans are counted
        with SatPlanner(state) as planner:
            found: list[Solution] = []
            try:
                for t in range(max_moves + 1):
                    planner.extend(t)
                    model = planner.solve([planner.goal_lit(goal, t)], deadline)
                    if model is None:
                        continue
                    first = planner.moves_of(model, t)
                    found.append(tuple(first))
                    if limit < 2:
                        return found, True, self._conflicts(planner)
                    second = other_plan(planner, goal, t, first, deadline)
                    if second is not None:
                        found.append(tuple(second))
                        return found, False, self._conflicts(planner)
                    return found, True, self._conflicts(planner)
            except TimeLimitReached:
                return found, False, self._conflicts(planner)
            return found, True, self._conflicts(planner)  # no plan within max_moves (proven)

    @staticmethod
    def _conflicts(planner: Any) -> float:
        return planner.sat.solver.accum_stats().get("conflicts", 0) / 100

    def _search_bfs(self, state: State, goal: Goal, max_moves: int, limit: int
                    ) -> tuple[list[Solution], bool, float]:
        out = shortest_plans(state, goal, max_moves, max(limit, 1), self._deadline())
        effort = out.nodes / 10000
        plans = [tuple(p) for p in out.plans]
        if out.status == "unknown":
            return [], False, effort
        if out.status == "infeasible":
            return [], True, effort
        return plans, len(plans) < max(limit, 1) or limit < 2, effort

    # ------------------------------------------------------------------ features
    def features(self, puzzle: Puzzle, solution: Solution, search: Search[Solution]
                 ) -> dict[str, float]:
        """K; the first moves after which the card is at most K moves away (the
        solution's move, 1 move closer, and the moves that lose just one move — with a
        unique plan only the solution's move stays K-1 away, so the count of those
        would always be 1); the back-end's effort for the search."""
        k = len(solution)
        return as_features(moves=k, plausible_first_moves=self.plausible(puzzle.state,
                                                                          puzzle.card, k),
                           effort=search.work)

    def plausible(self, state: State, card: Card, k: int) -> int:
        """How many legal first moves leave the card at most `k` moves away."""
        goal = Goal((card,))
        moves = state.legal_actions()
        if self.backend == "bfs":
            return sum(1 for m in moves
                       if bfs_plan(state.apply_action(m), goal, k).length is not None)
        from models.topito.encode_sat import SatPlanner

        deadline = self._deadline()
        count = 0
        with SatPlanner(state) as planner:
            planner.extend(k + 1)
            for m in moves:
                a = planner.mv(m.block, m.target, 0)
                if any(planner.solve([a, planner.goal_lit(goal, t)], deadline) is not None
                       for t in range(1, k + 2)):
                    count += 1
        return count

    # ------------------------------------------------------------------ text
    def steps(self, puzzle: Puzzle, solution: Solution) -> list[str]:
        """The moves in words, replayed through the rules engine (each checked legal)."""
        state, out = puzzle.state, []
        for m in solution:
            out.append(format_move(self.rules, m, state.stacks))
            state = state.apply_action(m)
        return out

    def end_state(self, puzzle: Puzzle, solution: Solution) -> State:
        state = puzzle.state
        for m in solution:
            state = state.apply_action(m)
        return state


# --------------------------------------------------------------------------- files

PUZZLE_FIELDS = ("card", "moves", "solution", "rating", "unique", "order_cards")


def puzzle_to_dict(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution | None = None,
                   rating: dict[str, Any] | None = None) -> dict[str, Any]:
    """A position file (toppi topito plan/show read it too) with a `puzzle` part: the
    card, K, and optionally the solution (moves in the last_move form) and the rating."""
    data = blocks_dict(puzzle.state)
    part: dict[str, Any] = {"card": puzzle.card.text(kind.rules)}
    k = puzzle.moves if puzzle.moves is not None else (
        len(solution) if solution is not None else None)
    if k is not None:
        part["moves"] = k
    if solution is not None:
        part["solution"] = [move_dict(kind.rules, m) for m in solution]
    if rating is not None:
        part["rating"] = rating
    data["puzzle"] = part
    return data


def puzzle_from_dict(kind: TopitoPuzzles, data: Any, where: str
                     ) -> tuple[Puzzle, Solution | None]:
    """A puzzle and its stated solution (None when the file has none), each checked
    with a one-line BadInput."""
    rules = kind.rules
    check_fields(data, where)
    state = read_blocks(rules, data, where)
    part = json_field(data, "puzzle", dict, where, None)
    if part is None:
        raise BadInput(f"{where}: no 'puzzle' part (the card, and K)")
    unknown = sorted(k for k in part if k not in PUZZLE_FIELDS)
    if unknown:
        raise BadInput(f"{where}.puzzle: unknown field '{unknown[0]}' "
                       f"(fields: {', '.join(PUZZLE_FIELDS)})")
    card_text = expect(part.get("card"), str, f"{where}.puzzle.card")
    # a file may say how its order card, if written as printed, is to be read (solve,
    # check-unique and sheet have no --order-cards: the file carries its own reading)
    reading = part.get("order_cards")
    if reading is not None:
        reading = expect(reading, str, f"{where}.puzzle.order_cards")
    card = parse_card(with_order_cards(rules, reading, f"{where}.puzzle.order_cards"),
                      card_text, f"{where}.puzzle.card")
    moves = part.get("moves")
    if moves is not None and (isinstance(moves, bool) or not isinstance(moves, int)
                              or not 1 <= moves <= MAX_MOVES):
        raise BadInput(f"{where}.puzzle.moves: a whole number from 1 to {MAX_MOVES}")
    if card.met(state.stacks):
        raise BadInput(f"{where}: the card '{card.text(rules)}' is met already")
    puzzle = Puzzle(state, card, moves)
    solution = None
    if part.get("solution") is not None:
        w = f"{where}.puzzle.solution"
        items = expect(part["solution"], list, w)
        solution = tuple(parse_move(rules, item, f"{w}[{i}]") for i, item in enumerate(items))
        if moves is not None and len(solution) != moves:
            raise BadInput(f"{w}: {len(solution)} moves, but the puzzle states {moves}")
        for i, m in enumerate(solution):
            why = state.why_illegal(m)
            if why is not None:
                raise BadInput(f"{w}[{i}]: {why}")
            state = state.apply_action(m)
        if not card.met(state.stacks):
            raise BadInput(f"{w}: the moves do not meet the card '{card.text(rules)}'")
    return puzzle, solution


# --------------------------------------------------------------------------- commands

def _make_kind(rules_path: str | None, backend: str, time_limit: float,
               moves: int | None = None, order_cards: str | None = None,
               **_: Any) -> TopitoPuzzles:
    rules = load_rules(rules_path, order_cards)
    return TopitoPuzzles(rules, load_deck(rules), backend, time_limit, moves)


def _read(kind: TopitoPuzzles, data: Any, where: str) -> tuple[Puzzle, Solution | None]:
    return puzzle_from_dict(kind, data, where)


def _write(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution | None,
           rating: dict[str, Any] | None) -> dict[str, Any]:
    return puzzle_to_dict(kind, puzzle, solution, rating)


def _solution_text(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution) -> str:
    return "; ".join(f"{i}. {s}" for i, s in enumerate(kind.steps(puzzle, solution), 1))


def _ask(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution) -> str:
    return f"{puzzle.card.text(kind.rules)} in {len(solution)} moves"


def _last_text(kind: TopitoPuzzles, puzzle: Puzzle) -> str:
    last = puzzle.state.last
    if last is None:
        return "no last move"
    return "last move: " + format_move(kind.rules, last)


def _picture(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool) -> Any:
    from models.topito.render import stacks_svg
    if not reveal:
        svg = stacks_svg(kind.rules, puzzle.state.stacks, _ask(kind, puzzle, solution))
        svg.text(svg.width / 2, 40, _last_text(kind, puzzle), size=11)
        return svg
    end = kind.end_state(puzzle, solution)
    svg = stacks_svg(kind.rules, end.stacks, puzzle.card.text(kind.rules))
    bottom = svg.height
    steps = kind.steps(puzzle, solution)
    svg.height += 18 * len(steps)  # the moves, one line each, under the picture
    for i, step in enumerate(steps):
        svg.text(20, bottom + 18 * i, f"{i + 1}. {step}", size=12, anchor="start")
    return svg


def _terminal(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool) -> Any:
    from rich.console import Group
    from rich.text import Text

    from models.topito.render import stacks_text
    if reveal:
        return Group(stacks_text(kind.rules, kind.end_state(puzzle, solution).stacks),
                     Text(f"meets {puzzle.card.text(kind.rules)}"))
    return Group(stacks_text(kind.rules, puzzle.state.stacks),
                 Text(_last_text(kind, puzzle) + " (it may not be reversed)"),
                 Text(f"meet {_ask(kind, puzzle, solution)} (none shorter; one way only)",
                      style="bold"))


def podium_symmetries(rules: Rules, card: Card) -> list[tuple[int, ...]]:
    """The relabellings of the podiums that leave a puzzle's meaning unchanged: a move
    goes from any podium to any other, so every permutation, kept when it fixes the
    podium a podium card names. Identity first."""
    return [perm for perm in itertools.permutations(range(rules.n_podiums))
            if card.kind != "podium" or perm[card.podium] == card.podium]


def mapped_move(move: Move, perm: tuple[int, ...]) -> Move:
    """A move with its podiums relabelled."""
    return Move(move.block, None if move.source is None else perm[move.source],
                perm[move.target])


def mapped_puzzle(puzzle: Puzzle, perm: tuple[int, ...]) -> Puzzle:
    """The same puzzle with the stack on podium i moved to podium perm[i] (and the last
    move with it)."""
    state = puzzle.state
    stacks = [()] * len(state.stacks)
    for i, stack in enumerate(state.stacks):
        stacks[perm[i]] = stack
    last = None if state.last is None else mapped_move(state.last, perm)
    return dataclasses.replace(puzzle, state=dataclasses.replace(
        state, stacks=tuple(stacks), last=last))


def canonical_puzzle(kind: Any, puzzle: Puzzle) -> str:
    """The puzzle's canonical form for the store's de-duplication: the smallest JSON of
    the puzzle over the podium relabellings that keep its meaning (`podium_symmetries`)."""
    return smallest_form(puzzle_to_dict(kind, mapped_puzzle(puzzle, perm))
                         for perm in podium_symmetries(kind.rules, puzzle.card))


def puzzle_game() -> Any:
    """The shared puzzle commands' description of Topito puzzles; the command line
    (cli.py) registers them with `generate --moves K`, passed on to `_make_kind`."""
    from solver.puzzle_cli import PuzzleGame
    return PuzzleGame("topito", BACKENDS, _make_kind, _read, _write, _solution_text,
                      _picture, _terminal, canonical=canonical_puzzle, knowledge=_knowledge)


def _knowledge(kind: Any, puzzle: Puzzle) -> dict[str, Any]:
    """What solving a puzzle knows: the stacks, the last move and the card; it hides
    nothing (no other hand or deck takes part)."""
    return {"knows": ["the stacks on the podiums", "the last move", "the card"],
            "unknown": [], "all_seeing": False}
