"""Topito rules engine and cards, checked against the rulebook
(/work/shared/rulebooks/topito.en.txt) on positions built by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.topito.positions import read_position, write_position
from models.topito.rules import (
    ORDER_READINGS,
    Card,
    Goal,
    load_deck,
    load_game_rules,
    load_rules,
    parse_card,
    rules_from_dict,
    with_order_cards,
)
from models.topito.state import Move, State
from solver.errors import BadInput

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "topito"
R = load_rules()
GAME_RULES = load_game_rules()
B = {name: i for i, name in enumerate(R.characters)}
P = {name: i for i, name in enumerate(R.podiums)}


def state(red=(), yellow=(), blue=(), last: Move | None = None) -> State:
    return State(R, tuple(tuple(B[n] for n in s) for s in (red, yellow, blue)), last)


def names(stacks) -> list[list[str]]:
    return [[R.characters[b] for b in s] for s in stacks]


def card(text: str) -> Card:
    return parse_card(R, text)


# ---------------------------------------------------------------- moves

def test_moving_a_block_carries_the_blocks_above_it():
    s = state(red=("Bear", "Cat", "Duck"), blue=("Owl",))
    after = s.apply_action(Move(B["Cat"], P["red"], P["blue"]))
    assert names(after.stacks) == [["Bear"], [], ["Owl", "Cat", "Duck"]]
    # the whole stack onto an empty podium
    after2 = after.apply_action(Move(B["Owl"], P["blue"], P["yellow"]))
    assert names(after2.stacks) == [["Bear"], ["Owl", "Cat", "Duck"], []]


def test_put_out_of_play_block_on_stack_or_empty_podium():
    s = state(red=("Bear",))
    assert names(s.apply_action(Move(B["Cat"], None, P["red"])).stacks)[0] == ["Bear", "Cat"]
    assert names(s.apply_action(Move(B["Cat"], None, P["blue"])).stacks)[2] == ["Cat"]
    # blocks never leave play: there is no move back out
    assert all(m.target is not None for m in s.legal_actions())


def test_no_reversing_the_previous_players_last_move():
    s = state(red=("Bear",), blue=("Owl", "Cat", "Duck"))
    after = s.apply_action(Move(B["Cat"], P["blue"], P["red"]))  # Cat+Duck -> red
    back = Move(B["Cat"], P["red"], P["blue"])
    assert back not in after.legal_actions()
    with pytest.raises(BadInput, match="reverse"):
        after.apply_action(back)
    # the same block to another podium, or another block back, stays legal
    assert Move(B["Cat"], P["red"], P["yellow"]) in after.legal_actions()
    assert Move(B["Duck"], P["red"], P["blue"]) in after.legal_actions()
    # one move later the ban is gone
    later = after.apply_action(Move(B["Whale"], None, P["yellow"]))
    assert back in later.legal_actions()


def test_a_put_bans_nothing():
    s = state(red=("Bear",)).apply_action(Move(B["Cat"], None, P["red"]))
    assert s.ban is None
    assert len(s.legal_actions()) == len(state(red=("Bear", "Cat")).legal_actions())


def test_legal_move_count_matches_the_rules():
    # 2 in play on red, 1 on blue: lifts = 3 blocks x 2 targets, puts = 6 out x 3 podiums
    s = state(red=("Bear", "Cat"), blue=("Owl",))
    assert len(s.legal_actions()) == 3 * 2 + 6 * 3
    # a block cannot be moved onto its own stack
    with pytest.raises(BadInput, match="already on red"):
        s.apply_action(Move(B["Cat"], P["red"], P["red"]))
    with pytest.raises(BadInput, match="not out of play"):
        s.apply_action(Move(B["Cat"], None, P["blue"]))


# ---------------------------------------------------------------- cards

def test_podium_card_any_order_others_between():
    c = card("podium red: Duck Bear Cat")
    assert c.met(state(red=("Cat", "Owl", "Bear", "Pig", "Duck")).stacks)
    assert not c.met(state(red=("Cat", "Bear"), blue=("Duck",)).stacks)
    assert not c.met(state(blue=("Cat", "Bear", "Duck")).stacks)


def test_adjacent_pair_refuses_a_block_in_between():
    c = card("Cat on Bear")
    assert c.met(state(yellow=("Owl", "Bear", "Cat", "Duck")).stacks)
    assert not c.met(state(yellow=("Bear", "Owl", "Cat")).stacks)
    assert not c.met(state(yellow=("Cat", "Bear")).stacks)  # wrong way round
    assert not c.met(state(yellow=("Bear",), red=("Cat",)).stacks)


def test_order_card_bottom_to_top_others_between():
    c = card("order Bear < Cat < Duck")
    assert c.met(state(blue=("Bear", "Owl", "Cat", "Pig", "Duck")).stacks)
    assert c.met(state(blue=("Whale", "Bear", "Cat", "Duck")).stacks)
    assert not c.met(state(blue=("Cat", "Bear", "Duck")).stacks)
    assert not c.met(state(blue=("Bear", "Cat"), red=("Duck",)).stacks)


def test_rank_needs_a_block_above():
    c = card("rank 3: Duck")
    assert not c.met(state(red=("Bear", "Cat", "Duck")).stacks)  # nothing on top
    assert c.met(state(red=("Bear", "Cat", "Duck", "Owl")).stacks)
    assert not c.met(state(red=("Bear", "Duck", "Cat", "Owl")).stacks)  # rank 2
    assert card("rank 1: Bear").met(state(blue=("Bear", "Cat")).stacks)
    assert not card("rank 1: Bear").met(state(blue=("Bear",)).stacks)


def test_goal_any_and_all():
    a, b = card("Cat on Bear"), card("rank 1: Owl")
    s = state(red=("Bear", "Cat"), blue=("Owl",)).stacks
    assert Goal((a, b), "any").met(s) and not Goal((a, b), "all").met(s)


@pytest.mark.parametrize("text", ["podium yellow: Bear Cat Duck", "Cat on Bear",
                                  "order Pig > Mouse > Whale", "rank 4: Owl"])
def test_card_text_round_trip(text):
    assert card(text).text(R) == text
    assert parse_card(R, card(text).text(R)) == card(text)


def test_card_text_is_forgiving_about_case_prefixes_and_spaces():
    assert card("PODIUM Red:  duck, bear  cat") == card("podium red: Bear Cat Duck")
    assert card("ele on wh") == card("Elephant on Whale")
    # as printed, first named on top (the default reading)
    assert card("order bear, cat duck") == card("order Bear > Cat > Duck")
    assert card("order: bear<cat<duck") == card("order Bear < Cat < Duck")


# ---------------------------------------------------------------- reading order cards

BOTTOM_UP = with_order_cards(R, "bottom-up")


def test_an_order_card_as_printed_follows_the_reading():
    printed = "order Elephant Whale Mouse"
    top_down, bottom_up = parse_card(R, printed), parse_card(BOTTOM_UP, printed)
    assert R.order_cards == "top-down"
    assert top_down.blocks == (B["Mouse"], B["Whale"], B["Elephant"])  # bottom to top
    assert bottom_up.blocks == (B["Elephant"], B["Whale"], B["Mouse"])
    # each is written with the sign that says which way is up, in the reading's order
    assert top_down.text(R) == "order Elephant > Whale > Mouse"
    assert bottom_up.text(BOTTOM_UP) == "order Elephant < Whale < Mouse"
    assert top_down.text(BOTTOM_UP) == "order Mouse < Whale < Elephant"


@pytest.mark.parametrize("reading", ORDER_READINGS)
def test_order_signs_mean_the_same_under_either_reading(reading):
    rules = with_order_cards(R, reading)
    up = parse_card(rules, "order Bear < Cat < Duck")
    assert up.blocks == (B["Bear"], B["Cat"], B["Duck"])
    assert parse_card(rules, "order Duck > Cat > Bear") == up
    assert parse_card(rules, up.text(rules)) == up
    s = state(red=("Bear", "Owl", "Cat", "Duck")).stacks
    assert up.met(s) and not parse_card(rules, "order Bear > Cat > Duck").met(s)


def test_unknown_reading_is_one_line():
    with pytest.raises(BadInput, match="unknown reading 'sideways'"):
        load_rules(order_cards="sideways")


@pytest.mark.parametrize("text, words", [
    ("podium green: Bear Cat Duck", ["unknown podium 'green'"]),
    ("podium red: Bear Cat", ["needs 3 characters"]),
    ("podium red: Bear Cat Bear", ["named twice"]),
    ("Zebra on Cat", ["unknown character 'Zebra'"]),
    ("Cat on Cat", ["cannot be on itself"]),
    ("rank 9: Cat", ["rank must be 1 to 8"]),
    ("rank x: Cat", ["not a number"]),
    ("order Bear < Cat", ["needs 3 characters"]),
    ("order Bear < Cat > Duck", ["'<' (bottom to top) or '>' (top to bottom)"]),
    ("hello world", ["not a card"]),
    ("x on Cat", ["unknown character"]),
])
def test_card_parse_errors_are_one_line(text, words):
    with pytest.raises(BadInput) as err:
        parse_card(R, text)
    msg = str(err.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg


def test_ambiguous_prefix():
    rules = rules_from_dict({"podiums": [{"name": "red"}, {"name": "blue"}],
                             "characters": [{"name": "Ada"}, {"name": "Adam"}, {"name": "Bo"}]})
    assert rules.block("ada") == 0
    with pytest.raises(BadInput, match="ambiguous"):
        rules.block("ad")


# ---------------------------------------------------------------- deck

def test_deck_composition():
    deck = load_deck(R)
    assert len(deck) == 48 and len(set(deck)) == 48
    kinds = {k: [c for c in deck if c.kind == k] for k in ("podium", "pair", "order", "rank")}
    assert {k: len(v) for k, v in kinds.items()} == {"podium": 12, "pair": 12, "order": 12,
                                                      "rank": 12}
    assert sorted(c.podium for c in kinds["podium"]) == [0] * 4 + [1] * 4 + [2] * 4
    assert sorted(c.rank for c in kinds["rank"]) == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    slots = [b for c in deck for b in c.blocks]
    assert all(slots.count(b) == 12 for b in range(9))


# ---------------------------------------------------------------- positions

GOOD = {"game": "topito", "podiums": {"red": ["Bear", "Cat"], "yellow": [], "blue": ["Owl"]},
        "last_move": {"block": "Cat", "from": "blue", "to": "red"},
        "hands": [["Cat on Bear", "rank 1: Owl"]], "on_turn": 1}


def test_position_round_trip():
    pos = read_position(GAME_RULES, GOOD)
    assert names(pos.blocks.stacks) == [["Bear", "Cat"], [], ["Owl"]]
    assert pos.blocks.ban == (B["Cat"], P["blue"])
    # the file's fields come back, with what a game adds: nothing played yet, the deck
    # face down (all 48 cards: neither hand card is in the deck file), no move made
    assert write_position(pos) == {**GOOD, "played": [[]], "deck": 48, "moves_made": 0}
    assert write_position(read_position(GAME_RULES, write_position(pos))) == \
        write_position(pos)


@pytest.mark.parametrize("change, words", [
    ({"podiums": {"red": ["Bear", "Cat"], "blue": ["Cat"]}}, ["'Cat' is placed twice"]),
    ({"podiums": {"red": ["Bear", "Zebra"]}}, ["unknown character 'Zebra'"]),
    ({"podiums": {"green": ["Bear"]}}, ["unknown podium 'green'"]),
    ({"podiums": {"red": "Bear"}}, ["expected a list"]),
    ({"podiums": {"red": ["Bear"]}, "last_move": {"block": "Cat", "from": "out", "to": "red"}},
     ["Cat was moved to red but is not there"]),
    ({"podiums": {"red": ["Cat", "Bear"]}, "last_move": {"block": "Cat", "from": "out",
                                                          "to": "red"}}, ["must be on top"]),
    ({"last_move": {"block": "Cat", "from": "red", "to": "red"}}, ["same podium"]),
    ({"hands": [["Cat on Bear"] * 5]}, ["at most 4 cards"]),
    ({"hands": [["Cat over Bear"]]}, ["not a card"]),
    ({"on_turn": 4}, ["seat 4 has no hand (seats 1 to 1)"]),
    ({"podium": {}}, ["unknown field 'podium'"]),
    ({"game": "hippo"}, ["not a topito position"]),
])
def test_bad_positions(change, words):
    data = json.loads(json.dumps(GOOD))
    data.update(change)
    with pytest.raises(BadInput) as err:
        read_position(GAME_RULES, data)
    msg = str(err.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg


# the older format: the player on turn under "turn" and the players in photo time under
# "players", both counted from 0
OLD_MIDGAME = {
    "game": "topito", "podiums": {"red": ["Elephant", "Bear", "Cat"], "yellow": ["Duck"]},
    "last_move": {"block": "Bear", "from": "blue", "to": "red"},
    "hands": [["Duck on Owl", "?", "?", "?"], ["?", "?", "?"], ["?", "?", "?", "?"]],
    "played": [[], ["Pig on Cat"], []], "deck": 36, "turn": 2, "moves_made": 7,
    "photo_time": {"players": [1, 2], "draws": 1}}


def test_an_old_format_file_reads_the_same_and_is_written_in_the_new_one():
    old = read_position(GAME_RULES, OLD_MIDGAME)
    assert old.turn == 2 and old.photo_queue == (1, 2)  # inside, players count from 0
    new = {k: v for k, v in OLD_MIDGAME.items() if k != "turn"}
    new.update(on_turn=3, photo_time={"seats": [2, 3], "draws": 1})
    assert read_position(GAME_RULES, new) == old
    written = write_position(old)
    assert written["on_turn"] == 3 and "turn" not in written
    assert written["photo_time"] == {"seats": [2, 3], "draws": 1}
    assert read_position(GAME_RULES, written) == old
    # the shipped example as it was written before: the same position
    shipped = json.loads((PUZZLES / "midgame.json").read_text())
    assert shipped["on_turn"] == 1
    before = {k: v for k, v in shipped.items() if k != "on_turn"} | {"turn": 0}
    assert read_position(GAME_RULES, before) == read_position(GAME_RULES, shipped)


@pytest.mark.parametrize("change, words", [
    ({"turn": 3}, ["player 3 has no hand", "players 0 to 2"]),
    ({"turn": 0, "on_turn": 1}, ["'on_turn'", "'turn'", "both given"]),
    ({"photo_time": {"players": [3], "draws": 1}}, ["no player 3 (players 0 to 2)"]),
    ({"photo_time": {"seats": [2], "players": [1], "draws": 1}}, ["both given"]),
    ({"photo_time": {"seats": [0], "draws": 1}}, ["no seat 0 (seats 1 to 3)"]),
    ({"photo_time": {"players": [0], "draws": 1}}, ["player 0 cannot draw 1"]),
])
def test_bad_seats_in_either_format(change, words):
    data = {k: v for k, v in OLD_MIDGAME.items() if k not in ("turn", "photo_time")}
    data.update(change)
    with pytest.raises(BadInput) as err:
        read_position(GAME_RULES, data)
    msg = str(err.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg


def test_bad_rules_files():
    with pytest.raises(BadInput, match="defined twice"):
        rules_from_dict({"podiums": [{"name": "red"}, {"name": "Red"}],
                         "characters": [{"name": "A"}, {"name": "B"}, {"name": "C"}]})
    with pytest.raises(BadInput, match="not usable as a name"):
        rules_from_dict({"podiums": [{"name": "red"}, {"name": "blue"}],
                         "characters": [{"name": "on"}, {"name": "B"}, {"name": "C"}]})


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=25))
def test_random_games_keep_every_block_once_and_never_remove_one(choices):
    s = state()
    for c in choices:
        legal = s.legal_actions()
        m = legal[c % len(legal)]
        before = {b for stack in s.stacks for b in stack}
        carried = (s.stacks[m.source][s.stacks[m.source].index(m.block):]
                   if m.source is not None else (m.block,))
        s = s.apply_action(m)
        flat = [b for stack in s.stacks for b in stack]
        assert len(flat) == len(set(flat))
        assert before <= set(flat)  # blocks never leave play
        assert s.stacks[m.target][-len(carried):] == carried  # carried in order, on top
        assert s.last == m and (s.ban is None) == m.is_put
