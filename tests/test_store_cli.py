"""`toppi puzzles list|export`: the puzzles `generate --store` saved, filtered by game
and difficulty; exported files are the files `generate --out` writes and the games'
`check-unique` confirms them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import assert_one_line_error, game_runner, run_json

puzzles = game_runner("puzzles")
topito = game_runner("topito")
hippo = game_runner("hippo")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A store with 2 medium Topito and 2 easy Hippo puzzles, and the `--out` files of
    the same Topito run."""
    base = tmp_path_factory.mktemp("store")
    path, out = base / "p.sqlite", base / "out"
    for r in (topito("generate", "--count", "2", "--seed", "3", "--jobs", "1",
                     "--store", str(path), "--out", str(out)),
              hippo("generate", "--count", "2", "--difficulty", "easy", "--seed", "3",
                    "--jobs", "1", "--store", str(path))):
        assert r.exit_code == 0, r.output
    return path, out


def test_list_counts_and_filters(store):
    path, _ = store
    every = run_json(puzzles, "list", "--store", str(path))
    assert every["count"] == 4
    assert every["by_game"] == {"hippo": {"easy": 2}, "topito": {"medium": 2}}
    assert [p["game"] for p in every["puzzles"]] == ["hippo", "hippo", "topito", "topito"]
    scores = [p["score"] for p in every["puzzles"] if p["game"] == "topito"]
    assert scores == sorted(scores)
    only = run_json(puzzles, "list", "--store", str(path), "--game", "topito")
    assert only["count"] == 2 and {p["difficulty"] for p in only["puzzles"]} == {"medium"}
    assert run_json(puzzles, "list", "--store", str(path), "--difficulty", "hard")["count"] == 0
    easy = run_json(puzzles, "list", "--store", str(path), "--difficulty", "easy")
    assert easy["by_game"] == {"hippo": {"easy": 2}}
    table = puzzles("list", "--store", str(path))
    assert table.exit_code == 0 and "topito: 2 medium" in table.stdout


def test_export_writes_the_generated_files_and_they_check_unique(store, tmp_path):
    path, generated = store
    done = run_json(puzzles, "export", "--store", str(path), "--game", "topito",
                    "--out", str(tmp_path))
    files = [Path(p["file"]) for p in done["puzzles"]]
    assert len(files) == 2 and all(f.exists() for f in files)
    def same(f: Path) -> str:  # the store keeps JSON with sorted keys
        return json.dumps(json.loads(f.read_text()), sort_keys=True)

    assert sorted(map(same, files)) == sorted(map(same, generated.glob("*.json")))
    for f in files:
        verdict = run_json(topito, "check-unique", str(f))
        assert verdict["status"] == "unique" and verdict["stated_solution_confirmed"]
    # without --out: one JSON document with the puzzle files in it
    inline = run_json(puzzles, "export", "--store", str(path), "--game", "hippo")
    assert [p["puzzle"]["game"] for p in inline["puzzles"]] == ["hippo", "hippo"]


def test_a_puzzle_found_again_by_another_run_is_not_added(store, tmp_path):
    path, _ = store
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(path.read_bytes())
    stored = run_json(puzzles, "list", "--store", str(path), "--game", "topito")
    attempts = max(p["attempt"] for p in stored["puzzles"]) + 1  # as far as the first run
    # the same run again replaces its own rows; another run (here: another time limit,
    # the same proposals) that finds the same puzzles adds nothing
    same = run_json(topito, "generate", "--count", "2", "--seed", "3", "--jobs", "1",
                    "--store", str(copy))
    assert same["duplicates"] == 0 and len(same["puzzles"]) == 2
    other = run_json(topito, "generate", "--count", "2", "--seed", "3", "--jobs", "1",
                     "--store", str(copy), "--max-attempts", str(attempts),
                     "--time-limit", "19")
    assert other["duplicates"] == 2 and other["puzzles"] == []
    assert run_json(puzzles, "list", "--store", str(copy))["count"] == 4


def test_bad_input_is_one_line(store, tmp_path):
    path, _ = store
    assert_one_line_error(puzzles("list", "--store", str(tmp_path / "none.sqlite")),
                          "no such file")
    assert not (tmp_path / "none.sqlite").exists()  # reading creates nothing
    assert_one_line_error(puzzles("list", "--store", str(path), "--game", "chess"),
                          "unknown game")
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database\n")
    assert_one_line_error(puzzles("export", "--store", str(bad)), "not a SQLite")
    assert_one_line_error(puzzles("list", "--store", str(path), "--difficulty", "brutal"),
                          "--difficulty")
    assert_one_line_error(puzzles("list"), "--store")


@pytest.mark.parametrize("sql", ["UPDATE puzzles SET result = 'garbage' WHERE id = 1",
                                 "UPDATE puzzles SET rating = '{\"score\": -5}' WHERE id = 1"])
def test_list_and_export_skip_a_damaged_row_and_say_so(store, tmp_path, sql):
    import shutil
    import sqlite3

    path = tmp_path / "copy.sqlite"
    shutil.copy(store[0], path)
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()
    listed = puzzles("list", "--store", str(path), "--json")
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.stdout)["count"] == 3
    assert "puzzles row 1 skipped" in listed.stderr and "Traceback" not in listed.output
    exported = puzzles("export", "--store", str(path), "--out", str(tmp_path / "out"))
    assert exported.exit_code == 0, exported.output
    assert "puzzles row 1 skipped" in exported.stderr
    assert len(list((tmp_path / "out").rglob("*.json"))) == 3
