"""The Boolean model of placement steps against the rules engine (the reference), and
achievability against a brute force over the engine's placements; both back-ends equal."""

import itertools
import random

import pytest

from models.hoch_hinaus.achievable import achievable, allowed_tiles, max_height
from models.hoch_hinaus.board import Board
from models.hoch_hinaus.encode import CnfLogic, CpLogic, StepModel
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.state import Bonus, GameState
from models.hoch_hinaus.tasks import holds, load_catalogue, parse_task
from solver.backends.common import SolverOptions
from solver.backends.cpsat import make_solver
from solver.backends.sat import IncrementalSat

RULES = load_rules()
CAT = load_catalogue(RULES)


def random_board(seed, moves, pros=False, filler_rate=0.25, side="blue"):
    rng = random.Random(seed)
    board = Board(RULES, side)
    tiles = [t.id for t in RULES.tiles]
    rng.shuffle(tiles)
    for _ in range(moves):
        hand = tiles[:3]
        acts = board.placements(hand, pros, fillers=rng.random() < filler_rate)
        if not acts:
            break
        a = rng.choice(acts)
        board.apply(a)
        tiles.remove(a.tile)
    return board, tiles


def engine_successors(board, hand, pros, fillers):
    out = set()
    for a in board.placements(hand, pros, fillers):
        b = board.copy()
        b.apply(a)
        out.add(b.key())
    return out


def sat_successors(board, hand, pros, fillers):
    logic = CnfLogic()
    game_h = max(board.height(s) for s in range(RULES.n_spaces)) + 2
    model = StepModel(RULES, logic, 1, [hand], pros, game_h, fillers)
    for lit in model.init_lits(board, hand):
        logic.clause([lit])
    found = set()
    with IncrementalSat(logic.b) as solver:
        while True:
            sol = solver.solve()
            if sol is None:
                return found
            found.add(model.state_key(1, lambda x, sol=sol: x in sol))
            lits = [x for x in model.state_lits(1) if x in sol]
            logic.clause([-x for x in lits])


@pytest.mark.parametrize("seed,moves,pros,fillers", [
    (1, 3, False, True), (2, 6, False, False), (3, 8, True, True), (4, 10, False, True),
    (5, 5, True, False), (6, 12, False, True)])
def test_one_step_successors_equal_engine(seed, moves, pros, fillers):
    board, tiles = random_board(seed, moves, pros)
    hand = tiles[:2]
    assert sat_successors(board, hand, pros, fillers) == \
        engine_successors(board, hand, pros, fillers)


def test_one_step_on_purple_side_with_printed_fillers():
    board, tiles = random_board(7, 4, side="purple")
    hand = tiles[:1]
    assert sat_successors(board, hand, True, True) == engine_successors(board, hand, True, True)


@pytest.mark.parametrize("seed,pros,fillers", [(11, False, False), (12, True, True)])
def test_one_step_successors_equal_engine_with_cpsat(seed, pros, fillers):
    from ortools.sat.python import cp_model
    board, tiles = random_board(seed, 7, pros)
    hand = tiles[:1]  # one tile: each CP-SAT enumeration step is a fresh solve
    logic = CpLogic()
    model = StepModel(RULES, logic, 1, [hand], pros,
                      max(board.height(s) for s in range(12)) + 2, fillers)
    for lit in model.init_lits(board, hand):
        logic.clause([lit])
    found = set()
    while True:
        solver = make_solver(SolverOptions(workers=1))  # Ctrl-C stays Python's
        if solver.solve(logic.m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        found.add(model.state_key(1, lambda x, s=solver: bool(s.boolean_value(x))))
        logic.clause([x.Not() for x in model.state_lits(1) if solver.boolean_value(x)])
    assert found == engine_successors(board, hand, pros, fillers) and found


def _game(board, hands, fillers=2, reserve=None):
    return GameState(RULES, board, [], [], [Bonus(None, fillers)] if fillers else [],
                hands, reserve or [], reserve_known=True)


def brute_force(game, tasks, k, mode):
    """Every sequence of k engine placements with the allowed tiles (fillers limited)."""
    allowed = allowed_tiles(game, k, mode)

    def rec(board, step, used, fills, done):
        if len(done) == len(tasks):
            return True
        if step == k:
            return False
        tiles = [t for t in allowed[step] if t not in used]
        for a in board.placements(tiles, game.pros, fills < game.fillers_left):
            b = board.copy()
            b.apply(a)
            vis = b.visible()
            now = done | {i for i, t in enumerate(tasks) if holds(RULES, t, vis)}
            if rec(b, step + 1, used | {a.tile}, fills + (a.filler is not None), now):
                return True
        return False

    return rec(game.board, 0, frozenset(), 0, frozenset())


TASK_TEXTS = ["Exactly FIVE GREEN", "THREE PINK in a ROW or COLUMN", "NO PURPLE on the EDGE",
              "PINK is in THREE different HEIGHTS", "FOUR different COLOURS in a COLUMN",
              "More GREEN than PINK", "ONE ORANGE at HEIGHT 3 or more", "A STACK of FOUR",
              "TWO GAP FILLERS visible", "ONE GREEN in EVERY COLUMN", "Exactly TWO 4s",
              "THREE ODD in the CORNERS", "Exactly TWO different COLOURS in the CENTRE"]


@pytest.mark.parametrize("seed", range(6))
def test_achievable_equals_brute_force(seed):
    rng = random.Random(100 + seed)
    board, tiles = random_board(seed + 20, rng.randint(4, 9), pros=seed % 3 == 0)
    k = 1 if seed % 2 == 0 else 2
    fillers = 1 if k == 1 else 0
    game = _game(board, [tiles[:2]] if k == 1 else [tiles[:2], tiles[2:4]], fillers)
    game = game.but(pros=seed % 3 == 0)
    texts = rng.sample(TASK_TEXTS, 3)
    for r in range(1, 3):
        for combo in itertools.combinations(texts, r):
            tasks = [parse_task(RULES, t) for t in combo]
            expected = brute_force(game, tasks, k, "hand")
            sat = achievable(game, tasks, k, "hand", "sat")
            assert (sat.answer == "yes") == expected, combo
            if sat.answer == "no":
                assert sat.core is not None and set(sat.core) <= set(combo)


@pytest.mark.parametrize("seed", range(2))
def test_backends_agree_with_minimal_cores(seed):
    board, tiles = random_board(seed + 40, 7)
    game = _game(board, [tiles[:3], tiles[3:6]], fillers=3, reserve=tiles[6:])
    tasks = [CAT.tasks[i] for i in random.Random(seed).sample(range(len(CAT.tasks)), 4)]
    for k, mode in ((1, "hand"), (2, "known"), (2, "any")):
        a = achievable(game, tasks, k, mode, "sat")
        b = achievable(game, tasks, k, mode, "cpsat")
        assert a.answer == b.answer
        if a.answer == "no":
            # both cores are minimal: dropping any task makes the rest achievable
            for core in (a.core, b.core):
                for drop in core:
                    rest = [t for t in tasks if t.text() in core and t.text() != drop]
                    if rest:
                        assert achievable(game, rest, k, mode, "sat").answer == "yes"


def test_max_height_covers_fillers():
    board, tiles = random_board(3, 8)
    game = _game(board, [tiles[:3]])
    assert max_height(game, 2, True) == max(board.height(s) for s in range(12)) + 4



def _random_task(rng):
    from models.hoch_hinaus.tasks import Pred, Region, Task
    from solver.counting import Count

    def pred():
        while True:
            p = Pred(rng.choice([None, 0, 1, 2, 3, 4]), rng.choice([None, 0, 1, 2, 3, 4]),
                     rng.choice([None, "even", "odd"]), False,
                     rng.choice([None, None, 1, 2, 3]), rng.random() < 0.5)
            if (p.colour, p.number, p.parity, p.height) != (None,) * 4:
                return p
    region = rng.choice([Region(), Region("edge"), Region("centre"), Region("corners"),
                         Region("row", rng.randrange(4)), Region("column", rng.randrange(3)),
                         Region(rng.choice(["rows", "columns", "lines"]), None,
                                rng.choice(["any", "every"]))])
    count = Count(rng.choice(["exactly", "at least", "at most"]), rng.randint(0, 5))
    kind = rng.choice(["count", "count", "heights", "distinct", "more"])
    if kind == "count":
        return Task("count", count, pred(), region)
    if kind == "heights":
        return Task("heights", count, pred())
    if kind == "distinct":
        return Task("distinct", count, Pred(), region, what=rng.choice(["colours", "numbers"]))
    return Task("more", None, pred(), region, pred())


@pytest.mark.parametrize("seed", range(4))
def test_task_literals_equal_engine_evaluation(seed):
    """Every task of the catalogue and random tasks of the language: the model's literal
    'holds at time 0' is true exactly when the rules engine says the task holds."""
    rng = random.Random(seed)
    board, tiles = random_board(seed + 60, rng.randint(3, 14), side=rng.choice(
        ["blue", "purple"]))
    logic = CnfLogic()
    model = StepModel(RULES, logic, 1, [tiles[:1]], False,
                      max(board.height(s) for s in range(12)) + 2, True)
    init = model.init_lits(board)
    tasks = list(CAT.tasks) + [_random_task(rng) for _ in range(60)]
    lits = [model.holds(t, 0) for t in tasks]
    vis = board.visible()
    with IncrementalSat(logic.b) as solver:
        sol = solver.solve(init)
        assert sol is not None
        for t, lit in zip(tasks, lits, strict=True):
            value = (lit in sol) if lit > 0 else (-lit not in sol)
            assert value == holds(RULES, t, vis), t
