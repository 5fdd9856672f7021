"""The fuzz campaign's tries of what a user hands toppi and where it writes
(scripts/fuzz.py draws them among its own):

- special files in every reader's place (positions, puzzles, --rules, --deck, --tasks,
  --values, learn --resume, --store of list/export/simulate/serve): a FIFO, a device
  (/dev/zero, /dev/null), a directory, a loop of symbolic links, a dangling link, an
  empty file, NUL bytes, a gzip bomb, a file past the size limit;
- values files (`take-it-higher learn --resume`, `hint --learned --values`): damaged as
  the other files are, and crafted (NaN, 1e308 and huge weights, negative games, an
  object as a key, no weights, an entry twice, a cut-off gzip, a gzip bomb);
- stores with crafted rows (a valid checksum over `../` or `/` in the game or
  difficulty, a name of 5,000 characters, a puzzle that is not an object), exported:
  no file may appear outside the folder asked for, and every file exported, read back
  by its game, is the same puzzle (its canonical form), written again the same file;
- numbers and strings out of bounds in positions (an integer of 5,000 digits, 1e400,
  a string of 2 MB); bad UTF-8 in options and file names, and odd text in options
  (5,000 digits, digits that are not ASCII, a NUL, 100,000 characters);
- empty and unwritable outputs (`--svg`, `--out`, `--store`, learn `--out`, export
  `--out`): empty names, missing folders, a folder or a device or a FIFO as the file;
- the differential oracle of positions: a position (a playout's, or a repository file
  with random moves played) written, read again and written again gives the same file
  and the same moves, and `show` reads the file toppi wrote.

Each try is a `Try`: a command line and what it must do (`must_fail`: an answer is a
wrongly accepted input), or a check in this process (`oracle`).
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
P = "puzzles"
POSITIONS = {
    "take-it-higher": f"{P}/take-it-higher/hannah-advanced.json",
    "hoch-hinaus": f"{P}/hoch-hinaus/corner-gap.json",
    "tippi-toppi": f"{P}/tippi-toppi/hidden.json",
    "topito": f"{P}/topito/start.json",
    "hippo": f"{P}/hippo/start-2p.json",
}
# the first easy puzzle of each game's library
LIBRARY_PUZZLES = {g: str(sorted((ROOT / P / g / "library").glob(f"{g}-easy-*.json"))[0])
                   for g in POSITIONS}
SPECIAL = ["fifo", "dev-zero", "dev-null", "directory", "link-loop", "dangling",
           "empty", "nul-bytes", "gzip-bomb", "too-large"]
CRAFTED_NAMES = ["../../../../escaped", "/tmp/toppi-fuzz-escaped", "hippo/../../../x",
                 "a" * 5000, "", "..", "~/x", "hippo\x00x", "con:x"]


@dataclass
class Try:
    """One try: `args` run as `toppi *args` (or, with `oracle`, a check in this process
    that returns a problem or None, `args` only naming it). `must_fail`: the input is
    bad, so an answer (exit 0) is a wrongly accepted input. `check(stdout)` after an
    answer or an error: a problem (a file written outside its folder, an exported
    puzzle that does not read back) or None. `kind` names the try's input kind."""

    args: list[str]
    kind: str
    limit: float | None = None
    must_fail: bool = False
    check: Callable[[str], str | None] | None = None
    oracle: Callable[[], str | None] | None = None


# ---------------------------------------------------------------- special files

def special_files(workdir: Path) -> dict[str, Path]:
    """The special files, made once per work directory."""
    base = workdir / "special"
    paths = {name: base / f"{name}.json" for name in SPECIAL}
    if base.exists():
        return paths
    base.mkdir()
    os.mkfifo(paths["fifo"])
    paths["dev-zero"].symlink_to("/dev/zero")
    paths["dev-null"].symlink_to("/dev/null")
    paths["directory"].mkdir()
    paths["link-loop"].symlink_to(base / "loop-b")
    (base / "loop-b").symlink_to(paths["link-loop"])
    paths["dangling"].symlink_to(base / "nowhere")
    paths["empty"].write_bytes(b"")
    paths["nul-bytes"].write_bytes(b"\0" * 4096)
    # 64 MiB of zeros in 64 KB: past every limit once decompressed
    with gzip.open(paths["gzip-bomb"], "wb", compresslevel=9) as bomb:
        for _ in range(64):
            bomb.write(bytes(1 << 20))
    with paths["too-large"].open("wb") as f:  # valid JSON, 17 MiB of spaces in it
        f.write(b"{" + b" " * (17 << 20) + b"}")
    return paths


def readers(game: str, workdir: Path) -> list[tuple[list[str], bool]]:
    """Every place of a game where a file is read: (args with {f}, whether an empty
    file there is bad input; an empty store is a new database)."""
    pos = POSITIONS[game]
    out: list[tuple[list[str], bool]] = [
        ([game, "show", "{f}"], True), ([game, "solve", "{f}"], True),
        ([game, "show", pos, "--rules", "{f}"], True),
        (["puzzles", "list", "--store", "{f}"], False),
        (["puzzles", "export", "--store", "{f}", "--out", str(workdir / "xo")], False),
        (["hippo", "simulate", "--games", "1", "--jobs", "1", "--store", "{f}",
          "--resume", "--json"], False),
    ]
    if game == "topito":
        out.append(([game, "show", pos, "--deck", "{f}"], True))
    if game == "hoch-hinaus":
        out.append(([game, "show", pos, "--tasks", "{f}"], True))
    if game == "take-it-higher":
        out += [([game, "learn", "--games", "1", "--resume", "{f}", "--out",
                  str(workdir / "vo.json")], True),
                ([game, "hint", pos, "--learned", "--values", "{f}"], True)]
    return out


def special_try(rng: random.Random, workdir: Path, game: str) -> Try:
    """A special file in one of the game's readers (or `serve --store`)."""
    files = special_files(workdir)
    special = rng.choice(SPECIAL)
    if rng.random() < 0.05 and special not in ("empty",):
        # accepted, the server would start and the try hang: a failure either way
        return Try(["serve", "--store", str(files[special])], "special file",
                   must_fail=True)
    args, empty_is_bad = rng.choice(readers(game, workdir))
    must_fail = special != "empty" or empty_is_bad
    return Try([a.replace("{f}", str(files[special])) for a in args], "special file",
               must_fail=must_fail)


# ---------------------------------------------------------------- values files

def seed_values(workdir: Path, invoke: Callable[[list[str]], Any]) -> Path:
    """A small values file of the built-in rules (learned once per work directory)."""
    path = workdir / "seed-values.json"
    if not path.exists():
        invoke(["take-it-higher", "learn", "--games", "20", "--out", str(path)])
        if not path.exists():
            raise RuntimeError("cannot learn the seed values file")
    return path


def crafted_values(data: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """A values file broken in a way its schema check must refuse."""
    d = copy.deepcopy(data)
    how = rng.choice(["nan", "big", "huge", "games", "object key", "no weights",
                      "twice", "tag", "version", "weights", "entry", "bool games"])
    entry = rng.randrange(len(d["weights"]))
    if how == "nan":
        d["weights"][entry][1] = "NaN"  # written as the literal below
    elif how == "big":
        d["weights"][entry][1] = 1e308
    elif how == "huge":
        d["weights"][entry][1] = 10**400
    elif how == "games":
        d["games"] = -5
    elif how == "object key":
        d["weights"][entry][0][1] = {"x": 1}
    elif how == "no weights":
        d["weights"] = []
    elif how == "twice":
        d["weights"].append(copy.deepcopy(d["weights"][entry]))
    elif how == "tag":
        d["weights"][entry][0][0] = "zz"
    elif how == "version":
        d["version"] = "1"
    elif how == "weights":
        d["weights"] = {"p": 1}
    elif how == "entry":
        d["weights"][entry] = [d["weights"][entry][0]]
    else:
        d["games"] = True
    return d, how


def values_try(rng: random.Random, workdir: Path, n: int, damage: Callable[..., Any],
               invoke: Callable[[list[str]], Any]) -> Try:
    """A damaged or crafted values file read by `learn --resume` or `hint --values`."""
    source = seed_values(workdir, invoke)
    text = source.read_text()
    data = json.loads(text)
    zipped = rng.random() < 0.4
    path = workdir / f"values{n}.json{'.gz' if zipped else ''}"
    if rng.random() < 0.5:
        damaged, _ = damage(data, text, rng, "{}")
        must_fail = False
    else:
        crafted, _ = crafted_values(data, rng)
        damaged = json.dumps(crafted).replace('"NaN"', "NaN")
        must_fail = True
    raw = damaged.encode("utf-8", "surrogateescape")
    if zipped:
        raw = gzip.compress(raw, mtime=0)
        if rng.random() < 0.2:
            raw, must_fail = raw[: len(raw) // 2], True  # a cut-off gzip file
    path.write_bytes(raw)
    if rng.random() < 0.7:
        args = ["take-it-higher", "learn", "--games", "1", "--resume", str(path),
                "--out", str(workdir / f"vo{n}.json")]
    else:
        args = ["take-it-higher", "hint", POSITIONS["take-it-higher"], "--learned",
                "--values", str(path)]
    return Try(args, "values file", must_fail=must_fail)


# ---------------------------------------------------------------- stores and exports

def library_store(workdir: Path) -> Path:
    """A store of every library puzzle (the rows `generate --store` writes), made once."""
    from solver.store import PUZZLES_KIND, Store

    path = workdir / "seed-library.sqlite"
    if path.exists():
        return path
    with Store(path) as store:
        for n, file in enumerate(sorted((ROOT / P).glob("*/library/*.json"))):
            data = json.loads(file.read_text())
            rating = data.get("rating") or {}
            params = {"game": file.parent.parent.name,
                      "difficulty": rating.get("difficulty", "easy"), "seed": n}
            store.put(PUZZLES_KIND, params, 0, {"puzzle": data}, rating)
    return path


def crafted_row(source: Path, target: Path, rng: random.Random) -> str:
    """A copy of a store with one crafted row of a valid checksum."""
    import shutil
    import sqlite3

    from solver.store import canonical_json, row_checksum

    shutil.copyfile(source, target)
    db = sqlite3.connect(target)
    try:
        seed, params, result, rating = db.execute(
            "SELECT seed, parameters, result, rating FROM puzzles ORDER BY random()"
        ).fetchone()
        p, r = json.loads(params), json.loads(result)
        how = rng.choice(["game", "difficulty", "puzzle", "rating"])
        if how in ("game", "difficulty"):
            p[how] = rng.choice(CRAFTED_NAMES)
        elif how == "puzzle":
            r["puzzle"] = rng.choice([[], "x", None, 5])
        else:
            rating = canonical_json(rng.choice(["x", [], {"score": "high"}]))
        params, result = canonical_json(p), canonical_json(r)
        db.execute("INSERT INTO puzzles (seed, parameters, result, rating, canonical, "
                   "checksum) VALUES (?, ?, ?, ?, NULL, ?)",
                   (seed + 10**6, params, result, rating,
                    row_checksum("puzzles", params, seed + 10**6, result, rating, None)))
        db.commit()
    finally:
        db.close()
    return how


def export_try(rng: random.Random, workdir: Path, n: int) -> Try:
    """`puzzles export` of a store with a crafted row: nothing written outside --out,
    and every exported file reads back as the same puzzle."""
    store = workdir / f"crafted{n}.sqlite"
    crafted_row(library_store(workdir), store, rng)
    box = workdir / f"ex{n}"
    out = box / "a" / "b" / "out"
    before = set(os.listdir(workdir)) | {box.name}
    args = ["puzzles", "export", "--store", str(store), "--out", str(out)]
    if rng.random() < 0.3:
        args += ["--game", rng.choice(list(POSITIONS))]

    def check(stdout: str) -> str | None:
        outside = [str(f) for f in box.rglob("*") if f.is_file() and out not in f.parents]
        outside += sorted(set(os.listdir(workdir)) - before)
        if os.path.lexists("/tmp/toppi-fuzz-escaped") or os.path.lexists(
                "/tmp/toppi-fuzz-escaped.json"):
            outside.append("/tmp/toppi-fuzz-escaped")
        if outside:
            return f"written outside --out: {outside[:3]}"
        return reimported(out)

    return Try(args, "crafted store", check=check)


def reimported(folder: Path) -> str | None:
    """The differential oracle of exports: every puzzle file in `folder`, read by its
    game and written again, is the same file."""
    from solver.registry import games

    if not folder.exists():
        return None
    for file in sorted(folder.glob("*.json")):
        data = json.loads(file.read_text())
        game = data.get("game") if isinstance(data, dict) else None
        if game not in games():  # a file of the older format: the game is in its name
            game = max((g for g in games() if file.name.startswith(g + "-")), key=len)
        entry = games()[game]
        described = entry.module("verbs").PUZZLES
        kind = described.make_kind(None, described.backends[0], 20.0)
        puzzle, stated = described.read(kind, data, str(file))
        # a file of an older format is written in today's: the same puzzle, and
        # written again the same file
        written = described.write(kind, puzzle, stated, data.get("rating"))
        again, stated_again = described.read(kind, written, str(file))
        if (described.write(kind, again, stated_again, written.get("rating")) != written
                or described.canonical_form(kind, again)
                != described.canonical_form(kind, puzzle)):
            return f"{file.name}: re-imported, it is another puzzle"
    return None


# ---------------------------------------------------------------- numbers, text, outputs

def huge_try(rng: random.Random, workdir: Path, n: int, game: str,
             paths: Callable[[Any], list[tuple]]) -> Try:
    """A position with a number or a string out of bounds at a random place."""
    source = ROOT / POSITIONS[game]
    data = json.loads(source.read_text())
    where = rng.choice([p for p in paths(data) if p])
    target = data
    for key in where[:-1]:
        target = target[key]
    how = rng.choice(["digits", "exponent", "string", "negative digits"])
    marker = "123456.789e-3"
    target[where[-1]] = float(marker) if how != "string" else "x" * (2 << 20)
    literal = {"digits": "9" * 5000, "negative digits": "-" + "9" * 4400,
               "exponent": "1e400", "string": None}[how]
    text = json.dumps(data)
    if literal is not None:
        text = text.replace(json.dumps(float(marker)), literal)
    path = workdir / f"huge{n}.json"
    path.write_text(text)
    return Try([game, "show", str(path)], "number or string out of bounds",
               must_fail=how != "string")


TEXT_OPTIONS = [
    ["take-it-higher", "sheet", LIBRARY_PUZZLES["take-it-higher"], "--svg", "{w}/s.svg",
     "--title", "{bad}"],
    ["hippo", "best", POSITIONS["hippo"], "--roll", "{bad}"],
    ["topito", "plan", POSITIONS["topito"], "--card", "{bad}"],
    ["take-it-higher", "hint", POSITIONS["take-it-higher"], "--tile", "{bad}"],
    ["hippo", "show", "{w}/{bad}.json"],
]


ODD_TEXT = ["9" * 5000, "9" * 5000 + ",1,1", "\u00b2,1,1", "\u0661,\u0662,\u0663",
            "rank " + "9" * 5000 + ": Duck", "x" * 100_000, "\x00", "6,4,2\n6,4,2"]


def text_try(rng: random.Random, workdir: Path) -> Try:
    """Bad UTF-8 bytes (as Python passes them: surrogate escapes) in an option, which
    must be refused; or odd text (a number of 5,000 digits, digits that are not ASCII,
    a NUL, a line break, 100,000 characters), which must end cleanly."""
    if rng.random() < 0.5:
        bad, must_fail = rng.choice(["\udcff", "a\udcfeb", "\udce9t\udce9",
                                     "6,\udcff,2"]), True
    else:
        bad, must_fail = rng.choice(ODD_TEXT), False
    args = [a.replace("{w}", str(workdir)).replace("{bad}", bad)
            for a in rng.choice(TEXT_OPTIONS)]
    return Try(args, "odd text in an option", must_fail=must_fail)


def output_try(rng: random.Random, workdir: Path) -> Try:
    """An empty or unwritable output path for one of the commands that write."""
    special = special_files(workdir)
    file_places = ["", " ", str(workdir / "no-folder" / "x.out"), str(special["directory"]),
                   "/dev/full", str(special["fifo"]), str(special["empty"]) + "/x.out",
                   str(workdir) + "/"]
    folder_places = ["", " ", str(special["empty"]), "/dev/null",
                     str(special["empty"]) + "/sub"]
    writers = [
        (["hippo", "show", POSITIONS["hippo"], "--svg", "{o}"], file_places),
        (["take-it-higher", "sheet", LIBRARY_PUZZLES["take-it-higher"], "--svg", "{o}"],
         file_places),
        (["take-it-higher", "learn", "--games", "1", "--out", "{o}"], file_places),
        (["hippo", "simulate", "--games", "1", "--jobs", "1", "--store", "{o}"],
         [p for p in file_places if p != str(special["empty"])]),
        (["topito", "generate", "--moves", "2", "--count", "1", "--jobs", "1",
          "--max-seconds", "2", "--out", "{o}"], folder_places),
        (["puzzles", "export", "--store", "{s}", "--out", "{o}"], folder_places),
    ]
    args, places = rng.choice(writers)
    place = rng.choice(places)
    store = str(library_store(workdir))
    return Try([a.replace("{o}", place).replace("{s}", store) for a in args],
               "unwritable output", must_fail=True)


# ---------------------------------------------------------------- round trips

def roundtrip_try(rng: random.Random, workdir: Path, n: int, game_id: str) -> Try:
    """A position written, read again and written again is the same file with the same
    moves (the state of a random playout from a new game, or from a repository file;
    or a player's observation of it); `show` then reads the file toppi wrote."""
    from solver.registry import games

    game = games()[game_id].game()
    path = workdir / f"round{n}.json"
    seed = rng.randrange(10**6)
    steps = rng.randrange(0, 40)
    from_file = rng.random() < 0.4
    observe, seat = rng.random() < 0.3, rng.random()

    def oracle() -> str | None:
        rules = game.load_rules(None)
        state = _playout(game, rules, seed, steps, from_file)
        if observe and game.players(state) > 0:
            state = game.observation(state, int(seat * game.players(state)))
        data = game.write(state)
        text = json.dumps(data)
        again = game.read(rules, json.loads(text), "round trip")
        if game.write(again) != data:
            return f"{game_id}: a position written and read again is another position"
        if (game.current_player(again) != game.current_player(state)
                or game.is_terminal(again) != game.is_terminal(state)
                or _moves(game, again) != _moves(game, state)):
            return f"{game_id}: a position read again has other moves"
        path.write_text(text)
        return None

    return Try([game_id, "show", str(path), "--json"], "position round trip",
               oracle=oracle)


def _moves(game: Any, state: Any) -> str:
    """The legal moves as text, or the one line saying why they cannot be listed (a
    hand the observer cannot see)."""
    from solver.errors import BadInput

    try:
        return repr(game.legal_actions(state))
    except BadInput as exc:
        return f"BadInput: {exc}"


def _playout(game: Any, rules: Any, seed: int, steps: int, from_file: bool) -> Any:
    """A state `steps` random actions (chance included) into a new game or into the
    game's repository position."""
    from solver.game import TERMINAL

    rng = random.Random(seed)
    if from_file:
        state = game.read(rules, json.loads((ROOT / POSITIONS[game.id]).read_text()),
                          "position")
    else:
        setups = game.setups(rules)
        deal, _ = game.streams(seed)
        state = game.new_game(rules, setups[seed % len(setups)], deal)
    for _ in range(steps):
        if game.current_player(state) == TERMINAL:
            break
        legal = game.legal_actions(state)
        if not legal:
            break
        state = game.apply_action(state, rng.choice(legal))
    return state


# ---------------------------------------------------------------- every verb

REQUIRED = {"within": "2", "rolls_text": "6,4,2"}


def every_verb_try(rng: random.Random, workdir: Path, n: int, game_id: str,
                   write_damaged: Callable[[random.Random, Path, Path], None]) -> Try:
    """Any verb of the game (from its declarations, so none is left out), its FILE a
    damaged repository file or a special file, or (a verb that reads no file) a special
    file as its --rules; its required options given."""
    from solver.registry import games

    entry = games()[game_id]
    name, verb = rng.choice(sorted(entry.verbs().items()))
    args = [game_id, name]
    special = special_files(workdir)
    bad = special[rng.choice([s for s in SPECIAL if s != "empty"])]
    must_fail = True
    if verb.reads == "nothing" or name == "play":
        if verb.reads == "nothing":
            args += ["--rules", str(bad)]
        else:  # `play` reads the terminal: only a file it must refuse
            args.append(str(bad))
    elif rng.random() < 0.5:
        args.append(str(bad))
    else:
        puzzles = verb.reads in ("puzzle", "puzzles")
        source = ROOT / (LIBRARY_PUZZLES[game_id] if puzzles else POSITIONS[game_id])
        path = workdir / f"verb{n}.json"
        write_damaged(rng, path, source)
        args.append(str(path))
        must_fail = False
    for p in verb.params:
        if p.required:
            if p.kind == "out":
                args += [p.spellings[0], str(workdir / f"o{n}.{'svg' if 'svg' in p.spellings[0] else 'json'}")]
            else:
                args += [p.spellings[0], REQUIRED[p.name]]
    return Try(args, "every verb", must_fail=must_fail)
