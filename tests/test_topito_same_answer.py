"""Topito's searching verbs answer the same every time: `plan`, `reachable`, `race` and
`hint` count their work (positions of A* and BFS, moves of the race, SAT conflicts),
never seconds. The same command on an idle and on a busy machine prints the same
answer; a work budget changes the answer only through the work done; a tiny
--time-limit cuts the work, and the answer says so (exit 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.topito.plan import AUTO_FIRST_NODES
from tests.cli_helpers import game_runner, run_json, same_answer_when_busy, without_times

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "topito"
MID = str(PUZZLES / "midgame.json")
TURNS = str(PUZZLES / "turns.json")
ENDGAME = str(PUZZLES / "race" / "endgame.json")
# turns.json: A* alone does not find it in its first slice, SAT then proves 4 moves
TWO = ("--cards", "order Fox > Mouse > Owl; rank 1: Cat", "--all")

run = game_runner("topito")


def budgets_out(answer: dict) -> dict:
    """An answer without its timings and without the budgets it was given (what it
    spent stays)."""
    out = without_times(answer)
    if out.get("work"):
        out["work"] = {k: v for k, v in out["work"].items() if not k.endswith("budget")}
    out.pop("node_budget", None)
    return out


# ----------------------------------------------------------------- idle and busy

def test_plan_auto_taking_turns_is_the_same_when_busy():
    data = same_answer_when_busy(run, "plan", TURNS, *TWO)
    assert data["status"] == "optimal" and data["moves"] == 4
    assert data["proved_by"] == "sat" and data["work"]["nodes"] >= AUTO_FIRST_NODES
    assert data["work"]["conflicts"] > 0 and data["cut_by_time"] is False


def test_reachable_is_the_same_when_busy():
    data = same_answer_when_busy(run, "reachable", TURNS, *TWO, "--within", "3")
    assert data["reachable"] is False and data["status"] == "proven"
    assert data["lower_bound"] == 4 and data["work"]["nodes"] > 0
    assert data["cut_by_time"] is False


@pytest.mark.parametrize("backend", ["astar", "bfs"])
def test_race_is_the_same_when_busy(backend):
    data = same_answer_when_busy(run, "race", ENDGAME, "--backend", backend)
    assert data["status"] == "optimal" and data["fewest"] == 2 and data["nodes"] > 0


@pytest.mark.parametrize("backend", ["sat", "bfs"])
def test_hint_is_the_same_when_busy(backend):
    data = same_answer_when_busy(run, "hint", MID, "--backend", backend)
    assert data["complete"] is True and data["cut_by_time"] is False
    assert data["best"]["move"] == "move Mouse blue -> yellow"


# ----------------------------------------------------------------- work budgets

def test_a_plan_budget_changes_the_answer_only_through_the_work_done():
    """Budgets past what the search needs: the same answer, the same work spent. Smaller
    ones stop it with a lower bound it proved, never above the plan's length."""
    full = run_json(run, "plan", TURNS, *TWO)
    spent = full["work"]
    roomy = run_json(run, "plan", TURNS, *TWO, "--nodes", str(spent["nodes"] * 4),
                     "--conflicts", str(spent["conflicts"] * 4))
    assert budgets_out(roomy) == budgets_out(full)
    for nodes, conflicts in ((1, 1), (AUTO_FIRST_NODES // 2, 100)):
        cut = run_json(run, "plan", TURNS, *TWO, "--nodes", str(nodes), "--conflicts",
                       str(conflicts))
        assert cut["status"] == "unknown" and cut["cut_by_time"] is False
        assert 1 <= cut["lower_bound"] <= full["moves"] and cut["plan"] == []
        assert "work budget" in cut["proof"]


def test_a_race_budget_changes_the_answer_only_through_the_work_done():
    full = run_json(run, "race", ENDGAME)
    roomy = run_json(run, "race", ENDGAME, "--nodes", str(full["nodes"] * 3))
    assert budgets_out(roomy) == budgets_out(full)
    cut = run_json(run, "race", ENDGAME, "--nodes", "20")
    assert cut["status"] == "unknown" and cut["cut_by_time"] is False
    assert cut["lower_bound"] <= full["fewest"] and "work budget" in cut["proof"]


@pytest.mark.parametrize("option,backend", [("--conflicts", "sat"), ("--nodes", "bfs")])
def test_a_hint_budget_leaves_distances_undecided_never_different(option, backend):
    """A small budget decides fewer distances: each one it decides is the full budget's,
    the others are listed as undecided; a budget past the need changes nothing."""
    full = run_json(run, "hint", MID, "--backend", backend)
    used = full["work"]["conflicts" if backend == "sat" else "nodes"]
    roomy = run_json(run, "hint", MID, "--backend", backend, option, str(used * 2))
    assert budgets_out(roomy) == budgets_out(full)
    small = run_json(run, "hint", MID, "--backend", backend, option, str(used // 4))
    assert small["complete"] is False and small["cut_by_time"] is False
    assert small["undecided_now"] or any(m["undecided"] for m in small["moves"])
    exact = {m["move"]: m["distances"] for m in full["moves"]}
    for m in small["moves"]:
        for card, d in m["distances"].items():
            if card not in m["undecided"]:
                assert d == exact[m["move"]][card], (m["move"], card)


# ----------------------------------------------------------------- the time limit

def test_a_tiny_time_limit_cuts_the_hint_which_still_answers():
    res = run("hint", MID, "--time-limit", "0.01", "--json")
    assert res.exit_code == 0, res.output
    data = run_json(run, "hint", MID, "--time-limit", "0.01")
    assert data["cut_by_time"] is True and data["complete"] is False
    assert data["best"] is not None
    text = run("hint", MID, "--time-limit", "0.01")
    assert text.exit_code == 0 and "cut by the time limit" in text.output


def test_a_tiny_time_limit_cuts_reachable_which_gives_its_lower_bound():
    data = run_json(run, "reachable", TURNS, *TWO, "--within", "6", "--time-limit",
                    "0.01")
    assert data["cut_by_time"] is True and data["reachable"] is None
    assert data["status"] == "unknown" and data["lower_bound"] >= 1
    text = run("reachable", TURNS, *TWO, "--within", "6", "--time-limit", "0.01")
    assert text.exit_code == 0 and "cut by the time limit" in text.output
