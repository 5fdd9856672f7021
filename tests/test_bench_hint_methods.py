"""scripts/bench_hint_methods.py: a method's games kept in the store one by one, the same
games again with --resume (none played twice), and the report pairing them."""

from __future__ import annotations

import argparse

from tests.cli_helpers import load_script

BENCH = load_script("bench_hint_methods")


def args(tmp_path, **more) -> argparse.Namespace:
    base = {"variant": "basic", "method": "greedy", "games": 2, "seed": 0, "futures": None,
            "calls": None, "lookahead": None, "samples": None, "cap": 30.0,
            "store": str(tmp_path / "m.sqlite"), "resume": True,
            "optima": [str(tmp_path / "none.sqlite")]}
    return argparse.Namespace(**{**base, **more})


def test_games_are_kept_resumed_and_reported(tmp_path, capsys, monkeypatch):
    played = []
    real = BENCH.play_game
    monkeypatch.setattr(BENCH, "play_game", lambda *a: played.append(a[2]) or real(*a))
    BENCH.run(args(tmp_path))
    BENCH.run(args(tmp_path, games=3))  # only game 2 is new
    assert played == [0, 1, 2]
    BENCH.run(args(tmp_path, method="learned", games=1, futures=2, calls=1))
    capsys.readouterr()
    BENCH.report(args(tmp_path))
    out = capsys.readouterr().out
    assert "greedy {}: 3 games" in out and "decision median" in out
    # the learned method at other work than its default is not the default: no pairing
    assert "learned {'calls': 1, 'futures': 2, 'lookahead': 6}: 1 games" in out
    assert "the default" not in out
