"""What an achievability question asks, independent of the back-end: the cards that can
be played in K plays (who holds them, from which play on), who plays each step, and the
target tasks. Built from a GameState; the model (encode_logic.py) reads it on either
back-end.

Card knowledge (`--cards`):
- hand: only the hand of the player on turn, played by that player alone (the others'
  plays are not modelled, as in solo or High Speed; no drawn card is known);
- hands: every known hand card, in turn order (any player in High Speed); drawn cards
  are unknown, so they are not used;
- known: all hands and the draw pile known (its order too): the card drawn after play t
  belongs to the player who made it and can be played from play t+1 on.

A plan may stop before K plays (once its tasks are done, nothing forces more plays).
"""

from __future__ import annotations

from dataclasses import dataclass

from models.tippi_toppi.rules import Card
from models.tippi_toppi.state import GameState, Play, Variant
from models.tippi_toppi.tasks import PLACEHOLDER, Task, Tops
from solver.errors import BadInput

CARD_MODES = ("hand", "hands", "known")


@dataclass(frozen=True)
class Instance:
    """One physical card that may be played: its holder (None: anyone may play it, as
    in High Speed or a single-player plan) and the first play (1-based) it may be
    played in."""

    card: Card
    owner: int | None
    first: int


@dataclass(frozen=True)
class PlanProblem:
    """K plays from `tops`; step_player[t-1] is who makes play t (None: anyone)."""

    tops: Tops
    steps: int
    step_player: tuple[int | None, ...]
    instances: tuple[Instance, ...]
    targets: tuple[Task, ...]
    # tasks already open need a play to be fulfilled; extra --task targets may hold now
    may_hold_now: tuple[bool, ...]

    def usable(self, t: int, i: int) -> bool:
        """May instance i be played in play t (1-based)?"""
        inst = self.instances[i]
        who = self.step_player[t - 1]
        return inst.first <= t and (who is None or inst.owner is None or inst.owner == who)


def plan_problem(state: GameState, targets: list[Task], steps: int, cards: str = "known",
                 from_open: int | None = None) -> PlanProblem:
    """The question 'can `targets` all be fulfilled within `steps` plays' for `state`.
    The first `from_open` targets are the open tasks (they do not hold now)."""
    if cards not in CARD_MODES:
        raise BadInput(f"--cards must be one of {', '.join(CARD_MODES)}")
    if steps < 0:
        raise BadInput("--within must be at least 0")
    players = state.players
    fast = state.variant.high_speed
    instances: list[Instance] = []
    if cards == "hand":
        me = state.turn
        instances = [Instance(c, None, 1) for c in state.hands[me] if c is not None]
        step_player: list[int | None] = [None] * steps
    else:
        step_player = [None if fast or players == 1 else (state.turn + t) % players
                       for t in range(steps)]
        for p, hand in enumerate(state.hands):
            for c in hand:
                if c is not None:
                    instances.append(Instance(c, None if fast or players == 1 else p, 1))
        if cards == "known":
            if state.draw_pile is None:
                raise BadInput("the draw pile is not known (no 'draw_pile' in the file): "
                               "use --cards hand or --cards hands")
            if any(c is None for h in state.hands for c in h):
                raise BadInput("some hand cards are hidden ('?'): use --cards hand")
            for t in range(1, min(steps, len(state.draw_pile)) + 1):
                instances.append(Instance(state.draw_pile[t - 1], step_player[t - 1], t + 1))
    n_open = len(targets) if from_open is None else from_open
    return PlanProblem(state.tops, steps, tuple(step_player), tuple(instances),
                       tuple(targets), tuple(i >= n_open for i in range(len(targets))))


def replay_check(state: GameState, problem: PlanProblem, moves: list[tuple[Card, int]],
                 cards: str) -> tuple[list[Play], list[int | None]]:
    """Re-check a witness (card, pile per play) with the rules engine: every play legal
    (a 'hand' plan is replayed as if its player could play each time), and report for
    each target the play after which it first holds (0: now; None: never). Returns the
    plays with their players. Raises BadInput if a play is illegal (an encoding bug)."""
    s = state
    if cards != "known":  # drawn cards are not planned with
        s = s.but(draw_pile=[], draw_count=0, drawer=None)
    if cards == "hand":
        s = s.but(variant=Variant(high_speed=True, open_hands=s.variant.open_hands),
                  hands=[h if p == state.turn else [] for p, h in enumerate(s.hands)])
    # the targets are judged here; a placeholder keeps the engine from calling it won
    s = s.but(task_pile=[], open_tasks=[PLACEHOLDER], hidden_tasks=0)
    first: list[int | None] = [0 if ok and t.holds(s.tops, s.rules) else None
                               for t, ok in zip(problem.targets, problem.may_hold_now,
                                                strict=True)]
    plays = []
    for k, (card, pile) in enumerate(moves, 1):
        holders = [p for p in s.movers() if card in s.hands[p]]
        play = Play(holders[0] if holders else s.turn, card, pile)
        s = s.apply_action(play)  # raises BadInput when illegal
        plays.append(play)
        for j, t in enumerate(problem.targets):
            if first[j] is None and t.holds(s.tops, s.rules):
                first[j] = k
    return plays, first
