"""Take it Higher!: the same answer every time. `hint` (each method) and `max` answer
the same beside a CPU-bound process; a work option changes the answer only through the
work done; a tiny --time-limit gives an answer marked `cut_by_time` (exit 0) or, where
nothing was found, one line and exit 3. No verdict here reads the clock: the limits
that cut are far below what the work needs on any machine, the others far above."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.take_it_higher.game import GAME
from models.take_it_higher.hint import hint_futures
from models.take_it_higher.learned.policy import sample_futures
from models.take_it_higher.rules import load_rules
from tests.cli_helpers import game_runner, run_json, same_answer_when_busy, without_times
from tests.tih_small import small_rules_dict

run = game_runner("take-it-higher")
PUZZLES = Path(__file__).parents[1] / "puzzles/take-it-higher"


def position_file(tmp_path: Path, placed: int, name: str = "freddie-basic",
                  variant: str = "basic") -> str:
    """The first `placed` moves of a recorded game, the next tile called."""
    data = json.loads((PUZZLES / f"{name}.json").read_text())
    moves = data["placements"]
    f = tmp_path / f"{name}-{placed}.json"
    f.write_text(json.dumps({"game": "take-it-higher", "variant": variant,
                             "placements": moves[:placed],
                             "called": moves[placed].split("@")[0].split("+")[0]}))
    return str(f)


def small_rules_file(tmp_path: Path, seed: int, **size: int) -> tuple[str, dict]:
    data = small_rules_dict(seed, **size)
    path = tmp_path / f"rules-{seed}.json"
    path.write_text(json.dumps(data))
    return str(path), data


def small_position(tmp_path: Path, data: dict, placed: int) -> str:
    """`placed` tiles of the small rules on the first cells, the next tile called."""
    tiles = [t["id"] for t in data["tiles"]]
    cells = [c["id"] for c in data["cells"]]
    f = tmp_path / "small-position.json"
    f.write_text(json.dumps({"game": "take-it-higher", "placements": [
        f"{t}@{c}" for t, c in zip(tiles[:placed], cells[:placed], strict=False)],
        "called": tiles[placed]}))
    return str(f)


# ------------------------------------------------------------- hint, every method

def test_the_default_hint_is_the_learned_one_and_the_same_when_busy(tmp_path):
    f = position_file(tmp_path, 10)
    answer = same_answer_when_busy(run, "hint", f)
    assert answer["method"] == "learned" and "default" in answer["chosen"]
    assert answer["cut_by_time"] is False
    assert answer["futures"] == 32 and answer["looked_ahead"] == 6
    # the same answer as asking for the method by name (another reason, that is all)
    named = run_json(run, "hint", f, "--learned")
    assert named["chosen"] == "--learned"
    assert without_times({**named, "chosen": ""}) == without_times({**answer, "chosen": ""})


def test_the_sampled_hint_is_the_same_when_busy(tmp_path):
    f = position_file(tmp_path, 19)  # 5 empty cells: quick completions
    answer = same_answer_when_busy(run, "hint", f, "--method", "sampled", "--samples", "2")
    assert answer["method"] == "sampled" and answer["samples"] == 2
    assert answer["cut_by_time"] is False


def test_the_exact_hint_is_the_same_when_busy(tmp_path):
    f = position_file(tmp_path, 20)  # 4 empty cells
    answer = same_answer_when_busy(run, "hint", f, "--exact")
    assert answer["method"] == "exact" and answer["unvalued"] == []
    assert answer["cut_by_time"] is False


def test_without_learned_values_the_default_is_exact_on_small_positions(tmp_path):
    path, data = small_rules_file(tmp_path, 3, n_cells=6, n_tiles=9)
    f = small_position(tmp_path, data, 1)
    answer = same_answer_when_busy(run, "hint", f, "--rules", path)
    assert answer["method"] == "exact" and "without learned values" in answer["chosen"]
    # exactly what --exact says
    exact = run_json(run, "hint", f, "--rules", path, "--exact")
    assert exact["cells"] == answer["cells"]


def test_without_learned_values_the_default_is_sampled_on_large_positions(tmp_path):
    path, data = small_rules_file(tmp_path, 5, n_cells=9, n_tiles=16)
    f = small_position(tmp_path, data, 0)
    answer = same_answer_when_busy(run, "hint", f, "--rules", path)
    assert answer["method"] == "sampled" and "without learned values" in answer["chosen"]
    assert answer["samples"] == 8 and answer["cut_by_time"] is False


def test_options_that_contradict_the_method_are_refused(tmp_path):
    f = position_file(tmp_path, 10)
    for args, words in ((["--exact", "--learned"], "choose one"),
                        (["--method", "exact", "--learned"], "choose one"),
                        (["--exact", "--futures", "4"], "learned method"),
                        (["--learned", "--samples", "4"], "sampled method")):
        result = run("hint", f, *args)
        assert result.exit_code == 2, result.output
        assert words in result.output


# ------------------------------------------------------------ work options

def test_more_futures_only_add_work_to_the_same_ones(tmp_path):
    """The learned hint's futures come one after the other from the seed: 8 futures
    begin with the 4 of `--futures 4`; each answer counts its own."""
    coming = list(range(20))
    assert sample_futures(coming, 5, 8, 3)[:4] == sample_futures(coming, 5, 4, 3)
    f = position_file(tmp_path, 10)
    few = run_json(run, "hint", f, "--futures", "4", "--seed", "3")
    more = run_json(run, "hint", f, "--futures", "8", "--seed", "3")
    assert (few["futures"], more["futures"]) == (4, 8)
    assert {c["futures"] for c in few["cells"] if c["deep"]} == {4}
    again = run_json(run, "hint", f, "--futures", "4", "--seed", "3")
    assert without_times(again) == without_times(few)


def test_more_samples_only_add_futures_to_the_same_ones(tmp_path):
    """The sampled hint's futures are drawn one after the other from the seed: a hint
    of 3 futures values its cells on the 2 futures of a hint of 2 and one more."""
    f = position_file(tmp_path, 19)  # 5 empty cells: quick completions
    state = GAME.read(load_rules(), json.loads(Path(f).read_text()), f)
    assert hint_futures(state, 3, 1)[:2] == hint_futures(state, 2, 1)
    two, three, again = (run_json(run, "hint", f, "--samples", k, "--seed", "1")
                         for k in ("2", "3", "2"))
    assert (two["samples"], three["samples"]) == (2, 3)
    assert not two["cut_by_time"] and not three["cut_by_time"]
    assert without_times(again) == without_times(two)


# ------------------------------------------------------------ a tiny time limit

@pytest.mark.parametrize("args", [
    ["--learned", "--futures", "100000"],
    ["--method", "sampled", "--samples", "1000"],
])
def test_a_tiny_time_limit_cuts_the_hint_and_says_so(tmp_path, args):
    f = position_file(tmp_path, 10)
    answer = run_json(run, "hint", f, *args, "--time-limit", "0.05")
    assert answer["cut_by_time"] is True
    assert (answer.get("cells") or answer.get("options"))
    text = run("hint", f, *args, "--time-limit", "0.05")
    assert text.exit_code == 0 and "cut by the time limit" in " ".join(text.output.split())


def test_a_tiny_time_limit_without_any_exact_value_exits_3(tmp_path):
    f = position_file(tmp_path, 17)  # 7 empty cells: each cell's value is long work
    result = run("hint", f, "--exact", "--time-limit", "0.05")
    assert result.exit_code == 3, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "time limit" in lines[0]


def test_a_tiny_time_limit_cuts_max_and_says_so(tmp_path):
    """The gold/silver maximum takes seconds to prove: a tenth of a second gives the
    best board found with its bound (exit 0, cut) or, if none was found, one line and
    exit 3."""
    result = run("max", "--gold-silver", "--backend", "cpsat", "--time-limit", "0.1",
                 "--json")
    if result.exit_code == 3:
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1
        return
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["cut_by_time"] is True and answer["status"] == "feasible"
    assert answer["score"] <= answer["bound"]


# ------------------------------------------------------------------------ max

def race_left_out(answer: dict) -> dict:
    """`max --backend auto`'s answer without how the race went (who proved first, the
    processes and their times: the machine decides those, not the input)."""
    return {k: v for k, v in without_times(answer).items()
            if k not in ("race", "proved_by", "best_by", "bound_by")}


@pytest.mark.parametrize("gold_silver", [False, True])
def test_max_shows_the_same_board_when_busy(tmp_path, gold_silver):
    path, _ = small_rules_file(tmp_path, 11, n_cells=7, n_tiles=11)
    extra = ["--gold-silver"] if gold_silver else []
    answer = same_answer_when_busy(run, "max", "--rules", path, "--backend", "cpsat",
                                   "--workers", "2", *extra)
    assert answer["status"] == "optimal" and answer["canonical"] is True
    # every back-end shows that board: the canonical one of the proven maximum
    for backend in ("maxsat", "auto"):
        other = run_json(run, "max", "--rules", path, "--backend", backend, *extra)
        assert other["board"] == answer["board"] and other["score"] == answer["score"]
        assert other["placements"] == answer["placements"]
    first = run_json(run, "max", "--rules", path, *extra)
    from tests.cli_helpers import busy

    with busy():
        second = run_json(run, "max", "--rules", path, *extra)
    assert race_left_out(first) == race_left_out(second)


def test_max_draws_are_the_same_when_busy(tmp_path):
    path, _ = small_rules_file(tmp_path, 12, n_cells=7, n_tiles=11)
    answer = same_answer_when_busy(run, "max", "--rules", path, "--draws", "3",
                                   "--jobs", "1")
    assert answer["cut_by_time"] is False and answer["proven"] == 3


def test_max_of_a_draw_is_the_same_when_busy(tmp_path):
    path, data = small_rules_file(tmp_path, 13, n_cells=7, n_tiles=11)
    draw = ",".join(t["id"] for t in data["tiles"][:7])
    for extra in ([], ["--gold-silver"]):
        answer = same_answer_when_busy(run, "max", "--rules", path, "--draw", draw,
                                       "--backend", "cpsat", *extra)
        assert answer["status"] == "optimal" and answer["cut_by_time"] is False


def test_a_tiny_time_limit_cuts_max_of_a_draw_and_says_so():
    """The hindsight optimum of a whole gold/silver draw takes seconds to prove."""
    from models.take_it_higher.state import game_draw as draw_of

    draw = ",".join(t.id for t in draw_of(load_rules(), 7))
    result = run("max", "--gold-silver", "--draw", draw, "--backend", "cpsat",
                 "--time-limit", "0.1", "--json")
    if result.exit_code == 3:
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1
        return
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["cut_by_time"] is True and answer["score"] <= answer["bound"]


# ---------------------------------------------------- the policies of simulate and play

def simulated(*args: str) -> dict:
    return run_json(run, "simulate", "--games", "1", "--seed", "2", "--no-optimum",
                    "--jobs", "1", *args)


def test_the_learned_policy_plays_the_same_game_when_busy():
    answer = same_answer_when_busy(run, "simulate", "--games", "1", "--seed", "2",
                                   "--no-optimum", "--jobs", "1", "--policy", "learned",
                                   "--futures", "2", "--calls", "1")
    assert "cut_decisions" not in answer["cells"][0]["measures"]
    # more futures: another game only through the work (the same seed, the same draw)
    more = simulated("--policy", "learned", "--futures", "4", "--calls", "1")
    assert more["options"]["futures"] == 4 and answer["options"]["futures"] == 2
    assert more["seed"] == answer["seed"] and more["played"] == answer["played"] == 1


def test_the_hint_policy_plays_the_same_game_when_busy(tmp_path):
    path, _ = small_rules_file(tmp_path, 14, n_cells=7, n_tiles=11)
    answer = same_answer_when_busy(run, "simulate", "--rules", path, "--games", "2",
                                   "--no-optimum", "--jobs", "1", "--policy", "hint",
                                   "--samples", "2")
    assert "cut_decisions" not in answer["cells"][0]["measures"]


@pytest.mark.parametrize("policy, args", [
    ("learned", ["--futures", "100000"]),
    ("hint", ["--samples", "1000"]),
])
def test_a_tiny_decision_cap_is_counted_in_the_simulation(tmp_path, policy, args):
    """Every game still ends (exit 0); the decisions the cap cut are counted, in the
    JSON and in the table on the terminal."""
    extra = []
    if policy == "hint":  # small rules: the greedy fallback of a cut hint plays fast
        path, _ = small_rules_file(tmp_path, 15, n_cells=7, n_tiles=11)
        extra = ["--rules", path]
    answer = simulated(*extra, "--policy", policy, *args, "--hint-time", "0.01")
    assert answer["played"] == 1
    assert answer["cells"][0]["measures"]["cut_decisions"] >= 1
    text = run("simulate", "--games", "1", "--seed", "2", "--no-optimum", "--jobs", "1",
               *extra, "--policy", policy, *args, "--hint-time", "0.01")
    assert text.exit_code == 0 and "cut decisions" in text.output


def test_a_tiny_time_limit_cuts_each_draw_and_says_so():
    """--draws: the limit is per draw; a draw it cut says so, and the answer too."""
    result = run("max", "--gold-silver", "--draws", "1", "--seed", "7", "--jobs", "1",
                 "--time-limit", "0.1", "--json")
    assert result.exit_code in (0, 3), result.output
    if result.exit_code == 3:
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1
        return
    answer = json.loads(result.stdout)
    assert answer["cut_by_time"] is True
    assert all(r["cut_by_time"] for r in answer["records"])
