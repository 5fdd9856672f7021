"""The hint: the fulfilling play first, with reasons; the next player's stuck hand seen
with open hands; fast enough; and the hint policy on what a player sees."""

from __future__ import annotations

import random
import time

from models.tippi_toppi.game import GAME
from models.tippi_toppi.hint import choose_hint, hint, ranked_plays
from models.tippi_toppi.positions import state_from_dict
from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.state import new_game

R = load_rules()


def endgame(piles, hands, tasks, draw=(), **variant):
    s = state_from_dict(R, {"piles": piles, "hands": hands, "open_tasks": tasks,
                            "variant": variant})
    return s.but(draw_pile=[R.parse_card(c) for c in draw], draw_count=len(draw))


def test_hint_puts_the_fulfilling_play_first_with_reasons():
    s = endgame(["G3", "P5", "O7", "V1"], [["G5", "O2", "V7", "P1"]],
                ["exactly 2 green piles", "a run of 4"], draw=["O4", "G1"])
    h = hint(s)
    best = h.options[0]
    assert best.play in ("G5>2",)
    assert best.fulfils == ["exactly 2 green piles"]
    assert len(h.options) == len(s.legal_plays())
    assert [o.score for o in h.options] == sorted((o.score for o in h.options), reverse=True)


def test_hint_avoids_leaving_the_next_player_stuck_with_open_hands():
    # player 2 holds only P2: V5 on the pink 5 leaves no pink pile and no 2
    s = endgame(["G3", "P5", "O7", "V1"], [["V5", "O4"], ["P2"]],
                ["a run of 4", "no orange piles"], open_hands=True)
    options = {o.play: o for o in hint(s).options}
    assert options["p1:V5>2"].next_stuck
    for text, o in options.items():
        play = next(a for a in s.legal_plays()
                    if f"p1:{R.card_name(a.card)}>{a.pile + 1}" == text)
        after = s.apply_action(play)
        stuck = not any(a.player == 1 for a in after.legal_plays())
        assert o.next_stuck is stuck
    assert any(o.next_stuck for o in options.values())
    assert not hint(s).options[0].next_stuck


def test_hint_within_a_second():
    worst = 0.0
    for seed in range(10):
        s = new_game(R, 4, 4, seed)
        start = time.perf_counter()
        hint(s)
        worst = max(worst, time.perf_counter() - start)
    assert worst < 1.0


def test_the_hint_policy_chooses_alike_on_the_observation_and_the_full_state():
    """The hint reads only the player's own view: on what the player sees it ranks the
    plays exactly as on the whole state (the simulated figures rest on this)."""
    compared = 0
    for seed in range(6):
        s = new_game(R, 2 + seed % 3, 1, seed)
        rng = random.Random(seed)
        for _ in range(12):
            if GAME.is_terminal(s):
                break
            legal = GAME.legal_actions(s)
            seen = GAME.observation(s, s.turn)
            assert seen.hands != s.hands  # the other hands are hidden
            full = [(p, o.score) for p, o in ranked_plays(s, legal)]
            assert [(p, o.score) for p, o in ranked_plays(seen, legal)] == full
            assert choose_hint(seen, legal, rng) == full[0][0]
            compared += 1
            s = GAME.apply_action(s, rng.choice(legal))
    assert compared > 30
