"""Topito's hint methods played against each other on the same seeded games, and the
decision time of the default hint.

    python scripts/topito_hint_methods.py [--games 40] [--seed 0] [--conflicts 100000]
        [--matches command:greedy,policy:greedy,command:policy]

The methods:
- `command`: `toppi topito hint` at its defaults (proven distances up to 8 moves by the
  SAT planner, within the fixed work budget `--conflicts`, no time limit), its best
  move played;
- `policy`: the hint policy of `simulate` (the same ranking, distances two moves deep);
- `greedy`, `random`: the simple policies.

Each match plays `--games` two-player games, game g dealt from `seed*1000003+g` (the
deal `simulate` makes), the two methods swapping seats from game to game; every method
sees only its own observation. Printed per match: each method's wins with a Wilson 95 %
interval (a shared win counts for both) and the difference of the two per game with a
95 % interval; for two matches against the same opponent, the paired difference of their win rates over the same deals with a 95 % interval; and the
default hint's decision time (median, p90, max), the only figure that depends on the
machine (the moves played do not: the work is counted in conflicts).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable

from models.topito.game import GAME
from models.topito.hint import table_hint
from models.topito.policies import greedy_choice, hint_choice, random_choice
from models.topito.rules import load_game_rules
from models.topito.state import GameState, Move, format_move, new_game
from models.topito.work import HINT_NODES, Work
from solver.stats import wilson

Method = Callable[[GameState, list[Move], random.Random], Move]


def command_method(conflicts: int, times: list[float], spent: list[tuple[int, bool]]
                   ) -> Method:
    """The best move of `toppi topito hint` at its defaults (its decision times noted,
    and the conflicts each spent with whether it decided every distance)."""
    def choose(view: GameState, legal: list[Move], rng: random.Random) -> Move:
        t = time.perf_counter()
        res, _ = table_hint(view, "sat", 8, None, work=Work(HINT_NODES, conflicts))
        times.append(time.perf_counter() - t)
        spent.append((res.work.conflicts if res.work else 0, res.complete))
        stacks = view.blocks.stacks
        best = res.best.move if res.best is not None else None
        by_text = {format_move(view.blocks.rules, m, stacks): m for m in legal}
        return by_text[best] if best in by_text else rng.choice(legal)
    return choose


def play(methods: tuple[Method, Method], seed: int) -> list[int]:
    """One two-player game dealt from `seed`: the winners' seats."""
    rules = load_game_rules()
    state = new_game(rules, 2, random.Random(seed))
    rngs = [random.Random(seed * 2 + k) for k in range(2)]
    while state.end() is None:
        seat = state.turn
        view = GAME.observation(state, seat)
        legal = list(state.legal_moves())
        state = state.move(methods[seat](view, legal, rngs[seat]))
    return list(state.winners())


def match(a: str, b: str, methods: dict[str, Method], games: int, seed: int
          ) -> list[tuple[bool, bool]]:
    """Per game (a won, b won), a in seat 1 of the even games and seat 2 of the odd."""
    out = []
    for g in range(games):
        first = g % 2 == 0
        seats = (methods[a], methods[b]) if first else (methods[b], methods[a])
        win = play(seats, seed * 1000003 + g)
        out.append(((0 if first else 1) in win, (1 if first else 0) in win))
    return out


def paired(x: list[bool], y: list[bool]) -> tuple[float, float, float]:
    """The mean of x - y over the same games with a 95 % normal interval."""
    d = [int(a) - int(b) for a, b in zip(x, y, strict=True)]
    mean = statistics.fmean(d)
    half = 1.96 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
    return mean, mean - half, mean + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--conflicts", type=int, default=100_000)
    ap.add_argument("--matches", default="command:greedy,policy:greedy,command:policy")
    args = ap.parse_args()
    times: list[float] = []
    spent: list[tuple[int, bool]] = []
    methods: dict[str, Method] = {"command": command_method(args.conflicts, times, spent),
                                  "policy": hint_choice, "greedy": greedy_choice,
                                  "random": random_choice}
    results: dict[tuple[str, str], list[tuple[bool, bool]]] = {}
    for pair in args.matches.split(","):
        a, b = pair.split(":")
        t = time.perf_counter()
        res = results[(a, b)] = match(a, b, methods, args.games, args.seed)
        line = []
        for name, k in ((a, 0), (b, 1)):
            r = wilson(sum(w[k] for w in res), len(res))
            line.append(f"{name} {r.rate:.1%} ({r.low:.1%}-{r.high:.1%})")
        mean, low, high = paired([w[0] for w in res], [w[1] for w in res])
        print(f"{a} vs {b}, {len(res)} games: {', '.join(line)}; {a} - {b} per game "
              f"{mean:+.1%} ({low:+.1%} to {high:+.1%}) [{time.perf_counter() - t:.0f} s]",
              flush=True)
    for (a, b), x in results.items():
        for (c, d), y in results.items():
            if b == d and a < c:
                mean, low, high = paired([w[0] for w in x], [w[0] for w in y])
                print(f"{a} - {c} against {b}, same deals: {mean:+.1%} "
                      f"({low:+.1%} to {high:+.1%})")
    if times:
        times.sort()
        p90 = times[min(len(times) - 1, math.ceil(0.9 * len(times)) - 1)]
        print(f"default hint: {len(times)} decisions, median {statistics.median(times):.2f}"
              f" s, p90 {p90:.2f} s, max {times[-1]:.2f} s; conflicts median "
              f"{statistics.median(c for c, _ in spent):.0f}, max {max(c for c, _ in spent)}"
              f" of {args.conflicts}; {sum(not ok for _, ok in spent)} left a distance "
              "undecided")


if __name__ == "__main__":
    main()
