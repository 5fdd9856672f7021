"""Which way a hint is worked out, and working it out: one function for the `hint` verb
and `play`'s hint.

Three methods, each a function of the position, its options and the seed (the work is
counted, never timed; a time limit only caps it, and the answer says when it did):

- learned: the learned value of boards, the best cells on seeded sampled futures played
  by the values, the endgame exact (`learned/policy.py`); the strongest where there are
  values (measured on seeded games, docs/take-it-higher.md), so the default there;
- exact: every cell's expected final score under the best play, every set of tiles to
  come averaged (`exact.py`); the best play itself, but only small positions are in
  reach: the default on a board without learned values once the rest of the game is
  at most EXACT_POSITIONS positions;
- sampled: the best completions of sampled futures, solved by CP-SAT with a fixed
  amount of work each (`hint.py`); the default on a board without learned values
  before that.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.take_it_higher.exact import ExactResult
from models.take_it_higher.hint import HintResult
from models.take_it_higher.learned.policy import (
    CALLS,
    ENDGAME_POSITIONS,
    FUTURES,
    LOOKAHEAD,
    LearnedResult,
)
from models.take_it_higher.rules import Tile
from models.take_it_higher.state import GameState
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput

#: `hint --method`: the default for the board, or one method
METHODS = ("auto", "learned", "sampled", "exact")
#: on a board without learned values, exact values up to this many positions still to
#: value (the learned policy's endgame limit: about the last 5 calls of the built-in
#: board, at most about a second and a half)
EXACT_POSITIONS = ENDGAME_POSITIONS
#: the hint's time limit when none is given: a cap (the default work takes far less)
HINT_CAP = 20.0

Result = HintResult | ExactResult | LearnedResult


@dataclass
class Advice:
    """A hint's result, its method, why that method (`chosen`) and whether the time
    limit cut the work (`cut`)."""

    result: Result
    method: str
    chosen: str
    cut: bool


def resolve_method(state: GameState, tile: Tile, method: str = "auto",
                   exact: bool = False, learned: bool = False, samples: int | None = None,
                   values: str | None = None, learned_options: bool = False
                   ) -> tuple[str, str]:
    """The method of a hint and why: what the options ask for (`--method`, `--exact`,
    `--learned`; `--samples` means sampled completions, `--values` and the learned
    options the learned values), else the default for the board (`default_method`).
    BadInput for options that contradict each other."""
    asked = [(f"--{m}", m) for m, on in (("exact", exact), ("learned", learned)) if on]
    if method != "auto":
        asked.append((f"--method {method}", method))
    if len({m for _, m in asked}) > 1:
        raise BadInput(f"{' and '.join(w for w, _ in asked)}: choose one method")
    if asked:
        chosen, name = asked[0]
    elif samples is not None:
        chosen, name = "--samples", "sampled"
    elif values is not None or learned_options:
        chosen, name = "--values" if values is not None else "the learned options", "learned"
    else:
        name, chosen = default_method(state, tile)
    if name != "learned" and (values is not None or learned_options):
        raise BadInput("--values, --lookahead, --futures and --calls are options of the "
                       "learned method")
    if name != "sampled" and samples is not None:
        raise BadInput("--samples is an option of the sampled method")
    return name, chosen


def default_method(state: GameState, tile: Tile) -> tuple[str, str]:
    """The best method for the board and why: the learned values where toppi has some
    (the built-in board), else exact values when the rest of the game is small, else
    sampled completions."""
    from models.take_it_higher.exact import ExactValues, positions
    from models.take_it_higher.learned.files import has_builtin_values

    if has_builtin_values(state.rules):
        return "learned", "the default: learned values of the built-in board"
    why = "the default on a board without learned values"
    called = state if state.called is not None else state.apply_action(tile)
    if called.variant.ships is None and not called.coming:
        values = ExactValues(called.rules, called.variant)
        board, unseen = values.position(called)
        count = positions(board.count(-1) - 1, unseen)
        if count <= EXACT_POSITIONS:
            return "exact", f"{why}, the rest of the game small ({count:,} positions)"
    return "sampled", why


def advise(state: GameState, tile: Tile, method: str, *, samples: int | None = None,
           seed: int = 0, time_limit: float | None = None,
           deadline: Deadline = NO_DEADLINE, values: str | None = None,
           lookahead: int | None = None, futures: int | None = None,
           calls: int | None = None, chosen: str = "") -> Advice:
    """The hint for the called tile by `method` (resolved: not "auto"); `deadline` caps
    the work, `time_limit` is the clock's budget of sampled completions with
    samples=0 (and else a cap from now as well)."""
    if method == "learned":
        from models.take_it_higher.learned.policy import learned_cells

        cells = learned_cells(state, tile, LOOKAHEAD if lookahead is None else lookahead,
                              values, futures=FUTURES if futures is None else futures,
                              calls=CALLS if calls is None else calls, seed=seed,
                              deadline=deadline.sooner(time_limit))
        return Advice(cells, method, chosen, cells.cut)
    if method == "exact":
        from models.take_it_higher.exact import exact_cells

        found = exact_cells(state, tile, deadline=deadline.sooner(time_limit))
        return Advice(found, method, chosen, bool(found.unvalued))
    if method == "sampled":
        from models.take_it_higher.hint import hint

        result = hint(state, tile, samples=samples, seed=seed, time_limit=time_limit,
                      deadline=deadline)
        return Advice(result, method, chosen, result.cut)
    raise BadInput(f"unknown hint method '{method}' ({', '.join(METHODS[1:])})")


def method_text(method: str) -> str:
    """The method in words, for the terminal."""
    return {"learned": "learned values of boards", "exact": "exact values (best play)",
            "sampled": "sampled futures, completions by CP-SAT"}.get(method, method)
