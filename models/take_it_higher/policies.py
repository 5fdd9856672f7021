"""Ways to play Take it Higher!: where to put the called tile and which ships to launch.

Each is `choose(observation, legal, rng) -> Placement` on what the player sees: the
board, the ships and the called tile; the order of the tiles still to come is unknown.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from models.take_it_higher.heuristics import bonus_after, cell_value, greedy_launch
from models.take_it_higher.positions import Placement
from models.take_it_higher.rules import Tile
from models.take_it_higher.state import GameState
from solver import cut_decisions

Choose = Callable[[GameState, list[Placement], random.Random], Placement]

#: seconds a decision of the hint or learned policy may take at most when no
#: --hint-time is given: a cap (their work is counted, so games replay from the seed)
DECISION_CAP = 30.0

def random_choice(observation: GameState, legal: list[Placement], rng: random.Random
                  ) -> Placement:
    """A random empty cell, and a random one of its legal launch sets."""
    cells = list(dict.fromkeys(p.cell for p in legal))  # the empty cells in board order
    cell = rng.choice(cells)
    return rng.choice([p for p in legal if p.cell == cell])


def greedy_choice(observation: GameState, legal: list[Placement], rng: random.Random
                  ) -> Placement:
    """The empty cell of best `cell_value` (ties broken by `rng`), with `greedy_launch`."""
    tile = _called(observation)
    scored = [(cell_value(observation, tile, c), c) for c in observation.empty_cells()]
    best = max(v for v, _ in scored)
    cell = rng.choice([c for v, c in scored if v >= best - 1e-9])
    return Placement(tile.id, cell, greedy_launch(observation, tile, cell))


def hint_choice(samples: int | None = None, time_limit: float | None = None) -> Choose:
    """The sampled hint's best move (`hint.hint`: `samples` futures, by default its
    own; 0: as many as fit in `time_limit`, by the clock); the hint's seed comes from
    `rng`, so games replay exactly. `time_limit` caps each decision (default
    DECISION_CAP; the budget with samples=0); a decision it cut is counted
    (`solver.cut_decisions`)."""
    from models.take_it_higher.hint import hint

    cap = DECISION_CAP if time_limit is None and samples != 0 else time_limit

    def choose(observation: GameState, legal: list[Placement], rng: random.Random
               ) -> Placement:
        tile = _called(observation)
        result = hint(observation, tile, samples=samples, seed=rng.randrange(2 ** 31),
                      time_limit=cap)
        cut_decisions.count(result.cut)
        best = result.options[0]
        return Placement(tile.id, best.cell, tuple(best.launch))

    return choose


def learned_choice(lookahead: int = 6, path: str | None = None,
                   endgame: int | None = None, futures: int | None = None,
                   calls: int | None = None, time_limit: float | None = None) -> Choose:
    """The cell of best learned value (`learned.policy.learned_cells`), with its launch when
    the values are the ships' too; else rows only, with `greedy_launch` (and the ring
    bonus that launch adds counted). The endgame (at most `endgame` positions left) by
    exact values. The sampled futures' seed comes from `rng`, so games replay exactly;
    `time_limit` caps each decision (default DECISION_CAP; a decision it cut is
    counted, `solver.cut_decisions`)."""
    from models.take_it_higher.learned.policy import (
        CALLS,
        ENDGAME_POSITIONS,
        FUTURES,
        learned_cells,
    )
    from solver.deadline import Deadline

    limit = ENDGAME_POSITIONS if endgame is None else endgame
    cap = DECISION_CAP if time_limit is None else time_limit
    n = FUTURES if futures is None else futures
    depth = CALLS if calls is None else calls

    def choose(observation: GameState, legal: list[Placement], rng: random.Random
               ) -> Placement:
        tile = _called(observation)
        result = learned_cells(observation, tile, lookahead, path, limit, n, depth,
                               rng.randrange(2 ** 31), Deadline.after(cap))
        cut_decisions.count(result.cut)
        cells = result.cells
        if result.ships:
            return Placement(tile.id, cells[0].cell, cells[0].launch)
        if observation.variant.ships is None:
            cell = cells[0].cell
            return Placement(tile.id, cell, ())
        ring = observation.bonus()[0]
        # the cells valued one call ahead are compared among themselves (their values
        # are on another footing than the others')
        deep = [c for c in cells if c.deep] or cells
        moves = [Placement(tile.id, c.cell, greedy_launch(observation, tile, c.cell))
                 for c in deep]
        return max(zip(deep, moves, strict=True),
                   key=lambda cm: cm[0].value + bonus_after(observation, cm[1]) - ring)[1]

    return choose


def _called(observation: GameState) -> Tile:
    if observation.called is None:
        raise ValueError("a policy is asked to move while no tile is called")
    return observation.called
