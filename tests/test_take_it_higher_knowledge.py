"""Take it Higher!: what a position knows and what the hint and the policies read.

Nobody at the table knows which tiles are still to come nor their order; the called
tile is known. The hint samples only the unseen tiles (seeded, the same futures for
every candidate), so changing the order of the tiles still to come (a dealt game knows
it) never changes the hint or its ranking for a fixed seed: property tests over random
seeded positions. A position file may say what the player knows of the tiles to come
(`to_come`: their number, or tiles without order and "?"), checked against the rules
data; `simulate --open-hands` hands the policies the dealt order, and they play the
same games.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.take_it_higher.game import GAME
from models.take_it_higher.hint import hint
from models.take_it_higher.policies import greedy_choice
from models.take_it_higher.positions import Placement, Position, position_from_dict
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import load_rules
from models.take_it_higher.state import GameState, dealt_game, replay
from models.take_it_higher.variants import Variant
from solver.errors import BadInput
from solver.simulate import simulate
from tests.cli_helpers import assert_one_line_error, game_runner, run_json
from tests.tih_small import small_rules, small_ship_rules

RULES = load_rules()
run = game_runner("take-it-higher")
PROPERTY = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _position(rules, variant, k, seed):
    """k random tiles on random cells, the next tile called."""
    rng = random.Random(seed)
    tiles = rng.sample(list(rules.tiles), rules.board_size)
    cells = rng.sample(list(rules.cell_ids), rules.board_size)
    placed = [Placement(t.id, c) for t, c in zip(tiles[:k], cells[:k], strict=True)]
    return replay(Position(rules, placed), variant).apply_action(tiles[k])


def _ranking(result):
    return ([(o.cell, o.launch, o.estimate, o.samples, o.stdev) for o in result.options],
            result.samples, result.lead, result.lead_stderr)


def _orders(state, rng):
    """The order of the tiles still to come: unknown, and two dealt orders of two
    different sets of tiles (what a dealt game may hold)."""
    n = state.calls_to_come()
    first = rng.sample(state.unseen_tiles(), n)
    second = rng.sample(state.unseen_tiles(), n)
    return [None, tuple(first), tuple(reversed(second))]


# ---------------------------------------------------------------- the hint is honest

@settings(PROPERTY, max_examples=8)  # three hints each (a hint: up to a second)
@given(seed=st.integers(0, 10**6), rules_seed=st.integers(0, 30), k=st.integers(0, 3),
       ships=st.sampled_from([None, "simple", "advanced"]), gold=st.booleans())
def test_the_hint_and_its_ranking_ignore_the_order_of_the_tiles_to_come(
        seed, rules_seed, k, ships, gold):
    """Small boards (6 cells, 9 tiles) so that many random positions are tried."""
    rules = (small_rules(rules_seed, n_cells=6, n_tiles=9) if ships is None else
             small_ship_rules(rules_seed, n_cells=6, n_tiles=9))
    state = _position(rules, Variant(gold, ships), k, seed)
    answers = [_ranking(hint(replace(state, to_call=order), state.called, samples=2,
                             seed=seed))
               for order in _orders(state, random.Random(seed))]
    assert answers[0] == answers[1] == answers[2]
    assert answers[0][0]  # a ranking, not an empty list


@pytest.mark.parametrize("seed, k, variant", [(1, 9, Variant(False, "advanced")),
                                              (2, 17, Variant(True))])
def test_the_hint_ignores_the_order_on_the_full_board(seed, k, variant):
    state = _position(RULES, variant, k, seed)
    answers = [_ranking(hint(replace(state, to_call=order), state.called, samples=2,
                             seed=seed))
               for order in _orders(state, random.Random(seed))]
    assert answers[0] == answers[1] == answers[2] and answers[0][0]


@PROPERTY
@given(seed=st.integers(0, 10**6), k=st.integers(0, 22), gold=st.booleans(),
       ships=st.sampled_from([None, "simple", "advanced"]))
def test_greedy_ignores_the_order_of_the_tiles_to_come(seed, k, gold, ships):
    state = _position(RULES, Variant(gold, ships), k, seed)
    moves = set()
    for order in _orders(state, random.Random(seed)):
        seen = replace(state, to_call=order)
        moves.add(greedy_choice(seen, seen.legal_placements(), random.Random(seed)))
    assert len(moves) == 1


def test_the_hint_says_how_many_futures_and_their_spread():
    state = _position(RULES, Variant(), 12, 3)
    result = hint(state, state.called, samples=4, seed=3)
    assert result.sampled and result.samples == 4 and result.unseen == 32 - 13
    assert all(o.samples == 4 and o.stdev is not None and o.stderr is not None
               for o in result.options)
    assert result.lead is not None and result.lead >= 0 and result.lead_stderr is not None
    last = _position(RULES, Variant(), 23, 3)
    exact = hint(last, last.called)
    assert not exact.sampled and exact.lead is None


# ---------------------------------------------------------------- tiles known to come

def test_known_tiles_to_come_are_in_every_future():
    """With every tile to come known (small board: 2 empty cells, 1 tile to come), every
    future is that tile, so every estimate is exact, with no spread."""
    rules = small_rules(11, n_cells=5, n_tiles=7)
    state = _position(rules, Variant(), 3, 2)
    coming = state.unseen_tiles()[1]
    known = replace(state, coming=(coming,))
    result = hint(known, known.called, samples=5, seed=1)
    for o in result.options:
        board = {**state.board, o.cell: state.called}
        other = next(c for c in state.empty_cells() if c != o.cell)
        assert o.estimate == board_score(rules, {**board, other: coming})
        assert o.stdev == 0


def test_chances_and_deals_with_tiles_known_to_come():
    """4 tiles placed, none called: 20 calls left, 3 of them known. A known tile comes
    next with chance 1/20, each of the other 25 with 17/(25*20)."""
    rng = random.Random(4)
    base = _position(RULES, Variant(), 4, 4)
    state = replace(base, called=None)
    known = tuple(state.unplaced_tiles()[:3])
    state = replace(state, coming=known)
    chances = dict(GAME.chance_outcomes(state))
    assert len(chances) == 28 and abs(sum(chances.values()) - 1) < 1e-12
    assert all(abs(chances[t] - 1 / 20) < 1e-12 for t in known)
    assert {round(p * 500, 9) for t, p in chances.items() if t not in known} == {17}
    for _ in range(5):
        full = GAME.determinize(state, rng)
        assert set(known) <= set(full.to_call) and len(full.to_call) == 20
        assert GAME.observation(full, 0) == state
        assert GAME.unknown(full) == []
    # every call known: no other tile can come
    every = replace(state, coming=tuple(state.unplaced_tiles()[:20]))
    assert {t for t, _ in GAME.chance_outcomes(every)} == set(every.coming)
    with pytest.raises(BadInput, match="not among the tiles still to come"):
        every.apply_action(state.unplaced_tiles()[25])


def test_to_come_round_trips_and_is_known():
    data = {"game": "take-it-higher", "placements": ["GA@c1", "GB@d1"], "called": "GC",
            "to_come": ["SA", "?", "SB", *["?"] * 18]}
    state = GAME.read(RULES, data, "test")
    assert [t.id for t in state.coming] == ["SA", "SB"]
    written = GAME.write(state)
    assert written["to_come"] == ["SA", "SB", *["?"] * 19]
    assert GAME.write(GAME.read(RULES, json.loads(json.dumps(written)), "again")) == written
    assert "2 of the tiles still to be called" in GAME.knows(state)
    assert GAME.unknown(state) == [
        "the order of the 21 tile(s) still to be called, and 19 of them: any 19 of the 27 "
        "tiles neither placed, called nor known to come"]
    counted = GAME.read(RULES, {**data, "to_come": 21}, "test")
    assert counted.coming == () and "to_come" not in GAME.write(counted)


def test_knows_in_the_games_words():
    dealt = dealt_game(RULES, Variant(False, "simple"), RULES.tiles[:24])
    assert GAME.knows(dealt) == [
        "the board", "the spaceships launched", "the called tile",
        "the number of tiles still to be called", "which tiles are still to be called",
        "the order of the tiles still to be called"]
    assert GAME.knows(GAME.observation(dealt, 0)) == [
        "the board", "the spaceships launched", "the called tile",
        "the number of tiles still to be called"]
    assert GAME.knows(GameState(RULES, Variant())) == [
        "the board", "the number of tiles still to be called"]


# ---------------------------------------------------------------- bad input

BASE = '"placements": ["GA@c1", "GB@d1"], "called": "GC"'


@pytest.mark.parametrize("to_come, words", [
    ("30", ["to_come", "30 tiles still to come", "only 29 of the 32 tiles"]),
    (json.dumps(["?"] * 30), ["30 tiles", "only 29 of the 32"]),
    (json.dumps(["SA"] + ["?"] * 29), ["30 tiles (29 of them '?')", "only 29"]),
    ("20", ["20 tiles still to come", "22 empty cells less the called tile", "leave 21"]),
    (json.dumps(["?"] * 22), ["22 tiles still to come", "leave 21"]),
    (json.dumps(["GA", *["?"] * 20]), ["to_come[0]", "GA is on the board (placement 1)"]),
    (json.dumps(["GC", *["?"] * 20]), ["to_come[0]", "GC is the called tile"]),
    (json.dumps(["SA", "SA", *["?"] * 19]), ["to_come[1]", "SA is listed twice"]),
    (json.dumps(["ZZ", *["?"] * 20]), ["to_come[0]", "ZZ"]),
    ("-1", ["to_come", "negative count -1"]),
    ('"many"', ["to_come", "a number of tiles, or a list"]),
])
def test_bad_tiles_to_come(tmp_path, to_come, words):
    f = tmp_path / "p.json"
    f.write_text(f'{{{BASE}, "to_come": {to_come}}}')
    for command in (["show", str(f)], ["hint", str(f), "--samples", "1"]):
        assert_one_line_error(run(*command), *words)


@pytest.mark.parametrize("data, words", [
    ('{"placements": ["GB@c1"], "called": "?"}',
     ["called: '?'", "announced to every player"]),
    ('{"placements": ["?@c1"], "called": "GA"}',
     ["placement 1", "'?@c1'", "in view"]),
])
def test_what_the_player_sees_cannot_be_unknown(tmp_path, data, words):
    f = tmp_path / "p.json"
    f.write_text(data)
    for command in (["show", str(f)], ["hint", str(f), "--samples", "1"]):
        assert_one_line_error(run(*command), *words)


def test_to_come_is_checked_against_the_rules_data():
    with pytest.raises(BadInput, match="leave 0 to be called"):
        position_from_dict(RULES, {"placements": [f"{t.id}@{c}" for t, c in
                                                  zip(RULES.tiles, RULES.cell_ids,
                                                      strict=False)],
                                   "to_come": 1})


# ---------------------------------------------------------------- what commands say

def test_commands_say_what_they_knew(tmp_path):
    # 14 tiles placed, two of the 9 to come known: a hint of a fraction of a second (the
    # sampled futures of 9 empty cells, not 21)
    tiles = [t.id for t in RULES.tiles]
    f = tmp_path / "p.json"
    f.write_text(json.dumps({
        "placements": [f"{t}@{c}" for t, c in zip(tiles[:14], RULES.cell_ids, strict=False)],
        "called": tiles[14], "to_come": [*tiles[15:17], *["?"] * 7]}))
    out = run_json(run, "hint", str(f), "--samples", "2", "--seed", "1")
    assert out["all_seeing"] is False and out["samples"] == 2 and out["sampled"]
    assert out["knows"] == ["the board", "the called tile",
                            "the number of tiles still to be called",
                            "2 of the tiles still to be called"]
    assert out["unknown"] and all("stdev" in o for o in out["options"])
    score = run_json(run, "score", str(f))
    assert score["all_seeing"] is False and "the board" in score["knows"]
    draw = ",".join(tiles[:24])
    # one back-end each, not two racing: what the commands say is the same
    best = run_json(run, "max", "--draw", draw, "--backend", "cpsat", "--workers", "1")
    assert best["all_seeing"] is True and best["unknown"] == []
    assert "the order of the tiles still to be called" in best["knows"]
    assert best["reading"].startswith("hindsight, all-seeing")
    free = run_json(run, "max", "--draw", tiles[0], "--backend", "maxsat")
    assert free["all_seeing"] is True and free["reading"].startswith("all-seeing")
    assert "the other tiles to be called: chosen freely" in free["knows"]


# ---------------------------------------------------------------- honest = open hands

@pytest.mark.parametrize("policy, options", [
    ("greedy", {"no_optimum": True}),
    ("random", {"no_optimum": True}),
    ("hint", {"no_optimum": True, "samples": 1}),
])
def test_open_hands_play_the_same_games(policy, options):
    """The policies read only what the player sees: handed the dealt order of the tiles
    (--open-hands), they play exactly the same games."""
    rules = small_rules(7, n_cells=6, n_tiles=9) if policy == "hint" else RULES
    setups = GAME.setups(rules, variant="advanced")
    games = 3 if policy == "hint" else 20
    honest, seeing = (simulate(GAME, rules, games, setups, [[policy]], 5,
                               options=options, open_hands=o) for o in (False, True))
    assert honest.knows == {policy: "own"} and seeing.knows == {policy: "everything"}
    assert [r.measures for r in honest.records] == [r.measures for r in seeing.records]
    assert [r.returns for r in honest.records] == [r.returns for r in seeing.records]


def test_solving_a_puzzle_is_all_seeing():
    from pathlib import Path

    puzzle = (Path(__file__).parents[1]
              / "puzzles/take-it-higher/library/take-it-higher-easy-2026-1.json")
    out = run_json(run, "solve", str(puzzle))
    assert out["status"] == "unique" and out["all_seeing"] is True and out["unknown"] == []
    assert "the order of the tiles still to be called" in out["knows"]
