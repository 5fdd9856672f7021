"""`toppi take-it-higher simulate` and `max --draws` on the batch layer: a real Dask
cluster (a scheduler and two workers on 127.0.0.1), a local pool of two and in-process
give the same results; an interrupted run resumed from its store gives the same table;
every game and draw is the one dealt from its own seed."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from models.take_it_higher.draws import DRAWS_KIND, hindsight_optimum
from models.take_it_higher.game import GAME
from models.take_it_higher.rules import load_rules
from models.take_it_higher.state import game_draw
from models.take_it_higher.variants import Variant
from solver import simulate
from solver.game import task_seed
from solver.store import Store
from tests.cli_helpers import (
    assert_batch_options_checked,
    assert_one_line_error,
    ctrl_c_as_at_a_terminal,
    game_runner,
    interrupt_after,
    on_three_executors,
)

run = game_runner("take-it-higher")
BIN = Path(sys.executable).parent


def _table(data: dict) -> dict:
    """What a run reports, less the times it took and where it ran."""
    keep = {k: v for k, v in data.items() if k not in ("seconds", "executor", "records")}
    keep["records"] = [{k: v for k, v in r.items() if k != "seconds"} for r in data["records"]]
    return keep


def _simulate(*extra: str) -> dict:
    # games 0 and 1 of seed 5: draws whose optimum CP-SAT proves in well under a second
    # each; two games, so that the pool and the cluster each spread them on two workers
    result = run("simulate", "--games", "2", "--seed", "5", "--policy", "greedy",
                 "--optimum-time", "20", *extra, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.slow
def test_dask_cluster_equals_local_pool_and_in_process(cluster):
    on_dask, pooled, alone = on_three_executors(_simulate, cluster)
    assert _table(on_dask) == _table(pooled) == _table(alone)
    assert [r["game"] for r in alone["records"]] == list(range(2))
    assert all(r["measures"]["optimum_proven"] for r in alone["records"])
    # each record is the game of its own seed, and its optimum that draw's
    rules = load_rules()
    for r in alone["records"]:
        assert r["seed"] == task_seed(5, r["game"])
        draw = game_draw(rules, r["seed"])
        assert [p.split("@")[0] for p in r["measures"]["placements"]] == [t.id for t in draw]
        # (the reference on one CP-SAT worker: the same proven optimum for less CPU)
        assert (r["measures"]["optimum"], True) == hindsight_optimum(rules, Variant(), draw, 20,
                                                                     workers=1)


def test_bad_batch_options_are_one_line():
    assert_batch_options_checked(run, "simulate", "--games", "1", "--no-optimum")


def test_interrupt_keeps_finished_games_and_resume_gives_the_same_table(tmp_path,
                                                                         monkeypatch):
    store = tmp_path / "runs.sqlite"
    args = ["simulate", "--games", "8", "--seed", "9", "--policy", "random", "--no-optimum",
            "--jobs", "1", "--json"]
    whole = run(*args)
    assert whole.exit_code == 0, whole.output
    real = simulate.play_one
    interrupt_after(monkeypatch, simulate, 3, "play_one")  # Ctrl-C during the fourth game
    cut = run(*args, "--store", str(store))
    assert cut.exit_code == 130, cut.output
    assert "Interrupted" in cut.stderr and "--resume" in cut.stderr, cut.stderr
    partial = json.loads(cut.stdout)
    assert partial["interrupted"] and partial["played"] == 3
    with Store(store) as s:
        assert [r["seed"] for r in s.rows(simulate.GAMES_KIND)] == [
            task_seed(9, g) for g in range(3)]
    monkeypatch.setattr(simulate, "play_one", real)
    played = interrupt_after(monkeypatch, simulate, -1, "play_one")  # never interrupts
    resumed = run(*args, "--store", str(store), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert _table(json.loads(resumed.stdout)) == _table(json.loads(whole.stdout))
    assert [a[7] for a in played] == list(range(3, 8))  # only the games not stored
    with Store(store) as s:
        assert len(s.rows(simulate.GAMES_KIND)) == 8


@pytest.mark.slow
def test_sigint_to_a_real_run_keeps_its_rows(tmp_path):
    """Ctrl-C (SIGINT) to a running `toppi ... simulate --store`: the rows written
    stay, the exit code is 130, and --resume finishes the same table."""
    store = tmp_path / "runs.sqlite"
    # random games without optimum (no CP-SAT, which would catch the SIGINT itself),
    # milliseconds each: enough of them that the signal comes mid-run (it comes after
    # 20-150 rows; a busy machine writes about 250 a second)
    games = 600
    args = [str(BIN / "toppi"), "take-it-higher", "simulate", "--games", str(games),
            "--seed", "2", "--policy", "random", "--no-optimum", "--jobs", "1", "--json",
            "--store", str(store)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_as_at_a_terminal)
    deadline = time.monotonic() + 60
    rows = 0
    while rows < 20 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)  # signal early: the whole run takes only a few seconds
        if store.exists():
            try:
                with sqlite3.connect(store) as db:
                    rows = db.execute(
                        f"SELECT count(*) FROM {simulate.GAMES_KIND}").fetchone()[0]
            except sqlite3.OperationalError:
                rows = 0
    assert rows >= 20, f"the run wrote {rows} rows in 60 s (exit {proc.poll()})"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, f"exit {proc.returncode} after {rows} rows: {err[-500:]}"
    assert "Interrupted" in err and "--resume" in err
    partial = json.loads(out)
    with Store(store) as s:
        kept = s.rows(simulate.GAMES_KIND)
    # every game reported is stored; a Ctrl-C landing between a game's row and its
    # report keeps that one stored but unreported, hence `rows - 1`
    assert len(kept) >= partial["played"] >= rows - 1
    assert partial["played"] < games
    resumed = subprocess.run([*args, "--resume"], capture_output=True, text=True,
                             timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    final = json.loads(resumed.stdout)
    assert [r["seed"] for r in final["records"]] == [task_seed(2, g) for g in range(games)]
    first = {r["seed"]: r for r in partial["records"]}
    for r in final["records"]:
        if r["seed"] in first:
            assert r == first[r["seed"]]  # reused from the store, not replayed


@pytest.mark.slow
def test_max_draws_distribution_on_pool_and_in_process(tmp_path):
    """`max --draws N`: draw i is simulate's game i (dealt from seed*1000003+i); each
    optimum is CP-SAT's proven maximum of that draw, identical on every executor; the
    summary is theirs."""
    args = ["max", "--draws", "3", "--seed", "5", "--time-limit", "20", "--json"]
    store = tmp_path / "draws.sqlite"  # (a store changes nothing in the document)
    alone = run(*args, "--jobs", "1", "--store", str(store))
    pooled = run(*args, "--jobs", "2")
    assert alone.exit_code == 0 and pooled.exit_code == 0, alone.output + pooled.output
    a, b = json.loads(alone.stdout), json.loads(pooled.stdout)
    assert _table(a) == _table(b)
    rules = load_rules()
    for i, r in enumerate(a["records"]):
        assert r["seed"] == task_seed(5, i)
        draw = game_draw(rules, r["seed"])
        dealt = GAME.new_game(rules, {"variant": "basic"}, GAME.streams(r["seed"])[0])
        assert [dealt.called, *dealt.to_call] == draw  # the deal of simulate's game i
        assert r["tiles"] == [t.id for t in draw]
        optimum, proven = hindsight_optimum(rules, Variant(), draw, 20, workers=1)
        assert (r["score"], r["proven"]) == (optimum, proven is True)
    scores = [r["score"] for r in a["records"]]
    assert a["proven"] == 3 and a["min"] == min(scores) and a["max"] == max(scores)
    assert a["median"] == sorted(scores)[1]
    # --resume with one more draw computes only the new one
    more = run("max", "--draws", "4", "--seed", "5", "--time-limit", "20", "--json",
               "--jobs", "1", "--store", str(store), "--resume")
    assert more.exit_code == 0, more.output
    m = json.loads(more.stdout)
    assert [r["score"] for r in m["records"][:3]] == scores and m["draws"] == 4
    with Store(store) as s:
        assert len(s.rows(DRAWS_KIND)) == 4


def test_max_draws_bad_combinations_are_one_line():
    assert_one_line_error(run("max", "--draws", "2", "--draw", "GJ"), "--draws")
    assert_one_line_error(run("max", "--store", "x.sqlite"), "--draws")
