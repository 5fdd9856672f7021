"""The learned tables of one rules file: their weights, what they read, and the file
they are written to (read back by `files.py`)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from models.take_it_higher.learned.board import Board, Layout, board_of, new_board
from models.take_it_higher.rules import Rules, Tile

VERSION = 1  # of the values file
KIND = "take-it-higher-line-values"  # the values file's "kind"


class LineValues:
    """The learned tables of one rules file and scoring (basic or gold/silver rows),
    and with `ships` (simple or advanced rules) the Take it Higher! bonus too: then the
    tables also read each line's ship (launched, blocked by a ship on the line, or how
    many ships on the pad are below it) and the ring, and a move includes its
    launches. The entries they read are `features.py`'s; learning is `td.py`'s."""

    def __init__(self, rules: Rules, gold_silver: bool,
                 weights: dict[tuple, float] | None = None, games: int = 0,
                 seed: int = 0, ships: str | None = None, chances: bool = False,
                 fits: bool = False, demand: bool = False) -> None:
        self.rules = rules
        self.gold_silver = gold_silver
        self.ships = ships if rules.spaceships else None
        # the ships' chances among the entries: older files were learned without them
        # and read without them
        self.chances = chances
        # the cells' fits among the entries: tables learned with them
        self.fits = fits
        # each colour's demand among the entries: the lines that wait for it against
        # the unseen tiles that carry it (tables learned with them)
        self.demand = demand
        # while learning with temporal coherence: each entry's summed error and summed
        # absolute error (never written to the file)
        self.coherence: dict[tuple, tuple[float, float]] | None = None
        self.layout = Layout(rules, gold_silver)
        self.weights: dict[tuple, float] = weights if weights is not None else {}
        self.games = games
        self.seed = seed

    def new_board(self) -> Board:
        """The empty board, every tile of the rules unseen."""
        return new_board(self.layout, self.fits)

    def board_of(self, board: dict[str, Tile], unseen: list[Tile],
                 ships_on: dict[str, tuple[str, ...]] | None = None) -> Board:
        """The board of a position: its tiles placed (and ships launched), `unseen` the
        tiles that may come."""
        return board_of(self.layout, self.fits, board, unseen, ships_on)

    def value(self, keys: list[tuple]) -> float:
        """The sum of the table entries `keys` (an entry never learned is worth 0)."""
        w = self.weights
        return sum(w.get(k, 0.0) for k in keys)

    def to_dict(self) -> dict:
        """The values file's JSON: the tables' flags, games and seed, and the entries
        (rounded to 4 decimals, the near-zero ones left out) in a fixed order."""
        from solver.store import data_digest

        return {"kind": KIND, "version": VERSION,
                "rules_digest": data_digest(self.rules),
                "gold_silver": self.gold_silver, "ships": self.ships,
                **({"chances": True} if self.chances else {}),
                **({"fits": True} if self.fits else {}),
                **({"demand": True} if self.demand else {}), "games": self.games,
                "seed": self.seed,
                "weights": [[list(k), round(v, 4)] for k, v in sorted(
                    self.weights.items(), key=lambda kv: repr(kv[0])) if abs(v) >= 1e-4]}

    def save(self, path: Path, what: str = "--out") -> None:
        """JSON; gzip-compressed when the name ends in .gz (a write error is one line)."""
        from solver.io import write_bytes

        text = json.dumps(self.to_dict(), separators=(",", ":"))
        data = text.encode()
        write_bytes(path, gzip.compress(data, mtime=0) if path.suffix == ".gz" else data,
                    what)
