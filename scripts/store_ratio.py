"""A policy's share of the hindsight optimum, from the games `simulate --store` kept.

    python scripts/store_ratio.py STORE [STORE ...] [--policy hint] [--paired] [--json]

Take it Higher! `simulate` records each game's score and, unless `--no-optimum`, the
hindsight optimum of its draw. Games are grouped by what was run (rules data, variant,
the policy's options); each game's optimum is the best reference any store given holds
for its draw (the same rules data, variant and seed): another record's, or a `max
--draws N --store` run's (draw i of seed 0 is simulate's game i), a proven optimum
before a best found. Per group: the games, the mean
score and optimum, how many optima are proven, and mean score / mean optimum with a 95 %
interval (`solver.stats.ratio_of_means`, paired by game). Long runs
go through `--store ... --resume`; this reads them at any point.

Several stores are read as one (runs made in copies of one store, say). With `--paired`,
each two runs of the same rules data and variant are compared game by game on the draws
both played, with or without an optimum: the mean difference of their scores (second
minus first) and its standard error, without the spread of the draws that the two
ratios' intervals carry.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from contextlib import ExitStack
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.take_it_higher.draws import game_draw_key, stored_references  # noqa: E402
from solver.stats import mean_error, ratio_of_means  # noqa: E402
from solver.store import Store  # noqa: E402

# per run (as JSON): seed -> (score, hindsight optimum or None, proven)
Runs = dict[str, dict[int, tuple[float, float | None, bool]]]


def run_games(stores: Store | list[Store], policy: str | None = None
              ) -> Runs:
    """Per run (its rules data, setup, seats, options and values as JSON): seed ->
    (score, hindsight optimum, proven) of its finished games; the optimum the best
    reference of its draw in the stores (`stored_references`), None if none has one."""
    listed = stores if isinstance(stores, list) else [stores]
    rows = [row for s in listed for row in s.rows("games", {"game": "take-it-higher"})]
    optimum = stored_references(listed)
    runs: Runs = {}
    for row in rows:
        p, r = row["parameters"], row["result"]
        seats = p.get("seats", [])
        if policy is not None and policy not in seats or not r.get("finished", True):
            continue
        key = game_draw_key(p, row["seed"])
        run = json.dumps({k: p.get(k) for k in ("rules_digest", "setup", "seats", "options",
                                                 "open_hands", "policy_data")},
                         sort_keys=True)
        runs.setdefault(run, {})[row["seed"]] = (r["returns"][0],
                                                 *optimum.get(key, (None, False)))
    return runs


def groups(stores: Store | list[Store], policy: str | None = None,
           runs: Runs | None = None) -> list[dict[str, Any]]:
    """Per run (rules data, setup, seats, options): the ratio of mean score to mean
    hindsight optimum over its finished games that have an optimum (`runs`: those of
    `run_games`, when read already); a run without any: its mean score, no ratio."""
    out = []
    for run, by_seed in (runs if runs is not None else run_games(stores, policy)).items():
        games = [g for g in by_seed.values() if g[1] is not None]
        scores = [s for s, _, _ in games or by_seed.values()]  # no optimum: all games
        optima = [o for _, o, _ in games]
        ratio = {k: v for k, v in asdict(ratio_of_means(scores, optima)).items()
                 if k != "n"} if games else {"ratio": None, "low": None, "high": None}
        out.append({"run": json.loads(run), "games": len(games), "played": len(by_seed),
                    "mean": round(statistics.fmean(scores), 2),
                    "optimum_mean": round(statistics.fmean(optima), 2) if games else None,
                    "optima_proven": sum(p for _, _, p in games), **ratio})
    return out


def paired(stores: Store | list[Store], policy: str | None = None,
           runs: Runs | None = None) -> list[dict[str, Any]]:
    """Each two runs (numbered as `groups` lists them) of the same rules data and setup
    with draws in common: those games' mean score difference, second minus first, and
    its standard error (`runs` as for `groups`)."""
    listed = list((runs if runs is not None else run_games(stores, policy)).items())
    out = []
    for i, (a, games_a) in enumerate(listed):
        for j in range(i + 1, len(listed)):
            b, games_b = listed[j]
            ra, rb = json.loads(a), json.loads(b)
            same = all(ra[k] == rb[k] for k in ("rules_digest", "setup"))
            common = sorted(games_a.keys() & games_b.keys())
            if not same or not common:
                continue
            mean, error = mean_error([games_b[g][0] - games_a[g][0] for g in common])
            out.append({"first": i, "second": j, "games": len(common),
                        "difference": round(mean, 2), "error": round(error, 2)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("store", nargs="+", help="one or more stores, read as one")
    ap.add_argument("--policy", help="only runs with this policy in a seat")
    ap.add_argument("--paired", action="store_true",
                    help="also each two runs of the same draws, game by game")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    for path in args.store:
        if not Path(path).is_file():
            ap.error(f"no store file {path}")  # one line, exit code 2
    with ExitStack() as stack:
        stores = [stack.enter_context(Store(path, create=False)) for path in args.store]
        try:
            runs = run_games(stores, args.policy)  # read once for both
        except ValueError as exc:  # two proven optima of one draw disagree
            ap.error(str(exc))
    found = groups(stores, runs=runs)
    pairs = paired(stores, runs=runs) if args.paired else []
    if args.json:
        print(json.dumps({"runs": found, "paired": pairs} if args.paired else found,
                         indent=2))
        return
    for i, g in enumerate(found):
        run = g["run"]
        data = f" data {run['policy_data']}" if run.get("policy_data") else ""
        head = f"[{i}] {','.join(run['seats'])} {run['setup']} options {run['options']}{data} " \
               f"rules {run['rules_digest']}: "
        if g["ratio"] is None:
            print(f"{head}{g['played']} games, mean {g['mean']}, no optimum")
            continue
        played = f" of {g['played']} played" if g["played"] != g["games"] else ""
        print(f"{head}{g['games']} games{played}, mean {g['mean']}, "
              f"optimum {g['optimum_mean']} ({g['optima_proven']} proven), ratio "
              f"{g['ratio']:.4f} (95 % {g['low']:.4f}-{g['high']:.4f})")
    for p in pairs:
        print(f"[{p['second']}] - [{p['first']}]: {p['games']} games in common, "
              f"{p['difference']:+.2f} a game (s.e. {p['error']:.2f})")


if __name__ == "__main__":
    main()
