"""`max --backend auto` and the races behind it (processes: solver/portfolio.py; threads:
solver/race.py): the race gives the value each back-end proves, says who proved it,
leaves no process or solver thread behind (won, lost, time limit, Ctrl-C, error),
keeps the time limit, a sure favourite runs alone until the hedge, and the command
reads its options."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from models.take_it_higher.auto import maximise_auto, predicted_order, prediction
from models.take_it_higher.maximum import maximise
from models.take_it_higher.rules import load_rules, rules_from_dict
from models.take_it_higher.variants import Variant
from solver.backends import SolverOptions
from solver.backends.common import Cancel
from solver.errors import BadInput, TimeLimitReached
from solver.portfolio import Entrant, run_portfolio
from solver.race import ThreadEntrant, run_threads
from tests.cli_helpers import assert_one_line_error, game_runner, load_script, run_json
from tests.tih_small import small_rules, small_rules_dict, small_ship_rules_dict

run = game_runner("take-it-higher")
OPTS = SolverOptions(time_limit=20, seed=0, workers=2)


def gone(pid: int) -> bool:
    """The process no longer exists (reaped: no zombie either)."""
    try:
        import psutil
    except ImportError:  # without psutil: signal 0 fails once the pid is reaped
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    return not psutil.pid_exists(pid)


# --------------------------------------------------------------------- the portfolio

def _value(x: int) -> int:
    return x


def _sleep(seconds: float) -> int:
    time.sleep(seconds)
    return -1


def _bad_input() -> int:
    raise BadInput("no board can be filled with these tiles")


def _bug() -> int:
    raise ZeroDivisionError("oops")


def _no_answer() -> int:
    raise TimeLimitReached("nothing found (proven bound 7)")


def test_first_proven_answer_wins_and_the_loser_is_gone():
    pids: dict[str, int] = {}
    race = run_portfolio([Entrant("slow", _sleep, (60,)), Entrant("fast", _value, (5,))],
                         lambda x: x == 5, 30, on_start=pids.update)
    assert race.proved_by == "fast" and race.result == 5
    assert {r.name: r.state for r in race.reports} == {"slow": "stopped", "fast": "proved"}
    assert race.seconds < 5
    assert set(pids) == {"slow", "fast"} and all(gone(p) for p in pids.values())


def test_unproven_answers_are_kept_until_every_entrant_ends():
    race = run_portfolio([Entrant("a", _value, (3,)), Entrant("b", _no_answer)],
                         lambda x: False, 10)
    assert race.proved_by is None and race.answers == {"a": 3}
    states = {r.name: (r.state, r.message) for r in race.reports}
    assert states == {"a": ("answered", None), "b": ("no answer", "nothing found (proven "
                                                             "bound 7)")}


def test_the_deadline_stops_an_entrant_that_overruns():
    pids: dict[str, int] = {}
    start = time.perf_counter()
    with pytest.raises(TimeLimitReached):
        run_portfolio([Entrant("a", _sleep, (60,)), Entrant("b", _sleep, (60,))],
                      lambda x: True, 0.3, grace=0.2, on_start=pids.update)
    assert time.perf_counter() - start < 1.5
    assert all(gone(p) for p in pids.values())


def test_bad_input_settles_the_race_and_a_bug_is_raised():
    pids: dict[str, int] = {}
    with pytest.raises(BadInput, match="no board"):
        run_portfolio([Entrant("a", _sleep, (60,)), Entrant("b", _bad_input)],
                      lambda x: True, 30, on_start=pids.update)
    assert all(gone(p) for p in pids.values())
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        run_portfolio([Entrant("a", _sleep, (60,)), Entrant("b", _bug)], lambda x: True, 30,
                      on_start=pids.update)
    assert all(gone(p) for p in pids.values())


def _niceness() -> int:
    return os.nice(0)


def test_an_outsider_runs_at_a_lower_priority():
    race = run_portfolio([Entrant("n", _niceness, nice=7)], lambda x: True, 10)
    assert race.result == os.nice(0) + 7


def test_ctrl_c_leaves_no_process():
    pids: dict[str, int] = {}

    def interrupt(started: dict[str, int]) -> None:
        pids.update(started)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_portfolio([Entrant("a", _sleep, (60,)), Entrant("b", _sleep, (60,))],
                      lambda x: True, 30, on_start=interrupt)
    assert len(pids) == 2 and all(gone(p) for p in pids.values())


# --------------------------------------------------------------------- the thread race

def solver_threads() -> list[str]:
    """The race's threads still running (an entrant, or a solve's cancel watcher)."""
    return [t.name for t in threading.enumerate() if t.is_alive() and t.name in (
        "toppi-a", "toppi-b", "toppi-cpsat", "toppi-maxsat", "toppi-cancel")]


def _waits(cancel: Cancel) -> int:
    """Stands for a solve: ends (no answer) when the race cancels it."""
    if cancel.wait(60):
        raise TimeLimitReached("cancelled")
    return -1


def test_threads_first_proven_wins_and_the_loser_is_cancelled():
    start = time.perf_counter()
    race = run_threads([ThreadEntrant("a", _waits), ThreadEntrant("b", lambda c: 5)],
                       lambda x: x == 5, 30)
    assert race.proved_by == "b" and race.result == 5
    assert {r.name: r.state for r in race.reports} == {"a": "stopped", "b": "proved"}
    assert time.perf_counter() - start < 30 and solver_threads() == []  # the loser's 60 s cut


def test_threads_a_hedge_starts_only_without_a_proof_by_then():
    started: list[str] = []
    race = run_threads([ThreadEntrant("a", lambda c: 5), ThreadEntrant("b", _waits, 10)],
                       lambda x: x == 5, 30, on_start=started.append)
    assert race.proved_by == "a" and started == ["a"]  # b never ran
    assert [r.name for r in race.reports] == ["a"]
    started.clear()
    race = run_threads([ThreadEntrant("a", _waits), ThreadEntrant("b", lambda c: 5, 0.2)],
                       lambda x: x == 5, 30, on_start=started.append)
    assert race.proved_by == "b" and started == ["a", "b"]
    assert race.seconds >= 0.2 and solver_threads() == []


def test_threads_errors_and_the_deadline():
    with pytest.raises(BadInput, match="no board"):
        run_threads([ThreadEntrant("a", _waits), ThreadEntrant("b", lambda c: _bad_input())],
                     lambda x: True, 30)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        run_threads([ThreadEntrant("a", _waits), ThreadEntrant("b", lambda c: _bug())],
                     lambda x: True, 30)
    start = time.perf_counter()
    with pytest.raises(TimeLimitReached):
        run_threads([ThreadEntrant("a", _waits), ThreadEntrant("b", _waits)],
                    lambda x: True, 0.3, grace=0.2)
    assert time.perf_counter() - start < 30 and solver_threads() == []  # not their 60 s


def _big(tmp_path: Path):
    gen = load_script("make_take_it_higher_rules")
    gen.write_shape("octagon-8", tmp_path / "big.json")
    return load_rules(tmp_path / "big.json")


def test_threads_ctrl_c_stops_both_solvers(tmp_path):
    """Ctrl-C during a race of two real solves (minutes of work each): both stop at
    once, no solver thread is left."""
    rules = _big(tmp_path)
    opts = SolverOptions(time_limit=120, seed=0, workers=1)

    def solve(backend: str):
        return lambda cancel: maximise(rules, Variant(True), None, backend,
                                       SolverOptions(**{**opts.__dict__, "cancel": cancel}),
                                       canonical=False)

    def interrupt(name: str) -> None:
        if name == "maxsat":
            time.sleep(1.0)  # both solves under way
            raise KeyboardInterrupt

    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        run_threads([ThreadEntrant("cpsat", solve("cpsat")),
                     ThreadEntrant("maxsat", solve("maxsat"))], lambda x: True, 120,
                    on_start=interrupt)
    assert time.perf_counter() - start < 60 and solver_threads() == []  # not 120 s


# --------------------------------------------------------------------- max --backend auto

@pytest.mark.parametrize("seed, gold_silver, k", [(3, False, 0), (11, True, 0), (5, False, 2),
                                                  (8, True, 3), (4, False, 6), (0, False, 0),
                                                  (6, True, 0)])
def test_auto_equals_each_single_backend(seed, gold_silver, k):
    rules = small_rules(seed, n_cells=6, n_tiles=9)
    draw = list(rules.tiles[:k]) or None
    variant = Variant(gold_silver)
    auto = maximise_auto(rules, variant, draw, OPTS, hedge=0)  # both race at once
    assert auto.backend == "auto" and auto.status == "optimal"
    assert auto.proved_by in ("cpsat", "maxsat")
    for backend in ("cpsat", "maxsat"):
        assert maximise(rules, variant, draw, backend, OPTS).score == auto.score, backend
    # the race is over: no solver of it is left running
    assert len(auto.race) == 2 and solver_threads() == []
    states = {r.name: r.state for r in auto.race}
    assert states[auto.proved_by] == "proved"


def test_a_sure_favourite_proves_alone():
    rules = small_rules(3, n_cells=6, n_tiles=9)
    draw = list(rules.tiles[:6])  # a draw fixes the tile set: CP-SAT, sure
    auto = maximise_auto(rules, Variant(), draw, OPTS)
    assert auto.proved_by == "cpsat" and [r.name for r in auto.race] == ["cpsat"]
    assert auto.score == maximise(rules, Variant(), draw, "maxsat", OPTS).score


@pytest.mark.parametrize("free, workers", [(2, 2), (1, 1), (0, 1)])
def test_a_sure_cpsat_takes_no_more_workers_than_free_cores(monkeypatch, free, workers):
    import models.take_it_higher.auto as auto_module

    asked = []
    real = auto_module.maximise

    def spy(rules, variant, draw, backend, options, **kw):
        asked.append((backend, options.workers))
        return real(rules, variant, draw, backend, options, **kw)

    monkeypatch.setattr(auto_module, "free_cores", lambda: free)
    monkeypatch.setattr(auto_module, "maximise", spy)
    rules = small_rules(3, n_cells=6, n_tiles=9)
    draw = list(rules.tiles[:6])  # CP-SAT, sure: alone until the hedge
    auto = maximise_auto(rules, Variant(), draw, OPTS)
    assert asked == [("cpsat", workers)] and auto.proved_by == "cpsat"


def test_racing_at_once_cpsat_leaves_maxsat_a_core(monkeypatch):
    import models.take_it_higher.auto as auto_module

    asked = []
    real = auto_module.maximise

    def spy(rules, variant, draw, backend, options, **kw):
        asked.append((backend, options.workers))
        return real(rules, variant, draw, backend, options, **kw)

    monkeypatch.setattr(auto_module, "free_cores", lambda: 2)
    monkeypatch.setattr(auto_module, "maximise", spy)
    rules = small_rules(3, n_cells=6, n_tiles=9)
    maximise_auto(rules, Variant(), None, replace(OPTS, workers=3), hedge=0)  # at once
    assert sorted(asked) == [("cpsat", 2), ("maxsat", 3)]


def test_auto_runs_the_only_backend_of_a_spaceship_variant(tmp_path):
    path = tmp_path / "ships.json"
    path.write_text(json.dumps(small_ship_rules_dict(4, n_cells=3, n_tiles=4)))
    data = run_json(run, "max", "--rules", str(path), "--variant", "simple")
    assert data["backend"] == "auto" and data["proved_by"] == "cpsat"
    assert data["race"] == []  # nothing to race: CP-SAT ran in this process
    assert data["status"] == "optimal"


def test_cli_says_which_backend_proved_it(tmp_path):
    path = tmp_path / "small.json"
    path.write_text(json.dumps(small_rules_dict(21, n_cells=6, n_tiles=9)))
    data = run_json(run, "max", "--rules", str(path), "--gold-silver")
    single = run_json(run, "max", "--rules", str(path), "--gold-silver", "--backend", "maxsat")
    assert data["backend"] == "auto" and data["proved_by"] in ("cpsat", "maxsat")
    assert set(single) <= set(data)  # every key of a single back-end's answer is kept
    assert data["score"] == single["score"] and data["status"] == "optimal"
    text = run("max", "--rules", str(path))
    assert text.exit_code == 0, text.output
    assert "proven optimal (auto: proved by " in text.output


def _big_rules(tmp_path) -> str:
    """A board of 100 cells: neither back-end has a board a few milliseconds in."""
    gen = load_script("make_take_it_higher_rules")
    path = tmp_path / "big.json"
    gen.write_shape("octagon-8", path)
    return str(path)


def test_time_limit_without_an_answer_exits_3_in_time(tmp_path):
    path = _big_rules(tmp_path)
    start = time.perf_counter()
    result = run("max", "--rules", path, "--gold-silver", "--time-limit", "0.01")
    seconds = time.perf_counter() - start
    assert result.exit_code == 3, result.output
    assert "time limit" in result.output and "Traceback" not in result.output
    assert seconds < 60  # a hang guard only: how soon it stops is bench_time_limits'


def test_the_favourite_is_guessed_from_measured_features():
    rules = small_rules(0, n_cells=6, n_tiles=9)
    assert all(len(d.colours) == 2 for d in rules.directions)
    guess = prediction(rules, Variant(), None)  # two colours, a free choice: a race
    assert guess.order == ("maxsat", "cpsat") and not guess.sure
    full = list(rules.tiles[:rules.board_size])
    assert prediction(rules, Variant(True), full) == prediction(rules, Variant(), full)
    assert prediction(rules, Variant(), full).order == ("cpsat", "maxsat")
    assert prediction(rules, Variant(), full).sure
    assert predicted_order(rules, Variant(True), None) == ("cpsat", "maxsat")
    assert predicted_order(rules, Variant(ships="simple"), None) == ("cpsat",)
    three = small_rules(3, n_cells=6, n_tiles=9)  # a direction of three colours
    assert prediction(three, Variant(True), None).order == ("maxsat", "cpsat")
    five = small_rules_dict(0, n_cells=6, n_tiles=9)
    five["directions"] += [{**d, "name": d["name"] + "2"} for d in five["directions"][:2]]
    for t in five["tiles"]:
        t["stripes"].update({k + "2": v for k, v in list(t["stripes"].items())[:2]})
    guess = prediction(rules_from_dict(five), Variant(), None)  # five directions,
    assert guess.order == ("maxsat", "cpsat") and not guess.sure  # 9 tiles, 6 cells
    five["tiles"] += [{**t, "id": t["id"] + "b"} for t in five["tiles"]]
    guess = prediction(rules_from_dict(five), Variant(), None)  # 18 tiles: CP-SAT
    assert guess.order == ("cpsat", "maxsat") and guess.sure
    easy = load_rules(Path(__file__).parents[1] / "puzzles/take-it-higher/rules/take-it-easy.json")
    guess = prediction(easy, Variant(), None)  # three colours a direction: MaxSAT
    assert guess.order == ("maxsat", "cpsat") and guess.sure


def test_draws_with_auto_solve_every_draw_with_one_backend(tmp_path):
    path = tmp_path / "small.json"
    path.write_text(json.dumps(small_rules_dict(21, n_cells=6, n_tiles=9)))
    data = run_json(run, "max", "--rules", str(path), "--draws", "2", "--jobs", "1")
    assert data["backend"] == "auto" and data["solved_with"] == "cpsat"
    assert data["proven"] == 2


def test_bad_backend_is_one_line():
    assert_one_line_error(run("max", "--backend", "gurobi"), "--backend", "gurobi")


@pytest.mark.parametrize("readings, opened, free", [
    ([3, 1, 2, 2, 2], 2, 2),  # this thread alone at the second reading: no more needed
    ([1, 3, 3, 3, 3], 1, 2),
    ([3, 2, 3, 2, 2], 5, 1),  # one other task all along: one core free
    ([4, 5, 4, 6, 4], 5, 0),
])
def test_free_cores_is_the_fewest_reading_and_stops_once_nothing_else_runs(
        monkeypatch, readings, opened, free):
    from solver import race as race_module

    left = iter(readings)
    calls = []

    def fake_open(path, encoding=None):
        calls.append(path)
        return io.StringIO(f"cpu  1 2 3\nprocs_running {next(left)}\nprocs_blocked 0\n")
    monkeypatch.setattr(race_module, "open", fake_open, raising=False)
    monkeypatch.setattr(race_module.os, "sched_getaffinity", lambda pid: {0, 1})
    assert race_module.free_cores() == free
    assert len(calls) == opened
