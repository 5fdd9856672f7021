"""Maximal scores: solver optimum == brute force on small rules files; CP-SAT == MaxSAT;
the returned board re-scores to the claimed value; the built-in basic maximum."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.take_it_higher import encode_cpsat
from models.take_it_higher.encode import MaxProblem
from models.take_it_higher.maximum import maximise
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import load_rules
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions, cpsat
from tests.tih_small import brute_force_max, small_rules

# one CP-SAT worker: the same proven optima for less CPU than two workers racing each
# other on the suite's two busy cores (and a run replays exactly)
OPTS = SolverOptions(time_limit=30, seed=1, workers=1)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), gold_silver=st.booleans())
def test_small_max_equals_brute_force(seed, gold_silver):
    rules = small_rules(seed)
    want = brute_force_max(rules, gold_silver)
    for backend in ("cpsat", "maxsat"):
        got = maximise(rules, Variant(gold_silver), None, backend, OPTS)
        assert got.status == "optimal"
        assert got.score == want, backend
        board = {c: rules.tile_by_id[t] for c, t in got.board.items()}
        assert board_score(rules, board, gold_silver) == want


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), gold_silver=st.booleans(), k=st.integers(1, 5))
def test_small_draw_max_equals_brute_force(seed, gold_silver, k):
    rules = small_rules(seed)
    draw = random.Random(seed).sample(list(rules.tiles), k)
    want = brute_force_max(rules, gold_silver, draw)
    for backend in ("cpsat", "maxsat"):
        got = maximise(rules, Variant(gold_silver), draw, backend, OPTS)
        assert got.score == want, backend
        assert set(got.board.values()) >= {t.id for t in draw}
        assert [p.split("@")[0] for p in got.placements[:k]] == [t.id for t in draw]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), gold_silver=st.booleans())
def test_encoding_scores_a_fixed_board_like_the_rules_engine(seed, gold_silver):
    """The CP-SAT model with every tile fixed must value the board exactly as the
    rules engine scores it (random full boards of the built-in rules)."""
    rules = load_rules()
    rng = random.Random(seed)
    tiles = rng.sample(list(rules.tiles), rules.board_size)
    board = dict(zip(rules.cell_ids, tiles, strict=True))
    problem = MaxProblem(rules, Variant(gold_silver), fixed=tuple(board.items()))
    mm = encode_cpsat.build(problem)
    _, outcome = cpsat.solve(mm.model, OPTS)
    assert outcome.status == "optimal"
    assert outcome.objective == board_score(rules, board, gold_silver)


def test_builtin_basic_maximum_is_proven():
    rules = load_rules()
    got = maximise(rules, Variant(), None, "cpsat", SolverOptions(time_limit=60, workers=1))
    assert got.status == "optimal"
    assert got.score == got.bound
    board = {c: rules.tile_by_id[t] for c, t in got.board.items()}
    assert len(board) == 24 and len(set(got.board.values())) == 24
    assert board_score(rules, board) == got.score == got.sheet.total
    # a better board would contradict the proof: every random board scores less
    rng = random.Random(7)
    for _ in range(200):
        tiles = rng.sample(list(rules.tiles), 24)
        assert board_score(rules, dict(zip(rules.cell_ids, tiles, strict=True))) <= got.score


@pytest.mark.slow
# draws whose MaxSAT proof takes about a second (draws 0 and 2: 3-4 s each; the CP-SAT
# proofs are quick for all but a few draws)
@pytest.mark.parametrize("seed", [5, 9])
def test_builtin_draw_maximum_both_backends(seed):
    rules = load_rules()
    draw = random.Random(seed).sample(list(rules.tiles), 24)
    got = [maximise(rules, Variant(), draw, b, OPTS) for b in ("cpsat", "maxsat")]
    assert [g.status for g in got] == ["optimal", "optimal"]
    assert got[0].score == got[1].score
    for g in got:
        assert sorted(g.board.values()) == sorted(t.id for t in draw)
        assert [p.split("@")[0] for p in g.placements] == [t.id for t in draw]


def test_builtin_basic_maximum_maxsat_agrees():
    rules = load_rules()
    got = maximise(rules, Variant(), None, "maxsat", OPTS)
    assert got.status == "optimal" and got.score == 477 == got.sheet.total


@pytest.mark.slow
def test_gold_silver_maximum_both_backends_agree():
    rules = load_rules()
    results = [maximise(rules, Variant(gold_silver=True), None, b, OPTS)
               for b in ("cpsat", "maxsat")]
    assert [r.status for r in results] == ["optimal", "optimal"]
    assert results[0].score == results[1].score == 910  # docs: known values
    for r in results:
        board = {c: rules.tile_by_id[t] for c, t in r.board.items()}
        assert board_score(rules, board, True) == r.score == r.sheet.total
        # the maximum is at least the basic maximum plus nothing, and every random
        # board scores at most it
        assert r.score >= 477
    rng = random.Random(3)
    for _ in range(200):
        tiles = rng.sample(list(rules.tiles), 24)
        board = dict(zip(rules.cell_ids, tiles, strict=True))
        assert board_score(rules, board, True) <= results[0].score


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_board_symmetries_preserve_every_score(seed):
    from models.take_it_higher.rules import board_symmetries
    for rules in (load_rules(), small_rules(seed, n_cells=6, n_tiles=8)):
        rng = random.Random(seed)
        tiles = rng.sample(list(rules.tiles), rules.board_size)
        board = dict(zip(rules.cell_ids, tiles, strict=True))
        for perm in board_symmetries(rules):
            moved = {perm[c]: t for c, t in board.items()}
            assert board_score(rules, moved, True) == board_score(rules, board, True)


def test_builtin_board_has_exactly_the_half_turn_symmetry():
    from models.take_it_higher.rules import board_symmetries
    syms = board_symmetries(load_rules())
    assert len(syms) == 1 and syms[0]["c1"] == "d6" and syms[0]["a3"] == "f4"


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), n_dirs=st.integers(1, 4))
def test_rules_without_studs_or_spaceships(seed, n_dirs):
    """Nothing assumes studs, spaceships, 4 directions or 24 cells."""
    from models.take_it_higher.positions import Position
    from models.take_it_higher.rules import rules_from_dict
    from models.take_it_higher.sheet import score_sheet
    from tests.tih_small import small_rules_dict
    data = small_rules_dict(seed, n_cells=4, n_tiles=6, n_dirs=n_dirs, studs=False)
    data.pop("spaceships")
    rules = rules_from_dict(data)
    want = brute_force_max(rules, False)
    for backend in ("cpsat", "maxsat"):
        got = maximise(rules, Variant(gold_silver=True), None, backend, OPTS)
        assert got.status == "optimal" and got.score == want
    sheet = score_sheet(Position(rules, []), Variant(False, "simple"))
    assert sheet.take_it_higher_bonus == 0 and sheet.total == 0


def test_models_are_the_same_in_every_process():
    """Seeded runs must replay exactly (simulations, puzzles, batch runs on other
    workers): the CP-SAT model may not depend on set order, which changes per process
    (string hashing, and hash(None) is an address in Python 3.11)."""
    import hashlib
    import os
    import subprocess
    import sys
    from pathlib import Path

    from models.take_it_higher.state import game_draw

    rules = load_rules()
    code = ("import hashlib; from models.take_it_higher import encode_cpsat; "
            "from models.take_it_higher.encode import MaxProblem; "
            "from models.take_it_higher.state import game_draw; "
            "from models.take_it_higher.variants import Variant; "
            "from models.take_it_higher.rules import load_rules; r = load_rules(); "
            "p = MaxProblem(r, Variant(gold_silver=True), tuple(game_draw(r, 3)[:20])); "
            "print(hashlib.md5(str(encode_cpsat.build(p, pair_cuts=True).model.proto)"
            ".encode()).hexdigest())")
    # this process (its own hash seed, random unless PYTHONHASHSEED is set) and two
    # fresh ones with fixed seeds
    digests = {hashlib.md5(str(encode_cpsat.build(MaxProblem(
        rules, Variant(gold_silver=True), tuple(game_draw(rules, 3)[:20])),
        pair_cuts=True).model.proto).encode()).hexdigest()}
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        # from the repository root, so `models` is this package whatever the cwd
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, cwd=Path(__file__).resolve().parent.parent)
        assert out.returncode == 0, out.stderr[-2000:]
        digests.add(out.stdout.strip())
    assert len(digests) == 1, digests


def test_max_draws_deals_draw_i_like_simulates_game_i():
    """`max --draws N --seed S`: draw i is dealt from S*1000003+i (simulate's game i),
    each optimum proven on one worker, summarised over the draws."""
    import json

    from click.testing import CliRunner

    from models.take_it_higher.state import game_draw
    from solver.cli import cli

    result = CliRunner().invoke(cli, ["take-it-higher", "max", "--draws", "2", "--seed", "1",
                                      "--time-limit", "30", "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    rules = load_rules()
    assert [r["seed"] for r in doc["records"]] == [1_000_003, 1_000_004]
    for r in doc["records"]:
        assert r["tiles"] == [t.id for t in game_draw(rules, r["seed"])]
        assert r["proven"] and r["score"] == maximise(rules, Variant(), game_draw(
            rules, r["seed"]), "cpsat", OPTS).score
    assert doc["proven"] == 2 and doc["mean"] == sum(r["score"] for r in doc["records"]) / 2


def test_a_board_found_in_time_may_score_more_than_the_model_says():
    """The model counts a row only when its variable is set: a board found before the
    time limit is a lower bound (CI once saw 876 claimed, 906 scored); a proven
    optimum must agree exactly, and the engine never scores less than claimed."""
    from models.take_it_higher.maximum import check_agreement
    from solver.backends import SolveOutcome

    check_agreement(SolveOutcome("feasible", 876, 1000, 3.0, "cpsat"), 906)
    check_agreement(SolveOutcome("optimal", 906, 906, 3.0, "cpsat"), 906)
    with pytest.raises(RuntimeError, match="claims 906"):
        check_agreement(SolveOutcome("feasible", 906, 1000, 3.0, "cpsat"), 876)
    with pytest.raises(RuntimeError, match="claims 876"):
        check_agreement(SolveOutcome("optimal", 876, 876, 3.0, "cpsat"), 906)


def test_a_time_limited_gold_silver_max_reports_the_engine_score():
    """Whatever the limit stops at, the reported score is the board's own score and
    lies within the bound."""
    rules = load_rules(None)
    got = maximise(rules, Variant(True), None, "cpsat",
                   SolverOptions(time_limit=1.0, seed=3, workers=2))
    board = {c: rules.tile_by_id[t] for c, t in got.board.items()}
    assert got.score == board_score(rules, board, True)
    assert got.score <= got.bound
    assert got.status in ("optimal", "feasible")


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), gold_silver=st.booleans(), k=st.integers(1, 3))
def test_max_from_a_board_equals_brute_force(seed, gold_silver, k):
    """`max FILE`: the board's k tiles stay on their cells, the called tile must be
    placed, the rest is free: both back-ends give the brute-force best finish."""
    import itertools

    rules = small_rules(seed)
    rng = random.Random(seed)
    tiles = rng.sample(list(rules.tiles), k + 1)
    cells = rng.sample(list(rules.cell_ids), k)
    fixed = tuple(zip(cells, (rules.tile_by_id[t.id] for t in tiles[:k]), strict=True))
    called = tiles[k]
    free = [c for c in rules.cell_ids if c not in cells]
    pool = [t for t in rules.tiles if t not in tiles[:k]]
    want = max(board_score(rules, {**dict(fixed), **dict(zip(free, chosen, strict=True))},
                           gold_silver)
               for chosen in itertools.permutations(pool, len(free)) if called in chosen)
    for backend in ("cpsat", "maxsat"):
        got = maximise(rules, Variant(gold_silver), [called], backend, OPTS, fixed=fixed)
        assert got.status == "optimal" and got.score == want, backend
        assert all(got.board[c] == t.id for c, t in fixed)
        assert called.id in got.board.values()


def test_max_file_answers_the_boards_best_finish(tmp_path):
    """`toppi take-it-higher max FILE`: the best score from that board (its tiles kept,
    the called tile placed), at most the free maximum and at least the board's score
    so far; a full board's maximum is its own score; spaceships are refused in one
    line; an empty board, like no FILE, gives the game's maximum."""
    import json

    from click.testing import CliRunner

    from solver.cli import cli

    def run(*args: str):
        return CliRunner().invoke(cli, ["take-it-higher", "max", *args, "--json"])

    board = ["SE@c1", "SL@d1", "GC@c2", "SK@d2", "SJ@e2", "SI@a3", "GD@b3", "SD@c3",
             "GI@d3", "GK@e3", "GB@f3", "SO@a4", "SG@b4", "SP@d4", "GM@e4", "SA@b5",
             "GJ@d5", "GL@e5", "GE@c6", "GO@d6"]
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"game": "take-it-higher", "variant": "basic",
                                "placements": board, "called": "GA"}))
    result = run(str(path))
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["status"] == "optimal" and doc["score"] == 428
    assert set(doc["placements"]) >= set(board)
    assert doc["board"]["c5"] == "GA"  # the called tile's best cell
    assert "from here" in doc["reading"]
    free = maximise(load_rules(), Variant(), None, "cpsat", OPTS).score
    assert doc["score"] < free == 477
    full = tmp_path / "full.json"
    full.write_text(json.dumps({"game": "take-it-higher", "variant": "basic",
                                "placements": doc["placements"]}))
    again = json.loads(run(str(full)).stdout)
    assert again["score"] == 428 and again["board"] == doc["board"]
    ships = tmp_path / "ships.json"
    ships.write_text(json.dumps({"game": "take-it-higher", "variant": "simple",
                                 "placements": board[:3]}))
    refused = run(str(ships))
    assert refused.exit_code == 2
    assert "not with spaceships" in refused.output and refused.output.count("\n") == 1
    assert run(str(path), "--draws", "2").exit_code == 2
    empty = tmp_path / "empty.json"  # an empty board: the game's maximum
    empty.write_text(json.dumps({"game": "take-it-higher", "placements": []}))
    assert json.loads(run(str(empty), "--backend", "cpsat").stdout)["score"] == free


def _walk(patterns, prefetch_at: int | None = None, floor: int = 0) -> list[tuple]:
    """Every stud pattern of the list in order, as (bonus bound, its orbit's key)."""
    from models.take_it_higher.stud_patterns import _order

    out = []
    for i in range(10_000):
        if i == prefetch_at:
            assert patterns.prefetch(floor, OPTS)
        pattern, master = patterns.nth(i, OPTS)
        if pattern is None:
            assert master.status == "infeasible"
            return out
        images = [pattern, *({p[c]: s for c, s in pattern.items()}
                             for p in patterns.symmetries)]
        out.append((master.objective, _order(min(images, key=_order))))
    raise AssertionError("the walk did not end")


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_prefetched_stud_patterns_are_the_walks_own(seed, monkeypatch):
    """Listing the patterns above a floor at once (one enumeration) gives the list the
    master's solves give one by one: the same bounds in the same order, the same
    patterns (one of each symmetric set) at each bound, and the walk goes on below."""
    import models.take_it_higher.stud_patterns as stud_patterns
    from models.take_it_higher.rules import board_symmetries
    from models.take_it_higher.stud_patterns import StudPatterns

    monkeypatch.setattr(stud_patterns, "LISTED_CELLS", 0)  # the master, not the listing
    rules = small_rules(seed, n_cells=8, n_tiles=11, n_dirs=4)
    problem = MaxProblem(rules, Variant(True), (), ())
    whole = _walk(StudPatterns(problem, "cpsat", board_symmetries(rules)))
    assert len(whole) > 6
    floor = whole[len(whole) // 2][0]
    fetched = _walk(StudPatterns(problem, "cpsat", board_symmetries(rules)), 2, floor)
    assert [b for b, _ in fetched] == [b for b, _ in whole]
    assert sorted(fetched) == sorted(whole)


@pytest.mark.parametrize("seed, k", [(1, 0), (5, 2), (9, 4), (14, 0), (17, 3)])
def test_gold_silver_max_with_prefetched_patterns_equals_brute_force(seed, k, monkeypatch):
    """The gold/silver maximum walking prefetched patterns from the first one on."""
    import models.take_it_higher.maximum as maximum_module
    import models.take_it_higher.stud_patterns as stud_patterns

    monkeypatch.setattr(maximum_module, "PREFETCH_AFTER", 0)
    monkeypatch.setattr(stud_patterns, "LISTED_CELLS", 0)  # the master, not the listing
    rules = small_rules(seed)
    draw = random.Random(seed).sample(list(rules.tiles), k) if k else None
    got = maximise(rules, Variant(True), draw, "cpsat", OPTS)
    assert got.status == "optimal" and got.score == brute_force_max(rules, True, draw)


def _orbit_key(symmetries):
    """A pattern's symmetric set, by its smallest member."""
    from models.take_it_higher.stud_patterns import _order

    def key(pattern):
        images = [pattern, *({p[c]: s for c, s in pattern.items()} for p in symmetries)]
        return _order(min(images, key=_order))
    return key


def _master(problem, symmetries, monkeypatch):
    """The CP-SAT master's list (the listing turned off)."""
    import models.take_it_higher.stud_patterns as stud_patterns

    with monkeypatch.context() as m:
        m.setattr(stud_patterns, "LISTED_CELLS", 0)
        master = stud_patterns.StudPatterns(problem, "cpsat", symmetries)
    assert master.listing is None
    return master


def _stud_bonus_by_hand(rules, problem, pattern) -> int:
    """The master's bound of a pattern, line by line: a line all of one stud scores its
    length times the stud's bonus (fixed tiles count with their own studs)."""
    studs = {c: t.stud for c, t in problem.fixed} | pattern
    total = 0
    for _, cells in rules.lines:
        first = studs[cells[0]]
        if first is not None and all(studs[c] == first for c in cells):
            total += len(cells) * rules.stud_bonus[first]
    return total


@pytest.mark.parametrize("seed, k, fixed", [(2, 0, 0), (6, 0, 2), (11, 5, 0), (19, 4, 2),
                                            (23, 0, 0), (30, 7, 1)])
def test_listed_stud_patterns_are_every_pattern_by_hand(seed, k, fixed, monkeypatch):
    """The listing (every pattern scored at once) against all stud patterns by hand:
    each allowed pattern's bound is its lines' bonus, every symmetric set comes once,
    by decreasing bound, and the CP-SAT master's walk gives the same list."""
    import itertools

    from models.take_it_higher.rules import board_symmetries
    from models.take_it_higher.stud_patterns import StudPatterns

    rules = small_rules(seed, n_cells=8, n_tiles=11, n_dirs=4)
    rng = random.Random(seed)
    tiles = rng.sample(list(rules.tiles), k + fixed)
    cells = rng.sample(list(rules.cell_ids), fixed)
    problem = MaxProblem(rules, Variant(True), tuple(tiles[:k]),
                         tuple(zip(cells, tiles[k:], strict=True)))
    symmetries = [] if fixed else board_symmetries(rules)
    listed = StudPatterns(problem, "cpsat", symmetries)
    assert listed.listing is not None
    got = _walk(listed)
    free = [c for c in rules.cell_ids if c not in cells]
    placed = {t.id for t in tiles[k:]}
    pool = [t for t in rules.tiles if t.id not in placed]
    need = {s: sum(t.stud == s for t in tiles[:k]) for s in ("gold", "silver")}
    have = {s: sum(t.stud == s for t in pool) for s in ("gold", "silver")}
    key = _orbit_key(symmetries)
    want = set()
    for studs in itertools.product(("gold", "silver"), repeat=len(free)):
        if all(need[s] <= studs.count(s) <= have[s] for s in need):
            pattern = dict(zip(free, studs, strict=True))
            want.add((_stud_bonus_by_hand(rules, problem, pattern), key(pattern)))
    assert len(got) == len(set(got)) and set(got) == want
    assert [b for b, _ in got] == sorted((b for b, _ in got), reverse=True)
    assert sorted(_walk(_master(problem, symmetries, monkeypatch))) == sorted(got)


def test_listed_stud_patterns_of_a_draw_on_the_built_in_board(monkeypatch):
    """On the built-in board with a full draw (24 cells, 2^24 patterns), the listing's
    first patterns are the master's, bound for bound and set for set."""
    from models.take_it_higher.rules import board_symmetries
    from models.take_it_higher.stud_patterns import StudPatterns

    rules = load_rules()
    draw = tuple(random.Random(4).sample(list(rules.tiles), rules.board_size))
    problem = MaxProblem(rules, Variant(True), draw, ())
    symmetries = board_symmetries(rules)
    listed = StudPatterns(problem, "cpsat", symmetries)
    assert listed.listing is not None
    first = [listed.nth(i, OPTS) for i in range(12)]
    master = _master(problem, symmetries, monkeypatch)
    walk = [master.nth(i, OPTS) for i in range(12)]
    bounds = [out.objective for _, out in first]
    assert bounds == [out.objective for _, out in walk]
    assert bounds[0] > bounds[-1]
    complete = [i for i, b in enumerate(bounds) if b > bounds[-1]]  # whole levels only
    key = _orbit_key(symmetries)
    assert sorted(key(first[i][0]) for i in complete) == sorted(key(walk[i][0]) for i in complete)
