"""Pictures of Topito positions: coloured stacks on podiums, and the cards at the table
(hands, played piles, the deck), for the terminal and as SVG."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from models.topito.queries import forbidden_move
from models.topito.rules import Rules, Stacks, cards_text
from models.topito.state import GameState, format_move
from solver.render import Svg, text_on

COL_W = 12


def stacks_text(rules: Rules, stacks: Stacks, highlight: set[int] | None = None) -> Text:
    """The podiums side by side, each stack drawn bottom to top as coloured blocks;
    out-of-play blocks listed below."""
    highlight = highlight or set()
    height = max((len(s) for s in stacks), default=0)
    out = Text()
    for row in range(height - 1, -1, -1):
        for s in stacks:
            if row < len(s):
                b = s[row]
                bg = rules.character_rgb[b]
                label = rules.characters[b][:COL_W - 2].center(COL_W - 2)
                style = f"{'bold ' if b in highlight else ''}{text_on(bg)} on {bg}"
                out.append(" ")
                out.append(label, style=style)
                out.append(" ")
            else:
                out.append(" " * COL_W)
        out.append("\n")
    for p in range(rules.n_podiums):
        bg = rules.podium_rgb[p]
        out.append("▀" * COL_W, style=bg)
    out.append("\n")
    for p in range(rules.n_podiums):
        out.append(rules.podiums[p].center(COL_W), style=f"bold {rules.podium_rgb[p]}")
    out.append("\n")
    placed = {b for s in stacks for b in s}
    rest = [b for b in range(rules.n_blocks) if b not in placed]
    out.append("out of play: ", style="dim")
    if not rest:
        out.append("none", style="dim")
    for b in rest:
        bg = rules.character_rgb[b]
        out.append(f" {rules.characters[b]} ", style=f"{text_on(bg)} on {bg}")
        out.append(" ")
    return out


def stacks_svg(rules: Rules, stacks: Stacks, title: str = "", below: Sequence[str] = ()
               ) -> Svg:
    """An SVG picture: the podiums as coloured bars, blocks as labelled boxes, the
    out-of-play blocks in a row below, then the lines `below` (the picture is made wide
    and tall enough for them)."""
    bw, bh, gap, margin = 110.0, 34.0, 30.0, 20.0
    levels = max(rules.n_blocks, 1)
    width = margin * 2 + rules.n_podiums * bw + (rules.n_podiums - 1) * gap
    width = max([width, *(margin * 2 + 6.6 * len(line) for line in below)])
    base = margin + 30 + levels * bh
    svg = Svg(width, base + 110 + 18 * len(below))
    for i, line in enumerate(below):
        svg.text(margin, base + 122 + 18 * i, line, size=12, anchor="start")
    if title:
        svg.text(width / 2, margin, title, size=15, bold=True)
    for p, s in enumerate(stacks):
        x = margin + p * (bw + gap)
        rgb = rules.podium_rgb[p]
        svg.polygon([(x - 6, base), (x + bw + 6, base), (x + bw + 6, base + 16),
                     (x - 6, base + 16)], rgb)
        svg.text(x + bw / 2, base + 30, rules.podiums[p], size=13, bold=True)
        for i, b in enumerate(s):
            y = base - (i + 1) * bh
            fill = rules.character_rgb[b]
            svg.polygon([(x, y), (x + bw, y), (x + bw, y + bh - 2), (x, y + bh - 2)], fill)
            svg.text(x + bw / 2, y + bh / 2 - 1, rules.characters[b], size=13,
                     fill=text_on(fill))
    placed = {b for s in stacks for b in s}
    rest = [b for b in range(rules.n_blocks) if b not in placed]
    y = base + 50
    svg.text(margin, y + 14, "out of play:" if rest else "out of play: none", size=12,
             anchor="start")
    x = margin + 90
    for b in rest:
        w = 8 + 8 * len(rules.characters[b])
        fill = rules.character_rgb[b]
        svg.polygon([(x, y), (x + w, y), (x + w, y + 28), (x, y + 28)], fill)
        svg.text(x + w / 2, y + 14, rules.characters[b], size=11, fill=text_on(fill))
        x += w + 6
        if x > width - 60:
            x, y = margin + 90, y + 32
    return svg


def distance_text(d: int | None, cap: int) -> str:
    return f">{cap}" if d is None else str(d)


def hint_table(result: object) -> Table:
    """Ranked moves of a hint: the value, moves left to the nearest card and per card,
    and the chances of a photo for another player now (gift) or the next player one
    move from a card (threat)."""
    cards = result.considered
    table = Table(title="Moves ranked (moves still needed after this move)")
    table.add_column("#", justify="right")
    table.add_column("move")
    table.add_column("value", justify="right")
    table.add_column("nearest", justify="right")
    table.add_column("card")
    for i in range(len(cards)):
        table.add_column(f"c{i + 1}", justify="right")
    chances = getattr(result, "chances", None) is not None
    if chances:
        table.add_column("gift", justify="right")
        table.add_column("threat", justify="right")
    for m in result.moves:
        style = "bold green" if m.nearest == 0 else ("bold" if m.rank == 1 else "")
        extra = [f"{m.others_meet:.1%}", f"{m.threat:.1%}"] if chances else []
        table.add_row(str(m.rank), m.move, f"{m.value:.2f}",
                      distance_text(m.nearest, result.max_moves), m.card or "-",
                      *[distance_text(m.distances[c], result.max_moves) for c in cards],
                      *extra, style=style)
    return table


def race_text(result: object) -> str:
    """'race: seat 1 (you) 3 of 7, seat 2 5 of 7' from a hint's race."""
    seats = getattr(result, "race", [])
    if not seats:
        return ""
    to_win = seats[0].played + seats[0].to_go
    return "race: " + ", ".join(
        f"seat {s.seat}{' (on turn)' if s.on_turn else ''} {s.played} of {to_win}"
        for s in seats)


def table_lines(state: GameState) -> list[tuple[str, str]]:
    """The cards at the table in words, one (line, style) per line: the last move, each
    hand and played pile, the deck."""
    blocks = state.blocks
    r = blocks.rules
    lines = []
    if blocks.last is not None:
        forbidden = forbidden_move(blocks)
        lines.append((f"last move: {_format_last(state)}"
                      + (f" (so '{forbidden}' is not allowed now)" if forbidden else ""), ""))
    winners = state.winners()
    for p, hand in enumerate(state.hands):
        mark = " (to move)" if p == state.turn and state.end() is None else ""
        mark += " WINS" if p in winners else ""
        pile = state.played[p]
        lines.append((f"seat {p + 1}{mark}: " + ("; ".join(cards_text(r, hand)) or "no cards"),
                      "bold" if mark else ""))
        lines.append((f"  played {len(pile)}" + (": " + "; ".join(cards_text(r, pile))
                                                 if pile else ""), "dim"))
        met = cards_text(r, state.met_now(p))
        if met:
            lines.append((f"  photo time! {'; '.join(met)}", "bold green"))
    if state.hands:
        known = ("" if state.deck_cards is None else
                 " known, order unknown: " + "; ".join(cards_text(r, state.deck_cards)))
        lines.append((f"deck: {state.deck_count} card(s)"
                      + (known if state.deck is None else " in a known order"), "dim"))
    if state.photo_queue:
        lines.append((f"photo time: seat {state.photo_queue[0] + 1} draws "
                      f"{state.draws_due} card(s)", "bold"))
    return lines


def _format_last(state: GameState) -> str:
    return format_move(state.blocks.rules, state.blocks.last)


def table_text(state: GameState) -> Group:
    """The stacks and the cards at the table, for the terminal."""
    parts: list = [stacks_text(state.blocks.rules, state.blocks.stacks)]
    parts += [Text(line, style=style) for line, style in table_lines(state)]
    return Group(*parts)


def table_svg(state: GameState, title: str = "") -> Svg:
    """The stacks as a picture, the cards at the table written under it."""
    return stacks_svg(state.blocks.rules, state.blocks.stacks, title,
                      [line for line, _ in table_lines(state)])
