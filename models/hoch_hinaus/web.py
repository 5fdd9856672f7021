"""What the web page needs of Tippi Toppi – Hoch Hinaus! (solver/web.py): the editor
sets hands, open tasks and who is on turn; a puzzle's step is a tile on two spaces."""

from __future__ import annotations

from typing import Any

from models.hoch_hinaus import page
from solver.errors import ToppiError
from solver.web import (
    CLEAR_BOARD,
    NEW_GAME,
    WHERE,
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
                       {"key": "draw_pile", "label": "Task draw pile", "kind": "list",
                        "pieces": "tasks", "unknown": "?"},
                       {"key": "completed", "label": "Completed tasks", "kind": "list",
                        "pieces": "tasks"},
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


def _data() -> Any:
    from models.hoch_hinaus.game import GAME

    return rules_of(GAME)


def palette(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A gap filler, taking a piece off, every tile not on the board, the reserve face
    down, a player more or fewer, and the set-up actions."""
    rules = _data().rules
    hands = data.get("hands") if isinstance(data.get("hands"), list) else []
    more = []
    if isinstance(data.get("reserve"), list):
        more.append(tool("reserve face down", "reserve: face down (order unknown)",
                         action=True))
    if len(hands) < 4:
        more.append(tool("add player", "+ player", action=True))
    if len(hands) > 1:
        more.append(tool("remove player", "- player", action=True))
    pieces = data.get("pieces") if isinstance(data.get("pieces"), list) else []
    laid = {p.get("tile") for p in pieces if isinstance(p, dict)}
    return [tool("filler"), tool("remove", "take off"),
            *(tool(t.id) for t in rules.tiles if t.id not in laid), *more, *setup_actions()]


def _pros(data: dict[str, Any]) -> bool:
    return data.get("variant") == "pros"


def _board_problem(data: dict[str, Any], pieces: list[Any]) -> str | None:
    """What the board says to these pieces (a tile that cannot lie there, a tile
    twice), or None."""
    from models.hoch_hinaus.positions import parse_board

    try:
        parse_board(_data().rules, {"side": data.get("side", "blue"), "pieces": pieces},
                    WHERE, _pros(data))
    except ToppiError as exc:
        return str(exc)
    return None


def _filler_taken(data: dict[str, Any]) -> None:
    """A gap filler comes off the first bonus task that holds one (as in play)."""
    for bonus in data.get("bonus") or []:
        if isinstance(bonus, dict) and isinstance(bonus.get("fillers"), int) \
                and bonus["fillers"] > 0:
            bonus["fillers"] -= 1
            return


def _filler_back(data: dict[str, Any]) -> None:
    """A gap filler goes back onto the bonus task it came off last."""
    start = _data().rules.bonus_fillers
    bonus = [b for b in data.get("bonus") or [] if isinstance(b, dict)]
    for i in reversed(range(min(len(bonus), len(start)))):
        if isinstance(bonus[i].get("fillers"), int) and bonus[i]["fillers"] < start[i]:
            bonus[i]["fillers"] += 1
            return


def _tile_taken(data: dict[str, Any], tile: str) -> str:
    """A tile laid comes out of the hand or the known reserve that holds it."""
    for seat, hand in enumerate(data.get("hands") or []):
        if isinstance(hand, list) and tile in hand:
            hand.remove(tile)
            return f"{tile} from the hand of seat {seat + 1}"
    reserve = data.get("reserve")
    if isinstance(reserve, list) and tile in reserve:
        reserve.remove(tile)
    return ""


def _tile_back(data: dict[str, Any], tile: str) -> None:
    """A tile taken off goes back to the reserve (under a known one)."""
    reserve = data.get("reserve")
    if isinstance(reserve, list):
        reserve.append(tile)


def _covers(piece: Any) -> list[str]:
    if not isinstance(piece, dict):
        return []
    if "filler" in piece:
        return [str(piece["filler"]).upper()]
    return [str(s).upper() for s in piece.get("on") or []]


def _take_off(data: dict[str, Any], space: str) -> Edited:
    """The top piece on `space` comes off, when nothing lies on it."""
    from models.hoch_hinaus.game import GAME

    pieces = data.get("pieces") or []
    at = next((i for i in reversed(range(len(pieces)))
               if space.upper() in _covers(pieces[i])), None)
    if at is None:
        return Edited(note=f"nothing lies on {space}")
    above = [p for p in pieces[at + 1:] if set(_covers(p)) & set(_covers(pieces[at]))]
    if above:
        return Edited(note=f"something lies on it ({' '.join(_covers(above[0]))}): take "
                           "that off first")
    piece = pieces.pop(at)
    if "filler" in piece:
        _filler_back(data)
        return settled(GAME, data, f"the gap filler off {space}")
    _tile_back(data, str(piece.get("tile")))
    return settled(GAME, data, f"{piece.get('tile')} off {'-'.join(_covers(piece))}")


def _action(data: dict[str, Any], name: str) -> Edited:
    from models.hoch_hinaus.game import GAME

    rules = _data().rules
    hands = data.get("hands") if isinstance(data.get("hands"), list) else []
    if name == NEW_GAME:
        players = len(hands) if 1 <= len(hands) <= 4 else 2
        side = data.get("side") if data.get("side") in ("blue", "purple") else "blue"
        setup = {**GAME.setups(_data(), players=players)[0], "side": side,
                 "pros": _pros(data)}
        return settled(GAME, started(GAME, setup))
    if name == CLEAR_BOARD:  # every piece off, top first: fillers back, tiles back
        pieces = data.get("pieces") or []
        while pieces:
            piece = pieces.pop()
            if isinstance(piece, dict) and "filler" in piece:
                _filler_back(data)
            elif isinstance(piece, dict):
                _tile_back(data, str(piece.get("tile")))
        data["pieces"] = pieces
        return settled(GAME, data)
    if name == "reserve face down":
        data.pop("reserve", None)
        return settled(GAME, data, "the reserve: face down, every tile not seen")
    if name == "add player":
        data["hands"] = [*hands, ["?"] * rules.hand_size]
        return settled(GAME, data, f"seat {len(data['hands'])} joins, hand unknown")
    if name == "remove player":
        if len(hands) <= 1:
            return Edited(note="one player at least")
        data["hands"] = hands[:-1]
        if isinstance(data.get("on_turn"), int) and data["on_turn"] > len(hands) - 1:
            data["on_turn"] = 1
        return settled(GAME, data, f"seat {len(hands)} leaves")
    return Edited(note=f"'{name}' is no action of this editor")


@guarded
def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A gap filler goes on the space clicked (off the first bonus task that holds
    one); a tile on the two spaces clicked (out of the hand or the known reserve that
    holds it), first face on the first; `take off` lifts the top piece of a space; the
    actions set the position up. A piece that cannot lie there is not laid."""
    from models.hoch_hinaus.game import GAME

    kind, ident = clicks[-1]
    if kind == "action":
        return _action(data, ident)
    if not chosen:
        return Edited(note="choose a tile, the filler or take off, then click spaces")
    spaces = [i for k, i in clicks if k == "space"]
    if not spaces:
        return Edited(note="click a space of the board")
    if chosen == "remove":
        return _take_off(data, spaces[-1])
    pieces = data.get("pieces")
    if not isinstance(pieces, list):
        pieces = data["pieces"] = []
    if chosen == "filler":
        piece: dict[str, Any] = {"filler": spaces[-1]}
    elif len(spaces) < 2:
        return Edited(note=f"{chosen} on {spaces[0]} and one more space")
    else:
        piece = {"tile": chosen, "on": spaces[-2:]}
    if _board_problem(data, pieces) is None:
        line = _board_problem(data, [*pieces, piece])
        if line is not None:
            return Edited(note=f"not laid: {line}")
    pieces.append(piece)
    if chosen == "filler":
        _filler_taken(data)
        return settled(GAME, data)
    return settled(GAME, data, _tile_taken(data, chosen))


WEB = GameWeb(hint="hint", example="midgame-1.json", editor=editor, vocabulary=vocabulary,
              step_key=step_key, palette=palette, edit=edit,
              picture_words={"space": r"^([A-Z]\d+)$", "tile": r"*\b(T\d+)\("},
              explain=page.explain, form=page.form)
