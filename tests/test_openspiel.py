"""The five games in OpenSpiel (solver/openspiel.py): OpenSpiel's own consistency test
on every setup, the adapter's states replaying to the toppi states, what a player's
information state holds, and the docs' example."""

from __future__ import annotations

import itertools
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import solver.openspiel as so  # noqa: E402  (after the skip: the extra may be missing)
from solver.game import CHANCE, TERMINAL, task_seed  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# The setups: every player count with every level, and each other option's other
# values one at a time (at the default player count and level).
PLAYERS = {"take-it-higher": [None], "hoch-hinaus": [1, 2, 3, 4],
           "tippi-toppi": [1, 2, 3, 4], "topito": [2, 3, 4, 5], "hippo": [2, 3, 4]}
LEVELS = {"hoch-hinaus": ["first", "normal", "advanced", "pros", "champions"],
          "tippi-toppi": ["beginner", "normal", "advanced", "expert", "champion"]}
OTHERS: dict[str, list[dict[str, Any]]] = {
    "take-it-higher": [{"variant": v} for v in ("gold-silver", "simple", "advanced")]
    + [{"variant": "simple", "gold_silver": True}],
    "hoch-hinaus": [{"side": "purple"}, {"pros": True}, {"task_count": "total"}],
    "tippi-toppi": [{"high_speed": True}, {"open_hands_variant": True},
                    {"task_count": "pile"}, {"comparisons": "present"}],
    "topito": [{"order_cards": "bottom-up"}],
    "hippo": [{"foreign_first": "at-once"}],
}


def setups() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for gid, counts in PLAYERS.items():
        for n, level in itertools.product(counts, LEVELS.get(gid, [None])):
            out.append((gid, {k: v for k, v in (("players", n), ("difficulty", level))
                              if v is not None}))
        out += [(gid, o) for o in OTHERS[gid]]
    return out


SETUPS = setups()


def test_every_setup_is_covered():
    assert len(SETUPS) == 5 + 23 + 24 + 5 + 4
    assert set(so.NAMES) == {so.short_name(g) for g in PLAYERS}


@pytest.mark.parametrize(("gid", "params"), SETUPS,
                         ids=[f"{g}-{'-'.join(map(str, p.values()))}" for g, p in SETUPS])
def test_random_sim_test(gid, params):
    game = so.load(gid, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_types_follow_the_descriptions():
    types = {g: pyspiel.load_game(so.short_name(g)).get_type() for g in PLAYERS}
    info, utility = pyspiel.GameType.Information, pyspiel.GameType.Utility
    assert all(types[g].information == info.PERFECT_INFORMATION
               for g in ("take-it-higher", "hippo"))  # chance only
    assert all(types[g].information == info.IMPERFECT_INFORMATION
               for g in ("hoch-hinaus", "tippi-toppi", "topito"))
    assert types["tippi-toppi"].utility == utility.IDENTICAL
    assert types["hoch-hinaus"].utility == utility.IDENTICAL
    assert types["topito"].utility == utility.GENERAL_SUM
    assert (types["topito"].min_num_players, types["topito"].max_num_players) == (2, 5)
    assert (types["hippo"].min_num_players, types["hippo"].max_num_players) == (2, 4)
    tih = pyspiel.load_game("toppi_take_it_higher")
    assert (tih.num_players(), tih.min_utility(), tih.num_distinct_actions()) == (1, 0.0, 35)
    assert tih.max_chance_outcomes() == 1000  # the deals; 32 tiles to call
    assert tih.max_utility() >= 910  # the proven gold/silver maximum fits
    hippo = pyspiel.load_game("toppi_hippo(players=2)")
    # (lane, colour) for 12 lanes and 4 colours, and the end of a turn; 56 rolls, 1000 deals
    assert (hippo.num_distinct_actions(), hippo.max_chance_outcomes()) == (49, 1000)
    assert hippo.max_game_length() == 4000 * 4


@pytest.mark.parametrize("gid", list(PLAYERS))
@pytest.mark.parametrize("k", [0, 3])
def test_states_replay_to_the_toppi_states(gid, k):
    """A dealt toppi game played by toppi's random policy and the same actions given to
    the OpenSpiel state hold equal positions after every turn and chance event."""
    os_game = so.load(gid)
    spec = os_game.new_initial_state().spec
    game, rules = spec.game, spec.rules
    state = game.new_game(rules, spec.setup, game.streams(task_seed(spec.seed, k))[0])
    os_state = os_game.new_initial_state()
    os_state.apply_action(k)
    assert game.write(os_state.toppi) == game.write(state)
    rng, steps = random.Random(k), 0
    while game.current_player(state) != TERMINAL:
        player = game.current_player(state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
            os_state.apply_action(spec.chance_id[action])
        else:
            assert os_state.current_player() == player
            action = rng.choice(game.legal_actions(state))
            for i in so.decisions_of(os_state, action):
                assert i in os_state.legal_actions()
                os_state.apply_action(i)
        state = game.apply_action(state, action)
        so.follow(os_state, state)  # draws of a pile the game leaves to chance
        steps += 1
        assert os_state.decisions == ()
        assert game.write(os_state.toppi) == game.write(game.chance_state(state))
    assert os_state.is_terminal()
    assert os_state.returns() == game.returns(state)
    assert steps > 10


def test_take_it_higher_calls_are_chance():
    """The bag's order is nobody's: each call is a chance node, any tile not placed or
    called yet, each as likely."""
    s = so.load("take-it-higher").new_initial_state()
    s.apply_action(2)
    s.apply_action(s.legal_actions()[0])
    assert s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 31 and all(p == pytest.approx(1 / 31) for _, p in outcomes)


@pytest.mark.parametrize("gid", ["hoch-hinaus", "tippi-toppi", "topito"])
def test_information_state_ignores_what_the_player_cannot_see(gid):
    """Two deals differing only in what player 0 cannot see (the other hands, the order
    of the piles) give player 0 the same information state, also along the same
    decisions of player 0 within a turn; the whole states and the other players'
    observations differ."""
    os_game = so.load(gid)
    a = os_game.new_initial_state()
    a.apply_action(5)
    game = a.spec.game
    b = a.resample_from_infostate(0, None)
    assert game.write(b.toppi) != game.write(a.toppi)
    assert game.write(game.observation(b.toppi, 0)) == game.write(game.observation(a.toppi, 0))
    assert b.information_state_string(0) == a.information_state_string(0)
    assert b.observation_string(0) == a.observation_string(0)
    assert b.observation_string(1) != a.observation_string(1)  # their own hands
    assert b.legal_actions() == a.legal_actions()
    for action in (a.legal_actions()[0], a.legal_actions()[-1]):
        c, d = a.clone(), b.clone()
        c.apply_action(action)
        d.apply_action(action)
        if c.decisions:  # within the turn: nothing new is seen
            assert c.information_state_string(0) == d.information_state_string(0)
        assert c.information_state_string(0) != a.information_state_string(0)


def test_information_state_remembers_the_players_decisions():
    """Different decisions reaching the same observation give different information
    states (perfect recall): the memory part differs."""
    os_game = so.load("topito")
    s = os_game.new_initial_state()
    s.apply_action(1)
    before = s.information_state_string(0)
    t = s.clone()
    s.apply_action(s.legal_actions()[0])
    t.apply_action(t.legal_actions()[1])
    assert s.information_state_string(0) != t.information_state_string(0)
    assert s.information_state_string(0).split("\n")[0] != before.split("\n")[0]


def test_hippo_turn_is_split_into_chip_decisions():
    """A Hippo roll's placements are taken one chip at a time and the whole turn applies
    at its last chip."""
    os_game = so.load("hippo", players=2)
    s = os_game.new_initial_state()
    s.apply_action(0)
    assert s.is_chance_node()
    outcomes = dict(s.chance_outcomes())
    assert len(outcomes) == 56 and abs(sum(outcomes.values()) - 1) < 1e-12
    roll = next(i for i, r in enumerate(s.spec.chances) if r == (6, 4, 2))
    assert outcomes[roll] == pytest.approx(6 / 216)
    s.apply_action(roll)
    first = [s.action_to_string(a) for a in s.legal_actions()]
    assert "12 red" in first and "2 red" in first  # 6+4+2 together, or 2 alone first
    s.apply_action(s.legal_actions()[0])
    assert s.decisions != () and s.current_player() == 0


def test_serialise_through_the_position_file():
    os_game = so.load("tippi-toppi", players=3, difficulty="advanced")
    s = os_game.new_initial_state()
    s.apply_action(7)
    for _ in range(5):
        s.apply_action(s.legal_actions()[-1])
    text = s.serialize()
    back = os_game.deserialize_state(text)
    assert str(back) == str(s) and back.history() == s.history()
    world = s._world
    reader, (key, position) = world.__reduce__()
    assert os_game.new_initial_state().spec.game.write(reader(key, position).state) == \
        os_game.new_initial_state().spec.game.write(world.state)
    assert '"hands"' in position or '"players"' in position


def test_no_import_of_openspiel_on_start():
    code = ("import sys, solver, solver.cli, solver.registry; "
            "[e.game() for e in solver.registry.games().values()]; "
            "print('pyspiel' in sys.modules, 'solver.openspiel' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_docs_example_runs():
    """The example of docs/openspiel.md runs as written."""
    text = (ROOT / "docs" / "openspiel.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert re.search(r"returns \[\d", out.stdout), out.stdout
