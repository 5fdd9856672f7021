"""The executor layer: in-process, local process pool and a real Dask cluster (a
scheduler and two worker processes on 127.0.0.1) give the same simulate results; an
interrupted run resumed from its store gives the same final table. Tests that start the
cluster (5 s) or run whole batches are marked slow."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from models.take_it_higher import play
from models.take_it_higher.rules import Variant, load_rules
from solver.errors import ToppiError
from solver.executor import Batch, default_jobs
from solver.store import Store
from tests.cli_helpers import (
    assert_batch_options_checked,
    assert_one_line_error,
    game_runner,
    interrupt_and_resume,
    on_three_executors,
)

run = game_runner("take-it-higher")
BIN = Path(sys.executable).parent


def _table(data: dict) -> dict:
    """What a run reports, less the timings and where it ran."""
    keep = {k: v for k, v in data.items() if k not in ("seconds", "executor", "records")}
    keep["records"] = [{k: v for k, v in r.items() if k != "seconds"} for r in data["records"]]
    return keep


def _simulate(*extra: str) -> dict:
    # seeds 5..8: draws whose optimum CP-SAT proves in well under a second each
    result = run("simulate", "--games", "4", "--seed", "5", "--policy", "greedy",
                 "--optimum-time", "20", *extra, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.slow
def test_dask_cluster_equals_local_pool_and_in_process(cluster):
    on_dask, pooled, alone = on_three_executors(_simulate, cluster)
    assert _table(on_dask) == _table(pooled) == _table(alone)
    assert [r["game"] for r in alone["records"]] == list(range(4))
    assert all(r["optimum_proven"] for r in alone["records"])
    # the batch equals the plain simulate loop, game by game
    plain = play.simulate(load_rules(), Variant(), 4, seed=5, policy_name="greedy",
                          optimum_time=20)
    assert [r.score for r in plain.records] == [r["score"] for r in alone["records"]]
    assert [r.optimum for r in plain.records] == [r["optimum"] for r in alone["records"]]


@pytest.mark.slow
def test_batch_yields_every_task_once_on_each_executor(cluster):
    tasks = [(n,) for n in range(20)]
    for batch in (Batch(1, progress=False), Batch(2, progress=False),
                  Batch(1, cluster, progress=False)):
        got = dict(batch.run(abs, [(-n,) for (n,) in tasks], [n for (n,) in tasks]))
        assert got == {n: n for n in range(20)}, batch.where
        assert not batch.interrupted


def test_bad_scheduler_is_one_line(tmp_path):
    assert_batch_options_checked(run, "simulate", "--games", "1", "--no-optimum")


def test_interrupt_keeps_finished_games_and_resume_gives_the_same_table(tmp_path,
                                                                         monkeypatch):
    store = tmp_path / "runs.sqlite"
    args = ["simulate", "--games", "8", "--seed", "9", "--policy", "random", "--no-optimum",
            "--jobs", "1", "--json"]
    _, partial, played = interrupt_and_resume(run, args, store, monkeypatch, play, 3,
                                              _table)  # Ctrl-C during the fourth game
    assert partial["interrupted"] and partial["games"] == 3
    assert [a[2] for a in played] == list(range(3, 8))  # only the games not stored
    with Store(store) as s:
        assert sorted(r["seed"] for r in s.rows(play.GAMES_KIND)) == list(range(9, 17))


@pytest.mark.slow
def test_sigint_to_a_real_run_keeps_its_rows(tmp_path):
    """Ctrl-C (SIGINT) to a running `toppi ... simulate --store`: the rows written
    stay, the exit code is 130, and --resume finishes the same table."""
    store = tmp_path / "runs.sqlite"
    # random games without optimum (no CP-SAT, which would catch the SIGINT itself),
    # milliseconds each: enough of them that the signal comes mid-run
    games = 1500
    args = [str(BIN / "toppi"), "take-it-higher", "simulate", "--games", str(games),
            "--seed", "2", "--policy", "random", "--no-optimum", "--jobs", "1", "--json",
            "--store", str(store)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    rows = 0
    while rows < 20 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)  # signal early: the whole run takes only a few seconds
        if store.exists():
            try:
                with sqlite3.connect(store) as db:
                    rows = db.execute(f"SELECT count(*) FROM {play.GAMES_KIND}").fetchone()[0]
            except sqlite3.OperationalError:
                rows = 0
    assert rows >= 20, f"the run wrote {rows} rows in 60 s (exit {proc.poll()})"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, f"exit {proc.returncode} after {rows} rows: {err[-500:]}"
    assert "Interrupted" in err and "--resume" in err
    partial = json.loads(out)
    with Store(store) as s:
        kept = s.rows(play.GAMES_KIND)
    # every game reported is stored; a Ctrl-C landing between a game's row and its
    # report keeps that one stored but unreported, hence `rows - 1`
    assert len(kept) >= partial["games"] >= rows - 1
    assert partial["games"] < games
    resumed = subprocess.run([*args, "--resume"], capture_output=True,
                             text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    final = json.loads(resumed.stdout)
    assert [r["seed"] for r in final["records"]] == list(range(2, 2 + games))
    first = {r["seed"]: r for r in partial["records"]}
    for r in final["records"]:
        if r["seed"] in first:
            assert r == first[r["seed"]]  # reused from the store, not replayed


@pytest.mark.slow
def test_max_draws_distribution_on_pool_and_in_process(tmp_path):
    """`max --draws N`: draw i is simulate's game seed + i; each optimum is CP-SAT's
    proven maximum of that draw, identical on every executor; the summary is theirs."""
    args = ["max", "--draws", "3", "--seed", "5", "--time-limit", "20", "--json"]
    alone = run(*args, "--jobs", "1")
    pooled = run(*args, "--jobs", "2")
    assert alone.exit_code == 0 and pooled.exit_code == 0, alone.output + pooled.output
    a, b = json.loads(alone.stdout), json.loads(pooled.stdout)
    assert _table(a) == _table(b)
    rules = load_rules()
    for r in a["records"]:
        assert r["tiles"] == [t.id for t in play.game_draw(rules, r["seed"])]
        optimum, proven = play.hindsight_optimum(rules, Variant(), play.game_draw(rules, r["seed"]),
                                                 20)
        assert (r["score"], r["proven"]) == (optimum, proven is True)
    scores = [r["score"] for r in a["records"]]
    assert a["proven"] == 3 and a["min"] == min(scores) and a["max"] == max(scores)
    assert a["median"] == sorted(scores)[1]
    # --resume with one more draw computes only the new one
    store = tmp_path / "draws.sqlite"
    assert run(*args, "--jobs", "1", "--store", str(store)).exit_code == 0
    more = run("max", "--draws", "4", "--seed", "5", "--time-limit", "20", "--json",
               "--jobs", "1", "--store", str(store), "--resume")
    assert more.exit_code == 0, more.output
    m = json.loads(more.stdout)
    assert [r["score"] for r in m["records"][:3]] == scores and m["draws"] == 4
    with Store(store) as s:
        assert len(s.rows(play.DRAWS_KIND)) == 4


def test_max_draws_bad_combinations_are_one_line():
    assert_one_line_error(run("max", "--draws", "2", "--draw", "GJ"), "--draws")
    assert_one_line_error(run("max", "--store", "x.sqlite"), "--draws")


def _puzzles(data: dict) -> list:
    return [(p["attempt"], p["score"], p["puzzle"]) for p in data["puzzles"]]


@pytest.mark.slow
def test_generate_on_dask_pool_and_in_process_gives_the_same_puzzles(cluster):
    from models.take_it_higher.puzzles import puzzle_game
    from solver.generate import generate

    args = ["generate", "--difficulty", "easy", "--count", "2", "--seed", "1", "--json"]
    runs = {}
    for name, extra in (("default", ()), ("in-process", ("--jobs", "1")),
                        ("dask", ("--scheduler", cluster))):
        r = run(*args, *extra)
        assert r.exit_code == 0, r.output
        runs[name] = json.loads(r.stdout)
    assert runs["default"]["executor"] == f"local pool ({default_jobs()} processes)" \
        if default_jobs() > 1 else "in-process"
    assert runs["in-process"]["executor"] == "in-process"
    assert runs["dask"]["executor"].startswith("dask")
    # the reference: the single-process generator loop of solver/generate.py
    game = puzzle_game()
    kind = game.make_kind(None, "cpsat", 20.0)
    plain = generate(kind, "easy", 2, 1)
    assert len(plain.puzzles) == 2
    for name, data in runs.items():
        assert _puzzles(data) == [
            (g.attempt, g.score, game.write(kind, g.puzzle, g.solution, {
                "difficulty": "easy", "score": g.score, "features": g.features, "seed": 1,
                "attempt": g.attempt})) for g in plain.puzzles], name
        assert (data["attempts"], data["not_unique"], data["wrong_difficulty"]) == (
            plain.attempts, plain.not_unique, plain.wrong_difficulty), name


@pytest.mark.slow
def test_generate_store_resume_and_duplicates(tmp_path):
    import dataclasses

    from models.take_it_higher.puzzles import puzzle_game
    from solver.puzzle_cli import PUZZLES_KIND, generate_stored

    store_path = tmp_path / "puzzles.sqlite"
    args = ["generate", "--difficulty", "easy", "--seed", "1", "--jobs", "1", "--json"]
    whole = json.loads(run(*args, "--count", "2").stdout)
    one = run(*args, "--count", "1", "--store", str(store_path))
    assert one.exit_code == 0, one.output
    resumed = run(*args, "--count", "2", "--store", str(store_path), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert _puzzles(json.loads(resumed.stdout)) == _puzzles(whole)
    with Store(store_path) as s:
        rows = s.rows(PUZZLES_KIND)
        assert [r["seed"] for r in rows] == [p["attempt"] for p in whole["puzzles"]]
        assert rows[0]["canonical"] != rows[1]["canonical"]
    # a game whose canonical form makes every puzzle the same: after the first, each
    # puzzle found is a duplicate, skipped, and generation goes on to the attempt limit
    game = dataclasses.replace(puzzle_game(), canonical=lambda kind, puzzle: "all alike")
    kind = game.make_kind(None, "cpsat", 20.0)
    with Store(tmp_path / "dup.sqlite") as s:
        report = generate_stored(game, kind, (None, "cpsat", 20.0), {}, "easy", 2, 1, 3,
                                 Batch(1, progress=False), store=s)
        assert (len(report.puzzles), report.duplicates, report.attempts) == (1, 1, 3)
        assert len(s.rows(PUZZLES_KIND)) == 1


def test_take_it_higher_canonical_form_folds_the_board_symmetry():
    from models.take_it_higher.puzzles import Puzzle, canonical_puzzle
    from models.take_it_higher.rules import board_symmetries

    class Kind:
        rules = load_rules()

    tiles = Kind.rules.tiles
    (mirror,) = board_symmetries(Kind.rules)
    cells = [c.id for c in Kind.rules.cells]
    a = Puzzle(((cells[0], tiles[0]), (cells[5], tiles[1])), (tiles[2], tiles[3]))
    b = Puzzle(((mirror[cells[0]], tiles[0]), (mirror[cells[5]], tiles[1])),
               (tiles[2], tiles[3]))
    c = Puzzle(((cells[0], tiles[1]), (cells[5], tiles[0])), (tiles[2], tiles[3]))
    d = Puzzle(a.fixed, (tiles[3], tiles[2]))  # the call order matters
    assert canonical_puzzle(Kind, a) == canonical_puzzle(Kind, b)
    assert len({canonical_puzzle(Kind, p) for p in (a, c, d)}) == 3


def _dies_on_three(n: int) -> int:
    if n == 3:
        os._exit(9)  # a worker killed mid-run (e.g. by the OOM killer)
    return n


def test_a_dead_worker_is_a_clear_error_not_a_hang():
    with pytest.raises(ToppiError, match="worker process died"):
        dict(Batch(2, progress=False).run(_dies_on_three, [(n,) for n in range(6)], chunk=1))


def test_tasks_a_pool_cannot_send_run_in_process():
    offset = 10
    batch = Batch(2, progress=False)
    got = dict(batch.run(lambda n: n + offset, [(n,) for n in range(5)]))  # a closure
    assert got == {n: n + 10 for n in range(5)}
    assert batch.where == "in-process"


def _note(seen: list, n: int) -> tuple[int, int]:
    seen.append(n)  # a worker's own copy of the shared list grows with each task it runs
    return os.getpid(), len(seen)


def test_pool_workers_get_the_shared_arguments_once():
    """The arguments every task shares (the rules) reach each pool worker once: all the
    tasks a worker runs, over many chunks, see the very same object (so caches keyed on
    the rules keep hitting), not a fresh copy per chunk."""
    shared: list[int] = []
    got = dict(Batch(2, progress=False).run(_note, [(shared, n) for n in range(400)]))
    assert sorted(got) == list(range(400))
    by_worker: dict[int, list[int]] = {}
    for pid, length in got.values():
        by_worker.setdefault(pid, []).append(length)
    for lengths in by_worker.values():  # 1, 2, ..., all the tasks of that worker
        assert sorted(lengths) == list(range(1, len(lengths) + 1))
    assert shared == []  # the parent's list: the workers had their own
    # the varying arguments arrive with the right task
    assert dict(Batch(2, progress=False).run(divmod, [(n, 7) for n in range(50)])) == \
        {n: divmod(n, 7) for n in range(50)}


def test_progress_bar_shows_done_of_total_rate_and_time_left(monkeypatch):
    """The bar of long runs (on stderr): tasks done of total, tasks per second, time
    elapsed and left."""
    import io

    from rich.console import Console

    import solver.progress as progress

    out = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=out, force_terminal=True, width=120))
    with progress.progress_bar("games") as update:
        for done in range(0, 41, 10):
            update(done, 40)
            time.sleep(0.05)
    text = out.getvalue()
    assert "games" in text and "40/40" in text, text[-300:]
    assert re.search(r"\d+(\.\d+)?/s", text), text[-300:]  # the rate
    assert re.search(r"\d:\d\d:\d\d", text), text[-300:]  # elapsed and left


@pytest.mark.slow
def test_dask_workers_get_the_shared_arguments_once(cluster):
    """On the cluster too, every task a worker runs sees one copy of the shared
    arguments (scattered once), not a fresh copy per chunk: a shared list that each
    task extends (`list.__iadd__`, importable on the workers) keeps growing."""
    shared: list[int] = []
    got = dict(Batch(1, cluster, progress=False).run(
        list.__iadd__, [(shared, [n]) for n in range(300)]))
    assert sorted(got) == list(range(300))
    assert all(n in seen for n, seen in got.items())  # (the list as fetched, later)
    # two workers: one of them ran at least half the tasks on its one copy
    assert max(len(seen) for seen in got.values()) >= 150
    assert shared == []
