"""What the web page needs of Hippo (solver/web.py): the Hint button asks `best`, the
editor sets the dice and who is to move, a puzzle's step is one roll's placements."""

from __future__ import annotations

from typing import Any

from models.hippo import page
from solver.web import (
    CLEAR_BOARD,
    NEW_GAME,
    Edited,
    GameWeb,
    guarded,
    piece,
    problem,
    rules_of,
    settled,
    setup_actions,
    tool,
)


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


def _rules() -> Any:
    from models.hippo.game import GAME

    return rules_of(GAME)


def palette(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A chip of each player's colour, taking one away, the bonus roll, a player more
    or fewer, and the set-up actions."""
    rules = _rules()
    players = _players(data)
    bonus = "yes" if data.get("bonus_roll") is True else "no"
    more = [tool("bonus roll", f"bonus roll: {bonus}", action=True)]
    if len(players) < rules.max_players:
        more.append(tool("add player", "+ player", action=True))
    if len(players) > rules.min_players:
        more.append(tool("remove player", "- player", action=True))
    return [*(tool(p) for p in players), tool("remove"), *more, *setup_actions()]


def _players(data: dict[str, Any]) -> list[str]:
    players = data.get("players")
    return [str(p) for p in players] if isinstance(players, list) else []


def _stock(data: dict[str, Any], player: str) -> dict[str, int] | None:
    """A player's stock as counts per colour, written back into the position (an own
    count alone stays a number there); None when the position gives no stocks (each
    player then holds the own chips not in the pool)."""
    stocks = data.get("stocks")
    if not isinstance(stocks, dict):
        return None
    row = stocks.get(player, 0)
    counts = {player: row} if isinstance(row, int) else dict(row)
    stocks[player] = counts
    return counts


def _tidy(data: dict[str, Any]) -> None:
    """Stocks written as the engine writes them: a number when a player holds only the
    own chips, else counts of the colours held."""
    stocks = data.get("stocks")
    if not isinstance(stocks, dict):
        return
    for player, row in list(stocks.items()):
        if isinstance(row, dict):
            row = {c: n for c, n in row.items() if n}
            stocks[player] = row.get(player, 0) if set(row) <= {player} else row


def _take_from_stocks(data: dict[str, Any], colour: str) -> str:
    """A chip of `colour` leaves the stocks: its owner's first, else a stock that took
    such chips by a penalty. Returns whose stock gave it ("" when none held one)."""
    if not isinstance(data.get("stocks"), dict):
        return colour
    for holder in [colour, *(p for p in _players(data) if p != colour)]:
        row = _stock(data, holder)
        if row is not None and row.get(colour, 0) > 0:
            row[colour] -= 1
            return holder
    return ""


def _back_to_owner(data: dict[str, Any], colour: str) -> None:
    """A chip off the pool goes back to the stock of its colour (as the rules return a
    chip kicked out)."""
    row = _stock(data, colour)
    if row is not None:
        row[colour] = row.get(colour, 0) + 1


def _lane_edit(data: dict[str, Any], chosen: str, lane: str) -> Edited:
    from models.hippo.game import GAME

    rules = _rules()
    if not lane.isdecimal() or not 1 <= int(lane) <= rules.lanes:
        return Edited(note=f"'{lane}' is not a lane (lanes are 1-{rules.lanes})")
    lanes = data.get("lanes")
    if not isinstance(lanes, dict):
        lanes = data["lanes"] = {}
    if chosen != "remove" and chosen not in _players(data):
        return Edited(note=f"{chosen} does not play here: choose a player's colour")
    note = ""
    if int(lane) == rules.hippo:  # Mr. Hippo's lane: counts per colour, no limit
        counts = lanes.get(lane) or {}
        if isinstance(counts, list):
            counts = {c: counts.count(c) for c in counts}
        if chosen == "remove":
            if not counts:
                return Edited(note=f"lane {lane} holds no chip")
            colour = list(counts)[-1]
            counts[colour] -= 1
            counts = {c: n for c, n in counts.items() if n > 0}
            _back_to_owner(data, colour)
            note = f"a {colour} chip back to its stock"
        else:
            counts[chosen] = counts.get(chosen, 0) + 1
            note = _placed(data, chosen)
        if counts:
            lanes[lane] = counts
        else:
            lanes.pop(lane, None)
    else:
        chips = list(lanes.get(lane) or [])
        if chosen == "remove":
            if not chips:
                return Edited(note=f"lane {lane} holds no chip")
            colour = chips.pop()
            _back_to_owner(data, colour)
            note = f"a {colour} chip back to its stock"
        else:
            if len(chips) >= rules.capacity:
                return Edited(note=f"lane {lane} is full ({rules.capacity} chips): take "
                                   "its top chip off first (remove)")
            chips.append(chosen)
            note = _placed(data, chosen)
        if chips:
            lanes[lane] = chips
        else:
            lanes.pop(lane, None)
    _tidy(data)
    return settled(GAME, data, note)


def _placed(data: dict[str, Any], colour: str) -> str:
    holder = _take_from_stocks(data, colour)
    if not holder:
        return f"no {colour} chip is left in any stock"
    return "" if holder == colour else f"the {colour} chip from {holder}'s stock"


def _stock_edit(data: dict[str, Any], chosen: str, holder: str) -> Edited:
    """A click on a player's stock: with a colour in hand, that player takes a chip of
    it (from its owner's stock, as a penalty takes chips); with `remove`, the stock
    gives its last foreign chip back to its owner."""
    from models.hippo.game import GAME

    players = _players(data)
    if holder not in players:
        return Edited(note=f"{holder} does not play here")
    if not isinstance(data.get("stocks"), dict):
        data["stocks"] = {p: _own_left(data, p) for p in players}
    row = _stock(data, holder)
    assert row is not None
    if chosen == "remove":
        foreign = [c for c, n in row.items() if c != holder and n > 0]
        if not foreign:
            _tidy(data)
            return Edited(note=f"{holder}'s stock holds only {holder} chips (they leave it "
                               "when placed on a lane)")
        colour = foreign[-1]
        row[colour] -= 1
        _back_to_owner(data, colour)
        _tidy(data)
        return settled(GAME, data, f"a {colour} chip back from {holder} to {colour}")
    if chosen == holder:
        _tidy(data)
        return Edited(note=f"{holder}'s own chips are the ones not on the lanes: choose "
                           "another colour to give it a chip taken by a penalty")
    owner = _stock(data, chosen) if chosen in players else None
    if owner is None or owner.get(chosen, 0) <= 0:
        _tidy(data)
        return Edited(note=f"{chosen}'s stock holds no {chosen} chip to give")
    owner[chosen] -= 1
    row[chosen] = row.get(chosen, 0) + 1
    _tidy(data)
    return settled(GAME, data, f"{holder} holds a {chosen} chip")


def _own_left(data: dict[str, Any], player: str) -> int:
    """The own chips a player holds when the position gives no stocks."""
    rules = _rules()
    placed = 0
    for value in (data.get("lanes") or {}).values():
        if isinstance(value, dict):
            placed += int(value.get(player, 0))
        else:
            placed += list(value).count(player)
    return rules.chips - placed


def _action(data: dict[str, Any], name: str) -> Edited:
    from models.hippo.game import GAME
    from models.hippo.state import new_game

    rules = _rules()
    players = _players(data)
    if name == NEW_GAME:
        colours = players if problem(GAME, {"game": "hippo", "players": players}) is None \
            else list(rules.colour_names[:4])
        return settled(GAME, GAME.write(new_game(rules, colours)))
    if name == CLEAR_BOARD:  # every chip back with its owner; the dice stay
        data["lanes"] = {}
        data.pop("taken_this_turn", None)
        if "stocks" in data:
            data["stocks"] = {p: rules.chips for p in players}
        return settled(GAME, data)
    if name == "bonus roll":
        data["bonus_roll"] = data.get("bonus_roll") is not True
        return settled(GAME, data)
    if name == "add player":
        free = [c for c in rules.colour_names if c not in players]
        if len(players) >= rules.max_players or not free:
            return Edited(note=f"Hippo is for at most {rules.max_players} players")
        data["players"] = [*players, free[0]]
        if isinstance(data.get("stocks"), dict):
            data["stocks"][free[0]] = rules.chips
        return settled(GAME, data, f"{free[0]} joins with {rules.chips} chips")
    if name == "remove player":
        if len(players) <= rules.min_players:
            return Edited(note=f"Hippo is for at least {rules.min_players} players")
        return _without(data, players[-1])
    return Edited(note=f"'{name}' is no action of this editor")


def _without(data: dict[str, Any], gone: str) -> Edited:
    """The last player leaves: their chips leave the pool and the stocks, the chips
    they held go back to their owners."""
    from models.hippo.game import GAME

    players = _players(data)
    lanes = data.get("lanes") or {}
    for lane, value in list(lanes.items()):
        if isinstance(value, dict):
            value.pop(gone, None)
        else:
            lanes[lane] = [c for c in value if c != gone]
        if not lanes[lane]:
            del lanes[lane]
    stocks = data.get("stocks")
    if isinstance(stocks, dict):
        held = stocks.pop(gone, 0)
        for colour, n in (held.items() if isinstance(held, dict) else []):
            if colour != gone:
                row = _stock(data, colour)
                if row is not None:
                    row[colour] = row.get(colour, 0) + n
        for p in players[:-1]:
            row = _stock(data, p)
            if row is not None:
                row.pop(gone, None)
    data["players"] = players[:-1]
    if data.get("to_move") == gone:
        data["to_move"] = players[0]
    data.pop("taken_this_turn", None)
    _tidy(data)
    return settled(GAME, data, f"{gone} leaves the game")


@guarded
def edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
         ) -> Edited:
    """A click on a lane puts a chip of the chosen colour on top (out of the stocks;
    Mr. Hippo's lane counts them by colour) or takes the top one back to its owner's
    stock; a click on a player's stock gives that player a chip of the chosen colour
    (a penalty's) or sends one back; the actions set the position up."""
    kind, ident = clicks[-1]
    if kind == "action":
        return _action(data, ident)
    if not chosen:
        return Edited(note="choose a colour (or remove), then click a lane or a stock")
    if kind == "lane":
        return _lane_edit(data, chosen, ident)
    if kind == "stock":
        return _stock_edit(data, chosen, ident)
    return Edited(note="click a lane or a player's stock")


WEB = GameWeb(hint="best", example="midgame-4p.json", editor=editor,
              vocabulary=vocabulary, step_key=step_key, palette=palette, edit=edit,
              picture_words={"lane": r"^(\d+)$", "colour": r"^(\w+): \d+ in stock"},
              explain=page.explain, form=page.form)
