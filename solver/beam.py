"""Beam search for a winning line when everything is known (a one-player search: a
cooperative game with every hand and pile known is one).

Layer by layer (one action each), every child of the kept states is made; children that
are won end the search, dead ones are dropped, equal ones (by `key`: what decides the
rest of the game) are merged, and the `width` best by `score` (ties broken by a seeded
random number) are kept. `widening_beam` runs it with widths 8, 16, 32, ... until a
budget of children made (`max_nodes`: work, so the result does not depend on the
machine) or the deadline (a cap) runs out. A layer that never had to be cut makes the search exhaustive: no win found
then means none exists (the game is lost)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from solver.deadline import Deadline

S = TypeVar("S")
A = TypeVar("A")


@dataclass
class BeamGame(Generic[S, A]):
    """What the beam needs of a game: the actions of a state, the state after one (a
    new state), won / dead (no action can win any more), a key merging states with
    the same future, and a score (higher is more promising)."""

    actions: Callable[[S], Iterable[A]]
    apply: Callable[[S, A], S]
    won: Callable[[S], bool]
    dead: Callable[[S], bool]
    key: Callable[[S], Hashable]
    score: Callable[[S], float]


@dataclass
class BeamResult(Generic[A]):
    line: list[A] | None  # the actions to a win, None when none was found
    nodes: int  # children made
    exhaustive: bool  # no layer was cut: line None then proves there is no win
    width: int  # the last width tried


def beam(game: BeamGame[S, A], start: S, width: int, deadline: Deadline,
         rng: random.Random, max_nodes: int | None = None) -> BeamResult[A]:
    """One beam search of `width` (see the module notes); stops at `deadline` or after
    `max_nodes` children (None: no budget) with line None and exhaustive False."""
    # each kept state carries its line as a chain (action, parent chain) to share it
    layer: list[tuple[S, tuple | None]] = [(start, None)]
    nodes = 0
    exhaustive = True
    while layer:
        children: dict[Hashable, tuple[float, S, tuple]] = {}
        for state, chain in layer:
            for action in game.actions(state):
                child = game.apply(state, action)
                nodes += 1
                link = (action, chain)
                if game.won(child):
                    return BeamResult(_unchain(link), nodes, False, width)
                if max_nodes is not None and nodes >= max_nodes:
                    return BeamResult(None, nodes, False, width)
                if game.dead(child):
                    continue
                k = game.key(child)
                if k not in children:
                    children[k] = (game.score(child) + rng.random(), child, link)
            if deadline.passed():
                return BeamResult(None, nodes, False, width)
        ranked = sorted(children.values(), key=lambda c: -c[0])
        if len(ranked) > width:
            exhaustive = False
            ranked = ranked[:width]
        layer = [(child, link) for _, child, link in ranked]
    return BeamResult(None, nodes, exhaustive, width)


def widening_beam(game: BeamGame[S, A], start: S, deadline: Deadline, seed: int = 0,
                  first_width: int = 8, max_nodes: int | None = None) -> BeamResult[A]:
    """Beams of width 8, 16, 32, ... (each with its own seeded tie-breaks) until one
    finds a win, one is exhaustive, `max_nodes` children were made in all (None: no
    budget) or the deadline passes; nodes summed."""
    rng = random.Random(seed)
    width, nodes = first_width, 0
    while True:
        left = None if max_nodes is None else max_nodes - nodes
        found = beam(game, start, width, deadline, rng, left)
        nodes += found.nodes
        spent = max_nodes is not None and nodes >= max_nodes
        if found.line is not None or found.exhaustive or spent or deadline.passed():
            return BeamResult(found.line, nodes, found.exhaustive, width)
        width *= 2


def _unchain(chain: tuple | None) -> list:
    out = []
    while chain is not None:
        action, chain = chain
        out.append(action)
    out.reverse()
    return out
