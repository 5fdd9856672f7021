"""Hints, reachability and simulation against the rules engine and the SAT answers."""

from pathlib import Path

import pytest

from models.hoch_hinaus.achievable import achievable
from models.hoch_hinaus.board import Action, Board
from models.hoch_hinaus.game import GAME
from models.hoch_hinaus.hint import hint
from models.hoch_hinaus.positions import load_position
from models.hoch_hinaus.reachable import exact, reachable
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.state import GameState
from models.hoch_hinaus.tasks import load_catalogue, parse_task
from solver.errors import TimeLimitReached
from solver.simulate import simulate
from tests.cli_helpers import EventDeadline

R = load_rules()
CAT = load_catalogue(R)
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "hoch-hinaus"


def game(name):
    return load_position(R, PUZZLES / name, None, CAT)


@pytest.mark.parametrize("name", ["midgame-1.json", "midgame-3.json", "midgame-5.json"])
def test_hint_fulfils_most_and_avoids_dead_ends(name):
    g = game(name)
    assert g.everything_known  # the hint judges exactly
    res = hint(g)
    assert res.samples == 0
    legal = set(g.legal_actions())
    assert res.options and all(o.action in legal for o in res.options)
    # brute force with the engine: most tasks fulfilled now, among non-losing turns
    best, safe = 0, False
    for a in legal:
        g2, done = g.turn(a)
        if g2.status != "lost":
            safe = True
            best = max(best, len(done))
    top, done = g.turn(res.options[0].action)
    assert len(done) == best and (top.status != "lost" or not safe)


def test_hint_look_ahead_agrees_with_achievable():
    g = game("midgame-3.json")
    res = hint(g, horizon=2, top=3)
    assert res.checked == 3
    for o in res.options[:3]:
        assert o.unproven == 0
        g2, _ = g.placed(o.action).fulfilled()
        tasks = [t for t in g2.open if t is not None]
        g3 = g2.drawn()  # the reserve order is known in this file: the engine's draw
        for mode, (n_got, together_got) in (("any", (o.achievable, o.together)),
                                           ("hand", (o.achievable_hands, o.together_hands))):
            n = sum(achievable(g3, [t], 2, mode).answer == "yes" for t in tasks)
            together = achievable(g3, tasks, 2, mode).answer == "yes" if tasks else True
            assert (n_got, together_got) == (n, together), mode


def _replay_line(g, line):
    for step in line:
        p = step.placement
        a = Action(p["tile"], R.space_index[p["on"][0]], R.space_index[p["on"][1]],
                   None if p["filler"] is None else R.space_index[p["filler"]])
        assert g.on_turn + 1 == step.player
        g = g.apply_action(a)
    return g


def test_exact_reachable_wins_with_a_line_the_engine_confirms():
    g = game("endgame-known.json")
    assert g.everything_known
    res = reachable(g)
    assert res.method == "exact" and res.answer == "won" and res.proven
    assert _replay_line(g, res.line).status == "won"


def test_exact_reachable_proves_a_loss():
    # one player, two tiles, no reserve, no filler: 4 of 12 spaces can be covered
    g = GameState(R, Board(R), [parse_task(R, "NO EMPTY spaces")], [], [], [["T01", "T09"]], [])
    res = exact(g)
    assert res.answer == "lost" and res.proven
    # and with a task two tiles can do, it is won
    g = GameState(R, Board(R), [parse_task(R, "TWO GREEN")], [], [], [["T01", "T09"]], [])
    res = exact(g)
    assert res.answer == "won" and _replay_line(g, res.line).status == "won"


def test_sampled_reachable_is_reproducible_with_an_interval():
    g = game("corner-gap.json")
    assert not g.everything_known
    # one draw of the hidden pieces per greedy decision (the games still draw the
    # unknowns, and the decisions the hidden pieces, from the seeded streams)
    a = reachable(g, samples=2, policy="greedy", seed=4, draws=1)
    b = reachable(g, samples=2, policy="greedy", seed=4, draws=1)
    assert a.method == "sampled" and a.rate.trials == 2 and not a.proven
    assert a.rate == b.rate and a.rate.low <= a.rate.rate <= a.rate.high
    assert not a.cut_by_time


def test_sampled_reachable_cut_by_time_is_the_rate_over_the_first_games():
    """The time limit cuts the sampling, inside a game too: the answer over the games
    that ended (those of a run asking for that many), said so; before the first game
    ended there is no answer."""
    g = game("corner-gap.json")
    cut = EventDeadline()

    def after_two(n, total):
        if n == 2:
            cut.event.set()  # the limit passes while the third game is played

    res = reachable(g, samples=5, policy="greedy", seed=4, draws=1, deadline=cut,
                    progress=after_two)
    assert res.cut_by_time and res.rate.trials == 2 and "2 of 5" in res.note
    again = reachable(g, samples=2, policy="greedy", seed=4, draws=1)
    assert again.rate == res.rate and not again.cut_by_time
    with pytest.raises(TimeLimitReached, match="before the first sampled game"):
        reachable(g, samples=5, policy="hint", seed=4, deadline=cut)


@pytest.mark.slow
def test_simulate_greedy_beats_random_on_the_same_deals():
    data = GAME.load_rules(None)
    setups = GAME.setups(data, difficulty="first")
    # one draw of the hidden pieces per greedy decision: greedy's mean is 21.5 tasks
    # with 1 draw and with 4, random's 4.5
    res = simulate(GAME, data, 2, setups, [["greedy"], ["random"]], seed=1,
                   options={"samples": 1})
    greedy, rnd = res.cells
    assert greedy.win_rate.trials == rnd.win_rate.trials == 2
    assert greedy.measures["mean_tasks_completed"] > rnd.measures["mean_tasks_completed"]
    assert res.knows == {"greedy": "own", "random": "own"}


def test_hint_flags_exactly_the_losing_placements_and_avoids_them():
    g = game("dead-end.json")
    res = hint(g, top=2)
    lost = {}
    for o in res.options:
        lost[o.action] = g.apply_action(o.action).status == "lost"
    assert any(lost.values()) and not all(lost.values())
    assert all(o.dead_end == lost[o.action] for o in res.options)
    assert not res.options[0].dead_end
