"""Tippi Toppi position files (docs/tippi-toppi.md) read into game states and written
from them, and plays in the notation CARD>PILE.

Seats are counted from 1 in the files: `on_turn` (written; files that name it `turn`,
as earlier versions wrote, are read alike), `to_draw`, and `p2:` in a play."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.tippi_toppi.rules import Card, Rules
from models.tippi_toppi.state import GameState, Play, Variant
from models.tippi_toppi.tasks import Task
from solver.errors import BadInput
from solver.io import expect, load_json
from solver.io import field as json_field

#: The key of the seat on turn, and the name earlier files gave it.
ON_TURN, OLD_ON_TURN = "on_turn", "turn"


def load_state(rules: Rules, path: str | Path) -> GameState:
    return state_from_dict(rules, load_json(path, "position file"), f"position file {path}")


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The position file of a state (`state_from_dict` reads it back equal)."""
    r = state.rules
    d: dict[str, Any] = {
        "game": "tippi-toppi", "players": state.players,
        "variant": {"high_speed": state.variant.high_speed,
                    "open_hands": state.variant.open_hands},
        "piles": [[r.card_name(c) for c in p] for p in state.piles],
        "hands": [[r.card_name(c) for c in h] for h in state.hands],
        ON_TURN: state.turn + 1,
        "open_tasks": [t.text(r) for t in state.open_tasks],
        "task_pile": ([t.text(r) for t in state.task_pile] if not state.hidden_tasks
                      else len(state.task_pile) + state.hidden_tasks),
        "fulfilled_tasks": [t.text(r) for t in state.fulfilled],
    }
    if state.draw_pile is not None:
        d["draw_pile"] = [r.card_name(c) for c in state.draw_pile]
    if state.drawer is not None:
        d["to_draw"] = state.drawer + 1
    return d


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
    piles = _piles(rules, data, where)
    hands = _hands(rules, data, where)
    turn = _seat(data, _turn_key(data), where, len(hands), 1)
    v = json_field(data, "variant", dict, where, {})
    variant = Variant(bool(v.get("high_speed", False)), bool(v.get("open_hands", False)))
    draw = _draw_pile(rules, data, where)
    state = GameState(rules, piles, hands, turn, [], [], draw.cards, 0, variant)
    state = state.but(draw_count=_draw_count(state, draw, where))
    state = _with_tasks(state, data, where)
    if "to_draw" in data:
        state = state.but(drawer=_drawer(state, data, where))
    for i, t in enumerate(state.open_tasks):
        if state.holds(t):
            raise BadInput(f"{where}.open_tasks[{i + 1}]: '{t.text(rules)}' already holds "
                           "on these piles; it would have been fulfilled")
    return state


def _turn_key(data: dict) -> str:
    """`on_turn`, or `turn` in a file that gives only that (the older name)."""
    return OLD_ON_TURN if ON_TURN not in data and OLD_ON_TURN in data else ON_TURN


def _seat(data: dict, key: str, where: str, players: int, default: Any = ...) -> int:
    """The seat (from 0) a file's `key` names (from 1), checked."""
    seat = json_field(data, key, int, where, default) - 1
    if not 0 <= seat < players:
        raise BadInput(f"{where}.{key}: player {seat + 1} does not exist (1-{players})")
    return seat


def _piles(rules: Rules, data: dict, where: str) -> list[list[Card]]:
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
    return piles


def _hands(rules: Rules, data: dict, where: str) -> list[list[Card | None]]:
    """The hands, a hidden card as None (a hand given as a count: that many)."""
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
    return hands


@dataclass(frozen=True)
class _DrawPile:
    """The draw pile as the file gives it: its cards in order (None: order unknown),
    its size told without the order, its cards told without the order."""

    cards: list[Card] | None = None
    told: int | None = None
    unordered: list[Card] | None = None


def _draw_pile(rules: Rules, data: dict, where: str) -> _DrawPile:
    raw = data.get("draw_pile")
    w = f"{where}.draw_pile"
    if isinstance(raw, list):
        return _DrawPile(cards=[rules.parse_card(c, w) for c in raw])
    if isinstance(raw, int) and not isinstance(raw, bool):
        return _DrawPile(told=raw)
    if isinstance(raw, dict) and set(raw) == {"unordered"}:
        expect(raw["unordered"], list, f"{w}.unordered")
        cards = [rules.parse_card(c, f"{w}.unordered") for c in raw["unordered"]]
        return _DrawPile(told=len(cards), unordered=cards)
    if raw is not None:
        raise BadInput(f"{w}: a list of cards (top first), a count, or "
                       "{\"unordered\": [cards]} (the cards without their order)")
    return _DrawPile()


def _draw_count(state: GameState, draw: _DrawPile, where: str) -> int:
    """The draw pile's size, checked against the deck: no card more often than the deck
    has it, and a pile of unknown order holds exactly the cards not seen elsewhere."""
    rules = state.rules
    counts = state.known_cards()
    for card, n in sorted(counts.items()):
        if n > rules.copies:
            raise BadInput(f"{where}: {rules.card_name(card)} appears {n} times, the deck "
                           f"has {rules.copies}")
    hidden_hand = sum(1 for h in state.hands for c in h if c is None)
    unseen = len(rules.deck) - sum(counts.values())
    if draw.cards is not None:
        if unseen != hidden_hand:
            raise BadInput(f"{where}: with a known draw pile every card must be placed: "
                           f"{unseen} cards of the deck are missing and {hidden_hand} hand "
                           "cards are hidden")
        return len(draw.cards)
    count = unseen - hidden_hand
    w = f"{where}.draw_pile"
    if count < 0:
        raise BadInput(f"{where}: {hidden_hand} hidden hand cards but only {unseen} "
                       "cards are unaccounted for")
    if draw.told is not None and draw.told != count:
        raise BadInput(f"{w}: {draw.told} cards, but the deck leaves {count} ({unseen} "
                       f"cards not on the piles or in a hand, {hidden_hand} of them hidden "
                       "in hands)")
    if draw.unordered is not None:
        missing = Counter(state.unseen_cards())
        missing.subtract(draw.unordered)
        wrong = sorted(c for c, k in missing.items() if k < 0)
        if wrong:
            raise BadInput(f"{w}.unordered: {rules.card_name(wrong[0])} is not left "
                           "for the draw pile (every copy is on the piles or in a hand)")
        if hidden_hand:
            raise BadInput(f"{w}.unordered: the draw pile's cards without their order "
                           f"cannot go with hidden hand cards ({hidden_hand} '?'); give "
                           "the draw pile's count instead")
    return count


def _tasks(rules: Rules, data: dict, key: str, where: str, default: Any = ...
           ) -> list[Task]:
    return [rules.parse_task(t, f"{where}.{key}[{i + 1}]")
            for i, t in enumerate(json_field(data, key, list, where, default))]


def _with_tasks(state: GameState, data: dict, where: str) -> GameState:
    """The state with the file's open tasks, task pile (a list, or a number of unknown
    tasks) and fulfilled tasks, checked against the rules and the catalogue."""
    rules = state.rules
    open_tasks = _tasks(rules, data, "open_tasks", where)
    if len(open_tasks) > rules.open_tasks:
        raise BadInput(f"{where}.open_tasks: at most {rules.open_tasks} tasks lie open")
    pile = json_field(data, "task_pile", (list, int), where, 0)
    task_pile, hidden = [], 0
    if isinstance(pile, int):
        if pile < 0:
            raise BadInput(f"{where}.task_pile: a negative number of tasks")
        hidden = pile
    else:
        task_pile = _tasks(rules, data, "task_pile", where)
    if task_pile and len(open_tasks) < rules.open_tasks:
        raise BadInput(f"{where}: only {len(open_tasks)} open tasks while the task "
                       f"pile still has cards ({rules.open_tasks} lie open)")
    fulfilled = _tasks(rules, data, "fulfilled_tasks", where, [])
    state = state.but(open_tasks=open_tasks, task_pile=task_pile, hidden_tasks=hidden,
                      fulfilled=fulfilled)
    if hidden > len(state.unseen_tasks()):
        raise BadInput(f"{where}.task_pile: {hidden} unknown tasks but only "
                       f"{len(state.unseen_tasks())} tasks of the catalogue are unseen")
    return state


def _drawer(state: GameState, data: dict, where: str) -> int:
    """The seat of `to_draw`, who still draws from a draw pile of unknown order."""
    drawer = _seat(data, "to_draw", where, state.players)
    if state.draw_pile is not None:
        raise BadInput(f"{where}.to_draw: with a known draw pile the draw is part of "
                       "the play (give no draw_pile to leave the card to chance)")
    if state.draw_count == 0:
        raise BadInput(f"{where}.to_draw: the draw pile is empty")
    return drawer


def parse_play(state: GameState, text: str, where: str = "play") -> Play:
    """'G3>2' or 'G3 on 2' (card on pile 2), optionally 'p2:G3>2' for player 2."""
    # player and pile: a few ASCII digits (int() refuses over 4,300 with a ValueError)
    m = re.fullmatch(r"\s*(?:p([0-9]{1,6})\s*:\s*)?(.+?)\s*(?:>|\bon\b|@)\s*([0-9]{1,6})\s*",
                     text, re.I)
    if not m:
        raise BadInput(f"{where}: '{text}' is not a play (write CARD>PILE, e.g. G3>2)")
    player = int(m.group(1)) - 1 if m.group(1) else state.turn
    return Play(player, state.rules.parse_card(m.group(2), where), int(m.group(3)) - 1)


def format_play(rules: Rules, play: Play, players: int = 1) -> str:
    who = f"p{play.player + 1}:" if players > 1 else ""
    return f"{who}{rules.card_name(play.card)}>{play.pile + 1}"
