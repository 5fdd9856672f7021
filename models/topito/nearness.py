"""Is a card met within one move? An exact test per kind of card, without listing the
moves (the policies ask it of every pool card after every candidate move: listing the
~400 moves each time would cost a hundred times more). Held equal to enumerating the
moves (`rules.successors`) in tests/test_topito_policies.py.

Why a test per kind is enough: one move takes a block with everything above it (or a
block out of play, alone) to the top of another stack. The source stack only loses its
top part, so it meets nothing new; every new arrangement is in the target stack: its old
blocks with the moved segment on top, and the one new adjacency is (old top, moved block).
"""

from __future__ import annotations

from models.topito.rules import Card, Stacks
from models.topito.state import Ban, successors


class Blocks:
    """Where each block stands in `stacks` (podium, index from the bottom), the blocks
    out of play, and the banned move; built once per position, asked for many cards."""

    __slots__ = ("stacks", "ban", "at", "out")

    def __init__(self, stacks: Stacks, ban: Ban, n_blocks: int) -> None:
        self.stacks = stacks
        self.ban = ban
        self.at: dict[int, tuple[int, int]] = {
            b: (p, i) for p, s in enumerate(stacks) for i, b in enumerate(s)}
        self.out = [b for b in range(n_blocks) if b not in self.at]

    def can_lift(self, p: int, upto: int, q: int) -> bool:
        """Can some block at index <= `upto` of stack p be lifted onto podium q?"""
        if p == q:
            return False
        if upto >= 1 or self.ban is None:
            return True  # a ban forbids one block: of two candidates one is allowed
        return (self.stacks[p][0], q) != self.ban

    def can_bring(self, b: int, q: int) -> bool:
        """Can block b (alone if out of play, with what is above it if in play) be
        brought onto podium q by one move?"""
        at = self.at.get(b)
        if at is None:
            return True
        return at[0] != q and (b, q) != self.ban

    def within_one(self, card: Card) -> bool:
        """Is `card` met now or after one legal move?"""
        if card.met(self.stacks):
            return True
        kind = card.kind
        if kind == "pair":
            return self._pair(*card.blocks)
        if kind == "rank":
            return self._rank(card.blocks[0], card.rank)
        if kind == "podium":
            return self._podium(card.podium, card.blocks)
        return self._order(*card.blocks)

    def _pair(self, lower: int, upper: int) -> bool:
        at = self.at.get(lower)
        if at is None:
            return False
        q, i = at
        if i != len(self.stacks[q]) - 1:
            return False  # lower must be a top for upper to land on it
        return self.can_bring(upper, q)

    def _rank(self, x: int, rank: int) -> bool:
        at = self.at.get(x)
        if at is None:
            return False  # put alone: nothing would be above it
        p, i = at
        stacks = self.stacks
        if i == len(stacks[p]) - 1:
            if i != rank - 1:
                return False
            # x stands at its rank on top: anything brought onto it will do
            if self.out:
                return True
            return any(self.can_lift(q, len(s) - 1, p) for q, s in enumerate(stacks) if s)
        # x is carried with a block at index j <= i: it lands at height(q) + i - j
        for q, s in enumerate(stacks):
            j = len(s) + i - (rank - 1)
            if q != p and 0 <= j <= i and (stacks[p][j], q) != self.ban:
                return True
        return False

    def _podium(self, podium: int, blocks: tuple[int, ...]) -> bool:
        missing = [b for b in blocks if self.at.get(b, (None,))[0] != podium]
        if len(missing) == 1 and missing[0] not in self.at:
            return True
        places = [self.at.get(b) for b in missing]
        if None in places or len({p for p, _ in places}) != 1:
            return False
        p = places[0][0]
        return self.can_lift(p, min(i for _, i in places), podium)

    def _order(self, a: int, b: int, c: int) -> bool:
        at = self.at
        # the lower k of the three already stand in order in the target stack, the
        # other 3 - k come on top in one segment, in order
        for low, high in (((a,), (b, c)), ((a, b), (c,))):
            spots = [at.get(x) for x in low]
            if None in spots or len({p for p, _ in spots}) != 1:
                continue
            q = spots[0][0]
            if len(low) == 2 and spots[0][1] > spots[1][1]:
                continue
            if len(high) == 1:
                # c alone if out of play, else with anything from below it up
                hc = at.get(high[0])
                if hc is None or self.can_lift(hc[0], hc[1], q):
                    return True
                continue
            hi = [at.get(x) for x in high]
            if None in hi or hi[0][0] != hi[1][0] or hi[0][0] == q or hi[0][1] > hi[1][1]:
                continue
            if self.can_lift(hi[0][0], hi[0][1], q):
                return True
        return False


def near_distances(stacks: Stacks, ban: Ban, n_blocks: int, cards: list[Card],
                   reversal_rule: bool = True) -> list[int | None]:
    """Each card's exact distance when it is at most 2 moves (0, 1 or 2), else None:
    the one-move test on every position one move away."""
    here = Blocks(stacks, ban, n_blocks)
    out: list[int | None] = [0 if c.met(stacks) else 1 if here.within_one(c) else None
                             for c in cards]
    todo = [i for i, d in enumerate(out) if d is None]
    if todo:
        for b, src, _dst, after in successors(stacks, ban, n_blocks):
            there = Blocks(after, None if src is None or not reversal_rule else (b, src),
                           n_blocks)
            for i in [i for i in todo if there.within_one(cards[i])]:
                out[i] = 2
                todo.remove(i)
            if not todo:
                break
    return out
