"""Every solving command keeps its --time-limit: the table of
scripts/bench_time_limits.py (every verb with a time limit, on inputs where the limit
bites), each run once in this process at the smallest limit its options take.

Nothing here is timed: a limit that small cuts the work whatever the machine's load,
and what is checked is what the command then says — an answer (exit 0) that says it
was cut (or, not cut, is the very answer of a generous limit), or exit 3 with one line
and no answer. Whether a command ends within its limit + 1 s is measured from process
start by `python scripts/bench_time_limits.py` (docs/architecture.md, Time limits)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from solver.cli import cli
from tests.cli_helpers import load_script, without_times

BENCH = load_script("bench_time_limits")
GENEROUS = 600.0  # a limit that cuts none of the table's work that a tiny one left whole


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("limits")
    BENCH.scratch_files(tmp)
    return tmp


def command(args: list[str]) -> click.Command:
    ctx = click.Context(cli)
    return cli.get_command(ctx, args[0]).get_command(ctx, args[1])


def smallest(cmd: click.Command, name: str) -> float:
    """The smallest value the command's option `name` accepts."""
    (param,) = [p for p in cmd.params if p.name == name]
    return float(param.type.min)


def run(args: list[str], limit: float, max_seconds: float, tmp: Path) -> Result:
    cmd = command(args)
    argv = [a.format(tmp=tmp, limit=max_seconds) for a in args]
    argv += ["--time-limit", repr(limit), "--quiet"]
    if any(p.name == "as_json" for p in cmd.params):
        argv.append("--json")
    return CliRunner().invoke(cli, argv)


def test_the_table_covers_every_verb_with_a_time_limit():
    ctx = click.Context(cli)
    timed = set()
    for game in cli.list_commands(ctx):
        group = cli.get_command(ctx, game)
        if not isinstance(group, click.Group):
            continue
        for verb in group.list_commands(ctx):
            if any(p.name == "time_limit" for p in group.get_command(ctx, verb).params):
                timed.add(f"{game} {verb}")
    listed = {" ".join(args[:2]) for _, args in BENCH.COMMANDS}
    assert timed and timed <= listed, sorted(timed - listed)


@pytest.mark.parametrize("name,args", BENCH.COMMANDS, ids=[n for n, _ in BENCH.COMMANDS])
def test_the_smallest_limit_cuts_cleanly(scratch, name, args):
    cmd = command(args)
    limit = smallest(cmd, "time_limit")
    max_seconds = smallest(cmd, "max_seconds") if "{limit}" in args else limit
    result = run(args, limit, max_seconds, scratch)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    # the input is valid: an answer (0) or no answer within the limit (3)
    assert result.exit_code in (0, 3), (result.exit_code, result.stderr)
    if result.exit_code == 3:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("toppi: error:"), result.stderr
        assert "Traceback" not in result.output
        assert result.stdout.strip() == "", f"{name}: an answer, yet exit 3"
        return
    if not result.stdout.lstrip().startswith("{"):
        return  # a verb without --json (sheet writes its file)
    doc = json.loads(result.stdout)
    if isinstance(doc, dict) and doc.get("cut_by_time") is False:
        # not cut: then the limit changed nothing
        generous = run(args, GENEROUS, GENEROUS, scratch)
        assert generous.exit_code == 0, generous.output
        assert without_times(json.loads(generous.stdout)) == without_times(doc), name
