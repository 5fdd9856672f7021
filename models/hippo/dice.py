"""Hippo's dice: a roll, the ways to add its dice up in groups (each group one chip, its
sum the lane), the orders of those lanes, and the distinct rolls with their share of
the ordered throws."""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

from models.hippo.rules import Rules

Roll = tuple[int, ...]  # the dice, highest first: (6, 4, 2) (their order never matters)


def _set_partitions(items: list[int]) -> list[list[list[int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for part in _set_partitions(rest):
        for i in range(len(part)):
            out.append(part[:i] + [[first, *part[i]]] + part[i + 1:])
        out.append([[first], *part])
    return out


@cache
def roll_splits(rules: Rules, dice: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every way to add up the dice in groups, as groups of dice (largest sums first);
    splits with a sum above the highest lane are no option. Distinct by their sums."""
    seen: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
    for part in _set_partitions(list(range(len(dice)))):
        groups = sorted((tuple(sorted((dice[i] for i in g), reverse=True)) for g in part),
                        key=lambda g: (-sum(g), g))
        sums = tuple(sum(g) for g in groups)
        if max(sums) <= rules.lanes and sums not in seen:
            seen[sums] = tuple(groups)
    return tuple(sorted(seen.values(), key=lambda gs: (-len(gs), [sum(g) for g in gs])))


@cache
def roll_sequences(rules: Rules, dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct order of lanes in which a roll's chips can be placed."""
    out: set[tuple[int, ...]] = set()
    for groups in roll_splits(rules, tuple(sorted(dice))):
        out.update(itertools.permutations([sum(g) for g in groups]))
    return tuple(sorted(out, key=lambda s: (-len(s), s)))


def sorted_roll(dice: tuple[int, ...] | list[int]) -> Roll:
    """The dice highest first: how a roll is kept (the dice's order never matters)."""
    return tuple(sorted(dice, reverse=True))


@cache
def all_rolls(rules: Rules) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The distinct rolls (dice sorted) with how many of the faces**dice ordered
    outcomes show them: 56 rolls, counts summing to 216, for three dice."""
    counts = Counter(tuple(sorted(r)) for r in
                     itertools.product(range(1, rules.faces + 1), repeat=rules.dice))
    return tuple(sorted(counts.items()))

