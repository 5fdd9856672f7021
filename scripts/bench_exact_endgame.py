"""Endgames of recorded Take it Higher! games, valued exactly (built-in rules).

For the games a `simulate --store` run kept (their placements are in the record), the
position with E empty cells is valued by `models.take_it_higher.exact`:

- best play: the expected final score of the best honest play from there (expectimax
  over every tile the later calls may bring);
- hindsight: the expected best board of the tiles still to come, as if known;
- the policy's loss: at each of its last E decisions, the exact value of the best cell
  minus that of the cell it chose (summed over the game; 0 = it played the endgame
  as well as possible for what it knew).

    python scripts/bench_exact_endgame.py STORE --variant basic --policy hint \\
        --empty 5 --games 0-39
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.take_it_higher.exact import ExactValues  # noqa: E402
from models.take_it_higher.positions import Placement  # noqa: E402
from models.take_it_higher.rows import board_score  # noqa: E402
from models.take_it_higher.rules import load_rules  # noqa: E402
from models.take_it_higher.state import GameState  # noqa: E402
from models.take_it_higher.variants import variant_from_name  # noqa: E402
from solver.store import Store, data_digest  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("store")
    ap.add_argument("--variant", default="basic", help="basic or gold-silver")
    ap.add_argument("--policy", default="hint")
    ap.add_argument("--empty", type=int, default=5, help="empty cells at the valued position")
    ap.add_argument("--games", default="0-39", help="game numbers, FIRST-LAST")
    ap.add_argument("--no-hindsight", action="store_true",
                    help="skip the hindsight value (slow beyond 5 empty cells)")
    args = ap.parse_args()
    first, last = (int(x) for x in args.games.split("-"))
    rules = load_rules()
    variant = variant_from_name(args.variant)
    digest = data_digest(rules)
    games = {}
    for row in Store(args.store).rows("games", {"game": "take-it-higher"}):
        p, r = row["parameters"], row["result"]
        if (p.get("seats") == [args.policy] and p.get("rules_digest") == digest
                and p.get("setup", {}).get("variant") == args.variant
                and first <= r["game"] <= last and r["measures"].get("placements")):
            games[r["game"]] = r
    exact = ExactValues(rules, variant)
    out = []
    for g in sorted(games):
        measures = games[g]["measures"]
        moves = []
        for text in measures["placements"]:
            tile, cell = text.split("@")
            moves.append(Placement(tile, cell.split("+")[0]))
        start = time.perf_counter()
        state = GameState(rules, variant)
        for p in moves[:-args.empty]:
            state = state.apply_action(rules.tile_by_id[p.tile]).apply_action(p)
        exact.memo.clear()  # one game's values at a time: the memory stays small
        board, unseen = exact.position(state)
        exact.check_size(args.empty, unseen)
        best = exact.value(board, unseen)
        hind = None if args.no_hindsight else exact.hindsight(board, unseen)
        loss = 0.0
        for p in moves[-args.empty:]:
            tile = rules.tile_by_id[p.tile]
            values = {c.cell: c.value for c in exact.cells_for(state, tile).cells}
            loss += max(values.values()) - values[p.cell]
            state = state.apply_action(tile).apply_action(p)
        final = board_score(rules, state.board, variant.gold_silver)
        out.append((best, hind, loss, final))
        share = f" ({best / hind:.1%})" if hind else ""
        print(f"game {g}: best play {best:.1f}, hindsight {hind or 0:.1f}{share}, "
              f"{args.policy} loss {loss:.2f}, its final score {final} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    if not out:
        sys.exit("no such games in the store")
    best = statistics.fmean(o[0] for o in out)
    losses = [o[2] for o in out]
    line = (f"{len(out)} games, {args.empty} empty cells: best play {best:.1f}, "
            f"{args.policy} loss {statistics.fmean(losses):.2f} a game "
            f"(0 in {sum(x < 1e-9 for x in losses)} of {len(losses)}, at most "
            f"{max(losses):.2f})")
    if not args.no_hindsight:
        hind = statistics.fmean(o[1] for o in out)
        line += f", hindsight {hind:.1f}: best play {best / hind:.1%} of it"
    print(line)


if __name__ == "__main__":
    main()
