"""Topito's honest hint: it uses only what the player on turn may know (own
hand, blocks, played piles, counts of the unseen), its chances of meeting another
player's card are exact over the unseen cards, and it is the same however the cards
hidden from that player lie. Positions with unknowns (hands as a count, the deck as a
multiset without order), what every command says it knows, and the bad input."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.topito.game import GAME
from models.topito.hint import table_hint
from models.topito.positions import read_position, write_position
from models.topito.rules import load_game_rules, parse_card
from models.topito.state import GameState, format_move, new_game
from solver.errors import BadInput
from solver.results import to_jsonable
from tests.cli_helpers import assert_one_line_error, game_runner
from tests.cli_helpers import run_json as shared_run_json
from tests.topito_helpers import reached

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "topito"
MID = str(PUZZLES / "midgame.json")
BUILT_IN = load_game_rules()
R = BUILT_IN.rules

run = game_runner("topito")


def run_json(*args: str):
    return shared_run_json(run, *args)


def write(tmp_path, data, name: str = "p.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return str(p)


def cards(*texts: str):
    return tuple(parse_card(R, t, "test") for t in texts)


# -------------------------------------------------------------------- what it knows

def test_knows_says_what_each_position_holds():
    mid = GAME.load_position(BUILT_IN, MID)
    assert GAME.knows(mid) == [
        "the stacks on the podiums", "the last move", "the played cards",
        "the number of cards in each hand", "the number of cards in the deck",
        "the unseen cards (the deck file less the cards in view)", "the hand of seat 1",
        "the hand of seat 2", "the cards in the deck"]
    seen = GAME.observation(mid, 0)
    assert "the hand of seat 2" not in GAME.knows(seen)
    assert "the cards in the deck" not in GAME.knows(seen)
    dealt = new_game(BUILT_IN, 3, random.Random(1))
    assert GAME.knows(dealt)[-2:] == ["the cards in the deck", "the order of the deck"]
    blocks = GameState(BUILT_IN, mid.blocks)
    assert GAME.knows(blocks) == ["the stacks on the podiums", "the last move"]


def test_every_command_says_what_it_used():
    for verb in (["plan", MID, "--card", "Duck on Owl"],
                 ["reachable", MID, "--card", "Duck on Owl", "--within", "2"]):
        data = run_json(*verb)
        # plan and reachable use the blocks only, whatever else the file holds
        assert data["knows"] == ["the stacks on the podiums", "the last move"]
        assert data["unknown"] == []
    honest = run_json("hint", MID)
    assert honest["view"] == "own"
    assert "the hand of seat 1" in honest["knows"]
    assert "the hand of seat 2" not in honest["knows"]
    assert honest["unknown"] == ["4 hand card(s) of seat 2", "the order of the deck (41 cards)"]
    assert honest["chances"]["unknown_hand_cards"] == {"seat 2": 4}
    seeing = run_json("hint", MID, "--open-hands")
    assert seeing["view"] == "open hands"
    assert "the hand of seat 2" in seeing["knows"]
    assert seeing["unknown"] == ["the order of the deck (41 cards)"]
    given_hand = run_json("hint", str(PUZZLES / "start.json"), "--hand", "Pig on Cat")
    assert "the hand of seat 1" in given_hand["knows"]
    blocks_only = run_json("hint", str(PUZZLES / "unique-3.json"), "--hand", "Pig on Cat")
    assert blocks_only["knows"][-1] == "the hand given with --hand"
    assert blocks_only["chances"] is None and blocks_only["view"] == "blocks and hand"
    for shared in ("show", "moves"):
        assert "the hand of seat 2" in run_json(shared, MID)["knows"]


def test_the_hint_of_a_file_with_every_hand_is_that_of_the_player_on_turn(tmp_path):
    data = json.loads(Path(MID).read_text())
    data["hands"][1] = ["?"] * 4
    hidden = write(tmp_path, data)
    data["hands"][1] = 4  # a hand as just a count
    counted = write(tmp_path, data, "q.json")
    full = run_json("hint", MID)
    for other in (run_json("hint", hidden), run_json("hint", counted)):
        for key in ("best", "moves", "chances", "knows", "unknown", "view"):
            assert other[key] == full[key], key
    # open hands is labelled, and sees that seat 2's cards are met or not
    seeing = run_json("hint", MID, "--open-hands")
    assert {m["next_meets"] for m in seeing["moves"]} <= {0, 1}
    assert {m["next_meets"] for m in full["moves"]} - {0, 1}
    out = run("hint", MID, "--open-hands").output
    assert "Open hands" in out and "not a player" in out
    assert "Open hands" not in run("hint", MID).output


# -------------------------------------------------------------------- positions

def test_hands_as_counts_and_an_unordered_deck_round_trip():
    data = {"podiums": {"red": ["Bear"]}, "hands": [["Duck on Owl", "Pig on Cat"], 3],
            "deck": {"unordered": ["rank 1: Cat", "Owl on Pig"]}, "on_turn": 1}
    small = replace(BUILT_IN, deck=cards("Duck on Owl", "Pig on Cat", "Cat on Bear",
                                         "rank 1: Cat", "rank 2: Fox", "Owl on Pig",
                                         "Fox on Duck"))
    state = read_position(small, data)
    assert state.hands[1] == (None,) * 3 and state.deck is None and state.deck_count == 2
    assert state.deck_cards == cards("rank 1: Cat", "Owl on Pig")
    written = write_position(state)
    assert written["hands"][1] == ["?"] * 3
    assert written["deck"] == {"unordered": ["rank 1: Cat", "Owl on Pig"]}
    assert read_position(small, written) == state
    # the hidden hand holds exactly the unseen cards that are not in the deck
    assert sorted(c.text(R) for c in state.unseen()) == sorted(
        ["Cat on Bear", "rank 2: Fox", "Fox on Duck"])
    assert GAME.knows(state)[-1] == "the cards in the deck"
    shown = GAME.show(state)
    assert shown.deck_cards == ["rank 1: Cat", "Owl on Pig"] and shown.unseen == 3
    assert GAME.unknown(state) == ["3 hand card(s) of seat 2", "the order of the deck (2 cards)"]
    for seed in range(5):
        full = GAME.determinize(state, random.Random(seed))
        assert Counter(full.deck) == Counter(state.deck_cards)
        assert Counter(full.hands[1]) == Counter(state.unseen())
    # the observation of seat 1 forgets which cards are in the deck
    assert GAME.observation(state, 0).deck_cards is None
    # a draw comes from the deck's cards only
    drawing = replace(state, photo_queue=(0,), draws_due=1,
                      hands=((parse_card(R, "Duck on Owl", "t"),), state.hands[1]))
    assert sorted(c.text(R) for c, _ in drawing.draw_outcomes()) == ["Owl on Pig",
                                                                     "rank 1: Cat"]
    after = drawing.draw(parse_card(R, "Owl on Pig", "t"))
    assert after.deck_cards == cards("rank 1: Cat") and after.deck_count == 1


def test_bad_input_is_one_line(tmp_path):
    deck = write(tmp_path, {"cards": ["Duck on Owl", "Pig on Cat", "Cat on Bear", "rank 1: Cat",
                                      "rank 2: Fox", "Owl on Pig"]}, "deck.json")
    base = {"podiums": {"red": ["Bear"]}, "on_turn": 1}
    # a "?" in the hand of the player on turn, where the hint needs it
    f = write(tmp_path, {**base, "hands": [["Duck on Owl", "?"], ["?"] * 4]})
    assert_one_line_error(run("hint", f), "hand of player 0", "not known ('?')", "--hand")
    # ... which --hand answers
    assert run_json("hint", f, "--hand", "Duck on Owl; Pig on Cat")["hand"] == [
        "Duck on Owl", "Pig on Cat"]
    # more unknown cards than unseen cards of the deck data
    f = write(tmp_path, {**base, "hands": [["Duck on Owl"], 4, 4]})
    for verb in ("hint", "show", "moves"):
        assert_one_line_error(run(verb, f, "--deck", deck), "8 unknown hand card(s)",
                              "only 5 card(s)", "unseen")
    # a face-down multiset that does not add up with the deck data
    f = write(tmp_path, {**base, "hands": [["Duck on Owl"], 4],
                         "deck": {"unordered": ["Duck on Owl"]}})
    assert_one_line_error(run("hint", f), "'Duck on Owl' is not an unseen card")
    f = write(tmp_path, {**base, "hands": [["Duck on Owl"], 4],
                         "deck": {"unordered": ["Pig on Cat"]}})
    assert_one_line_error(run("hint", f), "1 card(s) in the deck and 4 unknown hand card(s)",
                          "do not add up", "47 unseen")
    f = write(tmp_path, {**base, "hands": [["Duck on Owl"], 4],
                         "deck": {"cards": ["Pig on Cat"]}})
    assert_one_line_error(run("show", f), "unknown field 'cards'", "unordered")
    f = write(tmp_path, {**base, "hands": [["Duck on Owl"], 5]})
    assert_one_line_error(run("show", f), "a hand holds 0 to 4 cards, got 5")
    f = write(tmp_path, {**base, "hands": [["Duck on Owl"], 4], "deck": True})
    assert_one_line_error(run("show", f), "do not add up")


# -------------------------------------------------------------------- exact chances

def test_meeting_chances_are_exact_over_every_deal_the_player_cannot_tell_apart():
    """Count every full state consistent with seat 1's view (the hidden hand holds no
    card the stacks meet now): the share in which a move meets a card of seat 2 is the
    hint's chance, exactly."""
    deck = cards("Duck on Owl", "Cat on Bear", "Pig on Cat", "Owl on Pig", "Fox on Duck",
                 "rank 1: Bear", "rank 2: Fox", "podium blue: Cat Fox Pig",
                 "Whale on Mouse", "order Bear < Cat < Duck")
    small = replace(BUILT_IN, deck=deck)
    data = {"podiums": {"red": ["Bear", "Cat"], "yellow": ["Duck"], "blue": []},
            "hands": [["Whale on Mouse", "podium blue: Cat Fox Pig"], ["?", "?", "?"]],
            "played": [["Pig on Cat"], []], "on_turn": 1}
    view = read_position(small, data)
    assert view.deck_count == 4
    res, used = table_hint(view, "bfs", 2)
    assert used == view
    unseen = view.unseen()
    stacks = view.blocks.stacks
    assert any(c.met(stacks) for c in unseen)  # the filter matters here
    hands = [h for h in itertools.combinations(unseen, 3)
             if not any(c.met(stacks) for c in h)]
    by_text = {m.move: m for m in res.moves}
    checked = 0
    for move in view.blocks.legal_actions():
        after = view.blocks.apply_action(move).stacks
        share = Fraction(sum(any(c.met(after) for c in h) for h in hands), len(hands))
        got = by_text[format_move(R, move, stacks)]
        assert got.next_meets == pytest.approx(float(share), abs=1e-6)
        assert got.others_meet == got.next_meets  # two players: the next is the other
        checked += share not in (0, 1)
    assert checked >= 2
    assert res.chances["method"] == "exact" and res.chances["pool"] == len(unseen) == 7


def test_three_players_next_and_any_other():
    state = new_game(BUILT_IN, 3, random.Random(4))
    for _ in range(6):
        state = state.move(random.Random(len(state.played[0])).choice(state.legal_moves()))
    res, _ = table_hint(state, "bfs", 2)
    assert res.chances["unknown_hand_cards"].keys() == {"seat 1", "seat 2", "seat 3"} - {
        f"seat {state.turn + 1}"}
    assert all(m.others_meet >= m.next_meets for m in res.moves)


# -------------------------------------------------------------------- invariance



def redeal(state: GameState, rng: random.Random) -> GameState:
    """The cards hidden from the player on turn (other hands, the deck) dealt again
    among themselves: the same view for that player."""
    me = state.turn
    hidden = [c for p, h in enumerate(state.hands) if p != me for c in h] + list(state.deck)
    rng.shuffle(hidden)
    it = iter(hidden)
    hands = tuple(h if p == me else tuple(next(it) for _ in h)
                  for p, h in enumerate(state.hands))
    return replace(state, hands=hands, deck=tuple(it))


def answer(res) -> dict:
    out = to_jsonable(res)
    out.pop("seconds")
    return out


def strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | set().union(*(strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value))
    return set()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), moves=st.integers(0, 25),
       backend=st.sampled_from(["bfs", "sat"]))
def test_the_hint_ignores_what_the_player_on_turn_cannot_see(seed, players, moves, backend):
    state = reached(seed, players, moves)
    rng = random.Random(seed)
    first, used = table_hint(state, backend, 2)
    assert used == GAME.observation(state, state.turn)
    expected = answer(first)
    for _ in range(2):
        other = redeal(state, rng)
        assert GAME.observation(other, other.turn) == used
        again, _ = table_hint(other, backend, 2)
        assert answer(again) == expected  # the same best move and the same full ranking
    # the view itself (other hands "?", the deck a count) gives the same hint
    assert answer(table_hint(used, backend, 2)[0]) == expected
    # it never names a card hidden from the player on turn
    own = {c.text(R) for c in state.hands[state.turn]}
    hidden = {c.text(R) for p, h in enumerate(state.hands) if p != state.turn for c in h}
    hidden |= {c.text(R) for c in state.deck}
    assert not (strings(expected) & (hidden - own))


def test_the_cli_hint_is_the_same_for_a_redealt_file(tmp_path):
    state = reached(7, 3, 9)
    files = [write(tmp_path, write_position(s), f"{i}.json")
             for i, s in enumerate([state, redeal(state, random.Random(1)),
                                    redeal(state, random.Random(2))])]
    answers = []
    for f in files:
        # plans of up to 2 moves (3: ten times the work, the same question)
        data = run_json("hint", f, "--max-moves", "2", "--backend", "bfs")
        data.pop("seconds")
        answers.append(data)
    assert answers[0] == answers[1] == answers[2]
    # with open hands the answers may differ (they see the other hands), and say so
    seeing = run_json("hint", files[0], "--max-moves", "2", "--backend", "bfs",
                      "--open-hands")
    assert seeing["view"] == "open hands" and "the order of the deck" in seeing["knows"]


def test_the_hint_needs_the_hand_of_the_player_on_turn():
    view = GAME.observation(reached(3, 2, 4), 0)
    with pytest.raises(BadInput, match="not known"):
        table_hint(replace(view, turn=1), "bfs", 2)
    res, _ = table_hint(replace(view, turn=0), "bfs", 2)
    assert len(res.moves) == len(view.legal_moves())


def test_sat_and_bfs_hints_agree_with_chances():
    state = reached(11, 3, 12)
    a, _ = table_hint(state, "sat", 3)
    b, _ = table_hint(state, "bfs", 3)
    # the same answer, each back-end's work in its own units
    assert answer(a) | {"backend": 0, "work": 0} == answer(b) | {"backend": 0, "work": 0}
    assert a.work.conflicts > 0 == a.work.nodes and b.work.nodes > 0 == b.work.conflicts
