"""Take it Higher!'s hint methods played on the same seeded games: the default (learned
values) against the others, game by game, and the default's decision time.

    python scripts/bench_hint_methods.py --variant basic --games 200 --method learned \
        [--futures F --calls C --lookahead L | --samples K] [--cap S] \
        [--store scripts/stores/take-it-higher-methods.sqlite] [--resume]
    python scripts/bench_hint_methods.py --report [--store ...] [--optima ...]

A method plays as the policy of the same name (`simulate --policy learned|hint|greedy`:
the learned values, the sampled futures completed by CP-SAT, the greedy rule), each
decision a fixed amount of work (the method's options, by default the hint's own), so
game g is the same game on an idle or a busy machine: game g is dealt from
`task_seed(seed, g)`, as simulate's game g. `--cap` caps a decision's seconds (the
policies' own cap by default; far above the work). Each finished game is kept in the
store at once (score, every decision's seconds, the load): `--resume` plays only the
games the store lacks, so a long run goes on where it stopped; without it the run's games
are played again.

`--report`: per variant, each run's games, mean score, share of the hindsight optimum of
the same draws (its 95 % interval, paired by game; each draw's optimum the best
reference in the `--optima` stores: simulate's, or `max --draws N --store` runs', a
proven optimum before a best found), decision median and p90; and each run against the
default (the learned method at its default work, with the shipped tables when the
store has their run), game by game on the draws both
played: the mean difference a game, its standard error and 95 % interval. The runs of
`simulate --policy hint` at the sampled method's default work and of `--policy greedy`
found in `--optima` are listed too (scores only, no decision times).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.take_it_higher.draws import stored_references  # noqa: E402
from models.take_it_higher.game import GAME  # noqa: E402
from models.take_it_higher.hint import default_samples  # noqa: E402
from models.take_it_higher.learned.policy import CALLS, FUTURES, LOOKAHEAD  # noqa: E402
from models.take_it_higher.policies import DECISION_CAP  # noqa: E402
from models.take_it_higher.rules import load_rules  # noqa: E402
from models.take_it_higher.sheet import state_sheet  # noqa: E402
from models.take_it_higher.variants import variant_from_name  # noqa: E402
from solver.game import Policy, play_out, task_seed  # noqa: E402
from solver.stats import mean_error, ratio_of_means  # noqa: E402
from solver.store import Store, data_digest  # noqa: E402

HERE = Path(__file__).resolve().parent
STORE = HERE / "stores" / "take-it-higher-methods.sqlite"
OPTIMA = HERE / "stores" / "take-it-higher-hint.sqlite"
KIND = "hint_methods"
DEFAULT_WORK = {"lookahead": LOOKAHEAD, "futures": FUTURES, "calls": CALLS}  # the hint's own
METHODS = ("learned", "hint", "greedy")  # learned values, sampled futures, greedy rule


def run_parameters(rules: Any, variant: str, method: str, args: argparse.Namespace
                   ) -> dict[str, Any]:
    """What makes a run: the rules data, the variant, the method and its work options
    (the defaults filled in), the learned values' digest."""
    v = variant_from_name(variant)
    if method == "learned":
        options = {"lookahead": LOOKAHEAD if args.lookahead is None else args.lookahead,
                   "futures": FUTURES if args.futures is None else args.futures,
                   "calls": CALLS if args.calls is None else args.calls}
    elif method == "hint":
        options = {"samples": default_samples(v) if args.samples is None else args.samples}
    else:
        options = {}
    data = GAME.policy_data(rules, method, {"variant": v.name}, options)
    return {"rules_digest": data_digest(rules), "variant": v.name, "method": method,
            "options": options, "cap": args.cap, "policy_data": data}


def play_game(rules: Any, parameters: dict[str, Any], seed: int) -> dict[str, Any]:
    """One game from its own seed with the run's method, each decision timed."""
    options = {**parameters["options"], "hint_time": parameters["cap"]}
    policy = GAME.policy(rules, parameters["method"], options)
    seconds: list[float] = []

    def timed(observation: Any, legal: list, rng: Any) -> Any:
        start = time.perf_counter()
        move = policy.choose(observation, legal, rng)
        seconds.append(round(time.perf_counter() - start, 4))
        return move

    deal, play = GAME.streams(seed)
    state = GAME.new_game(rules, {"variant": parameters["variant"]}, deal)
    end, _, _ = play_out(GAME, state, [Policy(policy.name, timed)], play)
    return {"score": state_sheet(end).total, "seconds": seconds,
            "load": round(os.getloadavg()[0], 2)}


def run(args: argparse.Namespace) -> None:
    rules = load_rules()
    parameters = run_parameters(rules, args.variant, args.method, args)
    with Store(args.store) as store:
        done = store.done(KIND, parameters) if args.resume else {}
        for g in range(args.games):
            seed = task_seed(args.seed, g)
            if seed in done:
                continue
            store.put(KIND, parameters, seed, play_game(rules, parameters, seed))
            print(f"\r{parameters['variant']} {args.method}: game {g + 1}/{args.games}",
                  end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def optima(paths: list[Path]) -> tuple[dict[tuple, tuple[int, bool]],
                                        list[tuple[dict, dict[int, float]]]]:
    """(rules digest, variant, seed) -> the best hindsight reference the stores hold
    (score, proven: `draws.stored_references`), and the runs of `simulate --policy
    hint` at the sampled method's default work and of `--policy greedy` in them."""
    simulated: dict[str, tuple[dict, dict[int, float]]] = {}
    with ExitStack() as stack:
        stores = [stack.enter_context(Store(str(path), create=False))
                  for path in paths if path.is_file()]
        best = stored_references(stores)
        for row in (row for s in stores for row in s.rows("games", {"game": "take-it-higher"})):
            p, m = row["parameters"], row["result"].get("measures", {})
            variant = p.get("setup", {}).get("variant", "basic")
            samples = p.get("options", {}).get("samples")
            if not row["result"].get("finished", True):
                continue
            if p.get("seats") == ["hint"] and samples == default_samples(
                    variant_from_name(variant)):
                method, options = "hint (simulate)", {"samples": samples}
            elif p.get("seats") == ["greedy"]:  # (no options: the same games)
                method, options = "greedy (simulate)", {}
            else:
                continue
            run_p = {"rules_digest": p.get("rules_digest"), "variant": variant,
                     "method": method, "options": options}
            runs = simulated.setdefault(json.dumps(run_p, sort_keys=True), (run_p, {}))
            runs[1][row["seed"]] = m["score"]
    return best, list(simulated.values())


def report(args: argparse.Namespace) -> None:
    best, simulated = optima([Path(o) for o in args.optima or [OPTIMA]])
    runs: dict[str, tuple[dict, dict[int, dict]]] = {}
    with Store(args.store, create=False) as store:
        for row in store.rows(KIND):
            key = json.dumps(row["parameters"], sort_keys=True)
            runs.setdefault(key, (row["parameters"], {}))[1][row["seed"]] = row["result"]
    everything = [(p, {s: r["score"] for s, r in games.items()}, games)
                  for p, games in runs.values()]
    everything += [(p, scores, {}) for p, scores in simulated]
    rules = load_rules()
    builtin = data_digest(rules)  # the built-in board's runs only
    everything = [r for r in everything if r[0]["rules_digest"] == builtin]
    for variant in dict.fromkeys(p["variant"] for p, _, _ in everything):
        mine = [r for r in everything if r[0]["variant"] == variant]
        current = GAME.policy_data(rules, "learned", {"variant": variant}, DEFAULT_WORK)
        defaults = [r for r in mine if is_default(r[0])]  # the shipped tables' run first
        default = next((r for r in defaults if r[0]["policy_data"] == current),
                       defaults[0] if defaults else None)
        print(f"{variant}:")
        for p, scores, games in mine:
            print("  " + run_line(p, scores, games, best, default))


def is_default(p: dict[str, Any]) -> bool:
    return p["method"] == "learned" and p["options"] == DEFAULT_WORK


def run_line(p: dict, scores: dict[int, float], games: dict[int, dict],
             best: dict[tuple, tuple[int, bool]], default: tuple | None) -> str:
    """One run: games, mean, share of the optimum, decision times, against the default."""
    text = f"{p['method']} {p['options']}: {len(scores)} games, mean " \
           f"{statistics.fmean(scores.values()):.1f}"
    known = [(s, best[p["rules_digest"], p["variant"], s]) for s in sorted(scores)
             if (p["rules_digest"], p["variant"], s) in best]
    if known:
        r = ratio_of_means([scores[s] for s, _ in known], [o for _, (o, _) in known])
        text += (f", {100 * r.ratio:.1f} % ({100 * r.low:.1f}-{100 * r.high:.1f} %) of the "
                 f"hindsight optimum on {len(known)} "
                 f"({sum(proven for _, (_, proven) in known)} proven)")
    times = sorted(t for g in games.values() for t in g["seconds"])
    if times:
        text += (f"; decision median {statistics.median(times):.3f} s, p90 "
                 f"{times[int(0.9 * len(times))]:.3f} s ({len(times)} decisions, load "
                 f"{statistics.median(g['load'] for g in games.values()):.1f})")
    if default is not None and default[0] is not p:
        both = sorted(set(scores) & set(default[1]))
        if len(both) > 1:
            diff, se = mean_error([default[1][s] - scores[s] for s in both])
            text += (f"; the default {diff:+.2f} ± {se:.2f} a game ({diff - 1.96 * se:+.2f} "
                     f"to {diff + 1.96 * se:+.2f}) on {len(both)}")
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--report", action="store_true", help="only print the stored runs")
    ap.add_argument("--variant", default="basic",
                    help="a variant name, e.g. advanced+gold-silver")
    ap.add_argument("--method", choices=METHODS, default="learned")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--futures", type=int)
    ap.add_argument("--calls", type=int)
    ap.add_argument("--lookahead", type=int)
    ap.add_argument("--samples", type=int)
    ap.add_argument("--cap", type=float, default=DECISION_CAP,
                    help="seconds a decision may take at most (a cap)")
    ap.add_argument("--store", default=str(STORE))
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--optima", action="append",
                    help="a store holding hindsight optima of the draws: simulate's "
                         "games or `max --draws --store` runs (repeatable; the best "
                         f"reference of a draw counts; default {OPTIMA.name})")
    args = ap.parse_args()
    if args.samples is not None and args.method != "hint" or args.method != "learned" and (
            args.futures, args.calls, args.lookahead) != (None, None, None):
        ap.error("--samples is the hint method's; --futures, --calls, --lookahead the "
                 "learned method's")
    if not args.report:
        return run(args)
    try:
        report(args)
    except ValueError as exc:  # two proven optima of one draw disagree
        ap.error(str(exc))


if __name__ == "__main__":
    main()
