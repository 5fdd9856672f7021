"""What photo time has shown about the hand cards a player has not seen, and the chances
and deals that follow from it.

After every move every player's hand goes through photo time (state.py): each card the
stacks meet is played. A card still in a hand was therefore met by none of the positions
of the photo times it went through, and everyone at the table knows it: they all saw
the positions, and saw nobody play. `PhotoTimes` keeps that record: the stacks of the
photo times some hand card went through (`log`, its last entry the current position),
and for each hand card the first photo time it went through (None: none yet, a card
dealt before the first move or drawn in the photo time still going on). Every hand goes
through every photo time, so a card went through each one from its first to the current
one; only while a photo time is still going on (cards drawn from a deck of unknown
order) have the seats still waiting their turn (`GameState.photo_queue[1:]`) not been
through the current one yet.

`Deals` counts the deals of the unseen cards to the unknown hand cards (the rest going to
the deck, in any order) that this record leaves possible. Every consistent deal is
equally likely (the shuffle is uniform, and what the table saw is the same in each), so
chances are ratios of counts: the card drawn next, and whether stacks meet an unknown
card of some seats. The count is exact and fast because the constraints are nested: a
card met at photo time k is ruled out for every hand card that went through k, i.e.
whose first photo time is k or earlier. With the hand cards in order of their first
photo time, a later one may hold every card an earlier one may (of each kind: met by the
current position or not, hit by what is asked about or not), so a deal is counted hand
card by hand card, knowing only how many cards of each kind the earlier ones took
(`_count`), and drawn the same way (`Deals.sample`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from models.topito.rules import Card, Stacks

if TYPE_CHECKING:
    from models.topito.state import GameState

NEVER = -1  # the level of a card no recorded photo time met
OPEN = 1 << 60  # the first photo time of a hand card that went through none

Since = tuple[int | None, ...]


@dataclass(frozen=True)
class PhotoTimes:
    """The photo times the hand cards went through (see the module text).

    log: the stacks of photo times `start`, `start` + 1, ... (the last: the current
    position; earlier entries only as far back as some hand card's first); since: per
    seat, per hand card, the first photo time it went through (None: none yet). A hand
    whose entry does not have its length (a hand replaced by hand) went through none."""

    log: tuple[Stacks, ...] = ()
    start: int = 0
    since: tuple[Since, ...] = ()

    @property
    def now(self) -> int:
        """The index of the current photo time (-1 before any)."""
        return self.start + len(self.log) - 1

    def of(self, seat: int, cards: int) -> Since:
        """The first photo times of the `cards` hand cards of `seat`."""
        if seat < len(self.since) and len(self.since[seat]) == cards:
            return self.since[seat]
        return (None,) * cards

    def at(self, index: int) -> Stacks:
        """The stacks of photo time `index` (kept in the log)."""
        return self.log[index - self.start]

    def _with(self, seat: int, value: Since) -> PhotoTimes:
        since = self.since + ((),) * (seat + 1 - len(self.since))
        return PhotoTimes(self.log, self.start, since[:seat] + (value,) + since[seat + 1:])

    def moved(self, stacks: Stacks) -> PhotoTimes:
        """A move was made: its photo time begins on `stacks` (the log forgets what no
        hand card went through)."""
        first = min((s for hand in self.since for s in hand if s is not None),
                    default=self.now + 1)
        drop = max(0, min(first - self.start, len(self.log)))
        return PhotoTimes(self.log[drop:] + (stacks,), self.start + drop, self.since)

    def went_through(self, seat: int, cards: int) -> PhotoTimes:
        """The hand of `seat` (`cards` cards) went through the current photo time."""
        old = self.of(seat, cards)
        if None not in old and seat < len(self.since) and len(self.since[seat]) == cards:
            return self
        return self._with(seat, tuple(self.now if s is None else s for s in old))

    def kept(self, seat: int, keep: Sequence[bool]) -> PhotoTimes:
        """`seat` played the hand cards not marked in `keep` (the hand's order)."""
        old = self.of(seat, len(keep))
        return self._with(seat, tuple(s for s, k in zip(old, keep, strict=True) if k))

    def drew(self, seat: int, had: int, cards: int) -> PhotoTimes:
        """`seat`, holding `had` cards, drew `cards` more (not yet through photo time)."""
        return self._with(seat, self.of(seat, had) + (None,) * cards)

    def ruled_out(self, seat: int, first: int | None, through_now: bool,
                  cards: Iterable[Card]) -> list[Card]:
        """Of `cards`, those a hand card of `seat` cannot be: met at a photo time from
        its `first` to the current one (or the one before, if not `through_now`)."""
        if first is None or not self.log:
            return []
        last = self.now if through_now else self.now - 1
        seen = [self.at(i) for i in range(max(first, self.start), last + 1)]
        return [c for c in cards if any(c.met(s) for s in seen)]


def record(state: GameState) -> PhotoTimes:
    """The record of `state`, if it is one of this position (its last photo time on the
    current stacks); else an empty one (nothing known: a state put together by hand)."""
    ph = state.photos
    if ph.log and ph.log[-1] == state.blocks.stacks:
        return ph
    return PhotoTimes()


def default_photos(state: GameState) -> PhotoTimes:
    """What a position file says of photo time when it does not say it: the current
    position is the only photo time known, and every hand card of a seat whose photo
    time is over went through it (an unknown card it meets would have been played; a
    known one is taken as the file gives it: the player may be about to shout "photo
    time!"). The seats still in a photo time going on have been through none."""
    waiting = set(state.photo_queue)
    since = tuple(tuple(None if p in waiting else 0 for _ in hand)
                  for p, hand in enumerate(state.hands))
    return PhotoTimes((state.blocks.stacks,), 0, since)


def normalised(state: GameState) -> PhotoTimes:
    """The record of `state` as a file writes it: the log from the earliest first photo
    time of a hand card, counted from 0, one entry per hand card."""
    ph = record(state)
    since = [ph.of(p, len(h)) for p, h in enumerate(state.hands)]
    if not ph.log:
        return PhotoTimes((state.blocks.stacks,), 0, tuple((None,) * len(s) for s in since))
    base = min((s for hand in since for s in hand if s is not None), default=ph.now)
    log = ph.log[base - ph.start:]
    return PhotoTimes(log, 0, tuple(tuple(None if s is None else s - base for s in hand)
                                    for hand in since))


# --------------------------------------------------------------------------- counting

# A hand card to fill: (its first photo time or OPEN, the kinds it may not hold as a bit
# mask over kind bits). A group of cards: (level, kind) -> how many.
Slot = tuple[int, int]
Groups = dict[tuple[int, int], int]


def _available(slots: Sequence[Slot], groups: Groups, kinds: int) -> list[list[int]]:
    """For each slot (in order of first photo time), the cards of each kind it may hold
    as far as levels go: those whose level is below its first photo time."""
    out = []
    for since, _ in slots:
        row = [0] * kinds
        for (level, kind), n in groups.items():
            if level < since:
                row[kind] += n
        out.append(row)
    return out


def _count(slots: Sequence[Slot], groups: Groups, kinds: int) -> int:
    """How many ways the slots (in order of first photo time) take distinct cards of
    `groups` (every copy a card of its own), each a card it may hold."""
    avail = _available(slots, groups, kinds)
    states: dict[tuple[int, ...], int] = {(0,) * kinds: 1}
    for (_, forbid), row in zip(slots, avail, strict=True):
        nxt: dict[tuple[int, ...], int] = {}
        for used, ways in states.items():
            for k in range(kinds):
                free = row[k] - used[k]
                if free > 0 and not k & forbid:
                    key = used[:k] + (used[k] + 1,) + used[k + 1:]
                    nxt[key] = nxt.get(key, 0) + ways * free
        states = nxt
        if not states:
            return 0
    return sum(states.values())


class Deals:
    """The deals of `state`'s unseen cards to its unknown hand cards (the rest in the
    deck) that the photo times they went through leave possible, every one equally
    likely (see the module text). `cards`: the distinct unseen cards (deck file order),
    `copies` of each; a question about some of them is a list of yes/no aligned with
    `cards`. When the record contradicts itself (a position file whose unknown cards
    cannot all avoid the stacks) it is set aside: every deal of the unseen cards counts
    (`constrained` False)."""

    def __init__(self, state: GameState) -> None:
        self.pool = state.unseen()  # every copy, deck file order
        self.slots = [(p, i) for p, hand in enumerate(state.hands)
                      for i, c in enumerate(hand) if c is None]
        self.deck_size = len(self.pool) - len(self.slots)
        copies = Counter(self.pool)
        self.cards = list(copies)
        self.copies = [copies[c] for c in self.cards]
        ph = record(state)
        waiting = set(state.photo_queue[1:])
        firsts = {(p, i): ph.of(p, len(state.hands[p]))[i] for p, i in self.slots}
        self.through = {(p, i): p not in waiting for p, i in self.slots}
        bound = [s for s in self.slots if firsts[s] is not None and ph.log]
        # the current photo time counts as one more level where every constrained slot
        # went through it (the usual case); else being met by it is a kind of its own
        fold = all(self.through[s] for s in bound)
        self.levels = [NEVER] * len(self.cards)
        self.met_now = [False] * len(self.cards)
        for j, c in enumerate(self.cards if bound else ()):
            for i in range(ph.now - 1, ph.start - 1, -1):
                if c.met(ph.at(i)):
                    self.levels[j] = i
                    break
            if c.met(ph.log[-1]):
                if fold:
                    self.levels[j] = ph.now
                else:
                    self.met_now[j] = True
        self.first = {s: OPEN if firsts[s] is None or not ph.log else firsts[s]
                      for s in self.slots}
        self.order = sorted(self.slots, key=lambda s: self.first[s])
        self.memo: dict[tuple, int] = {}
        self.constrained = True
        self.total = self.count()
        if self.total == 0 and self.pool:
            self.constrained = False
            self.total = self.count()

    def _level(self, j: int) -> int:
        return self.levels[j] if self.constrained else NEVER

    def _groups(self, hits: Sequence[bool] | None, without: int | None = None) -> Groups:
        groups: Groups = {}
        for j, n in enumerate(self.copies):
            if j == without:
                n -= 1
            kind = (1 if self.met_now[j] else 0) | (2 if hits is not None and hits[j] else 0)
            key = (self._level(j), kind)
            groups[key] = groups.get(key, 0) + n
        return groups

    def _slots(self, seats: set[int]) -> list[Slot]:
        out = []
        for s in self.order:
            ask = 2 if s[0] in seats else 0
            if not self.constrained or self.first[s] == OPEN:
                out.append((OPEN, ask))
            else:
                out.append((self.first[s], ask | (1 if self.through[s] else 0)))
        return out

    def count(self, seats: Iterable[int] = (), hits: Sequence[bool] | None = None,
              without: int | None = None) -> int:
        """The deals in which no unknown hand card of `seats` is a card `hits` marks
        (`without`: one copy of `cards[without]` set aside, as in the deck)."""
        chosen = frozenset(seats) if hits is not None else frozenset()
        key = (chosen, None if hits is None else tuple(hits), without, self.constrained)
        if key not in self.memo:  # many moves ask the same (the same cards met)
            kinds = 4 if hits is not None else 2
            self.memo[key] = _count(self._slots(set(chosen)), self._groups(hits, without),
                                    kinds)
        return self.memo[key]

    def chance_none(self, seats: Iterable[int], hits: Sequence[bool]) -> Fraction:
        """The chance that no unknown hand card of `seats` is a card `hits` marks."""
        chosen = set(seats)
        if not any(p in chosen for p, _ in self.slots) or not any(hits) or not self.total:
            return Fraction(1)
        return Fraction(self.count(chosen, hits), self.total)

    def draw_chances(self) -> list[tuple[Card, Fraction]]:
        """The card drawn next from the deck of unknown order (the deck is every
        unseen card no unknown hand card holds): each distinct card with the chance that
        it is on top, copies x deals with one copy set aside / (deals x deck size)."""
        if self.deck_size <= 0 or self.total == 0:
            return []
        out = []
        for j, (c, k) in enumerate(zip(self.cards, self.copies, strict=True)):
            p = Fraction(k * self.count(without=j), self.total * self.deck_size)
            if p:
                out.append((c, p))
        return out

    def sample(self, rng: random.Random) -> tuple[dict[tuple[int, int], Card], list[Card]]:
        """A consistent deal drawn uniformly with `rng`: the card of each unknown hand
        card (seat, index) and the deck in a uniformly shuffled order. Hand cards are
        filled in order of their first photo time, each taking a kind (met by the
        current position or not) with the chance of the deals that follow, then any
        card of that kind it may hold (all of them are alike for the hand cards after
        it)."""
        slots = self._slots(set())
        avail = _available(slots, self._groups(None), 2)
        memo: dict[tuple[int, tuple[int, ...]], int] = {}

        def ways(i: int, used: tuple[int, ...], k: int) -> int:
            """Deals from slot i on, slot i taking kind k."""
            free = avail[i][k] - used[k]
            if free <= 0 or k & slots[i][1]:
                return 0
            return free * rest(i + 1, used[:k] + (used[k] + 1,) + used[k + 1:])

        def rest(i: int, used: tuple[int, ...]) -> int:
            if i == len(slots):
                return 1
            if (i, used) not in memo:
                memo[(i, used)] = ways(i, used, 0) + ways(i, used, 1)
            return memo[(i, used)]

        of = {c: j for j, c in enumerate(self.cards)}
        index = [of[c] for c in self.pool]
        taken: set[int] = set()
        used = (0, 0)
        dealt: dict[tuple[int, int], Card] = {}
        for i, s in enumerate(self.order):
            k = _pick(rng, [ways(i, used, 0), ways(i, used, 1)])
            choices = [j for j, d in enumerate(index) if j not in taken
                       and self.met_now[d] == bool(k) and self._level(d) < slots[i][0]]
            j = choices[rng.randrange(len(choices))]
            taken.add(j)
            dealt[s] = self.pool[j]
            used = used[:k] + (used[k] + 1,) + used[k + 1:]
        deck = [c for j, c in enumerate(self.pool) if j not in taken]
        rng.shuffle(deck)
        return dealt, deck


def _pick(rng: random.Random, weights: list[int]) -> int:
    """An index drawn with chance proportional to its (integer) weight."""
    r = rng.randrange(sum(weights))
    for k, w in enumerate(weights):
        if r < w:
            return k
        r -= w
    raise AssertionError("unreachable")
