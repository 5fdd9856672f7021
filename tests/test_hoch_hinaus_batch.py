"""`toppi hoch-hinaus simulate` on the batch layer: a real Dask cluster, a pool of two
and in-process give the same table; an interrupted run resumed from its store gives the
uninterrupted table and plays only the rest; the records are the rules engine's games."""

from __future__ import annotations

import json
import random

import pytest

from models.hoch_hinaus.game import GAME
from models.hoch_hinaus.reachable import play_out
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.state import new_game
from models.hoch_hinaus.tasks import load_catalogue
from solver import simulate
from solver.game import task_seed
from solver.store import Store, data_digest
from tests.cli_helpers import (
    assert_batch_options_checked,
    game_runner,
    interrupt_after,
    on_three_executors,
)

run = game_runner("hoch-hinaus")
R = load_rules()
CAT = load_catalogue(R)
# greedy: about 0.5 s a game (deterministic: no look-ahead clock); random: milliseconds
# --samples 4: the greedy policy's draws of the hidden pieces, few to keep the tests short
ARGS = ["simulate", "--games", "2", "--difficulty", "first", "--players", "2",
        "--seed", "3", "--policy", "greedy", "--policy", "random", "--samples", "4"]


def _table(data: dict) -> dict:
    """What a run reports, less its timing and where it ran."""
    return {k: v for k, v in data.items() if k not in ("seconds", "executor")}


def _simulate(*extra: str) -> dict:
    result = run(*ARGS, *extra, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.slow
def test_dask_cluster_equals_local_pool_and_in_process(cluster):
    # all-seeing policies: the executors are under test, and these games are quick
    # (a greedy game still takes a second or more: one game a cell, two tasks, so that
    # the pool and the cluster each spread them on two workers)
    on_dask, pooled, alone = on_three_executors(
        lambda *extra: _simulate("--open-hands", "--games", "1", *extra), cluster)
    assert _table(on_dask) == _table(pooled) == _table(alone)
    assert not alone["interrupted"] and alone["played"] == 2
    # one cell per policy, each on the same deal; the summary is that of the records
    assert [(r["cell"], r["game"], r["seats"]) for r in alone["records"]] == \
        [(c, 0, [p, p]) for c, p in enumerate(("greedy", "random"))]
    assert alone["knows"] == {"greedy": "everything", "random": "everything"}
    for c, cell in enumerate(alone["cells"]):
        mine = [r for r in alone["records"] if r["cell"] == c]
        assert cell["win_rate"]["trials"] == 1
        assert cell["win_rate"]["successes"] == sum(r["returns"][0] > 0 for r in mine)
        turns = [r["measures"]["turns"] for r in mine]
        assert cell["measures"]["mean_turns"] == round(sum(turns) / len(turns), 2)
    # the text table too, less its caption line (seconds, executor)
    one = [*ARGS[:2], "1", *ARGS[3:], "--open-hands"]
    texts = [[line for line in run(*one, *extra).output.splitlines() if line.strip()]
             for extra in (("--scheduler", cluster), ("--jobs", "1"))]
    assert texts[0][:-2] == texts[1][:-2]
    assert sum(line.startswith(("│ greedy ", "│ random ")) for line in texts[0]) == 2
    assert "first, pros no" in " ".join(texts[0][:3])  # the same in every row: the title
    assert "All-seeing (open hands): greedy, random" in texts[0][-1]


@pytest.mark.slow
def test_records_are_the_rules_engine_games():
    """Each record is the game dealt by new_game from random.Random(seed*1000003+g) and
    played by the policy from a second random.Random of that seed, replayed here with
    the engine directly. (One draw of the hidden pieces per greedy decision: the replay
    must consume the same random streams whatever their number.)"""
    # the last --games and --samples count
    data = _simulate("--jobs", "1", "--games", "1", "--samples", "1")
    for r in data["records"]:
        g = r["game"]
        seed = task_seed(3, g)
        state = new_game(R, CAT, 2, "first", random.Random(seed), "blue", False)
        end = play_out(state, random.Random(seed), r["seats"][0], None, samples=1)
        assert r["seed"] == 3 * 1_000_003 + g
        assert r["returns"] == [1.0 if end.status == "won" else 0.0] * 2
        assert r["measures"] == {"tasks_completed": len(end.completed), "turns": end.turns}
        assert r["actions"] == end.turns + (end.status == "won")
    assert len(data["records"]) == 2


def test_seed_zero_replays_the_published_deals():
    """--seed 0: game g is dealt and played from random.Random(g), as the win-rate figures in
    docs/hoch-hinaus.md were."""
    out = run("simulate", "--games", "3", "--policy", "random", "--jobs", "1", "--json")
    records = json.loads(out.stdout)["records"]
    assert [(r["measures"]["tasks_completed"], r["measures"]["turns"]) for r in records] \
        == [(4, 16), (5, 16), (2, 10)]
    for r in records:
        state = new_game(R, CAT, 2, "normal", random.Random(r["game"]))
        end = play_out(state, random.Random(r["game"]), "random", None)
        assert (len(end.completed), end.turns) == (r["measures"]["tasks_completed"],
                                                   r["measures"]["turns"])


@pytest.mark.slow
def test_interrupt_keeps_finished_games_and_resume_gives_the_same_table(tmp_path,
                                                                         monkeypatch):
    store = tmp_path / "runs.sqlite"
    # one game a cell: the Ctrl-C lands in the second cell, so the resumed run must
    # skip the stored cell and play only the other
    args = ["simulate", "--games", "1", "--difficulty", "first", "--seed", "9",
            "--policy", "random", "--policy", "greedy", "--jobs", "1", "--open-hands",
            "--json"]
    whole = run(*args)
    assert whole.exit_code == 0, whole.output
    real = simulate.play_one
    interrupt_after(monkeypatch, simulate, 1, "play_one")  # Ctrl-C during the second game
    cut = run(*args, "--store", str(store))
    assert cut.exit_code == 130, cut.output
    assert "Interrupted" in cut.stderr and "--resume" in cut.stderr, cut.stderr
    partial = json.loads(cut.stdout)
    assert partial["interrupted"] and partial["played"] == 1
    with Store(store) as s:
        rows = s.rows(simulate.GAMES_KIND)
    assert [r["seed"] for r in rows] == [9 * 1_000_003]
    assert rows[0]["parameters"] == {
        "game": "hoch-hinaus", "rules_digest": data_digest(GAME.load_rules(None)),
        "setup": {"players": 2, "difficulty": "first", "pros": False, "side": "blue"},
        "seats": ["random", "random"], "rotate": False,
        "options": {"hint_time": 0.0, "samples": 16}, "open_hands": True}
    monkeypatch.setattr(simulate, "play_one", real)
    played = interrupt_after(monkeypatch, simulate, -1, "play_one")  # never interrupts
    resumed = run(*args, "--store", str(store), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert _table(json.loads(resumed.stdout)) == _table(json.loads(whole.stdout))
    # the rest only: the greedy game (cell 1)
    assert [(a[3], a[7]) for a in played] == [(["greedy", "greedy"], 0)]
    with Store(store) as s:
        assert len(s.rows(simulate.GAMES_KIND)) == 2


def test_a_tasks_file_is_another_run(tmp_path):
    """The catalogue is part of the rules data: its fingerprint tells runs apart."""
    data = {"tasks": [{"id": f"X{i}", "text": t.text()} for i, t in enumerate(CAT.tasks[:30])]}
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps(data))
    other = GAME.load_rules(None, tasks_path=str(tasks))
    assert data_digest(other) != data_digest(GAME.load_rules(None))
    assert len(other.catalogue.tasks) == 30


def test_bad_batch_options_are_one_line():
    assert_batch_options_checked(run, "simulate", "--games", "1", "--policy", "random")


def test_a_tiny_hint_time_is_counted_in_the_simulation():
    """The hint policy's look-ahead cut by --hint-time: the game still ends, and the
    decisions cut are counted (the game is no longer the seed's alone), in the JSON
    and on the terminal; without a cap none is. The cap (a microsecond) has passed
    before any look-ahead can begin, on any machine under any load."""
    args = ["simulate", "--games", "1", "--difficulty", "first", "--players", "1",
            "--seed", "3", "--policy", "hint", "--samples", "2", "--jobs", "1"]
    cut = json.loads(run(*args, "--hint-time", "0.000001", "--json").stdout)
    assert cut["played"] == 1 and cut["cells"][0]["measures"]["cut_decisions"] >= 1
    assert cut["records"][0]["measures"]["cut_decisions"] == \
        cut["cells"][0]["measures"]["cut_decisions"]
    text = run(*args, "--hint-time", "0.000001")  # the column's name may wrap
    assert text.exit_code == 0 and "decisions" in text.output
    whole = json.loads(run(*args, "--json").stdout)
    assert "cut_decisions" not in whole["cells"][0]["measures"]
