"""Topito's game layer (models/topito/table.py, game.py) against the rulebook: photo time
after a move (every met card at once, seat order from the mover, refills and chains),
the 7-card win with ties, the deck running out, draws from a face-down deck as chance
events (checked against a brute-force count), positions with unknown cards, and the
policies deciding on what their player sees."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from models.topito.game import GAME
from models.topito.positions import read_position, write_position
from models.topito.rules import Card, GameRules, load_game_rules, parse_card
from models.topito.state import GameState, Move, new_game
from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL

BUILT_IN = load_game_rules()
R = BUILT_IN.rules
B = {name: i for i, name in enumerate(R.characters)}
P = {name: i for i, name in enumerate(R.podiums)}


def cards(*texts: str) -> list[Card]:
    return [parse_card(R, t) for t in texts]


def deck_of(*texts: str) -> GameRules:
    """Rules with a deck of exactly these cards (repeats allowed)."""
    return GameRules(R, tuple(cards(*texts)))


def texts(items) -> list[str]:
    return ["?" if c is None else c.text(R) for c in items]


def put(block: str, podium: str) -> Move:
    return Move(B[block], None, P[podium])


# -------------------------------------------------------------------- photo time

# red holds Bear < Cat < Duck; putting Elephant on top meets every card below that
# mentions Elephant, "rank 3: Duck" (a block is now above Duck) and nothing else
CASCADE_HANDS = [
    ["Elephant on Duck", "Fox on Owl", "Pig on Whale", "Mouse on Owl"],
    ["order Elephant > Duck > Cat", "podium red: Bear Duck Elephant", "Whale on Pig",
     "Fox on Mouse"],
]
CASCADE_DECK = ["rank 3: Duck", "order Elephant > Cat > Bear", "Owl on Fox", "Bear on Owl",
                "podium red: Cat Duck Elephant", "Cat on Fox", "Whale on Mouse"]
CASCADE_RULES = deck_of(*[c for h in CASCADE_HANDS for c in h], *CASCADE_DECK)


def cascade(deck) -> GameState:
    return read_position(CASCADE_RULES, {
        "podiums": {"red": ["Bear", "Cat", "Duck"]}, "hands": CASCADE_HANDS,
        "played": [[], []], "deck": deck, "on_turn": 1})


def test_photo_time_plays_met_cards_refills_and_chains_in_seat_order():
    after = GAME.apply_action(cascade(CASCADE_DECK), put("Elephant", "red"))
    # the mover first: Elephant on Duck met; the refill "rank 3: Duck" is met too, and
    # the next refill as well; "Owl on Fox" is not, so the mover holds 4 again
    assert texts(after.played[0]) == ["Elephant on Duck", "rank 3: Duck",
                                      "order Elephant > Cat > Bear"]
    assert texts(after.hands[0]) == ["Fox on Owl", "Pig on Whale", "Mouse on Owl",
                                     "Owl on Fox"]
    # then seat 2: both met cards at once, two drawn, one of them met, one more drawn
    assert texts(after.played[1]) == ["order Elephant > Duck > Cat",
                                      "podium red: Bear Duck Elephant",
                                      "podium red: Cat Duck Elephant"]
    assert texts(after.hands[1]) == ["Whale on Pig", "Fox on Mouse", "Bear on Owl",
                                     "Cat on Fox"]
    assert texts(after.deck) == ["Whale on Mouse"] and after.deck_count == 1
    assert GAME.current_player(after) == 1 and after.moves_made == 1
    assert after.photo_queue == () and not GAME.is_terminal(after)


def test_a_face_down_deck_draws_by_chance_and_reaches_the_same_table():
    dealt = GAME.apply_action(cascade(CASCADE_DECK), put("Elephant", "red"))
    state = GAME.apply_action(cascade(len(CASCADE_DECK)), put("Elephant", "red"))
    drawn = []
    for card in CASCADE_DECK[:6]:
        assert GAME.current_player(state) == CHANCE
        # the drawing player is the one whose photo time is going on
        drawn.append(state.photo_queue[0])
        state = GAME.apply_action(state, parse_card(R, card))
    assert drawn == [0, 0, 0, 1, 1, 1]
    assert GAME.current_player(state) == 1
    assert state.hands == dealt.hands and state.played == dealt.played
    assert state.deck is None and state.deck_count == 1


def test_moves_report_the_photo_time_a_move_causes():
    state = cascade(CASCADE_DECK)
    elephant = next(m for m in GAME.legal_actions(state) if m == put("Elephant", "red"))
    info = GAME.action_json(state, elephant)
    assert info["text"] == info["move"] == "put Elephant on red"
    assert info["photo_time"] == {
        "seat 1": ["Elephant on Duck", "rank 3: Duck", "order Elephant > Cat > Bear"],
        "seat 2": ["order Elephant > Duck > Cat", "podium red: Bear Duck Elephant",
                   "podium red: Cat Duck Elephant"]}
    assert "photo_time" not in GAME.action_json(state, put("Fox", "blue"))


# -------------------------------------------------------------------- the end

WIN_RULES = deck_of("Cat on Bear", "Bear on Cat", "rank 1: Bear", "Duck on Cat",
                    *[f"rank {k}: {n}" for n in ("Fox", "Owl", "Pig") for k in (1, 2, 3, 4)],
                    "Whale on Mouse", "Mouse on Whale", "Owl on Fox", "Fox on Owl",
                    "Pig on Owl", "Owl on Pig")
SIX = [[f"rank {k}: Fox" for k in (1, 2, 3, 4)] + ["rank 1: Owl", "rank 2: Owl"],
       ["rank 3: Owl", "rank 4: Owl"] + [f"rank {k}: Pig" for k in (1, 2, 3, 4)]]


def six_each(hands, deck) -> GameState:
    return read_position(WIN_RULES, {"podiums": {"red": ["Bear"]}, "hands": hands,
                                     "played": SIX, "deck": deck, "on_turn": 2})


def test_players_reaching_seven_at_the_same_photo_time_all_win():
    state = six_each([["Cat on Bear", "Whale on Mouse"], ["rank 1: Bear", "Owl on Fox"]],
                     ["Mouse on Whale", "Fox on Owl", "Pig on Owl", "Owl on Pig",
                      "Bear on Cat", "Duck on Cat"])
    end = GAME.apply_action(state, put("Cat", "red"))
    assert GAME.is_terminal(end) and GAME.legal_actions(end) == []
    assert [len(p) for p in end.played] == [7, 7]
    assert GAME.returns(end) == [1.0, 1.0]
    assert GAME.status(end) == "won by seats 1 and 2"
    # the same move with only the mover's card: the mover alone wins
    alone = six_each([["Whale on Mouse", "Owl on Fox"], ["rank 1: Bear", "Cat on Bear"]],
                     ["Mouse on Whale", "Fox on Owl", "Pig on Owl", "Owl on Pig",
                      "Bear on Cat", "Duck on Cat"])
    end = GAME.apply_action(replace(alone, turn=0), put("Cat", "red"))
    assert GAME.returns(end) == [0.0, 1.0] and GAME.status(end) == "won by seat 2"


def table(data: dict) -> GameState:
    """A position whose deck file is exactly the cards it names."""
    named = [c for h in data["hands"] for c in h] + [c for p in data["played"] for c in p]
    return read_position(deck_of(*named, *data["deck"]), data)


def test_an_empty_deck_refills_nothing_and_the_game_ends_when_nobody_can_win():
    base = {"podiums": {"red": ["Bear"]}, "on_turn": 1, "deck": ["Duck on Cat"],
            "hands": [["Cat on Bear", "Whale on Mouse", "Mouse on Whale", "Owl on Fox"],
                      ["Fox on Owl", "Pig on Owl", "Owl on Pig", "Bear on Cat"]]}
    # seat 2 has 5 played: with 4 in hand it can still reach 7 when the deck is empty
    state = table({**base, "played": [
        ["rank 1: Fox"], ["rank 2: Fox", "rank 3: Fox", "rank 4: Fox", "rank 1: Owl",
                          "rank 2: Owl"]]})
    after = GAME.apply_action(state, put("Cat", "red"))
    assert texts(after.hands[0]) == ["Whale on Mouse", "Mouse on Whale", "Owl on Fox",
                                     "Duck on Cat"]  # the last card
    assert after.deck_count == 0 and not GAME.is_terminal(after)
    # seat 2 plays Bear on Cat: nothing to refill, 3 cards stay in hand
    later = GAME.apply_action(after, Move(B["Cat"], P["red"], P["blue"]))
    later = GAME.apply_action(later, put("Pig", "yellow"))
    later = GAME.apply_action(later, Move(B["Bear"], P["red"], P["blue"]))
    assert len(later.played[1]) == 6 and len(later.hands[1]) == 3
    assert not GAME.is_terminal(later)
    # with 2 played and 4 in hand, seat 2 cannot reach 7 once the deck is empty, nor
    # can seat 1 (2 + 4): the move that empties the deck ends the game in a draw
    short = table({**base, "played": [["rank 1: Fox"], ["rank 2: Fox", "rank 3: Fox"]]})
    assert not GAME.is_terminal(short)
    end = GAME.apply_action(short, put("Cat", "red"))
    assert GAME.is_terminal(end) and GAME.returns(end) == [0.0, 0.0]
    assert GAME.status(end) == "draw: deck ran out" and end.winners() == []


def test_the_move_limit_ends_a_game_in_a_draw():
    state = new_game(BUILT_IN, 2, random.Random(1))
    near = replace(state, moves_made=BUILT_IN.move_limit - 1)
    move = next(m for m in GAME.legal_actions(near)
                if not GAME.apply_action(near, m).played[0])
    end = GAME.apply_action(near, move)
    assert GAME.is_terminal(end) and GAME.status(end) == "draw: move limit"
    assert GAME.returns(end) == [0.0, 0.0]


# -------------------------------------------------------------------- chance

def test_draw_probabilities_equal_a_brute_force_count():
    """Two cards drawn in a row from a face-down deck while another hand is unknown:
    the product of the chance events' probabilities equals the share of all the
    arrangements of the unseen cards (into the unknown hand and the deck's order) that
    put those two cards on top of the deck."""
    rules = deck_of("Cat on Bear", "Duck on Owl", "Duck on Owl", "Duck on Owl",
                    "Fox on Pig", "Fox on Pig", "rank 1: Whale", "Mouse on Elephant",
                    "Bear on Cat", "Owl on Fox")
    state = read_position(rules, {
        "podiums": {"red": ["Bear", "Cat"]},
        "hands": [["Mouse on Elephant", "Bear on Cat"], ["?", "?"]],
        "played": [["Cat on Bear"], []], "deck": 5, "on_turn": 2,
        "photo_time": {"seats": [1], "draws": 2}})
    unseen = state.unseen()
    assert Counter(texts(unseen)) == {"Duck on Owl": 3, "Fox on Pig": 2,
                                      "rank 1: Whale": 1, "Owl on Fox": 1}
    arrangements = list(itertools.permutations(unseen))  # 2 hand cards, then the deck
    tops = Counter((a[2], a[3]) for a in arrangements)
    for first, p in GAME.chance_outcomes(state):
        after = GAME.apply_action(state, first)
        assert GAME.current_player(after) == CHANCE  # the second card
        for second, q in GAME.chance_outcomes(after):
            exact = Fraction(tops[(first, second)], len(arrangements))
            assert Fraction(p * q).limit_denominator(10_000) == exact
    assert GAME.chance_outcomes(state)[0] == (parse_card(R, "Duck on Owl"), 3 / 7)


def test_moves_at_a_chance_event(tmp_path):
    from tests.cli_helpers import game_runner, run_json

    path = tmp_path / "draw.json"
    path.write_text(json.dumps({
        "podiums": {"red": ["Bear", "Cat"]},
        "hands": [["Mouse on Elephant", "Bear on Cat", "Duck on Owl"], ["?"] * 4],
        "played": [["Cat on Whale"], []], "deck": 40, "on_turn": 2,
        "photo_time": {"seats": [1], "draws": 1}}))
    run = game_runner("topito")
    out = run_json(run, "moves", str(path))
    # 48 cards, 4 known to seat 1: any of the other 44 is drawn with the same chance
    assert out["to_move"] == "chance" and len(out["chance_outcomes"]) == 44
    assert {o["probability"] for o in out["chance_outcomes"]} == {round(1 / 44, 6)}
    after = run_json(run, "moves", str(path), "--draw", "rank 2: Fox")
    assert after["chance"] == "draw rank 2: Fox" and after["to_move"] == 2
    # Bear and Cat lift onto 2 podiums each, 7 blocks are put onto 3
    assert after["count"] == 2 * 2 + 7 * 3
    bad = run("moves", str(path), "--draw", "Duck on Owl")  # in seat 1's hand
    assert bad.exit_code == 2 and "not among the unseen cards" in bad.output


# -------------------------------------------------------------------- information

def test_unknown_hands_round_trip_and_are_said():
    data = {"game": "topito", "podiums": {"red": ["Bear"], "yellow": [], "blue": []},
            "last_move": None,
            "hands": [["Duck on Owl", "rank 2: Fox", "Pig on Cat", "rank 1: Cat"],
                      ["?", "?", "?", "?"], ["?", "?", "?"]],
            "played": [["Mouse on Elephant"], [], ["Cat on Whale"]],
            "deck": 35, "on_turn": 3, "moves_made": 9}
    state = read_position(BUILT_IN, data)
    assert write_position(state) == data
    assert GAME.unknown(state) == ["4 hand card(s) of seat 2", "3 hand card(s) of seat 3",
                                   "the order of the deck (35 cards)"]
    assert len(state.unseen()) == 48 - 4 - 2 == 35 + 7
    full = GAME.determinize(state, random.Random(3))
    assert GAME.unknown(full) == [] and full.deck_count == 35
    assert write_position(GAME.observation(full, 0)) == data
    # every card of the deck file is somewhere exactly once
    placed = [c for h in full.hands for c in h] + [c for p in full.played for c in p]
    assert Counter(placed + list(full.deck)) == Counter(BUILT_IN.deck)
    # no unknown card was made one the stacks meet now (it would have been played)
    assert not any(c.met(full.blocks.stacks) for h in full.hands[1:] for c in h)


def test_observation_hides_other_hands_and_the_deck_order():
    state = new_game(BUILT_IN, 3, random.Random(5))
    seen = GAME.observation(state, 1)
    assert seen.hands[1] == state.hands[1]
    assert seen.hands[0] == seen.hands[2] == (None,) * 4
    assert seen.deck is None and seen.deck_count == 48 - 12
    assert write_position(seen)["hands"][0] == ["?"] * 4


@pytest.mark.parametrize("change, words", [
    ({"deck": 12}, ["do not add up", "48 cards"]),
    ({"deck": ["Duck on Owl"]}, ["placed nowhere"]),
    ({"played": [[]]}, ["1 piles for 2 players"]),
    ({"hands": [["?"]] * 6, "played": [[]] * 6}, ["at most 5 players"]),
    ({"photo_time": {"seats": [1], "draws": 1}}, ["cannot draw 1"]),
    ({"photo_time": {"seats": [], "draws": 1}}, ["each once"]),
    ({"hands": [], "played": []}, ["'played' needs the players' hands"]),
])
def test_bad_game_positions(change, words):
    data = {"podiums": {"red": ["Bear"]},
            "hands": [["Duck on Owl", "rank 2: Fox", "Pig on Cat", "rank 1: Cat"], ["?"] * 4],
            "played": [[], []], "on_turn": 1}
    data.update(change)
    with pytest.raises(BadInput) as err:
        read_position(BUILT_IN, data)
    assert "\n" not in str(err.value)
    for w in words:
        assert w in str(err.value)


def test_a_position_of_the_blocks_alone_is_a_game_position_too():
    state = read_position(BUILT_IN, {"podiums": {"red": ["Bear", "Cat"]}})
    assert GAME.players(state) == 1 and GAME.current_player(state) == 0
    assert GAME.unknown(state) == [] and not GAME.is_terminal(state)
    after = GAME.apply_action(state, put("Duck", "blue"))
    assert GAME.current_player(after) == 0 and write_position(after)["moves_made"] == 1
    assert "hands" not in write_position(after)


def test_illegal_actions_name_why():
    state = cascade(CASCADE_DECK)
    with pytest.raises(BadInput, match="not out of play"):
        GAME.apply_action(state, put("Bear", "blue"))
    with pytest.raises(BadInput, match="no card is drawn now"):
        GAME.apply_action(state, parse_card(R, "Cat on Fox"))


def test_parse_action_reads_short_forms():
    state = read_position(BUILT_IN, {"podiums": {"red": ["Bear", "Cat"]}})
    want = Move(B["Bear"], P["red"], P["blue"])
    for text in ("move Bear+Cat red -> blue", "move Bear red -> blue", "Bear -> blue",
                 "bear to blue"):
        assert GAME.parse_action(state, text) == want
    assert GAME.parse_action(state, "put Duck on yellow") == put("Duck", "yellow")
    with pytest.raises(BadInput, match="not a move"):
        GAME.parse_action(state, "jump")


# -------------------------------------------------------------------- policies

def test_greedy_meets_an_own_card_when_a_move_can():
    state = cascade(CASCADE_DECK)
    policy = GAME.policy(CASCADE_RULES, "greedy", {})
    view = GAME.observation(state, 0)
    assert policy.choose(view, GAME.legal_actions(state), random.Random(0)) == \
        put("Elephant", "red")


def test_greedy_decides_on_its_own_cards_only():
    """The same choice whatever the other hands and the deck's order (it is handed the
    observation, and the observation of two such tables is the same)."""
    policy = GAME.policy(BUILT_IN, "greedy", {})
    state = new_game(BUILT_IN, 2, random.Random(11))
    for _ in range(6):
        state = GAME.apply_action(state, GAME.legal_actions(state)[3])
    view = GAME.observation(state, state.turn)
    choices = set()
    for seed in range(4):
        other = GAME.determinize(view, random.Random(seed))
        seen = GAME.observation(other, other.turn)
        assert write_position(seen) == write_position(view)
        choices.add(policy.choose(seen, GAME.legal_actions(other), random.Random(0)))
    assert len(choices) == 1


def test_greedy_beats_random():
    from solver.simulate import simulate

    res = simulate(GAME, BUILT_IN, 60, GAME.setups(BUILT_IN), [["greedy", "random"]],
                   seed=0, rotate=True)
    rates = res.cells[0].win_rate_by_policy
    assert rates["greedy"].rate > 0.8 > 0.2 > rates["random"].rate


def test_new_game_deals_four_each_from_a_shuffled_deck():
    state = new_game(BUILT_IN, 5, random.Random(2))
    assert [len(h) for h in state.hands] == [4] * 5 and state.deck_count == 28
    assert Counter([c for h in state.hands for c in h] + list(state.deck)) == \
        Counter(BUILT_IN.deck)
    assert GAME.current_player(state) == 0 and state.blocks.stacks == ((), (), ())
    with pytest.raises(BadInput, match="2 to 5 players"):
        GAME.setups(BUILT_IN, players="6")
    assert GAME.setups(BUILT_IN, players="2,4") == [{"players": 2}, {"players": 4}]
    assert GAME.current_player(replace(state, moves_made=10 ** 6)) == TERMINAL
