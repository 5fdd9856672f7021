"""`toppi puzzles list|export`: the puzzles that `generate --store FILE` saved.

Every game's `generate` writes its puzzles into the one `puzzles` table of the store
(solver/puzzles.py), each row holding the puzzle file exactly as `generate --out`
writes it (puzzle, solution, rating), so exported files are read by the game's `solve`,
`check-unique` and `sheet` as they are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import click

from solver.errors import BadInput
from solver.io import check_folder, file_in, make_folder, write_text
from solver.puzzles import DIFFICULTIES
from solver.registry import games
from solver.render import print_json, stderr, stdout
from solver.results import dumps
from solver.verb_cli import FilePath

json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print one JSON document on stdout instead of tables.")


@dataclass
class StoredPuzzle:
    """One puzzle row: `puzzle` is the puzzle file's JSON (with solution and rating)."""

    id: int
    game: str
    difficulty: str
    score: float | None
    seed: int | None
    attempt: int
    created: str
    parameters: dict[str, Any]
    puzzle: dict[str, Any]
    file: str | None = None


@dataclass
class PuzzleListing:
    """The puzzles of a store that match --game / --difficulty, and how many per
    (game, difficulty)."""

    store: str
    game: str | None
    difficulty: str | None
    count: int
    by_game: dict[str, dict[str, int]] = field(default_factory=dict)
    puzzles: list[StoredPuzzle] = field(default_factory=list)


def stored_puzzles(path: str, game: str | None = None, difficulty: str | None = None
                   ) -> PuzzleListing:
    """The stored puzzles, ordered by game, difficulty (easy first), rating, row id."""
    from solver.store import PUZZLES_KIND, Store

    if game is not None and game not in games():
        raise BadInput(f"--game {game}: unknown game (one of {', '.join(games())})")
    where: dict[str, Any] = {}
    if game is not None:
        where["game"] = game
    if difficulty is not None:
        where["difficulty"] = difficulty
    with Store(path, create=False) as store:
        rows = store.rows(PUZZLES_KIND, where)
        found = []
        for row in rows:
            puzzle = _stored_puzzle(row)
            if puzzle is None:
                store.skipped.append(f"--store {path}: puzzles row {row['id']} skipped: "
                                     "not a toppi puzzle row")
            else:
                found.append(puzzle)
        note = store.skipped_note()
    if note is not None:
        from rich.markup import escape

        stderr.print(f"[yellow]{escape(note)}[/yellow]", soft_wrap=True)
    order = {d: n for n, d in enumerate(DIFFICULTIES)}
    found.sort(key=lambda p: (p.game, order.get(p.difficulty, len(order)),
                              p.score if p.score is not None else 0.0, p.id))
    by_game: dict[str, dict[str, int]] = {}
    for p in found:
        per = by_game.setdefault(p.game, {})
        per[p.difficulty] = per.get(p.difficulty, 0) + 1
    return PuzzleListing(path, game, difficulty, len(found), by_game, found)


def _stored_puzzle(row: dict[str, Any]) -> StoredPuzzle | None:
    """A puzzles row as a StoredPuzzle, or None when it is not one toppi wrote: a known
    game and difficulty, a numeric rating, an integer seed, a puzzle file object."""
    params, rating, result = row["parameters"], row["rating"] or {}, row["result"]
    if not (isinstance(params, dict) and isinstance(rating, dict)
            and isinstance(result, dict)):
        return None
    game, difficulty = params.get("game"), params.get("difficulty")
    score, seed, puzzle = rating.get("score"), params.get("seed"), result.get("puzzle")
    if (not isinstance(game, str) or game not in games() or difficulty not in DIFFICULTIES
            or not isinstance(puzzle, dict)
            or not (score is None or isinstance(score, (int, float))
                    and not isinstance(score, bool))
            or not (seed is None or isinstance(seed, int) and not isinstance(seed, bool))):
        return None
    return StoredPuzzle(row["id"], game, difficulty, score, seed, row["seed"],
                        row["created"], params, puzzle)


def _filters(f: Any) -> Any:
    for option in (
        click.option("--difficulty", type=click.Choice(DIFFICULTIES),
                     help="Only puzzles of this difficulty."),
        click.option("--game", help="Only this game's puzzles (its id)."),
        click.option("--store", "store_path", envvar="TOPPI_STORE", required=True,
                     type=FilePath(dir_okay=False),
                     help="The SQLite file `generate --store` wrote (or $TOPPI_STORE)."),
    ):
        f = option(f)
    return f


@click.group(name="puzzles")
def group() -> None:
    """Puzzles saved by `toppi <game> generate --store FILE`: list them, export them as
    puzzle files."""


@group.command(name="list")
@_filters
@json_option
def list_command(store_path: str, game: str | None, difficulty: str | None,
                 as_json: bool) -> None:
    """List the stored puzzles (easiest first within each game) and count them."""
    listing = stored_puzzles(store_path, game, difficulty)
    if as_json:
        for p in listing.puzzles:
            p.puzzle = {}  # the listing stays small: `export` gives the puzzles
        print_json(dumps(listing))
        return
    from rich.table import Table

    table = Table(title=f"{listing.count} puzzle(s) in {store_path}")
    for name in ("id", "game", "difficulty", "rating", "seed", "attempt", "created"):
        table.add_column(name, justify="right" if name in ("id", "rating", "seed",
                                                           "attempt") else "left")
    for p in listing.puzzles:
        table.add_row(str(p.id), p.game, p.difficulty,
                      "-" if p.score is None else f"{p.score:g}", str(p.seed), str(p.attempt),
                      p.created)
    stdout.print(table)
    for g, per in listing.by_game.items():
        stdout.print(f"{g}: " + ", ".join(f"{per[d]} {d}" for d in DIFFICULTIES if d in per))


@group.command(name="export")
@_filters
@click.option("--out", "out_dir", type=FilePath(file_okay=False),
              help="Write each puzzle to DIR/<game>-<difficulty>-<id>.json (the format of "
                   "`generate --out`); without it, print them as one JSON document.")
@json_option
def export_command(store_path: str, game: str | None, difficulty: str | None,
                   out_dir: str | None, as_json: bool) -> None:
    """Export the stored puzzles as puzzle files (read by solve, check-unique, sheet)."""
    check_folder(out_dir, "--out")
    listing = stored_puzzles(store_path, game, difficulty)
    if out_dir is None:
        print_json(dumps(listing))
        return
    make_folder(out_dir, "--out")
    for p in listing.puzzles:
        # the name is built from the row: made safe, and never outside --out
        path = file_in(out_dir, (p.game, p.difficulty, p.id), ".json", "--out")
        p.file = str(write_text(path, json.dumps(p.puzzle, indent=1) + "\n", "--out"))
    if as_json:
        for p in listing.puzzles:
            p.puzzle = {}
        print_json(dumps(listing))
        return
    stdout.print(f"{listing.count} puzzle(s) written to {out_dir}")
