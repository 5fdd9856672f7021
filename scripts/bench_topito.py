"""Benchmark of `toppi topito plan` (target: median <= 0.3 s): SAT vs breadth-first search,
and of the honest `hint` (target: median <= 1 s).

    python scripts/bench_topito.py [--cases 60] [--runs 3] [--seed 0]
                                   [--per-depth 3] [--max-depth 14] [--limit 10]
    python scripts/bench_topito.py --hint 20 [--runs 3] [--seed 0] [--hint-max-moves 8]

Part 1 — random cases: random reachable positions (random stacks and a random legal
last move) and a random deck card. Each case is timed `--runs` times with each
back-end (median per case); printed: median over the cases of SAT and BFS time, the
median of the per-case ratio BFS/SAT, and the same by plan length.

Part 2 — scaling: goals of several deck cards at once ("all") give longer plans; cases
are bucketed by their proven plan length. For each length: median SAT and BFS time
over `--per-depth` cases. A back-end whose median passes `--limit` seconds is not run
on longer plans; the first such length is "the depth at which it takes longer than
the limit". Times are wall time inside the process (encoding built each time).

Hint (`--hint N`, only this part runs): N seeded positions of dealt games (2, 3 and 4
players in turn, game i from seed*1000003+i, a random number of greedy moves 0-24), the
hint of the player on turn on their observation (`table_hint`, as `toppi topito hint`
runs it: --max-moves 8 by default) timed `--runs` times with each back-end, median per
position; printed: median, p90 and max over the positions, and the time of the chances
of meeting another player's card alone (computed once more by themselves).

Race (`--race N`, only this part runs): N seeded endgame positions (2, 3 and 4
players in turn, game i from seed*1000003+i, greedy moves until a seat has 5 or 6
played cards, alternately), everything known; `race` for the end of the game (with who
can win) and for every seat, timed `--runs` times with each back-end (median per
position; a race passing `--limit` seconds is shown as over it, not timed again); printed: each position's answers and times, and the median, p90
and max over the positions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from models.topito.bfs import bfs_plan
from models.topito.encode_sat import sat_plan
from models.topito.puzzle_search import random_state
from models.topito.rules import Card, Goal, State, load_deck, load_rules
from solver.progress import progress_bar


def timed_sat(state, goal, max_depth, limit):
    t = time.perf_counter()
    status, length, _, _ = sat_plan(state, goal, max_depth, t + limit)
    return time.perf_counter() - t, status, length


def timed_bfs(state, goal, max_depth, limit):
    t = time.perf_counter()
    out = bfs_plan(state, goal, max_depth, t + limit)
    return time.perf_counter() - t, out.status, out.length


def part1(args, rules, deck) -> None:
    rng = random.Random(args.seed)
    rows = []
    with progress_bar("random cases") as update:
        for i in range(args.cases):
            state = random_state(rules, rng)
            goal = Goal((rng.choice(deck),))
            sat_t, bfs_t = [], []
            bstatus = None
            for _ in range(args.runs):
                t, status, length = timed_sat(state, goal, args.max_depth, args.limit)
                sat_t.append(t)
                if bstatus != "unknown":  # one run over the limit is enough
                    t, bstatus, blength = timed_bfs(state, goal, args.max_depth, args.limit)
                    bfs_t.append(t)
            if bstatus != "unknown" and status != "unknown":
                assert length == blength, (state, goal)
            rows.append((length, statistics.median(sat_t), statistics.median(bfs_t),
                         bstatus == "unknown"))
            update(i + 1, args.cases)
    sat = [r[1] for r in rows]
    bfs = [r[2] for r in rows]
    ratios = [r[2] / r[1] for r in rows if r[1] > 0]
    print(f"Part 1: {len(rows)} random cases (seed {args.seed}), median of {args.runs} runs "
          "per case")
    print(f"  SAT median {statistics.median(sat):.3f} s (goal <= 0.3 s: "
          f"{'met' if statistics.median(sat) <= 0.3 else 'NOT met'}), "
          f"p90 {statistics.quantiles(sat, n=10)[-1]:.3f} s, max {max(sat):.3f} s")
    print(f"  BFS median {statistics.median(bfs):.3f} s, p90 "
          f"{statistics.quantiles(bfs, n=10)[-1]:.3f} s, max {max(bfs):.3f} s, "
          f"{sum(r[3] for r in rows)} over the {args.limit:g} s limit")
    print(f"  BFS/SAT per-case ratio: median {statistics.median(ratios):.2f}")
    print("  by plan length: length  cases  SAT-median  BFS-median  ratio")
    for length in sorted({r[0] for r in rows if r[0] is not None}):
        sub = [r for r in rows if r[0] == length]
        s = statistics.median(r[1] for r in sub)
        b = statistics.median(r[2] for r in sub)
        print(f"    {length:>6}  {len(sub):>5}  {s:>10.3f}  {b:>10.3f}  {b / s:>5.2f}")


def part2(args, rules, deck) -> None:
    rng = random.Random(args.seed + 1)
    buckets: dict[int, list[tuple[float, float | None]]] = {}
    sat_slow = bfs_slow = None
    deadline = time.perf_counter() + args.budget
    print(f"Part 2: plan length scaling ({args.per_depth} cases per length, goals of "
          "1-6 deck cards at once)")
    print("  length  SAT-median  BFS-median  ratio")
    with progress_bar("scaling") as update:
        for depth in range(1, args.max_depth + 1):
            cases = []
            tries = 0
            while len(cases) < args.per_depth and time.perf_counter() < deadline:
                tries += 1
                state = random_state(rules, rng, rng.randint(0, rules.n_blocks))
                k = min(6, 1 + depth // 3 + rng.randint(0, 1))
                goal = Goal(tuple(rng.sample(deck, k)), "all")
                # the length from SAT; cases of the wrong length are only sampled
                t, status, length = timed_sat(state, goal, depth, 3 * args.limit)
                if status != "optimal" or length != depth:
                    continue
                sat_t = t
                bfs_t = None
                if bfs_slow is None:
                    bt, bstatus, blength = timed_bfs(state, goal, depth, args.limit)
                    bfs_t = bt if bstatus != "unknown" else float("inf")
                    if bstatus != "unknown":
                        assert blength == depth
                cases.append((sat_t, bfs_t))
            update(depth, args.max_depth)
            if len(cases) < args.per_depth:
                print(f"  {depth:>6}  (only {len(cases)} cases of this length found in "
                      "the time budget; stopping)")
                break
            buckets[depth] = cases
            s = statistics.median(c[0] for c in cases)
            if bfs_slow is None:
                b = statistics.median(c[1] for c in cases)
                bs = f"{b:>10.3f}" if b != float("inf") else f">{args.limit:>9g}"
                ratio = f"{b / s:>5.1f}" if b != float("inf") else "    -"
            else:
                bs, ratio = "   skipped", "    -"
            print(f"  {depth:>6}  {s:>10.3f}  {bs}  {ratio}")
            sys.stdout.flush()
            if bfs_slow is None and statistics.median(c[1] for c in cases) > args.limit:
                bfs_slow = depth
            if s > args.limit:
                sat_slow = depth
                break
    print(f"  BFS median first over {args.limit:g} s at plan length: {bfs_slow or 'not reached'}")
    print(f"  SAT median first over {args.limit:g} s at plan length: {sat_slow or 'not reached'}"
          f" (lengths up to {max(buckets) if buckets else 0} measured)")


def part3(args, rules) -> None:
    """A deterministic hard family: one stack of k blocks on red must end reversed (order
    cards chaining the reversed sequence, all at once): long plans of lifts only."""
    print("Part 3: reverse a stack of k blocks (goal: order cards, all at once)")
    print("  k  length  SAT-time  BFS-time")
    bfs_on = True
    for k in range(3, rules.n_blocks + 1):
        blocks = tuple(range(k))
        state = State(rules, (blocks,) + ((),) * (rules.n_podiums - 1))
        rev = blocks[::-1]
        cards = tuple(Card("order", rev[i:i + 3]) for i in range(0, k - 2, 2))
        if (k - 3) % 2:
            cards += (Card("order", rev[-3:]),)
        goal = Goal(cards, "all")
        t, status, length = timed_sat(state, goal, args.max_depth + 6, args.sat_limit)
        bt = None
        if bfs_on:
            bt, bstatus, blength = timed_bfs(state, goal, args.max_depth + 6, args.limit)
            if bstatus == "unknown":
                bt, bfs_on = float("inf"), False
            elif status == "optimal":
                assert blength == length
        shown = "unknown (limit)" if status == "unknown" else str(length)
        bs = "skipped" if bt is None else (f">{args.limit:g}" if bt == float("inf")
                                           else f"{bt:.3f}")
        print(f"  {k}  {shown:>6}  {t:8.3f}  {bs:>8}")
        sys.stdout.flush()
        if status == "unknown":
            break


def hint_positions(args, game_rules):
    """The seeded positions of the hint benchmark (not over, player on turn with cards)."""
    from models.topito.policies import greedy_choice
    from models.topito.table import new_game
    from solver.game import task_seed

    out = []
    i = 0
    while len(out) < args.hint:
        rng = random.Random(task_seed(args.seed, i))
        state = new_game(game_rules, 2 + i % 3, rng)
        for _ in range(rng.randrange(25)):
            legal = state.legal_moves()
            nxt = state.move(greedy_choice(state.observation(state.turn), legal, rng))
            if nxt.end() is not None:
                break
            state = nxt
        i += 1
        if state.hands[state.turn]:
            out.append(state)
    return out


def part_hint(args) -> None:
    from models.topito.hint import MeetChances, table_hint
    from models.topito.table import load_game_rules

    positions = hint_positions(args, load_game_rules())
    for backend in ("sat", "bfs"):
        rows = []
        with progress_bar(f"hint ({backend})") as update:
            for i, state in enumerate(positions):
                full = []
                for _ in range(args.runs):
                    t = time.perf_counter()
                    res, view = table_hint(state, backend, args.hint_max_moves, args.limit)
                    full.append(time.perf_counter() - t)
                # the chances alone: the pool once, then every move's stacks
                t = time.perf_counter()
                chances = MeetChances(view)
                for move in view.blocks.legal_actions():
                    chances.of_move(view.blocks.apply_action(move).stacks)
                rows.append((statistics.median(full), time.perf_counter() - t,
                             len(res.moves), len(res.considered)))
                update(i + 1, len(positions))
        times = [r[0] for r in rows]
        med = statistics.median(times)
        p90 = (statistics.quantiles(times, n=10, method="inclusive")[-1]
               if len(times) > 1 else times[0])
        print(f"Hint ({backend}, --max-moves {args.hint_max_moves}): {len(rows)} positions "
              f"(seed {args.seed}), median of {args.runs} runs per position")
        print(f"  median {med:.3f} s (goal <= 1 s: {'met' if med <= 1 else 'NOT met'}), "
              f"p90 {p90:.3f} s, max {max(times):.3f} s; moves ranked: median "
              f"{statistics.median(r[2] for r in rows):g}, cards: median "
              f"{statistics.median(r[3] for r in rows):g}")
        print(f"  of it the chances of meeting another player's card: median "
              f"{1000 * statistics.median(r[1] for r in rows):.1f} ms, max "
              f"{1000 * max(r[1] for r in rows):.1f} ms")
        print("  per position (s): " + " ".join(f"{t:.2f}" for t in times))
        sys.stdout.flush()


def race_positions(args, game_rules):
    """The seeded endgames of the race benchmark: dealt games played greedily until a
    seat has 5 (even i) or 6 (odd i) played cards, not over."""
    from models.topito.policies import greedy_choice
    from models.topito.table import new_game
    from solver.game import task_seed

    out = []
    i = 0
    while len(out) < args.race:
        rng = random.Random(task_seed(args.seed, i))
        state = new_game(game_rules, 2 + i % 3, rng)
        goal = 5 + i % 2
        while state.end() is None and max(len(p) for p in state.played) < goal:
            state = state.move(greedy_choice(state.observation(state.turn),
                                             state.legal_moves(), rng))
        i += 1
        if state.end() is None:
            out.append(state)
    return out


def timed_race(state, player, backend, limit, runs):
    """(median seconds, the answer) of `race` as the command runs it (--max-moves 12),
    or (inf, None) over the limit."""
    from models.topito.race import race
    from solver.errors import TimeLimitReached

    times, res = [], None
    for _ in range(runs):
        t = time.perf_counter()
        try:
            res = race(state, player, 12, backend, limit)
        except TimeLimitReached:
            return float("inf"), None
        times.append(time.perf_counter() - t)
    return statistics.median(times), res


def part_race(args) -> None:
    from models.topito.table import load_game_rules

    positions = race_positions(args, load_game_rules())
    cols = {"astar end": [], "astar seats": [], "bfs end": [], "bfs seats": []}
    print(f"Race: {len(positions)} endgame positions (seed {args.seed}), median of "
          f"{args.runs} runs per position, limit {args.limit:g} s a race")
    print("  #  players  played        end (can win)   seats' fewest   A* end  A* seats"
          "   BFS end  BFS seats")
    with progress_bar("race") as update:
        for i, state in enumerate(positions):
            row = {}
            answers = {}
            for backend in ("astar", "bfs"):
                t_end, res = timed_race(state, None, backend, args.limit, args.runs)
                row[f"{backend} end"] = t_end
                if res is not None:
                    answers.setdefault("end", (res.fewest, res.can_win))
                    assert answers["end"] == (res.fewest, res.can_win), (i, backend)
                total = 0.0
                for p in range(len(state.hands)):
                    t, res = timed_race(state, p, backend, args.limit, args.runs)
                    total += t
                    if res is not None:
                        answers.setdefault(p, res.fewest)
                        assert answers[p] == res.fewest, (i, backend, p)
                row[f"{backend} seats"] = total
            for k, v in row.items():
                cols[k].append(v)
            end = answers.get("end", ("?", []))
            seats = " ".join(str(answers.get(p, "?")) for p in range(len(state.hands)))
            played = ",".join(str(len(p)) for p in state.played)

            def fmt(v):
                return f"{v:9.3f}" if v != float("inf") else f">{args.limit:8g}"
            end_text = f"{end[0]} ({','.join(map(str, end[1]))})"
            print(f"  {i:>2}  {len(state.hands):>7}  {played:<12}  {end_text:<14}  "
                  f"{seats:<14} " + " ".join(fmt(row[k]) for k in cols))
            sys.stdout.flush()
            update(i + 1, len(positions))
    def show(x):
        return f"{x:.3f} s" if x != float("inf") else f"over {args.limit:g} s"

    for k, v in cols.items():
        v = sorted(v)
        p90 = v[min(len(v) - 1, -(-9 * len(v) // 10) - 1)]  # nearest rank
        over = sum(x == float("inf") for x in v)
        print(f"  {k:<11} median {show(statistics.median(v))}, p90 {show(p90)}, max "
              f"{show(v[-1])}" + (f" ({over} over the limit)" if over else ""))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-depth", type=int, default=3)
    ap.add_argument("--max-depth", type=int, default=14)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--budget", type=float, default=600.0,
                    help="Seconds of sampling for part 2.")
    ap.add_argument("--skip-part1", action="store_true")
    ap.add_argument("--skip-part2", action="store_true")
    ap.add_argument("--part3", action="store_true", help="Also the stack-reversal family.")
    ap.add_argument("--sat-limit", type=float, default=60.0,
                    help="Seconds for SAT in part 3.")
    ap.add_argument("--hint", type=int, default=0, metavar="N",
                    help="Only the hint's latency on N seeded positions of dealt games.")
    ap.add_argument("--hint-max-moves", type=int, default=8)
    ap.add_argument("--race", type=int, default=0, metavar="N",
                    help="Only the race (everything known) on N seeded endgame positions.")
    args = ap.parse_args()
    if args.hint:
        part_hint(args)
        return
    if args.race:
        part_race(args)
        return
    rules = load_rules()
    deck = load_deck(rules)
    if not args.skip_part1:
        part1(args, rules, deck)
    if not args.skip_part2:
        part2(args, rules, deck)
    if args.part3:
        part3(args, rules)


if __name__ == "__main__":
    main()
