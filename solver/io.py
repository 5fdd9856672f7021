"""Loading JSON files (positions, rules) with one clear message per problem."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from solver.errors import BadInput

T = TypeVar("T")

#: Limits of every JSON file toppi reads (docs/files.md): no game's file comes near them.
MAX_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32


def load_json(path: str | Path, what: str = "file") -> Any:
    """Read a JSON file; raise BadInput naming the file and the problem."""
    p = Path(path)
    try:
        if p.is_file() and p.stat().st_size > MAX_BYTES:
            raise BadInput(f"{what} {p}: larger than {MAX_BYTES // (1024 * 1024)} MiB")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"{what} {p}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{what} {p}: is a directory, not a file") from None
    except UnicodeDecodeError:
        raise BadInput(f"{what} {p}: not UTF-8 text") from None
    except OSError as exc:
        raise BadInput(f"{what} {p}: cannot read ({exc.strerror})") from None
    return parse_json(text, f"{what} {p}")


def parse_json(text: str, source: str) -> Any:
    """Parse JSON text; raise BadInput with line and column on a syntax error, and on
    nesting deeper than MAX_DEPTH (the builders walk files recursively)."""
    if len(text) > MAX_BYTES:
        raise BadInput(f"{source}: larger than {MAX_BYTES // (1024 * 1024)} MiB")
    too_deep = f"{source}: nested more than {MAX_DEPTH} levels deep"
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except _NotANumber as exc:
        raise BadInput(f"{source}: {exc} is not a number (JSON has no NaN or Infinity)"
                       ) from None
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"{source}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise BadInput(too_deep) from None
    if _depth(data) > MAX_DEPTH:
        raise BadInput(too_deep)
    return data


class _NotANumber(ValueError):
    pass


def _no_constant(name: str) -> Any:
    """Python's json reads NaN, Infinity and -Infinity; JSON does not have them."""
    raise _NotANumber(name)


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a JSON value (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack += [(v, level + 1) for v in item]
    return deepest


def expect(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    """Check the JSON type of a value; raise BadInput naming where it was found."""
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise BadInput(f"{where}: expected a number, got {json.dumps(value)}")
    if not isinstance(value, kind):
        names = {dict: "an object", list: "a list", str: "a string", int: "an integer",
                 float: "a number", bool: "true or false"}
        kinds = kind if isinstance(kind, tuple) else (kind,)
        wanted = " or ".join(names.get(k, k.__name__) for k in kinds)
        shown = json.dumps(value)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        raise BadInput(f"{where}: expected {wanted}, got {shown}")
    return value


def field(obj: dict, key: str, kind: type | tuple[type, ...], where: str,
          default: Any = ...) -> Any:
    """obj[key] checked against kind; a missing key is an error unless a default is given."""
    if key not in obj:
        if default is ...:
            raise BadInput(f"{where}: missing field '{key}'")
        return default
    return expect(obj[key], kind, f"{where}.{key}")


def rgb_colour(value: Any, where: str) -> str:
    """A colour '#rrggbb' (the pictures compute a readable text colour from it)."""
    if not isinstance(value, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        shown = json.dumps(value)[:40]
        raise BadInput(f"{where}: expected a colour like '#d62828', got {shown}")
    return value


_BUILT: dict[tuple[str, str, str], Any] = {}


def package_data(package: str, name: str) -> Path:
    """The path of a data file shipped in `package/data/` (e.g. a game's default rules)."""
    from importlib import resources  # here: it costs as much as the rest of this module

    return Path(str(resources.files(package) / "data" / name))


def puzzles_folder() -> Path:
    """The folder of the shipped position and puzzle files (`puzzles/<game>/...`):
    package data, in a checkout and in an installed toppi alike."""
    from importlib import resources

    return Path(str(resources.files("puzzles")))


def load_data(path: str | Path | None, package: str, default: str,
              build: Callable[[Any, str], T], what: str = "rules file") -> T:
    """Read a JSON data file (the package's `data/<default>` when path is None) and
    build it with `build(data, where)`; built once per file and builder, since rules
    are immutable and loaded by many queries."""
    p = Path(path) if path is not None else package_data(package, default)
    try:  # a file rewritten in place is read again
        st = p.stat()
        stamp = f"{st.st_mtime_ns}:{st.st_size}"
    except OSError:
        return build(load_json(p, what), f"{what} {p}")  # load_json says what is wrong
    key = (str(p.resolve()), stamp, f"{build.__module__}.{build.__qualname__}")
    if key not in _BUILT:
        _BUILT[key] = build(load_json(p, what), f"{what} {p}")
    return _BUILT[key]
