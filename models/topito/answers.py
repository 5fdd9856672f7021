"""The answers of Topito's own verbs (declared in verbs.py): each verb's function, from
what the layer read (a `Call`) to a plain dataclass, the `--json` document."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.topito.hint import HintResult
from models.topito.plan import PlanResult
from models.topito.race import RaceResult
from models.topito.reachable import ReachableResult
from models.topito.rules import Card, Goal, Rules, parse_cards
from models.topito.state import GameState
from models.topito.work import Work, race_nodes
from solver.answers import Capped, Known, Seen, extend, seen
from solver.errors import BadInput
from solver.game import Game, knowledge

if TYPE_CHECKING:
    from solver.backends.common import SolverOptions
    from solver.verbs import Call

RACE_READING = ("all-seeing: every hand and the deck's order are read (for teaching "
                "and analysis; no player knows them at the table)")


@dataclass
class PlanAnswer(Capped, Known, PlanResult):
    """`plan --json`: the shortest plan and what it worked from (the blocks: the cards
    at the table play no part); `cut_by_time`: the time limit stopped the search before
    its work budget did (status "unknown")."""


@dataclass
class ReachableAnswer(Capped, Known, ReachableResult):
    """`reachable --json`: yes with a shortest plan or no with the proof, and what it
    worked from (the blocks); `cut_by_time` as in `plan`."""


@dataclass
class RaceAnswer(Capped, Seen, RaceResult):
    """`race --json`: all-seeing by nature (every hand and the deck's order are read);
    `reading` says so in words; `cut_by_time`: the time limit stopped the search before
    its work budget did."""

    reading: str = RACE_READING


@dataclass
class HintAnswer(Capped, Known, HintResult):
    """`hint --json`: the ranked moves, and what the hint worked from (the observation
    of the player on turn, or the whole file with --open-hands: `view`);
    `cut_by_time`: the time limit stopped the distances before their work budget did
    (`complete` false)."""


@dataclass
class DeckCard:
    """One card of the deck: its kind and its text."""

    kind: str
    card: str


#: `deck --json`: the cards in the deck file's order (the document is the list).
DeckAnswer = list[DeckCard]


# --------------------------------------------------------------------------- helpers

def position(call: Call, reversal_rule: bool) -> GameState:
    """The position in the call's file, played with or without the no-reversal rule."""
    return call.game.what_if(call.rules(), call.state(), reversal_rule=reversal_rule)


def blocks_only(state: GameState) -> GameState:
    """The part of a position that plan and reachable use: the blocks (stacks and last
    move), no cards."""
    return GameState(state.rules, state.blocks, moves_made=state.moves_made)


def goal_of(rules: Rules, card_texts: tuple[str, ...], cards_text: tuple[str, ...],
            mode: str) -> Goal:
    """The goal of --card / --cards and --any / --all."""
    cards = parse_cards(rules, list(card_texts) + list(cards_text), "--card")
    if not cards:
        raise BadInput("give at least one --card")
    return Goal(tuple(dict.fromkeys(cards)), mode)


def known(game: Game, state: GameState, more: list[str] | None = None
          ) -> dict[str, list[str]]:
    """The fields of `Known` for an answer on `state`; `more` known besides."""
    info = knowledge(game, state)
    return {"knows": info["knows"] + (more or []), "unknown": info["unknown"]}


def _solver(call: Call) -> SolverOptions:
    assert call.solver is not None  # every verb here is declared `solving`
    return call.solver


# --------------------------------------------------------------------------- verbs

def plan(call: Call, card_texts: tuple[str, ...], cards_text: tuple[str, ...], mode: str,
         backend: str, max_moves: int, nodes: int, conflicts: int,
         reversal_rule: bool) -> PlanAnswer:
    """The fewest moves that make the stacks meet the card(s)."""
    from models.topito.plan import plan as shortest_plan

    used = blocks_only(position(call, reversal_rule))
    state = used.blocks
    rules = state.rules
    goal = goal_of(rules, card_texts, cards_text, mode)
    work = Work(nodes, conflicts)
    res = shortest_plan(state, goal, backend, max_moves, _solver(call).solve_seconds(),
                        work)
    if call.svg_path:
        from models.topito.render import stacks_svg

        end = res.plan[-1].after if res.plan else res.start
        stacks = tuple(tuple(rules.block(b) for b in end[p]) for p in rules.podiums)
        call.save_svg(stacks_svg(rules, stacks, f"after {res.moves} moves" if res.moves
                                 else ""))
    return extend(res, PlanAnswer, **known(call.game, used), cut_by_time=work.cut_by_time)


def reachable(call: Call, card_texts: tuple[str, ...], cards_text: tuple[str, ...],
              mode: str, within: int, backend: str, nodes: int, conflicts: int,
              reversal_rule: bool) -> ReachableAnswer:
    """Can the card(s) be met within K moves? Yes with a plan, or no with the proof."""
    from models.topito.reachable import reachable as within_reach

    used = blocks_only(position(call, reversal_rule))
    state = used.blocks
    goal = goal_of(state.rules, card_texts, cards_text, mode)
    work = Work(nodes, conflicts)
    res = within_reach(state, goal, within, backend, _solver(call).solve_seconds(), work)
    return extend(res, ReachableAnswer, **known(call.game, used),
                  cut_by_time=work.cut_by_time)


def race(call: Call, player: int | None, within: int | None, backend: str, max_moves: int,
         nodes: int | None, reversal_rule: bool) -> RaceAnswer:
    """The fewest moves until the seat has 7 played cards (or the game ends with a win),
    everything known."""
    from models.topito.race import race as fewest_moves

    state = position(call, reversal_rule)
    work = Work(race_nodes(backend) if nodes is None else nodes)
    try:
        res = fewest_moves(state, None if player is None else player - 1, max_moves,
                           backend, _solver(call).solve_seconds(), within, work)
    except BadInput as err:
        raise BadInput(f"{call.file}: {err}") from None
    return extend(res, RaceAnswer, **seen(call.game, state, True), reading=RACE_READING,
                  cut_by_time=work.cut_by_time)


def hand_cards(state: GameState, hand: str) -> list[Card]:
    """The cards of --hand, checked against the hand size."""
    cards = parse_cards(state.blocks.rules, [hand], "--hand")
    size = state.rules.hand_size
    if len(cards) > size:
        raise BadInput(f"--hand: a hand holds at most {size} cards, got {len(cards)}")
    if not cards:
        raise BadInput("--hand: the hand holds no card")
    return cards


def hint(call: Call, hand: str | None, backend: str, max_moves: int, conflicts: int,
         nodes: int, open_hands: bool, reversal_rule: bool) -> HintAnswer:
    """The best move for the player on turn, every move ranked."""
    from models.topito.hint import table_hint

    state = position(call, reversal_rule)
    cards = None if hand is None else hand_cards(state, hand)
    work = Work(nodes, conflicts)
    try:
        res, used = table_hint(state, backend, max_moves, _solver(call).solve_seconds(),
                               open_hands, cards, work)
    except BadInput as err:
        raise BadInput(f"{call.file}: {err}") from None
    extra = ["the hand given with --hand"] if cards is not None and not used.hands else []
    return extend(res, HintAnswer, **known(call.game, used, extra),
                  cut_by_time=work.cut_by_time)


def deck(call: Call) -> DeckAnswer:
    """The deck in use (the built-in one or --deck), order cards written as they read
    under --order-cards."""
    from models.topito.rules import load_deck, load_rules

    # not call.rules(): other rules data with the built-in deck is an error here
    rules = load_rules(call.rules_path, call.data_values.get("order_cards"))
    cards = load_deck(rules, call.data_values.get("deck_path"))
    return [DeckCard(c.kind, c.text(rules)) for c in cards]
