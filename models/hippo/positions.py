"""Hippo position files: a game state from its JSON object and back (see docs/hippo.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from models.hippo.dice import Roll, sorted_roll
from models.hippo.notation import colour_index, parse_roll
from models.hippo.rules import Rules
from models.hippo.state import Fresh, GameState
from solver.errors import BadInput
from solver.io import expect, load_json
from solver.io import field as json_field


def _counts(colours: list[str], rules: Rules, value: Any, where: str) -> list[int]:
    """A list of colour names or an object colour -> count, as counts per colour."""
    out = [0] * len(colours)
    if isinstance(value, list):
        for i, v in enumerate(value):
            out[colour_index(colours, rules, v, f"{where}[{i}]")] += 1
        return out
    expect(value, (dict, list), where)
    for k, v in value.items():
        n = expect(v, int, f"{where}.{k}")
        if n < 0:
            raise BadInput(f"{where}.{k}: negative count {n}")
        out[colour_index(colours, rules, k, f"{where}.{k}")] += n
    return out


def state_from_dict(rules: Rules, data: Any, where: str = "position") -> GameState:
    """A game state from its JSON object, checked: known colours, lanes within capacity,
    every colour's chips adding up to the rules' count."""
    expect(data, dict, where)
    game = json_field(data, "game", str, where, "hippo")
    if game != "hippo":
        raise BadInput(f"{where}: this is a '{game}' file, not a hippo position")
    _nothing_unknown(data, where)
    colours = _players(rules, data, where)
    to_move = colour_index(colours, rules, json_field(data, "to_move", str, where, colours[0]),
                           f"{where}.to_move")
    bonus = json_field(data, "bonus_roll", bool, where, False)
    lanes, hippo = _pool(rules, colours, data, where)
    stocks = _stocks(rules, colours, data, where, lanes, hippo)
    roll = _file_roll(rules, data.get("roll"), f"{where}.roll")
    turns = json_field(data, "turns", int, where, 0)
    if turns < 0:
        raise BadInput(f"{where}.turns: negative count {turns}")
    fresh = _file_fresh(rules, colours, stocks[to_move], to_move, bonus,
                        data.get("taken_this_turn"), f"{where}.taken_this_turn")
    state = GameState(rules, tuple(colours), tuple(lanes), tuple(hippo), tuple(stocks),
                      to_move, bonus, roll, turns, fresh)
    won = state.winner()
    if won is not None and won != to_move:
        raise BadInput(f"{where}: {colours[won]} has no chips left: the game is over")
    if won is not None and roll is not None:
        raise BadInput(f"{where}.roll: the game is over ({colours[won]} has no chips "
                       "left): no roll to place")
    return state


def _players(rules: Rules, data: dict, where: str) -> list[str]:
    """The position's `players`: known colours, each once, as many as the rules allow."""
    names = json_field(data, "players", list, where)
    colours = []
    for i, v in enumerate(names):
        name = expect(v, str, f"{where}.players[{i}]").strip().lower()
        if name not in rules.colour_names:
            raise BadInput(f"{where}.players[{i}]: unknown colour '{name}' "
                           f"(colours: {', '.join(rules.colour_names)})")
        if name in colours:
            raise BadInput(f"{where}.players: colour '{name}' plays twice")
        colours.append(name)
    if not rules.min_players <= len(colours) <= rules.max_players:
        raise BadInput(f"{where}.players: {len(colours)} players; Hippo is for "
                       f"{rules.min_players}-{rules.max_players}")
    return colours


def _pool(rules: Rules, colours: list[str], data: dict, where: str
          ) -> tuple[list[tuple[int, ...]], list[int]]:
    """The position's `lanes`: each lane's chips bottom first (within capacity), and
    Mr. Hippo's lane as counts per colour."""
    lanes: list[tuple[int, ...]] = [()] * (rules.lanes + 1)
    hippo = [0] * len(colours)
    for key, value in json_field(data, "lanes", dict, where, {}).items():
        w = f"{where}.lanes.{key}"
        if not str(key).isdecimal() or not 1 <= int(key) <= rules.lanes:
            raise BadInput(f"{w}: '{key}' is not a lane (lanes are 1-{rules.lanes})")
        lane = int(key)
        if lane == rules.hippo:
            hippo = [a + b for a, b in zip(hippo, _counts(colours, rules, value, w),
                                           strict=True)]
            continue
        chips = expect(value, list, w)
        if len(chips) > rules.capacity:
            raise BadInput(f"{w}: {len(chips)} chips, but a lane holds {rules.capacity}")
        lanes[lane] = tuple(colour_index(colours, rules, c, f"{w}[{i}]")
                            for i, c in enumerate(chips))
    return lanes, hippo


def _stocks(rules: Rules, colours: list[str], data: dict, where: str,
            lanes: list[tuple[int, ...]], hippo: list[int]) -> list[tuple[int, ...]]:
    """The position's `stocks` (absent: every player holds the own chips not in the
    pool), every colour's chips adding up to the rules' count."""
    n = len(colours)
    on_board = [sum(lane.count(c) for lane in lanes) + hippo[c] for c in range(n)]
    stocks_data = json_field(data, "stocks", dict, where, None)
    stocks = []
    if stocks_data is None:
        stocks = [tuple(rules.chips - on_board[p] if c == p else 0 for c in range(n))
                  for p in range(n)]
        for p in range(n):
            if stocks[p][p] < 0:
                raise BadInput(f"{where}: {on_board[p]} {colours[p]} chips in the pool, but "
                               f"each colour has {rules.chips}")
        return stocks
    rows: dict[int, tuple[int, ...]] = {}
    for key, value in stocks_data.items():
        w = f"{where}.stocks.{key}"
        p = colour_index(colours, rules, key, w)
        if isinstance(value, int) and not isinstance(value, bool):
            if value < 0:
                raise BadInput(f"{w}: negative count {value}")
            rows[p] = tuple(value if c == p else 0 for c in range(n))
        else:
            rows[p] = tuple(_counts(colours, rules, value, w))
    for p in range(n):
        if p not in rows:
            raise BadInput(f"{where}.stocks: no stock given for {colours[p]}")
        stocks.append(rows[p])
    for c in range(n):
        held = sum(row[c] for row in stocks)
        if held + on_board[c] != rules.chips:
            raise BadInput(
                f"{where}: {held + on_board[c]} {colours[c]} chips counted "
                f"({on_board[c]} in the pool, {held} in stocks); each colour has "
                f"{rules.chips}")
    return stocks


def _nothing_unknown(value: Any, where: str) -> None:
    """Hippo hides nothing: every chip is in view (no unseen piece), so a position that
    leaves something unknown ("?", as other games' files may) declares more unknowns
    than there are unseen pieces. Dice not yet thrown are written by leaving out
    `roll`."""
    if isinstance(value, str) and "?" in value:
        raise BadInput(f"{where}: '?', but Hippo hides nothing: every chip is in view of "
                       "all players (0 unseen pieces); dice not yet thrown: leave out "
                       "'roll'")
    if isinstance(value, dict):
        for k, v in value.items():
            _nothing_unknown(k, f"{where}.{k}")
            _nothing_unknown(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _nothing_unknown(v, f"{where}[{i}]")


def _file_fresh(rules: Rules, colours: list[str], stock: tuple[int, ...], me: int,
                bonus: bool, value: Any, where: str) -> Fresh:
    """A position's `taken_this_turn`: the foreign chips of the player on turn taken by a
    penalty during this turn (colour -> count). Absent: none, every foreign chip in the
    stock is due (how files without it always read). Under the at-once reading every
    foreign chip is due anyway, so the field is read, checked and then not kept."""
    if value is None:
        return ()
    counts = _counts(colours, rules, value, where)
    if not any(counts):
        return ()
    for c, n in enumerate(counts):
        if n and c == me:
            raise BadInput(f"{where}.{colours[c]}: {colours[c]}'s own chips are never "
                           "foreign chips to place first")
        if n > stock[c]:
            raise BadInput(f"{where}.{colours[c]}: {n} taken this turn, but "
                           f"{colours[me]}'s stock holds {stock[c]} {colours[c]}")
    if not bonus:
        raise BadInput(f"{where}: chips taken this turn can only wait for the turn's bonus "
                       "roll (bonus_roll: true); at the start of a turn every foreign chip "
                       "is due")
    return tuple(counts) if rules.next_turn else ()


def _file_roll(rules: Rules, value: Any, where: str) -> Roll | None:
    """A position's roll: null (not rolled yet), a list of dice or a text like '6,4,2'."""
    if value is None:
        return None
    if isinstance(value, str):
        return sorted_roll(parse_roll(rules, value, where))
    dice = expect(value, list, where)
    if len(dice) != rules.dice:
        raise BadInput(f"{where}: {len(dice)} dice, a roll has {rules.dice} (e.g. [6, 4, 2])")
    for i, d in enumerate(dice):
        if not 1 <= expect(d, int, f"{where}[{i}]") <= rules.faces:
            raise BadInput(f"{where}[{i}]: die {d} is not a number 1-{rules.faces}")
    return sorted_roll(dice)


def load_state(rules: Rules, path: str | Path) -> GameState:
    """Read a position file (see docs/hippo.md)."""
    return state_from_dict(rules, load_json(path, "position file"), f"position file {path}")


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The JSON object of a state (round-trips through state_from_dict); the roll, the
    turn count and the foreign chips taken this turn only when there are some."""
    names = state.colours
    lanes: dict[str, Any] = {str(lane): [names[c] for c in state.lanes[lane]]
                             for lane in range(1, state.rules.lanes + 1)
                             if lane != state.rules.hippo and state.lanes[lane]}
    if any(state.hippo):
        lanes[str(state.rules.hippo)] = {names[c]: n for c, n in enumerate(state.hippo) if n}
    stocks: dict[str, Any] = {}
    for p, row in enumerate(state.stocks):
        if all(n == 0 for c, n in enumerate(row) if c != p):
            stocks[names[p]] = row[p]
        else:
            stocks[names[p]] = {names[c]: n for c, n in enumerate(row) if n}
    data: dict[str, Any] = {"game": "hippo", "players": list(names),
                            "to_move": names[state.to_move], "bonus_roll": state.bonus,
                            "lanes": lanes, "stocks": stocks}
    if state.roll is not None:
        data["roll"] = list(state.roll)
    if state.turns:
        data["turns"] = state.turns
    if state.fresh:
        data["taken_this_turn"] = {names[c]: n for c, n in enumerate(state.fresh) if n}
    return data

