"""Every file a user hands toppi, and every path it writes, with one clear message per
problem.

Reading (`read_bytes`, `read_text`, `load_json`): regular files only (a FIFO, a device,
a directory or a loop of symbolic links is one line), at most MAX_BYTES read before
any parsing (a gzip file's size counted decompressed as well), strict UTF-8, JSON with
integers of at most MAX_DIGITS digits, finite numbers and at most MAX_DEPTH levels.

Writing (`check_output`, `check_folder`, `file_in`, `write_text`, `write_bytes`): every
output path is checked before the work starts (the name is not empty, its folder exists
and is writable, an existing file is a regular file), names built from data are
sanitised and stay inside the folder asked for, and a write error is one line.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from solver.errors import BadInput

T = TypeVar("T")

#: Limits of every JSON file toppi reads (docs/architecture.md): no game's file comes
#: near them (the largest, a values file, is 0.7 MB decompressed).
MAX_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32
#: Integers in JSON files: at most this many digits (64-bit numbers have 19 or 20);
#: Python refuses to read over 4,300 anyway, with a ValueError.
MAX_DIGITS = 20


def _mib(limit: int) -> str:
    return f"{limit / (1024 * 1024):g} MiB"


def _kind_of(mode: int) -> str | None:
    """What a file that is not a regular file is, in words (None: a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (named pipe), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def _os_reason(exc: OSError) -> str:
    """An OSError in a few words (no traceback, no errno number)."""
    import errno

    if exc.errno == errno.ELOOP:
        return "a loop of symbolic links"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, NotADirectoryError):
        return "no such file (a part of the path is not a folder)"
    return f"cannot read ({exc.strerror or exc})"


def file_status(path: str | Path, what: str) -> os.stat_result:
    """The status of a user's input file (symbolic links followed); BadInput unless it
    is a regular file."""
    p = Path(path)
    if not str(path):
        raise BadInput(f"{what}: empty file name")
    try:
        st = os.stat(p)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        reason = _os_reason(exc) if isinstance(exc, OSError) else "not a file name"
        raise BadInput(f"{what} {p}: {reason}") from None
    kind = _kind_of(st.st_mode)
    if kind is not None:
        raise BadInput(f"{what} {p}: {kind}")
    return st


def open_regular(p: Path, what: str) -> int:
    """A file descriptor of `p` for reading, checked again once open to be a regular
    file (never blocks: a FIFO swapped in after the first check is refused by fstat)."""
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise BadInput(f"{what} {p}: {_os_reason(exc)}") from None
    try:
        kind = _kind_of(os.fstat(fd).st_mode)
    except OSError as exc:
        os.close(fd)
        raise BadInput(f"{what} {p}: {_os_reason(exc)}") from None
    if kind is not None:
        os.close(fd)
        raise BadInput(f"{what} {p}: {kind}")
    return fd


def read_start(path: str | Path, what: str, size: int) -> bytes:
    """The first `size` bytes of a user's regular file (a database's header)."""
    p = Path(path)
    file_status(p, what)
    fd = open_regular(p, what)
    try:
        return os.read(fd, size)
    except OSError as exc:
        raise BadInput(f"{what} {p}: {_os_reason(exc)}") from None
    finally:
        os.close(fd)


def read_bytes(path: str | Path, what: str = "file", limit: int | None = None,
               gzip: bool = False) -> bytes:
    """A user's file, read whole: a regular file of at most `limit` bytes (MAX_BYTES);
    with `gzip`, a gzip-compressed file is decompressed, at most `limit` bytes of it.
    BadInput naming the file and the problem."""
    limit = MAX_BYTES if limit is None else limit
    p = Path(path)
    st = file_status(p, what)
    if st.st_size > limit:
        raise BadInput(f"{what} {p}: larger than {_mib(limit)}")
    fd = open_regular(p, what)
    try:
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise BadInput(f"{what} {p}: {_os_reason(exc)}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise BadInput(f"{what} {p}: larger than {_mib(limit)}")
    if gzip and data[:2] == b"\x1f\x8b":
        data = gunzip(data, limit, f"{what} {p}")
    return data


def gunzip(data: bytes, limit: int, source: str) -> bytes:
    """gzip data decompressed, refused as soon as it passes `limit` bytes (a small
    file may hold gigabytes)."""
    import zlib

    out: list[bytes] = []
    size = 0
    rest = data
    try:
        while rest:
            d = zlib.decompressobj(wbits=31)
            chunk = d.decompress(rest, limit + 1 - size)
            while True:
                out.append(chunk)
                size += len(chunk)
                if size > limit:
                    raise BadInput(f"{source}: larger than {_mib(limit)} decompressed")
                if not d.unconsumed_tail:
                    break
                chunk = d.decompress(d.unconsumed_tail, limit + 1 - size)
            if not d.eof:
                raise BadInput(f"{source}: a cut-off gzip file")
            rest = d.unused_data  # another member (gzip allows several), or nothing
    except zlib.error as exc:
        raise BadInput(f"{source}: not a valid gzip file ({exc})") from None
    return b"".join(out)


def decode_text(data: bytes, source: str) -> str:
    """Bytes read as UTF-8, strictly: a bad byte is one line naming its place."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{source}: not UTF-8 text (a bad byte at offset {exc.start})"
                       ) from None


def read_text(path: str | Path, what: str = "file", gzip: bool = False) -> str:
    """A user's text file (see read_bytes), decoded strictly as UTF-8."""
    return decode_text(read_bytes(path, what, gzip=gzip), f"{what} {Path(path)}")


def load_json(path: str | Path, what: str = "file", gzip: bool = False) -> Any:
    """Read a user's JSON file (see read_bytes, parse_json); raise BadInput naming the
    file and the problem."""
    return parse_json(read_text(path, what, gzip), f"{what} {Path(path)}")


class _NotANumber(ValueError):
    pass


class _TooLarge(ValueError):
    def __init__(self, message: str, literal: str) -> None:
        super().__init__(message)
        self.literal = literal


def _no_constant(name: str) -> Any:
    """Python's json reads NaN, Infinity and -Infinity; JSON does not have them."""
    raise _NotANumber(name)


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooLarge(f"an integer of {len(text.lstrip('-'))} digits (at most "
                        f"{MAX_DIGITS})", text)
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _TooLarge(f"the number {text[:30]} is out of range", text)
    return value


def loads(text: str) -> Any:
    """JSON text as Python values, with the readers' bounds (integers of at most
    MAX_DIGITS digits, finite numbers, no NaN): ValueError (or RecursionError) when the
    text breaks them. For JSON kept by toppi itself (store rows); a user's file goes
    through parse_json."""
    return json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int,
                      parse_float=_finite_float)


def parse_json(text: str, source: str) -> Any:
    """Parse JSON text; raise BadInput with line and column on a syntax error, on a
    number out of bounds, and on nesting deeper than MAX_DEPTH (the builders walk files
    recursively)."""
    if len(text) > MAX_BYTES:
        raise BadInput(f"{source}: larger than {_mib(MAX_BYTES)}")
    too_deep = f"{source}: nested more than {MAX_DEPTH} levels deep"
    try:
        data = loads(text)
    except _NotANumber as exc:
        raise BadInput(f"{source}: {exc} is not a number (JSON has no NaN or Infinity)"
                       ) from None
    except _TooLarge as exc:
        raise BadInput(f"{source}: {exc}{_place(text, exc.literal)}") from None
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"{source}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise BadInput(too_deep) from None
    except ValueError as exc:  # whatever else Python's reader refuses, in one line
        raise BadInput(f"{source}: malformed JSON ({exc})") from None
    if _depth(data) > MAX_DEPTH:
        raise BadInput(too_deep)
    if _SURROGATE_ESCAPE.search(text):
        lone = _lone_surrogate(data)
        if lone is not None:  # Python reads it; no UTF-8 text (nor answer) can hold it
            escape = f"\\u{ord(lone):04x}"
            found = re.search(re.escape(escape), text, re.IGNORECASE)
            raise BadInput(f"{source}: a lone surrogate escape {escape} (half of a "
                           f"UTF-16 pair, not a character)"
                           f"{_place_at(text, found.start()) if found else ''}")
    return data


def _place(text: str, literal: str) -> str:
    """ at line L column C: where a literal first stands in the text."""
    return _place_at(text, text.find(literal))


def _place_at(text: str, at: int) -> str:
    if at < 0:
        return ""
    line = text.count("\n", 0, at) + 1
    return f" at line {line} column {at - (text.rfind(chr(10), 0, at) + 1) + 1}"


#: `\uD800`-`\uDFFF` in JSON text: the one way a JSON string holds a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _lone_surrogate(value: Any) -> str | None:
    """The first lone surrogate in a JSON value's strings and keys (None: none)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                return item[exc.start]
        elif isinstance(item, dict):
            stack += [*item, *item.values()]
        elif isinstance(item, list):
            stack += item
    return None


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


# ---------------------------------------------------------------- writing

def _writable_folder(folder: Path, what: str, shown: Path) -> None:
    """BadInput unless `folder` is an existing folder toppi may write in."""
    try:
        st = os.stat(folder)
    except (OSError, ValueError):
        raise BadInput(f"{what} {shown}: no such folder {folder}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise BadInput(f"{what} {shown}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BadInput(f"{what} {shown}: cannot write in the folder {folder}")


def check_output(path: str | Path | None, what: str) -> Path | None:
    """An output file (`--svg`, `--out`, `--store`), checked before any work: the name is
    not empty, its folder exists and is writable, and an existing file there is a
    regular file it may replace. None stays None (the option was not given)."""
    if path is None:
        return None
    text = str(path)
    if not text.strip():
        raise BadInput(f"{what}: empty file name")
    if text.endswith(("/", os.sep)):
        raise BadInput(f"{what} {text}: names a folder, not a file")
    p = Path(text)
    try:
        st: os.stat_result | None = os.stat(p)
    except FileNotFoundError:
        st = None
    except (OSError, ValueError) as exc:
        reason = _os_reason(exc) if isinstance(exc, OSError) else "not a file name"
        if reason != "no such file":
            raise BadInput(f"{what} {p}: {reason}") from None
        st = None
    if st is not None:
        kind = _kind_of(st.st_mode)
        if kind is not None:
            raise BadInput(f"{what} {p}: {kind}")
        if not os.access(p, os.W_OK):
            raise BadInput(f"{what} {p}: the file is not writable")
    _writable_folder(p.parent, what, p)
    return p


def check_folder(path: str | Path | None, what: str) -> Path | None:
    """An output folder (`--out DIR`), checked before any work: the name is not empty,
    and it is a writable folder, or can be made in the nearest folder that exists."""
    if path is None:
        return None
    text = str(path)
    if not text.strip():
        raise BadInput(f"{what}: empty folder name")
    p = Path(text)
    existing = p
    while True:
        try:
            st = os.stat(existing)
        except (FileNotFoundError, NotADirectoryError):
            if existing.parent == existing:
                raise BadInput(f"{what} {p}: no such folder") from None
            existing = existing.parent
            continue
        except (OSError, ValueError) as exc:
            reason = _os_reason(exc) if isinstance(exc, OSError) else "not a folder name"
            raise BadInput(f"{what} {p}: {reason}") from None
        break
    if not stat.S_ISDIR(st.st_mode):
        where = "" if existing == p else f" ({existing} is a file)"
        raise BadInput(f"{what} {p}: not a folder{where}")
    _writable_folder(existing, what, p)
    return p


_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]")


def safe_name(text: str, limit: int = 120) -> str:
    """A file name made from data (a game, a difficulty, an id): letters, digits and
    . _ + - only, no leading dot (so never `..`), at most `limit` characters."""
    name = _UNSAFE.sub("_", str(text)).lstrip(".")[:limit]
    return name or "_"


def file_in(folder: str | Path, parts: list[Any] | tuple[Any, ...], suffix: str,
            what: str) -> Path:
    """The file `<part>-<part>-....<suffix>` in `folder`, its parts made safe
    (`safe_name`); BadInput if it would resolve outside the folder (a symbolic link
    there pointing elsewhere)."""
    base = Path(folder)
    name = safe_name("-".join(str(p) for p in parts)) + suffix
    target = base / name
    try:
        inside = target.resolve().parent == base.resolve()
    except (OSError, RuntimeError):
        inside = False
    if not inside:
        raise BadInput(f"{what} {base}: {name} would be written outside the folder")
    return target


def make_folder(path: str | Path, what: str) -> Path:
    """The output folder, made (with its parents) if missing; one line on failure."""
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"{what} {p}: cannot make the folder ({exc.strerror or exc})"
                       ) from None
    return p


def write_bytes(path: str | Path, data: bytes, what: str) -> Path:
    """Write a whole output file; a write error (a full disk, a folder gone, a FIFO
    swapped in) is one line naming the option and the file."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK
                     | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as exc:
        raise BadInput(f"{what} {p}: cannot write ({exc.strerror or exc})") from None
    try:
        kind = _kind_of(os.fstat(fd).st_mode)
        if kind is not None:
            raise BadInput(f"{what} {p}: {kind}")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as exc:
        raise BadInput(f"{what} {p}: cannot write ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    return p


def write_text(path: str | Path, text: str, what: str) -> Path:
    """Write a whole output text file as UTF-8 (see write_bytes); text that cannot be
    UTF-8 (a lone surrogate from bad bytes in an option) is one line."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BadInput(f"{what} {Path(path)}: the text to write is not valid UTF-8 "
                       f"(at character {exc.start})") from None
    return write_bytes(path, data, what)
