"""Benchmark of Hoch Hinaus!: `achievable` with K = 3 on mid-game positions (goal: median
at most 1 s) and `hint` (goal: at most 2 s), median of several runs.

    /work/venv/bin/python scripts/bench_hoch_hinaus.py [--runs 3] [--backend sat cpsat]
    /work/venv/bin/python scripts/bench_hoch_hinaus.py --speedup [--games 40] [--runs 3]
    /work/venv/bin/python scripts/bench_hoch_hinaus.py --hint 24 [--runs 3]

    /work/venv/bin/python scripts/bench_hoch_hinaus.py --views 30
    /work/venv/bin/python scripts/bench_hoch_hinaus.py --losses 100 --buckets 26 31
        [--play greedy|stingy] [--eps 0.3] [--out F.jsonl] [--resolve S]

    /work/venv/bin/python scripts/bench_hoch_hinaus.py --reachable 20 [--buckets 6 12 all]
        [--runs 3] [--method combined|sat|dfs]

`--reachable N`: `reachable` with everything known (the command's `--open-hands` on a
full-information position) on N seeded positions per bucket, each bucket with its time
limit (6 placements left: 10 s, 12: 30 s, all: 120 s; beyond the goals, asked only: 18
and 24 left, 60 s). A position with P placements left
(tiles in hands and reserve) comes from a seeded deal (players 1 + seed % 4, normal)
played by an epsilon-greedy policy with full information (the hint's ranking without
look-ahead, a random placement with chance --eps) until P tiles are left; deals that end
before give no position (one pass over seeds 0, 1, ... feeds every bucket; the deals
played are counted). "all": the fresh deal. Proven won/lost of N, median and
max seconds per position (the median over --runs of each position's time).

`--losses N`: the positions of seeds 0..N-1 with 21, 26 or 31 placements left
(`--buckets`), made as for `--reachable` or with `--play stingy` (each placement the one
leaving the next player the fewest placements: a policy that walks towards a stuck
hand), each asked with a 120-s cap; one JSON line each in `--out` (a rerun resumes);
the share of the lost ones decided (see `bench_losses`).

`--views N`: what each kind of hidden information is worth: N seeded 2-player deals
(normal) played by the greedy policy four times, seeing only its own view, its view
plus the other hands, its view plus the task piles in order (draw pile and bonus
tasks), and everything; games won and tasks fulfilled of each.

`--hint N`: the latency of `toppi hoch-hinaus hint` at its defaults on N seeded positions
(deals of 1-4 players played 0-20 random turns on), from what the player on turn may
know (the default) and with --open-hands; median, p90 and max of every run.

`--speedup`: the pool speed-up of `toppi hoch-hinaus simulate` instead: the same run
(greedy and random policies on the same deals) with `--jobs 1` and `--jobs 2`, each a
fresh `toppi` process timed from start to end, alternated, median of `--runs`; the two
tables are checked equal.

The positions are puzzles/hoch-hinaus/midgame-*.json (seeded games after 6-9 turns,
written by scripts/make_hoch_hinaus_puzzles.py). Times are wall-clock seconds of the
query itself (model building included, loading the file excluded).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from models.hoch_hinaus.achievable import achievable
from models.hoch_hinaus.hint import hint
from models.hoch_hinaus.positions import load_position
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.tasks import load_catalogue
from solver.progress import progress_bar

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hoch-hinaus"


def speedup(games: int, runs: int) -> None:
    """`simulate` with --jobs 1 and --jobs 2, fresh processes, median wall seconds."""
    toppi = str(Path(sys.executable).parent / "toppi")
    cmd = [toppi, "hoch-hinaus", "simulate", "--games", str(games), "--difficulty", "normal",
           "--players", "2", "--policy", "greedy", "--policy", "random", "--json"]
    times: dict[int, list[float]] = {1: [], 2: []}
    tables: dict[int, dict] = {}
    for r in range(runs):
        for jobs in (1, 2):
            start = time.perf_counter()
            out = subprocess.run([*cmd, "--jobs", str(jobs)], capture_output=True, text=True,
                                 check=True).stdout
            times[jobs].append(time.perf_counter() - start)
            data = json.loads(out)
            tables[jobs] = {k: v for k, v in data.items() if k not in ("seconds", "executor")}
            print(f"run {r + 1} --jobs {jobs}: {times[jobs][-1]:.1f} s (load average "
                  f"{os.getloadavg()[0]:.2f} at the end: the machine is shared)", flush=True)
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(f"{' '.join(cmd[1:])} --jobs 1|2")
    print(f"  --jobs 1 median {one:.1f} s ({2 * games / one:.2f} games/s), --jobs 2 median "
          f"{two:.1f} s ({2 * games / two:.2f} games/s): speed-up {one / two:.2f}x")
    print(f"  same table on both: {tables[1] == tables[2]}")


def seeded_positions(positions: int) -> list:
    """Positions of seeded deals (deal i: 1-4 players in turn, normal, i*7 % 21 random
    placements), those still in play."""
    import random

    from models.hoch_hinaus.game import GAME
    from models.hoch_hinaus.state import new_game

    data = GAME.load_rules(None)
    states = []
    for i in range(positions):
        rng = random.Random(i)
        g = new_game(data.rules, data.catalogue, 1 + i % 4, "normal", rng)
        for _ in range((i * 7) % 21):
            acts = g.legal_actions()
            if g.status != "playing" or not acts:
                break
            g = g.apply_action(rng.choice(acts))
        if g.status == "playing":
            states.append(g)
    return states


def hint_latency(positions: int, runs: int) -> None:
    """The hint at its command-line defaults, honest and all-seeing, on seeded deals."""
    states = seeded_positions(positions)
    for label, view in (("honest", lambda g: g.observation(g.on_turn)),
                        ("--open-hands", lambda g: g)):
        times = []
        for _ in range(runs):
            for g in states:
                seen = view(g)
                start = time.perf_counter()
                hint(seen)
                times.append(time.perf_counter() - start)
        times.sort()
        print(f"hint {label:13s} {len(states)} positions x {runs} runs: median "
              f"{statistics.median(times):.3f} s  p90 {times[int(0.9 * len(times))]:.3f} s  "
              f"max {times[-1]:.3f} s  (goal: median <= 2 s; load average "
              f"{os.getloadavg()[0]:.2f})", flush=True)


def views(games: int) -> None:
    """The greedy policy with four views of the same deals (see the docstring)."""
    import random

    from models.hoch_hinaus.game import GAME
    from models.hoch_hinaus.state import GameState, new_game

    data = GAME.load_rules(None)

    def seen(g: GameState, view: str) -> GameState:
        if view == "everything":
            return g
        o = g.observation(g.on_turn)
        if view == "+ other hands":
            return o.but(hands=g.hands)
        if view == "+ task piles":
            return o.but(draw_pile=g.draw_pile, bonus=g.bonus)
        return o

    for view in ("own", "+ other hands", "+ task piles", "everything"):
        won = tasks = 0
        start = time.perf_counter()
        for seed in range(games):
            rng = random.Random(seed)
            g = new_game(data.rules, data.catalogue, 2, "normal", rng)
            while g.status == "playing":
                res = hint(seen(g, view), lookahead=False, samples=16, seed=seed, rng=rng)
                g = g.apply_action(res.options[0].action)
            won += g.status == "won"
            tasks += len(g.completed)
        print(f"greedy seeing {view:14s}: won {won} of {games}, tasks {tasks / games:.2f} "
              f"per game ({time.perf_counter() - start:.0f} s)", flush=True)


LIMITS = {"6": 10.0, "12": 30.0, "all": 120.0, "18": 60.0, "24": 60.0,  # 18, 24: asked only
          "21": 120.0, "26": 120.0, "31": 120.0}  # --losses


def stingy_action(g, rng):
    """The placement that leaves the next player on turn the fewest legal placements
    (everything known; one that ends the game only when nothing else is left), ties at
    random: a policy that walks towards a stuck hand, to make lost positions."""
    best, choice = None, []
    for a in g.legal_actions():
        after = g.apply_action(a)
        key = len(after.legal_actions()) if after.status == "playing" else 10**6
        if best is None or key < best:
            best, choice = key, [a]
        elif key == best:
            choice.append(a)
    return rng.choice(choice) if choice else None


def reachable_positions(buckets: list[str], n: int, eps: float = 0.3,
                        play: str = "greedy") -> tuple[dict[str, list], int]:
    """The first n positions of every bucket as (seed, state), from one pass over the
    seeds (a deal gives a position to each bucket it reaches), and the deals played.
    `play`: the policy besides the random placements (chance `eps`), greedy (the hint's
    ranking) or stingy (`stingy_action`)."""
    import random

    from models.hoch_hinaus.exact import placements_left
    from models.hoch_hinaus.game import GAME
    from models.hoch_hinaus.hint import policy_action
    from models.hoch_hinaus.state import new_game

    data = GAME.load_rules(None)
    out: dict[str, list] = {b: [] for b in buckets}
    seed = 0
    while any(len(v) < n for v in out.values()):
        rng = random.Random(seed)
        g = new_game(data.rules, data.catalogue, 1 + seed % 4, "normal", rng)
        if "all" in out and len(out["all"]) < n:
            out["all"].append((seed, g))
        want = sorted((int(b) for b in buckets if b != "all" and len(out[b]) < n),
                      reverse=True)
        while g.status == "playing" and want:
            left = placements_left(g)
            if left == want[0]:
                out[str(left)].append((seed, g))
            want = [w for w in want if w < left]
            if not want:
                break
            if rng.random() < eps:
                a = policy_action(g, rng, "random", None)
            elif play == "stingy":
                a = stingy_action(g, rng)
            else:
                a = policy_action(g, rng, "greedy", None)
            if a is None:
                break
            g = g.apply_action(a)
        seed += 1
    return out, seed


def bench_reachable(n: int, buckets: list[str], runs: int, method: str, eps: float) -> None:
    """`reachable` with everything known per bucket (see the docstring): the command's
    work budgets (`--nodes`, `--conflicts` at their defaults), the bucket's limit only a
    cap ("cut" when it cut the work)."""
    from models.hoch_hinaus.budgets import REACHABLE_CONFLICTS, REACHABLE_NODES
    from models.hoch_hinaus.exact import solve
    from models.hoch_hinaus.reachable import dfs, exact
    from solver.deadline import Deadline

    made, deals = reachable_positions(buckets, n, eps)
    print(f"{deals} seeded deals played (seeds 0..{deals - 1}) to make the positions",
          flush=True)
    for bucket in buckets:
        limit = LIMITS[bucket]
        positions = made[bucket]
        print(f"bucket {bucket} placements left: {len(positions)} positions (seeds "
              f"{positions[0][0]}..{positions[-1][0]}), --nodes {REACHABLE_NODES} "
              f"--conflicts {REACHABLE_CONFLICTS}, capped at {limit:g} s", flush=True)
        answers: dict[str, int] = {}
        medians = []
        for seed, g in positions:
            times, got, by = [], set(), set()
            for _ in range(runs):
                start = time.perf_counter()
                cap = Deadline.after(limit)
                if method == "sat":
                    got_sat = solve(g, cap, REACHABLE_CONFLICTS)
                    a = got_sat.answer or ("cut" if got_sat.cut_by_time else "unknown")
                elif method == "dfs":
                    res = dfs(g, REACHABLE_NODES, cap)
                    a = "cut" if res.cut_by_time else res.answer
                else:
                    res = exact(g, deadline=cap)
                    a = "cut" if res.cut_by_time else res.answer
                    by.add(res.by)
                times.append(time.perf_counter() - start)
                got.add(a)
            medians.append(statistics.median(times))
            answer = "/".join(sorted(got))
            answers[answer] = answers.get(answer, 0) + 1
            print(f"  seed {seed:4d} players {g.players} {answer:8s} "
                  f"{'/'.join(sorted(by)) or method:8s} "
                  f"{statistics.median(times):6.2f} s  (runs: "
                  f"{', '.join(f'{t:.2f}' for t in times)}; load average "
                  f"{os.getloadavg()[0]:.2f})", flush=True)
        proven = answers.get("won", 0) + answers.get("lost", 0)
        print(f"bucket {bucket}: proven {proven} of {len(positions)} "
              f"({100 * proven / len(positions):.0f} %, goal >= 95 %) capped at {limit:g} s "
              f"[{method}]; {answers}; median {statistics.median(medians):.2f} s, "
              f"max {max(medians):.2f} s; load average {os.getloadavg()[0]:.2f}",
              flush=True)


def bench_losses(n: int, buckets: list[str], eps: float, out: str, resolve: float,
                 play: str = "greedy") -> None:
    """Losses with 21-31 placements left: every deal of seeds 0..n-1 that reaches a
    bucket gives its position; `reachable --open-hands` (the command's method and work
    budgets) capped at the bucket's limit. The won ones leave the set; the lost ones
    count as decided and the unknown ones as failures. `resolve` > 0: each unknown one is
    asked again, the relaxed model without a conflict budget capped at `resolve` seconds
    (`long`): one found won leaves the set, one found lost stays a failure. One JSON
    line per position in `out` (a rerun skips those already there)."""
    from models.hoch_hinaus.exact import solve_relaxed
    from models.hoch_hinaus.reachable import exact
    from solver.deadline import Deadline

    done: dict[tuple[str, int], dict] = {}
    if Path(out).exists():
        for line in Path(out).read_text().splitlines():
            r = json.loads(line)
            done[(r["bucket"], r["seed"])] = r
    made, deals = reachable_positions(buckets, n, eps, play)
    with open(out, "a") as f:
        for bucket in buckets:
            for seed, g in made[bucket]:
                if (bucket, seed) in done or seed >= n:
                    continue
                start = time.perf_counter()
                res = exact(g, deadline=Deadline.after(LIMITS[bucket]))
                r = {"bucket": bucket, "seed": seed, "players": g.players, "play": play,
                     "answer": "cut" if res.cut_by_time else res.answer, "by": res.by,
                     "seconds": round(time.perf_counter() - start, 2),
                     "load": round(os.getloadavg()[0], 2)}
                done[(bucket, seed)] = r
                f.write(json.dumps(r) + "\n")
                f.flush()
                print(r, flush=True)
    if resolve > 0:
        again = [(b, s, g) for b in buckets for s, g in made[b] if s < n
                 and done[(b, s)]["answer"] not in ("won", "lost")
                 and "long" not in done[(b, s)]]
        with open(out, "a") as f:
            for bucket, seed, g in again:
                start = time.perf_counter()
                got = solve_relaxed(g, Deadline.after(resolve))
                r = dict(done[(bucket, seed)], long=got.answer or "unknown",
                         long_seconds=round(time.perf_counter() - start, 2),
                         long_load=round(os.getloadavg()[0], 2))
                done[(bucket, seed)] = r
                f.write(json.dumps(r) + "\n")
                f.flush()
                print(r, flush=True)
    rows = [r for r in done.values() if r["seed"] < n and r["bucket"] in buckets
            and r.get("long") != "won"]  # found won by the long run: not in the set
    for bucket in buckets:
        for players in (1, 2, 3, 4, None):
            rs = [r for r in rows if r["bucket"] == bucket
                  and (players is None or r["players"] == players)]
            lost = [r for r in rs if r["answer"] == "lost"]
            unknown = [r for r in rs if r["answer"] not in ("won", "lost")]
            won = len(rs) - len(lost) - len(unknown)
            share = len(lost) / max(1, len(lost) + len(unknown))
            med = statistics.median(r["seconds"] for r in lost) if lost else 0.0
            print(f"bucket {bucket} left, {players or 'all'} players: {len(rs)} positions "
                  f"(seeds 0..{n - 1}; won by a long run left out): won {won}, lost "
                  f"{len(lost)}, unknown {len(unknown)} (of them lost by a long run "
                  f"{sum(r.get('long') == 'lost' for r in unknown)})"
                  f"; lost decided {100 * share:.0f} % (goal >= 95 %), median {med:.2f} s "
                  f"a loss, max {max((r['seconds'] for r in lost), default=0):.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--within", type=int, default=3)
    ap.add_argument("--backend", nargs="+", default=["sat", "cpsat"])
    ap.add_argument("--tiles", nargs="+", default=["hand", "known", "any"])
    ap.add_argument("--speedup", action="store_true",
                    help="measure simulate --jobs 1 against --jobs 2 instead")
    ap.add_argument("--games", type=int, default=40, help="deals of the --speedup run")
    ap.add_argument("--views", type=int, default=0, metavar="N",
                    help="what each kind of hidden information is worth, on N deals")
    ap.add_argument("--hint", type=int, default=0, metavar="N",
                    help="measure the hint's latency on N seeded positions instead")
    ap.add_argument("--reachable", type=int, default=0, metavar="N",
                    help="reachable with everything known on N positions per bucket")
    ap.add_argument("--buckets", nargs="+", default=["6", "12", "all"], choices=list(LIMITS))
    ap.add_argument("--method", default="combined", choices=("combined", "sat", "dfs"),
                    help="--reachable: the command's method, or the SAT model or the "
                    "depth-first search alone")
    ap.add_argument("--eps", type=float, default=0.3,
                    help="--reachable: chance of a random placement making positions")
    ap.add_argument("--play", default="greedy", choices=("greedy", "stingy"),
                    help="--losses: the policy making the positions besides --eps")
    ap.add_argument("--losses", type=int, default=0, metavar="N",
                    help="losses with 21-31 placements left: seeds 0..N-1, buckets 21 26 31")
    ap.add_argument("--out", default="hh-losses.jsonl",
                    help="--losses: one JSON line per position (a rerun resumes)")
    ap.add_argument("--resolve", type=float, default=0.0, metavar="S",
                    help="--losses: ask the unknown ones again for up to S seconds each")
    args = ap.parse_args()
    if args.losses:
        buckets = [b for b in args.buckets if b in ("21", "26", "31")] or ["21", "26", "31"]
        bench_losses(args.losses, buckets, args.eps, args.out, args.resolve, args.play)
        return
    if args.reachable:
        bench_reachable(args.reachable, args.buckets, args.runs, args.method, args.eps)
        return
    if args.views:
        views(args.views)
        return
    if args.hint:
        hint_latency(args.hint, args.runs)
        return
    if args.speedup:
        speedup(args.games, args.runs)
        return
    rules = load_rules()
    cat = load_catalogue(rules)
    files = sorted(PUZZLES.glob("midgame-*.json"))
    games = [(f.name, load_position(rules, f, None, cat)) for f in files]
    times: dict[tuple[str, str], list[float]] = {}
    answers: dict[tuple[str, str, str], str] = {}
    hints: list[float] = []
    total = len(games) * args.runs * (len(args.backend) * len(args.tiles) + 1)
    done = 0
    with progress_bar("benchmark") as update:
        for name, g in games:
            tasks = [t for t in g.open if t is not None]
            for backend in args.backend:
                for mode in args.tiles:
                    for _ in range(args.runs):
                        start = time.perf_counter()
                        res = achievable(g, tasks, args.within, mode, backend)
                        times.setdefault((backend, mode), []).append(
                            time.perf_counter() - start)
                        answers[(name, backend, mode)] = res.answer
                        done += 1
                        update(done, total)
            for _ in range(args.runs):
                start = time.perf_counter()
                hint(g)
                hints.append(time.perf_counter() - start)
                done += 1
                update(done, total)
    print(f"achievable --within {args.within}, {len(games)} mid-game positions x "
          f"{args.runs} runs (all open tasks together):")
    for (backend, mode), ts in sorted(times.items()):
        print(f"  {backend:6s} tiles={mode:6s} median {statistics.median(ts):.3f} s  "
              f"max {max(ts):.3f} s")
    for backend in args.backend:
        ts = [t for (b, _), v in times.items() if b == backend for t in v]
        print(f"  {backend:6s} all modes   median {statistics.median(ts):.3f} s  "
              f"max {max(ts):.3f} s  (goal: median <= 1 s)")
    agree = all(answers[(n, args.backend[0], m)] == answers[(n, b, m)]
                for n, _ in games for b in args.backend for m in args.tiles)
    print(f"  back-ends agree on every answer: {agree}")
    print(f"hint: median {statistics.median(hints):.3f} s  max {max(hints):.3f} s  "
          "(goal: <= 2 s)")


if __name__ == "__main__":
    main()
