"""A policy's share of the hindsight optimum, from the games `simulate --store` kept.

    python scripts/store_ratio.py STORE [--policy hint] [--json]

Take it Higher! `simulate` records each game's score and, unless `--no-optimum`, the
hindsight optimum of its draw. Games are grouped by what was run (rules data, variant,
the policy's options); a record without its optimum borrows it from any other record of
the same draw (the same rules data, variant and seed). Per group: the games, the mean
score and optimum, how many optima are proven, and mean score / mean optimum with a 95 %
interval (`solver.stats.ratio_of_means`, paired by game). Long runs spread over sittings
go through `--store ... --resume`; this reads them at any point.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.stats import ratio_of_means  # noqa: E402
from solver.store import Store  # noqa: E402


def groups(store: Store, policy: str | None = None) -> list[dict[str, Any]]:
    """Per run (rules data, setup, seats, options): the ratio of mean score to mean
    hindsight optimum over its finished games that have an optimum."""
    rows = store.rows("games", {"game": "take-it-higher"})
    optimum: dict[tuple, tuple[float, bool]] = {}
    for row in rows:
        p, r = row["parameters"], row["result"]
        m = r.get("measures", {})
        if m.get("optimum") is not None:
            key = (p.get("rules_digest"), json.dumps(p.get("setup"), sort_keys=True),
                   row["seed"])
            optimum[key] = (m["optimum"], bool(m.get("optimum_proven")))
    runs: dict[str, list[tuple[float, float, bool]]] = {}
    for row in rows:
        p, r = row["parameters"], row["result"]
        seats = p.get("seats", [])
        if policy is not None and policy not in seats or not r.get("finished", True):
            continue
        key = (p.get("rules_digest"), json.dumps(p.get("setup"), sort_keys=True), row["seed"])
        if key not in optimum:
            continue
        run = json.dumps({k: p.get(k) for k in ("rules_digest", "setup", "seats", "options",
                                                 "open_hands", "policy_data")},
                         sort_keys=True)
        runs.setdefault(run, []).append((r["returns"][0], *optimum[key]))
    out = []
    for run, games in runs.items():
        scores = [s for s, _, _ in games]
        optima = [o for _, o, _ in games]
        out.append({"run": json.loads(run), "games": len(games),
                    "mean": round(statistics.fmean(scores), 2),
                    "optimum_mean": round(statistics.fmean(optima), 2),
                    "optima_proven": sum(p for _, _, p in games),
                    **{k: v for k, v in asdict(ratio_of_means(scores, optima)).items()
                       if k != "n"}})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("store")
    ap.add_argument("--policy", help="only runs with this policy in a seat")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not Path(args.store).is_file():
        sys.exit(f"store_ratio: error: no store file {args.store}")
    with Store(args.store, create=False) as store:
        found = groups(store, args.policy)
    if args.json:
        print(json.dumps(found, indent=2))
        return
    for g in found:
        run = g["run"]
        data = f" data {run['policy_data']}" if run.get("policy_data") else ""
        print(f"{','.join(run['seats'])} {run['setup']} options {run['options']}{data} "
              f"rules {run['rules_digest']}: {g['games']} games, mean {g['mean']}, "
              f"optimum {g['optimum_mean']} ({g['optima_proven']} proven), ratio "
              f"{g['ratio']:.4f} (95 % {g['low']:.4f}-{g['high']:.4f})")


if __name__ == "__main__":
    main()
