"""One JSON Schema per answer of `toppi serve`'s JSON API, served at /api/schema/NAME.

A verb's answer (`<game>.<verb>`) is the CLI's `--json` document: its schema is made
from the verb's answer types (solver/schema.py), the whole document. The API's own
answers (the index, a job, apply, the editor, the puzzles) are written here. The tests
hold every schema against real answers (with the `jsonschema` library).
"""

from __future__ import annotations

from typing import Any

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_TYPES = {"s": "string", "i": "integer", "f": "number", "b": "boolean", "a": "array",
          "o": "object", "n": "null"}


def _obj(properties: dict[str, Any], required: list[str] | None = None,
         extra: bool | dict[str, Any] = False, **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties,
            "required": list(properties) if required is None else required,
            "additionalProperties": extra, **more}


def _t(*types: str) -> dict[str, Any]:
    names = [_TYPES.get(t, t) for t in types]
    return {"type": names[0] if len(names) == 1 else names}


# ---------------------------------------------------------------- the API's own answers

_OPTION = _obj({"name": _t("s"), "flag": _t("b"), "multiple": _t("b"),
                "default": {}, "help": _t("s"),
                "choices": {"type": "array", "items": _t("s")}},
               required=["name", "flag", "multiple", "default", "help"])
_VERB = _obj({"options": {"type": "array", "items": _OPTION}, "takes_file": _t("b"),
              "runs": {"enum": ["thread", "pool"]}}, required=["options", "takes_file"])
_SOLVER = _obj({"text": _t("s"), "stage": _t("s"), "best": _t("f"), "bound": _t("f"),
                "done": _t("i"), "total": _t("i", "n"), "unit": _t("s")}, required=[])
_JOB = {"job": _t("s"),
        "status": {"enum": ["queued", "running", "done", "error", "timeout", "cancelled"]},
        "command": _t("s"), "elapsed": {"type": "number", "minimum": 0},
        "time_limit": _t("f"), "progress": _t("f", "n"),
        "solver": {"anyOf": [_SOLVER, _t("n")]}, "exit_code": _t("i"), "error": _t("s")}
_LISTED = _obj({"name": _t("s"), "difficulty": _t("s"), "score": _t("f", "n"),
                "seed": _t("i", "n"), "created": _t("s")},
               required=["name", "difficulty", "score"])
_PIECE = _obj({"id": _t("s"), "label": _t("s"), "colour": _t("s"), "colour2": _t("s")},
              required=["id", "label"])
_FIELD = _obj({"key": _t("s"), "label": _t("s"),
               "kind": {"enum": ["hands", "list", "dice", "move", "turn", "one"]},
               "pieces": _t("s"), "size": _t("i"), "unknown": _t("s"), "of": _t("s"),
               "first": _t("i"), "parts": _obj({}, required=[], extra=_t("s")),
               "empty": _t("n")}, required=["key", "label", "kind"])

_STRINGS = {"type": "array", "items": _t("s")}

API = {
    "error": _obj({"error": _t("s"), "job": _t("s"),
                   "candidates": {"type": "array", "items": _t("s")}}, required=["error"],
                  description="Every answer other than 2xx: the CLI's one error line "
                              "(`toppi: error: ...`); 409 on apply adds `candidates`."),
    "index": _obj({"games": _obj({}, required=[], extra=_obj(
        {"verbs": _obj({}, required=[], extra=_VERB), "hint": _t("s")})),
        "limits": _obj({"body_bytes": _t("i"), "default_time_limit": _t("f"),
                        "max_time_limit": _t("f"), "pool_size": _t("i")}),
        "store": _t("b")}, description="GET /api: the games, verbs, options, limits."),
    "game": _obj({"game": _t("s"), "hint": _t("s"),
                  "verbs": _obj({}, required=[], extra=_VERB)},
                 description="GET /api/<game>: the game's verbs and options."),
    "job": _obj({**_JOB, "http_status": _t("i"), "result": _t("o", "a")},
                required=["job", "status", "command", "elapsed", "time_limit", "progress",
                          "solver"],
                description="A job: HTTP 202 of `?async=1`, GET and DELETE "
                            "/api/jobs/<id>; once ended with `http_status` and `result` "
                            "(the answer's document, or an `error`)."),
    "apply": _obj({"game": _t("s"), "move": _obj({"text": _t("s")}, extra=True),
                   "position": _t("o"), "to_move": _t("i", "s", "n"), "status": _t("s")},
                  description="POST /api/<game>/apply?move=M: the move and the new "
                              "position file."),
    "editor": _obj({"game": _t("s"), "fields": {"type": "array", "items": _FIELD},
                    "pieces": _obj({}, required=[], extra={"type": "array",
                                                             "items": _PIECE})},
                   description="GET /api/<game>/editor: the position's fields edited with "
                               "pickers, and their pieces."),
    "puzzles": _obj({"game": _t("s"), "source": {"enum": ["library", "store"]},
                     "puzzles": {"type": "array", "items": _LISTED}},
                    description="GET /api/<game>/library and /api/<game>/store."),
    "puzzle": _obj({"game": _t("s"), "source": {"enum": ["library", "store"]},
                    "name": _t("s"), "puzzle": _t("o"), "svg": _t("s"),
                    "vocabulary": _obj({"form": _t("s"), "groups": _t("o"),
                                        "order": _t("a"), "rolls": _t("a"),
                                        "picture": _obj({}, required=[], extra=_t("s"))},
                                       required=["form", "groups", "picture"]),
                    "steps": {"type": "integer", "minimum": 0}},
                   description="GET /api/<game>/<source>/<name>: the puzzle without its "
                               "solution, its picture, the words to write steps."),
    "check": _obj({"solved": _t("b"), "steps": _t("i"), "needed": _t("i"),
                   "message": _t("s")},
                  description="POST /api/<game>/<source>/<name>/check."),
    "steps": _obj({"game": _t("s"), "source": {"enum": ["library", "store"]},
                   "name": _t("s"), "svg": _t("s"), "steps": {"type": "integer", "minimum": 0},
                   "open": _t("b"), "prompt": _t("s")},
                  description="POST /api/<game>/<source>/<name>/steps: the puzzle drawn with "
                              "the player's steps made; a step the rules refuse is an error."),
    "reveal": _obj({"game": _t("s"), "source": {"enum": ["library", "store"]},
                    "name": _t("s"), "solution": _t("a"), "svg": _t("s")},
                   description="GET /api/<game>/<source>/<name>/reveal."),
    "explain": _obj({"text": _t("s"),
                     "certainty": {"enum": ["proven", "estimate", "best found", "none"]},
                     "moves": _STRINGS, "marks": _STRINGS, "plan": _STRINGS},
                    description="POST /api/<game>/explain: an answer in the game's words, "
                                "the moves it names, the picture's ids to mark, a plan."),
    "form": _obj({"game": _t("s"), "verbs": _obj({}, required=[], extra=_obj(
        {"offered": _t("b"), "label": _t("s"),
         "values": _obj({}, required=[], extra=_t("s", "b"))}))},
                 description="POST /api/<game>/form: every verb's button for the position: "
                             "offered, its label, the option values it is asked with."),
    "schemas": _obj({"schemas": _obj({}, required=[], extra=_t("s"))},
                    description="GET /api/schema: every schema's name and what it "
                                "describes."),
}


def _verbs() -> dict[str, tuple[Any, Any]]:
    """`<game>.<verb>` -> (game, verb) of every verb the web app runs."""
    from solver.registry import web_games
    from solver.serve.api import offered

    return {f"{g}.{name}": (entry, verb) for g, entry in web_games().items()
            for name, verb in offered(entry).items() if verb.json}


def names() -> list[str]:
    return [*API, *_verbs()]


def schema(name: str) -> dict[str, Any] | None:
    """The schema called `name` (an API answer, or `<game>.<verb>`), or None."""
    from solver.schema import answer_schema

    if name in API:
        return {"$schema": DIALECT, "$id": f"/api/schema/{name}", "title": name,
                **API[name]}
    found = _verbs().get(name)
    if found is None:
        return None
    entry, verb = found
    return answer_schema(entry.id, verb)


def listing() -> dict[str, Any]:
    """GET /api/schema: name -> description."""
    return {"schemas": {n: (schema(n) or {}).get("description", "") for n in names()}}
