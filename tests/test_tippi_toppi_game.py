"""Tippi Toppi's game description (models/tippi_toppi/game.py): chance events held equal
to brute-force counts, what a player sees, positions with unknowns, High Speed's
initiative, and the shared simulate replaying the published figures."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from models.tippi_toppi.game import GAME
from models.tippi_toppi.positions import parse_play
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.state import DRAW, TURN_UP, Draw, Pass, Play, TurnUp
from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL
from solver.simulate import simulate

R = load_rules()
UNSEEN = ["G1", "G1", "P2", "O3", "O3", "V7"]
HAND = ["G2", "P4", "O7", "V4"]
TOPS = ["G3", "P5", "O6", "V1"]


def crowded(**extra) -> dict:
    """A 2-player position where all but six cards lie in the piles: player 1 holds
    HAND, player 2 two unknown cards, the draw pile four cards of unknown order."""
    rest = Counter(R.card_name(c) for c in R.deck)
    rest.subtract(UNSEEN + HAND + TOPS)
    below = sorted(rest.elements())
    piles = [below[i::4] + [top] for i, top in enumerate(TOPS)]
    tops = tuple(R.parse_card(t) for t in TOPS)
    tasks = [t.task.text(R) for t in R.catalogue if not t.task.holds(tops, R)]
    return {"players": 2, "piles": piles, "hands": [HAND, ["?", "?"]], "turn": 1,
            "open_tasks": tasks[:4], "task_pile": 3, **extra}


def test_a_draw_from_an_unordered_pile_is_chance_with_brute_force_probabilities():
    state = GAME.read(R, crowded(), "crowded")
    assert state.draw_pile is None and state.draw_count == 4
    after = GAME.apply_action(state, parse_play(state, "G2>1"))
    assert GAME.current_player(after) == CHANCE and after.chance_due() == DRAW
    # every arrangement of the six unseen cards on player 2's two hidden places and the
    # four places of the draw pile; the card drawn is the top of the draw pile
    counts: Counter = Counter()
    arrangements = list(itertools.permutations(UNSEEN))
    for order in arrangements:
        counts[order[2]] += 1
    expected = {f"draw {card}": Fraction(k, len(arrangements)) for card, k in counts.items()}
    got = {GAME.action_text(after, a): p for a, p in GAME.chance_outcomes(after)}
    assert got.keys() == expected.keys()
    for text, p in got.items():
        assert p == pytest.approx(float(expected[text]))
    assert expected["draw G1"] == Fraction(1, 3) and expected["draw V7"] == Fraction(1, 6)
    assert GAME.legal_actions(after) == [a for a, _ in GAME.chance_outcomes(after)]
    # the outcome goes to the player who played; then player 2 is on turn
    drawn = GAME.apply_action(after, Draw(R.parse_card("O3")))
    assert drawn.hands[0][-1] == R.parse_card("O3") and drawn.draw_count == 3
    assert GAME.current_player(drawn) == 1
    with pytest.raises(BadInput, match="cannot be drawn"):
        GAME.apply_action(after, Draw(R.parse_card("G3")))
    with pytest.raises(BadInput, match="chance acts first"):
        GAME.apply_action(after, parse_play(after, "p2:P4>2"))


def test_a_task_turned_up_from_unknown_tasks_is_chance_over_the_unseen_catalogue():
    data = crowded()
    tops = tuple(R.parse_card(t) for t in TOPS)
    candidates = [t.task.text(R) for t in R.catalogue]
    open_tasks = [t for t in candidates if not R.parse_task(t).holds(tops, R)][:3]
    # all but five catalogue tasks were fulfilled earlier; two lie face down
    unseen = [t for t in candidates if t not in open_tasks][:5]
    fulfilled = [t for t in candidates if t not in open_tasks and t not in unseen]
    state = GAME.read(R, {**data, "open_tasks": open_tasks, "task_pile": 2,
                          "fulfilled_tasks": fulfilled}, "turning up")
    assert GAME.current_player(state) == CHANCE and state.chance_due() == TURN_UP
    arrangements = list(itertools.permutations(unseen, 2))  # the two face-down tasks
    first = Counter(order[0] for order in arrangements)
    got = {a.task.text(R): p for a, p in GAME.chance_outcomes(state)}
    assert got == pytest.approx({t: k / len(arrangements) for t, k in first.items()})
    for outcome, _ in GAME.chance_outcomes(state):
        after = GAME.apply_action(state, outcome)
        if outcome.task.holds(tops, R):  # a task that holds when turned up is done
            assert outcome.task in after.fulfilled and GAME.current_player(after) == CHANCE
        else:
            assert after.open_tasks[-1] == outcome.task and GAME.current_player(after) == 0
    with pytest.raises(BadInput, match="not an unseen task"):
        GAME.apply_action(state, TurnUp(R.parse_task(fulfilled[0])))


def test_unknown_hands_and_piles_round_trip_and_are_named():
    data = crowded(to_draw=1)
    state = GAME.read(R, json.loads(json.dumps(data)), "crowded")
    written = GAME.write(state)
    assert written["hands"] == [HAND, ["?", "?"]] and written["to_draw"] == 1
    assert "draw_pile" not in written and written["task_pile"] == 3
    assert GAME.write(GAME.read(R, written, "again")) == written
    assert GAME.unknown(state) == ["2 card(s) in the hand of player 2",
                                  "the order of the draw pile (4 cards)",
                                  "3 face-down task(s) of the task pile"]
    assert GAME.current_player(state) == CHANCE and state.drawer == 0
    full = GAME.determinize(state, random.Random(3))
    assert GAME.unknown(full) == [] and full.drawer is None and len(full.hands[0]) == 5


@pytest.mark.parametrize("extra, words", [
    ({"to_draw": 3}, "player 3 does not exist"),
    ({"to_draw": 1, "hands": [HAND, ["G1", "P2"]], "draw_pile": ["G1", "O3", "O3", "V7"]},
     "draw is part of the play"),
    ({"task_pile": 70}, "only"),
])
def test_bad_unknowns_are_one_line_errors(extra, words):
    with pytest.raises(BadInput, match=words):
        GAME.read(R, crowded(**extra), "crowded")


@pytest.mark.parametrize("setup", [
    {"players": 3, "difficulty": "normal"},
    {"players": 2, "difficulty": "beginner", "high_speed": True},
    {"players": 4, "difficulty": "expert", "open_hands": True},
], ids=["three", "high-speed", "open-hands"])
def test_observations_hide_what_a_player_may_not_see(setup):
    """Along seeded random games: other hands are '?' (unless open hands), the draw pile
    is a count and the task pile a number; the observation round-trips as a file;
    determinizing it gives back the same observation; the player to act has the same
    moves on what they see."""
    rng = random.Random(11)
    for seed in range(3):
        deal, _ = GAME.streams(seed)
        state = GAME.new_game(R, setup, deal)
        while not GAME.is_terminal(state):
            for p in range(state.players):
                seen = GAME.observation(state, p)
                text = json.dumps(GAME.write(seen), sort_keys=True)
                for q, hand in enumerate(seen.hands):
                    hidden = q != p and not setup.get("open_hands")
                    assert hand == ([None] * len(state.hands[q]) if hidden else state.hands[q])
                data = GAME.write(seen)
                face_down = state.tasks_left() - len(state.open_tasks)
                assert "draw_pile" not in data and data["task_pile"] == (face_down or [])
                again = GAME.read(R, json.loads(text), "observation")
                assert json.dumps(GAME.write(again), sort_keys=True) == text
                full = GAME.determinize(seen, rng)
                assert GAME.unknown(full) == []
                assert json.dumps(GAME.write(GAME.observation(full, p)), sort_keys=True) == text
                if GAME.current_player(state) == p:
                    assert GAME.legal_actions(seen) == GAME.legal_actions(state)
            state = GAME.apply_action(state, rng.choice(GAME.legal_actions(state)))


def test_high_speed_initiative_reaches_every_play_and_passes_on():
    data = {"players": 3, "piles": ["G3", "G5", "G7", "G1"], "turn": 2,
            "hands": [["G2", "O3"], ["P6"], ["V2", "O5"]], "open_tasks": ["a run of 4"],
            "variant": {"high_speed": True}}

    def read(data):  # the draw pile used up
        return GAME.read(R, data, "high speed").but(draw_pile=[], draw_count=0)

    state = read(data)
    assert GAME.current_player(state) == 1
    legal = GAME.legal_actions(state)
    assert [GAME.action_text(state, a) for a in legal] == ["p2:pass"]  # P6 fits nowhere
    # passing round the table reaches every play the rules allow, each from its player
    reached, s = [], state
    for _ in range(state.players):
        actions = GAME.legal_actions(s)
        reached += [a for a in actions if isinstance(a, Play)]
        assert all(a.player == GAME.current_player(s) for a in actions)
        s = GAME.apply_action(s, Pass(s.turn))
    assert sorted(reached, key=repr) == sorted(state.legal_plays(), key=repr)
    assert s.turn == state.turn
    # only the player with the initiative acts; after a play the next player has it
    with pytest.raises(BadInput, match="does not act now"):
        GAME.apply_action(state, parse_play(state, "p1:G2>1"))
    played = GAME.apply_action(GAME.apply_action(state, Pass(1)), parse_play(state, "p3:O5>2"))
    assert played.turn == 0
    # nobody can play: lost, whoever has the initiative
    stuck = read({**data, "hands": [["P2"], ["P6"], []]})
    assert GAME.current_player(stuck) == TERMINAL and GAME.status(stuck) == "lost"
    assert GAME.returns(stuck) == [0.0, 0.0, 0.0]


def test_apply_action_returns_a_new_state_and_refuses_without_change():
    state = GAME.read(R, crowded(), "crowded")
    before = json.dumps(GAME.write(state))
    after = GAME.apply_action(state, parse_play(state, "P4>2"))
    assert json.dumps(GAME.write(state)) == before and after is not state
    for bad in (parse_play(state, "p2:P4>2"), Play(0, R.parse_card("G2"), 2), Pass(0),
                Draw(R.parse_card("G1"))):
        with pytest.raises(BadInput):
            GAME.apply_action(state, bad)
        assert json.dumps(GAME.write(state)) == before


@pytest.mark.slow
def test_simulate_replays_the_figures_of_seed_0():
    """The games of seed 0 are dealt and played as the published tables were: the
    same wins, plays and tasks fulfilled. Sums and comparisons read as worded (the
    default); with the "present" reading the games replay the figures first published
    under it (the hint won 11 of the 20 solo games, the random policy fulfilled 8.05
    tasks a game). With open hands (Kids) the hint counts the others' cards over every
    card it does not hold, as without (counted over the draw pile alone, it won 3 and 2 of
    these games, 44.0 and 45.83 plays)."""
    setups = GAME.setups(R, players="1", difficulty="beginner")
    result = simulate(GAME, R, 20, setups, [["hint"], ["random"]], seed=0)
    figures = [(c.seats, c.win_rate.successes, c.measures) for c in result.cells]
    assert figures == [
        (["hint"], 12, {"tasks": 12, "mean_plays": 35.55, "mean_fulfilled": 11.0}),
        (["random"], 1, {"tasks": 12, "mean_plays": 47.9, "mean_fulfilled": 8.15})]
    present = load_rules(comparisons="present")
    result = simulate(GAME, present, 20, setups, [["hint"], ["random"]], seed=0)
    figures = [(c.seats, c.win_rate.successes, c.measures) for c in result.cells]
    assert figures == [
        (["hint"], 11, {"tasks": 12, "mean_plays": 37.3, "mean_fulfilled": 11.0}),
        (["random"], 1, {"tasks": 12, "mean_plays": 47.9, "mean_fulfilled": 8.05})]
    open_hands = GAME.setups(R, players="2,3", difficulty="normal", open_hands_variant=True)
    result = simulate(GAME, R, 6, open_hands, [["hint"], ["random"]], seed=0)
    figures = [(c.setup["players"], c.seats[0], c.win_rate.successes, c.measures["mean_plays"],
                c.measures["mean_fulfilled"]) for c in result.cells]
    assert figures == [(2, "hint", 4, 40.83, 15.17), (2, "random", 0, 37.0, 6.5),
                       (3, "hint", 4, 39.0, 15.67), (3, "random", 0, 50.67, 9.33)]


def test_high_speed_games_end_and_passes_count_as_actions():
    setups = GAME.setups(R, players="3", difficulty="beginner", high_speed=True)
    result = simulate(GAME, R, 4, setups, [["hint"], ["random"]], seed=1)
    for cell in result.cells:
        assert cell.unfinished == 0 and cell.games == 4
        assert cell.actions.mean >= cell.measures["mean_plays"]
    assert {r.seats[0] for r in result.records} == {"hint", "random"}
