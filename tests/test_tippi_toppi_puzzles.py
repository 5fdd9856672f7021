"""Tippi Toppi puzzles: the library re-solved (golden files), SAT and CP-SAT held equal
and equal to a brute-force search of the rules engine, a perturbed puzzle reported as
not unique, the commands and bad puzzle files."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from models.tippi_toppi.puzzles import (
    Puzzle,
    Solution,
    TippiToppiPuzzles,
    canonical_puzzle,
    mapped_puzzle,
    pile_symmetries,
    puzzle_game,
    puzzle_to_dict,
    replay,
)
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.state import Play
from models.tippi_toppi.tasks import PLACEHOLDER
from solver.generate import attempt_seed, check_unique, generate
from tests.cli_helpers import game_runner
from tests.puzzle_helpers import verdict_and_search

LIBRARY = sorted((Path(__file__).parent.parent / "puzzles" / "tippi-toppi" / "library")
                 .glob("*.json"))


def _load(path: Path) -> tuple[TippiToppiPuzzles, Puzzle, Solution, dict]:
    kind = TippiToppiPuzzles(load_rules())
    data = json.loads(path.read_text())
    puzzle, stated = puzzle_game().read(kind, data, str(path))
    assert stated is not None
    return kind, puzzle, stated, data


def brute_force(puzzle: Puzzle, cap: int = 50) -> list[Solution]:
    """Every line of at most K plays that wins exactly at its last play, found by a
    depth-first search over the engine's legal plays (copies of a card are one play)."""
    rules = load_rules()
    out: list[Solution] = []

    def dfs(state, line: list) -> None:
        if len(out) >= cap:
            return
        if state.is_won():
            out.append(tuple(line))
            return
        if len(line) == puzzle.within:
            return
        for card, pile in sorted({(p.card, p.pile) for p in state.legal_plays()}):
            dfs(state.apply_action(Play(0, card, pile)), [*line, (card, pile)])

    dfs(puzzle.state(rules), [])
    return out


def test_library_has_seven_puzzles_of_every_difficulty():
    levels = [json.loads(p.read_text())["rating"]["difficulty"] for p in LIBRARY]
    assert len(LIBRARY) >= 21
    assert {lv: levels.count(lv) for lv in set(levels)} == {"easy": 7, "medium": 7, "hard": 7}


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.stem)
def test_library_puzzle_is_unique_and_rated_as_filed(path):
    kind, puzzle, stated, data = _load(path)
    verdict, found = verdict_and_search(kind, puzzle)
    assert verdict.status == "unique"
    assert verdict.solutions == [stated]
    assert replay(kind.rules, puzzle, stated) == stated and len(stated) <= puzzle.within
    # the rating is measured again (from the uniqueness search), not trusted from the file
    features = kind.features(puzzle, stated, found)
    assert features == data["rating"]["features"]
    assert kind.rating.score(features) == data["rating"]["score"]
    assert kind.rating.difficulty(kind.rating.score(features)) == data["rating"]["difficulty"]
    # the CP-SAT back-end gives the same verdict and line
    cp = check_unique(TippiToppiPuzzles(kind.rules, "cpsat"), puzzle)
    assert (cp.status, cp.solutions) == ("unique", [stated])


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.stem)
def test_library_puzzle_equals_brute_force(path):
    _, puzzle, stated, _ = _load(path)
    assert brute_force(puzzle) == [stated]


@pytest.mark.slow
def test_dropping_a_task_agrees_with_brute_force_in_both_backends():
    """Each library puzzle without its last task: SAT, CP-SAT and the engine's brute
    force find the same number of lines (capped at 3)."""
    rules = load_rules()
    several = 0
    for path in LIBRARY:
        data = json.loads(path.read_text())
        if len(data["tasks"]) < 2:
            continue
        _, puzzle, _, _ = _load(path)
        fewer = replace(puzzle, tasks=puzzle.tasks[:-1])
        expected = brute_force(fewer, cap=3)
        for backend in ("sat", "cpsat"):
            found = TippiToppiPuzzles(rules, backend).search(fewer, 3)
            assert len(found.solutions) == len(expected), (path.name, backend)
            assert found.complete == (len(expected) < 3)
            assert all(replay(rules, fewer, line) == line for line in found.solutions)
            assert len(set(found.solutions)) == len(found.solutions)
        several += len(expected) >= 2
    assert several >= 3  # the test does see puzzles made not unique


def test_a_perturbed_puzzle_is_not_unique_in_both_backends():
    """A unique puzzle changed to have two solutions: one play, and one task ('the sum
    of all piles is S') that two different first plays fulfil."""
    rules = load_rules()
    for path in LIBRARY:
        _, puzzle, _, _ = _load(path)
        state = puzzle.state(rules)
        by_sum: dict[int, list] = {}
        start = sum(n for _, n in puzzle.tops)
        for card, pile in sorted({(p.card, p.pile) for p in state.legal_plays()}):
            total = start - puzzle.tops[pile][1] + card[1]
            if total != start:
                by_sum.setdefault(total, []).append((card, pile))
        pairs = [(s, plays) for s, plays in sorted(by_sum.items()) if len(plays) >= 2]
        if pairs:
            total, plays = pairs[0]
            break
    else:  # pragma: no cover - the library has such puzzles
        pytest.fail("no puzzle to perturb")
    perturbed = replace(puzzle, tasks=(rules.parse_task(f"the sum of all piles is {total}"),),
                        within=1)
    for backend in ("sat", "cpsat"):
        verdict = check_unique(TippiToppiPuzzles(rules, backend), perturbed)
        assert verdict.status == "several"
        a, b = verdict.solutions
        assert a != b and {a, b} <= {(p,) for p in plays}
        assert replay(rules, perturbed, a) == a and replay(rules, perturbed, b) == b


def test_random_proposals_sat_equals_cpsat_and_brute_force():
    rules = load_rules()
    sat, cp = TippiToppiPuzzles(rules, "sat"), TippiToppiPuzzles(rules, "cpsat")
    for attempt in range(6):
        puzzle = sat.propose(random.Random(attempt_seed(11, attempt)),
                             "easy" if attempt % 2 else "medium")
        a, b = sat.search(puzzle, 3), cp.search(puzzle, 3)
        expected = brute_force(puzzle, cap=3)
        assert len(a.solutions) == len(b.solutions) == len(expected)
        assert a.complete == b.complete == (len(expected) < 3)
        if len(expected) == 1:
            assert a.solutions == b.solutions == expected


def test_generation_replays_from_its_seed():
    rules = load_rules()
    a = generate(TippiToppiPuzzles(rules), "medium", 1, seed=4)
    b = generate(TippiToppiPuzzles(rules), "medium", 1, seed=4)
    assert a.puzzles and [(g.puzzle, g.solution, g.features) for g in a.puzzles] == \
        [(g.puzzle, g.solution, g.features) for g in b.puzzles]
    g = a.puzzles[0]
    assert brute_force(g.puzzle) == [g.solution]


run = game_runner("tippi-toppi")


def test_commands_on_library_puzzles(tmp_path):
    path = str(LIBRARY[0])
    out = run("solve", path, "--json")
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["status"] == "unique" and result["stated_solution_confirmed"] is True
    out = run("check-unique", str(LIBRARY[-1]), "--backend", "cpsat")
    assert out.exit_code == 0 and "unique" in out.output
    sheet = run("sheet", path, str(LIBRARY[1]), "--svg", str(tmp_path / "s.svg"))
    assert sheet.exit_code == 0, sheet.output
    assert (tmp_path / "s.svg").exists() and (tmp_path / "s-2.svg").exists()
    gen = run("generate", "--difficulty", "easy", "--count", "1", "--seed", "3", "--json",
              "--out", str(tmp_path / "lib"))
    data = json.loads(gen.output)
    assert data["puzzles"][0]["difficulty"] == "easy" and data["attempts"] >= 1
    written = tmp_path / "lib" / "tippi-toppi-easy-3-1.json"
    assert run("check-unique", str(written), "--json").exit_code == 0


def test_a_puzzle_without_solution_is_solved_and_a_second_solution_shown(tmp_path):
    rules = load_rules()
    _, puzzle, stated, _ = _load(LIBRARY[0])
    p = tmp_path / "bare.json"
    p.write_text(json.dumps(puzzle_to_dict(rules, puzzle)))
    out = json.loads(run("solve", str(p), "--json").output)
    assert out["status"] == "unique" and out["stated_solution_confirmed"] is None


@pytest.mark.parametrize(("change", "message"), [
    ({"solution": ["G9>1"]}, "unknown card"),
    ({"piles": ["G1", "G2", "G3"]}, "4 piles expected"),
    ({"within": 0}, "within must be"),
    ({"tasks": []}, "open tasks expected"),
    ({"tasks": ["two blue piles"]}, "cannot read task"),
    ({"hand": ["G1", "G1", "G1"]}, "appears 3 times"),
    ({"puzzle": "topito"}, "unknown kind of puzzle"),
])
def test_bad_puzzle_files(tmp_path, change, message):
    data = json.loads(LIBRARY[0].read_text())
    data.update(change)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    out = run("solve", str(p))
    assert out.exit_code == 2, out.output
    assert message in out.output and len(out.output.strip().splitlines()) == 1


def test_bad_solutions_and_tasks_that_already_hold(tmp_path):
    rules = load_rules()
    kind, puzzle, stated, data = _load(next(p for p in LIBRARY if "hard" in p.name))
    p = tmp_path / "bad.json"
    short = dict(data, solution=data["solution"][:-1])
    p.write_text(json.dumps(short))
    out = run("check-unique", str(p))
    assert out.exit_code == 2 and "do not fulfil every task" in out.output
    card, pile = stated[0]
    illegal = next(q for q in range(1, 5)
                   if card[0] != puzzle.tops[q - 1][0] and card[1] != puzzle.tops[q - 1][1])
    wrong = dict(data, solution=[f"{rules.card_name(card)}>{illegal}", *data["solution"][1:]])
    p.write_text(json.dumps(wrong))
    out = run("solve", str(p))
    assert out.exit_code == 2 and "matches neither" in out.output
    holds = next(c.task for c in rules.catalogue if c.task.holds(puzzle.tops, rules))
    p.write_text(json.dumps(dict(data, tasks=[holds.text(rules)])))
    out = run("solve", str(p))
    assert out.exit_code == 2 and "already holds" in out.output
    assert run("generate", "--difficulty", "fiendish").exit_code == 2


def test_a_puzzle_file_is_solved_under_the_reading_it_records(tmp_path):
    """Piles G1 G2 O3 P5, hand P3 G4, one play, "more pink piles than orange piles":
    only P3 on the orange 3 does it, and only as worded (two pink piles, no orange
    pile). The file's "comparisons" says under which reading it is posed; a file
    without it is read under the rules data's (or --rules FILE's) reading."""
    data = {"game": "tippi-toppi", "puzzle": "plays", "piles": ["G1", "G2", "O3", "P5"],
            "hand": ["P3", "G4"], "draw_pile": [], "within": 1,
            "tasks": ["more pink piles than orange piles"]}
    verdicts = {}
    for reading in (None, "as-worded", "present"):
        p = tmp_path / f"{reading}.json"
        p.write_text(json.dumps(dict(data, comparisons=reading) if reading else data))
        doc = json.loads(run("solve", str(p), "--json").stdout)
        verdicts[reading] = (doc["status"], doc["solutions"])
    assert verdicts[None] == verdicts["as-worded"] == ("unique", ["P3>3 (1 of 1 plays)"])
    assert verdicts["present"] == ("none", [])
    # a rules file reading "present" poses the file without the key that way too
    from models.tippi_toppi.rules import default_rules_path
    rules_file = tmp_path / "present-rules.json"
    rules_file.write_text(json.dumps({**json.loads(default_rules_path().read_text(
        encoding="utf-8")), "comparisons": "present"}))
    doc = json.loads(run("solve", str(tmp_path / "None.json"), "--rules", str(rules_file),
                         "--json").stdout)
    assert doc["status"] == "none"
    # generate writes the reading of its run into every file
    for extra, reading in (((), "as-worded"), (("--comparisons", "present"), "present")):
        gen = json.loads(run("generate", "--difficulty", "easy", "--count", "1", "--seed",
                             "3", "--jobs", "1", "--json", *extra).stdout)
        assert gen["puzzles"][0]["puzzle"]["comparisons"] == reading
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(data, comparisons="loosely")))
    out = run("solve", str(bad))
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1
    assert "comparisons: unknown reading of comparisons 'loosely'" in out.output


def _reachable_alone(state, task, plays: int) -> bool:
    """Can `task` hold on the tops after one of the next `plays` plays (engine search)?"""
    if plays == 0:
        return False
    for card, pile in sorted({(p.card, p.pile) for p in state.legal_plays()}):
        after = state.apply_action(Play(0, card, pile))
        if task.holds(after.tops, state.rules) or _reachable_alone(after, task, plays - 1):
            return True
    return False


@pytest.mark.parametrize("path", LIBRARY[1::4], ids=lambda p: p.stem)
def test_plausible_first_plays_equal_an_engine_search(path):
    kind, puzzle, _, _ = _load(path)
    state = puzzle.state(kind.rules)
    expected = 0
    for card, pile in sorted({(p.card, p.pile) for p in state.legal_plays()}):
        after = state.apply_action(Play(0, card, pile))
        # the tasks left are judged one by one below; a placeholder keeps the game going
        left, after = after.open_tasks, after.but(open_tasks=[PLACEHOLDER])
        if all(_reachable_alone(after, t, puzzle.within - 1) for t in left):
            expected += 1
    assert kind.plausible_first(puzzle) == expected


def test_pile_symmetries_keep_every_task_that_does_not_read_the_order():
    """Reversing the row of piles keeps the neighbours, and every catalogue task means
    the same on the moved piles unless it reads the left-to-right order."""
    rules = load_rules()
    perms = pile_symmetries(rules)
    assert perms == [(0, 1, 2, 3), (3, 2, 1, 0)]
    rng = random.Random(5)
    deck = [(c, n) for c in range(len(rules.colours)) for n in rules.numbers]
    changed = set()
    for _ in range(300):
        tops = tuple(rng.choice(deck) for _ in range(rules.piles))
        for perm in perms:
            moved = [tops[0]] * rules.piles
            for i, card in enumerate(tops):
                moved[perm[i]] = card
            for entry in rules.catalogue:
                if entry.task.holds(tops, rules) != entry.task.holds(tuple(moved), rules):
                    changed.add(entry.task)
    assert changed and all(t.reads_order for t in changed)  # the rising piles only


def test_mirrored_library_puzzles_are_unique_with_the_mirrored_solution():
    forms = set()
    checked = 0
    for path in LIBRARY[::3]:
        kind, puzzle, stated, _ = _load(path)
        if any(t.reads_order for t in puzzle.tasks):
            continue
        images = set()
        for perm in pile_symmetries(kind.rules):
            image = mapped_puzzle(puzzle, perm)
            verdict = check_unique(kind, image)
            assert verdict.status == "unique", (path.name, perm)
            assert verdict.solutions == [tuple((c, perm[p]) for c, p in stated)], path.name
            images.add(canonical_puzzle(kind, image))
        assert len(images) == 1
        forms |= images
        checked += 1
    assert checked >= 5 and len(forms) == checked
