"""The Take it Higher! rules engine: a game in progress for one player.

Each turn a tile is called from the face-down bag and the player puts it on an empty
cell, launching the spaceships its completed rows allow. In a dealt game the bag's
order is known to the engine (`to_call`), and the next tile is called as part of the
placement; where nobody knows the order (a position file, what the player sees) the
call is a chance event: any tile not placed yet, each equally likely.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from models.take_it_higher.positions import Placement, Position, format_placement
from models.take_it_higher.rows import completed_rows, row_ships
from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.spaceships import advanced_launches, ring_bonus, simple_launches
from models.take_it_higher.variants import Variant
from solver.errors import BadInput


@dataclass(frozen=True)
class GameState:
    """The board, the ships in the grid (cell -> ships) and on the pad, the called tile
    (None: none called yet) and the order of the tiles still to be called after it
    (None: unknown); `coming`: tiles known to be among those still to be called, in
    rules order (a position file's `to_come`; none in a dealt game or what its player
    sees).

    A state is immutable: every move gives a new state (`apply_action`, `placed`), and
    its lists and dicts are never changed once it is made (`but` makes a changed one).
    Legality is checked here and only here (`check_call`, `check_placement`,
    `check_put`). A search that plays and takes back moves by the thousand works on
    its own `Scratch` instead."""

    rules: Rules
    variant: Variant
    placements: list[Placement] = field(default_factory=list)
    board: dict[str, Tile] = field(default_factory=dict)
    ships_on: dict[str, tuple[str, ...]] = field(default_factory=dict)
    called: Tile | None = None
    to_call: tuple[Tile, ...] | None = None
    coming: tuple[Tile, ...] = ()

    def but(self, **changes: Any) -> GameState:
        """The same state with some fields replaced (a new state; this one is kept)."""
        return replace(self, **changes)

    # ------------------------------------------------------------------ what is where

    @property
    def launched(self) -> set[str]:
        return _launched(self.ships_on)

    def is_terminal(self) -> bool:
        return len(self.placements) == self.rules.board_size

    def empty_cells(self) -> list[str]:
        return [c for c in self.rules.cell_ids if c not in self.board]

    def unplaced_tiles(self) -> list[Tile]:
        """Tiles not on the board (the called one among them), in rules order."""
        used = {p.tile for p in self.placements}
        return [t for t in self.rules.tiles if t.id not in used]

    def unseen_tiles(self) -> list[Tile]:
        """Tiles neither placed nor called: the ones that may still be called."""
        called = self.called.id if self.called is not None else None
        return [t for t in self.unplaced_tiles() if t.id != called]

    def calls_to_come(self) -> int:
        """How many tiles are still to be called after the called one."""
        return (self.rules.board_size - len(self.placements)
                - (1 if self.called is not None else 0))

    def bonus(self) -> tuple[int, str | None]:
        """The Take it Higher! bonus of the ships launched so far, and the ship below
        the ring."""
        return ring_bonus(self.rules, self.launched)

    # ------------------------------------------------------------------ moves

    def call_outcomes(self) -> list[Tile]:
        """The tiles the next call may bring: the next in a known order, else any tile
        not placed yet (each equally likely unless some are known to come)."""
        return [t for t, _ in self.call_chances()]

    def call_chances(self) -> list[tuple[Tile, float]]:
        """The tiles the next call may bring with their chances. With k of the n calls
        left known to be `coming`, each of those comes next with chance 1/n, and each of
        the m other unseen tiles with (n - k) / (m n)."""
        if self.called is not None or self.is_terminal():
            return []
        if self.to_call is not None:
            return [(t, 1.0) for t in self.to_call[:1]]
        tiles = self.unplaced_tiles()
        if not self.coming:
            return [(t, 1 / len(tiles)) for t in tiles]
        n, k = self.calls_to_come(), len(self.coming)
        others = len(tiles) - k
        return [(t, 1 / n if t in self.coming else (n - k) / (others * n)) for t in tiles
                if t in self.coming or n > k]

    def legal_launches(self, tile: Tile, cell: str) -> list[tuple[str, ...]]:
        """Every legal set of launches if `tile` is put on `cell` (always includes ())."""
        return _launches(self.rules, self.variant, self.board, self.ships_on, tile, cell)

    def placements_for(self, tile: Tile) -> list[Placement]:
        """All moves with `tile`: each empty cell with each legal launch set."""
        return [Placement(tile.id, c, launch) for c in self.empty_cells()
                for launch in self.legal_launches(tile, c)]

    def legal_placements(self) -> list[Placement]:
        """The moves with the called tile (none when no tile is called)."""
        return [] if self.called is None else self.placements_for(self.called)

    # ------------------------------------------------------------------ the checks

    def check_call(self, tile: Tile) -> None:
        """BadInput naming why `tile` cannot be called now."""
        if self.is_terminal():
            raise BadInput(f"tile {tile.id} cannot be called: the board is full")
        if self.called is not None:
            raise BadInput(f"tile {tile.id} cannot be called: {self.called.id} is called "
                           "and not placed yet")
        if any(p.tile == tile.id for p in self.placements):
            raise BadInput(f"tile {tile.id} was already placed")
        if self.to_call is not None:
            if not self.to_call or self.to_call[0].id != tile.id:
                raise BadInput(f"tile {tile.id} is not the next tile of the bag")
        elif (self.coming and tile not in self.coming
              and len(self.coming) == self.calls_to_come()):
            raise BadInput(f"tile {tile.id} is not among the tiles still to come")

    def check_placement(self, p: Placement) -> None:
        """BadInput naming why the called tile may not be placed as `p` says."""
        n = len(self.placements) + 1
        if self.is_terminal():
            raise BadInput(f"placement {n}: the board is full")
        if self.called is None:
            raise BadInput(f"placement {n} ({format_placement(p)}): no tile is called yet")
        if p.tile != self.called.id:
            raise BadInput(f"placement {n} ({format_placement(p)}): the called tile is "
                           f"{self.called.id}")
        if p.cell not in self.rules.cell_by_id:
            raise BadInput(f"placement {n}: '{p.cell}' is not a cell of this board")
        self.check_put(p)

    def check_put(self, p: Placement) -> None:
        """BadInput naming why the tile of `p` may not go on its cell with its launches
        (occupied cell, tile already placed, illegal launch), whether called or not."""
        tile = self.rules.tile_by_id[p.tile]
        n = len(self.placements) + 1
        if p.cell in self.board:
            raise BadInput(f"placement {n}: cell {p.cell} is occupied")
        if any(q.tile == p.tile for q in self.placements):
            raise BadInput(f"placement {n}: tile {p.tile} was already placed")
        if p.launch:
            if self.variant.ships is None:
                raise BadInput(f"placement {n} ({format_placement(p)}): spaceships are not "
                               f"used in the {self.variant.name} game")
            legal = {frozenset(x) for x in self.legal_launches(tile, p.cell)}
            if frozenset(p.launch) not in legal:
                raise BadInput(f"placement {n} ({format_placement(p)}): "
                               + self._why_illegal(tile, p))

    # ------------------------------------------------------------------ new states

    def apply_action(self, action: Placement | Tile) -> GameState:
        """The state after placing the called tile (`Placement`; in a known order the
        next tile is called with it) or after a call (`Tile`): a new state, this one
        unchanged. BadInput names why an action is not legal here."""
        if isinstance(action, Tile):
            self.check_call(action)
            to_call = self.to_call[1:] if self.to_call is not None else None
            return GameState(self.rules, self.variant, self.placements, self.board,
                             self.ships_on, action, to_call,
                             tuple(t for t in self.coming if t != action))
        if not isinstance(action, Placement):
            raise BadInput(f"{action!r} is neither a placement nor a called tile")
        self.check_placement(action)
        if self.to_call:
            called, to_call = self.to_call[0], self.to_call[1:]
            coming = tuple(t for t in self.coming if t != called)
        else:
            called, to_call, coming = None, self.to_call, self.coming
        return self._put(action, called, to_call, coming)

    def placed(self, p: Placement) -> GameState:
        """The tile of `p` put on the board (a recorded placement, as `replay` plays
        them; BadInput naming why if it may not go there); the called tile and the
        tiles to come are left as they are."""
        self.check_put(p)
        return self._put(p, self.called, self.to_call, self.coming)

    def _put(self, p: Placement, called: Tile | None, to_call: tuple[Tile, ...] | None,
             coming: tuple[Tile, ...]) -> GameState:
        board = dict(self.board)
        board[p.cell] = self.rules.tile_by_id[p.tile]
        ships_on = self.ships_on
        if p.launch:
            ships_on = dict(ships_on)
            ships_on[p.cell] = p.launch
        return GameState(self.rules, self.variant, [*self.placements, p], board, ships_on,
                         called, to_call, coming)

    def _why_illegal(self, tile: Tile, p: Placement) -> str:
        board = dict(self.board)
        board[p.cell] = tile
        rows = completed_rows(self.rules, board, p.cell)
        possible = {s for _, r in rows for s in row_ships(r)}
        launched = self.launched
        for s in p.launch:
            if s in launched:
                return f"the {s} spaceship was already launched"
            if s not in possible:
                return f"no {s} row (or {s} bonus row) is completed by this tile"
        if self.variant.ships == "simple":
            on_pad = [s for s in self.rules.spaceships if s not in launched]
            nxt = on_pad[:len(p.launch)]
            if set(nxt) != set(p.launch):
                missing = [s for s in nxt if s not in p.launch]
                return (f"under the simple rules the next spaceship to launch is "
                        f"{missing[0] if missing else nxt[0]}")
            return "each launched spaceship needs a row of its own completed by this tile"
        if len(p.launch) > 1:
            return "under the advanced rules only one spaceship may land on a tile"
        return (f"every completed {p.launch[0]} row already carries a spaceship "
                "(advanced rules)")


class Scratch:
    """A search's own working copy of a state's board, changed in place: `play` and
    `undo` a move by the thousand, unchecked (the moves come from `placements_for`,
    legal by construction), and `state` turns it back into a `GameState`. The called
    tile and the tiles to come are not followed: the search names the tiles itself."""

    def __init__(self, state: GameState) -> None:
        self.rules, self.variant = state.rules, state.variant
        self.placements = list(state.placements)
        self.board = dict(state.board)
        self.ships_on = dict(state.ships_on)

    @property
    def launched(self) -> set[str]:
        return _launched(self.ships_on)

    def is_terminal(self) -> bool:
        return len(self.placements) == self.rules.board_size

    def unplaced_tiles(self) -> list[Tile]:
        """As `GameState.unplaced_tiles`."""
        used = {p.tile for p in self.placements}
        return [t for t in self.rules.tiles if t.id not in used]

    def bonus(self) -> tuple[int, str | None]:
        return ring_bonus(self.rules, self.launched)

    def placements_for(self, tile: Tile) -> list[Placement]:
        """As `GameState.placements_for`."""
        return [Placement(tile.id, c, launch) for c in self.rules.cell_ids
                if c not in self.board
                for launch in _launches(self.rules, self.variant, self.board,
                                        self.ships_on, tile, c)]

    def play(self, p: Placement) -> None:
        self.placements.append(p)
        self.board[p.cell] = self.rules.tile_by_id[p.tile]
        if p.launch:
            self.ships_on[p.cell] = p.launch

    def undo(self, p: Placement) -> None:
        """Take back `p`, the last move played."""
        self.placements.pop()
        del self.board[p.cell]
        self.ships_on.pop(p.cell, None)

    def state(self) -> GameState:
        """The board as a state, no tile called (its order of calls unknown)."""
        return GameState(self.rules, self.variant, list(self.placements), dict(self.board),
                         dict(self.ships_on))


def _launched(ships_on: dict[str, tuple[str, ...]]) -> set[str]:
    return {s for ships in ships_on.values() for s in ships}


def _launches(rules: Rules, variant: Variant, board: dict[str, Tile],
              ships_on: dict[str, tuple[str, ...]], tile: Tile, cell: str
              ) -> list[tuple[str, ...]]:
    """Every legal set of launches if `tile` is put on `cell` (always includes ())."""
    if variant.ships is None or not rules.spaceships:
        return [()]
    board = dict(board)
    board[cell] = tile
    rows = completed_rows(rules, board, cell)
    launched = _launched(ships_on)
    on_pad = [s for s in rules.spaceships if s not in launched]
    if variant.ships == "simple":
        return simple_launches(rows, on_pad)
    return advanced_launches(rows, on_pad, ships_on)


def replay(position: Position, variant: Variant) -> GameState:
    """Play the recorded placements in order, checking every launch; the position's
    called tile is called, the tiles it knows to come are kept, and the order of the
    rest is unknown."""
    state = GameState(position.rules, variant)
    for p in position.placements:
        state = state.placed(p)
    called = None if position.called is None else position.rules.tile_by_id[position.called]
    return state.but(called=called,
                     coming=tuple(position.rules.tile_by_id[t] for t in position.coming))


def deal(rules: Rules, rng: random.Random) -> list[Tile]:
    """The tiles called in a new game, in call order (board_size of them)."""
    return rng.sample(rules.tiles, rules.board_size)


def game_draw(rules: Rules, seed: int) -> list[Tile]:
    """The draw of the game dealt from `seed` (simulate's game, `max --draws`' draw)."""
    return deal(rules, random.Random(seed))


def dealt_game(rules: Rules, variant: Variant, draw: list[Tile]) -> GameState:
    """A new game whose tiles are called in the order of `draw`: the first is called."""
    return GameState(rules, variant, called=draw[0] if draw else None,
                     to_call=tuple(draw[1:]))
