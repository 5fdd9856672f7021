"""The learned values in play: the cells for the called tile ranked by them, the best
few looked at more closely (one call ahead, or on sampled futures played by the
values), and the endgame by the exact values (`exact.py`)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from models.take_it_higher.learned.board import (
    Board,
    count_unseen,
    launch,
    place,
    ring,
)
from models.take_it_higher.learned.features import board_value, moves, play_call
from models.take_it_higher.learned.files import values_for
from models.take_it_higher.learned.tables import LineValues
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import Tile
from models.take_it_higher.state import GameState
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.stats import mean_error

LOOKAHEAD = 6  # cells valued one call deeper by default
# by default those cells are valued on 32 sampled futures of 5 calls each, played by the
# values, then the value of the board (the same futures for every cell); 5 calls beat 2
# under the advanced rules and lose nowhere (docs: "Longer futures")
FUTURES = 32
CALLS = 5
# from this size of the rest of the game on, the exact values: about the last 5 calls,
# 1-5 s of CPU (30,000 let in 6 calls at times: 17 s)
ENDGAME_POSITIONS = 10_000


@dataclass(frozen=True)
class CellValue:
    """A cell for the called tile and its expected final row points; `deep`: valued
    one call ahead."""

    cell: str
    value: float
    deep: bool = False
    launch: tuple[str, ...] = ()  # the ships to launch with it (learned ship values)
    futures: int = 0  # valued on this many sampled futures (0: exactly, one call ahead)
    error: float = 0.0  # the standard error of a value on sampled futures


@dataclass
class LearnedResult:
    """The cells for the called tile, best first, with their expected final row points
    under the learned value (`looked_ahead` of them one call deeper); the values'
    training games."""

    tile: str
    cells: list[CellValue]
    looked_ahead: int
    games: int
    values: str
    exact: bool = False  # the endgame: every cell valued exactly (best play), no table
    ships: bool = False  # values with the ring: each cell's launch is part of it
    futures: int = 0  # the cells looked ahead: on this many sampled futures (0: exactly)
    calls: int = 0  # ... each played this many calls on
    # the time limit cut the work (the exact endgame, or the futures: the cells looked
    # ahead are then valued on the futures every one of them got); for the answer
    cut: bool = field(default=False, metadata={"json_skip": True})


def cell_values(v: LineValues, board: dict[str, Tile], unseen: list[Tile], tile: Tile,
                lookahead: int = 0, ships_on: dict[str, tuple[str, ...]] | None = None,
                futures: int = 0, calls: int = CALLS, seed: int = 0) -> list[CellValue]:
    """`ranked_cells` without a time limit: the cells only."""
    return ranked_cells(v, board, unseen, tile, lookahead, ships_on, futures, calls,
                        seed)[0]


def ranked_cells(v: LineValues, board: dict[str, Tile], unseen: list[Tile], tile: Tile,
                 lookahead: int = 0, ships_on: dict[str, tuple[str, ...]] | None = None,
                 futures: int = 0, calls: int = CALLS, seed: int = 0,
                 deadline: Deadline = NO_DEADLINE) -> tuple[list[CellValue], bool]:
    """Each empty cell for `tile` with the expected final points (the board's points
    so far, what the tile completes, and the learned value of the board after it),
    best first; the called tile is not among `unseen`, each of them equally likely
    to come next. Rows only, unless the values are the ships' (`ships`): then the
    ring too, and each cell with its best launch. With `lookahead` > 0 the best
    `lookahead` cells (each with every launch it allows) are valued one call deeper
    (the mean over every tile the next call may bring of its best move's value) and
    ranked first, by that value; with `futures` > 0 instead on that many sampled
    futures (seeded by `seed`, the same for every move): `calls` calls played by the
    values, then the value of the board. `deadline` caps the look-ahead: the futures
    are played round by round (each future for every move), and a cut keeps the rounds
    every move finished (none: the cells as the table values them). Returns the cells
    and whether the deadline cut the work."""
    lay = v.layout
    b = v.board_of(board, unseen, ships_on)
    now = board_score(v.rules, board, v.gold_silver) + (ring(lay, b) if v.ships else 0)
    t = lay.tile_index[tile.id]
    base = board_value(v, b, len(b.empty) - 1)
    ranked = sorted(moves(v, b, t), reverse=True)
    cells = v.rules.cell_ids
    ships = v.rules.spaceships
    values = [CellValue(cells[x], now + base + g, False, tuple(ships[s] for s in launched))
              for g, x, launched in ranked]
    cut = False
    if lookahead > 0 and len(b.empty) > 1:
        # the best `lookahead` cells, each with its launches among the best moves
        top: list[int] = []
        for _, x, _ in ranked:
            if x not in top and len(top) < lookahead:
                top.append(x)
        chosen = [m for m in ranked if m[1] in top]
        coming = [lay.tile_index[u.id] for u in unseen]
        # drawn as the rounds go (a cap may come long before the last of many)
        samples = itertools.islice(iter_futures(coming, min(calls, len(b.empty) - 1),
                                                seed), futures) if futures else None
        deep, cut = _look_ahead(v, b, t, chosen, coming, samples, now, deadline)
        if deep:
            values = deep + [c for c, m in zip(values, ranked, strict=True)
                             if m[1] not in top]
    # each cell once, with its best launch
    seen: set[str] = set()
    return [c for c in values if not (c.cell in seen or seen.add(c.cell))], cut


def _look_ahead(v: LineValues, b: Board, t: int,
                chosen: list[tuple[float, int, tuple[int, ...]]], coming: list[int],
                samples: Iterable[list[int]] | None, now: float,
                deadline: Deadline = NO_DEADLINE) -> tuple[list[CellValue], bool]:
    """The moves `chosen` for tile t valued on the sampled futures (one call deeper
    with None), best first, and whether `deadline` cut the work: the futures every
    move was valued on count (none: no move looked ahead)."""
    lay = v.layout
    cells = v.rules.cell_ids
    ships = v.rules.spaceships
    afters = []
    for _, x, launched in chosen:
        after = b.copy()
        points = place(lay, after, t, x) + launch(lay, after, x, launched) \
            if launched else place(lay, after, t, x)
        afters.append((x, launched, points, after))
    rests: list[list[float]] = [[] for _ in afters]
    cut = False
    for f in [None] if samples is None else samples:  # round by round: each future
        # for every move
        if deadline.passed():
            cut = True
            break
        for rest, (_, _, _, after) in zip(rests, afters, strict=True):
            rest.append(_next_call(v, after, coming) if f is None
                        else _rest(v, after.copy(), f))
    done = min(len(r) for r in rests) if rests else 0
    if done == 0:
        return [], cut
    deep = []
    for rest, (x, launched, points, _) in zip(rests, afters, strict=True):
        mean, error = (rest[0], 0.0) if samples is None else mean_error(rest)
        deep.append(CellValue(cells[x], now + points + mean, True,
                              tuple(ships[s] for s in launched),
                              0 if samples is None else done, error))
    deep.sort(key=lambda c: -c.value)
    return deep, cut


def _next_call(v: LineValues, b: Board, coming: list[int]) -> float:
    """The points still to come after board b (a move was just made), one call
    deeper: the mean over every tile in `coming` of its best move and the value
    after it."""
    total = 0.0
    for u in coming:
        count_unseen(v.layout, b.supply, u, -1, v.fits)
        here = board_value(v, b, len(b.empty) - 1)
        total += here + max(moves(v, b, u))[0]
        count_unseen(v.layout, b.supply, u, 1, v.fits)
    return total / len(coming)


def _rest(v: LineValues, b: Board, draw: list[int]) -> float:
    """The points still to come after board b in one future: the tiles of `draw`
    played by the values (board b changes), then the value of the board if tiles
    are left to come."""
    points = 0.0
    for t in draw:
        points += play_call(v, b, t)
    if b.empty:
        points += board_value(v, b, len(b.empty))
    return points


def sample_futures(coming: list[int], calls: int, futures: int, seed: int
                   ) -> list[list[int]]:
    """`futures` seeded futures of `calls` calls each from the tiles `coming` (tile
    indices); the pool is sorted first, so the order a dealt game knows is never read."""
    return list(itertools.islice(iter_futures(coming, calls, seed), futures))


def iter_futures(coming: list[int], calls: int, seed: int) -> Iterator[list[int]]:
    """The seeded futures of `sample_futures`, one after the other, without end."""
    rng = random.Random(seed)
    pool = sorted(coming)
    while True:
        yield rng.sample(pool, calls)


def learned_cells(state: GameState, tile: Tile, lookahead: int = LOOKAHEAD,
                  path: str | Path | None = None, endgame: int = ENDGAME_POSITIONS,
                  futures: int = FUTURES, calls: int = CALLS, seed: int = 0,
                  deadline: Deadline = NO_DEADLINE) -> LearnedResult:
    """The cells for the called tile ranked by the learned value: with values learned
    for the game's spaceship rules each cell with its launch and the ring counted, else
    rows only (the launches are the caller's); the best `lookahead` on `futures`
    sampled futures of `calls` calls (seeded by `seed`; 0 futures: one call ahead,
    exactly; values of the rows alone in a spaceship game: always so); once the rest of
    the game is at most `endgame` positions, by their exact values instead (the best
    play, `exact.py`). `deadline` caps the work: an endgame it cuts is valued by the
    tables instead, futures it cuts count as far as every cell got (`cut` says so)."""
    values = values_for(state.rules, state.variant, path)
    if state.called is None:
        state = state.apply_action(tile)  # BadInput if it was placed already
    elif state.called != tile:
        raise BadInput(f"the called tile is {state.called.id}, not {tile.id}")
    if not state.empty_cells():
        raise BadInput("the board is full")
    source = "built-in" if path is None else str(path)
    exact, cut = _endgame(state, tile, endgame, deadline)
    if exact is not None:
        return LearnedResult(tile.id, [CellValue(c.cell, c.value, True) for c in exact],
                             0, values.games, source, True)
    if values.ships is None and state.variant.ships is not None:
        futures = 0  # a future played by the rows' values alone would miss the ring
    cells, cut_ahead = ranked_cells(values, state.board, state.unseen_tiles(), tile,
                                    lookahead, state.ships_on if values.ships else None,
                                    futures, calls, seed, deadline)
    deep = sum(c.deep for c in cells)
    sampled = max((c.futures for c in cells), default=0)
    return LearnedResult(tile.id, cells, deep, values.games, source,
                         ships=values.ships is not None, futures=sampled,
                         calls=calls if sampled else 0, cut=cut or cut_ahead)


_EXACT: list = []  # the endgame values of the last game, kept while it goes on


def _endgame(state: GameState, tile: Tile, limit: int, deadline: Deadline = NO_DEADLINE
             ) -> tuple[list | None, bool]:
    """The exact values of the cells (best play, `exact.py`) once the rest of the game
    is at most `limit` positions (no spaceships, no tiles known to come), else None;
    and whether `deadline` cut them (then None: every cell needs its value). The
    values of one game's endgame are kept for its next moves (a cut keeps those found:
    each is exact)."""
    from models.take_it_higher.exact import ExactValues, positions

    if state.variant.ships is not None or state.coming or limit <= 0:
        return None, False
    exact = _EXACT[0] if _EXACT else None
    if exact is None or exact.rules is not state.rules or exact.variant != state.variant \
            or not _EXACT[1].items() <= state.board.items():
        exact = ExactValues(state.rules, state.variant, limit)
    board, unseen = exact.position(state)  # the called tile is not among unseen
    if positions(board.count(-1) - 1, unseen) > limit:
        return None, False
    _EXACT[:] = [exact, dict(state.board)]
    try:
        found = exact.cells_for(state, tile, deadline)
    except TimeLimitReached:
        return None, True
    return (None, True) if found.unvalued else (found.cells, False)
