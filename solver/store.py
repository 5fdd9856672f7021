"""The results store: one SQLite file (`--store FILE`, stdlib sqlite3, no server).

One table per kind of result (`games` for every game's simulate, `puzzles` for every
game's generate, a game's own such as `<game>_draws`), each row a finished task:
its seed, the run's parameters (JSON, sorted keys), the result (JSON) and a rating (JSON
or NULL). Every row is committed as soon as its task finishes, so an interrupted run
loses nothing that finished, and `--resume` skips tasks whose (kind, parameters, seed)
row exists. Puzzle rows also carry a canonical form supplied by the game; a puzzle whose
canonical form is stored already is not added again.

Each row carries a checksum of its kind, parameters, seed, result, rating and canonical
form. A row whose checksum does not match (edited or damaged) or whose JSON cannot be
read is never trusted: reading skips it and says so (`Store.skipped`), and `--resume`
computes it again. Rows written before checksums existed (NULL) are read as they are.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io import loads

_HEADER = b"SQLite format 3\x00"
_KIND = re.compile(r"^[a-z][a-z0-9_]*$")
PUZZLES_KIND = "puzzles"  # the table every game's `generate --store` writes
_COLUMNS = "id, seed, parameters, result, rating, canonical, created, checksum"


def canonical_json(value: Any) -> str:
    """The JSON text with sorted keys and no spaces: equal values give equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def smallest_form(images: Iterable[dict[str, Any]], unordered: Sequence[str] = ()) -> str:
    """A puzzle's canonical form over its symmetries: the smallest canonical JSON of its
    images (the puzzle file of each symmetric copy), with the fields in `unordered`
    (lists that are really multisets or sets, such as a hand or the tasks) sorted."""
    forms = []
    for data in images:
        forms.append(canonical_json({**data, **{k: sorted(data[k]) for k in unordered}}))
    return min(forms)


def row_checksum(kind: str, parameters: str, seed: int, result: str, rating: str | None,
                 canonical: str | None) -> str:
    """The checksum of a stored row's content (the texts as stored)."""
    import hashlib

    text = canonical_json([kind, parameters, seed, result, rating, canonical])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def data_digest(value: Any) -> str:
    """A short fingerprint of rules data (dataclasses, lists, dicts, sets...), equal in
    every process: part of a stored run's parameters, so that another `--rules FILE`
    under the same name is another run and `--resume` never mixes the two."""

    def plain(v: Any) -> Any:
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return [type(v).__name__, {f.name: plain(getattr(v, f.name))
                                       for f in dataclasses.fields(v)}]
        if isinstance(v, enum.Enum):
            return plain(v.value)
        if isinstance(v, dict):
            return sorted(([canonical_json(plain(k)), plain(x)] for k, x in v.items()),
                          key=lambda kv: kv[0])
        if isinstance(v, (set, frozenset)):  # no order of their own (hash seeds differ)
            return sorted((plain(x) for x in v), key=canonical_json)
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        raise TypeError(f"data_digest: cannot fingerprint {type(v).__name__}")

    import hashlib  # here: every game's command-line module imports this one

    return hashlib.sha256(canonical_json(plain(value)).encode()).hexdigest()[:16]


class Store:
    """An open store; use as a context manager or call close()."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        from solver.io import check_output, read_start

        if not str(path).strip():
            raise BadInput("--store: empty file name")
        self.path = Path(path)
        if not create or os.path.lexists(self.path):
            # a regular file (not a FIFO, a device...), and a database
            head = read_start(self.path, "--store", len(_HEADER))
            if head and head != _HEADER:
                raise BadInput(f"--store {path}: not a SQLite database (refusing to touch it)")
        if create:
            check_output(self.path, "--store")
        import sqlite3  # here: every game's command-line module imports this one

        try:
            self.db = sqlite3.connect(self.path, timeout=30)
            # a damaged byte in a text must reach the checksum, not raise while reading
            self.db.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
            self.db.execute("PRAGMA journal_mode=WAL")
            check = self.db.execute("PRAGMA quick_check").fetchone()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise BadInput(f"--store {path}: corrupt or unreadable SQLite file ({exc})") from None
        if check is None or check[0] != "ok":
            self.db.close()
            raise BadInput(f"--store {path}: corrupt SQLite file ({check and check[0]})")
        self._tables: set[str] = set()
        self._with_checksums: dict[str, float] = {}
        # one line per damaged row met while reading (shown by the commands)
        self.skipped: list[str] = []

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file (everything is committed already)."""
        self.db.close()

    def _table(self, kind: str) -> str:
        if not _KIND.match(kind):
            raise ValueError(f"bad kind name {kind!r}")
        if kind not in self._tables:
            try:
                self.db.execute(
                    f'CREATE TABLE IF NOT EXISTS "{kind}" ('
                    "id INTEGER PRIMARY KEY, seed INTEGER NOT NULL, parameters TEXT NOT NULL, "
                    "result TEXT NOT NULL, rating TEXT, canonical TEXT, "
                    "created TEXT NOT NULL DEFAULT (datetime('now')), "
                    "UNIQUE(parameters, seed))")
                self.db.execute(f'CREATE INDEX IF NOT EXISTS "{kind}_canonical" '
                                f'ON "{kind}"(canonical)')
                self._add_checksum_column(kind)
                self.db.commit()
            except (self.db.DatabaseError, UnicodeDecodeError) as exc:  # sqlite3's (DB-API)
                raise BadInput(f"--store {self.path}: cannot write ({exc})") from None
            self._tables.add(kind)
        return kind

    def _add_checksum_column(self, kind: str) -> None:
        """Tables written before checksums existed get the column (NULL in old rows)."""
        columns = {r[1] for r in self.db.execute(f'PRAGMA table_info("{kind}")')}
        if "checksum" not in columns:
            self.db.execute(f'ALTER TABLE "{kind}" ADD COLUMN checksum TEXT')

    def _read(self, kind: str, row: tuple) -> dict[str, Any] | None:
        """A row (id, seed, parameters, result, rating, canonical, created, checksum)
        as values, or None (and a line in `skipped`) when it is damaged."""
        row_id, seed, params, result, rating, canonical, created, checksum = row
        why = None
        texts = (params, result, rating, canonical, checksum)
        if not (isinstance(seed, int) and isinstance(row_id, int)) or not all(
                t is None or isinstance(t, str) for t in texts):
            why = "a value of the wrong type"
        elif checksum is None and row_id >= self._first_checksummed(kind):
            # rows written before checksums existed have none (they come first); a later
            # row without one was edited
            why = "it has no checksum"
        elif checksum is not None and checksum != row_checksum(kind, params, seed, result,
                                                               rating, canonical):
            why = "its checksum does not match its content (edited or damaged)"
        else:
            try:
                values = {"id": row_id, "seed": seed, "parameters": loads(params),
                          "result": loads(result),
                          "rating": None if rating is None else loads(rating),
                          "canonical": canonical, "created": created}
            except (TypeError, ValueError, RecursionError):
                why = "it is not JSON"
        if why is not None:
            self.skipped.append(f"--store {self.path}: {kind} row {row_id} skipped: {why}")
            return None
        return values

    def _first_checksummed(self, kind: str) -> float:
        """The id of the table's first row with a checksum (infinity when none has)."""
        if kind not in self._with_checksums:
            try:
                found = self.db.execute(
                    f'SELECT MIN(id) FROM "{kind}" WHERE checksum IS NOT NULL').fetchone()
            except self.db.OperationalError:  # an old table: no checksum column
                found = None
            first = found[0] if found else None
            self._with_checksums[kind] = first if isinstance(first, int) else math.inf
        return self._with_checksums[kind]

    def skipped_note(self) -> str | None:
        """One line about the damaged rows met so far, or None."""
        if not self.skipped:
            return None
        if len(self.skipped) == 1:
            return self.skipped[0]
        return (f"--store {self.path}: {len(self.skipped)} damaged rows skipped (checksum "
                f"or JSON); the first: {self.skipped[0].split(': ', 1)[1]}")

    def put(self, kind: str, parameters: dict[str, Any], seed: int, result: Any,
            rating: Any = None, canonical: str | None = None) -> bool:
        """Save one finished task and commit at once. A row with the same (parameters,
        seed) is replaced. With `canonical`, a row of another task with the same
        canonical form means a duplicate: nothing is written and False returned."""
        table = self._table(kind)
        params = canonical_json(parameters)
        try:
            if canonical is not None:
                row = self.db.execute(
                    f'SELECT 1 FROM "{table}" WHERE canonical = ? AND NOT '
                    "(parameters = ? AND seed = ?)", (canonical, params, seed)).fetchone()
                if row is not None:
                    return False
            result_text = canonical_json(result)
            rating_text = None if rating is None else canonical_json(rating)
            self.db.execute(
                f'INSERT OR REPLACE INTO "{table}" (seed, parameters, result, rating, '
                "canonical, checksum) VALUES (?, ?, ?, ?, ?, ?)",
                (seed, params, result_text, rating_text, canonical,
                 row_checksum(table, params, seed, result_text, rating_text, canonical)))
            self.db.commit()
        except self.db.DatabaseError as exc:
            raise BadInput(f"--store {self.path}: cannot write ({exc})") from None
        return True

    def done(self, kind: str, parameters: dict[str, Any]) -> dict[int, Any]:
        """Results already stored for these parameters, by seed (damaged rows left out:
        see `skipped`)."""
        table = self._table(kind)
        with self._reading():
            rows = self.db.execute(
                f'SELECT {_COLUMNS} FROM "{table}" WHERE parameters = ?',
                (canonical_json(parameters),)).fetchall()
            good = [self._read(table, row) for row in rows]
        return {row["seed"]: row["result"] for row in good if row is not None}

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """A damaged file found while reading (a page, the schema, a text's bytes) is one
        line, not a traceback."""
        try:
            yield
        except (self.db.DatabaseError, UnicodeDecodeError) as exc:
            raise BadInput(f"--store {self.path}: corrupt or unreadable SQLite file "
                           f"({exc})") from None

    def rows(self, kind: str, where: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every row of a kind, oldest first (id, seed, parameters, result, rating,
        canonical, created); `where` keeps the rows whose parameters have those values.
        A kind never written has no rows (reading creates nothing)."""
        if not _KIND.match(kind):
            raise ValueError(f"bad kind name {kind!r}")
        if kind not in self.kinds():
            return []
        with self._reading():
            return self._rows(kind, where)

    def _rows(self, kind: str, where: dict[str, Any] | None) -> list[dict[str, Any]]:
        columns = _COLUMNS  # reading writes nothing: an old table has no checksum column
        if "checksum" not in {r[1] for r in self.db.execute(f'PRAGMA table_info("{kind}")')}:
            columns = _COLUMNS.replace("checksum", "NULL")
        sql = f'SELECT {columns} FROM "{kind}"'
        values: list[Any] = []
        for n, (name, value) in enumerate((where or {}).items()):
            if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
                raise ValueError(f"bad parameter name {name!r}")
            sql += " AND " if n else " WHERE "
            sql += f"json_extract(parameters, '$.{name}') IS ?"
            values.append(value)
        out = []
        try:
            found = self.db.execute(sql + " ORDER BY id", values).fetchall()
        except self.db.DatabaseError as exc:
            raise BadInput(f"--store {self.path}: cannot read ({exc})") from None
        for row in found:
            values = self._read(kind, row)
            if values is not None:
                out.append(values)
        return out

    def kinds(self) -> list[str]:
        """The tables in the file."""
        with self._reading():
            return [r[0] for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]


def open_store(path: str | None) -> Store | None:
    """The store at `path` (created if missing), or None without --store."""
    return Store(path) if path else None


@contextmanager
def store_at(path: str | None) -> Iterator[Store | None]:
    """`open_store` as a context manager: the store (or None) closed on leaving."""
    store = open_store(path)
    try:
        yield store
    finally:
        if store is not None:
            store.close()
