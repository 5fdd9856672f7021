"""The Hoch Hinaus! hint judges only from what the player on turn may know: the same
answer whatever the hidden tiles and tasks are, its sampled figures equal to the rules
engine on the same draws, and the all-seeing reading only behind --open-hands."""

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from models.hoch_hinaus.game import GAME
from models.hoch_hinaus.hint import hint
from models.hoch_hinaus.positions import position_json
from models.hoch_hinaus.state import Bonus, GameState, new_game
from tests.cli_helpers import assert_one_line_error, game_runner

DATA = GAME.load_rules(None)
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hoch-hinaus"


def dealt(seed: int, turns: int, players: int) -> GameState:
    """A seeded deal played `turns` random turns on (everything known)."""
    rng = random.Random(seed)
    g = new_game(DATA.rules, DATA.catalogue, players, "normal", rng)
    for _ in range(turns):
        acts = g.legal_actions()
        if g.status != "playing" or not acts:
            break
        g = g.apply_action(rng.choice(acts))
    return g


def redealt(g: GameState, seed: int) -> GameState:
    """The same position with everything the player on turn cannot see dealt anew:
    the other hands and the reserve from the same tiles, the draw pile and the bonus
    tasks under gap fillers from the same tasks."""
    rng = random.Random(seed)
    hands = [list(hand) for hand in g.hands]
    places = [(s, i) for s, hand in enumerate(hands) if s != g.on_turn
              for i in range(len(hand))]
    tiles = [hands[s][i] for s, i in places] + g.reserve
    rng.shuffle(tiles)
    for s, i in places:
        hands[s][i] = tiles.pop()
    bonus = list(g.bonus)
    hidden = [j for j, b in enumerate(bonus) if b.task is not None and b.fillers > 0]
    tasks = list(g.draw_pile) + [bonus[j].task for j in hidden]
    rng.shuffle(tasks)
    for j in hidden:
        bonus[j] = Bonus(tasks.pop(), bonus[j].fillers)
    return g.but(hands=hands, reserve=tiles, bonus=bonus, draw_pile=tasks)


def ranking(res):
    return [(o.placement["text"], round(o.score, 9), o.reason) for o in res.options]


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 12), players=st.integers(1, 4),
       other=st.integers(0, 10**6))
def test_hidden_tiles_and_tasks_change_nothing(seed, turns, players, other):
    a = dealt(seed, turns, players)
    if a.status != "playing":
        return
    b = redealt(a, other)
    p = a.on_turn
    assert GAME.write(GAME.observation(a, p)) == GAME.write(GAME.observation(b, p))
    ha = hint(GAME.observation(a, p), lookahead=False, samples=3, seed=3)
    hb = hint(GAME.observation(b, p), lookahead=False, samples=3, seed=3)
    assert ranking(ha) == ranking(hb) and ha.samples == 3
    # the hint names only the player's own tiles
    own = set(a.hands[p])
    assert {o.action.tile for o in ha.options} <= own
    hidden = {t for s, h in enumerate(a.hands) if s != p for t in h} | set(a.reserve)
    text = json.dumps([o.placement for o in ha.options]) + " ".join(o.reason for o in ha.options)
    assert not any(t in text for t in hidden)


def test_the_look_ahead_too_is_the_same_on_a_redealt_position():
    a = dealt(5, 8, 3)
    b = redealt(a, 9)
    p = a.on_turn
    # no clock: the SAT conflict budget alone bounds it, so the answer is exact to repeat
    ha = hint(GAME.observation(a, p), top=3, samples=4, seed=1)
    hb = hint(GAME.observation(b, p), top=3, samples=4, seed=1)
    assert ha.checked == 3 and ranking(ha) == ranking(hb)


def test_sampled_figures_are_the_engine_on_the_same_draws():
    """dead_end_chance and win_chance are the shares of the draws in which the rules
    engine, playing the placement, loses (the next player is stuck) or wins."""
    g = dealt(11, 10, 2)
    seen = GAME.observation(g, g.on_turn)
    res = hint(seen, lookahead=False, samples=8, seed=4)
    rng = random.Random(4)
    draws = [seen.determinise(rng) for _ in range(8)]
    judged = [o for o in res.options if o.samples == 8]
    assert judged
    for o in judged:
        after = [d.apply_action(o.action) for d in draws]
        assert o.dead_end_chance == sum(x.status == "lost" for x in after) / 8
        assert o.win_chance == sum(x.status == "won" for x in after) / 8


def test_a_dead_end_seen_by_all_is_a_chance_for_the_player():
    """dead-end.json: the file gives the next hand, and some placements leave it
    nothing to place. Honestly the next hand is unknown: those placements are judged
    by the share of sampled hands that are stuck, and the all-seeing reading sees them
    for sure."""
    g = GAME.load_position(DATA, str(PUZZLES / "dead-end.json"))
    open_res = hint(g, lookahead=False)
    lost = {o.action for o in open_res.options if o.dead_end}
    assert lost and open_res.samples == 0
    honest = hint(GAME.observation(g, g.on_turn), lookahead=False, samples=32, seed=0)
    chance = {o.action: o.dead_end_chance for o in honest.options}
    assert all(0 <= c <= 1 for c in chance.values())
    assert honest.options[0].dead_end_chance < 1


run = game_runner("hoch-hinaus")


def test_cli_hint_reads_only_the_view_of_the_player_on_turn(tmp_path):
    g = dealt(21, 6, 2)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(position_json(g)))
    b.write_text(json.dumps(position_json(redealt(g, 4))))
    args = ["--json", "--horizon", "0", "--samples", "5"]
    one, two = (json.loads(run("hint", str(f), *args).output) for f in (a, b))
    del one["seconds"], two["seconds"]
    assert one == two and not one["open_hands"] and one["samples"] == 5
    me = g.on_turn + 1
    assert f"the hand of player {me}" in one["knows"]
    assert f"the hand of player {3 - me}" not in one["knows"]
    assert "the order of the reserve" not in one["knows"]
    assert any("the order of the reserve" in u for u in one["unknown"])
    seeing = json.loads(run("hint", str(a), "--open-hands", *args).output)
    assert seeing["open_hands"] and seeing["samples"] == 0
    assert f"the hand of player {3 - me}" in seeing["knows"]
    assert "All-seeing" in run("hint", str(a), "--open-hands", "--horizon", "0").output


def test_cli_refuses_an_unknown_hand_on_turn(tmp_path):
    g = dealt(3, 2, 2)
    data = position_json(g)
    data["hands"][g.on_turn] = ["?", "?", "?"]
    f = tmp_path / "p.json"
    f.write_text(json.dumps(data))
    assert_one_line_error(run("hint", str(f)), "unknown")
