"""Topito described to solver/ once (solver.game.Game): the shared show, moves,
simulate and play verbs and the contract test are built from `GAME`.

An action is a state.Move for the player to move, or a rules.Card at a chance event
(the card drawn from a deck whose order is unknown). The engine itself is state.py;
this module only hands its questions on (legality included) and draws nothing.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import Any

from models.topito.positions import read_position, write_position
from models.topito.queries import MovesNotes, ShowResult, forbidden_move, podium_dict, show
from models.topito.rules import (
    DEFAULT_ORDER_READING,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ORDER_READINGS,
    Card,
    GameRules,
    cards_text,
    load_game_rules,
    parse_card,
)
from models.topito.state import GameState, Move, format_move, move_dict, new_game
from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL, Game, Policy
from solver.params import Param, choice_param

Action = Move | Card

ENDS = ("won", "deck ran out", "move limit")

# Every verb that reads cards takes it: the shared ones and plan / reachable / race /
# hint / deck through `data_options`, generate as one of its own options.
ORDER_CARDS_PARAM = choice_param(
    "order_cards", ORDER_READINGS, DEFAULT_ORDER_READING,
    "How an order card written as printed ('order Elephant Whale Mouse') is read: "
    "top-down = the first character named is the highest, bottom-up = the lowest. "
    "'<' (bottom to top) and '>' (top to bottom) between the names say it outright.")
DECK_PARAM = Param("deck_path", "file", None, "Deck file replacing the built-in 48 cards.",
                   flags=("--deck",), web=False)
# `moves` asks with or without it; plan, reachable, race and hint take it too
REVERSAL_PARAM = Param(
    "reversal_rule", "switch", True,
    "Apply the rule that the previous player's last move may not be reversed.",
    flags=("--reversal", "--no-reversal"), show_default=True)


class TopitoGame(Game[GameRules, GameState, Action]):
    id = "topito"
    notation = (
        "A move names the animals that move (the one taken and those on top of it) and "
        "the podiums: 'move Bear+Cat red -> blue' takes Bear with Cat on it from the red "
        "podium to the blue one; 'draw' names a card drawn.")
    kind = "competitive"
    policy_names = ("greedy", "hint", "random")
    data_options = (DECK_PARAM, ORDER_CARDS_PARAM)
    setup_options = (Param(
        "players", "text", "2", f"Players ({MIN_PLAYERS}-{MAX_PLAYERS}); several separated "
        "by commas compare them.", metavar="N[,N...]", show_default=True),)
    chance_option = Param(
        "draw", "text", None, "At a draw from a deck of unknown order: the card drawn "
        "(the moves after it are listed).", metavar="CARD")
    what_if_options = (REVERSAL_PARAM,)
    show_answer = "models.topito.queries:ShowResult"
    moves_notes_answer = "models.topito.queries:MovesNotes"

    # ------------------------------------------------------------------ data, positions

    def load_rules(self, path: str | None, **data: Any) -> GameRules:
        return load_game_rules(path, data.get("deck_path"), data.get("order_cards"))

    def read(self, rules: GameRules, data: Any, where: str) -> GameState:
        return read_position(rules, data, where)

    def write(self, state: GameState) -> dict[str, Any]:
        return write_position(state)

    def what_if(self, rules: GameRules, state: GameState, **options: Any) -> GameState:
        rule = options.get("reversal_rule", True)
        return replace(state, blocks=replace(state.blocks, reversal_rule=rule))

    def setups(self, rules: GameRules, **options: Any) -> list[dict[str, Any]]:
        text = str(options.get("players") or "2")
        out = []
        for part in text.split(","):
            try:
                n = int(part)
            except ValueError:
                raise BadInput(f"--players: '{part.strip()}' is not a number") from None
            if not MIN_PLAYERS <= n <= MAX_PLAYERS:
                raise BadInput(f"--players: {n}; Topito is played by {MIN_PLAYERS} to "
                               f"{MAX_PLAYERS} players")
            out.append({"players": n})
        return out

    def new_game(self, rules: GameRules, setup: dict[str, Any], rng: random.Random
                 ) -> GameState:
        return new_game(rules, setup.get("players", 2), rng)

    # ------------------------------------------------------------------ play

    def players(self, state: GameState) -> int:
        return state.players

    def current_player(self, state: GameState) -> int:
        if state.end() is not None:
            return TERMINAL
        if state.chance_due:
            return CHANCE
        return state.turn

    def legal_actions(self, state: GameState) -> list[Action]:
        if state.chance_due:
            return [c for c, _ in state.draw_outcomes()]
        return list(state.legal_moves())

    def apply_action(self, state: GameState, action: Action) -> GameState:
        if isinstance(action, Move):
            return state.move(action)
        if isinstance(action, Card):
            return state.draw(action)
        raise BadInput(f"{action!r} is neither a move nor a card")

    def chance_outcomes(self, state: GameState) -> list[tuple[Action, float]]:
        return list(state.draw_outcomes())

    def returns(self, state: GameState) -> list[float]:
        winners = state.winners() if state.end() is not None else []
        return [1.0 if p in winners else 0.0 for p in range(state.players)]

    def status(self, state: GameState) -> str:
        end = state.end()
        if end == "won":
            seats = [str(p + 1) for p in state.winners()]
            return f"won by seat{'s' * (len(seats) > 1)} {' and '.join(seats)}"
        if end is not None:
            return f"draw: {end}"
        return "photo time" if state.chance_due else "playing"

    # ------------------------------------------------------------------ information

    def observation(self, state: GameState, player: int) -> GameState:
        return state.observation(player)

    def determinize(self, observation: GameState, rng: random.Random) -> GameState:
        return observation.determinize(rng)

    def unknown(self, state: GameState) -> list[str]:
        out = [f"{sum(c is None for c in hand)} hand card(s) of seat {p + 1}"
               for p, hand in enumerate(state.hands) if None in hand]
        if state.hands and state.deck is None and state.deck_count:
            out.append(f"the order of the deck ({state.deck_count} cards)")
        return out

    def knows(self, state: GameState) -> list[str]:
        out = ["the stacks on the podiums", "the last move"]
        if not state.hands:
            return out
        out += ["the played cards", "the number of cards in each hand",
                "the number of cards in the deck",
                "the unseen cards (the deck file less the cards in view)"]
        out += [f"the hand of seat {p + 1}" for p, h in enumerate(state.hands)
                if None not in h]
        if state.deck_count and (state.deck is not None or state.deck_cards is not None
                                 or state.unknown_cards() == 0):
            out.append("the cards in the deck")
        if state.deck is not None and state.deck_count:
            out.append("the order of the deck")
        return out

    # ------------------------------------------------------------------ action catalogue

    hides_information = True  # the hands, the order of the deck

    def action_space(self, rules: GameRules, setup: dict[str, Any]) -> list[Move]:
        """Every block put (from out of play) or lifted (from a podium) onto a podium."""
        podiums = range(len(rules.rules.podiums))
        return [Move(b, source, target) for b in range(rules.rules.n_blocks)
                for source in (None, *podiums) for target in podiums if source != target]

    # ------------------------------------------------------------------ words

    def action_text(self, state: GameState, action: Action) -> str:
        rules = state.blocks.rules
        if isinstance(action, Card):
            return f"draw {action.text(rules)}"
        return format_move(rules, action, state.blocks.stacks)

    def parse_action(self, state: GameState, text: str) -> Action:
        matches = self.matching_actions(state, text)
        if len(matches) != 1:
            raise BadInput(f"'{text}' names {len(matches)} legal moves; give the podium "
                           "it comes from too")
        return matches[0]

    def matching_actions(self, state: GameState, text: str) -> list[Action]:
        """A move as `format_move` writes it, or shorter: 'Cat -> red', 'put Cat on
        red', 'move Cat blue -> red'; a drawn card by its text ('draw ' optional)."""
        rules = state.blocks.rules
        legal = self.legal_actions(state)
        t = " ".join(text.split())
        for a in legal:
            if self.action_text(state, a).lower() == t.lower():
                return [a]
        if state.chance_due:
            card = parse_card(rules, re.sub(r"^draw\s+", "", t, flags=re.I), "--draw")
            if card not in legal:
                raise BadInput(f"'{card.text(rules)}' cannot be drawn here: it is not "
                               "among the unseen cards")
            return [card]
        m = re.match(r"^(?:put|move)?\s*([A-Za-z][\w'-]*)(?:\+[\w'+-]+)?\s*"
                     r"(?:([A-Za-z]+)\s*)?(?:->|on|to|onto)\s*([A-Za-z]+)$", t, re.I)
        if not m:
            raise BadInput(f"'{text}' is not a move: write e.g. 'put Cat on red' or "
                           "'move Cat blue -> red'")
        block = rules.block(m.group(1), "move")
        source = None
        if m.group(2):
            source = (None if m.group(2).lower() == "out"
                      else rules.podium(m.group(2), "move"))
        target = rules.podium(m.group(3), "move")
        return [a for a in legal if isinstance(a, Move) and a.block == block
                and a.target == target and (not m.group(2) or a.source == source)]

    def action_json(self, state: GameState, action: Action) -> dict[str, Any]:
        rules = state.blocks.rules
        text = self.action_text(state, action)
        if isinstance(action, Card):
            return {"text": text, "card": action.text(rules),
                    "met": action.met(state.blocks.stacks)}
        after = state.move(action)
        d = move_dict(rules, action)
        out: dict[str, Any] = {"text": text, "move": text, "block": d["block"],
                               "source": d["from"], "target": d["to"],
                               "after": podium_dict(rules, after.blocks.stacks)}
        photos = {f"seat {p + 1}": cards_text(rules, after.played[p][len(state.played[p]):])
                  for p in range(len(state.hands))
                  if len(after.played[p]) > len(state.played[p])}
        if photos:
            out["photo_time"] = photos
        return out

    # ------------------------------------------------------------------ answers

    def moves_notes(self, state: GameState) -> dict[str, Any]:
        return asdict(MovesNotes(forbidden_move(state.blocks)))

    def show(self, state: GameState) -> ShowResult:
        return show(state)

    # ------------------------------------------------------------------ policies

    def policy(self, rules: GameRules, name: str, options: dict[str, Any]
               ) -> Policy[Action]:
        from models.topito.policies import greedy_choice, hint_choice, random_choice

        if name == "greedy":
            return Policy("greedy", greedy_choice)
        if name == "hint":
            return Policy("hint", hint_choice)
        if name == "random":
            return Policy("random", random_choice)
        raise BadInput(f"unknown policy '{name}' ({', '.join(self.policy_names)})")

    def measure(self, rules: GameRules, setup: dict[str, Any], end: GameState,
                options: dict[str, Any]) -> dict[str, Any]:
        return {"played": [len(pile) for pile in end.played], "turns": end.moves_made,
                "end": end.end(), "winners": len(end.winners())}

    def summarise(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        from statistics import mean  # here: it imports fractions and decimal

        seats = len(records[0]["played"])
        ends = Counter(r["end"] for r in records)
        return {"played_by_seat": [round(mean(r["played"][s] for r in records), 3)
                                   for s in range(seats)],
                "no_winner": sum(ends.get(e, 0) for e in ENDS if e != "won"),
                "shared_wins": sum(1 for r in records if r["winners"] > 1)}


GAME = TopitoGame()
