"""The fuzz invariant on a small budget (scripts/fuzz.py runs thousands of tries): on
damaged files and bad option values, every verb of every game answers, gives one clean
line with exit 2, or stops at its time limit with exit 3 — never a traceback, a hang or
a run far past its limit."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "fuzz.py"


def _fuzz():  # scripts/ is not a package: load it by path
    spec = importlib.util.spec_from_file_location("toppi_fuzz", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


FUZZ = _fuzz()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1))
def test_bad_input_never_ends_in_a_traceback_or_a_hang(tmp_path, seed):
    tally = FUZZ.run(40, seed, limit=2.0, slack=3.0, workdir=tmp_path)
    assert len(tally.outcomes) == 40
    assert not tally.failures(), [(o.kind, o.what, o.detail) for o in tally.failures()]


def test_the_damage_is_real():
    """The tries must reach the readers: most end in a clean error, some in an answer."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        counts = FUZZ.run(120, 5, limit=2.0, slack=3.0, workdir=Path(tmp)).count()
    assert counts["clean error"] >= 80 and counts["answer"] >= 1


def test_a_list_as_a_direction_colour_is_one_line():
    """Found by scripts/fuzz.py: an unhashable-type traceback in the rules reader."""
    import json
    import tempfile

    data = json.loads((SCRIPT.parents[1] / "models/take_it_higher/data/default.json").read_text())
    data["directions"][0]["colours"][0] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.json"
        path.write_text(json.dumps(data))
        out = FUZZ.invoke(["take-it-higher", "tiles", "--rules", str(path)], None, 1.0)
    assert out.kind == "clean error", out
