"""Pictures of a Take it Higher! board: coloured terminal blocks and SVG octagons."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.sheet import ScoreSheet
from solver.render import Svg, text_on

if TYPE_CHECKING:
    from models.take_it_higher.exact import ExactResult
    from models.take_it_higher.hint import HintResult
    from models.take_it_higher.learned.policy import LearnedResult

CELL_W = 6


def _ship_rgb(rules: Rules, ship: str) -> str:
    return rules.colour_rgb.get(ship) or rules.stud_rgb.get(ship, "#888888")


def board_text(rules: Rules, board: dict[str, Tile],
               ships_on: Mapping[str, Sequence[str]] | None = None) -> Text:
    """The board as three text rows per board row: the stripes (one glyph per direction
    in its colour), the tile with its stud colour, and spaceships on the tile."""
    ships_on = ships_on or {}
    xs = sorted({c.x for c in rules.cells})
    ys = sorted({c.y for c in rules.cells}, reverse=True)
    at = {(c.x, c.y): c.id for c in rules.cells}
    out = Text()
    for y in ys:
        for part in range(3):
            for x in xs:
                cid = at.get((x, y))
                out.append_text(_cell_part(rules, cid, board.get(cid) if cid else None,
                                           ships_on.get(cid, ()) if cid else (), part))
            out.append("\n")
    return out


def called_tile_line(rules: Rules, tile: Tile, turn: int) -> Text:
    """`Turn 3/24: called tile GJ (gold)  vertical | white  horizontal - blue ...`,
    stripes coloured."""
    line = Text(f"Turn {turn}/{rules.board_size}: called tile ")
    bg = rules.stud_rgb.get(tile.stud or "", "#444444")
    line.append(f" {tile.id} ", style=f"bold {text_on(bg)} on {bg}")
    if tile.stud:
        line.append(f" ({tile.stud})")
    for d, direction in enumerate(rules.directions):
        colour = tile.stripes[d]
        line.append(f"  {direction.name} ")
        line.append(f"{direction.glyph} {colour}", style=f"bold {rules.colour_rgb[colour]}")
    return line


def _cell_part(rules: Rules, cid: str | None, tile: Tile | None, ships: Sequence[str],
               part: int) -> Text:
    if cid is None:
        return Text(" " * CELL_W)
    if tile is None:
        return Text(cid.center(CELL_W) if part == 1 else " " * CELL_W, style="dim")
    t = Text()
    if part == 0:
        glyphs = Text()
        for d, direction in enumerate(rules.directions):
            glyphs.append(direction.glyph, style=f"bold {rules.colour_rgb[tile.stripes[d]]}")
        pad = CELL_W - len(glyphs.plain)
        t.append(" " * (pad // 2))
        t.append_text(glyphs)
        t.append(" " * (pad - pad // 2))
    elif part == 1:
        bg = rules.stud_rgb.get(tile.stud or "", "#444444")
        label = tile.id.center(CELL_W - 2)
        t.append(" ")
        t.append(label, style=f"bold {text_on(bg)} on {bg}")
        t.append(" ")
    else:
        marks = Text()
        for s in ships[:CELL_W - 2]:
            marks.append("▲", style=f"bold {_ship_rgb(rules, s)}")
        pad = CELL_W - len(marks.plain)
        t.append(" " * (pad // 2))
        t.append_text(marks)
        t.append(" " * (pad - pad // 2))
    return t


def sheet_table(sheet: ScoreSheet) -> Table:
    """The rulebook's score sheet as a table."""
    table = Table(title=f"Score sheet ({sheet.variant})", show_header=True)
    table.add_column("")
    table.add_column("tiles", justify="right")
    table.add_column("x", justify="right")
    table.add_column("points", justify="right")
    if sheet.take_it_higher_bonus is not None:
        where = f" (ring over {sheet.ring_over})" if sheet.ring_over else ""
        table.add_row(f"Take it Higher! bonus{where}", "", "",
                      str(sheet.take_it_higher_bonus))
    for line in [*sheet.studs, *sheet.colours]:
        table.add_row(line.name.capitalize() + "s", str(line.tiles), str(line.value),
                      str(line.points))
    table.add_row("[bold]Total[/bold]", "", "", f"[bold]{sheet.total}[/bold]")
    return table


def hint_table(result: HintResult) -> Table:
    """Ranked hint options with their estimated final scores."""
    if result.sampled:
        how = (f"{result.samples} sampled futures of the {result.unseen} unseen tiles, "
               f"{result.seconds:.2f} s")
        caption = ("± = standard error over the futures; the order of the tiles to come "
                   "is never read")
        if result.lead is not None:
            caption += (f"; best leads the second by {result.lead:.1f} "
                        f"± {result.lead_stderr:.1f} on the same futures")
    else:
        how, caption = "the last tile: every option scored exactly", None
    table = Table(title=f"Where to put {result.tile} ({how})", caption=caption)
    table.add_column("rank", justify="right")
    table.add_column("cell")
    table.add_column("launch")
    table.add_column("estimated final score", justify="right")
    table.add_column("futures", justify="right")
    for i, o in enumerate(result.options, 1):
        spread = f" ± {o.stderr:.1f}" if o.stderr is not None else ""
        table.add_row(str(i), o.cell, "+".join(o.launch) or "-",
                      f"{o.estimate:.1f}{spread}", str(o.samples))
    return table


def exact_table(result: ExactResult) -> Table:
    """The cells for the called tile with their exact expected final scores."""
    table = Table(title=f"Where to put {result.tile} (exact: every set of tiles to come "
                        f"averaged, {result.states:,} positions valued)",
                  caption="expected final score under the best play after the move")
    table.add_column("rank", justify="right")
    table.add_column("cell")
    table.add_column("expected final score", justify="right")
    table.add_column("loss", justify="right")
    best = result.cells[0].value
    for i, c in enumerate(result.cells, 1):
        table.add_row(str(i), c.cell, f"{c.value:.3f}", f"{best - c.value:.3f}")
    return table


def learned_table(result: LearnedResult) -> Table:
    """The cells for the called tile with their expected final row points under the
    learned value."""
    if result.exact:
        title = (f"Where to put {result.tile} (the endgame: every cell valued exactly, "
                 "the best play after the move, every set of tiles to come averaged)")
        caption = "expected final row points under the best play after the move"
    else:
        title = (f"Where to put {result.tile} (learned value of boards, {result.games:,} "
                 f"games of self-play; {result.values} values)")
        what = "points (rows and the ring's bonus)" if result.ships else "row points"
        deeper = (f"on {result.futures} sampled futures of {result.calls} call"
                  f"{'s' * (result.calls != 1)} (± standard error)" if result.futures
                  else "one call ahead")
        caption = (f"expected final {what} of an honest player after the move; the "
                   f"best {result.looked_ahead} valued {deeper}")
    table = Table(title=title, caption=caption)
    table.add_column("rank", justify="right")
    table.add_column("cell")
    if result.ships:
        table.add_column("launch")
    table.add_column("expected points" if result.ships else "expected rows", justify="right")
    table.add_column("looked ahead")
    for i, c in enumerate(result.cells, 1):
        launch = [", ".join(c.launch) or "-"] if result.ships else []
        error = f" ± {c.error:.1f}" if c.futures else ""
        ahead = "exact" if result.exact else f"{c.futures} futures" if c.futures \
            else "one call" if c.deep else ""
        table.add_row(str(i), c.cell, *launch, f"{c.value:.1f}{error}", ahead)
    return table


def board_svg(rules: Rules, board: dict[str, Tile],
              ships_on: Mapping[str, Sequence[str]] | None = None, title: str = "") -> Svg:
    """Octagonal tiles with their stripes, stud and letter; spaceships as triangles."""
    ships_on = ships_on or {}
    size = 70.0
    margin = 30.0
    xs = [c.x for c in rules.cells]
    ys = [c.y for c in rules.cells]
    width = (max(xs) - min(xs) + 1) * size + 2 * margin
    height = (max(ys) - min(ys) + 1) * size + 2 * margin + (24 if title else 0)
    svg = Svg(width, height, "#1d2330")
    top = margin + (24 if title else 0)
    if title:
        svg.text(width / 2, margin / 2 + 8, title, 16, "#ffffff", bold=True)
    r = size * 0.5
    cut = r * math.tan(math.pi / 8)
    for c in rules.cells:
        cx = margin + (c.x - min(xs)) * size + r
        cy = top + (max(ys) - c.y) * size + r
        octagon = [(cx + dx, cy + dy) for dx, dy in
                   [(-cut, -r), (cut, -r), (r, -cut), (r, cut), (cut, r), (-cut, r),
                    (-r, cut), (-r, -cut)]]
        tile = board.get(c.id)
        if tile is None:
            svg.polygon(octagon, "#2c3445", "#55607a")
            svg.text(cx, cy, c.id, 12, "#8893aa")
            continue
        svg.polygon(octagon, "#101010", "#000000")
        for d, direction in enumerate(rules.directions):
            a = math.radians(direction.angle)
            dx, dy = math.cos(a) * r * 0.95, -math.sin(a) * r * 0.95
            svg.line(cx - dx, cy - dy, cx + dx, cy + dy, rules.colour_rgb[tile.stripes[d]], 7)
        stud_rgb = rules.stud_rgb.get(tile.stud or "", "#777777")
        svg.circle(cx, cy, r * 0.33, stud_rgb, "#000")
        svg.text(cx, cy, tile.letter, 13, text_on(stud_rgb), bold=True)
        for i, s in enumerate(ships_on.get(c.id, [])):
            sx = cx - r * 0.55 + i * 10
            sy = cy + r * 0.62
            svg.polygon([(sx, sy - 7), (sx + 5, sy + 4), (sx - 5, sy + 4)],
                        _ship_rgb(rules, s), "#000")
    return svg
