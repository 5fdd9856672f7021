"""Position files of Hoch Hinaus!: a board file (the pieces, bottom-up) or a whole
game (tasks, bonus tasks, hands, reserve, whose turn), with what the file's reader does
not know left unknown ("?"); see docs/hoch-hinaus.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from models.hoch_hinaus.board import Board
from models.hoch_hinaus.rules import Rules
from models.hoch_hinaus.state import Bonus, GameState
from solver.errors import BadInput
from solver.io import expect, load_json
from solver.io import field as json_field

if TYPE_CHECKING:
    from models.hoch_hinaus.tasks import Catalogue, Task

UNKNOWN = "?"


class PieceJson(TypedDict, total=False):
    """A piece in a file, bottom-up: a tile on two spaces (`on`, in the order of its
    faces) or a gap filler on one; `level` (optional, read only) checks its height."""

    tile: str
    on: list[str]
    filler: str
    level: int


# --------------------------------------------------------------------------- boards

def parse_pieces(rules: Rules, board: Board, items: list, where: str, pros: bool,
                  used: set[str]) -> None:
    for i, item in enumerate(items):
        w = f"{where}.pieces[{i}]"
        expect(item, dict, w)
        level = json_field(item, "level", int, w, None)
        if "filler" in item:
            s = rules.parse_space(json_field(item, "filler", str, w), f"{w}.filler")
            if level is not None and level != board.height(s) + 1:
                _level_error(rules, w, "gap filler", [s], level, board)
            board.place_filler(s)
            continue
        tile, flipped = rules.parse_tile(json_field(item, "tile", str, w), f"{w}.tile", used)
        if tile.id in used:
            raise BadInput(f"{w}: tile {tile.id} is used twice (the set has one)")
        on = json_field(item, "on", list, w)
        if len(on) != 2:
            raise BadInput(f"{w}.on: a tile covers exactly two spaces")
        s1, s2 = (rules.parse_space(expect(x, str, f"{w}.on"), f"{w}.on") for x in on)
        if level is not None and any(board.height(s) + 1 != level for s in (s1, s2)):
            _level_error(rules, w, f"tile {tile.id}", [s1, s2], level, board)
        faces = (tile.faces[1], tile.faces[0]) if flipped else tile.faces
        why = board.why_not(s1, s2, faces, pros)
        if why is not None:
            raise BadInput(f"{w}: tile {tile.id} cannot lie on {rules.spaces[s1]}-"
                           f"{rules.spaces[s2]}: {why}")
        board.place_tile(tile, s1, s2, flipped)
        used.add(tile.id)


def _level_error(rules: Rules, w: str, what: str, spaces: list[int], level: int,
                 board: Board) -> None:
    below = ", ".join(f"{rules.spaces[s]} has height {board.height(s)}" for s in spaces)
    if any(board.height(s) + 1 < level for s in spaces):
        raise BadInput(f"{w}: {what} at level {level} floats over an empty space ({below})")
    raise BadInput(f"{w}: {what} cannot lie at level {level} ({below})")


def parse_board(rules: Rules, data: dict, where: str, pros: bool,
                used: set[str] | None = None) -> Board:
    side = json_field(data, "side", str, where, "blue")
    board = Board(rules, side)
    parse_pieces(rules, board, json_field(data, "pieces", list, where, []), where, pros,
                  used if used is not None else set())
    if board.fillers_used() > rules.fillers:
        raise BadInput(f"{where}: {board.fillers_used()} gap fillers on the board, the game "
                       f"has {rules.fillers}")
    return board


def board_json(board: Board) -> list[PieceJson]:
    r = board.rules
    out: list[PieceJson] = []
    for p in board.pieces:
        if p.tile is None:
            out.append({"filler": r.spaces[p.spaces[0]]})
        else:
            t = r.tile_by_id[p.tile]
            flipped = p.faces != t.faces
            on = [r.spaces[p.spaces[1]], r.spaces[p.spaces[0]]] if flipped else \
                [r.spaces[s] for s in p.spaces]
            out.append({"tile": p.tile, "on": on})
    return out


# --------------------------------------------------------------------------- games

def _task_list(items: Any, where: str, catalogue: Catalogue, allow_unknown: bool
               ) -> list[Task | None]:
    out: list[Task | None] = []
    for i, t in enumerate(items):
        if t is None:  # a stray null is no task; an unknown one is written "?"
            raise BadInput(f"{where}[{i}]: null is not a task (an unknown task is \"?\")")
        if t == UNKNOWN:
            if not allow_unknown:
                raise BadInput(f"{where}[{i}]: this task must be known")
            out.append(None)
        else:
            out.append(catalogue.parse(expect(t, str, f"{where}[{i}]"), f"{where}[{i}]"))
    return out


def _tiles(rules: Rules, items: list, where: str, used: set[str], allow_unknown: bool
           ) -> list[str | None]:
    out: list[str | None] = []
    for j, t in enumerate(items):
        w = f"{where}[{j}]"
        if t == UNKNOWN and allow_unknown:
            out.append(None)
            continue
        tile, _ = rules.parse_tile(expect(t, str, w), w, used)
        if tile.id in used:
            raise BadInput(f"{w}: tile {tile.id} is used twice (the set has one)")
        used.add(tile.id)
        out.append(tile.id)
    return out


def _draw_pile(data: dict, where: str, cat: Catalogue) -> list[Task | None]:
    """The draw pile: its tasks in order ("?" unknown), or a count of unknown ones."""
    pile_raw = json_field(data, "draw_pile", (list, int), where, [])
    if not isinstance(pile_raw, int):
        return _task_list(pile_raw, f"{where}.draw_pile", cat, True)
    if not 0 <= pile_raw <= len(cat.tasks):
        raise BadInput(f"{where}.draw_pile: {pile_raw} tasks, the catalogue has "
                       f"{len(cat.tasks)}")
    return [None] * pile_raw


def _bonus(data: dict, where: str, cat: Catalogue) -> list[Bonus]:
    """The bonus tasks with the gap fillers on them."""
    bonus = []
    for i, b in enumerate(json_field(data, "bonus", list, where, [])):
        w = f"{where}.bonus[{i}]"
        expect(b, dict, w)
        n = json_field(b, "fillers", int, w)
        if n < 0:
            raise BadInput(f"{w}.fillers: cannot be negative")
        task = b.get("task")
        bonus.append(Bonus(None if task in (None, UNKNOWN) else
                           cat.parse(expect(task, str, f"{w}.task"), f"{w}.task"), n))
    return bonus


def _hands(rules: Rules, data: dict, where: str, used: set[str]) -> list[list[str | None]]:
    """The hands, seat 1 first: tiles ("?" unknown), or a count of unknown tiles."""
    hands = []
    for i, h in enumerate(json_field(data, "hands", list, where, [])):
        w = f"{where}.hands[{i}]"
        if isinstance(h, int) and not isinstance(h, bool):  # a count: every tile unknown
            if not 0 <= h <= rules.hand_size:
                raise BadInput(f"{w}: a hand holds 0 to {rules.hand_size} tiles, not {h}")
            h = [UNKNOWN] * h
        hand = _tiles(rules, expect(h, list, w), w, used, True)
        if len(hand) > rules.hand_size:
            raise BadInput(f"{w}: a hand holds at most {rules.hand_size} tiles")
        hands.append(hand)
    if len(hands) > 4:
        raise BadInput(f"{where}.hands: 1 to 4 players")
    return hands


def _reserve(rules: Rules, data: dict, where: str, used: set[str], hidden_in_hands: int
             ) -> tuple[list[str | None], bool]:
    """The reserve and whether its order is known: its tiles in order, a count of tiles
    in an order nobody knows, or (missing) every other tile in such an order."""
    unseen = sum(1 for t in rules.tiles if t.id not in used)
    reserve_raw = data.get("reserve")
    if reserve_raw is not None and (isinstance(reserve_raw, bool)
                                    or not isinstance(reserve_raw, (list, int))):
        expect(reserve_raw, (list, int), f"{where}.reserve")
        raise BadInput(f"{where}.reserve: a list of tiles or a count")
    if reserve_raw is None:  # every other tile, in an order nobody knows
        if unseen < hidden_in_hands:
            raise BadInput(f"{where}.hands: {hidden_in_hands} unknown tiles in hands, "
                           f"only {unseen} tiles are not on the board or in a hand")
        return [None] * (unseen - hidden_in_hands), False
    if isinstance(reserve_raw, int):
        if not 0 <= reserve_raw <= unseen - hidden_in_hands:
            raise BadInput(f"{where}.reserve: {reserve_raw} tiles of unknown order, but "
                           f"{max(unseen - hidden_in_hands, 0)} tiles are unseen")
        return [None] * reserve_raw, False
    reserve = _tiles(rules, reserve_raw, f"{where}.reserve", used, False)
    if hidden_in_hands > unseen - len(reserve):
        raise BadInput(f"{where}.hands: {hidden_in_hands} unknown tiles in hands, "
                       f"only {unseen - len(reserve)} tiles are not on the board, in "
                       "a hand or in the reserve")
    return reserve, True


def read_position(rules: Rules, data: Any, where: str, pros: bool | None = None,
                  catalogue: Catalogue | None = None) -> GameState:
    """A board file (pieces only) or a whole game state, checked; `pros` forces the
    Pros rule on or off (None: the file's variant). The seat on turn is "on_turn",
    counted from 1."""
    from models.hoch_hinaus.tasks import load_catalogue

    expect(data, dict, where)
    game = data.get("game", "hoch-hinaus")
    if game != "hoch-hinaus":
        raise BadInput(f"{where}: this is a '{game}' file, not a hoch-hinaus position")
    if "pieces" not in data and "side" not in data:  # {} is no empty board
        raise BadInput(f"{where}: missing field 'pieces' or 'side' (an empty board is "
                       "\"pieces\": [])")
    cat = catalogue if catalogue is not None else load_catalogue(rules)
    variant = json_field(data, "variant", str, where, "basic")
    if variant not in ("basic", "pros"):
        raise BadInput(f"{where}.variant: 'basic' or 'pros', not '{variant}'")
    is_pros = variant == "pros" if pros is None else pros
    used: set[str] = set()
    board = parse_board(rules, data, where, is_pros, used)
    open_ = _task_list(json_field(data, "open", list, where, []), f"{where}.open", cat, True)
    pile = _draw_pile(data, where, cat)
    bonus = _bonus(data, where, cat)
    spare = 0
    if "bonus" not in data and "hands" not in data:
        # a board file: the gap fillers not on the board are at hand
        spare = rules.fillers - board.fillers_used()
    if board.fillers_used() + sum(b.fillers for b in bonus) > rules.fillers:
        raise BadInput(f"{where}: {board.fillers_used()} gap fillers on the board and "
                       f"{sum(b.fillers for b in bonus)} on bonus tasks, the game has "
                       f"{rules.fillers}")
    hands = _hands(rules, data, where, used)
    reserve, known = _reserve(rules, data, where, used,
                              sum(t is None for h in hands for t in h))
    completed = _task_list(json_field(data, "completed", list, where, []),
                           f"{where}.completed", cat, False)
    on_turn = json_field(data, "on_turn", int, where, 1) - 1
    if hands and not 0 <= on_turn < len(hands):
        raise BadInput(f"{where}.on_turn: player 1..{len(hands)}")
    turns = json_field(data, "turns", int, where, 0)
    if turns < 0:
        raise BadInput(f"{where}.turns: cannot be negative")
    draw_due = json_field(data, "draw_due", bool, where, False)
    if draw_due and (known or not reserve or not hands):
        raise BadInput(f"{where}.draw_due: a draw waits for chance only from a reserve of "
                       "unknown order with tiles in it")
    if draw_due and any(t is None for t in open_):
        raise BadInput(f"{where}: a task to turn up and a tile to draw at once")
    state = GameState(rules, board, open_, pile, bonus, hands, reserve,
                      completed, max(on_turn, 0), is_pros, known, "playing", turns,
                      draw_due, spare, cat)
    hidden = state.hidden_tasks()
    if hidden > len(state.unseen_tasks()):
        raise BadInput(f"{where}: {hidden} unknown tasks, but the catalogue has only "
                       f"{len(state.unseen_tasks())} tasks not seen in the file")
    if hands and not state.chance_due:
        if not open_ and not pile:
            return state.but(status="won")
        return _lost_as_said(state.judged(), data, where)
    return state


def _lost_as_said(state: GameState, data: dict, where: str) -> GameState:
    """A game the file says is lost (`"status": "lost"`: the player on turn could not
    place a tile; written for a player who cannot see that hand) is lost; where the
    hand is known, it must indeed be stuck."""
    said = json_field(data, "status", str, where, "playing")
    if said not in ("playing", "lost"):
        raise BadInput(f"{where}.status: 'playing' or 'lost', not '{said[:20]}'")
    if said == "lost" and state.status != "lost":
        if None not in state.hands[state.on_turn]:
            raise BadInput(f"{where}.status: 'lost', but player {state.on_turn + 1} can "
                           "still place a tile")
        return state.but(status="lost")
    return state


def load_position(rules: Rules, path: str | Path, pros: bool | None = None,
                  catalogue: Catalogue | None = None) -> GameState:
    return read_position(rules, load_json(path, "position file"), f"position file {path}",
                         pros, catalogue)


def position_json(state: GameState) -> dict[str, Any]:
    """A state in the file format (what it leaves unknown as "?"); `read_position`
    reads it back to an equal state."""
    def text(t: Task | None) -> str:
        return UNKNOWN if t is None else t.text()

    out: dict[str, Any] = {"side": state.board.side,
                           "variant": "pros" if state.pros else "basic",
                           "pieces": board_json(state.board)}
    out.update({"open": [text(t) for t in state.open],
                "draw_pile": [text(t) for t in state.draw_pile]})
    if not state.board_only:
        out.update({"bonus": [{"task": text(b.task), "fillers": b.fillers}
                              for b in state.bonus],
                    "hands": [[UNKNOWN if t is None else t for t in h]
                              for h in state.hands],
                    "on_turn": state.on_turn + 1})
    out["completed"] = [text(t) for t in state.completed]
    if state.reserve_known:
        out["reserve"] = list(state.reserve)
    else:
        hidden_in_hands = sum(t is None for h in state.hands for t in h)
        if len(state.reserve) != len(state.unseen_tiles()) - hidden_in_hands:
            out["reserve"] = len(state.reserve)
    if state.turns:
        out["turns"] = state.turns
    if state.draw_due:
        out["draw_due"] = True
    if state.status == "lost" and not state.board_only:
        out["status"] = "lost"  # an unknown hand on turn cannot tell it again
    return out
