"""Topito rules engine: podiums, character blocks, the two kinds of move, the
no-reversal rule, and the four kinds of objective card (pure Python, the reference).

A position is one stack per podium (bottom to top) plus the previous player's last
move; blocks not on a podium are out of play. Blocks are numbered 0..n-1 in the order
of the rules file and podiums 0..m-1; names only appear at the edges (files, text).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io import expect, load_data, load_json, package_data
from solver.io import field as json_field

Stacks = tuple[tuple[int, ...], ...]
# The move the next player may not make: (block, podium) = "lift block onto podium".
Ban = tuple[int, int] | None

# How the chain printed on an order card maps onto a stack (a reading: the rulebook
# names its example "elephant, then whale, then vested mouse" without saying which end
# is up; docs/topito.md, "Order cards"). top-down: the first character named is the
# highest of the three; bottom-up: it is the lowest.
ORDER_READINGS = ("top-down", "bottom-up")
DEFAULT_ORDER_READING = "top-down"


# --------------------------------------------------------------------------- rules data

@dataclass(frozen=True)
class Rules:
    """Podium colours and character names (the rulebook prints neither)."""

    name: str
    podiums: tuple[str, ...]
    podium_rgb: tuple[str, ...]
    characters: tuple[str, ...]
    character_rgb: tuple[str, ...]
    # the reading of order cards written as printed (ORDER_READINGS)
    order_cards: str = DEFAULT_ORDER_READING

    @property
    def n_blocks(self) -> int:
        return len(self.characters)

    @property
    def n_podiums(self) -> int:
        return len(self.podiums)

    def block(self, text: str, where: str = "block") -> int:
        """A character by name, case-insensitive; a unique prefix is accepted."""
        t = text.strip().lower()
        exact = [i for i, c in enumerate(self.characters) if c.lower() == t]
        if exact:
            return exact[0]
        hits = [i for i, c in enumerate(self.characters) if t and c.lower().startswith(t)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            names = ", ".join(self.characters[i] for i in hits)
            raise BadInput(f"{where}: '{text}' is ambiguous ({names})")
        raise BadInput(f"{where}: unknown character '{text}' "
                       f"(characters: {', '.join(self.characters)})")

    def podium(self, text: str, where: str = "podium") -> int:
        """A podium by colour name, case-insensitive."""
        t = text.strip().lower()
        for i, p in enumerate(self.podiums):
            if p.lower() == t:
                return i
        raise BadInput(f"{where}: unknown podium '{text}' (podiums: {', '.join(self.podiums)})")


def default_rules_path() -> Path:
    return package_data("models.topito", "rules.json")


def default_deck_path() -> Path:
    return package_data("models.topito", "deck.json")


_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_'-]*$")
def load_rules(path: str | Path | None = None, order_cards: str | None = None) -> Rules:
    """The built-in rules or a rules file (`--rules`), with order cards read as
    `order_cards` (None: the default reading); problems are one-line BadInput."""
    return with_order_cards(load_data(path, "models.topito", "rules.json", rules_from_dict),
                            order_cards)


def with_order_cards(rules: Rules, reading: str | None, where: str = "--order-cards"
                     ) -> Rules:
    """The rules with order cards read as `reading` (None: unchanged)."""
    if reading is None or reading == rules.order_cards:
        return rules
    if reading not in ORDER_READINGS:
        raise BadInput(f"{where}: unknown reading '{reading}' of order cards "
                       f"({' or '.join(ORDER_READINGS)})")
    return replace(rules, order_cards=reading)


def rules_from_dict(data: Any, where: str = "rules") -> Rules:
    """Build and check Rules from parsed JSON."""
    expect(data, dict, where)
    lists = {}
    for key in ("podiums", "characters"):
        names, rgbs = [], []
        for i, item in enumerate(json_field(data, key, list, where)):
            w = f"{where}: {key}[{i}]"
            expect(item, dict, w)
            name = json_field(item, "name", str, w)
            if not _NAME.match(name) or name.lower() in ("on", "order", "rank", "podium", "out"):
                raise BadInput(f"{w}: '{name}' is not usable as a name (one word of letters, "
                               "not a card keyword)")
            if name.lower() in (n.lower() for n in names):
                raise BadInput(f"{where}: {key[:-1]} '{name}' is defined twice")
            names.append(name)
            rgbs.append(json_field(item, "rgb", str, w, "#999999"))
        lists[key] = (tuple(names), tuple(rgbs))
    podiums, characters = lists["podiums"], lists["characters"]
    if len(podiums[0]) < 2:
        raise BadInput(f"{where}: at least 2 podiums are needed")
    if len(characters[0]) < 3:
        raise BadInput(f"{where}: at least 3 characters are needed")
    clash = {n.lower() for n in podiums[0]} & {n.lower() for n in characters[0]}
    if clash:
        raise BadInput(f"{where}: '{sorted(clash)[0]}' is both a podium and a character")
    return Rules(json_field(data, "name", str, where, "custom rules"), podiums[0], podiums[1],
                 characters[0], characters[1])


# --------------------------------------------------------------------------- cards

CARD_KINDS = ("podium", "pair", "order", "rank")
CARD_FORMS = ("'podium red: Bear Cat Duck', 'Cat on Bear', 'order Bear Cat Duck' "
              "(as printed), 'order Bear < Cat < Duck' (bottom to top) or 'rank 2: Cat'")


@dataclass(frozen=True)
class Card:
    """An objective card.

    podium: the three `blocks` all in the stack on `podium` (any order, others between).
    pair:   blocks = (lower, upper): upper directly on lower, nothing between.
    order:  blocks = (a, b, c) bottom to top in one stack, others between allowed
            (whatever the reading the card's text was read with: parse_card turns the
            printed chain into this order, Card.text turns it back).
    rank:   blocks = (x,): x is the rank-th block from the bottom of a stack (1 = on the
            podium) with at least one block above it.
    """

    kind: str
    blocks: tuple[int, ...]
    podium: int | None = None
    rank: int | None = None

    def met(self, stacks: Stacks) -> bool:
        """Does some stack meet this card?"""
        if self.kind == "podium":
            s = stacks[self.podium]
            a, b, c = self.blocks
            return a in s and b in s and c in s
        if self.kind == "pair":
            lower, upper = self.blocks
            for s in stacks:
                if lower in s:
                    i = s.index(lower)
                    return i + 1 < len(s) and s[i + 1] == upper
            return False
        if self.kind == "order":
            a, b, c = self.blocks
            for s in stacks:
                if a in s:
                    return b in s and c in s and s.index(a) < s.index(b) < s.index(c)
            return False
        x = self.blocks[0]
        r = self.rank
        for s in stacks:  # a loop, not any(): met() is the policies' hot spot
            if len(s) > r and s[r - 1] == x:
                return True
        return False

    def text(self, rules: Rules) -> str:
        """The card in its text form (parse_card reads it back)."""
        n = [rules.characters[b] for b in self.blocks]
        if self.kind == "podium":
            return f"podium {rules.podiums[self.podium]}: {' '.join(n)}"
        if self.kind == "pair":
            return f"{n[1]} on {n[0]}"
        if self.kind == "order":
            # written as the card reads under the rules' reading, with the sign that
            # says which way is up, so the text means the same under either reading
            if rules.order_cards == "top-down":
                return "order " + " > ".join(reversed(n))
            return "order " + " < ".join(n)
        return f"rank {self.rank}: {n[0]}"


_PODIUM = re.compile(r"^podium\s+([^\s:]+)\s*:\s*(.*)$", re.I)
_ORDER = re.compile(r"^order\s*:?\s*(.*)$", re.I)
_RANK = re.compile(r"^rank\s+(\S+?)\s*:\s*(.*)$", re.I)
_PAIR = re.compile(r"^(\S+)\s+on\s+(\S+)$", re.I)


def _names(rules: Rules, text: str, n: int, where: str, sep: str = r"[\s,]+") -> tuple[int, ...]:
    parts = [p for p in re.split(sep, text.strip()) if p.strip()]
    if len(parts) != n:
        raise BadInput(f"{where}: needs {n} characters, got {len(parts)}")
    blocks = tuple(rules.block(p, where) for p in parts)
    if len(set(blocks)) != n:
        dup = next(b for b in blocks if blocks.count(b) > 1)
        raise BadInput(f"{where}: character '{rules.characters[dup]}' named twice")
    return blocks


def _order_blocks(rules: Rules, text: str, where: str) -> tuple[int, ...]:
    """The three characters of an order card, bottom to top. '<' between them says
    bottom to top and '>' top to bottom, whatever the reading; names separated by
    spaces or commas are the card as printed, first to last, and the rules' reading
    says which end is up."""
    up, down = "<" in text, ">" in text
    if up and down:
        raise BadInput(f"{where}: write '<' (bottom to top) or '>' (top to bottom), "
                       "not both")
    sep = r"\s*[<>]\s*" if up or down else r"[\s,]+"
    blocks = _names(rules, text, 3, where, sep)
    top_first = down or (not up and rules.order_cards == "top-down")
    return blocks[::-1] if top_first else blocks


def parse_card(rules: Rules, text: str, where: str = "card") -> Card:
    """Read a card from its text form; anything else is a one-line BadInput."""
    t = " ".join(text.split())
    w = f"{where} '{t}'"
    if m := _PODIUM.match(t):
        p = rules.podium(m.group(1), w)
        return Card("podium", tuple(sorted(_names(rules, m.group(2), 3, w))), podium=p)
    if m := _ORDER.match(t):
        return Card("order", _order_blocks(rules, m.group(1), w))
    if m := _RANK.match(t):
        try:
            r = int(m.group(1))
        except ValueError:
            raise BadInput(f"{w}: rank '{m.group(1)}' is not a number") from None
        if not 1 <= r <= rules.n_blocks - 1:
            raise BadInput(f"{w}: rank must be 1 to {rules.n_blocks - 1} (a block must be "
                           "above it)")
        return Card("rank", _names(rules, m.group(2), 1, w), rank=r)
    if m := _PAIR.match(t):
        upper, lower = rules.block(m.group(1), w), rules.block(m.group(2), w)
        if upper == lower:
            raise BadInput(f"{w}: a character cannot be on itself")
        return Card("pair", (lower, upper))
    raise BadInput(f"{w}: not a card; write {CARD_FORMS}")


def parse_cards(rules: Rules, texts: Sequence[str], where: str = "card") -> list[Card]:
    """Several cards; each text may hold several separated by ';'."""
    cards = []
    for text in texts:
        for part in text.split(";"):
            if part.strip():
                cards.append(parse_card(rules, part, where))
    return cards


@dataclass(frozen=True)
class Goal:
    """Cards to meet at the same moment: any one of them, or all of them."""

    cards: tuple[Card, ...]
    mode: str = "any"  # "any" | "all"

    def met(self, stacks: Stacks) -> bool:
        if self.mode == "all":
            return all(c.met(stacks) for c in self.cards)
        return any(c.met(stacks) for c in self.cards)


def load_deck(rules: Rules, path: str | Path | None = None) -> list[Card]:
    """The deck (`data/deck.json` or `--deck FILE`): {"cards": ["card text", ...]}."""
    p = Path(path) if path is not None else default_deck_path()
    data = load_json(p, "deck file")
    where = f"deck file {p}"
    expect(data, dict, where)
    texts = json_field(data, "cards", list, where)
    if not texts:
        raise BadInput(f"{where}: no cards")
    return [parse_card(rules, expect(t, str, f"{where}: cards[{i}]"), f"{where}: cards[{i}]")
            for i, t in enumerate(texts)]


# --------------------------------------------------------------------------- moves, state

@dataclass(frozen=True)
class Move:
    """Put an out-of-play block (source None) or lift a block with everything above it
    (source = its podium) onto the top of the stack on `target` (or the empty podium)."""

    block: int
    source: int | None
    target: int

    @property
    def is_put(self) -> bool:
        return self.source is None


def ban_after(move: Move) -> Ban:
    """The move the next player may not make: lifting the same block back. A put cannot
    be reversed by any move (blocks never leave play), so it bans nothing."""
    return None if move.source is None else (move.block, move.source)


def locate(stacks: Stacks, block: int) -> tuple[int, int] | None:
    """(podium, index from the bottom) of a block, or None when out of play."""
    for p, s in enumerate(stacks):
        if block in s:
            return p, s.index(block)
    return None


def successors(stacks: Stacks, ban: Ban, n_blocks: int
               ) -> Iterator[tuple[int, int | None, int, Stacks]]:
    """Every legal move as (block, source, target, stacks after) — the fast core that
    State.legal_actions, the search and the tests share."""
    n = len(stacks)
    placed = set()
    for p, s in enumerate(stacks):
        placed.update(s)
        for i, b in enumerate(s):
            moving, staying = s[i:], s[:i]
            for q in range(n):
                if q == p or (b, q) == ban:
                    continue
                new = list(stacks)
                new[p] = staying
                new[q] = stacks[q] + moving
                yield b, p, q, tuple(new)
    for b in range(n_blocks):
        if b not in placed:
            for q in range(n):
                new = list(stacks)
                new[q] = stacks[q] + (b,)
                yield b, None, q, tuple(new)


@dataclass(frozen=True)
class State:
    """The blocks on the podiums and the previous player's last move."""

    rules: Rules = field(repr=False, compare=False, hash=False)
    stacks: Stacks
    last: Move | None = None
    reversal_rule: bool = True  # False: play without the no-reversal rule (--no-reversal)

    @property
    def ban(self) -> Ban:
        if self.last is None or not self.reversal_rule:
            return None
        return ban_after(self.last)

    def out_of_play(self) -> list[int]:
        placed = {b for s in self.stacks for b in s}
        return [b for b in range(self.rules.n_blocks) if b not in placed]

    def legal_actions(self) -> list[Move]:
        return [Move(b, src, dst) for b, src, dst, _ in
                successors(self.stacks, self.ban, self.rules.n_blocks)]

    def why_illegal(self, move: Move) -> str | None:
        """None if legal, else the reason in words."""
        r = self.rules
        if not (0 <= move.block < r.n_blocks and 0 <= move.target < r.n_podiums):
            return "no such block or podium"
        at = locate(self.stacks, move.block)
        name = r.characters[move.block]
        if move.source is None:
            if at is not None:
                return f"{name} is in play on {r.podiums[at[0]]}, not out of play"
            return None
        if at is None or at[0] != move.source:
            return f"{name} is not on {r.podiums[move.source]}"
        if move.target == move.source:
            return f"{name} is already on {r.podiums[move.target]}"
        if (move.block, move.target) == self.ban:
            return "it would reverse the previous player's last move"
        return None

    def apply_action(self, move: Move) -> State:
        """The state after a legal move (BadInput naming the reason otherwise)."""
        why = self.why_illegal(move)
        if why:
            raise BadInput(f"illegal move {format_move(self.rules, move, self.stacks)}: {why}")
        new = list(self.stacks)
        if move.source is None:
            new[move.target] = new[move.target] + (move.block,)
        else:
            s = new[move.source]
            i = s.index(move.block)
            new[move.source] = s[:i]
            new[move.target] = new[move.target] + s[i:]
        return State(self.rules, tuple(new), move, self.reversal_rule)

    def is_terminal(self, goal: Goal | None = None) -> bool:
        """Moving blocks never ends the game by itself (a player wins with 7 played
        cards); in planning, a state is terminal when it meets the goal."""
        return goal is not None and goal.met(self.stacks)

    def key(self) -> tuple[Stacks, Ban]:
        """Everything that decides the future: the stacks and the banned move."""
        return self.stacks, self.ban


def format_move(rules: Rules, move: Move, stacks: Stacks | None = None) -> str:
    """'put Cat on red', or 'move Cat+Duck blue -> red' (the blocks carried along)."""
    name = rules.characters[move.block]
    to = rules.podiums[move.target]
    if move.source is None:
        return f"put {name} on {to}"
    carried = name
    if stacks is not None and move.block in stacks[move.source]:
        s = stacks[move.source]
        carried = "+".join(rules.characters[b] for b in s[s.index(move.block):])
    return f"move {carried} {rules.podiums[move.source]} -> {to}"


def move_dict(rules: Rules, move: Move) -> dict[str, str]:
    """The position-file form of a move."""
    return {"block": rules.characters[move.block],
            "from": "out" if move.source is None else rules.podiums[move.source],
            "to": rules.podiums[move.target]}
