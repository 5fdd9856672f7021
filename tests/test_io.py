"""The one JSON reader: bad files are one BadInput line, never a traceback."""

from __future__ import annotations

import pytest

from solver.errors import BadInput
from solver.io import MAX_DEPTH, load_json, parse_json
from tests.cli_helpers import assert_one_line_error, game_runner


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000, 200_000])
def test_nesting_deeper_than_the_limit_is_refused(depth):
    with pytest.raises(BadInput, match=f"nested more than {MAX_DEPTH} levels deep"):
        parse_json("[" * depth + "]" * depth, "file x")


def test_nesting_at_the_limit_is_read():
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "file x") is not None
    assert parse_json('{"a": ' * MAX_DEPTH + "1" + "}" * MAX_DEPTH, "file x") is not None


def test_a_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    import solver.io

    monkeypatch.setattr(solver.io, "MAX_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_text("[" + ",".join(["1"] * 100) + "]")
    with pytest.raises(BadInput, match="larger than"):
        load_json(path, "position file")


@pytest.mark.parametrize("game, args", [
    ("take-it-higher", ("score", "{f}")), ("take-it-higher", ("max", "--rules", "{f}")),
    ("hoch-hinaus", ("show", "{f}")), ("tippi-toppi", ("show", "{f}")),
    ("topito", ("show", "{f}")), ("hippo", ("show", "{f}")),
])
def test_every_game_refuses_a_deeply_nested_file_in_one_line(tmp_path, game, args):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    result = game_runner(game)(*(a.format(f=path) for a in args))
    assert_one_line_error(result, "nested more than")
