"""Topito plans by A* and `--backend auto`: the lower bound never exceeds
the true distance (BFS), A*/auto/SAT-from-the-bound lengths equal BFS, every plan
replays in the rules engine and meets the goal, and the CLI answers keep their form."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from models.topito.astar import PlanBound, astar_plan
from models.topito.bfs import bfs_plan
from models.topito.encode_sat import arrangement_exists, sat_plan
from models.topito.plan import plan, shortest
from models.topito.puzzle_search import random_state
from models.topito.rules import Card, Goal, load_deck, load_rules, parse_card
from models.topito.state import State
from models.topito.verbs import PLAN_BACKENDS
from solver.deadline import NO_DEADLINE
from tests.cli_helpers import game_runner
from tests.cli_helpers import run_json as shared_run_json
from tests.test_topito_plan import SMALL, random_card, replay_meets

R = load_rules()
DECK = load_deck(R)


def random_goal(rules, rng: random.Random) -> Goal:
    cards = tuple(random_card(rules, rng) for _ in range(rng.choice((1, 1, 2, 3))))
    return Goal(cards, rng.choice(("any", "all")))


def small_case(seed: int) -> tuple[State, Goal]:
    rng = random.Random(seed)
    st = random_state(SMALL, rng)
    if rng.random() < 0.2:  # also without the no-reversal rule
        st = State(SMALL, st.stacks, st.last, False)
    return st, random_goal(SMALL, rng)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(0, 10 ** 9))
def test_bound_never_exceeds_the_bfs_distance(seed):
    """At the start and at every position along a shortest plan: bound <= moves left."""
    st, goal = small_case(seed)
    out = bfs_plan(st, goal, 5)
    bound = PlanBound(goal, SMALL.n_blocks)
    if out.length is None:
        return
    state = st
    for i, m in enumerate([*out.moves, None]):
        assert bound.value(state.stacks) <= out.length - i, (st, goal, i)
        if m is not None:
            state = state.apply_action(m)
    assert bound.value(state.stacks) == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(0, 10 ** 9))
def test_astar_and_auto_lengths_equal_bfs(seed):
    st, goal = small_case(seed)
    ref = bfs_plan(st, goal, 5)
    for backend in ("astar", "auto"):
        got = shortest(st, goal, backend, 5, NO_DEADLINE)
        assert (got.status, got.length) == (ref.status, ref.length), (backend, st, goal)
        if got.length is not None:
            assert len(got.moves) == got.length and replay_meets(st, got.moves, goal)
        assert got.proof


def test_sat_from_the_bound_equals_bfs_and_plain_sat():
    """SAT starting at the bound with the must-move assumptions: same lengths as plain
    SAT (from horizon 0) and BFS, plans replay."""
    rng = random.Random(11)
    seen = set()
    for _ in range(25):
        st = random_state(SMALL, rng)
        goal = random_goal(SMALL, rng)
        bound = PlanBound(goal, SMALL.n_blocks)
        low = bound.value(st.stacks)
        status, length, moves, _ = sat_plan(st, goal, 4, lower=low,
                                            must_move=bound.required(st.stacks))
        assert (status, length) == sat_plan(st, goal, 4)[:2] == (
            lambda o: (o.status, o.length))(bfs_plan(st, goal, 4)), (st, goal)
        if length is not None:
            assert replay_meets(st, moves, goal)
        seen.add(length)
    assert len(seen) >= 4


def test_astar_equals_bfs_with_the_full_rules():
    """Nine characters, deck cards, goals of 1-3 cards (any/all), plans up to 4."""
    rng = random.Random(5)
    lengths = set()
    for _ in range(10):
        st = random_state(R, rng, rng.randint(0, R.n_blocks))
        goal = Goal(tuple(rng.sample(DECK, rng.randint(1, 3))), rng.choice(("any", "all")))
        ref = bfs_plan(st, goal, 4)
        out = astar_plan(st, goal, 4)
        assert (out.status, out.length) == (ref.status, ref.length), (st, goal)
        if out.length is not None:
            assert replay_meets(st, out.moves, goal)
        lengths.add(ref.length)
    assert len(lengths) >= 3


def reversal(k: int) -> tuple[State, Goal]:
    """The benchmark's hard family: a stack of k blocks must end reversed."""
    blocks = tuple(range(k))
    rev = blocks[::-1]
    cards = tuple(Card("order", rev[i:i + 3]) for i in range(0, k - 2, 2))
    if (k - 3) % 2:
        cards += (Card("order", rev[-3:]),)
    return State(R, (blocks, (), ())), Goal(cards, "all")


def test_stack_reversal_astar_equals_bfs_and_is_k_moves():
    for k in range(3, 5):
        st, goal = reversal(k)
        ref = bfs_plan(st, goal, k)
        out = astar_plan(st, goal, 12)
        assert out.length == ref.length == k
        assert replay_meets(st, out.moves, goal)
    st, goal = reversal(9)
    out = astar_plan(st, goal, 12)
    assert out.length == 9 and replay_meets(st, out.moves, goal)
    assert PlanBound(goal, R.n_blocks).value(st.stacks) == 9  # every block moves once


def test_goal_no_arrangement_meets_is_infeasible():
    st = State(R, ((0, 1), (2,), ()))
    goal = Goal((parse_card(R, "Cat on Bear"), parse_card(R, "rank 1: Cat")), "all")
    assert not arrangement_exists(st, goal)
    for backend in ("auto", "astar"):
        res = plan(st, goal, backend, 6)
        assert res.status == "infeasible" and res.moves is None
        assert "no arrangement" in res.proof
    assert bfs_plan(st, goal, 4).status == "infeasible"
    ok = Goal((parse_card(R, "Cat on Bear"), parse_card(R, "rank 2: Cat")), "all")
    assert arrangement_exists(st, ok)
    # only a ring of blocks resting on one another would meet these: no stacks do
    ring = Goal((parse_card(R, "Mouse on Elephant"), parse_card(R, "order Mouse < Owl < Elephant")),
                "all")
    assert not arrangement_exists(st, ring)
    assert arrangement_exists(st, Goal((ring.cards[0], parse_card(
        R, "order Owl < Elephant < Mouse")), "all"))


def test_arrangement_exists_whenever_a_plan_does():
    rng = random.Random(9)
    told = 0
    for _ in range(60):
        st = random_state(SMALL, rng)
        goal = Goal(tuple(random_card(SMALL, rng) for _ in range(rng.randint(2, 3))), "all")
        exists = arrangement_exists(st, goal)
        if bfs_plan(st, goal, 3).length is not None:
            assert exists, (st, goal)
        told += not exists
    assert told  # some goals are impossible at once, and told so


def test_bound_over_max_moves_is_a_proof():
    st, goal = reversal(7)
    res = plan(st, goal, "auto", 5)
    assert res.status == "infeasible" and "lower bound: at least 7 moves" in res.proof
    assert bfs_plan(*reversal(4), 3).status == "infeasible"  # same kind of answer


def test_every_backend_agrees_on_deck_goals():
    rng = random.Random(2)
    for _ in range(4):
        st = random_state(R, rng)
        goal = Goal(tuple(rng.sample(DECK, 2)), "all")
        answers = {b: plan(st, goal, b, 3).moves for b in PLAN_BACKENDS}
        assert len(set(answers.values())) == 1, answers


# --------------------------------------------------------------------------- the CLI

MID = "puzzles/topito/midgame.json"


def test_cli_plan_default_is_auto_and_keeps_its_form():
    run = game_runner("topito")
    args = ("plan", MID, "--card", "order Whale < Mouse < Pig", "--card", "Duck on Owl",
            "--all")
    answers = {b: shared_run_json(run, *args, "--backend", b) for b in PLAN_BACKENDS}
    keys = {tuple(sorted(a)) for a in answers.values()}
    assert len(keys) == 1  # the same fields whichever back-end answered
    default = shared_run_json(run, *args)
    assert {**default, "seconds": 0} == {**answers["auto"], "seconds": 0}
    for b, a in answers.items():
        assert a["status"] == "optimal" and a["moves"] == 4, b
        assert sorted(a["met_at_end"]) == sorted(a["cards"])
        assert a["backend"] == b and a["proved_by"] in ("astar", "sat", "bfs")
        assert b == "auto" or a["proved_by"] == b
    assert answers["auto"]["proved_by"] == "astar"
    text = run(*args)
    assert text.exit_code == 0 and "4 moves" in text.output and "proven minimal" in text.output
    assert "auto: proved by astar" in " ".join(text.output.split())
    no = shared_run_json(run, "reachable", MID, "--card", "rank 5: Cat", "--within", "1")
    assert not no["reachable"] and no["status"] == "proven"
    bad = run("plan", MID, "--card", "Duck on Owl", "--backend", "dfs")
    assert bad.exit_code == 2


def test_auto_in_tiny_turns_equals_bfs(monkeypatch):
    """A* and SAT in the tiniest turns (a position, a conflict: SAT's horizon skipping
    what A* ruled out, a SAT call stopped and asked again): same lengths as BFS, plans
    replay."""
    import models.topito.plan as plan_module

    monkeypatch.setattr(plan_module, "AUTO_FIRST_NODES", 1)
    monkeypatch.setattr(plan_module, "AUTO_SLICE_NODES", 1)
    monkeypatch.setattr(plan_module, "AUTO_SAT_CONFLICTS", 1)
    rng = random.Random(8)
    backends = set()
    for _ in range(12):
        st = random_state(R, rng, rng.randint(3, R.n_blocks))
        goal = Goal(tuple(rng.sample(DECK, rng.randint(1, 3))), "all")
        ref = bfs_plan(st, goal, 3)
        got = shortest(st, goal, "auto", 3, NO_DEADLINE)
        assert (got.status, got.length) == (ref.status, ref.length), (st, goal)
        if got.length is not None:
            assert replay_meets(st, got.moves, goal)
        backends.add(got.proved_by)
        assert got.proof
    assert backends <= {"astar", "sat"}


def test_sat_in_slices_with_skips_equals_bfs():
    """SatSearch asked again after running out of its turn of a few conflicts, its
    horizon moved on by skip_to (as auto does with what A* ruled out): the lengths of
    BFS."""
    from models.topito.encode_sat import SatSearch

    rng = random.Random(4)
    for _ in range(10):
        st = random_state(SMALL, rng)
        goal = random_goal(SMALL, rng)
        ref = bfs_plan(st, goal, 4)
        sat = SatSearch(st, goal, 4)
        res = None
        for turn in range(1000):
            if turn == 1 and ref.length:
                sat.skip_to(ref.length - 1)  # what a faster A* would have ruled out
            res = sat.run(NO_DEADLINE, None, 3)
            if res is not None:
                break
        assert res is not None and res[:2] == (ref.status, ref.length), (st, goal)
        if ref.length:
            assert replay_meets(st, res[2], goal)
