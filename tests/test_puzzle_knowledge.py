"""Every game's `solve` and `check-unique` say in their JSON what solving its puzzle
knows, and whether that is more than a player sees at the table."""

import json
from pathlib import Path

import pytest

from tests.cli_helpers import game_runner

LIBRARY = Path(__file__).resolve().parent.parent / "puzzles"

# a puzzle that shows what lies face down at the table is all-seeing by nature
ALL_SEEING = {"hoch-hinaus": False, "tippi-toppi": True, "topito": False, "hippo": True,
              "take-it-higher": True}


@pytest.mark.parametrize("game", sorted(ALL_SEEING))
def test_solve_and_check_unique_say_what_they_know(game):
    run = game_runner(game)
    puzzle = sorted((LIBRARY / game / "library").glob("*.json"))[0]
    for verb in ("solve", "check-unique"):
        res = run(verb, str(puzzle), "--json")
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout)
        assert out["all_seeing"] is ALL_SEEING[game]
        assert out["knows"] and all(isinstance(k, str) for k in out["knows"])
        assert out["unknown"] == []
