"""What the web page needs of Tippi Toppi – Hoch Hinaus! (solver/web.py): the editor
sets hands, open tasks and who is on turn; a puzzle's step is a tile on two spaces."""

from __future__ import annotations

from typing import Any

from solver.web import Edited, GameWeb, default_rules, piece, tool


def editor() -> dict[str, Any]:
    from models.hoch_hinaus.game import GAME

    data = default_rules(GAME)
    r = data.rules
    tiles = [piece(t.id, f"{t.id} " + " ".join(f"{r.colour_letters[c]}{n}" for c, n in t.faces),
                   r.colour_rgb[t.faces[0][0]], r.colour_rgb[t.faces[1][0]]) for t in r.tiles]
    tasks = [piece(t.text(), f"{i} {t.text()}")
             for i, t in zip(data.catalogue.ids, data.catalogue.tasks, strict=True)]
    return {"fields": [{"key": "hands", "label": "Hands", "kind": "hands", "pieces": "tiles",
                        "size": r.hand_size, "unknown": "?"},
                       {"key": "open", "label": "Open tasks", "kind": "list",
                        "pieces": "tasks", "size": r.open_tasks},
                       {"key": "on_turn", "label": "On turn", "kind": "turn", "of": "hands",
                        "first": 1}],
            "pieces": {"tiles": tiles, "tasks": tasks}}


def vocabulary(data: dict[str, Any]) -> dict[str, Any]:
    from models.hoch_hinaus.game import GAME

    spaces = list(default_rules(GAME).rules.spaces)
    return {"form": "tile-on-two", "groups": {"tile": list(data.get("hand", [])),
                                              "space": spaces}}


def step_key(step: Any) -> Any:
    """A tile, the two spaces it covers and its gap filler."""
    if isinstance(step, dict):
        return (step.get("tile"), tuple(step.get("on") or ()), step.get("filler"))
    return str(step).strip().lower()


def palette(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A gap filler, and every tile."""
    from models.hoch_hinaus.game import GAME

    return [tool("filler"), *(tool(t.id) for t in default_rules(GAME).rules.tiles)]


def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A gap filler goes on the space clicked; a tile on the two spaces clicked."""
    if not chosen:
        return Edited(note="choose a tile or the filler, then click spaces")
    pieces = data.setdefault("pieces", [])
    spaces = [ident for kind, ident in clicks if kind == "space"]
    if chosen == "filler":
        pieces.append({"filler": spaces[-1]})
        return Edited(position=data)
    if len(spaces) < 2:
        return Edited(note=f"{chosen} on {spaces[0]} and one more space")
    pieces.append({"tile": chosen, "on": spaces[-2:]})
    return Edited(position=data)


WEB = GameWeb(hint="hint", example="midgame-1.json", editor=editor, vocabulary=vocabulary,
              step_key=step_key, palette=palette, edit=edit,
              picture_words={"space": r"^([A-Z]\d+)$", "tile": r"*\b(T\d+)\("})
