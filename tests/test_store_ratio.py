"""The ratio of means with its interval, and the store reader of scripts/store_ratio.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from solver.stats import ratio_of_means
from solver.store import Store
from tests.cli_helpers import game_runner, load_script, run_json


def test_ratio_of_means_by_hand():
    # R = 2 / 2 = 1; v - R r = (-1, 0, 1): sd 1, se = 1 / sqrt(3) / 2
    r = ratio_of_means([1, 2, 3], [2, 2, 2])
    half = 1.959964 / math.sqrt(3) / 2
    assert r.n == 3 and r.ratio == 1.0
    assert r.low == pytest.approx(1 - half, abs=1e-4)
    assert r.high == pytest.approx(1 + half, abs=1e-4)


def test_a_policy_proportional_to_the_optimum_has_no_spread():
    r = ratio_of_means([0.8 * x for x in (400, 380, 430)], [400, 380, 430])
    assert r.ratio == r.low == r.high == 0.8


def test_bad_pairs_are_refused():
    with pytest.raises(ValueError):
        ratio_of_means([1, 2], [1])
    with pytest.raises(ValueError):
        ratio_of_means([], [])


def test_store_ratio_reads_simulate_runs(tmp_path):
    """A greedy run with its optima and a random run without: the random run borrows
    the optima of the same draws; the figures are those of the runs' own JSON."""
    store = str(tmp_path / "runs.sqlite")
    run = game_runner("take-it-higher")
    greedy = run_json(run, "simulate", "--games", "3", "--policy", "greedy", "--jobs", "1",
                      "--store", store)
    rand = run_json(run, "simulate", "--games", "3", "--policy", "random", "--jobs", "1",
                    "--no-optimum", "--store", store)
    with Store(store, create=False) as s:
        found = {g["run"]["seats"][0]: g for g in load_script("store_ratio").groups(s)}
    optima = [r["measures"]["optimum"] for r in greedy["records"]]
    for name, doc in (("greedy", greedy), ("random", rand)):
        scores = [r["returns"][0] for r in doc["records"]]
        g = found[name]
        assert g["games"] == 3 and g["mean"] == pytest.approx(sum(scores) / 3, abs=0.01)
        assert g["optimum_mean"] == pytest.approx(sum(optima) / 3, abs=0.01)
        assert g["ratio"] == ratio_of_means(scores, optima).ratio
        assert g["low"] <= g["ratio"] <= g["high"]
    assert found["greedy"]["ratio"] == greedy["cells"][0]["measures"]["ratio"]
    # game by game: the second run's scores minus the first's, as groups numbers them
    with Store(store, create=False) as s:
        script = load_script("store_ratio")
        order = [g["run"]["seats"][0] for g in script.groups(s)]
        (pair,) = script.paired([s])
    first, second = (doc for name in order for doc in (greedy, rand)
                     if doc["records"][0]["seats"] == [name])
    diffs = [b["returns"][0] - a["returns"][0]
             for a, b in zip(first["records"], second["records"], strict=True)]
    assert (pair["first"], pair["second"], pair["games"]) == (0, 1, 3)
    assert pair["difference"] == pytest.approx(sum(diffs) / 3, abs=0.01)


def test_mean_error_is_the_mean_and_its_standard_error():
    """1, 2, 3, 4: mean 2.5, sample variance 5/3, standard error sqrt(5/3) / 2."""
    from solver.stats import mean_error

    assert mean_error([1, 2, 3, 4]) == (2.5, pytest.approx((5 / 3) ** 0.5 / 2))
    assert mean_error([7.0]) == (7.0, 0.0)


def test_learned_ratio_plays_the_store_draws(tmp_path, capsys, monkeypatch):
    """scripts/learned_ratio.py: the values alone on the draws of a store's games, against
    those games' optima: its figures are the values' own games of `game_draw`."""
    from models.take_it_higher.learned.files import values_for
    from models.take_it_higher.learned.td import play
    from models.take_it_higher.rules import load_rules
    from models.take_it_higher.state import game_draw
    from models.take_it_higher.variants import variant_from_name

    store = str(tmp_path / "runs.sqlite")
    greedy = run_json(game_runner("take-it-higher"), "simulate", "--games", "2", "--policy",
                      "greedy", "--jobs", "1", "--store", store)
    script = load_script("store_ratio")
    with Store(store, create=False) as s:
        (g,) = script.groups(s)
    ratio = load_script("learned_ratio")
    optima = ratio.optima([Path(store)], "basic")
    assert optima == {r["seed"]: r["measures"]["optimum"] for r in greedy["records"]}
    rules = load_rules()
    values = values_for(rules, variant_from_name("basic"))
    scores = [play(values, [values.layout.tile_index[t.id] for t in game_draw(rules, seed)])
              for seed in sorted(optima)]
    r = ratio_of_means(scores, [optima[s] for s in sorted(optima)])
    monkeypatch.setattr("sys.argv", ["learned_ratio.py", "--store", store])
    ratio.main()
    assert f"basic: 2 games, {sum(scores) / 2:.1f} of {g['optimum_mean']:.1f}, " \
           f"{100 * r.ratio:.1f} %" in capsys.readouterr().out
    monkeypatch.setattr("sys.argv", ["learned_ratio.py", "--store", str(tmp_path / "x")])
    with pytest.raises(SystemExit) as exc:
        ratio.main()
    assert exc.value.code == 2


def test_store_ratio_pairs_games_without_an_optimum(tmp_path):
    """Two runs of 3 games without --optimum, and the optimum of only the first 2 draws
    (a third run): the ratios count 2 games, the paired difference all 3, and a run
    whose draws have no optimum at all is still listed and paired."""
    store = str(tmp_path / "runs.sqlite")
    run = game_runner("take-it-higher")
    docs = {}
    for name, extra in (("greedy", ("--games", "3", "--no-optimum")),
                        ("random", ("--games", "3", "--no-optimum"))):
        docs[name] = run_json(run, "simulate", "--policy", name, "--jobs", "1", *extra,
                              "--store", store)
    script = load_script("store_ratio")
    with Store(store, create=False) as s:
        found = script.groups(s)
        pairs = script.paired([s])
    assert [g["ratio"] for g in found] == [None, None]
    assert [g["played"] for g in found] == [3, 3]
    scores = {g["run"]["seats"][0]: [r["returns"][0] for r in docs[g["run"]["seats"][0]]
                                     ["records"]] for g in found}
    first, second = (g["run"]["seats"][0] for g in found)
    (pair,) = pairs
    diffs = [b - a for a, b in zip(scores[first], scores[second], strict=True)]
    assert pair["games"] == 3 and pair["difference"] == pytest.approx(sum(diffs) / 3,
                                                                      abs=0.01)
    run_json(run, "simulate", "--policy", "greedy", "--games", "2", "--jobs", "1",
             "--store", store)  # the optima of draws 0 and 1
    with Store(store, create=False) as s:
        found = {json.dumps(g["run"]["options"], sort_keys=True) + g["run"]["seats"][0]: g
                 for g in script.groups(s)}
        again = script.paired([s])
    borrowed = [g for g in found.values() if g["played"] == 3]
    assert len(borrowed) == 2 and all(g["games"] == 2 and g["ratio"] > 0 for g in borrowed)
    assert any(p["games"] == 3 and p["difference"] == pair["difference"] for p in again)


def test_max_draws_runs_give_the_optima_of_simulate_games(tmp_path):
    """`max --draws N --store` in the same store: simulate's games without an optimum
    borrow the draws' proven optima, and they are the optima simulate proves itself."""
    run = game_runner("take-it-higher")
    store, other = str(tmp_path / "runs.sqlite"), str(tmp_path / "other.sqlite")
    run_json(run, "simulate", "--games", "2", "--policy", "greedy", "--jobs", "1",
             "--no-optimum", "--store", store)
    run_json(run, "max", "--draws", "2", "--jobs", "1", "--store", store)
    own = run_json(run, "simulate", "--games", "2", "--policy", "greedy", "--jobs", "1",
                   "--store", other)
    script = load_script("store_ratio")
    with Store(store, create=False) as s:
        (g,) = script.groups(s)
    optima = [r["measures"]["optimum"] for r in own["records"]]
    assert all(r["measures"]["optimum_proven"] for r in own["records"])
    assert g["optimum_mean"] == pytest.approx(sum(optima) / 2, abs=0.01)
    assert g["optima_proven"] == 2 and g["ratio"] == own["cells"][0]["measures"]["ratio"]


def test_the_best_reference_of_a_draw_wins(tmp_path):
    """A proven optimum before any best found, of best founds the highest, whichever
    store or kind holds it; two proven optima that differ are an error."""
    from models.take_it_higher.draws import DRAWS_KIND, stored_references

    def game(optimum, proven):
        return {"measures": {"optimum": optimum, "optimum_proven": proven}}

    sim = {"game": "take-it-higher", "rules_digest": "r", "setup": {"variant": "simple"},
           "seats": ["greedy"]}
    draws = {"rules_digest": "r", "variant": "simple"}
    with Store(str(tmp_path / "a.sqlite")) as a, Store(str(tmp_path / "b.sqlite")) as b:
        a.put("games", sim, 0, game(481, False))  # draw 0: an old best found ...
        b.put(DRAWS_KIND, draws, 0, {"score": 601, "proven": True})  # ... then proven
        a.put("games", sim, 1, game(590, True))  # draw 1: proven, then a lower best found
        b.put(DRAWS_KIND, draws, 1, {"score": 580, "proven": False})
        a.put("games", sim, 2, game(500, False))  # draw 2: two best founds
        b.put(DRAWS_KIND, {**draws, "time_limit": 5}, 2, {"score": 510, "proven": False})
        b.put(DRAWS_KIND, {**draws, "variant": "advanced"}, 2, {"score": 640, "proven": True})
        assert stored_references([a, b]) == {
            ("r", "simple", 0): (601, True), ("r", "simple", 1): (590, True),
            ("r", "simple", 2): (510, False), ("r", "advanced", 2): (640, True)}
        b.put(DRAWS_KIND, {**draws, "time_limit": 9}, 1, {"score": 591, "proven": True})
        with pytest.raises(ValueError, match="two proven optima"):
            stored_references([a, b])



def test_disagreeing_proven_optima_are_a_one_line_error(tmp_path, monkeypatch, capsys):
    """scripts/store_ratio.py given two stores whose proven optima of a draw differ:
    exit code 2 and one line naming the draw, no traceback."""
    from models.take_it_higher.draws import DRAWS_KIND

    paths = [str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")]
    for path, score in zip(paths, (590, 591), strict=True):
        with Store(path) as s:
            s.put(DRAWS_KIND, {"rules_digest": "r", "variant": "simple"}, 1,
                  {"score": score, "proven": True})
    monkeypatch.setattr("sys.argv", ["store_ratio.py", *paths])
    with pytest.raises(SystemExit) as exc:
        load_script("store_ratio").main()
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "two proven optima of draw ('r', 'simple', 1): 590 and 591" in err
