"""What the web page needs of Topito (solver/web.py): the editor sets hands, the last
move and who is on turn; a puzzle's step moves a block onto a podium."""

from __future__ import annotations

from typing import Any

from models.topito import page
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
    from models.topito.game import GAME

    rules = default_rules(GAME)
    r = rules.rules
    return {"fields": [{"key": "hands", "label": "Hands", "kind": "hands", "pieces": "cards",
                        "size": rules.hand_size, "unknown": "?"},
                       {"key": "last_move", "label": "Last move", "kind": "move",
                        "parts": {"block": "blocks", "from": "podiums", "to": "podiums"}},
                       {"key": "played", "label": "Played cards", "kind": "hands",
                        "pieces": "cards", "size": rules.cards_to_win},
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
    """Click a block to pick it up; then a podium, or `out of play`. A player more or
    fewer, and the set-up actions."""
    from models.topito.rules import MAX_PLAYERS, MIN_PLAYERS

    hands = data.get("hands") if isinstance(data.get("hands"), list) else []
    more = []
    if len(hands) < MAX_PLAYERS:
        more.append(tool("add player", "+ player", action=True))
    if len(hands) > MIN_PLAYERS:
        more.append(tool("remove player", "- player", action=True))
    return [tool("out of play", action=True), *more, *setup_actions()]


def _lift(data: dict[str, Any], block: str) -> None:
    podiums = data.get("podiums")
    if not isinstance(podiums, dict):
        podiums = data["podiums"] = {}
    for name in podiums:
        podiums[name] = [b for b in podiums[name] if b != block]
    if isinstance(data.get("out_of_play"), list):
        data["out_of_play"] = [b for b in data["out_of_play"] if b != block]
    _moved(data)


def _moved(data: dict[str, Any]) -> None:
    """The blocks were set by hand: no last move to forbid reversing, and the earlier
    photo times no longer lead to this position. The played piles are written out, so
    the fields can add to them."""
    data["last_move"] = None
    data.pop("photo_times", None)
    hands = data.get("hands")
    if isinstance(hands, list) and hands and "played" not in data:
        data["played"] = [[] for _ in hands]


def _start(players: int) -> dict[str, Any]:
    """A new game's position as seat 1 sees it; the deck left to follow from the
    hands (a count would have to be mended after every hand edit)."""
    from models.topito.game import GAME

    setup = GAME.setups(rules_of(GAME), players=str(players))[0]
    position = started(GAME, setup)
    position.pop("photo_times", None)
    if isinstance(position.get("deck"), int):
        del position["deck"]
    return position


def _action(data: dict[str, Any], name: str, chosen: str | None) -> Edited:
    from models.topito.game import GAME
    from models.topito.rules import MAX_PLAYERS, MIN_PLAYERS

    hands = data.get("hands") if isinstance(data.get("hands"), list) else []
    if name == NEW_GAME:
        players = len(hands) if MIN_PLAYERS <= len(hands) <= MAX_PLAYERS else 2
        return settled(GAME, _start(players))
    if name == CLEAR_BOARD:  # every block out of play
        podiums = data.get("podiums")
        data["podiums"] = {p: [] for p in (podiums if isinstance(podiums, dict) else
                                           rules_of(GAME).rules.podiums)}
        data.pop("out_of_play", None)
        _moved(data)
        return settled(GAME, data)
    if name == "out of play":
        if not chosen:
            return Edited(note="click a block first")
        _lift(data, chosen)
        return settled(GAME, data, f"{chosen} out of play")
    if name == "add player":
        if len(hands) >= MAX_PLAYERS:
            return Edited(note=f"at most {MAX_PLAYERS} players")
        _moved_hands(data, [*hands, ["?"] * rules_of(GAME).hand_size])
        return settled(GAME, data, f"seat {len(hands) + 1} joins, hand unknown")
    if name == "remove player":
        if len(hands) <= MIN_PLAYERS:
            return Edited(note=f"at least {MIN_PLAYERS} players")
        _moved_hands(data, hands[:-1])
        return settled(GAME, data, f"seat {len(hands)} leaves")
    return Edited(note=f"'{name}' is no action of this editor")


def _moved_hands(data: dict[str, Any], hands: list[Any]) -> None:
    """A seat more or fewer: its hand and played pile; the deck follows the hands."""
    played = data.get("played") if isinstance(data.get("played"), list) else []
    data["hands"] = hands
    data["played"] = [*played, *([[]] * len(hands))][:len(hands)]
    for key in ("deck", "photo_time", "photo_times"):
        data.pop(key, None)
    if isinstance(data.get("on_turn"), int) and data["on_turn"] > len(hands):
        data["on_turn"] = 1


@guarded
def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A click on a block picks it up; on a podium, puts the block in hand on top of
    it; the action `out of play` takes the block in hand off the podiums; the other
    actions set the position up."""
    from models.topito.game import GAME

    kind, ident = clicks[-1]
    if kind == "action":
        return _action(data, ident, chosen)
    if kind == "block":
        return Edited(tool=ident, note=f"block {ident}: now click a podium (or out of "
                                       "play)")
    if not chosen:
        return Edited(note="click a block first")
    if kind == "podium":
        _lift(data, chosen)
        data["podiums"].setdefault(ident, []).append(chosen)
        return settled(GAME, data, f"{chosen} on {ident}")
    return Edited(note="click a block, then a podium")


WEB = GameWeb(hint="hint", example="midgame.json", editor=editor, vocabulary=vocabulary,
              steps=steps, step_key=step_key, posed=posed, palette=palette, edit=edit,
              picture_words={"block": r"^(\w+)$", "to": r"^(\w+)$"},
              explain=page.explain, form=page.form)
