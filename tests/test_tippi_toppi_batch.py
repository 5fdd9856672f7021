"""`toppi tippi-toppi simulate` on the batch layer: a real Dask cluster, a pool of two
and in-process give the same table; an interrupted run resumed from its store gives the
table of an uninterrupted run; the stored game records are those of the game played
move by move."""

from __future__ import annotations

import json

import solver.simulate
from models.tippi_toppi.game import GAME
from models.tippi_toppi.rules import load_rules
from solver.game import play_out, task_seed
from solver.simulate import GAMES_KIND
from solver.stats import wilson
from solver.store import Store
from tests.cli_helpers import (
    assert_batch_options_checked,
    game_runner,
    interrupt_after,
    on_three_executors,
)

run = game_runner("tippi-toppi")
R = load_rules()
SMALL = ["simulate", "--games", "4", "--players", "1,2", "--difficulty", "beginner",
         "--policy", "hint", "--policy", "random", "--seed", "7", "--json"]


def _table(data: dict) -> dict:
    """What a run reports, less the timing and where it ran."""
    return {k: v for k, v in data.items() if k not in ("seconds", "executor")}


def _simulate(*extra: str) -> dict:
    result = run(*SMALL, *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _engine_game(policy: str, setup: dict, seed: int) -> tuple[bool, int, int]:
    """The game played move by move from its seed: (won, plays, tasks fulfilled)."""
    deal, play = GAME.streams(seed)
    state = GAME.new_game(R, setup, deal)
    seats = [GAME.policy(R, policy, {})] * state.players
    end, _, finished = play_out(GAME, state, seats, play)
    assert finished
    return end.is_won(), len(end.history), len(end.fulfilled)


def test_dask_cluster_equals_local_pool_and_in_process(cluster):
    on_dask, pooled, alone = on_three_executors(_simulate, cluster)
    assert _table(on_dask) == _table(pooled) == _table(alone)
    assert alone["played"] == 16 and not alone["interrupted"]
    cells = {(c["seats"][0], c["setup"]["players"]): c for c in alone["cells"]}
    assert len(cells) == 4 and all(c["games"] == 4 for c in cells.values())
    # each cell is the games of seeds 7 * 1000003 + g played move by move
    for (policy, _), c in cells.items():
        games = [_engine_game(policy, c["setup"], task_seed(7, g)) for g in range(4)]
        assert c["win_rate"] == json.loads(json.dumps(wilson(sum(w for w, _, _ in games),
                                                             4).__dict__))
        assert c["measures"]["mean_plays"] == round(sum(n for _, n, _ in games) / 4, 2)
        assert c["measures"]["mean_fulfilled"] == round(sum(f for _, _, f in games) / 4, 2)
    assert cells[("hint", 1)]["win_rate"]["successes"] > 0  # not a table of zeros


def test_records_equal_the_game_played_move_by_move(tmp_path):
    """Stored records (played by a pool of two) = the game played directly, and say
    honestly whether the game was won."""
    store = tmp_path / "runs.sqlite"
    result = run("simulate", "--games", "3", "--players", "2,3", "--difficulty", "normal",
                 "--policy", "hint", "--policy", "random", "--seed", "40", "--high-speed",
                 "--jobs", "2", "--store", str(store), "--json")
    assert result.exit_code == 0, result.output
    with Store(store) as s:
        rows = s.rows(GAMES_KIND)
    assert len(rows) == 2 * 2 * 3
    for row in rows:
        r = row["result"]
        setup = row["parameters"]["setup"]
        assert setup["high_speed"] and setup["difficulty"] == "normal"
        assert row["seed"] == r["seed"] == task_seed(40, r["game"])
        assert r["measures"]["tasks"] == R.task_count(setup["players"], 1)
        won, plays, fulfilled = _engine_game(r["seats"][0], setup, r["seed"])
        assert (r["returns"][0] == 1.0, r["measures"]["plays"], r["measures"]["fulfilled"]) \
            == (won, plays, fulfilled)
        assert won == (fulfilled == r["measures"]["tasks"])
        assert r["actions"] >= plays  # passes are actions too
        assert row["rating"] == {"returns": r["returns"]}


def test_interrupt_keeps_finished_games_and_resume_gives_the_same_table(tmp_path,
                                                                         monkeypatch):
    store = tmp_path / "runs.sqlite"
    args = [*SMALL, "--jobs", "1"]
    whole = _simulate("--jobs", "1")
    interrupt_after(monkeypatch, solver.simulate, 6, "play_one")  # Ctrl-C in game 7
    cut = run(*args, "--store", str(store))
    assert cut.exit_code == 130 and "--resume" in cut.stderr, cut.output
    partial = json.loads(cut.stdout)
    assert partial["interrupted"] and partial["played"] == 6
    # cells are setup-major: (1 player: hint, random), (2 players: hint, random)
    assert [(c["setup"]["players"], c["seats"][0], c["games"]) for c in partial["cells"]] == [
        (1, "hint", 4), (1, "random", 2)]
    with Store(store) as s:
        assert len(s.rows(GAMES_KIND)) == 6
    monkeypatch.undo()
    played = interrupt_after(monkeypatch, solver.simulate, -1, "play_one")  # counts
    resumed = run(*args, "--store", str(store), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert _table(json.loads(resumed.stdout)) == _table(whole)
    assert len(played) == 10  # only the rest was played
    # a resumed run with more games per cell plays only the new ones
    played.clear()
    more = run(*[a if a != "4" else "5" for a in args], "--store", str(store), "--resume")
    assert more.exit_code == 0, more.output
    assert sorted(a[-1] for a in played) == [task_seed(7, 4)] * 4


def test_interrupted_text_table_says_what_was_kept(monkeypatch):
    interrupt_after(monkeypatch, solver.simulate, 2, "play_one")
    cut = run(*SMALL[:-1], "--jobs", "1")
    assert cut.exit_code == 130
    assert "Interrupted: 2 of " in cut.stderr and "games finished" in cut.stderr
    assert "not saved" in cut.stderr


def test_bad_batch_options_are_one_line():
    assert_batch_options_checked(run, "simulate", "--games", "1", "--players", "2")
