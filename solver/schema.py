"""JSON Schemas made from the declarations: each verb's answer (the whole `--json`
document, from its answer dataclasses) and each verb's parameters (a request's form).

The types are turned into JSON Schema by msgspec (`msgspec.json.schema_components`);
this module only adds what our documents promise beyond the types: every field of an
answer dataclass is in its JSON (so all are required), no other key is (so
`additionalProperties` is false), and fields kept for pictures (`json_skip`) are not.

A verb's `answer` names one dataclass, or several parts whose fields make one document
(`show`: the game's part and the fields every `show` has); a part written `?module:Type`
adds fields that may be absent (a game's notes in `moves`). An answer written
`module:A|module:B` is one of several documents (a verb whose options change what it
answers), and one that names a type such as `list[Entry]` is that JSON value.
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


def _parts(verb: Verb) -> Iterator[tuple[list[Any], bool]]:
    """The answer's parts: (its types, whether its fields are always there). A part
    written `module:A|module:B` is one of several documents (its types A and B)."""
    refs = verb.answer if isinstance(verb.answer, tuple) else (verb.answer,)
    for ref in refs:
        if ref is not None:
            yield ([resolve(r.strip()) for r in ref.lstrip("?").split("|")],
                   not ref.startswith("?"))


def _reachable(document: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The definitions the document refers to, directly or through others (not those
    only fields kept out of the JSON named)."""
    used: set[str] = set()
    todo: list[Any] = [document]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            name = ref.rsplit("/", 1)[1] if isinstance(ref, str) else None
            if name in defs and name not in used:
                used.add(name)
                todo.append(defs[name])
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return {name: body for name, body in defs.items() if name in used}


def answer_schema(game: str, verb: Verb) -> dict[str, Any] | None:
    """The JSON Schema of a verb's `--json` document (None: the verb has none)."""
    import msgspec

    parts = list(_parts(verb))
    if not parts or not verb.json:
        return None
    types = [t for ts, _ in parts for t in ts]
    classes: dict[str, type] = {}
    for t in types:
        _dataclasses(t, classes)
    tops, components = msgspec.json.schema_components(types, ref_template="#/$defs/{name}")
    defs = {name: _tighten(body, classes.get(name)) for name, body in components.items()}
    if len(parts) == 1 and (len(types) > 1 or "$ref" not in tops[0]):
        # one of several documents (A|B), or a document that is no object (a list)
        document = tops[0] if len(tops) == 1 else {"anyOf": list(tops)}
    else:
        properties: dict[str, Any] = {}
        required: list[str] = []
        for (_, always), top in zip(parts, tops, strict=True):
            body = defs.pop(top["$ref"].rsplit("/", 1)[1])
            properties.update(body["properties"])
            if always:
                required += [k for k in body["required"] if k not in required]
        document = {"type": "object", "properties": properties, "required": required,
                    "additionalProperties": False}
    defs = _reachable(document, defs)
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
