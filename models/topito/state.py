"""Topito's state and engine (pure Python, the reference for the game): the blocks on
the podiums and the moves (`State`, `Move`), and the game at the table (`GameState`):
hands, the deck, "photo time!", played cards and the winner. rules.py holds the rules
data (blocks, podiums, cards, the deck). Legality is checked here and only here
(`State.why_illegal`, `GameState.why_illegal` and `draw`); every state is frozen and a
move returns a new one.

The blocks: one stack per podium (bottom to top) plus the previous player's last move.
A move puts an out-of-play block on a podium, or lifts a block with everything above it
onto another podium; the no-reversal rule forbids the next player to lift the same block
straight back.

A game state is the blocks (`State`) plus the players' hands of up to 4 cards,
each player's played pile (face up), the deck, whose turn it is and how many moves were
made. After every move comes photo time: in seat order from the mover, every player
whose hand cards the stacks meet plays all of them at once and refills to 4 from the
deck; a freshly drawn card the stacks meet is played at once and refilled again (a
chain). The first player to have played 7 cards wins; players who reach 7 in the same
photo time all win.

What a state may leave unknown (a player's view, a position file):
- a hand card as None ("?" in files): a card its reader has not seen;
- the deck's order (`deck` None, `deck_count` cards): then every card drawn is a chance
  event whose outcomes are the distinct unseen cards, each with its chance over the
  deals that photo time leaves possible (photo.py: an unknown hand card is none of the
  cards met at a photo time it went through). A dealt game has the deck in order and
  drawing is part of the move;
- the deck's order only (`deck` None, `deck_cards` the deck's cards as a multiset): a
  draw is a chance event over those cards, and the unknown hand cards are the unseen
  cards that are not in the deck.
What photo time has shown (`photos`) is public: every view keeps it.

Choices the rulebook leaves open (docs/topito.md):
- an empty deck refills nothing; the game ends in a draw when no player can still
  reach 7 (played + cards in hand < 7 for everyone), or after `move_limit` moves;
- the penalty for knocking blocks over is a matter of dexterity, outside the game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from models.topito.photo import Deals, PhotoTimes
from models.topito.rules import MAX_PLAYERS, MIN_PLAYERS, Card, GameRules, Goal, Rules, Stacks
from solver.errors import BadInput

# The move the next player may not make: (block, podium) = "lift block onto podium".
Ban = tuple[int, int] | None
Hand = tuple[Card | None, ...]  # None: a card this state's reader does not know


# --------------------------------------------------------------------------- the blocks

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


# --------------------------------------------------------------------------- the table

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
    file order), else None; photos: the photo times the hand cards went through
    (photo.py), which rule out for an unknown hand card every card they met."""

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
    # what photo time has shown (photo.py): public, kept in every observation; not part
    # of what decides the game's future, so states compare without it
    photos: PhotoTimes = field(default=PhotoTimes(), compare=False)

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

    def draw_outcomes(self) -> list[tuple[Card, float]]:
        """The card drawn next, with its probability: the top card of a deck in order;
        from a deck whose cards are known, each card with copies / deck size; else
        every distinct unseen card with its chance over the deals photo time leaves
        possible (photo.Deals: a card that photo time ruled out for every unknown hand
        card is in the deck, and more likely on top)."""
        if not self.photo_queue:
            return []
        if self.deck is not None:
            return [(self.deck[0], 1.0)]
        if self.deck_cards is not None:
            counts = Counter(self.deck_cards)
            total = sum(counts.values())
            chances = [(c, k / total) for c, k in counts.items()]
        else:
            chances = [(c, float(p)) for c, p in Deals(self).draw_chances()]
        return sorted(chances, key=lambda cp: self.rules.order(cp[0]))

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
                        draws_due=0, photos=self.photos.moved(blocks.stacks))
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
                        draws_due=self.draws_due - 1, deck_cards=deck_cards,
                        photos=self.photos.drew(p, len(self.hands[p]), 1))
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
                drawn = state.deck[:k]
                state = replace(state, hands=_with(state.hands, p, state.hands[p] + drawn),
                                deck=state.deck[k:], deck_count=state.deck_count - k,
                                draws_due=0, photos=state.photos.drew(
                                    p, len(state.hands[p]), len(drawn)))
            hand = state.hands[p]
            # every card of the hand goes through this photo time
            photos = state.photos.went_through(p, len(hand))
            met = [c for c in hand if c is not None and c.met(stacks)]
            if not met:
                state = replace(state, photo_queue=state.photo_queue[1:], photos=photos)
                continue
            kept = [c is None or not c.met(stacks) for c in hand]
            keep = tuple(c for c, k in zip(hand, kept, strict=True) if k)
            state = replace(state, hands=_with(state.hands, p, keep),
                            played=_with(state.played, p, state.played[p] + tuple(met)),
                            draws_due=min(state.rules.hand_size - len(keep),
                                          state.deck_count),
                            photos=photos.kept(p, kept))
        return state

    # ------------------------------------------------------------------ information

    def observation(self, player: int) -> GameState:
        """What `player` knows: the blocks, every played pile, their own hand, the
        other hands' sizes and the deck's size (not its cards, not its order)."""
        hands = tuple(h if p == player else (None,) * len(h)
                      for p, h in enumerate(self.hands))
        return replace(self, hands=hands, deck=None, deck_cards=None)

    def determinize(self, rng: random.Random) -> GameState:
        """A full state consistent with this one, drawn uniformly with `rng` from the
        deals photo time leaves possible (photo.Deals): the unknown hand cards from the
        unseen cards, none a card met at a photo time it went through, and the rest as
        the deck in a shuffled order (a deck whose cards are known: those, shuffled; a
        deck in order: kept)."""
        if self.deck is not None and self.unknown_cards() == 0:
            return self
        cards, rest = Deals(self).sample(rng)
        hands = tuple(tuple(cards[(p, i)] if c is None else c for i, c in enumerate(hand))
                      for p, hand in enumerate(self.hands))
        if self.deck is not None:
            deck = self.deck
        elif self.deck_cards is not None:
            shuffled = list(self.deck_cards)
            rng.shuffle(shuffled)
            deck = tuple(shuffled)
        else:
            deck = tuple(rest)
        return replace(self, hands=hands, deck=deck, deck_count=len(deck),
                       deck_cards=None)


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
    photos = PhotoTimes((blocks.stacks,), 0, ((None,) * k,) * players)
    return GameState(rules, blocks, hands, ((),) * players, rest, len(rest), photos=photos)


def seats_from(mover: int, players: int) -> Iterable[int]:
    """Seat order from the mover: the order of photo time."""
    return ((mover + i) % players for i in range(players))
