"""The executor layer: in-process, a local process pool and a real Dask cluster (a
scheduler and two worker processes on 127.0.0.1) run the same tasks to the same
results; the generate loop gives the same puzzles on each; shared arguments reach a
worker once; failures are one clear line. (Each game's simulate on the three executors,
Ctrl-C and --resume: tests/test_<game>_batch.py.) Tests that start the cluster (5 s) are
marked slow."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time

import pytest

from models.take_it_higher.rules import load_rules
from solver.deadline import Deadline
from solver.errors import BadInput, ToppiError
from solver.executor import Batch, SharedTasks, default_jobs
from solver.store import Store
from tests.cli_helpers import EventDeadline, ctrl_c_as_at_a_terminal, free_port, game_runner

hippo = game_runner("hippo")  # its easy puzzles: a few dozen attempts a second


@pytest.mark.slow

def test_batch_yields_every_task_once_on_each_executor(cluster):
    tasks = [(n,) for n in range(20)]
    for batch in (Batch(1, progress=False), Batch(2, progress=False),
                  Batch(1, cluster, progress=False)):
        got = dict(batch.run(abs, [(-n,) for (n,) in tasks], [n for (n,) in tasks]))
        assert got == {n: n for n in range(20)}, batch.where
        assert not batch.interrupted


def test_a_scheduler_nobody_listens_on_is_one_clear_error():
    address = f"tcp://127.0.0.1:{free_port()}"
    with pytest.raises(BadInput, match="cannot connect"):
        dict(Batch(1, address, progress=False).run(abs, [(-1,)]))


class _CountedTasks(SharedTasks):
    """SharedTasks that remember how many tasks were made."""

    made = 0

    def __getitem__(self, i):
        self.made += 1 if isinstance(i, int) else len(range(*i.indices(len(self))))
        return super().__getitem__(i)


def test_shared_tasks_are_made_on_demand_and_leaving_early_cancels_the_rest():
    """A caller that may stop early offers a billion tasks (SharedTasks: none is built
    ahead) with a window; it leaves after five results, and the pool stops at once:
    no more tasks are made than the five and a window (counted, not timed)."""
    plain = SharedTasks((7,), range(10 ** 9))
    assert len(plain) == 10 ** 9 and plain[3] == (7, 3) and plain[1:3] == [(7, 1), (7, 2)]
    for batch in (Batch(1, progress=False), Batch(2, progress=False)):
        tasks = _CountedTasks((7,), range(10 ** 9))
        got = []
        for key, result in batch.run(max, tasks, range(10 ** 9), window=4):
            got.append((key, result))
            if len(got) == 5:
                break
        assert all(result == max(7, key) for key, result in got)
        assert batch.done == 5
        assert tasks.made <= 5 + 4 + 1, (batch.where, tasks.made)  # (+1: the pickling check)


def _puzzles(data: dict) -> list:
    return [(p["attempt"], p["score"], p["puzzle"]) for p in data["puzzles"]]


@pytest.mark.slow
def test_generate_on_dask_pool_and_in_process_gives_the_same_puzzles(cluster):
    from models.hippo.puzzles import puzzle_game
    from solver.generate import generate

    args = ["generate", "--difficulty", "easy", "--count", "2", "--seed", "1", "--json"]
    runs = {}
    for name, extra in (("default", ()), ("in-process", ("--jobs", "1")),
                        ("dask", ("--scheduler", cluster))):
        r = hippo(*args, *extra)
        assert r.exit_code == 0, r.output
        runs[name] = json.loads(r.stdout)
    assert runs["default"]["executor"] == f"local pool ({default_jobs()} processes)" \
        if default_jobs() > 1 else "in-process"
    assert runs["in-process"]["executor"] == "in-process"
    assert runs["dask"]["executor"].startswith("dask")
    # the reference: the loop of solver/generate.py on its own (in this process)
    game = puzzle_game()
    kind = game.make_kind(None, "cpsat", 20.0)
    plain = generate(kind, "easy", 2, 1)
    assert len(plain.puzzles) == 2 and plain.attempts > 2  # some attempts fail
    for name, data in runs.items():
        assert _puzzles(data) == [
            (g.attempt, g.score, game.write(kind, g.puzzle, g.solution, {
                "difficulty": "easy", "score": g.score, "features": g.features, "seed": 1,
                "attempt": g.attempt})) for g in plain.puzzles], name
        assert (data["attempts"], data["not_unique"], data["wrong_difficulty"]) == (
            plain.attempts, plain.not_unique, plain.wrong_difficulty), name


def test_generate_store_resume_and_duplicates(tmp_path):
    import dataclasses

    from models.hippo.puzzles import puzzle_game
    from solver.puzzles import generate_stored
    from solver.store import PUZZLES_KIND

    store_path = tmp_path / "puzzles.sqlite"
    args = ["generate", "--difficulty", "easy", "--seed", "1", "--jobs", "1", "--json"]
    whole = json.loads(hippo(*args, "--count", "2").stdout)
    one = hippo(*args, "--count", "1", "--store", str(store_path))
    assert one.exit_code == 0, one.output
    resumed = hippo(*args, "--count", "2", "--store", str(store_path), "--resume")
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
    limit = whole["attempts"]  # the attempt that found the second puzzle is the last
    with Store(tmp_path / "dup.sqlite") as s:
        report = generate_stored(game, kind, (None, "cpsat", 20.0), {}, "easy", 2, 1, limit,
                                 Batch(1, progress=False), store=s)
        assert (len(report.puzzles), report.duplicates, report.attempts) == (1, 1, limit)
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


@pytest.mark.slow
def test_ctrl_c_on_a_pool_keeps_the_chunks_its_workers_had_started():
    """Ctrl-C (SIGINT) while a pool works: the chunks the workers had started finish
    (they ignore Ctrl-C) and their results come out, the rest is cancelled, and the
    batch says it was interrupted. In a fresh process: a CP-SAT solve with its own
    Ctrl-C handling (as some tests run) leaves a handler that ends the process. The
    Ctrl-C comes from the first task of the third chunk: by then the first two chunks
    were sent (whatever the load), and six more wait in the parent."""
    code = textwrap.dedent("""
        import json, os, signal, time
        from solver.executor import Batch

        def slow_square(n):
            if n == 8:  # the third chunk begins: Ctrl-C to the batch's process
                os.kill(os.getppid(), signal.SIGINT)
            time.sleep(0.3)
            return n * n

        batch = Batch(2, progress=False)
        got = dict(batch.run(slow_square, [(n,) for n in range(40)], chunk=4))
        print(json.dumps({"interrupted": batch.interrupted, "got": got}))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          preexec_fn=ctrl_c_as_at_a_terminal,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    got = {int(k): v for k, v in out["got"].items()}
    assert out["interrupted"]
    assert set(range(8)) <= set(got) and len(got) < 40  # the first two chunks, not all
    assert all(value == key * key for key, value in got.items())


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
    # Each copy's lists are prefixes of the last one fetched from it, so the lists
    # that are no other's prefix count the copies: two workers hold one each (a third
    # only if the cluster re-sent it to a restarted worker), where a fresh copy per
    # chunk would make one per chunk (about 64 chunks here).
    lists = {tuple(seen) for seen in got.values()}
    copies = [a for a in lists if not any(len(b) > len(a) and b[:len(a)] == a for b in lists)]
    assert 1 <= len(copies) <= 3, [len(c) for c in copies]
    assert sum(len(c) for c in copies) >= 300
    assert shared == []


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    out: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            out |= {int(c) for c in f.read().split()}
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"  # a zombie is gone
    except FileNotFoundError:
        return False


@pytest.mark.skipif(sys.platform != "linux", reason="parent-death signal: Linux")
def test_killing_the_parent_of_a_pool_leaves_no_worker():
    """A batch's process killed outright (SIGKILL) while its pool works: the workers go
    with it. Each task says where it runs, then runs until it is killed."""
    code = textwrap.dedent("""
        import os, time
        from solver.executor import Batch

        def task(n):
            os.write(1, f"{os.getpid()}\\n".encode())  # one write: lines never interleave
            time.sleep(600)

        dict(Batch(2, progress=False).run(task, [(n,) for n in range(4)], chunk=1))
    """)
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        workers = {int(parent.stdout.readline()) for _ in range(2)}  # both have started
        assert len(workers) == 2 and workers <= _children(parent.pid)
    finally:
        parent.kill()
    parent.wait(timeout=60)
    deadline = time.monotonic() + 60  # a guard: the kernel ends them at once
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers)


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_deadline_abandons_the_tasks_still_running(jobs):
    """generate --max-seconds: the batch ends at its deadline, the tasks running then
    are stopped (their workers ended), not waited for; what finished is kept. The
    deadline passes once the quick task's result is in, while the others (ten minutes
    each) run; ending within a minute shows they were not waited for."""
    deadline = EventDeadline()
    batch = Batch(jobs, progress=False, deadline=deadline)
    start = time.monotonic()
    got = {}
    for key, result in batch.run(_nap, [(0.01,), (600.0,), (600.0,)]):
        got[key] = result
        deadline.event.set()
    assert time.monotonic() - start < 60
    assert batch.timed_out and got == {0: 0.01}
    assert batch.where == ("one worker process (a deadline)" if jobs == 1
                           else "local pool (2 processes)")


def test_a_deadline_on_the_clock_stops_tasks_that_cannot_finish():
    """The same on the real clock: tasks of ten minutes, a deadline in a fraction of a
    second; nothing finishes (whatever the load), the run ends."""
    batch = Batch(2, progress=False, deadline=Deadline.after(0.2))
    start = time.monotonic()
    assert dict(batch.run(_nap, [(600.0,), (600.0,), (600.0,)])) == {}
    assert batch.timed_out and time.monotonic() - start < 60
