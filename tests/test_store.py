"""The SQLite results store: rows committed at once, --resume lookups, duplicates
refused by canonical form, corrupt files refused with one line."""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from solver.errors import BadInput
from solver.store import Store, canonical_json, data_digest
from tests.cli_helpers import assert_one_line_error, game_runner

run = game_runner("take-it-higher")


def test_rows_round_trip_and_resume_lookup(tmp_path):
    path = tmp_path / "s.sqlite"
    params = {"policy": "greedy", "variant": "basic"}
    with Store(path) as s:
        assert s.put("games", params, 7, {"score": 300}, {"score": 300})
        assert s.put("games", params, 8, {"score": 310})
        assert s.put("games", {"policy": "random", "variant": "basic"}, 7, {"score": 200})
        # the same (parameters, seed) replaces, never duplicates
        assert s.put("games", dict(reversed(list(params.items()))), 8, {"score": 311})
    with Store(path) as s:
        assert s.done("games", params) == {7: {"score": 300}, 8: {"score": 311}}
        assert s.done("games", {"policy": "random", "variant": "basic"}) == {7: {"score": 200}}
        assert len(s.rows("games")) == 3
        assert "games" in s.kinds()


def test_duplicate_puzzles_are_refused_by_canonical_form(tmp_path):
    with Store(tmp_path / "p.sqlite") as s:
        a = canonical_json({"b": 1, "a": [1, 2]})
        assert a == canonical_json({"a": [1, 2], "b": 1})
        assert s.put("puzzles", {"game": "g"}, 1, {"p": 1}, canonical=a)
        assert not s.put("puzzles", {"game": "g"}, 2, {"p": 1}, canonical=a)
        assert s.put("puzzles", {"game": "g"}, 3, {"p": 2}, canonical="other")
        assert [r["seed"] for r in s.rows("puzzles")] == [1, 3]


def test_rows_written_survive_a_killed_process(tmp_path):
    """Each put is committed: a process that dies without closing keeps its rows."""
    path = tmp_path / "k.sqlite"
    code = (f"import os; from solver.store import Store; s = Store({str(path)!r})\n"
            "for i in range(5): s.put('games', {'x': 1}, i, {'i': i})\n"
            "os._exit(9)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 9, done.stderr
    with Store(path) as s:
        assert sorted(s.done("games", {"x": 1})) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("content", [b"these are not the rows you are looking for\n",
                                     b"SQLite format 3\x00" + b"\xff" * 2000])
def test_corrupt_or_foreign_file_is_refused(tmp_path, content):
    path = tmp_path / "bad.sqlite"
    path.write_bytes(content)
    with pytest.raises(BadInput, match="--store"):
        Store(path)
    assert path.read_bytes() == content  # left untouched
    assert_one_line_error(run("simulate", "--games", "1", "--no-optimum", "--jobs", "1",
                              "--store", str(path)), "--store")


def test_truncated_database_is_refused(tmp_path):
    path = tmp_path / "t.sqlite"
    with Store(path) as s:
        for i in range(200):
            s.put("games", {"x": 1}, i, {"pad": "x" * 200})
    with sqlite3.connect(path) as db:  # fold the WAL back into the file
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    for extra in tmp_path.glob("t.sqlite-*"):
        extra.unlink()
    with pytest.raises(BadInput, match="corrupt"):
        Store(path).done("games", {"x": 1})


def test_a_directory_is_refused(tmp_path):
    assert_one_line_error(run("simulate", "--games", "1", "--no-optimum", "--jobs", "1",
                              "--store", str(tmp_path)), "--store")


def test_data_digest_is_the_same_in_every_process_and_follows_the_data():
    """Rules data fingerprints (stored runs' parameters): equal under any hash seed
    (sets have no order of their own), different for different data."""
    code = ("from dataclasses import dataclass\n"
            "from solver.store import data_digest\n"
            "@dataclass(frozen=True)\nclass R:\n    name: str\n    tiles: frozenset\n"
            "print(data_digest(R('x', frozenset({'GJ', 'SA', 'RK', 'BL', 'YQ'}))))")
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": str(h)}, check=True).stdout
            for h in (1, 2, 3, 4)}
    assert len(seen) == 1
    from models.take_it_higher.rules import load_rules

    rules = load_rules()
    assert data_digest(rules) == data_digest(load_rules())
    assert data_digest(rules) != data_digest(dataclasses.replace(rules, tiles=rules.tiles[1:]))
    with pytest.raises(TypeError):
        data_digest(object())


def _tamper(path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


@pytest.mark.parametrize("sql, why", [
    ('UPDATE games SET result = \'{"score":1942}\' WHERE seed = 8', "checksum"),
    ("UPDATE games SET result = 'not json' WHERE seed = 8", "checksum"),
    ("UPDATE games SET seed = 9 WHERE seed = 8", "checksum"),
    ("UPDATE games SET result = 'not json', checksum = NULL WHERE seed = 8", "no checksum"),
])
def test_an_edited_or_damaged_row_is_never_trusted(tmp_path, sql, why):
    path = tmp_path / "s.sqlite"
    with Store(path) as s:
        s.put("games", {"x": 1}, 7, {"score": 300})
        s.put("games", {"x": 1}, 8, {"score": 310})
    _tamper(path, sql)
    with Store(path) as s:
        assert s.done("games", {"x": 1}) == {7: {"score": 300}}
        assert [r["seed"] for r in s.rows("games")] == [7]
        assert len(s.skipped) == 2 and all(why in line for line in s.skipped)
        assert "games row 2 skipped" in s.skipped_note()


def _old_store(path) -> None:
    """A store as written before checksums: one games row {"s": 5} for {"x": 1}."""
    db = sqlite3.connect(path)
    db.execute('CREATE TABLE "games" (id INTEGER PRIMARY KEY, seed INTEGER NOT NULL, '
               "parameters TEXT NOT NULL, result TEXT NOT NULL, rating TEXT, canonical TEXT, "
               "created TEXT NOT NULL DEFAULT (datetime('now')), UNIQUE(parameters, seed))")
    db.execute("INSERT INTO games (seed, parameters, result) VALUES (1, '{\"x\":1}', '{\"s\":5}')")
    db.commit()
    db.close()


def test_rows_of_a_store_without_checksums_are_read_and_new_rows_get_one(tmp_path):
    path = tmp_path / "old.sqlite"
    _old_store(path)
    with Store(path) as s:
        assert s.done("games", {"x": 1}) == {1: {"s": 5}}
        s.put("games", {"x": 1}, 2, {"s": 6})
    _tamper(path, "UPDATE games SET result = '{\"s\":60}' WHERE seed = 2")
    with Store(path) as s:
        assert s.done("games", {"x": 1}) == {1: {"s": 5}} and len(s.skipped) == 1


def test_resume_computes_a_damaged_row_again_and_says_so(tmp_path):
    store = tmp_path / "runs.sqlite"
    args = ("simulate", "--games", "3", "--no-optimum", "--jobs", "1", "--seed", "4",
            "--json", "--store", str(store))
    whole = run(*args)
    assert whole.exit_code == 0, whole.output
    _tamper(store, "UPDATE games SET result = '{\"forged\": 1}' WHERE id = 2")
    again = run(*args, "--resume")
    assert again.exit_code == 0, again.output
    assert "row 2 skipped" in again.stderr and "computed again" in again.stderr
    assert json.loads(again.stdout)["cells"] == json.loads(whole.stdout)["cells"]
    with Store(store) as s:
        assert len(s.rows("games")) == 3 and not s.skipped


def test_listing_an_old_read_only_store_writes_nothing(tmp_path):
    path = tmp_path / "old.sqlite"
    _old_store(path)
    with Store(path) as s:
        assert [r["result"] for r in s.rows("games")] == [{"s": 5}]
        columns = {r[1] for r in s.db.execute('PRAGMA table_info("games")')}
    assert "checksum" not in columns
