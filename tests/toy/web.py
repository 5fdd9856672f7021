"""What the web page needs of the toy game: its Hint asks `left`; no editor fields
beyond the picture, no puzzles."""

from __future__ import annotations

import json
from typing import Any

from solver.web import GameWeb


def editor() -> dict[str, Any]:
    return {"fields": [{"key": "to_move", "label": "On turn", "kind": "turn",
                        "of": "hands", "first": 1}], "pieces": {}}


def vocabulary(data: dict[str, Any]) -> dict[str, Any]:
    return {"form": "card", "groups": {"card": ["1", "2", "3", "4"]}}


def start() -> str:
    """The page's first position: player 1 to play, player 2's hand and the deck hidden."""
    return json.dumps({"game": "over-the-top", "total": 5, "played": [1, 4],
                       "hands": [[3, 4], ["?", "?"]], "deck": 2, "to_move": 1})


WEB = GameWeb(hint="left", example=start, editor=editor, vocabulary=vocabulary)
