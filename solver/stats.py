"""Summaries of simulated games: score distributions and win-rate intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Summary:
    """Distribution of numbers (scores, game lengths): quartiles from
    statistics.quantiles(n=4) (Q1, median, Q3)."""

    n: int
    mean: float
    median: float
    quartiles: list[float]
    min: float
    max: float


def summarise(values: Sequence[float]) -> Summary:
    """Mean, median, quartiles, min and max of at least one value."""
    import statistics  # here: every game's command-line module imports this one

    if not values:
        raise ValueError("nothing to summarise")
    quartiles = ([float(q) for q in statistics.quantiles(values, n=4)] if len(values) >= 2
                 else [float(values[0])] * 3)
    return Summary(len(values), round(statistics.fmean(values), 3),
                   float(statistics.median(values)), quartiles, min(values), max(values))


@dataclass(frozen=True)
class Rate:
    """Successes out of trials with a Wilson score interval (confidence `level`)."""

    successes: int
    trials: int
    rate: float
    low: float
    high: float
    level: float


def wilson(successes: int, trials: int, level: float = 0.95) -> Rate:
    """The Wilson score interval: sound also for rates near 0 or 1 and few trials."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError("need 0 <= successes <= trials and trials > 0")
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + level / 2)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return Rate(successes, trials, round(p, 4), round(max(0.0, centre - half), 4),
                round(min(1.0, centre + half), 4), level)


@dataclass(frozen=True)
class Ratio:
    """mean(values) / mean(references) over n paired observations (a policy's scores
    and the same games' optima), with a normal-approximation interval."""

    n: int
    ratio: float
    low: float
    high: float
    level: float


def mean_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of at least one value and its standard error (0 with one value)."""
    import statistics

    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, statistics.stdev(values) / len(values) ** 0.5


def ratio_of_means(values: Sequence[float], references: Sequence[float],
                   level: float = 0.95) -> Ratio:
    """The ratio of the means of paired values, its interval by the delta method:
    Var(R) ~ Var(v - R r) / (n mean(r)^2), which counts the pairing (a hard draw is
    hard for the policy and for the optimum alike)."""
    import statistics
    from statistics import NormalDist

    n = len(values)
    if n != len(references) or n == 0:
        raise ValueError("need as many references as values, at least one")
    mean_ref = statistics.fmean(references)
    if mean_ref <= 0:
        raise ValueError("the references' mean must be positive")
    r = statistics.fmean(values) / mean_ref
    if n == 1:
        return Ratio(1, round(r, 4), -math.inf, math.inf, level)
    se = statistics.stdev(v - r * ref for v, ref in zip(values, references, strict=True)
                          ) / math.sqrt(n) / mean_ref
    z = NormalDist().inv_cdf(0.5 + level / 2)
    return Ratio(n, round(r, 4), round(r - z * se, 4), round(r + z * se, 4), level)
