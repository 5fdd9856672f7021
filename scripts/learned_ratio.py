"""The learned values alone (no look-ahead, `td.play`) on the draws of the store,
as a share of their hindsight optima: a quick check of a values file before a store run.

    python scripts/learned_ratio.py [--values FILE] [--variant V] [--games N]
        [--store scripts/stores/take-it-higher-hint.sqlite] [--store DRAWS.sqlite]

The draws are those of `simulate --seed 0` (game g: `game_draw(rules, g)`), the optima
the best the stores hold for them (the built-in rules; simulate's games or `max --draws
N --store` runs, a proven optimum before a best found); without `--values` the built-in
values of the variant. Prints the games, the mean score and optimum and the ratio of
means with its 95 % interval (`solver.stats.ratio_of_means`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.take_it_higher.draws import stored_references  # noqa: E402
from models.take_it_higher.learned.files import values_for  # noqa: E402
from models.take_it_higher.learned.td import play  # noqa: E402
from models.take_it_higher.rules import load_rules  # noqa: E402
from models.take_it_higher.state import game_draw  # noqa: E402
from models.take_it_higher.variants import variant_from_name  # noqa: E402
from solver.errors import BadInput  # noqa: E402
from solver.stats import ratio_of_means  # noqa: E402
from solver.store import Store, data_digest  # noqa: E402

STORE = Path(__file__).resolve().parent / "stores" / "take-it-higher-hint.sqlite"


def optima(paths: list[Path], variant: str) -> dict[int, float]:
    """Seed -> the best hindsight reference the stores hold for that draw of the
    variant on the built-in board (`draws.stored_references`)."""
    digest = data_digest(load_rules())
    with ExitStack() as stack:
        stores = [stack.enter_context(Store(str(p), create=False)) for p in paths]
        found = stored_references(stores)
    return {seed: score for (d, v, seed), (score, _) in found.items()
            if d == digest and v == variant}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--values", help="values file (default: the built-in ones)")
    ap.add_argument("--variant", default="basic", help="a variant name, e.g. advanced+gold-silver")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--store", action="append",
                    help="a store of hindsight optima: simulate's games or `max --draws "
                         f"--store` runs (repeatable; default {STORE.name})")
    args = ap.parse_args()
    rules = load_rules()
    try:
        variant = variant_from_name(args.variant)
        values = values_for(rules, variant, args.values)
    except BadInput as exc:
        ap.error(str(exc))  # one line, exit code 2
    paths = [Path(p) for p in args.store or [STORE]]
    for path in paths:
        if not path.is_file():
            ap.error(f"no store file {path}")
    try:
        best = optima(paths, variant.name)
    except ValueError as exc:  # two proven optima of one draw disagree
        ap.error(str(exc))
    if not best:
        ap.error(f"{', '.join(map(str, paths))}: no hindsight optima of {variant.name} games")
    seeds = sorted(best)[:args.games]
    scores = []
    for seed in seeds:
        draw = [values.layout.tile_index[t.id] for t in game_draw(rules, seed)]
        scores.append(play(values, draw))
    optimum = [best[s] for s in seeds]
    r = ratio_of_means(scores, optimum)
    print(f"{variant.name}: {len(seeds)} games, {statistics.fmean(scores):.1f} of "
          f"{statistics.fmean(optimum):.1f}, {100 * r.ratio:.1f} % "
          f"({100 * r.low:.1f}-{100 * r.high:.1f} %), values {args.values or 'built-in'} "
          f"({values.games} games)")


if __name__ == "__main__":
    main()
