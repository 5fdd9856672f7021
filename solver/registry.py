"""One registry of games: each game's id, title and package, given once.

solver/ names no game: the games come from the `GAMES` table of the `models` package
(and from `register`, for a game that lives elsewhere, such as the tests' toy game).
Everything else solver/ needs of a game it finds in the game's package by role:
`game` (the `Game` description, `GAME`), `verbs` (its own verbs, `VERBS`, and its
puzzles, `PUZZLES`), `web` (what the web page needs, `WEB`). Listing the games imports
no game, so `toppi --help` stays fast.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from solver.errors import BadInput

if TYPE_CHECKING:
    from solver.game import Game, GameView
    from solver.verbs import Verb


@dataclass(frozen=True)
class GameEntry:
    """A game as the registry knows it before importing it."""

    id: str  # its name on the command line and in URLs: "my-game"
    title: str  # "My Game"
    package: str  # "models.my_game"
    summary: str  # what its commands answer, for `toppi --help`

    def module(self, role: str) -> ModuleType:
        """The game's module for `role` (game, verbs, web, puzzles, render...)."""
        return importlib.import_module(f"{self.package}.{role}")

    def has(self, role: str) -> bool:
        """Whether the game's package has a module for `role` (e.g. `web`)."""
        from importlib.util import find_spec

        return find_spec(f"{self.package}.{role}") is not None

    def game(self) -> Game:
        return _game(self)

    def verbs(self) -> dict[str, Verb]:
        """Every verb of the game by name: the shared ones (show, moves, simulate,
        play; the puzzle verbs when it has puzzles) and its own."""
        return _verbs(self)

    def verb(self, name: str) -> Verb:
        found = self.verbs().get(name)
        if found is None:
            raise BadInput(f"{self.id}: no verb '{name}' (verbs: {', '.join(self.verbs())})")
        return found

    def view(self) -> GameView:
        """How the game's states look (`render.VIEW`)."""
        return _view(self)

    def web(self) -> Any:
        """The game's web companion (`web.WEB`, a solver.web.GameWeb)."""
        return _web(self)


_extra: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> None:
    """Add a game that is not in the models package (the tests' toy game)."""
    _extra[entry.id] = entry


def unregister(game_id: str) -> None:
    _extra.pop(game_id, None)


def registered() -> tuple[GameEntry, ...]:
    """The games added with `register` (a worker process registers them again)."""
    return tuple(_extra.values())


def games() -> dict[str, GameEntry]:
    """Every game by id: the models package's, then the registered ones."""
    from models import GAMES

    return {**{g.id: g for g in GAMES}, **_extra}


def web_games() -> dict[str, GameEntry]:
    """The games with a web companion (`web.py`), by id: those `toppi serve` shows."""
    return {g: e for g, e in games().items() if e.has("web")}


def entry(game_id: str) -> GameEntry:
    """The game called `game_id` (BadInput naming the games otherwise)."""
    found = games().get(game_id)
    if found is None:
        raise BadInput(f"no game '{game_id}' (games: {', '.join(games())})")
    return found


@cache
def _game(entry: GameEntry) -> Game:
    return entry.module("game").GAME


@cache
def _verbs(entry: GameEntry) -> dict[str, Verb]:
    from solver.shared_verbs import play_verbs, puzzle_verbs

    own = entry.module("verbs")
    puzzles = getattr(own, "PUZZLES", None)
    found = [*play_verbs(entry), *(puzzle_verbs(puzzles) if puzzles else ()),
             *own.VERBS]
    return {v.name: v for v in found}


@cache
def _web(entry: GameEntry) -> Any:
    return entry.module("web").WEB


@cache
def _view(entry: GameEntry) -> GameView:
    return entry.module("render").VIEW
