"""Pictures of a Hoch Hinaus! board: coloured terminal blocks and SVG squares.

Each space shows its visible face and its height (pieces stacked there); neighbouring
spaces whose tops are one tile are joined (═ or ║), so the tiles can be told apart.
"""

from __future__ import annotations

from rich.text import Text

from models.hoch_hinaus.board import Board
from solver.render import Svg, text_on

CELL = 7


def _joined(board: Board, a: int, b: int) -> bool:
    return bool(board.stacks[a]) and board.top_piece(a) == board.top_piece(b)


def board_text(board: Board, marks: set[int] | None = None) -> Text:
    """Rows of coloured cells 'G3 ²': face and height; marks underline given spaces."""
    r = board.rules
    marks = marks or set()
    out = Text()
    out.append("   " + "".join(chr(65 + c).center(CELL + 1) for c in range(r.columns)) + "\n")
    for row in range(r.rows):
        out.append(f"{row + 1:>2} ")
        for c in range(r.columns):
            s = row * r.columns + c
            face, h = board.top(s), board.height(s)
            label = f"{r.face_text(face)} h{h}" if face is not None else f"·· h{h}"
            style = "dim"
            if face is not None:
                bg = r.colour_rgb[face[0]]
                style = f"bold {text_on(bg)} on {bg}"
            if s in marks:
                style += " underline"
            out.append(label.center(CELL), style=style)
            if c + 1 < r.columns:
                out.append("═" if _joined(board, s, s + 1) else " ")
        out.append("\n")
        if row + 1 < r.rows:
            out.append("   ")
            for c in range(r.columns):
                s = row * r.columns + c
                out.append(("║" if _joined(board, s, s + r.columns) else " ").center(CELL))
                out.append(" ")
            out.append("\n")
    return out


def board_svg(board: Board, title: str = "") -> Svg:
    """The board seen from above: coloured squares with number and height, tiles framed."""
    r = board.rules
    size, pad, top = 70, 20, 30
    svg = Svg(pad * 2 + size * r.columns, top + pad + size * r.rows,
              "#dce6f5" if board.side == "blue" else "#e6dcf5")
    if title:
        svg.text(pad, 15, title, size=13, anchor="start", bold=True)
    for s in range(r.n_spaces):
        row, c = r.rc(s)
        x, y = pad + c * size, top + row * size
        face, h = board.top(s), board.height(s)
        fill = r.colour_rgb[face[0]] if face is not None else "#f4f4f4"
        svg.polygon([(x + 3, y + 3), (x + size - 3, y + 3), (x + size - 3, y + size - 3),
                     (x + 3, y + size - 3)], fill, "#555", 1.0)
        if face is not None:
            svg.text(x + size / 2, y + size / 2, str(face[1]), size=26, fill=text_on(fill),
                     bold=True)
        svg.text(x + size - 12, y + 14, f"h{h}", size=11,
                 fill=text_on(fill) if face is not None else "#666")
        svg.text(x + 12, y + size - 12, r.spaces[s], size=9,
                 fill=text_on(fill) if face is not None else "#999")
    for a, b in r.pairs:  # one tile on top of both: draw the bridge
        if _joined(board, a, b):
            (ra, ca), (rb, cb) = r.rc(a), r.rc(b)
            x1, y1 = pad + ca * size + size / 2, top + ra * size + size / 2
            x2, y2 = pad + cb * size + size / 2, top + rb * size + size / 2
            if ra == rb:
                svg.line(x1 + size / 2 - 4, y1, x2 - size / 2 + 4, y2, "#222", 6)
            else:
                svg.line(x1, y1 + size / 2 - 4, x2, y2 - size / 2 + 4, "#222", 6)
    return svg
