"""Topito's rules data: the podiums and the character blocks (`--rules`), the four kinds
of objective card and the deck (`--deck`), and what a game is played with (`GameRules`:
the rules, the deck, hand size, cards to win, move limit). Pure Python, the reference;
the engine that moves the blocks and plays the cards is state.py.

Blocks are numbered 0..n-1 in the order of the rules file and podiums 0..m-1; names
only appear at the edges (files, text). A position's blocks are one stack per podium,
bottom to top (`Stacks`); blocks not on a podium are out of play.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io import expect, load_data, load_json, package_data
from solver.io import field as json_field

Stacks = tuple[tuple[int, ...], ...]

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


def cards_text(rules: Rules, cards: Sequence[Card | None]) -> list[str]:
    """Cards in their text form, "?" for an unknown one."""
    return ["?" if c is None else c.text(rules) for c in cards]


# --------------------------------------------------------------------------- a game's data

HAND_SIZE = 4
CARDS_TO_WIN = 7
# A game not won after this many moves ends in a draw: policies that circle around
# without meeting their cards would otherwise play for ever.
MOVE_LIMIT = 400
MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class GameRules:
    """What a game is played with: the blocks' rules data and the deck (the
    catalogue of every card in the box, in the deck file's order)."""

    rules: Rules
    deck: tuple[Card, ...]
    hand_size: int = HAND_SIZE
    cards_to_win: int = CARDS_TO_WIN
    move_limit: int = MOVE_LIMIT

    @property
    def name(self) -> str:
        return self.rules.name

    @cached_property
    def deck_index(self) -> dict[Card, int]:
        """Each card's first place in the deck file."""
        index: dict[Card, int] = {}
        for i, c in enumerate(self.deck):
            index.setdefault(c, i)
        return index

    def order(self, card: Card) -> int:
        """A card's place in the deck file (chance outcomes are listed in this order;
        a card from outside the deck comes last)."""
        return self.deck_index.get(card, len(self.deck))


def load_game_rules(rules_path: str | Path | None = None,
                    deck_path: str | Path | None = None,
                    order_cards: str | None = None) -> GameRules:
    """The rules data (`--rules`) and the deck (`--deck`), built in by default, with
    order cards read as `order_cards` (`--order-cards`; None: the default reading).
    Other rules data with the built-in deck whose cards name other characters or
    podiums has no deck: its positions can be planned, shown and moved on, but no game
    is dealt."""
    rules = load_rules(rules_path, order_cards)
    try:
        deck = tuple(load_deck(rules, deck_path))
    except BadInput:
        if deck_path is not None or rules_path is None:
            raise
        deck = ()
    return GameRules(rules, deck)
