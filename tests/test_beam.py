"""solver/beam.py: the widening beam finds a win exactly when one exists on small games
(held equal to brute force, an exhaustive beam proves a loss), its line replays to the
win, and it stops at its deadline; on Tippi Toppi endgames its answers equal the
depth-first search of the game."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from models.tippi_toppi.reachable import BEAM, search_winning_line
from solver.beam import BeamGame, beam, widening_beam
from solver.deadline import NO_DEADLINE, Deadline
from tests.test_tippi_toppi_reachable import endgame


def _sums(target: int, steps: int, moves: tuple[int, ...]) -> BeamGame:
    """Reach exactly `target` from 0 by adding moves, within `steps` additions; a
    state (total, steps used) is dead past the target or out of steps."""
    return BeamGame(
        actions=lambda s: moves,
        apply=lambda s, a: (s[0] + a, s[1] + 1),
        won=lambda s: s[0] == target,
        dead=lambda s: s[0] > target or s[1] >= steps,
        key=lambda s: s,
        score=lambda s: s[0],
    )


def _brute(target: int, steps: int, moves: tuple[int, ...]) -> bool:
    @cache
    def can(total: int, left: int) -> bool:
        if total == target:
            return True
        if total > target or left == 0:
            return False
        return any(can(total + m, left - 1) for m in moves)
    return can(0, steps)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(target=st.integers(1, 40), steps=st.integers(1, 6),
       moves=st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True))
def test_widening_beam_equals_brute_force(target, steps, moves):
    game = _sums(target, steps, tuple(moves))
    found = widening_beam(game, (0, 0), NO_DEADLINE)
    assert (found.line is not None) is _brute(target, steps, tuple(moves))
    if found.line is not None:
        assert sum(found.line) == target and len(found.line) <= steps
    else:
        assert found.exhaustive  # a loss is only said when proven


def test_a_narrow_beam_is_not_exhaustive_and_says_nothing():
    # 5 reached only by 2 + 3, which a width-1 beam preferring large totals cuts
    game = _sums(5, 2, (4, 3, 2))
    narrow = beam(game, (0, 0), 1, NO_DEADLINE, random.Random(0))
    assert narrow.line is None and not narrow.exhaustive
    assert sorted(widening_beam(game, (0, 0), NO_DEADLINE).line) == [2, 3]


def test_the_beam_stops_at_its_node_budget_or_its_deadline():
    """The budget is work: the same children made, to the child, on every run; a
    deadline that has passed stops it too (neither is a proof of anything)."""
    endless = BeamGame(actions=lambda s: (1, 2), apply=lambda s, a: s * 2 + a,
                       won=lambda s: False, dead=lambda s: False, key=lambda s: s,
                       score=lambda s: 0)
    found = widening_beam(endless, 0, NO_DEADLINE, max_nodes=1000)
    assert found.line is None and not found.exhaustive and found.nodes == 1000
    assert widening_beam(endless, 0, NO_DEADLINE, max_nodes=1000) == found
    cut = widening_beam(endless, 0, Deadline.after(0))
    assert cut.line is None and not cut.exhaustive


def test_tippi_toppi_beam_equals_the_depth_first_search():
    """Endgames with 6 cards left and up to 2 tasks to turn up: won (a line the engine
    replays) or lost (an exhaustive beam) exactly when the search says so; both
    answers occur."""
    answers = set()
    for seed in range(12):
        s = endgame(seed, 6, 2)
        if s.is_terminal():
            continue
        line, _, complete = search_winning_line(s, NO_DEADLINE)
        assert complete
        found = widening_beam(BEAM, s, NO_DEADLINE)
        assert (found.line is not None) is (line is not None), seed
        if found.line is None:
            assert found.exhaustive
        else:
            check = s
            for play in found.line:
                check = check.apply_action(play)
            assert check.is_won()
        answers.add(line is not None)
    assert answers == {True, False}
