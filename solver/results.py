"""Plain result dataclasses rendered as JSON."""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any


def to_jsonable(obj: Any) -> Any:
    """Convert dataclasses, enums, tuples and dicts recursively into JSON values. A
    dataclass with a `json_document()` method is what that method returns (an answer
    whose document lifts some fields to the top, such as `moves`' notes)."""
    document = getattr(obj, "json_document", None)
    if callable(document) and not isinstance(obj, type):
        return to_jsonable(document())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)
                if not f.metadata.get("json_skip")}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, float) and obj.is_integer():
        return int(obj)
    return obj


def dumps(obj: Any) -> str:
    """One JSON document, stable key order as declared by the dataclasses."""
    return json.dumps(to_jsonable(obj), indent=2, ensure_ascii=False)
