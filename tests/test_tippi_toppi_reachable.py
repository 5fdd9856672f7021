"""`reachable`: the exact answer held equal to a search of the game on endgames and to
`achievable` when no task pile is left; sampling over hidden cards."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from models.tippi_toppi.achievable import achievable
from models.tippi_toppi.positions import load_state, state_to_dict
from models.tippi_toppi.reachable import reachable, search_winning_line
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.state import new_game
from solver.deadline import Deadline
from tests.cli_helpers import game_runner, run_json, same_answer_when_busy, without_times

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
        r = reachable(s)
        line, _, complete = search_winning_line(s)
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
        r = reachable(s)
        a = achievable(s, None, plays_left, "known", "sat")
        assert r.proven and r.answer == a.answer


def test_reachable_on_the_solo_endgame_equals_a_search():
    s = load_state(R, PUZZLES / "solo-endgame.json")
    r = reachable(s)
    line, _, complete = search_winning_line(s)
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
    assert r.rate.low <= r.rate.rate <= r.rate.high and not r.cut_by_time


def test_sampling_keeps_the_time_limit_and_answers_over_the_deals_played():
    s = new_game(R, 2, 0, 4)
    s = s.but(hands=[s.hands[0], [None] * 4], draw_pile=None)
    r = reachable(s, samples=100_000, seed=1, deadline=Deadline.after(0.5))
    assert r.cut_by_time and 1 <= r.samples < 100_000 and r.rate.trials == r.samples
    first = reachable(s, samples=r.samples, seed=1)  # the same first deals
    assert first.rate.successes == r.rate.successes and not first.cut_by_time


def test_reachable_cut_by_its_time_limit_answers_over_the_deals_played():
    """An estimate cut by --time-limit is an answer: exit 0, `cut_by_time`, and a word
    on the terminal."""
    args = [str(PUZZLES / "hidden.json"), "--samples", "100000", "--time-limit", "0.05"]
    done = run("reachable", *args, "--json")
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    assert doc["cut_by_time"] and 1 <= doc["samples"] < 100000
    assert doc["rate"]["trials"] == doc["samples"]
    printed = run("reachable", *args)
    assert printed.exit_code == 0 and "cut by the time limit" in printed.stdout


def _long_game_file(tmp_path: Path) -> Path:
    """A fresh 2-player champion deal, everything known, whose hint line loses: the beam
    search wins it after about 1,600 positions."""
    path = tmp_path / "long.json"
    path.write_text(json.dumps(state_to_dict(new_game(R, 2, 4, 17))))
    return path


def test_an_exact_search_the_time_limit_leaves_undecided_is_one_line_exit_3(tmp_path):
    r = reachable(new_game(R, 2, 4, 17), deadline=Deadline.after(0))
    assert r.answer == "unknown" and r.cut_by_time and not r.proven
    done = run("reachable", str(_long_game_file(tmp_path)), "--open-hands",
               "--time-limit", "0.01")
    assert done.exit_code == 3 and "time limit" in done.output
    assert len([line for line in done.output.splitlines() if line.strip()]) == 1


def test_more_positions_change_the_exact_answer_only_through_the_work(tmp_path):
    """Out of positions (--nodes) the search has no answer (one line, exit 3); with more
    it wins the game, and with more still it finds the very same line after the very
    same positions (the search is the same sequence of work, cut sooner or later)."""
    path = str(_long_game_file(tmp_path))
    short = run("reachable", path, "--open-hands", "--nodes", "60")
    assert short.exit_code == 3 and "--nodes 60" in short.output
    assert len([line for line in short.output.splitlines() if line.strip()]) == 1
    enough = run_json(run, "reachable", path, "--open-hands", "--nodes", "20000")
    more = run_json(run, "reachable", path, "--open-hands", "--nodes", "200000")
    assert enough["answer"] == "yes" and enough["proven"] and not enough["cut_by_time"]
    assert without_times(enough) == without_times(more)


def test_more_samples_change_the_estimate_only_through_the_deals_added():
    """The deals of `--samples n` are the first n deals of any larger count: each added
    deal adds a win or not."""
    s = new_game(R, 2, 0, 4)
    s = s.but(hands=[s.hands[0], [None] * 4], draw_pile=None)
    wins = [reachable(s, samples=n, seed=3).rate.successes for n in (2, 4, 8)]
    assert wins[0] <= wins[1] <= wins[0] + 2 and wins[1] <= wins[2] <= wins[1] + 4


@pytest.mark.parametrize("args", [
    ("hidden.json", "--samples", "6"),
    ("known-deck.json", "--open-hands"),
    ("solo-endgame.json", "--open-hands"),
], ids=["sampling", "exact-rollout", "exact-sat"])
def test_reachable_is_the_same_on_a_busy_machine(args):
    same_answer_when_busy(run, "reachable", str(PUZZLES / args[0]), *args[1:])


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
