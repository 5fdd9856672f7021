"""The hint policy of Topito and what it stands on: the one-move test of nearness.py held
equal to listing the moves, the two-move distances equal to breadth-first search, the
threat chance equal to counting every deal, the policy deciding on its own view only,
the same games on every executor, and the hint beating greedy."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.topito.bfs import bfs_plan
from models.topito.game import GAME
from models.topito.hint import MeetChances, choose_move, outlooks, table_hint
from models.topito.nearness import Blocks, near_distances
from models.topito.positions import read_position
from models.topito.rules import Goal, load_game_rules, parse_card
from models.topito.state import Move, State, successors
from solver.simulate import simulate
from tests.cli_helpers import game_runner, on_three_executors
from tests.topito_helpers import reached

BUILT_IN = load_game_rules()
R = BUILT_IN.rules
DECK = list(dict.fromkeys(BUILT_IN.deck))
run = game_runner("topito")


@st.composite
def positions(draw: st.DrawFn) -> tuple[tuple[tuple[int, ...], ...], tuple[int, int] | None]:
    """Stacks of some of the blocks on the podiums, and maybe a banned move."""
    order = draw(st.permutations(range(R.n_blocks)))
    k = draw(st.integers(0, R.n_blocks))
    cuts = sorted(draw(st.lists(st.integers(0, k), min_size=R.n_podiums - 1,
                                max_size=R.n_podiums - 1)))
    bounds = [0, *cuts, k]
    stacks = tuple(tuple(order[bounds[i]:bounds[i + 1]]) for i in range(R.n_podiums))
    placed = [(b, p) for p, s in enumerate(stacks) for b in s]
    ban = None
    if placed and draw(st.booleans()):
        b, p = draw(st.sampled_from(placed))
        ban = (b, draw(st.sampled_from([q for q in range(R.n_podiums) if q != p])))
    return stacks, ban


@settings(max_examples=300, deadline=None)
@given(positions())
def test_within_one_equals_listing_every_move(position):
    stacks, ban = position
    near = Blocks(stacks, ban, R.n_blocks)
    after = [s for *_, s in successors(stacks, ban, R.n_blocks)]
    for card in DECK:
        assert near.within_one(card) == (card.met(stacks) or any(card.met(s) for s in after)), \
            (card.text(R), stacks, ban)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from(DECK), st.booleans())
def test_two_move_distances_equal_breadth_first_search(position, card, rule):
    stacks, ban = position
    last = None if ban is None else Move(ban[0], ban[1], next(
        p for p, s in enumerate(stacks) if ban[0] in s))
    state = State(R, stacks, last, rule)
    [got] = near_distances(stacks, state.ban, R.n_blocks, [card], rule)
    assert got == bfs_plan(state, Goal((card,)), 2).length


def test_the_threat_is_exact_over_every_deal_the_player_cannot_tell_apart():
    """Count every hidden hand consistent with seat 1's view: the share in which seat 2
    holds a card it can meet with one move after seat 1's move (and not at once) is the
    hint's threat, exactly; the gift is the share in which it is met at once."""
    deck = [parse_card(R, t) for t in (
        "Duck on Owl", "Cat on Bear", "Pig on Cat", "Owl on Pig", "Fox on Duck",
        "rank 1: Bear", "rank 2: Fox", "podium blue: Cat Fox Pig", "Whale on Mouse",
        "order Bear < Cat < Duck")]
    small = replace(BUILT_IN, deck=tuple(deck))
    view = read_position(small, {
        "podiums": {"red": ["Bear", "Cat"], "yellow": ["Duck"], "blue": []},
        "hands": [["Whale on Mouse", "podium blue: Cat Fox Pig"], ["?", "?", "?"]],
        "played": [["Pig on Cat"], []], "on_turn": 1})
    stacks = view.blocks.stacks
    hands = [h for h in itertools.combinations(view.unseen(), 3)
             if not any(c.met(stacks) for c in h)]
    chances = MeetChances(view)
    own = [c for c in view.hands[0] if c is not None]
    seen = set()
    for o in outlooks(view.blocks, own, chances):
        near = Blocks(o.stacks, o.ban, R.n_blocks)
        threat = Fraction(sum(any(not c.met(o.stacks) and near.within_one(c) for c in h)
                              for h in hands), len(hands))
        gift = Fraction(sum(any(c.met(o.stacks) for c in h) for h in hands), len(hands))
        assert (o.threat, o.gift_next, o.gift_any) == (threat, gift, gift)
        seen.add(threat)
    assert len(seen - {0, 1}) >= 2  # the counts are not all trivial


def test_the_hint_command_ranks_by_value_and_says_why():
    res, _ = table_hint(read_position(BUILT_IN, json.loads(
        (GAME_FILES / "midgame.json").read_text())), "bfs", 3)
    values = [m.value for m in res.moves]
    assert values == sorted(values, reverse=True)
    best = res.best
    assert best.meets and best.reasons.startswith(f"meets your {best.meets[0]}")
    for m in res.moves:
        assert m.value == pytest.approx(10 * len(m.meets) + len(m.near) - 3 * m.others_meet
                                        - m.threat, abs=1e-5)
        # one move away is a distance of 1, exactly the command's proven distances
        assert sorted(m.near) == sorted(c for c, d in m.distances.items() if d == 1)
    assert [(s.seat, s.played, s.to_go, s.on_turn) for s in res.race] == [
        (1, 0, 7, True), (2, 0, 7, False)]


GAME_FILES = __import__("pathlib").Path(__file__).resolve().parents[1] / "puzzles" / "topito"




@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), moves=st.integers(0, 20))
def test_the_hint_policy_decides_on_its_own_view(seed, players, moves):
    state = reached(seed, players, moves)
    view = GAME.observation(state, state.turn)
    first = choose_move(view, random.Random(seed))
    for k in range(2):
        other = GAME.determinize(view, random.Random(seed + k + 1))
        assert choose_move(GAME.observation(other, other.turn), random.Random(seed)) == first
    assert first in state.legal_moves()


def test_the_hint_policy_meets_a_card_and_avoids_gifts():
    """Seat 1 meets "rank 2: Cat" by putting any block on the Cat; seat 2's one hidden
    card is one of three "X on Cat" cards, so putting Fox, Duck or Owl there hands it a
    photo one time in three. The policy puts another block."""
    deck = [parse_card(R, t) for t in ("rank 2: Cat", "Bear on Whale", "Fox on Cat",
                                       "Duck on Cat", "Owl on Cat")]
    view = read_position(replace(BUILT_IN, deck=tuple(deck)), {
        "podiums": {"red": ["Bear", "Cat"]}, "hands": [["rank 2: Cat", "Bear on Whale"],
                                                       ["?"]],
        "played": [[], []], "on_turn": 1})
    looks = {o.move: o for o in outlooks(view.blocks, list(view.hands[0]), MeetChances(view))}
    red = R.podium("red")
    assert looks[Move(R.block("Fox"), None, red)].gift_next == Fraction(1, 3)
    for seed in range(5):
        move = choose_move(view, random.Random(seed))
        assert move.target == red and R.characters[move.block] in (
            "Elephant", "Mouse", "Pig", "Whale")
        assert looks[move].met and looks[move].gift_any == 0


def test_hint_beats_greedy_head_to_head():
    # 40 games (27 wins to 13; 52 to 29 in 80)
    res = simulate(GAME, BUILT_IN, 40, GAME.setups(BUILT_IN), [["hint", "greedy"]],
                   seed=0, rotate=True)
    rates = res.cells[0].win_rate_by_policy
    assert rates["hint"].rate > rates["greedy"].rate + 0.1


def test_simulate_with_the_hint_is_the_same_on_every_executor(cluster):
    def sim(*extra: str) -> dict:
        result = run("simulate", "--games", "6", "--players", "3", "--policy",
                     "hint,greedy,random", "--rotate", "--seed", "5", "--json", *extra)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    def table(data: dict) -> dict:
        return {k: v for k, v in data.items() if k not in ("seconds", "executor")}

    on_dask, pooled, alone = on_three_executors(sim, cluster)
    assert table(on_dask) == table(pooled) == table(alone)
    assert alone["played"] == 6


def test_hint_players_who_all_avoid_chances_do_not_circle_for_ever(monkeypatch):
    """Game 10 of `simulate --players 3 --policy hint --seed 0` circled when the policy
    took only the moves of the very best value (three players moving the Fox round the
    podiums, each move the one that left the next player the least chance) until the
    move limit; taking moves of about the best value, and more so once a game drags on,
    the policy weighs its own distances and the game is won."""
    import models.topito.hint as hint_module
    from solver.simulate import play_one

    rules = replace(BUILT_IN, move_limit=100)

    def ending() -> str:
        record = play_one(GAME, rules, {"players": 3}, ["hint"] * 3, {}, False, 0, 10, 10)
        return record.measures["end"]

    assert ending() == "won"
    monkeypatch.setattr(hint_module, "LONG_GAME", 10**9)
    monkeypatch.setattr(hint_module, "TOLERANCE", 0.0)
    assert ending() == "move limit"
