"""Printable puzzle sheets: many drawings (one per puzzle) laid out on A4 pages, the
puzzles on the first page(s) and their solutions on the following ones.

An SVG file has a single page, so a sheet is written as one SVG per page
(`sheet.svg`, `sheet-2.svg`, ...) and, for printing in one go, as one HTML document with
a page break after every page (any browser prints it, or saves it as PDF).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from solver.errors import BadInput
from solver.render import Svg

# A4 portrait in CSS pixels (96 per inch): 210 mm x 297 mm
PAGE_W, PAGE_H = 794.0, 1123.0
MARGIN = 40.0
TITLE_H = 40.0
CAPTION_H = 22.0


@dataclass
class Card:
    """One puzzle (or one solution) on a sheet: its caption and its drawing."""

    caption: str
    drawing: Svg


def _inner(svg: Svg) -> str:
    body = "\n".join(svg.items)
    return (f'<svg width="{svg.width:.1f}" height="{svg.height:.1f}" '
            f'viewBox="0 0 {svg.width:.1f} {svg.height:.1f}">{body}</svg>')


def pages(title: str, cards: list[Card], columns: int = 2) -> list[Svg]:
    """Lay the cards out in a grid, as many per A4 page as fit at a readable size."""
    if not cards:
        raise BadInput("nothing to put on the sheet")
    cell_w = (PAGE_W - 2 * MARGIN) / columns
    tallest = max(c.drawing.height * min(1.0, cell_w * 0.94 / c.drawing.width) for c in cards)
    rows = max(1, int((PAGE_H - 2 * MARGIN - TITLE_H) // (tallest + CAPTION_H + 12)))
    per_page = rows * columns
    out = []
    n_pages = math.ceil(len(cards) / per_page)
    for p in range(n_pages):
        page = Svg(PAGE_W, PAGE_H)
        heading = title if n_pages == 1 else f"{title} ({p + 1}/{n_pages})"
        page.text(PAGE_W / 2, MARGIN + TITLE_H / 2, heading, size=20, bold=True)
        for i, card in enumerate(cards[p * per_page:(p + 1) * per_page]):
            r, c = divmod(i, columns)
            scale = min(1.0, cell_w * 0.94 / card.drawing.width)
            w = card.drawing.width * scale
            x = MARGIN + c * cell_w + (cell_w - w) / 2
            y = MARGIN + TITLE_H + r * (tallest + CAPTION_H + 12)
            page.text(MARGIN + c * cell_w + cell_w / 2, y + CAPTION_H / 2, card.caption,
                      size=13, bold=True)
            page.items.append(f'<g transform="translate({x:.1f},{y + CAPTION_H:.1f}) '
                              f'scale({scale:.4f})">{_inner(card.drawing)}</g>')
        out.append(page)
    return out


def write_sheet(path: str | Path, title: str, puzzles: list[Card], solutions: list[Card],
                columns: int = 2) -> list[Path]:
    """Write the puzzle pages then the solution pages. `path` ending in .html gives one
    printable document; otherwise one SVG per page (path, path-2, ...). Returns the files."""
    import html

    all_pages = pages(title, puzzles, columns) + pages(f"{title}: solutions", solutions, columns)
    from solver.io import write_text

    target = Path(path)
    if target.suffix.lower() in (".html", ".htm"):
        body = "\n".join(f'<div class="page">{p.render()}</div>' for p in all_pages)
        write_text(target,
                   "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                   f"<title>{html.escape(title)}</title><style>"
                   "@page { size: A4; margin: 0 } body { margin: 0 } "
                   ".page { page-break-after: always; width: 210mm; height: 297mm }"
                   ".page svg { width: 100%; height: 100% }</style></head><body>\n"
                   f"{body}\n</body></html>\n", "--svg")
        return [target]
    files = []
    for i, page in enumerate(all_pages):
        name = target if i == 0 else target.with_name(f"{target.stem}-{i + 1}{target.suffix}")
        files.append(write_text(name, page.render(), "--svg"))
    return files
