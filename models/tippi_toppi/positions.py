"""Tippi Toppi position files (docs/tippi-toppi.md) read into game states, and plays
in the notation CARD>PILE."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from models.tippi_toppi.rules import Card, Rules
from models.tippi_toppi.state import GameState, Play, Variant
from solver.errors import BadInput
from solver.io import expect, load_json
from solver.io import field as json_field


def load_state(rules: Rules, path: str | Path) -> GameState:
    return state_from_dict(rules, load_json(path, "game file"), f"game file {path}")


def state_from_dict(rules: Rules, data: Any, where: str = "game") -> GameState:
    """A game state from JSON (format in docs/tippi-toppi.md), checked: known cards, no
    more copies than the deck has, hands no larger than allowed, no open task that
    already holds (it would have been fulfilled). What the file's reader does not know
    may be left out: hand cards as "?" (or a hand as its number of cards), the draw pile
    (left out, as its count or as {"unordered": [cards]}: its cards are then the unseen
    ones, order unknown; a count or cards that do not add up with the deck are refused),
    the task pile as a number of unknown tasks; `to_draw` names a player who still draws
    from such a draw pile."""
    expect(data, dict, where)
    game = data.get("game", "tippi-toppi")
    if game != "tippi-toppi":
        raise BadInput(f"{where}: this is a '{game}' file, not tippi-toppi")
    piles_raw = json_field(data, "piles", list, where)
    if len(piles_raw) != rules.piles:
        raise BadInput(f"{where}.piles: {rules.piles} piles expected, got {len(piles_raw)}")
    piles: list[list[Card]] = []
    for i, p in enumerate(piles_raw):
        w = f"{where}.piles[{i + 1}]"
        if isinstance(p, str):
            p = [p]
        expect(p, list, w)
        if not p:
            raise BadInput(f"{w}: a pile has at least its starting card")
        piles.append([rules.parse_card(c, w) for c in p])
    hands_raw = json_field(data, "hands", list, where)
    players = json_field(data, "players", int, where, len(hands_raw))
    if players != len(hands_raw):
        raise BadInput(f"{where}: {players} players but {len(hands_raw)} hands")
    if players not in rules.task_counts:
        raise BadInput(f"{where}.players: {players} players are not in the rules "
                       f"({min(rules.task_counts)}-{max(rules.task_counts)})")
    hands: list[list[Card | None]] = []
    for i, h in enumerate(hands_raw):
        w = f"{where}.hands[{i + 1}]"
        if isinstance(h, int) and not isinstance(h, bool):  # a count of unseen cards
            if not 0 <= h <= rules.hand_size:
                raise BadInput(f"{w}: a hand holds 0 to {rules.hand_size} cards, not {h}")
            h = ["?"] * h
        expect(h, list, w)
        if len(h) > rules.hand_size:
            raise BadInput(f"{w}: {len(h)} cards, a hand holds at most {rules.hand_size}")
        hands.append([None if c == "?" else rules.parse_card(c, w) for c in h])
    turn = json_field(data, "turn", int, where, 1) - 1
    if not 0 <= turn < players:
        raise BadInput(f"{where}.turn: player {turn + 1} does not exist (1-{players})")
    v = json_field(data, "variant", dict, where, {})
    variant = Variant(bool(v.get("high_speed", False)), bool(v.get("open_hands", False)))
    draw_raw = data.get("draw_pile")
    w = f"{where}.draw_pile"
    draw: list[Card] | None = None
    draw_told: int | None = None  # the draw pile's size as the file gives it, order unknown
    unordered: list[Card] | None = None  # its cards as the file gives them, order unknown
    if isinstance(draw_raw, list):
        draw = [rules.parse_card(c, w) for c in draw_raw]
    elif isinstance(draw_raw, int) and not isinstance(draw_raw, bool):
        draw_told = draw_raw
    elif isinstance(draw_raw, dict) and set(draw_raw) == {"unordered"}:
        expect(draw_raw["unordered"], list, f"{w}.unordered")
        unordered = [rules.parse_card(c, f"{w}.unordered") for c in draw_raw["unordered"]]
        draw_told = len(unordered)
    elif draw_raw is not None:
        raise BadInput(f"{w}: a list of cards (top first), a count, or "
                       "{\"unordered\": [cards]} (the cards without their order)")
    state = GameState(rules, piles, hands, turn, [], [], draw, 0, variant)
    counts = state.known_cards()
    for card, n in sorted(counts.items()):
        if n > rules.copies:
            raise BadInput(f"{where}: {rules.card_name(card)} appears {n} times, the deck "
                           f"has {rules.copies}")
    hidden_hand = sum(1 for h in hands for c in h if c is None)
    unseen = len(rules.deck) - sum(counts.values())
    if draw is None:
        state.draw_count = unseen - hidden_hand
        if state.draw_count < 0:
            raise BadInput(f"{where}: {hidden_hand} hidden hand cards but only {unseen} "
                           "cards are unaccounted for")
        if draw_told is not None and draw_told != state.draw_count:
            raise BadInput(f"{w}: {draw_told} cards, but the deck leaves "
                           f"{state.draw_count} ({unseen} cards not on the piles or in a "
                           f"hand, {hidden_hand} of them hidden in hands)")
        if unordered is not None:
            missing = Counter(state.unseen_cards())
            missing.subtract(unordered)
            wrong = sorted(c for c, k in missing.items() if k < 0)
            if wrong:
                raise BadInput(f"{w}.unordered: {rules.card_name(wrong[0])} is not left "
                               "for the draw pile (every copy is on the piles or in a "
                               "hand)")
            if hidden_hand:
                raise BadInput(f"{w}.unordered: the draw pile's cards without their "
                               f"order cannot go with hidden hand cards ({hidden_hand} "
                               "'?'); give the draw pile's count instead")
    else:
        state.draw_count = len(draw)
        if unseen != hidden_hand:
            raise BadInput(f"{where}: with a known draw pile every card must be placed: "
                           f"{unseen} cards of the deck are missing and {hidden_hand} hand "
                           "cards are hidden")
    state.open_tasks = [rules.parse_task(t, f"{where}.open_tasks[{i + 1}]")
                        for i, t in enumerate(json_field(data, "open_tasks", list, where))]
    if len(state.open_tasks) > rules.open_tasks:
        raise BadInput(f"{where}.open_tasks: at most {rules.open_tasks} tasks lie open")
    pile = json_field(data, "task_pile", (list, int), where, 0)
    if isinstance(pile, int):
        if pile < 0:
            raise BadInput(f"{where}.task_pile: a negative number of tasks")
        state.hidden_tasks = pile
    else:
        state.task_pile = [rules.parse_task(t, f"{where}.task_pile[{i + 1}]")
                           for i, t in enumerate(pile)]
    if state.task_pile and len(state.open_tasks) < rules.open_tasks:
        raise BadInput(f"{where}: only {len(state.open_tasks)} open tasks while the task "
                       f"pile still has cards ({rules.open_tasks} lie open)")
    state.fulfilled = [rules.parse_task(t, f"{where}.fulfilled_tasks[{i + 1}]")
                       for i, t in enumerate(json_field(data, "fulfilled_tasks", list, where, []))]
    if state.hidden_tasks > len(state.unseen_tasks()):
        raise BadInput(f"{where}.task_pile: {state.hidden_tasks} unknown tasks but only "
                       f"{len(state.unseen_tasks())} tasks of the catalogue are unseen")
    if "to_draw" in data:
        drawer = json_field(data, "to_draw", int, where) - 1
        if not 0 <= drawer < players:
            raise BadInput(f"{where}.to_draw: player {drawer + 1} does not exist "
                           f"(1-{players})")
        if draw is not None:
            raise BadInput(f"{where}.to_draw: with a known draw pile the draw is part of "
                           "the play (give no draw_pile to leave the card to chance)")
        if state.draw_count == 0:
            raise BadInput(f"{where}.to_draw: the draw pile is empty")
        state.drawer = drawer
    for i, t in enumerate(state.open_tasks):
        if state.holds(t):
            raise BadInput(f"{where}.open_tasks[{i + 1}]: '{t.text(rules)}' already holds "
                           "on these piles; it would have been fulfilled")
    return state


def parse_play(state: GameState, text: str, where: str = "play") -> Play:
    """'G3>2' or 'G3 on 2' (card on pile 2), optionally 'p2:G3>2' for player 2."""
    m = re.fullmatch(r"\s*(?:p(\d+)\s*:\s*)?(.+?)\s*(?:>|\bon\b|@)\s*(\d+)\s*", text, re.I)
    if not m:
        raise BadInput(f"{where}: '{text}' is not a play (write CARD>PILE, e.g. G3>2)")
    player = int(m.group(1)) - 1 if m.group(1) else state.turn
    return Play(player, state.rules.parse_card(m.group(2), where), int(m.group(3)) - 1)


def format_play(rules: Rules, play: Play, players: int = 1) -> str:
    who = f"p{play.player + 1}:" if players > 1 else ""
    return f"{who}{rules.card_name(play.card)}>{play.pile + 1}"
