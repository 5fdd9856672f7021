"""JSON Schemas made from the declarations: each verb's answer (the whole `--json`
document, from its answer dataclasses) and each verb's parameters (a request's form).

The types are turned into JSON Schema by msgspec (`msgspec.json.schema_components`);
this module only adds what our documents promise beyond the types: every field of an
answer dataclass is in its JSON (so all are required), no other key is (so
`additionalProperties` is false), and fields kept for pictures (`json_skip`) are not.

A verb's `answer` names one dataclass, or several parts whose fields make one document
(`show`: the game's part and the fields every `show` has); a part written `?module:Type`
adds fields that may be absent (a game's notes in `moves`). An answer whose class names
a `json_root` field is that field's value (a document that is a list).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator
from typing import Any

from solver.params import Param
from solver.verbs import Verb, resolve

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _dataclasses(root: Any, seen: dict[str, type]) -> None:
    """Every dataclass reachable from `root`'s field types, by name."""
    if dataclasses.is_dataclass(root) and isinstance(root, type):
        if seen.get(root.__name__) is root:
            return
        seen[root.__name__] = root
        for hint in typing.get_type_hints(root).values():
            _dataclasses(hint, seen)
    for arg in typing.get_args(root):
        _dataclasses(arg, seen)


def _skipped(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls) if f.metadata.get("json_skip")}


def _tighten(definition: dict[str, Any], cls: type | None) -> dict[str, Any]:
    """A dataclass's schema as our JSON has it: every field there, nothing else."""
    if cls is None or definition.get("type") != "object":
        return definition
    skip = _skipped(cls)
    properties = {k: v for k, v in definition.get("properties", {}).items() if k not in skip}
    for value in properties.values():
        value.pop("default", None)  # a default says nothing of a document: all are there
    out = {**definition, "properties": properties, "required": list(properties),
           "additionalProperties": False}
    if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
        out["description"] = " ".join(cls.__doc__.split())
    return out


def _parts(verb: Verb) -> Iterator[tuple[type, bool]]:
    """The answer's parts: (dataclass, whether its fields are always there)."""
    refs = verb.answer if isinstance(verb.answer, tuple) else (verb.answer,)
    for ref in refs:
        if ref is not None:
            yield resolve(ref.lstrip("?")), not ref.startswith("?")


def answer_schema(game: str, verb: Verb) -> dict[str, Any] | None:
    """The JSON Schema of a verb's `--json` document (None: the verb has none)."""
    import msgspec

    parts = list(_parts(verb))
    if not parts or not verb.json:
        return None
    classes: dict[str, type] = {}
    for cls, _ in parts:
        _dataclasses(cls, classes)
    tops, components = msgspec.json.schema_components([cls for cls, _ in parts],
                                                      ref_template="#/$defs/{name}")
    defs = {name: _tighten(body, classes.get(name)) for name, body in components.items()}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for (_, always), top in zip(parts, tops, strict=True):
        body = defs.pop(top["$ref"].rsplit("/", 1)[1])
        properties.update(body["properties"])
        if always:
            required += [k for k in body["required"] if k not in required]
    document = {"type": "object", "properties": properties, "required": required,
                "additionalProperties": False}
    root = getattr(parts[0][0], "json_root", None)
    if root is not None:  # the document is this one field's value (a list)
        document = properties[root]
    return {"$schema": DIALECT, "$id": f"/api/schema/{game}.{verb.name}",
            "title": f"{game}.{verb.name}",
            "description": f"`toppi {game} {verb.name} --json`: {verb.help}",
            **document, **({"$defs": defs} if defs else {})}


def params_schema(params: tuple[Param, ...]) -> dict[str, Any]:
    """The schema of a request's parameters (those the web may give)."""
    offered = [p for p in params if p.web and p.exposed]
    return {"type": "object",
            "properties": {p.option: p.schema() for p in offered},
            "required": [p.option for p in offered if p.required],
            "additionalProperties": False}
