"""Tippi Toppi rules engine checked against the rulebook
(/work/shared/rulebooks/tippi-toppi-cards.de.txt): legal plays, tasks fulfilled and
replaced, turned-up tasks that hold at once, drawing, winning and losing, the task table,
game files and their errors."""

from __future__ import annotations

import json
import re

import pytest

from models.tippi_toppi.positions import parse_play, state_from_dict, state_to_dict
from models.tippi_toppi.rules import load_rules, rules_from_dict
from models.tippi_toppi.state import GameState, Play, Variant, new_game, sample_hidden
from solver.errors import BadInput

R = load_rules()
GREEN, PINK, ORANGE, PURPLE = range(4)


def state(piles, hands, open_tasks=(), task_pile=(), empty_draw=False, turn=1, **variant):
    """A state from a game file (draw pile unknown; empty_draw: nothing left to draw)."""
    s = state_from_dict(R, {"piles": piles, "hands": hands, "turn": turn,
                            "open_tasks": list(open_tasks), "task_pile": list(task_pile),
                            "variant": variant})
    return s.but(draw_pile=[], draw_count=0) if empty_draw else s


def full_state(piles, hands, open_tasks=(), task_pile=(), turn=1, **variant) -> GameState:
    """A state whose draw pile holds every remaining card (in deck order)."""
    s = state(piles, hands, open_tasks, task_pile, False, turn, **variant)
    return s.but(draw_pile=s.unseen_cards(), draw_count=len(s.unseen_cards()))


def test_deck_has_56_cards_two_of_each():
    assert len(R.deck) == 56
    assert len(R.cards) == 28
    assert all(R.deck.count(c) == 2 for c in R.cards)


def test_task_table_is_the_rulebooks():
    # 1 Spieler 12-20, 2-3 Spieler 14-22, 4 Spieler 12-20
    assert [R.task_count(1, d) for d in range(5)] == [12, 14, 16, 18, 20]
    assert [R.task_count(2, d) for d in range(5)] == [14, 16, 18, 20, 22]
    assert [R.task_count(3, d) for d in range(5)] == [14, 16, 18, 20, 22]
    assert [R.task_count(4, d) for d in range(5)] == [12, 14, 16, 18, 20]
    assert R.parse_difficulty("Fortgeschritten") == 2
    assert R.parse_difficulty("champion") == 4
    with pytest.raises(BadInput):
        R.task_count(5, 0)


def test_new_game_deals_per_rules():
    s = new_game(R, 3, 1, seed=5)
    assert [len(p) for p in s.piles] == [1, 1, 1, 1]
    assert [len(h) for h in s.hands] == [4, 4, 4]
    assert s.draw_count == 56 - 4 - 12 == len(s.draw_pile)
    assert len(s.open_tasks) == 4
    assert len(s.open_tasks) + len(s.task_pile) + len(s.fulfilled) == 16
    assert not any(s.holds(t) for t in s.open_tasks)  # those holding were fulfilled


def test_the_task_table_counts_every_task_or_with_the_switch_the_pile_alone():
    """The rulebook's "Anzahl der Aufgaben" is read as the number of tasks of the game,
    the four open ones included (default, --task-count total); --task-count pile deals
    the table's number as the task pile and four open tasks on top."""
    from models.tippi_toppi.game import GAME
    for task_count, tasks in (("total", 16), ("pile", 20)):
        s = new_game(R, 3, 1, seed=5, task_count=task_count)
        assert len(s.open_tasks) == 4
        assert len(s.open_tasks) + len(s.task_pile) + len(s.fulfilled) == tasks
        assert R.tasks_in_game(3, 1, task_count) == tasks
    # the default deal is the one it always was; the switch is recorded only when set
    assert state_to_dict(new_game(R, 3, 1, seed=5)) == state_to_dict(
        new_game(R, 3, 1, 5, task_count="total"))
    assert GAME.setups(R, players="1", difficulty="champion") == [
        {"players": 1, "difficulty": "champion"}]
    setup, = GAME.setups(R, players="1", difficulty="champion", task_count="pile")
    assert setup == {"players": 1, "difficulty": "champion", "task_count": "pile"}
    import random
    dealt = GAME.new_game(R, setup, random.Random(0))
    assert dealt.tasks_left() + len(dealt.fulfilled) == 24
    assert GAME.measure(R, setup, dealt, {})["tasks"] == 24
    with pytest.raises(BadInput, match="--task-count"):
        GAME.setups(R, players="1", difficulty="normal", task_count="deck")


def test_a_card_matches_by_colour_or_number_or_both():
    s = state(["G3", "P5", "O7", "V1"], [["G5", "O1", "P5", "V7"]], ["a run of 4"])
    legal = {(R.card_name(a.card), a.pile) for a in s.legal_plays()}
    assert ("G5", 0) in legal  # colour
    assert ("G5", 1) in legal  # number
    assert ("P5", 1) in legal  # both
    assert ("O1", 3) in legal  # number 1 on V1
    assert ("O1", 0) not in legal
    assert ("V7", 2) in legal and ("V7", 3) in legal
    assert ("V7", 0) not in legal
    with pytest.raises(BadInput, match="matches neither"):
        s.apply_action(Play(0, (ORANGE, 1), 0))
    assert len(s.hands[0]) == 4 and len(s.piles[0]) == 1  # refused, nothing changed


def test_one_card_fulfils_several_tasks_all_are_replaced():
    s = full_state(["G3", "G5", "P7", "V1"], [["G7", "O4", "P6", "V6"]],
                   open_tasks=["exactly 3 green piles", "the sum of the green piles is 15",
                               "at least 2 piles showing 6", "a run of 4"],
                   task_pile=["no orange piles", "all piles are odd", "a run of 3"])
    s, done = s.step(parse_play(s, "G7>3"))  # G3 G5 G7 V1
    # two open tasks hold; of the turned-up ones "no orange piles" and "all piles are
    # odd" hold at once, so they are fulfilled and replaced as well (rulebook)
    assert [t.text(R) for t in done] == [
        "exactly 3 green piles", "the sum of the green piles is 15", "no orange piles",
        "all piles are odd"]
    assert [t.text(R) for t in s.open_tasks] == [
        "at least 2 piles showing 6", "a run of 4", "a run of 3"]
    assert s.task_pile == [] and len(s.fulfilled) == 4
    assert len(s.hands[0]) == 4  # drew a card


def test_fulfilled_replacement_task_counts_and_is_replaced():
    s = full_state(["G3", "P5", "O7", "V1"], [["P1", "O4", "P6", "V6"]],
                   open_tasks=["exactly 2 pink piles", "a run of 4", "exactly 3 pink piles",
                               "all piles are even"],
                   task_pile=["all piles are odd", "exactly 2 piles showing 4"])
    s, done = s.step(parse_play(s, "P1>4"))  # G3 P5 O7 P1: two pink, all odd
    assert [t.text(R) for t in done] == ["exactly 2 pink piles", "all piles are odd"]
    assert [t.text(R) for t in s.open_tasks] == [
        "a run of 4", "exactly 3 pink piles", "all piles are even",
        "exactly 2 piles showing 4"]
    assert len(s.fulfilled) == 2


def test_win_when_all_tasks_fulfilled_and_loss_when_stuck():
    s = full_state(["G3", "P5", "O7", "V1"], [["G5", "O4", "P6", "V6"]],
                   open_tasks=["exactly 2 green piles"])
    after = s.apply_action(parse_play(s, "G5>2"))
    assert not s.is_won() and len(s.piles[1]) == 1  # apply_action leaves s as it was
    assert after.is_won() and after.is_terminal() and after.legal_plays() == []
    stuck = state(["G3", "G5", "G7", "G1"], [["P2", "O4", "V6", "P6"]],
                  open_tasks=["no green piles"], empty_draw=True)
    assert stuck.legal_plays() == []
    assert stuck.is_lost()


def test_after_the_draw_pile_runs_out_play_goes_on_without_drawing():
    s = state(["G3", "P5", "O7", "V1"], [["G5", "O4"], ["P6", "V6"]],
              open_tasks=["exactly 3 green piles", "a run of 4"], empty_draw=True)
    s = s.apply_action(parse_play(s, "G5>2"))
    assert s.hands[0] == [(ORANGE, 4)] and s.turn == 1
    s = s.apply_action(parse_play(s, "V6>4"))
    assert s.hands[1] == [(PINK, 6)]
    assert s.turn == 0


def test_high_speed_lets_anyone_play():
    s = state(["G3", "P5", "O7", "V1"], [["O4"], ["P6"]], open_tasks=["a run of 4"],
              empty_draw=True, high_speed=True)
    players = {a.player for a in s.legal_plays()}
    assert players == {0, 1}
    normal = state(["G3", "P5", "O7", "V1"], [["O4"], ["P6"]], open_tasks=["a run of 4"],
                   empty_draw=True)
    assert {a.player for a in normal.legal_plays()} == {0}
    with pytest.raises(BadInput, match="not on turn"):
        normal.apply_action(Play(1, (PINK, 6), 1))


def test_hidden_cards_are_sampled_consistently():
    s = state(["G3", "P5", "O7", "V1"], [["G5", "O4", "P6", "V6"], ["?", "?", "?", "?"]],
              open_tasks=["exactly 3 green piles"])
    assert s.draw_count == 56 - 8 - 4
    import random
    full = sample_hidden(s, random.Random(1))
    assert full.fully_known()
    assert sorted(full.known_cards().elements()) == sorted(R.deck)


BAD = [
    ({"hands": [["G8"]]}, "unknown card 'G8'"),
    ({"hands": [["X3"]]}, "unknown card 'X3'"),
    ({"hands": [["G3", "G3"]]}, "G3 appears 3 times"),
    ({"hands": [["G1", "G2", "G4", "G5", "G6"]]}, "at most 4"),
    ({"open_tasks": ["exactly 3 blue piles"]}, "cannot read task"),
    ({"open_tasks": ["exactly 1 green pile"]}, "already holds"),
    ({"piles": ["G3", "P5", "O7"]}, "4 piles expected"),
    ({"turn": 3}, "does not exist"),
    ({"players": 3}, "3 players but 1 hands"),
    ({"task_pile": ["a run of 3"]}, "only 1 open tasks"),
]


@pytest.mark.parametrize("change, words", BAD)
def test_bad_game_files(change, words):
    data = {"piles": ["G3", "P5", "O7", "V1"], "hands": [["G1"]], "turn": 1,
            "open_tasks": ["a run of 4"]}
    data.update(change)
    with pytest.raises(BadInput, match=words):
        state_from_dict(R, json.loads(json.dumps(data)))


def test_round_trip_of_a_game_file():
    s = new_game(R, 2, 2, seed=3).apply_action(new_game(R, 2, 2, seed=3).legal_plays()[0])
    again = state_from_dict(R, state_to_dict(s))
    assert again.tops == s.tops and again.hands == s.hands and again.turn == s.turn
    assert again.open_tasks == s.open_tasks and again.task_pile == s.task_pile
    assert again.draw_pile == s.draw_pile
    assert Variant() == again.variant


def _default_rules_data() -> dict:
    from importlib import resources
    return json.loads(resources.files("models.tippi_toppi").joinpath(
        "data/default.json").read_text())


@pytest.mark.parametrize("path, value, words", [
    (("colours", 0, "words", 0), 3, "colours[0].words[0]: expected a string"),
    (("task_counts",), {}, "task_counts: at least one"),
    (("task_counts",), {"two": [1, 2, 3]}, "number of players"),
    (("adjacent", 0), 7, "adjacent[0]: expected a list"),
    (("piles",), 10**9, "piles: 1000000000 is not from 1 to 20"),
    (("hand_size",), 0, "hand_size: 0 is not from 1"),
    (("numbers",), [], "numbers: at least one"),
])
def test_bad_rules_data_is_one_clear_error(path, value, words):
    """Found by mutating the default rules: these were tracebacks (AttributeError,
    ValueError) or accepted."""
    data = _default_rules_data()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(BadInput, match=re.escape(words)):
        rules_from_dict(data)


def test_the_seat_on_turn_is_written_on_turn_and_read_from_either_key():
    """Files count seats from 1: `on_turn` is written; files naming it `turn` (as earlier
    versions wrote it) are read alike, and `on_turn` counts when a file gives both."""
    data = {"piles": ["G3", "P5", "O7", "V1"], "hands": [["G1"], ["G2"]],
            "open_tasks": ["a run of 4"]}
    old = state_from_dict(R, {**data, "turn": 2})
    new = state_from_dict(R, {**data, "on_turn": 2})
    assert old.turn == new.turn == 1
    written = state_to_dict(new)
    assert written["on_turn"] == 2 and "turn" not in written
    assert state_from_dict(R, {**data, "on_turn": 1, "turn": 2}).turn == 0
    with pytest.raises(BadInput, match=r"on_turn: player 3 does not exist \(1-2\)"):
        state_from_dict(R, {**data, "on_turn": 3})
