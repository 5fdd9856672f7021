"""Terminal and SVG output shared by all games."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


class LazyConsole:
    """A rich Console made when first used (with these options), and used as one:
    every command-line module imports the two below, and rich.console with what it
    imports takes a fifth of `toppi <game> --help`, which prints nothing through them."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        if name in ("_options", "_console"):  # not set yet (a copy): no recursion
            raise AttributeError(name)
        return getattr(self.console, name)

    def print(self, *objects: Any, **options: Any) -> None:
        """Console.print, with tables too wide for the terminal stacked (`fitted`)."""
        console = self.console
        console.print(*(fitted(console, o) for o in objects), **options)

    # rich's live displays hold the console with `with console:`
    def __enter__(self) -> Console:
        return self.console.__enter__()

    def __exit__(self, *exc: Any) -> None:
        self.console.__exit__(*exc)


def fitted(console: Console, renderable: Any) -> Any:
    """A table whose words cannot all fit the console's width (rich would cut them to
    "…") as a stack instead: each row a block of "header  value" lines, so no move or
    name is ever cut; anything else as it is."""
    from rich.console import Group
    from rich.measure import Measurement
    from rich.table import Table

    if isinstance(renderable, Group):
        return Group(*(fitted(console, r) for r in renderable.renderables))
    if not isinstance(renderable, Table) or not renderable.columns:
        return renderable
    # measured without the console's limit: the width the words need, not less
    wide = console.options.update(max_width=10 ** 5)
    table = Measurement.get(console, wide, renderable)
    if table.maximum <= console.width:
        return renderable
    if renderable.row_count and drop_empty_columns(renderable):
        table = Measurement.get(console, wide, renderable)
        if table.maximum <= console.width:
            return renderable
    if table.minimum > console.width:
        return stacked(renderable)
    # rich would narrow the widest columns first, cutting their words: give each
    # column its longest word, and the room left in proportion to what it would use
    cells = [[c.header, *c.cells] for c in renderable.columns]
    sizes = [[Measurement.get(console, wide, x) for x in column] for column in cells]
    low = [max(m.minimum for m in column) for column in sizes]
    high = [max(m.maximum for m in column) for column in sizes]
    room = console.width - (table.minimum - sum(low)) - sum(low)
    spare = sum(h - lo for lo, h in zip(low, high, strict=True)) or 1
    for column, lo, h in zip(renderable.columns, low, high, strict=True):
        column.width = lo + (h - lo) * room // spare
    return renderable


def drop_empty_columns(table: Any) -> bool:
    """Remove the columns of a too wide table that have nothing in any row (their
    headers would take room from the words); whether any went."""
    empty = [c for c in table.columns
             if all(not (x.plain if hasattr(x, "plain") else str(x)).strip()
                    for x in c.cells)]
    for column in empty:
        table.columns.remove(column)
    return bool(empty)


def stacked(table: Any) -> Any:
    """The rows of a rich Table one below the other, each a grid of header and value."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    headers = [Text.from_markup(h) if isinstance(h, str) else h
               for h in (c.header for c in table.columns)]
    names = [" ".join(h.plain.split()) if isinstance(h, Text) else str(h) for h in headers]
    cells = [list(c.cells) for c in table.columns]
    parts: list[Any] = []
    if table.title:
        parts.append(Text.from_markup(table.title, style="italic")
                     if isinstance(table.title, str) else table.title)
    for r in range(table.row_count):
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(overflow="fold")
        for name, column in zip(names, cells, strict=True):
            grid.add_row(name, column[r] if r < len(column) else "")
        parts += [Text(""), grid]
    if table.caption:
        parts += [Text(""), Text.from_markup(table.caption)
                  if isinstance(table.caption, str) else table.caption]
    return Group(*parts)


#: Human output goes to stdout; progress and logs to stderr (stdout stays clean for --json).
stdout = LazyConsole(highlight=False)
stderr = LazyConsole(stderr=True, highlight=False)


def print_json(text: str) -> None:
    """Write one JSON document on stdout, uncoloured."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def text_on(rgb: str) -> str:
    """Black or white, whichever reads better on a background colour '#rrggbb'."""
    r, g, b = (int(rgb[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


class Svg:
    """A minimal SVG document builder (no dependency needed for boards of polygons)."""

    def __init__(self, width: float, height: float, background: str = "#ffffff") -> None:
        self.width, self.height = width, height
        self.items: list[str] = [
            f'<rect x="0" y="0" width="{width:.1f}" height="{height:.1f}" fill="{background}"/>']
        self.hits: list[str] = []

    def hit(self, kind: str, name: str, x: float, y: float, w: float, h: float) -> None:
        """Mark a clickable thing of the picture: a transparent rectangle (class `hit`,
        its kind and the word that names it in the game's notation) drawn over
        everything when the picture is rendered for the web page."""
        import html

        self.hits.append(
            f'<rect class="hit" data-kind="{html.escape(kind)}" data-id="{html.escape(name)}" '
            f'x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="transparent">'
            f'<title>{html.escape(name)}</title></rect>')

    def polygon(self, points: list[tuple[float, float]], fill: str, stroke: str = "#333",
                width: float = 1.0) -> None:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        self.items.append(f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" '
                          f'stroke-width="{width:.1f}"/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str,
             width: float = 1.0) -> None:
        self.items.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                          f'stroke="{stroke}" stroke-width="{width:.1f}" '
                          f'stroke-linecap="round"/>')

    def circle(self, x: float, y: float, r: float, fill: str, stroke: str = "#333") -> None:
        self.items.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" '
                          f'stroke="{stroke}"/>')

    def text(self, x: float, y: float, s: str, size: float = 12, fill: str = "#000",
             anchor: str = "middle", bold: bool = False) -> None:
        import html  # here: the command-line modules import this one, few draw

        weight = ' font-weight="bold"' if bold else ""
        self.items.append(f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" '
                          f'font-size="{size:.1f}" fill="{fill}" text-anchor="{anchor}" '
                          f'dominant-baseline="central"{weight}>{html.escape(s)}</text>')

    def render(self, interactive: bool = False) -> str:
        """The SVG document; `interactive` adds the clickable marks (`hit`) on top."""
        body = "\n  ".join(self.items + (self.hits if interactive else []))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" '
                f'height="{self.height:.0f}" viewBox="0 0 {self.width:.1f} {self.height:.1f}">'
                f"\n  {body}\n</svg>\n")

    def save(self, path: str | Path) -> None:
        from solver.io import write_text

        write_text(path, self.render(), "--svg")
