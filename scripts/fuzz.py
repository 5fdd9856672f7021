"""Bad input for every verb of every game: the invariant is exit 0, 2 or 3, exactly one
stderr line on 2 (the error, last; a warning may precede it), never a traceback, never a
hang, never far past the time limit; bad input is never answered, nothing is written
outside the folder asked for, and the differential oracles hold.

    python scripts/fuzz.py [--count 2000] [--seed 0] [--limit 2] [--slack 1.5] [--show 10]
                           [--kinds position,special,...]

Each try takes a seed file of the repository (a position, a puzzle, a rules file or a
deck), damages it in one way (a value replaced by a wrong type, a huge or negative
number, a null in a list, a key removed, nesting 40 levels deep, another game's file,
an empty object, cut-off JSON, non-UTF-8 bytes, a NaN literal) and runs a verb of its
game on it in this process (click's test runner: no process start, so thousands of
tries take minutes) with `--time-limit LIMIT` where the verb has one; or it passes a bad
option value (nan, inf, negative, huge, text) to a verb; or it damages a store and reads
it (the store oracle: a resumed run gives the first run's answer). The other kinds of
try are scripts/fuzz_inputs.py's: special files in every reader's place, values files,
crafted store rows exported, numbers and strings out of bounds, odd text and bad UTF-8
in options, unwritable outputs, any declared verb, and the round trip of positions. A
try fails when the command raises (a traceback), exits with another code, writes more
than one line on exit 2, runs past the limit + slack seconds (an overrun; SIGALRM at
60 s marks a hang), answers bad input (wrongly accepted), writes outside its folder, or
breaks an oracle (a wrong answer).

The report gives the tries, answers (0), clean errors (2), time limits (3), the
failures by class, a line per kind of input and the declared commands the tries
reached; docs/architecture.md has the figures. Seeds make chunks: each `--seed` is its
own reproducible run. tests/test_fuzz.py runs the same tries on a small budget in the
suite, from fixed seeds and without the overrun check (a verdict that would depend on
the machine's load).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT, ROOT / "scripts"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import fuzz_inputs as inputs  # noqa: E402
from click.testing import CliRunner  # noqa: E402
from fuzz_inputs import Try  # noqa: E402

from solver.cli import cli  # noqa: E402

# game -> verbs that read a position file (with the options each needs to run)
POSITION_VERBS: dict[str, list[tuple[str, ...]]] = {
    "take-it-higher": [("score",), ("show",), ("moves",), ("hint", "--tile", "GA")],
    "hoch-hinaus": [("show",), ("moves",), ("hint",), ("achievable",), ("reachable",)],
    "tippi-toppi": [("show",), ("moves",), ("hint",), ("reachable", "--samples", "3")],
    "topito": [("show",), ("moves",), ("hint",), ("plan", "--card", "1")],
    "hippo": [("show",), ("moves",), ("best",), ("finish", "--turns", "1")],
}
PUZZLE_VERBS = [("solve",), ("check-unique",), ("sheet", "--svg", "{tmp}/sheet.svg")]
# game -> (option, verb args) for --rules / --deck files
RULES_VERBS: dict[str, tuple[str, tuple[str, ...]]] = {
    "take-it-higher": ("--rules", ("tiles",)),
    "hoch-hinaus": ("--rules", ("show", "puzzles/hoch-hinaus/corner-gap.json")),
    "tippi-toppi": ("--rules", ("show", "puzzles/tippi-toppi/hidden.json")),
    "topito": ("--deck", ("show", "puzzles/topito/start.json")),
    "hippo": ("--rules", ("show", "puzzles/hippo/start-2p.json")),
}
RULES_FILES = {
    "take-it-higher": "models/take_it_higher/data/default.json",
    "hoch-hinaus": "models/hoch_hinaus/data/default.json",
    "tippi-toppi": "models/tippi_toppi/data/default.json",
    "topito": "models/topito/data/deck.json",
    "hippo": "models/hippo/data/default.json",
}
# bad option values, tried on options of these verbs
OPTION_TRIES: list[tuple[str, ...]] = [
    ("take-it-higher", "max", "--time-limit"), ("take-it-higher", "max", "--draws"),
    ("take-it-higher", "simulate", "--games"), ("take-it-higher", "simulate", "--hint-time"),
    ("hoch-hinaus", "simulate", "--games"), ("tippi-toppi", "generate", "--count"),
    ("topito", "simulate", "--players"), ("hippo", "simulate", "--games"),
    ("hippo", "best", "puzzles/hippo/start-2p.json", "--roll"),
    ("hippo", "plan", "puzzles/hippo/solo-endgame.json", "--rolls"),
    ("topito", "plan", "puzzles/topito/start.json", "--card"),
    ("take-it-higher", "max", "--workers"), ("take-it-higher", "max", "--seed"),
    ("take-it-higher", "learn", "--games", "1", "--out", "{w}/learned.json", "--step"),
    ("take-it-higher", "learn", "--games", "1", "--out", "{w}/learned.json", "--lambda"),
]
# the kinds of try, each as often as it is listed
KINDS = (["position"] * 5 + ["puzzle"] * 2 + ["rules"] * 2 + ["option", "store"]
         + ["special"] * 2 + ["values"] * 2 + ["crafted store", "huge", "text"]
         + ["output"] * 2 + ["round trip"] * 2 + ["verb"] * 2)
#: What a try may end in without failing.
GOOD = ("answer", "clean error", "time limit")
#: The failure classes, in the table's order.
FAILURES = ("traceback", "not one line", "overrun", "hang", "wrong answer",
            "wrongly accepted", "written outside")
BAD_OPTION_VALUES = ["nan", "inf", "-inf", "-1", "0", "1e999", "99999999999999999999",
                     "abc", "", "1,2", "-1,4,3", "7,7,7", "-1.5", "  "]
BAD_VALUES: list[Any] = [None, -1, 0, 10**12, -10**12, 1.5, "", "?", "zz", [], {}, [None],
                         True, [[]], "A1", {"x": 1}, "9" * 30]


@dataclass
class Outcome:
    """What one try did: `kind` answer / clean error / time limit / a failure class."""

    kind: str
    what: str
    seconds: float
    detail: str = ""
    stdout: str = field(default="", repr=False)
    source: str = ""  # the kind of input tried


@dataclass
class Tally:
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self) -> Counter:
        return Counter(o.kind for o in self.outcomes)

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.kind not in GOOD]

    def by_source(self) -> dict[str, Counter]:
        out: dict[str, Counter] = {}
        for o in self.outcomes:
            out.setdefault(o.source, Counter())[o.kind] += 1
        return out


def seed_files(game: str) -> dict[str, list[Path]]:
    """The repository's files of a game, by kind (position, puzzle)."""
    base = ROOT / "puzzles" / game
    return {"position": sorted(p for p in base.glob("*.json")),
            "puzzle": sorted((base / "library").glob("*.json"))}


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def damage(data: Any, text: str, rng: random.Random, other: str) -> tuple[str, str]:
    """One damaged copy of a JSON file: (file text, what was done)."""
    how = rng.choice(["replace"] * 6 + ["delete", "null in list", "deep", "foreign",
                                        "empty", "cut", "bytes", "nan"])
    if how == "foreign":
        return other, "another game's file"
    if how == "empty":
        return "{}", "{}"
    if how == "cut":
        return text[: rng.randrange(1, max(2, len(text)))], "cut-off JSON"
    if how == "bytes":
        return "\udcff" + text, "non-UTF-8 byte"
    paths = [p for p in _paths(data) if p]
    if not paths:
        return "[]", "a list"
    path = rng.choice(paths)
    copy_ = copy.deepcopy(data)
    target = copy_
    for key in path[:-1]:
        target = target[key]
    last = path[-1]
    if how == "delete" and isinstance(target, dict):
        del target[last]
        return json.dumps(copy_), f"{_name(path)} removed"
    if how == "null in list" and isinstance(target[last], list):
        target[last].append(None)
        return json.dumps(copy_), f"null appended to {_name(path)}"
    if how == "deep":
        target[last] = json.loads("[" * 40 + "]" * 40)
        return json.dumps(copy_), f"{_name(path)} nested 40 deep"
    if how == "nan":
        target[last] = 12345.678
        return json.dumps(copy_).replace("12345.678", "NaN"), f"{_name(path)} = NaN"
    value = rng.choice(BAD_VALUES)
    target[last] = value
    return json.dumps(copy_), f"{_name(path)} = {json.dumps(value)[:20]}"


def _name(path: tuple) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path) or "."


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


def invoke(args: list[str], limit: float | None, slack: float) -> Outcome:
    """Run `toppi *args` in this process and classify it."""
    what = " ".join(args)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)
    start = time.perf_counter()
    try:
        result = CliRunner().invoke(cli, args, catch_exceptions=True)
    except _Hang:
        return Outcome("hang", what, 60.0)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    seconds = time.perf_counter() - start
    if isinstance(result.exception, _Hang):
        return Outcome("hang", what, seconds)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return Outcome("traceback", what, seconds,
                       f"{type(result.exception).__name__}: {result.exception}"[:200])
    if limit is not None and seconds > limit + slack:
        return Outcome("overrun", what, seconds, f"{seconds:.1f} s")
    code = result.exit_code
    if code == 0:
        return Outcome("answer", what, seconds, stdout=result.stdout)
    if code == 3:
        return Outcome("time limit", what, seconds)
    if code == 2:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        errors = [line for line in lines if line.startswith("toppi: error:")]
        # the error is one line, the last; a warning may come before it (e.g. a damaged
        # store row skipped, then the store cannot be written)
        if (len(errors) == 1 and lines[-1] == errors[0]
                and "Traceback" not in result.stderr):
            return Outcome("clean error", what, seconds)
        return Outcome("not one line", what, seconds, result.stderr[:200])
    return Outcome(f"exit {code}", what, seconds, result.output[:200])


def tries(count: int, seed: int, limit: float, workdir: Path,
          kinds: Sequence[str] = KINDS) -> Iterator[Try]:
    """`count` tries of `kinds` (each as often as listed), reproducible from `seed`."""
    rng = random.Random(seed)
    games = list(POSITION_VERBS)
    files = {g: seed_files(g) for g in games}
    for n in range(count):
        game = rng.choice(games)
        kind = rng.choice(kinds)
        other_game = rng.choice([g for g in games if g != game])
        other = rng.choice(files[other_game]["position"]).read_text()
        if kind in ("position", "puzzle", "rules"):
            args = damaged_file_try(rng, workdir / f"try{n}.json", game, kind, other, files)
            timed = _takes(game, args[1], "time_limit")
            if timed:
                args += ["--time-limit", str(limit)]
            yield Try(args, kind, limit if timed else None)
        else:
            yield new_try(rng, workdir, n, game, kind, limit)


def new_try(rng: random.Random, workdir: Path, n: int, game: str, kind: str,
            limit: float) -> Try:
    """A try of the kinds that are not a damaged repository file."""
    if kind == "store":
        return Try(store_try(rng, workdir, n), kind)
    if kind == "option":
        *cmd, option = rng.choice(OPTION_TRIES)
        cmd = [c.replace("{w}", str(workdir)) for c in cmd]
        return Try([*cmd, option, rng.choice(BAD_OPTION_VALUES)], kind,
                   None if option != "--time-limit" else limit)
    if kind == "special":
        return inputs.special_try(rng, workdir, game)
    if kind == "values":
        return inputs.values_try(rng, workdir, n, damage, _quiet_invoke)
    if kind == "crafted store":
        return inputs.export_try(rng, workdir, n)
    if kind == "huge":
        return inputs.huge_try(rng, workdir, n, game, lambda d: list(_paths(d)))
    if kind == "text":
        return inputs.text_try(rng, workdir)
    if kind == "output":
        return inputs.output_try(rng, workdir)
    if kind == "verb":
        return inputs.every_verb_try(rng, workdir, n, game, write_damaged)
    return inputs.roundtrip_try(rng, workdir, n, game)


def write_damaged(rng: random.Random, path: Path, source: Path) -> None:
    """A damaged copy of `source` at `path` (another game's file: a Hippo position)."""
    text = source.read_text()
    other = (ROOT / "puzzles" / "hippo" / "start-2p.json").read_text()
    damaged, _ = damage(json.loads(text), text, rng, other)
    path.write_text(damaged, encoding="utf-8", errors="surrogateescape")


def damaged_file_try(rng: random.Random, path: Path, game: str, kind: str, other: str,
                     files: dict[str, dict[str, list[Path]]]) -> list[str]:
    """A damaged copy of a repository file (a position, a puzzle, a rules file or a
    deck) written to `path`, and the command line that reads it."""
    if kind == "rules":
        source = ROOT / RULES_FILES[game]
        option, verb = RULES_VERBS[game]
    else:
        pool = files[game][kind] or files[game]["position"]
        source = rng.choice(pool)
        verb = rng.choice(POSITION_VERBS[game] if kind == "position" else PUZZLE_VERBS)
    text = source.read_text()
    damaged, _ = damage(json.loads(text), text, rng, other)
    path.write_text(damaged, encoding="utf-8", errors="surrogateescape")
    if kind == "rules":
        return [game, *verb, option, str(path)]
    return [game, verb[0], str(path), *(a.format(tmp=path.parent) for a in verb[1:])]


def _quiet_invoke(args: list[str]) -> Any:
    return CliRunner().invoke(cli, args)


# the stores a damaged copy is made of: (file, the command that wrote it)
SEED_STORES = {
    "runs": ["hippo", "simulate", "--games", "3", "--jobs", "1", "--json"],
    "puzzles": ["hippo", "generate", "--difficulty", "easy", "--count", "2", "--jobs", "1"],
}


def seed_store(workdir: Path, name: str) -> Path:
    """The store `name` (written once per work directory by its command, whose output
    is kept beside it: the answer a resumed run must give)."""
    path = workdir / f"seed-{name}.sqlite"
    if not path.exists():
        result = CliRunner().invoke(cli, [*SEED_STORES[name], "--store", str(path), "--quiet"])
        if result.exit_code != 0:
            raise RuntimeError(f"cannot write the seed store {name}: {result.output[-200:]}")
        path.with_suffix(".out").write_text(result.stdout)
    return path


def same_answer(stdout: str, expected: str) -> bool:
    """Whether a resumed run's JSON equals the first run's (its timing left out)."""
    try:
        got, want = json.loads(stdout), json.loads(expected)
    except ValueError:
        return False
    for data in (got, want):
        data.pop("seconds", None)
    return got == want


def damage_store(source: Path, target: Path, rng: random.Random) -> str:
    """A damaged copy of a store: bytes flipped, cut off, a row edited in SQL (its
    result, parameters or checksum), or not a database at all. Returns what was done."""
    import shutil
    import sqlite3

    data = source.read_bytes()
    how = rng.choice(["row"] * 4 + ["flip", "cut", "foreign", "empty"])
    if how in ("flip", "cut", "foreign", "empty"):
        if how == "flip":
            data = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif how == "cut":
            data = data[: rng.randrange(len(data))]
        else:
            data = b'{"game": "hippo"}' if how == "foreign" else b""
        target.write_bytes(bytes(data))
        return how
    shutil.copyfile(source, target)
    db = sqlite3.connect(target)
    try:
        table = rng.choice([r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")])
        ids = [r[0] for r in db.execute(f'SELECT id FROM "{table}"')]
        column = rng.choice(["result", "result", "parameters", "checksum", "seed"])
        row = rng.choice(ids)
        old = db.execute(f'SELECT "{column}" FROM "{table}" WHERE id = ?', (row,)).fetchone()[0]
        if column == "seed":
            new: Any = rng.choice([-1, 10**9, "x"])
        elif column == "checksum" or old is None:
            new = rng.choice(["", "0" * 64, None])
        else:
            try:
                new, _ = damage(json.loads(old), old, rng, "{}")
            except ValueError:
                new = old[::-1]
        if isinstance(new, str):  # a damaged byte goes in as it would on disk (a BLOB)
            new = new.encode("utf-8", "surrogateescape") if "\udcff" in new else new
        db.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE id = ?', (new, row))
        db.commit()
    finally:
        db.close()
    return f"{table} row {row}: {column} edited"


def store_try(rng: random.Random, workdir: Path, n: int,
              stores: Sequence[str] = tuple(SEED_STORES)) -> list[str]:
    """A command reading a damaged copy of one of `stores`: the puzzle store's list and
    export, or the command that wrote it run again with --resume."""
    name = rng.choice(list(stores))
    path = workdir / f"try{n}.sqlite"
    damage_store(seed_store(workdir, name), path, rng)
    if name == "puzzles" and rng.random() < 0.6:
        if rng.random() < 0.5:
            return ["puzzles", "list", "--store", str(path)]
        return ["puzzles", "export", "--store", str(path), "--out", str(workdir / f"x{n}")]
    return [*SEED_STORES[name], "--store", str(path), "--resume", "--quiet"]


def store_outcome(args: list[str], workdir: Path, slack: float) -> Outcome:
    """A store try, with its oracle: a resumed run that answers gives the first run's
    answer (a damaged row is recomputed, never trusted)."""
    out = invoke(args, None, slack)
    if out.kind == "answer" and "--resume" in args and "--json" in args:
        expected = (workdir / "seed-runs.out").read_text()
        if not same_answer(out.stdout, expected):
            return Outcome("wrong answer", out.what, out.seconds, "a damaged row trusted?")
    return out


def _takes(game: str, verb: str, param: str) -> bool:
    """Whether `toppi game verb` has the option `param` (by its click parameters)."""
    import click

    ctx = click.Context(cli)
    group = cli.get_command(ctx, game)
    if not isinstance(group, click.Group):  # `serve`: a command, not a group
        return False
    command = group.get_command(ctx, verb)
    return command is not None and any(p.name == param for p in command.params)


def run(count: int, seed: int, limit: float, slack: float, workdir: Path,
        kinds: Sequence[str] = KINDS) -> Tally:
    tally = Tally()
    for t in tries(count, seed, limit, workdir, kinds):
        out = outcome(t, workdir, limit, slack)
        out.source = t.kind
        tally.outcomes.append(out)
    return tally


def outcome(t: Try, workdir: Path, limit: float, slack: float) -> Outcome:
    """Run one try and judge it: its invariant, then what the try itself demands (an
    error for bad input, its check, its oracle)."""
    if t.oracle is not None:
        start = time.perf_counter()
        try:
            problem = t.oracle()
        except Exception as exc:  # a reader refusing toppi's own file, or a bug
            problem = f"{type(exc).__name__}: {exc}"[:200]
        if problem is not None:
            return Outcome("wrong answer", " ".join(t.args), time.perf_counter() - start,
                           problem)
        out = invoke(t.args, None, slack)
        if out.kind != "answer" and out.kind in GOOD:  # toppi refused the file it wrote
            return Outcome("wrong answer", out.what, out.seconds, "refused its own file")
        return out
    args = list(t.args)
    if t.kind != "store" and t.limit is None and len(args) > 1 and "--time-limit" not in args \
            and _takes(args[0], args[1], "time_limit"):
        args += ["--time-limit", str(limit)]
        t.limit = limit
    out = store_outcome(args, workdir, slack) if t.kind == "store" else \
        invoke(args, t.limit, slack)
    if t.must_fail and out.kind == "answer":
        return Outcome("wrongly accepted", out.what, out.seconds, "bad input answered")
    if t.check is not None and out.kind in GOOD:
        problem = t.check(out.stdout)
        if problem is not None:
            kind = "written outside" if "outside" in problem else "wrong answer"
            return Outcome(kind, out.what, out.seconds, problem)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=float, default=2.0, help="--time-limit of timed verbs")
    ap.add_argument("--slack", type=float, default=1.5,
                    help="seconds past the limit before a run counts as an overrun")
    ap.add_argument("--show", type=int, default=10, help="failures to list")
    ap.add_argument("--kinds", default=None,
                    help=f"only these kinds of try, comma-separated ({', '.join(dict.fromkeys(KINDS))})")
    args = ap.parse_args()
    import tempfile

    kinds = KINDS if args.kinds is None else [k for k in KINDS if k in args.kinds.split(",")]
    if not kinds:
        ap.error(f"--kinds: none of {', '.join(dict.fromkeys(KINDS))}")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        tally = run(args.count, args.seed, args.limit, args.slack, Path(tmp), kinds)
    report(tally, f"{args.count} tries (seed {args.seed}) in "
                  f"{time.perf_counter() - start:.0f} s:", args.show)
    sys.exit(1 if tally.failures() else 0)


def report(tally: Tally, heading: str, show: int) -> None:
    """The totals, a line per kind of input, and the first failures."""
    counts = tally.count()
    print(heading)
    for kind in (*GOOD, *FAILURES):
        print(f"  {kind}: {counts.get(kind, 0)}")
    for kind, n in counts.items():
        if kind.startswith("exit "):
            print(f"  {kind}: {n}")
    print("  by kind of input (tries: answers / clean errors / time limits / failures):")
    for source, c in sorted(tally.by_source().items()):
        failed = sum(n for k, n in c.items() if k not in GOOD)
        print(f"    {source}: {sum(c.values())}: {c['answer']} / {c['clean error']} / "
              f"{c['time limit']} / {failed}")
    print(f"  commands reached: {reached(tally)}")
    for o in tally.failures()[:show]:
        print(f"  FAIL {o.kind}: toppi {o.what[:300]}  {o.detail}")


def reached(tally: Tally) -> str:
    """How many of the declared commands (every game's verbs, `puzzles list|export`,
    `serve`) the tries ran, and those left out."""
    from solver.registry import games

    declared = {f"{g} {v}" for g, e in games().items() for v in e.verbs()}
    declared |= {"puzzles list", "puzzles export", "serve"}
    ran = {" ".join(o.what.split()[:2]) for o in tally.outcomes}
    ran |= {o.what.split()[0] for o in tally.outcomes if o.what.startswith("serve")}
    missing = sorted(declared - ran)
    return f"{len(declared & ran)} of {len(declared)}" + (
        f" (not: {', '.join(missing[:8])})" if missing else "")


if __name__ == "__main__":
    main()
