"""What the web page needs of Tippi Toppi (solver/web.py): the editor sets hands, open
tasks and who is on turn; a puzzle's step is a card played onto a pile."""

from __future__ import annotations

from typing import Any

from solver.web import Edited, GameWeb, default_rules, piece, tool


def editor() -> dict[str, Any]:
    from models.tippi_toppi.game import GAME

    rules = default_rules(GAME)
    cards = [piece(rules.card_name(c), None, rules.colours[c[0]].rgb) for c in rules.cards]
    tasks = [piece(rules.task_name(t.task), f"{t.id} {rules.task_name(t.task)}")
             for t in rules.catalogue]
    return {"fields": [{"key": "hands", "label": "Hands", "kind": "hands", "pieces": "cards",
                        "size": rules.hand_size, "unknown": "?"},
                       {"key": "open_tasks", "label": "Open tasks", "kind": "list",
                        "pieces": "tasks", "size": rules.open_tasks},
                       {"key": "on_turn", "label": "On turn", "kind": "turn", "of": "hands",
                        "first": 1}],
            "pieces": {"cards": cards, "tasks": tasks}}


def vocabulary(data: dict[str, Any]) -> dict[str, Any]:
    cards = list(dict.fromkeys([*data.get("hand", []), *data.get("draw_pile", [])]))
    return {"form": "card>pile", "groups": {"card": cards,
                                            "pile": [str(p + 1) for p in range(4)]}}


def palette(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Taking the top card of a pile, and every card."""
    from models.tippi_toppi.game import GAME

    rules = default_rules(GAME)
    return [tool("take"), *(tool(rules.card_name(c)) for c in dict.fromkeys(rules.cards))]


def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A click on a pile lays the card in hand on it, or takes its top card (never the
    last one)."""
    kind, ident = clicks[-1]
    piles = data.get("piles")
    if kind != "pile" or not chosen or not isinstance(piles, list):
        return Edited(note="choose a card (or take), then click a pile")
    pile = piles[int(ident) - 1]
    if chosen == "take":
        if len(pile) > 1:
            pile.pop()
    else:
        pile.append(chosen)
    return Edited(position=data)


WEB = GameWeb(hint="hint", example="known-deck.json", editor=editor, vocabulary=vocabulary,
              palette=palette, edit=edit,
              picture_words={"card": r"^([A-Z]\d)$", "pile": r"^pile (\d+)\b"})
