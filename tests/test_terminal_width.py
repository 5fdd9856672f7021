"""Terminal output that reads at 80 columns: every verb of every game, printed for a
terminal 80 columns wide, cuts no word to "…" (a table whose words cannot fit is
stacked, row by row). The table of commands covers every verb but those that print no
table of their own (listed, with why)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from solver import render
from solver.registry import games
from tests.cli_helpers import game_runner

ROOT = Path(__file__).resolve().parents[1]
P = ROOT / "puzzles"

# verbs that print no table of their own: an interactive game; one summary line
NOT_HERE = {"play", "generate", "learn"}


def library(game: str) -> str:
    return str(sorted((P / game / "library").glob("*.json"))[0])


TIH, HH, TT = P / "take-it-higher", P / "hoch-hinaus", P / "tippi-toppi"
TOP, HIP = P / "topito", P / "hippo"
COMMANDS: dict[str, dict[str, list[str]]] = {
    "take-it-higher": {
        "show": [f"{TIH}/midgame-basic.json"],
        "moves": [f"{TIH}/midgame-basic.json"],
        "simulate": ["--games", "2", "--policy", "greedy", "--policy", "random",
                     "--optimum-time", "2",
                     "--jobs", "1"],
        "solve": [library("take-it-higher")],
        "check-unique": [library("take-it-higher")],
        "sheet": [library("take-it-higher"), "--svg", "{tmp}/sheet.html"],
        "score": [f"{TIH}/example-board.json", "--variant", "gold-silver"],
        "max": ["--draws", "2", "--jobs", "1"],
        "hint": [f"{TIH}/midgame-basic.json"],
        "tiles": [],
    },
    "hoch-hinaus": {
        "show": [f"{HH}/midgame-2.json"],
        "moves": [f"{HH}/midgame-2.json"],
        "simulate": ["--games", "2", "--jobs", "1"],
        "solve": [library("hoch-hinaus")],
        "check-unique": [library("hoch-hinaus")],
        "sheet": [library("hoch-hinaus"), "--svg", "{tmp}/sheet.html"],
        "achievable": [f"{HH}/midgame-1.json", "--within", "3"],
        "hint": [f"{HH}/midgame-2.json"],
        "reachable": [f"{HH}/endgame-known.json", "--open-hands"],
    },
    "tippi-toppi": {
        "show": [f"{TT}/hidden.json"],
        "moves": [f"{TT}/known-deck.json"],
        "simulate": ["--games", "4", "--jobs", "1"],
        "solve": [library("tippi-toppi")],
        "check-unique": [library("tippi-toppi")],
        "sheet": [library("tippi-toppi"), "--svg", "{tmp}/sheet.html"],
        "achievable": [f"{TT}/known-deck.json", "--within", "6", "--cards", "known"],
        "hint": [f"{TT}/hidden.json"],
        "reachable": [f"{TT}/solo-endgame.json"],
        "tasks": [],
    },
    "topito": {
        "show": [f"{TOP}/midgame.json"],
        "moves": [f"{TOP}/midgame.json"],
        "simulate": ["--games", "2", "--jobs", "1"],
        "solve": [library("topito")],
        "check-unique": [library("topito")],
        "sheet": [library("topito"), "--svg", "{tmp}/sheet.html"],
        "plan": [f"{TOP}/midgame.json", "--card", "Duck on Owl"],
        "reachable": [f"{TOP}/midgame.json", "--card", "Duck on Owl", "--within", "3"],
        "race": [f"{TOP}/race/endgame.json"],
        "hint": [f"{TOP}/midgame.json"],
        "deck": [],
    },
    "hippo": {
        "show": [f"{HIP}/start-2p.json"],
        "moves": [f"{HIP}/start-2p.json", "--roll", "6,4,2"],
        "simulate": ["--games", "4", "--players", "3", "--policy", "best,greedy,random",
                     "--jobs", "1"],
        "solve": [library("hippo")],
        "check-unique": [library("hippo")],
        "sheet": [library("hippo"), "--svg", "{tmp}/sheet.html"],
        "best": [f"{HIP}/midgame-4p.json", "--roll", "3,4,5"],
        "plan": [f"{HIP}/solo-endgame.json", "--rolls", "6,4,2 5,5,1 3,3,2"],
        "finish": [f"{HIP}/solo-endgame.json"],
    },
}


def test_every_verb_is_listed() -> None:
    for game, entry in games().items():
        assert set(COMMANDS[game]) == set(entry.verbs()) - NOT_HERE, game


@pytest.fixture
def eighty_columns(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """stdout and stderr consoles made afresh for a terminal of 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    for console in (render.stdout, render.stderr):
        monkeypatch.setattr(console, "_console", None)
    yield
    for console in (render.stdout, render.stderr):
        console._console = None  # the next test makes its own


@pytest.mark.parametrize("game,verb", [(g, v) for g, verbs in COMMANDS.items()
                                       for v in verbs])
def test_no_word_is_cut_at_80_columns(game: str, verb: str, tmp_path: Path,
                                      eighty_columns: None) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in COMMANDS[game][verb]]
    result = game_runner(game)(verb, *args)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.output
    assert result.exit_code in (0, 3), result.output
    out = result.stdout
    assert out.strip(), result.output
    assert "…" not in out, out
    assert max(len(line) for line in out.splitlines()) <= 80, out


def test_a_legend_only_when_it_applies() -> None:
    """`max --draws`: no '?' legend (best found, not proven) when every draw is proven."""
    run = game_runner("take-it-higher")
    proven = run("max", "--draws", "2", "--jobs", "1")
    assert proven.exit_code == 0, proven.output
    assert "not proven" not in proven.stdout and "?" not in proven.stdout


@pytest.mark.parametrize("game", list(COMMANDS))
def test_the_notation_key_is_in_show_and_help(game: str) -> None:
    run = game_runner(game)
    notation = games()[game].game().notation
    assert len(notation) > 40
    shown = run("show", *COMMANDS[game]["show"])
    assert shown.exit_code == 0, shown.output
    assert "Notation:" in shown.stdout
    helped = run("--help")
    assert helped.exit_code == 0 and "Notation:" in helped.stdout, helped.output


def test_tippi_toppi_pile_labels_fit_their_columns() -> None:
    """Piles of 10+ cards: the words under each pile stay under its column."""
    shown = game_runner("tippi-toppi")("show", f"{TT}/solo-endgame.json")
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    head = lines[0]
    labels = next(line for line in lines if "(14)" in line)
    assert len(labels.rstrip()) <= len(head)
    for p, word in enumerate(("pile 1", "pile 2", "pile 3", "pile 4")):
        column = head.index(word)
        assert labels[column:column + len(word)].strip(), (p, head, labels)


def test_play_says_a_roll_once() -> None:
    """Hippo's picture says what the dice showed; `play` does not say it again before it
    (an opponent's roll, not drawn, is still said)."""
    from click.testing import CliRunner

    from solver.cli import cli

    done = CliRunner().invoke(cli, ["hippo", "play", "--seed", "1", "--players", "2"],
                              input="1\nquit\n")
    assert done.exit_code == 0, done.output
    first = done.stdout.split("Your move")[0]
    assert "threw the dice" in first and "Chance:" not in first
    assert "Chance:" in done.stdout.split("Your move")[1]  # seat 2's roll
