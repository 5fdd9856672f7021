"""Learning the tables by temporal differences from seeded self-play: after each
placement the value of the previous board moves toward the points the placement scored
plus the value of the new board (TD(0)), or after each game every board toward its
lambda-return (TD(lambda))."""

from __future__ import annotations

import random
from collections.abc import Callable

from models.take_it_higher.learned.features import board_keys, play_call
from models.take_it_higher.learned.tables import LineValues
from models.take_it_higher.rules import Rules
from models.take_it_higher.variants import Variant

ALPHA = 0.2  # the step size of the learning, shared among a board's table entries


def play(v: LineValues, draw: list[int], alpha: float = 0.0, lam: float = 0.0) -> int:
    """One game of `draw` (tile indices in call order), each tile on the cell of best
    gain (no look-ahead); with alpha > 0, learning as it goes (TD(0)), or with lam > 0
    after the game, each board toward its lambda-return (TD(lambda), forward view).
    Its points (rows, and the ring with `ships`)."""
    b = v.new_board()
    score = 0
    previous: list[tuple] | None = None
    before = 0.0
    trail: list[tuple[list[tuple], float, int]] = []  # each board, its value, its points
    for t in draw:
        points = play_call(v, b, t)
        score += points
        if alpha:
            entries = board_keys(v, b, len(b.empty))
            value = v.value(entries)
            if lam:
                trail.append((entries, value, points))
                continue
            if previous is not None:
                _update(v, previous, alpha * (points + value - before))
            previous, before = entries, value
    if alpha and lam:
        _lambda_returns(v, trail, alpha, lam)
    elif alpha and previous is not None:
        _update(v, previous, alpha * (0.0 - before))
    return score


def _lambda_returns(v: LineValues, trail: list[tuple[list[tuple], float, int]],
                    alpha: float, lam: float) -> None:
    """Each board of a game's `trail` (its entries, value and points) toward its
    lambda-return, from the last board back."""
    # G_t = r_{t+1} + (1 - lam) V(s_{t+1}) + lam G_{t+1}; the last board's G is 0
    ret = following = reward = 0.0  # the next board's return, value, points
    for entries, value, points in reversed(trail):
        ret = reward + (1 - lam) * following + lam * ret
        _update(v, entries, alpha * (ret - value))
        following, reward = value, points


def _update(v: LineValues, entries: list[tuple], delta: float) -> None:
    w = v.weights
    step = delta / max(1, len(entries))
    coherence = v.coherence
    if coherence is not None:
        # temporal coherence: each entry's own rate, |sum of its errors| / sum of
        # |errors|, falls as its errors start to cancel
        for k in entries:
            e, a = coherence.get(k, (0.0, 0.0))
            w[k] = w.get(k, 0.0) + (abs(e) / a if a else 1.0) * step
            coherence[k] = (e + step, a + abs(step))
        return
    for k in entries:
        w[k] = w.get(k, 0.0) + step


def check_learning(alpha: float, lam: float, games: int) -> None:
    """The learning parameters in their ranges (a NaN step learns nothing and says it
    did): 0 < alpha <= 1, 0 <= lam < 1, games >= 1."""
    import math

    from solver.errors import BadInput

    if not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and 0 < alpha <= 1):
        raise BadInput(f"--step {alpha}: expected a number with 0 < step <= 1")
    if not (isinstance(lam, (int, float)) and math.isfinite(lam) and 0 <= lam < 1):
        raise BadInput(f"--lambda {lam}: expected a number with 0 <= lambda < 1")
    if not (isinstance(games, int) and games >= 1):
        raise BadInput(f"--games {games}: expected a whole number of at least 1")


def train(rules: Rules, variant: Variant, games: int, seed: int = 0, alpha: float = ALPHA,
          values: LineValues | None = None,
          progress: Callable[[int, float], None] | None = None,
          chances: bool | None = None, fits: bool | None = None,
          lam: float = 0.0, demand: bool | None = None, jobs: int = 1,
          coherence: bool = False) -> LineValues:
    """Learn (or go on learning) by `games` seeded games of self-play, each a random
    draw of the board's size; the step size falls to a third for the second half.
    Values of the rows alone go on learning with the variant's ships, if it has any.
    `chances`: whether ship tables read the ships' chances (default: new ship tables
    do, resumed ones as they were learned); `fits`: whether the tables read the cells'
    fits (default: as learned, off for new tables). `lam` > 0: TD(lambda) instead of
    TD(0), each game's boards moved toward their lambda-returns after the game. `jobs`
    > 1: that many processes learn at once, each on its own games, their tables merged
    every ROUND games (`_train_shards`). `coherence`: each entry's step is alpha times
    its own rate, which falls as the entry's errors start to cancel (temporal coherence;
    the rates start afresh with every run), alpha the same for every game."""
    check_learning(alpha, lam, games)
    fresh = values is None or values.ships is None
    values = values or LineValues(rules, variant.gold_silver, seed=seed, ships=variant.ships)
    if values.ships is None and variant.ships and rules.spaceships:
        values.ships = variant.ships  # the rows' values go on learning with the ships
    if values.ships and (fresh or chances is not None):
        values.chances = fresh if chances is None else chances
    if fits is not None:
        values.fits = fits
    if demand is not None:
        values.demand = demand
    values.coherence = {} if coherence else None
    half = games if coherence else games // 2  # from this game on, a third of alpha
    if jobs > 1:
        return _train_shards(values, games, seed, alpha, lam, jobs, progress, half)
    rng = random.Random(seed * 1_000_003 + values.games)
    n = len(rules.tiles)
    window: list[int] = []
    for g in range(games):
        draw = rng.sample(range(n), rules.board_size)
        a = alpha if g < half else alpha / 3
        window.append(play(values, draw, a, lam))
        values.games += 1
        if progress is not None and len(window) == 1000:
            progress(values.games, sum(window) / len(window))
            window = []
    return values


def seconds_per_game(rules: Rules, variant: Variant, games: int = 30) -> float:
    """About how long one game of self-play takes here: `games` games on a scratch
    table, timed (for the estimate `learn` gives before it starts; never an answer)."""
    import time

    scratch = LineValues(rules, variant.gold_silver, seed=0, ships=variant.ships)
    rng = random.Random(0)
    n = len(rules.tiles)
    start = time.perf_counter()
    for _ in range(games):
        play(scratch, rng.sample(range(n), rules.board_size), ALPHA)
    return (time.perf_counter() - start) / games


ROUND = 1000  # games each process plays between two merges of the tables


def _train_shards(values: LineValues, games: int, seed: int, alpha: float, lam: float,
                  jobs: int, progress: Callable[[int, float], None] | None, half: int
                  ) -> LineValues:
    """`train` on `jobs` processes: round after round each plays ROUND games of its own
    (game g of the run drawn from seed and g alone) on a copy of the tables, then every
    entry moves by the mean change of the copies that changed it, and the copies are
    made equal again. The same seed, games and jobs give the same tables."""
    from solver.processes import Worker, kill_all

    first = values.games
    half += first
    n = len(values.rules.tiles)
    size = values.rules.board_size
    workers = [Worker(initializer=_shard_start, initargs=(values,)) for _ in range(jobs)]
    try:
        news: dict[tuple, float] = {}
        start = first
        while start < first + games:
            chunks = []
            for w in workers:
                count = min(ROUND, first + games - start)
                if count <= 0:
                    break
                w.call(_shard_round, news, start, count, half, alpha, lam, seed, n, size)
                chunks.append(w)
                start += count
            changes = [w.outcome().get() for w in chunks]
            news = _merge(values.weights, [c for c, _ in changes])
            values.games += sum(len(s) for _, s in changes)
            if progress is not None:
                scores = [x for _, s in changes for x in s]
                progress(values.games, sum(scores) / len(scores))
    finally:
        kill_all(workers)
    return values


def _merge(weights: dict[tuple, float], changes: list[dict[tuple, float]]
           ) -> dict[tuple, float]:
    """Move each entry by the mean of the changes that name it; the entries changed,
    with their new weights."""
    moved: dict[tuple, list[float]] = {}
    for change in changes:
        for k, d in change.items():
            moved.setdefault(k, []).append(d)
    news = {}
    for k, ds in moved.items():
        news[k] = weights[k] = weights.get(k, 0.0) + sum(ds) / len(ds)
    return news


_SHARD: list[LineValues] = []  # a learning process's copy of the tables


def _shard_start(values: LineValues) -> None:
    _SHARD[:] = [values]


def _shard_round(news: dict[tuple, float], start: int, count: int, half: int, alpha: float,
                 lam: float, seed: int, n: int, size: int
                 ) -> tuple[dict[tuple, float], list[int]]:
    """In a learning process: take the merged entries `news`, play games start ..
    start + count - 1 learning, and hand back each entry's change and the scores."""
    v = _SHARD[0]
    w = v.weights
    w.update(news)
    before = dict(w)
    scores = []
    for g in range(start, start + count):
        draw = random.Random(seed * 1_000_003 + g).sample(range(n), size)
        scores.append(play(v, draw, alpha if g < half else alpha / 3, lam))
    change = {k: x - before.get(k, 0.0) for k, x in w.items() if x != before.get(k)}
    return change, scores
