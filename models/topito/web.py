"""What the web page needs of Topito (solver/web.py): the editor sets hands, the last
move and who is on turn; a puzzle's step moves a block onto a podium."""

from __future__ import annotations

from typing import Any

from solver.web import Edited, GameWeb, default_rules, piece, tool


def editor() -> dict[str, Any]:
    from models.topito.game import GAME

    rules = default_rules(GAME)
    r = rules.rules
    return {"fields": [{"key": "hands", "label": "Hands", "kind": "hands", "pieces": "cards",
                        "size": rules.hand_size, "unknown": "?"},
                       {"key": "last_move", "label": "Last move", "kind": "move",
                        "parts": {"block": "blocks", "from": "podiums", "to": "podiums"}},
                       {"key": "on_turn", "label": "On turn", "kind": "turn", "of": "hands",
                        "first": 1}],
            "pieces": {"cards": [piece(c.text(r)) for c in rules.deck],
                       "blocks": [piece(b) for b in r.characters],
                       "podiums": [piece(p) for p in r.podiums]}}


def vocabulary(data: dict[str, Any]) -> dict[str, Any]:
    blocks = [b for s in data.get("podiums", {}).values() for b in s]
    return {"form": "block-to", "groups": {"block": blocks,
                                           "to": list(data.get("podiums", {}))}}


def steps(data: dict[str, Any]) -> list[Any]:
    """A Topito puzzle file holds its solution in `puzzle`."""
    return list(data.get("puzzle", {}).get("solution") or [])


def step_key(step: Any) -> Any:
    """A block and the podium it goes to."""
    if isinstance(step, dict):
        return (str(step.get("block", "")).lower(), str(step.get("to", "")).lower())
    return str(step).strip().lower()


def posed(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k != "solution"}
    out["puzzle"] = {k: v for k, v in data["puzzle"].items() if k != "solution"}
    return out


def palette(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Click a block to pick it up; then a podium, or this."""
    return [tool("out of play", action=True)]


def _lift(data: dict[str, Any], block: str) -> None:
    podiums = data.setdefault("podiums", {})
    for name in podiums:
        podiums[name] = [b for b in podiums[name] if b != block]
    data["last_move"] = None


def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A click on a block picks it up; on a podium, puts the block in hand on top of
    it; the action `out of play` takes the block in hand off the podiums."""
    kind, ident = clicks[-1]
    if kind == "block":
        return Edited(tool=ident, note=f"block {ident}")
    if not chosen:
        return Edited(note="click a block first")
    if kind == "action":
        _lift(data, chosen)
        return Edited(position=data)
    if kind == "podium":
        _lift(data, chosen)
        data["podiums"].setdefault(ident, []).append(chosen)
        return Edited(position=data)
    return Edited()


WEB = GameWeb(hint="hint", example="midgame.json", editor=editor, vocabulary=vocabulary,
              steps=steps, step_key=step_key, posed=posed, palette=palette, edit=edit,
              picture_words={"block": r"^(\w+)$", "to": r"^(\w+)$"})
