"""`toppi hippo simulate` on the batch layer: a real Dask cluster (scheduler and two
workers on 127.0.0.1), a local pool of two and in-process give the same table; an
interrupted run resumed from its store gives the uninterrupted table; every record is
the game the rules engine plays from that game's own seed."""

from __future__ import annotations

import json
import random
import re

from models.hippo.rules import Rules, load_rules
from models.hippo.state import new_game
from solver import simulate
from solver.store import Store, data_digest
from tests.cli_helpers import (
    assert_batch_options_checked,
    assert_one_line_error,
    game_runner,
    interrupt_after,
    on_three_executors,
)

run = game_runner("hippo")
RULES = load_rules()


def _table(data: dict) -> dict:
    """What a run reports, less the time it took and where it ran."""
    return {k: v for k, v in data.items() if k not in ("seconds", "executor")}


def _simulate(*args: str) -> dict:
    result = run("simulate", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _winner(record: dict) -> int | None:
    wins = [s for s, r in enumerate(record["returns"]) if r > 0]
    return wins[0] if wins else None


def engine_game(rules: Rules, seats: list[str], seed: int) -> tuple[int | None, int, int]:
    """(winner, turns, rolls) of a game of greedy/random seats played with the rules
    engine alone (legal_actions / apply_action), drawing from random.Random(seed): the
    dice one by one, then the pick among the distinct results of the roll (each kept
    with its first move in sorted order)."""
    rng = random.Random(seed)
    state = new_game(rules, rules.colour_names[:len(seats)])
    turns = rolls = 0
    while True:
        if not state.bonus:
            turns += 1
        dice = tuple(rng.randint(1, rules.faces) for _ in range(rules.dice))
        rolls += 1
        first: dict = {}
        for move in state.legal_actions(dice):
            after = state.apply_action(move)
            # chips taken this turn and waiting through its bonus roll (next-turn
            # reading) make a result of their own
            first.setdefault((after.lanes, after.hippo, after.stocks, after.fresh), after)
        options = list(first.values())
        me = state.to_move
        if seats[me] == "greedy":  # fewest chips left in the mover's stock
            least = min(sum(s.stocks[me]) for s in options)
            options = [s for s in options if sum(s.stocks[me]) == least]
        state = options[rng.randrange(len(options))]
        if state.is_terminal():
            return state.winner(), turns, rolls


def test_dask_cluster_local_pool_and_in_process_give_the_same_table(cluster):
    args = ("--games", "24", "--players", "3", "--policy", "best,greedy,random",
            "--rotate", "--seed", "3")
    on_dask, pooled, alone = on_three_executors(lambda *extra: _simulate(*args, *extra),
                                                cluster)
    assert _table(on_dask) == _table(pooled) == _table(alone)
    assert not alone["interrupted"] and alone["played"] == 24
    records = alone["records"]
    assert [r["game"] for r in records] == list(range(24))
    assert [r["seed"] for r in records] == [3 * 1_000_003 + g for g in range(24)]
    assert records[1]["seats"] == ["greedy", "random", "best"]  # rotated by one seat
    # the summary is that of the records
    cell = alone["cells"][0]
    wins = [sum(_winner(r) == s for r in records) for s in range(3)]
    # [8, 10, 6] with foreign chips first at once (test_the_first_figures_replay_at_once)
    assert [w["successes"] for w in cell["win_rate_by_seat"]] == wins == [8, 8, 8]
    best_wins = sum(r["seats"][_winner(r)] == "best" for r in records
                    if _winner(r) is not None)
    assert cell["win_rate_by_policy"]["best"]["successes"] == best_wins
    turns = [r["measures"]["turns"] for r in records]
    assert cell["measures"]["turns"]["mean"] == round(sum(turns) / 24, 3) == 14.875


def test_the_first_figures_replay_at_once():
    """The figures above were first played with foreign chips first at once."""
    cell = _simulate("--games", "24", "--players", "3", "--policy", "best,greedy,random",
                     "--rotate", "--seed", "3", "--jobs", "1",
                     "--foreign-first", "at-once")["cells"][0]
    assert [w["successes"] for w in cell["win_rate_by_seat"]] == [8, 10, 6]
    assert cell["measures"]["turns"]["mean"] == 14.792


def test_records_are_the_games_the_rules_engine_plays():
    out = _simulate("--games", "6", "--players", "2", "--policy", "greedy,random",
                    "--rotate", "--seed", "4", "--jobs", "2")
    assert [r["seats"] for r in out["records"]] == [["greedy", "random"],
                                                    ["random", "greedy"]] * 3
    for r in out["records"]:
        # a player action is a roll's placements: actions are the rolls
        assert (_winner(r), r["measures"]["turns"], r["actions"]) == engine_game(
            RULES, r["seats"], r["seed"])
    at_once = _simulate("--games", "2", "--players", "2", "--policy", "greedy,random",
                        "--seed", "4", "--jobs", "1", "--foreign-first", "at-once")
    for r in at_once["records"]:
        assert (_winner(r), r["measures"]["turns"], r["actions"]) == engine_game(
            load_rules(None, "at-once"), r["seats"], r["seed"])
    # and for three random seats, two seeds of a run with a negative --seed
    three = _simulate("--games", "2", "--players", "3", "--policy", "random",
                      "--seed", "-2", "--jobs", "1")
    for r in three["records"]:
        assert r["seed"] == -2 * 1_000_003 + r["game"]
        assert (_winner(r), r["measures"]["turns"], r["actions"]) == engine_game(
            RULES, ["random"] * 3, r["seed"])


def test_interrupted_run_keeps_its_games_and_resume_plays_only_the_rest(tmp_path,
                                                                        monkeypatch):
    store = tmp_path / "runs.sqlite"
    args = ["simulate", "--games", "12", "--players", "2", "--policy", "best,random",
            "--seed", "7", "--jobs", "1", "--json"]
    whole = _simulate(*args[1:-1])
    real = simulate.play_one
    interrupt_after(monkeypatch, simulate, 5, "play_one")  # Ctrl-C during the sixth game
    cut = run(*args, "--store", str(store))
    assert cut.exit_code == 130, cut.output
    assert "Interrupted" in cut.stderr and "--resume" in cut.stderr, cut.stderr
    partial = json.loads(cut.stdout)
    assert partial["interrupted"] and partial["played"] == 5
    assert partial["cells"][0]["games"] == 5
    with Store(store) as s:
        rows = s.rows(simulate.GAMES_KIND)
    assert simulate.GAMES_KIND == "games" and len(rows) == 5
    assert [r["seed"] for r in rows] == [7 * 1_000_003 + g for g in range(5)]
    assert rows[0]["parameters"] == {
        "game": "hippo", "rules_digest": data_digest(RULES), "setup": {"players": 2},
        "seats": ["best", "random"], "rotate": False, "options": {}, "open_hands": False}
    monkeypatch.setattr(simulate, "play_one", real)
    played = interrupt_after(monkeypatch, simulate, -1, "play_one")  # never interrupts
    resumed = run(*args, "--store", str(store), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert _table(json.loads(resumed.stdout)) == _table(whole)
    assert [a[7] for a in played] == list(range(5, 12))  # only the games not stored
    with Store(store) as s:
        assert len(s.rows(simulate.GAMES_KIND)) == 12
    # the terminal table of an interrupted run shows the games played; stderr says so
    monkeypatch.setattr(simulate, "play_one", real)
    interrupt_after(monkeypatch, simulate, 5, "play_one")
    text = run(*args[:-1], "--seed", "8")
    assert text.exit_code == 130
    # by policy: each played 5 seats (wins, seats, rate)
    assert re.search(r"│ random +│ \d+ +│ 5 +│", text.stdout), text.stdout
    assert "Interrupted: 5 of 12 games finished, not saved" in text.output


def test_bad_batch_options_are_one_line():
    assert_batch_options_checked(run, "simulate", "--games", "2")
    assert_one_line_error(run("simulate", "--games", "1000004", "--jobs", "1"),
                          "--games", "1<=x<=1000000")
    assert_one_line_error(run("simulate", "--workers", "2"), "--workers")
