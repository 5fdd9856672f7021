"""The hint (which card on which pile, with its reasons) and the policies built on it.

The hint only uses what the player may know: the piles (all cards in them, the rulebook
lets players look through them), the open tasks, the own hand, how many cards every hand
and the draw pile hold, how many tasks are left — and the other hands when playing with
open hands (Kids variant) or when asked to read every hand (`open_hands=True`: the
all-seeing reference of `hint --open-hands` and `simulate --open-hands`, never the
default). It reads nothing else: not the order of the draw pile, not the task pile.
It does not sample: the shares below are counted exactly over the cards the player
cannot see (an exact expectation), so it needs no seed. Each legal play is scored by
- tasks fulfilled now (open tasks that hold after the play)            x 100
- tasks kept within reach: open tasks the own remaining cards can fulfil
  with one more play                                                    x 10
- piles kept playable: the share of the cards the others may hold (every
  card not on the piles and not in the own hand: the other hands and the
  draw pile) that fit some pile afterwards (so nobody is stuck)         x 30
- the own remaining cards that still fit some pile                      x 5
- tasks the others can help with: the share of the cards they may hold
  that would fulfil a remaining open task with their next play          x 150
- the next player stuck for sure (open hands: the next hand known)      -1000

The weights were compared on 300 seeded 2-player games (docs/notes/tippi-toppi.md): the
"others can help" term lifts the hint policy's win rate from 24 % to about 52 %.
Seeing the other hands adds only the "stuck for sure" check: the shares stay over every
card the others may play (counting them over the draw pile alone, as open hands did
before, lost 14-27 points of win rate, docs/notes/tippi-toppi.md).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass

from models.tippi_toppi.positions import format_play
from models.tippi_toppi.rules import Card
from models.tippi_toppi.state import Action, GameState, Play
from models.tippi_toppi.tasks import Tops
from solver.errors import BadInput

W_NOW, W_REACH, W_PLAYABLE, W_OWN, W_STUCK = 100, 10, 30, 5, 1000
W_TEAM = 150


@dataclass
class HintOption:
    """One play and why it scores what it scores."""

    play: str
    score: float
    fulfils: list[str]
    in_reach: list[str]
    others_help_share: float
    playable_share: float
    own_playable: int
    next_stuck: bool


@dataclass
class HintResult:
    """The ranked plays of `player`. `open_hands`: read every hand it was given (the
    all-seeing reference), else only what the player sees. `method`: how the unseen
    cards are weighed (counted exactly; `samples` 0: nothing is sampled)."""

    player: int
    options: list[HintOption]
    seconds: float
    open_hands: bool = False
    method: str = "exact"
    samples: int = 0


def fits(card: Card, tops: Tops) -> bool:
    """The card may go on one of the piles with these tops."""
    return any(card[0] == t[0] or card[1] == t[1] for t in tops)


def place(tops: Tops, card: Card, pile: int) -> Tops:
    """The tops after `card` goes on `pile`."""
    return tops[:pile] + (card,) + tops[pile + 1:]


def _sees_hands(state: GameState, open_hands: bool) -> bool:
    """Whether the hint reads the other hands: the Kids variant, or asked to."""
    return open_hands or state.variant.open_hands


def _view_unseen(state: GameState, player: int) -> list[Card]:
    """The cards the others hold or will draw, as `player` counts them: the deck less
    the piles and the own hand (whether or not the other hands are seen: seen or not,
    they are the cards the others may play next)."""
    left = Counter(state.rules.deck)
    left.subtract(c for p in state.piles for c in p)
    left.subtract(c for c in state.hands[player] if c is not None)
    return [c for c, n in left.items() if n > 0 for _ in range(n)]


def score_play(state: GameState, play: Play, unseen: list[Card] | None = None,
               open_hands: bool = False) -> HintOption:
    """The hint's score of one legal play, with its reasons (`open_hands`: the other
    hands read too)."""
    r = state.rules
    tops = place(state.tops, play.card, play.pile)
    open_tasks = state.open_tasks
    now = [t for t in open_tasks if t.holds(tops, r)]
    rest = [t for t in open_tasks if t not in now]
    hand = list(state.hands[play.player])
    hand.remove(play.card)
    known = [c for c in hand if c is not None]
    reach = []
    for t in rest:
        if any(t.holds(place(tops, c, p), r) for c in set(known)
               for p, top in enumerate(tops) if c[0] == top[0] or c[1] == top[1]):
            reach.append(t)
    if unseen is None:
        unseen = _view_unseen(state, play.player)
    share = sum(1 for c in unseen if fits(c, tops)) / len(unseen) if unseen else 1.0
    team = 0.0
    if rest and unseen:
        # how many of the cards others may hold could fulfil a remaining task next
        kinds = Counter(unseen)
        for c, k in kinds.items():
            if any(t.holds(place(tops, c, p), r) for p, top in enumerate(tops)
                   if c[0] == top[0] or c[1] == top[1] for t in rest):
                team += k
        team /= len(unseen)
    own = sum(1 for c in known if fits(c, tops))
    stuck = False
    if state.players > 1 and not state.variant.high_speed:
        nxt = (play.player + 1) % state.players
        other = [c for c in state.hands[nxt] if c is not None]
        if (_sees_hands(state, open_hands) and len(other) == len(state.hands[nxt])
                and not any(fits(c, tops) for c in other)):
            stuck = True
    elif state.draw_count == 0 and hand and not own:
        stuck = True  # alone (or High Speed), nothing left to draw and no own card fits
    won_now = len(now) == len(open_tasks) and not state.task_pile and not state.hidden_tasks
    score = (W_NOW * len(now) + W_REACH * len(reach) + W_PLAYABLE * share + W_OWN * own
             + W_TEAM * team
             - (0 if won_now else W_STUCK * stuck) + (10 * W_STUCK if won_now else 0))
    return HintOption(format_play(r, play, state.players), round(score, 3),
                      [t.text(r) for t in now], [t.text(r) for t in reach], round(team, 3),
                      round(share, 3), own, stuck)


def ranked_plays(state: GameState, plays: list[Play] | None = None,
                 open_hands: bool = False) -> list[tuple[Play, HintOption]]:
    """The plays (default: every legal play), best first (ties: their order); each
    scored on what its player sees (`open_hands`: every hand read)."""
    unseen_by: dict[int, list[Card]] = {}
    out = []
    for play in state.legal_plays() if plays is None else plays:
        if play.player not in unseen_by:
            unseen_by[play.player] = _view_unseen(state, play.player)
        out.append((play, score_play(state, play, unseen_by[play.player], open_hands)))
    out.sort(key=lambda x: -x[1].score)
    return out


def check_hand_known(state: GameState, what: str = "a hint") -> None:
    """BadInput unless every card of the player on turn is known."""
    hidden = state.hands[state.turn].count(None)
    if hidden:
        raise BadInput(f"the hand of player {state.turn + 1} (on turn) has {hidden} "
                       f"hidden card(s) ('?'): {what} needs every card of the player on "
                       "turn")


def hint(state: GameState, open_hands: bool = False) -> HintResult:
    """Which card on which pile: every legal play ranked, with its reasons. Give it
    what the player on turn sees (`GAME.observation`); `open_hands` reads every hand it
    is given (the all-seeing reference)."""
    start = time.perf_counter()
    if state.is_won():
        raise BadInput("the game is already won: no play needed")
    if state.chance_due():
        raise BadInput(f"chance acts first ({state.chance_text()}): no play is due")
    check_hand_known(state)
    options = [o for _, o in ranked_plays(state, open_hands=open_hands)]
    return HintResult(state.turn + 1, options, round(time.perf_counter() - start, 4),
                      open_hands)


def hint_at_table(state: GameState, open_hands: bool = False
                  ) -> tuple[GameState, HintResult]:
    """The hint `toppi tippi-toppi hint` gives on a position: on what the player on turn
    sees (their observation, even when `state` holds every hand), or with `open_hands`
    on the whole of `state` (the all-seeing reference). Returns (the state it read, the
    hint)."""
    if not state.is_won() and not state.chance_due():
        check_hand_known(state)
    used = state if open_hands else state.seen_by(state.turn)
    return used, hint(used, open_hands)


def best_play(state: GameState) -> Play:
    """The hint's first choice among every legal play."""
    return ranked_plays(state)[0][0]


# --------------------------------------------------------------------------- policies

def choose_hint(observation: GameState, legal: list[Action], rng: random.Random
                ) -> Action:
    """The hint policy: the best-scored of the player's legal plays, on what the player
    sees; it passes (High Speed) only when it cannot play. Handed the whole state (an
    all-seeing policy: `simulate --open-hands`) it reads every hand, as `hint
    --open-hands` does; an observation hides the other hands, so it reads its own."""
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return legal[0]
    return ranked_plays(observation, plays, open_hands=reads_every_hand(observation))[0][0]


def reads_every_hand(state: GameState) -> bool:
    """Every hand is known: the whole state (or an observation whose other hands are
    empty, where reading them changes no ranking)."""
    return all(None not in h for h in state.hands)


def choose_random(observation: GameState, legal: list[Action], rng: random.Random
                  ) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(legal)
