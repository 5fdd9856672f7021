"""`achievable`: one play step of the model on both back-ends equals the rules engine on
random states; the answers equal a brute-force search over the engine's plays on small
horizons; SAT and CP-SAT agree; a "no" core is minimal (checked by brute force)."""

from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from models.tippi_toppi.achievable import achievable
from models.tippi_toppi.encode import plan_problem
from models.tippi_toppi.encode_logic import cpsat_value, encode_plan, tops_of
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.state import GameState, Variant, new_game
from models.tippi_toppi.tasks import PLACEHOLDER, CompareTask
from solver.backends.common import SolverOptions
from solver.backends.cpsat import make_solver
from solver.backends.sat import CnfBuilder, IncrementalSat
from solver.errors import BadInput
from solver.logic import CnfLogic, CpLogic

R = load_rules()


def random_state(seed: int, players: int = 2, plays: int = 6, rules=R, **variant
                 ) -> GameState:
    """A game some random plays in, so the tops vary."""
    s = new_game(rules, players, 1, seed, Variant(**variant))
    rng = random.Random(seed)
    for _ in range(plays):
        actions = s.legal_plays()
        if not actions or s.is_terminal():
            break
        s = s.apply_action(rng.choice(actions))
    return s


def brute(state: GameState, targets, may_hold, steps: int, cards: str) -> bool:
    """Depth-first search over the engine's legal plays: do all targets hold after some
    play within `steps` plays (or now, where allowed)?"""
    s = state
    if cards == "hand":
        s = s.but(variant=Variant(high_speed=True),
                  hands=[h if p == state.turn else [] for p, h in enumerate(s.hands)])
    if cards in ("hand", "hands"):
        s = s.but(draw_pile=[], draw_count=0)  # drawn cards are unknown: not planned with
    s = s.but(open_tasks=[PLACEHOLDER], task_pile=[], hidden_tasks=0)

    def hit(x: GameState) -> frozenset[int]:
        return frozenset(k for k, t in enumerate(targets) if t.holds(x.tops, x.rules))

    def dfs(x: GameState, done: frozenset[int], depth: int) -> bool:
        if len(done) == len(targets):
            return True
        if depth == steps:
            return False
        return any(dfs(y, done | hit(y), depth + 1)
                   for y in (x.apply_action(a) for a in x.legal_plays()))

    start = frozenset(k for k in hit(s) if may_hold[k])
    return dfs(s, start, 0)


def test_one_play_step_equals_the_engine():
    checked = {True: 0, False: 0}
    for seed in range(8):
        s = random_state(seed, players=2, plays=seed)
        problem = plan_problem(s, [], 1, "known")
        logic = CnfLogic(CnfBuilder())
        pv = encode_plan(logic, problem, R)
        cp_logic = CpLogic()
        cp = encode_plan(cp_logic, problem, R)
        m = cp_logic.m
        with IncrementalSat(logic.b) as sat:
            for i, inst in enumerate(problem.instances):
                if (1, i, 0) not in pv.x:
                    continue  # not the mover's card: no variable at all
                for p in range(4):
                    top = s.tops[p]
                    legal = inst.card[0] == top[0] or inst.card[1] == top[1]
                    model = sat.solve([pv.x[(1, i, p)]])
                    assert (model is not None) is legal
                    checked[legal] += 1
                    if legal:
                        after = s.apply_action(next(a for a in s.legal_plays()
                                             if a.card == inst.card and a.pile == p))
                        assert tops_of(model.__contains__, pv.tops[1], R) == after.tops
                    if seed < 3:  # CP-SAT: the same step on fewer states (slower)
                        m.clear_assumptions()
                        m.add_assumptions([cp.x[(1, i, p)]])
                        solver = make_solver(SolverOptions(workers=1))  # Ctrl-C stays Python's
                        code = solver.solve(m)
                        assert (code in (cp_model.OPTIMAL, cp_model.FEASIBLE)) is legal
                        if legal:
                            assert tops_of(cpsat_value(solver), cp.tops[1], R) == after.tops
    assert checked[True] > 20 and checked[False] > 20


CASES = [  # seed, players, cards, steps, variant
    (1, 1, "known", 3, {}), (2, 2, "known", 3, {}), (3, 3, "known", 2, {}),
    (4, 2, "hands", 3, {}), (5, 2, "hand", 3, {}), (6, 2, "known", 3, {"high_speed": True}),
    (7, 4, "hands", 2, {"high_speed": True}), (8, 1, "hand", 3, {}),
    (9, 2, "known", 2, {}), (10, 3, "known", 3, {}),
]


@pytest.mark.parametrize("seed, players, cards, steps, variant", CASES)
def test_achievable_equals_brute_force_and_both_backends(seed, players, cards, steps, variant):
    s = random_state(seed, players, plays=3, **variant)
    rng = random.Random(seed)
    # the open tasks, then single catalogue tasks and pairs given as --task
    pool = [t.task for t in R.catalogue]
    queries = [None] + [rng.sample(pool, k) for k in (1, 1, 2, 2)]
    for tasks in queries:
        targets = tasks if tasks else s.open_tasks
        may = [bool(tasks)] * len(targets)
        expected = brute(s, targets, may, steps, cards)
        got = achievable(s, tasks, steps, cards, "sat")
        assert (got.answer == "yes") is expected, [t.text(R) for t in targets]
        if tasks is not None or seed % 3 == 0:
            got_cp = achievable(s, tasks, steps, cards, "cpsat")
            assert got_cp.answer == got.answer
        if got.answer == "no":
            core = [t for t in targets if t.text(R) in got.core]
            assert core and not brute(s, core, [bool(tasks)] * len(core), steps, cards)
            for k in range(len(core)):
                smaller = core[:k] + core[k + 1:]
                assert brute(s, smaller, [bool(tasks)] * len(smaller), steps, cards)


def test_comparison_tasks_equal_brute_force_under_either_reading():
    """Every comparison task of the catalogue as the one target, within 2 plays, under
    the rulebook's reading and under "present": SAT equals the engine's brute force
    (CP-SAT too, for every other task on the first state), and the two readings do
    answer differently."""
    answers = {}
    for reading in ("as-worded", "present"):
        rules = load_rules(comparisons=reading)
        comparisons = [t.task for t in rules.catalogue if isinstance(t.task, CompareTask)]
        for seed in (2, 5):
            s = random_state(seed, 2, plays=3, rules=rules)
            for k, task in enumerate(comparisons):
                expected = brute(s, [task], [True], 2, "known")
                got = achievable(s, [task], 2, "known", "sat")
                assert (got.answer == "yes") is expected, (reading, seed, task.text(rules))
                if seed == 2 and k % 2 == 0:
                    assert achievable(s, [task], 2, "known", "cpsat").answer == got.answer
                answers[reading, seed, task.text(rules)] = got.answer
    differ = [k[1:] for k in answers if k[0] == "as-worded"
              and answers[k] != answers[("present", *k[1:])]]
    assert differ, "no state where the reading changes the answer"


def test_both_answers_occur_in_the_cases():
    seen = set()
    for case in CASES[:6]:
        s = random_state(case[0], case[1], plays=3, **case[4])
        seen.add(achievable(s, None, case[3], case[2], "sat").answer)
        seen.add(achievable(s, [R.parse_task("a run of 3")], case[3], case[2], "sat").answer)
    assert seen == {"yes", "no"}


def test_k6_all_open_tasks_from_a_known_deck_agree_across_backends():
    for seed in range(3):
        s = random_state(100 + seed, 2, plays=2)
        a = achievable(s, None, 6, "known", "sat")
        b = achievable(s, None, 6, "known", "cpsat")
        assert a.answer == b.answer
        if a.answer == "yes":
            assert len(a.plays) <= 6 and all(k is not None for k in a.fulfilled_after)


def test_known_cards_need_a_known_draw_pile():
    s = random_state(3).but(draw_pile=None)
    with pytest.raises(BadInput, match="draw pile is not known"):
        achievable(s, None, 3, "known")
    with pytest.raises(BadInput, match="nothing to fulfil"):
        s = s.but(open_tasks=[])
        achievable(s, None, 3, "hands")


def test_a_smaller_rules_file_with_its_own_tasks(tmp_path):
    """--rules replaces the deck, the table and the catalogue: 3 piles, numbers 1-5."""
    import json as _json

    from models.tippi_toppi.rules import default_rules_path
    from models.tippi_toppi.rules import load_rules as _load
    data = _json.loads(default_rules_path().read_text(encoding="utf-8"))
    data.update({"numbers": [1, 2, 3, 4, 5], "piles": 3, "adjacent": [[0, 1], [1, 2]],
                 "task_counts": {"1": [5, 5, 5, 5, 5], "2": [6, 6, 6, 6, 6]},
                 "tasks": [{"id": f"S{i}", "text": t, "level": 1} for i, t in enumerate(
                     ["exactly 2 green piles", "a run of 3", "all piles are odd",
                      "the sum of all piles is at least 12", "no colour is repeated",
                      "two pink piles next to each other", "the piles rise from left to right"])]})
    path = tmp_path / "small.json"
    path.write_text(_json.dumps(data))
    rules = _load(str(path))
    assert len(rules.deck) == 40 and rules.piles == 3
    with pytest.raises(BadInput, match="unknown card"):
        rules.parse_card("G7")
    for seed in range(4):
        s = new_game(rules, 2, 0, seed)
        assert len(s.piles) == 3
        targets = s.open_tasks
        expected = brute(s, targets, [False] * len(targets), 3, "known")
        got = achievable(s, None, 3, "known", "sat")
        assert (got.answer == "yes") is expected
        assert achievable(s, None, 3, "known", "cpsat").answer == got.answer
