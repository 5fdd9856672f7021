"""The shared generator loop, on a toy puzzle whose solutions a brute force counts."""

from __future__ import annotations

import itertools
import random

import pytest

from solver.deadline import Deadline
from solver.errors import BadInput
from solver.generate import Rating, Search, as_features, check_unique, generate
from tests.cli_helpers import EventDeadline


class SubsetSum:
    """Pick numbers (by index) that add up to the target."""

    rating = Rating({"size": 1.0}, medium=3, hard=5)

    def __init__(self, complete: bool = True) -> None:
        self.complete = complete

    def propose(self, rng: random.Random, difficulty: str) -> tuple[tuple[int, ...], int]:
        numbers = tuple(rng.randint(1, 30) for _ in range(7))
        k = {"easy": 2, "medium": 4, "hard": 6}[difficulty]
        return numbers, sum(rng.sample(numbers, k))

    def search(self, puzzle, limit: int) -> Search:
        numbers, target = puzzle
        found = []
        for r in range(len(numbers) + 1):
            for combo in itertools.combinations(range(len(numbers)), r):
                if sum(numbers[i] for i in combo) == target:
                    found.append(combo)
                    if len(found) >= limit:
                        return Search(found, False, 0.0)
        return Search(found, self.complete, 0.0)

    def features(self, puzzle, solution, search) -> dict[str, float]:
        return as_features(size=len(solution))


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_generated_puzzles_are_unique_and_rated(difficulty):
    kind = SubsetSum()
    report = generate(kind, difficulty, 3, seed=4)
    assert len(report.puzzles) == 3
    for g in report.puzzles:
        numbers, target = g.puzzle
        all_solutions = [c for r in range(8) for c in itertools.combinations(range(7), r)
                         if sum(numbers[i] for i in c) == target]
        assert all_solutions == [g.solution]
        assert g.difficulty == difficulty == kind.rating.difficulty(len(g.solution))
    # the loop stops at the last find, so every attempt belongs to one found puzzle
    assert report.attempts == sum(g.attempts_used for g in report.puzzles)
    assert report.attempts == (report.not_unique + report.no_solution + report.undecided
                               + report.wrong_difficulty + len(report.puzzles))


def test_generation_replays_from_its_seed():
    a = generate(SubsetSum(), "medium", 2, seed=9)
    b = generate(SubsetSum(), "medium", 2, seed=9)
    c = generate(SubsetSum(), "medium", 2, seed=10)
    assert [g.puzzle for g in a.puzzles] == [g.puzzle for g in b.puzzles]
    assert [g.puzzle for g in a.puzzles] != [g.puzzle for g in c.puzzles]


def test_one_loop_gives_the_same_puzzles_on_a_pool():
    """The attempts as tasks of a process pool: outcomes taken in attempt order, so the
    puzzles, their attempts and the counters are those of the in-process run."""
    from solver.executor import Batch

    alone = generate(SubsetSum(), "hard", 3, seed=5)
    batch = Batch(2, progress=False)
    pooled = generate(SubsetSum(), "hard", 3, seed=5, batch=batch)
    assert batch.where == "local pool (2 processes)"
    assert [(g.puzzle, g.solution, g.attempt, g.attempts_used) for g in pooled.puzzles] == \
        [(g.puzzle, g.solution, g.attempt, g.attempts_used) for g in alone.puzzles]
    assert (pooled.attempts, pooled.not_unique, pooled.no_solution, pooled.wrong_difficulty) \
        == (alone.attempts, alone.not_unique, alone.no_solution, alone.wrong_difficulty)
    assert alone.attempts > 3  # some attempts failed, so the order mattered


def test_perturbed_puzzle_is_no_longer_unique():
    kind = SubsetSum()
    g = generate(kind, "easy", 1, seed=1).puzzles[0]
    numbers, target = g.puzzle
    assert check_unique(kind, g.puzzle).status == "unique"
    # a copy of a number used by the solution gives a second solution
    twin = (*numbers, numbers[g.solution[0]])
    verdict = check_unique(kind, (twin, target))
    assert verdict.status == "several" and len(verdict.solutions) == 2
    assert check_unique(kind, (numbers, 10 ** 6)).status == "none"
    assert check_unique(SubsetSum(complete=False), g.puzzle).status == "unknown"


def test_incomplete_searches_are_never_kept():
    report = generate(SubsetSum(complete=False), "easy", 1, max_attempts=30)
    assert report.puzzles == [] and report.undecided > 0


def test_bad_requests():
    with pytest.raises(BadInput):
        generate(SubsetSum(), "fiendish", 1)
    with pytest.raises(BadInput):
        generate(SubsetSum(), "easy", 0)


def test_sheet_pages_hold_every_card_and_solutions_follow(tmp_path):
    import xml.etree.ElementTree as ET

    from solver.render import Svg
    from solver.sheet import Card, write_sheet

    def card(i: int) -> Card:
        s = Svg(300, 200)
        s.text(150, 100, f"puzzle-{i}")
        return Card(f"No. {i}", s)

    files = write_sheet(tmp_path / "sheet.svg", "Toy", [card(i) for i in range(9)],
                        [card(100 + i) for i in range(9)])
    texts = []
    for f in files:
        root = ET.parse(f).getroot()  # every page is well-formed SVG
        texts.append([t.text for t in root.iter("{http://www.w3.org/2000/svg}text")])
    flat = [t for page in texts for t in page]
    assert all(f"puzzle-{i}" in flat and f"puzzle-{100 + i}" in flat for i in range(9))
    # solutions only after the last puzzle page
    last_puzzle = max(i for i, page in enumerate(texts) if "puzzle-8" in page)
    first_solution = min(i for i, page in enumerate(texts) if "puzzle-100" in page)
    assert last_puzzle < first_solution
    html_file = write_sheet(tmp_path / "sheet.html", "Toy", [card(1)], [card(2)])[0]
    assert html_file.read_text().count('class="page"') == 2


def test_shared_puzzle_commands_with_a_game_option(tmp_path):
    """The generate / solve / check-unique commands over a toy game, with one option of
    the game's own passed to its kind."""
    import json
    from types import SimpleNamespace

    import click
    from click.testing import CliRunner

    from solver.params import int_param
    from solver.puzzles import PuzzleGame
    from solver.render import Svg
    from solver.shared_verbs import puzzle_verbs
    from solver.verb_cli import command

    seen = {}

    def make_kind(rules_path, backend, time_limit, **extra):
        seen.update(extra)
        return SubsetSum()

    game = PuzzleGame(
        "toy", ("brute",), make_kind,
        read=lambda kind, data, where: ((tuple(data["numbers"]), data["target"]), None),
        write=lambda kind, p, s, r: {"numbers": list(p[0]), "target": p[1],
                                     "solution": list(s)},
        solution_text=lambda kind, p, s: "+".join(str(p[0][i]) for i in s),
        picture=lambda kind, p, s, reveal: Svg(10, 10),
        terminal=lambda kind, p, s, reveal: str(p),
        generate_options=(int_param("size", 3, None),))
    # a game known to solver/ by its puzzles alone (its verbs module's PUZZLES)
    entry = SimpleNamespace(id="toy", module=lambda role: SimpleNamespace(PUZZLES=game))
    group = click.Group("toy")
    for verb in puzzle_verbs(game):
        group.add_command(command(entry, verb))
    out = CliRunner().invoke(group, ["generate", "--size", "5", "--difficulty", "easy",
                                     "--out", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    assert seen == {"size": 5}
    files = list(tmp_path.glob("toy-easy-0-*.json"))
    assert len(files) == 1
    verdict = CliRunner().invoke(group, ["check-unique", str(files[0]), "--json"])
    assert json.loads(verdict.output)["status"] == "unique"
    data = json.loads(files[0].read_text())
    data["numbers"].append(data["numbers"][data["solution"][0]])
    files[0].write_text(json.dumps(data))
    verdict = CliRunner().invoke(group, ["check-unique", str(files[0]), "--json"])
    assert json.loads(verdict.output)["status"] == "several"


def test_generation_stops_at_its_deadline():
    """A million puzzles asked, the deadline passes once three are found (an event,
    not the clock: the same puzzles on any machine): those are kept, the loop ends."""
    deadline = EventDeadline()

    def found(done: int, total: int) -> None:
        if done >= 3:
            deadline.event.set()

    report = generate(SubsetSum(), "medium", 10 ** 6, seed=2, progress=found,
                      deadline=deadline)
    assert len(report.puzzles) == 3
    assert report.puzzles == generate(SubsetSum(), "medium", 3, seed=2).puzzles


def test_generation_past_its_deadline_on_the_clock_finds_nothing():
    """A deadline already passed (on the real clock) when generation starts: no attempt
    is made, whatever the load."""
    report = generate(SubsetSum(), "medium", 10 ** 6, seed=2, deadline=Deadline.after(0))
    assert report.puzzles == [] and report.attempts == 0


def test_a_kind_shaped_by_the_author_keeps_any_rating_labelled_as_asked():
    """`any_difficulty` (Topito's --moves K): unique puzzles are kept whatever their
    rating and labelled with the difficulty asked; otherwise the rating filters."""

    class AllEasy(SubsetSum):
        rating = Rating({"size": 1.0}, medium=100, hard=200)  # every puzzle rates easy

    strict = generate(AllEasy(), "hard", 2, seed=2, max_attempts=30)
    assert strict.puzzles == [] and strict.wrong_difficulty > 0
    loose_kind = AllEasy()
    loose_kind.any_difficulty = True
    loose = generate(loose_kind, "hard", 2, seed=2, max_attempts=30)
    assert len(loose.puzzles) == 2 and loose.wrong_difficulty == 0
    assert all(g.difficulty == "hard" and AllEasy.rating.difficulty(g.score) == "easy"
               for g in loose.puzzles)
