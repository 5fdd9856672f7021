"""What the web app knows about each game beyond its `Game` description: the verbs
offered on the page, where the clickable things are in the game's own SVG picture, and
how a puzzle's solution is written step by step.

The hit regions repeat the geometry of each game's `render.py` (drawn with an empty
title): a region is a rectangle in the picture's coordinates with the word that names
the thing in the game's move notation (a cell `c3`, a space `A2`, a pile `2`, a card
`G6`, a block `Bear`, a podium `red`, a lane `7`), so a click can be matched against the
words of the legal moves.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

# verbs offered per game: quick ones run on a server thread, the others in the pool
QUICK = ("show", "moves")
VERBS = {
    "take-it-higher": ("show", "moves", "score", "hint", "max", "solve"),
    "hoch-hinaus": ("show", "moves", "achievable", "reachable", "hint", "solve"),
    "tippi-toppi": ("show", "moves", "achievable", "reachable", "hint", "solve"),
    "topito": ("show", "moves", "plan", "race", "reachable", "hint", "solve"),
    "hippo": ("show", "moves", "best", "plan", "finish", "solve"),
}
#: the question of the play mode's Hint button
HINT_VERB = {"take-it-higher": "hint", "hoch-hinaus": "hint", "tippi-toppi": "hint",
             "topito": "hint", "hippo": "best"}
#: verbs that read a puzzle file rather than a position
PUZZLE_VERBS = ("solve",)
#: example position per game (puzzles/<game>/...), the page's first position
EXAMPLES = {
    "take-it-higher": "library/take-it-higher-easy-2026-1.json",
    "hoch-hinaus": "midgame-1.json",
    "tippi-toppi": "known-deck.json",
    "topito": "midgame.json",
    "hippo": "midgame-4p.json",
}

Region = dict[str, Any]


def example_position(game_id: str, puzzles: Path) -> str:
    """The text of the page's first position. Take it Higher!'s example files are full
    boards: its first position is a library puzzle's board with its first tile called."""
    try:
        text = (puzzles / game_id / EXAMPLES[game_id]).read_text(encoding="utf-8")
    except OSError:
        return "{}"
    if game_id != "take-it-higher":
        return text
    data = json.loads(text)
    return json.dumps({"game": game_id, "variant": data.get("variant", "basic"),
                       "placements": data.get("board", []),
                       "called": (data.get("to_come") or [None])[0]}, indent=1)


def _rect(kind: str, name: str, x: float, y: float, w: float, h: float) -> Region:
    return {"kind": kind, "id": name, "x": round(x, 1), "y": round(y, 1),
            "w": round(w, 1), "h": round(h, 1)}


def regions(game_id: str, state: Any) -> list[Region]:
    """The clickable rectangles of `game.picture(state, "")`, in drawing order (a
    later one lies over an earlier one)."""
    return _REGIONS[game_id](state)


def _tih(state: Any) -> list[Region]:
    rules = state.rules
    size, margin = 70.0, 30.0
    xs = [c.x for c in rules.cells]
    ys = [c.y for c in rules.cells]
    return [_rect("cell", c.id, margin + (c.x - min(xs)) * size,
                  margin + (max(ys) - c.y) * size, size, size) for c in rules.cells]


def _hh(state: Any) -> list[Region]:
    r = state.board.rules
    size, pad, top = 70, 20, 30
    out = []
    for s in range(r.n_spaces):
        row, c = r.rc(s)
        out.append(_rect("space", r.spaces[s], pad + c * size, top + row * size, size, size))
    return out


def _tt(state: Any) -> list[Region]:
    r = state.rules
    w, h, gap = 90.0, 130.0, 20.0
    out = [_rect("pile", str(p + 1), gap + p * (w + gap), 40.0, w, h)
           for p in range(len(state.tops))]
    y = 40 + h + 40 + 18 * len(state.open_tasks)
    for p, hand in enumerate(state.hands):
        y += 22
        for i, c in enumerate(hand):
            if c is not None and p == state.turn:
                out.append(_rect("card", r.card_name(c), gap + 80 + i * 40, y - 9, 34, 18))
    return out


def _topito(state: Any) -> list[Region]:
    from models.topito.render import table_lines

    rules, stacks = state.blocks.rules, state.blocks.stacks
    below = [line for line, _ in table_lines(state)]
    bw, bh, gap, margin = 110.0, 34.0, 30.0, 20.0
    levels = max(rules.n_blocks, 1)
    width = margin * 2 + rules.n_podiums * bw + (rules.n_podiums - 1) * gap
    width = max([width, *(margin * 2 + 6.6 * len(line) for line in below)])
    base = margin + 30 + levels * bh
    out = []
    for p, s in enumerate(stacks):
        x = margin + p * (bw + gap)
        out.append(_rect("podium", rules.podiums[p], x - 6, margin + 30, bw + 12,
                         levels * bh + 40))
        for i, b in enumerate(s):
            out.append(_rect("block", rules.characters[b], x, base - (i + 1) * bh, bw,
                             bh - 2))
    placed = {b for s in stacks for b in s}
    x, y = margin + 90, base + 50
    for b in range(rules.n_blocks):
        if b in placed:
            continue
        w = 8 + 8 * len(rules.characters[b])
        out.append(_rect("block", rules.characters[b], x, y, w, 28))
        x += w + 6
        if x > width - 60:
            x, y = margin + 90, y + 32
    return out


def _hippo(state: Any) -> list[Region]:
    rules = state.rules
    w, h, top, left = 48.0, 48.0, 14.0, 14.0
    return [_rect("lane", str(lane), left + (lane - 1) * w, top, w, rules.capacity * h + 24)
            for lane in range(1, rules.lanes + 1)]


_REGIONS = {"take-it-higher": _tih, "hoch-hinaus": _hh, "tippi-toppi": _tt,
            "topito": _topito, "hippo": _hippo}


def with_regions(svg: str, rects: list[Region]) -> str:
    """The SVG with a transparent rectangle over every region (class `hit`, the name in
    `data-id`, the kind in `data-kind`) for the page's clicks."""
    marks = "".join(
        f'<rect class="hit" data-kind="{html.escape(r["kind"])}" '
        f'data-id="{html.escape(r["id"])}" x="{r["x"]}" y="{r["y"]}" width="{r["w"]}" '
        f'height="{r["h"]}" fill="transparent"><title>{html.escape(r["id"])}</title></rect>'
        for r in rects)
    end = svg.rfind("</svg>")
    return svg[:end] + marks + svg[end:]


# ---------------------------------------------------------------- puzzles

def puzzle_steps(game_id: str, data: dict[str, Any]) -> list[Any]:
    """The stated solution of a puzzle file as the page's steps (see `step_key`)."""
    if game_id == "topito":
        return list(data.get("puzzle", {}).get("solution") or [])
    return list(data.get("solution") or [])


def step_key(game_id: str, step: Any) -> Any:
    """A step reduced to what the player chooses: equal keys, the same step."""
    if game_id == "hoch-hinaus" and isinstance(step, dict):
        return (step.get("tile"), tuple(step.get("on") or ()), step.get("filler"))
    if game_id == "topito" and isinstance(step, dict):
        return (str(step.get("block", "")).lower(), str(step.get("to", "")).lower())
    if game_id == "hippo" and isinstance(step, list):  # one roll: its placements
        return tuple(sorted(str(p).strip().lower() for p in step))
    return str(step).strip().lower()


def check_steps(game_id: str, data: dict[str, Any], steps: list[Any]) -> dict[str, Any]:
    """Is `steps` the puzzle's solution? (A puzzle has exactly one.)"""
    want = [step_key(game_id, s) for s in puzzle_steps(game_id, data)]
    got = [step_key(game_id, s) for s in steps]
    right = 0
    for a, b in zip(got, want, strict=False):
        if a != b:
            break
        right += 1
    solved = bool(want) and got == want
    return {"solved": solved, "steps": len(got), "needed": len(want),
            "message": "Solved: that is the one solution." if solved else
            (f"Not yet: {len(got)} of {len(want)} steps given." if got == want[:len(got)]
             else "Not the solution: try again (or reveal it).")}


#: the words of a puzzle's steps that are written on its picture, per game: group ->
#: a pattern of the picture's text naming the word (its first group, else the whole
#: text); the page makes those texts (or the shape around them) clickable. Texts are
#: matched whole, so the big numbers on cards are not piles; a pattern starting with
#: `*` finds several words in one text (Hoch Hinaus's hand line: `T04(O4-P1) ...`).
PICTURE_WORDS = {
    "take-it-higher": {"cell": r"^([a-z]\d+)$"},
    "hoch-hinaus": {"space": r"^([A-Z]\d+)$", "tile": r"*\b(T\d+)\("},
    "tippi-toppi": {"card": r"^([A-Z]\d)$", "pile": r"^pile (\d+)\b"},
    "topito": {"block": r"^(\w+)$", "to": r"^(\w+)$"},
    "hippo": {"lane": r"^(\d+)$", "colour": r"^(\w+): \d+ in stock"},
}


def puzzle_vocabulary(game_id: str, data: dict[str, Any]) -> dict[str, Any]:
    """What the page offers to write a step of this puzzle: groups of words, the form
    of a step (see library.js, `stepFrom`) and the words clickable on the picture."""
    out = _vocabulary(game_id, data)
    out["picture"] = PICTURE_WORDS[game_id]
    return out


def _vocabulary(game_id: str, data: dict[str, Any]) -> dict[str, Any]:
    if game_id == "take-it-higher":
        used = {p.split("@")[1] for p in data.get("board", []) if "@" in p}
        from models.take_it_higher.rules import load_rules

        cells = [c.id for c in load_rules(None).cells if c.id not in used]
        return {"form": "tile@cell", "order": list(data.get("to_come", [])),
                "groups": {"cell": cells}}
    if game_id == "hoch-hinaus":
        from models.hoch_hinaus.rules import load_rules as hh_rules

        spaces = list(hh_rules(None).spaces)
        return {"form": "tile-on-two", "groups": {"tile": list(data.get("hand", [])),
                                                  "space": spaces}}
    if game_id == "tippi-toppi":
        cards = list(dict.fromkeys([*data.get("hand", []), *data.get("draw_pile", [])]))
        return {"form": "card>pile", "groups": {"card": cards,
                                                "pile": [str(p + 1) for p in range(4)]}}
    if game_id == "topito":
        blocks = [b for s in data.get("podiums", {}).values() for b in s]
        return {"form": "block-to", "groups": {"block": blocks,
                                               "to": list(data.get("podiums", {}))}}
    position = data.get("position", {})
    colours = list(position.get("players", []))
    return {"form": "roll-placements", "rolls": list(data.get("rolls", [])),
            "groups": {"lane": [str(n) for n in range(1, 13)], "colour": colours}}


# ---------------------------------------------------------------- the position editor

def _rules(game_id: str) -> Any:
    from solver.serve.api import _describe, _plain

    game = _describe(game_id)
    return game.load_rules(None, **{o.name: _plain(o.default) for o in game.data_options})


def _piece(ident: str, label: str | None = None, colour: str | None = None,
           colour2: str | None = None) -> dict[str, Any]:
    """A piece of a picker: its word in the position file, its label, its colours."""
    out: dict[str, Any] = {"id": ident, "label": label or ident}
    if colour:
        out["colour"] = colour
    if colour2:
        out["colour2"] = colour2
    return out


def editor(game_id: str) -> dict[str, Any]:
    """What the page's editor offers beside the picture: the fields of the position file
    that are not placed on the picture (hands, open tasks, dice, last move, whose turn)
    and the pieces each is built from, all taken from the game's default rules data.

    A field: `key` (its name in the position file), `kind` (`hands`: a list of lists,
    one per player; `list`; `dice`; `move`: an object of choices; `turn`: who acts),
    `pieces` (the name of a list in `pieces`), `size` (most items per list), `unknown`
    (the file's word for an unknown item, if the field may hold it); a `turn` field is
    a seat number counted from `first` (as the game's file counts), or (`of`:
    `players`) a colour of the file's players."""
    rules = _rules(game_id)
    fields: list[dict[str, Any]] = []
    pieces: dict[str, list[dict[str, Any]]] = {}
    if game_id == "take-it-higher":
        pieces["tiles"] = [_piece(t.id) for t in rules.tiles]
        fields.append({"key": "called", "label": "Tile called", "kind": "one",
                       "pieces": "tiles", "empty": None})
    elif game_id == "hoch-hinaus":
        r = rules.rules
        pieces["tiles"] = [_piece(t.id, f"{t.id} " + " ".join(
            f"{r.colour_letters[c]}{n}" for c, n in t.faces), r.colour_rgb[t.faces[0][0]],
            r.colour_rgb[t.faces[1][0]])
            for t in r.tiles]
        pieces["tasks"] = [_piece(t.text(), f"{i} {t.text()}")
                           for i, t in zip(rules.catalogue.ids, rules.catalogue.tasks,
                                           strict=True)]
        fields += [{"key": "hands", "label": "Hands", "kind": "hands", "pieces": "tiles",
                    "size": r.hand_size, "unknown": "?"},
                   {"key": "open", "label": "Open tasks", "kind": "list", "pieces": "tasks",
                    "size": r.open_tasks},
                   {"key": "on_turn", "label": "On turn", "kind": "turn", "of": "hands",
                    "first": 1}]
    elif game_id == "tippi-toppi":
        pieces["cards"] = [_piece(rules.card_name(c), None, rules.colours[c[0]].rgb)
                           for c in rules.cards]
        pieces["tasks"] = [_piece(rules.task_name(t.task), f"{t.id} {rules.task_name(t.task)}")
                           for t in rules.catalogue]
        fields += [{"key": "hands", "label": "Hands", "kind": "hands", "pieces": "cards",
                    "size": rules.hand_size, "unknown": "?"},
                   {"key": "open_tasks", "label": "Open tasks", "kind": "list",
                    "pieces": "tasks", "size": rules.open_tasks},
                   {"key": "turn", "label": "On turn", "kind": "turn", "of": "hands",
                    "first": 1}]
    elif game_id == "topito":
        r = rules.rules
        pieces["cards"] = [_piece(c.text(r)) for c in rules.deck]
        pieces["blocks"] = [_piece(b) for b in r.characters]
        pieces["podiums"] = [_piece(p) for p in r.podiums]
        fields += [{"key": "hands", "label": "Hands", "kind": "hands", "pieces": "cards",
                    "size": rules.hand_size, "unknown": "?"},
                   {"key": "last_move", "label": "Last move", "kind": "move",
                    "parts": {"block": "blocks", "from": "podiums", "to": "podiums"}},
                   {"key": "on_turn", "label": "On turn", "kind": "turn", "of": "hands",
                    "first": 1}]
    else:
        pieces["faces"] = [_piece(str(n)) for n in range(1, rules.faces + 1)]
        fields += [{"key": "roll", "label": "Dice", "kind": "dice", "pieces": "faces",
                    "size": rules.dice},
                   {"key": "to_move", "label": "To move", "kind": "turn", "of": "players"}]
    return {"game": game_id, "fields": fields, "pieces": pieces}
