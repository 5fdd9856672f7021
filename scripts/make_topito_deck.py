"""Write models/topito/data/deck.json: the 48-card deck toppi assumes for Topito.

    python scripts/make_topito_deck.py

The real cards are not published. The composition is a choice (docs/topito.md):
12 cards of each kind; podium cards 4 per podium colour; rank cards ranks 1-4, three
of each; every character appears on exactly 12 cards' worth of slots (3 per podium or
order card, 2 per pair card, 1 per rank card = 108 slots = 9 x 12). Deterministic:
the first seed whose shuffle gives 48 distinct, well-formed cards is used.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from models.topito.rules import load_rules, parse_card

OUT = Path(__file__).resolve().parents[1] / "models" / "topito" / "data" / "deck.json"


def attempt(seed: int, names: list[str], podiums: list[str]) -> list[str] | None:
    rng = random.Random(seed)
    slots = [n for n in names for _ in range(12)]
    rng.shuffle(slots)
    cards = []
    for i in range(12):
        three = [slots.pop() for _ in range(3)]
        cards.append(f"podium {podiums[i % len(podiums)]}: {' '.join(sorted(three))}")
    for _ in range(12):
        lower, upper = slots.pop(), slots.pop()
        cards.append(f"{upper} on {lower}")
    for _ in range(12):
        # written as printed: the reading (--order-cards) says which end is up
        cards.append("order " + " ".join(slots.pop() for _ in range(3)))
    for i in range(12):
        cards.append(f"rank {1 + i % 4}: {slots.pop()}")
    rules = load_rules()
    try:
        parsed = [parse_card(rules, c) for c in cards]
    except Exception:
        return None  # a character twice on one card
    if len(set(parsed)) != len(parsed):
        return None
    return cards


def main() -> None:
    rules = load_rules()
    for seed in range(10_000):
        cards = attempt(seed, list(rules.characters), list(rules.podiums))
        if cards:
            break
    OUT.write_text(json.dumps({
        "name": "toppi's assumed Topito deck (modelled on the rulebook, not the printed cards)",
        "seed": seed, "cards": cards}, indent=1) + "\n", encoding="utf-8")
    print(f"{len(cards)} cards (seed {seed}) -> {OUT}")


if __name__ == "__main__":
    main()
