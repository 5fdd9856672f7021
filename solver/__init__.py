"""toppi: solver and puzzle-analysis tool for five tabletop games.

`solver` holds the machinery shared by all games (back-ends, I/O, rendering, the
command line); `models` holds one package per game.
"""

__version__ = "0.1.0"  # the one place: pyproject.toml reads it
