"""One JSON Schema per answer of `toppi serve`'s JSON API, served at /api/schema/NAME.

The API's own answers (the index, a job, apply, the editor, the puzzles) are described
in full. A question's answer is the CLI's `--json` document (`<game>.<verb>`): its
schema lists the document's fields with their JSON types, all required, and lets the
CLI add fields (`additionalProperties` is true there: a new field in a command's
document is not a break of the API); what a field means is in the game's docs.

`validate` checks a document against the subset of JSON Schema (2020-12) these schemas
use: type (one or a list), properties, required, additionalProperties (false or a
schema), items, enum, minimum. The tests hold every schema against real answers.
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


def _fields(spec: str) -> dict[str, Any]:
    """`name:type name:type|type ...` (types: s i f b a o n) as a schema's properties."""
    out = {}
    for item in spec.split():
        name, _, types = item.partition(":")
        out[name] = _t(*types.split("|"))
    return out


# ---------------------------------------------------------------- the CLI's documents

# the fields every `moves` and `show` document has (solver/game_cli.py)
_MOVES = ("game:s to_move:i|s|n chance:s|n count:i distinct_results:i moves:a "
          "chance_outcomes:a unknown:a knows:a")
_SHOW = "game:s to_move:i|s|n status:s unknown:a knows:a"
_SOLVE = ("file:s status:s solutions:a stated_solution_confirmed:b|n seconds:f knows:a "
          "unknown:a all_seeing:b")
_SEEN = "knows:a unknown:a"  # what the answer may know (solver/game_cli.py knowledge)

VERB_DOCS = {
    "take-it-higher": {
        "show": f"{_SHOW} placements:a board:o ships_on:o empty_cells:a called:s|n "
                "variant:s",
        "moves": _MOVES,
        "score": f"variant:s complete:b take_it_higher_bonus:i|n ring_over:i|n studs:a "
                 f"colours:a total:i rows:a launches:a {_SEEN} all_seeing:b",
        "hint": f"tile:s options:a samples:i|n seconds:f exact:b sampled:b unseen:i "
                f"lead:f|n lead_stderr:f|n {_SEEN} all_seeing:b",
        "max": f"variant:s backend:s status:s score:i|n bound:i|n seconds:f draw:a|n "
               f"placements:a|n board:o|n sheet:o|n cases:a|n {_SEEN} all_seeing:b "
               "reading:s",
        "solve": _SOLVE,
    },
    "hoch-hinaus": {
        "show": f"{_SHOW} side:s variant:s spaces:a pieces:a open_tasks:a draw_pile:i "
                "bonus_fillers:a hands:a on_turn:i reserve:i reserve_known:b completed:i "
                "spare_fillers:i",
        "moves": _MOVES,
        "achievable": f"{_SEEN} answer:s proven:b within:i tiles:s backend:s tasks:a "
                      "witness:a|n core:a|n note:s|n seconds:f",
        "reachable": f"open_hands:b {_SEEN} method:s answer:s proven:b line:a|n nodes:i|n "
                     "rate:o|n policy:s|n seconds:f note:s|n stopped:b",
        "hint": f"open_hands:b {_SEEN} player:i options:a legal:i checked:i horizon:i "
                "seconds:f note:s|n samples:i|n seed:i|n",
        "solve": _SOLVE,
    },
    "tippi-toppi": {
        "show": f"{_SHOW} state:o tops:a draw_pile_cards:i draw_pile_known:b tasks_left:i "
                "legal_plays:i",
        "moves": _MOVES,
        "achievable": f"answer:s proven:b targets:a within:i cards:s backend:s plays:a|n "
                      f"fulfilled_after:a|n core:a|n seconds:f {_SEEN}",
        "reachable": f"method:s answer:s proven:b line:a|n nodes:i|n rate:o|n samples:i|n "
                     f"seconds:f stopped:b open_hands:b {_SEEN}",
        "hint": f"player:i options:a seconds:f open_hands:b method:s samples:i|n {_SEEN}",
        "solve": _SOLVE,
    },
    "topito": {
        "show": f"{_SHOW} podiums:o out_of_play:a last_move:s|n forbidden:s|n hands:a "
                "turn:i met_now:a played:a deck:i deck_in_order:b unseen:i moves_made:i "
                "winners:a end:s|o|n deck_cards:a|n",
        "moves": f"{_MOVES} forbidden:s|n",
        "plan": f"cards:a mode:s backend:s status:s moves:i|n plan:a|n met_at_end:a|n "
                f"max_moves:i proof:s|n seconds:f start:o proved_by:s|n {_SEEN}",
        "race": "seat:i|n cards_to_win:i status:s fewest:i|n line:a|n winners:a can_win:a "
                "played:a to_move:i max_moves:i proof:s|n lower_bound:i|n backend:s "
                f"nodes:i|n seconds:f within:i|n reachable:b|n start:o {_SEEN} "
                "all_seeing:b reading:s",
        "reachable": f"cards:a mode:s within:i reachable:b|n status:s moves:i|n plan:a|n "
                     f"proof:s|n backend:s seconds:f {_SEEN}",
        "hint": f"hand:a met_now:a considered:a distances_now:o best:o|n moves:a "
                f"max_moves:i backend:s seconds:f view:s chances:o|n race:a|n {_SEEN}",
        "solve": _SOLVE,
    },
    "hippo": {
        "show": f"{_SHOW} state:o stock_sizes:o bonus_roll:b roll:a|n",
        "moves": _MOVES,
        "best": f"player:s roll:a bonus_roll:b best:a expected_shed:f exposure:f proven:b "
                f"method:s options:a seconds:f samples:i|n chance:s|n {_SEEN} all_seeing:b",
        "plan": f"player:s rolls:i emptied:b turns:i|n chips_left:i chips_shed:i status:s "
                f"proven:b objective:f|n bound:f|n seconds:f steps:a {_SEEN} all_seeing:b",
        "finish": f"player:s stock:i bonus_roll:b turns:i chance:f|n exact:s|n "
                  f"best_case_turns:i|n by_turns:a proven:b method:s states:i|n seconds:f "
                  f"dice:s|n {_SEEN} all_seeing:b",
        "solve": _SOLVE,
    },
}


def _verb_schema(game: str, verb: str) -> dict[str, Any]:
    return _obj(_fields(VERB_DOCS[game][verb]), extra=True,
                description=f"`toppi {game} {verb} FILE --json`: the CLI's document "
                            f"(POST /api/{game}/{verb}); see the game's docs.")


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
    "reveal": _obj({"game": _t("s"), "source": {"enum": ["library", "store"]},
                    "name": _t("s"), "solution": _t("a"), "svg": _t("s")},
                   description="GET /api/<game>/<source>/<name>/reveal."),
    "schemas": _obj({"schemas": _obj({}, required=[], extra=_t("s"))},
                    description="GET /api/schema: every schema's name and what it "
                                "describes."),
}


def names() -> list[str]:
    return [*API, *(f"{g}.{v}" for g, verbs in VERB_DOCS.items() for v in verbs)]


def schema(name: str) -> dict[str, Any] | None:
    """The schema called `name` (an API answer, or `<game>.<verb>`), or None."""
    if name in API:
        body = API[name]
    else:
        game, _, verb = name.partition(".")
        if verb not in VERB_DOCS.get(game, {}):
            return None
        body = _verb_schema(game, verb)
    return {"$schema": DIALECT, "$id": f"/api/schema/{name}", "title": name, **body}


def listing() -> dict[str, Any]:
    """GET /api/schema: name -> description."""
    return {"schemas": {n: (schema(n) or {}).get("description", "") for n in names()}}


# ---------------------------------------------------------------- validation

_PY = {"string": str, "boolean": bool, "array": list, "object": dict, "null": type(None)}


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _PY[kind])


def validate(doc: Any, node: dict[str, Any], where: str = "$") -> list[str]:
    """The places where `doc` breaks the schema `node` (empty: it is valid)."""
    problems: list[str] = []
    if "anyOf" in node:
        if all(validate(doc, n, where) for n in node["anyOf"]):
            problems.append(f"{where}: matches none of anyOf")
        return problems
    if "enum" in node and doc not in node["enum"]:
        return [f"{where}: {doc!r} not one of {node['enum']}"]
    if "type" in node:
        kinds = node["type"] if isinstance(node["type"], list) else [node["type"]]
        if not any(_is(doc, k) for k in kinds):
            return [f"{where}: {type(doc).__name__} is not {'/'.join(kinds)}"]
    if "minimum" in node and _is(doc, "number") and doc < node["minimum"]:
        problems.append(f"{where}: {doc} below {node['minimum']}")
    if isinstance(doc, dict):
        props = node.get("properties", {})
        for key in node.get("required", []):
            if key not in doc:
                problems.append(f"{where}: no '{key}'")
        extra = node.get("additionalProperties", True)
        for key, value in doc.items():
            if key in props:
                problems += validate(value, props[key], f"{where}.{key}")
            elif extra is False:
                problems.append(f"{where}: unexpected '{key}'")
            elif isinstance(extra, dict):
                problems += validate(value, extra, f"{where}.{key}")
    if isinstance(doc, list) and "items" in node:
        for i, value in enumerate(doc):
            problems += validate(value, node["items"], f"{where}[{i}]")
    return problems
