"""Hoch Hinaus! puzzles: the library re-solved (golden files), uniqueness from
PySAT and CP-SAT held equal and against a brute force over the rules engine, perturbed
puzzles, file errors and the commands."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from models.hoch_hinaus.puzzle_files import (
    Puzzle,
    board_symmetries,
    mapped_puzzle,
    puzzle_to_dict,
)
from models.hoch_hinaus.puzzles import (
    HochHinausPuzzles,
    canonical_puzzle,
    make_kind,
    read_puzzle,
)
from models.hoch_hinaus.tasks import holds, parse_task
from solver.generate import attempt_seed, check_unique, generate
from tests.cli_helpers import game_runner
from tests.puzzle_helpers import verdict_and_search

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = sorted((ROOT / "puzzles" / "hoch-hinaus" / "library").glob("*.json"))


@pytest.fixture(scope="module")
def sat() -> HochHinausPuzzles:
    return make_kind(None, "sat", 20.0)


@pytest.fixture(scope="module")
def cp() -> HochHinausPuzzles:
    return make_kind(None, "cpsat", 20.0)


def load(kind: HochHinausPuzzles, path: Path):
    return read_puzzle(kind, json.loads(path.read_text()), str(path))


def brute_force(kind: HochHinausPuzzles, puzzle: Puzzle) -> set[tuple]:
    """Every sequence of placements (engine's legal actions) that wins exactly at its
    last placement, of length 1..K."""
    r = kind.rules
    wins: set[tuple] = set()

    def go(board, hand, seq, done, fillers_left):
        for a in board.placements(hand, puzzle.pros, fillers_left > 0):
            b = board.copy()
            b.apply(a)
            vis = b.visible()
            now = done | {i for i, t in enumerate(puzzle.tasks) if holds(r, t, vis)}
            line = (*seq, a)
            if len(now) == len(puzzle.tasks):
                wins.add(line)
            elif len(line) < puzzle.within:
                go(b, [t for t in hand if t != a.tile], line, now,
                   fillers_left - (a.filler is not None))

    go(puzzle.board(r), list(puzzle.hand), (), set(), puzzle.fillers)
    return wins


def test_library_has_seven_per_difficulty() -> None:
    names = [p.name for p in LIBRARY]
    for d in ("easy", "medium", "hard"):
        assert sum(1 for n in names if f"-{d}-" in n) >= 7, d


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.stem)
def test_library_golden(sat: HochHinausPuzzles, path: Path) -> None:
    """Re-solve, re-check uniqueness and re-measure the rating of every library puzzle."""
    data = json.loads(path.read_text())
    puzzle, stated = load(sat, path)
    verdict, found = verdict_and_search(sat, puzzle)
    assert verdict.status == "unique"
    assert verdict.solutions[0] == stated
    # features of the uniqueness search, as in the generator loop
    features = sat.features(puzzle, stated, found)
    assert features == data["rating"]["features"]
    score = sat.rating.score(features)
    assert score == data["rating"]["score"]
    assert sat.rating.difficulty(score) == data["rating"]["difficulty"]
    assert len(stated) == features["placements"]
    # the file reads back to itself
    assert puzzle_to_dict(sat.rules, puzzle, stated, data["rating"]) == data


@pytest.mark.slow
def test_library_cpsat_equal(cp: HochHinausPuzzles, sat: HochHinausPuzzles) -> None:
    """CP-SAT finds the same unique solution on every library puzzle."""
    searches = []
    for path in LIBRARY:
        puzzle, stated = load(cp, path)
        verdict, found = verdict_and_search(cp, puzzle)
        assert (verdict.status, verdict.solutions) == ("unique", [stated]), path.name
        searches.append((puzzle, stated, found))
    # the rating counts CaDiCaL conflicts whichever back-end searched (CP-SAT's search
    # has other work; solver.generate.rating_work runs the SAT search for it)
    puzzle, stated, found = searches[0]
    assert cp.features(puzzle, stated, found) == \
        json.loads(LIBRARY[0].read_text())["rating"]["features"]


def test_search_equals_brute_force(sat: HochHinausPuzzles, cp: HochHinausPuzzles) -> None:
    """On proposals with K <= 2 and on puzzles with tasks removed (many solutions), the
    complete enumeration of both back-ends equals the engine's brute force."""
    checked = 0
    for i in range(3):
        p = sat.propose(random.Random(attempt_seed(11, i)), "easy")
        variants = [p, Puzzle(p.side, p.pros, p.pieces, p.hand, p.tasks[:1], p.within)]
        for q in variants:
            wins = brute_force(sat, q)
            for kind in (sat, cp):
                found = kind.search(q, len(wins) + 1)
                assert found.complete
                assert set(found.solutions) == wins
                assert len(found.solutions) == len(wins)
            checked += 1
    assert checked == 6


def test_gap_fillers_equal_brute_force(sat: HochHinausPuzzles, cp: HochHinausPuzzles) -> None:
    """With a gap filler allowed (K = 1) the solutions also equal the brute force."""
    p = sat.propose(random.Random(attempt_seed(5, 3)), "easy")
    q = Puzzle(p.side, p.pros, p.pieces, p.hand[:2], p.tasks[:1], 1, fillers=1)
    wins = brute_force(sat, q)
    assert any(a.filler is not None for (a,) in wins)
    for kind in (sat, cp):
        found = kind.search(q, len(wins) + 1)
        assert found.complete and set(found.solutions) == wins


def test_order_counts(sat: HochHinausPuzzles, cp: HochHinausPuzzles) -> None:
    """Two placements on different spaces, each fulfilling one task, commute: both
    orders are solutions (sequences are counted), on both back-ends, as the brute force."""
    r = sat.rules
    names = [c.upper() for c in r.colour_names]
    for path in LIBRARY:
        puzzle, _ = load(sat, path)
        if len(puzzle.hand) < 2:
            continue
        board = puzzle.board(r)
        x, y = puzzle.hand[:2]
        for a in board.placements([x], False, False):
            for b in board.placements([y], False, False):
                if not {a.first, a.second}.isdisjoint({b.first, b.second}):
                    continue
                tasks = []
                for act in (a, b):
                    after = board.copy()
                    after.apply(act)
                    face, h = after.visible()[act.first]
                    row = r.rc(act.first)[0] + 1
                    tasks.append(parse_task(r, f"ONE {names[face[0]]} {face[1]} at HEIGHT "
                                               f"{h} in ROW {row}"))
                if any(holds(r, t, board.visible()) for t in tasks) or tasks[0] == tasks[1]:
                    continue
                q = Puzzle(puzzle.side, puzzle.pros, puzzle.pieces, (x, y), tuple(tasks), 2)
                wins = brute_force(sat, q)
                assert (a, b) in wins and (b, a) in wins
                for kind in (sat, cp):
                    found = kind.search(q, len(wins) + 1)
                    assert found.complete and set(found.solutions) == wins
                    assert check_unique(kind, q).status == "several"
                return
    pytest.fail("no two commuting placements found")


def test_perturbed_puzzle_is_several(sat: HochHinausPuzzles, cp: HochHinausPuzzles) -> None:
    """A library puzzle with a task taken away has two solutions: both back-ends say
    'several' and show two different, engine-checked winning lines."""
    perturbed = 0
    for path in LIBRARY[:6]:
        if perturbed == 3:
            break
        puzzle, _ = load(sat, path)
        if len(puzzle.tasks) < 2:
            continue
        for drop in range(len(puzzle.tasks)):
            q = Puzzle(puzzle.side, puzzle.pros, puzzle.pieces, puzzle.hand,
                       puzzle.tasks[:drop] + puzzle.tasks[drop + 1:], puzzle.within)
            verdicts = [check_unique(k, q) for k in (sat, cp)]
            if verdicts[0].status == "several":
                assert verdicts[1].status == "several"
                wins = brute_force(sat, q) if q.within <= 2 else None
                for v in verdicts:
                    assert v.solutions[0] != v.solutions[1]
                    if wins is not None:
                        assert set(v.solutions) <= wins
                perturbed += 1
                break
            assert verdicts[1].status == verdicts[0].status
    assert perturbed >= 2


def test_generation_replays(sat: HochHinausPuzzles) -> None:
    a = generate(sat, "easy", 2, seed=4)
    b = generate(make_kind(None, "sat", 20.0), "easy", 2, seed=4)
    assert [g.puzzle for g in a.puzzles] == [g.puzzle for g in b.puzzles]
    assert [g.features for g in a.puzzles] == [g.features for g in b.puzzles]
    assert all(g.difficulty == "easy" for g in a.puzzles)


# --------------------------------------------------------------------------- commands

run = game_runner("hoch-hinaus")


def test_cli_solve_and_check_unique() -> None:
    path = str(LIBRARY[0])
    for cmd in ("solve", "check-unique"):
        for backend in ("sat", "cpsat"):
            res = run(cmd, path, "--backend", backend, "--json")
            assert res.exit_code == 0, res.output
            out = json.loads(res.output)
            assert out["status"] == "unique" and out["stated_solution_confirmed"] is True


def test_cli_generate_and_sheet(tmp_path: Path) -> None:
    res = run("generate", "--difficulty", "easy", "--count", "1", "--seed", "3",
              "--out", str(tmp_path), "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert len(out["puzzles"]) == 1 and out["puzzles"][0]["difficulty"] == "easy"
    made = out["puzzles"][0]["file"]
    res = run("check-unique", made, "--json")
    assert json.loads(res.output)["status"] == "unique"
    sheet = tmp_path / "sheet.svg"
    res = run("sheet", made, str(LIBRARY[-1]), "--svg", str(sheet))
    assert res.exit_code == 0, res.output
    assert sheet.exists() and "<svg" in sheet.read_text()
    assert (tmp_path / "sheet-2.svg").exists()  # the solutions page


def _bad(tmp_path: Path, change: dict, drop: str | None = None) -> str:
    data = json.loads(LIBRARY[0].read_text())
    data.update(change)
    if drop:
        del data[drop]
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    res = run("check-unique", str(f))
    assert res.exit_code == 2, res.output
    assert res.output.count("\n") == 1 and res.output.startswith("toppi: error:")
    return res.output


def test_cli_bad_files(tmp_path: Path) -> None:
    data = json.loads(LIBRARY[0].read_text())
    assert "hand" in _bad(tmp_path, {}, drop="hand")
    assert "within" in _bad(tmp_path, {"within": 9})
    assert "within" in _bad(tmp_path, {"within": len(data["hand"]) + 1})
    assert "unknown tile" in _bad(tmp_path, {"hand": ["T99"]})
    assert "used twice" in _bad(tmp_path, {"hand": [data["pieces"][0]["tile"]]})
    assert "cannot read" in _bad(tmp_path, {"tasks": ["THREE BLUE"]})
    assert "tasks" in _bad(tmp_path, {"tasks": []})
    assert "already holds" in _bad(tmp_path, {"tasks": ["At most 12 GREEN"]})
    assert "fillers" in _bad(tmp_path, {"fillers": 11})
    assert "not in the hand" in _bad(
        tmp_path, {"solution": [{"tile": data["pieces"][0]["tile"], "on": ["A1", "B1"]}]})
    assert "not legal" in _bad(
        tmp_path, {"solution": [{"tile": data["hand"][0], "on": ["A1", "C4"]}]})
    f = tmp_path / "broken.json"
    f.write_text("{")
    res = run("solve", str(f))
    assert res.exit_code == 2 and res.output.count("\n") == 1


def test_shorter_wins_count(sat: HochHinausPuzzles, cp: HochHinausPuzzles) -> None:
    """'Within K': a puzzle solved by one placement, given K = 2 and one more tile, keeps
    its one-placement solution among the solutions (nothing is placed after the win),
    and the two-placement ones all win only at their second placement."""
    for path in LIBRARY:
        puzzle, stated = load(sat, path)
        if puzzle.within != 1:
            continue
        used = set(puzzle.board(sat.rules).tiles_used()) | set(puzzle.hand)
        extra = next(t.id for t in sat.rules.tiles if t.id not in used)
        q = Puzzle(puzzle.side, puzzle.pros, puzzle.pieces, (*puzzle.hand, extra),
                   puzzle.tasks, 2)
        wins = brute_force(sat, q)
        assert stated in wins and any(len(w) == 2 for w in wins)
        for kind in (sat, cp):
            found = kind.search(q, len(wins) + 1)
            assert found.complete and set(found.solutions) == wins
            assert found.solutions[0] == stated  # shortest first
        return
    pytest.fail("no library puzzle with K = 1")


def test_board_symmetries_map_puzzles_onto_puzzles_with_the_mapped_solution(sat):
    """The store folds a puzzle's mirror images and half turn (de-duplication): each
    image is again unique, its solution is the original's moved by the symmetry, and
    all images share one canonical form; another puzzle has another."""
    rules = sat.rules
    assert len(board_symmetries(rules, "blue")) == 4
    half_turn = board_symmetries(rules, "purple")  # the printed fillers stay put
    assert len(half_turn) == 2
    printed = {rules.space_index[s] for s in rules.printed_fillers}
    assert all({perm[s] for s in printed} == printed for perm in half_turn)
    forms = set()
    for path in LIBRARY[::4]:
        puzzle, stated = load(sat, path)
        images = set()
        for perm in board_symmetries(rules, puzzle.side):
            image = mapped_puzzle(rules, puzzle, perm)
            verdict = check_unique(sat, image)
            assert verdict.status == "unique", (path.name, perm)
            moved = [(a.tile, perm[a.first], perm[a.second],
                      None if a.filler is None else perm[a.filler]) for a in stated]
            assert [(a.tile, a.first, a.second, a.filler)
                    for a in verdict.solutions[0]] == moved, (path.name, perm)
            images.add(canonical_puzzle(sat, image))
        assert len(images) == 1, path.name
        forms |= images
    assert len(forms) == len(LIBRARY[::4])
