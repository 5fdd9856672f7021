"""Take it Higher! policies against the best honest play, exactly, on small boards.

On the small random rules files of the tests (a few cells of a 3x3 grid, a few more
tiles than cells), `models.take_it_higher.exact` gives each position's exact expected
final score under the best play (expectimax over the unseen tiles) and the expected
hindsight optimum (the best board of the tiles that will come, as if known). So:

- the ceiling: the best honest play's share of the hindsight optimum, the most any
  policy can reach against that reference;
- a policy's loss: at each of its decisions in seeded games, the exact value of the best
  cell minus that of its cell; summed over a game, averaged over games, it estimates
  the policy's shortfall against the best play (without the noise of the final scores).

    python scripts/bench_exact_small.py --rules-seeds 0-5 --cells 6 --tiles 10 \\
        --games 10 --policy hint --policy greedy [--gold-silver] [--samples 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.take_it_higher.exact import ExactValues  # noqa: E402
from models.take_it_higher.learned.policy import LOOKAHEAD  # noqa: E402
from models.take_it_higher.learned.td import train  # noqa: E402
from models.take_it_higher.policies import (  # noqa: E402
    greedy_choice,
    hint_choice,
    learned_choice,
)
from models.take_it_higher.rows import board_score  # noqa: E402
from models.take_it_higher.state import GameState  # noqa: E402
from models.take_it_higher.variants import Variant  # noqa: E402
from tests.tih_small import small_rules  # noqa: E402


def seeds(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules-seeds", default="0-5")
    ap.add_argument("--cells", type=int, default=6)
    ap.add_argument("--tiles", type=int, default=10)
    ap.add_argument("--dirs", type=int, default=4)
    ap.add_argument("--gold-silver", action="store_true")
    ap.add_argument("--games", type=int, default=10, help="seeded games per rules file")
    ap.add_argument("--policy", action="append", choices=["hint", "greedy", "learned"])
    ap.add_argument("--learn-games", type=int, default=20_000,
                    help="the learned policy: games of self-play on each rules file")
    ap.add_argument("--lookahead", type=int, default=LOOKAHEAD,
                    help="the learned policy: cells valued one call ahead")
    ap.add_argument("--samples", type=int, default=4, help="the hint's futures")
    args = ap.parse_args()
    policies = {"hint": hint_choice(args.samples), "greedy": greedy_choice}
    chosen = args.policy or ["hint", "greedy"]
    variant = Variant(args.gold_silver, None)
    totals: dict[str, list[float]] = {p: [] for p in chosen}
    ceilings = []
    for rs in seeds(args.rules_seeds):
        rules = small_rules(rs, n_cells=args.cells, n_tiles=args.tiles, n_dirs=args.dirs)
        exact = ExactValues(rules, variant)
        start = GameState(rules, variant)
        t0 = time.perf_counter()
        best = exact.value(*exact.position(start))
        hind = exact.hindsight(*exact.position(start))
        ceilings.append((best, hind))
        line = [f"rules {rs}: best play {best:.2f}, hindsight {hind:.2f} "
                f"({best / hind:.1%}); {time.perf_counter() - t0:.1f} s"]
        if "learned" in chosen:  # values of this rules file, learned from seed rs
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "values.json"
                train(rules, variant, args.learn_games, seed=rs).save(path)
                # the learned values alone: no exact endgame (on these boards it
                # would take over from the first calls)
                policies["learned"] = learned_choice(args.lookahead, str(path), endgame=0)
                policies["learned"](start.apply_action(rules.tiles[0]), [],
                                    random.Random(0))  # loaded while the file exists
        for name in chosen:
            losses, scores = [], []
            for g in range(args.games):
                rng = random.Random(1000 * rs + g)
                draw = rng.sample(list(rules.tiles), rules.board_size)
                state, loss = start, 0.0
                for tile in draw:
                    state = state.apply_action(tile)
                    values = {c.cell: c.value for c in exact.cells_for(state, tile).cells}
                    move = policies[name](state, state.legal_placements(), rng)
                    loss += max(values.values()) - values[move.cell]
                    state = state.apply_action(move)
                losses.append(loss)
                scores.append(board_score(rules, state.board, variant.gold_silver))
            totals[name].append((best - statistics.fmean(losses)) / hind)
            line.append(f"{name}: loss {statistics.fmean(losses):.2f} a game "
                        f"(so {best - statistics.fmean(losses):.2f}, "
                        f"{(best - statistics.fmean(losses)) / hind:.1%} of hindsight); "
                        f"played {statistics.fmean(scores):.1f}")
        print("; ".join(line), flush=True)
    print(f"mean: best play {statistics.fmean(b / h for b, h in ceilings):.1%} of hindsight; "
          + "; ".join(f"{n} {statistics.fmean(v):.1%}" for n, v in totals.items()))


if __name__ == "__main__":
    main()
