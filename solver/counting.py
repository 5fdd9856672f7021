"""Counting conditions shared by the task languages ("exactly FIVE GREEN", "at least two
green piles", "NO PURPLE on the edge"): their text form, evaluation, and their encodings
as a literal of CP-SAT and of a CNF that is true exactly when the condition holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.errors import BadInput

if TYPE_CHECKING:  # the task languages are parsed without loading any solver
    from ortools.sat.python import cp_model

    from solver.backends.sat import CnfBuilder

NUMBER_WORDS = {
    "no": 0, "zero": 0, "none": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    # German (a game's cards may be German)
    "kein": 0, "keine": 0, "null": 0, "ein": 1, "eine": 1, "eins": 1, "zwei": 2, "drei": 3,
    "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10,
    "elf": 11, "zwölf": 12,
}

# operator words -> canonical operator
_OPERATORS = {
    ("exactly",): "exactly", ("genau",): "exactly",
    ("at", "least"): "at least", ("mindestens",): "at least",
    ("at", "most"): "at most", ("höchstens",): "at most",
    ("more", "than"): "more than", ("mehr", "als"): "more than",
    ("fewer", "than"): "fewer than", ("less", "than"): "fewer than",
    ("weniger", "als"): "fewer than",
}


def parse_number(word: str) -> int | None:
    """A number written in digits or as a word (English or German), else None."""
    w = word.lower()
    if w.isdecimal():
        return int(w)
    return NUMBER_WORDS.get(w)


@dataclass(frozen=True)
class Count:
    """A condition on how many things hold: op is "exactly", "at least" or "at most"."""

    op: str
    k: int

    def holds(self, n: int) -> bool:
        if self.op == "exactly":
            return n == self.k
        if self.op == "at least":
            return n >= self.k
        return n <= self.k

    def text(self) -> str:
        if self.k == 0 and self.op in ("exactly", "at most"):
            return "no"
        return f"{self.op} {self.k}"


def parse_count(words: Sequence[str], i: int, default_op: str = "exactly"
                ) -> tuple[Count, int] | None:
    """Read a count at words[i:] ("exactly five", "at least 3", "no", "more than two",
    "three" = default_op); returns (count, index after it) or None if none starts there.
    "more than k" becomes at least k+1 and "fewer than k" at most k-1."""
    op = None
    j = i
    for phrase, canonical in _OPERATORS.items():
        if tuple(w.lower() for w in words[i:i + len(phrase)]) == phrase:
            op, j = canonical, i + len(phrase)
            break
    if j >= len(words):
        return None
    k = parse_number(words[j])
    if k is None:
        return None
    if op is None:
        op = "exactly" if words[j].lower() in ("no", "none", "kein", "keine") else default_op
    if op == "more than":
        op, k = "at least", k + 1
    elif op == "fewer than":
        if k == 0:
            raise BadInput(f"'{' '.join(words[i:j + 1])}' can never hold")
        op, k = "at most", k - 1
    return Count(op, k), j + 1


def counter_outputs(builder: CnfBuilder, lits: Sequence[int], upto: int) -> list[int]:
    """outs[j] is true exactly when at least j+1 of `lits` are true (j < upto).

    A sequential counter with clauses in both directions, so the outputs can be used
    positively and negatively (reified counts). Size O(len(lits) * upto)."""
    lits = list(lits)
    upto = min(upto, len(lits))
    false = builder.var(("counting-false",))
    builder.clause([-false])
    prev = [false] * upto  # counts over no literals: nothing reached
    for x in lits:
        cur = []
        for j in range(upto):
            s = builder.fresh()
            below = prev[j - 1] if j > 0 else None  # reached j (j+1-1) before this literal
            # s <-> prev[j] or (x and below)
            builder.clause([-prev[j], s])
            if below is None:
                builder.clause([-x, s])
                builder.clause([-s, prev[j], x])
            else:
                builder.clause([-x, -below, s])
                builder.clause([-s, prev[j], x])
                builder.clause([-s, prev[j], below])
            cur.append(s)
        prev = cur
    return prev


def count_literal(builder: CnfBuilder, lits: Sequence[int], count: Count) -> int:
    """A CNF literal that is true exactly when `count` holds for the true `lits`."""
    n = len(lits)
    outs = counter_outputs(builder, lits, count.k + 1)
    true = builder.var(("counting-true",))
    builder.clause([true])

    def at_least(k: int) -> int:  # literal for "at least k"
        if k <= 0:
            return true
        if k > n:
            return -true
        return outs[k - 1]

    if count.op == "at least":
        return at_least(count.k)
    if count.op == "at most":
        return -at_least(count.k + 1)
    lo, hi = at_least(count.k), -at_least(count.k + 1)
    both = builder.fresh()
    builder.clause([-both, lo])
    builder.clause([-both, hi])
    builder.clause([both, -lo, -hi])
    return both


def cpsat_count_literal(model: cp_model.CpModel, bools: Sequence[cp_model.IntVar],
                        count: Count) -> cp_model.IntVar:
    """A CP-SAT Boolean that is true exactly when `count` holds for `bools`."""
    b = model.new_bool_var(f"count {count.text()}")
    total = sum(bools)
    if count.op == "exactly":
        model.add(total == count.k).only_enforce_if(b)
        # not exactly k: below or above
        above = model.new_bool_var("")
        model.add(total <= count.k - 1).only_enforce_if([b.Not(), above.Not()])
        model.add(total >= count.k + 1).only_enforce_if([b.Not(), above])
    elif count.op == "at least":
        model.add(total >= count.k).only_enforce_if(b)
        model.add(total <= count.k - 1).only_enforce_if(b.Not())
    else:
        model.add(total <= count.k).only_enforce_if(b)
        model.add(total >= count.k + 1).only_enforce_if(b.Not())
    return b
