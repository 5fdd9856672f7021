"""The fuzz invariant on a small budget (scripts/fuzz.py runs thousands of tries): on
damaged files and bad option values, every verb of every game answers, gives one clean
line with exit 2, or stops at its time limit with exit 3 — never a traceback or a hang.

The suite's tries are the same on every run (fixed seeds), and their verdict does not
depend on the machine's load: whether a try ran past its limit is timed by
scripts/fuzz.py (its "overrun" column), not here; a hang (60 s) is still a failure."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli_helpers import load_script

FUZZ = load_script("fuzz")
NO_OVERRUN = math.inf  # the suite does not time the tries (scripts/fuzz.py --slack does)


@settings(max_examples=2, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_bad_input_never_ends_in_a_traceback_or_a_hang(tmp_path, seed):
    tally = FUZZ.run(40, seed, limit=2.0, slack=NO_OVERRUN, workdir=tmp_path)
    assert len(tally.outcomes) == 40
    assert not tally.failures(), [(o.kind, o.what, o.detail) for o in tally.failures()]


def test_the_damage_is_real():
    """The tries must reach the readers: most end in a clean error, some in an answer."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        counts = FUZZ.run(60, 5, limit=2.0, slack=NO_OVERRUN, workdir=Path(tmp)).count()
    assert counts["clean error"] >= 40 and counts["answer"] >= 1  # two thirds, and some


def test_a_list_as_a_direction_colour_is_one_line():
    """Found by scripts/fuzz.py: an unhashable-type traceback in the rules reader."""
    import json
    import tempfile

    data = json.loads((Path(__file__).resolve().parents[1] / "models/take_it_higher/data/default.json").read_text())
    data["directions"][0]["colours"][0] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.json"
        path.write_text(json.dumps(data))
        out = FUZZ.invoke(["take-it-higher", "tiles", "--rules", str(path)], None, NO_OVERRUN)
    assert out.kind == "clean error", out


def test_damaged_stores_end_cleanly_and_are_never_trusted(tmp_path):
    """Stores with flipped bytes, cut off, rows edited in SQL, or not databases at all:
    `puzzles list/export` and `--resume` end cleanly, and a resumed run that answers
    gives the first run's answer (the damaged rows recomputed)."""
    import random

    rng = random.Random(3)
    outcomes = [FUZZ.store_outcome(FUZZ.store_try(rng, tmp_path, n), tmp_path, NO_OVERRUN)
                for n in range(16)]
    assert not [o for o in outcomes if o.kind not in ("answer", "clean error")], outcomes
    resumed = [o for o in outcomes if o.kind == "answer" and "--resume" in o.what]
    assert len(resumed) >= 4


def test_the_store_oracle_sees_a_trusted_edit(tmp_path, monkeypatch):
    """The oracle can fail: with the checksums ignored an edited row is trusted, and the
    resumed answer differs from the first run's."""
    import json
    import random

    import solver.store

    def trusting(self, kind, row):
        row_id, seed, params, result, rating, canonical, created, checksum = row
        try:
            return {"id": row_id, "seed": seed, "parameters": json.loads(params),
                    "result": json.loads(result), "rating": None, "canonical": canonical,
                    "created": created}
        except (TypeError, ValueError):
            return None

    monkeypatch.setattr(solver.store.Store, "_read", trusting)
    rng = random.Random(3)
    kinds = [FUZZ.store_outcome(FUZZ.store_try(rng, tmp_path, n, ["runs"]), tmp_path,
                                NO_OVERRUN).kind for n in range(20)]
    assert "wrong answer" in kinds


@pytest.mark.parametrize("game,rules,verb", [
    ("tippi-toppi", "models/tippi_toppi/data/default.json",
     ["show", "puzzles/tippi-toppi/hidden.json"]),
    ("hoch-hinaus", "models/hoch_hinaus/data/default.json",
     ["show", "puzzles/hoch-hinaus/corner-gap.json"]),
])
def test_a_colour_that_is_not_rgb_is_one_line(tmp_path, game, rules, verb):
    """Found by scripts/fuzz.py (seed 2): an empty 'rgb' in a rules file was a ValueError
    traceback in the picture; every game now reads colours with solver.io.rgb_colour."""
    import json

    root = Path(__file__).resolve().parents[1]
    data = json.loads((root / rules).read_text())
    data["colours"][0]["rgb"] = ""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    out = FUZZ.invoke([game, verb[0], str(root / verb[1]), "--rules", str(path)], None,
                      NO_OVERRUN)
    assert out.kind == "clean error", out


NEW_KINDS = ["special", "values", "crafted store", "huge", "text", "output", "round trip",
             "verb"]


@pytest.mark.slow
def test_every_kind_of_user_file_and_output_ends_cleanly(tmp_path):
    """Special files, values files, crafted store rows, numbers and strings out of
    bounds, bad UTF-8 in options, unwritable outputs, round trips: no failure, and
    bad input is never answered."""
    tally = FUZZ.run(60, 3, limit=2.0, slack=NO_OVERRUN, workdir=tmp_path, kinds=NEW_KINDS)
    assert not tally.failures(), [(o.kind, o.what, o.detail) for o in tally.failures()]
    assert set(tally.by_source()) == {
        "special file", "values file", "crafted store", "number or string out of bounds",
        "odd text in an option", "unwritable output", "position round trip",
        "every verb"}


def test_the_export_oracle_sees_a_file_outside(tmp_path):
    """The export check can fail: a file that appears beside --out is reported."""
    import random

    t = FUZZ.inputs.export_try(random.Random(1), tmp_path, 0)
    (tmp_path / "ex0").mkdir(parents=True, exist_ok=True)
    (tmp_path / "ex0" / "escaped.json").write_text("{}")
    assert "outside" in t.check("")


def test_the_round_trip_oracle_sees_a_lossy_reader(tmp_path, monkeypatch):
    """The round trip can fail: a reader that loses a move is caught."""
    import random

    from solver.registry import games

    game = games()["hippo"].game()
    real = type(game).read

    def lossy(self, rules, data, where):
        state = real(self, rules, data, where)
        legal = self.legal_actions(state)
        return self.apply_action(state, legal[0]) if legal else state

    monkeypatch.setattr(type(game), "read", lossy)
    rng = random.Random(2)
    problems = [FUZZ.inputs.roundtrip_try(rng, tmp_path, n, "hippo").oracle()
                for n in range(6)]
    assert any(p is not None and "another position" in p for p in problems), problems
