"""Topito's race (models/topito/race.py, `toppi topito race`): the A* search equal to
breadth-first search over whole game states through the engine on small decks, both
equal to every line enumerated on tiny ones, lines replayed through the engine,
--within, shared wins, a player blocked by another's earlier win, the lower bound per
card kind, bad input and the time limit."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.topito.race import card_bound, race, replay, unmet_bound
from models.topito.rules import Card, GameRules, load_game_rules, rules_from_dict
from models.topito.state import GameState, State, format_move, new_game
from solver.errors import BadInput
from tests.cli_helpers import assert_one_line_error, game_runner, run_json

run = game_runner("topito")

# five characters on three podiums: small enough for the engine's BFS
SMALL = rules_from_dict({"podiums": [{"name": n} for n in ("red", "yellow", "blue")],
                         "characters": [{"name": n} for n in
                                        ("Bear", "Cat", "Duck", "Fox", "Owl")]})
N = SMALL.n_blocks


def every_card() -> list[Card]:
    """Every card of the five characters: pairs, ranks 1-3, orders and podium cards."""
    out = [Card("pair", (a, b)) for a, b in itertools.permutations(range(N), 2)]
    out += [Card("rank", (x,), rank=r) for x in range(N) for r in (1, 2, 3)]
    out += [Card("order", t) for t in itertools.permutations(range(N), 3)]
    out += [Card("podium", t, podium=p) for t in itertools.combinations(range(N), 3)
            for p in range(SMALL.n_podiums)]
    return out


CARDS = every_card()


def random_table(seed: int) -> GameState:
    """A small dealt endgame: 2 or 3 players 3 to 6 cards from 7, hands of 1 to 4
    cards (some may be met already: a missed shout), 0 to 10 cards left in the deck in
    order, stacks after a few random moves (the last one in force, or not)."""
    rng = random.Random(seed)
    n = rng.choice((2, 3))
    pool = [c for c in CARDS if c.kind in ("pair", "rank")] * 2 + CARDS
    hands = tuple(tuple(rng.choice(pool) for _ in range(rng.randint(1, 4)))
                  for _ in range(n))
    deck = tuple(rng.choice(pool) for _ in range(rng.randint(0, 10)))
    played = tuple((CARDS[0],) * rng.randint(3, 6) for _ in range(n))
    blocks = State(SMALL, ((),) * 3, None, rng.random() < 0.8)
    for _ in range(rng.randint(0, 6)):
        blocks = blocks.apply_action(rng.choice(blocks.legal_actions()))
    rules = GameRules(SMALL, hands[0] + deck)
    return GameState(rules, blocks, hands, played, deck, len(deck), rng.randrange(n))


def assert_same(state: GameState, player: int | None, max_moves: int) -> None:
    a = race(state, player, max_moves, "astar", None)
    b = race(state, player, max_moves, "bfs", None)
    assert (a.fewest, a.can_win, a.status) == (b.fewest, b.can_win, b.status), (
        player, a.proof, b.proof)
    # with no line, one may prove "never" (None) where the other proves "not within"
    bounds = {a.lower_bound, b.lower_bound} - {None}
    if a.fewest is None:
        assert all(k > max_moves for k in bounds)
    else:
        assert bounds == {a.fewest}
    for res in (a, b):
        if res.fewest is not None:
            assert_line_wins(state, res, player)


def assert_line_wins(state: GameState, res, player: int | None) -> None:
    """The line replays through the engine, nobody wins before its last move, and at
    its end the player (any player) has 7 cards."""
    at = state
    for step in res.line:
        assert at.end() is None
        move = next(m for m in at.legal_moves() if move_text(at, m) == step.move)
        nxt = at.move(move)
        assert step.played == [len(p) for p in nxt.played]
        at = nxt
    assert at.end() == "won"
    win = [p + 1 for p in at.winners()]
    assert win == res.winners
    if player is not None:
        assert player + 1 in win
    assert len(res.line) == res.fewest


def move_text(state: GameState, move) -> str:
    return format_move(state.blocks.rules, move, state.blocks.stacks)


# -------------------------------------------------------------------- A* == BFS

@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6))
def test_astar_equals_bfs_over_whole_game_states(seed):
    """On small random endgames (five characters): the fewest moves, the seats that can
    win at that count and the proof's bound are the same by both methods, for the end of
    the game and for every seat; every line replays through the engine."""
    state = random_table(seed)
    for player in [None, *range(len(state.hands))]:
        assert_same(state, player, 3)


def every_line(state: GameState, player: int | None, depth: int) -> int | None:
    """The fewest moves by following every move sequence (no merging of states)."""
    layer = [state]
    for k in range(1, depth + 1):
        nxt = []
        for s in layer:
            for m in s.legal_moves():
                c = s.move(m)
                end = c.end()
                if end is None:
                    nxt.append(c)
                elif end == "won" and (player is None or player in c.winners()):
                    return k
        layer = nxt
    return None


def test_both_equal_every_line_enumerated():
    """A third count with no state merged at all, on tiny positions (2 moves deep)."""
    for seed in range(12):
        state = random_table(seed)
        for player in (None, 0):
            want = every_line(state, player, 2)
            assert race(state, player, 2, "astar", None).fewest == want, seed
            assert race(state, player, 2, "bfs", None).fewest == want, seed


def test_dealt_games_of_the_full_box_agree():
    """Nine characters and the 48-card deck: seeded deals played on with random moves
    until a seat has 4 to 6 cards; A* and BFS agree for the end of the game and for the
    seat on turn."""
    rules = load_game_rules()
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game(rules, 2 + seed % 2, rng)
        while state.end() is None and max(len(p) for p in state.played) < 4:
            state = state.move(rng.choice(state.legal_moves()))
        if state.end() is None and max(len(p) for p in state.played) <= 6:
            assert_same(state, None, 2)
            assert_same(state, state.turn, 2)
            checked += 1
        if checked == 3:
            break
    assert checked == 3


# -------------------------------------------------------------------- the bound

def test_card_bound_never_overestimates():
    """Against the blocks-only BFS distance, every card kind, random stacks."""
    from models.topito.bfs import bfs_plan
    from models.topito.rules import Goal

    rng = random.Random(5)
    for _ in range(60):
        blocks = State(SMALL, ((),) * 3, None)
        for _ in range(rng.randint(0, 7)):
            blocks = blocks.apply_action(rng.choice(blocks.legal_actions()))
        for card in rng.sample(CARDS, 8):
            out = bfs_plan(blocks, Goal((card,)), 4)
            lb = card_bound(card, blocks.stacks)
            assert out.length is None or lb <= out.length, (card, blocks.stacks)
            if lb:
                assert unmet_bound(card, blocks.stacks) == lb


# -------------------------------------------------------------------- the game's words

FILLER = [f"rank {r}: {x}" for r in (1, 2) for x in
          ("Whale", "Pig", "Owl", "Mouse", "Fox", "Elephant")]


def files(tmp_path, hands, deck, played=(6, 6), turn=0, podiums=None):
    """A position and its deck file (the hands, played piles and deck, nothing else)."""
    piles = [FILLER[6 * i:6 * i + k] for i, k in enumerate(played)]
    cards = [c for p in piles for c in p] + [c for h in hands for c in h] + list(deck)
    (tmp_path / "deck.json").write_text(json.dumps({"cards": cards}))
    pos = {"game": "topito", "podiums": podiums or {"red": ["Bear"], "yellow": [],
                                                    "blue": []},
           "hands": hands, "played": piles, "deck": list(deck), "on_turn": turn + 1}
    (tmp_path / "pos.json").write_text(json.dumps(pos))
    return str(tmp_path / "pos.json"), "--deck", str(tmp_path / "deck.json")


BLOCKED = ([["Cat on Bear"], ["order Bear < Cat < Duck"]], ["Whale on Pig", "Pig on Whale"])


def test_a_seat_blocked_by_an_earlier_win(tmp_path):
    """Seat 2 could meet its card in 2 moves (Cat, then Duck on Bear), but Cat on Bear
    is seat 1's seventh card: that line ends after one move with seat 1 the winner. So
    seat 2 needs 3 moves (Cat and Duck elsewhere, then both on Bear together: a shared
    win counts), while the blocks alone would take 2."""
    args = files(tmp_path, *BLOCKED)
    plan = run_json(run, "plan", *args, "--card", "order Bear < Cat < Duck")
    assert plan["moves"] == 2
    for backend in ("astar", "bfs"):
        res = run_json(run, "race", *args, "--player", "2", "--backend", backend)
        assert res["fewest"] == 3 and res["status"] == "optimal"
        assert 2 in res["winners"] and len(res["line"]) == 3
        assert all(step["played"][0] < 7 for step in res["line"][:-1])
    first = run_json(run, "race", *args)
    assert (first["fewest"], first["can_win"], first["winners"]) == (1, [1], [1])
    assert first["line"][0]["photo_time"] == {"seat 1": ["Cat on Bear"]}


def test_within_yes_and_no(tmp_path):
    args = files(tmp_path, *BLOCKED)
    no = run_json(run, "race", *args, "--player", "2", "--within", "2")
    assert (no["reachable"], no["fewest"], no["status"]) == (False, None, "infeasible")
    assert no["lower_bound"] == 3 and "every line of at most 2 moves" in no["proof"]
    yes = run_json(run, "race", *args, "--player", "2", "--within", "3")
    assert (yes["reachable"], yes["fewest"]) == (True, 3)
    out = run("race", *args, "--player", "2", "--within", "2")
    assert out.exit_code == 0 and "no" in out.output and "within 2 moves" in out.output
    out = run("race", *args, "--player", "2", "--within", "3")
    assert out.exit_code == 0 and "seat 2 can have 7 cards after 3 moves" in out.output
    assert "proven minimal" in out.output


def test_simultaneous_winners(tmp_path):
    """Putting Cat on Bear (with Duck under Bear on red) meets seat 1's pair and seat
    2's podium card at once: both play their seventh card in the same photo time."""
    args = files(tmp_path, [["Cat on Bear"], ["podium red: Bear Cat Duck"]], ["Whale on Pig"],
                 podiums={"red": ["Duck", "Bear"], "yellow": [], "blue": []})
    for backend in ("astar", "bfs"):
        res = run_json(run, "race", *args, "--backend", backend)
        assert (res["fewest"], res["can_win"], res["winners"]) == (1, [1, 2], [1, 2])
        assert res["line"][0]["photo_time"] == {"seat 1": ["Cat on Bear"],
                                                "seat 2": ["podium red: Bear Cat Duck"]}
        seat2 = run_json(run, "race", *args, "--player", "2", "--backend", backend)
        assert seat2["fewest"] == 1 and seat2["winners"] == [1, 2]
    out = run("race", *args, "--player", "2")
    assert "shared win" in out.output


def test_the_json_is_labelled_all_seeing(tmp_path):
    res = run_json(run, "race", *files(tmp_path, *BLOCKED))
    assert res["all_seeing"] is True and "all-seeing" in res["reading"]
    assert "the order of the deck" in res["knows"] and "the hand of seat 2" in res["knows"]
    assert res["unknown"] == []
    assert res["proof"] and res["seconds"] >= 0 and res["to_move"] == 1


def test_no_line_at_all_and_a_game_already_over(tmp_path):
    """Seat 2 has 5 cards played, one in hand and the deck is empty: it can never have 7
    (proven, however long). A file whose seat 1 has 7 cards is won already (0 moves)."""
    args = files(tmp_path, [["Cat on Bear"], ["Whale on Pig"]], [], played=(6, 5))
    res = run_json(run, "race", *args, "--player", "2")
    assert res["fewest"] is None and res["lower_bound"] is None
    assert "however long" in res["proof"]
    args = files(tmp_path, [["Cat on Bear"], ["Whale on Pig"]], [], played=(6, 6))
    state_file = json.loads((tmp_path / "pos.json").read_text())
    state_file["played"][0].append("Cat on Bear")
    state_file["hands"][0] = []
    (tmp_path / "pos.json").write_text(json.dumps(state_file))
    res = run_json(run, "race", *args, "--player", "1")
    assert (res["fewest"], res["winners"], res["line"]) == (0, [1], [])
    res = run_json(run, "race", *args, "--player", "2")
    assert res["fewest"] is None and "the game is over (won by seat 1)" in res["proof"]


def test_no_reversal_rule_reaches_the_race(tmp_path):
    """Seat 1's 'Cat on Bear' is one lift back (Cat came from red to yellow): the rule
    forbids it, so it takes two moves; without the rule one."""
    args = files(tmp_path, [["Cat on Bear"], ["Whale on Pig"]], ["Pig on Whale"],
                 podiums={"red": ["Bear"], "yellow": ["Cat"], "blue": []})
    pos = json.loads((tmp_path / "pos.json").read_text())
    pos["last_move"] = {"block": "Cat", "from": "red", "to": "yellow"}
    (tmp_path / "pos.json").write_text(json.dumps(pos))
    assert run_json(run, "race", *args, "--player", "1")["fewest"] == 2
    assert run_json(run, "race", *args, "--player", "1", "--no-reversal")["fewest"] == 1


# -------------------------------------------------------------------- bad input, time

def test_bad_input_is_one_line(tmp_path):
    args = files(tmp_path, *BLOCKED)
    pos = json.loads((tmp_path / "pos.json").read_text())

    def variant(name: str, **change) -> str:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({**pos, **change}))
        return str(path)

    hidden = variant("hidden", hands=[["Cat on Bear"], ["?"]])
    assert_one_line_error(run("race", hidden, *args[1:]), "unknown cards", "seat 2")
    unordered = variant("unordered", deck={"unordered": pos["deck"]})
    assert_one_line_error(run("race", unordered, *args[1:]), "deck in order",
                          "without their order")
    count = variant("count", deck=2)
    assert_one_line_error(run("race", count, *args[1:]), "deck in order", "a count")
    blocks = tmp_path / "blocks.json"
    blocks.write_text(json.dumps({"game": "topito", "podiums": pos["podiums"]}))
    assert_one_line_error(run("race", str(blocks)), "hands")
    assert_one_line_error(run("race", *args, "--player", "3"), "no seat 3")
    assert_one_line_error(run("race", *args, "--backend", "sat"), "--backend")


def test_a_time_limit_that_cuts_the_race_still_answers_with_the_lower_bound(tmp_path):
    """A fresh deal: seat 1 needs 7 cards from none, far beyond 0.01 s of search; the
    answer is the lower bound proven by then, cut by time, exit 0."""
    from models.topito.positions import write_position
    from models.topito.work import Work

    state = new_game(load_game_rules(), 3, random.Random(3))
    for backend in ("astar", "bfs"):
        work = Work(10 ** 9)
        res = race(state, 0, 12, backend, 0.01, work=work)
        assert res.status == "unknown" and res.fewest is None and work.cut_by_time
        assert res.lower_bound >= 1 and "needs at least" in res.proof
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(write_position(state)))
    out = run("race", str(path), "--player", "1", "--time-limit", "0.01", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["status"] == "unknown" and data["cut_by_time"] is True
    text = run("race", str(path), "--player", "1", "--time-limit", "0.01")
    assert text.exit_code == 0 and "cut by the time limit" in text.output


def test_the_api_refuses_unknown_cards():
    state = random_table(1)
    with pytest.raises(BadInput, match="unknown cards"):
        race(replace(state, hands=((None,),) + state.hands[1:]))
    with pytest.raises(BadInput, match="deck in order"):
        race(replace(state, deck=None))
    steps, end = replay(state, [])
    assert steps == [] and end is state


def test_the_endgame_of_the_docs():
    """docs/topito.md, "Race": puzzles/topito/race/endgame.json ends after 2 moves at the
    earliest, won by seat 1 alone; seat 2 needs 4 moves (not 3)."""
    path = str(Path(__file__).resolve().parents[1] / "puzzles" / "topito" / "race"
               / "endgame.json")
    end = run_json(run, "race", path)
    assert (end["fewest"], end["can_win"], end["winners"]) == (2, [1], [1])
    seat2 = run_json(run, "race", path, "--player", "2")
    assert seat2["fewest"] == 4 and seat2["line"][-1]["played"] == [6, 7]
    no = run_json(run, "race", path, "--player", "2", "--within", "3")
    assert no["reachable"] is False and no["lower_bound"] == 4
