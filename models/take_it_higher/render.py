"""Pictures of a Take it Higher! board: coloured terminal blocks and SVG octagons; the
game's view (`VIEW`) and the terminal drawings of its verbs' answers."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from models.take_it_higher.positions import format_placement
from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.sheet import ScoreSheet, state_sheet
from models.take_it_higher.state import GameState
from solver.errors import ToppiError
from solver.game import GameView
from solver.render import Svg, text_on

if TYPE_CHECKING:
    from models.take_it_higher.answers import (
        ExactAnswer,
        HintAnswer,
        LearnAnswer,
        LearnedAnswer,
        ScoreAnswer,
    )
    from models.take_it_higher.answers_max import AutoMaxAnswer, DrawsAnswer, MaxAnswer
    from models.take_it_higher.draws import DrawsResult
    from models.take_it_higher.exact import ExactResult
    from models.take_it_higher.hint import HintResult
    from models.take_it_higher.learned.policy import LearnedResult
    from models.take_it_higher.maximum import MaxResult
    from models.take_it_higher.queries import TileEntry
    from solver.verbs import Call

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
    caption = "expected final score under the best play after the move"
    if result.unvalued:
        caption += (f"; not valued within the time limit: {', '.join(result.unvalued)}")
    table = Table(title=f"Where to put {result.tile} (exact: every set of tiles to come "
                        f"averaged, {result.states:,} positions valued)", caption=caption)
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
        svg.hit("cell", c.id, cx - r, cy - r, size, size)
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


# --------------------------------------------------------------------------- the view

class TakeItHigherView(GameView):
    """The board for the terminal and as SVG; `play`'s hint (the sampled hint's table)
    and its final report (the score sheet and the hindsight optimum of the draw)."""

    def terminal(self, state: GameState) -> Group:
        rules = state.rules
        lines: list[RenderableType] = [board_text(rules, state.board, state.ships_on)]
        if state.called is not None:
            lines.append(called_tile_line(rules, state.called, len(state.placements) + 1))
        else:
            lines.append(Text(f"{len(state.board)} of {rules.board_size} cells filled"))
        return Group(*lines)

    def picture(self, state: GameState, title: str) -> Svg:
        return board_svg(state.rules, state.board, state.ships_on, title=title)

    def hint(self, rules: Rules, observation: GameState, options: dict[str, Any]
             ) -> RenderableType:
        """The hint for the called tile by the hint's default method (or the one the
        options ask for: --samples the sampled, --values the learned); its futures are
        seeded by the turn, so the same position gets the same hint."""
        from models.take_it_higher.advice import HINT_CAP, advise, resolve_method

        if observation.called is None:
            return Text("No tile is called yet.", style="yellow")
        tile = observation.called
        try:
            method, chosen = resolve_method(observation, tile,
                                            samples=options.get("samples"),
                                            values=options.get("values"))
            cap = options.get("hint_time")
            advice = advise(observation, tile, method, samples=options.get("samples"),
                            seed=len(observation.placements) + 1,
                            time_limit=cap if cap is not None else HINT_CAP,
                            values=options.get("values"),
                            lookahead=options.get("lookahead"),
                            futures=options.get("futures"), calls=options.get("calls"),
                            chosen=chosen)
        except ToppiError as exc:
            return Text(f"No hint: {exc}", style="yellow")
        return Group(method_line(advice.method, advice.chosen, advice.cut),
                     hint_result_table(advice.result))

    def final_report(self, rules: Rules, end: GameState, options: dict[str, Any]) -> Group:
        """The score sheet, the moves, and the hindsight optimum of the same draw."""
        from models.take_it_higher.draws import hindsight_optimum
        from models.take_it_higher.game import PLAYED_OPTIMUM_TIME

        sheet = state_sheet(end)
        lines: list[RenderableType] = [sheet_table(sheet), Text(
            "Placements: " + " ".join(format_placement(p) for p in end.placements))]
        if options.get("no_optimum") or not end.is_terminal():
            return Group(*lines)
        seconds = options.get("optimum_time") or PLAYED_OPTIMUM_TIME
        draw = [rules.tile_by_id[p.tile] for p in end.placements]
        optimum, proven = hindsight_optimum(rules, end.variant, draw, seconds)
        if optimum is None:
            lines.append(Text("The hindsight optimum was not found in time.", style="yellow"))
            return Group(*lines)
        how = "proven optimal" if proven else f"best found in {seconds:g} s"
        share = f" ({100 * sheet.total / optimum:.0f}%)" if optimum else ""
        line = Text("You scored ")
        line.append(str(sheet.total), style="bold")
        line.append(f"{share}; knowing every tile in advance (hindsight, all-seeing), the "
                    "best possible with this draw is ")
        line.append(str(optimum), style="bold")
        line.append(f" ({how}).")
        lines.append(line)
        return Group(*lines)


VIEW = TakeItHigherView()


# --------------------------------------------------------------------------- answers

def show_score(result: ScoreAnswer, call: Call) -> None:
    """`score`: the board, the score sheet, and a word when the board is not full."""
    from solver.render import stdout

    state, rules = result.state, result.state.rules
    stdout.print(board_text(rules, state.board, state.ships_on))
    stdout.print(sheet_table(result))
    if not result.complete:
        stdout.print(f"[yellow]The board is not full ({len(state.placements)} of "
                     f"{rules.board_size} tiles); only completed rows score.[/yellow]")


def show_hint(result: HintAnswer | ExactAnswer | LearnedAnswer, call: Call) -> None:
    """`hint`: the board, the method and the ranked cells."""
    from solver.render import stdout

    state = result.state
    stdout.print(board_text(state.rules, state.board, state.ships_on))
    stdout.print(method_line(result.method, result.chosen, result.cut_by_time))
    stdout.print(hint_result_table(result))


def method_line(method: str, chosen: str, cut: bool) -> Text:
    """Which method made the hint and why, and a word when the time limit cut it."""
    from models.take_it_higher.advice import method_text

    line = Text("Method: ")
    line.append(method_text(method), style="bold")
    line.append(f" ({chosen})" if chosen else "")
    if cut:
        line.append(" (cut by the time limit: the best found within it)", style="yellow")
    return line


def hint_result_table(result: HintResult | ExactResult | LearnedResult) -> Table:
    """The table of a hint's result, by its method."""
    from models.take_it_higher.exact import ExactResult
    from models.take_it_higher.learned.policy import LearnedResult

    if isinstance(result, LearnedResult):
        return learned_table(result)
    if isinstance(result, ExactResult):
        return exact_table(result)
    return hint_table(result)


def show_max(result: MaxAnswer | AutoMaxAnswer | DrawsAnswer, call: Call) -> None:
    """`max`: the board, its score sheet and how far it is proven; with --draws the
    table of the draws and their distribution."""
    from models.take_it_higher.answers_max import DrawsAnswer
    from solver.render import stdout

    if isinstance(result, DrawsAnswer):
        draws_tables(result)
        return
    rules = call.rules()
    stdout.print(board_text(rules, {c: rules.tile_by_id[t] for c, t in result.board.items()}))
    stdout.print(sheet_table(result.sheet))
    by = backend_text(result)
    if call.file is not None:  # `max FILE`: the best finish of that board
        stdout.print(f"From the board of {call.file}: {result.reading}")
    if result.status == "optimal":
        stdout.print(f"[bold green]Maximum {result.score}, proven optimal[/bold green] "
                     f"({by}, {result.seconds:.2f} s)")
    else:
        stdout.print(f"[bold yellow]Best found {result.score}; the maximum is at most "
                     f"{result.bound}[/bold yellow] (time limit reached, {by}, "
                     f"{result.seconds:.2f} s)")
    stdout.print("Placements: " + " ".join(result.placements))


def backend_text(result: MaxResult) -> str:
    """"cpsat", or for auto which back-end proved it ("auto: proved by maxsat") or,
    unproven, whose board and whose bound."""
    from models.take_it_higher.auto import AutoMaxResult

    if not isinstance(result, AutoMaxResult):
        return result.backend
    if result.proved_by is not None:
        return f"auto: proved by {result.proved_by}"
    return f"auto: board by {result.best_by}, bound by {result.bound_by}"


def draws_tables(result: DrawsResult) -> None:
    """`max --draws N`: each draw's optimum (up to 20 draws), then their distribution."""
    from solver.render import stdout

    if result.draws <= 20:
        unproven = any(r.score is not None and not r.proven for r in result.records)
        per_draw = Table(title="Draws", caption="? = best found in --time-limit, not proven"
                         if unproven else None)
        for name in ("draw", "seed", "hindsight optimum", "seconds"):
            per_draw.add_column(name, justify="right")
        for r in result.records:
            opt = "-" if r.score is None else f"{r.score}{'' if r.proven else '?'}"
            per_draw.add_row(str(r.draw), str(r.seed), opt, f"{r.seconds:.2f}")
        stdout.print(per_draw)
    solved = result.backend
    if result.solved_with and result.solved_with != result.backend:
        solved = f"{result.backend}: {result.solved_with} for every draw"
    table = Table(title=f"Hindsight optimum over {result.draws} draws",
                  caption=f"{result.variant}, {solved}, {result.seconds:.1f} s")
    table.add_column("")
    table.add_column("value", justify="right")
    if result.mean is not None and result.quartiles is not None:
        q1, _, q3 = result.quartiles
        for name, value in (("mean", f"{result.mean:.1f}"), ("median", f"{result.median:g}"),
                            ("quartiles (Q1-Q3)", f"{q1:g} - {q3:g}"),
                            ("min", str(result.min)), ("max", str(result.max))):
            table.add_row(name, value)
    table.add_row("proven optimal", f"{result.proven} of {result.draws}")
    if result.found < result.draws:
        table.add_row("no board found in time", str(result.draws - result.found))
    stdout.print(table)


def show_learn(result: LearnAnswer, call: Call) -> None:
    """`learn`: what was written (on stderr: the values file is the output)."""
    from solver.render import stderr

    stderr.print(f"{result.games:,} games learned; {result.entries:,} table entries "
                 f"written to {result.out}")


def show_tiles(result: list[TileEntry], call: Call) -> None:
    """`tiles`: the letter table, each stripe in its colour."""
    from solver.render import stdout

    rules = call.rules()
    table = Table(title=rules.name)
    table.add_column("tile")
    for d in rules.directions:
        table.add_column(d.name)
    for t in result:
        table.add_row(t.id, *[Text(s, style=rules.colour_rgb[s]) for s in t.stripes.values()])
    stdout.print(table)
