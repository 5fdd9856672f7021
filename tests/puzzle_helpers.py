"""What the library tests of every game need: the uniqueness verdict and the search
behind it, made once."""

from __future__ import annotations

from typing import Any

from solver.generate import Uniqueness, check_unique


class _Recorded:
    """A puzzle kind that keeps each search it makes (everything else: the kind's)."""

    def __init__(self, kind: Any) -> None:
        self.kind = kind
        self.searches: list[tuple[Any, int, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.kind, name)

    def search(self, puzzle: Any, limit: int) -> Any:
        found = self.kind.search(puzzle, limit)
        self.searches.append((puzzle, limit, found))
        return found


def verdict_and_search(kind: Any, puzzle: Any) -> tuple[Uniqueness, Any]:
    """check_unique's verdict on `puzzle` and the search it was made from
    (`kind.search(puzzle, 2)`): the rating is re-measured from that search, as the
    generator loop does, rather than from a second identical search."""
    recorded = _Recorded(kind)
    verdict = check_unique(recorded, puzzle)
    [(searched, limit, found)] = recorded.searches
    assert searched is puzzle and limit == 2
    return verdict, found
