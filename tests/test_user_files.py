"""Every file a user can hand toppi, and every path it writes (solver/io.py): each class
of bad input is one line naming the problem, exit 2, no traceback, no hang."""

from __future__ import annotations

import gzip
import json
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from solver.errors import BadInput
from solver.io import (
    MAX_DIGITS,
    check_folder,
    check_output,
    file_in,
    load_json,
    parse_json,
    read_bytes,
    safe_name,
    write_text,
)
from tests.cli_helpers import assert_one_line_error, game_runner

ROOT = Path(__file__).resolve().parents[1]
HIPPO = str(ROOT / "puzzles" / "hippo" / "start-2p.json")
TOPITO = str(ROOT / "puzzles" / "topito" / "start.json")
HOCH = str(ROOT / "puzzles" / "hoch-hinaus" / "corner-gap.json")
TIH_PUZZLE = str(sorted((ROOT / "puzzles" / "take-it-higher" / "library").glob(
    "take-it-higher-easy-*.json"))[0])
run = game_runner("")


@contextmanager
def no_hang(seconds: int = 60) -> Iterator[None]:
    """Fail (instead of waiting for ever) when a reader blocks on a FIFO: a guard, not
    a timing (the work is milliseconds)."""
    def alarm(signum: int, frame: object) -> None:
        raise AssertionError("blocked: the reader waited on a special file")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def specials(tmp_path: Path) -> dict[str, Path]:
    paths = {name: tmp_path / f"{name}.json" for name in (
        "fifo", "device", "directory", "loop", "dangling")}
    os.mkfifo(paths["fifo"])
    paths["device"].symlink_to("/dev/zero")
    paths["directory"].mkdir()
    paths["loop"].symlink_to(tmp_path / "loop-b")
    (tmp_path / "loop-b").symlink_to(paths["loop"])
    paths["dangling"].symlink_to(tmp_path / "nowhere")
    return paths


WORDS = {"fifo": "FIFO", "device": "device", "directory": "directory",
         "loop": "loop of symbolic links", "dangling": "no such file"}
READERS = [
    ("hippo", "show", "{f}"), ("hippo", "show", HIPPO, "--rules", "{f}"),
    ("topito", "show", TOPITO, "--deck", "{f}"),
    ("hoch-hinaus", "show", HOCH, "--tasks", "{f}"),
    ("take-it-higher", "solve", "{f}"),
    ("take-it-higher", "learn", "--games", "1", "--resume", "{f}", "--out", "{o}"),
    ("puzzles", "list", "--store", "{f}"),
    ("hippo", "simulate", "--games", "1", "--jobs", "1", "--store", "{f}"),
    ("serve", "--store", "{f}"),
]


@pytest.mark.parametrize("special", list(WORDS))
@pytest.mark.parametrize("reader", READERS, ids=lambda r: "-".join(
    a for a in r if not a.startswith(("/", "{"))))
def test_a_special_file_in_any_readers_place_is_one_line(specials, tmp_path, reader,
                                                         special):
    args = [a.replace("{f}", str(specials[special])).replace("{o}", str(tmp_path / "o.json"))
            for a in reader]
    if special == "directory" and reader[0] in ("hippo", "take-it-higher", "topito",
                                                "hoch-hinaus") and "--store" not in reader:
        words = ["directory"]  # click's own check of a FILE may say it first
    elif reader[0] == "serve" and special in ("loop", "dangling"):
        words = ["does not exist"]  # click's check of an existing file says it first
    else:
        words = [WORDS[special]]
    with no_hang():
        result = run(*args)
    assert_one_line_error(result, *words)


def test_a_file_past_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    import solver.io

    monkeypatch.setattr(solver.io, "MAX_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_text("[" + " " * 2000 + "]")
    assert_one_line_error(run("hippo", "show", str(path)), "larger than")


def test_gzip_is_capped_decompressed(tmp_path, monkeypatch):
    import solver.io

    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(b" " * 5000))
    monkeypatch.setattr(solver.io, "MAX_BYTES", 1000)
    with pytest.raises(BadInput, match="larger than .* decompressed"):
        read_bytes(path, "values file", gzip=True)
    path.write_bytes(gzip.compress(b"[1]")[:-6])
    with pytest.raises(BadInput, match="cut-off gzip"):
        read_bytes(path, "values file", gzip=True)
    path.write_bytes(b"\x1f\x8bnot gzip at all")
    with pytest.raises(BadInput, match="not a valid gzip"):
        read_bytes(path, "values file", gzip=True)


@pytest.mark.parametrize("literal, words", [
    ("9" * 5000, ["an integer of 5000 digits", "line 1 column 7"]),
    ("-" + "9" * 4400, ["an integer of 4400 digits"]),
    ("9" * (MAX_DIGITS + 1), [f"{MAX_DIGITS + 1} digits"]),
    ("1e400", ["1e400 is out of range"]),
    ("-1e999", ["out of range"]),
])
def test_numbers_out_of_bounds_are_one_line(tmp_path, literal, words):
    path = tmp_path / "n.json"
    path.write_text('{"a": ' + literal + "}")
    assert_one_line_error(run("hippo", "show", str(path)), *words)


def test_integers_within_the_bound_are_read():
    assert parse_json("[" + "9" * MAX_DIGITS + ", -1, 1e308]", "x") == [
        int("9" * MAX_DIGITS), -1, 1e308]


def test_text_is_strict_utf8(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"game": "hippo\xff"}')
    assert_one_line_error(run("hippo", "show", str(path)), "not UTF-8 text",
                          "offset 15")


def test_bad_utf8_in_a_text_option_is_one_line(tmp_path):
    result = run("take-it-higher", "sheet", TIH_PUZZLE, "--svg", str(tmp_path / "s.html"),
                 "--title", "a\udcffb")
    assert_one_line_error(result, "--title", "not valid UTF-8")
    assert not (tmp_path / "s.html").exists()


@pytest.mark.parametrize("roll", ["9" * 5000 + ",1,1", "\u00b2,1,1", "9" * 5000])
def test_numbers_in_option_text_are_one_line(roll):
    """A die of 5,000 digits (past Python's 4,300-digit int limit) or a digit int()
    refuses ('²' is a digit to str.isdigit): one line."""
    assert_one_line_error(run("hippo", "best", HIPPO, "--roll", roll), "--roll")


def test_the_int_limit_is_one_line_wherever_it_is_met(monkeypatch):
    """The command line's net: a reader that lets a number of over 4,300 digits reach
    int() still ends in one line."""
    import models.hippo.notation

    def careless(rules, text, where="--roll"):
        return (int(text),)

    monkeypatch.setattr(models.hippo.notation, "parse_roll", careless)
    assert_one_line_error(run("hippo", "best", HIPPO, "--roll", "9" * 5000),
                          "more than 4300 digits")


def test_a_huge_message_stays_one_readable_line(tmp_path):
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"game": "x" * 100_000}))
    result = run("hippo", "show", str(path))
    assert_one_line_error(result)
    assert len(result.output) < 600


# ---------------------------------------------------------------- outputs

@pytest.mark.parametrize("args, words", [
    (("hippo", "show", HIPPO, "--svg", ""), ["--svg: empty file name"]),
    (("hippo", "show", HIPPO, "--svg", "{t}/no/x.svg"), ["--svg", "no such folder"]),
    (("hippo", "show", HIPPO, "--svg", "{t}"), ["--svg", "directory"]),
    (("hippo", "show", HIPPO, "--svg", "{t}/"), ["--svg", "directory"]),
    (("hippo", "show", HIPPO, "--svg", "/dev/full"), ["--svg", "device"]),
    (("take-it-higher", "learn", "--games", "1", "--out", ""), ["--out: empty file name"]),
    (("take-it-higher", "learn", "--games", "1", "--out", "{t}/no/v.json"),
     ["--out", "no such folder"]),
    (("take-it-higher", "learn", "--games", "1", "--out", "/dev/full"), ["--out", "device"]),
    (("hippo", "generate", "--count", "1", "--out", ""), ["--out: empty folder name"]),
    (("hippo", "generate", "--count", "1", "--out", "{t}/f.txt"), ["--out", "is a file"]),
    (("hippo", "generate", "--count", "1", "--out", "{t}/f.txt/sub"),
     ["--out", "not a folder", "is a file"]),
    (("hippo", "simulate", "--games", "1", "--store", ""), ["--store", "empty"]),
    (("hippo", "simulate", "--games", "1", "--store", "/dev/null"), ["--store", "device"]),
    (("puzzles", "list", "--store", "/dev/null"), ["--store", "device"]),
    (("take-it-higher", "sheet", TIH_PUZZLE, "--svg", ""), ["--svg: empty file name"]),
])
def test_an_output_path_is_checked_before_any_work(tmp_path, args, words):
    (tmp_path / "f.txt").write_text("x")
    result = run(*(a.replace("{t}", str(tmp_path)) for a in args))
    assert_one_line_error(result, *words)


def test_export_out_is_checked_before_the_store_is_read(tmp_path):
    (tmp_path / "f.txt").write_text("x")
    assert_one_line_error(run("puzzles", "export", "--store", str(tmp_path / "none.sqlite"),
                              "--out", ""), "--out: empty folder name")
    assert_one_line_error(run("puzzles", "export", "--store", str(tmp_path / "none.sqlite"),
                              "--out", str(tmp_path / "f.txt")), "is a file")


def test_a_write_error_is_one_line_and_exit_2(tmp_path, monkeypatch):
    """A write that fails after the checks (here a full disk: the checks passed on a
    regular file) is one line, exit 2, for every writer."""
    import solver.io

    real = solver.io.os.write

    def full(fd: int, data: bytes) -> int:
        if os.fstat(fd).st_size == 0 and os.path.basename(os.readlink(
                f"/proc/self/fd/{fd}")).startswith("w-"):
            raise OSError(28, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(solver.io.os, "write", full)
    assert_one_line_error(run("hippo", "show", HIPPO, "--svg", str(tmp_path / "w-1.svg")),
                          "--svg", "cannot write", "No space left")
    assert_one_line_error(run("take-it-higher", "learn", "--games", "1", "--out",
                              str(tmp_path / "w-2.json")), "--out", "cannot write")


def test_check_output_and_folder_directly(tmp_path):
    assert check_output(None, "--svg") is None
    assert check_output(tmp_path / "new.svg", "--svg") == tmp_path / "new.svg"
    assert check_folder(tmp_path / "a" / "b", "--out") == tmp_path / "a" / "b"  # made later
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(BadInput, match="FIFO"):
        check_output(tmp_path / "fifo", "--svg")
    with no_hang():
        with pytest.raises(BadInput, match="cannot write"):
            write_text(tmp_path / "fifo", "x", "--svg")  # no reader: refused, not blocked


@pytest.mark.parametrize("parts, name", [
    (("hippo", "easy", 3), "hippo-easy-3.json"),
    (("../../../../escaped", "easy", 1), "_.._.._.._escaped-easy-1.json"),
    (("/tmp/x", "..", 2), "_tmp_x-..-2.json"),
    (("..", "", ""), "--.json"),
    (("a" * 500,), "a" * 120 + ".json"),
])
def test_names_from_data_stay_inside_the_folder(tmp_path, parts, name):
    target = file_in(tmp_path, parts, ".json", "--out")
    assert target.name == name
    assert target.resolve().parent == tmp_path.resolve()


def test_a_symbolic_link_inside_the_folder_cannot_lead_out(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "hippo-easy-1.json").symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(BadInput, match="outside the folder"):
        file_in(tmp_path / "out", ("hippo", "easy", 1), ".json", "--out")


def test_safe_name_never_makes_dot_dot():
    for text in ("..", ".", "...", "../..", "", "./x"):
        assert safe_name(text) not in ("", ".", "..")
        assert "/" not in safe_name(text)


def test_export_writes_only_inside_out_and_skips_rows_toppi_did_not_write(tmp_path):
    """A row with a valid checksum over a game named `../../x`: skipped (no game of
    that name), and nothing appears outside --out."""
    from solver.store import PUZZLES_KIND, Store

    data = load_json(TIH_PUZZLE, "puzzle file")
    store = tmp_path / "s.sqlite"
    with Store(store) as s:
        s.put(PUZZLES_KIND, {"game": "take-it-higher", "difficulty": "easy", "seed": 0}, 0,
              {"puzzle": data}, data.get("rating"))
        for n, (game, difficulty) in enumerate([("../../../x", "easy"),
                                                ("take-it-higher", "../../../y"),
                                                ("/tmp/z", "easy")]):
            s.put(PUZZLES_KIND, {"game": game, "difficulty": difficulty, "seed": n + 1},
                  n + 1, {"puzzle": data}, data.get("rating"))
    out = tmp_path / "a" / "b" / "out"
    result = run("puzzles", "export", "--store", str(store), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "3 damaged rows skipped" in result.stderr
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")
                     if p.is_file() and p != store and not p.name.startswith("s.sqlite"))
    assert written == ["a/b/out/take-it-higher-easy-1.json"]
    assert json.loads((out / "take-it-higher-easy-1.json").read_text()) == data


@pytest.mark.parametrize("args", [
    ("hippo", "show", "/tmp/a\0b.json"), ("hippo", "show", HIPPO, "--svg", "a\0b.svg"),
    ("puzzles", "list", "--store", "a\0b"), ("serve", "--store", "a\0b"),
])
def test_a_nul_byte_in_a_file_name_is_one_line(args):
    """Found by scripts/fuzz.py: click's own check of a path raised ValueError."""
    assert_one_line_error(run(*args), "NUL byte")
