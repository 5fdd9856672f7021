"""The toy sixth game's description (solver.game.Game): rules, state and engine in one
small module; the contract test plays it like the five real games.

Over the top: cards 1-4, two of each; two players hold two cards each, hidden from each
other; the rest is a face-down deck. On your turn play a card onto the common total and
draw one (if the deck has any). Whoever pushes the total over 10 loses; when both hands
run out first, nobody wins.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL, Game, Policy
from solver.io import expect
from solver.io import field as json_field
from solver.params import int_param


@dataclass(frozen=True)
class ToyRules:
    name: str = "over-the-top"
    values: tuple[int, ...] = (1, 2, 3, 4)
    copies: int = 2
    hand: int = 2
    limit: int = 10

    @property
    def deck(self) -> list[int]:
        return [v for v in self.values for _ in range(self.copies)]


@dataclass(frozen=True)
class ToyState:
    """A hand card None is unknown; `deck` None is a face-down deck of unknown order
    (`deck_count` cards); `draw_due`: the mover still draws (a chance node)."""

    rules: ToyRules
    total: int
    played: tuple[int, ...]
    hands: tuple[tuple[int | None, ...], ...]
    deck: tuple[int, ...] | None
    deck_count: int
    to_move: int = 0
    draw_due: bool = False
    loser: int | None = None

    def unseen(self) -> list[int]:
        """Cards not known to be anywhere: hidden hand cards and an unordered deck."""
        left = Counter(self.rules.deck)
        left.subtract(self.played)
        left.subtract(c for h in self.hands for c in h if c is not None)
        if self.deck is not None:
            left.subtract(self.deck)
        return sorted(left.elements())


class OverTheTop(Game[ToyRules, ToyState, int]):
    id = "over-the-top"
    kind = "competitive"
    policy_names = ("low", "random")
    setup_options = (int_param("start", 1, 1, 2, "Who begins."),)
    show_answer = "tests.toy.answers:ToyShow"

    def load_rules(self, path: str | None, **data: Any) -> ToyRules:
        if path is not None:
            raise BadInput("--rules: the toy game has built-in rules only")
        return ToyRules()

    def read(self, rules: ToyRules, data: Any, where: str) -> ToyState:
        expect(data, dict, where)
        if data.get("game", self.id) != self.id:
            raise BadInput(f"{where}: this is a '{data.get('game')}' file, not {self.id}")
        hands = []
        for i, h in enumerate(json_field(data, "hands", list, where)):
            hand = []
            for c in expect(h, list, f"{where}.hands[{i}]"):
                if c != "?" and c not in rules.values:
                    raise BadInput(f"{where}.hands[{i}]: no card {c!r}")
                hand.append(None if c == "?" else c)
            hands.append(tuple(hand))
        if len(hands) != 2:
            raise BadInput(f"{where}.hands: two players")
        deck = json_field(data, "deck", (list, int), where)
        state = ToyState(rules, json_field(data, "total", int, where, 0),
                         tuple(json_field(data, "played", list, where, [])), tuple(hands),
                         tuple(deck) if isinstance(deck, list) else None,
                         len(deck) if isinstance(deck, list) else deck,
                         json_field(data, "to_move", int, where, 1) - 1,
                         json_field(data, "draw_due", bool, where, False))
        if sum(state.played) != state.total:
            raise BadInput(f"{where}: the played cards do not add up to the total")
        if len(state.unseen()) != sum(c is None for h in hands for c in h) + (
                state.deck_count if state.deck is None else 0):
            raise BadInput(f"{where}: the cards do not add up to the deck")
        if state.total > rules.limit:
            state = replace(state, loser=(state.to_move - 1) % 2)
        return state

    def write(self, state: ToyState) -> dict[str, Any]:
        return {"game": self.id, "total": state.total, "played": list(state.played),
                "hands": [["?" if c is None else c for c in h] for h in state.hands],
                "deck": list(state.deck) if state.deck is not None else state.deck_count,
                "to_move": state.to_move + 1, "draw_due": state.draw_due}

    def setups(self, rules: ToyRules, **options: Any) -> list[dict[str, Any]]:
        return [{"start": options.get("start", 1)}]

    def new_game(self, rules: ToyRules, setup: dict[str, Any], rng: random.Random
                 ) -> ToyState:
        deck = rules.deck
        rng.shuffle(deck)
        hands = (tuple(deck[:rules.hand]), tuple(deck[rules.hand:2 * rules.hand]))
        rest = tuple(deck[2 * rules.hand:])
        return ToyState(rules, 0, (), hands, rest, len(rest), setup.get("start", 1) - 1)

    def players(self, state: ToyState) -> int:
        return 2

    def current_player(self, state: ToyState) -> int:
        if state.loser is not None:
            return TERMINAL
        if state.draw_due:
            return CHANCE
        if not any(state.hands):
            return TERMINAL
        return state.to_move

    def legal_actions(self, state: ToyState) -> list[int]:
        p = self.current_player(state)
        if p == CHANCE:
            return [a for a, _ in self.chance_outcomes(state)]
        if p == TERMINAL:
            return []
        return sorted({c for c in state.hands[p] if c is not None})

    def chance_outcomes(self, state: ToyState) -> list[tuple[int, float]]:
        if self.current_player(state) != CHANCE:
            return []
        unseen = Counter(state.unseen())
        n = sum(unseen.values())
        return [(c, k / n) for c, k in sorted(unseen.items())]

    def apply_action(self, state: ToyState, action: int) -> ToyState:
        self.check_legal(state, action)
        p = state.to_move
        if state.draw_due:
            hands = list(state.hands)
            hands[p] = hands[p] + (action,)
            return replace(state, hands=tuple(hands), deck_count=state.deck_count - 1,
                           draw_due=False, to_move=1 - p)
        hand = list(state.hands[p])
        hand.remove(action)
        total = state.total + action
        if total > state.rules.limit:
            hands = state.hands[:p] + (tuple(hand),) + state.hands[p + 1:]
            return replace(state, total=total, played=state.played + (action,),
                           hands=hands, loser=p)
        deck, count, due = state.deck, state.deck_count, False
        if count and deck is not None:
            hand.append(deck[0])
            deck, count = deck[1:], count - 1
        elif count:
            due = True
        hands = state.hands[:p] + (tuple(hand),) + state.hands[p + 1:]
        return replace(state, total=total, played=state.played + (action,), hands=hands,
                       deck=deck, deck_count=count, draw_due=due,
                       to_move=p if due else 1 - p)

    def returns(self, state: ToyState) -> list[float]:
        if state.loser is None:
            return [0.0, 0.0]
        return [0.0 if s == state.loser else 1.0 for s in range(2)]

    def status(self, state: ToyState) -> str:
        if state.loser is not None:
            return f"player {state.loser + 1} went over the top"
        return "over" if self.is_terminal(state) else "playing"

    def observation(self, state: ToyState, player: int) -> ToyState:
        hands = tuple(h if s == player else tuple(None for _ in h)
                      for s, h in enumerate(state.hands))
        return replace(state, hands=hands, deck=None)

    def determinize(self, observation: ToyState, rng: random.Random) -> ToyState:
        unseen = observation.unseen()
        rng.shuffle(unseen)
        hands = []
        for h in observation.hands:
            hands.append(tuple(unseen.pop() if c is None else c for c in h))
        deck = observation.deck if observation.deck is not None else tuple(unseen)
        return replace(observation, hands=tuple(hands), deck=deck)

    def unknown(self, state: ToyState) -> list[str]:
        out = [f"{sum(c is None for c in h)} card(s) of player {s + 1}"
               for s, h in enumerate(state.hands) if None in h]
        if state.deck is None and state.deck_count:
            out.append(f"the order of the deck ({state.deck_count} cards)")
        return out

    def knows(self, state: ToyState) -> list[str]:
        out = ["the total", "the cards played"]
        out += [f"the cards of player {s + 1}" for s, h in enumerate(state.hands)
                if None not in h]
        out.append("the number of cards in the deck")
        if state.deck is not None:
            out.append("the order of the deck")
        return out

    def action_text(self, state: ToyState, action: int) -> str:
        return f"draw {action}" if state.draw_due else f"play {action}"

    def parse_action(self, state: ToyState, text: str) -> int:
        word = text.strip().lower().removeprefix("draw").removeprefix("play").strip()
        if not word.isdigit():
            raise BadInput(f"'{text}' is not a card (1-4)")
        return int(word)

    def action_json(self, state: ToyState, action: int) -> dict[str, Any]:
        return {"text": self.action_text(state, action), "card": action,
                "total_after": state.total + (0 if state.draw_due else action)}

    def show(self, state: ToyState) -> dict[str, Any]:
        return {"total": state.total, "deck": state.deck_count}

    def policy(self, rules: ToyRules, name: str, options: dict[str, Any]) -> Policy[int]:
        if name == "low":
            return Policy("low", lambda obs, legal, rng: min(legal))
        if name == "random":
            return Policy("random", lambda obs, legal, rng: rng.choice(legal))
        raise BadInput(f"unknown policy '{name}'")


TOY = GAME = OverTheTop()

