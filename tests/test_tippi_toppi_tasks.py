"""The Tippi Toppi task language: the rulebook's readings, text round trips, the
catalogue, and the task encoding (model.py) on both back-ends held equal to the engine's
evaluation."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from models.tippi_toppi.encode_logic import fix_tops, new_tops, task_lit, tops_of
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.tasks import (
    AdjacentTask,
    AllTask,
    CompareTask,
    CountTask,
    DistinctTask,
    Filter,
    RunTask,
    SameAdjacentTask,
    SumTask,
)
from solver.backends.common import SolverOptions
from solver.backends.cpsat import make_solver
from solver.backends.sat import CnfBuilder, IncrementalSat
from solver.counting import Count
from solver.errors import BadInput
from solver.logic import CnfLogic, CpLogic

R = load_rules()
PRESENT = load_rules(comparisons="present")
READINGS = {"as-worded": R, "present": PRESENT}
GREEN, PINK, ORANGE, PURPLE = range(4)


def tops(*cards: str):
    return tuple(R.parse_card(c) for c in cards)


def holds(text: str, *cards: str, rules=R) -> bool:
    return rules.parse_task(text).holds(tops(*cards), rules)


def encoded(rules, texts: list[str], tp) -> list[tuple[bool, bool]]:
    """Per task: (SAT, CP-SAT) says the task's literal can be true on these tops."""
    tasks = [rules.parse_task(t) for t in texts]
    logic = CnfLogic(CnfBuilder())
    tv = new_tops(logic, rules)
    fix_tops(logic, tv, tp)
    lits = [task_lit(logic, t, tv, rules) for t in tasks]
    with IncrementalSat(logic.b) as sat:
        by_sat = [sat.solve([h]) is not None for h in lits]
    cp = CpLogic()
    cv = new_tops(cp, rules)
    fix_tops(cp, cv, tp)
    cp_lits = [task_lit(cp, t, cv, rules) for t in tasks]
    cp.m.maximize(sum(cp_lits))  # each literal is free to be true exactly when its task holds
    solver = make_solver(SolverOptions(workers=1))
    assert solver.solve(cp.m) == cp_model.OPTIMAL
    return list(zip(by_sat, (bool(solver.value(h)) for h in cp_lits), strict=True))


def judged(texts: list[str], *cards: str, rules=R) -> list[bool]:
    """Each task judged by the rules engine, checked equal to both encodings."""
    tp = tops(*cards)
    got = [rules.parse_task(t).holds(tp, rules) for t in texts]
    assert encoded(rules, texts, tp) == [(g, g) for g in got], (texts, cards)
    return got


def test_drei_gruene_stapel_means_exactly_three():
    t = R.parse_task("Drei grüne Stapel")
    assert t == CountTask(Filter(frozenset({GREEN})), Count("exactly", 3))
    assert t.text(R) == "exactly 3 green piles"
    assert judged(["Drei grüne Stapel"], "G1", "G2", "G3", "P4") == [True]
    # "vier grüne Stapel erfüllen die Aufgabe nicht"
    assert judged(["Drei grüne Stapel"], "G1", "G2", "G3", "G4") == [False]
    assert judged(["Drei grüne Stapel"], "G1", "G2", "O3", "P4") == [False]


def test_sum_of_green_piles_holds_with_a_single_green_seven():
    t = R.parse_task("Die Summe aller grünen Stapel ist 7")
    assert t == SumTask(Filter(frozenset({GREEN})), Count("exactly", 7))
    # "auch erfüllt, wenn nur ein einziger grüner Stapel mit einer 7 ausliegt"
    for rules in READINGS.values():
        assert judged(["Die Summe aller grünen Stapel ist 7"], "G7", "P1", "O2", "V3",
                      rules=rules) == [True]
        # only the tops count: a green 7 under another card is not summed
        assert judged(["Die Summe aller grünen Stapel ist 7"], "G3", "P7", "O2", "V3",
                      rules=rules) == [False]
    assert holds("the sum of the green piles is 7", "G3", "P1", "G4", "V3")
    assert not holds("the sum of the green piles is 7", "G3", "P7", "G5", "V3")
    assert not holds("the sum of the green piles is 7", "P7", "P1", "O2", "V3")
    # the sum of all piles always exists
    assert holds("the sum of all piles is 10", "P1", "P2", "O3", "V4")


def test_two_colours_for_all_piles_is_met_by_one_of_them():
    t = R.parse_task("Alle Stapel sind pink oder grün")
    assert t == R.parse_task("all piles are pink or green") == AllTask(Filter(frozenset({GREEN, PINK})))
    texts = ["Alle Stapel sind pink oder grün"]
    assert judged(texts, "P1", "P2", "P3", "P4") == [True]  # only pink
    assert judged(texts, "G1", "G5", "G3", "G4") == [True]  # only green
    assert judged(texts, "P1", "G2", "P3", "G4") == [True]
    assert judged(texts, "P1", "G2", "O3", "G4") == [False]


@pytest.mark.parametrize("text, cards, as_worded, present", [
    # 2 pink piles and no orange pile are more pink piles than orange piles, as worded
    ("more pink piles than orange piles", ("P6", "P7", "G1", "V1"), True, False),
    ("more pink piles than orange piles", ("P6", "P7", "O1", "V1"), True, True),
    ("more pink piles than orange piles", ("O6", "G7", "G1", "V1"), False, False),
    ("as many green piles as purple piles", ("P6", "O3", "P7", "O1"), True, False),  # 0 = 0
    ("as many green piles as purple piles", ("G6", "O3", "P7", "O1"), False, False),
    ("twice as many orange piles as pink piles", ("G1", "G2", "V3", "V4"), True, False),
    ("twice as many orange piles as pink piles", ("O1", "O2", "V3", "V4"), False, False),
    ("the sum of the green piles equals the sum of the pink piles", ("O1", "O2", "V3", "V4"),
     True, False),
    ("the sum of the green piles is double the sum of the orange piles",
     ("P1", "P2", "V3", "V4"), True, False),
    ("the sum of the orange piles is greater than the sum of the green piles",
     ("O1", "P2", "V3", "V4"), True, False),
    ("the sum of the green piles is at most 5", ("P1", "P2", "V3", "V4"), True, False),
    ("the sum of the green piles is 7", ("P7", "P2", "V3", "V4"), False, False),
    ("the sum of all piles is at most 10", ("P1", "P2", "V3", "V4"), True, True),
])
def test_comparisons_read_as_worded_unless_the_switch_asks_for_present_groups(
        text, cards, as_worded, present):
    """The rulebook: a task holds exactly as worded, so an absent group counts 0 piles
    and sum 0; the "present" reading (the switch) asks each group named to lie. The
    engine and both encodings agree under each reading."""
    assert judged([text], *cards) == [as_worded]
    assert judged([text], *cards, rules=PRESENT) == [present]


def test_the_reading_comes_from_the_rules_data_or_the_option(tmp_path):
    from models.tippi_toppi.rules import default_rules_path
    assert R.comparisons == "as-worded" and PRESENT.comparisons == "present"
    data = json.loads(default_rules_path().read_text(encoding="utf-8"))
    path = tmp_path / "present.json"
    path.write_text(json.dumps({**data, "comparisons": "present"}))
    assert load_rules(str(path)).comparisons == "present"
    assert load_rules(str(path), "as-worded").comparisons == "as-worded"
    path.write_text(json.dumps({**data, "comparisons": "sometimes"}))
    with pytest.raises(BadInput, match="comparisons: unknown reading of comparisons "
                                       "'sometimes' \\(as-worded or present\\)"):
        load_rules(str(path))


@pytest.mark.parametrize("text, cards, expected", [
    ("at least 2 pink piles", ("P1", "P2", "P3", "O4"), True),
    ("mindestens zwei lila Stapel", ("V1", "P2", "P3", "O4"), False),
    ("no orange piles", ("P1", "P2", "P3", "V4"), True),
    ("exactly 2 piles showing 7", ("P7", "G7", "O7", "V4"), False),
    ("at least 3 piles that are above 4", ("P5", "G6", "O7", "V4"), True),
    ("exactly 2 green piles that are even", ("G2", "G4", "G3", "P4"), True),
    ("all piles are even", ("P2", "G4", "O6", "V2"), True),
    ("all piles are below 5", ("P2", "G4", "O6", "V2"), False),
    ("the sum of all piles is at least 22", ("P7", "G7", "O7", "V1"), True),
    ("the sum of the piles that are odd is 9", ("P7", "G2", "O1", "V1"), True),
    ("the sum of the green piles equals the sum of the pink piles", ("G3", "G4", "P7", "O1"), True),
    ("the sum of the green piles equals the sum of the pink piles", ("G3", "V4", "O7", "O1"), False),
    ("the sum of the green piles is double the sum of the orange piles", ("G6", "O3", "P7", "V1"), True),
    ("the sum of the orange piles is greater than the sum of the green piles", ("G6", "O7", "P7", "V1"), True),
    ("as many green piles as purple piles", ("G6", "V3", "P7", "O1"), True),
    ("as many green piles as purple piles", ("P6", "O3", "P7", "O1"), True),  # 0 = 0
    ("more pink piles than orange piles", ("P6", "O3", "P7", "G1"), True),
    ("twice as many orange piles as pink piles", ("O6", "O3", "P7", "G1"), True),
    ("two green piles next to each other", ("P6", "G3", "G7", "O1"), True),
    ("two green piles next to each other", ("G6", "P3", "G7", "O1"), False),
    ("two adjacent green piles", ("P6", "G3", "G7", "O1"), True),
    ("two green piles not next to each other", ("G6", "P3", "G7", "O1"), True),
    ("a pink pile next to an orange pile", ("O6", "G3", "P7", "O1"), True),
    ("no pink pile next to a green pile", ("P6", "O3", "G7", "O1"), True),
    ("no pink pile next to a green pile", ("P6", "G3", "O7", "O1"), False),
    ("a pile showing 7 next to a pile showing 1", ("P7", "G1", "O5", "O1"), True),
    ("a purple pile and a pink pile not next to each other", ("V7", "G1", "P5", "O1"), True),
    ("a purple pile and a pink pile not next to each other", ("V7", "P1", "G5", "O1"), False),
    ("two adjacent piles of the same number", ("V7", "P1", "G1", "O3"), True),
    ("no two adjacent piles of the same colour", ("V7", "P1", "V1", "P3"), True),
    ("no colour is repeated", ("V7", "P1", "G1", "O3"), True),
    ("no number is repeated", ("V7", "P1", "G1", "O3"), False),
    ("all piles have the same colour", ("V7", "V1", "V2", "V3"), True),
    ("a run of 3", ("V7", "P5", "G6", "O1"), True),
    ("a run of 4", ("V7", "P5", "G6", "O1"), False),
    ("a run of 4", ("V4", "P2", "G3", "O1"), True),
    ("the piles rise from left to right", ("V1", "P2", "G5", "O7"), True),
    ("the piles rise from left to right", ("V1", "P2", "G2", "O7"), False),
])
def test_task_readings(text, cards, expected):
    assert holds(text, *cards) is expected


@pytest.mark.parametrize("text", ["exactly 3 blue piles", "the sum of the green piles",
                                  "a run of 9", "at least 2 piles showing 8", "",
                                  "exactly 5 green piles", "green piles next",
                                  "the sum of the green piles is double"])
def test_unreadable_tasks_are_clear_errors(text):
    with pytest.raises(BadInput, match="cannot read task|run needs|no card number|only 4|compare the sum"):
        R.parse_task(text)


def test_catalogue_has_at_least_50_tasks_marked_as_modelled():
    doc = json.loads((resources.files("models.tippi_toppi") / "data" / "tasks.json")
                     .read_text(encoding="utf-8"))
    assert "not published" in doc["source"]
    assert len(R.catalogue) >= 50
    assert len({t.task for t in R.catalogue}) == len(R.catalogue)  # no duplicates
    assert {t.level for t in R.catalogue} == {1, 2, 3}
    kinds = {type(t.task) for t in R.catalogue}
    assert kinds == {CountTask, AllTask, SumTask, CompareTask, AdjacentTask,
                     SameAdjacentTask, DistinctTask, RunTask}
    for t in R.catalogue:  # canonical text reads back to the same task
        assert R.parse_task(t.task.text(R)) == t.task


def _random_tops(rng: random.Random):
    return tuple(rng.sample(R.deck, 4))


# the default reading on as many tops as before, the other on fewer
@pytest.mark.parametrize("reading, deals", [("as-worded", 12), ("present", 3)])
def test_sat_task_encoding_equals_engine_on_random_tops(reading, deals):
    rules = READINGS[reading]
    rng = random.Random(11)
    tasks = [t.task for t in rules.catalogue]
    seen = {True: 0, False: 0}
    for _ in range(deals):
        tp = _random_tops(rng)
        logic = CnfLogic(CnfBuilder())
        tv = new_tops(logic, rules)
        fix_tops(logic, tv, tp)
        lits = [task_lit(logic, t, tv, rules) for t in tasks]
        with IncrementalSat(logic.b) as sat:
            for t, h in zip(tasks, lits, strict=True):
                expected = t.holds(tp, rules)
                assert (sat.solve([h]) is not None) is expected, (t.text(rules), tp)
                seen[expected] += 1
    assert seen[True] > 2.5 * deals and seen[False] > 2.5 * deals


@pytest.mark.parametrize("reading, deals", [("as-worded", 6), ("present", 2)])
def test_cpsat_task_encoding_equals_engine_on_random_tops(reading, deals):
    rules = READINGS[reading]
    rng = random.Random(12)
    tasks = [t.task for t in rules.catalogue]
    for _ in range(deals):
        tp = _random_tops(rng)
        logic = CpLogic()
        tv = new_tops(logic, rules)
        fix_tops(logic, tv, tp)
        lits = [task_lit(logic, t, tv, rules) for t in tasks]
        logic.m.maximize(sum(lits))  # each literal is free to be true exactly when its task holds
        solver = make_solver(SolverOptions(workers=1))  # Ctrl-C stays Python's
        assert solver.solve(logic.m) == cp_model.OPTIMAL
        for t, h in zip(tasks, lits, strict=True):
            assert bool(solver.value(h)) is t.holds(tp, rules), (t.text(rules), tp)


@pytest.mark.parametrize("reading", ["as-worded", "present"])
def test_every_catalogue_task_can_hold(reading):
    rules = READINGS[reading]
    logic = CnfLogic(CnfBuilder())
    tv = new_tops(logic, rules)
    lits = [task_lit(logic, t.task, tv, rules) for t in rules.catalogue]
    with IncrementalSat(logic.b) as sat:
        for t, h in zip(rules.catalogue, lits, strict=True):
            model = sat.solve([h])
            assert model is not None, t.task.text(rules)
            assert t.task.holds(tops_of(model.__contains__, tv, rules), rules)


# --------------------------------------------------------------------------- generated tasks

_colours = st.one_of(st.none(), st.frozensets(st.integers(0, 3), min_size=1, max_size=3))
_numbers = st.one_of(st.none(), st.frozensets(st.integers(1, 7), min_size=1, max_size=6))
_filters = st.builds(Filter, _colours, _numbers)
_counts = st.builds(Count, st.sampled_from(["exactly", "at least", "at most"]),
                    st.integers(0, 4))
_sums = st.builds(Count, st.sampled_from(["exactly", "at least", "at most"]),
                  st.integers(1, 28))
_tasks = st.one_of(
    st.builds(CountTask, _filters, _counts),
    st.builds(AllTask, _filters),
    st.builds(SumTask, _filters, _sums),
    st.builds(CompareTask, st.sampled_from(["sum", "count"]),
              st.sampled_from(["equal", "double", "greater"]), _filters, _filters),
    st.builds(AdjacentTask, _filters, _filters, st.sampled_from(["next", "apart", "none"])),
    st.builds(SameAdjacentTask, st.integers(0, 1), st.booleans()),
    st.builds(DistinctTask, st.integers(0, 1), st.booleans()),
    st.builds(RunTask, st.sampled_from([0, 2, 3, 4])),
)


@settings(max_examples=300, deadline=None)
@given(_tasks, st.lists(st.sampled_from(R.deck), min_size=4, max_size=4),
       st.sampled_from(sorted(READINGS)))
def test_generated_tasks_read_back_and_evaluate_alike(task, cards, reading):
    """Every task's canonical text reads back to a task that holds on the same tops
    (texts may normalise, e.g. 'at most 0' is 'no'), under either reading."""
    rules = READINGS[reading]
    again = rules.parse_task(task.text(rules))
    assert again.text(rules) == task.text(rules)
    tp = tuple(cards)
    assert again.holds(tp, rules) is task.holds(tp, rules)


@settings(max_examples=40, deadline=None)
@given(st.lists(_tasks, min_size=3, max_size=3),
       st.lists(st.sampled_from(R.deck), min_size=4, max_size=4),
       st.sampled_from(sorted(READINGS)))
def test_generated_tasks_sat_encoding_equals_engine(tasks, cards, reading):
    rules = READINGS[reading]
    tp = tuple(cards)
    logic = CnfLogic(CnfBuilder())
    tv = new_tops(logic, rules)
    fix_tops(logic, tv, tp)
    lits = [task_lit(logic, t, tv, rules) for t in tasks]
    with IncrementalSat(logic.b) as sat:
        for t, h in zip(tasks, lits, strict=True):
            assert (sat.solve([h]) is not None) is t.holds(tp, rules), t.text(rules)


@settings(max_examples=15, deadline=None)
@given(st.lists(_tasks, min_size=4, max_size=4),
       st.lists(st.sampled_from(R.deck), min_size=4, max_size=4),
       st.sampled_from(sorted(READINGS)))
def test_generated_tasks_cpsat_encoding_equals_engine(tasks, cards, reading):
    rules = READINGS[reading]
    tp = tuple(cards)
    logic = CpLogic()
    tv = new_tops(logic, rules)
    fix_tops(logic, tv, tp)
    lits = [task_lit(logic, t, tv, rules) for t in tasks]
    logic.m.maximize(sum(lits))
    solver = make_solver(SolverOptions(workers=1))  # Ctrl-C stays Python's
    assert solver.solve(logic.m) == cp_model.OPTIMAL
    for t, h in zip(tasks, lits, strict=True):
        assert bool(solver.value(h)) is t.holds(tp, rules), t.text(rules)
