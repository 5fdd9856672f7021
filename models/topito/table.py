"""Topito at the table: hands, the deck, "photo time!", played cards and the winner
(pure Python, the reference for the game; rules.py holds the blocks and the cards).

A game state is the blocks (rules.State) plus the players' hands of up to 4 cards,
each player's played pile (face up), the deck, whose turn it is and how many moves were
made. After every move comes photo time: in seat order from the mover, every player
whose hand cards the stacks meet plays all of them at once and refills to 4 from the
deck; a freshly drawn card the stacks meet is played at once and refilled again (a
chain). The first player to have played 7 cards wins; players who reach 7 in the same
photo time all win.

What a state may leave unknown (a player's view, a position file):
- a hand card as None ("?" in files): a card its reader has not seen;
- the deck's order (`deck` None, `deck_count` cards): then every card drawn is a chance
  event whose outcomes are the distinct unseen cards, each with probability
  copies/unseen. A dealt game has the deck in order and drawing is part of the move;
- the deck's order only (`deck` None, `deck_cards` the deck's cards as a multiset): a
  draw is a chance event over those cards, and the unknown hand cards are the unseen
  cards that are not in the deck.

Choices the rulebook leaves open (docs/topito.md):
- an empty deck refills nothing; the game ends in a draw when no player can still
  reach 7 (played + cards in hand < 7 for everyone), or after `move_limit` moves;
- the penalty for knocking blocks over is a matter of dexterity, outside the game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from models.topito.rules import Card, Move, Rules, State, format_move, load_deck, load_rules
from solver.errors import BadInput

HAND_SIZE = 4
CARDS_TO_WIN = 7
# A game not won after this many moves ends in a draw: policies that circle around
# without meeting their cards would otherwise play for ever.
MOVE_LIMIT = 400
MIN_PLAYERS, MAX_PLAYERS = 2, 5

Hand = tuple[Card | None, ...]  # None: a card this state's reader does not know


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


@dataclass(frozen=True)
class GameState:
    """One moment of a game.

    hands: one per player (none in a position of the blocks only); played: each
    player's played pile in the order played; deck: top card first, or None when its
    order is unknown (`deck_count` cards either way); turn: the player to move next
    (from 0); photo_queue: the players whose photo time after the last move is not
    over, the first of them still drawing `draws_due` cards from a deck of unknown
    order (a chance event; empty whenever a player is to move); deck_cards: when the
    deck's order is unknown but its cards are known, those cards (a multiset in deck
    file order), else None."""

    rules: GameRules = field(repr=False, compare=False, hash=False)
    blocks: State
    hands: tuple[Hand, ...] = ()
    played: tuple[tuple[Card, ...], ...] = ()
    deck: tuple[Card, ...] | None = None
    deck_count: int = 0
    turn: int = 0
    moves_made: int = 0
    photo_queue: tuple[int, ...] = ()
    draws_due: int = 0
    deck_cards: tuple[Card, ...] | None = None

    # ------------------------------------------------------------------ the players

    @property
    def players(self) -> int:
        """Seats at the table (a position of the blocks only has one, with no cards)."""
        return max(1, len(self.hands))

    @property
    def chance_due(self) -> bool:
        """A card is drawn next (from a deck of unknown order, or in a determinized
        view of such a moment)."""
        return bool(self.photo_queue)

    def winners(self) -> list[int]:
        """The players with 7 played cards (after photo time is over)."""
        if self.photo_queue:
            return []
        return [p for p, pile in enumerate(self.played)
                if len(pile) >= self.rules.cards_to_win]

    def end(self) -> str | None:
        """Why the game is over ("won", "deck ran out", "move limit"), or None."""
        if not self.hands or self.photo_queue:
            return None
        if self.winners():
            return "won"
        if self.deck_count == 0 and all(
                len(pile) + len(hand) < self.rules.cards_to_win
                for pile, hand in zip(self.played, self.hands, strict=True)):
            return "deck ran out"
        if self.moves_made >= self.rules.move_limit:
            return "move limit"
        return None

    def met_now(self, player: int) -> list[Card]:
        """The known cards of `player`'s hand that the stacks meet."""
        stacks = self.blocks.stacks
        return [c for c in self.hands[player] if c is not None and c.met(stacks)]

    # ------------------------------------------------------------------ the cards

    def unseen(self) -> list[Card]:
        """The cards of the deck file that this state does not place: the deck when its
        cards are unknown, and the unknown hand cards (deck order; a known card that is
        not in the deck file is taken as given and not counted against it)."""
        left = Counter(self.rules.deck)
        known: list[Card] = [c for pile in self.played for c in pile]
        known += [c for hand in self.hands for c in hand if c is not None]
        if self.deck is not None:
            known += self.deck
        if self.deck_cards is not None:
            known += self.deck_cards
        for c in known:
            if left[c] > 0:
                left[c] -= 1
        return sorted(left.elements(), key=self.rules.order)

    def unknown_cards(self) -> int:
        """How many hand cards are unknown."""
        return sum(c is None for hand in self.hands for c in hand)

    def hand_pool(self) -> list[Card]:
        """The cards the unknown hand cards are drawn from, as `determinize` draws them
        (every unknown hand card equally likely to be any of them, the unknown cards
        together a uniform draw without replacement): the unseen cards the stacks do not
        meet now (a met card would have been played at the last photo time), or every
        unseen card when those are too few. Deck file order."""
        unseen = self.unseen()
        stacks = self.blocks.stacks
        unmet = [c for c in unseen if not c.met(stacks)]
        return unmet if len(unmet) >= self.unknown_cards() else unseen

    def draw_outcomes(self) -> list[tuple[Card, float]]:
        """The card drawn next, with its probability: the top card of a deck in order,
        else every distinct unseen card with copies / unseen (by symmetry, the drawn
        card is any unseen card with the same chance)."""
        if not self.photo_queue:
            return []
        if self.deck is not None:
            return [(self.deck[0], 1.0)]
        counts = Counter(self.unseen() if self.deck_cards is None else self.deck_cards)
        total = sum(counts.values())
        return [(c, k / total) for c, k in sorted(counts.items(),
                                                  key=lambda kv: self.rules.order(kv[0]))]

    # ------------------------------------------------------------------ play

    def legal_moves(self) -> list[Move]:
        """The moves of the player to move (none at a chance event or at the end)."""
        if self.photo_queue or self.end() is not None:
            return []
        return self.blocks.legal_actions()

    def why_illegal(self, move: Move) -> str | None:
        if self.end() is not None:
            return "the game is over"
        if self.photo_queue:
            return "photo time is not over: a card is drawn first"
        return self.blocks.why_illegal(move)

    def move(self, move: Move) -> GameState:
        """The state after the player to move makes `move` and photo time is played
        out as far as the deck's order is known (a new state; BadInput if illegal)."""
        why = self.why_illegal(move)
        if why:
            text = format_move(self.blocks.rules, move, self.blocks.stacks)
            raise BadInput(f"illegal move {text}: {why}")
        blocks = self.blocks.apply_action(move)
        n = self.players
        mover = self.turn
        state = replace(self, blocks=blocks, turn=(mover + 1) % n,
                        moves_made=self.moves_made + 1,
                        photo_queue=tuple(seats_from(mover, len(self.hands))),
                        draws_due=0)
        return state.photo_time()

    def draw(self, card: Card) -> GameState:
        """The state after the drawing player (photo_queue[0]) draws `card` (BadInput
        if no card is drawn now or this one cannot be)."""
        if not self.photo_queue:
            raise BadInput("no card is drawn now")
        if card not in {c for c, _ in self.draw_outcomes()}:
            raise BadInput(f"'{card.text(self.blocks.rules)}' cannot be drawn: it is "
                           "not among the unseen cards")
        p = self.photo_queue[0]
        deck = None if self.deck is None else self.deck[1:]
        deck_cards = self.deck_cards
        if deck_cards is not None:
            i = deck_cards.index(card)
            deck_cards = deck_cards[:i] + deck_cards[i + 1:]
        state = replace(self, hands=_with(self.hands, p, self.hands[p] + (card,)),
                        deck=deck, deck_count=self.deck_count - 1,
                        draws_due=self.draws_due - 1, deck_cards=deck_cards)
        return state.photo_time()

    def photo_time(self) -> GameState:
        """Play photo time out: for each queued player in turn, play every met card,
        refill, and play the drawn cards the stacks meet (again and again); stop at a
        card drawn from a deck of unknown order (a chance event)."""
        state = self
        stacks = self.blocks.stacks
        while state.photo_queue:
            p = state.photo_queue[0]
            if state.draws_due:
                if state.deck is None:
                    return state  # chance: which card is drawn
                k = state.draws_due
                state = replace(state, hands=_with(state.hands, p,
                                                   state.hands[p] + state.deck[:k]),
                                deck=state.deck[k:], deck_count=state.deck_count - k,
                                draws_due=0)
            hand = state.hands[p]
            met = [c for c in hand if c is not None and c.met(stacks)]
            if not met:
                state = replace(state, photo_queue=state.photo_queue[1:])
                continue
            keep = tuple(c for c in hand if c is None or not c.met(stacks))
            state = replace(state, hands=_with(state.hands, p, keep),
                            played=_with(state.played, p, state.played[p] + tuple(met)),
                            draws_due=min(state.rules.hand_size - len(keep),
                                          state.deck_count))
        return state

    # ------------------------------------------------------------------ information

    def observation(self, player: int) -> GameState:
        """What `player` knows: the blocks, every played pile, their own hand, the
        other hands' sizes and the deck's size (not its cards, not its order)."""
        hands = tuple(h if p == player else (None,) * len(h)
                      for p, h in enumerate(self.hands))
        return replace(self, hands=hands, deck=None, deck_cards=None)

    def determinize(self, rng: random.Random) -> GameState:
        """A full state consistent with this one: unknown hand cards and the deck's
        order drawn uniformly from the unseen cards. A hand card the stacks meet now
        would have been played at the last photo time, so unknown hand cards are drawn
        from the unseen cards the stacks do not meet (while there are enough: `hand_pool`).
        When the deck's cards are known (`deck_cards`), the unknown hand cards are the
        unseen cards and the deck is its cards shuffled."""
        unseen = self.unseen()
        rng.shuffle(unseen)
        stacks = self.blocks.stacks
        unmet = [c for c in unseen if not c.met(stacks)]
        if len(unmet) < self.unknown_cards():
            unmet = list(unseen)
        chosen: list[Card] = unmet[:self.unknown_cards()]
        rest = Counter(unseen)
        rest.subtract(chosen)
        fill = iter(chosen)
        hands = tuple(tuple(next(fill) if c is None else c for c in hand)
                      for hand in self.hands)
        deck = self.deck
        if deck is None and self.deck_cards is not None:
            shuffled = list(self.deck_cards)
            rng.shuffle(shuffled)
            deck = tuple(shuffled)
        elif deck is None:
            deck = tuple(c for c in unseen if _take(rest, c))
        return replace(self, hands=hands, deck=deck, deck_count=len(deck),
                       deck_cards=None)


def _take(counter: Counter, card: Card) -> bool:
    """Take one copy of `card` from `counter` if it holds one."""
    if counter[card] > 0:
        counter[card] -= 1
        return True
    return False


def _with(items: tuple, i: int, value: object) -> tuple:
    return items[:i] + (value,) + items[i + 1:]


def new_game(rules: GameRules, players: int, rng: random.Random,
             reversal_rule: bool = True) -> GameState:
    """A game dealt from `rng`: the deck shuffled, 4 cards to each player in seat order
    from the top, every block out of play, player 0 to move."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadInput(f"--players: {players}; Topito is played by {MIN_PLAYERS} to "
                       f"{MAX_PLAYERS} players")
    deck = list(rules.deck)
    if len(deck) < players * rules.hand_size:
        raise BadInput(f"the deck has {len(deck)} cards, too few to deal "
                       f"{rules.hand_size} to {players} players (give --deck)")
    rng.shuffle(deck)
    k = rules.hand_size
    hands = tuple(tuple(deck[p * k:(p + 1) * k]) for p in range(players))
    rest = tuple(deck[players * k:])
    blocks = State(rules.rules, ((),) * rules.rules.n_podiums, None, reversal_rule)
    return GameState(rules, blocks, hands, ((),) * players, rest, len(rest))


def seats_from(mover: int, players: int) -> Iterable[int]:
    """Seat order from the mover: the order of photo time."""
    return ((mover + i) % players for i in range(players))


def cards_text(rules: Rules, cards: Sequence[Card | None]) -> list[str]:
    """Cards in their text form, "?" for an unknown one."""
    return ["?" if c is None else c.text(rules) for c in cards]
