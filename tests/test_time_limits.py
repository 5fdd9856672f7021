"""Every solving command keeps its --time-limit (issue 21): the table of
scripts/bench_time_limits.py (every verb with a time limit, on inputs where the limit
bites), each run once in this process at a small limit. The script measures the same
table from process start (start-up and exit included) on a quiet machine; here the
margin is wider, since tests share the machine."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import cli
from tests.cli_helpers import load_script

LIMIT = 0.5
SLACK = 2.5  # in-process: no interpreter start; but the suite's other workers share the cores
BENCH = load_script("bench_time_limits")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("limits")
    BENCH.scratch_files(tmp)
    return tmp


def test_the_table_covers_every_verb_with_a_time_limit():
    import click

    ctx = click.Context(cli)
    timed = set()
    for game in cli.list_commands(ctx):
        group = cli.get_command(ctx, game)
        if not isinstance(group, click.Group):
            continue
        for verb in group.list_commands(ctx):
            command = group.get_command(ctx, verb)
            if any(p.name == "time_limit" for p in command.params):
                timed.add(f"{game} {verb}")
    listed = {" ".join(args[:2]) for _, args in BENCH.COMMANDS}
    assert timed and timed <= listed, sorted(timed - listed)


@pytest.mark.parametrize("name,args", BENCH.COMMANDS, ids=[n for n, _ in BENCH.COMMANDS])
def test_the_command_answers_or_stops_within_its_limit(scratch, name, args):
    start = time.perf_counter()
    result = CliRunner().invoke(cli, BENCH.argv(args, LIMIT, scratch))
    seconds = time.perf_counter() - start
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    # the input is valid: an answer (0) or the time limit (3), never a usage error
    assert result.exit_code in (0, 3), (result.exit_code, result.stderr)
    assert seconds <= LIMIT + SLACK, f"{name}: {seconds:.2f} s at --time-limit {LIMIT}"
