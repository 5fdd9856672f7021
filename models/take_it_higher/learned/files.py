"""Values files read back for the rules they were learned on (`LineValues.save` writes
them), and the built-in board's values of each variant."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from models.take_it_higher.learned.tables import KIND, VERSION, LineValues
from models.take_it_higher.rules import Rules
from models.take_it_higher.variants import Variant
from solver.errors import BadInput
from solver.io import expect, field, load_json, read_bytes

#: What a values file may hold: the first item of each table entry (features.py), the
#: largest weight and the most entries (the shipped files: 42.5, and 26,000 entries).
TAGS = frozenset("pecsLSRFAD")
MAX_WEIGHT = 1e6
MAX_ENTRIES = 2_000_000
MAX_GAMES = 10**12


def load_values(path: Path, rules: Rules, variant: Variant) -> LineValues:
    """Tables from a file written by `learn`; BadInput when they are of other rules."""
    from solver.store import data_digest

    where = f"values file {path}"
    data = load_json(path, "values file", gzip=True)
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise BadInput(f"{where}: not a values file written by 'toppi take-it-higher learn'")
    if data.get("version") != VERSION:
        shown = str(data.get("version"))[:20]
        raise BadInput(f"{where}: values of another version ({shown}); learn them again")
    if data.get("rules_digest") != data_digest(rules):
        raise BadInput(f"{where}: values learned for other rules")
    gold_silver = field(data, "gold_silver", bool, where, False)
    if gold_silver != variant.gold_silver:
        raise BadInput(f"{where}: values learned {'with' if gold_silver else 'without'}"
                       " the gold/silver rows")
    ships = field(data, "ships", (str, type(None)), where, None)
    if ships is not None and ships != variant.ships:
        raise BadInput(f"{where}: values learned for the {ships[:20]} spaceship rules, not "
                       f"for {variant.ships or 'a game without spaceships'}")
    games = _count(data, "games", 0, MAX_GAMES, where)
    seed = _count(data, "seed", -(2**63), 2**63 - 1, where)
    weights = read_weights(field(data, "weights", list, where), f"{where}.weights")
    return LineValues(rules, variant.gold_silver, weights, games, seed, ships,
                      field(data, "chances", bool, where, False),
                      field(data, "fits", bool, where, False),
                      field(data, "demand", bool, where, False))


def _count(data: dict, key: str, low: int, high: int, where: str) -> int:
    value = field(data, key, int, where)
    if not low <= value <= high:
        raise BadInput(f"{where}.{key}: {value} is not in the range {low}..{high}")
    return value


def read_weights(entries: list, where: str) -> dict[tuple, float]:
    """The table entries of a values file, checked: each [key, weight], the key a list
    of a tag (one letter of TAGS) and integers or lists of them, met once; the
    weight a finite number of at most MAX_WEIGHT."""
    if not entries:  # `learn` writes every entry it learned: a game teaches hundreds
        raise BadInput(f"{where}: no table entries")
    if len(entries) > MAX_ENTRIES:
        raise BadInput(f"{where}: {len(entries)} entries, more than {MAX_ENTRIES}")
    weights: dict[tuple, float] = {}
    for n, entry in enumerate(entries):
        at = f"{where}[{n}]"
        if not isinstance(entry, list) or len(entry) != 2:
            raise BadInput(f"{at}: expected [key, weight]")
        key = _key(expect(entry[0], list, f"{at}[0]"), f"{at}[0]")
        weight = expect(entry[1], (int, float), f"{at}[1]")
        if not math.isfinite(weight) or abs(weight) > MAX_WEIGHT:
            raise BadInput(f"{at}[1]: the weight {weight:g} is out of range "
                           f"(at most {MAX_WEIGHT:g} either way)")
        if key in weights:
            raise BadInput(f"{at}: the entry {list(entry[0])} is given twice")
        weights[key] = float(weight)
    return weights


def _key(k: list, where: str) -> tuple:
    """A table entry read back from JSON (its lists tuples again), checked."""
    if not k or not isinstance(k[0], str) or k[0] not in TAGS:
        raise BadInput(f"{where}: expected a table entry starting with one of "
                       f"{', '.join(sorted(TAGS))}")
    out: list[Any] = [k[0]]
    for i, x in enumerate(k[1:], 1):
        if isinstance(x, list):
            if not all(isinstance(y, int) for y in x):  # bools too (a ship launched)
                raise BadInput(f"{where}[{i}]: expected a list of integers or booleans")
            out.append(tuple(x))
        else:
            out.append(expect(x, int, f"{where}[{i}]"))
    return tuple(out)


def builtin_values_path(variant: Variant) -> Path:
    """The built-in board's values for the variant: its own when learned with its
    spaceship rules, else those of its rows."""
    data = Path(__file__).parent.parent / "data"
    own = data / f"learned-{variant.name}.json.gz"
    if own.exists():
        return own
    return data / f"learned-{'gold-silver' if variant.gold_silver else 'basic'}.json.gz"


def values_digest(rules: Rules, variant: Variant, path: str | Path | None = None) -> str:
    """A digest of the values file a learned player plays `variant` from (simulate
    keeps it with its games)."""
    import hashlib

    values_for(rules, variant, path)  # BadInput for a bad file or other rules
    file = builtin_values_path(variant) if path is None else Path(path)
    return hashlib.sha256(read_bytes(file, "values file")).hexdigest()[:16]


# values by (file, rules object, rows): a decision neither reads a file nor digests
# the rules again (the rules object is kept, so its id stays its own)
_LOADED: dict[tuple[str | None, int, str], tuple[Rules, LineValues]] = {}


def has_builtin_values(rules: Rules) -> bool:
    """Whether `rules` are the built-in board's, for which values ship with toppi."""
    from models.take_it_higher.rules import load_rules
    from solver.store import data_digest

    if id(rules) not in _BUILTIN:
        _BUILTIN[id(rules)] = (rules, data_digest(rules) == data_digest(load_rules()))
    return _BUILTIN[id(rules)][1]


# whether a rules object is the built-in board's (the object kept, so its id stays its own)
_BUILTIN: dict[int, tuple[Rules, bool]] = {}


def values_for(rules: Rules, variant: Variant, path: str | Path | None = None) -> LineValues:
    """The learned values to play `rules` with: those of `path`, else the built-in
    board's (BadInput for another rules file without a values file)."""
    key = (None if path is None else str(path), id(rules), variant.name)
    if key in _LOADED:
        return _LOADED[key][1]
    if path is None:
        if not has_builtin_values(rules):
            raise BadInput("no learned values for these rules: learn them with 'toppi "
                           "take-it-higher learn --rules FILE --out VALUES' and pass "
                           "--values VALUES")
    file = builtin_values_path(variant) if path is None else Path(path)
    _LOADED[key] = (rules, load_values(file, rules, variant))
    return _LOADED[key][1]
