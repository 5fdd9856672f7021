"""Hoch Hinaus! puzzle files: the puzzle (a stacked board, a hand, open tasks, K
placements and the gap fillers allowed), read and written with its stated solution
(docs/puzzles.md), and the board's symmetries that map one puzzle onto an equal one (the
store's de-duplication). The search and the rating are puzzles.py.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from models.hoch_hinaus.board import Action, Board, Piece, action_text
from models.hoch_hinaus.positions import board_json, parse_board
from models.hoch_hinaus.rules import Rules
from models.hoch_hinaus.tasks import Catalogue, Task, canonical_text, holds
from solver.errors import BadInput
from solver.io import expect
from solver.io import field as json_field

MAX_WITHIN = 6


@dataclass(frozen=True)
class Puzzle:
    """The board (pieces bottom-up), the hand, the tasks, K and the gap fillers allowed."""

    side: str
    pros: bool
    pieces: tuple[Piece, ...]
    hand: tuple[str, ...]
    tasks: tuple[Task, ...]
    within: int
    fillers: int = 0

    def board(self, rules: Rules) -> Board:
        b = Board(rules, self.side)
        for p in self.pieces:
            if p.tile is None:
                b.place_filler(p.spaces[0])
            else:
                tile = rules.tile_by_id[p.tile]
                b.place_tile(tile, p.spaces[0], p.spaces[1], p.faces != tile.faces)
        return b


Solution = tuple[Action, ...]


# --------------------------------------------------------------------------- files

def task_text(rules: Rules, task: Task) -> str:
    return canonical_text(task, rules)


def placement_json(rules: Rules, a: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"tile": a.tile, "on": [rules.spaces[a.first], rules.spaces[a.second]]}
    if a.filler is not None:
        out["filler"] = rules.spaces[a.filler]
    return out


def puzzle_to_dict(rules: Rules, puzzle: Puzzle, solution: Solution | None = None,
                   rating: dict[str, Any] | None = None) -> dict[str, Any]:
    """The puzzle file: board pieces, hand, tasks, K, gap fillers; optionally the
    solution and the rating."""
    board = puzzle.board(rules)
    data: dict[str, Any] = {
        "game": "hoch-hinaus", "side": puzzle.side,
        "variant": "pros" if puzzle.pros else "basic",
        "pieces": board_json(board), "hand": list(puzzle.hand),
        "tasks": [task_text(rules, t) for t in puzzle.tasks],
        "within": puzzle.within, "fillers": puzzle.fillers,
    }
    if solution is not None:
        data["solution"] = [placement_json(rules, a) for a in solution]
    if rating is not None:
        data["rating"] = rating
    return data


def puzzle_from_dict(rules: Rules, catalogue: Catalogue, data: Any, where: str
                     ) -> tuple[Puzzle, Any]:
    """A puzzle and its stated solution list (None when the file has none)."""
    expect(data, dict, where)
    if data.get("game", "hoch-hinaus") != "hoch-hinaus":
        raise BadInput(f"{where}: a puzzle of '{data.get('game')}', not of hoch-hinaus")
    variant = json_field(data, "variant", str, where, "basic")
    if variant not in ("basic", "pros"):
        raise BadInput(f"{where}.variant: 'basic' or 'pros', not '{variant}'")
    pros = variant == "pros"
    used: set[str] = set()
    board = parse_board(rules, data, where, pros, used)
    hand: list[str] = []
    for j, t in enumerate(json_field(data, "hand", list, where)):
        w = f"{where}.hand[{j}]"
        tile, _ = rules.parse_tile(expect(t, str, w), w, used)
        if tile.id in used:
            raise BadInput(f"{w}: tile {tile.id} is used twice (the set has one)")
        used.add(tile.id)
        hand.append(tile.id)
    if not hand:
        raise BadInput(f"{where}.hand: the hand is empty")
    within = json_field(data, "within", int, where)
    if not 1 <= within <= MAX_WITHIN:
        raise BadInput(f"{where}.within: 1 to {MAX_WITHIN} placements, not {within}")
    if within > len(hand):
        raise BadInput(f"{where}.within: {within} placements need {within} tiles in the "
                       f"hand, it has {len(hand)}")
    fillers = json_field(data, "fillers", int, where, 0)
    left = rules.fillers - board.fillers_used()
    if not 0 <= fillers <= left:
        raise BadInput(f"{where}.fillers: 0 to {left} gap fillers, not {fillers}")
    texts = json_field(data, "tasks", list, where)
    if not 1 <= len(texts) <= rules.open_tasks:
        raise BadInput(f"{where}.tasks: 1 to {rules.open_tasks} tasks, not {len(texts)}")
    tasks = []
    for i, t in enumerate(texts):
        w = f"{where}.tasks[{i}]"
        task = catalogue.parse(expect(t, str, w), w)
        if holds(rules, task, board.visible()):
            raise BadInput(f"{w}: '{t}' already holds on the board (it would be fulfilled "
                           "before the first placement)")
        if task in tasks:
            raise BadInput(f"{w}: '{t}' is given twice")
        tasks.append(task)
    puzzle = Puzzle(board.side, pros, tuple(board.pieces), tuple(hand), tuple(tasks),
                    within, fillers)
    return puzzle, data.get("solution")


def parse_solution(rules: Rules, puzzle: Puzzle, items: Any, where: str) -> Solution:
    """A stated solution `[{"tile": "T05", "on": ["A1", "B1"], "filler": "C2"}, ...]`:
    placements of hand tiles; their legality is checked by replaying them."""
    expect(items, list, where)
    if not 1 <= len(items) <= puzzle.within:
        raise BadInput(f"{where}: 1 to {puzzle.within} placements, not {len(items)}")
    acts = []
    for i, item in enumerate(items):
        w = f"{where}[{i}]"
        expect(item, dict, w)
        tile, flipped = rules.parse_tile(json_field(item, "tile", str, w), f"{w}.tile")
        if tile.id not in puzzle.hand:
            raise BadInput(f"{w}: tile {tile.id} is not in the hand")
        on = json_field(item, "on", list, w)
        if len(on) != 2:
            raise BadInput(f"{w}.on: a tile covers exactly two spaces")
        s1, s2 = (rules.parse_space(expect(x, str, f"{w}.on"), f"{w}.on") for x in on)
        if flipped:
            s1, s2 = s2, s1
        filler = item.get("filler")
        f = None if filler is None else rules.parse_space(expect(filler, str, f"{w}.filler"),
                                                          f"{w}.filler")
        acts.append(Action(tile.id, s1, s2, f))
    if len({a.tile for a in acts}) != len(acts):
        raise BadInput(f"{where}: a tile is placed twice")
    if sum(1 for a in acts if a.filler is not None) > puzzle.fillers:
        raise BadInput(f"{where}: more gap fillers than the puzzle allows ({puzzle.fillers})")
    board = puzzle.board(rules)
    for i, a in enumerate(acts):
        if a.filler is not None:
            board.place_filler(a.filler)
        why = board.why_not(a.first, a.second, rules.tile_by_id[a.tile].faces, puzzle.pros)
        if why is not None:
            raise BadInput(f"{where}[{i}]: {action_text(rules, a)} is not legal: {why}")
        board.place_tile(rules.tile_by_id[a.tile], a.first, a.second)
    return tuple(acts)


# --------------------------------------------------------------------------- symmetries

def board_symmetries(rules: Rules, side: str) -> list[tuple[int, ...]]:
    """The permutations of the spaces that map the board onto itself: the grid's two
    mirror images and its half turn (rows stay rows, columns stay columns), kept when
    they also keep the side's printed gap fillers in place (the purple side: the half
    turn only, with fillers on A2 and C3). Identity first."""
    rows, cols = rules.rows, rules.columns
    candidates = [lambda r, c: (r, c), lambda r, c: (r, cols - 1 - c),
                  lambda r, c: (rows - 1 - r, c), lambda r, c: (rows - 1 - r, cols - 1 - c)]
    printed = {rules.space_index[s] for s in rules.printed_fillers} if side == "purple" \
        else set()
    out = []
    for f in candidates:
        perm = tuple(f(*rules.rc(s))[0] * cols + f(*rules.rc(s))[1]
                     for s in range(rules.n_spaces))
        if {perm[s] for s in printed} == printed and perm not in out:
            out.append(perm)
    return out


def _mapped_task(rules: Rules, task: Task, perm: tuple[int, ...]) -> Task:
    """The task read on the board mapped by `perm` (ROW 1 becomes ROW 4, ...)."""
    region = task.region
    if region.kind not in ("row", "column"):
        return task  # the board, edge, centre, corners and quantified lines map onto themselves
    lines = rules.row_lines if region.kind == "row" else rules.column_lines
    image = {perm[s] for s in lines[region.index]}
    index = next(i for i, line in enumerate(lines) if set(line) == image)
    return dataclasses.replace(task, region=dataclasses.replace(region, index=index),
                               source="")


def mapped_puzzle(rules: Rules, puzzle: Puzzle, perm: tuple[int, ...]) -> Puzzle:
    """The same puzzle on the board mapped by a symmetry: pieces moved, tasks re-read."""
    pieces = tuple(dataclasses.replace(p, spaces=tuple(perm[s] for s in p.spaces))
                   for p in puzzle.pieces)
    tasks = tuple(_mapped_task(rules, t, perm) for t in puzzle.tasks)
    return dataclasses.replace(puzzle, pieces=pieces, tasks=tasks)
