"""Values files read back for the rules they were learned on (`LineValues.save` writes
them), and the built-in board's values of each variant."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from models.take_it_higher.learned.tables import KIND, VERSION, LineValues
from models.take_it_higher.rules import Rules
from models.take_it_higher.variants import Variant
from solver.errors import BadInput


def load_values(path: Path, rules: Rules, variant: Variant) -> LineValues:
    """Tables from a file written by `learn`; BadInput when they are of other rules."""
    from solver.store import data_digest

    try:
        raw = path.read_bytes()
        data = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    except (OSError, ValueError, EOFError) as exc:
        raise BadInput(f"{path}: not a values file ({exc})") from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise BadInput(f"{path}: not a values file written by 'toppi take-it-higher learn'")
    if data.get("version") != VERSION:
        raise BadInput(f"{path}: values of another version ({data.get('version')}); "
                       "learn them again")
    if data.get("rules_digest") != data_digest(rules):
        raise BadInput(f"{path}: values learned for other rules")
    if bool(data.get("gold_silver")) != variant.gold_silver:
        raise BadInput(f"{path}: values learned {'with' if data.get('gold_silver') else 'without'}"
                       " the gold/silver rows")
    ships = data.get("ships")
    if ships is not None and ships != variant.ships:
        raise BadInput(f"{path}: values learned for the {ships} spaceship rules, not for "
                       f"{variant.ships or 'a game without spaceships'}")
    weights = {_key(k): float(v) for k, v in data["weights"]}
    return LineValues(rules, variant.gold_silver, weights, int(data["games"]),
                      int(data["seed"]), ships, bool(data.get("chances", False)),
                      bool(data.get("fits", False)))


def _key(k: list) -> tuple:
    """A table entry read back from JSON (its lists tuples again)."""
    return tuple(tuple(x) if isinstance(x, list) else x for x in k)


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
    return hashlib.sha256(file.read_bytes()).hexdigest()[:16]


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
