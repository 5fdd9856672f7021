"""`reachable`: the exact answer held equal to a search of the game on endgames and to
`achievable` when no task pile is left; sampling over hidden cards."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from models.tippi_toppi.achievable import achievable
from models.tippi_toppi.positions import load_state
from models.tippi_toppi.reachable import reachable, search_winning_line
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.state import new_game
from solver.deadline import Deadline
from tests.cli_helpers import game_runner

R = load_rules()
PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "tippi-toppi"
run = game_runner("tippi-toppi")


def endgame(seed: int, cards_left: int, pile: int, rules=R):
    """A game played randomly until `cards_left` cards remain in hands and draw pile;
    then two easy open tasks and up to `pile` tasks to turn up (all known)."""
    s = new_game(rules, 2, 0, seed)
    rng = random.Random(seed)
    while (s.draw_count + sum(len(h) for h in s.hands) > cards_left) and not s.is_terminal():
        s = s.apply_action(rng.choice(s.legal_plays()))
    easy = [t.task for t in R.catalogue if t.level == 1 and not s.holds(t.task)]
    open_tasks = rng.sample(easy, 2)
    rest = [t.task for t in R.catalogue if t.level == 1 and t.task not in open_tasks]
    return s.but(open_tasks=open_tasks, task_pile=rng.sample(rest, rng.randrange(pile + 1)),
                 fulfilled=[])


# every endgame under the rulebook's reading; under "present" the endgames whose tasks
# include comparisons, and both answers
@pytest.mark.parametrize("reading, seeds", [("as-worded", range(16)),
                                            ("present", (6, 7, 10, 13, 14))])
def test_exact_reachable_equals_a_search_of_the_game(reading, seeds):
    rules = load_rules(comparisons=reading)
    answers = set()
    for seed in seeds:
        s = endgame(seed, 5, 2, rules)
        if s.is_terminal():
            continue
        r = reachable(s, time_limit=30)
        line, _, complete = search_winning_line(s, Deadline.after(30))
        assert complete and r.method == "exact" and r.proven
        assert (r.answer == "yes") is (line is not None), seed
        answers.add(r.answer)
    assert answers == {"yes", "no"}


def test_exact_reachable_without_task_pile_equals_achievable():
    for seed in range(4):
        s = endgame(seed, 9, 0)
        if s.is_terminal():
            continue
        plays_left = sum(len(h) for h in s.hands) + s.draw_count
        r = reachable(s, time_limit=30)
        a = achievable(s, None, plays_left, "known", "sat")
        assert r.proven and r.answer == a.answer


def test_reachable_on_the_solo_endgame_equals_a_search():
    s = load_state(R, PUZZLES / "solo-endgame.json")
    r = reachable(s, time_limit=30)
    line, _, complete = search_winning_line(s, Deadline.after(30))
    assert complete and r.proven and (r.answer == "yes") is (line is not None)
    out = run("reachable", str(PUZZLES / "solo-endgame.json"), "--open-hands").output
    assert ("No" if r.answer == "no" else "Yes") in out and "All-seeing" in out
    # the player alone does not know the order of the draw pile: sampled
    out = run("reachable", str(PUZZLES / "solo-endgame.json"), "--samples", "3").output
    assert "sampled deals" in out and "All-seeing" not in out


def test_reachable_samples_hidden_cards():
    s = new_game(R, 2, 0, 4)
    s = s.but(hands=[s.hands[0], [None] * 4], draw_pile=None)
    r = reachable(s, samples=20, seed=1)
    assert r.method == "sampling" and not r.proven and r.rate.trials == 20
    assert r.rate.low <= r.rate.rate <= r.rate.high and not r.stopped


def test_sampling_keeps_the_time_limit_and_answers_over_the_deals_played():
    s = new_game(R, 2, 0, 4)
    s = s.but(hands=[s.hands[0], [None] * 4], draw_pile=None)
    start = time.perf_counter()
    r = reachable(s, samples=100_000, seed=1, time_limit=0.5)
    assert time.perf_counter() - start < 1.5
    assert r.stopped and 1 <= r.samples < 100_000 and r.rate.trials == r.samples
    first = reachable(s, samples=r.samples, seed=1)  # the same first deals
    assert first.rate.successes == r.rate.successes and not first.stopped


def test_reachable_cut_by_its_time_limit_exits_3_with_the_partial_answer():
    done = run("reachable", str(PUZZLES / "hidden.json"), "--samples", "100000",
               "--time-limit", "0.5", "--json")
    assert done.exit_code == 3
    doc = json.loads(done.stdout)
    assert doc["stopped"] and doc["samples"] < 100000 and doc["rate"]["trials"] == doc["samples"]
    assert "deals played" in done.stderr


@pytest.mark.parametrize("reading, won", [(None, 15), ("present", 17)])
def test_reachable_on_the_example_files_gives_the_published_answers(reading, won):
    """The answers on the example files: the first hint rollout wins the known deck in
    42 plays; of 20 sampled deals of the hidden game (seed 0) 15 are won as worded (the
    default) and 17 with --comparisons present (the reading the figure was first
    published with)."""
    extra = ["--comparisons", reading] if reading else []
    if reading is None:  # the same line under either reading
        known = json.loads(run("reachable", str(PUZZLES / "known-deck.json"),
                               "--open-hands", "--json").stdout)
        assert (known["method"], known["answer"], known["nodes"]) == ("exact", "yes", 42)
        assert known["line"][:4] == ["p1:G2>2", "p2:P5>1", "p1:G3>2", "p2:V5>1"]
        assert len(known["line"]) == 42
    hidden = json.loads(run("reachable", str(PUZZLES / "hidden.json"), "--samples", "20",
                            "--json", *extra).stdout)
    assert hidden["method"] == "sampling" and hidden["rate"]["successes"] == won
    assert hidden["rate"]["trials"] == 20
