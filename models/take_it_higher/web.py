"""What the web page needs of Take it Higher! (solver/web.py): the editor sets the
called tile; a puzzle's step is a tile on a cell. The page starts from a library
puzzle's board with its first tile called (the example files are full boards)."""

from __future__ import annotations

import json
from typing import Any

from models.take_it_higher import page
from solver.web import (
    CLEAR_BOARD,
    NEW_GAME,
    Edited,
    GameWeb,
    default_rules,
    guarded,
    piece,
    rules_of,
    settled,
    setup_actions,
    started,
    tool,
)


def editor() -> dict[str, Any]:
    from models.take_it_higher.game import GAME

    rules = default_rules(GAME)
    return {"fields": [{"key": "called", "label": "Tile called", "kind": "one",
                        "pieces": "tiles", "empty": None}],
            "pieces": {"tiles": [piece(t.id, tile_label(rules, t)) for t in rules.tiles]}}


def tile_label(rules: Any, tile: Any) -> str:
    """A tile as the player sees it: its stripes' values, and its stud (`GA 8-7-5-6
    gold`), not only its id."""
    values = "-".join(str(rules.colour_values[s]) for s in tile.stripes)
    return f"{tile.id} {values}" + (f" {tile.stud}" if tile.stud else "")


def vocabulary(data: dict[str, Any]) -> dict[str, Any]:
    from models.take_it_higher.game import GAME

    used = {p.split("@")[1] for p in data.get("board", []) if "@" in p}
    cells = [c.id for c in default_rules(GAME).cells if c.id not in used]
    return {"form": "tile@cell", "order": list(data.get("to_come", [])),
            "groups": {"cell": cells}}


def first_position(text: str) -> str:
    """A library puzzle's board with its first tile called."""
    data = json.loads(text)
    return json.dumps({"game": "take-it-higher", "variant": data.get("variant", "basic"),
                       "placements": data.get("board", []),
                       "called": (data.get("to_come") or [None])[0]}, indent=1)


def palette(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every tile, calling the tile in hand, and the set-up actions."""
    from models.take_it_higher.game import GAME

    rules = rules_of(GAME)
    tiles = [tool(t.id, tile_label(rules, t)) for t in rules.tiles]
    return [*tiles, tool("call", "call selected tile", action=True), *setup_actions()]


def _cell_of(placement: Any) -> str:
    text = placement.get("cell") if isinstance(placement, dict) else placement
    parts = str(text).split("+")[0].split("@")
    return parts[1] if len(parts) > 1 else ""


def _tile_of(placement: Any) -> str:
    text = placement.get("tile") if isinstance(placement, dict) else placement
    return str(text).split("+")[0].split("@")[0]


def _to_come(data: dict[str, Any]) -> None:
    """The tiles still to come follow the board: as many as its empty cells leave to be
    called, the known ones that are still neither placed nor called."""
    from models.take_it_higher.game import GAME

    if data.get("to_come") is None:
        return
    placements = data.get("placements") or []
    left = rules_of(GAME).board_size - len(placements) - (data.get("called") is not None)
    if not isinstance(data["to_come"], list):
        data["to_come"] = max(left, 0)
        return
    gone = {_tile_of(p) for p in placements} | {data.get("called")}
    known = [t for t in data["to_come"] if t != "?" and t not in gone]
    data["to_come"] = (known + ["?"] * left)[:max(left, 0)]


def _action(data: dict[str, Any], name: str, chosen: str | None) -> Edited:
    from models.take_it_higher.game import GAME

    if name == NEW_GAME:
        variant = data.get("variant") if isinstance(data.get("variant"), str) else "basic"
        return settled(GAME, started(GAME, {"variant": variant}))
    if name == CLEAR_BOARD:
        data["placements"] = []
        data.pop("to_come", None)
        return settled(GAME, data)
    if name == "call":
        if not chosen:
            return Edited(note="choose a tile first")
        data["called"] = chosen
        _to_come(data)
        return settled(GAME, data, f"{chosen} is called")
    return Edited(note=f"'{name}' is no action of this editor")


@guarded
def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A click on a cell takes its tile away, or lays the tile in hand there (off the
    cell it lay on; the called tile laid is no longer called); the action `call` makes
    the tile in hand the called one; the others set the position up."""
    from models.take_it_higher.game import GAME

    kind, ident = clicks[-1]
    if kind == "action":
        return _action(data, ident, chosen)
    if kind != "cell":
        return Edited(note="click a cell")
    placements = data.get("placements")
    if not isinstance(placements, list):
        placements = data["placements"] = []
    at = next((i for i, p in enumerate(placements) if _cell_of(p) == ident), None)
    if at is not None:
        tile = _tile_of(placements.pop(at))
        note = f"{tile} off {ident}"
    elif chosen:
        was = next((i for i, p in enumerate(placements) if _tile_of(p) == chosen), None)
        if was is not None:
            placements.pop(was)
        if data.get("called") == chosen:
            data["called"] = None
        placements.append(f"{chosen}@{ident}")
        note = ""
    else:
        return Edited(note="choose a tile, then click a cell")
    _to_come(data)
    return settled(GAME, data, note)


WEB = GameWeb(hint="hint", example="library/take-it-higher-easy-2026-1.json",
              editor=editor, vocabulary=vocabulary, first_position=first_position,
              palette=palette, edit=edit,
              picture_words={"cell": r"^([a-z]\d+)$"},
              explain=page.explain, form=page.form)
