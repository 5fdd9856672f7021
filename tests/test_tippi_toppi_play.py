"""Hints, reachable (exact search held equal to achievable on endgames; sampling),
simulations, and the command line on the example games in puzzles/tippi-toppi."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from models.tippi_toppi.play import _search, hint, reachable, simulate
from models.tippi_toppi.queries import achievable
from models.tippi_toppi.rules import Variant, load_rules, new_game, state_from_dict
from tests.cli_helpers import assert_one_line_error, game_runner

R = load_rules()
PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "tippi-toppi"


def endgame(piles, hands, tasks, draw=(), **variant):
    s = state_from_dict(R, {"piles": piles, "hands": hands, "open_tasks": tasks,
                            "variant": variant})
    s.draw_pile = [R.parse_card(c) for c in draw]
    s.draw_count = len(s.draw_pile)
    return s


def test_hint_puts_the_fulfilling_play_first_with_reasons():
    s = endgame(["G3", "P5", "O7", "V1"], [["G5", "O2", "V7", "P1"]],
                ["exactly 2 green piles", "a run of 4"], draw=["O4", "G1"])
    h = hint(s)
    best = h.options[0]
    assert best.play in ("G5>2",)
    assert best.fulfils == ["exactly 2 green piles"]
    assert len(h.options) == len(s.legal_actions())
    assert [o.score for o in h.options] == sorted((o.score for o in h.options), reverse=True)


def test_hint_avoids_leaving_the_next_player_stuck_with_open_hands():
    # player 2 holds only P2: V5 on the pink 5 leaves no pink pile and no 2
    s = endgame(["G3", "P5", "O7", "V1"], [["V5", "O4"], ["P2"]],
                ["a run of 4", "no orange piles"], open_hands=True)
    options = {o.play: o for o in hint(s).options}
    assert options["p1:V5>2"].next_stuck
    for text, o in options.items():
        play = next(a for a in s.legal_actions() if f"p1:{R.card_name(a.card)}>{a.pile + 1}" == text)
        after = s.after(play)
        stuck = not any(a.player == 1 for a in after.legal_actions())
        assert o.next_stuck is stuck
    assert any(o.next_stuck for o in options.values())
    assert not hint(s).options[0].next_stuck


def test_hint_within_a_second():
    worst = 0.0
    for seed in range(10):
        s = new_game(R, 4, 4, seed)
        start = time.perf_counter()
        hint(s)
        worst = max(worst, time.perf_counter() - start)
    assert worst < 1.0


def _endgame(seed: int, cards_left: int, pile: int):
    """A game played randomly until `cards_left` cards remain in hands and draw pile;
    then two easy open tasks and up to `pile` tasks to turn up (all known)."""
    s = new_game(R, 2, 0, seed)
    rng = random.Random(seed)
    while (s.draw_count + sum(len(h) for h in s.hands) > cards_left) and not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    easy = [t.task for t in R.catalogue if t.level == 1 and not s.holds(t.task)]
    s.open_tasks = rng.sample(easy, 2)
    rest = [t.task for t in R.catalogue if t.level == 1 and t.task not in s.open_tasks]
    s.task_pile = rng.sample(rest, rng.randrange(pile + 1))
    s.fulfilled = []
    return s


def test_exact_reachable_equals_a_search_of_the_game():
    answers = set()
    for seed in range(16):
        s = _endgame(seed, 5, 2)
        if s.is_terminal():
            continue
        r = reachable(s, time_limit=30)
        line, _, complete = _search(s, time.perf_counter() + 30)
        assert complete and r.method == "exact" and r.proven
        assert (r.answer == "yes") is (line is not None), seed
        answers.add(r.answer)
    assert answers == {"yes", "no"}


def test_exact_reachable_without_task_pile_equals_achievable():
    for seed in range(4):
        s = _endgame(seed, 9, 0)
        if s.is_terminal():
            continue
        plays_left = sum(len(h) for h in s.hands) + s.draw_count
        r = reachable(s, time_limit=30)
        a = achievable(s, None, plays_left, "known", "sat")
        assert r.proven and r.answer == a.answer


def test_reachable_on_the_solo_endgame_equals_a_search():
    from models.tippi_toppi.rules import load_state
    s = load_state(R, PUZZLES / "solo-endgame.json")
    r = reachable(s, time_limit=30)
    line, _, complete = _search(s, time.perf_counter() + 30)
    assert complete and r.proven and (r.answer == "yes") is (line is not None)
    out = run("reachable", str(PUZZLES / "solo-endgame.json")).output
    assert ("No" if r.answer == "no" else "Yes") in out


def test_reachable_samples_hidden_cards():
    s = new_game(R, 2, 0, 4)
    s.hands[1] = [None] * 4
    s.draw_pile = None
    r = reachable(s, samples=20, seed=1)
    assert r.method == "sampling" and not r.proven and r.rate.trials == 20
    assert r.rate.low <= r.rate.rate <= r.rate.high


def test_simulate_hint_policy_beats_random():
    res = simulate(R, 20, [1], [0], ["hint", "random"], seed=0, variant=Variant())
    hint_cell, random_cell = res.cells
    assert hint_cell.rate.successes > random_cell.rate.successes
    assert hint_cell.tasks == 12


# --------------------------------------------------------------------------- CLI

run = game_runner("tippi-toppi")
one_line_error = assert_one_line_error


@pytest.mark.parametrize("args", [
    ("show", "known-deck.json"), ("show", "hidden.json"), ("moves", "known-deck.json"),
    ("achievable", "known-deck.json"), ("achievable", "hidden.json", "--cards", "hand",
                                        "--task", "a run of 3", "--within", "2"),
    ("hint", "hidden.json"), ("reachable", "known-deck.json", "--time-limit", "5"),
    ("reachable", "hidden.json", "--samples", "5"),
])
def test_cli_answers_on_the_example_games_as_json(args):
    verb, name, *rest = args
    result = run(verb, str(PUZZLES / name), *rest, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert isinstance(doc, dict)


def test_cli_achievable_core_and_witness():
    f = str(PUZZLES / "known-deck.json")
    doc = json.loads(run("achievable", f, "--json").output)
    assert doc["answer"] == "no" and doc["core"] == ["at least 1 pink pile showing 7"]
    doc = json.loads(run("achievable", f, "--task", "Drei grüne Stapel", "--within", "8",
                         "--backend", "cpsat", "--json").output)
    assert doc["answer"] == "yes" and doc["targets"] == ["exactly 3 green piles"]
    out = run("achievable", f).output
    assert "No" in out and "at least 1 pink pile showing 7" in out


def test_cli_svg_and_simulate(tmp_path):
    svg = tmp_path / "t.svg"
    assert run("show", str(PUZZLES / "known-deck.json"), "--svg", str(svg)).exit_code == 0
    assert svg.read_text().startswith("<svg")
    result = run("simulate", "--games", "3", "--players", "2", "--difficulty", "normal",
                 "--policy", "hint", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["cells"][0]["tasks"] == 16 and doc["cells"][0]["rate"]["trials"] == 3


def write(tmp_path, data) -> str:
    p = tmp_path / "g.json"
    p.write_text(json.dumps(data))
    return str(p)


BASE = {"piles": ["G3", "P5", "O7", "V1"], "hands": [["G1", "O2"]], "open_tasks": ["a run of 4"]}


@pytest.mark.parametrize("change, words", [
    ({"hands": [["G9"]]}, ["unknown card 'G9'"]),
    ({"hands": [["G3", "G3"]]}, ["G3 appears 3 times", "deck has 2"]),
    ({"open_tasks": ["two blue piles"]}, ["cannot read task"]),
])
def test_cli_bad_game_files(tmp_path, change, words):
    one_line_error(run("show", write(tmp_path, {**BASE, **change})), *words)


def test_cli_bad_task_option_and_malformed_file(tmp_path):
    f = write(tmp_path, BASE)
    one_line_error(run("achievable", f, "--cards", "hand", "--task", "seven purple elephants"),
                   "--task", "cannot read task")
    bad = tmp_path / "bad.json"
    bad.write_text("{\"piles\": [")
    one_line_error(run("show", str(bad)), "malformed JSON")
    one_line_error(run("achievable", f), "draw pile is not known")
    one_line_error(run("simulate", "--players", "7", "--games", "1"), "7 players")


def test_cli_hint_when_stuck_and_with_a_hidden_hand(tmp_path):
    stuck = write(tmp_path, {"piles": ["G3", "G5", "G7", "G1"], "hands": [["P2", "O4"]],
                             "open_tasks": ["no green piles"]})
    out = run("hint", stuck).output
    assert "No legal play" in out
    hidden = write(tmp_path, {**BASE, "hands": [["?", "?"]]})
    one_line_error(run("hint", hidden), "hidden")
