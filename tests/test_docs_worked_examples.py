"""Each game's docs list the rulebook's worked examples with the test that checks each
one (`tests/FILE.py::TEST`); every test named there exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("doc, at_least", [
    ("take-it-higher.md", 20), ("hoch-hinaus.md", 15), ("tippi-toppi.md", 15),
    ("topito.md", 20), ("hippo.md", 15)])
def test_the_docs_list_of_worked_examples_names_existing_tests(doc, at_least):
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    section = text.split("## Worked examples of the rulebook")[1].split("\n## ")[0]
    named = re.findall(r"(test_\w+\.py)::(test_\w+)", section)
    assert len(named) >= at_least
    for path, name in named:
        text = (ROOT / "tests" / path).read_text(encoding="utf-8")
        assert f"def {name}(" in text, (path, name)
