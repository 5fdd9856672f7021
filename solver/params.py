"""Typed parameters of the verbs: plain specs that the command line turns into click
options (solver/verb_cli.py), the web API converts from query strings
(`Param.convert`) and the schemas describe (`Param.schema`).

A parameter is data, with no user interface in it: its name (the keyword the verb's
function receives), its kind, default, range or choices, help, and where it is offered.
Conversion errors are `BadInput` in the words click uses on the command line, so a bad
value reads the same from the terminal and from the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Literal

from solver.errors import BadInput

#: text, a whole number, a finite real number, an on/off flag (or one value of a choice
#: spelled as its own flag, `flag_value`), an --x/--no-x switch whose default may be
#: None (not given), one of `choices`, a file read, a file or folder written.
Kind = Literal["text", "int", "float", "flag", "switch", "choice", "file", "out", "folder"]

#: The longest time limit an option accepts (about 11 days): a larger one is a typo.
MAX_SECONDS = 1e6
#: The most games, draws, puzzles or samples one command runs (more is a typo, and a
#: count past 2^63 was an OverflowError deep inside).
MAX_COUNT = 1_000_000
#: Seeds: what every solver takes (CP-SAT's random seed is a 32-bit integer).
SEED_MIN, SEED_MAX = -(2**31 - 1), 2**31 - 1

TRUE, FALSE = {"", "1", "true", "yes", "on"}, {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Param:
    """One parameter of a verb.

    name: the keyword the verb's function receives (`roll_text`); `flags` are its
    spellings on the command line (default `--roll-text`; a switch has two, `--pros`
    and `--basic`). `flag_value`: a flag that sets `name` to this value (several flags
    may share a name: `--all` / `--any`). `web`: False for what a request may not ask
    (files, outputs, batch runs, threads). `exposed`: False for a parameter the layer
    handles itself (`--quiet`)."""

    name: str
    kind: Kind = "text"
    default: Any = None
    help: str = ""
    flags: tuple[str, ...] = ()
    required: bool = False
    multiple: bool = False
    minimum: float | None = None
    maximum: float | None = None
    min_open: bool = False
    max_open: bool = False
    choices: tuple[str, ...] = ()
    case_sensitive: bool = True
    metavar: str | None = None
    show_default: bool = False
    flag_value: Any = None
    web: bool = True
    exposed: bool = True
    hidden: bool = False

    @property
    def spellings(self) -> tuple[str, ...]:
        return self.flags or ("--" + self.name.replace("_", "-"),)

    @property
    def option(self) -> str:
        """Its name as the web API and the messages know it: `time-limit`."""
        return self.spellings[0].lstrip("-")

    def but(self, **changes: Any) -> Param:
        """The same parameter with some fields changed (another default, help...)."""
        return replace(self, **changes)

    # ------------------------------------------------------------------ values

    def describe_range(self) -> str:
        """click's words for a range: `1<=x<=12`, `x>=0.1`, `0<x<1`."""
        low = "<" if self.min_open else "<="
        high = "<" if self.max_open else "<="
        fmt = _number_text
        if self.minimum is not None and self.maximum is not None:
            return f"{fmt(self.minimum)}{low}x{high}{fmt(self.maximum)}"
        if self.minimum is not None:
            return f"x{'>' if self.min_open else '>='}{fmt(self.minimum)}"
        return f"x{high}{fmt(self.maximum)}"

    def check(self, value: Any) -> Any:
        """`value` (already of the right Python type) checked against the range and
        choices; BadInput in click's words otherwise."""
        if value is None:
            return value
        if self.kind in ("int", "float") and isinstance(value, (int, float)):
            if self.kind == "float" and not math.isfinite(value):
                raise self.invalid(f"{value!r} is not a finite number.")
            if ((self.minimum is not None and (value < self.minimum or (
                    self.min_open and value == self.minimum)))
                    or (self.maximum is not None and (value > self.maximum or (
                        self.max_open and value == self.maximum)))):
                raise self.invalid(f"{value} is not in the range {self.describe_range()}.")
        if self.kind == "choice":
            found = _choose(value, self.choices, self.case_sensitive)
            if found is None:
                raise self.invalid(f"{value!r} is not one of "
                                   f"{', '.join(map(repr, self.choices))}.")
            return found
        return value

    def convert(self, text: str) -> Any:
        """A value from its text (a query string's): of the parameter's kind, checked."""
        if self.kind in ("flag", "switch"):
            if text.lower() in TRUE:
                return True if self.flag_value is None else self.flag_value
            if text.lower() in FALSE:
                return False if self.flag_value is None else None
            raise self.invalid(f"a flag is true or false, not {text!r}.")
        if self.kind == "int":
            try:
                value: Any = int(text.strip())
            except ValueError:
                raise self.invalid(f"{text!r} is not a valid integer.") from None
        elif self.kind == "float":
            try:
                value = float(text.strip())
            except ValueError:
                raise self.invalid(f"{text!r} is not a valid float.") from None
        else:
            value = text
        return self.check(value)

    def invalid(self, message: str) -> BadInput:
        return BadInput(f"Invalid value for '{self.spellings[0]}': {message}")

    # ------------------------------------------------------------------ schema

    def schema(self) -> dict[str, Any]:
        """The parameter as a JSON Schema property (a request's form field)."""
        out: dict[str, Any] = {}
        if self.kind in ("flag", "switch"):
            out["type"] = "boolean" if self.flag_value is None else "string"
            if self.flag_value is not None:
                out["const"] = self.flag_value
        elif self.kind == "int":
            out["type"] = "integer"
        elif self.kind == "float":
            out["type"] = "number"
        elif self.kind == "choice":
            out["enum"] = list(self.choices)
        else:
            out["type"] = "string"
        if self.kind in ("int", "float"):
            if self.minimum is not None:
                out["exclusiveMinimum" if self.min_open else "minimum"] = self.minimum
            if self.maximum is not None:
                out["exclusiveMaximum" if self.max_open else "maximum"] = self.maximum
        if self.multiple:
            out = {"type": "array", "items": out}
        if self.default is not None and not isinstance(self.default, (list, tuple)):
            out["default"] = self.default
        if self.help:
            out["description"] = self.help
        return out


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else str(value)


def _choose(value: Any, choices: tuple[str, ...], case_sensitive: bool) -> str | None:
    if value in choices:
        return value
    if not case_sensitive and isinstance(value, str):
        for choice in choices:
            if choice.lower() == value.lower():
                return choice
    return None


# ---------------------------------------------------------------------- common kinds

def seconds_param(name: str = "time_limit", default: float | None = None,
                  minimum: float = 0.01, help: str = "", **more: Any) -> Param:
    """A time option: finite, from `minimum` to MAX_SECONDS."""
    return Param(name, "float", default, help, minimum=minimum, maximum=MAX_SECONDS,
                 show_default=default is not None, **more)


def count_param(name: str, default: int | None = None, help: str = "", minimum: int = 1,
                **more: Any) -> Param:
    """A count of games, draws, puzzles or samples: from `minimum` to MAX_COUNT."""
    return Param(name, "int", default, help, minimum=minimum, maximum=MAX_COUNT,
                 show_default=default is not None, **more)


def seed_param(default: int | None = 0, help: str = "Random seed (runs are reproducible).",
               **more: Any) -> Param:
    return Param("seed", "int", default, help, minimum=SEED_MIN, maximum=SEED_MAX,
                 show_default=default is not None, **more)


def int_param(name: str, default: int | None, low: int | None, high: int | None = None,
              help: str = "", **more: Any) -> Param:
    return Param(name, "int", default, help, minimum=low, maximum=high,
                 show_default=default is not None and more.pop("show_default", True),
                 **more)


def conflicts_param(default: int | None, help: str, high: int = 10 ** 9) -> Param:
    """--conflicts: a work budget of SAT conflicts (the same answer on any machine)."""
    return int_param("conflicts", default, 1, high, help)


def nodes_param(default: int | None, help: str, high: int = 10 ** 9) -> Param:
    """--nodes: a work budget of search positions (the same answer on any machine)."""
    return int_param("nodes", default, 1, high, help)


def work_param(default: float, help: str, minimum: float = 0.01) -> Param:
    """--work: CP-SAT's deterministic seconds, a load-independent work budget."""
    return Param("work", "float", default, help, minimum=minimum, maximum=1e6,
                 show_default=True)


def choice_param(name: str, choices: tuple[str, ...], default: str | None, help: str = "",
                 **more: Any) -> Param:
    return Param(name, "choice", default, help, choices=tuple(choices),
                 show_default=default is not None and more.pop("show_default", True),
                 **more)


def flag_param(name: str, help: str = "", **more: Any) -> Param:
    return Param(name, "flag", False, help, **more)


#: --open-hands: the all-seeing reading of a file.
OPEN_HANDS = Param(
    "open_hands", "flag", False,
    "Read everything the file holds (other hands, face-down piles in order): an "
    "all-seeing answer for teaching and research, labelled so. Default: only what the "
    "player on turn may know at the table.")
