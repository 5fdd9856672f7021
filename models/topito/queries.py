"""The questions on a Topito position that need no search: what `show` and `moves` say
about it (the stacks, the last move and the move it forbids, the hands with the cards
met now, the played piles and the deck), and the moves of a plan in words. The searches
are plan.py, reachable.py, race.py and hint.py."""

from __future__ import annotations

from dataclasses import dataclass

from models.topito.rules import Rules, Stacks, cards_text
from models.topito.state import GameState, Move, State, format_move, move_dict


def podium_dict(rules: Rules, stacks: Stacks) -> dict[str, list[str]]:
    """The stacks by podium name, bottom to top."""
    return {rules.podiums[p]: [rules.characters[b] for b in s] for p, s in enumerate(stacks)}


def forbidden_move(state: State) -> str | None:
    """The move the no-reversal rule forbids now, in words (None: nothing is)."""
    if state.ban is None or state.last is None:
        return None
    block, podium = state.ban
    return format_move(state.rules, Move(block, state.last.target, podium), state.stacks)


@dataclass
class ShowResult:
    """A position: stacks bottom to top, blocks out of play, the last move and the move
    it forbids; each hand ("?" for an unknown card) with the cards the stacks meet now;
    the played piles, the deck's size, the cards nobody has seen (the deck and the
    unknown hand cards are drawn from them), the moves made and the winners (seats
    from 1); `deck_cards`: the deck's cards when the file gives them without order
    (then `unseen` counts only the cards in unknown hands). `turn` is the player on
    turn counted from 0 (as the document has always said it; `to_move` is the same
    seat from 1, as the position file's `on_turn`)."""

    podiums: dict[str, list[str]]
    out_of_play: list[str]
    last_move: str | None
    forbidden: str | None
    hands: list[list[str]]
    turn: int
    met_now: list[list[str]]
    played: list[list[str]]
    deck: int
    deck_in_order: bool
    unseen: int
    moves_made: int
    winners: list[int]
    end: str | None
    deck_cards: list[str] | None = None


def show(state: GameState) -> ShowResult:
    blocks = state.blocks
    r = blocks.rules
    return ShowResult(
        podium_dict(r, blocks.stacks), [r.characters[b] for b in blocks.out_of_play()],
        None if blocks.last is None else format_move(r, blocks.last),
        forbidden_move(blocks), [cards_text(r, h) for h in state.hands], state.turn,
        [cards_text(r, state.met_now(p)) for p in range(len(state.hands))],
        [cards_text(r, pile) for pile in state.played], state.deck_count,
        state.deck is not None, len(state.unseen()) if state.hands else 0,
        state.moves_made, [p + 1 for p in state.winners()], state.end(),
        None if state.deck_cards is None else cards_text(r, state.deck_cards))


@dataclass
class MovesNotes:
    """What `moves` says besides the moves: the move the no-reversal rule forbids now,
    in words (None: none is)."""

    forbidden: str | None


@dataclass
class MoveInfo:
    """One legal move: its text, its file form, and the stacks after it."""

    move: str
    block: str
    source: str
    target: str
    after: dict[str, list[str]]


def move_info(rules: Rules, move: Move, stacks: Stacks, after: Stacks) -> MoveInfo:
    d = move_dict(rules, move)
    return MoveInfo(format_move(rules, move, stacks), d["block"], d["from"], d["to"],
                    podium_dict(rules, after))
