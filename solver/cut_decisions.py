"""The decisions of a simulated game that a time cap cut (`--hint-time`): such a game
is no longer a function of its seed, so simulate says how many there were.

`simulate` plays a game in one thread from its `new_game` to its `measure`; a policy
counts each decision its cap cut (`count`), and the game's record and its cell's
figures carry the count as `cut_decisions` (only when some were cut).
"""

from __future__ import annotations

import threading

_counts = threading.local()


def reset() -> None:
    """A new game in this thread: no decision cut yet."""
    _counts.cut = 0


def count(cut: bool) -> None:
    """One decision of this thread's game; `cut`: its cap cut it."""
    if cut:
        _counts.cut = total() + 1


def total() -> int:
    """The decisions cut since this thread's game began."""
    return getattr(_counts, "cut", 0)
