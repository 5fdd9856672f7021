"""`toppi hoch-hinaus simulate` on the batch layer: a real Dask cluster, a pool of two
and in-process give the same table; an interrupted run resumed from its store gives the
uninterrupted table and plays only the rest; the records are the rules engine's games."""

from __future__ import annotations

import json
import random

from models.hoch_hinaus import play
from models.hoch_hinaus.rules import load_rules, new_game
from models.hoch_hinaus.tasks import load_catalogue
from solver.store import Store
from tests.cli_helpers import (
    assert_batch_options_checked,
    game_runner,
    interrupt_and_resume,
    on_three_executors,
)

run = game_runner("hoch-hinaus")
R = load_rules()
CAT = load_catalogue(R)
# greedy: about 0.5 s a game (deterministic: no look-ahead clock); random: milliseconds
ARGS = ["simulate", "--games", "2", "--difficulty", "first", "--players", "2",
        "--seed", "3", "--policy", "greedy", "--policy", "random"]


def _table(data: dict) -> dict:
    """What a run reports, less its timing and where it ran."""
    return {k: v for k, v in data.items() if k not in ("seconds", "executor")}


def _simulate(*extra: str) -> dict:
    result = run(*ARGS, *extra, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_dask_cluster_equals_local_pool_and_in_process(cluster):
    on_dask, pooled, alone = on_three_executors(_simulate, cluster)
    assert _table(on_dask) == _table(pooled) == _table(alone)
    assert not alone["interrupted"]
    # deal by deal, every policy on each deal; the summary is that of the records
    assert [(r["game"], r["policy"]) for r in alone["records"]] == \
        [(i, p) for i in range(2) for p in ("greedy", "random")]
    for stats in alone["policies"]:
        mine = [r for r in alone["records"] if r["policy"] == stats["policy"]]
        assert stats["rate"]["trials"] == 2
        assert stats["rate"]["successes"] == sum(r["won"] for r in mine)
        assert stats["mean_turns"] == round(sum(r["turns"] for r in mine) / 2, 2)
    # the text table too, less its caption line (seconds, executor)
    texts = [[line for line in run(*ARGS, *extra).output.splitlines() if line.strip()]
             for extra in (("--scheduler", cluster), ("--jobs", "1"))]
    assert texts[0][:-1] == texts[1][:-1]
    assert sum(line.startswith(("│ greedy", "│ random")) for line in texts[0]) == 2
    assert "dask" in texts[0][-1] and "in-process" in texts[1][-1]


def test_records_are_the_rules_engine_games():
    """Each record is the game dealt by new_game from seed*7919+i and played by the
    policy from seed*104729+i (the seeding of the first figures), replayed here with
    the engine directly."""
    data = _simulate("--jobs", "1")
    for r in data["records"]:
        i = r["game"]
        g = new_game(R, CAT.tasks, 2, "first", random.Random(3 * 7919 + i), "blue", False)
        g = play.play_out(g, random.Random(3 * 104729 + i), r["policy"])
        assert (r["deal_seed"], r["play_seed"]) == (3 * 7919 + i, 3 * 104729 + i)
        assert r["won"] == (g.status == "won")
        assert (r["tasks_completed"], r["turns"]) == (len(g.completed), g.turns)
    assert len(data["records"]) == 4


def test_interrupt_keeps_finished_games_and_resume_gives_the_same_table(tmp_path,
                                                                         monkeypatch):
    store = tmp_path / "runs.sqlite"
    args = ["simulate", "--games", "3", "--difficulty", "first", "--seed", "9",
            "--policy", "random", "--policy", "greedy", "--jobs", "1", "--json"]
    _, partial, played = interrupt_and_resume(run, args, store, monkeypatch, play, 3,
                                              _table)  # Ctrl-C during the fourth game
    assert partial["interrupted"] and len(partial["records"]) == 3
    # the rest only: 6 games in all (deal by deal, both policies), 3 stored
    assert [(a[6], a[7]) for a in played] == \
        [(p, i) for i in range(3) for p in ("random", "greedy")][3:]
    with Store(store) as s:
        rows = s.rows(play.GAMES_KIND)
    assert len(rows) == 6
    assert sorted({r["seed"] for r in rows}) == [9 * 7919 + i for i in range(3)]


def test_bad_batch_options_are_one_line():
    assert_batch_options_checked(run, "simulate", "--games", "1", "--policy", "random")
