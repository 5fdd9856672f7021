"""Hippo puzzles: the library re-solved (golden files, posed under the reading of
foreign colours first they were made with, at once; their answers are the same by the
rulebook's reading), CP-SAT and brute force held equal under both readings, a perturbed
puzzle reported as not unique by both, the commands and bad files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from models.hippo.puzzles import HippoPuzzles, Puzzle, parse_solution, puzzle_to_dict, read_puzzle
from models.hippo.rules import AT_ONCE, FOREIGN_FIRST, NEXT_TURN, load_rules
from models.hippo.state import GameState
from solver.generate import check_unique, generate
from tests.cli_helpers import game_runner
from tests.puzzle_helpers import verdict_and_search

LIBRARY = sorted((Path(__file__).parent.parent / "puzzles" / "hippo" / "library")
                 .glob("*.json"))


def test_library_has_seven_puzzles_of_every_difficulty():
    levels = [json.loads(p.read_text())["rating"]["difficulty"] for p in LIBRARY]
    assert len(LIBRARY) >= 21
    assert {lv: levels.count(lv) for lv in set(levels)} == {"easy": 7, "medium": 7, "hard": 7}


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.stem)
def test_library_puzzle_is_unique_in_both_backends_and_rated_again(path):
    rules = load_rules()
    kind = HippoPuzzles(rules)
    data = json.loads(path.read_text())
    puzzle, stated = read_puzzle(kind, data, str(path))
    verdict, found = verdict_and_search(kind, puzzle)
    assert verdict.status == "unique"
    assert verdict.solutions == [stated]
    brute = check_unique(HippoPuzzles(rules, "brute"), puzzle)
    assert (brute.status, brute.solutions) == ("unique", [stated])
    # the rating is measured again (from the uniqueness search), not trusted from the file
    features = kind.features(puzzle, stated, found)
    assert features == data["rating"]["features"]
    assert kind.rating.difficulty(kind.rating.score(features)) == data["rating"]["difficulty"]
    assert puzzle_to_dict(puzzle, stated, data["rating"]) == data  # the file round-trips
    assert data["foreign_first"] == AT_ONCE == puzzle.state.rules.foreign_first


def test_library_answers_are_the_same_by_the_rulebooks_reading():
    """Every library puzzle posed under the next-turn reading (brute force, the
    reference) has the same one solution; only CP-SAT's effort, part of the rating,
    differs there, which is why the files keep the reading they were rated under."""
    rules = load_rules(None, NEXT_TURN)
    kind = HippoPuzzles(rules, "brute")
    for path in LIBRARY:
        data = json.loads(path.read_text())
        puzzle, stated = read_puzzle(kind, {**data, "foreign_first": NEXT_TURN}, str(path))
        assert puzzle.state.rules.foreign_first == NEXT_TURN
        verdict = check_unique(kind, puzzle)
        assert (verdict.status, verdict.solutions) == ("unique", [stated]), path.stem


def _perturbed(puzzle: Puzzle) -> Puzzle:
    """One red chip moved from the stock to Mr. Hippo's lane: the stock runs out one
    chip earlier in the last roll, so either of its first two chips ends the game."""
    s = puzzle.state
    hippo = (s.hippo[0] + 1, *s.hippo[1:])
    stocks = ((s.stocks[0][0] - 1, *s.stocks[0][1:]), *s.stocks[1:])
    return Puzzle(GameState(s.rules, s.colours, s.lanes, hippo, stocks, s.to_move, s.bonus),
                  puzzle.rolls)


def test_a_perturbed_puzzle_has_two_solutions_in_both_backends():
    rules = load_rules()
    kind = HippoPuzzles(rules)
    # a library puzzle whose last roll places two chips in different lanes first
    for path in LIBRARY:
        puzzle, stated = read_puzzle(kind, json.loads(path.read_text()), str(path))
        last = stated[-1]
        if len(last) >= 2 and last[0][0] != last[1][0]:
            break
    else:
        pytest.fail("no library puzzle ends with two chips in different lanes")
    perturbed = _perturbed(puzzle)
    for backend in ("cpsat", "brute"):
        verdict = check_unique(HippoPuzzles(rules, backend), perturbed)
        assert verdict.status == "several", backend
        a, b = verdict.solutions
        assert a != b
        for sol in (a, b):  # both really empty the stock (replayed by the engine)
            text = [[f"{lane} {perturbed.state.colours[c]}" for lane, c in m] for m in sol]
            assert parse_solution(perturbed, text, "test") == sol


@pytest.mark.parametrize("difficulty, reading", [("easy", NEXT_TURN), ("medium", NEXT_TURN),
                                                 ("easy", AT_ONCE)])
def test_random_proposals_cpsat_equals_brute_force(difficulty, reading):
    rules = load_rules(None, reading)
    cp, bf = HippoPuzzles(rules), HippoPuzzles(rules, "brute")
    rng = random.Random(11)
    verdicts = []
    for _ in range(12 if difficulty == "easy" else 5):
        puzzle = cp.propose(rng, difficulty)
        a, b = cp.search(puzzle, 2), bf.search(puzzle, 2)
        assert (len(a.solutions), a.complete) == (len(b.solutions), b.complete)
        if len(a.solutions) == 1:
            assert a.solutions == b.solutions
        # every solution found by one back-end is one for the other: replayed
        for sol in a.solutions:
            text = [[f"{lane} {puzzle.state.colours[c]}" for lane, c in m] for m in sol]
            assert parse_solution(puzzle, text, "test") == sol
        verdicts.append(len(a.solutions))
    assert len(set(verdicts)) >= 2  # the sample holds different verdicts


def test_generation_replays_from_its_seed():
    rules = load_rules()
    a = generate(HippoPuzzles(rules), "easy", 2, seed=8)
    b = generate(HippoPuzzles(rules), "easy", 2, seed=8)
    assert len(a.puzzles) == 2
    assert [(g.puzzle, g.solution, g.features) for g in a.puzzles] == \
        [(g.puzzle, g.solution, g.features) for g in b.puzzles]


run = game_runner("hippo")


def test_commands_on_library_puzzles(tmp_path):
    path = str(LIBRARY[0])
    out = run("solve", path, "--json")
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["status"] == "unique" and result["stated_solution_confirmed"] is True
    out = run("check-unique", path, "--backend", "brute")
    assert out.exit_code == 0 and "unique" in out.output
    sheet = run("sheet", path, str(LIBRARY[-1]), "--svg", str(tmp_path / "s.svg"))
    assert sheet.exit_code == 0, sheet.output
    assert (tmp_path / "s.svg").exists() and (tmp_path / "s-2.svg").exists()
    gen = run("generate", "--difficulty", "easy", "--count", "1", "--seed", "3", "--json")
    assert gen.exit_code == 0, gen.output
    assert json.loads(gen.output)["puzzles"][0]["difficulty"] == "easy"


def test_generate_records_its_reading_and_solve_uses_the_files(tmp_path):
    made = run("generate", "--difficulty", "easy", "--count", "1", "--seed", "3",
               "--jobs", "1", "--foreign-first", "at-once", "--out", str(tmp_path), "--json")
    assert made.exit_code == 0, made.output
    file = json.loads(made.output)["puzzles"][0]["file"]
    assert json.loads(Path(file).read_text())["foreign_first"] == AT_ONCE
    default = run("generate", "--difficulty", "easy", "--count", "1", "--seed", "3",
                  "--jobs", "1", "--json")
    assert json.loads(default.output)["puzzles"][0]["puzzle"]["foreign_first"] == NEXT_TURN
    # a library puzzle is posed under its file's reading whatever the rules data say
    rules = tmp_path / "rules.json"
    data = json.loads((Path(__file__).parent.parent / "models" / "hippo" / "data" /
                       "default.json").read_text())
    rules.write_text(json.dumps({**data, "foreign_first": "next-turn"}))
    out = run("solve", str(LIBRARY[0]), "--rules", str(rules), "--json")
    assert out.exit_code == 0 and json.loads(out.output)["stated_solution_confirmed"]
    bad = dict(json.loads(LIBRARY[0].read_text()), foreign_first="sometimes")
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    out = run("solve", str(tmp_path / "bad.json"))
    assert out.exit_code == 2 and "'sometimes' is not a reading" in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_a_puzzle_without_solution_and_a_perturbed_file(tmp_path):
    data = json.loads(LIBRARY[0].read_text())
    data.pop("solution")
    data["rolls"] = data["rolls"][:1]  # one roll cannot shed the stock
    p = tmp_path / "none.json"
    p.write_text(json.dumps(data))
    out = run("check-unique", str(p), "--json")
    assert out.exit_code == 0 and json.loads(out.output)["status"] == "none"


def test_bad_puzzle_files(tmp_path):
    data = json.loads(LIBRARY[0].read_text())
    p = tmp_path / "bad.json"
    cases = [
        (dict(data, solution=[["12 red"], *data["solution"][1:]]), "not an option"),
        (dict(data, solution=data["solution"][:-1]), "stock is not empty"),
        (dict(data, rolls=["6,4,9"]), "rolls[0]"),
        (dict(data, rolls=[]), "1-6 rolls"),
        (dict(data, position=dict(data["position"], players=["red", "green", "violet"],
                                  stocks=dict(data["position"]["stocks"], violet=12))),
         "two players"),
        ({"game": "hippo", "rolls": ["1,2,3"]}, "position"),
    ]
    for bad, words in cases:
        p.write_text(json.dumps(bad))
        out = run("solve", str(p))
        assert out.exit_code == 2, (words, out.output)
        assert words in out.output and len(out.output.strip().splitlines()) == 1
    assert run("generate", "--difficulty", "fiendish").exit_code == 2


@pytest.mark.parametrize("reading", FOREIGN_FIRST)
def test_foreign_chips_in_the_stock_cpsat_equals_brute_force(reading):
    """Hand-made puzzles may hold green chips in red's stock (they go first)."""
    rules = load_rules(None, reading)
    cp, bf = HippoPuzzles(rules), HippoPuzzles(rules, "brute")
    rng = random.Random(5)
    seen = set()
    for _ in range(24):
        p = cp.propose(rng, "easy")
        s = p.state
        # one red chip of the stock goes to Mr. Hippo, a green one comes into the stock
        hippo, green = (s.hippo[0] + 1, s.hippo[1]), s.stocks[1][1]
        if green >= 2:
            green -= 1
        elif hippo[1] >= 1:
            hippo = (hippo[0], hippo[1] - 1)
        else:
            continue
        stocks = ((s.stocks[0][0] - 1, 1), (0, green))
        puzzle = Puzzle(GameState(rules, s.colours, s.lanes, hippo, stocks), p.rolls)
        a, b = cp.search(puzzle, 2), bf.search(puzzle, 2)
        assert (len(a.solutions), a.complete) == (len(b.solutions), b.complete)
        if len(a.solutions) == 1:
            assert a.solutions == b.solutions
        for sol in a.solutions:
            assert sol[0][0][1] == 1  # the green chip is placed first
        seen.add(len(a.solutions))
    assert len(seen) >= 2


def test_orders_giving_the_same_pool_are_one_solution():
    """A library puzzle whose solution places chips in two lanes in one roll: the other
    order gives the same position, and the puzzle is still unique."""
    rules = load_rules()
    kind = HippoPuzzles(rules)
    for path in LIBRARY:
        puzzle, stated = read_puzzle(kind, json.loads(path.read_text()), str(path))
        first = stated[0]
        if len(first) >= 2 and first[0][0] != first[1][0]:
            swapped = (first[1], first[0], *first[2:])
            text = [[f"{lane} red" for lane, _ in swapped],
                    *[[f"{lane} {puzzle.state.colours[c]}" for lane, c in m]
                      for m in stated[1:]]]
            assert parse_solution(puzzle, text, "test") == stated  # the same solution
            assert check_unique(kind, puzzle).status == "unique"
            return
    pytest.fail("no library puzzle places two chips in different lanes first")


def test_brute_force_past_its_time_limit_is_undecided():
    puzzle, _ = read_puzzle(HippoPuzzles(load_rules()), json.loads(LIBRARY[-1].read_text()), "x")
    found = HippoPuzzles(load_rules(), "brute", time_limit=1e-9).search(puzzle, 2)
    assert found.complete is False
    assert check_unique(HippoPuzzles(load_rules(), "brute", 1e-9), puzzle).status == "unknown"
