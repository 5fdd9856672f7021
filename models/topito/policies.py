"""Ways to play Topito for simulated games, each deciding on what its player sees (the
observation: own hand, the blocks, the played piles, the deck's size).

- random: any legal move;
- greedy: a move that meets the most own cards now; failing that, the move after which
  the most own cards can be met with one more move; ties drawn at random. A cheap
  one-move look-ahead (about 400 positions a turn).
- hint: the ranking of `toppi topito hint` (hint.choose_move): own cards met now and
  left one move away, the exact chances of handing another player a photo now and of
  leaving the next player one move from a card, then own distances two moves deep. The
  command's proven distances up to 8 moves (0.1-1 s a turn) are replaced by the exact
  one- and two-move tests of nearness.py, so that thousands of games stay cheap.
"""

from __future__ import annotations

import random

from models.topito.rules import Card, Stacks
from models.topito.state import GameState, Move, successors


def hint_choice(observation: GameState, legal: list[Move], rng: random.Random) -> Move:
    from models.topito.hint import choose_move

    return choose_move(observation, rng) or rng.choice(legal)


def random_choice(observation: GameState, legal: list[Move], rng: random.Random) -> Move:
    return rng.choice(legal)


def _met(cards: list[Card], stacks: Stacks) -> int:
    return sum(1 for c in cards if c.met(stacks))


def greedy_choice(observation: GameState, legal: list[Move], rng: random.Random) -> Move:
    cards = [c for c in observation.hands[observation.turn] if c is not None]
    if not cards:
        return rng.choice(legal)
    blocks = observation.blocks
    n = blocks.rules.n_blocks
    moves = [(Move(b, src, dst), after, None if src is None or not blocks.reversal_rule
              else (b, src))
             for b, src, dst, after in successors(blocks.stacks, blocks.ban, n)]
    scores = [_met(cards, after) for _, after, _ in moves]
    top = max(scores)
    if top == 0:
        # one move ahead: how many own cards some next move would meet
        scores = []
        for _, after, ban in moves:
            missing = cards
            for _b, _s, _d, later in successors(after, ban, n):
                missing = [c for c in missing if not c.met(later)]
                if not missing:
                    break
            scores.append(len(cards) - len(missing))
        top = max(scores)
    best = [m for (m, _, _), s in zip(moves, scores, strict=True) if s == top]
    return rng.choice(best)
