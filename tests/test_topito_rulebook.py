"""The Topito rulebook (/work/shared/rulebooks/topito.en.txt) read line by line: each
worked example and printed number that no other test file checks, asserted through the
rules engine and, where it answers the same question, the SAT planner. docs/topito.md,
"Worked examples of the rulebook", lists every example with the test that checks it
(most of them live in test_topito_rules.py and test_topito_game.py)."""

from __future__ import annotations

import random

import pytest

from models.topito.game import GAME
from models.topito.plan import plan
from models.topito.reachable import reachable
from models.topito.rules import (
    HAND_SIZE,
    ORDER_READINGS,
    Goal,
    Rules,
    load_deck,
    load_game_rules,
    load_rules,
    parse_card,
)
from models.topito.state import State, new_game
from models.topito.verbs import BACKENDS

R = load_rules()
B = {name: i for i, name in enumerate(R.characters)}


def stacks(rules: Rules, *piles: tuple[str, ...]) -> State:
    """A position of the three podiums (red, yellow, blue), each pile bottom to top."""
    piles = piles + ((),) * (rules.n_podiums - len(piles))
    return State(rules, tuple(tuple(B[n] for n in p) for p in piles))


# ---------------------------------------------------------------- contents and setup

def test_contents_3_podiums_9_blocks_48_cards():
    # "3 podium tiles, 9 wooden character blocks, 48 cards"
    assert (R.n_podiums, R.n_blocks, len(load_deck(R))) == (3, 9, 48)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_blocks_beside_the_podiums_and_4_cards_dealt_to_each(players):
    # "Place the 9 character blocks around the podiums. ... deal 4 cards to each player."
    game = new_game(load_game_rules(), players, random.Random(players))
    assert game.blocks.stacks == ((), (), ())
    assert len(game.blocks.out_of_play()) == 9
    assert [len(h) for h in game.hands] == [4] * players == [HAND_SIZE] * players
    assert game.deck_count == 48 - 4 * players


def test_play_proceeds_clockwise_seat_by_seat():
    # "play proceeds in a clockwise order" (seat 1 starts: toppi's choice for "the
    # youngest player decides on the first player")
    state = new_game(load_game_rules(), 3, random.Random(4))
    seats = []
    for _ in range(7):
        seats.append(GAME.current_player(state))
        state = GAME.apply_action(state, GAME.legal_actions(state)[0])
    assert seats == [0, 1, 2, 0, 1, 2, 0]


# ---------------------------------------------------------------- the order card

@pytest.mark.parametrize("podium", [0, 1, 2])
def test_order_card_example_elephant_whale_vested_mouse(podium):
    """"for example: elephant, then whale, then vested mouse": the card as printed is
    'order Elephant Whale Mouse' (toppi's Mouse is the vested mouse). Read top-down
    (the default) the elephant is highest and the vested mouse lowest, on any podium,
    other blocks between allowed."""
    card = parse_card(R, "order Elephant Whale Mouse")
    assert card.text(R) == "order Elephant > Whale > Mouse"

    def met(*pile: str) -> bool:
        piles: list[tuple[str, ...]] = [(), (), ()]
        piles[podium] = pile
        return card.met(stacks(R, *piles).stacks)

    assert met("Mouse", "Whale", "Elephant")
    assert met("Bear", "Mouse", "Cat", "Whale", "Duck", "Elephant", "Owl")
    assert not met("Elephant", "Whale", "Mouse")  # the bottom-up reading's stack
    assert not met("Whale", "Mouse", "Elephant")
    assert not card.met(stacks(R, ("Mouse", "Whale"), ("Elephant",)).stacks)  # one stack


@pytest.mark.parametrize("reading, puts", [("top-down", ["Mouse", "Whale", "Elephant"]),
                                           ("bottom-up", ["Elephant", "Whale", "Mouse"])])
def test_order_card_example_plans_under_each_reading(reading, puts):
    """The same printed card planned by both back-ends: the stack Elephant, Whale,
    Mouse (bottom to top) meets it read bottom-up and is 3 lifts away read top-down
    (and the reverse stack the other way round); from empty podiums it takes the three
    puts, lowest first."""
    rules = load_rules(order_cards=reading)
    goal = Goal((parse_card(rules, "order Elephant Whale Mouse"),))
    e_w_m = stacks(rules, ("Elephant", "Whale", "Mouse"))
    m_w_e = stacks(rules, ("Mouse", "Whale", "Elephant"))
    empty = stacks(rules)
    for backend in BACKENDS:
        lengths = [plan(s, goal, backend).moves for s in (e_w_m, m_w_e)]
        assert lengths == ([3, 0] if reading == "top-down" else [0, 3])
        from_empty = plan(empty, goal, backend)
        assert from_empty.moves == 3
        assert [step.move.split()[1] for step in from_empty.plan] == puts


# ---------------------------------------------------------------- the rank card

def test_rank_card_example_4_above_2_below_the_character_on_3():
    """"'4' above and '2' below, with the character on rank '3' ... there must be at
    least 1 character block on top": rank 3 counts from the podium up."""
    card = parse_card(R, "rank 3: Duck")
    assert card.rank == 3
    # Cat on rank 2 below Duck, Owl on rank 4 above it
    assert card.met(stacks(R, (), ("Bear", "Cat", "Duck", "Owl")).stacks)
    assert card.met(stacks(R, (), (), ("Bear", "Cat", "Duck", "Owl", "Pig")).stacks)
    assert not card.met(stacks(R, ("Bear", "Cat", "Duck")).stacks)  # nothing on top
    assert not card.met(stacks(R, ("Cat", "Duck", "Bear", "Owl")).stacks)  # rank 2
    goal = Goal((card,))
    for backend in BACKENDS:
        # one block on top of the bare rank-3 Duck is all it takes
        assert plan(stacks(R, ("Bear", "Cat", "Duck")), goal, backend).moves == 1
        # from empty podiums: ranks 1 and 2, the Duck on 3, one block on 4
        empty = reachable(stacks(R), goal, 3, backend)
        assert not empty.reachable and empty.status == "proven"
        assert reachable(stacks(R), goal, 4, backend).moves == 4


@pytest.mark.parametrize("reading", ORDER_READINGS)
def test_the_colour_of_the_podium_does_not_matter(reading):
    """Adjacent-pair, order and rank cards: "the colour of the podium ... does not
    matter"; a podium card names its podium and is met on that one only."""
    rules = load_rules(order_cards=reading)
    pile = ("Bear", "Cat", "Duck", "Owl")
    cards = [parse_card(rules, t) for t in ("Cat on Bear", "order Bear < Cat < Duck",
                                           "rank 3: Duck", "podium yellow: Bear Cat Duck")]
    met = [[c.met(stacks(rules, *([()] * p + [pile])).stacks) for p in range(3)]
           for c in cards]
    assert met == [[True] * 3] * 3 + [[False, True, False]]

