"""Features of Topito puzzle proposals (to set the rating's weights and thresholds).

    python scripts/topito_puzzle_features.py [--attempts 12] [--backend sat]

For every difficulty, proposals from attempt seeds 0..N-1 (seed 0) are searched; the
unique ones are listed with their features and the rating score.
"""

from __future__ import annotations

import argparse
import random

from models.topito.puzzles import RATING, TopitoPuzzles
from models.topito.rules import load_deck, load_rules
from solver.generate import attempt_seed
from solver.puzzles import DIFFICULTIES


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--attempts", type=int, default=12)
    ap.add_argument("--backend", default="sat")
    args = ap.parse_args()
    rules = load_rules()
    kind = TopitoPuzzles(rules, load_deck(rules), args.backend, 20.0)
    for difficulty in DIFFICULTIES:
        verdicts: dict[str, int] = {}
        for i in range(args.attempts):
            puzzle = kind.propose(random.Random(attempt_seed(0, i)), difficulty)
            found = kind.search(puzzle, 2)
            verdict = ("several" if len(found.solutions) > 1 else
                       "none" if not found.solutions else "unique")
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
            if verdict == "unique":
                f = kind.features(puzzle, found.solutions[0], found)
                print(difficulty, i, f, RATING.score(f), flush=True)
        print(difficulty, verdicts, flush=True)


if __name__ == "__main__":
    main()
