"""Strength of the Take it Higher! policies over seeded games, and the hint's speed.

    python scripts/bench_play.py --games 200 --hint-games 20 [--variant basic|simple|advanced]
                                 [--gold-silver] [--optimum-time 10] [--log FILE.jsonl]
    python scripts/bench_play.py --latency 60 [--hint-time 2] [--hint-samples K]
    python scripts/bench_play.py --learned-latency 10 [--variant V] [--gold-silver]
                                 [--futures F] [--calls C] [--lookahead L]

--latency N: only the hint's decision time, on N positions (what the player sees) from
seeded greedy games (turns 2, 8, 14 and 20 of games 0, 1, ...): median, p90 and max, and
the futures each hint used.

--learned-latency N: the learned policy's decision time at every move of its own games
0..N-1 (the exact endgame included): median, p90 and max; --futures, --calls and --lookahead as in
`simulate --policy learned` (default: the policy's own defaults).

Game g is the game simulate plays from --seed (dealt from seed*1000003+g), the same
draws for every policy. Prints per policy the mean, median and quartiles over its
games, the mean hindsight optimum of the same draws (`max --draw`, proven for
basic/gold-silver, best found within --optimum-time with spaceships), and the median
time of a hint decision.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

from models.take_it_higher.draws import hindsight_optimum
from models.take_it_higher.game import GAME
from models.take_it_higher.policies import hint_choice
from models.take_it_higher.positions import Placement
from models.take_it_higher.rules import load_rules
from models.take_it_higher.sheet import state_sheet
from models.take_it_higher.state import GameState, game_draw
from models.take_it_higher.variants import parse_variant
from solver.game import Policy, play_out, task_seed
from solver.simulate import simulate


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--hint-games", type=int, default=20)
    ap.add_argument("--variant", default="basic")
    ap.add_argument("--gold-silver", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--optimum-time", type=float, default=10.0)
    ap.add_argument("--hint-time", type=float, default=2.0)
    ap.add_argument("--hint-samples", type=int, default=0,
                    help="fixed futures per hint: reproducible and independent of the "
                         "machine's load (0: the default, as many as fit in --hint-time)")
    ap.add_argument("--log", help="JSON-lines file of finished games (resumable)")
    ap.add_argument("--latency", type=int, default=0,
                    help="only time the hint on this many positions (see the docstring)")
    ap.add_argument("--futures", type=int, default=None,
                    help="with --learned-latency: sampled futures a decision")
    ap.add_argument("--calls", type=int, default=None,
                    help="with --learned-latency: calls each future plays on")
    ap.add_argument("--lookahead", type=int, default=None,
                    help="with --learned-latency: cells valued on the futures")
    ap.add_argument("--learned-latency", type=int, default=0,
                    help="only time the learned policy in this many games")
    args = ap.parse_args()
    rules = load_rules()
    variant = parse_variant(args.variant, args.gold_silver)
    if args.learned_latency:
        options = {k: getattr(args, k) for k in ("futures", "calls", "lookahead")
                   if getattr(args, k) is not None}
        learned_latency(rules, variant, args.learned_latency, args.seed, options)
        return
    if args.latency:
        latency(rules, variant, args.latency, args.seed, args.hint_samples, args.hint_time)
        return
    done = read_log(args.log, variant.name, args.seed)

    def record(kind: str, g: int, **values: object) -> None:
        done[(kind, g)] = values
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"kind": kind, "variant": variant.name,
                                    "seed": args.seed, "game": g,
                                    "load": round(os.getloadavg()[0], 2), **values}) + "\n")

    def progress(name: str):
        def show(done: int, total: int) -> None:
            print(f"\r{name}: {done}/{total}", end="", file=sys.stderr, flush=True)
        return show

    optima = []
    proven = 0
    for g in range(args.games):
        if ("optimum", g) not in done:
            draw = game_draw(rules, task_seed(args.seed, g))
            value, is_proven = hindsight_optimum(rules, variant, draw, args.optimum_time)
            record("optimum", g, value=value, proven=is_proven)
        optima.append(done[("optimum", g)]["value"])
        proven += bool(done[("optimum", g)]["proven"])
        progress("optima")(g + 1, args.games)
    print(file=sys.stderr)
    report("hindsight optimum", optima, f"{proven}/{args.games} proven")

    for name in ("greedy", "random"):
        res = simulate(GAME, rules, args.games, [{"variant": variant.name}], [[name]],
                       args.seed, options={"no_optimum": True})
        report(name, [r.returns[0] for r in res.records], "")

    if args.hint_games == 0:
        return
    kind = f"hint-samples-{args.hint_samples}" if args.hint_samples else "hint"
    times: list[float] = []
    for g in range(args.hint_games):
        times.extend(done.get((kind, g), {}).get("times", []))
    choose = hint_choice(args.hint_samples, args.hint_time)

    def timed_hint(observation: GameState, legal: list[Placement], rng: random.Random
                   ) -> Placement:
        start = time.perf_counter()
        move = choose(observation, legal, rng)
        times.append(time.perf_counter() - start)
        return move

    scores = []
    for g in range(args.hint_games):
        if (kind, g) not in done:
            before = len(times)
            deal, play = GAME.streams(task_seed(args.seed, g))
            state = GAME.new_game(rules, {"variant": variant.name}, deal)
            end, _, _ = play_out(GAME, state, [Policy("hint", timed_hint)], play)
            record(kind, g, score=state_sheet(end).total,
                   times=[round(t, 3) for t in times[before:]])
        scores.append(done[(kind, g)]["score"])
        progress("hint")(g + 1, args.hint_games)
    print(file=sys.stderr)
    known = [(v, s) for v, s in zip(optima, scores, strict=False) if v is not None]
    ref = statistics.mean(v for v, _ in known)
    mine = statistics.mean(s for _, s in known)
    report("hint", scores, f"= {mine / ref:.1%} of the mean optimum of the same "
                           f"{len(known)} draws ({ref:.1f})")
    print(f"hint decision time: median {statistics.median(times):.2f} s, "
          f"p90 {sorted(times)[int(0.9 * len(times))]:.2f} s over {len(times)} decisions")


def latency(rules, variant, n: int, seed: int, samples: int, hint_time: float) -> None:
    """The hint's decision time on n observations from seeded greedy games."""
    from models.take_it_higher.hint import hint

    positions: list[GameState] = []
    g = 0
    greedy = GAME.policy(rules, "greedy", {})
    while len(positions) < n:
        deal, play = GAME.streams(task_seed(seed, g))
        state = GAME.new_game(rules, {"variant": variant.name}, deal)
        for turn in range(21):
            if turn in (2, 8, 14, 20) and len(positions) < n:
                positions.append(GAME.observation(state, 0))
            seen = GAME.observation(state, 0)
            state = GAME.apply_action(state, greedy.choose(seen, GAME.legal_actions(seen),
                                                           play))
        g += 1
    times, futures = [], []
    for i, seen in enumerate(positions):
        start = time.perf_counter()
        result = hint(seen, seen.called, samples=samples, seed=i, time_limit=hint_time)
        times.append(time.perf_counter() - start)
        futures.append(result.samples)
        print(f"\rhint: {i + 1}/{n}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    times.sort()
    how = f"--samples {samples}" if samples else f"{hint_time:g} s per hint"
    print(f"hint decision time ({variant.name}, {how}): {n} positions, median "
          f"{statistics.median(times):.2f} s, p90 {times[int(0.9 * n)]:.2f} s, max "
          f"{times[-1]:.2f} s; futures per hint median {statistics.median(futures):g} "
          f"(min {min(futures)}, max {max(futures)})")


def learned_latency(rules, variant, n: int, seed: int, options: dict) -> None:
    """The learned policy's decision time at every move of its games 0..n-1."""
    learned = GAME.policy(rules, "learned", options)
    times = []
    for g in range(n):
        deal, play = GAME.streams(task_seed(seed, g))
        state = GAME.new_game(rules, {"variant": variant.name}, deal)
        while not GAME.is_terminal(state):
            seen = GAME.observation(state, 0)
            start = time.perf_counter()
            move = learned.choose(seen, GAME.legal_actions(seen), play)
            times.append(time.perf_counter() - start)
            state = GAME.apply_action(state, move)
        print(f"\rlearned: {g + 1}/{n}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    times.sort()
    print(f"learned decision time ({variant.name}, {options or 'defaults'}): "
          f"{len(times)} decisions in {n} games, "
          f"median {statistics.median(times):.3f} s, p90 {times[int(0.9 * len(times))]:.3f} s, "
          f"max {times[-1]:.2f} s")


def read_log(path: str | None, variant: str, seed: int) -> dict:
    """(kind, game) -> logged values, for the games of this variant and seed."""
    done: dict = {}
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                if row["variant"] == variant and row["seed"] == seed:
                    done[(row["kind"], row["game"])] = row
    return done


def report(name: str, values: list, note: str) -> None:
    values = [v for v in values if v is not None]
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    print(f"{name:18s} n={len(values):3d} mean {statistics.mean(values):7.1f} median "
          f"{statistics.median(values):6.1f} quartiles {q[0]:.0f}/{q[1]:.0f}/{q[2]:.0f} {note}",
          flush=True)


if __name__ == "__main__":
    main()
