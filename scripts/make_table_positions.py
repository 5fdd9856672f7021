"""Write the web page's first positions of the games with hidden parts, as a player sees
the table in the middle of a game: `puzzles/<game>/table.json`.

A seeded game of two players is dealt (`Game.new_game`) and played by the game's first
policy until the given number of moves is made (chance events resolved as they come);
the position written is what the player on turn may know (`Game.observation`): the
other hands unknown, face-down piles unordered (only their counts). These are the
positions `tests/test_web_setup.py` sets up by clicks.

    python scripts/make_table_positions.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from solver.game import CHANCE
from solver.registry import entry
from solver.web import default_rules

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"

# game -> (setup options, seed, moves made by the players)
TABLES = {"tippi-toppi": ({"players": "2", "difficulty": "normal"}, 3, 8),
          "hoch-hinaus": ({"players": 2, "difficulty": "normal"}, 5, 5)}


def table_position(game_id: str, options: dict, seed: int, moves: int) -> dict:
    game = entry(game_id).game()
    rules = default_rules(game)
    setup = game.setups(rules, **options)[0]
    deal, chance = random.Random(seed), random.Random(seed + 1)
    state = game.new_game(rules, setup, deal)
    policy = game.policy(rules, game.policy_names[0], {})
    made = 0
    while made < moves and not game.is_terminal(state):
        seat = game.current_player(state)
        if seat == CHANCE:
            state = game.apply_action(state, game.sample_chance(state, chance))
            continue
        seen = game.observation(state, seat)
        action = policy.choose(state if policy.open_hands else seen,
                               game.legal_actions(state), chance)
        state = game.apply_action(state, action)
        made += 1
    while game.current_player(state) == CHANCE:  # the draw after the last move
        state = game.apply_action(state, game.sample_chance(state, chance))
    data = game.write(game.observation(state, game.current_player(state)))
    data.pop("turns", None)  # bookkeeping of simulated games, not on the table
    return data


def main() -> None:
    for game_id, (options, seed, moves) in TABLES.items():
        path = PUZZLES / game_id / "table.json"
        data = table_position(game_id, options, seed, moves)
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"{path}: {moves} moves of seed {seed}")


if __name__ == "__main__":
    main()
