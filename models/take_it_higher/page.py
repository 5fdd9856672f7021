"""Take it Higher!'s answers in the player's words and the page's buttons
(solver/web.py: `explain`, `form`)."""

from __future__ import annotations

from typing import Any

from solver.web import Explained, cut_words, explain_by, offer


def _move(tile: str, cell: str, launch: list[str] | tuple[str, ...] = ()) -> str:
    """A placement as the game writes it: GA@c3, GA@c3+white with a launch."""
    return f"{tile}@{cell}" + "".join(f"+{ship}" for ship in launch)


def _launch_words(launch: list[str]) -> str:
    return f", launching {' and '.join(launch)}" if launch else ""


def hint(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """The cells for the called tile, best first, with the method's value."""
    tile = answer["tile"]
    if answer.get("method") == "sampled":
        ranked = answer["options"]
        best = ranked[0]
        how = (f"estimated final score {best['estimate']:.1f} ± {best['stderr']:.1f}, "
               f"{answer['samples']} sampled futures")
        certainty = "estimate"
    else:
        ranked = answer["cells"]
        best = ranked[0]
        exact = answer.get("method") == "exact" or answer.get("exact") is True
        how = (f"expected final score {best['value']:.1f}, "
               + ("exact: every set of tiles to come averaged" if exact
                  else "learned values"))
        certainty = "proven" if exact and not answer.get("cut_by_time") else "estimate"
    moves = [_move(tile, c["cell"], c.get("launch") or ()) for c in ranked]
    text = (f"Place the tile {tile} on {best['cell']}{_launch_words(best.get('launch'))} "
            f"({how}).{cut_words(answer)}")
    return Explained(text, certainty, moves, [best["cell"]])


def _placed_cells(position: dict[str, Any]) -> set[str]:
    cells = set()
    for p in position.get("placements") or []:
        text = p.get("cell") if isinstance(p, dict) else p
        parts = str(text).split("+")[0].split("@")
        if len(parts) == 2:
            cells.add(parts[1])
    return cells


def maximum(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """`max`: the best score from the board (the called tile's cell in that board is
    the move), or the game's overall maximum."""
    score, proven = answer["score"], answer["status"] == "optimal"
    worth = (f"{score} points (proven)" if proven else
             f"{score} points found, at most {answer['bound']} (not proven)")
    board, reading = answer["board"], str(answer.get("reading", ""))
    placed = _placed_cells(position)
    called = position.get("called")
    if "best finish of the board" in reading:  # `max FILE`
        assumed = ("if the tiles still to come were the best ones" if "freely" in reading
                   else "with the tiles to come as given")
        text = f"Best score from here: {worth}, {assumed}"
        cell = next((c for c, t in board.items() if t == called and c not in placed), None)
        moves = [_move(called, cell)] if called and cell else []
        text += f"; in that board {called} goes on {cell}." if moves else "."
        return Explained(text + cut_words(answer), "proven" if proven else "best found",
                         moves, [cell] if moves else [])
    return Explained(f"The game's best score over every choice of tiles: {worth}."
                     + cut_words(answer), "proven" if proven else "best found")


def score(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    final = "final score" if answer.get("complete") else "points so far"
    return Explained(f"The board scores {answer['total']} {final} ({answer['variant']} "
                     "rules).", "proven")


EXPLAIN = {"hint": hint, "max": maximum, "score": score}


def explain(verb: str, position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    return explain_by(EXPLAIN, verb, position, answer)


def _ships(position: dict[str, Any]) -> bool:
    """Whether the file's variant plays spaceships (`max` from a board does not)."""
    from models.take_it_higher.game import GAME
    from models.take_it_higher.positions import position_from_dict
    from solver.errors import ToppiError
    from solver.web import default_rules

    try:
        read = position_from_dict(default_rules(GAME), position, "position file")
    except ToppiError:
        return False
    return read.variant is not None and read.variant.ships is not None


def form(position: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The hint needs a called tile; `max` answers the board's best finish (not with
    spaceships)."""
    called = position.get("called")
    ships = _ships(position)
    return {
        "hint": offer(f"Hint: where to put {called}" if called else
                      "Hint (call a tile first)", offered=bool(called)),
        "max": offer("Best score from here" if not ships else
                     "Best score from here (not with spaceships)", offered=not ships),
        "score": offer("Score so far"),
    }
