"""The command line: games listed without importing them, bad input is one line + exit 2."""

from __future__ import annotations

import importlib
import json
import pickle
import subprocess
import sys

import pytest

from solver.cli import COMMANDS, cli
from solver.generate import DIFFICULTIES
from solver.registry import games
from tests.cli_helpers import assert_one_line_error, game_runner
from tests.tih_small import small_rules_dict

run = game_runner("")


def test_help_lists_the_five_games():
    out = run("--help").output
    for game in ("take-it-higher", "hoch-hinaus", "tippi-toppi", "topito", "hippo"):
        assert game in out


def test_help_imports_no_game_nor_solver():
    """`toppi --help` lists the games from the registry's table alone: no game package,
    no solver library is imported (they cost about a second)."""
    code = ("import sys\n"
            "from solver.cli import cli\n"
            "try:\n"
            "    cli(['--help'])\n"
            "except SystemExit:\n"
            "    pass\n"
            "heavy = [m for m in sys.modules if m.startswith('models.') or m.split('.')[0] "
            "in ('ortools', 'pysat', 'dask', 'distributed', 'numpy', 'pandas')]\n"
            "print('IMPORTED', sorted(heavy))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "hippo" in out and "take-it-higher" in out
    assert out.splitlines()[-1] == "IMPORTED []"


# Never imported by `toppi <game> --help`: rich (its consoles are made when something is
# printed, its tables, markup and live displays imported by the code printing them), the
# solver libraries and what they bring, the generator, the simulation, the executor, the
# store and the games' puzzle modules (with their encodings).
HELP_NEVER_IMPORTS = ("rich", "ortools", "pysat", "numpy", "pandas", "distributed",
                      "solver.generate", "solver.simulate", "solver.executor", "solver.store",
                      *(f"{g.package}.puzzles" for g in games().values()))


@pytest.mark.parametrize("command", [*games(), "puzzles"])
def test_a_games_help_imports_no_solver(command):
    """`toppi <game> --help` declares the commands and their options only: what a
    command needs to run is imported when it runs (counted in a fresh process)."""
    code = ("import json, sys\n"
            "from solver.cli import cli\n"
            "try:\n"
            f"    cli([{command!r}, '--help'])\n"
            "except SystemExit:\n"
            "    pass\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    modules = json.loads(out.splitlines()[-1])
    assert (COMMANDS[command][0] if command in COMMANDS else
            f"{games()[command].package}.game") in modules
    assert [m for m in modules if any(m == heavy or m.startswith(heavy + ".")
                                      for heavy in HELP_NEVER_IMPORTS)] == []


@pytest.mark.parametrize("game", list(games()))
def test_the_puzzle_commands_are_those_of_the_puzzle_module(game):
    """The command line describes each game's puzzles without importing its puzzle
    module: the back-ends it offers are the module's own."""
    package = games()[game].package
    group = cli.get_command(None, game)
    described = importlib.import_module(f"{package}.puzzles").puzzle_game()
    assert described.game == game
    for name in ("generate", "solve", "check-unique", "sheet"):
        command = group.get_command(None, name)
        backend = next(p for p in command.params if p.name == "backend")
        assert tuple(backend.type.choices) == described.backends, name
    difficulty = next(p for p in group.get_command(None, "generate").params
                      if p.name == "difficulty")
    assert tuple(difficulty.type.choices) == DIFFICULTIES


def test_puzzle_functions_named_by_their_module_pickle_and_import_when_called():
    from solver.puzzles import PuzzleGame

    game = PuzzleGame.from_module("models.hippo.puzzles", "hippo", ("cpsat", "brute"))
    make_kind = pickle.loads(pickle.dumps(game.make_kind))  # as a batch sends it
    assert make_kind == game.make_kind
    kind = make_kind(None, "cpsat", 5.0)
    assert type(kind).__module__ == "models.hippo.puzzles"


def test_a_game_is_imported_when_invoked_and_named_by_its_id():
    result = run("hippo", "--help")
    assert result.exit_code == 0, result.output
    assert " hippo [OPTIONS] COMMAND" in result.output.splitlines()[0]  # not "group"
    assert "simulate" in result.output


def test_a_mistyped_game_gets_a_suggestion():
    assert_one_line_error(run("hipo", "--help"), "No such command 'hipo'", "'hippo'")


def write(tmp_path, name: str, data) -> str:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


@pytest.mark.parametrize("placements, words", [
    (["GZ@c3"], ["unknown tile", "GZ"]),
    (["GJ@c3", "GJ@c4"], ["GJ", "already placed"]),
    (["GJ@c3", "SA@c3"], ["c3", "occupied"]),
    (["GJ@a1"], ["a1", "not a cell"]),
    (["GJ-c3"], ["TILE@CELL"]),
    ([{"tile": "GJ"}], ["missing field 'cell'"]),
    ([42], ["placement 1"]),
])
def test_bad_positions(tmp_path, placements, words):
    f = write(tmp_path, "p.json", {"game": "take-it-higher", "placements": placements})
    assert_one_line_error(run("take-it-higher", "score", f), *words)


def test_malformed_json(tmp_path):
    f = write(tmp_path, "p.json", '{"placements": [ "GJ@c3", }')
    assert_one_line_error(run("take-it-higher", "score", f), "malformed JSON", "line 1")


def test_missing_file():
    assert_one_line_error(run("take-it-higher", "score", "/nonexistent/p.json"), "no such file")


def test_rules_file_whose_lines_do_not_cover_its_cells(tmp_path):
    data = small_rules_dict(3)
    lines = data["directions"][0]["lines"]
    dropped = lines[0].pop(0)
    if not lines[0]:
        lines.pop(0)
    f = write(tmp_path, "r.json", data)
    assert_one_line_error(run("take-it-higher", "max", "--rules", f), "rules file",
                          "do not cover", dropped)


def test_rules_file_cell_on_two_lines(tmp_path):
    data = small_rules_dict(3)
    lines = data["directions"][0]["lines"]
    lines.append([lines[0][0]])
    f = write(tmp_path, "r.json", data)
    assert_one_line_error(run("take-it-higher", "tiles", "--rules", f), "two lines")


def _set_colour_value(d, v):
    next(iter(d["colours"].values()))["value"] = v


def _set_stud_bonus(d, v):
    d["studs"] = {"gold": {"bonus": v}}


def _set_button(d, v):
    d["spaceships"] = [{"ship": next(iter(d["colours"])), "button": v}]


@pytest.mark.parametrize("change, value, words", [
    (_set_colour_value, -1, ["value: -1 is not a number of points from 1"]),
    (_set_colour_value, 0, ["value: 0"]),
    (_set_colour_value, 10**30, ["an integer of 31 digits", "line 1"]),
    (_set_stud_bonus, -5, ["studs.gold.bonus: -5"]),
    (_set_button, 0, ["spaceships[0].button: 0"]),
])
def test_rules_values_are_checked(tmp_path, change, value, words):
    data = small_rules_dict(3)
    change(data, value)
    f = write(tmp_path, "r.json", data)
    assert_one_line_error(run("take-it-higher", "tiles", "--rules", f), *words)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_json_numbers_are_refused(tmp_path, literal):
    f = tmp_path / "r.json"
    f.write_text(json.dumps(small_rules_dict(3)).replace('"x": 0', f'"x": {literal}', 1))
    assert literal in f.read_text()
    assert_one_line_error(run("take-it-higher", "tiles", "--rules", str(f)),
                          f"{literal} is not a number")


@pytest.mark.parametrize("draw, words", [
    ("GJ,GJ", ["GJ", "twice"]),
    ("GJ,XX", ["unknown tile", "XX"]),
])
def test_bad_draw(draw, words):
    assert_one_line_error(run("take-it-higher", "max", "--draw", draw), *words)


def test_illegal_launch_is_named(tmp_path):
    f = write(tmp_path, "p.json", {"placements": ["GJ@c3+red"]})
    assert_one_line_error(run("take-it-higher", "score", f, "--variant", "simple"),
                          "placement 1", "red")


def test_launch_in_basic_game_is_an_error(tmp_path):
    f = write(tmp_path, "p.json", {"placements": ["GJ@c3+red"]})
    assert_one_line_error(run("take-it-higher", "score", f), "not used")


def test_max_json_small_rules(tmp_path):
    f = write(tmp_path, "r.json", small_rules_dict(5))
    result = run("take-it-higher", "max", "--rules", f, "--json", "--variant", "gold-silver")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["status"] == "optimal" and doc["score"] == doc["bound"] == doc["sheet"]["total"]


def test_show_and_svg(tmp_path):
    f = write(tmp_path, "p.json", {"placements": ["GJ@c3", "SA@d4"]})
    svg = tmp_path / "b.svg"
    result = run("take-it-higher", "show", f, "--svg", str(svg))
    assert result.exit_code == 0, result.output
    assert "GJ" in result.output and "SA" in result.output
    text = svg.read_text()
    assert text.startswith("<svg") and text.count("<polygon") >= 24


def test_time_limit_reports_best_and_bound_honestly():
    result = run("take-it-higher", "max", "--variant", "gold-silver", "--time-limit", "0.05",
                 "--json")
    if result.exit_code == 3:  # nothing found at all in 0.05 s: said plainly
        assert "time limit" in result.output
        return
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    if doc["status"] == "optimal":
        assert doc["score"] == doc["bound"]
    else:
        assert doc["status"] == "feasible" and doc["bound"] >= doc["score"]


def test_maxsat_time_limit_without_board_exits_3():
    result = run("take-it-higher", "max", "--variant", "gold-silver", "--backend", "maxsat",
                 "--time-limit", "0.01")
    assert result.exit_code in (0, 3), result.output
    if result.exit_code == 3:
        assert "time limit" in result.output and "Traceback" not in result.output


def test_spaceship_max_with_maxsat_is_refused_plainly():
    assert_one_line_error(run("take-it-higher", "max", "--variant", "simple", "--backend",
                              "maxsat"), "CP-SAT")


def test_spaceship_max_needs_a_full_draw():
    assert_one_line_error(run("take-it-higher", "max", "--variant", "advanced", "--draw",
                              "GA,GB"), "all 24 tiles")


@pytest.mark.parametrize("args,words", [
    (("nosuchgame",), ["No such command"]),
    (("hippo", "best", "x.json", "--rol", "1,2,3"), ["No such option", "hippo best --help"]),
    (("tippi-toppi", "generate", "--count", "0"), ["--count", "not in the range"]),
    (("topito", "plan"), ["Missing argument 'FILE'"]),
])
def test_usage_errors_are_one_line(args, words):
    assert_one_line_error(run(*args), "toppi: error:", *words)


@pytest.mark.parametrize("args,words", [
    (("take-it-higher", "max", "--time-limit", "nan"), ["--time-limit", "not a finite number"]),
    (("take-it-higher", "max", "--time-limit", "inf"), ["--time-limit", "not in the range"]),
    (("take-it-higher", "simulate", "--hint-time", "nan"), ["--hint-time", "finite"]),
    (("hoch-hinaus", "simulate", "--hint-time", "-inf"), ["--hint-time", "not in the range"]),
    (("hippo", "finish", "x.json", "--time-limit", "NaN"), ["--time-limit", "finite"]),
    (("tippi-toppi", "generate", "--time-limit", "1e999"), ["--time-limit", "range"]),
    # found by scripts/fuzz.py: an OverflowError, a CP-SAT failure, a run without end
    (("tippi-toppi", "generate", "--count", "9" * 20), ["--count", "1<=x<=1000000"]),
    (("take-it-higher", "max", "--seed", "9" * 20), ["--seed", "not in the range"]),
    (("take-it-higher", "max", "--draws", "9" * 20), ["--draws", "1<=x<=1000000"]),
])
def test_non_finite_times_are_refused_in_one_line(args, words):
    assert_one_line_error(run(*args), "toppi: error:", *words)


def test_a_write_error_on_stdout_is_one_line_and_exit_2():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", "from solver.cli import main; main()",
                               "take-it-higher", "tiles", "--json"],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 2  # as every write error
    assert done.stderr.strip().splitlines() == [
        "toppi: error: cannot write the output: No space left on device"]


def test_a_closed_pipe_ends_quietly():
    proc = subprocess.Popen([sys.executable, "-c", "from solver.cli import main; main()",
                             "take-it-higher", "tiles", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before anything is written (`| head -c 0`)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1  # the write failed (EPIPE), and said nothing
    assert err == ""
