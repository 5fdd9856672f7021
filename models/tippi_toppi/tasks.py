"""The task language of Tippi Toppi: conditions on the four top cards.

The real task cards are not published; this language is modelled on the rulebook's
examples ("Drei grüne Stapel", "Die Summe aller grünen Stapel ist 7", two colours for all
piles) and on the kinds of tasks a player meets. Every task is judged on the top cards
only: `tops` is a tuple with one (colour index, number) per pile, left to right.

Readings (see docs/tippi-toppi.md):
- counts are exact unless the text says otherwise ("three green piles" = exactly three);
- "the sum of the green piles is 7" adds the green tops only and holds with a single
  green 7;
- a sum or comparison naming a group of piles (a colour, even piles, ...) reads as the
  rules say (`Rules.comparisons`): "as-worded" (the default, the rulebook's "exakt nach
  ihrem Wortlaut") counts an absent group as 0 piles with sum 0, so 2 pink piles and no
  orange pile are "more pink piles than orange piles" and no green and no purple pile
  are "as many green piles as purple piles"; "present" asks every group named to lie on
  at least one pile. "The sum of all piles" always exists;
- "all piles are pink or green" holds when only one of the two colours lies.

Every task has one canonical English text (`text()`), which `parse_task` reads back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.counting import Count, parse_count, parse_number
from solver.errors import BadInput

if TYPE_CHECKING:  # only for type hints: rules.py imports this module
    from models.tippi_toppi.rules import Rules

Tops = tuple[tuple[int, int], ...]


# --------------------------------------------------------------------------- filters

@dataclass(frozen=True)
class Filter:
    """Which piles a task talks about: colours (indices) and numbers; None = any."""

    colours: frozenset[int] | None = None
    numbers: frozenset[int] | None = None

    def matches(self, card: tuple[int, int]) -> bool:
        return ((self.colours is None or card[0] in self.colours)
                and (self.numbers is None or card[1] in self.numbers))

    @property
    def is_all(self) -> bool:
        return self.colours is None and self.numbers is None

    def colour_text(self, rules: Rules) -> str:
        if self.colours is None:
            return ""
        names = [rules.colours[c].name for c in sorted(self.colours)]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]

    def number_text(self, rules: Rules, verb: bool = True) -> str:
        """'even', 'odd', 'below 4', 'above 3', 'showing 7', 'showing 2 or 5'."""
        if self.numbers is None:
            return ""
        ns = sorted(self.numbers)
        allnums = list(rules.numbers)
        if ns == [n for n in allnums if n % 2 == 0]:
            return "even"
        if ns == [n for n in allnums if n % 2 == 1]:
            return "odd"
        if len(ns) > 1 and ns == allnums[:len(ns)]:
            return f"below {ns[-1] + 1}"
        if len(ns) > 1 and ns == allnums[-len(ns):]:
            return f"above {ns[0] - 1}"
        listed = ", ".join(str(n) for n in ns[:-1]) + (" or " if len(ns) > 1 else "") + str(ns[-1])
        return ("showing " if verb else "") + listed

    def noun(self, rules: Rules, plural: bool) -> str:
        """'green piles that are even', 'pile showing 7', 'pink or green pile'."""
        words = [self.colour_text(rules), "piles" if plural else "pile"]
        num = self.number_text(rules)
        if num in ("even", "odd") or num.startswith(("below", "above")):
            words.append(("that are " if plural else "that is ") + num)
        elif num:
            words.append(num)
        return " ".join(w for w in words if w)

    def adjective(self, rules: Rules) -> str:
        """For 'all piles are ...': 'pink or green', 'even', 'green and below 4'."""
        parts = [self.colour_text(rules), self.number_text(rules, verb=False)]
        return " and ".join(p for p in parts if p) or "any"


ANY = Filter()


# --------------------------------------------------------------------------- tasks

class Task:
    """A condition on the top cards. Subclasses: the kinds of tasks."""

    def holds(self, tops: Tops, rules: Rules) -> bool:
        raise NotImplementedError

    def text(self, rules: Rules) -> str:
        raise NotImplementedError

    @property
    def reads_order(self) -> bool:
        """Whether the task reads the piles' left-to-right order beyond which piles are
        neighbours (then moving the piles around changes its meaning)."""
        return False


@dataclass(frozen=True)
class PlaceholderTask(Task):
    """A task that never holds: kept open so the engine plays on while the plays are
    judged against other targets (an achievability witness, a puzzle proposal)."""

    def holds(self, tops: Tops, rules: Rules) -> bool:
        return False

    def text(self, rules: Rules) -> str:
        return "(placeholder: never holds)"


PLACEHOLDER = PlaceholderTask()


def _present(f: Filter, tops: Tops, rules: Rules) -> bool:
    """Whether the group may be judged: always as worded; with the "present" reading only
    when some pile belongs to it."""
    return rules.comparisons != "present" or f.is_all or any(f.matches(c) for c in tops)


def _sum(f: Filter, tops: Tops) -> int:
    return sum(c[1] for c in tops if f.matches(c))


@dataclass(frozen=True)
class CountTask(Task):
    """'exactly 3 green piles', 'at least 1 pile showing 7', 'no purple piles'."""

    filter: Filter
    count: Count

    def holds(self, tops: Tops, rules: Rules) -> bool:
        return self.count.holds(sum(1 for c in tops if self.filter.matches(c)))

    def text(self, rules: Rules) -> str:
        return f"{self.count.text()} {self.filter.noun(rules, self.count.k != 1)}"


@dataclass(frozen=True)
class AllTask(Task):
    """'all piles are pink or green', 'all piles are even', 'all piles are below 4'."""

    filter: Filter

    def holds(self, tops: Tops, rules: Rules) -> bool:
        return all(self.filter.matches(c) for c in tops)

    def text(self, rules: Rules) -> str:
        return f"all piles are {self.filter.adjective(rules)}"


@dataclass(frozen=True)
class SumTask(Task):
    """'the sum of the green piles is 7', 'the sum of all piles is at least 20' (with the
    "present" reading a named group needs a pile)."""

    filter: Filter
    count: Count

    def holds(self, tops: Tops, rules: Rules) -> bool:
        return _present(self.filter, tops, rules) and self.count.holds(_sum(self.filter, tops))

    def text(self, rules: Rules) -> str:
        value = str(self.count.k) if self.count.op == "exactly" else \
            f"{self.count.op} {self.count.k}"
        return f"the sum of {_group(self.filter, rules)} is {value}"


def _group(f: Filter, rules: Rules) -> str:
    return "all piles" if f.is_all else "the " + f.noun(rules, True)


def _article(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


RELATIONS = ("equal", "double", "greater")


@dataclass(frozen=True)
class CompareTask(Task):
    """Two groups of piles compared by their sums or by how many piles they are:
    relation equal / double (left = 2 x right) / greater (left > right). An absent
    group counts 0 piles and sum 0, unless the rules read comparisons as "present"
    (then both groups must lie on at least one pile)."""

    measure: str  # "sum" or "count"
    relation: str
    left: Filter
    right: Filter

    def value(self, f: Filter, tops: Tops) -> int:
        return _sum(f, tops) if self.measure == "sum" else sum(1 for c in tops if f.matches(c))

    def holds(self, tops: Tops, rules: Rules) -> bool:
        if not (_present(self.left, tops, rules) and _present(self.right, tops, rules)):
            return False
        a, b = self.value(self.left, tops), self.value(self.right, tops)
        return {"equal": a == b, "double": a == 2 * b, "greater": a > b}[self.relation]

    def text(self, rules: Rules) -> str:
        if self.measure == "sum":
            a = f"the sum of {_group(self.left, rules)}"
            b = f"the sum of {_group(self.right, rules)}"
            rel = {"equal": "equals", "double": "is double", "greater": "is greater than"}
            return f"{a} {rel[self.relation]} {b}"
        a, b = self.left.noun(rules, True), self.right.noun(rules, True)
        return {"equal": f"as many {a} as {b}", "double": f"twice as many {a} as {b}",
                "greater": f"more {a} than {b}"}[self.relation]


ADJACENCY_MODES = ("next", "apart", "none")


@dataclass(frozen=True)
class AdjacentTask(Task):
    """mode next: an A pile lies next to a B pile; apart: an A pile and a B pile (two
    different piles) lie apart, not next to each other; none: no A pile lies next to a
    B pile. Neighbours come from the rules data (a row by default)."""

    a: Filter
    b: Filter
    mode: str

    def holds(self, tops: Tops, rules: Rules) -> bool:
        n = len(tops)
        pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
        adj = rules.neighbours

        def hit(i: int, j: int) -> bool:
            return self.a.matches(tops[i]) and self.b.matches(tops[j])
        if self.mode == "next":
            return any(hit(i, j) for i, j in pairs if (i, j) in adj)
        if self.mode == "apart":
            return any(hit(i, j) for i, j in pairs if (i, j) not in adj)
        return not any(hit(i, j) for i, j in pairs if (i, j) in adj)

    def text(self, rules: Rules) -> str:
        if self.a == self.b:
            noun = self.a.noun(rules, True)
            return {"next": f"two {noun} next to each other",
                    "apart": f"two {noun} not next to each other",
                    "none": f"no two {noun} next to each other"}[self.mode]
        a, b = _article(self.a.noun(rules, False)), _article(self.b.noun(rules, False))
        return {"next": f"{a} next to {b}",
                "apart": f"{a} and {b} not next to each other",
                "none": f"no {a[a.index(' ') + 1:]} next to {b}"}[self.mode]


@dataclass(frozen=True)
class SameAdjacentTask(Task):
    """'two adjacent piles of the same colour' / 'no two adjacent piles of the same
    number' (attribute 0 = colour, 1 = number)."""

    attribute: int
    negated: bool

    def holds(self, tops: Tops, rules: Rules) -> bool:
        same = any(tops[i][self.attribute] == tops[j][self.attribute]
                   for i, j in rules.adjacent)
        return not same if self.negated else same

    def text(self, rules: Rules) -> str:
        what = ("colour", "number")[self.attribute]
        return f"{'no ' if self.negated else ''}two adjacent piles of the same {what}"


@dataclass(frozen=True)
class DistinctTask(Task):
    """'no colour is repeated' (all tops differ) or 'all piles have the same number'."""

    attribute: int
    same: bool

    def holds(self, tops: Tops, rules: Rules) -> bool:
        values = {c[self.attribute] for c in tops}
        return len(values) == 1 if self.same else len(values) == len(tops)

    def text(self, rules: Rules) -> str:
        what = ("colour", "number")[self.attribute]
        return f"all piles have the same {what}" if self.same else f"no {what} is repeated"


@dataclass(frozen=True)
class RunTask(Task):
    """'a run of 3': that many tops show consecutive numbers (in any order and place);
    'the piles rise from left to right': each top higher than the one to its left."""

    length: int  # 0 = rising from left to right

    def holds(self, tops: Tops, rules: Rules) -> bool:
        nums = [c[1] for c in tops]
        if self.length == 0:
            return all(a < b for a, b in zip(nums, nums[1:], strict=False))
        have = set(nums)
        return any(all(s + d in have for d in range(self.length))
                   for s in range(min(rules.numbers), max(rules.numbers) + 1))

    def text(self, rules: Rules) -> str:
        if self.length == 0:
            return "the piles rise from left to right"
        return f"a run of {self.length}"

    @property
    def reads_order(self) -> bool:
        return self.length == 0


# --------------------------------------------------------------------------- parsing

# German and filler words mapped onto the English reading; None = dropped
_WORDS = {
    "stapel": "piles", "stapeln": "piles", "summe": "sum", "aller": "all", "alle": "all",
    "allen": "all", "ist": "is", "sind": "are", "oder": "or", "und": "and",
    "gerade": "even", "geraden": "even", "ungerade": "odd", "ungeraden": "odd",
    "der": None, "die": None, "das": None, "den": None, "the": None, "of": None,
    "pile": "piles", "stack": "piles", "stacks": "piles", "lie": None, "lies": None,
    "show": "showing", "shows": "showing", "with": "showing", "have": None, "has": None,
    "that": None, "is": "is", "are": "are", "numbers": None, "number": "number",
    "numbered": None, "a": "a", "an": "a", "cards": "piles", "card": "piles",
    "top": None, "zeigen": "showing", "zeigt": "showing", "mit": "showing",
    "each": "each", "other": "other", "beside": "next", "neben": "next",
    "adjacent": "adjacent", "nebeneinander": "adjacent", "equals": "equal",
    "twice": "double", "doppelt": "double", "gleich": "equal", "größer": "greater",
    "groesser": "greater", "bigger": "greater", "higher": "higher", "larger": "greater",
    "under": "below", "unter": "below", "over": "above", "über": "above",
    "colours": "colour", "color": "colour", "colors": "colour", "farbe": "colour",
    "farben": "colour", "zahl": "number", "zahlen": "number", "zahlenwert": "number",
    "repeats": "repeated", "sevens": "7",
}


def _tokens(text: str, rules: Rules) -> list[str]:
    words = re.findall(r"[0-9]+s?|[^\W\d_]+", text.lower())
    out: list[str] = []
    for w in words:
        if re.fullmatch(r"[0-9]+s", w):
            w = w[:-1]  # "7s"
        w2 = _WORDS.get(w, w) if w not in rules.colour_word else w
        if w2 is not None:
            out.append(w2)
    return out


class _Reader:
    def __init__(self, text: str, rules: Rules) -> None:
        self.text = text
        self.rules = rules

    def fail(self, why: str) -> BadInput:
        return BadInput(f"cannot read task '{self.text}': {why}")

    def filter(self, words: Sequence[str]) -> Filter:
        """Colour words joined by 'or', number conditions (even, odd, below N, above N,
        N or higher, showing N or M); everything else is an error."""
        rules = self.rules
        colours: set[int] = set()
        numbers: set[int] | None = None
        allnums = set(rules.numbers)

        def restrict(ns: set[int]) -> None:
            nonlocal numbers
            numbers = ns if numbers is None else numbers & ns
        i = 0
        listed: set[int] = set()
        while i < len(words):
            w = words[i]
            if w in rules.colour_word:
                colours.add(rules.colour_word[w])
            elif w in ("even", "odd"):
                restrict({n for n in allnums if n % 2 == (0 if w == "even" else 1)})
            elif w in ("below", "above", "less", "more", "greater", "lower", "smaller"):
                j = i + 1
                if j < len(words) and words[j] == "than":
                    j += 1
                k = parse_number(words[j]) if j < len(words) else None
                if k is None:
                    raise self.fail(f"'{w}' needs a number")
                up = w in ("above", "more", "greater")
                restrict({n for n in allnums if (n > k if up else n < k)})
                i = j
            elif parse_number(w) is not None and w not in ("no", "none", "a", "one", "ein",
                                                           "eine", "kein", "keine"):
                k = parse_number(w)
                if k not in allnums:
                    raise self.fail(f"there is no card number {k}")
                if i + 2 < len(words) and words[i + 1] == "or" and \
                        words[i + 2] in ("higher", "more", "above", "greater"):
                    restrict({n for n in allnums if n >= k})
                    i += 2
                elif i + 2 < len(words) and words[i + 1] == "or" and \
                        words[i + 2] in ("lower", "less", "below", "fewer"):
                    restrict({n for n in allnums if n <= k})
                    i += 2
                else:
                    listed.add(k)
            elif w in ("or", "and", "piles", "showing", "are", "is", "a", "one", "all", "any",
                       "number"):
                pass
            else:
                raise self.fail(f"unexpected word '{w}'")
            i += 1
        if listed:
            restrict(listed)
        if numbers is not None and not numbers:
            raise self.fail("no card number fits")
        if numbers == allnums:
            numbers = None
        col = frozenset(colours) if colours and len(colours) < len(rules.colours) else None
        return Filter(col, frozenset(numbers) if numbers is not None else None)

    def count_task(self, words: list[str]) -> Task:
        got = parse_count(words, 0)
        if got is None:
            raise self.fail("expected a count (exactly 3, at least two, no, ...) or one of "
                            "the known kinds of task")
        count, i = got
        if count.k > self.rules.piles:
            raise self.fail(f"there are only {self.rules.piles} piles")
        return CountTask(self.filter(words[i:]), count)


def _split(words: list[str], *seps: str) -> tuple[list[str], list[str]] | None:
    for i, w in enumerate(words):
        if w in seps:
            return words[:i], words[i + 1:]
    return None


def parse_task(text: str, rules: Rules) -> Task:
    """Read a task from its text (English; the rulebook's German examples too)."""
    r = _Reader(text, rules)
    w = _tokens(text, rules)
    if not w:
        raise r.fail("empty")
    joined = " ".join(w)
    # runs and rising piles
    if "run" in w:
        rest = [x for x in w if x not in ("a", "run", "form", "forms", "piles", "showing")]
        k = parse_number(rest[0]) if len(rest) == 1 else None
        if k is None or not 2 <= k <= rules.piles:
            raise r.fail(f"a run needs a length from 2 to {rules.piles}")
        return RunTask(k)
    if ("rise" in w or "ascending" in w or "increase" in w) and "left" in joined:
        return RunTask(0)
    attribute = 1 if "number" in w else 0 if "colour" in w else None
    # same / different colours or numbers
    if "same" in w and attribute is not None:
        if "adjacent" in w or "next" in w:
            return SameAdjacentTask(attribute, w[0] == "no")
        return DistinctTask(attribute, True)
    if attribute is not None and ("repeated" in w or "different" in w or "differ" in w):
        return DistinctTask(attribute, False)
    # neighbours
    if "next" in w or "adjacent" in w:
        return _adjacent(r, w)
    # comparisons of sums or counts
    if "sum" in w:
        return _sum_task(r, w)
    if w[0] in ("more", "as") or w[:2] in (["double", "as"], ["double", "many"]):
        return _count_compare(r, w)
    if w[0] == "all" and "sum" not in w:
        return AllTask(r.filter([x for x in w[1:] if x not in ("piles", "are", "showing")]))
    return r.count_task(w)


def _adjacent(r: _Reader, w: list[str]) -> Task:
    mode = "none" if w[0] == "no" else "apart" if "not" in w else "next"
    body = w[1:] if w[0] in ("no", "a", "two") else w
    if mode == "apart":
        body = [x for x in body if x != "not"]
    cut = _split(body, "next", "adjacent")
    if cut is None:
        raise r.fail("expected 'next to'")
    left, right = cut
    right = [x for x in right if x not in ("to", "are")]
    if mode == "apart" and (not right or right == ["each", "other"]):
        pair = _split_and(left)
        if pair is not None:
            return AdjacentTask(r.filter(pair[0]), r.filter(pair[1]), mode)
    left = [x for x in left if x not in ("two",)]
    if right[:1] == ["a"]:
        right = right[1:]
    if not right:
        raise r.fail("next to what? (write 'next to each other' or 'next to a ... pile')")
    if right == ["each", "other"] or right == ["one", "another"]:
        f = r.filter(left)
        return AdjacentTask(f, f, mode)
    if not left:  # "two adjacent green piles"
        f = r.filter(right)
        return AdjacentTask(f, f, mode)
    return AdjacentTask(r.filter(left), r.filter(right), mode)


def _split_and(words: list[str]) -> tuple[list[str], list[str]] | None:
    """'green piles and a pink piles' -> the two noun phrases (split at 'and a')."""
    for i in range(len(words) - 1):
        if words[i] == "and" and words[i + 1] == "a":
            return words[:i], words[i + 2:]
    return None


def _sum_task(r: _Reader, w: list[str]) -> Task:
    sides = _split(w, "equal", "double", "greater")
    if sides is not None:
        relation = {"equal": "equal", "double": "double", "greater": "greater"}[
            next(x for x in w if x in ("equal", "double", "greater"))]
        if "sum" not in sides[1]:
            raise r.fail("compare the sum with another sum ('... equals the sum of the "
                         "pink piles')")
        left = [x for x in sides[0] if x not in ("is", "sum", "all", "piles")]
        right = [x for x in sides[1] if x not in ("to", "than", "as", "sum", "all", "piles")]
        return CompareTask("sum", relation, r.filter(left), r.filter(right))
    last = max((i for i, x in enumerate(w) if x in ("is", "are")), default=None)
    cut = None if last is None else (w[:last], w[last + 1:])
    if cut is None:
        raise r.fail("a sum needs 'is' and a value")
    group = [x for x in cut[0] if x not in ("sum", "all", "piles")]
    got = parse_count(cut[1], 0)
    if got is None or got[1] != len(cut[1]):
        raise r.fail("expected a value after 'is' (7, at least 20, ...)")
    return SumTask(r.filter(group), got[0])


def _count_compare(r: _Reader, w: list[str]) -> Task:
    if w[0] == "more":
        cut = _split(w[1:], "than")
        relation = "greater"
    else:
        body = w[1:] if w[0] == "double" else w
        body = [x for x in body if x != "many"]
        if not body or body[0] != "as":
            raise r.fail("expected 'as many ... as ...'")
        cut = _split(body[1:], "as")
        relation = "double" if w[0] == "double" else "equal"
    if cut is None:
        raise r.fail("a comparison needs two groups of piles")
    return CompareTask("count", relation, r.filter(cut[0]), r.filter(cut[1]))


def task_text(task: Task, rules: Rules) -> str:
    """The canonical text of a task."""
    return task.text(rules)
