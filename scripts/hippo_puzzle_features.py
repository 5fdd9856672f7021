"""Features and rating scores of the unique proposals of each Hippo puzzle shape: the
figures the rating's thresholds were set from (docs/puzzles.md).

    python scripts/hippo_puzzle_features.py [--proposals 60]
"""

from __future__ import annotations

import argparse
import random

from models.hippo.puzzles import HippoPuzzles
from models.hippo.rules import load_rules
from solver.generate import attempt_seed
from solver.stats import summarise


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--proposals", type=int, default=60)
    args = ap.parse_args()
    kind = HippoPuzzles(load_rules())
    for shape in ("easy", "medium", "hard"):
        scores, unique = [], 0
        for i in range(args.proposals):
            puzzle = kind.propose(random.Random(attempt_seed(99, i)), shape)
            found = kind.search(puzzle, 2)
            if len(found.solutions) != 1 or not found.complete:
                continue
            unique += 1
            f = kind.features(puzzle, found.solutions[0], found)
            scores.append(kind.rating.score(f))
            print(shape, f, scores[-1])
        s = summarise(scores) if scores else None
        print(f"{shape} shape: {unique}/{args.proposals} unique; scores {s}")


if __name__ == "__main__":
    main()
