"""Helpers for the Hippo tests: random legal positions."""

from __future__ import annotations

from typing import Any

from models.hippo.rules import Rules
from models.hippo.state import Fresh, GameState


def random_state(rules: Rules, players: int, rng: Any, fill: float = 0.6,
                 foreign: float = 0.3) -> GameState:
    """A random legal mid-game state (tests, benchmarks): lanes filled with random
    colours, some chips with Mr. Hippo, the rest in stocks, some stocks holding other
    players' colours (under the next-turn reading, before a bonus roll some of the
    mover's may have been taken this turn). Every player keeps at least one chip."""
    n = players
    colours = rules.colour_names[:n]
    pool = [c for c in range(n) for _ in range(rules.chips)]
    rng.shuffle(pool)
    lanes: list[tuple[int, ...]] = [()] * (rules.lanes + 1)
    hippo = [0] * n
    for lane in range(1, rules.lanes + 1):
        if lane == rules.hippo:
            for _ in range(min(rng.randrange(4), len(pool) - n)):
                hippo[pool.pop()] += 1
            continue
        if rng.random() < fill:
            k = min(rng.randint(1, rules.capacity), len(pool) - n)
            lanes[lane] = tuple(pool.pop() for _ in range(max(0, k)))
    stocks = [[0] * n for _ in range(n)]
    for c in pool:
        owner = c if rng.random() >= foreign else rng.randrange(n)
        stocks[owner][c] += 1
    for p in range(n):  # nobody has won yet
        if not any(stocks[p]):
            q = max(range(n), key=lambda q: sum(stocks[q]))
            c = max(range(n), key=lambda c: stocks[q][c])
            stocks[q][c] -= 1
            stocks[p][c] += 1
    me, bonus = rng.randrange(n), rng.random() < 0.2
    fresh: Fresh = ()
    if bonus and rules.next_turn and any(stocks[me][c] for c in range(n) if c != me):
        # a bonus roll after a penalty: some foreign chips were taken during this turn
        counts = [rng.randint(0, stocks[me][c]) if c != me else 0 for c in range(n)]
        fresh = tuple(counts) if any(counts) else ()
    return GameState(rules, tuple(colours), tuple(lanes), tuple(hippo),
                     tuple(tuple(r) for r in stocks), me, bonus, fresh=fresh)
