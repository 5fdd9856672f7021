"""One contract for every game description (solver.game.Game): the five games and a toy
sixth game are checked the same way.

- seeded random playouts reach the end; every legal action applies and leaves the state
  it was applied to unchanged; chance outcomes add up to 1;
- an action that is not legal is refused with BadInput and changes nothing;
- positions round-trip through their JSON exactly;
- `determinize(observation(s, p))` agrees with the observation, is a position the
  game's reader accepts (consistent with all the observation reveals, e.g. Topito's
  photo times), and an observation never reveals what it hides;
- simulate gives the same records in-process and on a pool of two.
"""

from __future__ import annotations

import json
import random

import pytest

from solver.errors import BadInput
from solver.executor import Batch
from solver.game import CHANCE, TERMINAL, Game
from solver.registry import games
from solver.simulate import simulate
from tests.toy.game import TOY


def _described() -> list[Game]:
    return [entry.game() for entry in games().values() if entry.id != TOY.id]


GAMES = [*_described(), TOY]
IDS = [g.id for g in GAMES]
PLAYOUTS = 4


def test_every_game_is_described():
    assert sorted(g.id for g in _described()) == sorted(
        g for g in games() if g != TOY.id)


def frozen(game: Game, state) -> str:
    return json.dumps(game.write(state), sort_keys=True)


def playout(game: Game, seed: int) -> list[tuple]:
    """A seeded random playout from a new game (of one of the game's default setups,
    chosen by the seed), checking each step; returns (state, action) pairs of the
    decisions and chance events made."""
    rules = game.load_rules(None)
    setups = game.setups(rules)
    setup = setups[seed * 7 % len(setups)]  # a stride, so a few seeds meet many setups
    deal, play = game.streams(seed)
    state = game.new_game(rules, setup, deal)
    rng = random.Random(seed)
    steps = []
    for _ in range(game.max_actions):
        player = game.current_player(state)
        if player == TERMINAL:
            assert game.is_terminal(state)
            assert game.legal_actions(state) == []
            returns = game.returns(state)
            assert len(returns) == game.players(state)
            return steps
        assert not game.is_terminal(state)
        legal = game.legal_actions(state)
        assert legal, "a player (or chance) to act has something to do"
        if player == CHANCE:
            outcomes = game.chance_outcomes(state)
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert all(p > 0 for _, p in outcomes)
            assert sorted(map(repr, (a for a, _ in outcomes))) == sorted(map(repr, legal))
        else:
            assert 0 <= player < game.players(state)
        before = frozen(game, state)
        action = rng.choice(legal)
        after = game.apply_action(state, action)
        assert frozen(game, state) == before, "apply_action changed the state it was given"
        steps.append((state, action))
        state = after
    pytest.fail(f"{game.id}: no end after {game.max_actions} actions")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_random_playouts_reach_the_end(game):
    for seed in range(PLAYOUTS):
        assert playout(game, seed)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_illegal_actions_are_refused_without_change(game):
    steps = [s for seed in range(2) for s in playout(game, seed)]
    seen = [a for _, a in steps]
    refused = 0
    for state, _ in steps[::3]:
        legal = game.legal_actions(state)
        for action in seen:
            if action in legal:
                continue
            before = frozen(game, state)
            with pytest.raises(BadInput):
                game.apply_action(state, action)
            assert frozen(game, state) == before
            refused += 1
            break
    assert refused > 0


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_positions_round_trip(game):
    rules = game.load_rules(None)
    for state, _ in playout(game, 5)[::2]:
        data = game.write(state)
        again = game.read(rules, json.loads(json.dumps(data)), "round trip")
        assert game.write(again) == data
        assert game.current_player(again) == game.current_player(state)
        assert game.legal_actions(again) == game.legal_actions(state)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_determinize_agrees_with_the_observation(game):
    rules = game.load_rules(None)
    rng = random.Random(7)
    for state, _ in playout(game, 6)[::2]:
        for player in range(game.players(state)):
            seen = game.observation(state, player)
            text = frozen(game, seen)
            # an observation is a position a player can write down and read back
            assert frozen(game, game.read(rules, game.write(seen), "observation")) == text
            for _ in range(2):
                full = game.determinize(seen, rng)
                assert game.unknown(full) == []
                assert frozen(game, game.observation(full, player)) == text
                # consistent with all the observation reveals (beyond the hands, e.g.
                # Topito's photo times): the reader's checks of a position pass
                again = game.read(rules, game.write(full), "determinized")
                assert frozen(game, again) == frozen(game, full)
            if game.current_player(state) == player:
                # the player to act knows its own moves
                assert game.legal_actions(seen) == game.legal_actions(state)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_knows_says_what_an_observation_holds(game):
    rules = game.load_rules(None)
    rng = random.Random(5)
    for state, _ in playout(game, 6)[::2]:
        full = game.knows(state)
        assert full and all(isinstance(k, str) and k for k in full)
        for player in range(game.players(state)):
            seen = game.observation(state, player)
            knows = game.knows(seen)
            # what a player knows is part of the whole, and less of it when hiding
            assert set(knows) <= set(full)
            if game.unknown(seen) != game.unknown(state):
                assert set(knows) < set(full)
            # and the same for every state the player cannot tell apart
            assert game.knows(game.observation(game.determinize(seen, rng), player)) == knows
            assert game.read(rules, game.write(seen), "observation") is not None


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_simulate_is_the_same_in_process_and_on_a_pool(game):
    rules = game.load_rules(None)
    setups = game.setups(rules)[:1]
    alone = simulate(game, rules, 3, setups, [["random"]], seed=3, batch=Batch(1, progress=False))
    pooled = simulate(game, rules, 3, setups, [["random"]], seed=3,
                      batch=Batch(2, progress=False))
    assert alone.records == pooled.records
    assert pooled.executor == "local pool (2 processes)"
    assert alone.played == 3
