"""Write example positions of Hoch Hinaus! to puzzles/hoch-hinaus/ from seeded games
played by the greedy policy (the hint without its SAT look-ahead).

midgame-*.json: positions after 6-9 turns (for the benchmark and the docs);
endgame-known.json: everything known (reserve order, tasks), few tasks left;
dead-end.json: a position (random play, seed 30) where some placements lose the game
at once (the next player could not place a tile) and others do not.
"""

import json
import random
from pathlib import Path

from models.hoch_hinaus.hint import policy_action
from models.hoch_hinaus.positions import position_json
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.state import new_game
from models.hoch_hinaus.tasks import load_catalogue

OUT = Path(__file__).resolve().parent.parent / "puzzles" / "hoch-hinaus"


def play(seed: int, stop) -> dict | None:
    rules = load_rules()
    cat = load_catalogue(rules)
    rng = random.Random(seed)
    g = new_game(rules, cat, 2, "normal", rng)
    while not g.is_terminal():
        if stop(g):
            return position_json(g)
        g = g.apply_action(policy_action(g, rng, "greedy"))
    return None


def dead_end(seed: int = 30) -> dict | None:
    rules = load_rules()
    cat = load_catalogue(rules)
    rng = random.Random(seed)
    g = new_game(rules, cat, 2, "champions", rng)
    while not g.is_terminal():
        acts = g.legal_actions()
        if g.turns >= 9:
            lost = [g.apply_action(a).status == "lost" for a in acts]
            if any(lost) and not all(lost):
                return position_json(g)
        g = g.apply_action(rng.choice(acts))
    return None


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for i, seed in enumerate((1, 2, 3, 4, 5)):
        turns = 6 + i % 4
        data = play(seed, lambda g, t=turns: g.turns >= t)
        if data:
            (OUT / f"midgame-{seed}.json").write_text(json.dumps(data, indent=1) + "\n")
    data = dead_end()
    if data:
        (OUT / "dead-end.json").write_text(json.dumps(data, indent=1) + "\n")
    for seed in range(10, 40):
        data = play(seed, lambda g: not g.draw_pile and 1 <= len(g.open) <= 2)
        if data:
            (OUT / "endgame-known.json").write_text(json.dumps(data, indent=1) + "\n")
            print("endgame from seed", seed)
            break


if __name__ == "__main__":
    main()
