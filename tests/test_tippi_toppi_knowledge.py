"""What Tippi Toppi's answers know: the hint reads only what the player on
turn sees, whatever the file gives; --open-hands is the labelled all-seeing reference;
positions may leave hands, the draw pile and the task pile unknown, and bad unknowns
are one-line errors."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.tippi_toppi.game import GAME
from models.tippi_toppi.hint import hint_at_table
from models.tippi_toppi.positions import state_from_dict
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.state import GameState, Variant, deal
from solver.results import to_jsonable
from tests.cli_helpers import assert_one_line_error, game_runner, run_json

R = load_rules()
run = game_runner("tippi-toppi")
CARD = re.compile(r"\b[GPOV][1-7]\b")


def write(tmp_path, data, name="g.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return str(p)


def played(seed: int, players: int, level: int, steps: int, high_speed: bool = False,
           open_hands: bool = False) -> GameState | None:
    """A dealt game after `steps` seeded actions (random and hint-like alike), or None
    when it ended or no player action is due."""
    rng = random.Random(seed)
    s = deal(R, players, level, rng, Variant(high_speed, open_hands))
    for _ in range(steps):
        if GAME.is_terminal(s):
            return None
        s = GAME.apply_action(s, rng.choice(GAME.legal_actions(s)))
    if GAME.current_player(s) < 0 or not s.plays_of(s.turn):
        return None
    return s


def redeal(state: GameState, rng: random.Random) -> GameState:
    """The same position for the player on turn, with everything that player cannot see
    dealt again: the other hands (unless open hands), the draw pile and its order, the
    face-down task pile (other unseen tasks of the catalogue, another order)."""
    s = state
    me = s.turn
    others = [] if s.variant.open_hands else [q for q in range(s.players) if q != me]
    hidden = [c for q in others for c in s.hands[q]] + list(s.draw_pile or [])
    rng.shuffle(hidden)
    hands = [list(h) for h in s.hands]
    for q in others:
        n = len(hands[q])
        hands[q], hidden = hidden[:n], hidden[n:]
    assert len(hidden) == s.draw_count
    seen = set(s.open_tasks) | set(s.fulfilled)
    pool = [t.task for t in R.catalogue if t.task not in seen]
    return s.but(hands=hands, draw_pile=hidden, task_pile=rng.sample(pool, len(s.task_pile)))


def ranking(state: GameState, open_hands: bool = False) -> tuple[dict, list]:
    used, result = hint_at_table(state, open_hands)
    return GAME.write(used), to_jsonable(result.options)


# --------------------------------------------------------------------------- the hint

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), level=st.integers(0, 4),
       steps=st.integers(0, 45), high_speed=st.booleans(), open_hands=st.booleans(),
       again=st.integers(0, 10**6))
def test_the_hint_is_the_same_whatever_the_player_cannot_see(seed, players, level, steps,
                                                             high_speed, open_hands, again):
    """Other hands, the draw pile's order and the face-down tasks dealt again: the
    hint reads the same view and ranks every play alike, scores and reasons included."""
    s = played(seed, players, level, steps, high_speed, open_hands)
    if s is None:
        return
    other = redeal(s, random.Random(again))
    assert GAME.observation(other, s.turn) is not None
    assert ranking(other) == ranking(s)
    # and as the command gives it, from a file with every hand or with "?"
    assert GAME.write(other.seen_by(s.turn)) == GAME.write(s.seen_by(s.turn))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4), level=st.integers(0, 4),
       steps=st.integers(0, 45), high_speed=st.booleans())
def test_the_hint_names_no_card_the_player_cannot_see(seed, players, level, steps,
                                                      high_speed):
    s = played(seed, players, level, steps, high_speed)
    if s is None:
        return
    _, result = hint_at_table(s)
    own = {R.card_name(c) for c in s.hands[s.turn]}
    visible = own | {R.card_name(c) for p in s.piles for c in p}
    assert result.options
    for o in result.options:
        assert CARD.findall(o.play)[0] in own
        assert set(o.fulfils) | set(o.in_reach) <= {t.text(R) for t in s.open_tasks}
    assert set(CARD.findall(json.dumps(to_jsonable(result)))) <= visible


def test_the_hint_of_a_file_with_every_hand_reads_only_the_players_view(tmp_path):
    """The file gives both hands and the draw pile in order: the hint reads what player
    1 sees, says so, and answers as on the same file with player 2's hand as '?'."""
    s = played(3, 2, 1, 6)
    assert s is not None
    data = GAME.write(s)
    f_full = write(tmp_path, data, "full.json")
    hidden = {**data, "hands": [data["hands"][0] if q == s.turn else len(h)
                                for q, h in enumerate(data["hands"])]}
    del hidden["draw_pile"]
    hidden["task_pile"] = len(data["task_pile"])
    f_hidden = write(tmp_path, hidden, "hidden.json")
    a, b = run_json(run, "hint", f_full), run_json(run, "hint", f_hidden)
    for doc in (a, b):
        del doc["seconds"]
    assert a == b and not a["open_hands"] and a["samples"] == 0 and a["method"] == "exact"
    other = 2 - s.turn
    assert f"the hand of player {other}" not in a["knows"]
    assert "the order of the draw pile" not in a["knows"]
    assert f"the hand of player {s.turn + 1}" in a["knows"]
    assert any(u.startswith(f"{len(s.hands[other - 1])} card(s) in the hand of player")
               for u in a["unknown"])
    # the all-seeing reference is asked for, and says so
    o = run_json(run, "hint", f_full, "--open-hands")
    assert o["open_hands"] and o["unknown"] == []
    assert f"the hand of player {other}" in o["knows"] and "the order of the draw pile" in o[
        "knows"]
    text = run("hint", f_full, "--open-hands").stdout
    assert "Open hands" in text and "all-seeing" in text
    assert "Open hands" not in run("hint", f_full).stdout


def test_open_hands_sees_the_next_player_stuck_the_players_view_does_not(tmp_path):
    # player 2 holds only P2: V5 on the pink 5 leaves no pink pile and no 2
    data = {"piles": ["G3", "P5", "O7", "V1"], "hands": [["V5", "O4"], ["P2"]],
            "open_tasks": ["a run of 4", "no orange piles"]}
    f = write(tmp_path, data)
    honest = {o["play"]: o for o in run_json(run, "hint", f)["options"]}
    seeing = {o["play"]: o for o in run_json(run, "hint", f, "--open-hands")["options"]}
    assert not any(o["next_stuck"] for o in honest.values())
    assert seeing["p1:V5>2"]["next_stuck"]
    assert run_json(run, "hint", f, "--open-hands")["options"][0]["play"] != "p1:V5>2"


def test_achievable_and_reachable_say_what_they_read():
    known = "puzzles/tippi-toppi/known-deck.json"
    doc = run_json(run, "achievable", known)
    assert "the order of the draw pile" in doc["knows"] and doc["unknown"] == []
    doc = run_json(run, "achievable", known, "--cards", "hands", "--task", "a run of 3")
    assert "the hand of player 2" in doc["knows"]
    assert "the order of the draw pile" not in doc["knows"]
    doc = run_json(run, "achievable", known, "--cards", "hand", "--task", "a run of 3")
    assert "the hand of player 2" not in doc["knows"] and "the hand of player 1" in doc[
        "knows"]
    doc = run_json(run, "reachable", "puzzles/tippi-toppi/hidden.json", "--samples", "3")
    assert doc["unknown"] and "the hand of player 1" in doc["knows"]


def test_simulate_says_which_policies_saw_everything():
    base = ("simulate", "--games", "2", "--players", "2", "--difficulty", "normal",
            "--policy", "hint", "--policy", "random", "--jobs", "1")
    assert run_json(run, *base)["knows"] == {"hint": "own", "random": "own"}
    assert run_json(run, *base, "--open-hands")["knows"] == {"hint": "everything",
                                                             "random": "everything"}


# --------------------------------------------------------------------------- positions

BASE = {"piles": ["G3", "P5", "O7", "V1"], "hands": [["G1", "O2"], ["?", "?", "?"]],
        "open_tasks": ["a run of 4"]}


def test_unknowns_as_counts_and_as_cards_without_order():
    s = state_from_dict(R, {**BASE, "hands": [["G1", "O2"], 3], "draw_pile": 47})
    assert s.hands[1] == [None] * 3 and s.draw_pile is None and s.draw_count == 47
    assert GAME.knows(s) == ["the piles", "the open tasks", "the fulfilled tasks",
                             "the number of cards in every hand", "the hand of player 1",
                             "the number of cards in the draw pile",
                             "the number of tasks in the task pile"]
    solo = {**BASE, "hands": [["G1", "O2"]]}
    unseen = state_from_dict(R, solo).unseen_cards()
    s = state_from_dict(R, {**solo, "draw_pile": {"unordered": [R.card_name(c)
                                                                for c in reversed(unseen)]}})
    assert s.draw_pile is None and s.draw_count == 50 and "the order of the draw pile" not in \
        GAME.knows(s)
    assert GAME.read(R, GAME.write(s), "again").draw_count == 50


def crowded_piles(n: int) -> list[list[str]]:
    """Four piles holding the deck's first n cards."""
    cards = [R.card_name(c) for c in R.deck[:n]]
    return [cards[i::4] for i in range(4)]


@pytest.mark.parametrize("verb, change, words", [
    ("hint", {"hands": [["G1", "?"], ["?"]]}, ["player 1", "hidden card", "a hint needs"]),
    ("hint", {"hands": [2, ["P2"]]}, ["player 1", "hidden card"]),
    ("achievable", {"hands": [["?", "O2"], ["P2"]]}, ["player 1", "--cards hand needs"]),
    ("show", {"piles": crowded_piles(42), "hands": [4, 4, 4, 4]},
     ["16 hidden hand cards but only 14 cards"]),
    ("show", {"hands": [["G1", "O2"], 5]}, ["hands[2]", "0 to 4 cards, not 5"]),
    ("show", {"hands": [["G1", "O2"], -1]}, ["hands[2]", "0 to 4 cards, not -1"]),
    ("show", {"draw_pile": 49}, ["draw_pile: 49 cards", "the deck leaves 47"]),
    ("show", {"hands": [["G1", "O2"]], "draw_pile": {"unordered": ["G3"] * 50}},
     ["G3 is not left for the draw pile"]),
    ("show", {"draw_pile": {"unordered": ["G2"] * 47}}, ["G2 is not left"]),
    ("show", {"draw_pile": "many"}, ["draw_pile", "a count"]),
    ("show", {"task_pile": 70}, ["70 unknown tasks", "unseen"]),
])
def test_bad_unknowns_are_one_line_errors(tmp_path, verb, change, words):
    args = ["--cards", "hand", "--task", "a run of 3"] if verb == "achievable" else []
    assert_one_line_error(run(verb, write(tmp_path, {**BASE, **change}), *args), *words)


def test_cards_without_order_need_every_hand_known(tmp_path):
    unseen = Counter(state_from_dict(R, {**BASE, "hands": [["G1", "O2"]]}).unseen_cards())
    cards = [R.card_name(c) for c in sorted(unseen.elements())][:47]
    assert_one_line_error(run("show", write(tmp_path, {**BASE, "draw_pile": {
        "unordered": cards}})), "hidden hand cards", "count instead")
