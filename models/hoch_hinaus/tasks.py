"""The task language of Hoch Hinaus!: what a task card says, in a text form puzzle
authors can type ("Exactly FIVE GREEN", "There is NO PURPLE on the EDGE", "PINK is in
THREE different HEIGHTS", "THREE PINK in a ROW or COLUMN"), and its evaluation on the 12
spaces seen from above (heights only where a task names them).

Grammar (case-insensitive; "There is/are" and "the" may be added anywhere sensible):

    COUNT PRED [REGION]                    Exactly FIVE GREEN; NO 1 in the CENTRE
    PRED is in COUNT different HEIGHTS     PINK is in THREE different HEIGHTS
    COUNT different COLOURS|NUMBERS [REGION]   FOUR different COLOURS in a ROW
    More PRED than PRED [REGION]           More GREEN than PINK on the EDGE

COUNT: exactly/at least/at most/more than/fewer than + number (word or digits), NO; a
plain number means "at least" (the rulebook: THREE PINK in a ROW is fulfilled with more).
PRED: [EVEN|ODD] [ORANGE|PINK|GREEN|PURPLE|BLACK] [number] [at HEIGHT n [or more]],
"EMPTY spaces", "spaces at HEIGHT n", "STACKS of n" (height n or more), "GAP FILLERS".
REGION: on the EDGE, in the CENTRE, in the CORNERS, in ROW 1-4, in COLUMN A-C (or 1-3),
in the TOP/BOTTOM ROW, LEFT/MIDDLE/RIGHT COLUMN, in a ROW, in a COLUMN, in a ROW or
COLUMN (some line), in EVERY ROW / EVERY COLUMN (all lines); the whole board if none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from solver.counting import NUMBER_WORDS, Count, parse_count
from solver.errors import BadInput
from solver.io import expect, load_json
from solver.io import field as json_field

WORD_OF = {v: k for k, v in NUMBER_WORDS.items() if k.isascii() and k not in
           ("no", "none", "zero", "kein", "keine", "null", "ein", "eine", "eins", "elf",
            "acht", "drei", "vier", "zwei", "zehn", "neun", "sechs", "sieben")}


@dataclass(frozen=True)
class Pred:
    """Which spaces a task counts: by visible colour, number, parity, emptiness, height."""

    colour: int | None = None
    number: int | None = None
    parity: str | None = None  # "even" | "odd"
    empty: bool = False
    height: int | None = None
    height_or_more: bool = False

    def matches(self, face: tuple[int, int] | None, height: int) -> bool:
        if self.height is not None:
            if self.height_or_more and height < self.height:
                return False
            if not self.height_or_more and height != self.height:
                return False
        if self.empty:
            return face is None
        if face is None:  # an empty space has no colour, number or parity
            return False
        if self.colour is not None and face[0] != self.colour:
            return False
        if self.number is not None and face[1] != self.number:
            return False
        if self.parity is not None and (face[1] % 2 == 0) != (self.parity == "even"):
            return False
        return True

    @property
    def uses_height(self) -> bool:
        return self.height is not None


@dataclass(frozen=True)
class Region:
    """Where: board, edge, centre, corners, row i, column i (0-based), or lines:
    rows / columns / lines (rows and columns) with quant "any" or "every"."""

    kind: str = "board"
    index: int | None = None
    quant: str | None = None  # for kind rows | columns | lines

    def lines(self, rules: Any) -> tuple[tuple[int, ...], ...]:
        """The groups of spaces the count is taken over (one group unless quantified)."""
        k = self.kind
        if k == "board":
            return (tuple(range(rules.n_spaces)),)
        if k in ("edge", "centre", "corners"):
            return (getattr(rules, k),)
        if k == "row":
            return (rules.row_lines[self.index],)
        if k == "column":
            return (rules.column_lines[self.index],)
        if k == "rows":
            return rules.row_lines
        if k == "columns":
            return rules.column_lines
        return rules.row_lines + rules.column_lines


@dataclass(frozen=True)
class Task:
    """A task card. kind: count | heights | distinct | more."""

    kind: str
    count: Count | None
    pred: Pred
    region: Region = Region()
    pred2: Pred | None = None  # the second colour of "more ... than ..."
    what: str | None = None  # distinct: "colours" | "numbers"
    source: str = ""  # the text it was read from (not part of equality)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Task) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return (self.kind, self.count, self.pred, self.region, self.pred2, self.what)

    @property
    def uses_height(self) -> bool:
        return self.kind == "heights" or self.pred.uses_height or \
            (self.pred2 is not None and self.pred2.uses_height)

    def text(self, rules: Any | None = None) -> str:
        """The canonical text (parses back to the same task)."""
        if self.source:
            return self.source
        return canonical_text(self, rules)


# --------------------------------------------------------------------------- evaluation

def holds(rules: Any, task: Task, visible: Sequence) -> bool:
    """Is the task fulfilled by the board seen from above? visible[s] = (face, height)."""
    lines = task.region.lines(rules)
    quant_every = task.region.quant == "every"
    # which spaces the predicates match, once for all lines
    m1 = [task.pred.matches(f, h) for f, h in visible] if task.kind != "distinct" else None
    m2 = [task.pred2.matches(f, h) for f, h in visible] if task.kind == "more" else None

    def line_ok(line: Sequence[int]) -> bool:
        if task.kind == "count":
            return task.count.holds(sum(m1[s] for s in line))
        if task.kind == "distinct":
            faces = [visible[s][0] for s in line if visible[s][0] is not None]
            i = 0 if task.what == "colours" else 1
            return task.count.holds(len({f[i] for f in faces}))
        if task.kind == "more":
            return sum(m1[s] for s in line) > sum(m2[s] for s in line)
        # heights: distinct heights of the spaces the predicate matches
        return task.count.holds(len({visible[s][1] for s in line if m1[s]}))

    results = (line_ok(line) for line in lines)
    return all(results) if quant_every else any(results)


# --------------------------------------------------------------------------- text form

_FILLER = {"there", "is", "are", "must", "be", "the", "spaces", "space", "tiles", "numbers",
           "number", "visible", "fields", "field", "s"}


def _colour_of(rules: Any, w: str) -> int | None:
    for i, name in enumerate(rules.colour_names):
        if w in (name, name + "s", rules.colour_letters[i].lower()) and len(w) > 1:
            return i
    if w in ("violet", "lilac", "lila"):
        return rules.colour_names.index("purple") if "purple" in rules.colour_names else None
    return None


def _number_of(w: str) -> int | None:
    m = re.fullmatch(r"(\d+)(?:s|'s)?", w)
    if m:
        return int(m.group(1))
    for n, word in WORD_OF.items():
        if w in (word + "s", word + "es"):
            return n
    return None


def _parse_pred(rules: Any, words: list[str], where: str) -> Pred:
    colour = number = parity = height = None
    empty = or_more = False
    i = 0
    while i < len(words):
        w = words[i]
        if w in _FILLER:
            i += 1
            continue
        if w in ("even", "odd"):
            parity = w
        elif w == "empty":
            empty = True
        elif w in ("gap", "filler", "fillers") or w == "zeros":
            colour = rules.black
            number = rules.filler_number
            if w == "gap" and i + 1 < len(words) and words[i + 1] in ("filler", "fillers"):
                i += 1
        elif w in ("height", "level") or (w in ("at", "on") and i + 1 < len(words)
                                          and words[i + 1] in ("height", "level")):
            if w in ("at", "on"):
                i += 1
            if i + 1 >= len(words):
                raise BadInput(f"{where}: HEIGHT needs a number")
            from solver.counting import parse_number
            h = parse_number(words[i + 1])
            if h is None:
                raise BadInput(f"{where}: HEIGHT needs a number, not '{words[i + 1]}'")
            height = h
            i += 2
            if words[i:i + 2] in (["or", "more"], ["or", "higher"], ["or", "above"]):
                or_more = True
                i += 2
            continue
        elif w in ("stack", "stacks") and i + 2 < len(words) and words[i + 1] == "of":
            from solver.counting import parse_number
            h = parse_number(words[i + 2])
            if h is None:
                raise BadInput(f"{where}: STACK of needs a number, not '{words[i + 2]}'")
            height, or_more = h, True
            i += 3
            continue
        elif w in ("in", "on", "at", "along", "across"):
            raise BadInput(f"{where}: cannot read the region '{' '.join(words[i:])}' "
                           f"(regions: the EDGE, the CENTRE, the CORNERS, ROW 1-{rules.rows}, "
                           f"COLUMN A-{chr(64 + rules.columns)}, a ROW, a COLUMN, a ROW or "
                           "COLUMN, EVERY ROW, EVERY COLUMN)")
        elif _colour_of(rules, w) is not None:
            if colour is not None:
                raise BadInput(f"{where}: two colours in one condition ('{w}')")
            colour = _colour_of(rules, w)
        elif _number_of(w) is not None:
            if number is not None:
                raise BadInput(f"{where}: two numbers in one condition ('{w}')")
            number = _number_of(w)
        else:
            raise BadInput(f"{where}: cannot read '{w}' (expected a colour, a number, EVEN, "
                           "ODD, EMPTY, at HEIGHT n, or a region like on the EDGE)")
        i += 1
    if empty and (colour is not None or number is not None or parity is not None):
        raise BadInput(f"{where}: an EMPTY space has no colour or number")
    if not empty and colour is None and number is None and parity is None and height is None:
        raise BadInput(f"{where}: the task does not say what to count")
    return Pred(colour, number, parity, empty, height, or_more)


def _parse_region(rules: Any, words: list[str]) -> Region | None:
    """A region phrase making up all of `words`, or None."""
    w = [x for x in words if x not in ("the", "of")]
    if w and w[0] in ("on", "in", "at", "along", "across"):
        w = w[1:]
    if not w or w == ["board"]:
        return Region() if words else None
    if w in (["edge"], ["border"], ["rim"]):
        return Region("edge")
    if w in (["centre"], ["center"], ["middle"]):
        return Region("centre")
    if w in (["corners"], ["corner"]):
        return Region("corners")
    named = {("top", "row"): ("row", 0), ("bottom", "row"): ("row", rules.rows - 1),
             ("left", "column"): ("column", 0), ("right", "column"): ("column",
                                                                      rules.columns - 1)}
    if rules.columns == 3:
        named[("middle", "column")] = ("column", 1)
    if tuple(w) in named:
        return Region(*named[tuple(w)])
    if len(w) == 2 and w[0] == "row" and w[1].isdecimal() and 1 <= int(w[1]) <= rules.rows:
        return Region("row", int(w[1]) - 1)
    if len(w) == 2 and w[0] == "column":
        x = w[1]
        if x.isdecimal() and 1 <= int(x) <= rules.columns:
            return Region("column", int(x) - 1)
        if len(x) == 1 and "a" <= x <= chr(96 + rules.columns):
            return Region("column", ord(x) - 97)
        return None
    if w[0] in ("a", "any", "one", "some", "every", "each", "all"):
        quant = "every" if w[0] in ("every", "each", "all") else "any"
        rest = tuple(x.rstrip("s") for x in w[1:])
        kinds = {("row",): "rows", ("column",): "columns", ("row", "or", "column"): "lines",
                 ("column", "or", "row"): "lines", ("line",): "lines"}
        if rest in kinds:
            return Region(kinds[rest], None, quant)
    return None


def _split_region(rules: Any, words: list[str]) -> tuple[list[str], Region]:
    for i in range(len(words) + 1):
        if i < len(words) and words[i] not in ("on", "in", "at", "along", "across"):
            continue
        reg = _parse_region(rules, words[i:])
        if reg is not None:
            # "at HEIGHT" belongs to the condition, not to a region
            return words[:i], reg
    return words, Region()


def _read_count(words: list[str], i: int, where: str, default_op: str = "at least"
                ) -> tuple[Count, int]:
    if i < len(words) and words[i] in ("a", "an"):
        words = words[:i] + ["one"] + words[i + 1:]
    if i < len(words) and words[i] == "all":  # "ALL FOUR COLOURS": every one of them
        i += 1
    got = parse_count(words, i, default_op)
    if got is not None and got[0].op == "at most" and got[0].k == 0:
        got = (Count("exactly", 0), got[1])  # one meaning, one form
    if got is None:
        raise BadInput(f"{where}: expected a count like 'Exactly FIVE', 'THREE', 'At most "
                       f"2' or 'NO' at '{' '.join(words[i:i + 3])}'")
    return got


def parse_task(rules: Any, text: str, where: str = "task") -> Task:
    """Read a task from its text; BadInput names what could not be read."""
    where = f"{where} '{text}'"
    words = [w for w in re.sub(r"[.,!;:?()\"]", " ", text.lower()).split() if w]
    if not words:
        raise BadInput(f"{where}: empty task")
    while words and words[0] in ("there", "is", "are", "must", "be"):
        words = words[1:]
    if not words:
        raise BadInput(f"{where}: nothing after 'there is'")
    if words[-1] in ("heights", "levels") and "different" in words:
        d = words.index("different")
        head = words[:d]
        # "<pred> is in <count> different heights"
        for j in range(len(head)):  # the first count that runs to "different"
            try:
                count, end = _read_count(head, j, where)
            except BadInput:
                continue
            if end == len(head):
                pred_words = [w for w in head[:j] if w not in ("is", "in", "are", "lies",
                                                               "lie", "on")]
                return Task("heights", count, _parse_pred(rules, pred_words, where),
                            source=text.strip())
        raise BadInput(f"{where}: expected '<colour> is in <count> different HEIGHTS'")
    if words[0] == "more" and words[1:2] != ["than"]:
        if "than" not in words:
            raise BadInput(f"{where}: 'More A than B' needs 'than'")
        t = words.index("than")
        rest, region = _split_region(rules, words[t + 1:])
        return Task("more", None, _parse_pred(rules, words[1:t], where), region,
                    _parse_pred(rules, rest, where), source=text.strip())
    count, i = _read_count(words, 0, where)
    rest, region = _split_region(rules, words[i:])
    if "different" in rest and rest[-1].rstrip("s") in ("colour", "color", "number"):
        what = "colours" if rest[-1].startswith("colo") else "numbers"
        return Task("distinct", count, Pred(), region, what=what, source=text.strip())
    return Task("count", count, _parse_pred(rules, rest, where), region,
                source=text.strip())


def _count_text(c: Count) -> str:
    word = WORD_OF.get(c.k, str(c.k)).upper()
    if c.k == 0 and c.op in ("exactly", "at most"):
        return "NO"
    return {"exactly": "Exactly ", "at least": "", "at most": "At most "}[c.op] + word


def _pred_text(rules: Any, p: Pred) -> str:
    parts = []
    if p.empty:
        parts.append("EMPTY spaces")
    if p.parity:
        parts.append(p.parity.upper())
    if p.colour is not None:
        parts.append(rules.colour_names[p.colour].upper())
    if p.number is not None:
        parts.append(str(p.number) if p.colour is not None else f"{p.number}s")
    if not parts:
        parts.append("spaces")
    if p.height is not None:
        parts.append(f"at HEIGHT {p.height}" + (" or more" if p.height_or_more else ""))
    return " ".join(parts)


def _region_text(rules: Any, r: Region) -> str:
    if r.kind == "board":
        return ""
    if r.kind in ("edge",):
        return " on the EDGE"
    if r.kind in ("centre", "corners"):
        return f" in the {r.kind.upper()}"
    if r.kind == "row":
        return f" in ROW {r.index + 1}"
    if r.kind == "column":
        return f" in COLUMN {chr(65 + r.index)}"
    noun = {"rows": "ROW", "columns": "COLUMN", "lines": "ROW or COLUMN"}[r.kind]
    return f" in {'EVERY' if r.quant == 'every' else 'a'} {noun}"


def canonical_text(task: Task, rules: Any) -> str:
    """The text form of a task built from its parts."""
    reg = _region_text(rules, task.region)
    if task.kind == "heights":
        return f"{_pred_text(rules, task.pred)} is in {_count_text(task.count)} " \
               "different HEIGHTS"
    if task.kind == "more":
        return f"More {_pred_text(rules, task.pred)} than {_pred_text(rules, task.pred2)}" \
               f"{reg}"
    if task.kind == "distinct":
        return f"{_count_text(task.count)} different {task.what.upper()}{reg}"
    return f"{_count_text(task.count)} {_pred_text(rules, task.pred)}{reg}"


# --------------------------------------------------------------------------- catalogue

@dataclass
class Catalogue:
    """The task catalogue (data/tasks.json): ids, texts, and the parsed tasks."""

    rules: Any
    ids: list[str]
    tasks: list[Task]
    note: str

    def parse(self, text: str, where: str = "task") -> Task:
        """A catalogue id (H07) or a task text."""
        key = text.strip().upper()
        if key in self.ids:
            return self.tasks[self.ids.index(key)]
        return parse_task(self.rules, text, where)

    def id_of(self, task: Task) -> str | None:
        for i, t in zip(self.ids, self.tasks, strict=True):
            if t == task:
                return i
        return None


def load_catalogue(rules: Any, path: str | Path | None = None) -> Catalogue:
    """The built-in catalogue or a replacement file with the same format."""
    if path is None:
        src = resources.files("models.hoch_hinaus").joinpath("data/tasks.json")
        data = load_json(Path(str(src)), "task catalogue")
        where = "task catalogue tasks.json"
    else:
        data = load_json(path, "task catalogue")
        where = f"task catalogue {path}"
    expect(data, dict, where)
    ids, tasks = [], []
    for i, item in enumerate(json_field(data, "tasks", list, where)):
        w = f"{where}.tasks[{i}]"
        expect(item, dict, w)
        tid = json_field(item, "id", str, w).upper()
        if tid in ids:
            raise BadInput(f"{w}: duplicate id {tid}")
        ids.append(tid)
        tasks.append(parse_task(rules, json_field(item, "text", str, w), w))
    return Catalogue(rules, ids, tasks, json_field(data, "note", str, where, ""))
