"""`toppi tippi-toppi simulate` on the batch layer: a real Dask cluster, a pool of two
and in-process give the same table; an interrupted run resumed from its store gives the
table of an uninterrupted run; the stored game records are those of the rules engine."""

from __future__ import annotations

import json
import random

from models.tippi_toppi import play
from models.tippi_toppi.rules import Variant, load_rules, new_game
from solver.stats import wilson
from solver.store import Store
from tests.cli_helpers import (
    assert_batch_options_checked,
    game_runner,
    interrupt_after,
    interrupt_and_resume,
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


def _engine_game(policy: str, players: int, difficulty: int, seed: int,
                 variant: Variant | None = None) -> tuple[bool, int, int]:
    """The game played move by move on the rules engine: (won, plays, tasks fulfilled)."""
    s = new_game(R, players, difficulty, seed, variant or Variant())
    rng = random.Random(seed)
    plays = 0
    while not s.is_terminal():
        s.apply_action(play.POLICIES[policy](s, rng))
        plays += 1
    return s.is_won(), plays, len(s.fulfilled)


def test_dask_cluster_equals_local_pool_and_in_process(cluster):
    on_dask, pooled, alone = on_three_executors(_simulate, cluster)
    assert _table(on_dask) == _table(pooled) == _table(alone)
    assert alone["played"] == 16 and not alone["interrupted"]
    cells = {(c["policy"], c["players"]): c for c in alone["cells"]}
    assert len(cells) == 4 and all(c["games"] == 4 for c in cells.values())
    # each cell is the engine's games with seeds 7..10
    for (policy, players), c in cells.items():
        games = [_engine_game(policy, players, 0, 7 + g) for g in range(4)]
        assert c["rate"] == json.loads(json.dumps(wilson(sum(w for w, _, _ in games), 4).__dict__))
        assert c["mean_plays"] == round(sum(n for _, n, _ in games) / 4, 2)
        assert c["mean_fulfilled"] == round(sum(f for _, _, f in games) / 4, 2)
    assert cells[("hint", 1)]["rate"]["successes"] > 0  # not a table of zeros


def test_records_equal_the_rules_engine(tmp_path):
    """Stored records (played by a pool of two) = the engine played directly, and say
    honestly whether the game was won."""
    store = tmp_path / "runs.sqlite"
    result = run("simulate", "--games", "3", "--players", "2,3", "--difficulty", "normal",
                 "--seed", "40", "--high-speed", "--jobs", "2", "--store", str(store),
                 "--json")
    assert result.exit_code == 0, result.output
    with Store(store) as s:
        rows = s.rows(play.GAMES_KIND)
    assert len(rows) == 2 * 2 * 3
    variant = Variant(high_speed=True)
    for row in rows:
        r = row["result"]
        assert row["parameters"]["high_speed"] and row["seed"] == r["seed"] == 40 + r["game"]
        assert r["tasks"] == R.task_count(r["players"], 1) and r["difficulty"] == "normal"
        won, plays, fulfilled = _engine_game(r["policy"], r["players"], 1, r["seed"], variant)
        assert (r["won"], r["plays"], r["fulfilled"]) == (won, plays, fulfilled)
        assert r["won"] == (r["fulfilled"] == r["tasks"])
        assert row["rating"] == {"won": won, "fulfilled": fulfilled}
    # the task function itself, for a solo game and a four-player game
    for players, difficulty, seed in ((1, 0, 3), (4, 4, 11)):
        rec = play.game_task(R, "hint", players, difficulty, Variant(), 0, seed)
        assert (rec.won, rec.plays, rec.fulfilled) == _engine_game("hint", players,
                                                                   difficulty, seed)


def test_interrupt_keeps_finished_games_and_resume_gives_the_same_table(tmp_path,
                                                                         monkeypatch):
    store = tmp_path / "runs.sqlite"
    args = [*SMALL, "--jobs", "1"]
    _, partial, replayed = interrupt_and_resume(run, args, store, monkeypatch, play, 6,
                                                _table)  # Ctrl-C during the seventh game
    assert partial["interrupted"] and partial["played"] == 6
    # cell 1 (hint, 1 player) finished, cell 2 has two games, the others none
    assert [(c["policy"], c["players"], c["games"]) for c in partial["cells"]] == [
        ("hint", 1, 4), ("hint", 2, 2)]
    assert len(replayed) == 10  # only the rest was played
    with Store(store) as s:
        assert len(s.rows(play.GAMES_KIND)) == 16
    # a resumed run with more games per cell plays only the new ones
    replayed.clear()
    more = run(*[a if a != "4" else "5" for a in args], "--store", str(store), "--resume")
    assert more.exit_code == 0, more.output
    assert sorted(a[-1] for a in replayed) == [11] * 4  # game seed 11 in each cell


def test_interrupted_text_table_marks_partial_cells(tmp_path, monkeypatch):
    interrupt_after(monkeypatch, play, 2)
    cut = run(*SMALL[:-1], "--jobs", "1")
    assert cut.exit_code == 130
    assert "2 of 16 games (interrupted)" in cut.stdout and "[2 games]" in cut.stdout
    assert "not saved" in cut.stderr


def test_bad_batch_options_are_one_line():
    assert_batch_options_checked(run, "simulate", "--games", "1", "--players", "2")
