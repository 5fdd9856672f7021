"""What the web page needs of Tippi Toppi (solver/web.py): the editor sets hands, open
tasks and who is on turn; a puzzle's step is a card played onto a pile."""

from __future__ import annotations

from typing import Any

from models.tippi_toppi import page
from solver.errors import ToppiError
from solver.web import (
    CLEAR_BOARD,
    NEW_GAME,
    WHERE,
    Edited,
    GameWeb,
    deal_rng,
    default_rules,
    guarded,
    piece,
    problem,
    rules_of,
    settled,
    setup_actions,
    started,
    tool,
)


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
                       {"key": "fulfilled_tasks", "label": "Fulfilled tasks", "kind": "list",
                        "pieces": "tasks"},
                       {"key": "on_turn", "label": "On turn", "kind": "turn", "of": "hands",
                        "first": 1}],
            "pieces": {"cards": cards, "tasks": tasks}}


def vocabulary(data: dict[str, Any]) -> dict[str, Any]:
    cards = list(dict.fromkeys([*data.get("hand", []), *data.get("draw_pile", [])]))
    return {"form": "card>pile", "groups": {"card": cards,
                                            "pile": [str(p + 1) for p in range(4)]}}


def _rules() -> Any:
    from models.tippi_toppi.game import GAME

    return rules_of(GAME)


#: The palette's action that makes the card in hand the starting card of pile N.
START = "start "


def palette(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Taking the top card of a pile, every card, the card in hand as a pile's starting
    card, the draw pile face down or in a known order, the task pile's count, a player
    more or fewer, and the set-up actions."""
    rules = _rules()
    cards = [tool(rules.card_name(c)) for c in dict.fromkeys(rules.cards)]
    starts = [tool(f"{START}{p + 1}", f"starting card of pile {p + 1}", action=True)
              for p in range(rules.piles)]
    known = isinstance(data.get("draw_pile"), list)
    draw = (tool("draw pile face down", "draw pile: face down (order unknown)", action=True)
            if known else
            tool("draw pile known", "draw pile: known order", action=True))
    tasks = _task_count(data)
    more = [draw, tool("task pile -1", f"task pile: {tasks} -", action=True),
            tool("task pile +1", f"task pile: {tasks} +", action=True)]
    hands = data.get("hands") if isinstance(data.get("hands"), list) else []
    if len(hands) < max(rules.task_counts):
        more.append(tool("add player", "+ player", action=True))
    if len(hands) > min(rules.task_counts):
        more.append(tool("remove player", "- player", action=True))
    return [tool("take"), *cards, *starts, *more, *setup_actions()]


def _task_count(data: dict[str, Any]) -> int:
    pile = data.get("task_pile", 0)
    return len(pile) if isinstance(pile, list) else pile if isinstance(pile, int) else 0


def _from_supply(data: dict[str, Any], name: str) -> None:
    """A card laid from the draw pile: out of a known or unordered draw pile, one less
    in a draw pile given as a count (left out, the count follows by itself)."""
    pile = data.get("draw_pile")
    if isinstance(pile, list) and name in pile:
        pile.remove(name)
    elif isinstance(pile, dict) and name in (pile.get("unordered") or []):
        pile["unordered"].remove(name)
    elif isinstance(pile, int) and not isinstance(pile, bool) and pile > 0:
        data["draw_pile"] = pile - 1


def _to_supply(data: dict[str, Any], name: str) -> None:
    """A card taken off a pile goes back to the draw pile (under a known one)."""
    pile = data.get("draw_pile")
    if isinstance(pile, list):
        pile.append(name)
    elif isinstance(pile, dict) and isinstance(pile.get("unordered"), list):
        pile["unordered"].append(name)
    elif isinstance(pile, int) and not isinstance(pile, bool):
        data["draw_pile"] = pile + 1


def _pile(data: dict[str, Any], ident: str) -> list[str] | None:
    piles = data.get("piles")
    if not isinstance(piles, list) or not ident.isdecimal() \
            or not 1 <= int(ident) <= len(piles):
        return None
    pile = piles[int(ident) - 1]
    if isinstance(pile, str):
        pile = piles[int(ident) - 1] = [pile]
    return pile


def _action(data: dict[str, Any], name: str, chosen: str | None) -> Edited:
    from models.tippi_toppi.game import GAME

    rules = _rules()
    hands = data.get("hands") if isinstance(data.get("hands"), list) else []
    if name == NEW_GAME:
        variant = data.get("variant") if isinstance(data.get("variant"), dict) else {}
        players = len(hands) if len(hands) in rules.task_counts else 2
        difficulty = data.get("difficulty", "normal")
        try:
            setup = GAME.setups(rules, players=str(players), difficulty=str(difficulty),
                                high_speed=bool(variant.get("high_speed")),
                                open_hands_variant=bool(variant.get("open_hands")))[0]
        except ToppiError:
            setup = GAME.setups(rules, players=str(players), difficulty="normal")[0]
        return settled(GAME, started(GAME, setup))
    if name == CLEAR_BOARD:  # each pile down to its starting card
        for p in range(rules.piles):
            pile = _pile(data, str(p + 1))
            while pile is not None and len(pile) > 1:
                _to_supply(data, pile.pop())
        return settled(GAME, data)
    if name.startswith(START):
        pile = _pile(data, name[len(START):])
        if pile is None:
            return Edited(note=f"no pile {name[len(START):]}")
        if not chosen or chosen == "take":
            return Edited(note="choose a card, then this: it becomes the pile's starting "
                               "card")
        card = rules.card_name(rules.parse_card(chosen, "card"))
        if pile:
            _to_supply(data, pile[0])
        _from_supply(data, card)
        pile[:1] = [card]
        return settled(GAME, data, f"pile {name[len(START):]} starts with {card}")
    if name == "draw pile face down":
        data.pop("draw_pile", None)
        return settled(GAME, data, "the draw pile: face down, only its count known")
    if name == "draw pile known":
        return _known_draw_pile(data)
    if name in ("task pile -1", "task pile +1"):
        count = _task_count(data)
        if name == "task pile -1" and count == 0:
            return Edited(note="the task pile is empty")
        pile = data.get("task_pile")
        if name == "task pile -1" and isinstance(pile, list):
            pile.pop()
        else:  # a task more face down: the pile is then a count of unknown tasks
            data["task_pile"] = count + (1 if name == "task pile +1" else -1)
        return settled(GAME, data)
    if name == "add player":
        data["hands"] = [*hands, ["?"] * rules.hand_size]
        data["players"] = len(data["hands"])
        return settled(GAME, data, f"player {len(data['hands'])} joins, hand unknown")
    if name == "remove player":
        if len(hands) <= 1:
            return Edited(note="one player at least")
        data["hands"] = hands[:-1]
        data["players"] = len(data["hands"])
        for key in ("on_turn", "turn", "to_draw"):
            if isinstance(data.get(key), int) and data[key] > len(data["hands"]):
                data[key] = 1
        return settled(GAME, data, f"player {len(hands)} leaves")
    return Edited(note=f"'{name}' is no action of this editor")


def _known_draw_pile(data: dict[str, Any]) -> Edited:
    """The draw pile in an order: the cards neither on the piles nor in a hand,
    shuffled (written in the position text, to be put in the real order there)."""
    from models.tippi_toppi.game import GAME

    rules = _rules()
    if any(c == "?" for h in data.get("hands") or [] for c in (h if isinstance(h, list)
                                                               else ["?"])):
        return Edited(note="a draw pile in a known order needs every hand known: the "
                           "draw pile is then every card not on the piles or in a hand")
    line = problem(GAME, data)
    if line is not None:
        return Edited(note=f"the position is not valid yet: {line}")
    state = GAME.read(rules, data, WHERE)
    cards = [rules.card_name(c) for c in state.unseen_cards()]
    deal_rng().shuffle(cards)
    data["draw_pile"] = cards
    data.pop("to_draw", None)
    return settled(GAME, data, "the draw pile in a shuffled order: put it in the real "
                               "order in the position text")


@guarded
def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A click on a pile lays the card in hand on it (from the draw pile), or takes its
    top card (back to the draw pile); the actions set the position up."""
    from models.tippi_toppi.game import GAME

    kind, ident = clicks[-1]
    if kind == "action":
        return _action(data, ident, chosen)
    pile = _pile(data, ident) if kind == "pile" else None
    if pile is None or not chosen:
        return Edited(note="choose a card (or take), then click a pile")
    if chosen == "take":
        if len(pile) <= 1:
            return Edited(note=f"pile {ident} keeps its starting card: to change it, "
                               f"choose a card, then 'starting card of pile {ident}'")
        card = pile.pop()
        _to_supply(data, card)
        return settled(GAME, data, f"{card} back to the draw pile")
    rules = _rules()
    card = rules.card_name(rules.parse_card(chosen, "card"))
    _from_supply(data, card)
    pile.append(card)
    return settled(GAME, data)


WEB = GameWeb(hint="hint", example="table.json", editor=editor, vocabulary=vocabulary,
              palette=palette, edit=edit,
              picture_words={"card": r"^([A-Z]\d)$", "pile": r"^pile (\d+)\b"},
              explain=page.explain, form=page.form)
