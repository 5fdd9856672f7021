"""Counting conditions: parsing, and both encodings equal to plain counting."""

from __future__ import annotations

import itertools

import pytest
from ortools.sat.python import cp_model

from solver.backends import SolverOptions
from solver.backends.cpsat import make_solver
from solver.backends.sat import CnfBuilder, IncrementalSat
from solver.counting import Count, count_literal, cpsat_count_literal, parse_count
from solver.errors import BadInput


@pytest.mark.parametrize("text,expected", [
    ("exactly FIVE green", (Count("exactly", 5), 2)),
    ("at least 3 pink", (Count("at least", 3), 3)),
    ("NO purple", (Count("exactly", 0), 1)),
    ("more than two", (Count("at least", 3), 3)),
    ("fewer than 2", (Count("at most", 1), 3)),
    ("drei grüne Stapel", (Count("exactly", 3), 1)),
    ("mindestens zwei", (Count("at least", 2), 2)),
])
def test_parse_count(text, expected):
    assert parse_count(text.split(), 0) == expected


def test_parse_count_refuses_nonsense():
    assert parse_count("green piles".split(), 0) is None
    with pytest.raises(BadInput):
        parse_count("fewer than 0".split(), 0)


COUNTS = [Count(op, k) for op in ("exactly", "at least", "at most") for k in range(6)]


@pytest.mark.parametrize("count", COUNTS, ids=lambda c: c.text())
def test_encodings_equal_counting(count):
    n = 4
    b = CnfBuilder()
    xs = [b.var(("x", i)) for i in range(n)]
    lit = count_literal(b, xs, count)
    with IncrementalSat(b) as sat:
        for bits in itertools.product((0, 1), repeat=n):
            fixed = [x if v else -x for x, v in zip(xs, bits, strict=True)]
            expected = count.holds(sum(bits))
            assert (sat.solve(fixed + [lit]) is not None) == expected
            assert (sat.solve(fixed + [-lit]) is not None) == (not expected)
    for bits in itertools.product((0, 1), repeat=n):
        m = cp_model.CpModel()
        cx = [m.new_bool_var(f"x{i}") for i in range(n)]
        c = cpsat_count_literal(m, cx, count)
        for x, v in zip(cx, bits, strict=True):
            m.add(x == v)
        s = make_solver(SolverOptions(time_limit=10))  # leaves Ctrl-C to Python
        assert s.solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        assert bool(s.value(c)) == count.holds(sum(bits))
