"""What the web page needs of Hippo (solver/web.py): the Hint button asks `best`, the
editor sets the dice and who is to move, a puzzle's step is one roll's placements."""

from __future__ import annotations

from typing import Any

from solver.web import Edited, GameWeb, piece, tool


def editor() -> dict[str, Any]:
    from models.hippo.rules import load_rules

    rules = load_rules(None)
    return {"fields": [{"key": "roll", "label": "Dice", "kind": "dice", "pieces": "faces",
                        "size": rules.dice},
                       {"key": "to_move", "label": "To move", "kind": "turn",
                        "of": "players"}],
            "pieces": {"faces": [piece(str(n)) for n in range(1, rules.faces + 1)]}}


def vocabulary(data: dict[str, Any]) -> dict[str, Any]:
    position = data.get("position", {})
    return {"form": "roll-placements", "rolls": list(data.get("rolls", [])),
            "groups": {"lane": [str(n) for n in range(1, 13)],
                       "colour": list(position.get("players", []))}}


def step_key(step: Any) -> Any:
    """One roll's placements, in any order."""
    if isinstance(step, list):
        return tuple(sorted(str(p).strip().lower() for p in step))
    return str(step).strip().lower()


def palette(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A chip of each player's colour, and taking one away."""
    players = data.get("players") if isinstance(data.get("players"), list) else []
    return [tool(str(p)) for p in players] + [tool("remove")]


def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A click on a lane puts a chip of the chosen colour on top (Mr. Hippo's lane counts
    them by colour) or takes the top one away."""
    kind, lane = clicks[-1]
    if kind != "lane" or not chosen:
        return Edited(note="choose a colour (or remove), then click a lane")
    lanes = data.setdefault("lanes", {})
    if lane == "7":
        counts = lanes.get("7") or {}
        if chosen == "remove":
            last = list(counts)[-1:]
            for k in last:
                counts[k] -= 1
                if counts[k] <= 0:
                    del counts[k]
        else:
            counts[chosen] = counts.get(chosen, 0) + 1
        lanes["7"] = counts
    else:
        chips = lanes.get(lane) or []
        if chosen == "remove":
            chips = chips[:-1]
        else:
            chips = [*chips, chosen]
        if chips:
            lanes[lane] = chips
        else:
            lanes.pop(lane, None)
    return Edited(position=data)


WEB = GameWeb(hint="best", example="midgame-4p.json", editor=editor,
              vocabulary=vocabulary, step_key=step_key, palette=palette, edit=edit,
              picture_words={"lane": r"^(\d+)$", "colour": r"^(\w+): \d+ in stock"})
