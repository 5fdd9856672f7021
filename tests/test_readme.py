"""The README's "Using it" block runs as written: every command, on the installed
`toppi` (the script beside this Python), from a folder holding the repository's
puzzles, exits 0. Commands that read what an earlier one wrote (`--out`) run after it,
in one test. Also: the Take It Easy rules file that ships has its published maximum."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# commands over a few seconds on the 2-core machine (and the chains they head)
SLOW = ("max --variant gold-silver", "max --rules", "learn", "generate", "simulate",
        "hint puzzles/hoch-hinaus")
GUARD = 600  # seconds: a hang, never a verdict


def using_it() -> list[str]:
    """The commands of the README's "Using it" block, comments dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Using it", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    commands = [line.split("  #")[0].strip() for block in blocks
                for line in block.splitlines()]
    return [c for c in commands if c.startswith("toppi ")]


def chains(commands: list[str]) -> list[list[str]]:
    """The commands grouped so that one reading a file written by an earlier one's
    `--out` runs after it, in the same group."""
    groups: list[list[str]] = []
    writer: dict[str, int] = {}
    for command in commands:
        reads = [g for name, g in writer.items() if name in command.split("--out")[0]]
        if reads:
            group = reads[0]
            groups[group].append(command)
        else:
            group = len(groups)
            groups.append([command])
        for out in re.findall(r"--out (\S+)", command):
            writer[out.rstrip("/")] = group
    return groups


def test_the_block_is_read() -> None:
    commands = using_it()
    assert len(commands) >= 20
    assert all(" FILE" not in c and "..." not in c for c in commands), commands
    groups = chains(commands)
    learn = next(g for g in groups if any(" learn " in c for c in g))
    assert any("--values easy-values.json.gz" in c for c in learn), learn


def toppi_env() -> dict[str, str]:
    """PATH with the installed toppi first (the venv's bin, beside this Python)."""
    env = dict(os.environ, COLUMNS="100")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def _marks(group: list[str]) -> list[pytest.MarkDecorator]:
    return [pytest.mark.slow] if any(s in c for c in group for s in SLOW) else []


@pytest.mark.parametrize("group", [pytest.param(g, id=g[0][6:60], marks=_marks(g))
                                   for g in chains(using_it())])
def test_readme_command_runs_as_written(group: list[str], tmp_path: Path) -> None:
    if not (Path(sys.executable).parent / "toppi").exists():
        pytest.fail("no installed toppi beside this Python: pip install -e '.[test]'",
                    pytrace=False)
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    for command in group:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=toppi_env(),
                              input="quit\n", capture_output=True, text=True,
                              timeout=GUARD)
        assert done.returncode == 0, (command, done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (command, done.stderr[-2000:])
        assert (done.stdout + done.stderr).strip(), command  # it said something


@pytest.mark.slow
def test_take_it_easy_has_its_published_maximum() -> None:
    """Take It Easy's rules as a rules file of the family: the best board of any 19 of
    its 27 tiles scores 307 (published), proven by MaxSAT."""
    from click.testing import CliRunner

    from solver.cli import cli

    rules = ROOT / "puzzles/take-it-higher/rules/take-it-easy.json"
    result = CliRunner().invoke(cli, ["take-it-higher", "max", "--rules", str(rules),
                                      "--backend", "maxsat", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert (answer["score"], answer["status"]) == (307, "optimal")
    data = json.loads(rules.read_text())
    assert (len(data["cells"]), len(data["tiles"])) == (19, 27)
    assert sorted(sorted(data["colours"][k]["value"] for k in d["colours"])
                  for d in data["directions"]) == [[1, 5, 9], [2, 6, 7], [3, 4, 8]]
