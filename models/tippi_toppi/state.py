"""Tippi Toppi game states, the legal moves and the chance events: the reference engine.

Rulebook: /work/shared/rulebooks/tippi-toppi-cards.de.txt. A card may go on a pile whose
top card has the same colour or the same number. After a play, fulfilled open tasks leave
and new ones are turned up until four lie open; a task that holds as it is turned up is
fulfilled at once. Then the player draws a card if any remain. The game is won when every
task is fulfilled and lost when the player on turn cannot play (High Speed: nobody can).

A state is immutable: every move gives a new state (`apply_action`, `step`), and its
lists are never changed once it is made (`but` makes a changed one). Legality is checked
here and only here: `check_play` for the rules, `act` for the one-at-a-time order of
solver.game's description.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from models.tippi_toppi.rules import Card, Rules
from models.tippi_toppi.tasks import Task, Tops
from solver.errors import BadInput

# --------------------------------------------------------------------------- moves

@dataclass(frozen=True)
class Variant:
    """Rule switches: High Speed (no turn order, anyone may play), open hands (Kids)."""

    high_speed: bool = False
    open_hands: bool = False


@dataclass(frozen=True)
class Play:
    """`player` puts `card` on pile `pile` (0-based)."""

    player: int
    card: Card
    pile: int


@dataclass(frozen=True)
class Pass:
    """High Speed: `player`, who has the initiative, hands it on to the next player."""

    player: int


@dataclass(frozen=True)
class Draw:
    """Chance: `card` is drawn from a draw pile whose order is unknown; None: a card
    nobody at the table sees is drawn into a hidden hand (it joins it as a '?')."""

    card: Card | None


@dataclass(frozen=True)
class TurnUp:
    """Chance: `task` is turned up from a task pile whose tasks are unknown."""

    task: Task


Action = Play | Pass | Draw | TurnUp
DRAW, TURN_UP = "draw", "turn up"  # the chance events


@dataclass(frozen=True)
class GameState:
    """A game in progress. Hidden parts: hand cards given as None, a draw pile whose
    order is unknown (`draw_pile` None, `draw_count` cards), and `hidden_tasks` task
    cards below the known `task_pile` whose tasks are unknown.

    `turn` is the player on turn (from 0); in High Speed anyone may play, and `turn` is
    the player who has the initiative (who acts next, one at a time, in the game's
    description: solver.game). `drawer` is the player who still draws a card from a
    draw pile of unknown order (a chance event); a task to turn up from an unknown task
    pile is due when fewer tasks lie open than the rules ask and hidden tasks remain."""

    rules: Rules
    piles: list[list[Card]]
    hands: list[list[Card | None]]
    turn: int
    open_tasks: list[Task]
    task_pile: list[Task]
    draw_pile: list[Card] | None
    draw_count: int
    variant: Variant = Variant()
    hidden_tasks: int = 0
    fulfilled: list[Task] = field(default_factory=list)
    history: list[Play] = field(default_factory=list)
    drawer: int | None = None

    def but(self, **changes: Any) -> GameState:
        """The same state with some fields replaced (a new state; this one is kept)."""
        return replace(self, **changes)

    # -- views
    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def tops(self) -> Tops:
        return tuple(p[-1] for p in self.piles)

    def tasks_left(self) -> int:
        return len(self.open_tasks) + len(self.task_pile) + self.hidden_tasks

    def is_won(self) -> bool:
        return self.tasks_left() == 0

    def chance_due(self) -> str | None:
        """TURN_UP when a task of unknown text is turned up next, DRAW when `drawer`
        draws a card of unknown order next, None when no chance event is due."""
        if self.hidden_tasks and len(self.open_tasks) < self.rules.open_tasks:
            return TURN_UP
        if self.drawer is not None:
            return DRAW
        return None

    def movers(self) -> list[int]:
        """Who may play now by the rules: the player on turn, or everybody in High Speed."""
        return list(range(self.players)) if self.variant.high_speed else [self.turn]

    def plays_of(self, player: int, unseen: bool = False) -> list[Play]:
        """The legal plays of `player` with the cards known in their hand (by card, then
        pile), whether or not it is their turn. `unseen`: a hidden card ('?') of the hand
        may be any card not seen anywhere, so those are played too (revealing it)."""
        out = []
        tops = self.tops
        cards = {c for c in self.hands[player] if c is not None}
        if unseen and None in self.hands[player]:
            cards.update(self.unseen_cards())
        for card in sorted(cards):
            for p, top in enumerate(tops):
                if card[0] == top[0] or card[1] == top[1]:
                    out.append(Play(player, card, p))
        return out

    def legal_plays(self, unseen: bool = False) -> list[Play]:
        """Every legal play of the players who may play now (none once the game is won
        or while a chance event is due), with known cards (`unseen`: hidden cards as any
        unseen card too, as `plays_of`)."""
        if self.is_won() or self.chance_due():
            return []
        return [play for player in self.movers() for play in self.plays_of(player, unseen)]

    def is_lost(self) -> bool:
        """Nobody who may play can play: no known card fits, and no card a hidden card
        may be (a card not seen anywhere) fits either."""
        if self.is_won() or self.chance_due():
            return False
        return not self.legal_plays(unseen=True)

    def is_terminal(self) -> bool:
        return self.is_won() or self.is_lost()

    def status(self) -> str:
        """won, lost or playing."""
        return "won" if self.is_won() else "lost" if self.is_lost() else "playing"

    def may_pass(self) -> bool:
        """High Speed: the player with the initiative may hand it on when they cannot
        play or another player holds a card (hand sizes are seen by all)."""
        if not self.variant.high_speed or self.players == 1 or self.is_terminal():
            return False
        return (not self.plays_of(self.turn, unseen=True)
                or any(self.hands[q] for q in range(self.players) if q != self.turn))

    def actions(self) -> list[Play | Pass]:
        """What the player on turn (High Speed: with the initiative) may do: their legal
        plays (a hidden card played as any unseen card: `plays_of`), and in High Speed
        passing the initiative on."""
        if self.is_won() or self.chance_due():
            return []
        out: list[Play | Pass] = list(self.plays_of(self.turn, unseen=True))
        if self.may_pass():
            out.append(Pass(self.turn))
        return out

    def holds(self, task: Task) -> bool:
        return task.holds(self.tops, self.rules)

    # -- chance
    def unseen_tasks(self) -> list[Task]:
        """The catalogue tasks not seen yet: what a task of unknown text may be."""
        seen = set(self.open_tasks) | set(self.task_pile) | set(self.fulfilled)
        return [t.task for t in self.rules.catalogue if t.task not in seen]

    def draw_unseen(self) -> bool:
        """The card due to be drawn goes into a hand with hidden cards: the reader of
        the position (who does not see that hand) does not see it either."""
        return self.drawer is not None and None in self.hands[self.drawer]

    def chance_outcomes(self) -> list[tuple[Draw | TurnUp, float]]:
        """The outcomes of the chance event due and their probabilities: every unseen
        catalogue task alike; every distinct unseen card by its count (a card drawn from
        a pile nobody has seen in order is any unseen card with equal chance); into a
        hidden hand, the one outcome "a card not seen" (Draw(None))."""
        due = self.chance_due()
        if due == TURN_UP:
            tasks = self.unseen_tasks()
            return [(TurnUp(t), 1 / len(tasks)) for t in tasks]
        if due == DRAW and self.draw_unseen():
            return [(Draw(None), 1.0)]
        if due == DRAW:
            unseen = Counter(self.unseen_cards())
            total = sum(unseen.values())
            return [(Draw(c), k / total) for c, k in sorted(unseen.items())]
        return []

    def chance_text(self) -> str:
        """The chance event due, in words."""
        due = self.chance_due()
        if due == TURN_UP:
            return "a task is turned up"
        if due == DRAW:
            unseen = " (not seen)" if self.draw_unseen() else ""
            return f"player {self.drawer + 1} draws a card{unseen}"  # type: ignore[operator]
        return "nothing"

    # -- moves
    def check_play(self, play: Play) -> None:
        """BadInput naming why a play is not legal here."""
        r = self.rules
        if self.is_won():
            raise BadInput("the game is already won")
        if self.chance_due():
            raise BadInput(f"chance acts first: {self.chance_text()}")
        if not 0 <= play.player < self.players:
            raise BadInput(f"there is no player {play.player + 1}")
        if play.player not in self.movers():
            raise BadInput(f"player {play.player + 1} is not on turn "
                           f"(player {self.turn + 1} is)")
        hand = self.hands[play.player]
        if play.card not in hand:
            if None not in hand:
                raise BadInput(f"player {play.player + 1} has no {r.card_name(play.card)}")
            if play.card not in self.unseen_cards():
                raise BadInput(f"player {play.player + 1} cannot hold "
                               f"{r.card_name(play.card)}: every copy is seen elsewhere "
                               "(on the piles or in a known hand)")
        if not 0 <= play.pile < r.piles:
            raise BadInput(f"there is no pile {play.pile + 1}")
        top = self.piles[play.pile][-1]
        if play.card[0] != top[0] and play.card[1] != top[1]:
            raise BadInput(f"{r.card_name(play.card)} matches neither colour nor number of "
                           f"pile {play.pile + 1} ({r.card_name(top)})")

    def step(self, action: Action) -> tuple[GameState, list[Task]]:
        """The state after `action` and the tasks it fulfilled (BadInput naming why it
        is not legal). A play fulfils the open tasks that hold after it and turned-up
        tasks that hold at once; the player then draws if cards remain: the top card of
        a known draw pile at once, from a pile of unknown order by a chance event."""
        if isinstance(action, Play):
            return _played(self, action)
        if isinstance(action, Pass):
            return _passed(self, action.player), []
        if isinstance(action, Draw):
            return _drawn(self, action.card), []
        if isinstance(action, TurnUp):
            return _turned_up(self, action.task)
        raise BadInput(f"{action!r} is not a Tippi Toppi action")

    def apply_action(self, action: Action) -> GameState:
        """The state after `action` by the rules (High Speed: any player's play)."""
        return self.step(action)[0]

    def act(self, action: Action) -> GameState:
        """The state after the action of whoever acts next in solver.game's description,
        where the players act one at a time (High Speed: the player with the initiative
        plays or passes): `apply_action`, once the action is theirs to take."""
        if isinstance(action, (Play, Pass)):
            if self.is_won():
                raise BadInput("the game is over: every task is fulfilled")
            if self.chance_due():
                raise BadInput(f"chance acts first: {self.chance_text()}")
            if action.player != self.turn:
                raise BadInput(f"player {action.player + 1} does not act now "
                               f"(player {self.turn + 1} does)")
            if isinstance(action, Pass) and self.is_lost():
                raise BadInput("the game is over: nobody can play")
        return self.apply_action(action)

    # -- what is known
    def known_cards(self) -> Counter:
        """Cards whose place is known: piles, visible hand cards, a known draw pile."""
        seen = Counter(c for p in self.piles for c in p)
        seen.update(c for h in self.hands for c in h if c is not None)
        if self.draw_pile is not None:
            seen.update(self.draw_pile)
        return seen

    def unseen_cards(self) -> list[Card]:
        """The cards of the deck not known anywhere (hidden hand cards and an unknown
        draw pile are made of these)."""
        left = Counter(self.rules.deck)
        left.subtract(self.known_cards())
        return sorted(left.elements())

    def fully_known(self) -> bool:
        return (self.draw_pile is not None and self.hidden_tasks == 0
                and all(c is not None for h in self.hands for c in h))

    def seen_by(self, player: int) -> GameState:
        """What `player` may know at the table: the piles, the open and fulfilled tasks,
        the plays made, their own hand and every hand's size; the other hands only with
        open hands (Kids); the draw pile as a count (its order unknown) and the task
        pile as a number of unknown tasks."""
        hands = [list(h) if self.variant.open_hands or q == player else [None] * len(h)
                 for q, h in enumerate(self.hands)]
        return self.hiding_piles(hands=hands)

    def hiding_piles(self, **changes: Any) -> GameState:
        """The state with the draw pile's order and the task pile's tasks unknown (and
        `changes`): what nobody sees at the table."""
        return replace(self, draw_pile=None, task_pile=[],
                       hidden_tasks=self.hidden_tasks + len(self.task_pile), **changes)


# --------------------------------------------------------------------------- the engine
# Each function checks its move and builds the state after it from copies of the lists
# it changes (the state before is kept as it was).

def _played(s: GameState, play: Play) -> tuple[GameState, list[Task]]:
    s.check_play(play)
    hands = [list(h) for h in s.hands]
    piles = [list(p) for p in s.piles]
    # a card not known in the hand is a hidden one revealed (check_play allows it)
    hands[play.player].remove(play.card if play.card in hands[play.player] else None)
    piles[play.pile].append(play.card)
    after = replace(s, piles=piles, hands=hands, history=[*s.history, play])
    after, done = settled(after)
    draw_pile, draw_count, drawer = after.draw_pile, after.draw_count, after.drawer
    if draw_count > 0:
        if draw_pile is not None:
            draw_pile = list(draw_pile)
            hands[play.player].append(draw_pile.pop(0))
            draw_count -= 1
        else:
            drawer = play.player
    return replace(after, draw_pile=draw_pile, draw_count=draw_count, drawer=drawer,
                   turn=(play.player + 1) % s.players), done


def _passed(s: GameState, player: int) -> GameState:
    if not s.variant.high_speed:
        raise BadInput("only High Speed lets a player pass")
    if player != s.turn:
        raise BadInput(f"player {player + 1} does not have the initiative "
                       f"(player {s.turn + 1} has)")
    if not s.may_pass():
        raise BadInput(f"player {player + 1} cannot pass here")
    return replace(s, turn=(player + 1) % s.players)


def _drawn(s: GameState, card: Card | None) -> GameState:
    if s.chance_due() != DRAW:
        raise BadInput("no card is to be drawn now")
    who = f"player {s.drawer + 1}"  # type: ignore[operator]
    if card is None and not s.draw_unseen():
        raise BadInput(f"{who}'s hand is known: name the card drawn (draw ? is a draw "
                       "into a hidden hand)")
    if card is not None and s.draw_unseen():
        raise BadInput(f"{who}'s hand is hidden: the card drawn is not seen (draw ?)")
    if card is not None and card not in s.unseen_cards():
        raise BadInput(f"{s.rules.card_name(card)} cannot be drawn: every copy "
                       "is seen elsewhere")
    hands = [list(h) for h in s.hands]
    hands[s.drawer].append(card)  # type: ignore[index]
    return replace(s, hands=hands, draw_count=s.draw_count - 1, drawer=None)


def _turned_up(s: GameState, task: Task) -> tuple[GameState, list[Task]]:
    """`task` turned up from the unknown task pile; fulfilled at once if it holds."""
    if s.chance_due() != TURN_UP:
        raise BadInput("no task is to be turned up now")
    if task not in s.unseen_tasks():
        raise BadInput(f"'{task.text(s.rules)}' is not an unseen task of the "
                       "catalogue")
    if s.holds(task):
        return replace(s, hidden_tasks=s.hidden_tasks - 1,
                       fulfilled=[*s.fulfilled, task]), [task]
    return replace(s, hidden_tasks=s.hidden_tasks - 1, open_tasks=[*s.open_tasks, task]), []


def settled(s: GameState) -> tuple[GameState, list[Task]]:
    """Fulfilled open tasks leave; new ones are turned up from the known task pile until
    four lie open, and those that hold at once leave too (rulebook: 'gilt sie sofort als
    erledigt'). Tasks of unknown text are turned up by chance events. Returns the state
    and the tasks fulfilled."""
    tops, rules = s.tops, s.rules
    done = [t for t in s.open_tasks if t.holds(tops, rules)]
    still = [t for t in s.open_tasks if not t.holds(tops, rules)]
    pile = list(s.task_pile)
    while len(still) < rules.open_tasks and pile:
        t = pile.pop(0)
        (done if t.holds(tops, rules) else still).append(t)
    return replace(s, open_tasks=still, task_pile=pile, fulfilled=[*s.fulfilled, *done]), done


# --------------------------------------------------------------------------- new games

def deal(rules: Rules, players: int, difficulty: int, rng: random.Random,
         variant: Variant = Variant(), max_level: int | None = None,
         task_count: str = "total") -> GameState:
    """A game dealt from `rng`: four piles with one card each, hands of `hand_size`, the
    number of tasks from the rulebook's table (`task_count`: the table counts every task,
    or the task pile without the open tasks) drawn from the catalogue, four turned up
    (tasks that already hold when turned up at the start are fulfilled at once, as in
    play); the draw pile and the task pile in order (a full state)."""
    deck = list(rules.deck)
    rng.shuffle(deck)
    piles = [[deck.pop()] for _ in range(rules.piles)]
    hands: list[list[Card | None]] = [[deck.pop() for _ in range(rules.hand_size)]
                                      for _ in range(players)]
    pool = [t.task for t in rules.catalogue if max_level is None or t.level <= max_level]
    n = rules.tasks_in_game(players, difficulty, task_count)
    if n > len(pool):
        raise BadInput(f"the catalogue has only {len(pool)} tasks, the game needs {n}")
    tasks = rng.sample(pool, n)
    return settled(GameState(rules, piles, hands, 0, [], tasks, deck, len(deck), variant))[0]


def new_game(rules: Rules, players: int, difficulty: int, seed: int,
             variant: Variant = Variant(), max_level: int | None = None,
             task_count: str = "total") -> GameState:
    """The game dealt from random.Random(seed)."""
    return deal(rules, players, difficulty, random.Random(seed), variant, max_level,
                task_count)


def sample_hidden(state: GameState, rng: random.Random, pool: Sequence[Task] = ()
                  ) -> GameState:
    """A full-information state consistent with what is known, drawn uniformly: hidden
    hand cards and an unknown draw pile dealt from the unseen cards, hidden tasks from
    `pool` (catalogue tasks not seen yet). A chance event that was due is resolved from
    the dealt piles (the drawer draws their top card; tasks are turned up)."""
    unseen = state.unseen_cards()
    rng.shuffle(unseen)
    # hidden hand cards first, in the order of the hands, from the end of the shuffle
    hands = [[unseen.pop() if c is None else c for c in h] for h in state.hands]
    draw = list(state.draw_pile) if state.draw_pile is not None else unseen[:state.draw_count]
    s = replace(state, hands=hands, draw_pile=draw)
    if s.hidden_tasks:
        seen = set(s.open_tasks) | set(s.task_pile) | set(s.fulfilled)
        candidates = [t for t in pool if t not in seen]
        if len(candidates) < s.hidden_tasks:
            raise BadInput(f"{s.hidden_tasks} hidden tasks but only {len(candidates)} "
                           "unseen tasks in the catalogue")
        s = replace(s, task_pile=s.task_pile + rng.sample(candidates, s.hidden_tasks),
                    hidden_tasks=0)
        if len(s.open_tasks) < s.rules.open_tasks:
            s = settled(s)[0]
    if s.drawer is not None:
        hands[s.drawer].append(draw.pop(0))
        s = replace(s, draw_count=s.draw_count - 1, drawer=None)
    return s
