"""Take it Higher! puzzles: the library re-solved (golden files), uniqueness from CP-SAT
and from PySAT held equal, a perturbed puzzle reported as not unique, the commands."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from models.take_it_higher.puzzles import Puzzle, TakeItHigherPuzzles, read_puzzle
from models.take_it_higher.rules import load_rules
from solver.generate import check_unique, generate
from tests.cli_helpers import game_runner
from tests.puzzle_helpers import verdict_and_search

LIBRARY = sorted((Path(__file__).parent.parent / "puzzles" / "take-it-higher" / "library")
                 .glob("*.json"))


def test_library_has_twenty_puzzles_of_every_difficulty():
    assert len(LIBRARY) >= 20
    levels = [json.loads(p.read_text())["rating"]["difficulty"] for p in LIBRARY]
    assert {lv: levels.count(lv) for lv in set(levels)} == {"easy": 7, "medium": 7, "hard": 7}


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.stem)
def test_library_puzzle_is_unique_and_its_solution_is_the_maximum(path):
    rules = load_rules()
    kind = TakeItHigherPuzzles(rules)
    data = json.loads(path.read_text())
    puzzle, stated = read_puzzle(kind, data, str(path))
    verdict, found = verdict_and_search(kind, puzzle)
    assert verdict.status == "unique"
    assert verdict.solutions == [stated]
    assert kind.score(puzzle, stated) == data["score"]
    # the rating is measured again (from the uniqueness search), not trusted from the file
    features = kind.features(puzzle, stated, found)
    assert features == data["rating"]["features"]
    assert kind.rating.difficulty(kind.rating.score(features)) == data["rating"]["difficulty"]


def _maxsat_agrees(puzzle: Puzzle) -> tuple[str, str]:
    rules = load_rules()
    return (check_unique(TakeItHigherPuzzles(rules, "cpsat"), puzzle).status,
            check_unique(TakeItHigherPuzzles(rules, "maxsat"), puzzle).status)


@pytest.mark.parametrize("path", LIBRARY[::4], ids=lambda p: p.stem)
def test_cpsat_and_maxsat_agree_on_library_puzzles(path):
    kind = TakeItHigherPuzzles(load_rules())
    puzzle, _ = read_puzzle(kind, json.loads(path.read_text()), str(path))
    assert _maxsat_agrees(puzzle) == ("unique", "unique")


def test_a_perturbed_puzzle_is_not_unique_in_both_backends():
    """Take the twin of a tile to come (same letter, other stud) off the board: the two
    score alike in the basic game, so swapping them is a second solution."""
    rules = load_rules()
    kind = TakeItHigherPuzzles(rules)
    g = generate(kind, "easy", 1, seed=5).puzzles[0]
    fixed = dict(g.puzzle.fixed)
    letters = {t.letter for t in g.puzzle.to_come}
    cell, twin = next((c, t) for c, t in fixed.items() if t.letter in letters)
    perturbed = Puzzle(tuple((c, t) for c, t in g.puzzle.fixed if c != cell),
                       (*g.puzzle.to_come, twin))
    assert _maxsat_agrees(g.puzzle) == ("unique", "unique")
    assert _maxsat_agrees(perturbed) == ("several", "several")
    verdict = check_unique(kind, perturbed)
    a, b = verdict.solutions
    assert a != b and kind.score(perturbed, a) == kind.score(perturbed, b)


def test_generation_replays_from_its_seed():
    rules = load_rules()
    a = generate(TakeItHigherPuzzles(rules), "easy", 2, seed=8)
    b = generate(TakeItHigherPuzzles(rules), "easy", 2, seed=8)
    assert [(g.puzzle, g.solution, g.features) for g in a.puzzles] == \
        [(g.puzzle, g.solution, g.features) for g in b.puzzles]


run = game_runner("take-it-higher")


def test_commands_on_a_library_puzzle(tmp_path):
    path = str(LIBRARY[0])
    out = run("solve", path, "--json")
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["status"] == "unique" and result["stated_solution_confirmed"] is True
    assert run("check-unique", path, "--backend", "maxsat").exit_code == 0
    sheet = run("sheet", path, str(LIBRARY[1]), "--svg", str(tmp_path / "s.svg"))
    assert sheet.exit_code == 0, sheet.output
    assert (tmp_path / "s.svg").exists() and (tmp_path / "s-2.svg").exists()
    # in this process: a pool would also start attempts past the one that finds it
    gen = run("generate", "--difficulty", "easy", "--count", "1", "--seed", "3", "--json",
              "--jobs", "1")
    data = json.loads(gen.output)
    assert data["puzzles"][0]["difficulty"] == "easy" and data["attempts"] >= 1


def test_bad_puzzle_files(tmp_path):
    data = json.loads(LIBRARY[0].read_text())
    tile, _ = data["solution"][0].split("@")
    fixed_cell = data["board"][0].split("@")[1]
    wrong = dict(data, solution=[f"{tile}@{fixed_cell}", *data["solution"][1:]])
    p = tmp_path / "wrong.json"
    p.write_text(json.dumps(wrong))
    out = run("solve", str(p))
    assert out.exit_code == 2 and "must fill exactly the empty cells" in out.output
    short = dict(data, to_come=data["to_come"][:-1])
    short.pop("solution")
    p.write_text(json.dumps(short))
    out = run("check-unique", str(p))
    assert out.exit_code == 2 and "do not fill" in out.output
    out = run("generate", "--difficulty", "fiendish")
    assert out.exit_code == 2


def test_random_puzzles_maxsat_equals_cpsat():
    rules = load_rules()
    kind = TakeItHigherPuzzles(rules)
    rng = random.Random(3)
    for _ in range(3):
        puzzle = kind.propose(rng, "easy")
        a = kind.search(puzzle, 2)
        b = TakeItHigherPuzzles(rules, "maxsat").search(puzzle, 2)
        assert (len(a.solutions), a.complete) == (len(b.solutions), b.complete)
        assert kind.score(puzzle, a.solutions[0]) == kind.score(puzzle, b.solutions[0])
