"""Spaceships: which ships a placed tile may launch (simple and advanced rules), the
Take it Higher! bonus ring, and the best launches for a given sequence of moves."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, TypeVar

from models.take_it_higher.positions import Placement
from models.take_it_higher.rows import ScoringRow, completed_rows, row_ships
from models.take_it_higher.rules import Rules
from solver.deadline import NO_DEADLINE, Deadline

if TYPE_CHECKING:
    from models.take_it_higher.state import GameState

S = TypeVar("S")  # a ship: its name, or its index on the pad


def simple_launches(rows: list[tuple[int, ScoringRow]], on_pad: list[str]
                    ) -> list[tuple[str, ...]]:
    """Simple rules: launch the next k ships on the pad, each matched to its own
    completed row (one ship per row)."""
    return ordered_launches([row_ships(r) for _, r in rows], on_pad)


def ordered_launches(allowed: Sequence[Collection[S]], on_pad: Sequence[S]
                     ) -> list[tuple[S, ...]]:
    """The simple rules over the ships each completed row allows (`allowed`): the next
    k ships on the pad, each matched to a row of its own; () first."""
    out: list[tuple[S, ...]] = [()]
    for k in range(1, min(len(on_pad), len(allowed)) + 1):
        want = on_pad[:k]
        if not matchable(want, allowed):
            break
        out.append(tuple(want))
    return out


def matchable(ships: Sequence, rows: Sequence[Collection]) -> bool:
    """Can each ship be given a distinct row that allows it? (tiny bipartite matching)"""
    for chosen in itertools.permutations(range(len(rows)), len(ships)):
        if all(s in rows[r] for s, r in zip(ships, chosen, strict=True)):
            return True
    return False


def advanced_launches(rows: list[tuple[int, ScoringRow]], on_pad: list[str],
                      ships_on: dict[str, tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Advanced rules: at most one ship, any order, and the row that allows it must
    carry no spaceship on its other tiles."""
    return single_launches([row_ships(row) for _, row in rows
                            if not any(ships_on.get(c) for c in row.cells)], on_pad)


def single_launches(allowed: Sequence[Collection[S]], on_pad: Sequence[S]
                    ) -> list[tuple[S, ...]]:
    """The advanced rules over the ships each completed row free of ships allows
    (`allowed`): one ship on the pad that some row allows, in pad order; () first."""
    ships = set().union(*allowed)
    return [()] + [(s,) for s in on_pad if s in ships]


def ring_bonus(rules: Rules, launched: Collection[str]) -> tuple[int, str | None]:
    """The Take it Higher! bonus: the ring climbs over launched ships from the bottom
    and stops below the lowest ship still on the pad. Returns (points, ship below the
    ring)."""
    top = None
    points = 0
    for ship, button in zip(rules.spaceships, rules.buttons, strict=True):
        if ship not in launched:
            break
        top, points = ship, button
    return points, top


def best_launches(state: GameState, moves: Sequence[tuple[str, str]],
                  deadline: Deadline = NO_DEADLINE) -> tuple[int, list[Placement]]:
    """Given a game in progress and the remaining (tile, cell) moves in order, the
    launches that maximise the final Take it Higher! bonus (exhaustive search over the
    legal launch sets, memoised on the ships' state). Returns (bonus, placements).
    Past `deadline` only the first launch set of each move is
    followed: a legal game, not always the best."""
    rules = state.rules
    # the tiles land in a known order, so the rows each move completes do not depend
    # on the launches: found once (the launch sets follow from them and the ships)
    board = dict(state.board)
    completed = []
    for tile_id, cell in moves:
        board[cell] = rules.tile_by_id[tile_id]
        completed.append(completed_rows(rules, board, cell))
    # the ships some move from i on could launch: the ring can climb no higher
    later: list[set[str]] = [set() for _ in range(len(moves) + 1)]
    for i in reversed(range(len(moves))):
        later[i] = later[i + 1] | {s for _, row in completed[i] for s in row_ships(row)}
    simple = state.variant.ships == "simple"
    # launches moves from i on can make at most: one a completed row (simple rules),
    # one a move (advanced rules)
    budget = [0] * (len(moves) + 1)
    for i in reversed(range(len(moves))):
        made = len(completed[i]) if simple else min(1, len(completed[i]))
        budget[i] = budget[i + 1] + made
    launched = set(state.launched)
    ships_on = {c: ships for c, ships in state.ships_on.items() if ships}
    memo: dict[tuple, tuple[int, list[tuple[str, ...]]]] = {}

    def search(i: int) -> tuple[int, list[tuple[str, ...]]]:
        if i == len(moves):
            return ring_bonus(rules, launched)[0], []
        key = (i, frozenset(launched), frozenset(ships_on))
        if key in memo:
            return memo[key]
        cell = moves[i][1]
        if state.variant.ships is None or not rules.spaceships:
            options: list[tuple[str, ...]] = [()]
        else:
            on_pad = [s for s in rules.spaceships if s not in launched]
            options = simple_launches(completed[i], on_pad) if simple else \
                advanced_launches(completed[i], on_pad, ships_on)
        bound = _climb_bound(rules, launched, later[i], budget[i])
        best: tuple[int, list[tuple[str, ...]]] = (-1, [])
        for launch in options:
            if launch:
                ships_on[cell] = launch
                launched.update(launch)
            value, rest = search(i + 1)
            if launch:
                del ships_on[cell]
                launched.difference_update(launch)
            if value > best[0]:
                best = (value, [launch, *rest])
            # nothing later can beat the bound (ties keep the first found, as always)
            if best[0] >= bound or deadline.passed():
                break
        memo[key] = best
        return best

    bonus, launches = search(0)
    return bonus, [Placement(t, c, launch) for (t, c), launch
                   in zip(moves, launches, strict=True)]


def _climb_bound(rules: Rules, launched: Collection[str], later: Collection[str],
                 launches: int) -> int:
    """The most the ring can climb: over the launched ships from the bottom, and over
    ships some later move could launch while `launches` more launches are left."""
    points = 0
    for ship, button in zip(rules.spaceships, rules.buttons, strict=True):
        if ship not in launched:
            if ship not in later or launches == 0:
                break
            launches -= 1
        points = button
    return points
