"""Tippi Toppi's default hint against the other ways to choose a play, on the same
seeded games (paired), and the default hint's decision time.

    python scripts/compare_tippi_toppi_hints.py [--games 100] [--players 1,2,3,4]
        [--difficulty normal] [--seed 0]

Game g of a setup is dealt and played from seed `task_seed(seed, g)`, the seed
`toppi tippi-toppi simulate --seed S` gives game g (so each column is that command's
cell), once per method:
- hint: the default hint policy (`toppi tippi-toppi hint`), on what the player sees;
- hint without team: the hint without its "others can help" reason (the share of the
  cards the others may hold that would fulfil a task next), the hint before that
  reason was added;
- random: any legal play (the other policy of `simulate`);
- hint, all-seeing: the same hint handed the whole state (`hint --open-hands`): a
  reference no player at the table can use, not a method to choose.
The work is fixed (games, setups, methods; the hint neither samples nor searches: it
counts the unseen cards exactly), so every win is the same on any machine; only the
times depend on the machine. Per setup: each method's win rate with its 95 % Wilson
interval, and the paired difference of the default against each other method with a
95 % interval (normal approximation on the per-game differences). Then the default
hint's decision time (a decision = one call of the hint policy on the player's
observation, which the game loop takes before) over every decision of its games:
median and p90.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from statistics import NormalDist

from models.tippi_toppi.game import GAME
from models.tippi_toppi.hint import (
    W_TEAM,
    choose_hint,
    choose_random,
    ranked_plays,
    reads_every_hand,
)
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.state import Play
from solver.game import Policy, play_out, task_seed
from solver.stats import mean_error, wilson


def choose_without_team(observation, legal, rng):
    """The hint's best play with its "others can help" term taken out of every score."""
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return legal[0]
    ranked = ranked_plays(observation, plays, open_hands=reads_every_hand(observation))
    best = max(range(len(ranked)), key=lambda i: (
        ranked[i][1].score - W_TEAM * ranked[i][1].others_help_share, -i))
    return ranked[best][0]


METHODS: dict[str, tuple[Callable, bool]] = {
    "hint": (choose_hint, False),
    "hint without team": (choose_without_team, False),
    "random": (choose_random, False),
    "hint, all-seeing": (choose_hint, True),
}


def timed(choose: Callable, times: list[float]) -> Callable:
    """`choose`, each call's seconds appended to `times`."""
    def call(observation, legal, rng):
        start = time.perf_counter()
        action = choose(observation, legal, rng)
        times.append(time.perf_counter() - start)
        return action
    return call


def play(rules, setup: dict, seed: int, method: str, times: list[float] | None) -> bool:
    """Game `seed` of `setup` played by `method` at every seat: won?"""
    choose, all_seeing = METHODS[method]
    if times is not None:
        choose = timed(choose, times)
    deal_rng, play_rng = GAME.streams(seed)
    state = GAME.new_game(rules, setup, deal_rng)
    policy = Policy(method, choose, open_hands=all_seeing)
    end, _, _ = play_out(GAME, state, [policy] * state.players, play_rng)
    return end.is_won()


def paired(a: list[bool], b: list[bool]) -> str:
    """The difference of the win rates of a and b (same games) with a 95 % interval."""
    diff, err = mean_error([float(x) - float(y) for x, y in zip(a, b, strict=True)])
    z = NormalDist().inv_cdf(0.975)
    return (f"{100 * diff:+.1f} pts ({100 * (diff - z * err):+.1f} to "
            f"{100 * (diff + z * err):+.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per setup")
    ap.add_argument("--players", default="1,2,3,4")
    ap.add_argument("--difficulty", default="normal")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rules = load_rules()
    setups = GAME.setups(rules, players=args.players, difficulty=args.difficulty)
    times: list[float] = []
    names = list(METHODS)
    print(f"{args.games} games per setup, seed {args.seed}\n")
    others = names[1:]
    print("| players | difficulty | " + " | ".join(names) + " | "
          + " | ".join(f"hint - {m}" for m in others) + " |")
    print("|---|---|" + "---|" * (2 * len(names) - 1))
    for setup in setups:
        won = {m: [play(rules, setup, task_seed(args.seed, g), m,
                        times if m == "hint" else None) for g in range(args.games)]
               for m in names}
        cells = []
        for m in names:
            r = wilson(sum(won[m]), args.games)
            cells.append(f"{100 * r.rate:.1f}% ({100 * r.low:.0f}-{100 * r.high:.0f})")
        print(f"| {setup['players']} | {setup['difficulty']} | " + " | ".join(cells)
              + " | " + " | ".join(paired(won["hint"], won[m]) for m in others) + " |",
              flush=True)
    q = statistics.quantiles(times, n=10)
    print(f"\nhint decision time over {len(times)} decisions: median "
          f"{1000 * statistics.median(times):.2f} ms, p90 {1000 * q[8]:.2f} ms, max "
          f"{1000 * max(times):.2f} ms")


if __name__ == "__main__":
    main()
