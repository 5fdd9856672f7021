"""The relaxations that prove Hoch Hinaus! losses (relax.py, faces.py, exact.solve_relaxed)
against the rules engine, the depth-first search and brute force: a relaxation may
fail to prove a loss, never call a winnable game lost."""

import random
from collections import Counter
from functools import cache

import pytest

from models.hoch_hinaus.board import Board
from models.hoch_hinaus.exact import encode_game, solve_relaxed
from models.hoch_hinaus.positions import position_json
from models.hoch_hinaus.reachable import dfs, exact
from models.hoch_hinaus.relax import impossible_tasks, supply_of, task_possible
from models.hoch_hinaus.state import GameState, new_game
from models.hoch_hinaus.tasks import holds
from solver.backends.sat import IncrementalSat
from tests.test_hoch_hinaus_exact import (
    CAT,
    R,
    action_lits,
    end_games,
    random_line,
    replays_to_a_win,
)


@cache
def _decided() -> list[tuple[GameState, str]]:
    """Small end games with the depth-first search's answer (computed once)."""
    out = []
    for g in end_games(12):
        ref = dfs(g, 10**6).answer
        assert ref in ("won", "lost")
        out.append((g, ref))
    return out


def _relaxed_lost(g: GameState, cap: int | None, diff: int | None = None) -> bool:
    model = encode_game(g, relaxed=True, cap=cap, diff=diff)
    with IncrementalSat(model.builder) as sat:
        return sat.solve([model.won]) is None


@pytest.mark.parametrize("cap, diff", [(None, None), (1, None), (3, None), (1, 0), (3, 1)])
def test_the_relaxed_model_never_calls_a_winnable_game_lost(cap, diff):
    """On small end games decided by the depth-first search: every game the relaxed
    model (heights capped at `cap`, or faces alone; pair differences exact within
    +-diff) calls lost is lost."""
    answers = Counter()
    for g, ref in _decided():
        lost = _relaxed_lost(g, cap, diff)
        if lost:
            assert ref == "lost", position_json(g)
        answers[(ref, lost)] += 1
    assert answers[("won", False)] >= 3 and answers[("lost", True)] >= 2, answers


def test_solve_relaxed_equals_the_search_and_its_wins_replay():
    answers = Counter()
    for g, ref in _decided():
        got = solve_relaxed(g, cap=1)  # a low cap: the line must be checked and raised
        if got.answer is not None:
            assert got.answer == ref, position_json(g)
        if got.answer == "won":
            assert got.line and replays_to_a_win(g, got.line)
        answers[got.answer] += 1
    assert answers["won"] >= 2 and answers["lost"] >= 2, answers


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("cap, diff", [(None, None), (2, None), (30, None), (2, 4),
                                       (2, 1), (30, 0)])
def test_every_legal_line_is_a_line_of_the_relaxed_model(seed, cap, diff):
    """Random legal lines, gap fillers included, fixed in the relaxed model: it admits
    each, with the engine's visible faces, (capped) heights and pair differences
    (exact within +-diff) after every step."""
    rng = random.Random(300 + seed)
    g = new_game(R, CAT, 1 + seed % 3, "first", rng)
    line, states = random_line(g, rng, 6, 0.5)
    boards = [s.board for s in states]
    model = encode_game(_start(seed), horizon=len(line), relaxed=True, cap=cap, diff=diff)
    steps = model.steps
    fixed = [lit for t, a in enumerate(line) for lit in action_lits(model, t, a)]
    # the engine's states after every step, assumed too (beyond +-diff the model may
    # hold either neighbouring value, so the states are asked for, not read off)
    for t, b in enumerate(boards):
        for s, (face, h) in enumerate(b.visible()):
            fixed.append(steps.face_is[t][s][steps.empty if face is None
                                             else steps.face_index[face]])
            if cap is not None:
                fixed.append(steps.height_is[t][s][min(h, cap)])
        if cap is not None and diff is not None:  # pair differences, clipped at +-diff
            hs = [h for _, h in b.visible()]
            for e, (x, y) in enumerate(R.pairs):
                d = min(max(hs[x] - hs[y], -diff - 1), diff + 1)
                fixed.append(steps.diff[t][e][d + diff + 1])
    with IncrementalSat(model.builder) as sat:
        assert sat.solve(fixed) is not None


def _start(seed: int) -> GameState:
    return new_game(R, CAT, 1 + seed % 3, "first", random.Random(300 + seed))


def _reachable_boards(g: GameState, depth: int) -> list[Board]:
    """Every board after at most `depth` placements of any tiles left, in any order,
    each with or without a gap filler while any are left (the engine's placements)."""
    tiles = [t for h in g.hands for t in h] + list(g.reserve)
    out = [g.board]
    frontier = [(g.board, tiles, g.fillers_left)]
    for _ in range(depth):
        nxt = []
        for b, left, fillers in frontier:
            for a in b.placements(left, g.pros, fillers > 0):
                b2 = b.copy()
                b2.apply(a)
                nxt.append((b2, [t for t in left if t != a.tile],
                            fillers - (a.filler is not None)))
        out += [b for b, _, _ in nxt]
        frontier = nxt
    return out


@pytest.mark.parametrize("seed", range(6))
def test_a_task_called_impossible_holds_on_no_reachable_board(seed):
    """Brute force: positions with two tiles left (and gap fillers on some); every
    catalogue task the counting relaxation calls impossible holds on none of the boards
    reachable by every line of legal placements."""
    g = _late_position(700 + seed, plain=seed % 2 == 1)
    boards = [b.visible() for b in _reachable_boards(g, 2)]
    supply = supply_of(g)
    vis = g.board.visible()
    called = 0
    for task in CAT.tasks:
        if not task_possible(R, task, vis, supply):
            called += 1
            assert not any(holds(R, task, v) for v in boards), task.text()
    assert called >= 3  # the relaxation does say no on such positions


def _late_position(seed: int, plain: bool) -> GameState:
    """A one-player deal played at random (without gap fillers if `plain`) until the
    reserve is empty, two tiles kept in hand: the first seed from `seed` on whose line
    does not end before."""
    while True:
        rng = random.Random(seed)
        g = new_game(R, CAT, 1, "first", rng)
        while g.status == "playing" and g.reserve:
            acts = g.legal_actions()
            free = [a for a in acts if a.filler is None]
            g = g.apply_action(rng.choice(free if free and plain else acts))
        if g.status == "playing":
            return g.but(hands=[g.hands[0][:2]])
        seed += 1000


def test_a_task_no_tile_left_can_fulfil_proves_the_loss():
    g = new_game(R, CAT, 1, "first", random.Random(5))
    pink3 = {t.id for t in R.tiles if (1, 3) in t.faces}
    keep = [t for t in g.hands[0] + g.reserve if t not in pink3]
    g = g.but(hands=[keep[:3]], reserve=keep[3:], open=[CAT.parse("TWO PINK 3")])
    assert [t.text() for t in impossible_tasks(g)] == ["TWO PINK 3"]
    res = exact(g)
    assert (res.answer, res.proven, res.by) == ("lost", True, "relaxed")
    assert "TWO PINK 3" in res.note
