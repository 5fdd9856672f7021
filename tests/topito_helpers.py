"""Topito positions for tests: dealt games after seeded random moves."""

from __future__ import annotations

import random

from models.topito.rules import GameRules, load_game_rules
from models.topito.state import GameState, new_game

BUILT_IN = load_game_rules()


def reached(seed: int, players: int, moves: int, rules: GameRules = BUILT_IN) -> GameState:
    """A position of a dealt game after some seeded random moves (not over)."""
    rng = random.Random(seed)
    state = new_game(rules, players, rng)
    for _ in range(moves):
        nxt = state.move(rng.choice(state.legal_moves()))
        if nxt.end() is not None:
            break
        state = nxt
    return state
