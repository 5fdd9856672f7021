"""What the web page needs of Take it Higher! (solver/web.py): the editor sets the
called tile; a puzzle's step is a tile on a cell. The page starts from a library
puzzle's board with its first tile called (the example files are full boards)."""

from __future__ import annotations

import json
from typing import Any

from solver.web import Edited, GameWeb, default_rules, piece, tool


def editor() -> dict[str, Any]:
    from models.take_it_higher.game import GAME

    rules = default_rules(GAME)
    return {"fields": [{"key": "called", "label": "Tile called", "kind": "one",
                        "pieces": "tiles", "empty": None}],
            "pieces": {"tiles": [piece(t.id) for t in rules.tiles]}}


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
    """Every tile, and calling the tile in hand."""
    from models.take_it_higher.game import GAME

    tiles = [tool(t.id) for t in default_rules(GAME).tiles]
    return [*tiles, tool("call", "call selected tile", action=True)]


def _cell_of(placement: Any) -> str:
    text = placement.get("cell") if isinstance(placement, dict) else placement
    parts = str(text).split("+")[0].split("@")
    return parts[1] if len(parts) > 1 else ""


def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A click on a cell takes its tile away, or lays the tile in hand there; the
    action `call` makes the tile in hand the called one."""
    kind, ident = clicks[-1]
    if kind == "action":
        if not chosen:
            return Edited(note="choose a tile first")
        data["called"] = chosen
        return Edited(position=data)
    placements = data.get("placements") or []
    at = next((i for i, p in enumerate(placements) if _cell_of(p) == ident), None)
    if at is not None:
        del placements[at]
    elif chosen:
        placements.append(f"{chosen}@{ident}")
    else:
        return Edited(note="choose a tile, then click a cell")
    data["placements"] = placements
    return Edited(position=data)


WEB = GameWeb(hint="hint", example="library/take-it-higher-easy-2026-1.json",
              editor=editor, vocabulary=vocabulary, first_position=first_position,
              palette=palette, edit=edit,
              picture_words={"cell": r"^([a-z]\d+)$"})
