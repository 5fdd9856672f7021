"""The live status line of long solves and the --quiet switch (solver/progress.py)."""

from __future__ import annotations

import io
import random
import re
import time

import click
import pytest
from click.testing import CliRunner
from ortools.sat.python import cp_model
from rich.console import Console

from solver import progress
from solver.backends import SolverOptions, cpsat
from solver.backends.sat import INTERRUPTIBLE, CnfBuilder, IncrementalSat, maxsat
from solver.deadline import Deadline
from solver.verb_cli import QUIET, click_option
from solver.verbs import solver_params


@pytest.fixture
def terminal(monkeypatch):
    """stderr as a terminal writing into a buffer; lines show at once."""
    out = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=out, force_terminal=True,
                                                    width=160))
    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)
    monkeypatch.delenv("TOPPI_QUIET", raising=False)
    progress.set_quiet(False)
    yield out
    progress.set_quiet(False)


@pytest.fixture(autouse=True)
def drawing_allowed(monkeypatch):
    """Progress may draw, whatever a test run before in this process left (--quiet, a
    listener of the web app's worker, a line still owned) or the environment says."""
    monkeypatch.setattr(progress, "_quiet", False)
    monkeypatch.setattr(progress, "_owner", None)
    monkeypatch.setattr(progress, "_listener", None)
    monkeypatch.delenv("TOPPI_QUIET", raising=False)


@pytest.fixture
def reports(monkeypatch):
    """Every value a live status line receives, in order: ("found"|"bound"|"step", v)."""
    got: list[tuple[str, object]] = []
    for name in ("found", "bound", "step"):
        original = getattr(progress.LiveStatus, name)

        def record(self, *args, _name=name, _original=original):
            got.append((_name, args[0] if len(args) == 1 else args))
            _original(self, *args)

        monkeypatch.setattr(progress.LiveStatus, name, record)
    return got


def knapsack(n: int = 40, seed: int = 1) -> cp_model.CpModel:
    rng = random.Random(seed)
    m = cp_model.CpModel()
    x = [m.new_bool_var(f"x{i}") for i in range(n)]
    m.add(sum(rng.randint(5, 40) * xi for xi in x) <= 10 * n)
    m.maximize(sum(rng.randint(5, 40) * xi for xi in x))
    return m


def lines(out: io.StringIO) -> list[str]:
    """The texts the line showed (control codes removed)."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    return [s.strip() for s in re.split(r"[\r\n]", text) if s.strip()]


def elapsed_and_left(line: str) -> tuple[float, float]:
    """The seconds elapsed and left a status line shows ("..., 1.3 s, 58.7 s left")."""
    found = re.search(r", (\d+\.\d) s, (\d+\.\d) s left$", line)
    assert found, line
    return float(found[1]), float(found[2])


def test_line_shows_best_bound_gap_elapsed_and_time_left(terminal):
    with progress.live_status("CP-SAT", 60) as status:
        assert status.active
        status.found(910)
        status.bound(912)
        time.sleep(0.3)  # a few redraws
    shown = lines(terminal)
    assert shown, terminal.getvalue()
    last = shown[-1]
    assert re.fullmatch(r"\S+ CP-SAT: best 910, bound 912, gap 0\.2%, \d+\.\d s, "
                        r"\d+\.\d s left", last), last
    # elapsed and left, read at one moment, make the limit (however long the redraw
    # took on a busy machine)
    elapsed, left = elapsed_and_left(last)
    assert elapsed >= 0.3 and abs(elapsed + left - 60) <= 0.11, last
    # gone at the end: the last thing written erases the line
    assert terminal.getvalue().endswith("\x1b[2K")


def test_line_counts_samples_and_says_searching_before_any_value(terminal):
    status = progress.LiveStatus("hint", None, unit="samples")
    assert status.text(status.start + 1.25) == "hint: searching, 1.2 s"
    status.step(12, 40)
    assert status.text(status.start + 2.0) == "hint: 12/40 samples, 2.0 s"
    calls = progress.LiveStatus("SAT", 10.0, unit="call")
    calls.step(7)
    assert calls.text(calls.start + 3.0).startswith("SAT: call 7, 3.0 s, 7.0 s left")
    # a minimisation: the bound is below the best; past the deadline no time left shows
    low = progress.LiveStatus("", 1.0)
    low.found(50)
    low.bound(40)
    assert low.text(low.start + 5) == "best 50, bound 40, gap 20.0%, 5.0 s"


def test_nothing_when_not_a_terminal_or_quiet(terminal, monkeypatch):
    progress.set_quiet(True)
    with progress.live_status("CP-SAT", 60) as status:
        assert status is progress.NO_STATUS
        status.found(3)
    with progress.progress_bar("games") as update:
        update(1, 2)
    progress.set_quiet(False)
    monkeypatch.setenv("TOPPI_QUIET", "1")
    with progress.live_status("CP-SAT", 60) as status:
        assert not status.active
    assert terminal.getvalue() == ""
    monkeypatch.setenv("TOPPI_QUIET", "0")
    with progress.live_status("CP-SAT", 60) as status:
        assert status.active
    # not a terminal: nothing written at all
    piped = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=piped, width=160))
    with progress.live_status("CP-SAT", 60) as status:
        assert status is progress.NO_STATUS
        time.sleep(0.05)
    with progress.progress_bar("games") as update:
        update(1, 2)
    assert piped.getvalue() == ""


def test_quick_work_never_touches_the_terminal(monkeypatch):
    """Work shorter than SHOW_AFTER draws nothing. SHOW_AFTER an hour here: a busy
    machine that pauses this process cannot make the empty blocks "long"."""
    out = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=out, force_terminal=True))
    monkeypatch.setattr(progress, "SHOW_AFTER", 3600.0)
    for _ in range(50):
        with progress.live_status("CP-SAT", 60) as status:
            status.found(1)
    assert out.getvalue() == ""


def test_one_line_at_a_time(terminal):
    """A solve inside a batch bar or inside another line draws nothing of its own; a
    line opened with solves=True takes the solves' values, each solve replacing the
    last one's; a bar inside a line counts on that line."""
    with progress.progress_bar("games"), progress.live_status("CP-SAT", 5) as inner:
        assert inner is progress.NO_STATUS
    with progress.live_status("hint", 10, unit="samples") as outer:
        with progress.live_status("CP-SAT", 1) as inner:
            assert inner is progress.NO_STATUS
        with progress.progress_bar("futures") as update:
            update(3, 8)
        assert outer.text().startswith("hint: 3/8 samples")
    with progress.live_status("max", 60, unit="draws", solves=True) as outer:
        outer.step(2, 5)
        with progress.live_status("CP-SAT", 30) as inner:
            inner.found(100)
            inner.bound(120)
            inner.step(7)  # the solve's own count stays off the line
        assert outer.text().startswith("max · CP-SAT: 2/5 draws, best 100, bound 120")
        with progress.live_status("MaxSAT", 20) as inner:
            # a new solve: the last one's values go, its time limit (20 s, sooner than
            # the line's 60) counts down
            text = outer.text()
            assert re.fullmatch(r"max · MaxSAT: 2/5 draws, \d+\.\d s, \d+\.\d s left", text)
            assert 0 < elapsed_and_left(text)[1] <= 20.0, text
            inner.bound(115)
        assert outer.text().startswith("max · MaxSAT: 2/5 draws, bound 115, ")


def test_cpsat_solve_reports_its_solutions_and_final_bound(terminal, reports):
    model = knapsack()
    _, outcome = cpsat.solve(model, SolverOptions(time_limit=20, workers=2))
    assert outcome.status == "optimal"
    found = [v for kind, v in reports if kind == "found"]
    bounds = [v for kind, v in reports if kind == "bound"]
    assert found and found[-1] == outcome.objective
    assert bounds and bounds[-1] == outcome.objective  # the proof closes the gap
    assert all(b >= outcome.objective for b in bounds)  # a maximum: bounds from above
    assert f"best {outcome.objective}, bound {outcome.objective}, gap 0.0%" in lines(
        terminal)[-1]


def test_cpsat_solve_adds_no_callback_when_nothing_shows(monkeypatch, reports):
    """Off a terminal the solve runs exactly as without a status line: no solution
    callback (which can slow CP-SAT) and no report."""
    monkeypatch.setattr(progress, "stderr", Console(file=io.StringIO()))
    made: list[object] = []
    original = cpsat._reporter
    monkeypatch.setattr(cpsat, "_reporter", lambda *a: made.append(a) or original(*a))
    _, outcome = cpsat.solve(knapsack(), SolverOptions(time_limit=20))
    assert outcome.status == "optimal"
    assert made == [] and reports == []
    # on a terminal the callback is there; with the solver's own log (its progress)
    # there is no line over it
    out = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=out, force_terminal=True))
    assert cpsat.solve(knapsack(), SolverOptions(time_limit=20))[1].objective == \
        outcome.objective
    assert len(made) == 1
    assert cpsat.solve(knapsack(), SolverOptions(time_limit=20, log=True))[1].objective == \
        outcome.objective
    assert len(made) == 1 and out.getvalue() == ""


def test_maxsat_reports_bounds_from_its_cores(terminal, reports):
    rng = random.Random(3)
    b = CnfBuilder()
    xs = [b.var(i) for i in range(40)]
    for _ in range(150):
        b.clause([rng.choice((1, -1)) * rng.choice(xs) for _ in range(3)])
    for x in xs:
        b.reward(x, rng.randint(1, 9))
    _, outcome = maxsat(b, SolverOptions(time_limit=20))
    assert outcome.status == "optimal"
    bounds = [v for kind, v in reports if kind == "bound"]
    total = sum(w for _, w in b.soft)
    # each core lowers the bound from the total towards the optimum
    assert len(bounds) >= 2 and bounds[0] < total
    assert bounds == sorted(bounds, reverse=True) and bounds[-1] == outcome.objective


def test_sat_calls_until_a_deadline_are_counted_on_one_line(terminal, reports):
    b = CnfBuilder()
    xs = [b.var(i) for i in range(6)]
    b.at_most(xs, 2)
    deadline = Deadline.after(30)
    with IncrementalSat(b, INTERRUPTIBLE) as sat:
        for k in range(1, 5):  # a growing horizon: first k variables true
            sat.solve_limited(xs[:k], deadline=deadline)
        sat.solve_limited(xs[:1])  # no deadline: a quick call, no line
    assert [v for kind, v in reports if kind == "step"] == [1, 2, 3, 4]
    last = lines(terminal)[-1]
    assert re.match(r"\S+ SAT: call 4, \d+\.\d s, \d+\.\d s left", last), last
    # the time left counts down to the calls' deadline (made before the line opened)
    elapsed, left = elapsed_and_left(last)
    assert 0 < left and elapsed + left <= 30.11, last


def test_quiet_option_silences_a_command(terminal):
    def solve(time_limit: float, **solver: object) -> None:
        with progress.live_status("CP-SAT", time_limit) as status:
            click.echo(f"active={status.active}")

    solve_cmd = click.Command("solve", callback=solve, params=[
        *(click_option(p) for p in solver_params(5)), QUIET])
    plain_cmd = click.Command("plain", params=[QUIET],
                              callback=lambda: click.echo(f"quiet={progress.is_quiet()}"))

    runner = CliRunner()
    assert runner.invoke(solve_cmd, ["--quiet"]).output == "active=False\n"
    assert runner.invoke(plain_cmd, []).output == "quiet=False\n"
    assert runner.invoke(plain_cmd, ["--quiet"]).output == "quiet=True\n"
    # each run sets the switch afresh
    assert runner.invoke(solve_cmd, []).output == "active=True\n"
    assert "--quiet" in runner.invoke(solve_cmd, ["--help"]).output


def test_inactive_reporting_costs_one_check_per_solve(monkeypatch):
    """Off a terminal a solve does the same solver work as before: counted, not timed
    (wall times are too noisy on a shared machine)."""
    monkeypatch.setattr(progress, "stderr", Console(file=io.StringIO()))
    checks = 0
    original = progress._can_draw

    def counted(console):
        nonlocal checks
        checks += 1
        return original(console)

    monkeypatch.setattr(progress, "_can_draw", counted)
    solves = []
    monkeypatch.setattr(cp_model.CpSolver, "solve",
                        lambda self, model, callback=None, _s=cp_model.CpSolver.solve:
                        solves.append(callback) or _s(self, model, callback))
    for seed in range(3):
        cpsat.solve(knapsack(20, seed), SolverOptions(time_limit=10))
    assert checks == 3 and solves == [None, None, None]


def test_a_listener_hears_every_solve_without_a_terminal(reports):
    """`reporting_to`: each live status opened inside is told to the listener, with the
    values the solver reports, and progress bars report to the innermost one; nothing
    is drawn (stderr is not a terminal here)."""
    heard: list[tuple[str, str]] = []

    class Ear(progress.Listener):
        def opened(self, status):
            heard.append(("opened", status.label))

        def closed(self, status):
            heard.append(("closed", status.label))
            if status.label == "CP-SAT":
                heard.append(("best", status.best))

    with progress.reporting_to(Ear()):
        _, result = cpsat.solve(knapsack(), SolverOptions(time_limit=10, workers=1))
        with progress.live_status("samples", unit="samples") as status, \
                progress.progress_bar("games") as update:
            update(3, 7)
            assert (status.done, status.total) == (3, 7)
    assert heard[0] == ("opened", "")  # the block's own root status
    assert ("opened", "CP-SAT") in heard and ("closed", "CP-SAT") in heard
    assert ("best", result.objective) in heard
    assert heard[-1] == ("closed", "")
    assert ("found", result.objective) in reports
    assert progress.current_status() is progress.NO_STATUS  # all closed again
