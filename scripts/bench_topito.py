"""Benchmark of `toppi topito plan` (the goals: every shortest plan up to 8 moves
in <= 1 s median, the stack-reversal family up to 8 moves in <= 2 s median, proven
minimal), and of the honest `hint` (target: median <= 1 s).

    python scripts/bench_topito.py [--cases 60] [--runs 3] [--seed 0] [--backends auto,sat,bfs]
                                   [--per-depth 5] [--max-depth 10] [--limit 10]
                                   [--budget 600] [--part3] [--skip-part1] [--skip-part2]
    python scripts/bench_topito.py --hint 20 [--runs 3] [--seed 0] [--hint-max-moves 8]

Back-ends (`--backends`, comma-separated): the `plan` back-ends as `plan.shortest`
runs them — auto (the default: A* for a bounded number of positions, then SAT from
what A* ruled out), astar, sat (its horizon from the lower bound), bfs — and sat0, the
SAT encoding from horizon 0 without the bound (the back-end before A*). Times are
wall time inside the process (encodings built each time); a back-end over `--limit`
seconds on a case counts as over it and is not run again on that case.

Part 1 — random cases: random reachable positions (random stacks and a random legal
last move) and a random deck card. Each case is timed `--runs` times with each
back-end (median per case); printed: median, p90 and max over the cases, and the
median by plan length.

Part 2 — scaling: goals of several deck cards at once ("all") give longer plans.
Random cases (1-6 cards, sized towards a random target length) are solved with
`auto` (its length and the proof); each length from 1 to `--max-depth` collects
`--per-depth` cases (until `--budget` seconds of sampling run out). For each length:
the median over its cases of each back-end's median of `--runs` runs. Goals no plan
within --max-depth meets (or no arrangement at all) are counted, not timed; those auto
does not decide within 3 x --limit are listed and, with `--recheck S`, run again with
S seconds (auto, then SAT alone) to tell whether a short plan was missed.

Part 3 (`--part3`) — a deterministic hard family: one stack of k blocks on red must
end reversed (order cards chaining the reversed sequence, all at once): plans of k
lifts; each back-end's median of `--runs` runs per k.

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

from models.topito.encode_sat import sat_plan
from models.topito.plan import shortest
from models.topito.puzzle_search import random_state
from models.topito.rules import Card, Goal, load_deck, load_rules
from models.topito.state import State
from solver.deadline import Deadline
from solver.progress import progress_bar

BACKENDS = ("auto", "astar", "sat", "bfs", "sat0")
OVER = float("inf")


def timed(backend: str, state, goal, max_depth: int, limit: float):
    """(seconds, status, length) of one run; status "unknown" past the limit."""
    t = time.perf_counter()
    if backend == "sat0":
        status, length, _, _ = sat_plan(state, goal, max_depth, Deadline.after(limit))
    else:
        got = shortest(state, goal, backend, max_depth, Deadline.after(limit))  # no budget
        status, length = got.status, got.length
    return time.perf_counter() - t, status, length


def timed_runs(backends, state, goal, max_depth: int, limit: float, runs: int):
    """{backend: median seconds (OVER past the limit)} and the answers (status, length)
    of those that finished, which must agree."""
    times, answers = {}, {}
    for be in backends:
        ts = []
        for _ in range(runs):
            t, status, length = timed(be, state, goal, max_depth, limit)
            if status == "unknown":
                ts = [OVER]
                break
            ts.append(t)
            answers[be] = (status, length)
        times[be] = statistics.median(ts)
    assert len(set(answers.values())) <= 1, (state, goal, answers)
    return times, answers


def fmt(t: float, limit: float) -> str:
    return f">{limit:g}" if t == OVER else f"{t:.3f}"


def quantile90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, -(-9 * len(xs) // 10) - 1)]  # nearest rank


def part1(args, rules, deck) -> None:
    rng = random.Random(args.seed)
    rows = []
    with progress_bar("random cases") as update:
        for i in range(args.cases):
            state = random_state(rules, rng)
            goal = Goal((rng.choice(deck),))
            times, answers = timed_runs(args.backends, state, goal, args.max_depth,
                                        args.limit, args.runs)
            length = next(iter(answers.values()), (None, None))[1]
            rows.append((length, times))
            update(i + 1, args.cases)
    print(f"Part 1: {len(rows)} random cases (seed {args.seed}, one deck card), median of "
          f"{args.runs} runs per case")
    for be in args.backends:
        ts = [r[1][be] for r in rows]
        print(f"  {be:<6} median {fmt(statistics.median(ts), args.limit)} s, p90 "
              f"{fmt(quantile90(ts), args.limit)} s, max {fmt(max(ts), args.limit)} s, "
              f"{sum(t == OVER for t in ts)} over the {args.limit:g} s limit")
    print("  by plan length: length  cases  " + "  ".join(f"{be:>7}" for be in args.backends))
    for length in sorted({r[0] for r in rows if r[0] is not None}):
        sub = [r for r in rows if r[0] == length]
        meds = [statistics.median(r[1][be] for r in sub) for be in args.backends]
        print(f"    {length:>6}  {len(sub):>5}  " + "  ".join(f"{fmt(m, args.limit):>7}"
                                                         for m in meds))


def part2(args, rules, deck) -> None:
    rng = random.Random(args.seed + 1)
    buckets: dict[int, list[dict[str, float]]] = {d: [] for d in range(1, args.max_depth + 1)}
    none = unknown = tried = 0
    undecided = []
    deadline = time.perf_counter() + args.budget
    print(f"Part 2: plan length scaling ({args.per_depth} cases per length, goals of "
          f"1-6 deck cards at once, median of {args.runs} runs per case)")
    with progress_bar("scaling") as update:
        while time.perf_counter() < deadline and any(
                len(c) < args.per_depth for c in buckets.values()):
            tried += 1
            target = rng.choice([d for d, c in buckets.items() if len(c) < args.per_depth])
            state = random_state(rules, rng, rng.randint(0, rules.n_blocks))
            k = min(6, 1 + target // 3 + rng.randint(0, 1))
            goal = Goal(tuple(rng.sample(deck, k)), "all")
            _, status, length = timed("auto", state, goal, args.max_depth, 3 * args.limit)
            if status == "unknown":
                unknown += 1
                undecided.append((state, goal))
                continue
            if length is None:
                none += 1
                continue
            if length == 0 or len(buckets[length]) >= args.per_depth:
                continue
            times, answers = timed_runs(args.backends, state, goal, length, args.limit,
                                        args.runs)
            assert all(a == ("optimal", length) for a in answers.values()), answers
            buckets[length].append(times)
            update(sum(min(len(c), args.per_depth) for c in buckets.values()),
                   args.per_depth * args.max_depth)
    print(f"  {tried} goals sampled: {none} with no plan within {args.max_depth} moves, "
          f"{unknown} not decided by auto within {3 * args.limit:g} s")
    print("  length  cases  " + "  ".join(f"{be:>7}" for be in args.backends)
          + "   (median s; auto max)")
    for d, cases in buckets.items():
        if not cases:
            print(f"  {d:>6}      0  (no case of this length found in the budget)")
            continue
        meds = [statistics.median(c[be] for c in cases) for be in args.backends]
        worst = max(c["auto"] for c in cases) if "auto" in args.backends else None
        print(f"  {d:>6}  {len(cases):>5}  " + "  ".join(f"{fmt(m, args.limit):>7}"
                                                      for m in meds)
              + (f"   {fmt(worst, args.limit)}" if worst is not None else ""))
        sys.stdout.flush()
    if undecided and args.recheck:
        print(f"  the goals auto did not decide, again with {args.recheck:g} s (auto, then "
              "sat alone):")
        for state, goal in undecided:
            rules = state.rules
            where = " | ".join(" ".join(rules.characters[b] for b in st) or "-"
                               for st in state.stacks)
            cards = "; ".join(c.text(rules) for c in goal.cards)
            line = []
            for be in ("auto", "sat"):
                t, status, length = timed(be, state, goal, args.max_depth, args.recheck)
                line.append(f"{be} {status} {length if length is not None else ''} "
                            f"{fmt(t if status != 'unknown' else OVER, args.recheck)} s")
            print(f"    [{where}] {cards}: " + ", ".join(line))
            sys.stdout.flush()


def reversal(rules, k: int) -> tuple[State, Goal]:
    """One stack of k blocks on red; order cards chaining the reversed sequence."""
    blocks = tuple(range(k))
    state = State(rules, (blocks,) + ((),) * (rules.n_podiums - 1))
    rev = blocks[::-1]
    cards = tuple(Card("order", rev[i:i + 3]) for i in range(0, k - 2, 2))
    if (k - 3) % 2:
        cards += (Card("order", rev[-3:]),)
    return state, Goal(cards, "all")


def part3(args, rules) -> None:
    """Reverse a stack of k blocks: long plans of lifts only."""
    print(f"Part 3: reverse a stack of k blocks (goal: order cards, all at once), median "
          f"of {args.runs} runs")
    print("  k  length  " + "  ".join(f"{be:>7}" for be in args.backends))
    slow: set[str] = set()
    for k in range(3, rules.n_blocks + 1):
        state, goal = reversal(rules, k)
        run = [be for be in args.backends if be not in slow]
        times, answers = timed_runs(run, state, goal, args.max_depth + 6, args.sat_limit,
                                    args.runs)
        slow |= {be for be, t in times.items() if t == OVER}
        length = next(iter(answers.values()), (None, "unknown"))[1]
        print(f"  {k}  {length!s:>6}  " + "  ".join(
            f"{fmt(times[be], args.sat_limit) if be in times else 'skipped':>7}"
            for be in args.backends))
        sys.stdout.flush()


def hint_positions(args, game_rules):
    """The seeded positions of the hint benchmark (not over, player on turn with cards)."""
    from models.topito.policies import greedy_choice
    from models.topito.state import new_game
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
    from models.topito.rules import load_game_rules

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
    from models.topito.state import new_game
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
    from models.topito.work import Work

    times, res = [], None
    for _ in range(runs):
        t = time.perf_counter()
        res = race(state, player, 12, backend, limit, work=Work())  # the time limit only
        if res.status == "unknown":
            return float("inf"), None
        times.append(time.perf_counter() - t)
    return statistics.median(times), res


def part_race(args) -> None:
    from models.topito.rules import load_game_rules

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
    ap.add_argument("--backends", default="auto,sat,bfs",
                    help=f"Comma-separated, of {','.join(BACKENDS)}.")
    ap.add_argument("--per-depth", type=int, default=5)
    ap.add_argument("--max-depth", type=int, default=10)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--budget", type=float, default=600.0,
                    help="Seconds of sampling for part 2.")
    ap.add_argument("--recheck", type=float, default=0.0, metavar="S",
                    help="Part 2: run the goals auto left undecided again with S s.")
    ap.add_argument("--skip-part1", action="store_true")
    ap.add_argument("--skip-part2", action="store_true")
    ap.add_argument("--part3", action="store_true", help="Also the stack-reversal family.")
    ap.add_argument("--sat-limit", type=float, default=60.0,
                    help="Seconds per back-end run in part 3.")
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
    args.backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if unknown := set(args.backends) - set(BACKENDS):
        ap.error(f"unknown back-end(s) {', '.join(sorted(unknown))}")
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
