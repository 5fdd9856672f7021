"""A learned value of Take it Higher! boards: an honest player's expected points to come.

The hint's sampled completions know each sampled future whole, so they value cells for
hindsight; a value learned from play does not. `LineValues` is a sum of table entries
over the lines still able to score (an n-tuple network, as for Take it Easy): each
line's pattern of stripes (and studs, under the gold/silver rules), and the line's
prospects given how many unseen tiles carry its colour (and stud) and how many calls
are left. The tables are learned by temporal differences from seeded self-play
(`td.train`): after each placement the value of the previous board moves toward the
points the placement scored plus the value of the new board. Any rules file of the
family can be learned (`toppi take-it-higher learn`); the built-in board's tables ship
in `data/`. A move is valued one call ahead for the best few cells, and the endgame by
the exact values (`exact.py`).

The value reads only what a player sees: the board, the ships, and which tiles are not
yet placed (never the order of the tiles to come). Values learned with a spaceship rule
set (`ships`) count the ring too and choose the launches; values of the rows alone leave
the launches to the caller.

The modules, each importing only those above it:
- `board.py`: the rules as small integers, a board's lines and supply, placing tiles
  and launching ships;
- `tables.py`: `LineValues`, the tables of one rules file, what they read, and
  writing them to a values file;
- `features.py`: a board's table entries, and each move's gain from the lines through
  its cell alone;
- `td.py`: self-play and the TD(0) / TD(lambda) learning (`train`);
- `files.py`: reading values files back (`load_values`, the built-in ones);
- `policy.py`: the cells for a called tile ranked by the values (`learned_cells`).
"""
