"""Recording the other players' moves from a position where their hands are hidden
('?'), as one player at the table does: a hidden hand plays any card its viewer has not
seen (revealing a '?'), and its draw is the one outcome "a card not seen" (draw ?)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from models.tippi_toppi.game import GAME
from models.tippi_toppi.state import Draw, GameState
from solver.errors import BadInput
from solver.game import CHANCE
from solver.serve.api import apply_move, load, web_games

TABLE = Path(__file__).resolve().parent.parent / "puzzles" / "tippi-toppi" / "table.json"
RULES = GAME.load_rules(None)


def entry():  # noqa: ANN201 - the web registry's entry
    return web_games()["tippi-toppi"]


def texts(state: GameState) -> list[str]:
    if GAME.current_player(state) == CHANCE:
        return [GAME.action_text(state, a) for a, _ in GAME.chance_outcomes(state)]
    return [GAME.action_text(state, a) for a in GAME.legal_actions(state)]


def counted(state: GameState) -> int:
    """Every card place: the piles, the hands with their '?', the draw pile."""
    return (sum(len(p) for p in state.piles) + sum(len(h) for h in state.hands)
            + state.draw_count)


def at_seat_two() -> str:
    """The table position after player 1's P6 on pile 3 and their draw of G1."""
    text = TABLE.read_text()
    for move in ("p1:P6>3", "draw G1"):
        text = json.dumps(apply_move(entry(), text, move)["position"])
    return text


def test_the_hidden_hand_on_turn_plays_every_unseen_card():
    _, state = load(entry(), at_seat_two())
    assert GAME.current_player(state) == 1 and state.hands[1] == [None] * 4
    moves = texts(state)
    assert len(moves) == 40 and moves[:4] == ["p2:G1>4", "p2:G2>4", "p2:G3>4", "p2:G4>4"]
    unseen = {RULES.card_name(c) for c in state.unseen_cards()}
    assert {m[3:5] for m in moves} <= unseen
    # one P4 is in the viewer's hand, the other copy is unseen: player 2 may hold it
    assert "P4" in unseen and "p2:P4>1" in moves


def seen_twice() -> str:
    """The position at seat 2 with both copies of P4 and V5 seen: one more of each laid
    under the tops (the viewer holds the other P4, V5 already lies on pile 2)."""
    data = json.loads(at_seat_two())
    data["piles"][0] = ["P1", "P4", "P5"]
    data["piles"][1] = ["O5", "V5", "V5", "V7"]
    return json.dumps(data)


@pytest.mark.parametrize("move, words", [
    ("p2:P4>1", "player 2 cannot hold P4: every copy is seen elsewhere"),
    ("p2:V5>1", "player 2 cannot hold V5: every copy is seen elsewhere"),
    ("p2:G4>1", "G4 matches neither colour nor number of pile 1 (P5)"),
])
def test_a_card_seen_elsewhere_is_never_revealed(move, words):
    text = seen_twice()
    moves = texts(load(entry(), text)[1])
    assert len(moves) == 36 and "p2:P4>1" not in moves and "p2:P3>1" in moves
    with pytest.raises(BadInput) as err:
        apply_move(entry(), text, move)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_revealed_card_leaves_a_question_mark_and_the_draw_is_not_seen():
    got = apply_move(entry(), at_seat_two(), "p2:G4>4")
    assert got["move"] == {"text": "p2:G4>4", "fulfils": ["a run of 4"]}
    assert got["position"]["hands"][1] == ["?", "?", "?"]
    assert got["position"]["piles"][3][-1] == "G4"
    _, state = load(entry(), json.dumps(got["position"]))
    # the task pile's tasks are unknown: one is turned up first, then player 2 draws
    while state.chance_due() == "turn up":
        state = GAME.apply_action(state, GAME.chance_outcomes(state)[0][0])
    assert GAME.chance_outcomes(state) == [(Draw(None), 1.0)]
    assert state.chance_text() == "player 2 draws a card (not seen)"
    drawn = apply_move(entry(), json.dumps(GAME.write(state)), "random")
    assert drawn["move"] == {"text": "draw ?", "card": "?"} and drawn["to_move"] == 1
    assert drawn["position"]["hands"][1] == ["?"] * 4
    assert drawn["position"]["hands"][0] == ["O2", "P2", "P4", "G1"]
    before = GAME.write(state)
    with pytest.raises(BadInput, match="player 2's hand is hidden: the card drawn is not"):
        apply_move(entry(), json.dumps(before), "draw G3")


def test_a_known_hand_still_draws_a_named_card():
    text = json.dumps(apply_move(entry(), TABLE.read_text(), "p1:P6>3")["position"])
    _, state = load(entry(), text)
    outcomes = texts(state)
    assert len(outcomes) == 28 and "draw ?" not in outcomes and outcomes[0] == "draw G1"
    with pytest.raises(BadInput, match="player 1's hand is known: name the card drawn"):
        apply_move(entry(), text, "draw ?")


def _continue(state: GameState, via_api: bool, turns: int) -> list[str]:
    """Play on from `state`, seats alternating, `turns` plays: the first legal move or
    chance outcome each time, through the engine or the web API; every position read
    back and its cards counted. Returns the moves made."""
    deck = len(RULES.deck)
    text = json.dumps(GAME.write(state))
    made: list[str] = []
    plays = 0
    while plays < turns and not GAME.is_terminal(state):
        move = texts(state)[0]
        if via_api:
            got = apply_move(entry(), text, move)
            text = json.dumps(got["position"])
            after = load(entry(), text)[1]
        else:
            after = GAME.apply_action(state, GAME.parse_action(state, move))
            text = json.dumps(GAME.write(after))
            assert GAME.write(GAME.read(RULES, json.loads(text), "again")) == json.loads(text)
        assert counted(after) == deck, move
        if move.startswith("p"):
            plays += 1
            seat = int(move[1]) - 1
            assert seat == state.turn and after.turn == 1 - seat
            card = RULES.parse_card(move[3:5])
            # a card of player 2's is one the viewer (player 1) had not seen
            if seat == 1:
                assert card in state.unseen_cards() and None in after.hands[1]
        if move == "draw ?":
            assert state.drawer == 1 and after.hands[1].count(None) == 4
        made.append(move)
        state = after
    return made


@pytest.mark.parametrize("via_api", [False, True])
def test_the_table_position_plays_on_for_several_turns(via_api):
    _, state = load(entry(), at_seat_two())
    made = _continue(state, via_api, 6)
    # each seat in turn; player 2's G4 is the second copy (player 1 drew the first)
    assert made == ["p2:G1>4", "draw ?", "p1:G1>4", "draw G2", "p2:G3>4", "draw ?",
                    "p1:G2>4", "draw G4", "p2:G4>4", "turn up: exactly 3 green piles",
                    "draw ?", "p1:G4>4"]


@pytest.mark.parametrize("seed, setup, expected", [
    (1, {"players": 2, "difficulty": "normal"},
     [["p1:G3>1", "p1:G4>1", "p1:G4>4", "p1:O2>2"], ["p2:O1>2", "p2:O2>2", "p2:O7>2"],
      ["p1:G4>1", "p1:G4>4", "p1:O2>2"]]),
    (7, {"players": 3, "difficulty": "expert", "high_speed": True},
     [["p1:G2>2", "p1:G3>2", "p1:G4>1", "p1:G4>2", "p1:O4>1", "p1:O4>4", "p1:pass"],
      ["p2:P5>1", "p2:P5>3", "p2:O3>4", "p2:O5>4", "p2:pass"],
      ["p3:G2>2", "p3:G3>2", "p3:G7>2", "p3:G7>4", "p3:P7>1", "p3:P7>3", "p3:P7>4",
       "p3:pass"]]),
])
def test_a_fully_known_game_has_the_moves_it_had(seed, setup, expected):
    state = GAME.new_game(RULES, setup, random.Random(seed))
    for moves in expected:
        assert state.fully_known() and texts(state) == moves
        state = GAME.apply_action(state, GAME.legal_actions(state)[0])


# --------------------------------------------------------------------------- Hoch Hinaus

HOCH = TABLE.parent.parent / "hoch-hinaus" / "midgame-1.json"


def hoch_table() -> str:
    """The example with player 2's tiles hidden and the reserve face down (what player
    1 sees at the table), player 1 on turn."""
    data = json.loads(HOCH.read_text())
    data["hands"][1] = ["?"] * 3
    data.pop("reserve")
    return json.dumps(data)


def hoch_texts(state) -> list[str]:  # noqa: ANN001 - a Hoch Hinaus state
    game = web_games()["hoch-hinaus"].game()
    if game.current_player(state) == CHANCE:
        return [game.action_text(state, a) for a, _ in game.chance_outcomes(state)]
    return [game.action_text(state, a) for a in game.legal_actions(state)]


def hoch_counted(state) -> int:  # noqa: ANN001
    """Every tile place: the board, the hands with their '?', the reserve."""
    return (len(state.board.tiles_used()) + sum(len(h) for h in state.hands)
            + len(state.reserve))


def test_hoch_hinaus_plays_on_with_a_hidden_hand():
    hoch = web_games()["hoch-hinaus"]
    text = hoch_table()
    _, state = load(hoch, text)
    tiles = len(state.rules.tiles)
    made = []
    for _ in range(8):
        moves = hoch_texts(state)
        got = apply_move(hoch, text, moves[0])
        text = json.dumps(got["position"])
        after = load(hoch, text)[1]
        # the set has 32 tiles, all in the game: none goes missing or comes twice
        assert hoch_counted(after) == tiles == 32, moves[0]
        assert len(after.unseen_tiles()) == after.hidden_tiles()
        made.append((len(moves), moves[0]))
        state = after
    # player 2's placements: every tile player 1 has not seen; their draw: not seen
    assert made == [(228, "T32 V4:A2 P2:B2"), (23, "draw T02(O2-O3)"),
                    (1716, "T03 O3:B1 O4:B2"), (1, "draw ?"),
                    (222, "T21 P1:A2 G3:A3"), (21, "draw T05(P1-P2)"),
                    (1800, "T06 P2:A2 P3:B2"), (1, "draw ?")]
    assert state.hands == [["T01", "T02", "T05"], [None] * 3]


def test_hoch_hinaus_refuses_a_tile_seen_elsewhere():
    hoch = web_games()["hoch-hinaus"]
    text = json.dumps(apply_move(hoch, hoch_table(), "T32 V4:A2 P2:B2")["position"])
    text = json.dumps(apply_move(hoch, text, "draw T02")["position"])
    _, state = load(hoch, text)
    assert state.on_turn == 1 and "T21" not in state.unseen_tiles()
    with pytest.raises(BadInput) as err:  # T21 is in player 1's hand
        apply_move(hoch, text, "T21 P1:A2 G3:A3")
    assert "is not a legal action here" in str(err.value) and "\n" not in str(err.value)
    from models.hoch_hinaus.board import Action
    with pytest.raises(BadInput, match="player 2 cannot hold tile T21: it is seen"):
        state.check_placement(Action("T21", 1, 5))
    after = apply_move(hoch, text, "T03 O3:B1 O4:B2")["position"]
    assert after["hands"][1] == ["?", "?"]
    with pytest.raises(BadInput, match="player 2's hand is unknown: the tile drawn is not"):
        apply_move(hoch, json.dumps(after), "draw T05")
