"""Hints: legal cells only, the last empty cell, estimates from real completions."""

from __future__ import annotations

import random

import pytest

from models.take_it_higher.hint import hint
from models.take_it_higher.positions import Placement, Position
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import load_rules
from models.take_it_higher.state import GameState, replay
from models.take_it_higher.variants import Variant
from tests.cli_helpers import load_script
from tests.tih_small import brute_force_max, random_position, small_rules


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("gold_silver", [False, True])
def test_hint_proposes_only_empty_cells(seed, gold_silver):
    rules = load_rules()
    state, tile = random_position(rules, Variant(gold_silver), 10 + seed * 4, seed)
    # a fixed work budget (not a clock): the same answer on a loaded machine
    result = hint(state, tile, seed=seed, samples=3)
    empty = set(state.empty_cells())
    assert result.options and all(o.cell in empty for o in result.options)
    assert len({o.cell for o in result.options}) == len(result.options)
    estimates = [o.estimate for o in result.options]
    assert estimates == sorted(estimates, reverse=True)
    assert all(o.samples == result.samples >= 1 for o in result.options)


@pytest.mark.parametrize("gold_silver", [False, True])
def test_one_empty_cell_left(gold_silver):
    rules = load_rules()
    state, tile = random_position(rules, Variant(gold_silver), rules.board_size - 1, 4)
    result = hint(state, tile)
    (only,) = result.options
    assert only.cell == state.empty_cells()[0]
    board = dict(state.board)
    board[only.cell] = tile
    assert only.estimate == board_score(rules, board, gold_silver)


def test_two_cells_left_estimates_are_exact_scores():
    """With two empty cells and one tile to come, the future is a single unseen tile;
    every estimate must be a real final score of some completion."""
    rules = small_rules(11, n_cells=5, n_tiles=7)
    state, tile = random_position(rules, Variant(), rules.board_size - 2, 2)
    result = hint(state, tile, samples=4, time_limit=5)
    assert {o.cell for o in result.options} == set(state.empty_cells())
    unseen = [t for t in state.unplaced_tiles() if t.id != tile.id]
    for o in result.options:
        board = dict(state.board)
        board[o.cell] = tile
        other = next(c for c in state.empty_cells() if c != o.cell)
        possible = [board_score(rules, {**board, other: t}) for t in unseen]
        assert min(possible) <= o.estimate <= max(possible)


def test_empty_board_hint_is_bounded_by_the_maximum():
    rules = small_rules(5, n_cells=5, n_tiles=7)
    state = GameState(rules, Variant())
    tile = rules.tiles[0]
    result = hint(state, tile, samples=6, time_limit=5)
    best = brute_force_max(rules, False)
    assert all(o.estimate <= best for o in result.options)


@pytest.mark.parametrize("ships", ["simple", "advanced"])
def test_ship_hints_are_legal_moves(ships):
    rules = load_rules()
    for seed in range(2):
        state, tile = random_position(rules, Variant(True, ships), 8 + 6 * seed, seed)
        result = hint(state, tile, seed=seed, time_limit=0.5)
        for o in result.options:
            assert o.cell in state.empty_cells()
            assert o.launch in state.legal_launches(tile, o.cell)


@pytest.mark.parametrize("name, ships", [("oliver-simple", "simple"),
                                         ("hannah-advanced", "advanced")])
def test_last_tile_hint_takes_the_best_launch(name, ships):
    """On the recorded games, the hint for the last tile proposes the last cell and the
    launch that scores most (Oliver's last tile launches red and silver: ring 180)."""
    from pathlib import Path

    from models.take_it_higher.positions import load_position
    from models.take_it_higher.sheet import score_sheet
    rules = load_rules()
    path = Path(__file__).parents[1] / "puzzles/take-it-higher" / f"{name}.json"
    pos = load_position(rules, path)
    variant = Variant(False, ships)
    state = replay(Position(rules, pos.placements[:-1]), variant)
    last = pos.placements[-1]
    result = hint(state, rules.tile_by_id[last.tile])
    best = result.options[0]
    assert best.cell == last.cell
    assert best.estimate == score_sheet(pos, variant).total
    assert best.estimate == max(o.estimate for o in result.options)


def test_best_launches_recover_the_recorded_bonus():
    """Stripping the launches from the recorded games, the exhaustive launch search finds
    a bonus at least as high as the players' (180 and 160)."""
    from pathlib import Path

    from models.take_it_higher.positions import load_position
    from models.take_it_higher.spaceships import best_launches
    rules = load_rules()
    for name, ships, bonus in (("oliver-simple", "simple", 180),
                               ("hannah-advanced", "advanced", 160)):
        pos = load_position(rules, Path(__file__).parents[1] / "puzzles/take-it-higher"
                            / f"{name}.json")
        found, game = best_launches(GameState(rules, Variant(False, ships)),
                                    [(p.tile, p.cell) for p in pos.placements])
        assert found >= bonus
        assert replay(Position(rules, game), Variant(False, ships)).bonus()[0] == found


@pytest.mark.parametrize("seed", range(2))
def test_hint_ignores_the_order_of_the_tiles_still_to_come(seed):
    """Nobody at the table knows the order of the face-down tiles: a dealt game that
    knows it (simulate, play) gets the same hint as the same board with the order
    shuffled or unknown, for a fixed seed."""
    from dataclasses import replace

    rules = load_rules()
    state, tile = random_position(rules, Variant(False, "advanced"), 16, seed)
    called = state.apply_action(tile)
    rest = [t for t in called.unseen_tiles()][: called.calls_to_come()]
    shuffled = list(reversed(rest))
    answers = []
    for order in (None, tuple(rest), tuple(shuffled)):
        result = hint(replace(called, to_call=order), tile, samples=3, seed=seed)
        answers.append([(o.cell, o.launch, o.estimate) for o in result.options])
    assert answers[0] == answers[1] == answers[2]
    assert answers[0]  # a ranking, not an empty list


# ----------------------------------------------------------- stud-pattern completions

def _completion_problem(rules, gold_silver, n_fixed, seed):
    """A board with n_fixed random tiles placed and a random draw for the other cells."""
    from models.take_it_higher.encode import MaxProblem
    rng = random.Random(seed)
    tiles = rng.sample(list(rules.tiles), rules.board_size)
    cells = rng.sample(list(rules.cell_ids), rules.board_size)
    fixed = tuple(zip(cells[:n_fixed], tiles[:n_fixed], strict=True))
    return MaxProblem(rules, Variant(gold_silver), tuple(tiles[n_fixed:]), fixed)


def _brute_force_completion(problem):
    import itertools
    fixed = dict(problem.fixed)
    free = [c for c in problem.rules.cell_ids if c not in fixed]
    return max(board_score(problem.rules, {**fixed, **dict(zip(free, order, strict=True))},
                           problem.variant.gold_silver)
               for order in itertools.permutations(problem.draw))


@pytest.mark.parametrize("seed", range(8))
def test_stud_completion_is_a_real_completion_and_optimal_when_it_says_so(seed):
    """On small rules files with studs: the board keeps the placed tiles, puts exactly
    the drawn tiles on the free cells and is worth what the outcome says; with an ample
    budget that is the best completion (brute force); with a tiny budget it is never
    claimed optimal unless it is."""
    from models.take_it_higher.completion import stud_completion
    from solver.backends import SolverOptions
    rules = small_rules(seed, n_cells=6, n_tiles=9)
    problem = _completion_problem(rules, True, 1 + seed % 2, seed)
    best = _brute_force_completion(problem)
    for work in (0.5, 0.0005):
        board, outcome = stud_completion(problem,
                                         SolverOptions(deterministic_time=work, workers=1))
        if board is None:
            assert work < 0.5
            continue
        # fixed work on one worker: the same board on every run
        assert stud_completion(problem, SolverOptions(deterministic_time=work,
                                                      workers=1))[0] == board
        fixed = dict(problem.fixed)
        assert all(board[c] == t for c, t in fixed.items())
        assert sorted(t.id for c, t in board.items() if c not in fixed) == sorted(
            t.id for t in problem.draw)
        assert outcome.objective == board_score(rules, board, True) <= best
        if work == 0.5 or outcome.status == "optimal":
            assert outcome.objective == best and outcome.status == "optimal"


@pytest.mark.parametrize("seed", range(4))
def test_stud_completion_keeps_a_better_start(seed):
    """A completion known already (another move's board with the called tile swapped in)
    is kept when the budget finds nothing better: the answer is never below it."""
    from models.take_it_higher.completion import stud_completion
    from solver.backends import SolverOptions
    rules = small_rules(seed, n_cells=6, n_tiles=9)
    problem = _completion_problem(rules, True, 1, seed)
    fixed = dict(problem.fixed)
    free = [c for c in rules.cell_ids if c not in fixed]
    start = {**fixed, **dict(zip(free, problem.draw, strict=True))}
    value = board_score(rules, start, True)
    for work in (0.5, 0.0):
        board, outcome = stud_completion(problem, SolverOptions(deterministic_time=work,
                                                                workers=1), starts=[start])
        assert board is not None
        assert outcome.objective == board_score(rules, board, True) >= value
    assert outcome.objective == value  # no work at all: the start itself
    assert board == start


def test_basic_completion_is_the_single_model():
    """Without bonus rows the completion is the one CP-SAT model it always was, so the
    basic hint plays exactly as before."""
    from models.take_it_higher.completion import stud_completion
    from models.take_it_higher.maximum import solve_completion
    from solver.backends import SolverOptions
    problem = _completion_problem(load_rules(), False, 8, 3)
    budget = SolverOptions(deterministic_time=0.5, workers=1)
    board, outcome = stud_completion(problem, budget)
    single, single_outcome = solve_completion(problem, budget)
    assert board == single and outcome.objective == single_outcome.objective


@pytest.mark.parametrize("seed", [3, 5])
def test_a_basic_completion_from_a_known_board_is_never_worse(seed):
    """A sibling's board as the start: the completion is a real one of the same tiles,
    scores at least the start and, proven here, the optimum the cold model proves."""
    from models.take_it_higher.completion import stud_completion
    from models.take_it_higher.maximum import solve_completion
    from solver.backends import SolverOptions
    rules = load_rules()
    problem = _completion_problem(rules, False, 10, seed)
    fixed = dict(problem.fixed)
    free = [c for c in rules.cell_ids if c not in fixed]
    start = {**fixed, **dict(zip(free, problem.draw, strict=True))}  # any legal board
    budget = SolverOptions(deterministic_time=5.0, workers=1)
    board, outcome = stud_completion(problem, budget, starts=[start])
    cold, cold_outcome = solve_completion(problem, budget)
    assert cold_outcome.status == outcome.status == "optimal"
    assert {c: t for c, t in board.items() if c in fixed} == fixed
    assert sorted(t.id for c, t in board.items() if c not in fixed) == sorted(
        t.id for t in problem.draw)
    assert board_score(rules, board) == outcome.objective == cold_outcome.objective
    assert outcome.objective >= board_score(rules, start)


def test_stud_patterns_find_better_gold_silver_completions_in_the_same_work():
    """The full board under the gold/silver rules, early in a game (4 tiles placed):
    within the hint's fixed work per completion, trying stud patterns first finds a
    better board than the one model (which spends it all without a good stud pattern)."""
    from models.take_it_higher.completion import stud_completion
    from models.take_it_higher.hint import DETERMINISTIC_SOLVE
    from models.take_it_higher.maximum import solve_completion
    from solver.backends import SolverOptions
    budget = SolverOptions(deterministic_time=DETERMINISTIC_SOLVE, workers=1)
    rules = load_rules()
    problem = _completion_problem(rules, True, 4, 0)
    ours = board_score(rules, stud_completion(problem, budget)[0], True)
    single = board_score(rules, solve_completion(problem, budget)[0], True)
    assert ours > single


@pytest.mark.parametrize("gold_silver", [False, True])
def test_a_solve_without_a_board_falls_back_to_a_greedy_completion(monkeypatch, gold_silver):
    """On a busy machine a completion's solve may find no board in its share of the 2-s
    hint: every future used to be dropped and every estimate was 0. The greedy
    completion (legal: the fixed tiles kept, the draw on the empty cells) values it."""
    import models.take_it_higher.completion as completion
    from models.take_it_higher.hint import greedy_completion
    from solver.backends.common import SolveOutcome

    rules = load_rules()
    state, tile = random_position(rules, Variant(gold_silver), 12, 4)
    draw = [tile, *random.Random(4).sample(state.unseen_tiles(), len(state.empty_cells()) - 1)]
    board = greedy_completion(state, dict(state.board), draw)
    assert {c: t for c, t in board.items() if c in state.board} == dict(state.board)
    assert sorted(board) == sorted(rules.cell_ids)
    assert sorted(t.id for c, t in board.items() if c not in state.board) == \
        sorted(t.id for t in draw)
    nothing = SolveOutcome("unknown", None, None, 0.0, "cpsat")
    monkeypatch.setattr(completion, "stud_completion", lambda *a, **k: (None, nothing))
    result = hint(state, tile, seed=1, samples=2)
    assert result.options and all(o.estimate > 0 for o in result.options)
    assert not result.exact


FAMILY = ["hexagon-3col", "three-directions", "five-directions-small", "more-tiles",
          "one-copy"]


@pytest.mark.parametrize("gold_silver", [False, True])
@pytest.mark.parametrize("shape", FAMILY)
def test_hint_on_boards_of_the_family_equals_brute_force(shape, gold_silver):
    """Any board of the family (other shapes, 3 or 5 directions, one copy per tile, more
    tiles than cells): with three empty cells every option's estimate is the mean, over
    the hint's own sampled futures, of the best completion found by brute force."""
    import itertools

    from models.take_it_higher.hint import sample_future
    from models.take_it_higher.rules import rules_from_dict
    rules = rules_from_dict(load_script("make_take_it_higher_rules").shape_rules(shape))
    state, tile = random_position(rules, Variant(gold_silver), rules.board_size - 3, 7)
    state = state.apply_action(tile)
    result = hint(state, tile, samples=3, seed=5)
    empty = state.empty_cells()
    assert {o.cell for o in result.options} == set(empty) and result.exact
    rng = random.Random(5)
    futures = [sample_future(rng, state.unseen_tiles(), state.coming, 2) for _ in range(3)]
    for o in result.options:
        others = [c for c in empty if c != o.cell]
        best = [max(board_score(rules, {**state.board, o.cell: tile,
                                        **dict(zip(others, order, strict=True))}, gold_silver)
                    for order in itertools.permutations(future)) for future in futures]
        assert o.estimate == pytest.approx(sum(best) / 3)


def test_hint_command_on_a_generated_rules_file(tmp_path):
    """`hint FILE --rules R` on a generated board gives the in-process hint's answer."""
    import json

    from models.take_it_higher.rules import rules_from_dict
    from tests.cli_helpers import game_runner, run_json
    data = load_script("make_take_it_higher_rules").shape_rules("hexagon-3col")
    rules_file = tmp_path / "hexagon-3col.json"
    rules_file.write_text(json.dumps(data))
    rules = rules_from_dict(data)
    state, tile = random_position(rules, Variant(), rules.board_size - 6, 2)
    position = tmp_path / "position.json"
    position.write_text(json.dumps({"placements": [f"{t.id}@{c}" for c, t in
                                                   state.board.items()], "called": tile.id}))
    out = run_json(game_runner("take-it-higher"), "hint", str(position), "--rules",
                   str(rules_file), "--samples", "2", "--seed", "3")
    ours = hint(state, tile, samples=2, seed=3)
    assert [(o["cell"], o["estimate"]) for o in out["options"]] == [
        (o.cell, o.estimate) for o in ours.options]
    assert {o["cell"] for o in out["options"]} <= set(state.empty_cells())


@pytest.mark.parametrize("name, ships, left, gold_silver", [
    ("oliver-simple", "simple", 4, False), ("hannah-advanced", "advanced", 4, False),
    ("hannah-advanced", "advanced", 3, False), ("oliver-simple", "simple", 4, True),
    ("hannah-advanced", "advanced", 4, True)])
def test_ring_completion_bounds_every_completion(name, ships, left, gold_silver):
    """The spaceship completion's objective (rows plus the ring's relaxed button) is at
    least the best true score of any completion of the recorded game's last `left`
    tiles in their call order (brute force: every placement, the best launches; with or
    without the gold/silver scoring); its
    board is a real completion, and when the relaxation is tight it is the best one."""
    import itertools
    from pathlib import Path

    from models.take_it_higher.completion import ring_completion
    from models.take_it_higher.encode import MaxProblem
    from models.take_it_higher.positions import load_position
    from models.take_it_higher.spaceships import best_launches
    from solver.backends import SolverOptions
    rules = load_rules()
    pos = load_position(rules, Path(__file__).parents[1] / "puzzles/take-it-higher"
                        / f"{name}.json")
    variant = Variant(gold_silver, ships)
    state = replay(Position(rules, pos.placements[:-left]), variant)
    draw = [rules.tile_by_id[p.tile] for p in pos.placements[-left:]]
    free = state.empty_cells()

    def true_score(board):
        moves = [(t.id, next(c for c in free if board[c] == t)) for t in draw]
        return board_score(rules, board, gold_silver) + best_launches(state, moves)[0]

    best = max(true_score({**state.board, **dict(zip(free, order, strict=True))})
               for order in itertools.permutations(draw))
    problem = MaxProblem(rules, Variant(gold_silver), tuple(draw), tuple(state.board.items()))
    carrying = frozenset(c for c, v in state.ships_on.items() if v) if ships == "advanced" \
        else frozenset()
    board, outcome = ring_completion(problem, SolverOptions(deterministic_time=5.0, workers=1),
                                     frozenset(state.launched), carrying)
    assert outcome.status == "optimal"
    assert {c: board[c] for c in state.board} == state.board
    assert sorted(board[c].id for c in free) == sorted(t.id for t in draw)
    assert outcome.objective >= best >= true_score(board)
    if outcome.objective == true_score(board):
        assert true_score(board) == best


def _brute_force_bonus(state, moves):
    """The best final bonus over every legal launch sequence (the rules engine alone)."""
    if not moves:
        return state.bonus()[0]
    (tile_id, cell), rest = moves[0], moves[1:]
    best = -1
    for launch in state.legal_launches(state.rules.tile_by_id[tile_id], cell):
        after = state.placed(Placement(tile_id, cell, launch))
        best = max(best, _brute_force_bonus(after, rest))
    return best


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name, ships", [("oliver-simple", "simple"),
                                         ("hannah-advanced", "advanced")])
def test_best_launches_equal_the_rules_engine_search(name, ships, seed):
    """The launch search (rows found once per move, cut by the ring's bound) finds the
    best bonus of every launch sequence the rules engine allows, on the recorded boards
    with their last 7 tiles called in a random order; its game replays to that bonus."""
    from pathlib import Path

    from models.take_it_higher.positions import load_position
    from models.take_it_higher.spaceships import best_launches
    rules = load_rules()
    pos = load_position(rules, Path(__file__).parents[1] / "puzzles/take-it-higher"
                        / f"{name}.json")
    rng = random.Random(seed)
    keep = 17 - seed
    moves = [(p.tile, p.cell) for p in pos.placements[keep:]]
    rng.shuffle(moves)
    variant = Variant(False, ships)
    start = replay(Position(rules, pos.placements[:keep]), variant)
    found, game = best_launches(start, moves)
    assert found == _brute_force_bonus(start, moves)
    assert replay(Position(rules, [*pos.placements[:keep], *game]), variant).bonus()[0] == found


@pytest.mark.parametrize("gold_silver", [False, True])
@pytest.mark.parametrize("name, ships", [("oliver-simple", "simple"),
                                         ("hannah-advanced", "advanced")])
def test_ship_hint_values_every_launch_of_a_cell_exactly(name, ships, gold_silver):
    """Two cells left and the last tile known to come: the future is certain, so every
    option (each empty cell with each legal launch of the called tile there) is
    estimated at the exact final score: the last tile on the other cell with its best
    launch (brute force over the rules engine)."""
    from pathlib import Path

    from models.take_it_higher.positions import load_position
    from models.take_it_higher.sheet import state_sheet
    rules = load_rules()
    pos = load_position(rules, Path(__file__).parents[1] / "puzzles/take-it-higher"
                        / f"{name}.json")
    variant = Variant(gold_silver, ships)
    *before, second, last = pos.placements
    state = replay(Position(rules, before), variant)
    state = state.but(coming=(rules.tile_by_id[last.tile],))
    tile = rules.tile_by_id[second.tile]
    result = hint(state, tile, samples=2, seed=0)
    expected = {}
    for cell in state.empty_cells():
        other = next(c for c in state.empty_cells() if c != cell)
        for launch in state.legal_launches(tile, cell):
            after = state.apply_action(tile).apply_action(Placement(tile.id, cell, launch))
            last_tile = rules.tile_by_id[last.tile]
            expected[cell, launch] = max(
                state_sheet(after.apply_action(last_tile).apply_action(
                    Placement(last.tile, other, final))).total
                for final in after.legal_launches(last_tile, other))
    assert {(o.cell, o.launch): o.estimate for o in result.options} == expected
    best = max(expected.values())
    assert result.options[0].estimate == best


def _brute_force_joint(problems):
    """The best sum over futures of completions that share one plan: per line one
    colour and one stud (a future's row scores only the plan's colour, and its bonus
    only with the plan's stud). Given the boards the best plan is found line by line."""
    import itertools

    from models.take_it_higher.rows import line_row
    rules = problems[0].rules
    gold_silver = problems[0].variant.gold_silver
    fixed = dict(problems[0].fixed)
    free = [c for c in rules.cell_ids if c not in fixed]
    choices = [[{**fixed, **dict(zip(free, order, strict=True))}
                for order in itertools.permutations(p.draw)] for p in problems]
    colours = sorted({k for d in rules.directions for k in d.colours})
    studs = [None, *sorted(rules.stud_bonus)]
    best = -1
    for boards in itertools.product(*choices):
        total = 0
        for li in range(len(rules.lines)):
            rows = [line_row(rules, li, b) for b in boards]
            total += max(sum(r.points + (r.bonus if gold_silver and r.stud == g else 0)
                             for r in rows if r is not None and r.colour == k)
                         for k in colours for g in studs)
        best = max(best, total)
    return best


@pytest.mark.parametrize("seed", range(4))
def test_joint_completion_equals_brute_force(seed):
    """Completions of two or three futures with one plan for the lines: the solver's
    sum is the brute-force best, each board is a completion of its future, and the
    sum is never above the futures completed one at a time."""
    from models.take_it_higher.completion import joint_completion
    from models.take_it_higher.encode import MaxProblem
    from solver.backends import SolverOptions
    gold_silver = seed % 2 == 0
    rules = small_rules(seed, n_cells=6, n_tiles=9)
    rng = random.Random(seed)
    tiles = list(rules.tiles)
    rng.shuffle(tiles)
    fixed = tuple(zip(rules.cell_ids[:3], tiles[:3], strict=True))
    rest = tiles[3:]
    problems = [MaxProblem(rules, Variant(gold_silver), tuple(rng.sample(rest, 3)), fixed)
                for _ in range(2 + seed % 2)]
    found, outcome = joint_completion(problems, SolverOptions(time_limit=20, workers=1))
    assert outcome.status == "optimal"
    boards = [b for b, _ in found]
    assert sum(v for _, v in found) == outcome.objective == _brute_force_joint(problems)
    # a board may complete a row off the plan by chance: the engine counts it, the
    # plan's points do not
    for board, value in found:
        assert board_score(rules, board, gold_silver) >= value
    for board, problem in zip(boards, problems, strict=True):
        assert all(board[c] == t for c, t in fixed)
        assert sorted(t.id for c, t in board.items() if c not in dict(fixed)) == sorted(
            t.id for t in problem.draw)
    assert outcome.objective <= sum(_brute_force_completion(p) for p in problems)


@pytest.mark.parametrize("gold_silver", [False, True])
def test_joint_hint_lies_between_the_plan_and_hindsight(monkeypatch, gold_silver):
    """With the joint completions switched on (hint.JOINT, measured in the docs), a
    cell's estimate is the best mean over the hint's own futures under one plan (brute
    force), below the futures' best completions one at a time where the plan binds."""
    import models.take_it_higher.hint as hint_module
    from models.take_it_higher.encode import MaxProblem
    from models.take_it_higher.hint import sample_future
    monkeypatch.setattr(hint_module, "JOINT", True)
    rules = small_rules(9, n_cells=7, n_tiles=10)
    state, tile = random_position(rules, Variant(gold_silver), rules.board_size - 4, 2)
    state = state.apply_action(tile)
    result = hint(state, tile, samples=3, seed=5)
    empty = state.empty_cells()
    rng = random.Random(5)
    futures = [sample_future(rng, state.unseen_tiles(), state.coming, 3) for _ in range(3)]
    bound = 0
    for o in result.options:
        fixed = tuple({**state.board, o.cell: tile}.items())
        problems = [MaxProblem(rules, Variant(gold_silver), tuple(f), fixed)
                    for f in futures]
        plan = _brute_force_joint(problems) / 3
        alone = sum(_brute_force_completion(p) for p in problems) / 3
        assert o.estimate == pytest.approx(plan)
        bound += plan < alone
    assert {o.cell for o in result.options} <= set(empty) and len(result.options) >= 3
    assert bound  # rules 9 have cells where the plan costs points (both scorings)
