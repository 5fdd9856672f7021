"""Exact values of small positions: the best honest play, and the hindsight optimum.

The honest value of a position averages exactly over the next call (every unseen tile
equally likely) and maximises over the cells (expectimax), so it is the expected final
score of the best policy a player can follow; the hindsight value is the expected best
board of the tiles that will come, as if they were known (what `max --draw` proves for
one draw). Both are exact and exhaustive, so only boards with a few empty cells and
unseen tiles are in reach: a reference for the hint (its choice's loss against the best
cell) and for what share of the hindsight optimum any player can expect.

Tiles that score alike (the same stripes, and the same stud under the gold/silver
rules) are one kind, so copies do not multiply the states. Spaceships are not valued.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.state import GameState
from models.take_it_higher.variants import Variant
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput, TimeLimitReached

STATE_LIMIT = 1_500_000  # positions; about 20,000 a second
# the deadline is read once per this many positions valued (a cheap cap)
CHECK_EVERY = 2048


@dataclass
class ExactCell:
    """A cell for the called tile and the expected final score of the best play after
    it (exact)."""

    cell: str
    value: float


@dataclass
class ExactResult:
    """The cells for the called tile, best first, with their exact values; the positions
    valued on the way (`states`). `unvalued`: the empty cells the time limit left
    without a value (valued in the order of the one-step heuristic, so the likely best
    come first; empty unless the limit cut the work)."""

    tile: str
    cells: list[ExactCell]
    states: int
    unvalued: list[str] = field(default_factory=list)


class ExactValues:
    """Exact values on one rules file and variant; positions valued once are kept, so
    the values of a whole game cost little more than those of its first move. Boards
    are tuples of tile kinds (-1: empty), the unseen tiles counts per kind."""

    def __init__(self, rules: Rules, variant: Variant, limit: int = STATE_LIMIT) -> None:
        if variant.ships is not None:
            raise BadInput("exact values are for the basic and gold/silver rules "
                           "(spaceships are not valued)")
        gs = variant.gold_silver
        self.rules, self.variant, self.limit = rules, variant, limit
        self.cells = rules.cell_ids

        def key(t: Tile) -> tuple:
            return (t.stripes, t.stud if gs else None)

        kinds: dict[tuple, int] = {}
        for t in rules.tiles:
            kinds.setdefault(key(t), len(kinds))
        self.kind_of = {t.id: kinds[key(t)] for t in rules.tiles}
        self.kinds = list(kinds)
        index = {c: i for i, c in enumerate(self.cells)}
        self.lines = [(tuple(index[c] for c in cells), d, len(cells))
                      for d, cells in rules.lines]
        # per cell the lines through it, and the others (the last cell's shortcut)
        self.through = [[line for line in self.lines if i in line[0]]
                        for i in range(len(self.cells))]
        self.apart = [[line for line in self.lines if i not in line[0]]
                      for i in range(len(self.cells))]
        self.deadline = NO_DEADLINE  # the cap of the values being worked out
        self.work = 0  # positions valued (not found kept) since the last clock reading
        self.colour_value = rules.colour_values
        self.stud_bonus = rules.stud_bonus if gs else {}
        self.memo: dict[tuple, float] = {}

    def position(self, state: GameState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The board and the unseen counts of a state of these rules."""
        if state.rules is not self.rules or state.variant != self.variant:
            raise BadInput("the position is of other rules")
        # the order of the tiles to come (a dealt game's) is never read
        if state.coming:
            raise BadInput("exact values average over every set of tiles to come: the "
                           "position may not know some of them (to_come)")
        counts = [0] * len(self.kinds)
        for t in state.unseen_tiles():
            counts[self.kind_of[t.id]] += 1
        board = tuple(self.kind_of[state.board[c].id] if c in state.board else -1
                      for c in self.cells)
        return board, tuple(counts)

    def cells_for(self, state: GameState, tile: Tile, deadline: Deadline = NO_DEADLINE
                  ) -> ExactResult:
        """Every empty cell for the called tile with the exact expected final score of
        the best play after it. The cells are valued one by one, the one-step
        heuristic's best first; when `deadline` passes, the cells valued so far are
        the answer (`unvalued` names the others), and TimeLimitReached if none was."""
        from models.take_it_higher.heuristics import cell_value

        if state.called is None:
            state = state.apply_action(tile)
        elif state.called != tile:
            raise BadInput(f"the called tile is {state.called.id}, not {tile.id}")
        board, unseen = self.position(state)  # the called tile is not among unseen
        kind = self.kind_of[tile.id]
        self.check_size(board.count(-1) - 1, unseen)
        empty = sorted(state.empty_cells(), key=lambda c: (-cell_value(state, tile, c), c))
        if not empty:
            raise BadInput("the board is full")
        index = {c: i for i, c in enumerate(self.cells)}
        cells: list[ExactCell] = []
        self.deadline, self.work = deadline, 0
        try:
            for c in empty:
                cells.append(ExactCell(c, self.value(_put(board, index[c], kind), unseen)))
        except TimeLimitReached:
            if not cells:
                raise TimeLimitReached("time limit reached before any cell was valued "
                                       "exactly") from None
        finally:
            self.deadline = NO_DEADLINE
        cells.sort(key=lambda c: (-c.value, c.cell))
        valued = {c.cell for c in cells}
        return ExactResult(tile.id, cells, len(self.memo),
                           [c for c in state.empty_cells() if c not in valued])

    def check_size(self, empty: int, unseen: tuple[int, ...]) -> None:
        """BadInput, before any work, when the positions to value exceed the limit."""
        count = positions(empty, unseen)
        if count > self.limit:
            raise BadInput(f"too large for exact values: {count:,} positions ({empty} empty "
                           f"cells, {sum(unseen)} unseen tiles; at most {self.limit:,})")

    def score(self, board: tuple[int, ...],
              lines: list[tuple[tuple[int, ...], int, int]] | None = None) -> int:
        """The points of a full board: of its `lines` (default: all)."""
        total = 0
        for cells, d, n in self.lines if lines is None else lines:
            first = self.kinds[board[cells[0]]]
            colour, stud = first[0][d], first[1]
            for i in cells[1:]:
                k = self.kinds[board[i]]
                if k[0][d] != colour:
                    break
                if k[1] != stud:
                    stud = None
            else:
                total += n * (self.colour_value[colour] + self.stud_bonus.get(stud, 0))
        return total

    def value(self, board: tuple[int, ...], unseen: tuple[int, ...]) -> float:
        """The expected final score of the best play from here, before the next call."""
        empty = [i for i, k in enumerate(board) if k < 0]
        if not empty:
            return self.score(board)
        key = (board, unseen)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.work += 1
        if self.work >= CHECK_EVERY:
            self.work = 0
            if self.deadline.passed():
                raise TimeLimitReached("the time limit cut the exact values")
        total = 0.0
        if len(empty) == 1:  # the last cell: only the lines through it change
            i = empty[0]
            rest_points = self.score(_put(board, i, 0), self.apart[i])
            for kind, count in enumerate(unseen):
                if count:
                    total += count * (rest_points
                                      + self.score(_put(board, i, kind), self.through[i]))
        else:
            for kind, count in enumerate(unseen):
                if count:
                    rest = unseen[:kind] + (count - 1,) + unseen[kind + 1:]
                    total += count * max(self.value(_put(board, i, kind), rest)
                                         for i in empty)
        result = total / sum(unseen)
        self.memo[key] = result
        return result

    def hindsight(self, board: tuple[int, ...], unseen: tuple[int, ...]) -> float:
        """The expected best board of the tiles that will come, over every set of them
        (each equally likely), the cells' order free."""
        empty = [i for i, k in enumerate(board) if k < 0]
        n, total = len(empty), sum(unseen)
        if n > total:
            raise BadInput(f"{n} empty cells but only {total} unseen tiles")
        work = math.comb(total, n) * math.factorial(n)
        if work > 50 * self.limit:
            raise BadInput(f"too large for the exact hindsight value: {work:,} boards")
        expected = 0.0
        for chosen in _multisets(unseen, n):
            ways = math.prod(math.comb(c, k) for c, k in zip(unseen, chosen, strict=True))
            tiles = [kind for kind, k in enumerate(chosen) for _ in range(k)]
            best = max(self.score(_fill(board, empty, order))
                       for order in set(itertools.permutations(tiles)))
            expected += ways * best
        return expected / math.comb(total, n)


def positions(empty: int, unseen: tuple[int, ...]) -> int:
    """How many positions with a cell still empty the best play's values visit: for
    each k < empty, the ways to choose k of the empty cells times the different
    sequences of k tiles from the unseen counts (k! times the x^k coefficient of the
    product over kinds of sum_j x^j / j!)."""
    poly = [Fraction(1)]
    for count in unseen:
        term = [Fraction(1, math.factorial(j)) for j in range(count + 1)]
        poly = [sum((poly[i] * term[n - i] for i in range(len(poly)) if 0 <= n - i < len(term)),
                    Fraction(0)) for n in range(min(len(poly) + count, empty + 1))]
    return sum(math.comb(empty, k) * int(poly[k] * math.factorial(k))
               for k in range(min(empty, len(poly))))


def _put(board: tuple[int, ...], i: int, kind: int) -> tuple[int, ...]:
    return board[:i] + (kind,) + board[i + 1:]


def _fill(board: tuple[int, ...], empty: list[int], kinds: tuple[int, ...]
          ) -> tuple[int, ...]:
    out = list(board)
    for i, k in zip(empty, kinds, strict=True):
        out[i] = k
    return tuple(out)


def _multisets(counts: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    """Every way to take n tiles from these counts per kind, as counts per kind."""
    if not counts:
        return [()] if n == 0 else []
    head, rest = counts[0], counts[1:]
    left = sum(rest)
    return [(k, *tail) for k in range(max(0, n - left), min(head, n) + 1)
            for tail in _multisets(rest, n - k)]


def exact_cells(state: GameState, tile: Tile, limit: int = STATE_LIMIT,
                deadline: Deadline = NO_DEADLINE) -> ExactResult:
    """Every empty cell for the called tile with the exact expected final score of the
    best play after it (the unseen tiles averaged exactly, never a sample); the cells
    valued by `deadline` if it cuts the work (`ExactValues.cells_for`)."""
    return ExactValues(state.rules, state.variant, limit).cells_for(state, tile, deadline)


def honest_value(state: GameState, limit: int = STATE_LIMIT) -> float:
    """The expected final score of the best play from a position with no tile called."""
    if state.called is not None:
        raise BadInput("a tile is called: value its cells (exact_cells)")
    values = ExactValues(state.rules, state.variant, limit)
    board, unseen = values.position(state)
    values.check_size(board.count(-1), unseen)
    return values.value(board, unseen)


def hindsight_value(state: GameState, limit: int = STATE_LIMIT) -> float:
    """The expected hindsight optimum from a position with no tile called: the mean over
    the sets of tiles still to come of their best board."""
    if state.called is not None:
        raise BadInput("a tile is called: place it first")
    values = ExactValues(state.rules, state.variant, limit)
    return values.hindsight(*values.position(state))
