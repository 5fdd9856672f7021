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

    # rich's live displays hold the console with `with console:`
    def __enter__(self) -> Console:
        return self.console.__enter__()

    def __exit__(self, *exc: Any) -> None:
        self.console.__exit__(*exc)


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
