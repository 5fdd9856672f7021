"""The shared solver machinery: honest statuses, enumeration, MaxSAT, assumptions."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from solver import logic
from solver.backends import SolverOptions, cpsat
from solver.backends.sat import CnfBuilder, IncrementalSat, maxsat
from solver.deadline import Deadline
from solver.results import dumps


def _knapsack(n: int) -> tuple[cp_model.CpModel, list]:
    m = cp_model.CpModel()
    xs = [m.new_bool_var(f"x{i}") for i in range(n)]
    m.add(sum((i % 7 + 3) * x for i, x in enumerate(xs)) <= 4 * n)
    m.maximize(sum((i * 13 % 11 + 1) * x for i, x in enumerate(xs)))
    return m, xs


def test_cpsat_optimal_matches_brute_force():
    m, _ = _knapsack(12)
    _, out = cpsat.solve(m, SolverOptions(time_limit=10))
    best = max(sum(i * 13 % 11 + 1 for i in range(12) if pick[i])
               for pick in itertools.product([0, 1], repeat=12)
               if sum(i % 7 + 3 for i in range(12) if pick[i]) <= 48)
    assert out.status == "optimal" and out.objective == out.bound == best


def test_a_fixed_copy_solves_with_those_values_and_leaves_the_model_as_it_was():
    m, xs = _knapsack(12)

    def best(fixed: dict[int, int]) -> int:
        return max(sum(i * 13 % 11 + 1 for i in range(12) if pick[i])
                   for pick in itertools.product([0, 1], repeat=12)
                   if sum(i % 7 + 3 for i in range(12) if pick[i]) <= 48
                   and all(pick[i] == v for i, v in fixed.items()))

    fixed = {0: 1, 5: 0, 10: 0, 11: 1}
    copy = cpsat.fixed_copy(m, ((xs[i], v) for i, v in fixed.items()))
    copy.add(xs[3] + xs[4] <= 1)  # the model's variables go into the copy's constraints
    solver, out = cpsat.solve(copy, SolverOptions(time_limit=10))
    assert [solver.value(xs[i]) for i in fixed] == list(fixed.values())
    assert solver.value(xs[3]) + solver.value(xs[4]) <= 1
    assert out.objective <= best(fixed)
    assert out.objective == max(best({**fixed, 3: a, 4: b}) for a, b in ((0, 0), (0, 1), (1, 0)))
    _, whole = cpsat.solve(m, SolverOptions(time_limit=10))
    assert whole.objective == best({}) > out.objective


def test_cpsat_infeasible_is_proven():
    m = cp_model.CpModel()
    x = m.new_bool_var("x")
    m.add(x == 1)
    m.add(x == 0)
    _, out = cpsat.solve(m, SolverOptions(time_limit=5))
    assert out.status == "infeasible" and out.proven and not out.has_solution


def test_enumeration_counts_solutions_and_proves_completeness():
    def enumerate_solutions(limit: int) -> tuple[list[list[int]], bool]:
        m = cp_model.CpModel()
        xs = [m.new_bool_var(f"x{i}") for i in range(4)]
        m.add(sum(xs) == 2)
        found = logic.enumerate_solutions(
            m, lambda value: [int(value(x)) for x in xs],
            lambda s: m.add_bool_or([x.Not() if v else x for x, v in zip(xs, s, strict=True)]),
            limit, SolverOptions(time_limit=5))
        return found.solutions, found.complete

    sols, complete = enumerate_solutions(100)
    assert len(sols) == 6 and complete
    sols, complete = enumerate_solutions(2)
    assert len(sols) == 2 and not complete
    # the same loop on the SAT side: one incremental solver picks up the blocks
    cnf = logic.CnfLogic()
    ys = [cnf.var() for _ in range(4)]
    cnf.b.exactly(ys, 2)
    found = logic.enumerate_solutions(
        cnf, lambda value: [int(value(y)) for y in ys],
        lambda s: cnf.clause([-y if v else y for y, v in zip(ys, s, strict=True)]), 100)
    assert len(found.solutions) == len(set(map(tuple, found.solutions))) == 6
    assert found.complete


def test_maxsat_weights_and_cardinality():
    b = CnfBuilder()
    xs = [b.var(("x", i)) for i in range(6)]
    b.at_most(xs, 3)
    b.at_least(xs, 1)
    for i, x in enumerate(xs):
        b.reward(x, [5, 1, 4, 2, 6, 3][i])
    lits, out = maxsat(b, SolverOptions(time_limit=10))
    assert out.status == "optimal" and out.objective == 15
    assert {i for i, x in enumerate(xs) if x in lits} == {0, 2, 4}


@pytest.mark.parametrize("stratified", [False, True])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_maxsat_equals_brute_force_stratified_or_not(stratified, data):
    """Random weighted formulas on 7 variables: RC2's optimum (plain or stratified by
    weight, the default) is the best total weight over every assignment."""
    n = 7
    clause = st.lists(st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v])),
                      min_size=1, max_size=3)
    hard = data.draw(st.lists(clause, max_size=8))
    soft = data.draw(st.lists(st.tuples(st.integers(1, n), st.booleans(),
                                        st.sampled_from([1, 2, 3, 5, 8, 13, 40])),
                              max_size=10))
    b = CnfBuilder()
    xs = [b.var(("x", i)) for i in range(n)]

    def lit(v: int) -> int:
        return xs[abs(v) - 1] if v > 0 else -xs[abs(v) - 1]
    for c in hard:
        b.clause([lit(v) for v in c])
    for v, positive, weight in soft:
        b.reward(lit(v) if positive else -lit(v), weight)
    best = None
    for values in itertools.product([False, True], repeat=n):
        if all(any(values[abs(v) - 1] == (v > 0) for v in c) for c in hard):
            score = sum(w for v, positive, w in soft if values[v - 1] == positive)
            best = score if best is None else max(best, score)
    lits, out = maxsat(b, SolverOptions(time_limit=10), stratified=stratified)
    if best is None:
        assert lits is None and out.status == "infeasible"
        return
    assert out.status == "optimal" and out.objective == best
    chosen = [x in lits for x in xs]
    assert sum(w for v, positive, w in soft if chosen[v - 1] == positive) == best


def test_maxsat_infeasible():
    b = CnfBuilder()
    xs = [b.var(i) for i in range(3)]
    b.exactly(xs, 2)
    b.at_most(xs, 1)
    lits, out = maxsat(b, SolverOptions(time_limit=10))
    assert lits is None and out.status == "infeasible"


def test_incremental_sat_under_assumptions():
    b = CnfBuilder()
    a, c, d = b.var("a"), b.var("c"), b.var("d")
    b.exactly_one([a, c, d])
    with IncrementalSat(b) as s:
        assert s.solve([a]) is not None
        assert s.solve([a, c]) is None
        b.implies(a, c)  # added later: picked up by the next call
        assert s.solve([a]) is None
        model = s.solve([-c])
        assert model is not None and d in model


def test_json_of_dataclasses():
    _, out = cpsat.solve(_knapsack(5)[0], SolverOptions(time_limit=5))
    text = dumps(out)
    assert '"status": "optimal"' in text and '"backend": "cpsat"' in text


def _core_instance(seed: int) -> tuple[int, list[tuple[list[int], int]]]:
    """n Booleans; each 'task' demands that at least k of its variables hold, and a
    global cap says at most n // 2 hold: some task sets are jointly impossible."""
    import random
    rng = random.Random(seed)
    n = 6
    tasks = []
    for _ in range(5):
        vs = rng.sample(range(n), rng.randint(1, 4))
        tasks.append((vs, rng.randint(1, len(vs))))
    return n, tasks


def _feasible(n: int, tasks: list[tuple[list[int], int]], chosen: list[int]) -> bool:
    for bits in itertools.product((0, 1), repeat=n):
        if sum(bits) <= n // 2 and all(sum(bits[v] for v in tasks[t][0]) >= tasks[t][1]
                                       for t in chosen):
            return True
    return False


def test_minimal_cores_are_unsatisfiable_and_minimal_in_both_backends():
    checked = 0
    for seed in range(40):
        n, tasks = _core_instance(seed)
        everything = _feasible(n, tasks, list(range(len(tasks))))
        # SAT: one switch literal per task, assumed true
        b = CnfBuilder()
        xs = [b.var(("x", i)) for i in range(n)]
        b.at_most(xs, n // 2)
        switches = [b.var(("task", t)) for t in range(len(tasks))]
        for t, (vs, k) in enumerate(tasks):
            # s_t -> not (more than len-k of vs false): at most len-k of (s_t -> not x)
            lits = [b.var(("miss", t, v)) for v in vs]
            for m_, v in zip(lits, vs, strict=True):
                b.clause([m_, xs[v], -switches[t]])  # s_t and not x_v -> miss
            b.at_most(lits, len(vs) - k)
        with IncrementalSat(b) as sat:
            core = sat.minimal_core(switches)
        # CP-SAT
        m = cp_model.CpModel()
        cx = [m.new_bool_var(f"x{i}") for i in range(n)]
        m.add(sum(cx) <= n // 2)
        cs = [m.new_bool_var(f"s{t}") for t in range(len(tasks))]
        for t, (vs, k) in enumerate(tasks):
            m.add(sum(cx[v] for v in vs) >= k).only_enforce_if(cs[t])
        ccore = cpsat.minimal_core(m, cs, SolverOptions(time_limit=10))
        if everything:
            assert core is None and ccore is None
            continue
        checked += 1
        sat_core = [switches.index(s) for s in core]
        for found in (sat_core, ccore):
            assert not _feasible(n, tasks, found)
            for drop in found:
                assert _feasible(n, tasks, [t for t in found if t != drop])
    assert checked >= 5


def test_deletion_core_is_minimal_with_an_oracle_that_gives_no_core():
    """The one deletion loop both back-ends use, on an oracle that answers only
    satisfiable or not (its core is the whole subset): a subset is unsatisfiable when
    it contains {2, 5} or {1, 3, 4}."""
    from solver.backends.common import deletion_core

    conflicts = [{2, 5}, {1, 3, 4}]

    def core_of(subset):
        return list(subset) if any(c <= set(subset) for c in conflicts) else None

    assert deletion_core([0, 1, 3, 6], core_of) is None
    core = deletion_core(range(7), core_of)
    assert core in ([2, 5], [1, 3, 4])
    assert all(core_of([x for x in core if x != drop]) is None for drop in core)
    # a solver's own (smaller) core is kept
    assert deletion_core(range(7), lambda s: [x for x in s if x in (2, 5)]
                         if {2, 5} <= set(s) else None) == [2, 5]


def test_cpsat_core_out_of_time_is_a_time_limit_not_a_core():
    import pytest

    from solver.errors import TimeLimitReached

    m = cp_model.CpModel()  # pigeons: 10 in 9 holes, switched on one by one
    n = 9
    switches = [m.new_bool_var(f"pigeon{p}") for p in range(n + 1)]
    holes = [[m.new_bool_var(f"p{p}h{h}") for h in range(n)] for p in range(n + 1)]
    for p in range(n + 1):
        m.add_bool_or(holes[p]).only_enforce_if(switches[p])
    for h in range(n):
        m.add_at_most_one(holes[p][h] for p in range(n + 1))
    with pytest.raises(TimeLimitReached, match="minimising the core"):
        cpsat.minimal_core(m, switches, SolverOptions(time_limit=0.001))
    assert list(m.proto.assumptions) == []  # the model is left as it was given


def test_summary_and_wilson_interval():
    from solver.stats import summarise, wilson
    s = summarise([1, 2, 3, 4, 10])
    assert (s.n, s.mean, s.median, s.min, s.max) == (5, 4.0, 3.0, 1, 10)
    assert s.quartiles == [1.5, 3.0, 7.0]
    r = wilson(8, 10)
    # textbook Wilson 95% interval for 8/10: 0.490 .. 0.943
    assert (round(r.low, 3), round(r.high, 3)) == (0.49, 0.943)
    assert wilson(0, 5).low == 0.0 and wilson(5, 5).high == 1.0


def _pigeons(b: CnfBuilder, n: int) -> None:
    """n+1 pigeons in n holes: unsatisfiable, and hard for resolution."""
    for p in range(n + 1):
        b.clause([b.var(("p", p, h)) for h in range(n)])
    for h in range(n):
        for p, q in itertools.combinations(range(n + 1), 2):
            b.clause([-b.var(("p", p, h)), -b.var(("p", q, h))])


def test_limited_sat_calls_stop_at_deadline_and_budget():
    """A call that cannot end in any test's time (12 pigeons in 11 holes) stops at its
    deadline with TimeLimitReached, and at a conflict budget. How soon after the
    deadline it stops is timed by scripts/bench_time_limits.py, not here."""
    import time

    import pytest

    from solver.backends.sat import INTERRUPTIBLE
    from solver.errors import TimeLimitReached

    b = CnfBuilder()
    _pigeons(b, 11)
    with IncrementalSat(b, name=INTERRUPTIBLE) as sat:
        start = time.perf_counter()
        with pytest.raises(TimeLimitReached, match="deadline") as stopped:
            sat.solve_limited(deadline=Deadline.after(0.3))
        assert stopped.value.exit_code == 3
        assert time.perf_counter() - start < 60  # a guard against a hang only
        with pytest.raises(TimeLimitReached, match="conflict budget"):
            sat.solve_limited(conflicts=100)
    small = CnfBuilder()
    _pigeons(small, 3)
    with IncrementalSat(small, name=INTERRUPTIBLE) as sat:
        assert sat.solve_limited(deadline=Deadline.after(5)) is None  # decided
    with IncrementalSat(small) as sat, pytest.raises(ValueError):
        sat.solve_limited(deadline=Deadline.after(5))


def test_a_builder_stops_adding_clauses_past_its_deadline():
    """A model of a million clauses takes seconds to build: with stop_at, a build past
    the deadline raises TimeLimitReached (every 4096 clauses the clock is read)."""

    from solver.backends.sat import CnfBuilder
    from solver.errors import TimeLimitReached

    late = CnfBuilder().stop_at(Deadline.after(-1))
    with pytest.raises(TimeLimitReached):
        for i in range(1, 10_000):
            late.clause([i, -(i + 1)])
    assert 4096 <= len(late.hard) <= 8192
    free = CnfBuilder().stop_at(Deadline.after(60))
    for i in range(1, 10_000):
        free.clause([i, -(i + 1)])
    free.at_most(list(range(1, 50)), 3)  # extend() is checked too, and passes in time
    assert len(free.hard) > 9_999


def test_a_solve_in_a_worker_is_killed_at_its_deadline_and_stops_at_its_budget():
    """solve_in_worker (Kissat in a process of its own): the pigeons that cannot end in
    any test's time stop at the deadline and at a conflict budget; small ones are
    decided both ways, a model satisfying every clause and the units."""
    import multiprocessing

    from solver.backends.sat import solve_in_worker
    from solver.errors import TimeLimitReached

    b = CnfBuilder()
    _pigeons(b, 11)
    before = {p.pid for p in multiprocessing.active_children()}
    with pytest.raises(TimeLimitReached, match="deadline"):
        solve_in_worker(b, [], Deadline.after(0.5))
    assert {p.pid for p in multiprocessing.active_children()} <= before  # killed, reaped
    with pytest.raises(TimeLimitReached, match="conflict budget"):
        solve_in_worker(b, [], conflicts=100)
    small = CnfBuilder()
    _pigeons(small, 3)
    assert solve_in_worker(small, [], Deadline.after(30)) is None
    fits = CnfBuilder()
    x, y = fits.var("x"), fits.var("y")
    fits.clause([x, y])
    fits.clause([-x, -y])
    model = solve_in_worker(fits, [-x])
    assert model is not None and y in model and x not in model


def test_a_cancel_stops_a_watching_solve_at_once_and_a_later_one_as_it_starts():
    from solver.backends.common import Cancel

    cancel = Cancel()
    calls: list[str] = []
    with cancel.watching(lambda: calls.append("running")):
        assert calls == []
        cancel.set()  # from the setter's thread, without waiting for the poll
        assert calls == ["running"]
    with cancel.watching(lambda: calls.append("later")):
        assert calls == ["running", "later"]
    assert cancel._stops == []  # a finished solve is not stopped again


def test_all_solutions_lists_every_solution_or_says_there_are_too_many():
    from itertools import product

    from ortools.sat.python import cp_model

    from solver.backends import cpsat

    m = cp_model.CpModel()
    x = [m.new_bool_var(f"x{i}") for i in range(4)]
    m.add(sum(x) >= 2)
    m.add_bool_or([~x[0], ~x[3]])
    want = sorted(list(v) for v in product((0, 1), repeat=4)
                  if sum(v) >= 2 and not (v[0] and v[3]))
    found, _ = cpsat.all_solutions(m, SolverOptions(time_limit=10), x, 100)
    assert sorted(found) == want and len(found) == len(set(map(tuple, found)))
    assert cpsat.all_solutions(m, SolverOptions(time_limit=10), x, len(want) - 1)[0] is None
    m.add(sum(x) >= 4)
    assert cpsat.all_solutions(m, SolverOptions(time_limit=10), x, 100)[0] == []
